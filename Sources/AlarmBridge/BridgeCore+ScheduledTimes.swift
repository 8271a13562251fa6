/// `getScheduledAlarmTimes` (API-10): the inventory JS shows the user, as one consistent snapshot.
///
/// The bridge answers from a single platform read and its in-memory registry within one step, so
/// no platform change or registry write can fall between the two halves (SCH-13: "one lock").
/// Root rows are reported under root IDs (ID-10); ring rows only for rings the platform confirmed
/// in that read (SCH-15). Any read failure rejects the call (SCH-16, BOOT-2).

/// One root of the snapshot: its recovery metadata and whether the platform holds its primary.
/// - Rule: SCH-14, SCH-17.
public struct ScheduledRootRow: Sendable, Equatable, Codable {
    /// The stable root ID (ID-1), never a ring UUID (ID-10).
    public var rootID: String
    /// The logical alarm (family) the root belongs to.
    public var alarmID: String
    /// Recovery metadata: the configured local time, weekday (nil: one-shot), title and policy.
    public var hour: Int
    public var minute: Int
    public var weekday: Weekday?
    public var title: String
    public var policy: InactivityPolicy
    public var enabled: Bool
    /// The configured primary the bridge wants for the root's next occurrence, and its fire time
    /// (wall ms); nil when none is wanted (a one-shot already past, a disabled alarm).
    public var primaryID: AlarmUUID?
    public var nextFireWallMs: Int64?
    /// SCH-14: true exactly when the platform read holds `primaryID`.
    public var registered: Bool
    /// SCH-17: the bridge consumed this root's exact primary while Ember stayed in the foreground
    /// (FG-2); never sets or implies `registered`.
    public var foregroundSuppressed: Bool
    /// Android: the platform holds the primary only as an inexact allow-while-idle alarm, because
    /// exact alarms are refused ([derived] AND-1, AND-3): it may ring up to its AMS window late.
    /// JS tells the user and offers the exact-alarm settings page. Always false on iOS.
    public var inexact: Bool = false
}

/// One physical ring the platform confirmed in the snapshot's read (SCH-15).
public struct ScheduledRingRow: Sendable, Equatable, Codable {
    /// The physical ring UUID, which JS uses only to display the ring, never as an alarm ID.
    public var ringID: AlarmUUID
    /// Its owning root (ID-9).
    public var rootID: String
    public var kind: RingKind
    /// Due instant as published (wall ms).
    public var fireWallMs: Int64
    /// The platform's state in the read (AlarmKit `Alarm.State`).
    public var state: PlatformAlarm.State
}

/// The `getScheduledAlarmTimes` result.
public struct ScheduledAlarmTimes: Sendable, Equatable, Codable {
    /// One row per root of every configured alarm, sorted by root ID.
    public var roots: [ScheduledRootRow]
    /// Rings the platform confirmed that the registry knows, sorted by ring ID.
    public var rings: [ScheduledRingRow]
    /// CAP-9: wanted rings that a bound or the capacity limit keeps unregistered, shown to the user.
    public var droppedCount: Int
}

extension BridgeCore {
    /// API-10, SCH-13..17: builds the snapshot from one platform read and the registry.
    func scheduledAlarmTimes(from inventory: [PlatformAlarm], now: BridgeInstants) -> ScheduledAlarmTimes {
        guard let document else { return ScheduledAlarmTimes(roots: [], rings: [], droppedCount: 0) }
        let held = RingIDSet(inventory.map(\.id))  // membership only (issue 20)
        let wanted = desiredRings(now: now).filter { $0.metadata.kind == .primary }
        var roots: [ScheduledRootRow] = []
        roots.reserveCapacity(document.alarms.count * 7)  // at most seven roots an alarm
        for alarm in document.alarms {
            // Each of ``LogicalAlarm/roots``, in its order, from the alarm's own fields: a root's
            // time, title and policy are its alarm's (issue 20: building every root, skip dates
            // included, was a third of a snapshot).
            func appendRoot(_ rootID: String, weekday: Weekday?) {
                // The root's soonest configured primary (a skip-date root may want several).
                let primary = alarm.enabled ? wanted.first(where: { $0.metadata.rootID == rootID }) : nil
                let suppressed = foregroundSuppressed.contains { $0.rootID == rootID }
                roots.append(ScheduledRootRow(
                    rootID: rootID, alarmID: alarm.id, hour: alarm.hour, minute: alarm.minute, weekday: weekday,
                    title: alarm.title, policy: alarm.policy, enabled: alarm.enabled,
                    primaryID: primary?.id, nextFireWallMs: primary?.fireWallMs,
                    registered: primary.map { held.contains($0.id) } ?? false,  // SCH-14, SCH-17
                    foregroundSuppressed: suppressed,
                    inexact: primary.flatMap { document.row($0.id)?.inexact } ?? false))
            }
            switch alarm.repeats {
            case .once: appendRoot(alarm.id, weekday: nil)
            case .weekly(let days): for day in days.sorted() { appendRoot(alarm.rootID(on: day), weekday: day) }
            }
        }
        var rings: [ScheduledRingRow] = []
        rings.reserveCapacity(inventory.count)
        // A read already in ID order, and roots already in root-ID order, are kept as they are
        // (the sort is stable: the same order either way; issue 20).
        for alarm in inventory.isSortedByID() ? inventory : inventory.sorted(by: { $0.id < $1.id }) {
            guard let row = document.row(alarm.id) else { continue }  // SCH-15: both sides confirm it
            rings.append(ScheduledRingRow(ringID: alarm.id, rootID: row.metadata.rootID, kind: row.metadata.kind,
                                          fireWallMs: row.fireWallMs, state: alarm.state))
        }
        let rootsInOrder = roots.indices.dropFirst().allSatisfy { !(roots[$0].rootID < roots[$0 - 1].rootID) }
        return ScheduledAlarmTimes(roots: rootsInOrder ? roots : roots.sorted { $0.rootID < $1.rootID }, rings: rings,
                                   droppedCount: document.droppedCount)
    }

    /// Answers a `.scheduledTimes` read: the snapshot first (it is what the read saw), then on
    /// Android the repair of stored schedules (AND-5) as a launch-origin sync.
    mutating func answerScheduledTimes(_ result: Result<[PlatformAlarm], PlatformError>, now: BridgeInstants,
                                       into out: inout [BridgeCommand]) {
        switch result {
        case .success(let inventory):
            out.append(.reply(.scheduledAlarmTimes(scheduledAlarmTimes(from: inventory, now: now))))
        case .failure(let error):
            // SCH-16: reject; never substitute saved records or an empty inventory.
            out.append(.reply(.scheduledAlarmTimesRejected(reason: "platform inventory unreadable: \(error.rawValue)")))
        }
    }
}

/// When a Stop happened, as the bridge knows it (OCC-6, ACT-1).
public struct StopArrival: Sendable, Equatable {
    public var ringID: AlarmUUID
    /// Wall and monotonic ms of the Stop intent's arrival; a Stop journalled by an earlier
    /// process has only its wall instant (`monotonicMs` and `bootCount` nil).
    public var wallMs: Int64
    public var monotonicMs: Int64?
    public var bootCount: Int?
}

extension BridgeCore {
    static let stopArrivalsMax = 16

    /// Records the first arrival of a Stop intent for `id` (a repeated intent keeps the first).
    mutating func noteStopArrival(_ id: AlarmUUID, now: BridgeInstants) {
        guard !stopArrivals.contains(where: { $0.ringID == id }) else { return }
        stopArrivals.append(StopArrival(ringID: id, wallMs: now.wallMs, monotonicMs: now.monotonicMs, bootCount: now.bootCount))
        if stopArrivals.count > Self.stopArrivalsMax { stopArrivals.removeFirst() }
    }

    /// OCC-6: the wall instant (in the frame of `now`) of the Stop of `id` that this bridge has
    /// not yet acted on, or nil when none is recorded. Measured on the monotonic clock when the
    /// Stop reached this boot's process, so a clock correction in between does not move it;
    /// a journalled Stop of an earlier process keeps its wall instant. Never later than now.
    func stopTriggerWallMs(_ id: AlarmUUID, now: BridgeInstants) -> Int64? {
        guard let arrival = stopArrivals.first(where: { $0.ringID == id }) else { return nil }
        return triggerWallMs(arrival, now: now)
    }

    /// OCC-6: the earliest Stop not yet acted on of a ring bound to `live`'s root, as
    /// ``stopTriggerWallMs(_:now:)`` reads it; nil when none waits.
    /// A ring cancelled while its schedule was in flight (`cancelledInFlight`) that then landed
    /// and sounded is still that occurrence's: its Stop counts (ios swarm seed 11765).
    /// A tied root's primary (another root due at the same ring time, settled for `live`'s root)
    /// that alerted and was stopped is that ring time's alert too: its Stop is the trigger
    /// (OCC-5, OCC-6; ios uniform seed 51401: a2 and a1.wed tied at 08:11, the user stopped a2's
    /// alert, and the successor of a1.wed's occurrence was timed from the late launch instead).
    func pendingStopTriggerWallMs(for live: OccurrenceRecord, now: BridgeInstants) -> Int64? {
        stopArrivals.filter { arrival in
            document?.row(arrival.ringID)?.metadata.rootID == live.rootID
                || document?.cancelledInFlight?.contains { $0.id == arrival.ringID && $0.metadata.token == live.token } == true
                || isTiedPrimary(arrival.ringID, of: live, now: now)
        }
        .map { triggerWallMs($0, now: now) }.min()
    }

    /// OCC-3, OCC-6: whether `id` is the primary of another root due at `live`'s own ring time.
    func isTiedPrimary(_ id: AlarmUUID, of live: OccurrenceRecord, now: BridgeInstants) -> Bool {
        guard let row = document?.row(id), row.metadata.kind.opensOccurrence, row.metadata.rootID != live.rootID else { return false }
        return occurrenceStart(of: row, now: now) == live.startedAtMs
    }

    func triggerWallMs(_ arrival: StopArrival, now: BridgeInstants) -> Int64 {
        if defects.successorTimedFromObservation { return now.wallMs }  // known defect (OCC-6)
        if let monotonicMs = arrival.monotonicMs, arrival.bootCount == now.bootCount, now.monotonicMs >= monotonicMs {
            return now.wallMs - (now.monotonicMs - monotonicMs)
        }
        return min(arrival.wallMs, now.wallMs)
    }
}

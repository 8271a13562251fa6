import AlarmBridge
import Foundation
import SimKernel

/// The state an older app version left on the device before it was updated: the persisted
/// document (schema version 1, schedules without an inactivity-policy marker, legacy ring rows,
/// legacy future tombstones, stale action/context/pending metadata) and the rings it registered
/// with the platform (surplus same-morning cadence rings, foreground maintenance alarms, walk-fuse
/// pairs, safety relays, walk cadences, primaries under legacy IDs). The run starts right after
/// the update: the first launch of the new version migrates (BOOT-9..11, OCC-17, ACT-9, INACT-2,
/// AND-4). Committed examples of such documents: `Scenarios/fixtures/legacy-*.json`.
public struct LegacyInstall: Sendable {
    /// How far apart an older version spaced its same-morning cadence rings (virtual ms). Not in
    /// the seeds: the bound the kept cadence ring's pressure is judged by (BOOT-10).
    public static let cadenceSpacingMs: Int64 = 5 * 60_000

    /// The document as the older version wrote it (decoded from its JSON, markers missing).
    public var document: BridgeDocument
    /// The rings the platform holds for the app (AlarmKit daemon / AlarmManager), sorted by ID.
    public var rings: [RingRequest]
    /// The user's configuration: the alarms with the policy their schedules carry (`.legacy`
    /// where the older version wrote no marker, INACT-25).
    public var alarms: [LogicalAlarm]
    /// Android: the document sits in credential-protected storage (AND-4), not device-protected.
    public var credentialProtected: Bool
    /// The alarms `generate` was given, before it dropped policy markers: what a scenario
    /// declares to regenerate this state (`param app.legacy-install swarm`, Shrinker).
    public var configuredAlarms: [LogicalAlarm] = []

    public init(document: BridgeDocument, rings: [RingRequest], alarms: [LogicalAlarm], credentialProtected: Bool) {
        self.document = document
        self.rings = rings
        self.alarms = alarms
        self.credentialProtected = credentialProtected
    }

    /// A legacy ring ID: older versions drew their own UUIDs, not f(root, fire minute) (ID-2).
    static func legacyID(_ name: String) -> AlarmUUID {
        AlarmUUID.v5(namespace: RingIdentity.namespace, name: "legacy|" + name)
    }

    /// Generates the legacy state for `alarms` at `nowWallMs`.
    /// - Parameters:
    ///   - everyKind: scenarios: every legacy kind and case present, no draw decides it, and only
    ///     the alarms declared with `policy legacy` lack the marker.
    ///   - rng: the seed's `setup.legacy-install` stream.
    public static func generate(alarms configured: [LogicalAlarm], platform: PlatformFlavor, calendar: WallCalendar,
                                nowWallMs: Int64, everyKind: Bool, rng: inout Xoshiro256StarStar) -> LegacyInstall {
        var builder = LegacyBuilder(platform: platform, calendar: calendar, nowWallMs: nowWallMs, everyKind: everyKind, rng: rng)
        var alarms = configured
        var unmarked: [String] = []
        for index in alarms.indices where alarms[index].policy == .legacy || (!everyKind && builder.rng.chance(Ratio(1, 2))) {
            alarms[index].policy = .legacy  // INACT-2: the older version wrote no marker
            unmarked.append(alarms[index].id)
        }
        builder.document.alarms = alarms.sorted { $0.id < $1.id }
        for alarm in alarms where alarm.enabled {
            for root in alarm.roots { builder.addRoot(root, of: alarm) }
        }
        if let first = alarms.first?.roots.first {
            builder.addMaintenanceAlarm(first)
            builder.addYesterdaysOccurrence(first)
        }
        builder.document.staleChallengeVisible = builder.chance(Ratio(1, 3)) ? true : nil
        builder.document.serial = builder.serial
        builder.document.rings = builder.rows.sorted { $0.id < $1.id }
        // The document as the older version wrote it and the current types read it (INACT-2: no
        // policy marker reads as `.legacy`, which `alarms` already carries). Built directly: the
        // JSON round trip of `decodeAsWritten` cost 4–5 % of a campaign (issue 20); a test holds
        // the two equal (LegacyInstallTests).
        var install = LegacyInstall(document: builder.document, rings: builder.rings.sorted { $0.id < $1.id }, alarms: alarms,
                                    credentialProtected: platform == .android && builder.chance(Ratio(1, 2)))
        install.configuredAlarms = configured
        rng = builder.rng
        return install
    }

    /// The document as the older version serialised it: JSON without the policy marker of
    /// unmarked schedules, decoded by the current `Codable` types (INACT-2: they read as legacy).
    /// The reference `generate`'s directly built document is tested against.
    static func decodeAsWritten(_ document: BridgeDocument, unmarked: [String]) -> BridgeDocument {
        guard let data = try? JSONEncoder().encode(document),
              var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let alarms = object["alarms"] as? [[String: Any]] else { preconditionFailure("a document encodes") }
        object["alarms"] = alarms.map { alarm -> [String: Any] in
            guard let id = alarm["id"] as? String, unmarked.contains(id) else { return alarm }
            var stripped = alarm
            stripped["policy"] = nil
            return stripped
        }
        guard let written = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
              let decoded = try? JSONDecoder().decode(BridgeDocument.self, from: written) else {
            preconditionFailure("a legacy document decodes with the current types")
        }
        return decoded
    }
}

/// The older version's document and platform rings as ``LegacyInstall/generate(alarms:platform:calendar:nowWallMs:everyKind:rng:)``
/// builds them, root by root. Every draw comes from `rng` in a fixed order, so a seed's legacy
/// state never changes.
private struct LegacyBuilder {
    let platform: PlatformFlavor
    let calendar: WallCalendar
    let nowWallMs: Int64
    let everyKind: Bool
    var rng: Xoshiro256StarStar
    var document = BridgeDocument()
    var rows: [RingRow] = []
    var rings: [RingRequest] = []
    var serial: UInt64 = 40
    var rootNumber = 0

    init(platform: PlatformFlavor, calendar: WallCalendar, nowWallMs: Int64, everyKind: Bool, rng: Xoshiro256StarStar) {
        self.platform = platform
        self.calendar = calendar
        self.nowWallMs = nowWallMs
        self.everyKind = everyKind
        self.rng = rng
        document.schemaVersion = 1
        document.zoneIdentifier = calendar.zoneIdentifier
        document.zoneAdoptedAtMs = nowWallMs - 86_400_000
    }

    /// True for every case under `everyKind`, else a draw.
    mutating func chance(_ ratio: Ratio) -> Bool { everyKind || rng.chance(ratio) }

    /// A ring as the older version kept it: a row (unless `row` is false) and in the platform
    /// (unless `platformHolds` is false).
    mutating func add(_ request: RingRequest, row wantRow: Bool = true, platformHolds: Bool = true) {
        if wantRow {
            rows.append(RingRow(id: request.id, schedule: request.schedule, fireWallMs: request.fireWallMs,
                                metadata: request.metadata, fingerprint: "legacy-" + String(request.id.description.prefix(8)),
                                publishedAtMs: nowWallMs - 3_600_000, confirmed: true, delivered: false,
                                soundName: request.soundName))
        }
        if platformHolds { rings.append(request) }
    }

    /// The root's next ring time and the schedule the older version used for it.
    func nextFire(_ root: Root) -> (fire: Int64, schedule: RingSchedule) {
        switch (platform, root.onceFireWallMs) {
        case (_, .some(let once)):
            return (once, platform == .ios ? .relative(hour: root.hour, minute: root.minute, weekday: nil) : .fixed(wallMs: once))
        case (.ios, nil):
            let fire = calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: nowWallMs)
            return (fire, .relative(hour: root.hour, minute: root.minute, weekday: root.weekday))
        case (.android, nil):
            let fire = calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: nowWallMs)
            return (fire, .fixed(wallMs: fire))
        }
    }

    /// A ring of `root` of `kind` at `wallMs`: a primary keeps the root's schedule and sound.
    func ring(_ id: AlarmUUID, _ kind: RingKind, at wallMs: Int64, root: Root, alarm: LogicalAlarm,
              schedule: RingSchedule) -> RingRequest {
        let ringSchedule = kind == .primary ? schedule : .fixed(wallMs: wallMs)
        var sound: String?
        if kind == .primary, let choice = alarm.sounds?.choose(position: 0, salt: id.description),
           choice.name != SoundSettings.systemDefaultSoundName {
            sound = choice.name
        }
        return RingRequest(id: id, schedule: ringSchedule, fireWallMs: wallMs,
                           metadata: RingMetadata(rootID: root.id, alarmID: alarm.id, kind: kind, token: nil, title: alarm.title),
                           soundName: sound)
    }

    /// One root's primary in one of its legacy variants, and the legacy rings around its next morning.
    mutating func addRoot(_ root: Root, of alarm: LogicalAlarm) {
        let (fire, schedule) = nextFire(root)
        guard fire > nowWallMs else { return }
        // The primary: under the current identity, under a legacy ID (BOOT-9), held without
        // its row (missing bookkeeping), missing (an older version cut off far primaries),
        // or missing behind a legacy future tombstone (OCC-17).
        let variant: Int
        if everyKind {
            variant = rootNumber % 5
        } else {
            let roll = rng.uniform(below: 10)
            variant = roll < 5 ? 0 : roll < 7 ? 1 : roll < 8 ? 2 : roll < 9 ? 3 : 4
        }
        rootNumber += 1
        let fireKey: FireKey = (platform == .ios && root.weekday != nil) ? .localTime(hour: root.hour, minute: root.minute)
            : .wallMinute(fire / 60_000)
        let currentID = RingIdentity.primaryID(rootID: root.id, fireKey: fireKey)
        switch variant {
        case 0: add(ring(currentID, .primary, at: fire, root: root, alarm: alarm, schedule: schedule))
        case 1: add(ring(LegacyInstall.legacyID("\(root.id)|primary"), .primary, at: fire, root: root, alarm: alarm, schedule: schedule))
        case 2: add(ring(currentID, .primary, at: fire, root: root, alarm: alarm, schedule: schedule), row: false)
        case 3: break
        default:
            serial += 1
            document.occurrences.append(OccurrenceRecord(token: LegacyInstall.legacyID("\(root.id)|tombstone").description, rootID: root.id,
                                                         startedAtMs: fire, policy: root.policy, lastActivityMs: nil,
                                                         state: .completed, closedAtMs: nowWallMs - 7_200_000))
        }
        addLegacyRings(root, of: alarm, fire: fire, schedule: schedule)
    }

    /// Legacy rings around the root's next morning (BOOT-11), each sometimes only a row (stale
    /// pending metadata) or only in the platform (lost bookkeeping).
    mutating func addLegacyRings(_ root: Root, of alarm: LogicalAlarm, fire: Int64, schedule: RingSchedule) {
        func legacy(_ kind: RingKind, _ number: Int, at wallMs: Int64) {
            let request = ring(LegacyInstall.legacyID("\(root.id)|\(kind.rawValue)|\(number)"), kind, at: wallMs, root: root,
                               alarm: alarm, schedule: schedule)
            let where_ = everyKind ? 0 : rng.uniform(below: 8)
            add(request, row: where_ != 1, platformHolds: where_ != 2)
        }
        if chance(Ratio(1, 2)) {
            for number in 1...Int(everyKind ? 3 : rng.int(in: 2...4)) {
                legacy(.legacyCadence, number, at: fire + Int64(number) * LegacyInstall.cadenceSpacingMs)
            }
        }
        if chance(Ratio(1, 3)) { legacy(.legacySafetyRelay, 1, at: fire + (everyKind ? 1_200_000 : rng.int(in: 900_000...2_400_000))) }
        if alarm.challenge.isWalk || everyKind {
            if chance(Ratio(1, 2)) {
                legacy(.legacyFusePair, 1, at: fire + 60_000)
                legacy(.legacyFusePair, 2, at: fire + 90_000)
            }
            if chance(Ratio(1, 2)) { legacy(.legacyWalkCadence, 1, at: fire + 120_000) }
        }
    }

    /// A foreground maintenance alarm armed while the old version was last in the foreground.
    mutating func addMaintenanceAlarm(_ first: Root) {
        guard chance(Ratio(1, 2)) else { return }
        let at = nowWallMs + (everyKind ? 1_800_000 : rng.int(in: 600_000...7_200_000))
        let request = RingRequest(id: LegacyInstall.legacyID("\(first.id)|maintenance"), schedule: .fixed(wallMs: at), fireWallMs: at,
                                  metadata: RingMetadata(rootID: first.id, alarmID: first.alarmID, kind: .legacyForegroundMaintenance,
                                                         token: nil, title: first.title))
        add(request)
    }

    /// Yesterday's completed occurrence, with stale metadata around it (ACT-9).
    mutating func addYesterdaysOccurrence(_ first: Root) {
        guard chance(Ratio(1, 2)) else { return }
        let started = calendar.latestFire(hour: first.hour, minute: first.minute, weekday: first.weekday, atOrBefore: nowWallMs - 60_000)
        serial += 1
        let token = RingIdentity.occurrenceToken(rootID: first.id, startedAtMs: started, serial: serial)
        document.occurrences.insert(OccurrenceRecord(token: token, rootID: first.id, startedAtMs: started, policy: first.policy,
                                                     lastActivityMs: started + 120_000, state: .completed,
                                                     closedAtMs: started + 300_000), at: 0)
        // A successor row of that occurrence the old version never cleaned up (pending metadata).
        rows.append(RingRow(id: LegacyInstall.legacyID("\(first.id)|stale-successor"), schedule: .fixed(wallMs: started + 10_000),
                            fireWallMs: started + 10_000,
                            metadata: RingMetadata(rootID: first.id, alarmID: first.alarmID, kind: .successor, token: token, title: first.title),
                            fingerprint: "legacy", publishedAtMs: started, confirmed: false, delivered: false))
        document.actions = [ActionRecord(alarmID: first.id, action: "stop", occurredAtMs: started + 30_000)]
        if platform == .android {
            document.passOverQueue = [QueuedPassOver(rootID: first.id + ".other", ringID: LegacyInstall.legacyID("passover"), ringTimeMs: started,
                                                     ownerToken: token, queuedAtMs: started)]
        }
    }
}

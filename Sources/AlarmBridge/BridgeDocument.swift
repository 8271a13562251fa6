/// The bridge's persisted state: everything that survives process death.
///
/// Written whole through the store port (`BridgeCommand.persist`). On iOS it lives in protected
/// data (unreadable before first unlock, BOOT-1); on Android in device-protected storage (AND-2).
/// Arrays, never dictionaries, so encoding and iteration order are deterministic.
public struct BridgeDocument: Codable, Sendable, Equatable {
    /// The document format this version writes. Documents of older versions (1: before the
    /// inactivity-policy marker was mandatory, with legacy ring kinds) are migrated on the first
    /// launch after the update (BOOT-9..11, OCC-17, ACT-9; BridgeCore+Migration.swift).
    public static let currentSchemaVersion = 2
    /// Every stored field of the document, in its JSON order: the synthesized `Codable` of this
    /// struct is the document's format (field names, order, `encodeIfPresent` for the optional
    /// ones), exactly as when they were the document's own stored properties.
    @usableFromInline
    struct Fields: Codable, Sendable, Equatable {
        @usableFromInline var schemaVersion: Int = BridgeDocument.currentSchemaVersion
        @usableFromInline var alarms: [LogicalAlarm] = []
        @usableFromInline var rings: [RingRow] = []
        @usableFromInline var occurrences: [OccurrenceRecord] = []
        @usableFromInline var missReceipts: [MissReceipt] = []
        @usableFromInline var actions: [ActionRecord] = []
        @usableFromInline var serial: UInt64 = 0
        @usableFromInline var droppedCount: Int = 0
        @usableFromInline var dropped: [DroppedRing]?
        @usableFromInline var zoneIdentifier: String?
        @usableFromInline var zoneAdoptedAtMs: Int64?
        @usableFromInline var previousZoneIdentifier: String?
        @usableFromInline var clockReferenceWallMs: Int64?
        @usableFromInline var clockReferenceMonotonicMs: Int64?
        @usableFromInline var clockReferenceBootCount: Int?
        @usableFromInline var staleChallengeVisible: Bool?
        @usableFromInline var walk: WalkRecord?
        @usableFromInline var diagnostics: [DiagnosticEntry]?
        @usableFromInline var passOverQueue: [QueuedPassOver]?
        @usableFromInline var audibleAlarmIDs: [String]?
        @usableFromInline var missedRingIDs: [AlarmUUID]?
        @usableFromInline var refusedRows: [RingRow]?
        @usableFromInline var passedOverRingTimes: [PassedOverRingTime]?
        @usableFromInline var datedSetBack: DatedSetBack?
        @usableFromInline var forwardJump: ForwardJump?
        @usableFromInline var snoozeRebaseOwed: RingRow?
        @usableFromInline var unheldRingIDs: [AlarmUUID]?
        @usableFromInline var cancelledInFlight: [RingRow]?
    }

    /// The fields, in one copy-on-write box (issue 20; ``CopyOnWrite``). Internal only so that
    /// the accessors below can be inlined into other modules: every change of `occurrences` goes
    /// through ``occurrences``, which keeps ``liveIndex``; nothing writes the field directly.
    @usableFromInline var storage: CopyOnWrite<Fields>

    /// The index in `occurrences` of the last live record (OCC-1: at most one is live), nil when
    /// none is: found again after every change of `occurrences`, so ``liveOccurrence`` does not
    /// scan the whole history (issue 20: the bridge and the checks ask several times an event,
    /// and most of the time nothing is live). Derived, so neither encoded nor compared.
    @usableFromInline var liveIndex: Int?

    public init() { storage = CopyOnWrite(Fields()) }

    public init(from decoder: any Decoder) throws {
        storage = CopyOnWrite(try Fields(from: decoder))
        liveIndex = Self.lastLiveIndex(storage.value.occurrences)
    }

    /// The index of the last live record of `occurrences`, read in place.
    @usableFromInline static func lastLiveIndex(_ occurrences: [OccurrenceRecord]) -> Int? {
        occurrences.withUnsafeBufferPointer { records in
            var index = records.endIndex
            while index > records.startIndex {
                index -= 1
                if records[index].state == .live { return index }
            }
            return nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.value.encode(to: encoder)
    }

    public static func == (lhs: BridgeDocument, rhs: BridgeDocument) -> Bool {
        lhs.storage.sharesStorage(with: rhs.storage) || lhs.storage.value == rhs.storage.value
    }

    @inlinable public var schemaVersion: Int {
        _read { yield storage.value.schemaVersion }
        _modify { yield &storage.value.schemaVersion }
    }
    /// Configured logical alarms, sorted by ID.
    @inlinable public var alarms: [LogicalAlarm] {
        _read { yield storage.value.alarms }
        _modify { yield &storage.value.alarms }
    }
    /// Registry rows: one per ring the bridge published, sorted by ring ID (IOS-14).
    @inlinable public var rings: [RingRow] {
        _read { yield storage.value.rings }
        _modify { yield &storage.value.rings }
    }
    /// Occurrence records, newest last; bounded (`occurrenceHistoryMax`).
    @inlinable public var occurrences: [OccurrenceRecord] {
        _read { yield storage.value.occurrences }
        _modify {
            defer { liveIndex = Self.lastLiveIndex(storage.value.occurrences) }  // also when the change throws
            yield &storage.value.occurrences
        }
    }
    /// Inactivity miss receipts, kept until acknowledged (INACT-18, API-20).
    @inlinable public var missReceipts: [MissReceipt] {
        _read { yield storage.value.missReceipts }
        _modify { yield &storage.value.missReceipts }
    }
    /// Platform actions (ACT-1), newest last; bounded.
    @inlinable public var actions: [ActionRecord] {
        _read { yield storage.value.actions }
        _modify { yield &storage.value.actions }
    }
    /// Monotone serial for tokens and successor IDs; never reused (ID-7).
    @inlinable public var serial: UInt64 {
        _read { yield storage.value.serial }
        _modify { yield &storage.value.serial }
    }
    /// CAP-9: the number of wanted rings currently not registered because of the N_SKIP bound or
    /// the capacity limit, surfaced to the user. Recomputed from `dropped` (never a running total).
    @inlinable public var droppedCount: Int {
        _read { yield storage.value.droppedCount }
        _modify { yield &storage.value.droppedCount }
    }
    /// CAP-9: the wanted rings `droppedCount` counts, sorted by ring ID; nil in older documents.
    @inlinable public var dropped: [DroppedRing]? {
        _read { yield storage.value.dropped }
        _modify { yield &storage.value.dropped }
    }
    /// The device zone the one-shot fire instants were last computed in (REC-8); nil before the
    /// first save that recorded it.
    @inlinable public var zoneIdentifier: String? {
        _read { yield storage.value.zoneIdentifier }
        _modify { yield &storage.value.zoneIdentifier }
    }
    /// When (wall ms) the bridge adopted `zoneIdentifier`: rows published before it were planned
    /// in the previous zone.
    @inlinable public var zoneAdoptedAtMs: Int64? {
        _read { yield storage.value.zoneAdoptedAtMs }
        _modify { yield &storage.value.zoneAdoptedAtMs }
    }
    /// The zone `zoneIdentifier` replaced at `zoneAdoptedAtMs` (REC-8): the frame an alert that
    /// began before that change rang in (ios uniform seed 42727); nil before any change.
    @inlinable public var previousZoneIdentifier: String? {
        _read { yield storage.value.previousZoneIdentifier }
        _modify { yield &storage.value.previousZoneIdentifier }
    }
    /// The (wall, monotonic) reading of the step that last wrote the document: a later process of
    /// the same boot compares against it to notice a clock correction made while none ran (REC-9).
    @inlinable public var clockReferenceWallMs: Int64? {
        _read { yield storage.value.clockReferenceWallMs }
        _modify { yield &storage.value.clockReferenceWallMs }
    }
    @inlinable public var clockReferenceMonotonicMs: Int64? {
        _read { yield storage.value.clockReferenceMonotonicMs }
        _modify { yield &storage.value.clockReferenceMonotonicMs }
    }
    @inlinable public var clockReferenceBootCount: Int? {
        _read { yield storage.value.clockReferenceBootCount }
        _modify { yield &storage.value.clockReferenceBootCount }
    }
    /// Only with the known defect `stale-challenge-visible-survives-restart`: the rendered-challenge
    /// state, persisted (FG-13 says it must never outlive its process).
    @inlinable public var staleChallengeVisible: Bool? {
        _read { yield storage.value.staleChallengeVisible }
        _modify { yield &storage.value.staleChallengeVisible }
    }
    /// The iOS walk of the live occurrence (WALK-3..26); nil when none. Absent from older documents.
    @inlinable public var walk: WalkRecord? {
        _read { yield storage.value.walk }
        _modify { yield &storage.value.walk }
    }
    /// WALK-6: the size-bounded native diagnostics journal, oldest first; nil before the first
    /// entry (and in older documents).
    @inlinable public var diagnostics: [DiagnosticEntry]? {
        _read { yield storage.value.diagnostics }
        _modify { yield &storage.value.diagnostics }
    }
    /// Android: roots whose time arrived during another root's wake session, each waiting in its
    /// own durable queue with no sound and no challenge until the owner closes (AND-15). nil in
    /// documents written before the queue existed.
    @inlinable public var passOverQueue: [QueuedPassOver]? {
        _read { yield storage.value.passOverQueue }
        _modify { yield &storage.value.passOverQueue }
    }
    /// SND-13, SND-14, API-5, API-6: root IDs recorded as audible, in recording order; nil in
    /// documents written before audible counting existed (read as empty).
    @inlinable public var audibleAlarmIDs: [String]? {
        _read { yield storage.value.audibleAlarmIDs }
        _modify { yield &storage.value.audibleAlarmIDs }
    }
    /// Rings already recorded as missed (a `missed` receipt; BridgeCore+Missed.swift), oldest
    /// first and bounded, so an acknowledged record never comes back. nil in older documents.
    @inlinable public var missedRingIDs: [AlarmUUID]? {
        _read { yield storage.value.missedRingIDs }
        _modify { yield &storage.value.missedRingIDs }
    }
    /// iOS: rows of occurrence-opening rings whose schedule request AlarmKit answered with a
    /// failure other than the capacity limit (CAP-9 surfaces those), kept as the evidence of a ring
    /// time nothing was registered for until it lands or is judged (BridgeCore+Missed.swift);
    /// oldest first, bounded. nil in older documents.
    @inlinable public var refusedRows: [RingRow]? {
        _read { yield storage.value.refusedRows }
        _modify { yield &storage.value.refusedRows }
    }
    /// iOS: ring times passed over (OCC-3), oldest first and bounded: a set-back clock makes
    /// AlarmKit alert a `.relative` ring time again, and a passed-over one never becomes owner
    /// (OCC-20: the same ring time again is that time delivered late). Android: only a missed
    /// ring time that came while another root owned the occurrence (android uniform seed 66428;
    /// `rememberMissedPassOvers`). nil in older documents.
    @inlinable public var passedOverRingTimes: [PassedOverRingTime]? {
        _read { yield storage.value.passedOverRingTimes }
        _modify { yield &storage.value.passedOverRingTimes }
    }
    /// Android: the last clock set-back a process noticed (REC-9, OCC-3), so that a later process
    /// still dates the re-lived interval (an OEM kill or process death between the set-back and a
    /// held delivery: android uniform seed 12330) and a ring time reached before it in the old
    /// frame (`dated` false: one a launch measured against the saved reference; android uniform
    /// seed 35966). nil when the last correction was not a set-back, and in older documents.
    @inlinable public var datedSetBack: DatedSetBack? {
        _read { yield storage.value.datedSetBack }
        _modify { yield &storage.value.datedSetBack }
    }
    /// Android: the last forward clock correction a process noticed (REC-9, INACT-19), as (the
    /// old frame's "now" projected, the wall clock after it; wall ms), so that a later process
    /// still dates a ring time reached before it and delivered after it (android uniform seed
    /// 36742: a held 05:33 delivery, a +10 min TIME_SET at 05:34, a force-quit, the delivery at
    /// 05:45 to a new process). nil when the last correction was not forward, and in older documents.
    @inlinable public var forwardJump: ForwardJump? {
        _read { yield storage.value.forwardJump }
        _modify { yield &storage.value.forwardJump }
    }
    /// Android, SNZ-20, SNZ-21: the rebased snooze row whose re-registration the platform refused,
    /// still owed (`BridgeCore.snoozeRebaseRetry`), so that a process death before the retry does
    /// not leave the snooze ring at its stale time (android uniform seed 9523). nil otherwise.
    @inlinable public var snoozeRebaseOwed: RingRow? {
        _read { yield storage.value.snoozeRebaseOwed }
        _modify { yield &storage.value.snoozeRebaseOwed }
    }
    /// Android, issue 18: rings `getNextAlarmClock()` showed AlarmManager had dropped (it accepted
    /// them and holds nothing, while their PendingIntents still answer the app's probes) whose
    /// re-registration was refused: the probes cannot tell the next sync they are missing, so it
    /// registers them again on this record until a write of the ring lands (android uniform seed
    /// 719 with accepted-request-dropped on: the refused repair was read as "the platform keeps
    /// the previous ring", the process died, and an earlier alarm clock hid the drop from every
    /// later read). Oldest first, bounded. nil otherwise, and in older documents.
    @inlinable public var unheldRingIDs: [AlarmUUID]? {
        _read { yield storage.value.unheldRingIDs }
        _modify { yield &storage.value.unheldRingIDs }
    }
    /// iOS: rows of occurrence-bound rings (successors) this bridge cancelled while their schedule
    /// call was still in flight, oldest first and bounded: the cancel may find nothing and the
    /// schedule land afterwards, unseen if the process dies first (IOS-11), so the ring may still
    /// sound for its occurrence. A later process matches its Stop to that occurrence (OCC-6:
    /// the successor is due 10 s after the Stop; ios swarm seed 11765). nil in older documents.
    @inlinable public var cancelledInFlight: [RingRow]? {
        _read { yield storage.value.cancelledInFlight }
        _modify { yield &storage.value.cancelledInFlight }
    }


    /// The live occurrence, if any. At most one exists (OCC-1); if several were, the last.
    @inlinable public var liveOccurrence: OccurrenceRecord? {
        liveIndex.map { storage.value.occurrences[$0] }
    }

    /// Whether an occurrence is live, without copying it out (``liveOccurrence``).
    @inlinable public var hasLiveOccurrence: Bool { liveIndex != nil }

    /// The scans below read each element's field in place: `first(where:)` and `last(where:)`
    /// copied every record they passed (issue 20: the checks ask after every event).

    /// The first row with ring ID `id`, as `rings.first { $0.id == id }` finds it. `rings` is
    /// kept sorted by ID (``upsert(_:)``), so a binary search finds a present row in O(log n)
    /// (issue 20: the linear scan, once per wanted ring, grew as rings²); an ID it does not find
    /// is looked for by the scan, so a document whose rows are out of order still answers right
    /// (unless it also holds one ID twice, which ``upsert(_:)`` never makes).
    public func row(_ id: AlarmUUID) -> RingRow? {
        rowIndex(id).map { rings[$0] }
    }

    /// The index in `rings` of ``row(_:)``'s row, for a caller that reads a few of its fields in
    /// place instead of copying the row (issue 20).
    func rowIndex(_ id: AlarmUUID) -> Int? {
        storage.value.rings.withUnsafeBufferPointer { rings in  // each ID read in place
            var low = 0, high = rings.count
            while low < high {
                let middle = (low + high) / 2
                if rings[middle].id < id { low = middle + 1 } else { high = middle }
            }
            if low < rings.count && rings[low].id == id { return low }
            return rings.indices.first { rings[$0].id == id }
        }
    }

    public func occurrence(token: String) -> OccurrenceRecord? {
        let occurrences = storage.value.occurrences
        for index in occurrences.indices where occurrences[index].token == token { return occurrences[index] }
        return nil
    }

    public func alarm(_ id: String) -> LogicalAlarm? {
        let alarms = storage.value.alarms
        for index in alarms.indices where alarms[index].id == id { return alarms[index] }
        return nil
    }

    public func root(_ rootID: String) -> Root? {
        // A root's ID is its alarm's, or its alarm's, a dot and a day (`LogicalAlarm.roots`): only
        // an alarm whose ID begins `rootID` can hold it, so only such an alarm builds its roots
        // (issue 20: every alarm built every root, IDs and all, at every look-up).
        let alarms = storage.value.alarms
        for index in alarms.indices where rootID.hasPrefix(alarms[index].id) {
            if let root = alarms[index].root(withID: rootID) { return root }
        }
        return nil
    }

    /// Whether ``root(_:)`` finds a root, without building it.
    public func hasRoot(_ rootID: String) -> Bool {
        // Each alarm read in place through the buffer (issue 20: the array's subscript copied
        // every alarm, and the receipt check asks this after every step).
        storage.value.alarms.withUnsafeBufferPointer { alarms in
            alarms.indices.contains { alarms[$0].hasRoot(withID: rootID) }
        }
    }

    mutating func upsert(_ row: RingRow) {
        if let index = rings.firstIndex(where: { $0.id == row.id }) {
            rings[index] = row
        } else if let position = sortedInsertionIndex(of: row.id) {
            rings.insert(row, at: position)  // what append-and-sort gives a sorted array, without the sort (issue 20)
        } else {
            rings.append(row)
            rings.sort { $0.id < $1.id }
        }
    }

    /// Where a row of the new ID `id` goes when `rings` is strictly sorted by ID; nil when it is not.
    func sortedInsertionIndex(of id: AlarmUUID) -> Int? {
        rings.isSortedByID(strictly: true) ? rings.lowerBound(ofID: id) : nil
    }

    mutating func removeRow(_ id: AlarmUUID) {
        rings.removeAll { $0.id == id }
    }

    /// Keeps `row` as a ring cancelled while its schedule was in flight (`cancelledInFlight`).
    mutating func noteCancelledInFlight(_ row: RingRow) {
        var rows = cancelledInFlight ?? []
        rows.removeAll { $0.id == row.id }
        rows.append(row)
        if rows.count > 16 { rows.removeFirst(rows.count - 16) }
        cancelledInFlight = rows
    }

    mutating func update(_ occurrence: OccurrenceRecord) {
        if let index = occurrences.firstIndex(where: { $0.token == occurrence.token }) {
            occurrences[index] = occurrence
        } else {
            occurrences.append(occurrence)
        }
    }
}

/// Android, REC-9: a clock set-back a process noticed (`BridgeCore.lastBackwardJump`), dated by its
/// TIME_SET broadcast unless `dated` is false.
public struct DatedSetBack: Codable, Sendable, Equatable {
    /// The old frame's "now" at the correction (wall ms, old frame).
    public var fromWallMs: Int64
    /// The wall clock just after the correction (wall ms, new frame).
    public var toWallMs: Int64
    /// The last clock reading before the correction (wall ms, old frame).
    public var lastReadingWallMs: Int64
    /// The token of the occurrence live across the correction, if any.
    public var liveToken: String?
    /// Occurrence-opening rings registered at the correction whose ring time lies in the re-lived
    /// interval (`toWallMs`, `fromWallMs`]: only their ring times were reached in the old frame.
    /// For an undated set-back (`dated` false): the undelivered ones registered at the correction
    /// whose ring time came before it, at most 20 h before (OCC-21), less any registered again since.
    public var reLivedRingIDs: [AlarmUUID]
    /// false: the set-back was measured at a launch against the saved reference, not dated by its
    /// broadcast (the clock moved at some instant after `lastReadingWallMs`); nil (older documents)
    /// and true: dated.
    public var dated: Bool?
    public init(fromWallMs: Int64, toWallMs: Int64, lastReadingWallMs: Int64, liveToken: String?, reLivedRingIDs: [AlarmUUID],
                dated: Bool? = nil) {
        self.fromWallMs = fromWallMs
        self.toWallMs = toWallMs
        self.lastReadingWallMs = lastReadingWallMs
        self.liveToken = liveToken
        self.reLivedRingIDs = reLivedRingIDs
        self.dated = dated
    }
}

/// Android, REC-9: a forward clock correction a process noticed (`BridgeCore.lastForwardJump`).
public struct ForwardJump: Codable, Sendable, Equatable {
    /// The old frame's "now" at the correction, projected (wall ms, new frame minus the jump).
    public var fromWallMs: Int64
    /// The wall clock just after the correction (wall ms, new frame).
    public var toWallMs: Int64
    /// The last clock reading before the correction (wall ms, old frame), when one was seen.
    public var lastReadingWallMs: Int64?
    public init(fromWallMs: Int64, toWallMs: Int64, lastReadingWallMs: Int64?) {
        self.fromWallMs = fromWallMs
        self.toWallMs = toWallMs
        self.lastReadingWallMs = lastReadingWallMs
    }
}

/// A wanted ring that is not registered because of a bound or the capacity limit (CAP-8, CAP-9).
public struct DroppedRing: Codable, Sendable, Equatable {
    public enum Reason: String, Codable, Sendable { case skipBound = "n-skip", capacity }
    public var id: AlarmUUID
    public var rootID: String
    public var kind: RingKind
    public var fireWallMs: Int64
    public var reason: Reason
    public init(id: AlarmUUID, rootID: String, kind: RingKind, fireWallMs: Int64, reason: Reason) {
        self.id = id
        self.rootID = rootID
        self.kind = kind
        self.fireWallMs = fireWallMs
        self.reason = reason
    }
}

/// A registry row: the bridge's bookkeeping for one ring it published (SCH-6, ID-9).
public struct RingRow: Codable, Sendable, Equatable {
    /// Every stored field of the row, in its JSON order: the synthesized `Codable` of this struct
    /// is the row's format (field names, order, `encodeIfPresent` for the optional ones), exactly
    /// as when they were the row's own stored properties.
    @usableFromInline
    struct Fields: Codable, Sendable, Equatable {
        @usableFromInline var id: AlarmUUID
        @usableFromInline var schedule: RingSchedule
        @usableFromInline var fireWallMs: Int64
        @usableFromInline var metadata: RingMetadata
        @usableFromInline var fingerprint: String
        @usableFromInline var publishedAtMs: Int64
        @usableFromInline var confirmed: Bool
        @usableFromInline var delivered: Bool
        @usableFromInline var soundName: String? = nil
        @usableFromInline var adoptedLegacyID: Bool? = nil
        @usableFromInline var replacesHeldRing: Bool? = nil
        @usableFromInline var inexact: Bool? = nil
        @usableFromInline var dayEndedByDisable: Bool? = nil
    }

    /// The fields, in one copy-on-write box (issue 20; ``CopyOnWrite``): every sync, check and
    /// lookup copies rows, and a row of five strings retained each of them on every copy.
    @usableFromInline var storage: CopyOnWrite<Fields>

    public init(from decoder: any Decoder) throws {
        storage = CopyOnWrite(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.value.encode(to: encoder)
    }

    public static func == (lhs: RingRow, rhs: RingRow) -> Bool {
        lhs.storage.sharesStorage(with: rhs.storage) || lhs.storage.value == rhs.storage.value
    }

    @inlinable public var id: AlarmUUID {
        _read { yield storage.value.id }
        _modify { yield &storage.value.id }
    }
    @inlinable public var schedule: RingSchedule {
        _read { yield storage.value.schedule }
        _modify { yield &storage.value.schedule }
    }
    /// The instant the ring is due (wall ms) as computed at publication.
    @inlinable public var fireWallMs: Int64 {
        _read { yield storage.value.fireWallMs }
        _modify { yield &storage.value.fireWallMs }
    }
    @inlinable public var metadata: RingMetadata {
        _read { yield storage.value.metadata }
        _modify { yield &storage.value.metadata }
    }
    /// Configuration fingerprint (ID-4, ID-5).
    @inlinable public var fingerprint: String {
        _read { yield storage.value.fingerprint }
        _modify { yield &storage.value.fingerprint }
    }
    /// When the row was published (wall ms), for the G_PUB grace (SCH-4).
    @inlinable public var publishedAtMs: Int64 {
        _read { yield storage.value.publishedAtMs }
        _modify { yield &storage.value.publishedAtMs }
    }
    /// True once the platform confirmed the schedule call.
    @inlinable public var confirmed: Bool {
        _read { yield storage.value.confirmed }
        _modify { yield &storage.value.confirmed }
    }
    /// True once the bridge has handled this ring's delivery (so a coalesced disappearance is
    /// not handled twice).
    @inlinable public var delivered: Bool {
        _read { yield storage.value.delivered }
        _modify { yield &storage.value.delivered }
    }
    /// SND-5, SND-6: the sound chosen for this ring, persisted with it, so a re-delivery or a
    /// re-registration of the same ring plays exactly this sound; nil: the system default.
    @inlinable public var soundName: String? {
        _read { yield storage.value.soundName }
        _modify { yield &storage.value.soundName }
    }
    /// BOOT-9: a primary an older version registered under an ID that is not f(root, fire minute)
    /// (ID-2): migration adopted it unchanged, and the schedule keeps using that ID for as long
    /// as its configuration is unchanged. nil in every row the current version creates.
    @inlinable public var adoptedLegacyID: Bool? {
        _read { yield storage.value.adoptedLegacyID }
        _modify { yield &storage.value.adoptedLegacyID }
    }
    /// ID-4, SND-5: true while a same-ID re-registration with a new configuration (fingerprint)
    /// is unconfirmed: the daemon may still hold the previous registration — its sound and
    /// title — under this ID, so the ID being present proves nothing about the configuration.
    /// nil once the platform answered, and in every row that replaced nothing.
    @inlinable public var replacesHeldRing: Bool? {
        _read { yield storage.value.replacesHeldRing }
        _modify { yield &storage.value.replacesHeldRing }
    }
    /// Android: true while the platform holds this ring only as an inexact allow-while-idle alarm
    /// because exact alarms were refused (``RingPrecision/allowWhileIdle``); the grant of the
    /// permission upgrades it (AND-3). nil for an exact ring.
    @inlinable public var inexact: Bool? {
        _read { yield storage.value.inexact }
        _modify { yield &storage.value.inexact }
    }
    /// Android: true once a read while the row's alarm was disabled found nothing held for this
    /// primary whose ring time had come undelivered: the user turned the alarm off after that
    /// day's ring time, which ended the day — no add-back, no missed record, even once the alarm
    /// is enabled again (``BridgeCore/endDisabledAlarmDays(inventory:now:into:)``). nil otherwise.
    @inlinable public var dayEndedByDisable: Bool? {
        _read { yield storage.value.dayEndedByDisable }
        _modify { yield &storage.value.dayEndedByDisable }
    }

    public init(id: AlarmUUID, schedule: RingSchedule, fireWallMs: Int64, metadata: RingMetadata, fingerprint: String,
                publishedAtMs: Int64, confirmed: Bool, delivered: Bool, soundName: String? = nil, adoptedLegacyID: Bool? = nil) {
        storage = CopyOnWrite(Fields(id: id, schedule: schedule, fireWallMs: fireWallMs, metadata: metadata,
                                     fingerprint: fingerprint, publishedAtMs: publishedAtMs, confirmed: confirmed,
                                     delivered: delivered, soundName: soundName, adoptedLegacyID: adoptedLegacyID))
    }

    /// True when the ring's fire time has passed: it is left to the observer (SCH-5).
    public func isPast(at wallMs: Int64) -> Bool {
        if repeatsInDaemon { return false }
        return fireWallMs <= wallMs
    }

    /// True for a repeating AlarmKit schedule (`.relative` weekly): the daemon re-arms it after
    /// every ring, so neither a delivery nor a passed `fireWallMs` ends it (SCH-2, REC-1).
    public var repeatsInDaemon: Bool {
        if case .relative(_, _, .some) = schedule { return true }
        return false
    }
}

/// Lifecycle of an occurrence.
public enum OccurrenceState: String, Codable, Sendable, Equatable {
    case live, completed, expired, abandoned, retired
}

/// One firing of a root (OCC-*, ID-6..8).
public struct OccurrenceRecord: Codable, Sendable, Equatable {
    public var token: String
    public var rootID: String
    /// The configured ring time that opened it (wall ms); never rewritten (ID-8).
    public var startedAtMs: Int64
    public var policy: InactivityPolicy
    /// Latest credited genuine activity (wall ms), nil before any (INACT-3, INACT-4).
    public var lastActivityMs: Int64?
    public var state: OccurrenceState
    public var closedAtMs: Int64?
    /// SNZ-4, SNZ-5: the once-only snooze latch of this token, persisted as spent before the
    /// snooze ring is attempted; only a new occurrence starts unspent (SNZ-6).
    public var oneTimeSnoozeUsed = false
    /// INACT-9, INACT-10: the accepted snooze deadline, the inactivity baseline; it survives the
    /// consumption of the snooze ring.
    public var inactivitySnoozeUntilMs: Int64?
    /// REC-9, INACT-19: wall-clock corrections since the occurrence began (ms). The ring time
    /// (`startedAtMs`) never changes (ID-8); the deadline is computed from ring time + offset.
    public var inactivityClockOffsetMs: Int64 = 0
    /// SND-5, SND-7: the distinct rings of this occurrence that became audible, in order; the
    /// sequence position is their count. Persisted: it survives process death and reboot. nil in
    /// records written before sound sequencing existed (position 0).
    public var audibleRingIDs: [AlarmUUID]?

    public init(token: String, rootID: String, startedAtMs: Int64, policy: InactivityPolicy, lastActivityMs: Int64?,
                state: OccurrenceState, closedAtMs: Int64?) {
        self.token = token
        self.rootID = rootID
        self.startedAtMs = startedAtMs
        self.policy = policy
        self.lastActivityMs = lastActivityMs
        self.state = state
        self.closedAtMs = closedAtMs
    }

    /// Whether the occurrence was live at `wallMs`: it had begun (strictly before: equal ring
    /// times are ties, settled elsewhere) and had not yet ended — an expired one ends at its
    /// deadline however late its closure was observed, the others when they were closed.
    public func wasLive(at wallMs: Int64) -> Bool {
        guard startedAtMs + inactivityClockOffsetMs < wallMs else { return false }
        switch state {
        case .live: return wallMs < deadlineMs
        case .expired: return wallMs < min(deadlineMs, closedAtMs ?? deadlineMs)
        case .completed, .abandoned, .retired: return wallMs < (closedAtMs ?? startedAtMs)
        }
    }

    /// The effective expiry (wall ms): policy timeout after the later of ring time and last
    /// activity, never past the 20 h bound (INACT-2, INACT-3, OCC-21).
    public var deadlineMs: Int64 {
        let start = startedAtMs + inactivityClockOffsetMs  // REC-9: in the corrected frame
        let bound = start + InactivityPolicy.legacy.timeoutMs
        switch policy {
        case .legacy: return bound
        case .v2, .v3:
            // INACT-9: not before the snooze deadline, then the policy's full timeout from it.
            let baseline = max(start, lastActivityMs ?? start, inactivitySnoozeUntilMs ?? start)
            return min(bound, baseline + policy.timeoutMs)
        }
    }
}

/// A miss receipt in the abandoned-occurrence journal (INACT-18), or the record of a ring time
/// that passed without ringing (reason ``missedReason``; BridgeCore+Missed.swift).
public struct MissReceipt: Codable, Sendable, Equatable {
    /// INACT-18: an occurrence that expired for inactivity.
    public static let inactivityReason = "inactivity"
    /// A configured ring time that never rang (force-stop, a restart that re-armed nothing, a
    /// failed registration): `expiredAtMs` is that ring time, no occurrence began.
    public static let missedReason = "missed"
    public var token: String
    public var rootID: String
    public var reason: String
    public var expiredAtMs: Int64
    public var policy: InactivityPolicy
    public var inactivityClockOffsetMs: Int64

    public init(token: String, rootID: String, reason: String, expiredAtMs: Int64, policy: InactivityPolicy,
                inactivityClockOffsetMs: Int64) {
        self.token = token
        self.rootID = rootID
        self.reason = reason
        self.expiredAtMs = expiredAtMs
        self.policy = policy
        self.inactivityClockOffsetMs = inactivityClockOffsetMs
    }

    enum CodingKeys: String, CodingKey { case token, rootID, reason, expiredAtMs, policy, inactivityClockOffsetMs }

    /// INACT-20: a receipt written before the policy field existed reads as policy 2; one written
    /// before the clock offset existed reads as offset 0 (no correction was recorded).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decode(String.self, forKey: .token)
        rootID = try container.decode(String.self, forKey: .rootID)
        reason = try container.decode(String.self, forKey: .reason)
        expiredAtMs = try container.decode(Int64.self, forKey: .expiredAtMs)
        policy = try container.decodeIfPresent(InactivityPolicy.self, forKey: .policy) ?? .v2
        inactivityClockOffsetMs = try container.decodeIfPresent(Int64.self, forKey: .inactivityClockOffsetMs) ?? 0
    }
}

/// A platform action (ID-11): (alarmId, action, occurredAtMs).
public struct ActionRecord: Codable, Sendable, Equatable {
    /// The root the action was taken on (ID-10: never the physical ring UUID).
    public var alarmID: String
    /// `stop` (iOS Stop / Android alarm-screen dismissal), …
    public var action: String
    public var occurredAtMs: Int64
    public init(alarmID: String, action: String, occurredAtMs: Int64) {
        self.alarmID = alarmID
        self.action = action
        self.occurredAtMs = occurredAtMs
    }
}

/// iOS: a root's configured ring time that came due while another root owned the occurrence
/// (OCC-3).
public struct PassedOverRingTime: Codable, Sendable, Equatable {
    public var rootID: String
    /// The configured ring time (wall ms, ID-8).
    public var ringTimeMs: Int64
    public init(rootID: String, ringTimeMs: Int64) {
        self.rootID = rootID
        self.ringTimeMs = ringTimeMs
    }
}

/// One entry of the Android pass-over queue (AND-15): a root that came due while `ownerToken`
/// owned the wake session.
public struct QueuedPassOver: Codable, Sendable, Equatable {
    public var rootID: String
    /// The primary ring that was delivered and silenced.
    public var ringID: AlarmUUID
    /// Its configured ring time (wall ms).
    public var ringTimeMs: Int64
    /// The token of the occurrence that owned the session when it came due.
    public var ownerToken: String
    /// When the bridge queued it (wall ms).
    public var queuedAtMs: Int64
    public init(rootID: String, ringID: AlarmUUID, ringTimeMs: Int64, ownerToken: String, queuedAtMs: Int64) {
        self.rootID = rootID
        self.ringID = ringID
        self.ringTimeMs = ringTimeMs
        self.ownerToken = ownerToken
        self.queuedAtMs = queuedAtMs
    }
}

/// A value named by a ring ID (a registry row, a held ring).
protocol RingIdentified {
    var id: AlarmUUID { get }
}

extension RingRow: RingIdentified {}
extension PlatformAlarm: RingIdentified {}
extension AlarmUUID: RingIdentified {
    /// The identifier itself, so a list of IDs is searched as rows are (``RingIDSet``).
    var id: AlarmUUID { self }
}

extension Array where Element: RingIdentified {
    /// The first index whose ID is not below `id`, by binary search: meaningful when the array is
    /// sorted by ID (``isSortedByID(strictly:)``); there it is the first element of that ID, if any.
    /// Through the buffer: an array's subscript copied each whole row it probed (issue 20).
    func lowerBound(ofID id: AlarmUUID) -> Int {
        withUnsafeBufferPointer { elements in
            var low = 0, high = elements.count
            while low < high {
                let middle = (low + high) / 2
                if elements[middle].id < id { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// Whether the IDs never decrease (`strictly`: always increase, so none repeats). Read
    /// through the buffer, each ID in place.
    func isSortedByID(strictly: Bool = false) -> Bool {
        withUnsafeBufferPointer { elements in
            for index in elements.indices.dropFirst() {
                let previous = elements[index - 1].id, current = elements[index].id
                if strictly ? !(previous < current) : current < previous { return false }
            }
            return true
        }
    }
}

extension Array where Element == RingRow {
    /// `first { $0.metadata.kind == kind && $0.metadata.token == token && !$0.delivered }`, reading
    /// those fields in place instead of copying each row it passes (issue 20).
    func firstPending(_ kind: RingKind, token: String) -> RingRow? {
        for index in indices where self[index].metadata.kind == kind && self[index].metadata.token == token && !self[index].delivered {
            return self[index]
        }
        return nil
    }
}

extension Array where Element == RingRequest {
    /// `sorted { ($0.fireWallMs, $0.id) < ($1.fireWallMs, $1.id) }`, soonest first: the same
    /// order (both are the standard library's stable sort with one comparator), but the sort
    /// moves indices, not 170-byte requests (issue 20: every plan and every sync sorts).
    func sortedByFireTime() -> [RingRequest] {
        // Already strictly in order (a plan's rings often are): the sorted array is this one,
        // shared instead of copied request by request (issue 20). Ties keep the sort below.
        let inOrder = withUnsafeBufferPointer { requests in
            requests.indices.dropFirst().allSatisfy { (requests[$0 - 1].fireWallMs, requests[$0 - 1].id) < (requests[$0].fireWallMs, requests[$0].id) }
        }
        if inOrder { return self }
        let order = indices.sorted { (self[$0].fireWallMs, self[$0].id) < (self[$1].fireWallMs, self[$1].id) }
        return order.map { self[$0] }
    }
}

/// The first launch after an update from an older version: the document is migrated against the
/// platform's inventory (BOOT-9, BOOT-10, BOOT-11, OCC-17, ACT-9, INACT-2, INACT-25).
///
/// Migration is a sync decision: it runs only inside a reconciliation whose inventory read
/// succeeded, from a store that was read (BOOT-2: never from an unreadable store or inventory),
/// and only once — the document is written back with `BridgeDocument.currentSchemaVersion`.
/// Every cancel it issues precedes the persist that records the migration, so a process that
/// dies in between migrates again at its next launch.
///
/// What it keeps (BOOT-10): any ring that is alerting; each valid configured primary, however far
/// away (CAP-7: more than 26 h too), adopted under its daemon ID (BOOT-9); at most one pressure
/// ring per live occurrence among the legacy cadence rings, and only when nothing else holds its
/// pressure; every snooze ring, successor and ring of a current kind of the live occurrence
/// (the next-occurrence seed included: migration never touches a current kind that is not a
/// walk fuse); and per root one valid walk fuse. What it deletes: every other legacy ring
/// (BOOT-11: foreground maintenance alarms, walk-fuse pairs, safety relays, walk cadences,
/// surplus same-morning cadence rings), surplus walk fuses, and rings bound to closed
/// occurrences (OCC-20). It never cancels a primary (ACT-9: discarding metadata never cancels a
/// valid scheduled root): a primary that is no longer wanted is left to the ordinary
/// reconciliation that follows, under SCH-3 and SCH-21.
extension BridgeCore {
    /// True while the loaded document was written by an older version and is not yet migrated.
    public var needsMigration: Bool {
        guard let document else { return false }
        return document.schemaVersion < BridgeDocument.currentSchemaVersion
    }

    /// Migrates an older document against `inventory` (a successful read). No effect on a
    /// current document.
    mutating func migrateIfNeeded(inventory: [PlatformAlarm], now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard needsMigration, let loaded = document else { return }
        if launch.remoteScheduling == .disabledByKillSwitch { return }  // BOOT-12: a frozen sync migrates later
        out.append(.note("migration from document version \(loaded.schemaVersion) (BOOT-9..11, OCC-17, ACT-9)"))
        if !defects.legacyTombstonesKept { repairLegacyTombstones(now: now, into: &out) }  // known defect: OCC-17 skipped
        discardStaleMetadata(now: now, into: &out)
        var cancels = collapseLegacyRings(inventory: inventory, now: now)
        if defects.legacyRingsSurviveUpdate {
            // Known defect: the legacy rings are adopted like the rest of the inventory (BOOT-11 skipped).
            cancels.removeAll { id in document?.row(id).map { $0.metadata.kind.isLegacy } ?? false }
        }
        for id in cancels {
            out.append(.cancel(id, origin: .launchSync))
            mutate { $0.removeRow(id) }
        }
        dropOrphanedRows(present: inventory.map(\.id), now: now)
        mutate { $0.schemaVersion = BridgeDocument.currentSchemaVersion }
        out.append(.note("migration done: \(cancels.count) legacy or surplus rings cancelled"))
    }

    /// BOOT-9 ("missing bookkeeping is rebuilt from the daemon"): an older version's document may
    /// lack the row of a primary it registered under its current ID-2 identity. On Android that
    /// ring can be delivered — AlarmManager starts the process for it — before the first launch
    /// sync has migrated (the delivery queued behind the launch read is replayed first). Such a
    /// delivery, whose ID is the ID-2 identity of an enabled configured root's ring time that has
    /// come (within the 20 h bound, OCC-21), is that valid primary: its row is rebuilt here, so
    /// the delivery opens its occurrence (OCC-5) instead of being left alone as unknown (android
    /// uniform seed 64540: a1.sun's 09:51 primary held without its row, delivered at the first
    /// launch; the occurrence never opened and nothing rang). Only before migration: afterwards
    /// every valid primary has its row (SCH-6).
    mutating func rebuildUnmigratedPrimaryRow(_ id: AlarmUUID, now: BridgeInstants) -> RingRow? {
        guard needsMigration, let document else { return nil }
        var earliest = now
        earliest.wallMs = now.wallMs - Self.undeliveredFireProtectionMs
        for alarm in document.alarms where alarm.enabled {
            for root in alarm.roots {
                guard let request = primaryRequest(for: root, alarmID: alarm.id, now: earliest, adoptingLegacy: false),
                      request.id == id, request.fireWallMs <= now.wallMs else { continue }
                adopt(request, now: now)
                return self.document?.row(id)
            }
        }
        return nil
    }

    /// OCC-17: an older version marked future roots complete ("legacy future tombstones"): a
    /// completed record whose ring time is still ahead and that was closed before it began. The
    /// current version never writes one (OCC-13), so each is dropped, and the reconciliation that
    /// follows restores the primary it suppressed, whatever its distance (CAP-7).
    mutating func repairLegacyTombstones(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let document else { return }
        let tombstones = document.occurrences.filter(Self.isLegacyTombstone(now: now))
        guard !tombstones.isEmpty else { return }
        for tombstone in tombstones {
            out.append(.note("OCC-17: legacy future tombstone of \(tombstone.rootID) at \(tombstone.startedAtMs) removed"))
        }
        let tokens = tombstones.map(\.token)
        mutate { $0.occurrences.removeAll { tokens.contains($0.token) } }
    }

    /// A completed record of a ring time still ahead that was closed before that time began.
    static func isLegacyTombstone(now: BridgeInstants) -> (OccurrenceRecord) -> Bool {
        { record in
            record.state == .completed && record.startedAtMs > now.wallMs && (record.closedAtMs ?? .min) < record.startedAtMs
        }
    }

    /// ACT-9: stale action, context and pending metadata is bounded or discarded. Actions past
    /// their 2 min expiry go (ACT-2) and at most `actionJournalMax` stay; a persisted
    /// rendered-challenge context goes (FG-13); a walk record of an occurrence that is not live,
    /// and pass-over queue entries whose owner is not live (AND-15), go; the diagnostics journal
    /// is cut to its bound (WALK-6). Nothing here cancels a ring.
    mutating func discardStaleMetadata(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let document else { return }
        let liveToken = document.liveOccurrence?.token
        let bound = configuration.diagnosticsJournalMax
        let before = (document.actions.count, document.passOverQueue?.count ?? 0)
        let keepContext = defects.staleChallengeVisibleSurvivesRestart
        mutate { document in
            document.actions.removeAll { now.wallMs - $0.occurredAtMs > Self.actionExpiryMs }
            if document.actions.count > Self.actionJournalMax {
                document.actions.removeFirst(document.actions.count - Self.actionJournalMax)
            }
            if !keepContext { document.staleChallengeVisible = nil }
            if let walk = document.walk, walk.token != liveToken { document.walk = nil }
            document.passOverQueue = document.passOverQueue?.filter { $0.ownerToken == liveToken }
            if let entries = document.diagnostics, entries.count > bound {
                document.diagnostics = Array(entries.suffix(bound))
            }
        }
        let after = (self.document?.actions.count ?? 0, self.document?.passOverQueue?.count ?? 0)
        if after != before {
            out.append(.note("ACT-9: stale metadata discarded (actions \(before.0)→\(after.0), pass-over queue \(before.1)→\(after.1))"))
        }
    }

    /// ACT-2: an action expires 2 min after it occurred.
    static let actionExpiryMs: Int64 = 2 * 60_000
    /// The bound of the persisted action journal (the one `journal(_:action:now:)` keeps).
    static let actionJournalMax = 32

    /// BOOT-9, BOOT-10, BOOT-11: decides, ring by ring of the daemon inventory, what stays.
    /// Rebuilds the bookkeeping of each valid configured primary in place; returns the rings to
    /// cancel, sorted.
    mutating func collapseLegacyRings(inventory: [PlatformAlarm], now: BridgeInstants) -> [AlarmUUID] {
        guard let document else { return [] }
        let live = document.liveOccurrence
        let present = inventory.sorted { $0.id < $1.id }
        var cancels: [AlarmUUID] = []
        var keptFuseRoots: [String] = []
        // The live occurrence's pressure held by rings of current kinds (or an alert): a legacy
        // cadence ring is kept only when there is none (BOOT-10: a single pressure ring).
        let currentPressure = live.map { live in
            present.contains { held in
                guard let row = document.row(held.id), !row.metadata.kind.isLegacy, isBound(row, to: live) else { return false }
                return held.state == .alerting || row.metadata.kind.isOccurrenceBound
            }
        } ?? false
        var keptCadence = false
        // Walk fuses: the walk record's committed fuse first, then the earliest (WALK-16).
        let fuseOrder = present.compactMap { held -> (Int, Int64, AlarmUUID)? in
            guard let row = document.row(held.id), row.metadata.kind == .walkFuse else { return nil }
            return (document.walk?.fuseID == held.id ? 0 : 1, row.fireWallMs, held.id)
        }.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.map(\.2)
        let cadenceOrder = present.compactMap { held -> (Int64, AlarmUUID)? in
            guard let row = document.row(held.id), row.metadata.kind == .legacyCadence else { return nil }
            return (row.fireWallMs, held.id)
        }.sorted { $0 < $1 }.map(\.1)
        let ordered = present.map(\.id).filter { !fuseOrder.contains($0) && !cadenceOrder.contains($0) } + fuseOrder + cadenceOrder
        for id in ordered {
            guard let held = present.first(where: { $0.id == id }), let row = document.row(id) else { continue }  // unknown: SCH-3 later
            if held.state == .alerting { continue }  // BOOT-10: an alert already sounding stays (SCH-21)
            let boundToLive = live.map { row.metadata.token == $0.token } ?? false
            switch row.metadata.kind {
            case .primary:
                adoptValidPrimary(row, now: now)  // BOOT-9; an invalid one is the reconciliation's (SCH-3)
            case .seed:
                break  // BOOT-10: the next-occurrence seed stays; reconciliation judges it (REC-5, CAP-3)
            case .successor, .snooze:
                // BOOT-10: all snooze rings (and the successor) of the live occurrence stay; one of
                // a closed occurrence would resurrect it (OCC-20).
                if !boundToLive && !row.isPast(at: now.wallMs) { cancels.append(id) }
            case .walkFuse:
                // BOOT-10: per root one valid walk fuse — bound to the live occurrence.
                if boundToLive && !keptFuseRoots.contains(row.metadata.rootID) {
                    keptFuseRoots.append(row.metadata.rootID)
                } else if !row.isPast(at: now.wallMs) {
                    cancels.append(id)
                }
            case .legacyCadence:
                // BOOT-10: a single pressure ring per live occurrence, only when nothing else holds it.
                if boundToLive && !currentPressure && !keptCadence && !row.isPast(at: now.wallMs) {
                    keptCadence = true
                } else {
                    cancels.append(id)
                }
            case .legacyForegroundMaintenance, .legacyFusePair, .legacySafetyRelay, .legacyWalkCadence:
                cancels.append(id)  // BOOT-11
            }
        }
        return cancels.sorted()
    }

    /// BOOT-9, CAP-7: a primary the daemon holds whose root is configured, enabled and scheduled
    /// exactly there (the same schedule; the same instant where the schedule is not weekly) is
    /// valid, whatever its distance: its ID is adopted unchanged and its bookkeeping rebuilt
    /// (fingerprint, confirmation), so the reconciliation neither re-registers nor cancels it.
    mutating func adoptValidPrimary(_ row: RingRow, now: BridgeInstants) {
        guard let document, let root = document.root(row.metadata.rootID),
              let alarm = document.alarms.first(where: { $0.roots.contains(root) }), alarm.enabled,
              let wanted = primaryRequest(for: root, alarmID: alarm.id, now: now, adoptingLegacy: false),
              wanted.schedule == row.schedule,
              (flavor == .ios && root.weekday != nil) || wanted.fireWallMs == row.fireWallMs else { return }
        // The fingerprint of what the daemon holds (the row's title and sound, SND-6): a title
        // edited since is still re-registered by the reconciliation (ID-4).
        var held = wanted
        held.id = row.id
        held.soundName = row.soundName
        held.metadata.title = row.metadata.title
        let print = fingerprint(held, now: now)
        mutate { document in
            document.upsert(with(row) { row in
                row.fingerprint = print
                row.confirmed = true
                row.adoptedLegacyID = wanted.id != row.id ? true : nil
            })
        }
    }

    /// ACT-9: rows without a daemon ring that only an older version could use — legacy kinds,
    /// and occurrence-bound rows of occurrences that are no longer live — are discarded.
    /// Primary rows are left to SCH-4's publication grace; past rows to the observer (SCH-5).
    mutating func dropOrphanedRows(present: [AlarmUUID], now: BridgeInstants) {
        guard let document else { return }
        let liveToken = document.liveOccurrence?.token
        let stale = document.rings.filter { row in
            !present.contains(row.id) && !inFlight.contains(row.id) && row.metadata.kind != .primary
                && (row.metadata.kind.isLegacy || row.metadata.token != liveToken)
        }.map(\.id)
        guard !stale.isEmpty else { return }
        mutate { $0.rings.removeAll { stale.contains($0.id) } }
    }
}

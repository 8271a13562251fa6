import AlarmBridge
import AndroidModel
import IOSModel
import SimKernel

/// Checkers of the first launch after an update (BOOT-9, BOOT-10, BOOT-11, OCC-17, ACT-9) and of
/// Android's move from credential- to device-protected storage (AND-2, AND-4).
extension World {
    /// `legacy-migration` (BOOT-9, BOOT-10): the step that migrates the document cancels no valid
    /// configured primary — a primary of an enabled root due exactly at that root's next
    /// configured fire time, however far away (CAP-7).
    func checkMigrationCancel(_ id: AlarmUUID) {
        guard migrationWatch.migrationStep, !stopped, isValidConfiguredPrimary(id) else { return }
        let root = groundTruthMetadata(id)?.rootID ?? "?"
        violate("legacy-migration", [], "migration cancelled \(id), the valid configured primary of \(root) (BOOT-9, BOOT-10)")
    }

    /// The platform holds `id` as a primary of an enabled configured root, due at that root's
    /// next configured fire time.
    func isValidConfiguredPrimary(_ id: AlarmUUID) -> Bool {
        guard let metadata = groundTruthMetadata(id), metadata.kind == .primary,
              let alarm = alarms.first(where: { $0.id == metadata.alarmID && $0.enabled }),
              let root = alarm.root(withID: metadata.rootID) else { return false }
        var next = root.onceFireWallMs ?? calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: wallMs)
        if root.onceFireWallMs == nil && !root.skipDates.isEmpty {
            // REC-4: a skip date has no configured occurrence; on iOS such a root is registered as
            // concrete `.fixed` occurrences, so a legacy repeating registration is not its primary.
            if case .relative? = ios?.alarm(id)?.schedule { return false }
            for _ in 0..<64 where root.skipDates.contains(calendar.localDate(next)) {
                next = calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: next)
            }
        }
        let fire = ios?.alarm(id).map { $0.state == .scheduled ? $0.nextFireWallMs : nil } ?? android?.alarm(id)?.triggerWallMs
        return fire == next && next > wallMs
    }

    /// `legacy-migration` (BOOT-10, BOOT-11, OCC-17, ACT-9): when the migrated document is written,
    /// every cancel of the migration has been issued (they precede the write), so the platform
    /// holds no legacy ring beyond an alert already sounding and at most one cadence ring of the
    /// live occurrence; the document holds no legacy future tombstone, no expired action and no
    /// persisted rendered-challenge context.
    func checkMigrationPersist(_ document: BridgeDocument) {
        guard migrationWatch.migrationStep, migrationWatch.pending, !stopped,
              document.schemaVersion >= BridgeDocument.currentSchemaVersion else { return }
        migrationWatch.pending = false
        let liveToken = document.liveOccurrence?.token
        var keptCadence = 0
        for (id, metadata) in platformRings() where metadata.kind.isLegacy && !isAudible(id) {
            if metadata.kind == .legacyCadence, metadata.token != nil, metadata.token == liveToken, keptCadence == 0 {
                keptCadence += 1  // BOOT-10: the live occurrence's single pressure ring
                continue
            }
            violate("legacy-migration", [], "legacy \(metadata.kind.rawValue) ring \(id) of \(metadata.rootID) survived the migration (BOOT-10, BOOT-11)")
            return
        }
        if let tombstone = document.occurrences.first(where: { $0.state == .completed && $0.startedAtMs > wallMs && ($0.closedAtMs ?? .min) < $0.startedAtMs }) {
            violate("legacy-migration", [], "the legacy future tombstone of \(tombstone.rootID) survived the migration (OCC-17)")
            return
        }
        if let stale = document.actions.first(where: { wallMs - $0.occurredAtMs > 120_000 }) {
            violate("legacy-migration", [], "an action of \(stale.alarmID) expired \(HumanText.duration(wallMs - stale.occurredAtMs - 120_000)) ago survived the migration (ACT-9)")
            return
        }
        if document.staleChallengeVisible == true && !defects.contains(.staleChallengeVisibleSurvivesRestart) {
            violate("legacy-migration", [], "a persisted rendered-challenge context survived the migration (ACT-9, FG-13)")
        }
    }

    /// Every ring the platform holds or rings now, with its metadata, sorted by ID.
    func platformRings() -> [(AlarmUUID, RingMetadata)] {
        if let daemon = ios { return daemon.alarms.map { ($0.id, $0.metadata) } }
        guard let manager = android else { return [] }
        return manager.pending.map { ($0.id, $0.metadata) }.sorted { $0.0 < $1.0 }
    }

    /// `no-legacy-rings` (BOOT-11, WALK-13): the current bridge never requests a legacy kind.
    func checkNoLegacyRingCreated(_ request: RingRequest) {
        guard request.metadata.kind.isLegacy, !stopped else { return }
        violate("no-legacy-rings", [], "\(request.metadata.kind.rawValue) ring \(request.id) of \(request.metadata.rootID) requested: a legacy kind is never created")
    }

    /// `credential-store-without-loss` (AND-4, AND-2): the credential-protected copy is deleted
    /// only once device-protected storage holds the same state (every alarm it had, no fewer
    /// occurrences or rings than it had).
    func checkCredentialStoreDeletion() {
        guard let legacy = credentialStoredDocument, !stopped else { return }
        guard let moved = storedDocument else {
            violate("credential-store-without-loss", [], "credential-protected state deleted before device-protected storage held it (AND-4)")
            return
        }
        let lost = legacy.alarms.map(\.id).filter { id in !moved.alarms.contains { $0.id == id } }
        if !lost.isEmpty || moved.occurrences.count < legacy.occurrences.count || moved.rings.count < legacy.rings.count {
            violate("credential-store-without-loss", [], "credential-protected state deleted although device-protected storage lacks part of it (alarms \(lost.joined(separator: ",")); AND-4)")
        }
    }
}

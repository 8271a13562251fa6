import AlarmBridge
import AndroidModel
import IOSModel
import SimKernel

/// The migration checker's memory (invariants `legacy-migration`, `credential-store-without-loss`).
struct MigrationWatch {
    /// The run began from a legacy install whose first migration has not been checked yet.
    var pending = false
    /// True while the commands of the step that migrated the document run.
    var migrationStep = false
    /// The legacy rings the older version left with the platform (lookup by ID).
    var legacyRings: [AlarmUUID] = []
}

/// A legacy install and Android's two stores (BOOT-9..11, AND-2, AND-4).
extension World {
    /// Puts the older version's state in place before the run begins: its document in the store
    /// (Android: credential-protected storage when the install is that old, AND-4) and its rings
    /// with the platform, registered as that version registered them.
    func installLegacyState() {
        guard let legacy = setup.legacyInstall else { return }
        record("device", "legacy-install", [TraceField("rings", String(legacy.rings.count)),
                                            TraceField("rows", String(legacy.document.rings.count)),
                                            TraceField("store", legacy.credentialProtected ? "credential-protected" : "device-protected")])
        if legacy.credentialProtected { credentialStoredDocument = legacy.document } else { storedDocument = legacy.document }
        migrationWatch.pending = true
        launchState.lastPersisted = legacy.document  // completion-scope: what the older version wrote
        for ring in legacy.rings {
            requestMetadata[ring.id] = ring.metadata
            migrationWatch.legacyRings.append(ring.id)
            onDaemon { $0.preinstall(ring, nowWallMs: wallMs) }
            let now = androidNow
            onAlarmManager { $0.set(AlarmManagerRequest(ring), now: now).filter { if case .toApp = $0 { return false }; return true } }
        }
    }

    /// Android credential-protected storage: readable only after the first unlock since boot.
    func executeStorage(_ command: BridgeCommand) {
        let readable = android?.isReadable(.credentialProtected) ?? false
        switch command {
        case .loadCredentialProtectedStore:
            let result: Result<BridgeDocument?, StoreReadError> = readable ? .success(credentialStoredDocument) : .failure(.unavailable)
            switch result {
            case .success: process.storeReadSucceeded = true
            case .failure: process.storeReadFailed = true
            }
            enqueue(.toProcess(.credentialProtectedStoreLoaded(result), incarnation: process.incarnation), afterMs: 15)
        case .deleteCredentialProtectedStore:
            record("store", readable ? "credential-store-deleted" : "credential-store-delete-failed")
            guard readable else { return }
            checkCredentialStoreDeletion()
            credentialStoredDocument = nil
        default:
            break
        }
    }
}

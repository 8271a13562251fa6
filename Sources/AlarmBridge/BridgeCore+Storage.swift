/// Android storage: the bridge state lives in device-protected storage (AND-2), readable in
/// direct boot; an older version kept it in credential-protected storage, unreadable until the
/// first unlock after boot. The launch moves it automatically and without loss (AND-4): read CE
/// when device-protected storage holds nothing, write the same state to DE, and only then delete
/// the CE copy. While CE cannot be read (locked boot) the bridge does not know whether state
/// exists there, so it never acts as if empty (BOOT-2): it holds, waiting for unlock.
extension BridgeCore {
    mutating func credentialProtectedStoreLoaded(_ result: Result<BridgeDocument?, StoreReadError>, now: BridgeInstants,
                                                 into out: inout [BridgeCommand]) {
        switch result {
        case .success(.some(let legacy)):
            // AND-4: DE first (a synchronous, atomic write), then the CE copy goes. A process that
            // dies between the two finds DE at its next launch and never reads CE again.
            out.append(.note("AND-4: bridge state moved from credential-protected to device-protected storage"))
            out.append(.persist(legacy))
            out.append(.deleteCredentialProtectedStore)
            becomeReady(legacy, now: now, into: &out)
        case .success(nil):
            out.append(.readInventory(.launchGate))  // no state anywhere: BOOT-5/BOOT-6 decide
        case .failure:
            // BOOT-2: CE is locked; it may hold the only copy of the alarms. Not empty: hold until
            // USER_UNLOCKED (`protectedDataAvailable`) or the 1 s re-check (BOOT-7) reads again.
            out.append(.note("AND-4: credential-protected storage unreadable before first unlock: waiting (BOOT-2)"))
            hold(.waitingForUnlock, into: &out)
        }
    }
}

import AlarmBridge
import AndroidModel
import SimKernel

/// Android occurrence-rule checkers: candidate invariants 36 (`bound-retries`), 37
/// (`lock-screen-grant`) and 13 on Android's durable queue (`pass-over-silent`). They read ground
/// truth from AlarmManager and the ringing service; `bound-retries` judges *when* the bridge
/// itself saw the occurrence close, because the rule binds the step of that closure (AND-13).
extension World {
    func checkAndroidOccurrenceRules() {
        guard android != nil, deviceUp, !stopped else { return }
        checkBoundRetries()
        if !stopped { checkLockScreenGrant() }
        if !stopped { checkPassOverSilent() }
    }

    /// Candidate invariant 36 (AND-13, AND-14, AND-17): every pending retry carries one owning
    /// token; after the step in which the bridge closed that occurrence (or saw another root take
    /// ownership) no retry of it is pending or ringing.
    func checkBoundRetries() {
        guard let pending = android?.pending else { return }  // in place, not a copy of the model (issue 20)
        // Legacy rings an older version left are the migration's (`legacy-migration`, BOOT-11).
        // Each alarm read in place: an array's subscript copied the whole alarm (issue 20).
        let untokened = pending.withUnsafeBufferPointer { alarms in
            alarms.indices.first { alarms[$0].metadata.kind.isOccurrenceBound && !alarms[$0].metadata.kind.isLegacy && alarms[$0].metadata.token == nil }
        }
        if let index = untokened {
            let alarm = pending[index]
            violate("bound-retries", [], "pending \(alarm.metadata.kind.rawValue) \(alarm.id) of \(alarm.metadata.rootID) is bound to no occurrence token")
            return
        }
        guard process.running, process.isAcceptingInputs == true, let document = process.document else { return }
        // Only the occurrence-bound rings, pending first, then ringing, each read in place
        // (issue 20: every pending alarm was copied into a list first, on every event).
        func unbound(_ id: AlarmUUID, _ metadata: RingMetadata, _ state: String) -> Bool {
            guard metadata.kind.isOccurrenceBound, let token = metadata.token else { return false }
            let occurrence = document.occurrence(token: token)
            if occurrence?.state == .live { return false }
            let why = occurrence.map { "its occurrence is \($0.state.rawValue)" } ?? "its occurrence is unknown to the bridge"
            violate("bound-retries", [], "\(metadata.kind.rawValue) \(id) of \(metadata.rootID) is \(state) although \(why) (live owner: \(document.liveOccurrence?.rootID ?? "none"))")
            return true
        }
        let unboundPending = pending.withUnsafeBufferPointer { alarms in
            alarms.indices.contains { alarms[$0].metadata.kind.isOccurrenceBound && unbound(alarms[$0].id, alarms[$0].metadata, "pending") }
        }
        if unboundPending { return }
        for id in android?.ringing ?? [] {
            if let metadata = android?.ringingMetadata(id), unbound(id, metadata, "ringing") { return }
        }
    }

    /// Candidate invariant 37 (AND-10, AND-11, AND-12): MainActivity shows over the lock screen
    /// only while the app is in the foreground with a live challenge (within T_OP of a change),
    /// and nothing ever asks for keyguard dismissal (the PIN prompt).
    func checkLockScreenGrant() {
        guard let manager = android else { return }
        if manager.lockScreen.keyguardDismissRequests > 0 {
            violate("lock-screen-grant", [], "keyguard dismissal was requested \(manager.lockScreen.keyguardDismissRequests) time(s): the PIN prompt replaced the wake check")
            return
        }
        var offending: String?
        if manager.lockScreen.mainActivityShowWhenLocked {
            if androidSide.grantOccurrence == nil {
                androidSide.grantOccurrence = .some(oracle.liveIndex.map { oracle.occurrences[$0].id })
            }
            // The challenge ends when the occurrence the grant was given for closes. A grant given
            // while the oracle knows no live occurrence (a fire it exempted, say) is judged only
            // by the foreground condition.
            let boundTo = androidSide.grantOccurrence ?? nil
            let challengeEnded = boundTo.map { id in oracle.occurrences.first { $0.id == id }?.live != true } ?? false
            if !process.active {
                offending = "the app is not in the foreground"
            } else if challengeEnded {
                offending = "its challenge's occurrence has closed"
            }
        } else {
            androidSide.grantOccurrence = nil
        }
        guard let offending else {
            androidSide.grantOffendingSinceMs = nil
            return
        }
        guard let since = androidSide.grantOffendingSinceMs else {
            androidSide.grantOffendingSinceMs = nowMs
            enqueue(.gapCheck, afterMs: setup.transitionBoundMs + 1)
            return
        }
        if nowMs - since > setup.transitionBoundMs {
            violate("lock-screen-grant", [], "MainActivity has shown over the lock screen for \(HumanText.duration(nowMs - since)) although \(offending)")
        }
    }

    /// Candidate invariant 13 on Android (OCC-3, AND-15): a root that came due while another
    /// root owned a live occurrence never rings for that ring time, neither while it waits in its
    /// durable queue nor after the queue releases it.
    func checkPassOverSilent() {
        guard let ringing = android?.ringing, !ringing.isEmpty else { return }  // in place, not a copy of the model
        let document = process.document ?? storedDocument
        for id in ringing {
            guard let metadata = android?.ringingMetadata(id), metadata.kind == .primary,
                  let fire = document?.row(id)?.fireWallMs,
                  oracle.passedOver.contains(where: { $0.rootID == metadata.rootID && $0.fireWallMs == fire }),
                  !oracle.occurrences.contains(where: { $0.startWallMs == fire && ($0.rootID == metadata.rootID || $0.tiedRoots.contains(metadata.rootID)) })
            else { continue }
            violate("pass-over-silent", [], "\(metadata.rootID), passed over at \(wallText(fire)) while another root owned the occurrence, is ringing")
            return
        }
    }
}

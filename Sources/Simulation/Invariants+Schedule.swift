import AlarmBridge
import AndroidModel
import IOSModel

/// What JS last got from `getScheduledAlarmTimes`.
enum ScheduledTimesOutcome {
    case answered(ScheduledAlarmTimes)
    case rejected
}

/// Scheduling checkers of issue 6: registered-means-present (candidate invariant 24), the
/// daemon-read half of unreadable-is-not-empty (25), rows-kept-for-observer (41) and the
/// past-fire-time half of hands-off-alerting (27).
extension World {
    // MARK: registered-means-present (24)

    /// SCH-14, SCH-15, SCH-17, SCH-18, IOS-2: every `getScheduledAlarmTimes` answer agrees with the
    /// platform read it was built from; a foregroundSuppressed proof is reported only while the
    /// app is natively active (it never survives backgrounding or process death).
    func checkScheduledTimes(_ reply: APIReply) {
        guard !stopped else { return }
        switch reply {
        case .scheduledAlarmTimes(let times):
            guard let read = lastInventoryRead, read.purpose == .scheduledTimes else {
                violate("registered-means-present", [], "getScheduledAlarmTimes answered without a platform read of its own")
                return
            }
            guard case .success(let inventory) = read.result else {
                // SCH-16: the read failed, yet the call resolved.
                violate("unreadable-is-not-empty", [], "getScheduledAlarmTimes resolved although its platform read failed")
                return
            }
            let held = inventory.map(\.id)
            for row in times.roots {
                let holds = row.primaryID.map { held.contains($0) } ?? false
                if row.registered != holds {
                    violate("registered-means-present", [], "root \(row.rootID) reported registered = \(row.registered) but the read \(holds ? "holds" : "does not hold") its primary \(row.primaryID?.description ?? "none")")
                    return
                }
                if row.foregroundSuppressed && !process.active {
                    violate("registered-means-present", [], "root \(row.rootID) reported foregroundSuppressed while the app is not natively active (SCH-18)")
                    return
                }
            }
            for ring in times.rings where !held.contains(ring.ringID) {
                violate("registered-means-present", [], "ring row \(ring.ringID) of \(ring.rootID) is not in the platform read (SCH-15)")
                return
            }
        default:
            return
        }
    }

    /// SCH-18 (candidate invariant 24's "no proof survives a clock or time-zone change"): a
    /// foregroundSuppressed proof covers one occurrence instant in the frame it was made in. Once
    /// the running bridge has executed a step after a time-zone change or a wall-clock change
    /// beyond Δ_CLOCK (it notices both at every step), no proof first seen before that change
    /// may stand. Judged from the world's own record of the change (true ms), after every event.
    func checkSuppressionProofs() {
        guard !stopped, process.running, let proofs = process.foregroundSuppressed, !proofs.isEmpty else {
            suppressionProofsSeen = []
            return
        }
        var seen: [(proof: ForegroundSuppressedProof, sinceMs: Int64)] = []
        seen.reserveCapacity(proofs.count)
        let previous = suppressionProofsSeen
        for (index, proof) in proofs.enumerated() {
            // Usually the same proofs in the same order as last time: the entry at the same index
            // first (issue 20: a scan per proof). Equal proofs always carry one `sinceMs`, so it
            // answers as the scan for the first equal entry does.
            let since = (index < previous.count && previous[index].proof == proof ? previous[index].sinceMs : nil)
                ?? previous.first { $0.proof == proof }?.sinceMs ?? nowMs
            if since < lastFrameChangeMs && process.lastReadyStepMs > lastFrameChangeMs {
                let what = lastFrameChangeMs == lastZoneChangeMs ? "time-zone change" : "wall-clock change"
                violate("registered-means-present", [], "the foregroundSuppressed proof of \(proof.rootID) for its occurrence at \(localTimeText(proof.occurrenceStartedAtMs)) still stands after the \(what) \(HumanText.duration(nowMs - lastFrameChangeMs)) ago (SCH-18: a clock or time-zone change clears it)")
                return
            }
            seen.append((proof, since))
        }
        suppressionProofsSeen = seen
    }

    /// SCH-18's backgrounding clause: a foregroundSuppressed proof lives only while the app stays
    /// in front, so the ready bridge's step for `willResignActive` or `didEnterBackground` leaves
    /// none standing. Without this, a proof kept across a background stint still read as
    /// "used up on purpose" when the app came back, since the answers are judged only while
    /// the app is active (a mutation study: keeping the proofs on leaving failed no seed).
    func checkProofsClearedOnLeaving(_ input: BridgeInput, wasReady: Bool) {
        switch input {
        case .willResignActive, .didEnterBackground: break
        default: return
        }
        guard wasReady, !stopped, process.phase == .ready, let proof = process.foregroundSuppressed?.first else { return }
        violate("registered-means-present", [], "the foregroundSuppressed proof of \(proof.rootID) for its occurrence at \(localTimeText(proof.occurrenceStartedAtMs)) still stands after the bridge handled \(input == .willResignActive ? "willResignActive" : "didEnterBackground") (SCH-18: leaving the foreground clears it)")
    }

    // MARK: unreadable-is-not-empty, daemon half (25)

    /// SCH-16, BOOT-2: a step handed a failed platform read makes no sync decision.
    func checkNoDecisionOnFailedRead(ringID: AlarmUUID, origin: CommandOrigin, isCancel: Bool) -> Bool {
        guard origin.isSync, case .inventoryRead(let purpose, .failure(let error))? = stepInput else { return false }
        violate("unreadable-is-not-empty", [], "\(HumanText.origin(origin)) issued \(isCancel ? "cancel" : "schedule") of \(ringID) in the step that handed it a failed inventory read (\(purpose), \(error.rawValue))")
        return true
    }

    // MARK: hands-off-alerting, past-fire-time half (27)

    /// SCH-3, SCH-21: true when the platform still holds `id` although its (non-repeating) fire
    /// time has passed: it fired and awaits delivery, or its delivery is late.
    func isPastItsFireTime(_ id: AlarmUUID) -> Bool {
        if let daemon = ios, let alarm = daemon.alarm(id) {
            if case .relative(_, _, .some) = alarm.schedule { return false }  // repeating: re-armed by the daemon
            return alarm.state == .scheduled && alarm.nextFireWallMs <= wallMs
        }
        if let manager = android, let pending = manager.alarm(id) {
            return pending.triggerWallMs <= wallMs
        }
        return false
    }

    // MARK: rows-kept-for-observer (41)

    /// SCH-4, SCH-5: in a step that reconciled a platform read, a registry row that vanished
    /// without a platform call for it was removed by reconciliation: it must be a future row the
    /// read did not hold, published at least G_PUB ago. A row whose fire time has passed stays
    /// for the observer.
    func checkRowsKept(before: BridgeDocument?, after: BridgeDocument?, commands: [BridgeCommand]) {
        guard !stopped, case .inventoryRead(_, .success(let inventory))? = stepInput,
              let before, let after else { return }
        // A legacy migration (BOOT-10, BOOT-11, ACT-9) may discard an older version's stale rows
        // once; the legacy-migration checker judges that step.
        guard before.schemaVersion == after.schemaVersion else { return }
        let touched = commands.compactMap { command -> AlarmUUID? in
            switch command {
            case .cancel(let id, _), .stop(let id, _): return id
            case .schedule(let request, _): return request.id
            default: return nil
            }
        }
        // One storage: no row removed (issue 20: the rows include every delivered one, and the
        // scan below copied each of them at every read).
        if OccurrenceChecks.sameStorage(before.rings, after.rings) { return }
        let remaining = Set(after.rings.map(\.id))  // membership only (issue 20: was quadratic in rings)
        for row in before.rings where !remaining.contains(row.id) && !touched.contains(row.id) && !refusedSchedules.contains(row.id) {
            if row.isPast(at: wallMs) {
                violate("rows-kept-for-observer", [], "reconciliation removed the registry row of \(row.metadata.kind.rawValue) \(row.id) (\(row.metadata.rootID)) although its fire time has passed (SCH-5)")
                return
            }
            if inventory.contains(where: { $0.id == row.id }) {
                violate("rows-kept-for-observer", [], "reconciliation removed the registry row of \(row.id) (\(row.metadata.rootID)) although the daemon holds it (IOS-2)")
                return
            }
            if wallMs - row.publishedAtMs < setup.publicationGraceMs {
                violate("rows-kept-for-observer", [], "reconciliation removed the registry row of \(row.id) (\(row.metadata.rootID)) \(HumanText.duration(wallMs - row.publishedAtMs)) after its publication, inside G_PUB = \(HumanText.duration(setup.publicationGraceMs)) (SCH-4)")
                return
            }
        }
    }
}

import AlarmBridge
import SimKernel

/// Pressure invariants (RULES.md candidate invariants 2, 10, 15/16, 21, 23 and 43), judged
/// against platform truth and the oracle.
extension World {
    /// Ground truth: does the platform hold pressure for `occurrence` without ring `excluded`?
    func hasPressure(_ occurrence: OracleOccurrence, excluding excluded: AlarmUUID) -> Bool {
        firstGroundTruthRing { id in
            guard id != excluded, oracle.bindings[id] == occurrence.id else { return false }
            if isAudible(id) { return true }
            guard let metadata = groundTruthMetadata(id), metadata.kind.isOccurrenceBound else { return false }
            if let daemon = ios { return daemon.alarm(id)?.state == .scheduled }
            return android?.alarm(id) != nil
        } != nil
    }

    /// Candidate invariant 2, `arm-before-retire` (SNZ-7, SNZ-15, WALK-15, OCC-8): a stop or
    /// cancel of a live occurrence's ring must leave the platform holding other pressure for it
    /// (a replacement confirmed earlier). Exempt: closing paths (completion, expiry and
    /// retirement have their own origins), the user's own Stop or dismissal (invariant 1's
    /// transition window), and the foreground rules while natively active — FG-1/FG-2 stops of
    /// alerting rings, and the removal of successors when Ember comes forward or the challenge
    /// renders (FG-2, OCC-9). A snooze ring retired while active (a skip) is checked.
    func checkArmBeforeRetire(_ id: AlarmUUID, origin: CommandOrigin, isCancel: Bool) {
        guard origin == .lifecycle, !stopped, let index = oracle.liveIndex,  // not .foreground (FG-2)
              oracle.bindings[id] == oracle.occurrences[index].id else { return }
        if process.active {
            // OCC-9, SNZ-19: the rendered challenge removes the pending successor and stops a
            // sounding snooze ring; it is the pressure while Ember is active.
            if isCancel && groundTruthMetadata(id)?.kind == .successor { return }
            if isCancel && groundTruthMetadata(id)?.kind == .walkFuse { return }  // WALK-9: back in front
            if !isCancel && isAudible(id) { return }
        }
        // Android: `AlarmManager.cancel(PendingIntent)` removes only the pending alarm; an alert
        // of the same ring, started by the app's ringing service, sounds on and is the pressure
        // (android uniform seed 35241: a rebased snooze's later copy cancelled at its delivery).
        if isCancel, android != nil, isAudible(id) { return }
        // The user's dismissal or Stop ends this alert: the transition window of invariant 1.
        switch stepInput {
        case .ringDismissed(id)?, .stopIntent(id)?, .volumeDismissal(id, _)?: return  // INACT-6 dismissals too
        default: break
        }
        let occurrence = oracle.occurrences[index]
        let isPressure: Bool
        if isAudible(id) {
            isPressure = true
        } else if let metadata = groundTruthMetadata(id), metadata.kind.isOccurrenceBound {
            isPressure = ios.map { $0.alarm(id)?.state == .scheduled } ?? (android?.alarm(id) != nil)
        } else {
            isPressure = false
        }
        guard isPressure, !hasPressure(occurrence, excluding: id), currentExemption() == nil else { return }
        violate("arm-before-retire", [], "\(isCancel ? "cancel" : "stop") of \(id) retired the last pressure of the live occurrence of \(occurrence.rootID) before a replacement was confirmed")
    }

    /// Candidate invariant 43, `pressure-belongs-to-owner` (ID-9, OCC-1, OCC-3, OCC-14, AND-15):
    /// every successor, snooze ring or walk fuse the bridge arms is for the live owner's root.
    func checkPressureBelongsToOwner(_ request: RingRequest) {
        guard request.metadata.kind.isOccurrenceBound, !stopped else { return }
        guard let index = oracle.liveIndex else {
            // A primary the platform lost by an injected fault (the OS removed it) vanishes past
            // its fire time exactly like one delivered and stopped inside one coalesced update
            // (IOS-5): the bridge errs toward ringing (ios seed 764).
            if oracle.primaryFaultRoots.contains(request.metadata.rootID) || oracle.osRemovedRoots.contains(request.metadata.rootID)
                || currentExemption() != nil { return }
            // The oracle gave up on an occurrence no process could observe (a reboot or OS removal
            // ended its alert), but the unprotected action journal did record its Stop (ACT-1),
            // and the bridge acts on it (ios seed 1571).
            if oracle.occurrences.last(where: { $0.tiedRoots.contains(request.metadata.rootID) })?.closeReason == "unobservable" { return }
            // The same for a held delivery a boot dropped, read as delivered at exactly its ring
            // time: only the occurrence the bridge opened for that ring time (IOS-5; a set-back no
            // process of the boot saw made the ring time look later than the boot: ios uniform
            // seeds 34717, 39356), and only while the bridge has not itself judged that ring time
            // missed (then it knew: `missedRingIDs`).
            if let token = request.metadata.token, let document = process.document,
               let start = document.occurrence(token: token)?.startedAtMs,
               oracle.bootDroppedFires.contains(where: { $0.rootID == request.metadata.rootID && $0.fireWallMs == start }),
               !document.rings.contains(where: { row in
                   row.metadata.rootID == request.metadata.rootID && row.fireWallMs == start && (document.missedRingIDs ?? []).contains(row.id)
               }) { return }
            violate("pressure-belongs-to-owner", [], "\(request.metadata.kind.rawValue) \(request.id) armed for \(request.metadata.rootID) while no occurrence is live")
            return
        }
        let occurrence = oracle.occurrences[index]
        guard !occurrence.tiedRoots.contains(request.metadata.rootID), occurrence.rootID != request.metadata.rootID else { return }
        if adoptUnobservedIncumbent(for: request, over: index) { return }
        violate("pressure-belongs-to-owner", [], "\(request.metadata.kind.rawValue) \(request.id) armed for \(request.metadata.rootID), which does not own the live occurrence (\(occurrence.rootID) does)")
    }

    /// [limit] `alert-ended-unobserved-by-os-removal` / `-by-reboot`, for ownership (OCC-2, OCC-3,
    /// IOS-5): the oracle gave up an occurrence whose alert the OS removal or a reboot ended before
    /// any process saw it (`unobservable`), then opened a later root's ring time inside that
    /// occurrence's life. The first bridge view since reads the vanished one-shot as delivered and
    /// stopped (IOS-5, as the no-live case above allows): the earlier occurrence is live, owns the
    /// wake session, and the later root is its pass-over (OCC-3). Nothing the app can read tells it
    /// otherwise. When the bridge arms pressure for that earlier occurrence (its token, its ring
    /// time) in its first view of the daemon since the later one opened, the oracle takes that reading:
    /// the earlier occurrence is reopened, the later one becomes a pass-over (ios swarm seed
    /// 53958: a2's legacy 08:10 one-shot rang behind a locked reboot, the OS removed it at 09:21,
    /// a1.sun rang at 09:32; the 09:51 launch inferred a2, passed a1.sun over and armed a2's
    /// successor). Only the occurrence closed `unobservable`, only while its own deadline is ahead.
    func adoptUnobservedIncumbent(for request: RingRequest, over index: Int) -> Bool {
        guard ios != nil, let token = request.metadata.token, let live = process.document?.liveOccurrence,
              live.token == token, live.rootID == request.metadata.rootID,
              let closed = oracle.occurrences.lastIndex(where: { $0.tiedRoots.contains(live.rootID) }),
              oracle.occurrences[closed].closeReason == "unobservable", oracle.occurrences[closed].startWallMs == live.startedAtMs,
              oracle.occurrences[closed].deadlineMs > wallMs,
              oracle.occurrences[index].startWallMs > live.startedAtMs,
              oracle.occurrences[index].openedAtMs > process.priorDaemonViewStepMs else { return false }
        let removed = oracle.osRemovedRoots.contains(live.rootID)
        demoteToPassOver(index)
        reopenOracleOccurrence(closed)
        enqueue(.oracleDeadline(occurrence: oracle.occurrences[closed].id), afterMs: oracle.occurrences[closed].deadlineMs - wallMs)
        countExemption(removed ? "alert-ended-unobserved-by-os-removal" : "alert-ended-unobserved-by-reboot")
        record("oracle", "unobserved-incumbent-adopted", [TraceField("root", live.rootID)])
        return true
    }

    /// Candidate invariant 10, `snooze-is-the-pressure` (SNZ-7, SNZ-10, SNZ-11, SNZ-15): once a
    /// pending snooze ring of the live occurrence has stood for T_OP, the occurrence holds no
    /// pending ordinary successor, except while a skip hands over (the skip arms its successor
    /// first, then retires the snooze ring).
    func checkSnoozeIsThePressure() {
        guard let index = oracle.liveIndex else { snoozeRingSeen = nil; snoozeSuccessorSeen = [:]; return }
        let occurrenceID = oracle.occurrences[index].id  // issue 20: not a copy of the whole occurrence per event
        let snooze = firstGroundTruthRing { id in
            oracle.bindings[id] == occurrenceID && groundTruthMetadata(id)?.kind == .snooze && !isAudible(id)
        }
        guard let snooze else { snoozeRingSeen = nil; snoozeSuccessorSeen = [:]; return }
        if snoozeRingSeen?.id != snooze { snoozeRingSeen = (snooze, nowMs) }
        // The same for a successor that landed after the bridge's last ready step: a successor
        // whose schedule was in flight when the snooze ring was confirmed answers the bridge's
        // cancel with notFound, and the bridge cancels it again when its schedule completes — in
        // the process that requested it, or, if that process died first, at the next launch
        // (ios uniform seed 42679: a2's snooze ring was requested at 08:09:37, resign-active
        // armed FG-4's successor at 08:09:39 while that ring was unconfirmed (FG-3, SNZ-7, SNZ-9), the
        // snooze ring landed at 08:09:39.125 and the bridge cancelled the successor (notFound),
        // the process died at 08:09:39.527 and the successor landed at 08:09:40.8 with no process
        // to retire it). Its T_OP runs from the bridge's first ready step after it landed.
        let successors = pendingSuccessors(boundTo: occurrenceID)
        snoozeSuccessorSeen = snoozeSuccessorSeen.filter { successors.contains($0.key) }
        // Only a successor that lands while no process can act gets this window; one that lands in
        // a running process is judged from the snooze ring's window (SNZ-10 forbids arming it).
        for id in successors {
            if let since = snoozeSuccessorSeen[id] {
                if process.lastReadyStepMs < since { snoozeSuccessorSeen[id] = nowMs }
            } else if !process.running || process.suspended {
                snoozeSuccessorSeen[id] = nowMs
            }
        }
        // SNZ-7: the silencing that follows the snooze ring's confirmation is the bridge's work, so
        // its T_OP runs from the bridge's first ready step after the ring landed (a window is judged
        // T_OP after the bridge's first execution following its trigger). A ring that landed after
        // the process died waits for the next launch (ios uniform seed 37666: a snooze in flight at
        // resign-active, which armed FG-3's successor, then the process died; the ring landed with
        // no process to retire the successor).
        if process.lastReadyStepMs < snoozeRingSeen?.sinceMs ?? nowMs {
            snoozeRingSeen = (snooze, nowMs)
            return
        }
        // A skip's handoff that a process death interrupted (successor armed, snooze ring not yet
        // retired) resumes only when a process runs again: its T_OP restarts then (SNZ-16).
        if !process.running && nowMs - lastSkipRequestMs <= setup.transitionBoundMs { skipHandoffInterrupted = true }
        if skipHandoffInterrupted {
            guard process.running else { return }
            skipHandoffInterrupted = false
            lastSkipRequestMs = nowMs
        }
        guard let seen = snoozeRingSeen, nowMs - seen.sinceMs > setup.transitionBoundMs,
              nowMs - lastSkipRequestMs > setup.transitionBoundMs else { return }
        if let stale = successors.first(where: { snoozeSuccessorSeen[$0].map { nowMs - $0 > setup.transitionBoundMs } ?? true }) {
            violate("snooze-is-the-pressure", [], "the occurrence of \(oracle.occurrences[index].rootID) holds successor \(stale) beside its pending snooze ring \(snooze)")
        }
    }

    /// Candidate invariant 23, `successor-cleanup` (OCC-9, FG-7, SNZ-19): a successor armed for
    /// the live occurrence before JS rendered its challenge never becomes audible while the
    /// challenge stays rendered (after T_OP for the removal to land).
    func checkSuccessorCleanup() {
        guard let rendered = renderedCleanup, process.running, process.active, process.stint == rendered.stint,
              nowMs - rendered.atMs > setup.transitionBoundMs else { return }
        for id in rendered.successors where isAudible(id) {
            violate("successor-cleanup", [], "successor \(id), armed before the challenge rendered, is sounding \(HumanText.duration(nowMs - rendered.atMs)) after it rendered")
            return
        }
    }

    /// Notes the successors bound to the live occurrence when JS renders its challenge.
    func noteChallengeRendered() {
        guard let index = oracle.liveIndex else { renderedCleanup = nil; return }
        if renderedCleanup?.stint == process.stint { return }
        renderedCleanup = (process.stint, nowMs, pendingSuccessors(boundTo: oracle.occurrences[index].id))
    }

    /// Candidate invariants 15 and 16, `expiry-formula` (INACT-2, INACT-3, INACT-5, INACT-9,
    /// INACT-10, INACT-19, REC-9): the effective expiry the bridge keeps for the live occurrence
    /// equals the oracle's: max(ring time, last credited genuine activity, snooze deadline) +
    /// 15/30 min in the offset-corrected frame, ring time + 20 h for legacy, capped at 20 h.
    /// Checked when both agree on which occurrence is live and no tie is unsettled.
    func checkExpiryFormula() {
        guard process.running, process.lastReadyStepMs > lastWallClockChangeMs,  // it saw the change
              process.isAcceptingInputs == true,  // the bridge's, as of its last change (`AppProcess`)
              let live = process.document?.liveOccurrence, let index = oracle.liveIndex else { return }
        let occurrence = oracle.occurrences[index]
        guard occurrence.tiedRoots.count <= 1, occurrence.rootID == live.rootID,
              occurrence.startWallMs == live.startedAtMs, oracle.pendingCredit == nil, walkWorld.stepCreditPending == nil else { return }
        // Credited activity is what the bridge observed: its step may run a look-first read
        // (IOS-2) or a launch after the press, so the credit may lag the press by up to T_OP.
        if abs(live.deadlineMs - occurrence.deadlineMs) > setup.transitionBoundMs {
            violate("expiry-formula", [], "the bridge's expiry for the occurrence of \(live.rootID) is \(HumanText.duration(live.deadlineMs - occurrence.deadlineMs)) off the policy's (\(occurrence.policy.rawValue), ring time \(localTimeText(occurrence.startWallMs)))")
        }
    }

    /// `active-occurrence-answer` (API-11, INACT-14, SNZ-23): `getActiveWakeOccurrence` describes the
    /// live occurrence exactly as the bridge records it — owner, token, start, policy, last
    /// activity, effective expiry, clock offset, inactivity snooze, whether the snooze is used —
    /// or nothing when none is live; a snooze end only while a snooze ring of that occurrence is
    /// armed, at its time. `expiry-formula` and `occurrence-identity` hold the record itself to
    /// the oracle, so together they judge what JS is told (a mutation study: no seed called it).
    func checkActiveOccurrenceAnswer(_ answer: ActiveWakeOccurrence?) {
        guard !stopped, let document = process.document else { return }
        guard let live = document.liveOccurrence else {
            if let answer { violate("active-occurrence-answer", [], "getActiveWakeOccurrence described an occurrence of \(answer.rootID) while none is live") }
            return
        }
        guard let answer else {
            violate("active-occurrence-answer", [], "getActiveWakeOccurrence answered nothing while the occurrence of \(live.rootID) at \(localTimeText(live.startedAtMs)) is live")
            return
        }
        let differences = Self.occurrenceAnswerDifferences(answer, live)
        if !differences.isEmpty {
            violate("active-occurrence-answer", [], "getActiveWakeOccurrence's description of the occurrence of \(live.rootID) at \(localTimeText(live.startedAtMs)) differs from the bridge's record in: \(differences.joined(separator: ", "))")
            return
        }
        guard let until = answer.oneTimeSnoozeUntilMs else { return }
        let armed = document.rings.contains { $0.metadata.kind == .snooze && $0.metadata.token == live.token && !$0.delivered && $0.fireWallMs == until }
        if !answer.oneTimeSnoozeUsed || !armed {
            violate("active-occurrence-answer", [], "getActiveWakeOccurrence gave the occurrence of \(live.rootID) a snooze end at \(localTimeText(until)) \(answer.oneTimeSnoozeUsed ? "with no snooze ring of it armed then" : "although its snooze is unused")")
        }
    }

    /// The fields in which `answer` differs from the live occurrence's record, by their API-11 names.
    static func occurrenceAnswerDifferences(_ answer: ActiveWakeOccurrence, _ live: OccurrenceRecord) -> [String] {
        var fields: [String] = []
        if answer.rootID != live.rootID { fields.append("owner") }
        if answer.token != live.token { fields.append("token") }
        if answer.occurrenceStartedAtMs != live.startedAtMs { fields.append("start") }
        if answer.inactivityPolicyVersion != live.policy { fields.append("policy") }
        if answer.lastMeaningfulActivityMs != live.lastActivityMs { fields.append("last activity") }
        if answer.effectiveExpiryMs != live.deadlineMs { fields.append("effective expiry") }
        if answer.inactivityClockOffsetMs != live.inactivityClockOffsetMs { fields.append("clock offset") }
        if answer.inactivitySnoozeUntilMs != live.inactivitySnoozeUntilMs { fields.append("snooze baseline") }
        if answer.oneTimeSnoozeUsed != live.oneTimeSnoozeUsed { fields.append("snooze used") }
        return fields
    }

    /// Candidate invariant 21, `ownership-validation` (OCC-18, INACT-15, SNZ-2, SNZ-15, API-1):
    /// an abandon, expire, snooze or skip request rejected by native validation changes no
    /// persisted state and issues no platform call.
    func checkOwnershipValidation(_ input: BridgeInput, before: BridgeDocument?, commands: [BridgeCommand]) {
        guard case .api(let call) = input, !stopped else { return }
        switch call {
        case .abandonWakeOccurrence, .expireWakeOccurrence, .beginOneTimeSnooze, .skipOneTimeSnooze: break
        default: return
        }
        let rejected = commands.contains { command in
            switch command {
            case .reply(.abandoned(false)), .reply(.expired(false)), .reply(.snoozeRejected), .reply(.skipRejected): return true
            default: return false
            }
        }
        guard rejected else { return }
        let calls = commands.filter { command in
            switch command {
            case .schedule, .cancel, .stop: return true
            default: return false
            }
        }
        let after = process.document
        if !calls.isEmpty || before != after {
            violate("ownership-validation", [], "a rejected \(describe(input)) \(calls.isEmpty ? "changed the bridge's persisted state" : "issued \(calls.count) platform call(s)")")
        }
    }
}

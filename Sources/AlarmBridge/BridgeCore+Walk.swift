/// The iOS walk fuse (RULES.md WALK-1..26, FG-5, FG-16, INACT-12), sans-I/O.
///
/// Shape: a walk alarm's "Start wake-up check" starts a HealthKit workout (`startWorkout`); the walk
/// is *started* only once HealthKit confirmed session and live collection while the app was in the
/// foreground (WALK-3). While the app stays steadily in the foreground no fuse exists (WALK-5). At
/// resign-active one provisional, root-scoped fuse is armed, due 60 s later (WALK-8); returning
/// active cancels it (WALK-9); the background edge stores the deadline unchanged (WALK-10). Each
/// accepted post-handoff step re-targets the one fuse to the step + 30 s (+ ≤ 5 s tolerance,
/// WALK-11, WALK-12, WALK-14) through a rotation that arms the replacement and retires the
/// predecessor only once AlarmKit accepted it (WALK-15, WALK-16); a newer generation during the
/// await gets a follow-up rotation (WALK-17); a failed arm keeps the predecessor and the 2 s step
/// poll repairs (WALK-18). Workout loss hands the occurrence back to the ordinary successor
/// (WALK-23) through a generation-scoped takeover (WALK-21). A process that HealthKit recovers
/// reattaches, looks back 30 s for post-handoff steps and relocates the same fuse (WALK-7,
/// WALK-19, WALK-20, WALK-22, WALK-26). Times are wall-clock virtual milliseconds.
///
/// Simplifications (said here, not hidden): the recovery phase runs from HealthKit's reattach
/// (`workoutRecovered`) until the look-back answer arrives, rather than starting before the
/// republication; the look-back relocates the fuse but, being a historical query, does not move
/// the inactivity deadline (seed 000: "replayed historical step totals do not"). A fuse that fired
/// is an alert like any other: its Stop arms the ordinary successor (OCC-5); the walk stays started.
/// No legacy kinds exist in `RingKind`, so none can be created (WALK-13).
extension BridgeCore {
    // MARK: - Queries

    /// The walk record of `live`, on iOS only (walk is iOS-only; Android is unaffected).
    func walkRecord(for live: OccurrenceRecord) -> WalkRecord? {
        guard flavor == .ios, let walk = document?.walk, walk.token == live.token else { return nil }
        return walk
    }

    /// WALK-20, FG-5: a started walk with a fuse (or a rotation, or a recovery) owns the
    /// occurrence's background pressure; generic rearm arms no ordinary successor for it.
    func walkOwnsPressure(_ live: OccurrenceRecord) -> Bool {
        guard let walk = walkRecord(for: live), walk.phase == .started else { return false }
        return walk.fuseID != nil || walk.rotationID != nil || walk.recovering
    }

    /// WALK-11, WALK-12: whether a fuse due at `dueMs` is current for `walk`: within
    /// [step + 30 s, step + 35 s] of the latest accepted step, or the provisional deadline.
    func fuseIsCurrent(_ dueMs: Int64, for walk: WalkRecord) -> Bool {
        if let step = walk.lastAcceptedStepMs {
            return dueMs >= step + configuration.steadyFuseDelayMs
                && dueMs <= step + configuration.steadyFuseDelayMs + configuration.steadyFuseToleranceMs
        }
        return dueMs == walk.handoffDeadlineMs
    }

    /// The deadline the one fuse should have now: the steady deadline after the latest accepted
    /// step (using the whole tolerance, so steps inside it need no rotation), else the provisional one.
    func fuseTarget(for walk: WalkRecord) -> Int64? {
        if let step = walk.lastAcceptedStepMs {
            return step + configuration.steadyFuseDelayMs + configuration.steadyFuseToleranceMs
        }
        return walk.handoffDeadlineMs
    }

    mutating func updateWalk(_ change: (inout WalkRecord) -> Void) {
        guard document?.walk != nil else { return }
        mutate { document in
            guard var walk = document.walk else { return }
            change(&walk)
            document.walk = walk
        }
    }

    /// WALK-6: appends to the size-bounded diagnostics journal (iOS). Entries name an event from a
    /// closed vocabulary, a time and a root: never health data.
    mutating func diagnose(_ event: DiagnosticEntry.Event, rootID: String?, now: BridgeInstants) {
        guard flavor == .ios, document != nil else { return }
        let bound = configuration.diagnosticsJournalMax
        mutate { document in
            var entries = document.diagnostics ?? []
            entries.append(DiagnosticEntry(atMs: now.wallMs, event: event, rootID: rootID))
            if entries.count > bound { entries.removeFirst(entries.count - bound) }
            document.diagnostics = entries
        }
    }

    /// WALK-6: launch-gate decisions are journalled too (seed 004, "What I tested").
    mutating func diagnoseLaunchGate(in commands: [BridgeCommand], now: BridgeInstants) {
        for command in commands {
            guard case .launchGate(let state) = command else { continue }
            switch state {
            case .waitingForUnlock: diagnose(.launchGateHeldForUnlock, rootID: nil, now: now)
            case .waitingForSavedDomain: diagnose(.launchGateHeldForDomain, rootID: nil, now: now)
            case .released: diagnose(.launchGateReleased, rootID: nil, now: now)
            }
        }
    }

    // MARK: - JS calls

    /// WALK-4: an iOS walk alarm cannot be saved without Health access. Returns true (and replies)
    /// when the save is rejected; nothing changes then.
    mutating func rejectWalkSaveWithoutHealth(_ alarm: LogicalAlarm, into out: inout [BridgeCommand]) -> Bool {
        guard flavor == .ios, alarm.challenge.isWalk, !healthAccessGranted else { return false }
        out.append(.reply(.saveRejected(alarmID: alarm.id, reason: "Health access is missing (WALK-4)")))
        return true
    }

    /// WALK-1, WALK-3, WALK-4: "Start wake-up check" of a walk. Validated against native state
    /// only (the live owner among `alarmIDs`, a walk alarm, Health access, the foreground); starts
    /// the workout, and reports the walk started only once HealthKit confirmed it.
    mutating func startWalkCheck(alarmIDs: [String], now: BridgeInstants, into out: inout [BridgeCommand]) {
        let rejection: String?
        var target: OccurrenceRecord?
        if flavor != .ios {
            rejection = "walk challenges are iOS-only"
        } else if case .success(let live) = snoozeTarget(token: nil, alarmIDs: alarmIDs) {
            target = live
            let alarmID = document?.root(live.rootID)?.alarmID
            if document?.alarm(alarmID ?? "")?.challenge.isWalk != true {
                rejection = "not a walk alarm"
            } else if !healthAccessGranted {
                rejection = "Health access is missing (WALK-4)"
            } else if !appActive {
                rejection = "the app is not in the foreground (WALK-3)"
            } else {
                rejection = nil
            }
        } else {
            rejection = "no live occurrence of these alarms"
        }
        guard let live = target, rejection == nil else {
            if let rootID = target?.rootID { diagnose(.walkStartRejected, rootID: rootID, now: now) }
            out.append(.reply(.walkCheckRejected(reason: rejection ?? "rejected")))
            return
        }
        if let walk = walkRecord(for: live), walk.phase != .lost {
            // Idempotent: a second tap while the workout starts (or runs) starts nothing new.
            if walk.phase == .started { out.append(.reply(.walkStarted(token: live.token))) }
            return
        }
        mutate { $0.walk = WalkRecord(token: live.token, rootID: live.rootID, phase: .starting) }
        walkSession = WalkSession()
        walkSession.attached = true
        diagnose(.walkStarting, rootID: live.rootID, now: now)
        flush(into: &out)
        out.append(.startWorkout)  // WALK-1: session + live builder, no metrics
    }

    // MARK: - Inputs

    /// Every walk input (HealthKit, Core Motion, the step-poll timer).
    mutating func handleWalkInput(_ input: BridgeInput, now: BridgeInstants, into out: inout [BridgeCommand]) {
        switch input {
        case .healthAccessObserved(let granted):
            healthAccessGranted = granted
        case .workoutSessionConfirmed:
            walkSession.sessionConfirmed = true
            walkConfirmationArrived(now: now, into: &out)
        case .workoutCollectionConfirmed:
            walkSession.collectionConfirmed = true
            walkConfirmationArrived(now: now, into: &out)
        case .workoutStartFailed:
            walkSession.attached = false
            if let live = document?.liveOccurrence, let walk = walkRecord(for: live), walk.phase == .starting {
                updateWalk { $0.phase = .lost }
                diagnose(.walkStartRejected, rootID: live.rootID, now: now)
                out.append(.reply(.walkCheckRejected(reason: "the workout did not start")))
            }
        case .workoutLost:
            workoutLost(now: now, into: &out)
        case .stepsObserved:
            stepsObserved(now: now, into: &out)
        case .workoutRecovered:
            workoutRecovered(now: now, into: &out)
        case .recentStepsQueried(let latest):
            recentStepsQueried(latestStepWallMs: latest, now: now, into: &out)
        case .timerFired(.walkStepPoll):
            stepPollRepair(now: now, into: &out)
        default:
            break
        }
    }

    /// WALK-3: started only once both confirmations arrived while the app is in the foreground.
    mutating func walkConfirmationArrived(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard walkSession.sessionConfirmed, walkSession.collectionConfirmed, let live = document?.liveOccurrence,
              let walk = walkRecord(for: live), walk.phase == .starting else { return }
        guard appActive else {
            diagnose(.walkNotStartedInBackground, rootID: live.rootID, now: now)
            out.append(.note("walk confirmed while not in the foreground: not started (WALK-3)"))
            return
        }
        updateWalk { $0.phase = .started }
        diagnose(.walkStarted, rootID: live.rootID, now: now)
        out.append(.reply(.walkStarted(token: live.token)))
        if defects.foregroundWalkFuse, let request = newOccurrenceRing(.walkFuse, for: live, fireWallMs: now.wallMs + configuration.provisionalFuseDelayMs) {
            // Known defect: a legacy foreground maintenance alarm for the walk (WALK-5, WALK-13).
            out.append(.note("defect foreground-walk-fuse: walk fuse armed in the foreground"))
            publishAndSchedule([request], origin: .lifecycle, now: now, into: &out)
        }
    }

    /// INACT-4: a live step event is genuine activity. WALK-11, WALK-14: for a started walk in the
    /// background it re-targets the one fuse; WALK-24: never while a snooze ring holds the pressure.
    mutating func stepsObserved(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, let walk = walkRecord(for: live), walk.phase != .lost,
              walkSession.attached else { return }
        mutate { $0.update(with(live) { $0.lastActivityMs = now.wallMs }) }
        armExpiryTimer(now: now, into: &out)
        guard walk.phase == .started else { return }
        let handedOff = walk.handoffAtMs != nil
        updateWalk { walk in
            walk.activityGeneration += 1
            if handedOff { walk.lastAcceptedStepMs = now.wallMs }
        }
        guard handedOff, !appActive, pendingSnooze(of: live)?.confirmed != true,
              let updated = document?.walk, let target = fuseTarget(for: updated) else { return }
        if let current = updated.rotationID ?? updated.fuseID, let row = document?.row(current), !row.delivered,
           fuseIsCurrent(row.fireWallMs, for: updated) {
            return  // WALK-12: inside the tolerance, no rotation needed
        }
        rotateFuse(to: target, for: live, now: now, into: &out)
    }

    // MARK: - Lifecycle edges

    /// WALK-8, FG-5, FG-16: for a started walk, resign-active arms exactly one provisional fuse
    /// due 60 s later instead of a successor. Returns false when the walk does not own the edge
    /// (not a started walk): the caller applies the ordinary policy (FG-3).
    mutating func walkResignActive(_ live: OccurrenceRecord, now: BridgeInstants, into out: inout [BridgeCommand]) -> Bool {
        guard let walk = walkRecord(for: live), walk.phase == .started else { return false }
        if let snooze = pendingSnooze(of: live), snooze.confirmed {
            out.append(.note("snooze ring \(snooze.id) holds the pressure (SNZ-10, WALK-24)"))
            return true
        }
        let deadline = now.wallMs + configuration.provisionalFuseDelayMs
        updateWalk { walk in
            walk.handoffAtMs = now.wallMs
            walk.handoffDeadlineMs = deadline
            walk.backgroundEdgeSeen = false
            walk.lastAcceptedStepMs = nil
        }
        diagnose(.provisionalFuseArmed, rootID: live.rootID, now: now)
        // WALK-8, WALK-16: a pending fuse is reused only when it is already due at the new
        // deadline; any other (an older provisional or steady deadline) is re-timed through a
        // rotation, which arms before it retires (WALK-15). A rotation in flight owes a follow-up.
        if walk.rotationID == nil, let fuse = walk.fuseID, let row = document?.row(fuse), !row.delivered,
           row.fireWallMs == deadline || defects.walkFuseKeptInForeground {
            out.append(.note(row.fireWallMs == deadline ? "walk fuse reused at resign-active (WALK-16)"
                             : "defect walk-fuse-kept-in-foreground: fuse \(fuse) reused at its old deadline"))
            return true
        }
        rotateFuse(to: deadline, for: live, now: now, into: &out)
        return true
    }

    /// WALK-10: the real background edge stores the handoff deadline unchanged.
    mutating func walkEnteredBackground(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, let walk = walkRecord(for: live), walk.phase == .started,
              walk.handoffAtMs != nil else { return }
        updateWalk { $0.backgroundEdgeSeen = true }
        diagnose(.backgroundEdge, rootID: live.rootID, now: now)
        if defects.backgroundEdgeMovesFuse, walk.lastAcceptedStepMs == nil {
            // Known defect: the background edge re-arms the provisional fuse from itself.
            out.append(.note("defect background-edge-moves-fuse: provisional fuse re-armed from the background edge"))
            let moved = now.wallMs + configuration.provisionalFuseDelayMs
            updateWalk { $0.handoffDeadlineMs = moved }
            rotateFuse(to: moved, for: live, now: now, into: &out)
        }
    }

    /// WALK-9, WALK-5: returning active (from Control Center without a background edge, or from
    /// the background) cancels the fuse: no walk fuse while the app is steadily in the foreground.
    mutating func walkBecameActive(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, let walk = walkRecord(for: live), walk.handoffAtMs != nil else { return }
        if defects.walkFuseKeptInForeground, walk.rotationID == nil, walk.fuseID != nil {
            // Known defect: the fuse stays pending in the foreground (WALK-5, WALK-9 say no).
            out.append(.note("defect walk-fuse-kept-in-foreground: walk fuse left pending on return to the foreground"))
            updateWalk { walk in
                walk.handoffAtMs = nil
                walk.handoffDeadlineMs = nil
                walk.backgroundEdgeSeen = false
                walk.lastAcceptedStepMs = nil
            }
            return
        }
        for id in [walk.fuseID, walk.rotationID].compactMap({ $0 }) {
            guard let row = document?.row(id), !row.delivered else { continue }
            out.append(.cancel(id, origin: .lifecycle))
            mutate { $0.removeRow(id) }
        }
        updateWalk { walk in
            walk.handoffAtMs = nil
            walk.handoffDeadlineMs = nil
            walk.backgroundEdgeSeen = false
            walk.lastAcceptedStepMs = nil
            walk.fuseID = nil
            walk.rotationID = nil
            walk.rotationGeneration = nil
        }
        walkSession.followUpOwed = false
        diagnose(walk.backgroundEdgeSeen ? .fuseCancelledInForeground : .provisionalFuseCancelled, rootID: live.rootID, now: now)
    }

    // MARK: - Rotation

    /// WALK-15, WALK-16, WALK-17: arms the replacement fuse; the predecessor is retired only when
    /// AlarmKit accepted it (`walkFuseConfirmed`). One rotation at a time: a newer generation while
    /// one is in flight owes a follow-up rotation to the newest deadline.
    mutating func rotateFuse(to dueMs: Int64, for live: OccurrenceRecord, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let walk = walkRecord(for: live) else { return }
        if activeOrActivating {
            // WALK-5, WALK-9, WALK-13: the activation handled later in this step cancels every
            // fuse; none is armed for it to cancel (a foreground maintenance alarm).
            out.append(.note("walk fuse not armed: Ember is becoming active in this step (WALK-5)"))
            return
        }
        if walk.rotationID != nil {
            walkSession.followUpOwed = true
            out.append(.note("fuse rotation in flight: follow-up owed (WALK-17)"))
            return
        }
        guard let request = newOccurrenceRing(.walkFuse, for: live, fireWallMs: dueMs) else { return }
        updateWalk { walk in
            walk.rotationID = request.id
            walk.rotationGeneration = walk.activityGeneration
        }
        walkSession.followUpOwed = false
        if defects.fuseRetireBeforeArm, let old = walk.fuseID, let row = document?.row(old), !row.delivered {
            // Known defect: the predecessor goes before the replacement is accepted (WALK-15 says no).
            out.append(.note("defect fuse-retire-before-arm: predecessor \(old) cancelled before the replacement is accepted"))
            out.append(.cancel(old, origin: .lifecycle))
            mutate { $0.removeRow(old) }
            updateWalk { $0.fuseID = nil }
        }
        diagnose(.fuseRotationArmed, rootID: live.rootID, now: now)
        publishAndSchedule([request], origin: .lifecycle, now: now, into: &out)
    }

    /// AlarmKit accepted a fuse. Commits the rotation, then retires the predecessor (WALK-15);
    /// in the foreground the fuse is not kept (WALK-5); after workout loss the fallback's
    /// confirmed successor wins (WALK-21); a newer generation gets its follow-up (WALK-17).
    mutating func walkFuseConfirmed(_ row: RingRow, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, let walk = walkRecord(for: live), walk.rotationID == row.id else {
            if let live = document?.liveOccurrence, walkRecord(for: live)?.fuseID == row.id { return }  // re-registration
            retire(row, reason: "walk fuse without its rotation", into: &out)
            return
        }
        let predecessor = walk.fuseID
        updateWalk { walk in
            walk.fuseID = row.id
            walk.rotationID = nil
            walk.rotationGeneration = nil
        }
        walkSession.pollRepairs = 0
        diagnose(.fuseRotationCommitted, rootID: live.rootID, now: now)
        flush(into: &out)
        if let predecessor, predecessor != row.id, let old = document?.row(predecessor) {
            if defects.rotationKeepsPredecessor {
                out.append(.note("defect rotation-keeps-predecessor: \(predecessor) left armed"))
            } else {
                retire(old, reason: "fuse rotation committed (WALK-15)", into: &out)
            }
        }
        if appActive || (walk.phase == .lost && pendingSuccessor(of: live)?.confirmed == true) {
            // WALK-5 / WALK-21: no fuse in the foreground; the fallback's accepted successor holds.
            retire(row, reason: appActive ? "no walk fuse in the foreground (WALK-5)" : "workout-loss fallback holds (WALK-21)", into: &out)
            updateWalk { $0.fuseID = nil }
            return
        }
        guard walk.phase == .started, let updated = document?.walk, let target = fuseTarget(for: updated) else { return }
        if walkSession.followUpOwed || !fuseIsCurrent(row.fireWallMs, for: updated) {
            rotateFuse(to: target, for: live, now: now, into: &out)  // WALK-17: to the newest deadline
        }
    }

    /// WALK-18: a failed arm keeps the predecessor as loud pressure; the 2 s step poll repairs.
    mutating func walkFuseFailed(_ row: RingRow, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, let walk = walkRecord(for: live), walk.rotationID == row.id else { return }
        updateWalk { walk in
            walk.rotationID = nil
            walk.rotationGeneration = nil
        }
        diagnose(.fuseArmFailed, rootID: live.rootID, now: now)
        armStepPoll(into: &out)
    }

    mutating func armStepPoll(into out: inout [BridgeCommand]) {
        guard walkSession.pollRepairs < configuration.walkStepPollMax else { return }
        walkSession.pollRepairs += 1
        out.append(.setTimer(.walkStepPoll, delayMs: configuration.walkStepPollMs))
    }

    /// WALK-18, WALK-7: the background step poll: while execution lasts, bring the one fuse to
    /// the current deadline if it is not there (a failed arm, a recovered process).
    mutating func stepPollRepair(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, let walk = walkRecord(for: live), walk.phase == .started,
              !appActive, walk.handoffAtMs != nil, walk.rotationID == nil, pendingSnooze(of: live)?.confirmed != true,
              let target = fuseTarget(for: walk) else { return }
        if let fuse = walk.fuseID, let row = document?.row(fuse), !row.delivered, fuseIsCurrent(row.fireWallMs, for: walk) {
            walkSession.pollRepairs = 0
            return
        }
        rotateFuse(to: target, for: live, now: now, into: &out)
    }

    /// The fuse fired: it is an alert now, no longer the pending fuse.
    mutating func walkFuseDelivered(_ row: RingRow) {
        guard flavor == .ios, document?.walk?.fuseID == row.id else { return }
        updateWalk { $0.fuseID = nil }
    }

    // MARK: - Workout loss and recovery

    /// WALK-23, WALK-21: the workout is gone; the occurrence returns to the ordinary policy. In the
    /// background the ordinary successor is armed first; the fuse is retired once it is accepted.
    mutating func workoutLost(now: BridgeInstants, into out: inout [BridgeCommand]) {
        walkSession.attached = false
        guard let live = document?.liveOccurrence, let walk = walkRecord(for: live), walk.phase != .lost else { return }
        updateWalk { walk in
            walk.phase = .lost
            walk.recovering = false
            walk.takeoverGeneration = walk.activityGeneration
        }
        diagnose(.workoutLost, rootID: live.rootID, now: now)
        if !appActive && !challengeVisible && (walk.fuseID != nil || walk.rotationID != nil) {
            armSuccessor(for: live, now: now, into: &out)
            if let accepted = pendingSuccessor(of: live), accepted.confirmed {
                walkTakeoverConfirmed(accepted, now: now, into: &out)  // an accepted successor was reused (OCC-7)
            }
        }
    }

    /// WALK-21: the fallback's successor was accepted: now the fuses may go.
    mutating func walkTakeoverConfirmed(_ row: RingRow, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, row.metadata.token == live.token, let walk = walkRecord(for: live),
              walk.phase == .lost else { return }
        for id in [walk.fuseID, walk.rotationID].compactMap({ $0 }) {
            if let fuse = document?.row(id) { retire(fuse, reason: "workout-loss fallback accepted (WALK-23)", into: &out) }
        }
        updateWalk { walk in
            walk.fuseID = nil
            walk.rotationID = nil
        }
        diagnose(.guardCleanup, rootID: live.rootID, now: now)
    }

    /// WALK-7, WALK-19, WALK-22: HealthKit reattached the running workout to this process: the
    /// recovery phase asks Core Motion for the post-handoff part of the last 30 s and restarts
    /// the repair poll; generic rearm treats the occurrence as walk-owned meanwhile (WALK-20).
    mutating func workoutRecovered(now: BridgeInstants, into out: inout [BridgeCommand]) {
        walkSession.attached = true
        guard let live = document?.liveOccurrence, let walk = walkRecord(for: live), walk.phase == .started else {
            out.append(.note("workout recovered without a started walk of the live occurrence"))
            return
        }
        diagnose(.workoutRecovered, rootID: live.rootID, now: now)
        settleInterruptedRotation(now: now, into: &out)
        guard let handoff = walk.handoffAtMs, !appActive else { return }
        updateWalk { $0.recovering = true }
        diagnose(.recoveryStarted, rootID: live.rootID, now: now)
        out.append(.queryRecentSteps(fromWallMs: max(handoff, now.wallMs - configuration.walkLookBackMs), toWallMs: now.wallMs))
        walkSession.pollRepairs = 0
        armStepPoll(into: &out)
    }

    /// WALK-16, WALK-19: a rotation whose process died before AlarmKit answered: if the daemon
    /// holds the replacement (the launch read confirmed its row) it commits now, retiring the
    /// predecessor; otherwise it is abandoned and the predecessor stays. The dead process's request
    /// may still be on its way to the daemon (IOS-11), so the replacement is cancelled with its
    /// row: should it land after all, it is a ring the registry does not know, which the next
    /// sync retires (ios swarm seed 24146: it landed 1.2 s after the read, and the next process
    /// kept it beside the predecessor and armed a third fuse).
    mutating func settleInterruptedRotation(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, let walk = walkRecord(for: live), let rotation = walk.rotationID,
              !inFlight.contains(rotation) else { return }
        if let row = document?.row(rotation), row.confirmed {
            walkFuseConfirmed(row, now: now, into: &out)
        } else {
            if let row = document?.row(rotation), !row.delivered {
                out.append(.cancel(rotation, origin: .lifecycle))
                mutate { $0.removeRow(rotation) }
            }
            updateWalk { walk in
                walk.rotationID = nil
                walk.rotationGeneration = nil
            }
            rearmAbandonedFirstFuse(live, now: now, into: &out)
        }
    }

    /// WALK-8, WALK-18, WALK-19: an abandoned rotation leaves its predecessor as the pressure —
    /// but the first fuse of a walk (the provisional one of WALK-8) has none. The recovering
    /// process then arms that fuse again itself, at the walk's deadline (or now, if it has
    /// passed), arming before the dead process's request, should it land, is retired (ios swarm
    /// seed 73327: the provisional fuse's answer was lost with its process, the recovery launch
    /// cancelled it unlisted and, walk-owned (WALK-20), left the occurrence with no ring at all).
    mutating func rearmAbandonedFirstFuse(_ live: OccurrenceRecord, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let walk = walkRecord(for: live), walk.phase == .started, walk.rotationID == nil,
              walk.fuseID.flatMap({ document?.row($0) }) == nil, let target = fuseTarget(for: walk) else { return }
        out.append(.note("interrupted first walk fuse abandoned: armed again (WALK-8, WALK-19)"))
        rotateFuse(to: max(target, now.wallMs), for: live, now: now, into: &out)
    }

    /// WALK-15, WALK-16, WALK-19: the daemon answered a re-registration (`resoundPendingRings`,
    /// SND-2) of the replacement fuse of a rotation whose own answer was lost with the process that
    /// asked for it. Either way the daemon holds that replacement (accepted with the new sound, or
    /// refused and kept as it was, its row confirmed by the launch read): the rotation commits now,
    /// as ``settleInterruptedRotation(now:into:)`` commits it when nothing is in flight — it skips
    /// a replacement in flight, so without this the rotation stayed open for good and every later
    /// step only owed a follow-up (ios swarm seed 71760: the fuse never moved with the steps, rang,
    /// and its Stop armed nothing, the "rotation" still owning the pressure, WALK-20).
    mutating func settleResoundedRotation(_ id: AlarmUUID, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, let walk = walkRecord(for: live), walk.rotationID == id,
              !inFlight.contains(id), let row = document?.row(id), row.confirmed else { return }
        walkFuseConfirmed(row, now: now, into: &out)
    }

    /// WALK-26, WALK-22: counts only a step inside the post-handoff part of the last 30 s,
    /// relocates the same fuse transactionally, and converges: no ordinary fallback beside it.
    mutating func recentStepsQueried(latestStepWallMs: Int64?, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, let walk = walkRecord(for: live), walk.phase == .started,
              walk.recovering else { return }
        updateWalk { $0.recovering = false }
        if let step = latestStepWallMs, let handoff = walk.handoffAtMs, step >= handoff,
           step >= now.wallMs - configuration.walkLookBackMs, step > (walk.lastAcceptedStepMs ?? .min) {
            updateWalk { walk in
                walk.lastAcceptedStepMs = step
                walk.activityGeneration += 1
            }
            if !appActive, let updated = document?.walk, let target = fuseTarget(for: updated) {
                let current = (updated.rotationID ?? updated.fuseID).flatMap { document?.row($0) }
                if current.map({ $0.delivered || !fuseIsCurrent($0.fireWallMs, for: updated) }) ?? true {
                    rotateFuse(to: target, for: live, now: now, into: &out)
                }
            }
        }
        if let fuse = walk.fuseID, document?.row(fuse)?.confirmed == true, let successor = pendingSuccessor(of: live) {
            out.append(.cancel(successor.id, origin: .lifecycle))  // WALK-22: no fallback beside the fuse
            mutate { $0.removeRow(successor.id) }
        }
    }

    /// The occurrence closed: the walk ends with it (its fuses are retired by `close`).
    mutating func endWalk(of occurrence: OccurrenceRecord, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard flavor == .ios, document?.walk?.token == occurrence.token else { return }
        mutate { $0.walk = nil }
        walkSession = WalkSession()
        diagnose(.walkEnded, rootID: occurrence.rootID, now: now)
        out.append(.endWorkout)
    }

    /// SNZ-7, SNZ-10: once a snooze ring is confirmed the walk fuse is silenced with the rest.
    mutating func retireWalkFuses(of live: OccurrenceRecord, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let walk = walkRecord(for: live) else { return }
        for id in [walk.fuseID, walk.rotationID].compactMap({ $0 }) {
            if let row = document?.row(id) { retire(row, reason: "snooze holds the pressure (SNZ-10)", into: &out) }
        }
        updateWalk { walk in
            walk.fuseID = nil
            walk.rotationID = nil
            walk.handoffAtMs = nil
            walk.handoffDeadlineMs = nil
        }
    }
}

import AlarmBridge
import SimKernel

/// Walk-fuse checkers (RULES.md candidate invariants 5, 6, 7 and the walk part of 2). They read
/// the AlarmKit daemon's ground truth and the world's own record of what the bridge could observe
/// (resign edges, live steps it was handed, look-back answers), never the bridge's walk record.
extension World {
    // MARK: one-steady-fuse (candidate invariant 5)

    /// At most one pending walk fuse per root; two only inside a rotation, which must end within
    /// T_OP of the bridge's first execution after the second appeared (no process: no window yet).
    func checkOneSteadyFuse() {
        guard let alarms = ios?.alarms, !stopped else { return }
        let fuses = alarms.matching(kind: .walkFuse, state: .scheduled).map { alarms[$0] }
        guard !fuses.isEmpty else {  // the usual case, no array touched (issue 20): no root holds two
            if !walkWorld.twoFusesSince.isEmpty { walkWorld.twoFusesSince.removeAll() }
            return
        }
        var roots: [String] = []
        for fuse in fuses where !roots.contains(fuse.metadata.rootID) { roots.append(fuse.metadata.rootID) }
        roots.sort()
        let executing = process.running && !process.suspended && process.isAcceptingInputs == true
        for root in roots {
            let count = fuses.filter { $0.metadata.rootID == root }.count
            if count > 2 {
                violate("one-steady-fuse", [], "root \(root) holds \(count) pending walk fuses")
                return
            }
            guard count == 2 else { continue }
            if let since = walkWorld.twoFusesSince.first(where: { $0.rootID == root })?.sinceMs,
               !executing, process.lastReadyStepMs < since {
                // The window runs from the bridge's first execution after the pair appeared (RULES.md,
                // "Asynchrony"; WALK-15): a process that stopped executing before any step of it
                // followed (it died in the instant the replacement landed, its completion lost) never
                // had one, so the window starts when a process executes again (ios uniform seed 62556).
                walkWorld.twoFusesSince.removeAll { $0.rootID == root }
                continue
            }
            if let since = walkWorld.twoFusesSince.first(where: { $0.rootID == root })?.sinceMs {
                if nowMs - since > setup.transitionBoundMs {
                    violate("one-steady-fuse", [], "root \(root) has held two pending walk fuses for \(HumanText.duration(nowMs - since)): a rotation did not end within T_OP")
                    return
                }
            } else if executing {
                walkWorld.twoFusesSince.append((root, nowMs))
                enqueue(.gapCheck, afterMs: setup.transitionBoundMs + 1)
            }
        }
        walkWorld.twoFusesSince.removeAll { entry in fuses.filter { $0.metadata.rootID == entry.rootID }.count < 2 }
    }

    // MARK: no fuse in the foreground (WALK-5, WALK-9; no-legacy-rings)

    /// The platform's pending fuses, not only the requests: while Ember is natively active and the
    /// bridge executes, no walk fuse stays pending longer than T_OP (WALK-5: a running workout
    /// keeps no fuse in steady foreground; WALK-9: returning active cancels the provisional one).
    /// The clock starts when the fuse is first seen under those conditions (true ms).
    func checkNoForegroundFuse() {
        guard let alarms = ios?.alarms, !stopped, deviceUp, process.running, process.active, !process.suspended,
              process.isAcceptingInputs == true else {
            walkWorld.foregroundFusesSince = []
            return
        }
        let pending = alarms.matching(kind: .walkFuse, state: .scheduled).map { alarms[$0] }
        var tracked: [(id: AlarmUUID, sinceMs: Int64)] = []
        for fuse in pending {
            guard let since = walkWorld.foregroundFusesSince.first(where: { $0.id == fuse.id })?.sinceMs else {
                tracked.append((fuse.id, nowMs))
                enqueue(.gapCheck, afterMs: setup.transitionBoundMs + 1)
                continue
            }
            if nowMs - since > setup.transitionBoundMs {
                violate("no-legacy-rings", [], "walk fuse \(fuse.id) of \(fuse.metadata.rootID) (due \(localTimeText(fuse.nextFireWallMs))) has stayed pending for \(HumanText.duration(nowMs - since)) while Ember is in the foreground (a foreground maintenance alarm)")
                return
            }
            tracked.append((fuse.id, since))
        }
        walkWorld.foregroundFusesSince = tracked
    }

    /// T_OP after resign-active of a started walk, still in the background with no step accepted:
    /// the root's earliest pending fuse is due at resign + 60 s, a fuse reused from before the
    /// resign edge included (WALK-8, WALK-10). Exempt: a rotation in flight, a failed arm (WALK-18
    /// keeps the predecessor), a snooze holding the pressure (SNZ-10), a fuse already alerting.
    func checkProvisionalFuse(_ resignWallMs: Int64) {
        guard let daemon = ios, !stopped, deviceUp, walkWorld.startedReported, !walkWorld.timingUnknown,
              walkWorld.resignMs == resignWallMs, walkWorld.latestAcceptedStepMs == nil, walkWorld.lookBackStepMs == nil,
              !process.active, let root = walkWorld.rootID, let occurrenceID = walkWorld.occurrenceID,
              oracle.liveIndex.map({ oracle.occurrences[$0].id }) == occurrenceID else { return }
        let bound = daemon.alarms.filter { oracle.bindings[$0.id] == occurrenceID }
        if bound.contains(where: { $0.metadata.kind == .snooze || $0.state == .alerting }) { return }
        let fuses = bound.filter { $0.metadata.kind == .walkFuse && $0.metadata.rootID == root && $0.state == .scheduled }
        guard let earliest = fuses.map(\.nextFireWallMs).min(), walkWorld.fuseRequestsInFlight.isEmpty,
              !armFailureExempt, currentExemption() == nil else { return }
        if earliest != resignWallMs + 60_000 {
            violate("fuse-timing", [], "the walk fuse of \(root) is due \(localTimeText(earliest)), not 60 s after resign-active at \(localTimeText(resignWallMs)) (a fuse reused without re-timing)")
        }
    }

    // MARK: fuse-timing (candidate invariant 6) and no-legacy-rings (candidate invariant 7)

    /// Per request: a walk fuse is never armed in the foreground nor as a pair (no legacy kinds,
    /// WALK-5, WALK-13), and is due at resign + 60 s (the background edge never moves it, WALK-8,
    /// WALK-10) or at an accepted step + 30..35 s (WALK-11, WALK-12, WALK-26).
    func checkWalkFuseRequest(_ request: RingRequest, origin: CommandOrigin) {
        guard ios != nil, request.metadata.kind == .walkFuse, !stopped else { return }
        walkWorld.fuseRequestsInFlight.append(request.id)
        if origin.isSync { return }  // a repair re-registers an existing fuse with its own time
        if process.active {
            violate("no-legacy-rings", [], "walk fuse \(request.id) of \(request.metadata.rootID) armed while the app is in the foreground (a foreground maintenance alarm)")
            return
        }
        if walkWorld.fuseRequestsThisStep.contains(request.metadata.rootID) {
            violate("no-legacy-rings", [], "two walk fuses for \(request.metadata.rootID) armed in one step (a prearmed fuse pair)")
            return
        }
        walkWorld.fuseRequestsThisStep.append(request.metadata.rootID)
        guard walkWorld.startedReported, !walkWorld.timingUnknown, let resign = walkWorld.resignMs else { return }
        let due = request.fireWallMs
        if due == resign + 60_000 { return }
        for step in [walkWorld.latestAcceptedStepMs, walkWorld.lookBackStepMs].compactMap({ $0 })
        where due - step >= 30_000 && due - step <= 35_000 {
            walkWorld.rotationRequestedForStepMs = step
            return
        }
        violate("fuse-timing", [], "walk fuse of \(request.metadata.rootID) due \(wallText(due)) is neither 60 s after resign-active at \(wallText(resign)) nor 30–35 s after an accepted step (latest \(walkWorld.latestAcceptedStepMs.map { wallText($0) } ?? "none"))")
    }

    func walkFuseRequestCompleted(_ id: AlarmUUID) {
        walkWorld.fuseRequestsInFlight.removeAll { $0 == id }
    }

    /// T_OP after an accepted post-handoff step (still the latest): the root's earliest pending
    /// fuse is due no later than step + 35 s, and — unless a rotation is in flight or an arm
    /// failed — no earlier than step + 30 s (WALK-11, WALK-12, WALK-14, WALK-17, WALK-18).
    func checkFuseAfterStep(_ stepWallMs: Int64) {
        guard let daemon = ios, !stopped, deviceUp, walkWorld.startedReported, !walkWorld.timingUnknown,
              walkWorld.latestAcceptedStepMs == stepWallMs, walkWorld.resignMs != nil, !process.active,
              let root = walkWorld.rootID, let occurrenceID = walkWorld.occurrenceID,
              oracle.liveIndex.map({ oracle.occurrences[$0].id }) == occurrenceID else { return }
        let bound = daemon.alarms.filter { oracle.bindings[$0.id] == occurrenceID }
        if bound.contains(where: { $0.metadata.kind == .snooze }) { return }  // SNZ-10: the snooze holds
        let fuses = bound.filter { $0.metadata.kind == .walkFuse && $0.metadata.rootID == root }
        if fuses.contains(where: { daemon.isAudible($0.id) || $0.state == .alerting }) { return }  // fired: loud
        // A fuse that fired and was stopped hands the walk to the ordinary successor (OCC-5);
        // a rotation the capacity limit refused leaves nothing newer (ios seed 840). So does a
        // consumed snooze ring (SNZ-12, SNZ-19), and that successor still holds the pressure while
        // it alerts (ios swarm seed 15975: steps during the successor's alert after a stopped
        // snooze ring; its Stop arms the next one, OCC-5).
        if bound.contains(where: { $0.metadata.kind == .successor && ($0.state == .scheduled || $0.state == .alerting) }) { return }
        guard let earliest = fuses.filter({ $0.state == .scheduled }).map(\.nextFireWallMs).min() else {
            if armFailureExempt || currentExemption() != nil { return }
            violate("fuse-timing", [], "no walk fuse for \(root) \(HumanText.duration(wallMs - stepWallMs)) after the accepted step at \(wallText(stepWallMs))")
            return
        }
        if earliest > stepWallMs + 35_000 && armFailureExempt {
            // WALK-18: the failed replacement leaves the predecessor (here the later provisional
            // fuse) as the pressure; candidate invariant 6's upper bound cannot hold then. Named.
            countExemption("walk-fuse-arm-failed-keeps-predecessor")
        } else if earliest > stepWallMs + 35_000 {
            violate("fuse-timing", [], "the walk fuse of \(root) is due \(HumanText.duration(earliest - stepWallMs)) after the latest accepted step (at most 35 s)")
        } else if earliest < stepWallMs + 30_000 && walkWorld.fuseRequestsInFlight.isEmpty && !armFailureExempt
                    && currentExemption() == nil {
            violate("fuse-timing", [], "the walk fuse of \(root) is due \(HumanText.duration(earliest - stepWallMs)) after the latest accepted step (at least 30 s) with no rotation in flight")
        }
    }

    // MARK: fuse-arm-before-retire (walk part of candidate invariant 2)

    /// A lifecycle cancel or stop of the last pending walk fuse of a live occurrence in the
    /// background needs its replacement (fuse, successor or snooze ring) already in the daemon
    /// (WALK-15, WALK-19, WALK-21). Closing paths and the foreground (FG-2, WALK-5) are exempt.
    func checkFuseRetire(_ id: AlarmUUID, origin: CommandOrigin) {
        guard let daemon = ios, origin == .lifecycle, !stopped, !process.active, let alarm = daemon.alarm(id),
              alarm.metadata.kind == .walkFuse, alarm.state == .scheduled, let occurrenceID = oracle.bindings[id],
              oracle.liveIndex.map({ oracle.occurrences[$0].id }) == occurrenceID else { return }
        let replacement = daemon.alarms.contains { other in
            other.id != id && oracle.bindings[other.id] == occurrenceID && other.metadata.kind.isOccurrenceBound
                && (other.state == .scheduled || other.state == .alerting)
        }
        if !replacement {
            violate("fuse-arm-before-retire", [], "walk fuse \(id) of \(alarm.metadata.rootID) retired before any replacement was accepted")
        }
    }
}

import AlarmBridge
import IOSModel
import SimKernel

/// Recurrence and capacity checkers: candidate invariants 29 (capacity protection), 44
/// (recurrence) and the horizon invariant (`primary-horizon`). Ground truth: the world's
/// configured alarms (what the user saved), the device calendar now in force, the platform
/// models' inventories and the commands as the platform receives them.
extension World {
    /// The configured weekly roots a ring may belong to: the saved definition, and a definition
    /// JS is saving now (its rings are registered before the save resolves, API-19).
    /// With `includingKept`, a definition an interrupted save replaced counts too while the oracle
    /// keeps its fire times queued: its rings may still ring until a later process's sync retires
    /// them, and the oracle opens their occurrences (`adoptConfigured(_:keepPreviousFireTimes:)`;
    /// ios uniform seed 5917: a save's ring landed after its process died, and the process of
    /// the newer save died too). The bridge never requests a ring for such a definition.
    func configuredWeeklyRoots(_ metadata: RingMetadata, includingKept: Bool = false) -> [Root] {
        // Each definition's root by ID (issue 20: `roots` built every root's ID to find one), and
        // each definition found by index, its ID read in place (`first(where:)` copied every
        // alarm it passed, title, sounds and skip dates; this runs for every scheduled ring).
        var roots: [Root] = []
        func add(_ alarm: LogicalAlarm) {
            if let root = alarm.root(withID: metadata.rootID), root.weekday != nil { roots.append(root) }
        }
        let pending = jsSaves.pending, configured = alarms
        if let index = pending.indices.first(where: { pending[$0].id == metadata.alarmID }) { add(pending[index]) }
        if let index = configured.indices.first(where: { configured[$0].id == metadata.alarmID }) { add(configured[index]) }
        if includingKept {
            let kept = jsSaves.keptPrevious
            for index in kept.indices.reversed() where kept[index].id == metadata.alarmID { add(kept[index]) }
        }
        return roots
    }

    /// True while `id` belongs to the schedule a save in progress (or one interrupted by process
    /// death) is replacing: SCH-10 keeps it until the save resolves, so it may still ring.
    func isPreviousScheduleRing(_ id: AlarmUUID, alarmID: String) -> Bool {
        saveTruth.before[alarmID]?.contains(id) ?? false
    }

    /// True when `fireWallMs` is a scheduled occurrence of `root` in `calendar`: on its weekday at
    /// the stored hour and minute, or anywhere on that date when that local time falls in a DST
    /// gap (its normalisation, REC-2); and never on a skip date (REC-4).
    func isScheduledOccurrence(_ fireWallMs: Int64, of root: Root, in calendar: WallCalendar) -> (Bool, String) {
        let local = calendar.local(fireWallMs)
        let date = LocalDate(year: local.year, month: local.month, day: local.day)
        if root.skipDates.contains(date) { return (false, "on skip date \(date)") }
        if local.hour == root.hour && local.minute == root.minute && local.weekday == root.weekday { return (true, "") }
        // A gap normalisation lands later the same day (next hour / preserved minute).
        if calendar.isInGap(date: date, hour: root.hour, minute: root.minute), local.weekday == root.weekday {
            return (true, "")
        }
        return (false, "local \(date) \(clockTime(hour: local.hour, minute: local.minute)) \(local.weekday), not \(clockTime(hour: root.hour, minute: root.minute)) \(root.weekday.map(\.description) ?? "")")
    }

    // MARK: recurrence (candidate invariant 44)

    /// At registration: a fixed primary or seed of a weekly root is one of its scheduled
    /// occurrences (REC-1, REC-2, REC-4, REC-7), and a root never holds a second pending seed (REC-5).
    func checkRecurrenceRequest(_ request: RingRequest) {
        guard !stopped, request.metadata.kind.opensOccurrence, case .fixed(let fire) = request.schedule,
              let root = configuredWeeklyRoots(request.metadata).first,
              !isOwedDayReRegistered(request, fireWallMs: fire) else { return }
        let (ok, why) = isScheduledOccurrence(fire, of: root, in: calendar)
        if !ok && !configuredWeeklyRoots(request.metadata).contains(where: { isScheduledOccurrence(fire, of: $0, in: calendar).0 }) {
            violate("recurrence", [], "\(request.metadata.kind.rawValue) \(request.id) of \(root.id) registered for \(localTimeText(fire)): \(why)")
            return
        }
        if request.metadata.kind == .seed, let daemon = ios,
           let other = daemon.alarms.first(where: { $0.metadata.kind == .seed && $0.metadata.rootID == root.id
               && $0.id != request.id && $0.state == .scheduled && $0.nextFireWallMs > wallMs }) {
            violate("recurrence", [], "seed \(request.id) of \(root.id) registered while seed \(other.id) of the same root is pending (at most one seed per root)")
        }
    }

    /// Android, REC-1, SCH-21, AND-3: `request` registers again a primary whose ring time already
    /// came while it was its root's configured time, and whose day the oracle still owes: an
    /// inexact delivery it waits for (`inexactOracleFires`, same ring) or a missed day the launch
    /// may add back (`missedExpectations`). An edit since moved the root's later occurrences, not
    /// that day: the save may not cancel a ring past its fire time (SCH-21), the day opens its
    /// occurrence when delivered (glossary; `releaseInexactOracleFires`), and the exact-alarm
    /// grant registers it exactly so AMS delivers it at once (AND-3; android seed 3844). RULES.md
    /// is silent on an edit between a ring time and its delivery; decided from SCH-21 and the
    /// oracle's own deferral (android uniform seed 70340: a2.sun's 06:11 held inexact, a2 moved to
    /// 05:34 at 06:23, the grant at 06:29 re-registered 06:11 exactly).
    func isOwedDayReRegistered(_ request: RingRequest, fireWallMs: Int64) -> Bool {
        guard android != nil, request.metadata.kind == .primary, fireWallMs <= wallMs else { return false }
        return inexactOracleFires.contains { $0.ringID == request.id && $0.rootID == request.metadata.rootID && $0.fireWallMs == fireWallMs }
            || missedExpectations.contains { $0.rootID == request.metadata.rootID && $0.fireWallMs == fireWallMs }
    }

    /// When an alert starts: a primary or seed of a weekly root sounds at one of its scheduled
    /// occurrences — its configured local time (or a gap's normalisation), never on a skip date.
    /// A fixed instant planned before a zone change that no bridge process had seen by its fire
    /// time is a [limit] (REC-8 needs a running process), counted by name.
    func checkRecurrenceAlert(_ id: AlarmUUID, _ metadata: RingMetadata) {
        guard !stopped, metadata.kind.opensOccurrence, let root = configuredWeeklyRoots(metadata).first,
              !isPreviousScheduleRing(id, alarmID: metadata.alarmID) else { return }
        let scheduled: Int64?
        if let daemon = ios { scheduled = daemon.alarm(id)?.nextFireWallMs } else { scheduled = android?.alarm(id)?.triggerWallMs }
        // `lastWallClockChangeMs` is true time (`nowMs` when the clock was set): measuring it
        // against the wall clock made the window vanish after any forward correction, so a
        // `.relative` time the jump went over (it alerts at the jump, `jumpedOverRelativeFires`;
        // the oracle opens it there too, REC-9) read as an off-schedule alert (ios seed 424).
        guard let fire = scheduled, fire <= wallMs, nowMs - lastWallClockChangeMs > setup.transitionBoundMs else { return }
        // REC-9: a `.relative` time the last correction jumped over alerts at its landing instant
        // (`jumpedOverRelativeFires`), however late the platform delivers it (ios seed 12928: a
        // late delivery pushed the alert past T_OP). The landing is the wall time of that change.
        if case .relative = ios?.alarm(id)?.schedule, fire == lastWallClockChangeMs + clock.wallOffsetMs { return }
        let (ok, why) = isScheduledOccurrence(fire, of: root, in: calendar)
        guard !ok, !configuredWeeklyRoots(metadata, includingKept: true).contains(where: { isScheduledOccurrence(fire, of: $0, in: calendar).0 }) else { return }
        // The fire instant came (true time) after the zone change and before any bridge step
        // observed it: the ring was already past its fire time when the bridge could re-plan,
        // and a ring past its fire time is never cancelled (SCH-3, SCH-21); a late delivery
        // then sounds the old-frame instant (ios uniform seed 2093).
        let fireTrueMs = nowMs - (wallMs - fire)
        if lastZoneChangeMs > process.lastReadyStepMs
            || (lastZoneChangeMs <= fireTrueMs && (zoneChangeObservedMs ?? .max) > fireTrueMs) {
            countExemption("zone-change-unobserved")
            return
        }
        violate("recurrence", [], "\(metadata.kind.rawValue) \(id) of \(root.id) alerted for \(localTimeText(fire)): \(why)")
    }

    // MARK: capacity-protection (candidate invariant 29)

    /// The limit failure the bridge step now running handles, if any.
    var limitFailureInStep: AlarmUUID? {
        if case .scheduleCompleted(let id, .failure(.maximumLimitReached)) = stepInput { return id }
        return nil
    }

    /// At a seed's registration: never while the app is active, never while a configured primary
    /// is unregistered (CAP-3, CAP-2). At any registration in a limit-failure step: at most one
    /// retry of the refused primary (CAP-4).
    func checkCapacityRequest(_ request: RingRequest) {
        guard !stopped else { return }
        if let failed = limitFailureInStep, failed == request.id {
            if limitRetried.contains(request.id) {
                violate("capacity-protection", [], "primary \(request.id) was retried again after its retry hit the limit (CAP-4: one retry)")
                return
            }
            limitRetried.append(request.id)
        } else {
            limitRetried.removeAll { $0 == request.id }
        }
        guard request.metadata.kind == .seed else { return }
        if process.active {
            violate("capacity-protection", [], "seed \(request.id) of \(request.metadata.rootID) added while the app is active (CAP-3)")
            return
        }
        if let missing = unregisteredPrimaryRoot() {
            violate("capacity-protection", [], "seed \(request.id) of \(request.metadata.rootID) added while the primary of \(missing) is not registered (CAP-2, CAP-3)")
        }
    }

    /// A root of an enabled alarm with a future occurrence whose primary the daemon does not hold.
    func unregisteredPrimaryRoot() -> String? {
        guard let daemon = ios else { return nil }
        for alarm in alarms where alarm.enabled {
            for root in alarm.roots {
                if let once = root.onceFireWallMs, once <= wallMs { continue }
                // A one-shot rings once: one whose ring time already opened an occurrence (or was
                // passed over) is spent, even when a clock set back makes that time future again
                // (OCC-20; ios seed 8612).
                if let once = root.onceFireWallMs, oracle.occurrences.contains(where: { $0.startWallMs == once && $0.tiedRoots.contains(root.id) })
                    || oracle.passedOver.contains(where: { $0.rootID == root.id && $0.fireWallMs == once }) { continue }
                let held = daemon.alarms.contains { $0.metadata.rootID == root.id && $0.metadata.kind == .primary
                    && ($0.state != .scheduled || $0.nextFireWallMs > wallMs || lateHeld.contains($0.id)) }  // a late delivery still pending is registered
                if !held { return root.id }
            }
        }
        return nil
    }

    /// At a cancel in a limit-failure step: only a non-alerting seed whose fire time is later than
    /// the refused primary's may be cancelled to free capacity (CAP-4, CAP-5).
    /// A failed direct save's rollback of its own new rings (SCH-10) frees nothing for another ring:
    /// it is not a capacity decision. Nor is FG-2's consumption of an imminent successor while the
    /// app is natively active (origin `foreground`), which the same step may make (ios uniform
    /// seed 25332: the refusal of a3.sun's new primary reached the launch step that consumed
    /// a2.wed's imminent successor); the foreground checks judge that cancel.
    func checkCapacityCancel(_ id: AlarmUUID, origin: CommandOrigin) {
        guard !stopped, let failed = limitFailureInStep, let metadata = groundTruthMetadata(id) else { return }
        if origin == .directSave, metadata.kind == .primary, (requestMetadata[failed] ?? groundTruthMetadata(failed))?.alarmID == metadata.alarmID { return }
        if origin == .foreground, metadata.kind == .successor, process.active { return }
        let failedFire = requestFires[failed]
        let fire: Int64? = ios?.alarm(id)?.nextFireWallMs
        if metadata.kind != .seed || isAudible(id) || (failedFire != nil && fire != nil && fire! <= failedFire!) {
            violate("capacity-protection", [], "\(metadata.kind.rawValue) \(id) of \(metadata.rootID) cancelled while the limit refused \(failed): only a later, non-alerting seed may be reclaimed (CAP-4, CAP-5)")
        }
    }

    // MARK: primary-horizon (issue 6)

    /// The latest capacity refusal of `rootID` whose ring was requested for the fire time
    /// `fireWallMs`: a fixed ring for that instant, or a relative one at that local time (and
    /// weekday). A refusal of another time of the root (an edit since, ios uniform seeds 562,
    /// 7825) says nothing about this one.
    func capacityRefusal(rootID: String, fireWallMs: Int64) -> (rootID: String, ringID: AlarmUUID, atMs: Int64)? {
        oracle.capacityRefused.last { refusal in
            refusal.rootID == rootID && refusalSpeaks(for: fireWallMs, ringID: refusal.ringID)
        }
    }

    /// Whether a refusal of `ringID` speaks for the fire time `fireWallMs`: a fixed ring requested
    /// for that instant, or a relative one at that local time (and weekday).
    func refusalSpeaks(for fireWallMs: Int64, ringID: AlarmUUID) -> Bool {
        if requestFires[ringID] == fireWallMs { return true }
        guard case .relative(let hour, let minute, let weekday)? = saveTruth.requestedSchedules[ringID] else { return false }
        let local = calendar.local(fireWallMs)
        return local.hour == hour && local.minute == minute && (weekday == nil || weekday == local.weekday)
    }

    /// CAP-9: a later request of the same root's ring of the same kind for the fire time a refusal
    /// speaks for, under another ID (a re-plan in a new zone gives a one-shot's primary a new one),
    /// supersedes that refusal: the new answer decides, and one no process sees leaves the root to
    /// `primary-unregistered-by-fault`, as for a direct save's retry of the same ring (ios uniform
    /// seed 17881). A sync's or CAP-4's retry of the same ID keeps the refusal as evidence.
    /// Ios swarm seed 71402: a2's 05:20 one-shot refused in UTC (seen, surfaced), then the zone
    /// became Berlin; the next launch re-planned it under a new ID, its refusal came after that
    /// process died, and the old refusal was taken as one the dropped count must still name.
    func supersedeCapacityRefusals(by request: RingRequest) {
        guard request.metadata.kind.opensOccurrence else { return }
        oracle.capacityRefused.removeAll { refusal in
            refusal.rootID == request.metadata.rootID && refusal.ringID != request.id
                && requestMetadata[refusal.ringID]?.kind == request.metadata.kind
                && refusalSpeaks(for: request.fireWallMs, ringID: refusal.ringID)
        }
    }

    /// At a configured fire time whose primary the platform does not hold because the capacity
    /// limit refused it (at `refusedAtMs`, true ms): the user-visible dropped count must say so
    /// (CAP-9). Returns true when the miss is surfaced (the caller counts the exemption).
    func checkDroppedSurfaced(rootID: String, refusedAtMs: Int64) -> Bool {
        guard nowMs - refusedAtMs > setup.transitionBoundMs else { return false }
        let document = process.document ?? storedDocument
        let surfaced = (document?.droppedCount ?? 0) > 0 && (document?.dropped ?? []).contains { $0.rootID == rootID }
        if !surfaced {
            violate("primary-horizon", [], "the primary of \(rootID) is not registered at its fire time (capacity refused it) and the dropped count (\(document?.droppedCount ?? 0)) does not say so (CAP-9)")
        }
        return surfaced
    }
}

import AlarmBridge
import AndroidModel
import IOSModel
import SimKernel

/// Invariant checks. Each reads ground truth from the platform model and the oracle, never the
/// bridge's own books; per-command checks run as the platform receives each request.
extension World {
    func violate(_ invariant: String, _ rules: [String], _ message: String) {
        // A message quotes user text (an alarm title): its control characters made visible, so
        // `run`, `explain` and `diff` never send an ESC to the terminal.
        let message = TerminalText.visible(message)
        let rulesOfCatalog = InvariantCatalog.info(invariant)?.rules ?? rules
        violations.append(Violation(invariant: invariant, rules: rulesOfCatalog, message: message, trueMs: nowMs,
                                    wallMs: wallMs, eventIndex: trace.count, zone: calendar.zoneIdentifier))
        record("check", "violation", [TraceField("invariant", invariant), TraceField("message", message)])
        stopped = true
    }

    func checkAfterEvent() {
        guard !stopped else { return }
        releaseLostInexactOracleFires()  // World+InexactDelivery.swift
        checkNeverSilent()
        checkOneSuccessor()
        checkNoResurrection()
        checkIdempotentSync()
        checkForegroundSilence()
        checkNoStaleSuppression()
        checkSnoozeIsThePressure()
        checkSuccessorCleanup()
        checkExpiryFormula()
        checkOccurrenceInvariants()  // Invariants+Occurrence.swift
        checkOneSteadyFuse()
        checkNoForegroundFuse()
        checkSuppressionProofs()
        checkMissedRecorded()
        checkAndroidOccurrenceRules()
        checkIOSPassOverSilenced()  // Invariants+PassOver.swift
        checkFailedPlaybackReplaced()
        checkWrongInstantAlerts()
        noteBelievedAlerting()
    }

    /// wrong-instant-alert (issue 18; ID-8, OCC-2; Apple forums 820388): while a wrong-instant
    /// alert's ring time is more than ``BridgeCore/wrongInstantLeadMs`` ahead (true time, in the
    /// frame the alert began in), the bridge holds no occurrence of its root starting at that ring
    /// time: one would be opened from the alert. Closer to it, a clock set back while the ring
    /// sounded could explain the alert: the bridge may take it (`wrong-instant-alert-ambiguous`).
    func checkWrongInstantAlerts() {
        guard !stopped, !wrongInstantAlerts.isEmpty, let document = process.document else { return }
        for alert in wrongInstantAlerts where nowMs < alert.fireWallMs - alert.frameMs - BridgeCore.wrongInstantLeadMs {
            guard document.occurrences.contains(where: { $0.rootID == alert.rootID && $0.startedAtMs == alert.fireWallMs }) else { continue }
            violate("wrong-instant-alert", [], "the bridge opened an occurrence of \(alert.rootID) for \(localTimeText(alert.fireWallMs)) from ring \(alert.ringID)'s alert at \(localTimeText(alert.alertedAtMs + alert.frameMs)), hours before that ring time")
            return
        }
    }

    // MARK: never-silent

    /// The named exemption in force now, if any ([limit] conditions and injected faults).
    ///
    /// - Parameter occurrence: the live occurrence a gap is judged for. The silencing limits
    ///   (`mute-switch`, `in-call`, `audio-focus-loss`) excuse only an alert *of that occurrence*
    ///   that is in the alerting state and inaudible because of them; without one (no ring at
    ///   all, or a ring of another occurrence) the switch's position excuses nothing.
    func currentExemption(for occurrence: OracleOccurrence? = nil) -> String? {
        if setup.platform == .ios && !protectedDataAvailable { return "protected-data-unavailable" }
        if let fault = faultExemption { return fault.name }
        if let occurrence, let name = silencedAlertExemption(occurrenceID: occurrence.id) { return name }
        if let occurrence, let name = unseenSnoozeCorrectionExemption(occurrence) { return name }
        if let occurrence, let name = unseenSetBackExemption(occurrence) { return name }
        if exactRevocationUnseen() { return "exact-permission-revoked" }
        if let occurrence, let manager = android,  // issue 18: a dropped ring of the occurrence, or its primary
           manager.droppedAlarms.contains(where: { dropped in
               (oracle.bindings[dropped.id] == occurrence.id
                   || (dropped.metadata.kind.opensOccurrence && occurrence.tiedRoots.contains(dropped.metadata.rootID)
                       && (dropped.triggerWallMs == occurrence.startWallMs
                           || occurrence.tiedStarts.contains { $0.root == dropped.metadata.rootID && $0.startWallMs == dropped.triggerWallMs })))
                   && droppedUnseen(id: dropped.id)
           }) {
            return "accepted-request-dropped"
        }
        if let occurrence, inexactDeliveryDueBy(occurrence) != nil { return "exact-permission-revoked" }
        if let occurrence, backgroundRestrictedHold(occurrence) { return "background-restricted" }  // [limit] forced app standby
        if let manager = android, manager.forceStopped { return "force-stop" }  // [limit] AND-6
        if let name = authorizationExemption() { return name }
        // Only until the bridge's retry was due (OCC-5, [derived] WALK-18; Oracle.swift).
        if armFailureExempt && !successorRetryWasDue() { return "arm-failed-no-predecessor" }
        return nil
    }

    /// [limit] `clock-change-unseen`: the wall clock was set back while no ready bridge step ran
    /// (iOS suspends the app, REC-8), so a pending `.fixed` successor or walk fuse of the live
    /// occurrence now lies the set-back further ahead than its kind's bound, and nothing can
    /// rebase it until a step sees the correction (SNZ-22, OCC-5; ios swarm seed 10378: a 10 min
    /// set-back 6 s after a Stop, its successor due 10 s after it). Narrow: only rings of that
    /// occurrence that were within their bound in the frame before the set-back, only until the
    /// first ready step after it, which must rebase them (`applyClockCorrection`; the gap check
    /// starts there). A snooze ring has its own (`snooze-clock-change-unseen`).
    func unseenSetBackExemption(_ occurrence: OracleOccurrence) -> String? {
        guard let daemon = ios, let shift = unseenLiveShift, shift.occurrenceID == occurrence.id, shift.deltaMs < 0,
              process.lastReadyStepMs < shift.sinceMs else { return nil }
        let covered = daemon.alarms.contains { alarm in
            guard oracle.bindings[alarm.id] == occurrence.id, alarm.state == .scheduled else { return false }
            let boundMs: Int64
            switch alarm.metadata.kind {
            case .successor: boundMs = 10_000 + 1_000
            case .walkFuse: boundMs = 60_000 + 1_000
            default: return false
            }
            return alarm.nextFireWallMs - (wallMs - shift.deltaMs) <= boundMs
        }
        return covered ? "clock-change-unseen" : nil
    }

    /// `exact-permission-revoked` [limit], narrowed to what the revocation touched (issue 16):
    /// revoking `SCHEDULE_EXACT_ALARM` removes every exact alarm and kills the process with no
    /// broadcast (AMS `removeExactAlarmsOnPermissionRevoked`; PLATFORMS.md), so until a bridge
    /// process runs again the app cannot know. From that run on the bridge must keep a degraded
    /// ring ([derived] AND-1, AND-3; ``inexactDeliveryDueBy(_:)``).
    func exactRevocationUnseen() -> Bool {
        guard let manager = android, !manager.canScheduleExactAlarms, let revoked = exactRevokedAtMs else { return false }
        return process.lastReadyStepMs < revoked
    }

    /// `exact-permission-revoked`, the rest of it: the occurrence's ring is pending as the inexact
    /// allow-while-idle alarm the bridge set because exact alarms were refused, and AMS may still
    /// deliver it (its window: 0.75 × futurity, at most 1 h, plus doze quota deferral).
    /// - Returns: the latest delivery as wall ms, or nil when no such ring excuses the gap.
    /// A ring "Restricted" holds is not in it: see ``backgroundRestrictedHold(_:)``.
    func inexactDeliveryDueBy(_ occurrence: OracleOccurrence) -> Int64? {
        guard let manager = android else { return nil }
        let pending = inexactRings(of: occurrence).filter { !manager.isHeldByBackgroundRestriction($0) }
        guard let latest = pending.map({ manager.latestDeliveryWallMs($0) }).max(), wallMs <= latest + setup.transitionBoundMs else { return nil }
        return latest
    }

    /// The inexact allow-while-idle rings the bridge set for `occurrence` because exact alarms were
    /// refused: its own opening ring (a primary due by now), or a ring bound to it.
    func inexactRings(of occurrence: OracleOccurrence) -> [PendingAlarm] {
        guard let manager = android else { return [] }
        return manager.pending.filter { alarm in
            guard !alarm.method.isExact, inexactWhileRefused.contains(alarm.id) else { return false }
            return oracle.bindings[alarm.id] == occurrence.id
                || (alarm.metadata.kind.opensOccurrence && occurrence.tiedRoots.contains(alarm.metadata.rootID) && alarm.triggerWallMs <= wallMs)
        }
    }

    /// `background-restricted` [limit]: the user set the app's battery usage to "Restricted"
    /// (forced app standby), so while its uid is idle AlarmManager holds every due alarm but an
    /// alarm clock (AMS `isBackgroundRestricted`, `mPendingBackgroundAlarms`; AOSP
    /// AlarmManagerServiceTest `testAlarmRestrictedByFAS`). Narrow: only an inexact ring of the
    /// occurrence that the bridge had to set because exact alarms were refused, only once its own
    /// window (``inexactDeliveryDueBy(_:)``) has passed and only while the hold lasts: the user
    /// opening the app ends it and AMS sends the ring at once. Alarm clocks are never held, so a
    /// bridge with the exact permission is never excused by it. RULES.md and the seeds are silent on
    /// forced app standby; decided from AOSP: the hold is the platform's, and the bridge's duty is
    /// AND-1/AND-3's (exact rings whenever allowed, inexact ones kept meanwhile).
    func backgroundRestrictedHold(_ occurrence: OracleOccurrence) -> Bool {
        guard let manager = android else { return false }
        return inexactRings(of: occurrence).contains { manager.isHeldByBackgroundRestriction($0) && $0.triggerWallMs <= wallMs }
    }

    /// The user denied AlarmKit, or the app shipped without `NSAlarmKitUsageDescription`: nothing
    /// can be scheduled, by the user's choice or the app's configuration ([limit], named).
    func authorizationExemption() -> String? {
        guard let daemon = ios else { return nil }
        if !daemon.parameters.alarmKitAvailable { return "alarmkit-unavailable" }  // SCH-26: iOS < 26
        if !daemon.parameters.usageDescriptionPresent { return "alarmkit-usage-description-missing" }
        if daemon.parameters.authorization == .denied { return "alarmkit-authorization-denied" }
        if daemon.parameters.scheduleAlwaysFails { return "alarmkit-schedule-always-fails" }
        return nil
    }

    /// Ground truth: does the platform hold pressure for this occurrence?
    /// IOS-15: on iOS only AlarmKit alarms count (``IOSPressure/counts(_:)``); a notification,
    /// whatever interruption level it asked for, never does.
    func hasPressure(_ occurrence: OracleOccurrence) -> Bool {
        hasPressure(occurrenceID: occurrence.id)
    }

    /// ``hasPressure(_:)`` of the occurrence with ID `occurrenceID`.
    func hasPressure(occurrenceID: Int) -> Bool {
        // Each kind's bound: a successor within 10 s (OCC-5), a snooze ring within 30 min (SNZ-3),
        // plus a second of scheduling tolerance.
        func bound(_ kind: RingKind) -> Int64? {
            switch kind {
            case .primary, .seed: return nil  // REC-7: a seed is never pressure
            case .successor: return 10_000 + 1_000
            case .snooze: return 30 * 60_000 + 1_000
            case .walkFuse: return 60_000 + 1_000  // WALK-8: the provisional fuse is the longest
            // BOOT-10: the one cadence ring migration keeps for a live occurrence; older versions
            // spaced them at most `LegacyInstall.cadenceSpacingMs` apart.
            case .legacyCadence: return LegacyInstall.cadenceSpacingMs + 1_000
            case .legacyForegroundMaintenance, .legacyFusePair, .legacySafetyRelay, .legacyWalkCadence: return nil  // BOOT-11: never pressure
            }
        }
        if let daemon = ios {
            return daemon.alarms.contains { alarm in
                guard oracle.bindings[alarm.id] == occurrenceID else { return false }
                if daemon.isAudible(alarm.id) { return true }
                guard alarm.state == .scheduled, let limit = bound(alarm.metadata.kind) else { return false }
                return alarm.nextFireWallMs - wallMs <= limit
            }
        }
        guard let manager = android else { return false }
        if manager.ringing.contains(where: { oracle.bindings[$0] == occurrenceID && manager.isAudible($0) }) { return true }
        return manager.pending.contains { alarm in
            guard oracle.bindings[alarm.id] == occurrenceID, let limit = bound(alarm.metadata.kind) else { return false }
            return alarm.triggerWallMs - wallMs <= limit
        }
    }

    /// Candidate invariant 1: while live and the app is not natively active, pressure exists,
    /// except for at most T_OP after a trigger or under a named exemption.
    func checkNeverSilent() {
        guard let index = oracle.liveIndex, deviceUp else { return }
        // The common case, pressure held (or Ember active), clears the gap in place (issue 20: the
        // occurrence was copied out and written back after every event; `hasPressure` reads only
        // its ID).
        if process.active || hasPressure(occurrenceID: oracle.occurrences[index].id) {
            if oracle.occurrences[index].gapStartMs != nil { oracle.occurrences[index].gapStartMs = nil }
            if oracle.occurrences[index].gapExemption != nil { oracle.occurrences[index].gapExemption = nil }
            return
        }
        var occurrence = oracle.occurrences[index]
        defer { oracle.occurrences[index] = occurrence }
        if let exemption = currentExemption(for: occurrence) {
            if occurrence.gapExemption != exemption { countExemption(exemption) }
            // The inexact delivery's window ends without an event of its own: check then.
            if let latest = inexactDeliveryDueBy(occurrence), inexactGapCheckAtMs != latest {
                inexactGapCheckAtMs = latest
                enqueue(.gapCheck, afterMs: latest - wallMs + setup.transitionBoundMs + 1)
            }
            occurrence.gapExemption = exemption
            occurrence.gapStartMs = nil
            return
        }
        guard let gapStart = occurrence.gapStartMs else {
            occurrence.gapStartMs = nowMs
            occurrence.gapExemption = nil
            enqueue(.gapCheck, afterMs: setup.transitionBoundMs + 1)
            return
        }
        if nowMs - gapStart > setup.transitionBoundMs {
            violate("never-silent", [], "occurrence of \(occurrence.rootID) (ring time \(localTimeText(occurrence.startWallMs))) has had no alerting or pending ring for \(HumanText.duration(nowMs - gapStart)) with the app in the background")
        }
    }

    // MARK: failed-snooze-changes-nothing

    /// Candidate invariant 11: a rejected snooze leaves the occurrence's prior pressure as it was.
    func checkFailedSnoozeChangedNothing() {
        guard oracle.liveIndex != nil else { return }
        let present = groundTruthRings()
        if let lost = pressureAtSnoozeRequest.first(where: { !present.contains($0) }) {
            violate("failed-snooze-changes-nothing", [], "a rejected snooze left the occurrence without ring \(lost), which pressured it when the snooze was asked for")
        }
        pressureAtSnoozeRequest = []
    }

    // MARK: one-successor-per-occurrence

    func pendingSuccessors(boundTo occurrenceID: Int) -> [AlarmUUID] {
        if let alarms = ios?.alarms {
            return alarms.matching(kind: .successor, state: .scheduled).map { alarms[$0].id }.filter { oracle.bindings[$0] == occurrenceID }
        }
        guard let pending = android?.pending else { return [] }
        return pending.withUnsafeBufferPointer { alarms in  // in place: `filter` copied every pending alarm (issue 20)
            var found: [AlarmUUID] = []
            for index in alarms.indices where alarms[index].metadata.kind == .successor && oracle.bindings[alarms[index].id] == occurrenceID {
                found.append(alarms[index].id)
            }
            return found
        }
    }

    func checkOneSuccessor() {
        guard let index = oracle.liveIndex else { return }
        let pending = pendingSuccessors(boundTo: oracle.occurrences[index].id)
        if pending.count > 1 {
            violate("one-successor-per-occurrence", [], "occurrence of \(oracle.occurrences[index].rootID) holds \(pending.count) pending successors: \(pending.map(\.description).joined(separator: ", "))")
        }
    }

    // MARK: no-resurrection

    /// The rings the platform holds now. The models are read in place (`ios?.…`), never copied
    /// whole (issue 20: `if let daemon = ios` copied the model on every event).
    func groundTruthRings() -> [AlarmUUID] {
        if let alarms = ios?.alarms { return alarms.map(\.id) }
        guard let pending = android?.pending else { return [] }
        return pending.map(\.id) + (android?.ringing ?? [])
    }

    /// The first of ``groundTruthRings()``, in its order, for which `predicate` holds; nil when
    /// none does. Each ID is read in place (issue 20: the checks after every event built the
    /// list to search it).
    func firstGroundTruthRing(where predicate: (AlarmUUID) -> Bool) -> AlarmUUID? {
        if let alarms = ios?.alarms {
            return alarms.withUnsafeBufferPointer { alarms in
                alarms.indices.first { predicate(alarms[$0].id) }.map { alarms[$0].id }
            }
        }
        guard let android else { return nil }
        let pending = android.pending
        if let index = pending.indices.first(where: { predicate(pending[$0].id) }) { return pending[index].id }
        let ringing = android.ringingStatuses
        return ringing.indices.first { predicate(ringing[$0].id) }.map { ringing[$0].id }
    }

    func checkNoResurrection() {
        // Only a ring bound to a closed occurrence whose first execution after the closure is
        // more than T_OP ago can violate: without one, no ring needs looking at. Issue 20:
        // nothing is gathered and nothing copied — whether any occurrence qualifies stops at the
        // first that does (usually the oldest), and only a ring with a binding looks for its
        // occurrence (a list of every qualifying index was built after every event, growing with
        // the days).
        let bound = setup.transitionBoundMs, now = nowMs
        let occurrences = oracle.occurrences
        let qualifies = { (index: Int) in
            !occurrences[index].live && occurrences[index].firstExecutionAfterCloseMs.map { now > $0 + bound } == true
        }
        guard occurrences.indices.contains(where: qualifies) else { return }
        // The first ring bound to a qualifying occurrence, with the first qualifying occurrence
        // of its binding, as a search of the qualifying ones in order finds it.
        var resurrected: (id: AlarmUUID, index: Int)?
        _ = firstGroundTruthRing { id in
            guard let occurrenceID = oracle.bindings[id],
                  let index = occurrences.indices.first(where: { occurrences[$0].id == occurrenceID && qualifies($0) }) else { return false }
            resurrected = (id, index)
            return true
        }
        guard let (id, index) = resurrected, let firstExecution = occurrences[index].firstExecutionAfterCloseMs else { return }
        let occurrence = occurrences[index]
        let state = isAudible(id) ? "sounding" : "still armed"
        violate("no-resurrection", [], "ring \(id) of the \(occurrence.closeReason) occurrence of \(occurrence.rootID) is \(state) \(HumanText.duration(nowMs - firstExecution)) after the bridge ran")
    }

    // MARK: per-command checks

    func familyAlerting(_ alarmID: String) -> Bool {
        if let alarms = ios?.alarms { return alarms.contains { $0.state == .alerting && $0.metadata.alarmID == alarmID } }
        guard let ringing = android?.ringing else { return false }
        return ringing.contains { android?.ringingMetadata($0)?.alarmID == alarmID }
    }

    /// hands-off-alerting (SCH-3, SCH-21, SCH-22) and unreadable-is-not-empty (BOOT-2).
    func checkPlatformCall(ringID: AlarmUUID, alarmID: String?, origin: CommandOrigin, isCancel: Bool) {
        guard origin.isSync, !stopped else { return }
        if checkNoDecisionOnFailedRead(ringID: ringID, origin: origin, isCancel: isCancel) { return }  // SCH-16
        if process.storeReadFailed && !process.storeReadSucceeded {
            violate("unreadable-is-not-empty", [], "\(HumanText.origin(origin)) issued \(isCancel ? "cancel" : "schedule") of \(ringID) although this process never read its store (read failed: unavailable)")
            return
        }
        if isAudible(ringID) {
            violate("hands-off-alerting", [], "\(HumanText.origin(origin)) issued \(isCancel ? "cancel" : "re-registration") of ring \(ringID), which is alerting")
            return
        }
        if isCancel, isPastItsFireTime(ringID), process.document?.row(ringID) != nil {
            // SCH-3, SCH-21: the bridge knew this ring's fire time (its row) and cancelled it anyway.
            violate("hands-off-alerting", [], "\(HumanText.origin(origin)) cancelled ring \(ringID), whose fire time has passed (delivery pending)")
            return
        }
        if origin == .resumeSync, let alarmID, familyAlerting(alarmID) {
            violate("hands-off-alerting", [], "resume sync issued \(isCancel ? "cancel" : "schedule") of \(ringID) while family \(alarmID) is alerting")
        }
    }

    /// Candidate invariant 20: closing an occurrence (completion, expiry, abandonment) never
    /// cancels a root's pending primary — another root's, or the next occurrence of its own.
    func checkNoCollateralDamage(_ id: AlarmUUID, origin: CommandOrigin) {
        guard origin == .completion || origin == .expiry || origin == .retire, !stopped,
              let metadata = groundTruthMetadata(id), metadata.kind == .primary, !isAudible(id),
              isValidConfiguredPrimary(id) else { return }  // a failed save's rolled-back ring is not configured (SCH-10)
        let pending: Bool
        if let daemon = ios { pending = daemon.alarm(id)?.state == .scheduled } else { pending = android?.alarm(id) != nil }
        guard pending else { return }
        // BOOT-9: a duplicate of an adopted legacy primary (same root, same next fire, another ID)
        // going leaves the root armed: the retired ring was no collateral damage.
        if let fire = requestFireWallMs(id), hasOtherPendingPrimary(of: metadata.rootID, firingAt: fire, besides: id) { return }
        violate("no-collateral-damage", [], "\(HumanText.origin(origin)) cancelled the pending primary \(id) of \(metadata.rootID)")
    }

    /// True when the platform holds another pending primary of `rootID` due at `fireWallMs`.
    func hasOtherPendingPrimary(of rootID: String, firingAt fireWallMs: Int64, besides id: AlarmUUID) -> Bool {
        if let daemon = ios {
            return daemon.alarms.contains { $0.id != id && $0.state == .scheduled && $0.metadata.kind == .primary
                && $0.metadata.rootID == rootID && $0.nextFireWallMs == fireWallMs }
        }
        guard let manager = android else { return false }
        return manager.pending.contains { $0.id != id && $0.metadata.kind == .primary && $0.metadata.rootID == rootID
            && $0.triggerWallMs == fireWallMs }
    }

    /// stable-ids (ID-2, ID-3): one ID per (root, fire minute) for the whole run.
    func checkStableID(_ request: RingRequest) {
        guard request.metadata.kind == .primary, !stopped else { return }
        let fireKey: FireKey
        switch request.schedule {
        case .relative(let hour, let minute, .some): fireKey = .localTime(hour: hour, minute: minute)
        case .relative, .fixed: fireKey = .wallMinute(request.fireWallMs / 60_000)
        }
        let key = StableIDKey(rootID: request.metadata.rootID, fireKey: fireKey)
        if let known = stableIDs[key], known != request.id {
            // For people: a repeating ring's configured local time, else the fire minute as local wall time.
            var shown: String
            switch request.schedule {
            case .relative(let hour, let minute, .some): shown = "\(clockTime(hour: hour, minute: minute)) (local, repeating)"
            case .relative, .fixed:
                let wallMs = request.fireWallMs
                let local = calendar.local(wallMs)
                shown = "\(calendar.localDate(wallMs)) \(clockTime(hour: local.hour, minute: local.minute)) \(calendar.zoneIdentifier)"
            }
            violate("stable-ids", [], "primary of \(request.metadata.rootID) at \(shown) changed ID from \(known) to \(request.id) (title now \"\(request.metadata.title)\")")
            return
        }
        stableIDs[key] = request.id
    }

    /// miss-receipt-first (INACT-16): an expiry's stop or cancel follows a durable receipt.
    func checkReceiptFirst(_ id: AlarmUUID, origin: CommandOrigin) {
        guard origin == .expiry, !stopped, let metadata = requestMetadata[id] else { return }
        let durable = storedDocument?.missReceipts.contains { $0.rootID == metadata.rootID && $0.reason == MissReceipt.inactivityReason } ?? false
        if !durable {
            violate("miss-receipt-first", [], "expiry silenced \(id) of \(metadata.rootID) before a miss receipt was persisted")
        }
    }

    // MARK: idempotent-sync

    /// SCH-20: right after a sync settles, the same sync again on a copy of the bridge against the same
    /// platform state must issue zero scheduler calls.
    func checkIdempotentSync() {
        // The cached phase first: the bridge is copied only for a probe that may run.
        guard syncProbePending, process.running, process.phase == .ready, inventoryReadsOutstanding == 0,
              var copy = process.bridge, !copy.hasRequestsInFlight, !copy.hasPendingSyncWork else { return }
        syncProbePending = false
        guard lastPlatformChangeMs < syncReadMs else { return }  // the platform changed since: not "no intervening change"
        // SCH-20's "unchanged inputs": the wanted set is a function of the wall clock (a root's
        // next occurrence), so a configured ring time reached between the read and the probe
        // changes it even when the platform shows nothing yet (ios uniform seed 13983: the
        // delivery of a skip-date primary was held back, and its next concrete occurrence became
        // the wanted primary).
        if configuredTimeReached(in: copy, afterWallMs: syncReadWallMs) { return }
        let inventory: [PlatformAlarm]
        if let daemon = ios {
            inventory = daemon.alarms.map { PlatformAlarm(id: $0.id, state: $0.state) }
        } else {
            // What the bridge's read would show: PendingIntent probes (a dropped alarm's intent
            // included, issue 18).
            inventory = android?.pendingIntentProbes ?? []
        }
        let second = copy.handle(.inventoryRead(syncProbePurpose, .success(inventory)), at: bridgeInstants)
        let calls = second.filter { command in
            switch command {
            case .schedule(_, let origin), .cancel(_, let origin): return origin.isSync
            default: return false
            }
        }
        if !calls.isEmpty {
            violate("idempotent-sync", [], "a second sync with no intervening change issued \(calls.count) scheduler call(s): \(calls.prefix(3).compactMap { schedulerCallText($0) }.joined(separator: "; "))\(calls.count > 3 ? "; …" : "")")
        }
    }
}

extension World {
    /// True when a ring time of a root the bridge plans (its document's alarms) lies after
    /// `afterWallMs` and no later than the wall clock now (idempotent-sync, SCH-20).
    func configuredTimeReached(in bridge: any BridgeUnderTest, afterWallMs: Int64) -> Bool {
        guard afterWallMs > .min, afterWallMs < wallMs, let alarms = bridge.document?.alarms else { return false }
        // A weekly ring time is a local hh:mm:00, so a whole minute of UTC in a zone whose offset
        // is whole minutes (every zone's since 1972): with no minute boundary after `afterWallMs`
        // up to now, and both ends' offsets whole minutes, none was reached (issue 20: the probe
        // usually runs within the minute of its read; a calendar look-up per alarm was most of it).
        let noMinuteReached = afterWallMs.quotientAndRemainder(dividingBy: 60_000).quotient
            == wallMs.quotientAndRemainder(dividingBy: 60_000).quotient && afterWallMs >= 0
            && calendar.offsetMs(at: afterWallMs) % 60_000 == 0 && calendar.offsetMs(at: wallMs) % 60_000 == 0
        // Each root from its alarm's fields, as `roots` builds it, without building the roots
        // (issue 20: this runs before every idempotent-sync probe).
        return alarms.contains { alarm in
            guard alarm.enabled else { return false }
            switch alarm.repeats {
            case .once(let fireWallMs):
                return fireWallMs > afterWallMs && fireWallMs <= wallMs
            case .weekly(let days):
                guard !noMinuteReached else { return false }
                // Every weekday's ring times are among the daily ones: with no daily one reached,
                // no weekday's is.
                guard calendar.nextFire(hour: alarm.hour, minute: alarm.minute, weekday: nil, after: afterWallMs) <= wallMs else { return false }
                return days.contains { day in
                    let next = calendar.nextFire(hour: alarm.hour, minute: alarm.minute, weekday: day, after: afterWallMs)
                    return next > afterWallMs && next <= wallMs
                }
            }
        }
    }

    /// A wall instant (virtual ms) as a user reads it: local date, time with seconds and the zone,
    /// e.g. `2026-10-03 08:36:12 Australia/Sydney` (violation messages).
    func localTimeText(_ wallMs: Int64) -> String {
        HumanText.localTime(wallMs, calendar)
    }
}

extension Array where Element == DaemonAlarm {
    /// The indices of the alarms of `kind` (any when nil) in `state` (any when nil), in order.
    /// `filter` copies every element it passes to its closure (a dozen retains for a
    /// `DaemonAlarm`); here only the two fields are read, in place (issue 20: the checks after
    /// every event).
    func matching(kind: RingKind? = nil, state: PlatformAlarm.State? = nil) -> [Int] {
        var found: [Int] = []
        for index in indices where (kind == nil || self[index].metadata.kind == kind) && (state == nil || self[index].state == state) {
            found.append(index)
        }
        return found
    }
}

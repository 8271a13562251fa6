import AlarmBridge
import SimKernel

/// The user, app (JS) and fault actions of a plan.
extension World {
    func perform(_ action: PlanAction) {
        record("plan", "action", [TraceField("action", PlanActionText.text(action))])
        switch action {
        case .userStop, .userOpenApp, .userLeaveApp, .userCompleteChallenge, .userSnooze, .userSkipSnooze, .userAbandon,
             .userUnlock, .userForceQuit:
            performUserAction(action)
        case .userEditTitle, .userEditTime, .userEditAlarm, .userDeleteAlarm, .userControlCenter, .userReinstall, .userAppUpdate:
            performUserEdit(action)
        case .appShowChallenge, .appContextHeartbeat, .appPeekAction, .appGetScheduledAlarmTimes, .appActionWork, .appRetrySave,
             .appSyncEnabledAlarms, .appLaunch, .appReadMissReceipts, .appAcknowledgeMissReceipt:
            performAppAction(action)
        case .faultProcessDeath, .faultScheduleFailure, .faultInventoryReadFailure, .faultCapacity, .faultRevokeExactPermission,
             .faultGrantExactPermission, .faultCoalesceUpdates, .faultOSRemovesAlarm, .faultLateDelivery, .faultDamagedStore,
             .faultForceStop, .faultAudioFocus, .faultPlaybackFailure, .faultWrongInstantAlert, .faultGhostAlert, .faultOSUpdate:
            performFault(action)
        case .deviceReboot, .deviceTimeZone, .deviceSetClock, .deviceSilentMode, .deviceDoze, .deviceCharging:
            performDeviceAction(action)
        case .expectRegistered, .expectScheduledTimesRejected, .expectDroppedCount, .expectAlerting, .expectSaveOutcome,
             .expectSilent:
            performExpectation(action)
        case .userWalk:
            if android != nil { performAndroid(action) } else { performWalk(action) }
        case .userStartWalk, .userAppSwitcher, .faultWorkoutLost, .userSetHealthAccess:
            performWalk(action)
        case .appChallengeInteraction, .appStartBurst, .userMuteBurst, .appRecordAudible, .appResetAudibleCount,
             .expectSound, .expectAudibleCount, .expectBurst:
            performSoundAction(action)
        case .faultKillSwitch, .faultAppStateWriteFailure, .appCancelSystemAlarms:
            performLaunch(action)
        case .userVolumeKey, .userLowerAlarmVolume, .userStartWakeUpCheck, .appReconcileStepTracking,
             .expectLockScreenGrant:
            performAndroid(action)
        }
    }

    /// The user at the phone: stop, snooze, skip, abandon, open, leave, unlock, force-quit.
    func performUserAction(_ action: PlanAction) {
        switch action {
        case .userStop(let alarmID):
            guard deviceUp else { return }
            let audible = audibleRings().filter { alarmID == nil || $0.metadata.alarmID == alarmID }
            if let ring = audible.first { stopRing(ring.id) }
        case .userOpenApp:
            openApp()
        case .userLeaveApp:
            guard process.running, process.active else { return }
            process.active = false
            step(.willResignActive)
            step(.didEnterBackground)
            startBackgroundBudget()
            setScreen(on: false)
            setAppActive(false)
        case .userCompleteChallenge:
            guard process.running, process.active, let live = process.document?.liveOccurrence else { return }
            step(.api(.completeChallenge(rootID: live.rootID, occurrenceToken: live.token)))
        case .userSnooze(let delayMs, let doubleTap):
            guard process.running, process.active, process.document?.hasLiveOccurrence == true else {
                record("plan", "ignored", [TraceField("why", "snooze needs the app in the foreground with a live occurrence")])
                return
            }
            snooze(delayMs: delayMs)
            // The second tap (only the reactive user double-taps): recorded, so an explicit replay
            // has it as its own line.
            if doubleTap { enqueueReactive(.userSnooze(delayMs: delayMs, doubleTap: false), afterMs: userRNG.int(in: 100...400)) }
        case .userSkipSnooze:
            guard process.running, process.active, let live = process.document?.liveOccurrence,
                  let alarmID = process.document?.root(live.rootID)?.alarmID else {
                record("plan", "ignored", [TraceField("why", "skip needs the app in the foreground with a live occurrence")])
                return
            }
            lastSkipRequestMs = nowMs
            step(.api(.skipOneTimeSnooze(occurrenceToken: live.token, alarmIDs: [alarmID])))
        case .userAbandon(let wrongAlarm):
            guard process.running, process.active, let live = process.document?.liveOccurrence,
                  let alarmID = process.document?.root(live.rootID)?.alarmID else {
                record("plan", "ignored", [TraceField("why", "abandon needs the app in the foreground with a live occurrence")])
                return
            }
            let named = wrongAlarm ? (alarms.map(\.id).first { $0 != alarmID } ?? "\(alarmID)-other") : alarmID
            step(.api(.abandonWakeOccurrence(alarmIDs: [named])))
        case .userUnlock:
            unlock()
        case .userForceQuit:
            if process.running && process.active {
                // The app switcher: the app resigns active first (FG-4's reason to arm then),
                // and the swipe kills the process.
                process.active = false
                step(.willResignActive)
            }
            if android != nil {
                // AOSP: the process goes, alarms stay; some OEMs force-stop instead (notifee#126).
                let now = androidNow
                if android?.parameters.swipeFromRecentsForceStops == true { markForceStopRemovals() }
                onAlarmManager { $0.swipedFromRecents(now: now) }
            }
            kill("force-quit")
            noteFault("force-quit")
            if setup.platform == .ios && !setup.intentsAfterForceQuit { forceQuitHoldsIntents = true }
        default:
            break  // perform(_:) routes only this family here
        }
    }

    /// The user editing, deleting or reinstalling: what JS saves or the OS does to the app.
    func performUserEdit(_ action: PlanAction) {
        switch action {
        case .userEditTitle(let alarmID, let title):
            editAlarm(alarmID) { $0.title = title }
        case .userEditTime(let alarmID, let hour, let minute):
            editAlarm(alarmID) { alarm in
                alarm.hour = hour
                alarm.minute = minute
                if case .once = alarm.repeats {
                    alarm.repeats = .once(fireWallMs: calendar.nextFire(hour: hour, minute: minute, weekday: nil, after: wallMs))
                }
            }
            // The oracle moves to the new time only once the save succeeded (World+Save.swift).
        case .userEditAlarm(let alarmID, let edit):
            performEdit(alarmID, edit)
        case .userDeleteAlarm(let alarmID):
            alarms.removeAll { $0.id == alarmID }
            jsSaves.pending.removeAll { $0.id == alarmID }
            unscheduleOracleFireTimes(alarmID: alarmID)
            openApp()
            step(.api(.deleteAlarm(id: alarmID)))
        case .userControlCenter:
            controlCenterGlance()
        case .userReinstall:
            reinstall()
        case .userAppUpdate:
            appUpdate()
        default:
            break  // perform(_:) routes only this family here
        }
    }

    /// The app's own JS and background work.
    func performAppAction(_ action: PlanAction) {
        switch action {
        case .appShowChallenge:
            guard process.running, process.active, process.document?.hasLiveOccurrence == true else { return }
            // JS asks whose challenge to render (API-11), then shows it.
            if process.isAcceptingInputs == true { step(.api(.getActiveWakeOccurrence)) }
            guard process.running, process.active, process.document?.hasLiveOccurrence == true else { return }
            process.challengeShown = true
            process.jsStalled = setup.jsStallOneIn > 0 && jsRNG.uniform(below: UInt64(setup.jsStallOneIn)) == 0
            sendForegroundContext()
            jsChallengeShown()
        case .appContextHeartbeat(let stint):
            guard process.running, process.stint == stint, process.challengeShown else { return }
            sendForegroundContext()
        case .appPeekAction:
            guard process.running, process.active, process.isAcceptingInputs == true else { return }
            step(.api(.peekLastAlarmAction))
        case .appGetScheduledAlarmTimes:
            guard process.running, process.active else { return }
            step(.api(.getScheduledAlarmTimes))
        case .appReadMissReceipts:
            guard process.running, process.active, process.isAcceptingInputs == true else { return }
            step(.api(.getAbandonedWakeOccurrences))
        case .appAcknowledgeMissReceipt(let token, let incarnation):
            guard process.running, process.incarnation == incarnation else { return }  // interrupted
            step(.api(.acknowledgeAbandonedWakeOccurrence(occurrenceToken: token)))
        case .appActionWork(let action, let succeeds, let incarnation):
            guard process.running, process.incarnation == incarnation else { return }  // interrupted
            guard succeeds else {
                record("app", "action-work-failed", [TraceField("alarm", action.alarmID), TraceField("action", action.action)])
                return
            }
            actionsWorked.append(action)
            if !defects.contains(.ackBeforeWork) {
                step(.api(.acknowledgeLastAlarmAction(alarmID: action.alarmID, action: action.action, occurredAtMs: action.occurredAtMs)))
            }
        case .appRetrySave(let definition, let generation):
            retrySave(definition, generation: generation)
        case .appSyncEnabledAlarms:
            guard process.running, !process.suspended else { return }  // suspended JS runs nothing
            step(.api(.syncEnabledAlarms))
        case .appLaunch:
            if deviceUp && !process.running { launch(.user) }
        default:
            break  // perform(_:) routes only this family here
        }
    }

    /// An injected fault: process death, refused calls, capacity, permission, OS removal, audio.
    func performFault(_ action: PlanAction) {
        switch action {
        case .faultProcessDeath:
            if process.running {
                kill("process-death")
                noteFault("process-death")
            }
        case .faultScheduleFailure(let count):
            if ios != nil { ios!.failNextSchedules += count }
            if android != nil { android!.failNextSchedules += count }
        case .faultInventoryReadFailure(let count):
            if ios != nil { ios!.failNextReads += count }
            if android != nil { android!.failNextReads += count }
        case .faultCapacity(let capacity):
            ios?.parameters.capacity = capacity
        case .faultRevokeExactPermission:
            guard android?.canScheduleExactAlarms == true else { return }
            if android?.pending.isEmpty == false { cover(.exactPermissionRevokedWithAlarms) }  // AND-3
            if android?.pending.isEmpty == false, let api = android?.parameters.apiLevel, api >= 33,
               android?.parameters.exactAlarmAppOpGoverns == true { cover(.exactRevokedOnAPI33Plus) }  // issue 18
            onAlarmManager { $0.revokeExactAlarmPermission() }
        case .faultGrantExactPermission:
            guard android?.canScheduleExactAlarms == false else { return }
            onAlarmManager { $0.grantExactAlarmPermission() }
        case .faultCoalesceUpdates(let on):
            ios?.parameters.coalesceUpdates = on
        case .faultOSRemovesAlarm(let alarmID):
            osRemovesAlarm(alarmID: alarmID)
        case .faultLateDelivery(let ms):
            lateDeliveryMs = ms
        case .faultWrongInstantAlert:
            wrongInstantAlert()
        case .faultGhostAlert(let ms):
            ios?.ghostNextAlertMs = ms
        case .faultOSUpdate:
            osUpdateAtNextBoot = ios != nil
        case .faultDamagedStore(let ms):
            if ios != nil { storeDamage = StoreDamage(pendingMs: ms) }  // BOOT-5
        case .faultForceStop:
            forceStop()
        case .faultAudioFocus(let change):
            audioFocus(change)
        case .faultPlaybackFailure:
            playbackFailure()
        default:
            break  // perform(_:) routes only this family here
        }
    }

    /// The device: reboot, time zone, wall clock, silent mode, doze, charging.
    func performDeviceAction(_ action: PlanAction) {
        switch action {
        case .deviceReboot:
            reboot(lockedForMs: -1)
        case .deviceTimeZone(let zone):
            changeTimeZone(to: zone)
        case .deviceSetClock(let deltaMs):
            setWallClock(byMs: deltaMs)
        case .deviceSilentMode(let on):
            setSilentMode(on)
        case .deviceDoze(let on):
            setDoze(on)
        case .deviceCharging(let on):
            setCharging(on)
        default:
            break  // perform(_:) routes only this family here
        }
    }

    /// A scenario's `expect` line, checked at its instant; a mismatch is a scenario failure.
    func performExpectation(_ action: PlanAction) {
        switch action {
        case .expectRegistered(let alarmID, let registered, let line):
            guard case .answered(let times)? = lastScheduledTimes else {
                scenarioFailures.append("\(line): expected a getScheduledAlarmTimes answer, but \(lastScheduledTimes == nil ? "none came" : "the call was rejected")")
                return
            }
            let rows = times.roots.filter { $0.alarmID == alarmID }
            if rows.isEmpty || !rows.allSatisfy({ $0.registered == registered }) {
                let states = rows.map { "\($0.rootID)=\($0.registered)" }.joined(separator: ",")
                scenarioFailures.append("\(line): expected \(alarmID) \(registered ? "registered" : "unregistered"), but the answer says \(states.isEmpty ? "no such root" : states)")
            }
        case .expectScheduledTimesRejected(let rejected, let line):
            let was: Bool? = lastScheduledTimes.map { if case .rejected = $0 { return true }; return false }
            if was != rejected {
                scenarioFailures.append("\(line): expected the last getScheduledAlarmTimes call \(rejected ? "rejected" : "answered"), but it was \(was.map { $0 ? "rejected" : "answered" } ?? "never answered")")
            }
        case .expectDroppedCount(let count, let line):
            let document = process.document ?? storedDocument
            if (document?.droppedCount ?? 0) != count {
                scenarioFailures.append("\(line): expected dropped count \(count), but it is \(document?.droppedCount ?? 0)")
            }
        case .expectAlerting(let alarmID, let line):
            if !audibleRings().contains(where: { $0.metadata.alarmID == alarmID }) {
                scenarioFailures.append("\(line): expected \(alarmID) alerting, but it is silent")
            }
        case .expectSaveOutcome(let alarmID, let outcome, let line):
            let latest = jsSaves.outcomes.last { $0.alarmID == alarmID }?.outcome ?? "none"
            if latest != outcome { scenarioFailures.append("\(line): expected save of \(alarmID) \(outcome), but it is \(latest)") }
        case .expectSilent(let alarmID, let line):
            if audibleRings().contains(where: { $0.metadata.alarmID == alarmID }) {
                scenarioFailures.append("\(line): expected \(alarmID) silent, but it is alerting")
            }
        default:
            break  // perform(_:) routes only this family here
        }
    }

    /// The snooze button of the challenge screen: JS reads the live occurrence (as
    /// `getActiveWakeOccurrence` gives it) and asks for a snooze until now + `delayMs`.
    func snooze(delayMs: Int64) {
        guard process.running, process.active, let live = process.document?.liveOccurrence,
              let alarmID = process.document?.root(live.rootID)?.alarmID else { return }
        snoozeRequests.append((wallMs, wallMs + delayMs))
        pressureAtSnoozeRequest = groundTruthRings().filter { id in
            oracle.liveIndex.map { oracle.bindings[id] == oracle.occurrences[$0].id } ?? false
        }
        if snoozeRequests.count > 16 { snoozeRequests.removeFirst() }
        step(.api(.beginOneTimeSnooze(untilMs: wallMs + delayMs, occurrenceToken: live.token, alarmIDs: [alarmID])))
    }

    /// JS's foreground context while the challenge shows (API-3): rendered, with the wake session
    /// the native occurrence gives; refreshed every `contextHeartbeatIntervalMs` until JS stalls,
    /// leaves the foreground or the process dies.
    func sendForegroundContext() {
        guard process.running, process.active, process.challengeShown else { return }
        let live = process.document?.hasLiveOccurrence == true
        if live { noteChallengeRendered() }
        step(.api(.setForegroundAlarmContext(ForegroundAlarmContext(appActive: true, wakeSessionEstablished: live,
                                                                   challengeScreenVisible: live, onChallengeScreen: false))))
        if live { lastVisibleContext = (process.incarnation, nowMs) }
        guard !process.jsStalled else { return }
        enqueue(.plan(.appContextHeartbeat(stint: process.stint)), afterMs: setup.contextHeartbeatIntervalMs)
    }

    func audibleRings() -> [(id: AlarmUUID, metadata: RingMetadata)] {
        if let daemon = ios {
            return daemon.alarms.filter { daemon.isAudible($0.id) }.map { ($0.id, $0.metadata) }
        }
        guard let manager = android else { return [] }
        return manager.ringing.filter { manager.isAudible($0) }.compactMap { id in manager.ringingMetadata(id).map { (id, $0) } }
    }

    func openApp() {
        guard deviceUp else { return }
        if !protectedDataAvailable { unlock() }
        if android != nil {
            setScreen(on: true)
            onAlarmManager { $0.appLaunchedByUser() }  // leaves the stopped state after a force-stop
            setAppActive(true)  // the uid is active: Battery Saver and "Restricted" holds lift
        }
        if !process.running { launch(.user) } else { resume() }
        if forceQuitHoldsIntents {
            forceQuitHoldsIntents = false
            for input in heldIntents { enqueue(.toProcess(input, incarnation: process.incarnation), afterMs: 0) }
            heldIntents = []
        }
        guard !process.active else { return }
        process.active = true
        process.stint += 1
        notePrimaryFailureOpenings()  // SCH-24
        step(.didBecomeActive)
        enqueue(.plan(.appPeekAction), afterMs: 600)  // JS reads the action journal when it is up
        enqueue(.plan(.appGetScheduledAlarmTimes), afterMs: 700)  // and shows the alarm list (API-10)
        // and the missed and expired mornings the journal holds (API-20). Read only when the bridge
        // holds any: an empty journal's read changes nothing, and the seeds without one keep
        // their traces.
        if process.document?.missReceipts.isEmpty == false { enqueue(.plan(.appReadMissReceipts), afterMs: 750) }
        onDaemon { $0.screenUnlocked() }  // held alarmUpdates arrive as a burst (forums 825427)
        enqueue(.plan(.appShowChallenge), afterMs: 800)
    }

    func unlock() {
        guard deviceUp, !protectedDataAvailable else { return }
        protectedDataAvailable = true
        record("device", "first-unlock")
        if android != nil {
            onAlarmManager { $0.unlockAfterBoot() }
        } else if process.running {
            enqueue(.toProcess(.protectedDataAvailable, incarnation: process.incarnation), afterMs: 0)
        }
    }
}

/// The app's handling of the action journal (ACT-1..5, candidate invariant 31) and of the
/// abandoned-occurrence journal (API-20, INACT-18).
extension World {
    /// API-20, INACT-18 (`miss-receipts-journal`): JS read the abandoned-occurrence journal. Every
    /// receipt the bridge holds is listed, and nothing else; JS shows each and acknowledges it once
    /// shown (4 in 5: the screen may be left first), 200 ms to 2 s later, in this process.
    func jsGotMissReceipts(_ listed: [MissReceipt]) {
        let held = process.document?.missReceipts ?? []
        if let unlisted = held.first(where: { receipt in !listed.contains { $0.token == receipt.token } }) {
            violate("miss-receipts-journal", [], "getAbandonedWakeOccurrences left out \(missReceiptText(unlisted)), which was never acknowledged")
            return
        }
        if let phantom = listed.first(where: { receipt in !held.contains { $0.token == receipt.token } }) {
            violate("miss-receipts-journal", [], "getAbandonedWakeOccurrences listed \(missReceiptText(phantom)), which the journal does not hold")
            return
        }
        for receipt in listed where missReceiptRNG.chance(Ratio(4, 5)) {
            enqueue(.plan(.appAcknowledgeMissReceipt(token: receipt.token, incarnation: process.incarnation)),
                    afterMs: missReceiptRNG.int(in: 200...2_000))
        }
    }

    /// API-20 (`miss-receipts-journal`): an acknowledgement removes the one receipt with its token
    /// and answers true, or, with no such receipt, removes nothing and answers false; every other
    /// receipt stays (one the same step added, e.g. an expiry's, may join them).
    func checkMissReceiptAcknowledgement(_ input: BridgeInput, before: BridgeDocument?, after: BridgeDocument?,
                                         commands: [BridgeCommand]) {
        guard case .api(.acknowledgeAbandonedWakeOccurrence(let token)) = input, !stopped,
              let before, let after else { return }
        let held = before.missReceipts.firstIndex { $0.token == token }
        let acknowledged = held.map { "acknowledging " + missReceiptText(before.missReceipts[$0]) } ?? "acknowledging an unknown receipt"
        for (index, receipt) in before.missReceipts.enumerated() where index != held {
            guard !after.missReceipts.contains(receipt) else { continue }
            violate("miss-receipts-journal", [], "\(acknowledged) also removed \(missReceiptText(receipt))")
            return
        }
        let remaining = after.missReceipts.filter { $0.token == token }.count
        let expectedRemaining = before.missReceipts.filter { $0.token == token }.count - (held == nil ? 0 : 1)
        if remaining > expectedRemaining {
            violate("miss-receipts-journal", [], "\(acknowledged) left it in the journal")
            return
        }
        for case .reply(.abandonedWakeOccurrenceAcknowledged(let answered)) in commands where answered != (held != nil) {
            violate("miss-receipts-journal", [], "\(acknowledged) answered \(answered ? "acknowledged" : "not found") although the journal \(held != nil ? "held" : "did not hold") it")
            return
        }
    }

    /// A miss receipt as a user reads it: `the inactivity receipt of a1.wed at 2026-05-13 09:33:00 America/New_York`.
    func missReceiptText(_ receipt: MissReceipt) -> String {
        "the \(receipt.reason) receipt of \(receipt.rootID) at \(localTimeText(receipt.expiredAtMs))"
    }

    /// JS got `peekLastAlarmAction`'s answer: judge it (invariant `action-journal`), then run the
    /// handler, acknowledging only after it succeeded (ACT-5) — or first, with `ack-before-work`.
    func jsGotLastAction(_ returned: ActionRecord?) {
        let lifetime = configuration().actionLifetimeMs
        if let returned, wallMs - returned.occurredAtMs >= lifetime {
            violate("action-journal", [], "peek returned an action \(HumanText.duration(wallMs - returned.occurredAtMs)) old (\(returned.action) on \(returned.alarmID))")
            return
        }
        let pending = bridgeActions.filter { wallMs - $0.occurredAtMs < lifetime && !actionsWorked.contains($0) }
        if let expected = pending.max(by: { $0.occurredAtMs < $1.occurredAtMs }),
           (returned?.occurredAtMs ?? .min) < expected.occurredAtMs {
            violate("action-journal", [], "peek returned \(returned.map { "\($0.action) on \($0.alarmID) at \(wallText($0.occurredAtMs))" } ?? "nothing") while the unfinished \(expected.action) on \(expected.alarmID) at \(wallText(expected.occurredAtMs)) is unexpired")
            return
        }
        guard let returned, !actionsWorked.contains(returned) else { return }
        if defects.contains(.ackBeforeWork) {
            enqueue(.toProcess(.api(.acknowledgeLastAlarmAction(alarmID: returned.alarmID, action: returned.action,
                                                                occurredAtMs: returned.occurredAtMs)), incarnation: process.incarnation), afterMs: 0)
        }
        enqueue(.plan(.appActionWork(returned, succeeds: appRNG.chance(Ratio(4, 5)), incarnation: process.incarnation)),
                afterMs: appRNG.int(in: 200...2_000))
    }
}

import AlarmBridge
import AndroidModel
import SimKernel

/// The Android side of the world that the occurrence rules need: the step counter the bridge
/// tracks (AND-16), the user's walking, volume and Start wake-up check habits (INACT-6, AND-11),
/// and checker state. Every random choice comes from its own named stream, so iOS runs and the
/// other Android draws keep their values.
struct AndroidSide {
    /// `Sensor.TYPE_STEP_COUNTER` (StepCounterSensor.swift: developer.android.com, Sensor).
    var stepSensor: StepCounterSensor
    /// Dismiss by volume key or by lowering the alarm volume instead of the Stop button.
    var userRNG: Xoshiro256StarStar
    /// Walks around fire times.
    var stepsRNG: Xoshiro256StarStar
    /// Since when (true ms) MainActivity's grant has been held where AND-11 forbids it.
    var grantOffendingSinceMs: Int64?
    /// The oracle occurrence that was live when the grant was observed on (`.some(nil)`: none
    /// was, so the challenge it belongs to is one the oracle cannot judge); nil while no grant.
    var grantOccurrence: Int??
    /// `ApplicationExitInfo` records of the app's processes, newest first, bounded like AOSP's
    /// per-package history (``World/noteAndroidExit(_:)``).
    var exitHistory: [ProcessExit] = []

    init(streams: RandomStreams, reportLatencyMs: Int64) {
        stepSensor = StepCounterSensor(maxReportLatencyMs: reportLatencyMs)
        userRNG = streams.stream("user.android")
        stepsRNG = streams.stream("user.steps")
    }
}

extension World {
    // MARK: - Step counter (AND-16)

    /// Fuzz mode: around some configured fire times the user walks (gets up, walks to the kitchen):
    /// 1–4 bouts between 3 min before and 1 min after the fire time.
    func planAndroidWalks() {
        guard setup.platform == .android, setup.reactiveUser else { return }
        let endWallMs = setup.startWallMs + setup.durationMs
        var fires: [Int64] = []
        for alarm in alarms where alarm.enabled {
            for root in alarm.roots {
                if let once = root.onceFireWallMs {
                    if once > wallMs && once <= endWallMs { fires.append(once) }
                    continue
                }
                var fire = calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: wallMs)
                while fire <= endWallMs {
                    fires.append(fire)
                    fire = calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: fire)
                }
            }
        }
        for fire in fires.sorted() where androidSide.stepsRNG.chance(Ratio(1, 4)) {
            var at = fire + androidSide.stepsRNG.int(in: -180_000...60_000)
            for _ in 0..<androidSide.stepsRNG.int(in: 1...4) {
                let steps = Int(androidSide.stepsRNG.int(in: 5...40))
                if at > wallMs, at >= setup.randomBehaviourFromMs ?? Int64.min {  // a continuation: after its prefix
                    queue.schedule(.plan(.userWalk(steps: steps)), at: self.at(wallMs: at))
                    reactiveActions.append(TimedAction(wallMs: self.at(wallMs: at), action: .userWalk(steps: steps)))
                }
                at += androidSide.stepsRNG.int(in: 3_000...15_000)
            }
        }
    }

    /// The user takes steps: the counter counts them; a registered listener gets them batched.
    func userWalk(steps: Int) {
        guard android != nil, deviceUp else { return }
        record("user", "walk", [TraceField("steps", String(steps))])
        androidSide.stepSensor.walk(steps: Int64(steps), nowElapsedMs: clock.monotonicMs)
        scheduleStepSensorFlush()
    }

    func scheduleStepSensorFlush() {
        guard let next = androidSide.stepSensor.nextDeliveryElapsedMs else { return }
        enqueue(.stepSensorFlush, afterMs: next - clock.monotonicMs)
    }

    func flushStepSensor() {
        for event in androidSide.stepSensor.deliverDue(nowElapsedMs: clock.monotonicMs) {
            deliverStepEvent(event)
        }
        scheduleStepSensorFlush()
    }

    func deliverStepEvent(_ event: StepCounterSensor.Event) {
        guard process.running else { return }
        enqueue(.toProcess(.stepCounterChanged(stepsSinceBoot: event.stepsSinceBoot, stepElapsedMs: event.stepElapsedMs),
                           incarnation: process.incarnation), afterMs: 0)
    }

    /// The bridge's `setStepTracking`: `SensorManager.registerListener` / `unregisterListener`.
    func setStepTracking(_ on: Bool) {
        guard android != nil else { return }
        record("android", "step-listener", [TraceField("on", String(on))])
        for event in androidSide.stepSensor.setListening(on, nowElapsedMs: clock.monotonicMs) {
            deliverStepEvent(event)
        }
    }

    /// The process died: its sensor listener and activities went with it.
    /// AOSP `AppExitInfoTracker` keeps at most this many records per package
    /// (`APP_EXIT_INFO_HISTORY_LIST_SIZE`).
    static let exitHistoryMax = 16

    /// Android: the platform records how the process ended (`ApplicationExitInfo`, API 30+), with
    /// the wall clock at the death. A reboot records nothing (the device, not the process, went
    /// down: the bridge dates it by its boot); deleting the app drops its history.
    /// - Parameter reason: the world's kill reason (`kill(_:)`).
    func noteAndroidExit(_ reason: String) {
        guard let manager = android else { return }
        let exitReason: ProcessExit.Reason
        switch reason {
        case "reboot": return
        case "app-deleted": androidSide.exitHistory = []; return
        case AndroidKillReason.forceStop.rawValue: exitReason = .userRequested
        case AndroidKillReason.packageUpdate.rawValue: exitReason = manager.parameters.apiLevel >= 34 ? .packageUpdated : .other
        case "exact-alarm permission revoked": exitReason = .permissionChange
        default: exitReason = .other
        }
        androidSide.exitHistory.insert(ProcessExit(reason: exitReason, wallMs: wallMs), at: 0)
        if androidSide.exitHistory.count > Self.exitHistoryMax { androidSide.exitHistory.removeLast() }
    }

    /// What `getHistoricalProcessExitReasons` answers a new process: nothing before API 30.
    func androidExitRecords() -> [ProcessExit] {
        guard let manager = android, manager.parameters.apiLevel >= 30 else { return [] }
        return androidSide.exitHistory
    }

    func androidProcessDied() {
        guard android != nil else { return }
        _ = androidSide.stepSensor.setListening(false, nowElapsedMs: clock.monotonicMs)
        forgetExposureDiedWithProcess()
    }

    /// `accepted-request-dropped`: a drop exposed less than T_OP ago was seen by a process that
    /// has now died — its `getNextAlarmClock()` answer or the re-registration it started died
    /// with it — so the drop is unseen again until the next process's sync read exposes it
    /// (android uniform seed 8052: the locked-boot restore's write was dropped and the process
    /// died 1 ms after the write completed; no process ran again, and the heal's convergence
    /// check found the primary missing with no process that ever could have seen it).
    func forgetExposureDiedWithProcess() {
        for index in droppedRequests.indices {
            guard let exposedAtMs = droppedRequests[index].exposedAtMs, nowMs - exposedAtMs <= setup.transitionBoundMs else { continue }
            droppedRequests[index].exposedAtMs = nil
        }
    }

    // MARK: - The user on the alarm screen (INACT-6, AND-11)

    /// Fuzz mode: instead of the dismiss button the user sometimes presses a volume key on the
    /// alarm screen or turns the alarm volume down. Returns true when they did.
    func androidDismissByVolume(_ id: AlarmUUID) -> Bool {
        guard android != nil, androidSide.userRNG.chance(Ratio(1, 3)) else { return false }
        if androidSide.userRNG.chance(Ratio(1, 2)) {
            noteReactive(.userVolumeKey)
            volumeKey(on: id)
        } else {
            noteReactive(.userLowerAlarmVolume)
            lowerAlarmVolume(ringing: id)
        }
        return true
    }

    /// A volume key on the alarm activity: the activity consumes it (`onKeyDown`), the stream's
    /// volume does not change, and the app takes it as a dismissal.
    func volumeKey(on id: AlarmUUID) {
        record("user", "volume-key", [TraceField("id", id.description)])
        guard process.running else { return }
        enqueue(.toProcess(.volumeDismissal(id, .volumeKey), incarnation: process.incarnation), afterMs: 0)
    }

    /// The user turns STREAM_ALARM down one step (volume panel). The ringing service observes the
    /// reduction and reports it as a dismissal; at the stream's minimum nothing changes.
    func lowerAlarmVolume(ringing id: AlarmUUID?) {
        guard let before = android?.parameters.alarmVolumeIndex else { return }
        onAlarmManager { $0.setAlarmVolume(before - 1) }
        record("user", "lower-alarm-volume", [TraceField("index", String(android?.parameters.alarmVolumeIndex ?? before))])
        guard let id, (android?.parameters.alarmVolumeIndex ?? before) < before, process.running else { return }
        enqueue(.toProcess(.volumeDismissal(id, .volumeLowered), incarnation: process.incarnation), afterMs: 0)
    }

    /// Start wake-up check on the alarm screen: the app comes forward with the challenge.
    func startWakeUpCheck(_ id: AlarmUUID) {
        guard android != nil else { return }
        perform(.userOpenApp)
        guard process.running else { return }
        step(.startWakeUpCheck(id))
    }

    /// Scenario and fuzz actions of the Android user and JS.
    func performAndroid(_ action: PlanAction) {
        switch action {
        case .userWalk(let steps):
            userWalk(steps: steps)
        case .userVolumeKey:
            if let ring = audibleRings().first { volumeKey(on: ring.id) }
        case .userLowerAlarmVolume:
            lowerAlarmVolume(ringing: audibleRings().first?.id)
        case .userStartWakeUpCheck:
            if let ring = audibleRings().first { startWakeUpCheck(ring.id) }
        case .appReconcileStepTracking:
            guard process.running else { return }
            step(.api(.reconcileStepSuppressionTracking))
        case .expectLockScreenGrant(let granted, let line):
            let held = android?.lockScreen.mainActivityShowWhenLocked ?? false
            if held != granted {
                scenarioFailures.append("\(line): expected the lock-screen grant \(granted ? "held" : "revoked"), but it is \(held ? "held" : "revoked")")
            }
        default:
            break
        }
    }

    /// Android delivers only one of several simultaneously due roots first, and that one owns
    /// the occurrence whether it then rings or recent steps postpone it (AND-17): the tie is
    /// settled at the platform's delivery, not at the first alert (android seed 5915).
    /// A tie can form only after the first delivery: a root earlier by its ring time, delivered
    /// late in the same batch, after the owner's primary (android swarm seed 11453: two inexact
    /// primaries, a2.tue 09:04 and a1 08:50, re-registered exactly at the grant (AND-3) and
    /// delivered a2.tue first at 09:12:40; the bridge is told a2.tue first and owns with it,
    /// OCC-2). The first delivered root still owns then: a1's delivery is a pass-over (OCC-3).
    /// So does an equal-time tie whose roots come in one inexact delivery batch: the second root's
    /// ring time is released with its own delivery, after the first's (android uniform seeds 25520,
    /// 27831: the bridge owned with the first delivered and armed its successor).
    func oracleAndroidDelivery(_ id: AlarmUUID) {
        guard android != nil, let index = oracle.liveIndex, let metadata = requestMetadata[id], metadata.kind == .primary,
              oracle.occurrences[index].tiedRoots.contains(metadata.rootID) else { return }
        let first = oracle.occurrences[index].firstDeliveredRoot ?? metadata.rootID
        oracle.occurrences[index].firstDeliveredRoot = first
        guard oracle.occurrences[index].tiedRoots.count > 1 else { return }
        resolveTie(index, owner: oracle.occurrences[index].tiedRoots.contains(first) ? first : metadata.rootID)
    }

    /// INACT-6 as truth: a volume dismissal counts only for a ring that is really ringing.
    func oracleVolumeDismissal(_ input: BridgeInput, creditNow: Bool) {
        guard case .volumeDismissal(let id, _) = input, android?.ringing.contains(id) == true else { return }
        oracleCredit(id, creditNow: creditNow)
    }
}

/// Issue 18: a request AlarmManager accepted and dropped (fault `accepted-request-dropped`).
struct DroppedRequest: Equatable {
    var id: AlarmUUID
    var rootID: String
    /// The trigger time the app asked for, wall ms.
    var fireWallMs: Int64
    var droppedAtMs: Int64
    /// When (virtual ms) a ready bridge step that reads `getNextAlarmClock()` ran while the
    /// dropped ring was the earliest alarm clock the app should have: from then on the bridge
    /// could see it missing. nil: not yet, so its loss is the `accepted-request-dropped` [limit].
    var exposedAtMs: Int64?
}

extension World {
    // MARK: - Accepted and dropped (issue 18, plus_plugins#1981)

    /// At a boot, the fault draws (per reboot, its own in-run stream) whether AlarmManager will
    /// drop one of the app's first 1–3 `set*` requests of this boot.
    func armAcceptedRequestDrop() {
        guard android != nil, let rate = setup.acceptedRequestDropRate else { return }
        let hit = droppedRequestRNG.chance(rate)
        let nth = Int(droppedRequestRNG.int(in: 1...3))  // both draws every boot: stable streams
        guard hit, !liveness.healed, randomBehaviourActs else { return }
        android!.dropSetAfterBoot = nth
        record("fault", "accepted-request-dropped", [TraceField("nth", String(nth))])
    }

    /// The model's `request-dropped` trace: the ring is lost while its PendingIntent exists.
    func noteDroppedRequest(_ fields: [TraceField]) {
        guard let manager = android, let dropped = manager.droppedAlarms.last else { return }
        droppedRequests.removeAll { $0.id == dropped.id }
        droppedRequests.append(DroppedRequest(id: dropped.id, rootID: dropped.metadata.rootID, fireWallMs: dropped.triggerWallMs,
                                              droppedAtMs: nowMs))
        if droppedRequests.count > 16 { droppedRequests.removeFirst() }
        noteFault("accepted-request-dropped")
    }

    /// Before a ready step: the bridge reads `getNextAlarmClock()` after a successful launch or
    /// resume sync read and, in a process that ran one, after every accepted request, cancel and
    /// delivery (`BridgeCore.verifyNextAlarmClock`). If the dropped ring is then the earliest
    /// alarm clock the app should hold (none AlarmManager holds comes before it), that read shows
    /// it missing: its [limit] ends there.
    /// - Parameter ready: the bridge was accepting inputs. The launch's own sync read arrives
    ///   before it is (the read the launch gate waits for), and it is still the read after which
    ///   the bridge checks `getNextAlarmClock()` (a locked-boot restore's: the conformance scenario
    ///   `accepted-request-dropped-after-reboot`, whose exposure went uncounted).
    func noteDroppedRequestExposure(_ input: BridgeInput, ready: Bool) {
        guard let manager = android else { return }
        switch input {
        case .inventoryRead(.launchSync, .success), .inventoryRead(.resumeSync, .success):
            // Before any drop too: the restore's read comes before the set AlarmManager drops.
            syncedIncarnation = process.incarnation
        default:
            break
        }
        guard !droppedRequests.isEmpty else { return }
        droppedRequests.removeAll { entry in !manager.droppedAlarms.contains { $0.id == entry.id } }
        switch input {
        case .inventoryRead(.launchSync, .success), .inventoryRead(.resumeSync, .success):
            guard ready else { return }
        case .scheduleCompleted(_, .success), .cancelCompleted, .alarmDelivered:
            guard ready, syncedIncarnation == process.incarnation else { return }
        default:
            return
        }
        let next = manager.nextAlarmClockWallMs
        for index in droppedRequests.indices where droppedRequests[index].exposedAtMs == nil {
            let entry = droppedRequests[index]
            // Only an alarm clock is in getNextAlarmClock(): a dropped inexact (allow-while-idle)
            // request stays invisible to the app.
            guard manager.droppedAlarms.contains(where: { $0.id == entry.id && $0.method == .setAlarmClock }),
                  entry.fireWallMs > wallMs, next.map({ $0 > entry.fireWallMs }) ?? true else { continue }
            droppedRequests[index].exposedAtMs = nowMs
            cover(.droppedRequestRepairable)
        }
    }

    /// `accepted-request-dropped` [limit]: ring `id` (or the primary of `rootID` at `fireWallMs`)
    /// was dropped by AlarmManager and no step since could have seen it missing — or one did less
    /// than T_OP ago (its re-registration is on its way).
    func droppedUnseen(id: AlarmUUID? = nil, rootID: String? = nil, fireWallMs: Int64? = nil) -> Bool {
        guard let manager = android else { return false }
        return droppedRequests.contains { entry in
            guard manager.droppedAlarms.contains(where: { $0.id == entry.id }) else { return false }
            let matches = entry.id == id || (entry.rootID == rootID && entry.fireWallMs == fireWallMs)
            return matches && (entry.exposedAtMs.map { nowMs - $0 <= setup.transitionBoundMs } ?? true)
        }
    }
}

import AlarmBridge
import IOSModel
import SimKernel

/// The iOS walk's platform and user parameters of one device (WALK-1..26). Apple documents
/// neither HealthKit's confirmation latencies nor recovery reliability on iPhone, so they are
/// parameters the seed varies (PLATFORMS.md "?" rows; `WorkoutParameters` cites the sources).
public struct WalkSetup: Sendable, Equatable {
    /// HealthKit workout session and Core Motion model parameters.
    public var workout = WorkoutParameters()
    /// Health access for workouts at the start (the app asks when a walk alarm is saved, WALK-4).
    public var healthAccessGranted = true
    /// HealthKit never confirms live collection: the walk never starts (WALK-3).
    public var collectionNeverConfirms = false
    public init() {}
}

/// Events of the walk model on the world's queue.
enum WalkEvent: Sendable {
    /// A HealthKit confirmation falls due.
    case workout(WorkoutModel.Event)
    /// The app-switcher gesture completes: the real background edge (WALK-10).
    case enterBackground(incarnation: Int)
    /// HealthKit relaunches the process for a still-running workout (WALK-7).
    case recover
    /// fuse-timing: T_OP after an accepted post-handoff step, the fuse must be at the step + 30..35 s.
    case checkStepFuse(stepWallMs: Int64)
    /// fuse-timing: T_OP after resign-active of a started walk (wall ms), the fuse must be due at
    /// resign + 60 s, a reused one included (WALK-8).
    case checkProvisionalFuse(resignWallMs: Int64)
}

/// The world's HealthKit / Core Motion ground truth and the checkers' record of the walk.
struct WalkWorld {
    var workout: WorkoutModel
    var pedometer: PedometerModel
    var healthAccess: Bool
    var collectionNeverConfirms: Bool
    /// The user's walking habits (own stream: other draws keep their values).
    var rng: Xoshiro256StarStar
    /// Fault kinds `workout-loss` and `walk-force-quit`: their in-run streams
    /// (`fault.<name>.run`), so switching either never moves the user's walking draws.
    var workoutLossRNG: Xoshiro256StarStar
    var walkForceQuitRNG: Xoshiro256StarStar
    /// The process (incarnation) the workout's live updates go to; nil when none.
    var attachedIncarnation: Int?
    /// Oracle occurrence and root the walk was started for.
    var occurrenceID: Int?
    var rootID: String?
    /// The bridge reported the walk started (the `walkStarted` reply JS saw, WALK-3).
    var startedReported = false
    /// The workout ended while no process could be told: the next process learns it at launch.
    var lossUnreported = false
    /// WALK-25 [limit]: a force-quit ended the workout-backed execution window.
    var endedByForceQuit = false
    /// Resign-active edge of the current handoff (wall ms), as the bridge could observe it.
    var resignMs: Int64?
    /// The timing checks are off until the next resign: an edge or step reached a bridge that was
    /// not ready, so it acts on it later than the world saw it.
    var timingUnknown = false
    /// A live step event reached a bridge not accepting inputs (a held launch gate, BOOT-5/BOOT-7):
    /// the oracle occurrence it is activity for, credited when that bridge becomes ready and
    /// validates it (candidate invariant 16), forgotten if the process dies first.
    var stepCreditPending: Int?
    /// Latest post-handoff step the bridge observed live, and the latest one a look-back returned.
    var latestAcceptedStepMs: Int64?
    var lookBackStepMs: Int64?
    /// The accepted step (wall ms) a walk-fuse request was last timed from (30–35 s after it):
    /// its rotation reached AlarmKit (``World/forgetStepRotationCutByForceQuit()``).
    var rotationRequestedForStepMs: Int64?
    /// Walk-fuse schedule requests whose completion has not been delivered.
    var fuseRequestsInFlight: [AlarmUUID] = []
    /// Roots holding two pending fuses, since when (true ms of the first ready execution).
    var twoFusesSince: [(rootID: String, sinceMs: Int64)] = []
    /// Walk-fuse requests issued in the current bridge step, by root (no-legacy-rings).
    var fuseRequestsThisStep: [String] = []
    /// Pending walk fuses seen while the app is natively active and the bridge executes, since
    /// when (true ms): WALK-5 and WALK-9 give each at most T_OP (no-legacy-rings).
    var foregroundFusesSince: [(id: AlarmUUID, sinceMs: Int64)] = []

    init(setup: WalkSetup, streams: RandomStreams) {
        workout = WorkoutModel(parameters: setup.workout)
        pedometer = PedometerModel(parameters: setup.workout)
        healthAccess = setup.healthAccessGranted
        collectionNeverConfirms = setup.collectionNeverConfirms
        rng = streams.stream("user.walk")
        workoutLossRNG = streams.stream("fault.workout-loss.run")
        walkForceQuitRNG = streams.stream("fault.walk-force-quit.run")
    }

    var workoutAlive: Bool { workout.state == .running || workout.state == .starting }
}

extension World {
    // MARK: - Process hooks

    /// True while a running workout keeps the attached process executing in the background
    /// (HealthKit workout sessions are a background mode: the process is not suspended).
    var walkKeepsProcessRunning: Bool {
        walkWorld.workoutAlive && walkWorld.attachedIncarnation == process.incarnation
    }

    /// A new process: the adapter reads Health authorization (WALK-4) and learns of a workout that
    /// ended while no process ran (WALK-23).
    func walkProcessLaunched() {
        guard ios != nil else { return }
        step(.healthAccessObserved(granted: walkWorld.healthAccess))
        if walkWorld.lossUnreported {
            walkWorld.lossUnreported = false
            enqueue(.toProcess(.workoutLost, incarnation: process.incarnation), afterMs: 0)
        }
    }

    /// The process died. A force-quit ends the workout-backed execution window (WALK-25, [limit]);
    /// another death of the attached process is recovered by HealthKit when supported (WALK-7),
    /// otherwise the workout ends with it.
    func walkProcessDied(_ reason: String) {
        guard ios != nil, walkWorld.attachedIncarnation == process.incarnation else { return }
        walkWorld.attachedIncarnation = nil
        walkWorld.pedometer.stopUpdates()
        if reason == "force-quit" { forgetStepRotationCutByForceQuit() }
        guard walkWorld.workoutAlive else { return }
        if reason == "process-death" && walkWorld.workout.parameters.recoverySupported {
            enqueue(.walk(.recover), afterMs: walkWorld.rng.int(in: 500...3_000))
            return
        }
        walkWorld.workout.end()
        walkWorld.lossUnreported = true
        if reason == "force-quit" { walkWorld.endedByForceQuit = true }
        record("healthkit", "workout-ended", [TraceField("reason", reason)])
    }

    /// WALK-17, WALK-25, WALK-26 [limit]: a force-quit inside the rotation window of the latest
    /// accepted step, before the bridge could ask AlarmKit for that rotation — WALK-17 has it
    /// finish the arm already in flight first — ends the execution that owed it. No process is left
    /// to move the fuse, which fires loudly at its committed deadline (the provisional resign +
    /// 60 s), so that step bounds the fuse no more than a step after the force-quit would (ios
    /// swarm seed 34419: a step 1.2 s after resign-active, while the provisional arm was in
    /// flight, then a force-quit 139 ms later). Only that step, only within T_OP of it, and only
    /// when no request timed from it was issued (one issued still lands). Counted as `force-quit`.
    func forgetStepRotationCutByForceQuit() {
        guard let step = walkWorld.latestAcceptedStepMs, walkWorld.rotationRequestedForStepMs != step,
              wallMs - step <= setup.transitionBoundMs else { return }
        walkWorld.latestAcceptedStepMs = nil
        countExemption("force-quit")
    }

    /// Before a step's commands run: the walk truth the checkers need from the inputs.
    func walkObserve(_ input: BridgeInput, wasReady: Bool) {
        walkWorld.fuseRequestsThisStep = []
        guard ios != nil else { return }
        switch input {
        case .willResignActive:
            walkWorld.latestAcceptedStepMs = nil
            walkWorld.lookBackStepMs = nil
            walkWorld.resignMs = walkWorld.startedReported ? wallMs : nil
            walkWorld.timingUnknown = !wasReady
            if walkWorld.startedReported && wasReady {
                enqueue(.walk(.checkProvisionalFuse(resignWallMs: wallMs)), afterMs: setup.transitionBoundMs + 1)
            }
        case .didBecomeActive:
            walkWorld.resignMs = nil
            walkWorld.latestAcceptedStepMs = nil
        case .workoutLost, .workoutStartFailed:
            walkWorld.startedReported = false
        default:
            break
        }
    }

    func walkReply(_ reply: APIReply) {
        if case .walkStarted = reply { walkWorld.startedReported = true }
    }

    // MARK: - Commands

    func executeWalk(_ command: BridgeCommand) {
        guard ios != nil else { return }
        switch command {
        case .startWorkout:
            do {
                let confirmations = try walkWorld.workout.start(appInForeground: process.active)
                walkWorld.attachedIncarnation = process.incarnation
                walkWorld.occurrenceID = oracle.liveIndex.map { oracle.occurrences[$0].id }
                walkWorld.rootID = oracle.liveIndex.map { oracle.occurrences[$0].rootID }
                walkWorld.startedReported = false
                walkWorld.endedByForceQuit = false
                walkWorld.lossUnreported = false
                walkWorld.pedometer.startUpdates(fromWallMs: wallMs)
                record("healthkit", "workout-starting")
                for (event, afterMs) in confirmations { enqueue(.walk(.workout(event)), afterMs: afterMs) }
            } catch {
                record("healthkit", "workout-start-failed", [TraceField("error", error.rawValue)])
                enqueue(.toProcess(.workoutStartFailed, incarnation: process.incarnation), afterMs: 0)
            }
        case .endWorkout:
            walkWorld.workout.end()
            walkWorld.pedometer.stopUpdates()
            walkWorld.attachedIncarnation = nil
            walkWorld.startedReported = false
            walkWorld.resignMs = nil
            walkWorld.latestAcceptedStepMs = nil
            record("healthkit", "workout-ended", [TraceField("reason", "app")])
        case .queryRecentSteps(let fromWallMs, let toWallMs):
            // CMPedometer history: what the store has caught up with; nil without motion access.
            let visibleUntil = min(toWallMs, wallMs - walkWorld.pedometer.parameters.historyLagMs)
            let latest = walkWorld.pedometer.parameters.motionAuthorized
                ? walkWorld.pedometer.history.last(where: { $0.wallMs >= fromWallMs && $0.wallMs <= visibleUntil })?.wallMs : nil
            if let latest { walkWorld.lookBackStepMs = latest }
            enqueue(.toProcess(.recentStepsQueried(latestStepWallMs: latest), incarnation: process.incarnation), afterMs: 20)
        default:
            break
        }
    }

    // MARK: - Events

    func handleWalkEvent(_ event: WalkEvent) {
        switch event {
        case .workout(let confirmation):
            if case .collectionConfirmed = confirmation, walkWorld.collectionNeverConfirms {
                record("healthkit", "collection-not-confirmed")
                return
            }
            guard walkWorld.workout.handle(confirmation), let incarnation = walkWorld.attachedIncarnation,
                  process.running, process.incarnation == incarnation else { return }
            let input: BridgeInput
            switch confirmation {
            case .sessionConfirmed: input = .workoutSessionConfirmed
            case .collectionConfirmed: input = .workoutCollectionConfirmed
            }
            enqueue(.toProcess(input, incarnation: incarnation), afterMs: 0)
        case .enterBackground(let incarnation):
            guard process.running, process.incarnation == incarnation, !process.active else { return }
            step(.didEnterBackground)
            startBackgroundBudget()
        case .recover:
            recoverWorkout()
        case .checkStepFuse(let stepWallMs):
            checkFuseAfterStep(stepWallMs)
        case .checkProvisionalFuse(let resignWallMs):
            checkProvisionalFuse(resignWallMs)
        }
    }

    /// WALK-7: HealthKit relaunches the process (or reaches the one running) and it reattaches.
    func recoverWorkout() {
        // WALK-2: iOS launches the app for the workout only through its declared identifier.
        // IOS-1: the app's declared Info.plist decides; a missing identifier refuses the launch.
        let declared = ios?.parameters.appConfiguration.permitsWorkoutRecoveryLaunch ?? false
        if !declared { record("ios", "background-task-refused", [TraceField("identifier", BridgeConfiguration.workoutBackgroundTaskIdentifier)]) }
        guard deviceUp, declared, (try? walkWorld.workout.recover()) != nil else {
            walkWorld.lossUnreported = walkWorld.lossUnreported || walkWorld.workout.state == .ended
            return
        }
        if process.running {
            resume()
        } else {
            launch(.workoutRecovery)
        }
        walkWorld.attachedIncarnation = process.incarnation
        walkWorld.pedometer.startUpdates(fromWallMs: wallMs)
        record("healthkit", "workout-recovered", [TraceField("incarnation", String(process.incarnation))])
        walkWorld.timingUnknown = walkWorld.timingUnknown || process.isAcceptingInputs != true
        step(.workoutRecovered)
        startBackgroundBudget()
    }

    // MARK: - The user

    /// The user takes `steps` steps now. A running, attached process gets Core Motion's live update
    /// (genuine activity, INACT-4); after a force-quit nothing observes them (WALK-25, [limit]).
    func walkSteps(_ steps: Int) {
        guard ios != nil, deviceUp else { return }
        let subscriber = walkWorld.workoutAlive && walkWorld.attachedIncarnation == process.incarnation
            && process.running && !process.suspended
        record("user", "walk", [TraceField("steps", String(steps))])
        if walkWorld.endedByForceQuit && !subscriber && oracle.liveIndex != nil {
            countExemption("walk-steps-after-force-quit")  // WALK-25: steps no process can observe
        }
        guard walkWorld.pedometer.walk(steps: steps, atWallMs: wallMs, subscriberRunning: subscriber) != nil else { return }
        let ready = process.isAcceptingInputs == true
        let walkIsLive = oracle.liveIndex.map { oracle.occurrences[$0].id } == walkWorld.occurrenceID
        if walkIsLive, let index = oracle.liveIndex {
            if ready {
                // INACT-4: a live native step event the bridge observes is genuine activity.
                oracle.occurrences[index].lastActivityMs = wallMs
                enqueue(.oracleDeadline(occurrence: oracle.occurrences[index].id), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
            } else {
                // Candidate invariant 16: credited activity is what the bridge could observe and
                // validate. Queued behind a held gate, the step is validated (and credited) when
                // the bridge is ready — like a queued dismissal (oracleCredit; ios uniform 3345
                // with a damaged store: the gate held 38 s, the steps came 6.5 s before release).
                walkWorld.stepCreditPending = oracle.occurrences[index].id
            }
        }
        if !ready { walkWorld.timingUnknown = true }
        if walkIsLive, ready, walkWorld.startedReported, !process.active, walkWorld.resignMs != nil {
            walkWorld.latestAcceptedStepMs = wallMs
            enqueue(.walk(.checkStepFuse(stepWallMs: wallMs)), afterMs: setup.transitionBoundMs + 1)
        }
        step(.stepsObserved)
    }

    /// Walk plan actions (scenario verbs and the fuzz user).
    func performWalk(_ action: PlanAction) {
        switch action {
        case .userStartWalk:
            guard ios != nil, process.running, process.active, let live = process.document?.liveOccurrence,
                  let alarmID = process.document?.root(live.rootID)?.alarmID else {
                record("plan", "ignored", [TraceField("why", "start-walk needs the app in the foreground with a live occurrence")])
                return
            }
            step(.api(.startWalkCheck(alarmIDs: [alarmID])))
        case .userWalk(let steps):
            walkSteps(steps)
        case .userAppSwitcher(let backgroundAfterMs):
            guard process.running, process.active else { return }
            process.active = false
            step(.willResignActive)
            enqueue(.walk(.enterBackground(incarnation: process.incarnation)), afterMs: backgroundAfterMs)
        case .faultWorkoutLost:
            guard ios != nil, walkWorld.workout.workoutLost() else { return }
            record("fault", "workout-lost")
            walkWorld.pedometer.stopUpdates()
            if let incarnation = walkWorld.attachedIncarnation, process.running, process.incarnation == incarnation {
                enqueue(.toProcess(.workoutLost, incarnation: incarnation), afterMs: 0)
            } else {
                walkWorld.lossUnreported = true
            }
            walkWorld.attachedIncarnation = nil
        case .userSetHealthAccess(let granted):
            guard ios != nil else { return }
            walkWorld.healthAccess = granted
            record("user", "health-access", [TraceField("granted", String(granted))])
            if process.running { enqueue(.toProcess(.healthAccessObserved(granted: granted), incarnation: process.incarnation), afterMs: 0) }
        default:
            break
        }
    }

    /// The sleepy user answers a walk alarm: starts the walk check, walks in bursts (in the app and
    /// after leaving it through the app switcher, sometimes glancing at Control Center), stops
    /// walking now and then, and completes by opening the app or gives up; faults: workout loss,
    /// force-quit. Returns false when this alarm is no walk (or the user does something else).
    func planWalk(alarmID: String?) -> Bool {
        guard ios != nil, let alarmID, alarms.first(where: { $0.id == alarmID })?.challenge.isWalk == true,
              !walkWorld.rng.chance(Ratio(1, 6)) else { return false }
        var t = walkWorld.rng.int(in: 1_500...4_000)
        enqueueReactive(.userStartWalk, afterMs: t)
        if walkWorld.rng.chance(Ratio(1, 8)) {
            planSnooze()  // the user snoozes the walk instead (SNZ-10, WALK-24)
            return true
        }
        for _ in 0..<Int(walkWorld.rng.int(in: 0...3)) {
            t += walkWorld.rng.int(in: 1_500...6_000)
            enqueueReactive(.userWalk(steps: Int(walkWorld.rng.int(in: 4...30))), afterMs: t)
        }
        t += walkWorld.rng.int(in: 1_000...4_000)
        let leave = walkWorld.rng.uniform(below: 100)
        if leave < 25 {
            enqueueReactive(.userControlCenter, afterMs: t)  // WALK-9: back in 2–12 s
            t += 14_000
        }
        if leave < 85 {
            enqueueReactive(.userAppSwitcher(backgroundAfterMs: walkWorld.rng.int(in: 0...2_500)), afterMs: t)
        }
        for _ in 0..<Int(walkWorld.rng.int(in: 0...12)) {
            t += walkWorld.rng.chance(Ratio(4, 5)) ? walkWorld.rng.int(in: 1_000...12_000) : walkWorld.rng.int(in: 25_000...75_000)
            enqueueReactive(.userWalk(steps: Int(walkWorld.rng.int(in: 4...40))), afterMs: t)
        }
        if let rate = setup.workoutLossRate, randomBehaviourActs, walkWorld.workoutLossRNG.chance(rate) {  // WALK-23
            enqueueReactive(.faultWorkoutLost, afterMs: walkWorld.workoutLossRNG.int(in: 5_000...max(6_000, t)))
        }
        if let rate = setup.walkForceQuitRate, randomBehaviourActs, walkWorld.walkForceQuitRNG.chance(rate) {  // WALK-25 [limit]
            enqueueReactive(.userForceQuit, afterMs: walkWorld.walkForceQuitRNG.int(in: 5_000...max(6_000, t)))
        }
        let ending = walkWorld.rng.uniform(below: 100)
        if ending < 70 {
            // Done walking: back in the app, the check completes (or the user gives up, OCC-18).
            t += walkWorld.rng.int(in: 1_000...8_000)
            enqueueReactive(.userOpenApp, afterMs: t)
            enqueueReactive(ending < 60 ? .userCompleteChallenge : .userAbandon(wrongAlarm: false),
                            afterMs: t + walkWorld.rng.int(in: 1_500...4_000))
            enqueueReactive(.userLeaveApp, afterMs: t + walkWorld.rng.int(in: 5_000...20_000))
        }
        return true
    }
}

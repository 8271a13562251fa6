import IOSModel
import Testing

/// Conformance of the HealthKit workout and Core Motion pedometer models (enough for WALK-*).
struct WorkoutAndMotionTests {
    @Test("a workout session starts only in the foreground (HKWorkoutSession; WWDC23 multi-device workout)")
    func startNeedsForeground() {
        var workout = WorkoutModel(parameters: WorkoutParameters())
        #expect(throws: WorkoutModel.WorkoutError.notInForeground) { _ = try workout.start(appInForeground: false) }
        #expect(workout.state == .notStarted)
        #expect(throws: Never.self) { _ = try workout.start(appInForeground: true) }
        #expect(workout.state == .starting)
        #expect(throws: WorkoutModel.WorkoutError.alreadyRunning) { _ = try workout.start(appInForeground: true) }
    }

    @Test("a walk counts as started only after HealthKit confirms the session and then live collection (WALK-3)")
    func confirmations() throws {
        var workout = WorkoutModel(parameters: WorkoutParameters())
        let events = try workout.start(appInForeground: true)
        #expect(events.map(\.afterMs) == [300, 700])
        #expect(!workout.isStartedWalk)
        let r1 = workout.handle(events[1].0)
        #expect(!r1)  // collection cannot be confirmed before the session
        let r2 = workout.handle(events[0].0)
        #expect(r2)
        #expect(workout.state == .running && !workout.isStartedWalk)
        let r3 = workout.handle(events[1].0)
        #expect(r3)
        #expect(workout.isStartedWalk)
    }

    @Test("a lost workout ends the session; stale confirmations of an ended session change nothing (WALK-23)")
    func loss() throws {
        var workout = WorkoutModel(parameters: WorkoutParameters())
        let first = try workout.start(appInForeground: true)
        let r4 = workout.workoutLost()
        #expect(r4)
        #expect(workout.state == .ended)
        let r5 = workout.handle(first[0].0)
        #expect(!r5)
        let r6 = workout.workoutLost()
        #expect(!r6)
    }

    @Test("a relaunched process reattaches to a still-running session when recovery is supported (recoverActiveWorkoutSession; WALK-7)",
          arguments: [true, false])
    func recovery(supported: Bool) throws {
        var parameters = WorkoutParameters()
        parameters.recoverySupported = supported
        var workout = WorkoutModel(parameters: parameters)
        let events = try workout.start(appInForeground: true)
        _ = workout.handle(events[0].0)
        if supported {
            #expect(try workout.recover() == .running)
        } else {
            #expect(throws: WorkoutModel.WorkoutError.noSessionToRecover) { _ = try workout.recover() }
        }
        workout.end()
        #expect(throws: WorkoutModel.WorkoutError.noSessionToRecover) { _ = try workout.recover() }
    }

    @Test("live pedometer updates are cumulative since the subscription and reach only a running subscriber (CMPedometer.startUpdates)")
    func liveUpdates() {
        var pedometer = PedometerModel(parameters: WorkoutParameters())
        let live1 = pedometer.walk(steps: 5, atWallMs: 1_000, subscriberRunning: true)
        #expect(live1 == nil)  // not subscribed
        pedometer.startUpdates(fromWallMs: 2_000)
        let live2 = pedometer.walk(steps: 3, atWallMs: 2_500, subscriberRunning: true)
        #expect(live2 == 3)
        let live3 = pedometer.walk(steps: 4, atWallMs: 3_000, subscriberRunning: false)
        #expect(live3 == nil)  // suspended
        let live4 = pedometer.walk(steps: 2, atWallMs: 3_500, subscriberRunning: true)
        #expect(live4 == 9)
    }

    @Test("historical queries include steps taken while no process ran, once the store caught up; none without motion authorization (queryPedometerData)")
    func history() {
        var pedometer = PedometerModel(parameters: WorkoutParameters())
        _ = pedometer.walk(steps: 10, atWallMs: 10_000, subscriberRunning: false)
        _ = pedometer.walk(steps: 7, atWallMs: 20_000, subscriberRunning: false)
        #expect(pedometer.query(fromWallMs: 0, toWallMs: 30_000, nowWallMs: 21_000) == 10)  // lag: 20_000 not yet visible
        #expect(pedometer.query(fromWallMs: 0, toWallMs: 30_000, nowWallMs: 23_000) == 17)
        #expect(pedometer.query(fromWallMs: 15_000, toWallMs: 30_000, nowWallMs: 60_000) == 7)  // only the window
        var denied = WorkoutParameters()
        denied.motionAuthorized = false
        var blind = PedometerModel(parameters: denied)
        blind.startUpdates(fromWallMs: 0)
        let live5 = blind.walk(steps: 3, atWallMs: 1_000, subscriberRunning: true)
        #expect(live5 == nil)
        #expect(blind.query(fromWallMs: 0, toWallMs: 10_000, nowWallMs: 20_000) == nil)
    }
}

import SimKernel

/// Named parameters of the HealthKit workout and Core Motion models. Where Apple is silent the
/// value is a parameter the seed draws.
public struct WorkoutParameters: Sendable, Equatable {
    /// Time from `startActivity` to HealthKit confirming the session running (undocumented), ms.
    public var sessionStartLatencyMs: Int64 = 300
    /// Time from `beginCollection` to the live workout builder confirming collection, ms.
    public var collectionStartLatencyMs: Int64 = 400
    /// Whether HealthKit relaunches a process whose workout is still running and lets it reattach
    /// (`HKHealthStore.recoverActiveWorkoutSession`; documented for watchOS, supported on iPhone
    /// from iOS 17 per WWDC23 "Build a multi-device workout app"; reliability unknown → parameter).
    public var recoverySupported = true
    /// The user allowed Core Motion (`CMAuthorizationStatus.authorized`); denied: no step data.
    public var motionAuthorized = true
    /// How long after a step Core Motion's historical query (`queryPedometerData(from:to:)`)
    /// includes it (the pedometer store lags live updates; undocumented), ms.
    public var historyLagMs: Int64 = 2_000
    public init() {}
}

/// An `HKWorkoutSession` with its `HKLiveWorkoutBuilder`, as the walk rules (WALK-1..7, 19..26)
/// see them.
///
/// Modelled (HealthKit reference, HKWorkoutSession / HKLiveWorkoutBuilder; WWDC23 "Build a
/// multi-device workout app"): a session starts only while the app is in the foreground (`start`
/// from the background throws); HealthKit confirms the session and then the live collection
/// asynchronously; the session can end on its own (`workoutLost`: an error or the system ending
/// it); the session outlives the app process (it belongs to HealthKit), and a relaunched process
/// can reattach to a still-running session when recovery is supported. Nothing here collects or
/// stores metrics (WALK-1).
///
/// Not modelled: paused / prepared / stopped session states (the walk rules use only running and
/// ended), the workout's background-task identifier registration (WALK-2, a configuration fact
/// checked by the bridge's declared configuration), metrics.
public struct WorkoutModel: Sendable, Equatable {
    public enum SessionState: String, Sendable, Equatable {
        case notStarted = "not-started", starting, running, ended
    }
    public enum WorkoutError: String, Error, Sendable, Equatable {
        /// `startActivity` while the app is not in the foreground.
        case notInForeground = "not-in-foreground"
        /// A session already exists.
        case alreadyRunning = "already-running"
        /// No session to reattach to, or recovery is not supported.
        case noSessionToRecover = "no-session-to-recover"
    }
    /// Timed confirmations HealthKit sends (the simulator queues them).
    public enum Event: Sendable, Equatable {
        case sessionConfirmed(generation: Int)
        case collectionConfirmed(generation: Int)
    }

    public var parameters: WorkoutParameters
    public private(set) var state: SessionState = .notStarted
    /// The live builder confirmed collection (with `state == .running`: a started walk, WALK-3).
    public private(set) var collecting = false
    /// Bumped per session so confirmations for an ended session are ignored.
    public private(set) var generation = 0

    public init(parameters: WorkoutParameters) { self.parameters = parameters }

    /// `HKWorkoutSession.startActivity(with:)` + `HKLiveWorkoutBuilder.beginCollection`.
    /// - Parameter appInForeground: the app is active (required).
    /// - Returns: the confirmations to deliver later, with their delays in ms.
    /// - Throws: `.notInForeground`, `.alreadyRunning`.
    public mutating func start(appInForeground: Bool) throws(WorkoutError) -> [(Event, afterMs: Int64)] {
        guard appInForeground else { throw .notInForeground }
        guard state == .notStarted || state == .ended else { throw .alreadyRunning }
        generation += 1
        state = .starting
        collecting = false
        return [(.sessionConfirmed(generation: generation), parameters.sessionStartLatencyMs),
                (.collectionConfirmed(generation: generation), parameters.sessionStartLatencyMs + parameters.collectionStartLatencyMs)]
    }

    /// Applies a confirmation; returns whether it changed anything (stale ones do not).
    public mutating func handle(_ event: Event) -> Bool {
        switch event {
        case .sessionConfirmed(let g):
            guard g == generation, state == .starting else { return false }
            state = .running
            return true
        case .collectionConfirmed(let g):
            guard g == generation, state == .running, !collecting else { return false }
            collecting = true
            return true
        }
    }

    /// The app ends the session (`end()`), or HealthKit ends it (`workoutLost`).
    public mutating func end() {
        state = .ended
        collecting = false
    }

    /// The fault: HealthKit ends the session on its own (error, system pressure).
    public mutating func workoutLost() -> Bool {
        guard state == .running || state == .starting else { return false }
        end()
        return true
    }

    /// `HKHealthStore.recoverActiveWorkoutSession`: a relaunched process reattaches.
    /// - Throws: `.noSessionToRecover` when no session runs or recovery is unsupported.
    public func recover() throws(WorkoutError) -> SessionState {
        guard parameters.recoverySupported, state == .running || state == .starting else { throw .noSessionToRecover }
        return state
    }

    /// A started walk in HealthKit's own terms: session running and collection confirmed (WALK-3).
    public var isStartedWalk: Bool { state == .running && collecting }
}

/// Core Motion's pedometer (`CMPedometer`): steps the user takes, delivered live to a running
/// subscriber and queryable afterwards as historical totals.
///
/// Modelled (CMPedometer reference): live updates (`startUpdates(from:)`) report cumulative steps
/// since the subscription's start, only while the subscribing process runs (not suspended);
/// `queryPedometerData(from:to:)` returns the total in a window, including steps taken while no
/// process ran — but only once the pedometer store has caught up (`historyLagMs`, a parameter);
/// without motion authorization both give nothing. Live vs replayed matters for WALK-7 and WALK-26:
/// a recovering process must count only steps inside the post-handoff part of the last 30 s.
public struct PedometerModel: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        /// Wall ms of the step batch.
        public var wallMs: Int64
        public var count: Int
    }
    public var parameters: WorkoutParameters
    /// Every step batch the user took, in time order.
    public private(set) var history: [Step] = []
    /// Live subscription start (wall ms) while subscribed.
    public private(set) var subscribedSinceWallMs: Int64?

    public init(parameters: WorkoutParameters) { self.parameters = parameters }

    /// `startUpdates(from:)`.
    public mutating func startUpdates(fromWallMs: Int64) { subscribedSinceWallMs = fromWallMs }
    /// `stopUpdates()`, or the subscribing process died.
    public mutating func stopUpdates() { subscribedSinceWallMs = nil }

    /// The user walks: records the batch and returns the live update (cumulative steps since the
    /// subscription started) if a running subscriber should get one.
    public mutating func walk(steps: Int, atWallMs: Int64, subscriberRunning: Bool) -> Int? {
        history.append(Step(wallMs: atWallMs, count: steps))
        guard parameters.motionAuthorized, subscriberRunning, let since = subscribedSinceWallMs else { return nil }
        return history.filter { $0.wallMs >= since }.reduce(0) { $0 + $1.count }
    }

    /// `queryPedometerData(from:to:)` at `nowWallMs`: steps in [from, to] that the store has
    /// caught up with; nil without motion authorization (the query errors).
    public func query(fromWallMs: Int64, toWallMs: Int64, nowWallMs: Int64) -> Int? {
        guard parameters.motionAuthorized else { return nil }
        let visibleUntil = min(toWallMs, nowWallMs - parameters.historyLagMs)
        return history.filter { $0.wallMs >= fromWallMs && $0.wallMs <= visibleUntil }.reduce(0) { $0 + $1.count }
    }
}

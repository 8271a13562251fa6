/// The persisted state of the live occurrence's iOS walk (WALK-3..26).
///
/// Persisted (in `BridgeDocument.walk`) so that a process recovered by HealthKit, or started
/// after process death, relocates the *same* walk fuse instead of arming an ordinary successor
/// (WALK-19, WALK-20). Holds no health data: no step counts, only the wall time of the latest
/// accepted step (WALK-6).
public struct WalkRecord: Codable, Sendable, Equatable {
    public enum Phase: String, Codable, Sendable, Equatable {
        /// `startWalkCheck` accepted; HealthKit has not confirmed session and collection yet.
        case starting
        /// WALK-3: session and live collection confirmed while the app was in the foreground.
        case started
        /// WALK-23: the workout was lost (or never started): the ordinary unfinished-challenge
        /// policy applies again.
        case lost
    }

    /// The occurrence the walk belongs to (ID-9).
    public var token: String
    public var rootID: String
    public var phase: Phase
    /// The resign-active edge that handed the walk to background pressure (wall ms); nil while
    /// the app is steadily in the foreground (WALK-5).
    public var handoffAtMs: Int64?
    /// WALK-8, WALK-10: the provisional deadline, resign-active + 60 s; the background edge
    /// stores it unchanged.
    public var handoffDeadlineMs: Int64?
    /// WALK-10: a real `applicationDidEnterBackground` followed the resign-active edge.
    public var backgroundEdgeSeen = false
    /// Wall ms of the latest accepted step after the handoff (WALK-11, WALK-14); nil before one.
    public var lastAcceptedStepMs: Int64?
    /// Activity generation: bumped by each accepted movement, orders rotations (WALK-17, WALK-21).
    public var activityGeneration = 0
    /// The committed (AlarmKit-accepted) fuse, if any (WALK-16).
    public var fuseID: AlarmUUID?
    /// The replacement of an in-flight rotation, and the generation it was armed for (WALK-15, WALK-17).
    public var rotationID: AlarmUUID?
    public var rotationGeneration: Int?
    /// WALK-19: a recovering process is relocating the fuse before HealthKit republished the workout.
    public var recovering = false
    /// WALK-21: the activity generation at which the workout-loss fallback took over.
    public var takeoverGeneration: Int?

    public init(token: String, rootID: String, phase: Phase) {
        self.token = token
        self.rootID = rootID
        self.phase = phase
    }
}

/// Process-local walk state: HealthKit's confirmations and the repair poll die with the process.
public struct WalkSession: Sendable, Equatable {
    /// HealthKit reported the session running / the builder collecting, in this process (WALK-3).
    public var sessionConfirmed = false
    public var collectionConfirmed = false
    /// This process holds the workout (started it, or reattached it: WALK-7).
    public var attached = false
    /// A follow-up rotation is owed once the in-flight one commits (WALK-17).
    public var followUpOwed = false
    /// Consecutive step-poll repairs (WALK-18), bounded by `walkStepPollMax`.
    public var pollRepairs = 0
    public init() {}
}

/// One entry of the native diagnostics journal (WALK-6): what happened and when, to which root.
/// The event is a closed vocabulary, so no health data (step counts, distances) can be written.
public struct DiagnosticEntry: Codable, Sendable, Equatable {
    public enum Event: String, Codable, Sendable, Equatable {
        case walkStartRejected = "walk-start-rejected"
        case walkStarting = "walk-starting"
        case walkStarted = "walk-started"
        case walkNotStartedInBackground = "walk-confirmed-in-background"
        case provisionalFuseArmed = "provisional-fuse-armed"
        case backgroundEdge = "background-edge"
        case provisionalFuseCancelled = "provisional-fuse-cancelled"
        case fuseCancelledInForeground = "fuse-cancelled-in-foreground"
        case fuseRotationArmed = "fuse-rotation-armed"
        case fuseRotationCommitted = "fuse-rotation-committed"
        case fuseArmFailed = "fuse-arm-failed"
        case workoutLost = "workout-lost"
        case workoutRecovered = "workout-recovered"
        case recoveryStarted = "recovery-started"
        case walkEnded = "walk-ended"
        case guardCleanup = "guard-cleanup"
        case launchGateHeldForUnlock = "launch-gate-held-for-unlock"
        case launchGateHeldForDomain = "launch-gate-held-for-domain"
        case launchGateReleased = "launch-gate-released"
    }
    /// Wall ms.
    public var atMs: Int64
    public var event: Event
    public var rootID: String?
    public init(atMs: Int64, event: Event, rootID: String?) {
        self.atMs = atMs
        self.event = event
        self.rootID = rootID
    }
}

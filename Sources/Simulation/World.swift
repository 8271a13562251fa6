import AlarmBridge
import AndroidModel
import IOSModel
import SimKernel

/// Events on the world's queue.
indirect enum WorldEvent: Sendable {
    /// An input for the app process of `incarnation` (dropped if that process is gone).
    case toProcess(BridgeInput, incarnation: Int)
    /// An input that starts the app process when none runs (intents, broadcasts).
    case toAppLaunching(BridgeInput, LaunchReason)
    /// An input for whatever process runs now; dropped when none does.
    case toRunningApp(BridgeInput)
    case storeRead(incarnation: Int)
    case inventoryRead(InventoryPurpose, incarnation: Int)
    case daemon(DaemonEvent)
    case alarmManager(AlarmManagerEvent)
    case timer(BridgeTimer, incarnation: Int)
    case plan(PlanAction)
    case reaction(AlarmUUID, Reaction)
    case fireTime(rootID: String, alarmID: String, wallMs: Int64)
    case oracleDeadline(occurrence: Int)
    case gapCheck
    case boot
    /// iOS: the background execution budget ran out.
    case suspend(incarnation: Int, token: Int)
    /// Receipts, app state and the kill switch (World+Launch.swift).
    case launch(LaunchWorldEvent)
    /// HealthKit / Core Motion and the walk checkers (World+Walk.swift).
    case walk(WalkEvent)
    /// Android: the step counter's hardware FIFO flushes its due events to the listener.
    case stepSensorFlush
    /// The burst's native playback begins (FG-17).
    case burstPlaybackBegins(AlarmUUID)
    /// The liveness phase: the user's return and the convergence checks (Liveness.swift).
    case liveness(LivenessEvent)
}

/// What the sleepy user does about an audible ring.
enum Reaction: Sendable, Equatable {
    case stop, openAndComplete, openAndLeave
}

/// The app process: bridge memory lives and dies with it.
struct AppProcess {
    var incarnation = 0
    var running = false
    var active = false
    var bridge: (any BridgeUnderTest)? {
        didSet {  // every change of the bridge comes through here: an assignment or a mutation in place
            guard let bridge else {
                (document, isAcceptingInputs, foregroundSuppressed, believedAlerting, phase) = (nil, nil, nil, nil, nil)
                challengeScreenVisible = nil
                return
            }
            // Read through one copy of the existential, which retains its box: optional chaining
            // on the stored existential copied the whole bridge value for each read (issue 20).
            phase = bridge.phase
            challengeScreenVisible = bridge.challengeScreenVisible
            document = bridge.document
            isAcceptingInputs = bridge.isAcceptingInputs
            foregroundSuppressed = bridge.foregroundSuppressed
            believedAlerting = bridge.believedAlerting
        }
    }
    /// The bridge's ``BridgeUnderTest/document``, ``BridgeUnderTest/isAcceptingInputs``,
    /// ``BridgeUnderTest/foregroundSuppressed`` and ``BridgeUnderTest/believedAlerting`` as of its
    /// last change; nil without a bridge. Read by the checks after every event: opening the
    /// existential for each read copied the whole bridge (issue 20), and a bridge changes only
    /// through `bridge` (its port is sans-I/O: its state changes only in `handle`).
    private(set) var document: BridgeDocument?
    private(set) var isAcceptingInputs: Bool?
    private(set) var foregroundSuppressed: [ForegroundSuppressedProof]?
    private(set) var believedAlerting: [AlarmUUID]?
    /// The bridge's ``BridgeUnderTest/phase`` and ``BridgeUnderTest/challengeScreenVisible`` as
    /// of its last change, likewise; nil without one.
    private(set) var phase: BridgePhase?
    private(set) var challengeScreenVisible: Bool?

    /// The bridge handles `input` where it is kept (``BridgeUnderTest/handle(_:at:)``): no other
    /// reference to its box is made, so nothing is copied, and the caches above are refreshed
    /// once, after it. Empty without a bridge.
    mutating func handle(_ input: BridgeInput, at instants: BridgeInstants) -> [BridgeCommand] {
        bridge?.handle(input, at: instants) ?? []
    }
    var storeReadSucceeded = false
    var storeReadFailed = false
    /// Last instant the bridge executed a step while ready.
    var lastReadyStepMs: Int64 = .min
    /// The wall clock's offset from true time (ms) at `lastReadyStepMs`: a correction since then
    /// is one this process notices at its next step (REC-9, within one boot).
    var lastReadyWallMinusTrueMs: Int64 = 0
    /// The daemon view before `lastDaemonViewStepMs` (true ms): during a step's commands, the
    /// last view of the daemon any process had before this step.
    var priorDaemonViewStepMs: Int64 = .min
    /// iOS: last instant a ready step showed the bridge the daemon's inventory (an
    /// `alarmUpdates` set or a successful read, IOS-5): only such a step can see an alert begin.
    var lastDaemonViewStepMs: Int64 = .min
    /// JS has rendered the challenge in this process.
    var challengeShown = false
    /// JS stalled in this foreground stint: it sends no more context heartbeats (FG-11).
    var jsStalled = false
    /// Counts the app's foreground stints (across processes); a heartbeat belongs to one.
    var stint = 0
    /// iOS: the background process is suspended; events for it wait in `heldEvents`.
    var suspended = false
    /// Bumped whenever a suspension countdown is (re)started, so stale ones do nothing.
    var suspensionToken = 0
    /// Times this process was suspended (diagnostics), and the true instant it last started
    /// running or was resumed: it has been able to run its timers ever since.
    var suspensions = 0
    var upSinceMs: Int64 = .min
    var heldEvents: [WorldEvent] = []
}

/// One simulated device: bridge + one platform model + user/app models + faults + checkers.
///
/// Every stored property is `@exclusivity(unchecked)` (issue 20): Swift checked each access to a
/// class's property at run time — a thread-local access set entered and left — and those checks
/// were about 13 % of a campaign's instructions. A world is confined to one thread and one run;
/// its accesses nest only through calls, and `step` takes the bridge out of `process` while the
/// bridge runs, so nothing reads a property another access is changing. Static exclusivity
/// checking (locals, `inout` arguments, struct members) is unchanged.
final class World {
    let setup: DeviceSetup
    let defects: [KnownDefect]
    /// The device zone now in force (a time-zone change replaces it).
    @exclusivity(unchecked) var calendar: WallCalendar { didSet { configurationMemo = nil } }
    /// ``configuration()`` as last built: a function of the setup, the defects and `calendar`,
    /// so kept until the calendar changes (issue 20: checks read it on every step).
    @exclusivity(unchecked) private var configurationMemo: BridgeConfiguration?
    @exclusivity(unchecked) var clock: VirtualClock
    @exclusivity(unchecked) var queue = EventQueue<WorldEvent>()
    /// The queued `.timer` events per (timer, incarnation), by queue sequence, so `setTimer` can
    /// cancel them without scanning the queue (see ``cancelledTimerSequences``). Looked up only,
    /// never iterated.
    @exclusivity(unchecked) var queuedTimers: [TimerKey: [UInt64]] = [:]
    /// Queued `.timer` events a later `setTimer` replaced. `runEvents` drops each when it comes
    /// up, before it advances the clock or counts as an event: the run is the same as if the
    /// event had been removed from the queue (a lazy deletion; removing eagerly scanned and
    /// re-heapified the whole queue on every timer set). Looked up only, never iterated.
    @exclusivity(unchecked) var cancelledTimerSequences: Set<UInt64> = []
    @exclusivity(unchecked) var trace: Trace
    let streams: RandomStreams
    @exclusivity(unchecked) var ios: AlarmKitDaemon?
    @exclusivity(unchecked) var android: AlarmManagerModel?
    @exclusivity(unchecked) var process = AppProcess()
    /// iOS: the protected-data store; Android: device-protected storage (AND-2).
    @exclusivity(unchecked) var storedDocument: BridgeDocument?
    /// Roots a forward clock jump went over, due at the jump (`dueWallMs`, the wall clock after it)
    /// with the ring time the jump passed (`ringWallMs`): the ring time the platform's rows and
    /// a missed record carry (bounded, oldest dropped first; World+Device.swift).
    @exclusivity(unchecked) var jumpedOverRingTimes: [(rootID: String, dueWallMs: Int64, ringWallMs: Int64)] = []
    /// Android: credential-protected storage, where an older version kept the bridge state
    /// (AND-4); readable only after the first unlock since boot.
    @exclusivity(unchecked) var credentialStoredDocument: BridgeDocument?
    /// The migration checker's memory (World+Migration.swift).
    @exclusivity(unchecked) var migrationWatch = MigrationWatch()
    /// The bridge's unprotected action journal: readable before first unlock, survives everything.
    @exclusivity(unchecked) var unprotectedJournal: [JournalEntry] = []
    @exclusivity(unchecked) var deviceUp = true
    /// Boots since the run began (the platform's boot count / boot session).
    @exclusivity(unchecked) var bootCount = 0
    /// True time of the latest boot (`.min` before any reboot).
    @exclusivity(unchecked) var lastBootMs: Int64 = .min
    @exclusivity(unchecked) var protectedDataAvailable = true
    @exclusivity(unchecked) var alarms: [LogicalAlarm] { didSet { alarmsChanges &+= 1 } }
    /// Counts every change of `alarms` (issue 20: a check that folds them in skips unchanged ones).
    @exclusivity(unchecked) private(set) var alarmsChanges: UInt64 = 0
    /// The `alarmsChanges` at which `alarms` was last known sorted by unique ID (nil: not known).
    @exclusivity(unchecked) private var alarmsSortedAtChange: UInt64?
    /// The queued `.fireTime` events per alarm ID, by queue sequence (a superset: an entry may
    /// name an event that already ran), so `unscheduleOracleFireTimes` cancels them without
    /// scanning the queue (see ``cancelledFireTimeSequences``). Looked up only, never iterated.
    @exclusivity(unchecked) var queuedFireTimes: [String: [UInt64]] = [:]
    /// Queued `.fireTime` events an unschedule cancelled; `runEvents` drops each when it comes
    /// up, before it advances the clock or counts as an event, as for ``cancelledTimerSequences``
    /// (issue 20: removing them eagerly filtered and re-heapified the whole queue at every save).
    /// Looked up only, never iterated.
    @exclusivity(unchecked) var cancelledFireTimeSequences: Set<UInt64> = []
    @exclusivity(unchecked) var oracle = Oracle()
    @exclusivity(unchecked) var violations: [Violation] = []
    @exclusivity(unchecked) var exemptionCounts: [String: Int] = [:]  // lookup and increment only; reported sorted
    @exclusivity(unchecked) var scenarioFailures: [String] = []
    @exclusivity(unchecked) var userRNG: Xoshiro256StarStar
    @exclusivity(unchecked) var faultRNG: Xoshiro256StarStar
    @exclusivity(unchecked) var appRNG: Xoshiro256StarStar
    /// JS's reading and acknowledging of miss receipts (API-20), its own stream so the other draws keep their values.
    @exclusivity(unchecked) var missReceiptRNG: Xoshiro256StarStar
    /// The sleepy user's snooze habits (own stream: other draws keep their values).
    @exclusivity(unchecked) var snoozeRNG: Xoshiro256StarStar
    @exclusivity(unchecked) var requestFaultRNG: Xoshiro256StarStar
    /// Fault `accepted-request-dropped` (issue 18): the in-run stream of its per-reboot draws.
    @exclusivity(unchecked) var droppedRequestRNG: Xoshiro256StarStar
    /// Issue 18: requests AlarmManager accepted and dropped, and when (virtual ms) a ready bridge
    /// step could first have seen one missing from `getNextAlarmClock()` (nil: not yet).
    @exclusivity(unchecked) var droppedRequests: [DroppedRequest] = []
    /// The process incarnation that saw a successful launch or resume sync read (issue 18).
    @exclusivity(unchecked) var syncedIncarnation = -1
    /// Fault kind `clock-change-during-snooze` (its own stream: other draws keep their values).
    @exclusivity(unchecked) var snoozeClockRNG: Xoshiro256StarStar
    /// Fault kind `clock-set-back-after-trigger` (its own stream), and the occurrence tokens that
    /// have drawn (one draw per occurrence).
    @exclusivity(unchecked) var triggerClockRNG: Xoshiro256StarStar
    @exclusivity(unchecked) var triggerClockTokens: [String] = []
    /// Fault kind `death-mid-close` (its own stream).
    @exclusivity(unchecked) var deathMidCloseRNG: Xoshiro256StarStar
    /// JS timing: heartbeats, stalls (its own stream, so other draws do not reshuffle).
    @exclusivity(unchecked) var jsRNG: Xoshiro256StarStar
    /// The last context JS sent that said the challenge is rendered: (process incarnation, true ms).
    @exclusivity(unchecked) var lastVisibleContext: (incarnation: Int, trueMs: Int64)?
    /// foreground-silence: alerting ordinary rings seen while the app is active, with the true
    /// time the window started and whether the bridge had observed them then. Platform order.
    @exclusivity(unchecked) var foregroundAlerts: [(id: AlarmUUID, sinceMs: Int64, observed: Bool)] = []
    /// snooze-is-the-pressure: the live occurrence's pending snooze ring and when it was first seen.
    @exclusivity(unchecked) var snoozeRingSeen: (id: AlarmUUID, sinceMs: Int64)?
    /// snooze-is-the-pressure: pending successors of the live occurrence that landed beside its
    /// snooze ring while no process could act, with when their T_OP window began (restarted until
    /// the bridge's next ready step; ios uniform seed 42679).
    @exclusivity(unchecked) var snoozeSuccessorSeen: [AlarmUUID: Int64] = [:]
    /// True time of the user's last skip request (a skip may hold both rings briefly, SNZ-15).
    @exclusivity(unchecked) var lastSkipRequestMs: Int64 = Int64.min / 2
    /// snooze-is-the-pressure: a process death interrupted a skip's handoff (SNZ-16).
    @exclusivity(unchecked) var skipHandoffInterrupted = false
    /// The input of the bridge step now running (arm-before-retire and android-keeps-ringing
    /// judge what a stop answered).
    @exclusivity(unchecked) var stepInput: BridgeInput?
    /// True time of the last manual wall-clock change (REC-9: the bridge applies it when it runs).
    @exclusivity(unchecked) var lastWallClockChangeMs: Int64 = Int64.min / 2
    /// True time of the last time-zone change (REC-8: fixed instants follow when the bridge runs).
    @exclusivity(unchecked) var lastZoneChangeMs: Int64 = Int64.min / 2
    /// True ms of the latest change of frame a running bridge must notice at its next step by
    /// itself (SCH-18, REC-8): a time-zone change, or a wall-clock change beyond Δ_CLOCK.
    @exclusivity(unchecked) var lastFrameChangeMs: Int64 = Int64.min / 2
    /// foregroundSuppressed proofs the running bridge holds, with the true ms each was first seen.
    @exclusivity(unchecked) var suppressionProofsSeen: [(proof: ForegroundSuppressedProof, sinceMs: Int64)] = []
    /// Ring times that passed silently and that the next launch must record (missed-day-recorded).
    @exclusivity(unchecked) var missedExpectations: [MissedExpectation] = []
    /// True time of the first ready bridge step after the last time-zone change (nil: none yet).
    @exclusivity(unchecked) var zoneChangeObservedMs: Int64?
    /// The calendar in force before the last time-zone change (nil: none yet), in which the
    /// `.fixed` instants planned before it were computed (``oracleOpenStaleZoneRing(_:_:)``).
    @exclusivity(unchecked) var calendarBeforeZoneChange: WallCalendar?
    /// One-shots a time-zone change moved to the new frame (REC-8), most recent last (bounded).
    @exclusivity(unchecked) var movedOneShots: [MovedOneShot] = []
    /// capacity-protection (CAP-4): primaries re-requested in a limit-failure step (their one retry).
    @exclusivity(unchecked) var limitRetried: [AlarmUUID] = []
    /// The fire time of every ring the bridge requested, by ID (lookup only).
    @exclusivity(unchecked) var requestFires: [AlarmUUID: Int64] = [:]
    /// iOS: (root, requested fire time, ring) of schedule refusals a bridge process was answered
    /// with and no success since (missed-day-recorded); bounded, oldest first.
    @exclusivity(unchecked) var seenRefusals: [(rootID: String, fireWallMs: Int64, ringID: AlarmUUID)] = []
    /// successor-cleanup: the successors bound to the live occurrence when JS rendered its
    /// challenge in foreground stint `stint`.
    @exclusivity(unchecked) var renderedCleanup: (stint: Int, atMs: Int64, successors: [AlarmUUID])?
    @exclusivity(unchecked) var stableIDs: [StableIDKey: AlarmUUID] = [:]  // lookup only
    @exclusivity(unchecked) var requestMetadata: [AlarmUUID: RingMetadata] = [:]  // lookup only
    /// Last instant the platform changed on its own (a ring fired or was delivered) or refused a
    /// request: a later sync may then legitimately make calls (idempotent-sync probe).
    @exclusivity(unchecked) var lastPlatformChangeMs: Int64 = .min
    @exclusivity(unchecked) var syncReadMs: Int64 = .min
    /// The wall clock (ms) at `syncReadMs` (idempotent-sync: a ring time reached since changes the wanted set).
    @exclusivity(unchecked) var syncReadWallMs: Int64 = .min
    @exclusivity(unchecked) var syncProbePending = false
    @exclusivity(unchecked) var inventoryReadsOutstanding = 0
    /// The platform read being handed to the bridge in this step (registered-means-present, SCH-14).
    @exclusivity(unchecked) var lastInventoryRead: (purpose: InventoryPurpose, result: Result<[PlatformAlarm], PlatformError>)?
    /// The last getScheduledAlarmTimes outcome JS received (scenario checks).
    @exclusivity(unchecked) var lastScheduledTimes: ScheduledTimesOutcome?
    /// A wall-clock change no running bridge saw happen: (earliest and latest wall time it may
    /// concern, true time of the change). A correction back re-lives the wall interval
    /// [before − |Δ|, before], so ring times up to `before` — ahead of the clock now — are
    /// ambiguous too. See ``adoptAmbiguousStart(_:)``.
    /// `landingWallMs`: the wall time the latest change landed on (a ring time a forward change
    /// jumped over starts there in the oracle). `readingMs`: true time of the last ready bridge
    /// step before the first of those changes — what the oracle decided after it, no bridge saw.
    @exclusivity(unchecked) var unobservedClockJump: UnobservedClockJump?
    /// The live occurrence's deadline shift (ms) by corrections no ready bridge step has seen
    /// since `sinceMs` (true ms). See ``revertUnseenLiveShift()``.
    @exclusivity(unchecked) var unseenLiveShift: (occurrenceID: Int, deltaMs: Int64, sinceMs: Int64)?
    /// That shift is known only to a process of this boot held at its launch gate (no ready step
    /// this boot, so no saved reference of this boot measures it): if that process dies before it
    /// is ready, no bridge can notice the correction any more (clock-jump-ambiguous-start).
    @exclusivity(unchecked) var unseenShiftHeldByGatedProcess = false
    /// A forward wall-clock change made after a boot before any bridge process of that boot ran:
    /// (wall before, wall after, true time). The monotonic clock restarted at the boot, so no later
    /// process can tell that the clock moved at all (BridgeCore.clockCorrection compares within
    /// one boot only). See ``adoptBootHiddenJumpStart(_:)``.
    @exclusivity(unchecked) var bootHiddenClockJump: (fromWallMs: Int64, toWallMs: Int64, sinceMs: Int64)?
    /// The same for a clock set back: (the boot's wall reading in the frame before the change,
    /// the change (negative ms), true time). See ``adoptBootHiddenSetBackStart(_:)``.
    @exclusivity(unchecked) var bootHiddenSetBack: (bootWallMs: Int64, deltaMs: Int64, sinceMs: Int64)?
    /// Wall time (ms, the frame then in force) of the latest bridge step: the latest reading the
    /// bridge compares the clock with (BridgeCore.clockCorrection). A change no running bridge saw
    /// is placed by the bridge only after this reading (``unobservedClockJump``).
    @exclusivity(unchecked) var lastBridgeReadingWallMs: Int64?
    /// True time of the first ready bridge step after the latest unobserved wall-clock change
    /// (nil: none yet): until then no bridge could know the clock had moved.
    @exclusivity(unchecked) var clockJumpObservedMs: Int64?
    /// Rings whose schedule call the platform refused, newest last, bounded: a bridge that has
    /// queued the failure drops the row when it replays it (not a reconciliation decision).
    @exclusivity(unchecked) var refusedSchedules: [AlarmUUID] = []
    @exclusivity(unchecked) var syncProbePurpose = InventoryPurpose.resumeSync
    @exclusivity(unchecked) var faultExemption: (name: String, sinceMs: Int64)?
    @exclusivity(unchecked) var armFailureExempt = false
    /// The latest refused successor arm (true ms), the process incarnation that saw it, and
    /// how long after it that process asks again (`arm-failed-no-predecessor`,
    /// ``successorRetryWasDue()``). Nil after an accepted successor, or when the exemption comes
    /// from a walk fuse (WALK-18 keeps its predecessor).
    @exclusivity(unchecked) var successorArmFailure: (atMs: Int64, incarnation: Int, retryDelayMs: Int64)?
    /// Refused successor arms since the last accepted request, in one process incarnation, as
    /// the oracle counts them (mirrors `BridgeCore.successorRefusals`, rounding up: the oracle
    /// resets on fewer requests, so its backoff is never shorter than the bridge's).
    @exclusivity(unchecked) var successorRefusals: (incarnation: Int, count: Int) = (0, 0)
    @exclusivity(unchecked) var eventsProcessed = 0
    /// What the fuzz run's hidden actors did (the reactive user, interleaving deaths), as plan
    /// actions at the plan-frame instant they were due (true ms): the Shrinker replays them as
    /// explicit timed lines with the switches off. Appended in the order they were planned.
    @exclusivity(unchecked) var reactiveActions: [TimedAction] = []
    @exclusivity(unchecked) var stopped = false
    /// After a force-quit, with `setup.intentsAfterForceQuit == false`: intents wait here until
    /// the user opens the app.
    @exclusivity(unchecked) var forceQuitHoldsIntents = false
    @exclusivity(unchecked) var heldIntents: [BridgeInput] = []
    /// Device-only Keychain items: outside the app container, they survive a reinstall (iOS).
    @exclusivity(unchecked) var keychain = KeychainModel() {
        didSet { keychainReceipts = keychain.items.compactMap { WakeReceipt(key: $0.key, value: $0.value) } }
    }
    /// The receipts among the Keychain items (IOS-9, IOS-10), decoded once per Keychain change
    /// instead of by every check after every event (issue 20).
    @exclusivity(unchecked) private(set) var keychainReceipts: [WakeReceipt] = []
    /// The launch path's world state and checker memory (World+Launch.swift). Stored, not
    /// `lazy`: a lazy property's getter returned a copy of the whole state on every read (issue 20).
    @exclusivity(unchecked) var launchState: LaunchWorldState
    /// `fault late-delivery`: the next platform delivery is held back this long.
    @exclusivity(unchecked) var lateDeliveryMs: Int64?
    /// `fault os-update` (issue 18, forums 809398): the next boot installs an OS update that
    /// empties AlarmKit's inventory.
    @exclusivity(unchecked) var osUpdateAtNextBoot = false
    /// `fault ghost-alert` (issue 18): ghost alerts an `alarmUpdates` set showed alerting to a
    /// running, ready bridge (held while it is suspended, it counts once it reaches it on resume).
    @exclusivity(unchecked) var ghostAlertsShown: [AlarmUUID] = []
    /// `fault ghost-alert`: ghosts that ended while a set showing them alerting waited in a
    /// suspended process's held events: seen if the process resumes, never if it dies first
    /// (ios swarm seeds 2648, 2841).
    @exclusivity(unchecked) var ghostEndsHeld: [HeldGhostEnd] = []
    /// An OS-removed alert of the live occurrence that no process observed opening, while a set
    /// showing it alerting waits for the suspended process (World+Device.swift, `osRemoves`).
    @exclusivity(unchecked) var removedAlertHeld: (occurrenceID: Int, ringID: AlarmUUID)?
    /// `fault wrong-instant-alert` (issue 18, forums 820388): alerts AlarmKit began hours before
    /// their `.fixed` instant, which the bridge must not take as that ring time's delivery.
    @exclusivity(unchecked) var wrongInstantAlerts: [WrongInstantAlert] = []
    /// Android: the held delivery being released now (it has left AlarmManager's pending list).
    @exclusivity(unchecked) var androidReleasing: (triggerWallMs: Int64, metadata: RingMetadata, wallMinusTrueMs: Int64)?
    /// Android: the configured trigger (wall ms), metadata and wall-clock frame (wall − true ms)
    /// of each held delivery when it was held (lookup only).
    @exclusivity(unchecked) var androidHeldTriggers: [AlarmUUID: (triggerWallMs: Int64, metadata: RingMetadata, wallMinusTrueMs: Int64)] = [:]
    /// iOS read-after-write lag: alarms reads do not list yet, until a true time (ms).
    @exclusivity(unchecked) var readLagUntil: [(id: AlarmUUID, untilMs: Int64)] = []
    /// Draws each schedule's read lag (`ios.read-lag-max-ms`).
    lazy var readLagRNG = streams.stream("ios.daemon.read-lag")
    /// Deliveries the platform is holding back (injected, or the dense-fixed field fault), by ring.
    @exclusivity(unchecked) var lateHeld: [AlarmUUID] = []
    /// AND-5: foreground-sync schedule requests still to fail, and the rings whose request failed.
    lazy var foregroundRepairFailuresLeft = setup.foregroundRepairFailures
    @exclusivity(unchecked) var foregroundRepairFailed: [AlarmUUID] = []
    /// iOS BOOT-5: the damaged saved domain (fault `damaged-store`).
    @exclusivity(unchecked) var storeDamage = StoreDamage()
    /// `exact-permission-revoked`: when (virtual ms) the last revocation removed the app's exact
    /// alarms and killed its process, with no broadcast (AMS `removeExactAlarmsOnPermissionRevoked`).
    @exclusivity(unchecked) var exactRevokedAtMs: Int64?
    /// Rings the bridge requested as inexact allow-while-idle alarms while exact alarms were
    /// refused: only these may be delivered late under `exact-permission-revoked`.
    @exclusivity(unchecked) var inexactWhileRefused: [AlarmUUID] = []
    /// The window end a `gapCheck` is queued for (one per window, not one per event).
    @exclusivity(unchecked) var inexactGapCheckAtMs: Int64?
    /// The daemon generation of each held iOS fire (lookup only, never iterated).
    @exclusivity(unchecked) var lateHeldGenerations: [AlarmUUID: UInt64] = [:]
    /// The ring time (wall ms) of each held iOS fire (lookup only, never iterated):
    /// `withdrawPassOverOfDroppedDelivery`.
    @exclusivity(unchecked) var lateHeldFireWallMs: [AlarmUUID: Int64] = [:]
    /// Actions a ready bridge recorded (root, action, when), as the app model saw them go in,
    /// and the ones whose JS work succeeded (candidate invariant 31).
    @exclusivity(unchecked) var bridgeActions: [ActionRecord] = []
    /// pass-over-silent on iOS: alerting pass-overs and when a ready bridge step first showed
    /// them to the bridge (Invariants+PassOver.swift).
    @exclusivity(unchecked) var passOversSeen: [(id: AlarmUUID, sinceMs: Int64)] = []
    /// snooze-window after a clock change: the accepted snooze followed to its ring (SNZ-20),
    /// and the rings whose delivery the platform ever held back (Invariants+SnoozeRing.swift).
    @exclusivity(unchecked) var snoozeWatch: SnoozeWatch?
    @exclusivity(unchecked) var heldRings: [AlarmUUID] = []
    /// Oracle memory of issue 16's added invariant clauses (Invariants+Clauses.swift).
    @exclusivity(unchecked) var clauses = ClauseWatch()
    @exclusivity(unchecked) var actionsWorked: [ActionRecord] = []
    /// `beginOneTimeSnooze` calls JS made: when (wall ms) and for which deadline, newest last.
    @exclusivity(unchecked) var snoozeRequests: [(atWallMs: Int64, untilMs: Int64)] = []
    /// The live occurrence's pressure rings when JS asked for the latest snooze (invariant 11).
    @exclusivity(unchecked) var pressureAtSnoozeRequest: [AlarmUUID] = []
    /// Oracle fire times of roots whose delivery the platform holds back: the root becomes due
    /// when the platform delivers it (a late platform is the platform's fault, and which root
    /// owns the occurrence follows the order the app can see). `clockOffsetMs`: the wall-clock
    /// corrections made since the ring time (ms); the occurrence began at its ring time once
    /// delivered (glossary), so it was live across them and its deadline moves with them (REC-9;
    /// ios uniform seed 2143).
    @exclusivity(unchecked) var lateOracleFires: [(ringID: AlarmUUID, rootID: String, alarmID: String, fireWallMs: Int64, clockOffsetMs: Int64)] = []
    /// OCC-3: the owner of the live occurrence when a held root's ring time came (bounded; see
    /// ``noteOwnerAtReach(rootID:fireWallMs:)``).
    @exclusivity(unchecked) var lateFireOwners: [(rootID: String, fireWallMs: Int64, occurrenceID: Int)] = []
    /// Oracle fire times of roots whose primary AlarmManager holds as the inexact
    /// allow-while-idle alarm the bridge set while exact alarms were refused: due when delivered
    /// (World+InexactDelivery.swift).
    /// `wallMinusTrueMs`: the wall clock's offset from true time when the ring time was reached
    /// (reset when a set-back puts the trigger ahead again: `reframeHeldAndroidTriggers`), so the
    /// release applies the corrections made since (REC-9, as `androidHeldTriggers`);
    /// `reachedWallMinusTrueMs`: the same when it was first reached, never reset (the frame a
    /// pass-over is judged in, as the bridge judges a re-lived ring: `releasingShiftMs`).
    @exclusivity(unchecked) var inexactOracleFires: [(ringID: AlarmUUID, rootID: String, alarmID: String, fireWallMs: Int64, wallMinusTrueMs: Int64,
                              reachedWallMinusTrueMs: Int64)] = []
    /// The first-reached offset of the inexact fire being released now (see `inexactOracleFires`).
    @exclusivity(unchecked) var releasingReachedWallMinusTrueMs: Int64?
    /// iOS walk ground truth (HealthKit workout, Core Motion) and its checkers' record (World+Walk.swift).
    @exclusivity(unchecked) var walkWorld: WalkWorld  // stored, not lazy (see `launchState`)
    /// Android: the step counter, the user's walking and volume habits, checker state (World+Android).
    @exclusivity(unchecked) var androidSide: AndroidSide
    /// Sound and audible-record truth (invariants 33, 34, 45, 47).
    @exclusivity(unchecked) var sound = SoundTruth()
    /// The in-app burst the platform plays now (API-4, FG-17).
    @exclusivity(unchecked) var burst: BurstPlayback?
    /// The app's burst behaviour and the burst player's draws (own stream: other draws keep their values).
    @exclusivity(unchecked) var burstRNG: Xoshiro256StarStar
    /// JS's direct saves (World+Save.swift) and the save checkers' truth (Invariants+Save.swift).
    @exclusivity(unchecked) var jsSaves = JSSaveState()
    /// The true instant of the first process launch of the run, nil before it: until a process
    /// of this version ran, a legacy install's alarms are the older version's alone.
    @exclusivity(unchecked) var firstLaunchMs: Int64?
    @exclusivity(unchecked) var saveTruth = SaveTruth()
    /// JS's retry timing after a failed save (own stream: other draws keep their values).
    @exclusivity(unchecked) var appRNGSave: Xoshiro256StarStar
    /// Reachability coverage: hits per mark (World+Coverage.swift).
    @exclusivity(unchecked) var coverage = CoverageCounts()
    /// The liveness phase's state (Liveness.swift, invariant 46).
    @exclusivity(unchecked) var liveness = LivenessState()

    /// Creates each new process's bridge (``BridgeFactory/builtIn`` unless a run names another).
    let bridgeFactory: BridgeFactory

    /// - Parameter recordsTrace: false for a counting-only trace (``RunOptions/recordsTrace``).
    init(setup: DeviceSetup, defects: [KnownDefect], keepFullTrace: Bool, recordsTrace: Bool = true,
         bridge: BridgeFactory = .builtIn) {
        self.setup = setup
        self.bridgeFactory = bridge
        self.defects = defects
        guard let calendar = WallCalendar(zoneIdentifier: setup.zoneIdentifier) else {
            preconditionFailure("unknown zone \(setup.zoneIdentifier)")
        }
        self.calendar = calendar
        self.clock = VirtualClock(startMs: setup.startWallMs)
        self.trace = !recordsTrace ? .countingOnly() : Trace(keepLast: keepFullTrace ? nil : RunOptions.fuzzTraceRingCapacity)
        self.streams = RandomStreams(seed: setup.seed)
        self.launchState = LaunchWorldState(streams: streams)
        self.walkWorld = WalkWorld(setup: setup.walk, streams: streams)
        self.alarms = setup.alarms
        self.userRNG = streams.stream("user.reaction")
        self.faultRNG = streams.stream("faults.interleaving")
        self.appRNG = streams.stream("app.js")
        self.missReceiptRNG = streams.stream("app.miss-receipts")
        self.snoozeRNG = streams.stream("user.snooze")
        self.requestFaultRNG = streams.stream("faults.requests")
        self.droppedRequestRNG = streams.stream("fault.accepted-request-dropped.run")
        self.snoozeClockRNG = streams.stream("faults.snooze-clock")
        self.triggerClockRNG = streams.stream("faults.trigger-clock")
        self.deathMidCloseRNG = streams.stream("faults.death-mid-close")
        self.jsRNG = streams.stream("app.js-heartbeat")
        self.androidSide = AndroidSide(streams: streams, reportLatencyMs: setup.stepReportLatencyMs)
        self.burstRNG = streams.stream("app.bursts")
        self.appRNGSave = streams.stream("app.saves")
        switch setup.platform {
        case .ios:
            ios = AlarmKitDaemon(parameters: setup.ios, calendar: calendar, streams: streams)
            ios?.describesTraceEffects = trace.isRecording  // a counting run prints no trace fields
        case .android:
            var parameters = setup.android
            parameters.timeZoneID = setup.zoneIdentifier
            var manager = AlarmManagerModel(parameters: parameters, random: streams.stream("android.alarm-manager"))
            _ = manager.setStandbyBucket(setup.androidStandbyBucket, now: AndroidInstant(elapsedRealtimeMs: 0, wallMs: setup.startWallMs))
            _ = manager.setFullScreenIntentPermission(setup.androidFullScreenIntent)
            manager.describesTraceEffects = trace.isRecording  // as the daemon's: a counting run prints no trace fields
            android = manager
        }
    }

    var nowMs: Int64 { clock.nowMs }
    var wallMs: Int64 { clock.wallMs }
    /// Whether the seeded random behaviour (reactive user, in-run fault rates) acts now: always,
    /// except before a continuation's start (`DeviceSetup.randomBehaviourFromMs`, true time).
    var randomBehaviourActs: Bool { nowMs >= setup.randomBehaviourFromMs ?? Int64.min }

    func at(wallMs: Int64) -> Int64 { wallMs - clock.wallOffsetMs }

    /// Queues the oracle's fire time of `rootID` (a ring time of `alarmID`, wall ms) at true ms
    /// `dueMs`, indexed for ``unscheduleOracleFireTimes(alarmID:)``. Every `.fireTime` event is
    /// queued here.
    func scheduleFireTime(rootID: String, alarmID: String, wallMs fireWallMs: Int64, at dueMs: Int64) {
        let sequence = queue.schedule(.fireTime(rootID: rootID, alarmID: alarmID, wallMs: fireWallMs), at: dueMs)
        queuedFireTimes[alarmID, default: []].append(sequence)
    }

    /// True when `alarms` is sorted by unique ID (as every save leaves it; the setup's order may
    /// not be), so its binary searches apply. O(1) while nothing changed it since it was known so.
    func configuredAlarmsSortedByID() -> Bool {
        if alarmsSortedAtChange == alarmsChanges { return true }
        guard alarms.isSortedByUniqueID else { return false }
        alarmsSortedAtChange = alarmsChanges
        return true
    }

    /// `alarms` was just left sorted by unique ID.
    func noteConfiguredAlarmsSorted() {
        assert(alarms.isSortedByUniqueID)
        alarmsSortedAtChange = alarmsChanges
    }

    func enqueue(_ event: WorldEvent, afterMs: Int64) {
        let sequence = queue.schedule(event, at: nowMs + max(0, afterMs))
        if case .timer(let kind, let incarnation) = event {
            queuedTimers[TimerKey(kind: kind, incarnation: incarnation), default: []].append(sequence)
        }
    }

    /// A plan action a hidden actor (reactive user, interleaving death) schedules: enqueued like
    /// any other, and recorded in `reactiveActions`.
    func enqueueReactive(_ action: PlanAction, afterMs: Int64) {
        reactiveActions.append(TimedAction(wallMs: nowMs + max(0, afterMs), action: action))
        enqueue(.plan(action), afterMs: afterMs)
    }

    /// A hidden actor acts now through a path equivalent to `action` (recorded only).
    func noteReactive(_ action: PlanAction) {
        reactiveActions.append(TimedAction(wallMs: nowMs, action: action))
    }

    /// Records a trace event now. `fields` is evaluated only when the trace records events: a
    /// fuzz campaign's counting-only trace builds no text (issue 20).
    func record(_ component: String, _ name: String, _ fields: @autoclosure () -> [TraceField] = []) {
        guard trace.isRecording else { trace.skip(); return }
        trace.record(component: component, name: name, fields: fields(), trueMs: nowMs, wallMs: clock.wallMs,
                     monotonicMs: clock.monotonicMs)
    }

    // MARK: - Run loop

    func run(limits: RunLimits) {
        record("sim", "start", [TraceField("platform", setup.platform.rawValue), TraceField("seed", String(setup.seed)),
                                TraceField("zone", setup.zoneIdentifier), TraceField("zoneData", WallCalendar.zoneDataVersion)])
        installLegacyState()  // a legacy install: the older version's document and rings (World+Migration.swift)
        scheduleOracleFireTimes()
        planAndroidWalks()
        for timed in setup.plan {
            queue.schedule(.plan(timed.action), at: max(nowMs, at(wallMs: timed.wallMs)))
        }
        let safetyEndMs = setup.startWallMs + setup.durationMs
        runEvents(until: safetyEndMs, limits: limits)
        // Test only (issue 8): a deliberate trap midway through the run, after real work, so
        // the campaign's worker subprocesses can be shown to survive it.
        if defects.contains(.testTrap) && KnownDefect.testTrapFires(seed: setup.seed) {
            preconditionFailure("test-trap: deliberate trap on seed \(setup.seed) after \(eventsProcessed) events")
        }
        if setup.liveness.enabled && !stopped {
            // The liveness phase (issue 7): faults stop, the world heals, convergence is judged.
            clock.advance(to: max(nowMs, safetyEndMs))
            heal()
            runEvents(until: liveness.endMs, limits: limits)
        }
        record("sim", "end", [TraceField("events", String(eventsProcessed))])
    }

    /// Runs the queue's events due up to true time `endMs` (inclusive), checking every invariant
    /// after each; stops early at a violation or a run limit.
    func runEvents(until endMs: Int64, limits: RunLimits) {
        while !stopped, let nextDueMs = queue.nextDueMs, nextDueMs <= endMs {
            let event = queue.removeNext()
            if case .timer(let kind, let incarnation) = event.payload {
                if cancelledTimerSequences.remove(event.sequence) != nil { continue }  // replaced: as if removed
                let key = TimerKey(kind: kind, incarnation: incarnation)
                queuedTimers[key]?.removeAll { $0 == event.sequence }
                if queuedTimers[key]?.isEmpty == true { queuedTimers[key] = nil }
            }
            if case .fireTime(_, let alarmID, _) = event.payload {
                if cancelledFireTimeSequences.remove(event.sequence) != nil { continue }  // unscheduled: as if removed
                queuedFireTimes[alarmID]?.removeAll { $0 == event.sequence }
                if queuedFireTimes[alarmID]?.isEmpty == true { queuedFireTimes[alarmID] = nil }
            }
            clock.advance(to: max(nowMs, event.dueMs))
            eventsProcessed += 1
            if eventsProcessed > limits.maxEvents || nowMs - setup.startWallMs > limits.maxVirtualTimeMs {
                violateRunLimit(limits)
                break
            }
            dispatch(event.payload)
            checkAfterEvent()
            livenessObserve()
        }
    }

    /// `run-limit`: which limit stopped the run, where, and how to raise it (never a hang: the
    /// limits bound a run's work, and so its wall time, whatever a scenario's span asks).
    func violateRunLimit(_ limits: RunLimits) {
        let days = Double(nowMs - setup.startWallMs) / 86_400_000
        let span = "\((days * 10).rounded() / 10) days of virtual time"
        let which = eventsProcessed > limits.maxEvents
            ? "the run reached its limit of \(limits.maxEvents) events at \(localTimeText(wallMs)), after \(span)"
            : "the run passed its limit of \(limits.maxVirtualTimeMs / 86_400_000) days of virtual time (\(localTimeText(setup.startWallMs + limits.maxVirtualTimeMs))) with its next event, at \(localTimeText(wallMs)) (\(eventsProcessed) events)"
        violate("run-limit", [], which + "; " + limits.raiseHint)
    }

    /// True for events addressed to the app process, which a suspended process cannot run.
    func isForProcess(_ event: WorldEvent) -> Bool {
        switch event {
        case .toProcess, .toRunningApp, .storeRead, .inventoryRead, .timer, .launch: return true
        default: return false
        }
    }

    func dispatch(_ event: WorldEvent) {
        if process.running && process.suspended && isForProcess(event) {
            process.heldEvents.append(event)  // a suspended process runs nothing until resumed
            return
        }
        switch event {
        case .toProcess(let input, let incarnation):
            guard process.running, process.incarnation == incarnation else {
                record("app", "dropped", [TraceField("input", describe(input))])
                coverDroppedCompletion(input)
                return
            }
            step(input)
        case .toAppLaunching(let input, let reason):
            guard deviceUp else { return }
            if reason == .intent && forceQuitHoldsIntents {
                heldIntents.append(input)  // parameter: no intents after a force-quit until the user opens the app
                record("app", "intent-held-after-force-quit", [TraceField("input", describe(input))])
                return
            }
            if !process.running { launch(reason) } else { resume() }
            step(input)
            startBackgroundBudget()
        case .toRunningApp(let input):
            guard process.running else { return }
            noteGhostAlertShown(input)  // issue 18: the set reaches the bridge now
            step(input)
        case .storeRead(let incarnation):
            guard process.running, process.incarnation == incarnation else { return }
            let result = readStore()
            switch result {
            case .success(nil) where setup.platform == .android: break  // AND-4: CE is read next
            case .success: process.storeReadSucceeded = true
            case .failure: process.storeReadFailed = true
            }
            step(.storeLoaded(result))
        case .inventoryRead(let purpose, let incarnation):
            inventoryReadsOutstanding -= 1
            guard process.running, process.incarnation == incarnation else {
                cover(.processDeathMidRequest)  // the read's process died before its answer came
                return
            }
            let result = readInventory(purpose)
            // BOOT-2: an unreadable inventory is no cleared gate condition (invariant launch-gate).
            if case .failure = result { launchState.gateClearSinceMs = nil }
            if case .failure = result, inLockedBootPhase { liveness.restoreFault.everyRoot = true }
            lastInventoryRead = (purpose, result)  // registered-means-present compares replies with it
            step(.inventoryRead(purpose, result))
        case .daemon(let daemonEvent):
            // A stale fire (its alarm re-armed since, e.g. a wall-clock correction moved a `.fixed`
            // instant) neither takes the injected hold nor releases a held one (ios seed 2287).
            if case .fire(let id, let generation) = daemonEvent, isDeliveryToHold(id, generation: generation),
               holdBackDelivery(id, event) {
                lateHeldGenerations[id] = generation
                lateHeldFireWallMs[id] = ios?.alarm(id)?.nextFireWallMs ?? wallMs
                return
            }
            if case .ghostEnd(let id, let generation) = daemonEvent { ghostAlertEnds(id, generation: generation) }
            if case .lateFire(let id, _) = daemonEvent {
                lateHeld.removeAll { $0 == id }
                releaseLateOracleFires(id)
                cover(.lateDelivery)
            }
            onDaemon { $0.handle(daemonEvent, nowWallMs: wallMs) }
        case .alarmManager(let managerEvent):
            if case .wakeup = managerEvent, lateDeliveryMs != nil { holdAndroidDelivery() }
            onAlarmManager { $0.handle(managerEvent) }
        case .timer(let kind, let incarnation):
            guard process.running, process.incarnation == incarnation else { return }
            step(.timerFired(kind))
        case .plan(let action):
            if droppedAfterHeal(action) {
                record("plan", "dropped-after-heal", [TraceField("action", "\(action)")])
                return
            }
            perform(action)
        case .reaction(let id, let reaction):
            react(id, reaction)
        case .fireTime(let rootID, let alarmID, let fireWallMs):
            oracleFireTime(rootID: rootID, alarmID: alarmID, fireWallMs: fireWallMs)
        case .oracleDeadline(let occurrence):
            oracleDeadline(occurrence)
        case .gapCheck:
            break
        case .boot:
            boot()
        case .launch(let launchEvent):
            dispatchLaunch(launchEvent)
        case .suspend(let incarnation, let token):
            guard process.running, process.incarnation == incarnation, process.suspensionToken == token, !process.active else { return }
            process.suspended = true
            process.suspensions += 1
            record("app", "suspended")
        case .walk(let walkEvent):
            handleWalkEvent(walkEvent)
        case .stepSensorFlush:
            flushStepSensor()
        case .burstPlaybackBegins(let id):
            burstPlaybackBegins(id)
        case .liveness(let livenessEvent):
            dispatchLiveness(livenessEvent)
        }
    }

    /// `fault late-delivery`: holds one due delivery back; the platform delivers it late.
    /// Returns true when `event` was held (it is re-queued, and runs as usual when it comes back).
    func holdBackDelivery(_ id: AlarmUUID, _ event: WorldEvent) -> Bool {
        if let held = lateHeld.firstIndex(of: id) {
            lateHeld.remove(at: held)
            if case .daemon(.fire(_, let generation)) = event, let heldGeneration = lateHeldGenerations[id], generation != heldGeneration,
               lateOracleFires.contains(where: { $0.ringID == id && $0.fireWallMs == wallMs }) {
                // The platform re-armed the held ring (a clock set back moved its `.relative`
                // time) and this is the re-armed fire, on time in the new frame: the held delivery
                // is dropped, as when it comes back after the re-arm (`isDeliveryToHold`, ios seed
                // 5370), and the occurrence begins at this fire — no correction inside it (REC-9;
                // ios uniform seed 57292: a3.tue's 09:29 held, a 90 s set-back at 09:30:29, the
                // alert at 09:29:00 again, and the expiry judged 90 s early). Only a fire at the
                // held ring time itself, which the set-back clock reached again (its oracle fire
                // time opens the occurrence there): a forward jump's re-armed fire at the landing
                // is the held delivery, delivered at the jump (ios uniform seed 2143).
                lateOracleFires.removeAll { $0.ringID == id }
                record("oracle", "late-delivery-dropped-by-rearm", [TraceField("id", id.description)])
                withdrawPassOverOfDroppedDelivery(id)
                return false
            }
            lateHeldFireWallMs[id] = nil
            releaseLateOracleFires(id)  // the held delivery is back: run it
            cover(.lateDelivery)
            return false
        }
        guard let delay = lateDeliveryMs else { return false }
        lateDeliveryMs = nil
        lateHeld.append(id)
        noteHeldRing(id)
        deferOracleFire(forHeld: id)
        record("fault", "late-delivery", [TraceField("id", id.description), TraceField("delay-ms", String(delay))])
        enqueue(event, afterMs: delay)
        return true
    }

    /// `fault late-delivery` on Android: AlarmManager batches due alarms behind one kernel wakeup
    /// (no per-ring fire event), so the hold is placed in the model on the alarm the wakeup would
    /// deliver first, setAlarmClock included (``AlarmManagerModel/holdNextDue(forMs:)``). The
    /// oracle's occurrence waits for the delivery, as on iOS; the ring's inactivity clock still
    /// runs from its configured ring time (INACT-3). With nothing due, the fault waits for the
    /// next wakeup.
    func holdAndroidDelivery() {
        guard let delay = lateDeliveryMs else { return }
        var held: AlarmUUID?
        onAlarmManager { manager in
            held = manager.holdNextDue(forMs: delay)
            return []
        }
        guard let id = held else { return }
        lateDeliveryMs = nil
        lateHeld.append(id)
        noteHeldRing(id)  // snooze-window: a held snooze ring is the platform's lateness, not the bridge's
        let pending = android?.alarm(id)
        if let pending { androidHeldTriggers[id] = (pending.triggerWallMs, pending.metadata, wallMs - nowMs) }
        deferOracleFire(forHeld: id, fireWallMs: pending?.triggerWallMs)
        record("fault", "late-delivery", [TraceField("id", id.description), TraceField("delay-ms", String(delay))])
    }

    /// Android: a delivery the late-delivery fault held back has come: its root is due now.
    func releaseAndroidHold(_ id: AlarmUUID) {
        guard let index = lateHeld.firstIndex(of: id) else { return }
        lateHeld.remove(at: index)
        androidReleasing = androidHeldTriggers.removeValue(forKey: id)
        defer { androidReleasing = nil }
        releaseLateOracleFires(id)
        cover(.lateDelivery)
        applyHeldDeliveryClockShift()
    }

    /// REC-9: the clock corrections (ms) made since the ring time of the held Android delivery
    /// being released now (``androidReleasing``) for `rootID` at `fireWallMs`; 0 for any other.
    /// Android swarm seed 10378 once inexact releases were shifted (seed 757): a1's 05:56 and
    /// a2.tue's 06:22, both reached before a 10 min set-back and delivered together after it;
    /// a1's occurrence, in the corrected frame, held a2.tue's ring time only in that frame.
    func releasingShiftMs(rootID: String, fireWallMs: Int64) -> Int64 {
        guard let held = androidReleasing, held.metadata.rootID == rootID, held.triggerWallMs == fireWallMs else { return 0 }
        return (wallMs - nowMs) - (releasingReachedWallMinusTrueMs ?? held.wallMinusTrueMs)
    }

    /// REC-9: the occurrence a held Android delivery (``androidReleasing``) opened began at its
    /// configured ring time, before the delivery; a manual clock correction in between is one
    /// "since the occurrence began", and moves its deadline as the bridge moves it (android seed
    /// 2143 of the fault catalog: +1 h, 2 s after 08:15). Also for an inexact primary delivered
    /// late (World+InexactDelivery.swift; android uniform seed 757).
    func applyHeldDeliveryClockShift() {
        guard let held = androidReleasing, let index = oracle.liveIndex, oracle.occurrences[index].openedAtMs == nowMs,
              oracle.occurrences[index].rootID == held.metadata.rootID, oracle.occurrences[index].startWallMs == held.triggerWallMs else { return }
        let shift = (wallMs - nowMs) - held.wallMinusTrueMs
        guard shift != 0 else { return }
        oracle.occurrences[index].clockOffsetMs += shift
        record("oracle", "late-delivery-clock-offset", [TraceField("root", held.metadata.rootID), TraceField("shift-ms", String(shift))])
        enqueue(.oracleDeadline(occurrence: oracle.occurrences[index].id), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
    }

    /// True for a fire the daemon would alert on (still scheduled under the event's generation),
    /// and for the very fire an injected hold held back: it comes back as the late delivery even
    /// when the ring was cancelled meanwhile (the oracle's occurrence then finds nothing ringing,
    /// as known defect `cancel-past-fire-time` must). A stale fire of another generation is neither.
    /// A held fire whose alarm the platform itself re-armed meanwhile (a clock set back moved it to
    /// its next time) is dropped by the platform: the oracle drops the late fire too (ios seed 5370).
    func isDeliveryToHold(_ id: AlarmUUID, generation: UInt64) -> Bool {
        if lateHeld.contains(id), lateHeldGenerations[id] == generation {
            guard let entry = ios?.alarm(id), entry.generation != generation else { return true }
            lateHeld.removeAll { $0 == id }
            lateOracleFires.removeAll { $0.ringID == id }
            record("oracle", "late-delivery-dropped-by-rearm", [TraceField("id", id.description)])
            withdrawPassOverOfDroppedDelivery(id)
            replanHeldOneShot(entry.metadata)
            return false
        }
        guard let daemon = ios, daemon.poweredOn, let entry = daemon.alarm(id) else { return false }
        return entry.generation == generation && entry.state == .scheduled
    }

    /// REC-8 as truth: a time-zone change that moved a `.relative` ring whose delivery is held
    /// back drops that delivery at the change (the platform re-armed the ring for its next local
    /// time), whatever the app does to the ring afterwards — `isDeliveryToHold` otherwise learns of
    /// the re-arm only when the held fire returns, and a ring the bridge cancelled meanwhile (the
    /// moved one-shot's old ID, ID-2) looked like a held delivery it had cancelled (ios uniform
    /// seed 6279).
    func dropHeldDeliveriesRearmed() {
        for id in lateHeld {
            guard let generation = lateHeldGenerations[id], let entry = ios?.alarm(id), entry.generation != generation else { continue }
            lateHeld.removeAll { $0 == id }
            lateOracleFires.removeAll { $0.ringID == id }
            record("oracle", "late-delivery-dropped-by-rearm", [TraceField("id", id.description)])
            withdrawPassOverOfDroppedDelivery(id)
            replanHeldOneShot(entry.metadata)
        }
    }

    /// OCC-3 with the glossary's "an occurrence begins at its configured ring time once
    /// delivered", REC-9: a held delivery the platform dropped by re-arming its ring (a set-back or
    /// a zone change moved its `.relative` time) was never delivered, so no pass-over came of that
    /// ring time. The oracle's fire-time event may have run at the ring time just before the hold
    /// took the delivery and judged it passed over (a hold defers only an occurrence the oracle
    /// opened or tied, `deferOracleFire`; when the hold runs first the fire waits in
    /// `lateOracleFires` and the drop discards it): that judgement is withdrawn, and the re-armed
    /// fire is judged afresh when it comes, as a dropped held fire that opened nothing is (ios
    /// uniform seed 57292). Not when a bridge step saw the pass-over (`passedOverRingTimes`). (ios
    /// uniform seed 68405: a3.sun's 08:28 held inside a1's occurrence; a 10 min set-back re-armed
    /// it; a1 completed at the re-lived 08:27; a3.sun rang at 08:28 again with nothing live and the
    /// bridge opened it, while the oracle read a closed occurrence redelivered.)
    func withdrawPassOverOfDroppedDelivery(_ id: AlarmUUID) {
        guard let fire = lateHeldFireWallMs.removeValue(forKey: id), let metadata = groundTruthMetadata(id),
              metadata.kind.opensOccurrence,
              let index = oracle.passedOver.lastIndex(where: { $0.rootID == metadata.rootID && $0.fireWallMs == fire }) else { return }
        let seen = PassedOverRingTime(rootID: metadata.rootID, ringTimeMs: fire)
        if (process.document ?? storedDocument)?.passedOverRingTimes?.contains(seen) == true { return }
        oracle.passedOver.remove(at: index)
        record("oracle", "pass-over-withdrawn", [TraceField("root", metadata.rootID), TraceField("ring-time", String(fire))])
    }

    /// REC-8 as truth: a one-shot whose held delivery the platform dropped by re-arming its ring
    /// (a time-zone change moved the `.relative` one-shot to the next time the clock shows its
    /// hh:mm) never rang: the user's one-shot means that next time (ios seed 6612: 07:57 New York
    /// held, the zone became UTC, it rang at 07:57 UTC the next morning as a1's occurrence).
    func replanHeldOneShot(_ metadata: RingMetadata) {
        guard metadata.kind == .primary, let index = alarms.firstIndex(where: { $0.id == metadata.alarmID }),
              case .once(let fire) = alarms[index].repeats, fire <= wallMs else { return }
        let alarm = alarms[index]
        alarms[index].repeats = .once(fireWallMs: calendar.nextFire(hour: alarm.hour, minute: alarm.minute, weekday: nil, after: wallMs))
        unscheduleOracleFireTimes(alarmID: alarm.id)
        scheduleOracleFireTimes(for: [alarm.id])
    }

    /// A root whose occurrence waits for a held delivery becomes due when another of its rings
    /// opens the same fire time on time (ios seed 9014: a ring of the previous schedule was held,
    /// the new primary alerted at 05:34); the held ring's late return then opens nothing.
    func releaseLateOracleFires(openedBy id: AlarmUUID, _ metadata: RingMetadata) {
        guard metadata.kind.opensOccurrence, !lateHeld.contains(id) else { return }
        let fire = ios?.alarm(id)?.nextFireWallMs ?? android?.alarm(id)?.triggerWallMs
        let due = lateOracleFires.filter { $0.rootID == metadata.rootID && $0.fireWallMs == fire }
        guard !due.isEmpty else { return }
        lateOracleFires.removeAll { $0.rootID == metadata.rootID && $0.fireWallMs == fire }
        for entry in due {
            oracleFireTime(rootID: entry.rootID, alarmID: entry.alarmID, fireWallMs: entry.fireWallMs, deliveredLate: true,
                           clockOffsetMs: entry.clockOffsetMs)
        }
    }

    func releaseLateOracleFires(_ id: AlarmUUID) {
        let due = lateOracleFires.filter { $0.ringID == id }
        lateOracleFires.removeAll { $0.ringID == id }
        for fire in due {
            oracleFireTime(rootID: fire.rootID, alarmID: fire.alarmID, fireWallMs: fire.fireWallMs, deliveredLate: true,
                           clockOffsetMs: fire.clockOffsetMs)
        }
    }

    // MARK: - The app process

    func configuration() -> BridgeConfiguration {
        if let configurationMemo { return configurationMemo }
        var configuration = BridgeConfiguration(flavor: setup.platform, calendar: calendar,
                                                defects: KnownDefect.switches(defects))
        configuration.publicationGraceMs = setup.publicationGraceMs
        configuration.minSnoozeLeadMs = setup.minSnoozeLeadMs
        configuration.clockChangeThresholdMs = setup.clockChangeThresholdMs
        configuration.imminentHorizonMs = setup.imminentHorizonMs
        configuration.contextHeartbeatLifetimeMs = setup.contextHeartbeatLifetimeMs
        configuration.wakeSessionDeadlineMs = setup.wakeSessionDeadlineMs
        configuration.recentStepWindowMs = setup.recentStepWindowMs
        configuration.skipHorizonMs = setup.skipHorizonMs  // CAP-8
        configuration.skipOccurrenceMax = setup.skipOccurrenceMax
        configuration.alarmKitAvailable = setup.platform != .ios || setup.ios.alarmKitAvailable  // SCH-26
        configuration.credentialStoredSounds = setup.platform == .android ? setup.android.credentialStoredSounds : []  // SND-9, issue 18
        configurationMemo = configuration
        return configuration
    }

    func launch(_ reason: LaunchReason) {
        process.incarnation += 1
        if firstLaunchMs == nil { firstLaunchMs = nowMs }
        process.running = true
        process.upSinceMs = nowMs
        process.active = false
        process.bridge = bridgeFactory.make(configuration())
        noteKillSwitchHoldEnded()  // BOOT-12: a new process starts with scheduling enabled
        process.storeReadFailed = false
        process.storeReadSucceeded = false
        process.challengeShown = false
        syncProbePending = false
        record("app", "launch", [TraceField("reason", reason.rawValue), TraceField("incarnation", String(process.incarnation))])
        step(.processStarted(reason, exits: androidExitRecords()))
        jsReportsCachedPreferences()  // BOOT-3: JS's cached, possibly stale view
        walkProcessLaunched()  // WALK-4, WALK-23
    }

    /// iOS: a background process runs for a limited budget, then is suspended (it is not killed:
    /// its memory survives, and an intent or the user resumes it). The budget is a parameter:
    /// Apple documents no number for AlarmKit intent launches.
    func startBackgroundBudget() {
        guard setup.platform == .ios, process.running, !process.active, let budget = setup.backgroundExecutionMs,
              !walkKeepsProcessRunning else { return }  // a running workout keeps the process executing
        process.suspensionToken += 1
        enqueue(.suspend(incarnation: process.incarnation, token: process.suspensionToken), afterMs: budget)
    }

    /// Resumes a suspended process: what waited for it runs first, in order.
    func resume() {
        process.suspensionToken += 1
        guard process.suspended else { return }
        process.suspended = false
        process.upSinceMs = nowMs
        record("app", "resumed", [TraceField("held", String(process.heldEvents.count))])
        for event in process.heldEvents { enqueue(event, afterMs: 0) }
        process.heldEvents = []
    }

    func kill(_ reason: String) {
        guard process.running else { return }
        if inLockedBootPhase {
            // A death mid-restore hits every root; a later one only the re-arms still owed to
            // deliveries of this locked phase (RestoreFault.deliveredRoots).
            if process.bridge?.hasRequestsInFlight ?? true { liveness.restoreFault.everyRoot = true }
            for rootID in liveness.restoreFault.deliveredRoots where !liveness.restoreFault.roots.contains(rootID) {
                liveness.restoreFault.roots.append(rootID)
            }
        }
        if unseenShiftHeldByGatedProcess, process.lastReadyStepMs < lastBootMs, reason != "reboot" {
            revertUnseenLiveShift()  // the correction dies with the gated process's readings (REC-9)
        }
        unseenShiftHeldByGatedProcess = false
        ghostEndsUnseenAtDeath()  // issue 18: held sets die with the process
        removedAlertDiesUnseen()  // so does a held set showing an OS-removed alert
        widenUnobservedJumpAtDeath()  // clock-jump-ambiguous-start (REC-9)
        walkProcessDied(reason)  // WALK-7, WALK-25
        walkWorld.stepCreditPending = nil  // the queued step event died with the process
        jsSavesProcessDied(reason)  // API-19: the persisted definition stands
        process.running = false
        process.active = false
        process.bridge = nil
        process.suspended = false
        process.heldEvents = []
        noteAndroidExit(reason)  // ApplicationExitInfo (API 30+)
        record("app", "process-death", [TraceField("reason", reason)])
        platformStopBurst(nil)  // an in-app burst dies with its process
        onAlarmManager { $0.processDied() }
        androidProcessDied()
    }

    /// What a bridge step reads of the device now: the wall and monotonic clocks (virtual ms), the
    /// zone in force, the boot and whether the user unlocked since it. One definition for every
    /// step and for the idempotent-sync probe, whose second sync must see the instant the first
    /// would see now (SCH-20: "no intervening change"; it had passed boot 0, no zone and an
    /// unlocked user, so after a reboot its bridge took its clock anchor for another boot's).
    var bridgeInstants: BridgeInstants {
        BridgeInstants(wallMs: wallMs, monotonicMs: clock.monotonicMs, zoneIdentifier: calendar.zoneIdentifier,
                       bootCount: bootCount, userUnlocked: android?.userUnlocked ?? true)
    }

    /// One bridge step: the input, then every command in order.
    func step(_ input: BridgeInput) {
        guard let wasReady = process.isAcceptingInputs else { return }  // the didSet cache: nil without a bridge
        let documentBefore = process.document  // the didSet cache of `bridge.document`
        // Only a seed that kills processes mid-close reads these (``deathMidCloseCut(before:after:commands:)``).
        let unexecutedClosures = setup.deathMidCloseRate == nil ? []
            : oracle.occurrences.filter { $0.firstExecutionAfterCloseMs == nil }.map(\.id)
        stepInput = input
        defer { stepInput = nil; checkHonestAudibleRecord() }
        noteStopArrival(input)  // OCC-6: the Stop's instant, before the bridge looks first
        if case .scheduleCompleted(let id, .failure) = input {
            refusedSchedules.append(id)
            if refusedSchedules.count > 64 { refusedSchedules.removeFirst() }
        }
        // adoptStaleZoneReading's, which reads them only after a zone change (a device event, never a step's).
        let alertingBefore = calendarBeforeZoneChange == nil ? []
            : ios.map { daemon in daemon.alarms.matching(state: .alerting).map { daemon.alarms[$0].id } } ?? []
        noteDroppedRequestExposure(input, ready: wasReady)  // issue 18
        // The bridge handles the input in its place, its box referenced only there, so the
        // existential is mutated in place, never copied (issue 19: the port costs no copy per
        // step), and its caches are read once after (issue 20: taking it out and putting it back
        // ran the observer twice).
        let commands = process.handle(input, at: bridgeInstants)
        guard let bridge = process.bridge else { return }  // this step's result, read below
        let documentAfter = process.document
        lastBridgeReadingWallMs = wallMs  // the bridge read the clock (clockAnchor)
        record("bridge", "input", [TraceField("input", describe(input))])
        let releaseCredit = (id: oracle.pendingCredit, roots: oracle.pendingCreditRoots,
                             previous: oracle.liveIndex.flatMap { oracle.occurrences[$0].lastActivityMs })
        if !wasReady && bridge.isAcceptingInputs { oracleGateReleased() }
        if bridge.phase == .ready {
            process.lastReadyStepMs = nowMs
            process.lastReadyWallMinusTrueMs = wallMs - nowMs
            if inputShowsDaemon(input) {
                if process.lastDaemonViewStepMs != nowMs { process.priorDaemonViewStepMs = process.lastDaemonViewStepMs }
                process.lastDaemonViewStepMs = nowMs
            }
            if zoneChangeObservedMs == nil { zoneChangeObservedMs = nowMs }
            if clockJumpObservedMs == nil { clockJumpObservedMs = nowMs }
            if let exemption = faultExemption, exemption.sinceMs <= nowMs, stepCouldObserveFault(input) { faultExemption = nil }
            unseenShiftHeldByGatedProcess = false
            oracleNoteExecution(showsDaemon: inputShowsDaemon(input))
        }
        if case .scheduleCompleted(let id, .failure(.maximumLimitReached)) = input, wasReady,
           let metadata = requestMetadata[id], metadata.kind.opensOccurrence {
            // primary-horizon (CAP-9): a refusal the bridge saw must reach the dropped count.
            oracle.capacityRefused.append((metadata.rootID, id, nowMs))
            if oracle.capacityRefused.count > 64 { oracle.capacityRefused.removeFirst() }
        }
        if case .stopIntent(let id) = input { oracleCredit(id, creditNow: wasReady) }
        if case .ringDismissed(let id) = input { oracleCredit(id, creditNow: wasReady) }
        oracleVolumeDismissal(input, creditNow: wasReady)  // INACT-6
        noteRecordedActions(before: documentBefore, after: documentAfter)  // invariant 31, by identity
        checkActionJournalStep(input, before: documentBefore, after: documentAfter)  // ACT-3, ACT-4
        if documentBefore?.liveOccurrence.map({ $0.deadlineMs > wallMs }) ?? true {  // not an expiry step
            checkOwnershipValidation(input, before: documentBefore, commands: commands)
        }
        checkWrongInstantAlerts()  // issue 18: before the step's commands run (ID-8, OCC-2)
        if case .api(.completeChallenge(let rootID, let token)) = input { launchState.completionRequested = (rootID, token) }
        walkObserve(input, wasReady: wasReady)
        // legacy-migration: the commands of the step that migrated an older document.
        migrationWatch.migrationStep = (documentBefore?.schemaVersion ?? BridgeDocument.currentSchemaVersion) < BridgeDocument.currentSchemaVersion
            && !bridge.needsMigration && documentAfter != nil
        defer { migrationWatch.migrationStep = false }
        noteSaveInput(input)  // invariant 30
        let cut = deathMidCloseCut(before: documentBefore, after: documentAfter, commands: commands)
        for (index, command) in commands.enumerated() {
            guard process.running, process.phase != nil else { break }  // the cache: nil exactly without a bridge (no copy of it)
            if index == cut {
                dieMidClose(after: index, of: commands.count)
                closeDurably(input, executed: commands.prefix(index))
                forgetDyingExecution(unexecutedClosures)
                if !wasReady { keepUnwrittenReleaseCredit(releaseCredit, executed: commands.prefix(index)) }
                return  // the step's decisions died with its process; nothing after them ran
            }
            execute(command)
        }
        checkRowsKept(before: documentBefore, after: documentAfter, commands: commands)  // invariant 41
        checkProofsClearedOnLeaving(input, wasReady: wasReady)  // SCH-18
        checkMissReceiptAcknowledgement(input, before: documentBefore, after: documentAfter, commands: commands)  // API-20
        notePassOversObserved(input, bridge: bridge)  // invariant 13 on iOS (OCC-3)
        if let accepting = process.isAcceptingInputs, let phase = process.phase {  // the current bridge's, as cached
            noteStopsHandled(accepting: accepting)
            noteSnoozeCorrectionSeen(phase: phase)
        }
        noteMissedSyncRead(input, bridge: bridge)  // missed-day-recorded
        noteRefusalSeen(input)  // missed-day-recorded, iOS
        coverStep(input, bridge: bridge, before: documentBefore, commands: commands)
        adoptBridgeTieOwner(bridge)  // OCC-2: a tie no audible silencing settled (first: the owner is matched next)
        adoptAmbiguousWrongInstant(bridge)  // issue 18: a wrong-instant alert seen close to its time
        adoptAmbiguousStart(bridge)
        adoptBootHiddenJumpStart(bridge)
        adoptBootHiddenSetBackStart(bridge)
        adoptStaleZoneReading(bridge, alertingBefore: alertingBefore)
        launchState.completionRequested = nil
        switch input {
        case .inventoryRead(let purpose, .success):
            syncProbePending = purpose != .launchGate && purpose != .observe && !purpose.isSaveVerification
            syncProbePurpose = purpose
        case .scheduleCompleted, .cancelCompleted, .stopCompleted, .alarmUpdates, .timerFired(.expiryCheck): break
        default: syncProbePending = false  // anything else may change what the sync wants
        }
    }

    func readStore() -> Result<BridgeDocument?, StoreReadError> {
        switch setup.platform {
        case .ios:
            guard protectedDataAvailable else { return .failure(.unavailable) }
            // BOOT-5: a damaged domain exists but cannot be read; the damage begins at the first
            // read that finds the domain and lasts its drawn window (true ms).
            if storedDocument != nil, let pending = storeDamage.pendingMs {
                storeDamage = StoreDamage(untilMs: nowMs + pending)
            }
            if storedDocument != nil, storeDamaged { return .failure(.damaged) }
            return .success(storedDocument)
        case .android: return .success(storedDocument)  // device-protected storage (AND-2)
        }
    }

    /// AND-5, fault `foreground-repair-failure`: a schedule request of a launch or resume sync
    /// fails while the seed's count lasts; `getScheduledAlarmTimes`'s repair of such a ring is the
    /// situation AND-5 exists for (coverage `scheduled-times-repair-after-failed-sync`).
    func noteForegroundRepair(_ id: AlarmUUID) {
        guard android != nil, !liveness.healed, case .inventoryRead(let purpose, .success) = stepInput else { return }
        if purpose == .scheduledTimes, foregroundRepairFailed.contains(id) {
            cover(.scheduledTimesRepairAfterFailedSync)
            foregroundRepairFailed.removeAll { $0 == id }
        } else if purpose == .launchSync || purpose == .resumeSync, foregroundRepairFailuresLeft > 0 {
            foregroundRepairFailuresLeft -= 1
            foregroundRepairFailed.append(id)
            android!.failNextSchedules += 1
            record("fault", "foreground-repair-failure", [TraceField("id", id.description)])
        }
    }

    /// True while the saved domain is damaged (BOOT-5: it exists, and cannot be read).
    var storeDamaged: Bool { storeDamage.untilMs.map { nowMs < $0 } ?? false }

    func readInventory(_ purpose: InventoryPurpose) -> Result<[PlatformAlarm], PlatformError> {
        if ios != nil {
            let read = ios!.readAlarms()
            // The lag is applied to SCH-9's verification reads only: on every read it turns
            // syncs red that re-register or drop a just-scheduled ring (idempotent-sync, and
            // rows-kept-for-observer SCH-4: ios swarm seeds 477, 584, 1087) — open, not yet
            // classified (issue 16 part 4).
            return purpose.isSaveVerification ? withReadLag(read) : read
        }
        return android!.readPending()
    }

    /// iOS read-after-write lag (`ios.read-lag-max-ms`, fault `read-after-write-lag`): an alarm
    /// whose schedule completed less than its drawn lag ago is not listed yet (SCH-9's reason for
    /// three reads). A failed read stays failed.
    func withReadLag(_ read: Result<[PlatformAlarm], PlatformError>) -> Result<[PlatformAlarm], PlatformError> {
        readLagUntil.removeAll { $0.untilMs <= nowMs }
        guard case .success(let alarms) = read, !readLagUntil.isEmpty else { return read }
        let hidden = alarms.filter { alarm in readLagUntil.contains { $0.id == alarm.id } }
        guard !hidden.isEmpty else { return read }
        cover(.readAfterWriteLag)
        record("ios", "read-lag", [TraceField("unlisted", hidden.map(\.id.description).joined(separator: ","))])
        return .success(alarms.filter { alarm in !hidden.contains { $0.id == alarm.id } })
    }

    /// A schedule call succeeded: with the read-after-write lag on, reads list the alarm only
    /// after a drawn lag (in-run stream `ios.daemon.read-lag`; drawn only when the lag is on).
    func noteReadLag(_ id: AlarmUUID) {
        guard ios != nil, setup.ios.readLagMaxMs > 0, !liveness.healed else { return }
        let lag = readLagRNG.int(in: 0...setup.ios.readLagMaxMs)
        readLagUntil.removeAll { $0.id == id }
        if lag > 0 { readLagUntil.append((id, nowMs + lag)) }
    }

    func execute(_ command: BridgeCommand) {
        switch command {
        case .loadStore:
            enqueue(.storeRead(incarnation: process.incarnation), afterMs: 15)
        case .loadJournal:
            enqueue(.toProcess(.journalLoaded(unprotectedJournal), incarnation: process.incarnation), afterMs: 0)
        case .loadCredentialProtectedStore, .deleteCredentialProtectedStore:
            executeStorage(command)  // AND-4, World+Migration.swift
        case .readNextAlarmClock:
            // Issue 18: `getNextAlarmClock()` is synchronous; its answer is the next input.
            let trigger = android?.nextAlarmClockWallMs
            enqueue(.toRunningApp(.nextAlarmClockRead(triggerWallMs: trigger)), afterMs: 1)
        case .playSystemSound(let id):
            if let manager = android, !manager.userUnlocked, manager.ringingStatus(id) == nil,
               let sound = process.document?.row(id)?.soundName,
               manager.parameters.credentialStoredSounds.contains(sound) { cover(.credentialSoundFallbackBeforeUnlock) }  // SND-9, issue 18
            onAlarmManager { $0.playSystemSound(id) }
        case .appendJournal(let entry):
            unprotectedJournal.append(entry)
            record("store", "journal", [TraceField("entries", String(unprotectedJournal.count))])
        case .persistJournal(let entries):
            unprotectedJournal = entries
            record("store", "journal", [TraceField("entries", String(entries.count))])
        case .persist(let document):
            checkMigrationPersist(document)  // migration-keeps-valid (World+Migration.swift)
            let writable = setup.platform == .android || protectedDataAvailable
            record("store", writable ? "persist" : "persist-failed",
                   [TraceField("rings", String(document.rings.count)), TraceField("occurrences", String(document.occurrences.count))])
            if writable {
                checkPersistedOccurrences(document)  // invariants 12, 17, 22
                storedDocument = document
            }
        case .schedule(let request, let origin):
            checkPlatformCall(ringID: request.id, alarmID: request.metadata.alarmID, origin: origin, isCancel: false)
            checkStableID(request)
            adoptAmbiguousStartBeforePressure(request)
            checkPressureBelongsToOwner(request)
            checkSuccessorFireTime(request, origin: origin)  // invariant 4: trigger + 10 s (OCC-6)
            checkRecurrenceRequest(request)  // invariant 44
            checkCapacityRequest(request)  // invariant 29
            requestFires[request.id] = request.fireWallMs
            // iOS: a new request for a refused ring supersedes the refusal's evidence: an answer to
            // it no process sees leaves the ring time unknowable (`noteMissedOccurrence`).
            seenRefusals.removeAll { $0.ringID == request.id && $0.fireWallMs > wallMs }
            // CAP-9: likewise a direct save's new request for a ring the limit refused before (a
            // failed save retried): the new answer decides; one no process sees leaves the root
            // to `primary-unregistered-by-fault` (ios uniform seed 17881, shrunk: the retried
            // one-shot's refusal came after its process died, and the refusal of the failed
            // save, rolled back and reported, was taken as one the dropped count must name).
            if origin == .directSave { oracle.capacityRefused.removeAll { $0.ringID == request.id } }
            supersedeCapacityRefusals(by: request)
            oracleBind(request)
            checkWalkFuseRequest(request, origin: origin)
            checkNoLegacyRingCreated(request)  // BOOT-11, WALK-13
            checkPublishBeforeWrite(request, origin: origin)  // invariant 40
            if request.metadata.kind == .snooze { snoozeWatch?.lastRequestAtMs = nowMs }  // AMS MIN_FUTURITY
            record("bridge", "schedule", [TraceField("id", request.id.description), TraceField("kind", request.metadata.kind.rawValue),
                                          TraceField("root", request.metadata.rootID), TraceField("schedule", request.schedule.description),
                                          TraceField("origin", origin.rawValue)])
            if let rate = setup.requestFailureRate, !liveness.healed, randomBehaviourActs, requestFaultRNG.chance(rate) {
                ios?.failNextSchedules += 1
                android?.failNextSchedules += 1
            }
            noteForegroundRepair(request.id)  // AND-5 (fault foreground-repair-failure)
            onDaemon { $0.schedule(request) }
            setClockBackAfterTrigger(request)  // fault clock-set-back-after-trigger
            if request.precision == .allowWhileIdle {
                if android?.canScheduleExactAlarms == false, !inexactWhileRefused.contains(request.id) {
                    inexactWhileRefused.append(request.id)
                }
                onAlarmManager { $0.setAndAllowWhileIdle(request, nowWallMs: wallMs) }  // AND-1, AND-3: degraded
            } else {
                onAlarmManager { $0.setAlarmClock(request, nowWallMs: wallMs) }
            }
            maybeInterleavingDeath()
        case .cancel(let id, let origin):
            checkPlatformCall(ringID: id, alarmID: groundTruthMetadata(id)?.alarmID, origin: origin, isCancel: true)
            checkReceiptFirst(id, origin: origin)
            checkNoCollateralDamage(id, origin: origin)
            checkArmBeforeRetire(id, origin: origin, isCancel: true)
            checkCapacityCancel(id, origin: origin)  // invariant 29
            checkFuseRetire(id, origin: origin)
            checkMigrationCancel(id)  // BOOT-9, BOOT-10: no valid configured primary cancelled
            checkSnoozeSparedInForeground(id, origin: origin, isCancel: true)  // SNZ-17, SNZ-10
            record("bridge", "cancel", [TraceField("id", id.description), TraceField("origin", origin.rawValue)])
            onDaemon { $0.cancel(id) }
            onAlarmManager { $0.cancel(id) }
        case .stop(let id, let origin):
            checkReceiptFirst(id, origin: origin)
            checkAndroidStop(id)  // invariant 45
            if origin == .lifecycle { oracleTiedPassOver(id) }
            checkArmBeforeRetire(id, origin: origin, isCancel: false)
            checkFuseRetire(id, origin: origin)
            checkSnoozeSparedInForeground(id, origin: origin, isCancel: false)  // SNZ-17, FG-1
            record("bridge", "stop", [TraceField("id", id.description), TraceField("origin", origin.rawValue)])
            onDaemon { $0.stop(id, nowWallMs: wallMs, byUser: false) }
            onAlarmManager { $0.stopRinging(id) }
        case .startRinging(let id):
            // The ringing service reads the ring's persisted record, sound included (SND-5).
            guard let row = process.document?.row(id) else { return }
            onAlarmManager { $0.startRinging(id, metadata: row.metadata, soundName: row.soundName) }
        case .startBurst(let request):
            platformStartBurst(request)
        case .stopBurst(let id):
            platformStopBurst(id)
        case .readInventory(let purpose):
            syncReadMs = nowMs
            syncReadWallMs = wallMs
            inventoryReadsOutstanding += 1
            if case .verifySave(let alarmID) = purpose { noteVerifyReadIssued(alarmID) }  // invariant 30
            enqueue(.inventoryRead(purpose, incarnation: process.incarnation), afterMs: 2)
        case .setTimer(let kind, let delayMs):
            let incarnation = process.incarnation
            // Every queued timer of this kind and incarnation is replaced (lazily: runEvents drops it).
            if let replaced = queuedTimers.removeValue(forKey: TimerKey(kind: kind, incarnation: incarnation)) {
                cancelledTimerSequences.formUnion(replaced)
            }
            enqueue(.timer(kind, incarnation: incarnation), afterMs: delayMs)
        case .launchGate(let state):
            record("bridge", "launch-gate", [TraceField("state", state.rawValue)])
            checkLaunchGateRelease(state)  // invariants 35, 38
        case .reply(let reply):
            record("bridge", "reply", [TraceField("reply", ReplyText.text(reply))])
            checkRootIDsOutward(reply)  // invariant 42
            checkScheduledTimes(reply)  // invariants 24, 25
            if case .scheduledAlarmTimes(let times) = reply { lastScheduledTimes = .answered(times) }
            if case .scheduledAlarmTimesRejected = reply { lastScheduledTimes = .rejected }
            checkVerifiedSave(reply)  // invariant 30
            jsSaveReplied(reply)  // API-19, SCH-8: the app reacts
            if case .completed(let rootID, true) = reply { oracleCompleted(rootID: rootID) }
            if case .snoozeAccepted(_, let untilMs) = reply {
                oracleSnoozeAccepted(untilMs: untilMs)
                watchSnooze(untilMs: untilMs)  // SNZ-20: followed to its ring
                correctClockDuringSnooze(untilMs: untilMs)  // fault clock-change-during-snooze
            }
            if case .snoozeRejected = reply { checkFailedSnoozeChangedNothing() }
            if case .abandoned(true) = reply, let index = oracle.liveIndex { oracleClose(index, reason: "abandoned") }
            if case .lastAlarmAction(let record) = reply { jsGotLastAction(record) }
            if case .abandonedWakeOccurrences(let listed) = reply { jsGotMissReceipts(listed) }
            if case .activeWakeOccurrence(let answer) = reply { checkActiveOccurrenceAnswer(answer) }
            walkReply(reply)
        case .note(let text):
            record("bridge", "note", [TraceField("text", text)])
        case .readReceipts, .writeReceipt, .deleteReceipt, .writeFailedWakeDay, .checkKillSwitch, .remoteScheduling:
            executeLaunch(command)
        case .startWorkout, .endWorkout, .queryRecentSteps:
            executeWalk(command)
        case .setStepTracking(let on):
            setStepTracking(on)
        case .startRingingSuppressionExempt(let id):
            guard let row = process.document?.row(id) else { return }
            onAlarmManager { $0.startRingingSuppressionExempt(id, metadata: row.metadata, soundName: row.soundName) }  // SND-5
        case .setMainActivityShowWhenLocked(let on):
            onAlarmManager { $0.setMainActivityShowWhenLocked(on) }
        }
    }

    /// Fault kind `death-mid-close` (issue 16 part 4 item 1): for a step that closes the live
    /// occurrence (completion, expiry, abandonment) or hands it on (a successor arm, a snooze
    /// skip), with two or more commands, the index of the command before which the process dies
    /// (1...n-1: at least one command ran, at least one did not); nil for no death.
    func deathMidCloseCut(before: BridgeDocument?, after: BridgeDocument?, commands: [BridgeCommand]) -> Int? {
        guard let rate = setup.deathMidCloseRate, !liveness.healed, randomBehaviourActs, commands.count >= 2 else { return nil }
        // iOS acts on a Stop in the step of its look-first read, which may also open the
        // occurrence (its alert seen first there): a successor of the occurrence live after the
        // step hands it on too.
        let tokens = [before?.liveOccurrence?.token, after?.liveOccurrence?.token].compactMap { $0 }
        let closes = before?.liveOccurrence.map { after?.liveOccurrence?.token != $0.token } ?? false
        let handsOn = commands.contains { command in
            switch command {
            case .schedule(let request, .lifecycle): return request.metadata.kind == .successor && tokens.contains(request.metadata.token ?? "")
            case .reply(.snoozeSkipped): return true
            default: return false
            }
        }
        guard closes || handsOn, deathMidCloseRNG.chance(rate) else { return nil }
        return Int(deathMidCloseRNG.int(in: 1...Int64(commands.count - 1)))
    }

    func dieMidClose(after done: Int, of total: Int) {
        cover(.deathMidClose)
        record("fault", "death-mid-close", [TraceField("after", String(done)), TraceField("of", String(total))])
        kill("process-death")
        noteFault("process-death")
    }

    /// OCC-12, OCC-18, IOS-9: a completion or abandonment that the dying step had already
    /// persisted is durable — the next launch reads it and retires the occurrence's receipt — even
    /// though JS never got the reply the oracle closes on (fault death-mid-close, ios seed 13:
    /// the completion persisted, the process died before its reply, and the next launch's receipt
    /// delete was judged as one of an unfinished occurrence).
    func closeDurably(_ input: BridgeInput, executed: ArraySlice<BridgeCommand>) {
        guard setup.platform == .android || protectedDataAvailable, let index = oracle.liveIndex,
              let persisted = executed.reversed().lazy.compactMap({ command -> BridgeDocument? in
                  if case .persist(let document) = command { return document }
                  return nil
              }).first else { return }
        switch input {
        case .api(.completeChallenge(let rootID, let token)) where persisted.occurrence(token: token)?.state == .completed:
            oracleCompleted(rootID: rootID)
        case .api(.abandonWakeOccurrence) where !persisted.hasLiveOccurrence:
            oracleClose(index, reason: "abandoned")
        default:
            break
        }
    }

    /// IOS-9, OCC-24, IOS-11: a step the process died in is no execution after a closure: the
    /// commands that would retire the closed occurrence's receipt and rings died with it, and the
    /// next process is the first to run after the closure (fault death-mid-close, ios seed 500:
    /// the completion step died before its receipt delete, and the receipt was judged still in
    /// the Keychain 5 s after a bridge that no longer ran). `ids`: occurrences (by oracle id) with
    /// no execution after closure when the step began.
    func forgetDyingExecution(_ ids: [Int]) {
        for index in oracle.occurrences.indices where ids.contains(oracle.occurrences[index].id) {
            oracle.occurrences[index].firstExecutionAfterCloseMs = nil
        }
    }

    /// INACT-4, INACT-13: a queued dismissal is credited when the bridge can validate it, at the
    /// gate's release (``oracleGateReleased()``); a release step that died before it wrote the
    /// credit validated nothing durable, so the credit waits for the next release (fault
    /// death-mid-close, ios seed 161: the Stop that launched the process was credited at a release
    /// whose process died, and the next launch, which replays the journalled Stop, credited it 5 s
    /// later). `credit`: the pending credit and the live occurrence's activity before the release.
    func keepUnwrittenReleaseCredit(_ credit: (id: Int?, roots: [String?], previous: Int64?),
                                    executed: ArraySlice<BridgeCommand>) {
        guard let id = credit.id, oracle.pendingCredit == nil, let index = oracle.liveIndex,
              oracle.occurrences[index].id == id, oracle.occurrences[index].lastActivityMs == wallMs else { return }
        let written = executed.contains { command in
            if case .persist(let document) = command, let live = document.liveOccurrence, (live.lastActivityMs ?? .min) >= wallMs { return true }
            return false
        }
        guard !written else { return }
        oracle.occurrences[index].lastActivityMs = credit.previous
        let roots = credit.roots.compactMap { $0 }
        oracle.occurrences[index].tiedCredits.removeAll { roots.contains($0.root) && $0.wallMs == wallMs }
        oracle.pendingCredit = id
        oracle.pendingCreditRoots = credit.roots
        enqueue(.oracleDeadline(occurrence: id), afterMs: max(0, oracle.occurrences[index].deadlineMs - wallMs))
        record("oracle", "credit-unwritten", [TraceField("occurrence", String(id))])
    }

    /// Process death between a request and its completion (fault kind `process-death-interleaving`).
    func maybeInterleavingDeath() {
        guard let rate = setup.interleavingDeathRate, !liveness.healed, randomBehaviourActs, faultRNG.chance(rate) else { return }
        enqueueReactive(.faultProcessDeath, afterMs: faultRNG.int(in: 0...400))
    }

    // MARK: - Platform effects

    /// Runs one call on the iOS daemon (if this device is an iPhone) and applies its effects.
    /// The model is changed in place: a copy changed and stored back made every array it touched
    /// a fresh copy (issue 20). `call` must not read `ios` (an exclusivity trap if it did).
    func onDaemon(_ call: (inout AlarmKitDaemon) -> [DaemonEffect]) {
        guard ios != nil else { return }
        // Approximation: the phone is locked unless the user is in the app (at night, the
        // sleepy user touches the phone only to stop alarms and to use the app).
        let locked = !(process.running && process.active)
        ios!.screenLocked = locked
        let effects = call(&ios!)
        apply(effects)
    }

    /// Runs one call on AlarmManager (if this device is an Android phone) and applies its effects.
    /// In place, like ``onDaemon(_:)``; `call` must not read `android`.
    func onAlarmManager(_ call: (inout AlarmManagerModel) -> [AlarmManagerEffect]) {
        guard android != nil else { return }
        let instant = AndroidInstant(elapsedRealtimeMs: clock.monotonicMs, wallMs: clock.wallMs)
        let observed = android!.observe(instant)
        let called = call(&android!)
        apply(observed.isEmpty ? called : observed + called)  // the usual empty observation copies nothing (issue 20)
    }

    func apply(_ effects: [DaemonEffect]) {
        for effect in effects {
            switch effect {
            case .toApp(let input, let launch): deliver(input, launch: launch)
            case .later(let event, let afterMs):
                if case .lateFire(let id, _) = event { lateHeld.append(id); noteHeldRing(id); deferOracleFire(forHeld: id) }  // dense-fixed field fault
                if case .deliverSnapshot = event { cover(.coalescedUpdate) }  // IOS-5: changes coalesced into one snapshot
                enqueue(.daemon(event), afterMs: afterMs)
            case .alertStarted(let id, let metadata): lastPlatformChangeMs = nowMs; alertStarted(id, metadata)
            case .alertEnded(let id, let metadata): oracleAlertEnded(id, metadata)
            case .trace(let name, let fields): record("ios", name, fields)
            }
        }
    }

    func apply(_ effects: [AlarmManagerEffect]) {
        for effect in effects {
            switch effect {
            case .toApp(let input, let launch): deliver(input, launch: launch)
            case .later(let event, let afterMs): enqueue(.alarmManager(event), afterMs: afterMs)
            case .alertStarted(let id, let metadata): alertStarted(id, metadata); checkAlarmSurface(id)  // AND-8
            case .alertEnded(let id, let metadata): oracleAlertEnded(id, metadata)
            case .killProcess:
                kill("exact-alarm permission revoked"); noteFault("exact-permission-revoked")
                exactRevokedAtMs = nowMs
            case .trace(let name, let fields):
                record("android", name, fields); checkDeclaredManifest(name, fields)  // AND-1
                if name == "request-dropped" { noteDroppedRequest(fields) }  // issue 18
            case .broadcast(let broadcast, let launch):
                record("android", "broadcast", [TraceField("action", broadcast.action)])
                switch broadcast {
                case .timeSet: deliver(.clockChanged(zoneIdentifier: calendar.zoneIdentifier), launch: launch)
                case .timezoneChanged(let zone): deliver(.clockChanged(zoneIdentifier: zone), launch: launch)
                case .myPackageReplaced: deliver(.packageReplaced, launch: launch)
                case .screenOn, .screenOff, .alarmCount: break  // no bridge input: context receivers only
                }
            case .processKilled(let reason): kill(reason.rawValue); noteFault(reason.rawValue)
            }
        }
    }

    func deliver(_ input: BridgeInput, launch: LaunchReason?) {
        switch input {
        case .scheduleCompleted(let id, let result):
            if case .success = result, let metadata = requestMetadata[id], metadata.kind == .primary {
                oracle.capacityRefused.removeAll { $0.rootID == metadata.rootID }  // registered since
            }
            if case .success = result { noteScheduleResult(id, success: true); noteReadLag(id) } else {
                noteScheduleResult(id, success: false)
                noteSnoozeRearmRefused(id)  // SNZ-21: the existing snooze ring stays
                if inLockedBootPhase, let metadata = requestMetadata[id], metadata.kind == .primary,
                   !liveness.restoreFault.roots.contains(metadata.rootID) {
                    liveness.restoreFault.roots.append(metadata.rootID)
                }
                lastPlatformChangeMs = nowMs  // a failed request: the next sync legitimately retries it
            }
        case .alarmDelivered(let id):
            lastPlatformChangeMs = nowMs
            if inLockedBootPhase, let metadata = requestMetadata[id] ?? groundTruthMetadata(id), metadata.kind.opensOccurrence,
               !liveness.restoreFault.deliveredRoots.contains(metadata.rootID) {
                liveness.restoreFault.deliveredRoots.append(metadata.rootID)
            }
            releaseAndroidHold(id)  // fault late-delivery: the held root is due now
            oracleMissedDayRungLate(id)  // a primary added back after an excused ring time
            releaseInexactOracleFires(delivered: id)  // an inexact primary's root is due now
            oracleAndroidDelivery(id)
            coverAndroidDelivery(id)
        default: break
        }
        if let launch {
            enqueue(.toAppLaunching(input, launch), afterMs: launch == .user ? 0 : 30)
        } else if process.running {
            if case .alarmUpdates = input {
                enqueue(.toRunningApp(input), afterMs: 5)
            } else {
                enqueue(.toProcess(input, incarnation: process.incarnation), afterMs: 0)
            }
        } else {
            coverDroppedCompletion(input)  // the process that issued the request is gone
        }
    }

    func alertStarted(_ id: AlarmUUID, _ metadata: RingMetadata) {
        if wrongInstantAlertStarted(id) {  // not its ring time (forums 820388)
            sound.note(metadata.rootID, in: \.alertedRoots)  // SND-13: it did sound, unsuppressed (ios swarm seed 1754)
            return reactToAlert(id)
        }
        if ios?.alarm(id).map({ ios?.isGhost($0) == true }) == true {  // OpenMinis#115
            cover(.ghostAlert)
            ghostAlertsShown.removeAll { $0 == id }  // a weekly ring's earlier ghost
        }
        coverAlertStarted(metadata)
        checkSnoozeRingTime(id, metadata)  // invariant 9 after a clock change (SNZ-20)
        checkRecurrenceAlert(id, metadata)  // invariant 44
        releaseLateOracleFires(openedBy: id, metadata)
        oracleOpenStaleZoneRing(id, metadata)  // [limit] zone-change-unobserved (REC-8)
        oracleOpenFrozenZoneRing(id, metadata)  // [limit] kill-switch-disabled (BOOT-12, REC-8)
        oracleAlertStarted(id, metadata)
        soundAlertStarted(id, metadata)
        reactToAlert(id)
    }

    /// The sleepy user's reaction to an alert they may hear (checked again when it comes).
    func reactToAlert(_ id: AlarmUUID) {
        guard setup.reactiveUser, randomBehaviourActs else { return }
        let roll = userRNG.uniform(below: 100)
        let delayMs: Int64
        if roll < 50 {
            delayMs = userRNG.int(in: 3_000...60_000)
        } else if roll < 85 {
            delayMs = userRNG.int(in: 60_000...600_000)
        } else {
            return  // sleeps through it
        }
        let pick = userRNG.uniform(below: 100)
        let reaction: Reaction = pick < 55 ? .stop : (pick < 85 ? .openAndComplete : .openAndLeave)
        enqueue(.reaction(id, reaction), afterMs: delayMs)
    }

    func isAudible(_ id: AlarmUUID) -> Bool {
        if let daemon = ios { return daemon.isAudible(id) }
        return android?.isAudible(id) ?? false
    }

    func react(_ id: AlarmUUID, _ reaction: Reaction) {
        guard deviceUp, isAudible(id) else { return }
        switch reaction {
        case .stop:
            if !androidDismissByVolume(id) {  // INACT-6: sometimes by volume
                noteReactive(.userStop(alarmID: groundTruthMetadata(id)?.alarmID))
                stopRing(id)
            }
            if userRNG.chance(Ratio(1, 3)) {
                // Stop, then straight into the app to do the mission while the successor is pending.
                let openAfter = userRNG.int(in: 1_000...8_000)
                enqueueReactive(.userOpenApp, afterMs: openAfter)
                enqueueReactive(.userCompleteChallenge, afterMs: openAfter + userRNG.int(in: 1_500...6_000))
                enqueueReactive(.userLeaveApp, afterMs: openAfter + userRNG.int(in: 7_000...20_000))
            }
        case .openAndComplete, .openAndLeave:
            let alarmID = groundTruthMetadata(id)?.alarmID
            noteReactive(.userOpenApp)
            perform(.userOpenApp)
            if planWalk(alarmID: alarmID) { return }  // a walk alarm: the walk check (World+Walk.swift)
            if android != nil {  // AND-11
                noteReactive(.userStartWakeUpCheck)
                startWakeUpCheck(id)
            } else {
                noteReactive(.userOpenApp)
                perform(.userOpenApp)
            }
            if userRNG.chance(Ratio(1, 2)) {
                enqueueReactive(.appSyncEnabledAlarms, afterMs: userRNG.int(in: 200...3_000))
            }
            if reaction == .openAndComplete {
                let completeAfter = userRNG.int(in: 5_000...90_000)
                enqueueReactive(.userCompleteChallenge, afterMs: completeAfter)
                enqueueReactive(.userLeaveApp, afterMs: completeAfter + userRNG.int(in: 2_000...30_000))
            } else if setup.reactiveUser && snoozeRNG.chance(Ratio(1, 2)) {
                planSnooze()
            } else if setup.reactiveUser && snoozeRNG.chance(Ratio(1, 6)) {
                // The user gives up on this morning's check (OCC-18): JS abandons the occurrence —
                // sometimes naming the wrong alarm, which must change nothing.
                let after = snoozeRNG.int(in: 2_000...10_000)
                enqueueReactive(.userAbandon(wrongAlarm: snoozeRNG.chance(Ratio(1, 4))), afterMs: after)
                enqueueReactive(.userLeaveApp, afterMs: after + snoozeRNG.int(in: 1_000...5_000))
            } else {
                enqueueReactive(.userLeaveApp, afterMs: userRNG.int(in: 3_000...60_000))
            }
        }
    }

    /// The user taps Snooze on the challenge screen, sometimes twice, sometimes with a deadline
    /// the bridge must refuse; then leaves the app. Now and then they come back and skip it.
    func planSnooze() {
        let tapAfter = snoozeRNG.int(in: 2_000...8_000)
        let roll = snoozeRNG.uniform(below: 100)
        let minutes: Int64 = roll < 40 ? 5 : roll < 65 ? 10 : roll < 80 ? 20 : roll < 90 ? 30 : 0
        let delayMs = minutes > 0 ? minutes * 60_000 : (snoozeRNG.chance(Ratio(1, 2)) ? 30 * 60_000 + 1_000 : 1_000)
        enqueueReactive(.userSnooze(delayMs: delayMs, doubleTap: snoozeRNG.chance(Ratio(1, 4))), afterMs: tapAfter)
        let leaveAfter = tapAfter + snoozeRNG.int(in: 1_000...5_000)
        enqueueReactive(.userLeaveApp, afterMs: leaveAfter)
        if minutes >= 10 && snoozeRNG.chance(Ratio(1, 6)) {
            let back = leaveAfter + snoozeRNG.int(in: 60_000...(minutes * 60_000 / 2))
            enqueueReactive(.userOpenApp, afterMs: back)
            enqueueReactive(.userSkipSnooze, afterMs: back + snoozeRNG.int(in: 1_000...4_000))
            enqueueReactive(.userLeaveApp, afterMs: back + snoozeRNG.int(in: 5_000...20_000))
        }
    }

    /// The user stops one audible ring: lock-screen Stop (iOS) or the alarm screen (Android).
    func stopRing(_ id: AlarmUUID) {
        record("user", "stop", [TraceField("id", id.description)])
        if ios != nil {
            onDaemon { $0.stop(id, nowWallMs: wallMs, byUser: true) }
        } else if process.running {
            enqueue(.toProcess(.ringDismissed(id), incarnation: process.incarnation), afterMs: 0)
        }
    }

    /// Whether a ready step ends the current fault's exemption. `os-removed-alarm` names the gap
    /// until the bridge can learn of the removal, and only a daemon view shows it: an
    /// `alarmUpdates` snapshot or a successful inventory read (IOS-5, IOS-14; PLATFORMS.md: no
    /// events while locked, then a burst on wake). A timer step of a process whose updates the
    /// locked screen holds back sees nothing (ios seed 16830). Every other fault ends at the first
    /// ready step, as before.
    func stepCouldObserveFault(_ input: BridgeInput) -> Bool {
        guard faultExemption?.name == "os-removed-alarm" || faultExemption?.name == "ghost-alert-ended" else { return true }
        return inputShowsDaemon(input)
    }

    /// IOS-5, IOS-14: the inputs that show the bridge the daemon's inventory.
    func inputShowsDaemon(_ input: BridgeInput) -> Bool {
        switch input {
        case .alarmUpdates: return true
        case .inventoryRead(_, .success): return true
        default: return false
        }
    }

    /// True when no bridge process has run a ready step since the occurrence opened, so none can
    /// have observed its alert (IOS-5 delivers it only to a running process). Measured from the
    /// opening, not from the configured ring time: a delivery the platform held back late opens the
    /// occurrence only when it alerts, and a process that ran between the ring time and that late
    /// alert saw a primary still pending, not an occurrence (ios uniform seeds 886, 1112, 1731).
    ///
    /// The ring time is taken in the frame in force now, with the occurrence's clock offset: after
    /// a set-back the bare ring time maps to an instant after the opening (android uniform seed
    /// 2736 of the clock-change-during-snooze fault: a 10 min set-back, then a reboot, closed a
    /// live occurrence the running process had seen as unobservable).
    ///
    /// The opening is the true instant the oracle opened it whenever that is on record: wall
    /// times are re-framed by every correction, and an unseen one reverted at a reboot
    /// (``revertUnseenLiveShift()``) leaves the offset in no frame at all (ios seed 8805: after the
    /// revert, a second reboot found the seen occurrence "unobservable").
    ///
    /// iOS: a ready step since the opening saw the alert only if it showed the daemon's inventory
    /// (IOS-5) or the bridge recorded the occurrence (a Stop or action of its ring): a step for
    /// another input, with AlarmKit holding its updates while the phone is locked, learns nothing
    /// of it (ios swarm seed 57843: a1.thu 07:16 alerted with updates held; a health-access step
    /// at 08:58 saw nothing of it; a reboot at 09:16 ended it and left the weekly ring re-armed).
    func noProcessObservedOpening(_ occurrence: OracleOccurrence) -> Bool {
        let openedAtMs = occurrence.openedAtMs != .min ? occurrence.openedAtMs
            : at(wallMs: occurrence.startWallMs + occurrence.clockOffsetMs)
        if process.lastReadyStepMs < openedAtMs { return true }
        return ios != nil && process.lastDaemonViewStepMs < openedAtMs && !bridgeObservedOccurrence(occurrence)
    }

    func groundTruthMetadata(_ id: AlarmUUID) -> RingMetadata? {
        if let daemon = ios { return daemon.alarm(id)?.metadata }
        return android?.alarm(id)?.metadata ?? android?.ringingMetadata(id)
    }

    // MARK: - Device

    func reboot(lockedForMs: Int64) {
        guard deviceUp else { return }
        record("device", "shutdown")
        // Judged before an unseen correction's shift is reverted: the opening's wall time and
        // offset are in the frame of the clock now (ios uniform seed 2736: reverted first, a
        // 10 min set-back made an opening the process saw look later than its last step).
        if let index = oracle.liveIndex, noProcessObservedOpening(oracle.occurrences[index]) {
            // [limit] The shutdown ends an alert that no bridge process ever observed. A weekly
            // alarm is re-armed and a one-shot gone, with nothing to tell them from ones dropped
            // while the phone was off; AlarmKit
            // does not launch the app when it alerts, and a clock-only context may never create
            // an occurrence (FG-10). Nothing can know this occurrence existed; counted by name.
            countExemption("alert-ended-unobserved-by-reboot")
            oracleClose(index, reason: "unobservable")
        }
        revertUnseenLiveShift()
        kill("reboot")
        noteFault("device-restarting")
        onDaemon { $0.shutdown(nowWallMs: wallMs) }
        onAlarmManager { $0.shutdown() }
        deviceUp = false
        protectedDataAvailable = false
        enqueue(.boot, afterMs: 45_000)
        if lockedForMs >= 0 {
            enqueue(.plan(.userUnlock), afterMs: 45_000 + lockedForMs)
        }
    }

    func boot() {
        deviceUp = true
        bootCount += 1
        lastBootMs = nowMs
        clock.reboot()
        record("device", "boot")
        noteFault("device-restarting")
        let heldBeforeBoot = lateHeld.filter { ios?.alarm($0) != nil }
        onDaemon { $0.boot(nowWallMs: wallMs) }
        dropLateDeliveriesLostByBoot(heldBeforeBoot)
        if osUpdateAtNextBoot { osUpdateClearsAlarms() }
        onAlarmManager { $0.boot() }
        armAcceptedRequestDrop()  // issue 18, World+Android.swift
        androidSide.stepSensor.reboot()  // the count restarts at zero (TYPE_STEP_COUNTER)
        // A fault counts against this boot's restore only once it hits it (noteRestoreFault).
        liveness.restoreFault = RestoreFault()
    }

    /// iOS: a delivery the platform held back (`fault late-delivery`) was still pending when the
    /// phone went off. The daemon's boot drops a one-shot whose time passed (and re-arms a
    /// repeating ring for its next time, which `isDeliveryToHold` already drops), so the held
    /// delivery never comes: the oracle's deferred fire for it is dropped too, as for an alert
    /// the reboot ended (ios uniform seeds 4623, 6886). A ring the bridge cancelled before the
    /// shutdown is not in `held` and stays held (known defect `cancel-past-fire-time`).
    func dropLateDeliveriesLostByBoot(_ held: [AlarmUUID]) {
        guard let daemon = ios else { return }
        for id in held where daemon.alarm(id) == nil {
            if let fire = lateOracleFires.first(where: { $0.ringID == id }) {
                oracle.bootDroppedFires.append((fire.rootID, fire.fireWallMs))
                if oracle.bootDroppedFires.count > 64 { oracle.bootDroppedFires.removeFirst() }
            }
            lateHeld.removeAll { $0 == id }
            lateOracleFires.removeAll { $0.ringID == id }
            record("oracle", "late-delivery-dropped-by-boot", [TraceField("id", id.description)])
            countExemption("device-restarting")  // [limit] ios seeds 8892, 4623, 6886
        }
    }

    func noteFault(_ name: String) {
        faultExemption = (name, nowMs)
        noteSnoozePlatformFault(name)
    }

    /// Android before the first unlock: the only bridge work is the direct-boot restore, so a
    /// failed primary request, a failed read, or a death with requests in flight hit it.
    var inLockedBootPhase: Bool { android.map { !$0.userUnlocked } ?? false }

    /// One short, stable line per input for the trace (no reflection: it is on the hot path and
    /// its output must not depend on the standard library's debug printing).
    func describe(_ input: BridgeInput) -> String {
        func result(_ result: Result<Int64, PlatformError>) -> String {
            switch result {
            case .success: return "ok"
            case .failure(let error): return error.rawValue
            }
        }
        switch input {
        case .processStarted(let reason, _): return "processStarted(\(reason.rawValue))"
        case .storeLoaded(.success(let document)): return document == nil ? "storeLoaded(empty)" : "storeLoaded(document)"
        case .storeLoaded(.failure(let error)): return "storeLoaded(\(error.rawValue))"
        case .protectedDataAvailable: return "protectedDataAvailable"
        case .didBecomeActive: return "didBecomeActive"
        case .willResignActive: return "willResignActive"
        case .didEnterBackground: return "didEnterBackground"
        case .scheduleCompleted(let id, let outcome): return "scheduleCompleted(\(id), \(result(outcome)))"
        case .cancelCompleted(let id, let outcome): return "cancelCompleted(\(id), \(result(outcome)))"
        case .stopCompleted(let id, let outcome): return "stopCompleted(\(id), \(result(outcome)))"
        case .inventoryRead(let purpose, .success(let alarms)):
            return "inventoryRead(\(describe(purpose)), \(alarms.count) alarms, \(alarms.filter { $0.state == .alerting }.count) alerting)"
        case .inventoryRead(let purpose, .failure(let error)): return "inventoryRead(\(describe(purpose)), \(error.rawValue))"
        case .alarmUpdates(let alarms):
            return "alarmUpdates(\(alarms.count) alarms, \(alarms.filter { $0.state == .alerting }.count) alerting)"
        case .stopIntent(let id): return "stopIntent(\(id))"
        case .alarmDelivered(let id): return "alarmDelivered(\(id))"
        case .ringDismissed(let id): return "ringDismissed(\(id))"
        case .journalLoaded(let entries): return "journalLoaded(\(entries.count))"
        case .credentialProtectedStoreLoaded(.success(let document)): return document == nil ? "credentialStoreLoaded(empty)" : "credentialStoreLoaded(document)"
        case .credentialProtectedStoreLoaded(.failure(let error)): return "credentialStoreLoaded(\(error.rawValue))"
        case .bootCompleted(let locked): return locked ? "LOCKED_BOOT_COMPLETED" : "BOOT_COMPLETED"
        case .exactAlarmPermissionGranted: return "exactAlarmPermissionGranted"
        case .clockChanged(let zone): return "clockChanged(\(zone))"
        case .packageReplaced: return "MY_PACKAGE_REPLACED"
        case .playbackFailed(let id): return "playbackFailed(\(id))"
        case .nextAlarmClockRead(let trigger): return "nextAlarmClockRead(\(trigger.map(String.init) ?? "none"))"
        case .burstPlaybackBegan(let id): return "burstPlaybackBegan(\(id))"
        case .burstEnded(let id): return "burstEnded(\(id))"
        case .api(.startForegroundAlarmSound(let alarmID, _, _)): return "startForegroundAlarmSound(\(alarmID))"
        case .api(.getAudibleAlarmCount): return "getAudibleAlarmCount"
        case .api(.getAudibleAlarmIds): return "getAudibleAlarmIds"
        case .api(.recordAudibleAlarm(let alarmID)): return "recordAudibleAlarm(\(alarmID))"
        case .api(.resetAudibleAlarmCount): return "resetAudibleAlarmCount"
        case .api(.recordChallengeInteraction): return "recordChallengeInteraction"
        case .timerFired(let timer): return "timerFired(\(timer.rawValue))"
        case .api(.saveAlarm(let alarm)): return "saveAlarm(\(alarm.id), title \(alarm.title))"
        case .api(.deleteAlarm(let id)): return "deleteAlarm(\(id))"
        case .api(.syncEnabledAlarms): return "syncEnabledAlarms"
        case .api(.getScheduledAlarmTimes): return "getScheduledAlarmTimes"
        case .api(.setForegroundAlarmContext(let context)):
            return "setForegroundAlarmContext(challengeScreenVisible: \(context.challengeScreenVisible), wakeSession: \(context.wakeSessionEstablished))"
        case .api(.getAlertingAlarmIds): return "getAlertingAlarmIds"
        case .api(.stopAlertingAlarms(let ids)): return "stopAlertingAlarms(\(ids.joined(separator: ",")))"
        case .api(.completeChallenge(let rootID, let token)): return "completeChallenge(\(rootID), \(token))"
        case .api(.beginOneTimeSnooze(let untilMs, let token, let alarmIDs)):
            return "beginOneTimeSnooze(until \(untilMs), token \(token ?? "none"), \(alarmIDs.joined(separator: ",")))"
        case .api(.peekLastAlarmAction): return "peekLastAlarmAction"
        case .api(.getActiveWakeOccurrence): return "getActiveWakeOccurrence"
        case .api(.abandonWakeOccurrence(let ids)): return "abandonWakeOccurrence(\(ids.joined(separator: ",")))"
        case .api(.expireWakeOccurrence(let ids, let at, let token)):
            return "expireWakeOccurrence(\(ids.joined(separator: ",")), \(at), \(token ?? "none"))"
        case .api(.acknowledgeLastAlarmAction(let alarmID, let action, let at)): return "acknowledgeLastAlarmAction(\(alarmID), \(action), \(at))"
        case .api(.cancelSystemAlarms(let ids)): return "cancelSystemAlarms(\(ids.joined(separator: ",")))"
        case .api(.reportCachedPreferences(let configured)): return "reportCachedPreferences(alarmsConfigured: \(configured))"
        case .api(.getAbandonedWakeOccurrences): return "getAbandonedWakeOccurrences"
        case .api(.acknowledgeAbandonedWakeOccurrence(let token)): return "acknowledgeAbandonedWakeOccurrence(\(token))"
        case .receiptsRead(.success(let receipts)): return "receiptsRead(\(receipts.count))"
        case .receiptsRead(.failure(let error)): return "receiptsRead(\(error.rawValue))"
        case .receiptWritten(let token, let succeeded): return "receiptWritten(\(token), \(succeeded ? "ok" : "failed"))"
        case .failedWakeDayWritten(let token, let succeeded): return "failedWakeDayWritten(\(token), \(succeeded ? "ok" : "failed"))"
        case .killSwitchChecked(let response): return "killSwitchChecked(\(response.rawValue))"
        case .api(.skipOneTimeSnooze(let token, let alarmIDs)):
            return "skipOneTimeSnooze(\(token), \(alarmIDs.joined(separator: ",")))"
        case .api(.startWalkCheck(let alarmIDs)): return "startWalkCheck(\(alarmIDs.joined(separator: ",")))"
        case .healthAccessObserved(let granted): return "healthAccessObserved(\(granted))"
        case .workoutSessionConfirmed: return "workoutSessionConfirmed"
        case .workoutCollectionConfirmed: return "workoutCollectionConfirmed"
        case .workoutStartFailed: return "workoutStartFailed"
        case .workoutLost: return "workoutLost"
        case .stepsObserved: return "stepsObserved"
        case .workoutRecovered: return "workoutRecovered"
        case .recentStepsQueried(let latest): return "recentStepsQueried(\(latest.map(String.init) ?? "none"))"
        case .api(.reconcileStepSuppressionTracking): return "reconcileStepSuppressionTracking"
        case .stepCounterChanged(let steps, let at): return "stepCounterChanged(\(steps), at \(at))"
        case .volumeDismissal(let id, let kind): return "volumeDismissal(\(id), \(kind.rawValue))"
        case .startWakeUpCheck(let id): return "startWakeUpCheck(\(id))"
        }
    }

    func describe(_ purpose: InventoryPurpose) -> String {
        switch purpose {
        case .launchGate: return "launchGate"
        case .launchSync: return "launchSync"
        case .resumeSync: return "resumeSync"
        case .directSave(let alarmID): return "directSave(\(alarmID))"
        case .verifySave(let alarmID): return "verifySave(\(alarmID))"
        case .observe: return "observe"
        case .scheduledTimes: return "scheduledTimes"
        }
    }
}

/// A bridge timer of one process incarnation: the unit `setTimer` replaces.
/// stable-ids (ID-2): a primary's root and fire key, as the ID derivation reads them. Looked up
/// only; the root ID compares with `String`'s equality, as the key string it replaces did (issue
/// 20: that string was built for every scheduled primary).
struct StableIDKey: Hashable {
    var rootID: String
    var fireKey: FireKey
}

struct TimerKey: Hashable {
    var kind: BridgeTimer
    var incarnation: Int

    /// The kind's name (its length and end bytes: distinct for every kind) and the incarnation,
    /// mixed by ``SplitMix64``'s first output; `queuedTimers` is only looked up, never iterated,
    /// so the hash orders nothing (issue 20: SipHash over the kind's name at every timer).
    func mixedHash(seed: UInt64) -> UInt64 {
        let name = kind.rawValue.utf8
        let code = UInt64(name.count) << 16 | UInt64(name.first ?? 0) << 8 | UInt64(name.last ?? 0)
        var mixer = SplitMix64(seed: code ^ UInt64(bitPattern: Int64(incarnation)) << 24 ^ seed)
        return mixer.next()
    }

    func hash(into hasher: inout Hasher) { hasher.combine(mixedHash(seed: 0)) }

    func _rawHashValue(seed: Int) -> Int { Int(truncatingIfNeeded: mixedHash(seed: UInt64(truncatingIfNeeded: seed))) }
}

/// iOS BOOT-5: a saved alarm domain that exists but cannot be read for a reason other than
/// protected data (a damaged or half-written store file; fault `damaged-store`).
struct StoreDamage: Equatable {
    /// The damage's length (virtual ms), armed until a read finds the domain.
    var pendingMs: Int64?
    /// The true instant (ms) reads succeed again.
    var untilMs: Int64?
}

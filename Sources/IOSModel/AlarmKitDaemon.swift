import AlarmBridge
import SimKernel

/// AlarmKit's `AlarmManager.AuthorizationState` (…/alarmmanager/authorizationstate-swift.enum).
public enum AlarmKitAuthorization: String, Sendable, Equatable, CaseIterable {
    case notDetermined = "not-determined", authorized, denied
}

/// Named parameters of the AlarmKit-like daemon. Where public material is silent the value is a
/// parameter the seed draws (PLATFORMS.md, confidence "?"), never a fixed guess.
public struct AlarmKitParameters: Sendable, Equatable {
    /// `schedule(id:configuration:)` is `async throws` (developer.apple.com/documentation/alarmkit/
    /// alarmmanager/schedule(id:configuration:)); its latency is undocumented: drawn per request.
    public var scheduleLatencyMinMs: Int64 = 20
    public var scheduleLatencyMaxMs: Int64 = 800
    /// Undocumented, device-dependent capacity (`AlarmError.maximumLimitReached`; forums 797158).
    public var capacity: Int = 64
    /// Whether `alarmUpdates` coalesces changes inside a window (undocumented; field reports L).
    public var coalesceUpdates: Bool = false
    public var coalesceWindowMs: Int64 = 500
    /// Delay before a snapshot reaches the subscribed process.
    public var updateDelayMs: Int64 = 5
    /// Authorization at install. `notDetermined`: the first schedule (or `requestAuthorization`)
    /// prompts once and the user answers `promptGrants` (…/requestauthorization(): "prompts once;
    /// first schedule also prompts"). `denied`: every schedule fails.
    public var authorization: AlarmKitAuthorization = .authorized
    public var promptGrants = true
    /// Field fault (forums 792819, beta): `authorizationState` keeps reading `notDetermined` after
    /// the user granted; scheduling works.
    public var staleNotDetermined = false
    /// Field fault (forums 825427): on a locked phone, a `.fixed` alarm with at least
    /// `denseFixedThreshold` fixed alarms due within 10 minutes of it alerts late, by a delay drawn
    /// up to `denseLateDelayMaxMs` (reports: 20 s – 4 min). 0 turns the fault off.
    public var denseLateDelayMaxMs: Int64 = 0
    public var denseFixedThreshold = 3
    /// Field report (forums 825427): no `alarmUpdates` while the phone is locked, then the held
    /// changes arrive as one burst when it unlocks. Off by default.
    public var holdUpdatesWhileLocked = false
    /// IOS-1: the app's declared configuration (Info.plist keys, entitlements) is part of the
    /// simulated device. Default: what the bridge requires (``BridgeConfiguration/requiredIOSConfiguration``).
    public var appConfiguration = BridgeConfiguration.requiredIOSConfiguration
    /// The app's Info.plist has `NSAlarmKitUsageDescription`; without it nothing can be
    /// scheduled (Info.plist key documentation; seed 003 §1; IOS-1).
    public var usageDescriptionPresent: Bool {
        get { appConfiguration.alarmKitUsageDescription }
        set { appConfiguration.alarmKitUsageDescription = newValue }
    }
    /// IOS-1, WALK-2: Info.plist `BGTaskSchedulerPermittedIdentifiers` lists the workout task;
    /// without it iOS refuses the background-task launch that recovers the walk's workout.
    public var workoutTaskIdentifierDeclared: Bool {
        get { appConfiguration.permitsWorkoutRecoveryLaunch }
        set {
            let identifier = BridgeConfiguration.workoutBackgroundTaskIdentifier
            appConfiguration.backgroundTaskIdentifiers.removeAll { $0 == identifier }
            if newValue { appConfiguration.backgroundTaskIdentifiers.append(identifier) }
        }
    }
    /// SCH-26: AlarmKit exists on the device (iOS 26 and later). On an older iOS nothing can be
    /// scheduled; the bridge learns it from the OS version (`#available`), never from JS.
    public var alarmKitAvailable = true
    /// How `.relative` schedules resolve a local time that a DST night skips or repeats:
    /// undocumented (PLATFORMS.md `.relative`, "DST ?"), so drawn per seed. Default: Foundation's.
    public var dstPolicy = WallCalendar.DSTPolicy.foundation
    /// Field fault (forums 802620, fixed in iOS 26.1): a custom alert sound fails and the alert
    /// plays the system tone instead. Nothing observable reaches the app.
    public var customSoundFails = false
    /// [limit] (RULES IOS-3, IOS-6, IOS-8): whether Silent mode (the mute switch) can silence an alert.
    /// IOS-3: on real hardware an AlarmKit alarm is full-screen and sounds through Silent mode
    /// and Focus; only hardware can demonstrate it, so the model keeps it a parameter.
    /// Apple's sample says AlarmKit alarms break through Silent mode and every Focus (documented:
    /// false); the seed's spec treats a muted still-alerting alarm as a known limit, so the swarm
    /// turns this on rarely. The alarm stays `alerting`: no observable state change.
    public var silentModeSilencesAlerts = false
    /// A wall-clock change that jumps over a `.relative` alarm's time: true, it alerts at once
    /// (like a `.fixed` instant already past); false, it waits for that local time's next match.
    /// Undocumented: drawn per seed.
    public var jumpedOverRelativeFires = true
    /// Field fault (nitro-ios-alarm-kit#1): for one app, `schedule` throws (code 0) on every call
    /// despite authorization. Nothing can be scheduled; the run exempts what follows by name.
    public var scheduleAlwaysFails = false
    /// Read-after-write lag (issue 16 part 4; the reason SCH-9 allows up to three verification
    /// reads 100 ms apart): a read of `alarms` lists a newly scheduled alarm only some time after
    /// its `schedule` call returned, a uniform draw in 0...this, virtual ms (the host applies it, in
    /// true time, to a direct save's verification reads only). Undocumented; the swarm turns it on per seed with 120 or 180 ms, so the
    /// third verification read always sees the alarm. 0: every read lists it at once.
    public var readLagMaxMs: Int64 = 0

    public init() {}
}

/// What the alert is playing (not observable by the app).
public enum AlertSoundPlayed: Sendable, Equatable {
    /// The system's default alarm sound (no custom sound configured).
    case systemDefault
    /// The configured custom sound.
    case custom(String)
    /// The custom sound failed and the system tone plays instead (forums 802620).
    case systemFallback(String)
}

/// A ghost alert (OpenMinis#115): the alarm's ID and the generation it alerts at.
public struct GhostAlert: Sendable, Equatable {
    public var id: AlarmUUID
    public var generation: UInt64
}

/// One alarm the daemon holds.
public struct DaemonAlarm: Sendable, Equatable {
    /// Every stored field of the alarm.
    @usableFromInline
    struct Fields: Sendable, Equatable {
        @usableFromInline var id: AlarmUUID
        @usableFromInline var schedule: RingSchedule
        @usableFromInline var metadata: RingMetadata
        @usableFromInline var state: PlatformAlarm.State
        @usableFromInline var nextFireWallMs: Int64
        @usableFromInline var generation: UInt64
        @usableFromInline var countdown: CountdownDuration?
        @usableFromInline var countdownEndWallMs: Int64?
        @usableFromInline var pausedRemainingMs: Int64?
        @usableFromInline var soundName: String?
    }

    /// The fields, in one copy-on-write box (issue 20; ``CopyOnWrite``, as `RingRow`): the
    /// checks and the daemon copy alarms out of `alarms` many times an event, and an alarm of
    /// five strings retained each of them on every copy.
    @usableFromInline var storage: CopyOnWrite<Fields>

    @inlinable public var id: AlarmUUID {
        _read { yield storage.value.id }
        _modify { yield &storage.value.id }
    }
    @inlinable public var schedule: RingSchedule {
        _read { yield storage.value.schedule }
        _modify { yield &storage.value.schedule }
    }
    @inlinable public var metadata: RingMetadata {
        _read { yield storage.value.metadata }
        _modify { yield &storage.value.metadata }
    }
    @inlinable public var state: PlatformAlarm.State {
        _read { yield storage.value.state }
        _modify { yield &storage.value.state }
    }
    /// Next fire instant (wall ms) while scheduled.
    @inlinable public var nextFireWallMs: Int64 {
        _read { yield storage.value.nextFireWallMs }
        _modify { yield &storage.value.nextFireWallMs }
    }
    /// Bumped on every (re)arm; a fire event carries it so stale fires are ignored.
    @inlinable public var generation: UInt64 {
        _read { yield storage.value.generation }
        _modify { yield &storage.value.generation }
    }
    /// The configured countdown (preAlert before the alert, postAlert from an alert), if any.
    @inlinable public var countdown: CountdownDuration? {
        _read { yield storage.value.countdown }
        _modify { yield &storage.value.countdown }
    }
    /// While in `countdown`: when it runs out (wall ms). While `paused`: nil.
    @inlinable public var countdownEndWallMs: Int64? {
        _read { yield storage.value.countdownEndWallMs }
        _modify { yield &storage.value.countdownEndWallMs }
    }
    /// While `paused`: the countdown time left, ms.
    @inlinable public var pausedRemainingMs: Int64? {
        _read { yield storage.value.pausedRemainingMs }
        _modify { yield &storage.value.pausedRemainingMs }
    }
    /// The custom sound configured for the alert, nil for the system default.
    @inlinable public var soundName: String? {
        _read { yield storage.value.soundName }
        _modify { yield &storage.value.soundName }
    }

    public init(id: AlarmUUID, schedule: RingSchedule, metadata: RingMetadata, state: PlatformAlarm.State, nextFireWallMs: Int64, generation: UInt64, countdown: CountdownDuration? = nil, countdownEndWallMs: Int64? = nil, pausedRemainingMs: Int64? = nil, soundName: String? = nil) {
        storage = CopyOnWrite(Fields(id: id, schedule: schedule, metadata: metadata, state: state, nextFireWallMs: nextFireWallMs, generation: generation, countdown: countdown, countdownEndWallMs: countdownEndWallMs, pausedRemainingMs: pausedRemainingMs, soundName: soundName))
    }

    public static func == (lhs: DaemonAlarm, rhs: DaemonAlarm) -> Bool {
        lhs.storage.sharesStorage(with: rhs.storage) || lhs.storage.value == rhs.storage.value
    }
}

/// Timed events internal to the daemon (the simulator queues them).
public enum DaemonEvent: Sendable, Equatable {
    case completeSchedule(RingRequest)
    case fire(AlarmUUID, generation: UInt64)
    /// scheduled → countdown at fire − preAlert.
    case countdownStart(AlarmUUID, generation: UInt64)
    /// countdown → alerting when the countdown runs out.
    case countdownEnd(AlarmUUID, generation: UInt64)
    /// A fire held back by the dense-fixed-alarm field fault.
    case lateFire(AlarmUUID, generation: UInt64)
    /// A ghost alert's end (OpenMinis#115): the alert leaves `alerting` with no Stop.
    case ghostEnd(AlarmUUID, generation: UInt64)
    case deliverSnapshot
}

/// What a daemon step asks of the simulator.
public enum DaemonEffect: Sendable, Equatable {
    /// Deliver an input to the app process. `launch` non-nil: start the process if it is not
    /// running (intents); nil: drop it when no process is running (async completions to a dead
    /// client, `alarmUpdates` with no subscriber).
    case toApp(BridgeInput, launch: LaunchReason?)
    case later(DaemonEvent, afterMs: Int64)
    case alertStarted(AlarmUUID, RingMetadata)
    case alertEnded(AlarmUUID, RingMetadata)
    case trace(String, [TraceField])
}

/// An AlarmKit-like daemon (first cut; issue 3 deepens it).
///
/// Modelled, with sources: `schedule` completes after a drawn latency (async API); `cancel` and
/// `stop` are synchronous throwing calls, unknown IDs throw (…/alarmmanager/cancel(id:), stop(id:));
/// `stop` deletes a one-shot and re-arms a weekly relative alarm for its next time; `alarms` is a
/// throwing read of this app's alarms (…/alarmmanager/alarms); capacity is undocumented, drawn per
/// seed and changeable at run time (`maximumLimitReached`, forums 797158); `alarmUpdates` sends the
/// whole list on every change and may coalesce (…/alarmupdates; forums 825427). Alarms persist
/// across process death and reboot (forums 797158); alerts still fire before first unlock (seed 004).
///
/// States and calls: scheduled → countdown at fire − preAlert; countdown → alerting when it runs
/// out; alerting → countdown by `countdown(id:)` (postAlert); countdown ↔ paused by `pause` /
/// `resume`; every call in the wrong state throws (…/pause(id:), resume(id:), countdown(id:)).
///
/// Authorization: `notDetermined` prompts at the first schedule, `denied` (or a missing
/// `NSAlarmKitUsageDescription`) fails every schedule with `notAuthorized`; the field fault of a
/// state stuck at `notDetermined` after a grant is `staleNotDetermined`.
///
/// Locked-phone field faults (forums 825427), off unless the seed turns them on: dense fixed
/// alarms alert late; `alarmUpdates` are held while locked and arrive as a burst at unlock.
///
/// Device changes (PLATFORMS.md): a time-zone change moves `.relative` alarms to the new zone's
/// local time and leaves `.fixed` instants alone (…/schedule-swift.enum/fixed(_:), relative(_:));
/// a manual wall-clock change re-arms every scheduled alarm against the new wall clock (a
/// jumped-over `.relative`: parameter `jumpedOverRelativeFires`); DST gaps and overlaps
/// of `.relative`: parameter `dstPolicy`. The OS can remove an alarm with no app call (forums
/// 825427): ``systemRemove(_:nowWallMs:)``; the app sees it only as missing from the next
/// `alarmUpdates` snapshot. A custom sound can fail to the system tone (`customSoundFails`), and
/// Silent mode can silence an alert with no state change (`silentModeSilencesAlerts`, [limit]).
/// INACT-23, IOS-11: an accepted alert lives in the daemon, not in the app: it stays on screen
/// (alerting) after the app's process died, until stopped.
///
/// Assumption (parameter later): a reboot ends an alert in progress (as a system stop), and a
/// one-shot whose time passed while the phone was off is dropped.
///
/// BOOT-13 [platform]: background app refresh is best-effort and may not run for days (Low Power
/// Mode; seed 003, "Don't depend on background refresh"). The simulated iPhone therefore never
/// runs a background refresh task at all — the worst case — and the app runs only when the user
/// opens it, an AlarmKit intent or HealthKit launches it, or a notification reaches a running
/// process; every wanted ring must be registered directly in those executions (SCH-24).
public struct AlarmKitDaemon: Sendable {
    /// Whether the daemon's `.trace` effects carry their fields (IDs and schedules as text). The
    /// simulator turns it off for a run that keeps no trace: a trace effect's fields are only
    /// ever printed into the trace, and a counting run counts the effect without them (issue 20:
    /// formatting every scheduled ring's ID and schedule was half a per cent of a campaign).
    public var describesTraceEffects = true

    /// A `.trace` effect, its fields built only when ``describesTraceEffects``.
    func traceEffect(_ name: String, _ fields: @autoclosure () -> [TraceField]) -> DaemonEffect {
        .trace(name, describesTraceEffects ? fields() : [])
    }

    /// Every stored field of the model (issue 20: kept in one copy-on-write box, ``CopyOnWrite``).
    struct Fields: Sendable {
        var parameters: AlarmKitParameters
        var calendar: WallCalendar
        var alarms: [DaemonAlarm] = []
        var failNextSchedules: Int = 0
        var failNextReads: Int = 0
        var changeCounter: UInt64 = 0
        var poweredOn: Bool = true
        var screenLocked: Bool = true
        var silentMode: Bool = false
        var snapshotPending: Bool = false
        var snapshotHeld: Bool = false
        var latencyRNG: Xoshiro256StarStar
        var lateRNG: Xoshiro256StarStar
        var ghostNextAlertMs: Int64?
        var ghosts: [GhostAlert] = []
    }

    /// The fields, in one copy-on-write box (issue 20; ``CopyOnWrite``).
    private var storage: CopyOnWrite<Fields>

    public var parameters: AlarmKitParameters {
        _read { yield storage.value.parameters }
        _modify { yield &storage.value.parameters }
    }
    /// The device zone with the seed's DST policy; a time-zone change replaces it.
    public private(set) var calendar: WallCalendar {
        _read { yield storage.value.calendar }
        _modify { yield &storage.value.calendar }
    }
    /// Sorted by ID.
    public private(set) var alarms: [DaemonAlarm] {
        _read { yield storage.value.alarms }
        _modify { yield &storage.value.alarms }
    }
    /// Scheduled-call failures still to inject (`fault schedule-failure N`).
    public var failNextSchedules: Int {
        _read { yield storage.value.failNextSchedules }
        _modify { yield &storage.value.failNextSchedules }
    }
    /// Inventory reads still to fail.
    public var failNextReads: Int {
        _read { yield storage.value.failNextReads }
        _modify { yield &storage.value.failNextReads }
    }
    /// Per-change counter, for the idempotent-sync probe.
    public private(set) var changeCounter: UInt64 {
        _read { yield storage.value.changeCounter }
        _modify { yield &storage.value.changeCounter }
    }
    public private(set) var poweredOn: Bool {
        _read { yield storage.value.poweredOn }
        _modify { yield &storage.value.poweredOn }
    }
    /// Whether the phone's screen is locked; the simulator sets it (locked unless the user is in
    /// an app). Drives the locked-phone field faults.
    public var screenLocked: Bool {
        _read { yield storage.value.screenLocked }
        _modify { yield &storage.value.screenLocked }
    }
    /// The ring / silent switch is set to Silent (see `silentModeSilencesAlerts`).
    public var silentMode: Bool {
        _read { yield storage.value.silentMode }
        _modify { yield &storage.value.silentMode }
    }
    var snapshotPending: Bool {
        _read { yield storage.value.snapshotPending }
        _modify { yield &storage.value.snapshotPending }
    }
    /// A snapshot is owed for changes held while locked (`holdUpdatesWhileLocked`).
    var snapshotHeld: Bool {
        _read { yield storage.value.snapshotHeld }
        _modify { yield &storage.value.snapshotHeld }
    }
    var latencyRNG: Xoshiro256StarStar {
        _read { yield storage.value.latencyRNG }
        _modify { yield &storage.value.latencyRNG }
    }
    var lateRNG: Xoshiro256StarStar {
        _read { yield storage.value.lateRNG }
        _modify { yield &storage.value.lateRNG }
    }
    /// Field fault (OpenMinis#115, iOS 26.1): the next alert to begin is a ghost lasting this
    /// long (virtual ms): it reads `alerting` but plays no sound and shows no UI, and when the
    /// time is up AlarmKit ends it with no Stop (a one-shot leaves the list, a weekly re-arms).
    /// Independent of Silent mode. nil: the next alert is an ordinary one.
    public var ghostNextAlertMs: Int64? {
        _read { yield storage.value.ghostNextAlertMs }
        _modify { yield &storage.value.ghostNextAlertMs }
    }
    /// Alerts that are ghosts now, by ID and the generation they alert at (a re-arm, a
    /// replacement or a countdown moves the generation on, which ends the ghost).
    public private(set) var ghosts: [GhostAlert] {
        _read { yield storage.value.ghosts }
        _modify { yield &storage.value.ghosts }
    }


    public init(parameters: AlarmKitParameters, calendar: WallCalendar, streams: RandomStreams) {
        storage = CopyOnWrite(Fields(parameters: parameters, calendar: calendar.with(dstPolicy: parameters.dstPolicy),
                         latencyRNG: streams.stream("ios.daemon.latency"), lateRNG: streams.stream("ios.daemon.late-delivery")))
    }

    public func alarm(_ id: AlarmUUID) -> DaemonAlarm? { alarms.first { $0.id == id } }

    /// `alarms`: this app's alarms with state copied at read time, or a read failure.
    public mutating func readAlarms() -> Result<[PlatformAlarm], PlatformError> {
        if failNextReads > 0 {
            failNextReads -= 1
            return .failure(.readFailed)
        }
        return .success(alarms.map { PlatformAlarm(id: $0.id, state: $0.state) })
    }

    /// `schedule(id:configuration:)`: completes after the drawn latency.
    public mutating func schedule(_ request: RingRequest) -> [DaemonEffect] {
        let latency = latencyRNG.int(in: parameters.scheduleLatencyMinMs...parameters.scheduleLatencyMaxMs)
        return [.later(.completeSchedule(request), afterMs: latency)]
    }

    /// An alarm an older version of the app registered before the run began (a legacy install,
    /// BOOT-9): held from the start like any scheduled alarm; no completion reaches the app.
    public mutating func preinstall(_ request: RingRequest, nowWallMs: Int64) -> [DaemonEffect] {
        completeAuthorizedSchedule(request, nowWallMs: nowWallMs).filter { effect in
            if case .toApp = effect { return false }
            return true
        }
    }

    /// What `authorizationState` reads now.
    public var authorizationState: AlarmKitAuthorization {
        parameters.staleNotDetermined && parameters.authorization == .authorized ? .notDetermined : parameters.authorization
    }

    /// `requestAuthorization()`: prompts once while not determined; returns the state after.
    public mutating func requestAuthorization() -> (AlarmKitAuthorization, [DaemonEffect]) {
        guard parameters.authorization == .notDetermined else { return (authorizationState, []) }
        parameters.authorization = parameters.promptGrants ? .authorized : .denied
        return (authorizationState, [traceEffect("authorization-prompt", [TraceField("answer", parameters.authorization.rawValue)])])
    }

    mutating func completeSchedule(_ request: RingRequest, nowWallMs: Int64) -> [DaemonEffect] {
        var prompted: [DaemonEffect] = []
        if parameters.usageDescriptionPresent && parameters.authorization == .notDetermined {
            prompted = requestAuthorization().1  // the first schedule prompts
        }
        if !parameters.alarmKitAvailable || !parameters.usageDescriptionPresent || parameters.authorization == .denied {
            return prompted + [.toApp(.scheduleCompleted(request.id, .failure(.notAuthorized)), launch: nil),
                               traceEffect("schedule-failed", [TraceField("id", request.id.description), TraceField("error", "notAuthorized")])]
        }
        return prompted + completeAuthorizedSchedule(request, nowWallMs: nowWallMs)
    }

    mutating func completeAuthorizedSchedule(_ request: RingRequest, nowWallMs: Int64) -> [DaemonEffect] {
        if failNextSchedules > 0 || parameters.scheduleAlwaysFails {
            failNextSchedules = max(0, failNextSchedules - 1)
            return [.toApp(.scheduleCompleted(request.id, .failure(.writeFailed)), launch: nil),
                    traceEffect("schedule-failed", [TraceField("id", request.id.description), TraceField("error", "writeFailed")])]
        }
        let replacing = alarms.contains { $0.id == request.id }
        if !replacing && alarms.count >= parameters.capacity {
            return [.toApp(.scheduleCompleted(request.id, .failure(.maximumLimitReached)), launch: nil),
                    traceEffect("schedule-failed", [TraceField("id", request.id.description), TraceField("error", "maximumLimitReached")])]
        }
        // Scheduling an existing ID replaces it (undocumented; wrappers cancel first).
        var effects: [DaemonEffect] = []
        if let old = alarm(request.id), old.state == .alerting {
            effects.append(.alertEnded(old.id, old.metadata))
        }
        alarms.removeAll { $0.id == request.id }
        let fire = nextFire(of: request.schedule, after: nowWallMs)
        let entry = DaemonAlarm(id: request.id, schedule: request.schedule, metadata: request.metadata,
                                state: .scheduled, nextFireWallMs: fire, generation: changeCounter + 1,
                                countdown: request.countdown, soundName: request.soundName)
        insert(entry)
        effects.append(armEvent(entry, nowWallMs: nowWallMs))
        effects.append(.toApp(.scheduleCompleted(request.id, .success(fire)), launch: nil))
        effects.append(traceEffect("scheduled", [TraceField("id", request.id.description),
                                            TraceField("schedule", request.schedule.description),
                                            TraceField("fire", String(fire))]))
        return effects + changed()
    }

    /// A `.fixed` instant, or the next local time of a `.relative` schedule (strictly after now;
    /// a fixed instant already past fires at once).
    func nextFire(of schedule: RingSchedule, after nowWallMs: Int64) -> Int64 {
        switch schedule {
        case .fixed(let wallMs): return max(wallMs, nowWallMs)
        case .relative(let hour, let minute, let weekday):
            return calendar.nextFire(hour: hour, minute: minute, weekday: weekday, after: nowWallMs)
        }
    }

    /// `cancel(id:)`: synchronous; deletes from any state; unknown ID throws.
    public mutating func cancel(_ id: AlarmUUID) -> [DaemonEffect] {
        guard let entry = alarm(id) else {
            return [.toApp(.cancelCompleted(id, .failure(.notFound)), launch: nil)]
        }
        alarms.removeAll { $0.id == id }
        var effects: [DaemonEffect] = [.toApp(.cancelCompleted(id, .success(0)), launch: nil),
                                       traceEffect("cancelled", [TraceField("id", id.description)])]
        if entry.state == .alerting { effects.append(.alertEnded(id, entry.metadata)) }
        return effects + changed()
    }

    /// `stop(id:)`: only an alerting alarm; one-shot deleted, weekly re-armed. Otherwise throws.
    /// - Parameter byUser: the lock-screen / button Stop, which also runs the stop intent.
    public mutating func stop(_ id: AlarmUUID, nowWallMs: Int64, byUser: Bool) -> [DaemonEffect] {
        guard let entry = alarm(id), entry.state == .alerting else {
            let error: PlatformError = alarm(id) == nil ? .notFound : .invalidState
            return byUser ? [] : [.toApp(.stopCompleted(id, .failure(error)), launch: nil)]
        }
        var effects = endAlert(entry, nowWallMs: nowWallMs)
        if byUser {
            // IOS-11: iOS, not the app, decides when the stop intent runs and launches a process
            // for it; the alert itself ended here, whether or not any process ever runs.
            effects.append(.toApp(.stopIntent(id), launch: .intent))
        } else {
            effects.append(.toApp(.stopCompleted(id, .success(0)), launch: nil))
        }
        return effects + changed()
    }

    mutating func endAlert(_ entry: DaemonAlarm, nowWallMs: Int64) -> [DaemonEffect] {
        var effects: [DaemonEffect] = [.alertEnded(entry.id, entry.metadata),
                                       traceEffect("alert-ended", [TraceField("id", entry.id.description)])]
        alarms.removeAll { $0.id == entry.id }
        if case .relative(_, _, .some) = entry.schedule {
            let fire = nextFire(of: entry.schedule, after: nowWallMs)
            var rearmed = entry
            rearmed.state = .scheduled
            rearmed.nextFireWallMs = fire
            rearmed.generation = changeCounter + 1
            rearmed.countdownEndWallMs = nil
            rearmed.pausedRemainingMs = nil
            insert(rearmed)
            effects.append(armEvent(rearmed, nowWallMs: nowWallMs))
        }
        return effects
    }

    /// Handles one of the daemon's own timed events.
    public mutating func handle(_ event: DaemonEvent, nowWallMs: Int64) -> [DaemonEffect] {
        switch event {
        case .completeSchedule(let request):
            return poweredOn ? completeSchedule(request, nowWallMs: nowWallMs) : []
        case .fire(let id, let generation):
            guard poweredOn, var entry = alarm(id), entry.generation == generation, entry.state == .scheduled else { return [] }
            if let delay = denseLateDelay(entry, nowWallMs: nowWallMs) {
                // Held: the alarm stays scheduled past its time and alerts late (same generation).
                return [.later(.lateFire(id, generation: generation), afterMs: delay),
                        traceEffect("late-delivery", [TraceField("id", id.description), TraceField("delay-ms", String(delay))])]
            }
            return beginAlert(&entry, [TraceField("id", id.description)])
        case .lateFire(let id, let generation):
            guard poweredOn, var entry = alarm(id), entry.generation == generation, entry.state == .scheduled else { return [] }
            return beginAlert(&entry, [TraceField("id", id.description), TraceField("late", "true")])
        case .countdownStart(let id, let generation):
            guard poweredOn, var entry = alarm(id), entry.generation == generation, entry.state == .scheduled,
                  let preAlert = entry.countdown?.preAlertMs else { return [] }
            return enterCountdown(&entry, lengthMs: preAlert, nowWallMs: nowWallMs)
        case .countdownEnd(let id, let generation):
            guard poweredOn, var entry = alarm(id), entry.generation == generation, entry.state == .countdown else { return [] }
            entry.countdownEndWallMs = nil
            return beginAlert(&entry, [TraceField("id", id.description)])
        case .ghostEnd(let id, let generation):
            guard poweredOn, let entry = alarm(id), entry.generation == generation, entry.state == .alerting,
                  isGhost(entry) else { return [] }
            ghosts.removeAll { $0.id == id }
            return [traceEffect("ghost-alert-ended", [TraceField("id", id.description)])] + endAlert(entry, nowWallMs: nowWallMs) + changed()
        case .deliverSnapshot:
            snapshotPending = false
            if parameters.holdUpdatesWhileLocked && screenLocked {
                snapshotHeld = true
                return []
            }
            return [.toApp(.alarmUpdates(alarms.map { PlatformAlarm(id: $0.id, state: $0.state) }), launch: nil)]
        }
    }

    /// Device shutdown: alerts in progress end (assumption, see type docs).
    public mutating func shutdown(nowWallMs: Int64) -> [DaemonEffect] {
        var effects: [DaemonEffect] = []
        for entry in alarms where entry.state == .alerting {
            effects += endAlert(entry, nowWallMs: nowWallMs)
        }
        poweredOn = false
        return effects
    }

    /// Boot: every alarm is re-armed for its next time after now (a one-shot missed while off is dropped).
    public mutating func boot(nowWallMs: Int64) -> [DaemonEffect] {
        poweredOn = true
        var effects: [DaemonEffect] = []
        let held = alarms
        alarms = []
        for var entry in held {
            changeCounter += 1
            entry.generation = changeCounter
            switch entry.state {
            case .paused:
                insert(entry)  // a paused countdown waits for `resume`, across the restart too
            case .countdown:
                // A countdown keeps running in wall time while the phone is off (assumption).
                let end = entry.countdownEndWallMs ?? nowWallMs
                insert(entry)
                effects.append(.later(.countdownEnd(entry.id, generation: entry.generation), afterMs: max(0, end - nowWallMs)))
            case .scheduled, .alerting:
                if entry.nextFireWallMs <= nowWallMs {
                    guard case .relative(_, _, .some) = entry.schedule else { continue }
                    entry.nextFireWallMs = nextFire(of: entry.schedule, after: nowWallMs)
                }
                entry.state = .scheduled
                insert(entry)
                effects.append(armEvent(entry, nowWallMs: nowWallMs))
            }
        }
        return effects
    }

    /// The timed event that moves a scheduled alarm on: its countdown start (fire − preAlert,
    /// when a preAlert is configured and still ahead) or its fire.
    func armEvent(_ entry: DaemonAlarm, nowWallMs: Int64) -> DaemonEffect {
        if let preAlert = entry.countdown?.preAlertMs, entry.nextFireWallMs - preAlert > nowWallMs {
            return .later(.countdownStart(entry.id, generation: entry.generation), afterMs: entry.nextFireWallMs - preAlert - nowWallMs)
        }
        return .later(.fire(entry.id, generation: entry.generation), afterMs: max(0, entry.nextFireWallMs - nowWallMs))
    }

    mutating func enterCountdown(_ entry: inout DaemonAlarm, lengthMs: Int64, nowWallMs: Int64) -> [DaemonEffect] {
        changeCounter += 1
        entry.generation = changeCounter
        entry.state = .countdown
        entry.countdownEndWallMs = nowWallMs + lengthMs
        entry.pausedRemainingMs = nil
        replace(entry)
        return [.later(.countdownEnd(entry.id, generation: entry.generation), afterMs: lengthMs),
                traceEffect("countdown", [TraceField("id", entry.id.description), TraceField("ms", String(lengthMs))])] + changed()
    }

    /// `countdown(id:)`: alerting → countdown for the postAlert duration (the snooze / repeat).
    /// A nil postAlert falls back to the preAlert duration: "If the value is nil we will use the
    /// preAlert duration for post-alarm countdowns" (developer.apple.com/documentation/alarmkit/
    /// alarm/countdownduration-swift.struct/postalert).
    /// - Throws (as a value): `.notFound`; `.invalidState` outside alerting, or with neither
    ///   duration configured.
    public mutating func countdown(_ id: AlarmUUID, nowWallMs: Int64) -> Result<[DaemonEffect], PlatformError> {
        guard var entry = alarm(id) else { return .failure(.notFound) }
        guard entry.state == .alerting, let length = entry.countdown?.postAlertMs ?? entry.countdown?.preAlertMs else {
            return .failure(.invalidState)
        }
        return .success([.alertEnded(id, entry.metadata)] + enterCountdown(&entry, lengthMs: length, nowWallMs: nowWallMs))
    }

    /// `pause(id:)`: countdown → paused, keeping the time left.
    public mutating func pause(_ id: AlarmUUID, nowWallMs: Int64) -> Result<[DaemonEffect], PlatformError> {
        guard var entry = alarm(id) else { return .failure(.notFound) }
        guard entry.state == .countdown, let end = entry.countdownEndWallMs else { return .failure(.invalidState) }
        changeCounter += 1
        entry.generation = changeCounter  // the pending countdownEnd goes stale
        entry.state = .paused
        entry.pausedRemainingMs = max(0, end - nowWallMs)
        entry.countdownEndWallMs = nil
        replace(entry)
        return .success([traceEffect("paused", [TraceField("id", id.description)])] + changed())
    }

    /// `resume(id:)`: paused → countdown for the time that was left.
    public mutating func resume(_ id: AlarmUUID, nowWallMs: Int64) -> Result<[DaemonEffect], PlatformError> {
        guard var entry = alarm(id) else { return .failure(.notFound) }
        guard entry.state == .paused, let remaining = entry.pausedRemainingMs else { return .failure(.invalidState) }
        return .success(enterCountdown(&entry, lengthMs: remaining, nowWallMs: nowWallMs))
    }

    /// What an alerting alarm plays (not observable by the app).
    public func soundPlayed(_ id: AlarmUUID) -> AlertSoundPlayed? {
        guard let entry = alarm(id), entry.state == .alerting else { return nil }
        guard let name = entry.soundName else { return .systemDefault }
        return parameters.customSoundFails ? .systemFallback(name) : .custom(name)
    }

    /// Whether an alerting alarm can be heard: false for a non-alerting alarm, or when Silent
    /// mode silences it ([limit], `silentModeSilencesAlerts`); the state reads `alerting` either way.
    public func isAudible(_ id: AlarmUUID) -> Bool {
        guard let entry = alarm(id), entry.state == .alerting, !isGhost(entry) else { return false }
        return !(silentMode && parameters.silentModeSilencesAlerts)
    }

    /// scheduled (or a countdown run out) → alerting; the alert is a ghost when the field fault
    /// is armed (``ghostNextAlertMs``), and then ends on its own after that long.
    mutating func beginAlert(_ entry: inout DaemonAlarm, _ fields: [TraceField]) -> [DaemonEffect] {
        entry.state = .alerting
        replace(entry)
        var effects: [DaemonEffect] = [.alertStarted(entry.id, entry.metadata), traceEffect("alerting", fields)]
        if let lengthMs = ghostNextAlertMs {
            ghostNextAlertMs = nil
            ghosts.removeAll { $0.id == entry.id }
            ghosts.append(GhostAlert(id: entry.id, generation: entry.generation))
            effects.append(.later(.ghostEnd(entry.id, generation: entry.generation), afterMs: lengthMs))
            effects.append(traceEffect("ghost-alert", [TraceField("id", entry.id.description), TraceField("ms", String(lengthMs))]))
        }
        return effects + changed()
    }

    /// The liveness phase heals the world: no ghost alert is armed, and one in progress sounds.
    public mutating func healGhostAlerts() {
        ghostNextAlertMs = nil
        ghosts = []
    }

    /// Whether an alerting alarm is a ghost now (OpenMinis#115): no sound, no UI.
    public func isGhost(_ entry: DaemonAlarm) -> Bool {
        entry.state == .alerting && ghosts.contains { $0.id == entry.id && $0.generation == entry.generation }
    }

    /// Field fault (Apple developer forums thread 820388, FB22327481): a `.fixed` alarm alerts
    /// at a wrong instant, hours before its time, with the clock correct (a 07:30 alarm at
    /// 00:00). The candidate: the scheduled `.fixed` alarm due soonest at least `minLeadMs` and
    /// at most a day after now (ties by ID).
    public func wrongInstantCandidate(nowWallMs: Int64, minLeadMs: Int64) -> DaemonAlarm? {
        alarms.filter { entry in
            guard entry.state == .scheduled, case .fixed = entry.schedule else { return false }
            let lead = entry.nextFireWallMs - nowWallMs
            return lead >= minLeadMs && lead <= 86_400_000
        }.min { ($0.nextFireWallMs, $0.id) < ($1.nextFireWallMs, $1.id) }
    }

    /// Alerts `id` now, before its instant: it reads `alerting` like any alert and keeps its
    /// `.fixed` instant; its own fire at that instant then finds it alerting and does nothing, so
    /// a Stop (which deletes a one-shot) leaves nothing to ring at the real time.
    public mutating func alertAtWrongInstant(_ id: AlarmUUID) -> [DaemonEffect] {
        guard poweredOn, var entry = alarm(id), entry.state == .scheduled else { return [] }
        return beginAlert(&entry, [TraceField("id", id.description), TraceField("wrong-instant", "true"),
                                   TraceField("due", String(entry.nextFireWallMs))])
    }

    /// The OS removes an alarm with no app call (forums 825427). No call returns anything; the
    /// app sees the alarm missing from the next `alarmUpdates` snapshot (IOS-5, IOS-14). An alert
    /// in progress ends.
    public mutating func systemRemove(_ id: AlarmUUID, nowWallMs: Int64) -> [DaemonEffect] {
        guard let entry = alarm(id) else { return [] }
        alarms.removeAll { $0.id == id }
        var effects: [DaemonEffect] = [traceEffect("system-removed", [TraceField("id", id.description)])]
        if entry.state == .alerting { effects.append(.alertEnded(id, entry.metadata)) }
        return effects + changed()
    }

    /// An OS update installed at a restart empties the app's inventory (Apple developer forums
    /// thread 809398: alarms made under iOS 26.1 stopped ringing after the update). The IDs of
    /// the alarms held, in ID order; the caller removes each (``systemRemove(_:nowWallMs:)``).
    public var inventoryIDs: [AlarmUUID] { alarms.map(\.id) }

    /// The device's time zone changed: each scheduled `.relative` alarm moves to its local time in
    /// the new zone; `.fixed` instants stay (…/schedule-swift.enum/fixed(_:), relative(_:)).
    /// Countdowns run on; alerting and paused alarms are untouched. No `alarmUpdates` (no state changed).
    public mutating func timeZoneChanged(to zoneIdentifier: String, nowWallMs: Int64) -> [DaemonEffect] {
        guard let next = WallCalendar(zoneIdentifier: zoneIdentifier, dstPolicy: parameters.dstPolicy) else { return [] }
        calendar = next
        var effects: [DaemonEffect] = [traceEffect("time-zone-changed", [TraceField("zone", zoneIdentifier)])]
        for var entry in alarms where entry.state == .scheduled {
            guard case .relative = entry.schedule else { continue }
            entry.nextFireWallMs = nextFire(of: entry.schedule, after: nowWallMs)
            effects.append(rearm(&entry, nowWallMs: nowWallMs))
        }
        return effects
    }

    /// The wall clock was set by `deltaMs` (manual correction, or NTP): every scheduled alarm is
    /// re-armed against the new wall clock. A `.fixed` instant now in the past alerts at once; a
    /// `.relative` alarm keeps its next local time, and one whose time was jumped over alerts at
    /// once or waits for the next match (`jumpedOverRelativeFires`). Countdowns are durations and run on.
    /// - Parameter nowWallMs: the wall clock after the change.
    public mutating func wallClockChanged(byMs deltaMs: Int64, nowWallMs: Int64) -> [DaemonEffect] {
        var effects: [DaemonEffect] = [traceEffect("wall-clock-changed", [TraceField("delta-ms", String(deltaMs))])]
        let beforeWallMs = nowWallMs - deltaMs
        for var entry in alarms where entry.state == .scheduled {
            switch entry.schedule {
            case .fixed:
                break  // the same instant; `armEvent` measures it against the new clock
            case .relative:
                let jumpedOver = entry.nextFireWallMs > beforeWallMs && entry.nextFireWallMs <= nowWallMs
                // A fire due at the very instant a forward jump came is still scheduled only because
                // its timed event was queued behind the change: it came due before the jump, so it
                // alerts now, whatever the daemon does with times the jump went over (ios seed
                // 65753, shrunk: a +90 s jump at a one-shot's own 07:22 re-armed it for the next
                // morning while that morning's occurrence had begun).
                let dueAtChange = deltaMs > 0 && entry.nextFireWallMs == beforeWallMs
                if dueAtChange || (jumpedOver && parameters.jumpedOverRelativeFires) {
                    // Treated as due now; a weekly alarm re-arms for its next time after the alert.
                    entry.nextFireWallMs = nowWallMs
                } else {
                    entry.nextFireWallMs = nextFire(of: entry.schedule, after: nowWallMs - 1)
                }
            }
            effects.append(rearm(&entry, nowWallMs: nowWallMs))
        }
        return effects
    }

    /// New generation (stale timed events are ignored) and the timed event for it.
    mutating func rearm(_ entry: inout DaemonAlarm, nowWallMs: Int64) -> DaemonEffect {
        changeCounter += 1
        entry.generation = changeCounter
        replace(entry)
        return armEvent(entry, nowWallMs: nowWallMs)
    }

    mutating func replace(_ entry: DaemonAlarm) {
        alarms.removeAll { $0.id == entry.id }
        insert(entry)
    }

    mutating func insert(_ entry: DaemonAlarm) {
        alarms.append(entry)
        alarms.sort { $0.id < $1.id }
    }

    /// Records a change and emits (or coalesces) an `alarmUpdates` snapshot.
    /// The late-delivery delay for this fire, if the dense-fixed-alarm fault applies.
    mutating func denseLateDelay(_ entry: DaemonAlarm, nowWallMs: Int64) -> Int64? {
        guard parameters.denseLateDelayMaxMs > 0, screenLocked, case .fixed = entry.schedule else { return nil }
        let neighbours = alarms.filter { other in
            if case .fixed = other.schedule { return abs(other.nextFireWallMs - entry.nextFireWallMs) <= 600_000 }
            return false
        }
        guard neighbours.count >= parameters.denseFixedThreshold else { return nil }
        return lateRNG.int(in: min(20_000, parameters.denseLateDelayMaxMs)...parameters.denseLateDelayMaxMs)
    }

    /// The phone unlocked: updates held while it was locked arrive as one burst.
    public mutating func screenUnlocked() -> [DaemonEffect] {
        screenLocked = false
        guard snapshotHeld else { return [] }
        snapshotHeld = false
        return [.toApp(.alarmUpdates(alarms.map { PlatformAlarm(id: $0.id, state: $0.state) }), launch: nil),
                traceEffect("updates-burst", [])]
    }

    mutating func changed() -> [DaemonEffect] {
        changeCounter += 1
        if parameters.holdUpdatesWhileLocked && screenLocked {
            snapshotHeld = true
            return []
        }
        if parameters.coalesceUpdates {
            if snapshotPending { return [] }
            snapshotPending = true
            return [.later(.deliverSnapshot, afterMs: parameters.coalesceWindowMs)]
        }
        return [.toApp(.alarmUpdates(alarms.map { PlatformAlarm(id: $0.id, state: $0.state) }), launch: nil)]
    }
}

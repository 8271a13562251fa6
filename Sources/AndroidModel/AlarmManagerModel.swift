import AlarmBridge
import SimKernel

/// One pending alarm: a PendingIntent identified by its request code.
public struct PendingAlarm: Sendable, Equatable {
    public var id: AlarmUUID
    public var requestCode: Int32
    /// The trigger the caller asked for, as wall-clock ms (RTC*: the requested time itself;
    /// ELAPSED*: converted at set time). For the bridge's setAlarmClock rings this is the ring's
    /// `fireWallMs`, which checkers compare with the oracle.
    public var triggerWallMs: Int64
    public var metadata: RingMetadata
    public var generation: UInt64
    /// The call that set it.
    public var method: AlarmSetMethod = .setAlarmClock
    public var type: AlarmClockType = .rtcWakeup
    /// AMS `origWhen`: the requested trigger in the type's clock (wall ms or elapsed ms); RTC
    /// alarms are recomputed from it on a time change.
    public var requestedTriggerMs: Int64 = 0
    /// AMS requester policy time: the nominal delivery in elapsedRealtime ms, after the 5 s floor.
    public var whenElapsedMs: Int64 = 0
    /// Delivery window after `whenElapsedMs`, ms (0 = exact).
    public var windowLengthMs: Int64 = 0
    /// Repeat interval, ms (0 = one-shot).
    public var intervalMs: Int64 = 0
    /// Order among alarms due at the same instant (generation, or a seeded draw).
    public var tieBreak: UInt64 = 0
    /// OEM battery-optimisation delay drawn at set time, ms (0 unless the parameter is on).
    public var oemDelayMs: Int64 = 0
    /// The host's injected hold (`fault late-delivery`): no delivery before this elapsed time, ms
    /// (nil: none). Unlike the OEM delay it spares no method: see ``AlarmManagerModel/holdNextDue(forMs:)``.
    public var heldUntilElapsedMs: Int64?
    /// FLAG_ALLOW_WHILE_IDLE_COMPAT instead of FLAG_ALLOW_WHILE_IDLE: a `setExactAndAllowWhileIdle`
    /// allowed only by the power allowlist, not a permission (AMS `set`: `lowerQuota = allowWhileIdle`;
    /// AOSP AlarmManagerServiceTest `exactAllowWhileIdleBinderCallWithAllowlist`). Fixed at set time.
    public var lowerQuota = false
    /// FLAG_ALLOW_WHILE_IDLE_UNRESTRICTED: any alarm but an alarm clock of a user-exempt app (AMS
    /// `set`: `isUidPowerSaveUserExempt`; AOSP `binderCallWithUserAllowlist`). Fixed at set time.
    public var allowWhileIdleUnrestricted = false
    /// Its PendingIntent was cancelled outside AlarmManager without AMS removing the alarm: `send`
    /// throws CanceledException at delivery (``AlarmManagerModel/pendingIntentCancelled(_:noticed:)``).
    public var intentCancelled = false

    /// Set with FLAG_ALLOW_WHILE_IDLE (`setExactAndAllowWhileIdle`); the flag the alarm keeps is
    /// ``AlarmManagerModel/allowWhileIdleExact(_:)``'s.
    var allowWhileIdleExact: Bool { method == .setExactAndAllowWhileIdle }
    /// Allowed while idle with the compat quota (FLAG_ALLOW_WHILE_IDLE_COMPAT).
    var allowWhileIdleCompat: Bool { method == .setAndAllowWhileIdle }
    /// AMS `isExemptFromAppStandby`: alarm clocks and FLAG_ALLOW_WHILE_IDLE alarms.
    var exemptFromStandby: Bool { method == .setAlarmClock || method == .setExactAndAllowWhileIdle }
}

/// The scalar fields of a ``PendingAlarm`` that AMS's delivery-time adjustments read
/// (``AlarmManagerModel/deliveryBounds(_:)``): a copy of them retains nothing, where a copy of
/// the alarm retains its metadata (issue 20: the kernel re-arm after every `set` reads every
/// pending alarm).
struct DeliveryTerms {
    var method: AlarmSetMethod
    var lowerQuota: Bool
    var allowWhileIdleUnrestricted: Bool
    var whenElapsedMs: Int64
    var windowLengthMs: Int64
    var oemDelayMs: Int64
    var heldUntilElapsedMs: Int64?

    /// As ``PendingAlarm``'s.
    var allowWhileIdleExact: Bool { method == .setExactAndAllowWhileIdle }
    var allowWhileIdleCompat: Bool { method == .setAndAllowWhileIdle }
}

extension DeliveryTerms {
    /// The terms of `alarm`, its fields read where it is: a borrowed alarm is not copied
    /// (issue 20: passing an alarm by value copied it, metadata and all, for a few integers).
    init(of alarm: borrowing PendingAlarm) {
        self.init(method: alarm.method, lowerQuota: alarm.lowerQuota, allowWhileIdleUnrestricted: alarm.allowWhileIdleUnrestricted,
                  whenElapsedMs: alarm.whenElapsedMs, windowLengthMs: alarm.windowLengthMs, oemDelayMs: alarm.oemDelayMs,
                  heldUntilElapsedMs: alarm.heldUntilElapsedMs)
    }
}

extension PendingAlarm {
    var deliveryTerms: DeliveryTerms { DeliveryTerms(of: self) }
}

public enum AlarmManagerEvent: Sendable, Equatable {
    /// First-cut per-alarm fire event; no longer emitted (kept for hosts that replay old queues):
    /// handled as a kernel wakeup.
    case fire(AlarmUUID, generation: UInt64)
    case lockedBootBroadcast
    /// The kernel alarm AMS set for its next delivery or doze step; stale tokens are ignored.
    case wakeup(token: UInt64, atElapsedMs: Int64)
    /// A heads-up alarm notification collapses to the shade (FSI denied).
    case headsUpCollapse(AlarmUUID, token: UInt64)
    /// The OEM battery killer strikes the ringing process.
    case oemKillRinging(token: UInt64)
}

public enum AlarmManagerEffect: Sendable, Equatable {
    /// Deliver to the app process; `launch` non-nil starts it (manifest receivers), nil drops it
    /// when no process runs.
    case toApp(BridgeInput, launch: LaunchReason?)
    case later(AlarmManagerEvent, afterMs: Int64)
    case alertStarted(AlarmUUID, RingMetadata)
    case alertEnded(AlarmUUID, RingMetadata)
    /// The system kills the app process (exact-alarm permission revoked).
    case killProcess
    case trace(String, [TraceField])
    /// A broadcast the bridge has no input for (TIME_SET, TIMEZONE_CHANGED, MY_PACKAGE_REPLACED,
    /// SCREEN_OFF …); `launch` as for `toApp`.
    case broadcast(AndroidBroadcast, launch: LaunchReason?)
    /// The system kills the app process for another reason than the permission revocation.
    case processKilled(AndroidKillReason)
}

/// An AlarmManager-like scheduler plus the app's ringing service, in virtual time.
///
/// Sources: AOSP `com.android.server.alarm.AlarmManagerService` (AMS) and developer.android.com,
/// condensed in PLATFORMS.md; each rule's doc comment names its function or page. Modelled:
/// - scheduling: `set`, `setWindow`, `setExact`, `setExactAndAllowWhileIdle`, `setAndAllowWhileIdle`,
///   `setAlarmClock`, `setRepeating`, `setInexactRepeating` on the four clock types; the 5 s floor;
///   inexact windows; the same PendingIntent replaces; > 500 pending throws IllegalStateException;
/// - delivery: lazy batching (AMS `LazyAlarmStore.getNextWakeupDeliveryTime`), non-wakeup alarms
///   held while the screen is off, a seeded order among equal times, missed repeats folded into one
///   delivery with a count;
/// - doze (idle periods, maintenance windows, allow-while-idle quotas, alarm clocks pulling the exit
///   forward), standby-bucket quotas, charging parole;
/// - time changes (TIME_SET, TIMEZONE_CHANGED), exact-alarm permissions by API level and manifest,
///   direct boot and storage, force-stop, swipe-from-recents, app update, OEM interference;
/// - the ringing service (presentation, audio focus, volume, failure, teardown) — see
///   `AlarmManagerModel+Ringing.swift`.
///
/// Time: every new call takes `now` (`AndroidInstant`). The first cut's calls without it
/// (`setAlarmClock(_:nowWallMs:)`, `handle(_:)`, …) use the last instant the host reported with
/// `observe(_:)`, or infer elapsed time from the wall clock when the host never reported one.
/// Randomness comes only from the injected generator.
public struct AlarmManagerModel: Sendable {
    /// Whether the model's frequent `.trace` effects (a `set`, a delivery, a cancel) carry their
    /// fields (IDs and times as text). The simulator turns it off for a run that keeps no trace,
    /// as it does the AlarmKit daemon's: those fields are only ever printed into the trace (the
    /// host's checks read the fields of broadcast, boot and permission events, which always carry
    /// them). Issue 20: formatting every request's ID was a per cent of an Android campaign.
    public var describesTraceEffects = true

    /// A `.trace` effect, its fields built only when ``describesTraceEffects``.
    func traceEffect(_ name: String, _ fields: @autoclosure () -> [TraceField]) -> AlarmManagerEffect {
        .trace(name, describesTraceEffects ? fields() : [])
    }

    /// Every stored field of the model (issue 20: kept in one copy-on-write box, ``CopyOnWrite``).
    struct Fields: Sendable {
        var parameters: AlarmManagerParameters
        var pending: [PendingAlarm] = []
        var ringingStatuses: [RingingStatus] = []
        var exactAlarmPermission: Bool = true
        var poweredOn: Bool = true
        var failNextSchedules: Int = 0
        var failNextReads: Int = 0
        var changeCounter: UInt64 = 0
        var random: Xoshiro256StarStar
        var now: AndroidInstant = AndroidInstant(elapsedRealtimeMs: 0, wallMs: 0)
        var clockAnchored: Bool = false
        var lastTimeChange: AndroidInstant?
        var screenOn: Bool = false
        var batterySaverOn: Bool = false
        var appActive: Bool = false
        var charging: Bool = false
        var doze: DozeState = .inactive
        var dozeNominalUntilMs: Int64 = 0
        var standbyBucket: StandbyBucket = .active
        var forceStopped: Bool = false
        var userUnlocked: Bool = true
        var timeZoneID: String = "UTC"
        var fullScreenIntentAllowed: Bool = true
        var standbyHistory: [Int64] = []
        var allowWhileIdleHistory: [Int64] = []
        var allowWhileIdleCompatHistory: [Int64] = []
        var kernelAlarmToken: UInt64 = 0
        var kernelAlarmElapsedMs: Int64?
        var ringingToken: UInt64 = 0
        var deliveryLog: [AlarmDelivery] = []
        var dropSetAfterBoot: Int?
        var setsSinceBoot: Int = 0
        var droppedAlarms: [PendingAlarm] = []
        var systemSoundAtStart: [AlarmUUID] = []
        var lockScreen: LockScreenState = LockScreenState()
    }

    /// The fields, in one copy-on-write box (issue 20; ``CopyOnWrite``).
    private var storage: CopyOnWrite<Fields>

    public var parameters: AlarmManagerParameters {
        _read { yield storage.value.parameters }
        _modify { yield &storage.value.parameters }
    }
    /// Sorted by request code.
    public internal(set) var pending: [PendingAlarm] {
        _read { yield storage.value.pending }
        _modify { yield &storage.value.pending }
    }
    /// The ringing service's rings, in start order.
    public internal(set) var ringingStatuses: [RingingStatus] {
        _read { yield storage.value.ringingStatuses }
        _modify { yield &storage.value.ringingStatuses }
    }
    /// SCHEDULE_EXACT_ALARM's app-op: allowed (true) or denied.
    public internal(set) var exactAlarmPermission: Bool {
        _read { yield storage.value.exactAlarmPermission }
        _modify { yield &storage.value.exactAlarmPermission }
    }
    public internal(set) var poweredOn: Bool {
        _read { yield storage.value.poweredOn }
        _modify { yield &storage.value.poweredOn }
    }
    public var failNextSchedules: Int {
        _read { yield storage.value.failNextSchedules }
        _modify { yield &storage.value.failNextSchedules }
    }
    public var failNextReads: Int {
        _read { yield storage.value.failNextReads }
        _modify { yield &storage.value.failNextReads }
    }
    public internal(set) var changeCounter: UInt64 {
        _read { yield storage.value.changeCounter }
        _modify { yield &storage.value.changeCounter }
    }
    /// The model's generator (doze-exit fuzz, seeded tie-breaks, OEM delays).
    var random: Xoshiro256StarStar {
        _read { yield storage.value.random }
        _modify { yield &storage.value.random }
    }
    /// The last instant the model knows of.
    public internal(set) var now: AndroidInstant {
        _read { yield storage.value.now }  // determinism-ok: the model's virtual clock field, not ambient time
        _modify { yield &storage.value.now }  // determinism-ok: the same field
    }
    /// Whether `now.wallMs - now.elapsedRealtimeMs` is known since the last boot.
    var clockAnchored: Bool {
        _read { yield storage.value.clockAnchored }
        _modify { yield &storage.value.clockAnchored }
    }
    /// The clocks at the last accepted time change since boot (AMS `mLastTimeChangeClockTime`,
    /// `mLastTimeChangeRealtime`); nil: none yet, so the next kernel clock change is accepted
    /// whatever its size.
    var lastTimeChange: AndroidInstant? {
        _read { yield storage.value.lastTimeChange }
        _modify { yield &storage.value.lastTimeChange }
    }
    /// Interactive (screen on).
    public internal(set) var screenOn: Bool {
        _read { yield storage.value.screenOn }
        _modify { yield &storage.value.screenOn }
    }
    /// Battery Saver switched on (``setBatterySaver(_:now:)``); it acts only while not charging.
    public internal(set) var batterySaverOn: Bool {
        _read { yield storage.value.batterySaverOn }
        _modify { yield &storage.value.batterySaverOn }
    }
    /// The app's uid is active (AppStateTracker `isUidActive`): the host reports the app in the
    /// foreground with ``setAppActive(_:now:)``; process death ends it. Not modelled: the 60 s
    /// BACKGROUND_SETTLE_TIME before a backgrounded uid goes idle, and a foreground service keeping it active.
    public internal(set) var appActive: Bool {
        _read { yield storage.value.appActive }
        _modify { yield &storage.value.appActive }
    }
    public internal(set) var charging: Bool {
        _read { yield storage.value.charging }
        _modify { yield &storage.value.charging }
    }
    public internal(set) var doze: DozeState {
        _read { yield storage.value.doze }
        _modify { yield &storage.value.doze }
    }
    /// The current idle period's requested end before alarm clocks pulled it forward.
    var dozeNominalUntilMs: Int64 {
        _read { yield storage.value.dozeNominalUntilMs }
        _modify { yield &storage.value.dozeNominalUntilMs }
    }
    public internal(set) var standbyBucket: StandbyBucket {
        _read { yield storage.value.standbyBucket }
        _modify { yield &storage.value.standbyBucket }
    }
    /// Force-stopped: no broadcast reaches the app until the user launches it.
    public internal(set) var forceStopped: Bool {
        _read { yield storage.value.forceStopped }
        _modify { yield &storage.value.forceStopped }
    }
    /// Unlocked since the last boot (credential-protected storage readable).
    public internal(set) var userUnlocked: Bool {
        _read { yield storage.value.userUnlocked }
        _modify { yield &storage.value.userUnlocked }
    }
    public internal(set) var timeZoneID: String {
        _read { yield storage.value.timeZoneID }
        _modify { yield &storage.value.timeZoneID }
    }
    /// USE_FULL_SCREEN_INTENT granted (34+: user-revocable).
    public internal(set) var fullScreenIntentAllowed: Bool {
        _read { yield storage.value.fullScreenIntentAllowed }
        _modify { yield &storage.value.fullScreenIntentAllowed }
    }
    /// Elapsed times of deliveries counted by each quota, ascending, pruned past 24 h.
    var standbyHistory: [Int64] {
        _read { yield storage.value.standbyHistory }
        _modify { yield &storage.value.standbyHistory }
    }
    var allowWhileIdleHistory: [Int64] {
        _read { yield storage.value.allowWhileIdleHistory }
        _modify { yield &storage.value.allowWhileIdleHistory }
    }
    var allowWhileIdleCompatHistory: [Int64] {
        _read { yield storage.value.allowWhileIdleCompatHistory }
        _modify { yield &storage.value.allowWhileIdleCompatHistory }
    }
    var kernelAlarmToken: UInt64 {
        _read { yield storage.value.kernelAlarmToken }
        _modify { yield &storage.value.kernelAlarmToken }
    }
    var kernelAlarmElapsedMs: Int64? {
        _read { yield storage.value.kernelAlarmElapsedMs }
        _modify { yield &storage.value.kernelAlarmElapsedMs }
    }
    var ringingToken: UInt64 {
        _read { yield storage.value.ringingToken }
        _modify { yield &storage.value.ringingToken }
    }
    /// The last deliveries, oldest first, at most `deliveryLogLimit`.
    public internal(set) var deliveryLog: [AlarmDelivery] {
        _read { yield storage.value.deliveryLog }
        _modify { yield &storage.value.deliveryLog }
    }
    /// Fault `accepted-request-dropped` (issue 18; plus_plugins#1981: an alarm re-armed after a
    /// reboot never fires): the n-th `set*` call after the boot (1-based) that passes every check
    /// returns normally and leaves AlarmManager holding nothing for its PendingIntent. nil: none.
    public var dropSetAfterBoot: Int? {
        _read { yield storage.value.dropSetAfterBoot }
        _modify { yield &storage.value.dropSetAfterBoot }
    }
    /// `set*` calls that passed every check since the boot.
    var setsSinceBoot: Int {
        _read { yield storage.value.setsSinceBoot }
        _modify { yield &storage.value.setsSinceBoot }
    }
    /// Alarms AlarmManager accepted and dropped: no delivery, not in `getNextAlarmClock()`, but
    /// their PendingIntents exist, so FLAG_NO_CREATE probes (``readPending()``) still find them
    /// until their trigger time passes. Gone at a re-registration, a cancel, a reboot or a force-stop.
    public internal(set) var droppedAlarms: [PendingAlarm] {
        _read { yield storage.value.droppedAlarms }
        _modify { yield &storage.value.droppedAlarms }
    }
    /// Rings the app's ringing service was told to start with the system alarm sound
    /// (``playSystemSound(_:)`` before ``startRinging(_:metadata:soundName:)``).
    var systemSoundAtStart: [AlarmUUID] {
        _read { yield storage.value.systemSoundAtStart }
        _modify { yield &storage.value.systemSoundAtStart }
    }
    /// Keyguard and activity window flags (AND-10..12): see `AlarmManagerModel+LockScreen.swift`.
    public internal(set) var lockScreen: LockScreenState {
        _read { yield storage.value.lockScreen }
        _modify { yield &storage.value.lockScreen }
    }


    static let deliveryLogLimit = 512

    /// A model whose randomness is a generator seeded with `parameters.randomSeed`.
    public init(parameters: AlarmManagerParameters) {
        self.init(parameters: parameters, random: Xoshiro256StarStar(seed: parameters.randomSeed))
    }

    /// A model drawing every random choice from `random` (for example
    /// `streams.stream("android.alarm-manager")`).
    public init(parameters: AlarmManagerParameters, random: Xoshiro256StarStar) {
        storage = CopyOnWrite(Fields(parameters: parameters, random: random))
        // API 34: a fresh install targeting 33+ starts with SCHEDULE_EXACT_ALARM denied
        // (developer.android.com/about/versions/14/changes/schedule-exact-alarms).
        self.exactAlarmPermission = !parameters.exactAlarmDeniedByDefault
        self.fullScreenIntentAllowed = parameters.manifest.declaresUseFullScreenIntent
        self.timeZoneID = parameters.timeZoneID
        self.batterySaverOn = parameters.batterySaver
    }

    public func alarm(_ id: AlarmUUID) -> PendingAlarm? { pending.first { $0.id == id } }

    /// The app's alarm with this PendingIntent request code.
    public func alarm(requestCode: Int32) -> PendingAlarm? { pending.first { $0.requestCode == requestCode } }

    /// Rings the app's ringing service is running, in start order.
    public var ringing: [AlarmUUID] { ringingStatuses.map(\.id) }

    public func ringingMetadata(_ id: AlarmUUID) -> RingMetadata? {
        ringingStatuses.first { $0.id == id }?.metadata
    }

    /// `canScheduleExactAlarms()`: USE_EXACT_ALARM on 33+ (install-time), or a SCHEDULE_EXACT_ALARM
    /// declaration that applies at this API level with its app-op allowed (AMS `canScheduleExactAlarms`,
    /// `hasUseExactAlarmInternal`, `hasScheduleExactAlarmInternal`).
    public var canScheduleExactAlarms: Bool {
        // Before API 31 there is no exact-alarm permission at all (AMS: target < S is exempt).
        parameters.apiLevel < 31 || parameters.effectiveTargetSdk < 31 || holdsExactAlarmPermission
            || parameters.batteryUsage.onPowerAllowlist  // isExemptFromExactAlarmPermissionNoLock
    }

    /// USE_EXACT_ALARM, or SCHEDULE_EXACT_ALARM declared and allowed: a permission, not an exemption.
    var holdsExactAlarmPermission: Bool { holdsUseExactAlarm || (scheduleExactAlarmDeclared && exactAlarmPermission) }

    /// FLAG_ALLOW_WHILE_IDLE (the exact quota): `setExactAndAllowWhileIdle` of an app targeting 31+;
    /// below, AMS `set` gives it FLAG_ALLOW_WHILE_IDLE_COMPAT.
    func allowWhileIdleExact(_ alarm: PendingAlarm) -> Bool { allowWhileIdleExact(alarm.deliveryTerms) }

    /// ``allowWhileIdleExact(_:)`` from the alarm's ``DeliveryTerms``.
    func allowWhileIdleExact(_ alarm: DeliveryTerms) -> Bool {
        alarm.allowWhileIdleExact && parameters.effectiveTargetSdk >= 31 && !alarm.lowerQuota && !alarm.allowWhileIdleUnrestricted
    }

    /// FLAG_ALLOW_WHILE_IDLE_COMPAT (the compat quota): `setAndAllowWhileIdle`, and
    /// `setExactAndAllowWhileIdle` of an app targeting below 31.
    /// A power-allowlisted app's `setExactAndAllowWhileIdle` without the permission gets it too;
    /// a user-exempt app's alarms get FLAG_ALLOW_WHILE_IDLE_UNRESTRICTED instead (AMS `set`).
    func allowWhileIdleCompat(_ alarm: PendingAlarm) -> Bool { allowWhileIdleCompat(alarm.deliveryTerms) }

    /// ``allowWhileIdleCompat(_:)`` from the alarm's ``DeliveryTerms``.
    func allowWhileIdleCompat(_ alarm: DeliveryTerms) -> Bool {
        guard !alarm.allowWhileIdleUnrestricted else { return false }
        return alarm.allowWhileIdleCompat || (alarm.allowWhileIdleExact && (parameters.effectiveTargetSdk < 31 || alarm.lowerQuota))
    }

    /// AMS `isExemptFromAppStandby`: alarm clocks, FLAG_ALLOW_WHILE_IDLE and
    /// FLAG_ALLOW_WHILE_IDLE_UNRESTRICTED alarms.
    func exemptFromStandby(_ alarm: PendingAlarm) -> Bool { exemptFromStandby(alarm.deliveryTerms) }

    /// ``exemptFromStandby(_:)`` from the alarm's ``DeliveryTerms``.
    func exemptFromStandby(_ alarm: DeliveryTerms) -> Bool {
        alarm.method == .setAlarmClock || allowWhileIdleExact(alarm) || alarm.allowWhileIdleUnrestricted
    }

    /// USE_EXACT_ALARM is declared and exists at this API level (33+).
    var holdsUseExactAlarm: Bool { parameters.useExactAlarmApplies }

    /// SCHEDULE_EXACT_ALARM is declared and its `maxSdkVersion` (if any) covers this API level.
    var scheduleExactAlarmDeclared: Bool { parameters.scheduleExactAlarmApplies }

    // MARK: - Clock

    /// Tells the model the host's clocks at this instant. Any wall-clock jump against the elapsed
    /// clock since the last reading is a kernel clock change (TIME_CHANGED_MASK). AMS AlarmThread
    /// accepts it when it is the first since boot (`lastTimeChangeClockTime == 0`), or when the
    /// wall clock is more than 1 s off the last accepted change carried forward by elapsed time
    /// (`expectedClockTime ± 1000`), so small corrections add up until one crosses the second.
    /// An accepted change recomputes RTC alarms from their wall time and broadcasts TIME_SET
    /// (`reevaluateRtcAlarms`); a rejected one does nothing. AOSP AlarmManagerServiceTest
    /// `timeChangeMovesRtcAlarm`.
    ///
    /// - Parameter now: The host's elapsedRealtime and wall clock; elapsed time never goes back
    ///   except across a reboot.
    /// - Returns: Effects of a detected time change, else none.
    public mutating func observe(_ now: AndroidInstant) -> [AlarmManagerEffect] {
        let previous = self.now  // determinism-ok: the host-reported instant, not a clock read
        let wasAnchored = clockAnchored
        self.now = now  // determinism-ok: the host-reported instant
        clockAnchored = true
        guard wasAnchored, poweredOn, now.elapsedRealtimeMs >= previous.elapsedRealtimeMs else { return [] }
        let expectedWallMs = previous.wallMs + (now.elapsedRealtimeMs - previous.elapsedRealtimeMs)
        guard now.wallMs != expectedWallMs else { return [] }
        if let last = lastTimeChange {
            let expectedSinceChange = last.wallMs + (now.elapsedRealtimeMs - last.elapsedRealtimeMs)
            guard abs(now.wallMs - expectedSinceChange) > 1_000 else { return [] }
        }
        lastTimeChange = now
        return wallClockChanged(jumpMs: now.wallMs - expectedWallMs)
    }

    /// wall − elapsed, the offset AMS `convertToElapsed` subtracts from RTC times.
    var wallMinusElapsedMs: Int64 { now.wallMs - now.elapsedRealtimeMs }

    /// The instant of a first-cut call that passes only the wall clock.
    mutating func instant(wallMs: Int64) -> AndroidInstant {
        if !clockAnchored {
            clockAnchored = true
            return AndroidInstant(elapsedRealtimeMs: now.elapsedRealtimeMs, wallMs: wallMs)
        }
        let elapsed = max(now.elapsedRealtimeMs, wallMs - wallMinusElapsedMs)
        return AndroidInstant(elapsedRealtimeMs: elapsed, wallMs: elapsed + wallMinusElapsedMs)
    }

    // MARK: - Scheduling

    /// `setAlarmClock(AlarmClockInfo(triggerAtMillis), PendingIntent)`: synchronous.
    ///
    /// The first cut's call: an `RTC_WAKEUP` alarm clock at `request.fireWallMs`. Completes with
    /// `.scheduleCompleted(id, .success(fireWallMs))`, or a failure: `.securityException` without an
    /// exact-alarm permission, `.illegalStateException` at 500 pending, `.writeFailed` (fault).
    public mutating func setAlarmClock(_ request: RingRequest, nowWallMs: Int64) -> [AlarmManagerEffect] {
        now = instant(wallMs: nowWallMs)
        return set(AlarmManagerRequest(request, method: .setAlarmClock), at: now)
    }

    /// `setAndAllowWhileIdle(RTC_WAKEUP, triggerAtMillis, PendingIntent)`: the bridge's degraded
    /// ring when exact alarms are refused (``RingPrecision/allowWhileIdle``). Needs no exact-alarm
    /// permission; inexact (AMS `maxTriggerTime`: 0.75 × futurity, at most 1 h) and delivered in
    /// doze within the compat quota (AMS `adjustDeliveryTimeBasedOnDeviceIdle`).
    public mutating func setAndAllowWhileIdle(_ request: RingRequest, nowWallMs: Int64) -> [AlarmManagerEffect] {
        now = instant(wallMs: nowWallMs)
        return set(AlarmManagerRequest(request, method: .setAndAllowWhileIdle), at: now)
    }

    /// Any `AlarmManager.set*` call with a broadcast PendingIntent; synchronous.
    ///
    /// The trigger becomes `max(now + 5 s, requested)` in elapsed time (AMS `setImpl`, MIN_FUTURITY),
    /// the window follows the method (`AlarmSetMethod`), and an alarm with the same request code is
    /// replaced (AMS `setImplLocked` → `removeLocked(operation)`).
    ///
    /// - Returns: `.toApp(.scheduleCompleted(id, result))` with `.success(triggerWallMs)` or a failure:
    ///   `.securityException` — an exact method (`setExact`, `setExactAndAllowWhileIdle`,
    ///   `setAlarmClock`) without `canScheduleExactAlarms` (AMS `set`, S+; also from a boot receiver);
    ///   `.illegalStateException` — `maxAlarmsPerApp` already pending (AMS `setImpl`, checked before
    ///   the replacement); `.writeFailed` — an injected schedule fault.
    public mutating func set(_ request: AlarmManagerRequest, now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        effects += set(request, at: self.now)  // determinism-ok: the host-reported instant
        return effects
    }

    mutating func set(_ request: AlarmManagerRequest, at now: AndroidInstant) -> [AlarmManagerEffect] {
        let idField = { TraceField("id", request.id.description) }  // built only for a trace that prints it
        if parameters.appStartModeDisabled && !appActive {
            // AMS `setImpl`: "Not setting alarm … package not allowed to start": the call returns
            // normally, so the app sees success, but no alarm is set.
            let triggerWall = request.type.isWallClock ? request.triggerAtMs : request.triggerAtMs + wallMinusElapsedMs
            return [.toApp(.scheduleCompleted(request.id, .success(triggerWall)), launch: nil),
                    .trace("set-ignored-start-mode-disabled", [idField()])]
        }
        if request.method.isExact && !canScheduleExactAlarms {
            return [.toApp(.scheduleCompleted(request.id, .failure(.securityException)), launch: nil),
                    .trace("security-exception", [idField()])]
        }
        if failNextSchedules > 0 {
            failNextSchedules -= 1
            return [.toApp(.scheduleCompleted(request.id, .failure(.writeFailed)), launch: nil),
                    .trace("schedule-failed", [idField()])]
        }
        if pending.count >= parameters.maxAlarmsPerApp {
            return [.toApp(.scheduleCompleted(request.id, .failure(.illegalStateException)), launch: nil),
                    .trace("illegal-state-exception", [idField(), TraceField("pending", String(pending.count))])]
        }
        var alarm = makeAlarm(request, at: now)
        applyPowerExemptionFlags(&alarm)
        pending.removeAll { $0.requestCode == alarm.requestCode }  // the same PendingIntent replaces
        droppedAlarms.removeAll { $0.requestCode == alarm.requestCode }
        setsSinceBoot += 1
        if let dropAt = dropSetAfterBoot, setsSinceBoot >= dropAt {
            // plus_plugins#1981: accepted, returned normally, held nowhere.
            dropSetAfterBoot = nil
            droppedAlarms.append(alarm)
            changeCounter += 1
            return [.toApp(.scheduleCompleted(request.id, .success(alarm.triggerWallMs)), launch: nil),
                    .trace("request-dropped", [idField(), TraceField("trigger", String(alarm.triggerWallMs))])]
        }
        pending.append(alarm)
        pending.sort { $0.requestCode < $1.requestCode }
        if alarm.method == .setAlarmClock { readjustIdleUntil() }
        var effects = rearmKernelAlarm()
        effects.append(.toApp(.scheduleCompleted(request.id, .success(alarm.triggerWallMs)), launch: nil))
        effects.append(traceEffect(request.method == .setAlarmClock ? "set-alarm-clock" : "set", {
            var fields = [idField(), TraceField("code", String(alarm.requestCode)), TraceField("trigger", String(alarm.triggerWallMs))]
            if request.method != .setAlarmClock || request.type != .rtcWakeup {
                fields += [TraceField("method", request.method.rawValue), TraceField("type", request.type.rawValue),
                           TraceField("window", String(alarm.windowLengthMs))]
            }
            return fields
        }()))
        assert(alarm.whenElapsedMs >= now.elapsedRealtimeMs + parameters.minFuturityMs, "the 5 s floor was not applied")
        return effects
    }

    /// The flags AMS `set` gives the alarm of an app on the power allowlist: a user-exempt app's
    /// alarms (alarm clocks excepted) get FLAG_ALLOW_WHILE_IDLE_UNRESTRICTED (AOSP
    /// `binderCallWithUserAllowlist`); an allowlisted app's `setExactAndAllowWhileIdle` that only
    /// the exemption allows gets the compat quota (`exactAllowWhileIdleBinderCallWithAllowlist`).
    func applyPowerExemptionFlags(_ alarm: inout PendingAlarm) {
        let usage = parameters.batteryUsage
        if usage.userExempt && alarm.method != .setAlarmClock {
            alarm.allowWhileIdleUnrestricted = true
        } else if usage.onPowerAllowlist && alarm.method.isExact && parameters.effectiveTargetSdk >= 31 && !holdsExactAlarmPermission {
            alarm.lowerQuota = true
        }
    }

    /// The pending alarm for `request` at `now`: floor, window and interval as AMS `setImpl` computes them.
    mutating func makeAlarm(_ request: AlarmManagerRequest, at now: AndroidInstant) -> PendingAlarm {
        let nowElapsed = now.elapsedRealtimeMs
        let nominal = request.type.isWallClock ? request.triggerAtMs - wallMinusElapsedMs : request.triggerAtMs
        let whenElapsed = max(nowElapsed + parameters.minFuturityMs, nominal)
        let interval = request.method.isRepeating ? max(parameters.minRepeatIntervalMs, request.intervalMs) : 0
        let window: Int64
        switch request.method {
        case .setExact, .setExactAndAllowWhileIdle, .setAlarmClock:
            window = 0
        case .setWindow where parameters.effectiveTargetSdk < 31:
            window = min(request.windowLengthMs, 86_400_000)  // ENFORCE_MINIMUM_WINDOW_ON_INEXACT_ALARMS off
        case .setWindow:
            window = Self.clampedWindow(request.windowLengthMs, nowElapsedMs: nowElapsed, whenElapsedMs: whenElapsed,
                                        minWindowMs: parameters.minWindowMs)
        case .set, .setAndAllowWhileIdle, .setRepeating, .setInexactRepeating:
            window = Self.maxTriggerTime(nowElapsedMs: nowElapsed, triggerElapsedMs: whenElapsed, intervalMs: interval) - whenElapsed
        }
        changeCounter += 1
        var tieBreak = changeCounter
        if parameters.seededEqualTimeOrder { tieBreak = random.next() }
        var oemDelay: Int64 = 0
        if parameters.oemDeliveryDelayMaxMs > 0 && !(request.method == .setAlarmClock && parameters.oemDelaySparesAlarmClock) {
            oemDelay = random.int(in: 0...parameters.oemDeliveryDelayMaxMs)
        }
        let triggerWall = request.type.isWallClock ? request.triggerAtMs : request.triggerAtMs + wallMinusElapsedMs
        return PendingAlarm(id: request.id, requestCode: request.requestCode, triggerWallMs: triggerWall, metadata: request.metadata,
                            generation: changeCounter, method: request.method, type: request.type,
                            requestedTriggerMs: request.triggerAtMs, whenElapsedMs: whenElapsed, windowLengthMs: window,
                            intervalMs: interval, tieBreak: tieBreak, oemDelayMs: oemDelay)
    }

    /// AMS `maxTriggerTime`: the end of the delivery window of an inexact alarm: 0.75 × futurity
    /// (or × interval for repeating alarms), no window under 10 s, one-shots capped at +1 h.
    ///
    /// - Returns: Elapsed ms, never before `triggerElapsedMs`.
    public static func maxTriggerTime(nowElapsedMs: Int64, triggerElapsedMs: Int64, intervalMs: Int64) -> Int64 {
        var futurity = intervalMs == 0 ? triggerElapsedMs - nowElapsedMs : intervalMs
        if futurity < 10_000 { futurity = 0 }  // MIN_FUZZABLE_INTERVAL
        var maxElapsed = triggerElapsedMs + futurity / 4 * 3 + (futurity % 4) * 3 / 4
        if intervalMs == 0 { maxElapsed = min(maxElapsed, triggerElapsedMs + 3_600_000) }
        return maxElapsed
    }

    /// AMS `setImpl` window rules for `setWindow`: longer than 1 day → 1 day; shorter than
    /// `getMinimumAllowedWindow` = min(0.75 × futurity, MIN_WINDOW) → expanded to it.
    public static func clampedWindow(_ windowMs: Int64, nowElapsedMs: Int64, whenElapsedMs: Int64, minWindowMs: Int64) -> Int64 {
        if windowMs > 86_400_000 { return 86_400_000 }
        let futurity = whenElapsedMs - nowElapsedMs
        let minimum = min(futurity / 4 * 3 + (futurity % 4) * 3 / 4, minWindowMs)
        return max(windowMs, minimum)
    }

    /// `AlarmManager.cancel(PendingIntent)`. Cancelling an alarm clock in doze idle re-fuzzes the
    /// idle end against the next one, or restores the requested end when none is left (AMS
    /// `removeLocked` → `updateNextWakeFromIdleFuzzLocked` → `adjustIdleUntilTime`; AOSP
    /// AlarmManagerServiceTest `idleUntilFuzzedBeforeWakeFromIdle`).
    public mutating func cancel(_ id: AlarmUUID) -> [AlarmManagerEffect] {
        // A dropped alarm's PendingIntent exists: the app's cancel finds it (issue 18).
        let intentExisted = droppedAlarms.contains { $0.id == id }
        droppedAlarms.removeAll { $0.id == id }
        let existed = pending.contains { $0.id == id } || intentExisted
        let wasAlarmClock = pending.contains { $0.id == id && $0.method == .setAlarmClock }
        pending.removeAll { $0.id == id }
        if existed { changeCounter += 1 }
        var effects: [AlarmManagerEffect] = []
        if wasAlarmClock, case .idle = doze {
            readjustIdleUntil()
            effects += rearmKernelAlarm()
        }
        return effects + [.toApp(.cancelCompleted(id, existed ? .success(0) : .failure(.notFound)), launch: nil),
                          traceEffect("cancelled", [TraceField("id", id.description), TraceField("existed", String(existed))])]
    }

    /// PendingIntent existence probes over the app's request codes.
    public mutating func readPending() -> Result<[PlatformAlarm], PlatformError> {
        if failNextReads > 0 {
            failNextReads -= 1
            return .failure(.readFailed)
        }
        return .success(pendingIntentProbes)
    }

    /// What FLAG_NO_CREATE probes over the app's request codes find: every pending alarm, and a
    /// dropped alarm's PendingIntent until its trigger time passes (issue 18), sorted by ID.
    /// Each alarm's ID read in place (issue 20: the `idempotent-sync` probe reads this after every
    /// settled sync, and concatenating and filtering copied every pending alarm).
    public var pendingIntentProbes: [PlatformAlarm] {
        var probes: [PlatformAlarm] = []
        probes.reserveCapacity(pending.count + droppedAlarms.count)
        pending.withUnsafeBufferPointer { alarms in
            for index in alarms.indices { probes.append(PlatformAlarm(id: alarms[index].id, state: .scheduled)) }
        }
        let pendingCount = probes.count
        droppedAlarms.withUnsafeBufferPointer { dropped in
            for index in dropped.indices where dropped[index].triggerWallMs > now.wallMs {
                let id = dropped[index].id
                if !probes.prefix(pendingCount).contains(where: { $0.id == id }) { probes.append(PlatformAlarm(id: id, state: .scheduled)) }
            }
        }
        probes.sort { $0.id < $1.id }  // in place: `sorted` copied the list first (issue 20)
        return probes
    }

    /// `AlarmManager.getNextAlarmClock()`: the trigger time (wall ms, as the app passed it in its
    /// `AlarmClockInfo`) of the next alarm clock AlarmManager holds, nil when none. Per user, of
    /// every app; the simulated device has no other alarm app, so it is the app's own (the
    /// `showIntent`'s creator package tells them apart on a phone). A dropped request is not in it.
    public var nextAlarmClockWallMs: Int64? {
        // By wall trigger: AMS re-evaluates RTC alarms at every accepted clock change, and an
        // alarm clock is RTC_WAKEUP.
        // Each alarm read in place (issue 20: `filter` copied every pending alarm).
        pending.withUnsafeBufferPointer { alarms in
            var earliest: Int64?
            for index in alarms.indices where alarms[index].method == .setAlarmClock {
                earliest = min(earliest ?? alarms[index].triggerWallMs, alarms[index].triggerWallMs)
            }
            return earliest
        }
    }

    /// Removes every alarm matching `predicate`; returns how many went.
    @discardableResult
    mutating func removeAlarms(where predicate: (PendingAlarm) -> Bool) -> Int {
        let before = pending.count
        pending.removeAll(where: predicate)
        let removed = before - pending.count
        if removed > 0 { changeCounter += 1 }
        return removed
    }
}

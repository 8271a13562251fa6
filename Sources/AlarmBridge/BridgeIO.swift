/// The inputs and commands of the sans-I/O bridge.
///
/// The bridge never awaits: each platform callback, app call or completion is one synchronous
/// `BridgeCore.handle(_:at:)` step returning commands. A request that takes time on a real phone
/// completes later as its own input; every such gap is an interleaving point (DESIGN.md).

/// The two clocks the bridge may read, as the running process sees them.
public struct BridgeInstants: Sendable, Equatable {
    /// Device wall clock, Unix-epoch milliseconds.
    public var wallMs: Int64
    /// Milliseconds since boot; never corrected.
    public var monotonicMs: Int64
    /// The device's time zone as the app reads it at this instant (iOS `TimeZone.autoupdatingCurrent`,
    /// Android `TimeZone.getDefault()`); nil: unchanged from the configuration's.
    public var zoneIdentifier: String?
    /// Which boot of the device this is (Android `Settings.Global.BOOT_COUNT`, iOS
    /// `kern.bootsessionuuid`): monotonic readings compare only within one boot.
    public var bootCount: Int
    /// Android `UserManager.isUserUnlocked()`: the user unlocked the device since this boot, so
    /// credential-encrypted storage is readable (direct-boot docs). Always true on iOS.
    public var userUnlocked: Bool
    public init(wallMs: Int64, monotonicMs: Int64, zoneIdentifier: String? = nil, bootCount: Int = 0, userUnlocked: Bool = true) {
        self.wallMs = wallMs
        self.monotonicMs = monotonicMs
        self.zoneIdentifier = zoneIdentifier
        self.bootCount = bootCount
        self.userUnlocked = userUnlocked
    }
}

/// The platform the bridge's thin adapter targets.
public enum PlatformFlavor: String, Sendable, Codable, Equatable, CaseIterable {
    case ios, android
}

/// A ring as the platform reports it in an inventory read or an `alarmUpdates` snapshot.
/// AlarmKit exposes only the ID and state (IOS-4); Android's inventory is modelled as
/// `PendingIntent` existence probes (FLAG_NO_CREATE) over request codes, reported the same way.
public struct PlatformAlarm: Sendable, Equatable, Codable {
    /// AlarmKit's `Alarm.State` (developer.apple.com/documentation/alarmkit/alarm/state).
    public enum State: String, Sendable, Equatable, Codable { case scheduled, countdown, paused, alerting }
    public var id: AlarmUUID
    public var state: State
    public init(id: AlarmUUID, state: State) {
        self.id = id
        self.state = state
    }
}

/// Errors the platform reports for a request. AlarmKit's only documented error case is
/// `maximumLimitReached` (developer.apple.com/documentation/alarmkit/alarmerror).
public enum PlatformError: String, Error, Sendable, Equatable, Codable {
    case maximumLimitReached
    /// A schedule call that failed for another reason (field: nitro-ios-alarm-kit#1, code 0).
    case writeFailed
    /// `cancel`/`stop` of an ID the daemon does not hold (com.apple.AlarmKit.Alarm code 0).
    case notFound
    /// A call made in a state that does not allow it: `stop` of a non-alerting alarm, `pause`
    /// outside countdown, `resume` outside paused, `countdown` outside alerting or without a
    /// postAlert duration (…/alarmmanager/pause(id:), resume(id:), countdown(id:)).
    case invalidState
    /// AlarmKit authorization is denied, or the app lacks `NSAlarmKitUsageDescription`
    /// (…/alarmmanager/requestauthorization(); Info.plist key documentation; seed 003).
    case notAuthorized
    /// The inventory could not be read (`alarms` is `get throws`).
    case readFailed
    /// Android: exact alarm without `SCHEDULE_EXACT_ALARM`/`USE_EXACT_ALARM` → SecurityException.
    case securityException
    /// Android: the app already has `MAX_ALARMS_PER_UID` (500) alarms pending → IllegalStateException
    /// (AOSP AlarmManagerService `setImpl`).
    case illegalStateException
}

/// Why a store read failed. *Unavailable* is not *empty* (BOOT-2).
public enum StoreReadError: String, Error, Sendable, Equatable, Codable {
    /// Protected data before first unlock (iOS), credential-protected storage in locked boot (Android).
    case unavailable
    /// The saved domain exists but cannot be read for another reason (a damaged or half-written
    /// store file; seed 004 "the saved domain cannot be read yet" after the unlock): BOOT-5.
    case damaged
}

/// Metadata the bridge attaches to every ring it schedules (AlarmKit's `metadata`; Android's
/// PendingIntent extras). The platform models keep it so checkers can read declared intent.
public struct RingMetadata: Sendable, Equatable, Codable {
    public var rootID: String
    public var alarmID: String
    public var kind: RingKind
    /// The owning occurrence token, for occurrence-bound kinds (ID-9).
    public var token: String?
    public var title: String
    public init(rootID: String, alarmID: String, kind: RingKind, token: String?, title: String) {
        self.rootID = rootID
        self.alarmID = alarmID
        self.kind = kind
        self.token = token
        self.title = title
    }
}

/// How precisely the platform is asked to deliver a ring.
///
/// Android only: AlarmKit has a single kind of alarm. Source: AOSP `AlarmManagerService`
/// (`setImpl`, `maxTriggerTime`, `adjustDeliveryTimeBasedOnDeviceIdle`) and the
/// "Schedule exact alarms" developer page; PLATFORMS.md, AlarmManager table.
public enum RingPrecision: String, Sendable, Equatable, Codable {
    /// `setAndAllowWhileIdle(RTC_WAKEUP, …)`: needs no exact-alarm permission and is delivered in
    /// doze (within the compat quota), but inexactly: up to 0.75 × the futurity late, at most 1 h
    /// for a one-shot. The bridge's degraded ring when exact alarms are refused ([derived] AND-1,
    /// AND-3: RULES.md is silent on a refused permission; decided from the AOSP behaviour).
    case allowWhileIdle = "allow-while-idle"
}

/// One ring to register with the platform.
public struct RingRequest: Sendable, Equatable, Codable {
    /// Every stored field of the request, in its JSON order: the synthesized `Codable` of this
    /// struct is the request's format (field names, order, `encodeIfPresent` for the optional
    /// ones), exactly as when they were the request's own stored properties.
    @usableFromInline
    struct Fields: Codable, Sendable, Equatable {
        @usableFromInline var id: AlarmUUID
        @usableFromInline var schedule: RingSchedule
        @usableFromInline var fireWallMs: Int64
        @usableFromInline var metadata: RingMetadata
        @usableFromInline var countdown: CountdownDuration?
        @usableFromInline var soundName: String?
        @usableFromInline var precision: RingPrecision?
    }

    /// The fields, in one copy-on-write box (issue 20; ``CopyOnWrite``, as ``RingRow``): plans,
    /// syncs and commands copy requests many times a step, and a request of five strings
    /// retained each of them on every copy.
    @usableFromInline var storage: CopyOnWrite<Fields>

    @inlinable public var id: AlarmUUID {
        _read { yield storage.value.id }
        _modify { yield &storage.value.id }
    }
    @inlinable public var schedule: RingSchedule {
        _read { yield storage.value.schedule }
        _modify { yield &storage.value.schedule }
    }
    /// The next instant the ring is meant to fire, as the bridge computed it (wall ms).
    @inlinable public var fireWallMs: Int64 {
        _read { yield storage.value.fireWallMs }
        _modify { yield &storage.value.fireWallMs }
    }
    @inlinable public var metadata: RingMetadata {
        _read { yield storage.value.metadata }
        _modify { yield &storage.value.metadata }
    }
    /// AlarmKit `CountdownDuration`: `preAlertMs` counts down before the alert, `postAlertMs` is
    /// the snooze/repeat countdown entered from an alert. nil: no countdown (the first cut's rings).
    @inlinable public var countdown: CountdownDuration? {
        _read { yield storage.value.countdown }
        _modify { yield &storage.value.countdown }
    }
    /// The alert's sound: a file name in the app bundle (AlarmKit `AlertConfiguration.AlertSound.named`,
    /// Android: the ringing service's track), or nil for the system default sound.
    @inlinable public var soundName: String? {
        _read { yield storage.value.soundName }
        _modify { yield &storage.value.soundName }
    }
    /// nil: exact (`setAlarmClock`, an AlarmKit alarm); otherwise the degraded delivery the
    /// platform left the bridge (``RingPrecision``).
    @inlinable public var precision: RingPrecision? {
        _read { yield storage.value.precision }
        _modify { yield &storage.value.precision }
    }

    public init(id: AlarmUUID, schedule: RingSchedule, fireWallMs: Int64, metadata: RingMetadata,
                countdown: CountdownDuration? = nil, soundName: String? = nil) {
        storage = CopyOnWrite(Fields(id: id, schedule: schedule, fireWallMs: fireWallMs, metadata: metadata,
                                     countdown: countdown, soundName: soundName, precision: nil))
    }

    public init(from decoder: any Decoder) throws {
        storage = CopyOnWrite(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.value.encode(to: encoder)
    }

    public static func == (lhs: RingRequest, rhs: RingRequest) -> Bool {
        lhs.storage.sharesStorage(with: rhs.storage) || lhs.storage.value == rhs.storage.value
    }
}

/// AlarmKit's `Alarm.CountdownDuration` (developer.apple.com/documentation/alarmkit/alarm/countdownduration),
/// in virtual milliseconds.
public struct CountdownDuration: Sendable, Equatable, Codable {
    public var preAlertMs: Int64?
    public var postAlertMs: Int64?
    public init(preAlertMs: Int64?, postAlertMs: Int64?) {
        self.preAlertMs = preAlertMs
        self.postAlertMs = postAlertMs
    }
}

/// Which bridge path issued a platform request. Checkers use it to tell sync and repair calls
/// (which must never touch an alerting ring, SCH-21) from occurrence-lifecycle calls.
public enum CommandOrigin: String, Sendable, Equatable, Codable {
    /// Reconciliation on return to the foreground or a JS `syncEnabledAlarms` (SCH-22).
    case resumeSync
    /// Reconciliation at process launch, boot restore (AND-3) or repair.
    case launchSync
    /// A direct save from the alarm editor (CAP-6, API-19).
    case directSave
    /// Occurrence lifecycle: successor arm (OCC-5), pass-over silencing (OCC-3), handoff.
    case lifecycle
    /// Completion cleanup (OCC-25), detached (SCH-8).
    case completion
    /// Inactivity expiry, after the miss receipt (INACT-16).
    case expiry
    /// Retiring rings of a closed occurrence (OCC-24).
    case retire
    /// The foreground rules while Ember is natively active: an ordinary alert silenced, an
    /// imminent successor consumed (FG-1, FG-2).
    case foreground

    /// True for the sync/repair paths bound by SCH-21 and BOOT-2.
    public var isSync: Bool {
        switch self {
        case .resumeSync, .launchSync, .directSave: return true
        case .lifecycle, .completion, .expiry, .retire, .foreground: return false
        }
    }
}

/// Why the bridge read the platform inventory; echoed back with the result.
public enum InventoryPurpose: Sendable, Equatable, Codable {
    /// BOOT-5: decide the launch gate when the saved domain is absent.
    case launchGate
    /// Launch / boot restore / repair reconciliation.
    case launchSync
    /// Return-to-foreground or JS sync (SCH-22).
    case resumeSync
    /// Direct save of one logical alarm (SCH-3 before the schedule).
    case directSave(alarmID: String)
    /// API-10: `getScheduledAlarmTimes` (iOS: read only; Android: read, then repair, AND-5).
    case scheduledTimes
    /// SCH-9: one of the ≤ 3 verification reads (100 ms apart) of a direct save's exact primaries.
    case verifySave(alarmID: String)
    /// Look before acting: an iOS Stop intent reads the daemon first, because `alarmUpdates` may
    /// have been held while the phone was locked (IOS-2: the daemon inventory is authoritative).
    case observe
}

/// Process-local timers. They die with the process.
public enum BridgeTimer: String, Sendable, Equatable, Codable {
    /// Re-check the inactivity deadline of the live occurrence (INACT-21).
    case expiryCheck
    /// Re-evaluate the launch gate every second while holding (BOOT-7).
    case gateRecheck
    /// Retry a failed successor arm while the process lives.
    case armRetry
    /// Retry a sync whose inventory read failed (BOOT-2 forbids deciding without it).
    case syncRetry
    /// Re-plan after a primary's schedule request failed (`primaryRetryDelayMs`, doubling), while
    /// the process lives ([derived] from WALK-18's "retry for as long as execution remains
    /// available" and AND-3's restore: RULES.md names no bound for a failed primary).
    case primaryRetry
    /// FG-11: the foreground context's heartbeat lifetime H_CTX has passed.
    case contextLapse
    /// WALK-7, WALK-18: the native background step-poll repair of a started walk (every 2 s).
    case walkStepPoll
    /// Android: arm pre-fire step-suppression tracking W_STEP before the next ring (AND-16).
    case stepTrackingArm
    /// FG-14: the foreground watchdog of a visible challenge, 45 s after it became visible or
    /// after its last real interaction.
    case challengeWatchdog
    /// Only with the known defect `android-ring-stops-after-30s`: the old 30 s ring cap (SND-11 forbids it).
    case ringTimeout
    /// SCH-9: the next verification read of a pending direct save is due (100 ms after the last).
    case saveVerification
}

/// The launch gate's visible state (BOOT-7).
public enum LaunchGateState: String, Sendable, Equatable, Codable {
    /// Protected data unavailable: "unlock to continue", not "loading" (BOOT-4).
    case waitingForUnlock
    /// The daemon holds alarms but the saved domain is absent or unreadable (BOOT-5).
    case waitingForSavedDomain
    /// Normal launch proceeds (BOOT-6).
    case released
}

/// Why the process was started.
public enum LaunchReason: String, Sendable, Equatable, Codable {
    /// The user opened the app.
    case user
    /// iOS ran an AlarmKit intent (stop) in a launched background process (PLATFORMS.md, intents).
    case intent
    /// Android: a broadcast (alarm delivery, boot, permission change) started the receiver.
    case broadcast
    /// iOS: HealthKit relaunched the process for a workout that is still running (WALK-2, WALK-7:
    /// the `com.bonkalarm.app.healthkit-workout` launch handler).
    case workoutRecovery
}

/// Android: how one earlier process of the app ended, as `ApplicationExitInfo` reports it
/// (API 30+, `ActivityManager.getHistoricalProcessExitReasons(packageName, 0, 0)`, newest first;
/// AOSP `AppExitInfoTracker` keeps a bounded history per package). The bridge uses it to date
/// the moment AlarmManager cleared the app's alarms: Settings → Force stop removes every alarm of
/// the uid at `wallMs` (AMS `removeLocked(uid)` on ACTION_PACKAGE_RESTARTED; PLATFORMS.md
/// "force-stop"). A reboot leaves no record here (the device went down, not the process); its
/// instant is the boot's (`BridgeInstants.monotonicMs` restarts at zero).
public struct ProcessExit: Sendable, Equatable, Codable {
    /// `ApplicationExitInfo.getReason()`, the values an alarm bridge tells apart.
    public enum Reason: String, Sendable, Equatable, Codable {
        /// `REASON_USER_REQUESTED`: Settings → Force stop (or an OEM recents swipe that force-stops).
        case userRequested
        /// `REASON_PACKAGE_UPDATED` (API 34+): killed for an update of the package.
        case packageUpdated
        /// `REASON_PERMISSION_CHANGE`: a runtime permission or app-op was revoked.
        case permissionChange
        /// Anything else (`REASON_LOW_MEMORY`, `REASON_SIGNALED`, `REASON_OTHER`, …).
        case other
    }

    public var reason: Reason
    /// `ApplicationExitInfo.getTimestamp()`: the device wall clock at the death (Unix-epoch ms).
    public var wallMs: Int64

    public init(reason: Reason, wallMs: Int64) {
        self.reason = reason
        self.wallMs = wallMs
    }
}

/// JS calls into the bridge (API-*). API-2: every argument and every reply is a plain value
/// (strings, numbers, flags and structs of them); no platform object (AlarmKit attributes,
/// presentations, intents) ever crosses to JS.
public enum APICall: Sendable, Equatable {
    /// The editor's direct save of one logical alarm (API-19).
    case saveAlarm(LogicalAlarm)
    /// Delete a logical alarm and its roots' rings (API-18 `cancelSystemAlarms`).
    case deleteAlarm(id: String)
    /// JS's "make sure every enabled alarm is scheduled" sync (seed 001).
    case syncEnabledAlarms
    /// `setForegroundAlarmContext(payload)`: only `challengeScreenVisible` is read in the first cut (FG-7).
    case setForegroundAlarmContext(ForegroundAlarmContext)
    /// Mission completion for one (root, token) (OCC-12).
    case completeChallenge(rootID: String, occurrenceToken: String)
    /// `beginOneTimeSnooze({untilMs, occurrenceToken?, alarmIds})` (SNZ-1..9, API).
    case beginOneTimeSnooze(untilMs: Int64, occurrenceToken: String?, alarmIDs: [String])
    /// `skipOneTimeSnooze({occurrenceToken, alarmIds})` (SNZ-15, SNZ-16).
    case skipOneTimeSnooze(occurrenceToken: String, alarmIDs: [String])
    /// `peekLastAlarmAction()` (ACT-2, ACT-3): the newest unexpired action; never removes anything.
    case peekLastAlarmAction
    /// `getActiveWakeOccurrence()` (API-11, INACT-14, SNZ-23).
    case getActiveWakeOccurrence
    /// `abandonWakeOccurrence(alarmIds)` (API-12, OCC-18, OCC-19).
    case abandonWakeOccurrence(alarmIDs: [String])
    /// `expireWakeOccurrence({alarmIds, occurrenceStartedAtMs, occurrenceToken?})` (API-13, INACT-15..17).
    case expireWakeOccurrence(alarmIDs: [String], occurrenceStartedAtMs: Int64, occurrenceToken: String?)
    /// `acknowledgeLastAlarmAction(alarmId, action, occurredAtMs)` (ACT-4): removes the stored
    /// action only when all three fields match.
    case acknowledgeLastAlarmAction(alarmID: String, action: String, occurredAtMs: Int64)
    /// API-9: the root IDs of the wake rings alerting now.
    case getAlertingAlarmIds
    /// API-17: stops only the alerting rings of the listed roots; completes nothing (OCC-11).
    case stopAlertingAlarms(alarmIDs: [String])
    /// `cancelSystemAlarms(alarmIds)` (API-18): root IDs; their rings are deleted and the roots
    /// retired from the configuration; resolves once the platform confirmed every cancellation.
    case cancelSystemAlarms(alarmIDs: [String])
    /// The abandoned-occurrence journal (API-20; the seeds do not name the accessor): every miss
    /// receipt not yet acknowledged, oldest first.
    case getAbandonedWakeOccurrences
    /// Acknowledges one miss receipt by its occurrence token; removes that receipt only (API-20).
    case acknowledgeAbandonedWakeOccurrence(occurrenceToken: String)
    /// JS reports what it cached in its own (unprotected) storage at startup, e.g. whether the
    /// user has configured alarms. Advisory and often stale: the launch gate never reads it (BOOT-3).
    case reportCachedPreferences(alarmsConfigured: Bool)
    /// "Start wake-up check" of an iOS walk challenge for the live occurrence of one of
    /// `alarmIDs` (WALK-1, WALK-3, WALK-4): rejects without Health access; otherwise starts the
    /// HealthKit workout and resolves `walkStarted` once session and collection are confirmed.
    case startWalkCheck(alarmIDs: [String])
    /// `reconcileStepSuppressionTracking()` (API-16, Android only): re-establishes pre-fire
    /// step-suppression tracking for every ring due within W_STEP.
    case reconcileStepSuppressionTracking
    /// `startForegroundAlarmSound(alarmId, title, body)` (API-4, FG-17, AND-9): an in-app
    /// wake-check burst through the native alarm lifecycle. `alarmID` is a root ID (ID-10).
    case startForegroundAlarmSound(alarmID: String, title: String, body: String)
    /// `getAudibleAlarmCount()` (API-5).
    case getAudibleAlarmCount
    /// `getAudibleAlarmIds()` (API-5): the recorded root IDs.
    case getAudibleAlarmIds
    /// `recordAudibleAlarm(alarmId)` (API-6, SND-14): the alarm the app was opened from.
    case recordAudibleAlarm(alarmID: String)
    /// `resetAudibleAlarmCount()` (API-6).
    case resetAudibleAlarmCount
    /// A validated challenge interaction (INACT-4's first kind of genuine activity): restarts the
    /// foreground watchdog (FG-14).
    case recordChallengeInteraction
    /// API-10: the scheduled-times snapshot (root rows and daemon-confirmed ring rows, read under
    /// one lock); rejects on any read failure; on Android it also repairs the stored schedules (AND-5).
    case getScheduledAlarmTimes
}

/// What `getActiveWakeOccurrence()` reports (API-11).
public struct ActiveWakeOccurrence: Sendable, Equatable, Codable {
    public var rootID: String
    public var token: String
    public var occurrenceStartedAtMs: Int64
    public var inactivityPolicyVersion: InactivityPolicy
    public var lastMeaningfulActivityMs: Int64?
    public var effectiveExpiryMs: Int64
    public var inactivityClockOffsetMs: Int64
    public var inactivitySnoozeUntilMs: Int64?
    public var oneTimeSnoozeUsed: Bool
    /// Only while a snooze ring is armed (SNZ-23).
    public var oneTimeSnoozeUntilMs: Int64?
}

/// Replies to JS.
public enum APIReply: Sendable, Equatable {
    case completed(rootID: String, accepted: Bool)
    /// API-10, SCH-13..17: one consistent snapshot of AlarmKit (or AlarmManager) and the registry.
    case scheduledAlarmTimes(ScheduledAlarmTimes)
    /// SCH-16: AlarmKit or a registry could not be read; never an empty or saved-records substitute.
    case scheduledAlarmTimesRejected(reason: String)
    case saved(alarmID: String)
    /// `beginOneTimeSnooze` resolved with the deadline it accepted (SNZ-1).
    case snoozeAccepted(token: String, untilMs: Int64)
    /// `beginOneTimeSnooze` rejected: validation, a spent latch, or a failed arm (SNZ-3, SNZ-4, SNZ-9).
    case snoozeRejected(reason: String)
    /// `skipOneTimeSnooze` resolved: the ordinary successor is armed and the snooze ring retired.
    case snoozeSkipped(token: String)
    case skipRejected(reason: String)
    /// `peekLastAlarmAction` resolved: the newest action younger than 2 min, or nil.
    case lastAlarmAction(ActionRecord?)
    /// `acknowledgeLastAlarmAction` resolved: whether a stored action matched and was removed.
    case actionAcknowledged(Bool)
    /// `getActiveWakeOccurrence` resolved: the live occurrence as JS sees it, or nil.
    case activeWakeOccurrence(ActiveWakeOccurrence?)
    /// `abandonWakeOccurrence` / `expireWakeOccurrence` resolved: whether the occurrence closed.
    case abandoned(Bool)
    case expired(Bool)
    /// `getAlertingAlarmIds()`: root IDs, sorted (API-9, ID-10).
    case alertingAlarmIDs([String])
    /// `stopAlertingAlarms(alarmIds)`: the roots whose alerts were asked to stop (API-17).
    case alertsStopped(rootIDs: [String])
    /// `cancelSystemAlarms` resolved (API-18): `confirmed` is false when a cancellation failed
    /// for another reason than "not found" (the ring is then still registered).
    case systemAlarmsCancelled(alarmIDs: [String], confirmed: Bool)
    /// `getAbandonedWakeOccurrences` resolved: the unacknowledged miss receipts (API-20, INACT-18).
    case abandonedWakeOccurrences([MissReceipt])
    /// `acknowledgeAbandonedWakeOccurrence` resolved: whether a receipt with that token was removed.
    case abandonedWakeOccurrenceAcknowledged(Bool)
    /// `startWalkCheck` rejected (WALK-4: no Health access; not a walk alarm; not the owner;
    /// not in the foreground; the workout failed to start).
    case walkCheckRejected(reason: String)
    /// WALK-3: HealthKit confirmed the session and live collection while in the foreground.
    case walkStarted(token: String)
    /// `saveAlarm` of an iOS walk alarm rejected: Health access is missing (WALK-4).
    case saveRejected(alarmID: String, reason: String)
    /// API-19, SCH-10: the direct save rejected; the previous definition and schedule stand.
    case saveFailed(alarmID: String, reason: SaveFailureReason)
    /// SCH-8: `deleteAlarm` resolved once the platform confirmed every cancellation; `confirmed`
    /// is false when a cancellation failed for another reason than "not found".
    case alarmDeleted(alarmID: String, confirmed: Bool)
    /// `reconcileStepSuppressionTracking` resolved (API-16): the roots whose rings are due within
    /// W_STEP and are now tracked, sorted; `supported` is false on iOS (Android-only method).
    case stepSuppressionTracking(rootIDs: [String], supported: Bool)
    /// `startForegroundAlarmSound` resolved: the burst's ring ID, or nil when none was started
    /// (not in the foreground, unknown root, or a burst still alive: FG-17).
    case foregroundAlarmSound(AlarmUUID?)
    /// `getAudibleAlarmCount` resolved (API-5).
    case audibleAlarmCount(Int)
    /// `getAudibleAlarmIds` resolved (API-5): root IDs in recording order.
    case audibleAlarmIDs([String])
    /// `recordAudibleAlarm` resolved: false for an ID that is no known root (ID-10).
    case audibleAlarmRecorded(Bool)
    /// `resetAudibleAlarmCount` resolved.
    case audibleAlarmCountReset
}

/// An in-app wake-check burst to play through the native alarm lifecycle (API-4, FG-17).
public struct BurstRequest: Sendable, Equatable, Codable {
    /// The burst's ring ID (never a root's primary ID).
    public var id: AlarmUUID
    /// The root the burst is for (ID-10: a root ID).
    public var rootID: String
    public var title: String
    public var body: String
    /// The burst's sound; nil: the system default.
    public var soundName: String?
    /// AND-9: Android posts sound-only bursts to a separate low-importance channel, so they never
    /// interrupt an active wake-up check (no full-screen intent, no heads-up). Always true on Android.
    public var lowImportanceChannel: Bool
    public init(id: AlarmUUID, rootID: String, title: String, body: String, soundName: String?, lowImportanceChannel: Bool) {
        self.id = id
        self.rootID = rootID
        self.title = title
        self.body = body
        self.soundName = soundName
        self.lowImportanceChannel = lowImportanceChannel
    }
}

/// One platform action written to the unprotected action journal the moment it happens, before
/// the bridge can read its protected store (ACT-1: "written natively … whether or not JS is
/// running"; BOOT-1: protected data is unreadable before the first unlock).
public struct JournalEntry: Sendable, Equatable, Codable {
    public var ringID: AlarmUUID
    public var action: String
    public var occurredAtMs: Int64
    /// True when a ready bridge journalled it before its look-first read (it could validate the
    /// Stop at `occurredAtMs`); nil for one journalled behind the launch gate, and in older journals.
    public var journalledReady: Bool?
    public init(ringID: AlarmUUID, action: String, occurredAtMs: Int64, journalledReady: Bool? = nil) {
        self.ringID = ringID
        self.action = action
        self.occurredAtMs = occurredAtMs
        self.journalledReady = journalledReady
    }
}

/// Every input the bridge handles.
public indirect enum BridgeInput: Sendable, Equatable {
    /// A new process started; bridge memory is empty. Followed by the store load.
    /// - Parameter exits: Android API 30+: how the app's earlier processes ended, newest first
    ///   (``ProcessExit``, `ActivityManager.getHistoricalProcessExitReasons`); empty on iOS and
    ///   before API 30.
    case processStarted(LaunchReason, exits: [ProcessExit] = [])
    case storeLoaded(Result<BridgeDocument?, StoreReadError>)
    /// Android: what credential-protected storage held, where older versions kept the bridge
    /// state (AND-4); `.unavailable` before the first unlock after boot.
    case credentialProtectedStoreLoaded(Result<BridgeDocument?, StoreReadError>)
    /// The unprotected action journal (readable before first unlock), read at process start.
    case journalLoaded([JournalEntry])
    /// iOS `protectedDataDidBecomeAvailableNotification`; Android `USER_UNLOCKED`.
    case protectedDataAvailable
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case scheduleCompleted(AlarmUUID, Result<Int64, PlatformError>)
    case cancelCompleted(AlarmUUID, Result<Int64, PlatformError>)
    case stopCompleted(AlarmUUID, Result<Int64, PlatformError>)
    case inventoryRead(InventoryPurpose, Result<[PlatformAlarm], PlatformError>)
    /// iOS `alarmUpdates`: the whole current list of this app's alarms.
    case alarmUpdates([PlatformAlarm])
    /// iOS: the lock-screen / button Stop ran the alarm's stop intent (ACT-1, INACT-4).
    case stopIntent(AlarmUUID)
    /// Android: AlarmManager delivered the ring's broadcast.
    case alarmDelivered(AlarmUUID)
    /// Android: the user dismissed the alarm screen of this ring.
    case ringDismissed(AlarmUUID)
    /// Android LOCKED_BOOT_COMPLETED (`locked: true`) / BOOT_COMPLETED.
    case bootCompleted(locked: Bool)
    /// Android ACTION_SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED (grant).
    case exactAlarmPermissionGranted
    /// The wall clock or the time zone changed: iOS `UIApplication.significantTimeChangeNotification`
    /// (and `NSSystemTimeZoneDidChange`) to a running process; Android `TIME_SET` /
    /// `TIMEZONE_CHANGED`. Carries the device zone now in force (REC-8, AND-3).
    case clockChanged(zoneIdentifier: String)
    /// Android `MY_PACKAGE_REPLACED`: the app was updated (its process was killed first).
    case packageReplaced
    /// Android: the ringing service's player reported an error for this ring.
    case playbackFailed(AlarmUUID)
    /// Android: the answer of `AlarmManager.getNextAlarmClock()` (``BridgeCommand/readNextAlarmClock``):
    /// the trigger time (wall ms, as its `AlarmClockInfo` was set) of the next alarm clock, nil when
    /// none (issue 18).
    case nextAlarmClockRead(triggerWallMs: Int64?)
    case timerFired(BridgeTimer)
    case api(APICall)
    /// The Keychain wake receipts read at launch (IOS-10); `.unavailable` before first unlock.
    case receiptsRead(Result<[WakeReceipt], StoreReadError>)
    /// A `writeReceipt` finished (IOS-9).
    case receiptWritten(token: String, succeeded: Bool)
    /// A `writeFailedWakeDay` app-state write finished (IOS-10).
    case failedWakeDayWritten(token: String, succeeded: Bool)
    /// The remote kill-switch check answered, or failed (BOOT-12).
    case killSwitchChecked(KillSwitchResponse)
    /// iOS: HealthKit's authorization status for workouts, read by the adapter (synchronous
    /// `HKHealthStore.authorizationStatus(for:)`) at launch and whenever it may have changed (WALK-4).
    case healthAccessObserved(granted: Bool)
    /// iOS: `HKWorkoutSession` reports `.running` for the session the bridge started (WALK-3).
    case workoutSessionConfirmed
    /// iOS: `HKLiveWorkoutBuilder.beginCollection` completed successfully (WALK-3).
    case workoutCollectionConfirmed
    /// iOS: starting the workout failed (`startActivity` threw, e.g. not in the foreground).
    case workoutStartFailed
    /// iOS: HealthKit ended the session on its own, or a relaunched process found none to
    /// recover (WALK-23).
    case workoutLost
    /// iOS: a Core Motion live pedometer update: the user took steps now. Carries no count and
    /// no other health data (WALK-6).
    case stepsObserved
    /// iOS: `recoverActiveWorkoutSession` reattached the still-running workout (WALK-7, WALK-22).
    case workoutRecovered
    /// iOS: the answer to `queryRecentSteps`: the wall time of the latest step in the window,
    /// nil when none (or motion access is denied). No counts (WALK-6, WALK-26).
    case recentStepsQueried(latestStepWallMs: Int64?)
    /// Android `SensorEventListener.onSensorChanged` for `Sensor.TYPE_STEP_COUNTER`: the cumulative
    /// count since boot and when (elapsedRealtime ms) the last counted step happened (AND-16).
    case stepCounterChanged(stepsSinceBoot: Int64, stepElapsedMs: Int64)
    /// Android: an explicit dismissal by volume on the alarm screen of this ring: a volume key
    /// pressed on the alarm activity, or an observed alarm-volume reduction (INACT-6).
    case volumeDismissal(AlarmUUID, VolumeDismissal)
    /// Android: the user chose Start wake-up check on this ring's alarm screen (AND-11).
    case startWakeUpCheck(AlarmUUID)
    /// The platform reports that the burst's native playback has begun (FG-17).
    case burstPlaybackBegan(AlarmUUID)
    /// The burst ended: the user dismissed or muted it, or the platform ended it (FG-17, FG-18).
    case burstEnded(AlarmUUID)
}

/// How the user dismissed an Android ring by volume (seed 000, "Explicit alarm dismissals also count").
public enum VolumeDismissal: String, Sendable, Equatable, Codable {
    /// A hardware volume key pressed while the alarm activity had focus (`Activity.onKeyDown`).
    case volumeKey = "volume-key"
    /// The alarm stream's volume went down while the ring played (`AudioManager` volume observer).
    case volumeLowered = "volume-lowered"
}

/// Every request the bridge makes.
public indirect enum BridgeCommand: Sendable, Equatable {
    /// Read the bridge document (iOS: protected data; Android: device-protected storage).
    case loadStore
    /// Write the whole bridge document, synchronously and atomically (a file replace).
    case persist(BridgeDocument)
    /// Android: read the bridge state an older version kept in credential-protected storage
    /// (AND-4); completes as `credentialProtectedStoreLoaded`.
    case loadCredentialProtectedStore
    /// Android: delete that credential-protected copy — issued only after the device-protected
    /// write of the same state (AND-4: without loss).
    case deleteCredentialProtectedStore
    /// Read the unprotected action journal (iOS: a file with no data protection; Android:
    /// device-protected storage).
    case loadJournal
    /// Append one entry to the unprotected action journal, durably (an append to a log file): it
    /// may run before the journal was read, so it must not rewrite entries it has not seen.
    case appendJournal(JournalEntry)
    /// Replace the unprotected action journal (after its entries were acted on).
    case persistJournal([JournalEntry])
    /// Android: the ringing service plays the system alarm sound for this ring (SND-9): at once
    /// for a ring it runs; issued before ``startRinging(_:)`` in the same step, from the start.
    case playSystemSound(AlarmUUID)
    /// Android `AlarmManager.getNextAlarmClock()`, synchronous: the only view an app has of which
    /// alarm clock AlarmManager will fire next (PendingIntent probes cannot tell an accepted alarm
    /// from a dropped one). Completes as ``BridgeInput/nextAlarmClockRead(triggerWallMs:)`` (issue 18).
    case readNextAlarmClock
    /// iOS `AlarmManager.schedule(id:configuration:)`; Android `setAlarmClock` (RTC_WAKEUP).
    case schedule(RingRequest, origin: CommandOrigin)
    /// iOS `cancel(id:)`; Android `AlarmManager.cancel(PendingIntent)`.
    case cancel(AlarmUUID, origin: CommandOrigin)
    /// iOS `stop(id:)` of an alerting alarm; Android: stop the ringing service playing this ring.
    case stop(AlarmUUID, origin: CommandOrigin)
    /// Android: start the ringing service (full-screen alarm, audio) for a delivered ring.
    case startRinging(AlarmUUID)
    /// iOS `alarms`; Android PendingIntent probes.
    case readInventory(InventoryPurpose)
    /// Arm (or replace) a process-local timer `delayMs` virtual milliseconds from now.
    case setTimer(BridgeTimer, delayMs: Int64)
    case launchGate(LaunchGateState)
    case reply(APIReply)
    /// A decision worth a trace line (pass-over, deferral, rejection); no effect.
    case note(String)
    /// Read every Keychain wake receipt (iOS `SecItemCopyMatching`, IOS-10).
    case readReceipts
    /// Add or replace a device-only Keychain wake receipt (iOS `SecItemAdd`, IOS-9).
    case writeReceipt(WakeReceipt)
    /// Delete the Keychain wake receipt of an occurrence token (iOS `SecItemDelete`, IOS-9).
    case deleteReceipt(token: String)
    /// Record a failed wake day in the app's state (IOS-10); completes as `failedWakeDayWritten`.
    case writeFailedWakeDay(FailedWakeDay)
    /// Fetch the remote kill switch (BOOT-12); completes as `killSwitchChecked`.
    case checkKillSwitch
    /// The kill switch's effect on scheduling changed (BOOT-12), as JS sees it.
    case remoteScheduling(RemoteSchedulingState)
    /// iOS: start the privacy-minimal HealthKit workout session and its live builder, collecting
    /// and storing no metrics (WALK-1), and subscribe to live Core Motion steps.
    case startWorkout
    /// iOS: end the workout session and the step subscription.
    case endWorkout
    /// iOS: `CMPedometer.queryPedometerData(from:to:)` for the post-handoff part of the last
    /// 30 s (WALK-7, WALK-26), wall-clock milliseconds; answered by `recentStepsQueried`.
    case queryRecentSteps(fromWallMs: Int64, toWallMs: Int64)
    /// Android: register (true) or unregister the `Sensor.TYPE_STEP_COUNTER` listener that tracks
    /// recent walking before a ring fires (AND-16). Process-local: the listener dies with the process.
    case setStepTracking(Bool)
    /// Android: start the ringing service for a delivered one-time snooze ring with the one-shot
    /// suppression exemption in its extras: the service, its notification and the alarm activity
    /// ignore recent-step and challenge-visible suppression for this ring, once (SNZ-18).
    case startRingingSuppressionExempt(AlarmUUID)
    /// Android: MainActivity's lock-screen presentation (`Activity.setShowWhenLocked`, API 27):
    /// granted for one Start wake-up check launch, revoked when that challenge ends or the app
    /// leaves the foreground (AND-11). The bridge never asks for keyguard dismissal (AND-12).
    case setMainActivityShowWhenLocked(Bool)
    /// Play an in-app wake-check burst through the native alarm lifecycle (API-4, FG-17, AND-9).
    case startBurst(BurstRequest)
    /// Stop the burst now playing (completion, closure, leaving the foreground).
    case stopBurst(AlarmUUID)
}

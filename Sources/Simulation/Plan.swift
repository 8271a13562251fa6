import AlarmBridge
import AndroidModel
import IOSModel
import SimKernel

/// A scripted or generated action at a point in virtual time: what the user, the app's JS layer,
/// the device or a fault does. Scenario files and the fuzz generator both produce these.
public enum PlanAction: Sendable, Equatable {
    /// The user stops the audible ring (of that alarm's family, when given): lock-screen Stop on
    /// iOS, the alarm screen's dismiss on Android.
    case userStop(alarmID: String?)
    case userOpenApp
    case userLeaveApp
    /// JS calls the completion of the bridge's live occurrence (only when the challenge shows).
    case userCompleteChallenge
    case userUnlock
    case userForceQuit
    case userEditTitle(alarmID: String, title: String)
    case userEditTime(alarmID: String, hour: Int, minute: Int)
    case userDeleteAlarm(alarmID: String)
    /// The user edits another attribute of the alarm in the editor; JS saves it (API-19).
    case userEditAlarm(alarmID: String, edit: AlarmEdit)
    /// JS saves this definition again after a failed save (once per failure; `generation` is the
    /// app install it was planned in).
    case appRetrySave(LogicalAlarm, generation: Int)
    /// JS renders the challenge: `setForegroundAlarmContext` with `challengeScreenVisible`.
    case appShowChallenge
    /// JS refreshes its foreground context (FG-11 heartbeat), in foreground stint `stint`.
    case appContextHeartbeat(stint: Int)
    /// JS calls `beginOneTimeSnooze(untilMs: now + delayMs)` for the live occurrence the user is
    /// looking at; with `doubleTap` the button fires twice (the second call 100–400 ms later).
    case userSnooze(delayMs: Int64, doubleTap: Bool)
    /// JS calls `skipOneTimeSnooze` for the live occurrence.
    case userSkipSnooze
    /// JS calls `abandonWakeOccurrence` for the live occurrence's alarm (or, `wrongAlarm`, for
    /// another one, which must change nothing: OCC-18).
    case userAbandon(wrongAlarm: Bool)
    /// JS, once ready in the foreground, peeks at the last platform action (ACT-3).
    case appPeekAction
    /// JS, once ready in the foreground, asks for the scheduled-times snapshot (API-10).
    case appGetScheduledAlarmTimes
    /// JS, once ready in the foreground with miss receipts to show, reads the abandoned-occurrence
    /// journal (`getAbandonedWakeOccurrences`, API-20, INACT-18).
    case appReadMissReceipts
    /// JS acknowledges the miss receipt with `token` once it showed it, in process `incarnation`
    /// (`acknowledgeAbandonedWakeOccurrence`, API-20).
    case appAcknowledgeMissReceipt(token: String, incarnation: Int)
    /// JS's handler for a peeked action finishes (`succeeds`) or fails, in process `incarnation`.
    case appActionWork(ActionRecord, succeeds: Bool, incarnation: Int)
    case appSyncEnabledAlarms
    case appLaunch
    case deviceReboot
    case faultProcessDeath
    case faultScheduleFailure(count: Int)
    case faultInventoryReadFailure(count: Int)
    /// iOS: the saved alarm domain is damaged (BOOT-5): the next read of it that finds it, and
    /// every read for `ms` virtual ms after that one, fails although protected data is available.
    case faultDamagedStore(ms: Int64)
    case faultCapacity(Int)
    case faultRevokeExactPermission
    case faultGrantExactPermission
    case faultCoalesceUpdates(Bool)
    /// The device's time zone becomes this IANA zone (travel, or the user picks one).
    case deviceTimeZone(String)
    /// The wall clock is set forward (positive) or back by this many ms (manual correction).
    case deviceSetClock(deltaMs: Int64)
    /// The ring / silent switch (iOS); see `AlarmKitParameters.silentModeSilencesAlerts`.
    case deviceSilentMode(Bool)
    /// The user pulls down Control Center (or a system sheet covers the app) for a few seconds:
    /// the app resigns active without entering the background, then becomes active again.
    case userControlCenter
    /// The user deletes the app and installs it again: process, alarms and container are gone;
    /// device-only Keychain items survive (iOS).
    case userReinstall
    /// iOS: the OS removes one of the app's alarms (of this alarm, or any) with no app call.
    case faultOSRemovesAlarm(alarmID: String?)
    /// The platform's next alarm delivery is late by this many ms.
    case faultLateDelivery(ms: Int64)
    /// iOS (forums 820388): AlarmKit alerts the soonest `.fixed` alarm due 4–24 h from now, now.
    case faultWrongInstantAlert
    /// iOS (OpenMinis#115): the next alert is a ghost (no sound, no UI) that AlarmKit ends this
    /// many ms later with no Stop.
    case faultGhostAlert(ms: Int64)
    /// iOS (forums 809398): the next restart installs an OS update that empties AlarmKit's inventory.
    case faultOSUpdate
    /// Android: the device enters (true) or leaves deep doze; refused while the screen is on or charging.
    case deviceDoze(Bool)
    /// Android: the charger is connected (true) or removed.
    case deviceCharging(Bool)
    /// The app is updated to a new version (Android: MY_PACKAGE_REPLACED; iOS: the process is killed).
    case userAppUpdate
    /// Android: Settings → Force stop [limit] (AND-6).
    case faultForceStop
    /// Android: an audio-focus change reaches the ringing service (another app, a phone call).
    case faultAudioFocus(AudioFocusChange)
    /// Android: the ringing service's player fails for the ring now sounding.
    case faultPlaybackFailure
    case expectAlerting(alarmID: String, line: Int)
    case expectSilent(alarmID: String, line: Int)
    /// Check: JS's latest save reply for the alarm: `saved`, a failure reason (`not-verified`,
    /// `capacity`, `not-authorized`, `write-failed`, …), `deleted` (API-19, SCH-8).
    case expectSaveOutcome(alarmID: String, outcome: String, line: Int)
    /// BOOT-12: every later kill-switch check gets this answer (the server's or the network's).
    case faultKillSwitch(KillSwitchResponse)
    /// IOS-10: the next N app-state writes fail.
    case faultAppStateWriteFailure(count: Int)
    /// JS calls `cancelSystemAlarms` with every root of this alarm (API-18).
    case appCancelSystemAlarms(alarmID: String)
    /// JS calls `startWalkCheck` for the live occurrence the user is looking at (WALK-3, WALK-4).
    case userStartWalk
    /// The user takes this many steps now. iOS: Core Motion (a live update if a process observes
    /// it, WALK-11); Android: the step counter counts them (AND-16).
    case userWalk(steps: Int)
    /// The user swipes up into the app switcher: resign-active now, the real background edge this
    /// many ms later (WALK-8, WALK-10).
    case userAppSwitcher(backgroundAfterMs: Int64)
    /// HealthKit ends the workout session on its own (WALK-23).
    case faultWorkoutLost
    /// The user grants or revokes Health access for workouts in Settings (WALK-4).
    case userSetHealthAccess(Bool)
    /// Android: the user presses a volume key on the alarm screen of the ringing alarm (INACT-6).
    case userVolumeKey
    /// Android: the user turns the alarm volume down one step while an alarm rings (INACT-6).
    case userLowerAlarmVolume
    /// Android: the user chooses Start wake-up check on the ringing alarm's screen: the app opens
    /// with the challenge (AND-11).
    case userStartWakeUpCheck
    /// JS calls `reconcileStepSuppressionTracking()` (API-16).
    case appReconcileStepTracking
    /// Check: MainActivity's lock-screen presentation is granted (true) or not (AND-11).
    case expectLockScreenGrant(Bool, line: Int)
    /// JS reports a validated challenge interaction (INACT-4): the watchdog restarts (FG-14).
    case appChallengeInteraction
    /// JS calls `startForegroundAlarmSound` for the alarm's root (nil: the live occurrence's root) (API-4).
    case appStartBurst(alarmID: String?)
    /// The user dismisses or mutes the burst now playing (FG-18).
    case userMuteBurst
    /// JS calls `recordAudibleAlarm` for the alarm the app was opened from (nil: the live root) (SND-14).
    case appRecordAudible(alarmID: String?)
    /// JS calls `resetAudibleAlarmCount` (API-6).
    case appResetAudibleCount
    /// Check: one of the alarm's audible rings plays this sound (`system-default`, or the chosen
    /// name of a system fallback, also match).
    case expectSound(alarmID: String, sound: String, line: Int)
    /// Check: the bridge's audible record holds exactly this many IDs (API-5).
    case expectAudibleCount(Int, line: Int)
    /// Check: the last getScheduledAlarmTimes answer reports every root of the alarm registered
    /// (true) or none of them (false) (SCH-14).
    case expectRegistered(alarmID: String, registered: Bool, line: Int)
    /// Check: the last getScheduledAlarmTimes call was rejected (SCH-16).
    case expectScheduledTimesRejected(Bool, line: Int)
    /// Check: the user-visible dropped count (CAP-9) is exactly N.
    case expectDroppedCount(Int, line: Int)
    /// Check: a burst is (or is not) playing now.
    case expectBurst(playing: Bool, line: Int)
}

/// A plan action due at a device wall-clock instant.
public struct TimedAction: Sendable, Equatable {
    public var wallMs: Int64
    public var action: PlanAction
    public init(wallMs: Int64, action: PlanAction) {
        self.wallMs = wallMs
        self.action = action
    }
}

/// Everything that defines one simulated device before it runs.
public struct DeviceSetup: Sendable {
    public var platform: PlatformFlavor
    public var zoneIdentifier: String
    /// Device wall clock at the start (Unix-epoch ms).
    public var startWallMs: Int64
    /// Virtual time the run covers, ms.
    public var durationMs: Int64
    /// The alarms the user saves at the start (first launch of a fresh install).
    public var alarms: [LogicalAlarm]
    public var ios: AlarmKitParameters
    public var android: AlarmManagerParameters
    /// T_OP: the bound within which a requested transition must complete (RULES.md parameters).
    public var transitionBoundMs: Int64
    /// Fault kind `foreground-repair-failure` (Android, AND-5): this many schedule requests of
    /// the launch and resume syncs fail, so `getScheduledAlarmTimes`'s repair has work. 0: off.
    public var foregroundRepairFailures = 0
    /// Bridge constants the seed varies (G_PUB).
    public var publicationGraceMs: Int64
    /// MIN_SNOOZE_LEAD (SNZ-3), varied per seed: 2–10 s. Virtual ms.
    public var minSnoozeLeadMs: Int64 = 5_000
    /// Δ_CLOCK (REC-8), varied per seed: 1–60 s. Virtual ms.
    public var clockChangeThresholdMs: Int64 = 1_000
    /// Δ_IMMINENT (FG-2), varied per seed: 5 s – 2 min. Virtual ms.
    public var imminentHorizonMs: Int64 = 30_000
    /// H_CTX (FG-11), varied per seed: 10–60 s. Virtual ms.
    public var contextHeartbeatLifetimeMs: Int64 = 15_000
    /// D_SESSION (FG-12), varied per seed: 5 min – 2 h. Virtual ms.
    public var wakeSessionDeadlineMs: Int64 = 30 * 60_000
    /// How often JS refreshes the foreground context while the challenge shows. Virtual ms.
    public var contextHeartbeatIntervalMs: Int64 = 5_000
    /// 1 in N foreground stints JS stalls: it stops sending context heartbeats (FG-11's reason).
    public var jsStallOneIn: Int = 0
    /// Scripted actions (scenario) or the generated ambient plan (fuzz).
    public var plan: [TimedAction]
    /// Fuzz mode: the sleepy user reacts to alerts and faults hit interleaving points.
    public var reactiveUser: Bool
    /// Fault kind `process-death-interleaving`: each schedule request (an interleaving point)
    /// kills the process 0–400 virtual ms later with this chance (nil: never).
    public var interleavingDeathRate: Ratio?
    /// Whether interleaving-point deaths are on (at the catalog rate when switched on here).
    public var interleavingDeaths: Bool {
        get { interleavingDeathRate != nil }
        set { interleavingDeathRate = newValue ? FaultCatalog.processDeathInterleaving.rate : nil }
    }
    /// Fault kind `workout-loss` (WALK-23): the chance per started walk that HealthKit ends the
    /// workout on its own (nil: never).
    public var workoutLossRate: Ratio?
    /// Fault kind `walk-force-quit` (WALK-25): the chance per started walk that the user
    /// force-quits the app during it (nil: never).
    public var walkForceQuitRate: Ratio?
    /// Fault kind `clock-change-during-snooze` (SNZ-20, SNZ-21): the chance per accepted snooze
    /// that the wall clock is corrected before its ring (nil: never).
    public var snoozeClockChangeRate: Ratio?
    /// Fault kind `clock-set-back-after-trigger` (SNZ-22, REC-9): the chance per occurrence that
    /// the wall clock is set back 1–9 s after its first successor or walk-fuse arm (nil: never).
    public var triggerClockSetBackRate: Ratio?
    /// Fault kind `death-mid-close` (OCC-5..7, SNZ-15, IOS-11): the chance per step that closes
    /// or hands on an occurrence that the process dies between its commands (nil: never).
    public var deathMidCloseRate: Ratio?
    /// Fault kind `accepted-request-dropped` (issue 18): the chance per boot that AlarmManager
    /// drops one of the app's first 1–3 accepted requests (nil: never).
    public var acceptedRequestDropRate: Ratio?
    /// Fault kind `schedule-request-failure`, BUGGIFY-style: each schedule request fails with this
    /// chance (nil: never), so failures also land on the requests that matter (a snooze ring, a
    /// rotation), not only at random times.
    public var requestFailureRate: Ratio?
    /// Seed of the remaining randomness.
    public var seed: UInt64
    /// iOS: how long a background process runs before it is suspended (nil: never suspended).
    /// Undocumented for AlarmKit intent launches: a parameter.
    public var backgroundExecutionMs: Int64?
    /// iOS: whether AlarmKit intents still launch the app after a force-quit (undocumented:
    /// PLATFORMS.md, "intents"; false holds them until the user opens the app).
    public var intentsAfterForceQuit = true
    /// Android: the app's standby bucket at the start (UsageStats); alarm clocks are exempt.
    public var androidStandbyBucket = StandbyBucket.active
    /// Android 34+: whether USE_FULL_SCREEN_INTENT is granted (denied: heads-up only, fsi-limits).
    public var androidFullScreenIntent = true
    /// BOOT-12: the chance that one kill-switch check meets a network problem (a timeout, a
    /// network failure or an unreadable body); nil: the network always answers. Varied per seed.
    public var killSwitchFailureRate: Ratio?
    /// BOOT-12: how long a kill-switch request waits before it times out, virtual ms
    /// (`URLRequest.timeoutInterval`; the app's choice, a parameter).
    public var killSwitchTimeoutMs: Int64 = 10_000
    /// BOOT-3: JS never refreshes its cached "alarms configured" after onboarding, so it reports
    /// "no alarms" at every launch. Varied per seed; scenarios: `param app.js-cache-stale on`.
    public var jsCacheStale = false
    /// iOS walk model parameters (HealthKit, Core Motion, Health access).
    public var walk = WalkSetup()
    /// W_STEP (AND-16, AND-17, AND-18), varied per seed: 15 s – 3 min. Virtual ms.
    public var recentStepWindowMs: Int64 = 60_000
    /// Android step counter's `maxReportLatencyUs` batching, varied per seed: 0–10 s. Virtual ms.
    public var stepReportLatencyMs: Int64 = 0
    /// The run starts right after an update from an older version: its document and rings are in
    /// place, and the first launch migrates (BOOT-9..11, AND-4). nil: a fresh install.
    public var legacyInstall: LegacyInstall?
    /// H_SKIP (CAP-8), varied per seed: 7, 10 or 14 days (default 14). Virtual ms.
    public var skipHorizonMs: Int64 = 14 * 86_400_000
    /// N_SKIP (CAP-8), varied per seed: 30 (default) or a small bound that binds. Count.
    public var skipOccurrenceMax: Int = 30
    /// The liveness phase after `durationMs` (issue 7, invariant 46): off unless the run asks.
    public var liveness = LivenessSetup()
    /// `run --continue-seeds`: the true-time instant (Unix-epoch ms) from which the seeded random
    /// behaviour acts — the reactive user, the in-run fault rates (request failures, interleaving
    /// deaths, kill-switch network failures, workout loss, walk force-quits). nil: the whole run.
    /// A scripted prefix before it runs exactly as its file says.
    public var randomBehaviourFromMs: Int64?

    public init(platform: PlatformFlavor, zoneIdentifier: String, startWallMs: Int64, durationMs: Int64,
                alarms: [LogicalAlarm], plan: [TimedAction], seed: UInt64) {
        self.platform = platform
        self.zoneIdentifier = zoneIdentifier
        self.startWallMs = startWallMs
        self.durationMs = durationMs
        self.alarms = alarms
        self.ios = AlarmKitParameters()
        self.android = AlarmManagerParameters()
        self.android.manifest = .usual  // AND-1: the manifest the bridge's config plugin generates
        self.transitionBoundMs = 5_000
        self.publicationGraceMs = 5_000
        self.plan = plan
        self.reactiveUser = false
        self.interleavingDeathRate = nil
        self.seed = seed
    }
}

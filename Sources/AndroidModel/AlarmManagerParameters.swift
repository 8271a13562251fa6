import AlarmBridge

/// Named parameters of the AlarmManager-like scheduler and the app's ringing service.
///
/// Documented facts carry their AOSP default and source; anything public material does not pin
/// down is a named parameter with its meaning, unit and the range the swarm should draw from
/// (PLATFORMS.md, confidence "?"). All durations are virtual milliseconds. The defaults
/// reproduce the first cut's behaviour: an app holding SCHEDULE_EXACT_ALARM that is revocable at
/// every API level, a direct-boot-aware boot receiver, no doze, the `active` standby bucket, no
/// OEM interference and equal-time deliveries in the order the alarms were set.
public struct AlarmManagerParameters: Sendable, Equatable {
    /// Delay from boot to LOCKED_BOOT_COMPLETED (undocumented; drawn per seed). Swarm: 1 000–8 000 ms.
    public var lockedBootBroadcastDelayMs: Int64 = 3_000
    /// API level of the device: 31, 32, 33, 34 or 35 (31/32: only SCHEDULE_EXACT_ALARM exists;
    /// 33+: USE_EXACT_ALARM; 34+: SCHEDULE_EXACT_ALARM denied by default for new installs and
    /// USE_FULL_SCREEN_INTENT becomes a runtime-revocable permission).
    public var apiLevel: Int = 34

    // MARK: Manifest (the app under test)

    /// What the app declares in its manifest.
    public var manifest = AndroidManifestDeclarations()
    /// Whether the app was installed fresh on this API level (true) or kept its SCHEDULE_EXACT_ALARM
    /// grant through an OS upgrade (false). On API 34+ a fresh install targeting 33+ starts with
    /// SCHEDULE_EXACT_ALARM denied (developer.android.com/about/versions/14/changes/schedule-exact-alarms);
    /// below 34 the app-op defaults to allowed (AMS `hasScheduleExactAlarmInternal`). Default false:
    /// the first cut's always-granted start.
    public var freshInstall = false
    /// The app's `targetSdkVersion`; nil: the device's `apiLevel` (the first cut's assumption).
    /// Below 31 the compat change REQUIRE_EXACT_ALARM_PERMISSION is off: exact alarms need no
    /// permission and a revocation removes nothing; `setExactAndAllowWhileIdle` gets
    /// FLAG_ALLOW_WHILE_IDLE_COMPAT (the 7-per-hour quota); ENFORCE_MINIMUM_WINDOW_ON_INEXACT_ALARMS
    /// is off, so `setWindow` windows are kept as asked (AMS `set`, `setImpl`; AOSP
    /// AlarmManagerServiceTest `*WhenChangeDisabled`, `opChangedChangeDisabled`,
    /// `minWindowChangeDisabled`). Swarm (`setup.android-manifest`): unset in half the seeds, else
    /// 30, 33, 34 or 35 (issue 18: a target below 31 and one below the device's level are reached).
    public var targetSdk: Int?
    /// `targetSdk`, or the device's API level when unset.
    public var effectiveTargetSdk: Int { targetSdk ?? apiLevel }

    // MARK: Battery (PowerManager, DeviceIdleController, AppStateTracker; issue 18 part 2)

    /// The app's battery-usage setting (Settings → Apps → Battery: Unrestricted / Optimized /
    /// Restricted), or a place on the system power allowlist. Default `.optimized`: the first cut's
    /// app, on no allowlist and not background-restricted. See ``AppBatteryUsage`` for what each
    /// changes (AOSP AlarmManagerServiceTest `canScheduleExactAlarmsBinderCall`,
    /// `*WithAllowlist`, `binderCallWithUserAllowlist`, `allowWhileIdleUnrestricted`,
    /// `testAlarmRestrictedByFAS`).
    public var batteryUsage = AppBatteryUsage.optimized
    /// Battery Saver on when the run starts (PowerManager low-power mode; AppStateTracker
    /// `mForceAllAppsStandby`). It has no effect while the device charges (BatterySaverStateMachine
    /// turns Battery Saver off when plugged in). Default false (AOSP AlarmManagerServiceTest
    /// `batterySaverThrottling`, `allowWhileIdle*AlarmsInBatterySaver`).
    public var batterySaver = false
    /// The app's start mode is disabled (`ActivityManagerInternal.isAppStartModeDisabled`: AOSP
    /// returns APP_START_MODE_DISABLED only for an instant app whose uid is not active): `set*`
    /// calls are dropped without an error (AMS `setImpl`: "package not allowed to start") and its
    /// alarms are removed when its uid goes idle (AMS `UidObserver.onUidIdle/onUidGone(disabled)`
    /// → `removeForStoppedLocked`; AOSP AlarmManagerServiceTest `alarmsRemovedOnAppStartModeDisabled`).
    /// Default false; the swarm never draws it (an alarm app does not ship as an instant app).
    public var appStartModeDisabled = false

    /// SCHEDULE_EXACT_ALARM is declared for this API level (31+, its `maxSdkVersion` covering it).
    public var scheduleExactAlarmApplies: Bool {
        apiLevel >= 31 && manifest.declaresScheduleExactAlarm && (manifest.scheduleExactAlarmMaxSdk.map { apiLevel <= $0 } ?? true)
    }

    /// USE_EXACT_ALARM is declared and exists at this API level (33+; install-time, AMS
    /// `hasUseExactAlarmInternal`).
    public var useExactAlarmApplies: Bool { apiLevel >= 33 && manifest.declaresUseExactAlarm }

    /// The SCHEDULE_EXACT_ALARM app-op decides whether the app may set exact alarms: it is declared
    /// for this API level, no USE_EXACT_ALARM overrides it (AMS ignores app-op changes of its
    /// holders), and the app targets 31+ (below, REQUIRE_EXACT_ALARM_PERMISSION is off). Only then
    /// can the user revoke it, or API 34 deny it by default (PLATFORMS.md "SCHEDULE_EXACT_ALARM
    /// (31/32)", "USE_EXACT_ALARM (33+)", "API 34 default"; AMS `canScheduleExactAlarms`).
    public var exactAlarmAppOpGoverns: Bool {
        scheduleExactAlarmApplies && !useExactAlarmApplies && effectiveTargetSdk >= 31
    }

    /// API 34: a fresh install of an app targeting 33+ starts with SCHEDULE_EXACT_ALARM denied
    /// (developer.android.com/about/versions/14/changes/schedule-exact-alarms: "no longer being
    /// pre-granted to most newly installed apps targeting Android 13 and higher"); kept when
    /// granted before an OS upgrade (`freshInstall` false).
    public var exactAlarmDeniedByDefault: Bool { freshInstall && apiLevel >= 34 && effectiveTargetSdk >= 33 }

    // MARK: Scheduler constants (AOSP AlarmManagerService.Constants; DeviceConfig-tunable)

    /// `MIN_FUTURITY`: a non-core caller's trigger is raised to at least now + this (AMS `setImpl`:
    /// `triggerElapsed = max(nowElapsed + MIN_FUTURITY, nominalTrigger)`), setAlarmClock included. 5 000 ms.
    public var minFuturityMs: Int64 = 5_000
    /// `MIN_INTERVAL`: repeat intervals below it are raised to it (AMS `setImpl`). 60 000 ms.
    public var minRepeatIntervalMs: Int64 = 60_000
    /// `MIN_WINDOW`: a `setWindow` window shorter than min(this, 0.75 × futurity) is expanded
    /// (AMS `getMinimumAllowedWindow`, compat change ENFORCE_MINIMUM_WINDOW_ON_INEXACT_ALARMS). 600 000 ms.
    public var minWindowMs: Int64 = 600_000
    /// `MAX_ALARMS_PER_UID`: with this many alarms pending, any further `set*` (a replacement
    /// included: the check precedes the removal) throws IllegalStateException (AMS `setImpl`). 500.
    public var maxAlarmsPerApp: Int = 500
    /// `ALLOW_WHILE_IDLE_QUOTA` / `_WINDOW`: setExactAndAllowWhileIdle deliveries per rolling window
    /// in doze (AMS `adjustDeliveryTimeBasedOnDeviceIdle`). 72 per 3 600 000 ms.
    public var allowWhileIdleQuota: Int = 72
    public var allowWhileIdleWindowMs: Int64 = 3_600_000
    /// `ALLOW_WHILE_IDLE_COMPAT_QUOTA` / `_WINDOW`: setAndAllowWhileIdle (inexact) deliveries per
    /// rolling window in doze (AMS; power-details page "once per 9 minutes"). 7 per 3 600 000 ms.
    public var allowWhileIdleCompatQuota: Int = 7
    public var allowWhileIdleCompatWindowMs: Int64 = 3_600_000
    /// `MIN_DEVICE_IDLE_FUZZ` / `MAX_DEVICE_IDLE_FUZZ`: doze ends a random time in
    /// [min, min(max, futurity)] before the next setAlarmClock (AMS `adjustIdleUntilTime`). 2 / 15 min.
    public var minDeviceIdleFuzzMs: Int64 = 120_000
    public var maxDeviceIdleFuzzMs: Int64 = 900_000
    /// `APP_STANDBY_QUOTAS`: non-exempt wakeups per rolling `standbyWindowMs`, by bucket
    /// (AMS DEFAULT_APP_STANDBY_QUOTAS: active 720, working 10, frequent 2, rare 1, never 0).
    public var standbyQuotas = StandbyQuotas()
    public var standbyWindowMs: Int64 = 3_600_000
    /// `APP_STANDBY_RESTRICTED_QUOTA` / `_WINDOW`: the restricted bucket's 1 per 24 h.
    public var restrictedQuota: Int = 1
    public var restrictedWindowMs: Int64 = 86_400_000

    // MARK: Doze (DeviceIdleController; not in AMS)

    /// Lengths of successive deep-doze idle periods; the last repeats. Not in AMS (DeviceIdleController
    /// IDLE_TIMEOUT × IDLE_FACTOR up to MAX_IDLE_TIMEOUT); third-party doze write-ups give 1, 2, 4, 6 h.
    /// Swarm: first period 900 000–3 600 000 ms, factor 2, cap 21 600 000 ms.
    public var dozeIdlePeriodsMs: [Int64] = [3_600_000, 7_200_000, 14_400_000, 21_600_000]
    /// Length of a doze maintenance window, during which deferred alarms run (undocumented upstream
    /// beyond "a short window"). Swarm: 30 000–600 000 ms.
    public var dozeMaintenanceWindowMs: Int64 = 300_000

    // MARK: Delivery order

    /// nil: alarms delivered at the same instant go in the order they were set (the first cut).
    /// Non-nil: AMS leaves the order among equal delivery times unspecified (dispatch comparator),
    /// so each alarm gets a tie-break key drawn from the model's injected generator at set time.
    /// Swarm: true in half the seeds.
    public var seededEqualTimeOrder = false

    // MARK: OEM behaviour (field reports; PLATFORMS.md "field")

    /// Some OEMs treat swipe-from-recents as force-stop (notifee#126). Swarm: 1 in 4.
    public var swipeFromRecentsForceStops = false
    /// Some OEMs clear an app's alarms on update (flutter_local_notifications#188); AOSP keeps them.
    /// Swarm: 1 in 10.
    public var updateClearsAlarms = false
    /// OEM battery optimisation kills the ringing app process this long after ringing starts
    /// (gdelataillade/alarm#82, #430). nil: never. Swarm: nil, or 10 000–300 000 ms in 1 of 5 seeds.
    public var oemKillsRingingAfterMs: Int64?
    /// OEM battery optimisation delays each delivery by a uniform draw in 0...this (alarm#365, #439).
    /// 0: off. Swarm: 0, or up to 60 000–900 000 ms in 1 of 5 seeds.
    public var oemDeliveryDelayMaxMs: Int64 = 0
    /// Whether the OEM delay spares setAlarmClock (reports: alarm clocks ring on time where
    /// setExactAndAllowWhileIdle is late). Default true.
    public var oemDelaySparesAlarmClock = true

    // MARK: Ringing

    /// How long a heads-up notification stays expanded before collapsing to the shade when the
    /// full-screen intent is denied (source.android.com fsi-limits: "about 60 s"). 60 000 ms.
    public var headsUpDurationMs: Int64 = 60_000
    /// STREAM_ALARM volume index range (AudioService MIN/MAX_STREAM_VOLUME; the alarm stream's
    /// minimum is 1 since Android 9; the maximum varies by device). Swarm: max 7–15.
    public var alarmVolumeMinIndex: Int = 1
    public var alarmVolumeMaxIndex: Int = 7
    /// Alarm volume index when the run starts. Swarm: min...max.
    public var alarmVolumeIndex: Int = 6

    /// The device's time-zone id at the start (TIMEZONE_CHANGED is sent only when it changes).
    public var timeZoneID = "UTC"
    /// How long after an exact alarm's delivery the app may start a foreground service from the
    /// background (AMS temp-allowlists the receiver: ALLOW_WHILE_IDLE_WHITELIST_DURATION, 10 s; FGS
    /// docs list exact alarms among the exemptions). Swarm: 5 000–10 000 ms.
    public var exactAlarmForegroundServiceWindowMs: Int64 = 10_000
    /// The notification channel the ringing notification posts to.
    public var ringingChannel: NotificationChannelKind = .alarmHighImportance
    /// Sound names whose files the app keeps in credential-encrypted storage (a ringtone the user
    /// imported, a MediaStore file): before the first unlock after a boot the ringing service's
    /// player cannot open them and stays silent, reporting no error (direct-boot docs: CE storage
    /// is unavailable until unlock; BlackyHawky/Clock#292, #322: "the alarm screen pops up, but no
    /// sound"; GrapheneOS#6622). Empty: every sound is in the APK or the system image. Fault kind
    /// `credential-stored-sound` (issue 18); scenario `param android.credential-stored-sounds a,b`.
    public var credentialStoredSounds: [String] = []
    /// Whether losing audio focus silences the alarm (the system fades out only media and game
    /// usages on 12+, FadeOutManager; an app or OEM may still pause on loss). Swarm: 1 in 4.
    public var focusLossSilencesAlarm = false

    /// Seed of the model's own generator when built with `AlarmManagerModel(parameters:)`; a host
    /// that owns named streams passes a generator to `init(parameters:random:)` instead.
    public var randomSeed: UInt64 = 0

    public init() {}
}

/// What the app declares in its AndroidManifest.xml.
public struct AndroidManifestDeclarations: Sendable, Equatable {
    /// `<uses-permission android:name="android.permission.SCHEDULE_EXACT_ALARM"/>` (app-op,
    /// user-revocable; API 31+). The usual manifest adds `maxSdkVersion="32"`: see `scheduleExactAlarmMaxSdk`.
    public var declaresScheduleExactAlarm = true
    /// `maxSdkVersion` on SCHEDULE_EXACT_ALARM: the declaration does not apply above it. nil: none.
    public var scheduleExactAlarmMaxSdk: Int?
    /// `<uses-permission android:name="android.permission.USE_EXACT_ALARM"/>` (API 33+, install-time,
    /// not revocable; AMS `hasUseExactAlarmInternal`).
    public var declaresUseExactAlarm = false
    /// RECEIVE_BOOT_COMPLETED with a boot receiver.
    public var receivesBootCompleted = true
    /// The boot receiver is `android:directBootAware="true"`: it gets LOCKED_BOOT_COMPLETED
    /// (developer.android.com/privacy-and-security/direct-boot).
    public var directBootAware = true
    /// USE_FULL_SCREEN_INTENT declared; on 34+ granted by default only to alarm and calling apps
    /// (source.android.com/docs/core/permissions/fsi-limits).
    public var declaresUseFullScreenIntent = true
    /// A manifest receiver for MY_PACKAGE_REPLACED: without it an update launches nothing (AND-3).
    public var receivesPackageReplaced = true
    /// A manifest receiver for TIME_SET: without it a clock change reaches only a running process's
    /// context receivers, which the bridge does not register (AND-3, REC-8).
    public var receivesTimeSet = true
    /// A manifest receiver for TIMEZONE_CHANGED (AND-3, REC-8).
    public var receivesTimezoneChanged = true
    /// A manifest receiver for ACTION_SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED (AND-3).
    public var receivesExactAlarmPermissionChanged = true
    /// `android:allowBackup` (AND-7): Auto Backup / device transfer restore the app's data.
    public var allowBackup = false
    /// Importance of the channel the ringing notification posts to (AND-8): below high, Android
    /// shows neither a heads-up nor the full-screen intent (NotificationManager IMPORTANCE_HIGH).
    public var alarmChannelImportance = AndroidAppManifest.ChannelImportance.high

    public init() {}

    /// The manifest an app declares, read from its `AndroidManifest.xml` as the bridge states
    /// it (AND-1): each boolean says whether the entry is there. The direct-boot flag is that of
    /// the boot receiver (LOCKED_BOOT_COMPLETED).
    public init(declared manifest: AndroidAppManifest) {
        let exact = manifest.permissions.first { $0.name == AndroidAppManifest.scheduleExactAlarm }
        declaresScheduleExactAlarm = exact != nil
        scheduleExactAlarmMaxSdk = exact?.maxSdkVersion
        declaresUseExactAlarm = manifest.declares(AndroidAppManifest.useExactAlarm)
        receivesBootCompleted = manifest.declares(AndroidAppManifest.receiveBootCompleted)
            && manifest.receiver(AndroidAppManifest.bootCompleted) != nil
        directBootAware = manifest.receiver(AndroidAppManifest.lockedBootCompleted)?.directBootAware ?? false
        declaresUseFullScreenIntent = manifest.declares(AndroidAppManifest.useFullScreenIntent)
        receivesPackageReplaced = manifest.receiver(AndroidAppManifest.myPackageReplaced) != nil
        receivesTimeSet = manifest.receiver(AndroidAppManifest.timeSet) != nil
        receivesTimezoneChanged = manifest.receiver(AndroidAppManifest.timezoneChanged) != nil
        receivesExactAlarmPermissionChanged = manifest.receiver(AndroidAppManifest.exactAlarmPermissionChanged) != nil
        allowBackup = manifest.allowBackup
        alarmChannelImportance = manifest.alarmChannelImportance
    }

    /// The manifest the bridge requires (AND-1, `BridgeCore.requiredAndroidManifest`):
    /// SCHEDULE_EXACT_ALARM with maxSdkVersion 32 plus USE_EXACT_ALARM (API 34 behaviour page),
    /// direct-boot-aware receivers, backup off, a high-importance alarm channel.
    public static var usual: AndroidManifestDeclarations {
        AndroidManifestDeclarations(declared: BridgeCore.requiredAndroidManifest)
    }

    /// The usual manifest with SCHEDULE_EXACT_ALARM alone (no `maxSdkVersion`, no USE_EXACT_ALARM),
    /// as apps of plugins that ask for the permission at run time declare it
    /// (flutter_local_notifications#1526, #2248): on API 33+ the user may revoke it and on 34+ a
    /// fresh install starts denied. Scenario `param android.manifest schedule-exact-only`.
    public static var scheduleExactOnly: AndroidManifestDeclarations {
        var manifest = AndroidManifestDeclarations()
        manifest.declaresScheduleExactAlarm = true
        manifest.declaresUseExactAlarm = false
        return manifest
    }
}

/// The app's place in power management (Settings → Apps → Battery, DeviceIdleController's power
/// allowlist, AppStateTracker's forced app standby).
public enum AppBatteryUsage: String, Sendable, Equatable, CaseIterable {
    /// "Optimized", the default: on no allowlist, not background-restricted.
    case optimized
    /// "Unrestricted" (the user exempted it from battery optimisation): on the user power allowlist,
    /// so both `DeviceIdleController.isAppOnWhitelist` and `AppStateTracker.isUidPowerSaveUserExempt`
    /// hold. Exact alarms need no permission, revocation removes nothing, every alarm but an alarm
    /// clock gets FLAG_ALLOW_WHILE_IDLE_UNRESTRICTED, Battery Saver does not restrict it.
    case unrestricted
    /// On the system power allowlist (a preinstalled clock, an OEM config): `isAppOnWhitelist`
    /// only. Exact alarms need no permission, and `setExactAndAllowWhileIdle` without the
    /// permission gets FLAG_ALLOW_WHILE_IDLE_COMPAT (AMS `set`: "lower quota to keep pre-S compatibility").
    case systemAllowlisted = "system-allowlisted"
    /// "Restricted" (forced app standby, OP_RUN_ANY_IN_BACKGROUND denied): while the app's uid is
    /// not active its due alarms, alarm clocks excepted, are held until it is (AMS
    /// `isBackgroundRestricted`, `mPendingBackgroundAlarms`, `sendPendingBackgroundAlarmsLocked`).
    case restricted

    /// `DeviceIdleController.isAppOnWhitelist` (the full power allowlist, not except-idle): AMS
    /// `isExemptFromExactAlarmPermissionNoLock`, AppStateTracker `mPowerExemptAllAppIds`.
    public var onPowerAllowlist: Bool { self == .unrestricted || self == .systemAllowlisted }
    /// `AppStateTracker.isUidPowerSaveUserExempt`: the user's own allowlist.
    public var userExempt: Bool { self == .unrestricted }
}

/// App standby buckets (UsageStatsManager STANDBY_BUCKET_*).
public enum StandbyBucket: String, Sendable, Equatable, CaseIterable {
    case active, workingSet = "working-set", frequent, rare, restricted, never
}

/// Non-exempt alarm quota per rolling hour for each bucket (AMS DEFAULT_APP_STANDBY_QUOTAS).
public struct StandbyQuotas: Sendable, Equatable {
    public var active = 720
    public var workingSet = 10
    public var frequent = 2
    public var rare = 1
    public var never = 0
    public init() {}

    /// The hourly quota of `bucket`; nil for `restricted`, which has its own daily quota.
    public func quota(_ bucket: StandbyBucket) -> Int? {
        switch bucket {
        case .active: return active
        case .workingSet: return workingSet
        case .frequent: return frequent
        case .rare: return rare
        case .never: return never
        case .restricted: return nil
        }
    }
}

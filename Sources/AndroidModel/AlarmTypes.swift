import AlarmBridge

/// The two clocks AlarmManager reads, at one instant.
public struct AndroidInstant: Sendable, Equatable {
    /// `SystemClock.elapsedRealtime()`: virtual milliseconds since boot, never corrected.
    public var elapsedRealtimeMs: Int64
    /// `System.currentTimeMillis()`: the wall clock, Unix-epoch milliseconds.
    public var wallMs: Int64
    public init(elapsedRealtimeMs: Int64, wallMs: Int64) {
        self.elapsedRealtimeMs = elapsedRealtimeMs
        self.wallMs = wallMs
    }
}

/// AlarmManager clock types (`AlarmManager.RTC_WAKEUP` …). RTC* trigger times are wall-clock
/// milliseconds, converted to elapsed time when set (AMS `convertToElapsed`); ELAPSED* are
/// `elapsedRealtime` milliseconds. Non-wakeup types do not wake the device.
public enum AlarmClockType: String, Sendable, Equatable, CaseIterable {
    case rtcWakeup = "RTC_WAKEUP"
    case rtc = "RTC"
    case elapsedRealtimeWakeup = "ELAPSED_REALTIME_WAKEUP"
    case elapsedRealtime = "ELAPSED_REALTIME"

    public var isWakeup: Bool { self == .rtcWakeup || self == .elapsedRealtimeWakeup }
    public var isWallClock: Bool { self == .rtcWakeup || self == .rtc }
}

/// The AlarmManager call that set an alarm.
public enum AlarmSetMethod: String, Sendable, Equatable, CaseIterable {
    /// Inexact: window 0.75 × futurity capped at 1 h (AMS `maxTriggerTime`).
    case set
    /// Inexact with the caller's window, clamped to [min(10 min, 0.75 × futurity), 1 day].
    case setWindow
    /// Exact (window 0); needs an exact-alarm permission on 31+; deferred to the end of doze idle.
    case setExact
    /// Exact and FLAG_ALLOW_WHILE_IDLE: runs in doze within 72 per rolling hour; needs the permission.
    case setExactAndAllowWhileIdle
    /// Inexact and FLAG_ALLOW_WHILE_IDLE_COMPAT: runs in doze within 7 per rolling hour; no permission.
    case setAndAllowWhileIdle
    /// `setAlarmClock(AlarmClockInfo, PendingIntent)`: exact, FLAG_WAKE_FROM_IDLE, never deferred,
    /// exempt from standby buckets; needs the permission.
    case setAlarmClock
    /// `setRepeating`: inexact since API 19 (window 0.75 × interval).
    case setRepeating
    /// `setInexactRepeating`: window 0.75 × interval.
    case setInexactRepeating

    /// Window 0: the alarms the exact-alarm permission governs (AMS: `exact = windowLength == 0`).
    public var isExact: Bool {
        switch self {
        case .setExact, .setExactAndAllowWhileIdle, .setAlarmClock: return true
        case .set, .setWindow, .setAndAllowWhileIdle, .setRepeating, .setInexactRepeating: return false
        }
    }

    public var isRepeating: Bool { self == .setRepeating || self == .setInexactRepeating }
}

/// One AlarmManager `set*` call with a broadcast PendingIntent.
public struct AlarmManagerRequest: Sendable, Equatable {
    public var method: AlarmSetMethod
    public var type: AlarmClockType
    /// Trigger time in the type's clock: wall ms for RTC*, elapsedRealtime ms for ELAPSED*.
    public var triggerAtMs: Int64
    /// `setWindow` only: the window length, ms.
    public var windowLengthMs: Int64
    /// `setRepeating` / `setInexactRepeating` only: the interval, ms (raised to ≥ 60 s).
    public var intervalMs: Int64
    public var id: AlarmUUID
    /// The PendingIntent's request code: the same code replaces (PendingIntent equality).
    public var requestCode: Int32
    public var metadata: RingMetadata

    public init(method: AlarmSetMethod, type: AlarmClockType = .rtcWakeup, triggerAtMs: Int64, windowLengthMs: Int64 = 0,
                intervalMs: Int64 = 0, id: AlarmUUID, requestCode: Int32? = nil, metadata: RingMetadata) {
        self.method = method
        self.type = method == .setAlarmClock ? .rtcWakeup : type  // AlarmClockInfo is always RTC_WAKEUP
        self.triggerAtMs = triggerAtMs
        self.windowLengthMs = windowLengthMs
        self.intervalMs = intervalMs
        self.id = id
        self.requestCode = requestCode ?? RingIdentity.requestCode(of: id)
        self.metadata = metadata
    }

    /// The bridge's ring as an `RTC_WAKEUP` request made with `method`.
    public init(_ ring: RingRequest, method: AlarmSetMethod = .setAlarmClock) {
        self.init(method: method, triggerAtMs: ring.fireWallMs, id: ring.id, metadata: ring.metadata)
    }
}

/// Broadcasts and system callbacks with no `BridgeInput` of their own (the bridge's inputs cover
/// alarm delivery, boot, USER_UNLOCKED and the permission grant).
public enum AndroidBroadcast: Sendable, Equatable {
    /// ACTION_TIME_CHANGED ("android.intent.action.TIME_SET"): an accepted clock change (the first
    /// since boot, or > 1 s off the last accepted one: ``AlarmManagerModel/observe(_:)``).
    case timeSet
    /// ACTION_TIMEZONE_CHANGED with the new zone id.
    case timezoneChanged(String)
    /// ACTION_MY_PACKAGE_REPLACED, the re-arm hook after an update.
    case myPackageReplaced
    /// ACTION_SCREEN_OFF / ACTION_SCREEN_ON: context-registered receivers only (never launch).
    case screenOff
    case screenOn
    /// A repeating alarm delivered with EXTRA_ALARM_COUNT > 1 (missed intervals folded into one).
    case alarmCount(AlarmUUID, count: Int)

    /// The action string, for traces.
    public var action: String {
        switch self {
        case .timeSet: return "android.intent.action.TIME_SET"
        case .timezoneChanged: return "android.intent.action.TIMEZONE_CHANGED"
        case .myPackageReplaced: return "android.intent.action.MY_PACKAGE_REPLACED"
        case .screenOff: return "android.intent.action.SCREEN_OFF"
        case .screenOn: return "android.intent.action.SCREEN_ON"
        case .alarmCount: return "alarm-count"
        }
    }
}

/// Why the system killed the app process.
public enum AndroidKillReason: String, Sendable, Equatable {
    case forceStop = "force-stop"
    /// Named like the fault and the exemption that cover it (`app-update`): one kill, one name.
    case packageUpdate = "app-update"
    case oemBatteryKiller = "oem-battery-killer"
}

/// Deep-doze state (DeviceIdleController as AlarmManager sees it: `mPendingIdleUntil`).
public enum DozeState: Sendable, Equatable {
    case inactive
    /// Idle until `untilElapsedMs` (the IDLE_UNTIL alarm); `period` indexes `dozeIdlePeriodsMs`.
    case idle(untilElapsedMs: Int64, period: Int)
    /// A maintenance window: deferred alarms run; idle resumes at `untilElapsedMs`.
    case maintenance(untilElapsedMs: Int64, period: Int)
}

/// One delivery, for checkers and tests (bounded log).
public struct AlarmDelivery: Sendable, Equatable {
    public var id: AlarmUUID
    public var requestCode: Int32
    public var method: AlarmSetMethod
    public var type: AlarmClockType
    public var deliveredElapsedMs: Int64
    /// The elapsed time the alarm was due (the requester's time, after the 5 s floor).
    public var dueElapsedMs: Int64
    /// EXTRA_ALARM_COUNT: 1, or more for a repeating alarm that missed intervals.
    public var count: Int
    /// The requester's trigger (wall ms) of the delivered alarm.
    public var triggerWallMs: Int64? = nil
}

/// Data partitions under file-based encryption (developer.android.com/privacy-and-security/direct-boot).
public enum AndroidStorageArea: String, Sendable, Equatable {
    /// Device-protected storage: readable during direct boot.
    case deviceProtected = "device-protected"
    /// Credential-protected storage (the default): readable only after the first unlock.
    case credentialProtected = "credential-protected"
}

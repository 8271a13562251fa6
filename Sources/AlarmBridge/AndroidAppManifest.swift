/// The Android configuration the bridge requires of the app (AND-1): what its config plugin
/// generates into AndroidManifest.xml and the notification channel it creates. The Android model
/// takes the app's *declared* manifest (default: this one) and enforces what a missing entry
/// means: no receiver, no broadcast (and no restore, AND-3); a receiver that is not direct-boot
/// aware, nothing before the first unlock; no exact-alarm permission, `setAlarmClock` throws
/// SecurityException; an alarm channel below high importance, no heads-up or full-screen
/// presentation (AND-8); backup allowed, JS storage restored without its native store (AND-7).
public struct AndroidAppManifest: Sendable, Equatable {
    /// A `<uses-permission>` entry.
    public struct Permission: Sendable, Equatable {
        public var name: String
        /// `android:maxSdkVersion`: the declaration does not apply above it. nil: none.
        public var maxSdkVersion: Int?
        public init(_ name: String, maxSdkVersion: Int? = nil) {
            self.name = name
            self.maxSdkVersion = maxSdkVersion
        }
    }

    /// One intent-filter action of a manifest `<receiver>`.
    public struct Receiver: Sendable, Equatable {
        public var action: String
        /// `android:directBootAware="true"`: it runs before the first unlock.
        public var directBootAware: Bool
        public init(_ action: String, directBootAware: Bool) {
            self.action = action
            self.directBootAware = directBootAware
        }
    }

    /// `NotificationManager.IMPORTANCE_*` of the channel the alarm surfaces post to.
    public enum ChannelImportance: String, Sendable, Equatable, CaseIterable {
        case high, `default`, low, min
    }

    public var permissions: [Permission]
    public var receivers: [Receiver]
    /// `<application android:allowBackup>` (and the device-transfer rules with it, AND-7).
    public var allowBackup: Bool
    /// The alarm channel's importance (AND-8).
    public var alarmChannelImportance: ChannelImportance

    public init(permissions: [Permission], receivers: [Receiver], allowBackup: Bool, alarmChannelImportance: ChannelImportance) {
        self.permissions = permissions
        self.receivers = receivers
        self.allowBackup = allowBackup
        self.alarmChannelImportance = alarmChannelImportance
    }

    public func declares(_ permission: String) -> Bool { permissions.contains { $0.name == permission } }
    public func receiver(_ action: String) -> Receiver? { receivers.first { $0.action == action } }

    public static let scheduleExactAlarm = "android.permission.SCHEDULE_EXACT_ALARM"
    public static let useExactAlarm = "android.permission.USE_EXACT_ALARM"
    public static let receiveBootCompleted = "android.permission.RECEIVE_BOOT_COMPLETED"
    public static let useFullScreenIntent = "android.permission.USE_FULL_SCREEN_INTENT"
    public static let foregroundService = "android.permission.FOREGROUND_SERVICE"
    public static let foregroundServiceMediaPlayback = "android.permission.FOREGROUND_SERVICE_MEDIA_PLAYBACK"

    public static let lockedBootCompleted = "android.intent.action.LOCKED_BOOT_COMPLETED"
    public static let bootCompleted = "android.intent.action.BOOT_COMPLETED"
    public static let myPackageReplaced = "android.intent.action.MY_PACKAGE_REPLACED"
    public static let timeSet = "android.intent.action.TIME_SET"
    public static let timezoneChanged = "android.intent.action.TIMEZONE_CHANGED"
    public static let exactAlarmPermissionChanged = "android.app.action.SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED"
}

extension BridgeCore {
    /// AND-1: the manifest the bridge requires. `SCHEDULE_EXACT_ALARM` up to API 32 and
    /// `USE_EXACT_ALARM` from 33 (the fixed numbers of RULES.md), boot and full-screen permissions,
    /// the foreground service that rings; direct-boot-aware receivers for every broadcast after
    /// which state is restored (AND-3: boot — locked or not —, replacement, clock, zone, exact-alarm
    /// permission), because the state they restore lives in device-protected storage (AND-2);
    /// backup disabled (AND-7); a high-importance alarm channel (AND-8).
    public static let requiredAndroidManifest = AndroidAppManifest(
        permissions: [
            .init(AndroidAppManifest.scheduleExactAlarm, maxSdkVersion: 32),
            .init(AndroidAppManifest.useExactAlarm),
            .init(AndroidAppManifest.receiveBootCompleted),
            .init(AndroidAppManifest.useFullScreenIntent),
            .init(AndroidAppManifest.foregroundService),
            .init(AndroidAppManifest.foregroundServiceMediaPlayback),
        ],
        receivers: [
            AndroidAppManifest.lockedBootCompleted, AndroidAppManifest.bootCompleted, AndroidAppManifest.myPackageReplaced,
            AndroidAppManifest.timeSet, AndroidAppManifest.timezoneChanged, AndroidAppManifest.exactAlarmPermissionChanged,
        ].map { AndroidAppManifest.Receiver($0, directBootAware: true) },
        allowBackup: false,
        alarmChannelImportance: .high)
}

/// The interruption level a local notification is delivered at (UserNotifications,
/// `UNNotificationInterruptionLevel`), as far as the alarm bridge's rules care.
///
/// Modelled (IOS-13; seed 003, "7. .timeSensitive silently downgrades without its
/// entitlement"; developer.apple.com/documentation/usernotifications/unnotificationinterruptionlevel):
/// `.timeSensitive` needs the Time Sensitive Notifications entitlement
/// (`com.apple.developer.usernotifications.time-sensitive`) and `.critical` the Critical Alerts
/// entitlement, which Apple grants on request. Without it the request does not fail: the
/// notification is delivered at `.active`, silently. Even a time-sensitive notification follows
/// the ring/silent switch; only a critical alert or an AlarmKit alarm sounds through Silent mode
/// and Focus.
///
/// Not modelled: Focus filters, notification summaries, sounds, delivery latency. The bridge never
/// posts notifications for pressure (IOS-15); this model exists so that the rule can be checked.
public enum NotificationInterruptionLevel: String, Sendable, Equatable, CaseIterable {
    case passive, active, timeSensitive = "time-sensitive", critical
}

/// The app's notification entitlements (its provisioning profile). AlarmKit itself needs none
/// (seed 003, section 1), only `NSAlarmKitUsageDescription`.
public struct NotificationEntitlements: Sendable, Equatable {
    public var timeSensitive: Bool
    public var criticalAlerts: Bool
    public init(timeSensitive: Bool = false, criticalAlerts: Bool = false) {
        self.timeSensitive = timeSensitive
        self.criticalAlerts = criticalAlerts
    }
}

public enum UserNotificationModel {
    /// IOS-13: the level a notification requested at `requested` is delivered at. A level the app
    /// is not entitled to is downgraded to `.active` without an error.
    public static func deliveredLevel(requested: NotificationInterruptionLevel,
                                      entitlements: NotificationEntitlements) -> NotificationInterruptionLevel {
        switch requested {
        case .passive, .active: return requested
        case .timeSensitive: return entitlements.timeSensitive ? .timeSensitive : .active
        case .critical: return entitlements.criticalAlerts ? .critical : .active
        }
    }

    /// Whether a notification delivered at `level` is heard with the ring/silent switch on
    /// (only a critical alert is). An AlarmKit alert always is (PLATFORMS.md, AlarmKit).
    public static func soundsInSilentMode(_ level: NotificationInterruptionLevel) -> Bool {
        level == .critical
    }
}

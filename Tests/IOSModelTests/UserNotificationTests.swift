import IOSModel
import Testing

/// IOS-13: UserNotifications' interruption levels as the model delivers them.
struct UserNotificationTests {
    @Test("IOS-13: time-sensitive without its entitlement is delivered at the active level, with it as asked")
    func timeSensitiveDowngrades() {
        #expect(UserNotificationModel.deliveredLevel(requested: .timeSensitive, entitlements: NotificationEntitlements()) == .active)
        #expect(UserNotificationModel.deliveredLevel(requested: .timeSensitive,
                                                     entitlements: NotificationEntitlements(timeSensitive: true)) == .timeSensitive)
        #expect(UserNotificationModel.deliveredLevel(requested: .critical, entitlements: NotificationEntitlements(timeSensitive: true)) == .active)
    }

    @Test("levels the app asks for without needing an entitlement are delivered unchanged", arguments: [NotificationInterruptionLevel.passive, .active])
    func plainLevels(_ level: NotificationInterruptionLevel) {
        #expect(UserNotificationModel.deliveredLevel(requested: level, entitlements: NotificationEntitlements()) == level)
    }

    @Test("IOS-15's premise: only a critical alert sounds through Silent mode", arguments: NotificationInterruptionLevel.allCases)
    func silentMode(_ level: NotificationInterruptionLevel) {
        #expect(UserNotificationModel.soundsInSilentMode(level) == (level == .critical))
    }
}

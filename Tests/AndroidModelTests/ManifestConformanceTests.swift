import AlarmBridge
import AndroidModel
import SimKernel
import Testing

/// The app's declared manifest is part of the simulated device (AND-1): the model enforces what
/// a missing entry means. The default is the manifest the bridge requires.
struct ManifestConformanceTests {
    static let hour: Int64 = 3_600_000

    static func declared(_ change: (inout AndroidAppManifest) -> Void) -> AndroidManifestDeclarations {
        var manifest = BridgeCore.requiredAndroidManifest
        change(&manifest)
        return AndroidManifestDeclarations(declared: manifest)
    }

    static func broadcasts(_ driver: AndroidDriver) -> [String] {
        driver.effects.compactMap { if case .broadcast(let broadcast, _) = $0 { return broadcast.action }; return nil }
    }

    @Test("AND-1: the usual manifest is the one the bridge requires: SCHEDULE_EXACT_ALARM ≤ 32, USE_EXACT_ALARM, direct-boot-aware receivers, no backup, a high-importance channel")
    func usualIsRequired() {
        let usual = AndroidManifestDeclarations.usual
        #expect(usual.declaresScheduleExactAlarm && usual.scheduleExactAlarmMaxSdk == 32 && usual.declaresUseExactAlarm)
        #expect(usual.receivesBootCompleted && usual.directBootAware && usual.receivesPackageReplaced)
        #expect(usual.receivesTimeSet && usual.receivesTimezoneChanged && usual.receivesExactAlarmPermissionChanged)
        #expect(!usual.allowBackup && usual.alarmChannelImportance == .high)
    }

    @Test("AND-1, AND-3: no MY_PACKAGE_REPLACED receiver, no broadcast after an update", arguments: [true, false])
    func packageReplacedNeedsReceiver(declared: Bool) {
        var driver = AndroidDriver { $0.manifest = Self.declared { if !declared { $0.receivers.removeAll { $0.action == AndroidAppManifest.myPackageReplaced } } } }
        driver.apply(driver.model.packageReplaced(now: driver.now))
        #expect(Self.broadcasts(driver).contains(AndroidAppManifest.myPackageReplaced) == declared)
    }

    @Test("AND-1, AND-3: no TIME_SET / TIMEZONE_CHANGED receivers, no clock or zone broadcast", arguments: [true, false])
    func timeBroadcastsNeedReceivers(declared: Bool) {
        var driver = AndroidDriver { $0.manifest = Self.declared { if !declared { $0.receivers.removeAll { [AndroidAppManifest.timeSet, AndroidAppManifest.timezoneChanged].contains($0.action) } } } }
        driver.apply(driver.model.setTimeZone("Europe/London"))
        driver.apply(driver.model.setTime(wallMs: driver.wallMs + Self.hour, now: driver.now))
        #expect(Self.broadcasts(driver).contains(AndroidAppManifest.timezoneChanged) == declared)
        #expect(Self.broadcasts(driver).contains(AndroidAppManifest.timeSet) == declared)
    }

    @Test("AND-1, AND-3: no receiver for the exact-alarm permission change, no broadcast on a grant", arguments: [true, false])
    func permissionChangeNeedsReceiver(declared: Bool) {
        var driver = AndroidDriver {
            $0.apiLevel = 32
            $0.manifest = Self.declared { if !declared { $0.receivers.removeAll { $0.action == AndroidAppManifest.exactAlarmPermissionChanged } } }
        }
        driver.apply(driver.model.revokeExactAlarmPermission())
        driver.apply(driver.model.grantExactAlarmPermission())
        #expect(driver.appInputs().contains(.exactAlarmPermissionGranted) == declared)
        #expect(driver.model.canScheduleExactAlarms)  // the grant itself happens either way
    }

    @Test("AND-1, AND-2: receivers that are not direct-boot aware get nothing before the first unlock")
    func notDirectBootAware() {
        var driver = AndroidDriver { $0.manifest = Self.declared { $0.receivers = $0.receivers.map { .init($0.action, directBootAware: false) } } }
        driver.apply(driver.model.shutdown())
        driver.apply(driver.model.boot())
        driver.advance(byMs: 10_000)
        driver.apply(driver.model.setTimeZone("Europe/London"))
        #expect(!driver.appInputs().contains(.bootCompleted(locked: true)))
        #expect(!Self.broadcasts(driver).contains(AndroidAppManifest.timezoneChanged))
        driver.apply(driver.model.unlockAfterBoot())
        #expect(driver.appInputs().contains(.bootCompleted(locked: false)))
    }

    @Test("AND-1: no exact-alarm permission declared, setAlarmClock throws SecurityException at every API level from 31",
          arguments: [31, 33, 35])
    func noExactPermission(apiLevel: Int) {
        var driver = AndroidDriver {
            $0.apiLevel = apiLevel
            $0.manifest = Self.declared { $0.permissions.removeAll { [AndroidAppManifest.scheduleExactAlarm, AndroidAppManifest.useExactAlarm].contains($0.name) } }
        }
        let id = driver.set("wake", .setAlarmClock, inMs: Self.hour)
        #expect(driver.scheduleResult(id)?.failure == .securityException)
    }

    @Test("AND-8: an alarm channel below high importance shows neither heads-up nor full-screen", arguments: AndroidAppManifest.ChannelImportance.allCases)
    func channelImportance(importance: AndroidAppManifest.ChannelImportance) {
        var driver = AndroidDriver { $0.manifest = Self.declared { $0.alarmChannelImportance = importance } }
        let id = AndroidDriver.uuid("ring")
        driver.apply(driver.model.startRinging(id, metadata: AndroidDriver.metadata("ring"), now: driver.now))
        let presentation = driver.model.ringingStatus(id)?.presentation
        #expect((presentation == .shade) == (importance != .high))
    }
}

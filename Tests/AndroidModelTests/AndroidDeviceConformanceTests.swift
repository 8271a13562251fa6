import AlarmBridge
import AndroidModel
import SimKernel
import Testing

/// Time changes, exact-alarm permissions, boot and storage, force-stop, updates and OEM behaviour.
struct AndroidDeviceConformanceTests {
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000

    // MARK: Time

    @Test("a wall-clock jump > 1 s recomputes RTC alarms from their wall time, leaves ELAPSED alarms, and sends TIME_SET (AMS reevaluateRtcAlarms)")
    func timeSet() {
        var driver = AndroidDriver()
        let start = driver.elapsedMs
        let rtc = driver.set("rtc", .setExact, inMs: Self.hour, type: .rtcWakeup)
        let elapsed = driver.set("elapsed", .setExact, inMs: Self.hour, type: .elapsedRealtimeWakeup)
        driver.wallOffsetMs += 30 * Self.minute  // the clock is set 30 min ahead
        driver.apply(driver.model.observe(driver.now))
        #expect(driver.broadcasts() == [.timeSet])
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(rtc) == [start + 30 * Self.minute], "RTC alarm follows the wall clock")
        #expect(driver.deliveryTimes(elapsed) == [start + Self.hour], "ELAPSED alarm unchanged")
    }

    @Test("the first clock change since boot sends TIME_SET whatever its size; later ones are measured against the last accepted one, so corrections of at most 1 s add up (AMS AlarmThread: lastTimeChangeClockTime == 0, expectedClockTime ± 1000)")
    func smallTimeChange() {
        var driver = AndroidDriver()
        driver.wallOffsetMs += 300
        driver.apply(driver.model.observe(driver.now))
        #expect(driver.broadcasts() == [.timeSet], "the first change since boot is always accepted")
        driver.wallOffsetMs += 600
        driver.apply(driver.model.observe(driver.now))
        #expect(driver.broadcasts() == [.timeSet], "0.6 s off the last accepted change: filtered")
        driver.wallOffsetMs += 600
        driver.apply(driver.model.observe(driver.now))
        #expect(driver.broadcasts() == [.timeSet, .timeSet], "1.2 s off the last accepted change: accepted")
        driver.wallOffsetMs -= 5_000
        driver.apply(driver.model.observe(driver.now))
        #expect(driver.broadcasts() == [.timeSet, .timeSet, .timeSet])
    }

    @Test("TIMEZONE_CHANGED only when the zone id changes; RTC alarms (UTC) do not move; DST sends nothing (AMS setTimeZoneImpl)")
    func timeZone() {
        var driver = AndroidDriver { $0.timeZoneID = "Europe/Berlin" }
        let start = driver.elapsedMs
        let rtc = driver.set("rtc", .setExact, inMs: Self.hour)
        driver.apply(driver.model.setTimeZone("Europe/Berlin"))  // a DST transition keeps the id
        #expect(driver.broadcasts().isEmpty)
        driver.apply(driver.model.setTimeZone("America/New_York"))
        #expect(driver.broadcasts() == [.timezoneChanged("America/New_York")])
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(rtc) == [start + Self.hour])
    }

    // MARK: Exact-alarm permission

    @Test("API 31/32: revoking SCHEDULE_EXACT_ALARM removes exact alarms only, kills the process, sends nothing (AMS removeExactAlarmsOnPermissionRevoked)",
          arguments: [31, 32])
    func revocationRemovesExact(apiLevel: Int) {
        var driver = AndroidDriver { $0.apiLevel = apiLevel; $0.manifest = .usual }
        let exact = driver.set("exact", .setExact, inMs: Self.hour)
        driver.set("clock", .setAlarmClock, inMs: Self.hour)
        driver.set("idle", .setExactAndAllowWhileIdle, inMs: Self.hour)
        let inexact = driver.set("inexact", .set, inMs: Self.hour)
        let before = driver.effects.count
        driver.apply(driver.model.revokeExactAlarmPermission())
        #expect(driver.model.pending.map(\.id) == [inexact])
        #expect(driver.kills == 1)
        #expect(!driver.effects[before...].contains { if case .toApp = $0 { return true }; if case .broadcast = $0 { return true }; return false })
        #expect(!driver.model.canScheduleExactAlarms)
        driver.set("exact", .setExact, inMs: Self.hour)
        #expect(driver.scheduleResult(exact)?.failure == .securityException)
    }

    @Test("before API 31 there is no exact-alarm permission: a revocation changes nothing and exact alarms stay (AMS canScheduleExactAlarms: target < S)",
          arguments: [26, 30])
    func noPermissionBeforeS(apiLevel: Int) {
        var driver = AndroidDriver { $0.apiLevel = apiLevel; $0.manifest = AndroidManifestDeclarations() }
        let clock = driver.set("clock", .setAlarmClock, inMs: Self.hour)
        driver.apply(driver.model.revokeExactAlarmPermission())
        #expect(driver.model.pending.map(\.id) == [clock])
        #expect(driver.kills == 0)
        #expect(driver.model.canScheduleExactAlarms)
    }

    @Test("granting SCHEDULE_EXACT_ALARM sends ACTION_SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED, which launches the app (AMS opChanged)")
    func grantBroadcast() {
        var driver = AndroidDriver { $0.apiLevel = 31 }
        driver.apply(driver.model.revokeExactAlarmPermission())
        driver.apply(driver.model.grantExactAlarmPermission())
        #expect(driver.effects.contains(.toApp(.exactAlarmPermissionGranted, launch: .broadcast)))
        #expect(driver.model.canScheduleExactAlarms)
    }

    @Test("API 33+: USE_EXACT_ALARM is install-time; app-op revocation is ignored (AMS hasUseExactAlarmInternal)", arguments: [33, 34, 35])
    func useExactAlarmNotRevocable(apiLevel: Int) {
        var driver = AndroidDriver { $0.apiLevel = apiLevel; $0.manifest = .usual }
        let clock = driver.set("clock", .setAlarmClock, inMs: Self.hour)
        driver.apply(driver.model.revokeExactAlarmPermission())
        #expect(driver.model.canScheduleExactAlarms)
        #expect(driver.model.alarm(clock) != nil)
        #expect(driver.kills == 0)
    }

    @Test("API 34+: a fresh install with only SCHEDULE_EXACT_ALARM starts denied: exact calls throw SecurityException, inexact ones work (API 34 schedule-exact-alarms page)",
          arguments: [34, 35])
    func deniedByDefaultOn34(apiLevel: Int) {
        var driver = AndroidDriver { $0.apiLevel = apiLevel; $0.freshInstall = true }
        #expect(!driver.model.canScheduleExactAlarms)
        for method in [AlarmSetMethod.setExact, .setExactAndAllowWhileIdle, .setAlarmClock] {
            let id = driver.set("exact-\(method.rawValue)", method, inMs: Self.hour)
            #expect(driver.scheduleResult(id)?.failure == .securityException)
        }
        let inexact = driver.set("inexact", .setAndAllowWhileIdle, inMs: Self.hour)
        #expect(driver.scheduleResult(inexact).map { (try? $0.get()) != nil } == true)
        var upgraded = AndroidDriver { $0.apiLevel = apiLevel; $0.freshInstall = false }
        #expect(upgraded.model.canScheduleExactAlarms, "a grant kept through an OS upgrade")
        upgraded.advance(byMs: 1)
    }

    @Test("exact scheduling from a boot receiver without the permission throws SecurityException (AMS set: no boot exemption)")
    func bootReceiverSecurityException() {
        var driver = AndroidDriver { $0.apiLevel = 34; $0.freshInstall = true }
        driver.apply(driver.model.shutdown())
        driver.apply(driver.model.boot())
        driver.advance(byMs: 10_000)
        #expect(driver.appInputs().contains(.bootCompleted(locked: true)))
        let id = driver.set("rearm", .setAlarmClock, inMs: Self.hour)
        #expect(driver.scheduleResult(id)?.failure == .securityException)
    }

    // MARK: Boot and storage

    @Test("reboot clears every alarm; LOCKED_BOOT_COMPLETED only for direct-boot-aware receivers; BOOT_COMPLETED + USER_UNLOCKED after the first unlock (direct-boot docs)",
          arguments: [true, false])
    func bootBroadcasts(directBootAware: Bool) {
        var driver = AndroidDriver { $0.manifest.directBootAware = directBootAware }
        driver.set("a", .setAlarmClock, inMs: Self.hour)
        driver.apply(driver.model.shutdown())
        #expect(driver.model.pending.isEmpty)
        driver.apply(driver.model.boot())
        driver.advance(byMs: 10_000)
        #expect(driver.appInputs().contains(.bootCompleted(locked: true)) == directBootAware)
        #expect(!driver.appInputs().contains(.bootCompleted(locked: false)))
        driver.apply(driver.model.unlockAfterBoot())
        #expect(driver.appInputs().contains(.bootCompleted(locked: false)))
        #expect(driver.appInputs().contains(.protectedDataAvailable))
    }

    @Test("device-protected storage is readable before the first unlock, credential-protected only after (direct-boot docs)")
    func storageAreas() {
        var model = AlarmManagerModel(parameters: AlarmManagerParameters())
        #expect(model.isReadable(.credentialProtected))
        _ = model.shutdown()
        _ = model.boot()
        #expect(model.isReadable(.deviceProtected))
        #expect(!model.isReadable(.credentialProtected))
        _ = model.unlockAfterBoot()
        #expect(model.isReadable(.credentialProtected))
    }

    // MARK: Force-stop, recents, update

    @Test("force-stop removes every alarm and blocks every broadcast, boot included, until the user launches the app (AMS; stopped state)")
    func forceStop() {
        var driver = AndroidDriver { $0.apiLevel = 34 }
        driver.set("clock", .setAlarmClock, inMs: Self.hour)
        driver.set("inexact", .set, inMs: Self.hour)
        driver.apply(driver.model.forceStop(now: driver.now))
        #expect(driver.model.pending.isEmpty)
        #expect(driver.effects.contains(.processKilled(.forceStop)))
        driver.apply(driver.model.shutdown())
        driver.apply(driver.model.boot())
        driver.advance(byMs: 10_000)
        driver.apply(driver.model.unlockAfterBoot())
        driver.apply(driver.model.setTimeZone("Asia/Tokyo"))
        #expect(!driver.appInputs().contains { if case .bootCompleted = $0 { return true }; return false })
        #expect(driver.broadcasts().isEmpty)
        driver.apply(driver.model.appLaunchedByUser())
        driver.apply(driver.model.setTimeZone("Europe/Berlin"))
        #expect(driver.broadcasts() == [.timezoneChanged("Europe/Berlin")])
    }

    @Test("API 35: leaving the stopped state sends BOOT_COMPLETED (Android 15 behaviour changes)", arguments: [34, 35])
    func unstopBootCompleted(apiLevel: Int) {
        var driver = AndroidDriver { $0.apiLevel = apiLevel }
        driver.apply(driver.model.forceStop(now: driver.now))
        driver.apply(driver.model.appLaunchedByUser())
        #expect(driver.appInputs().contains(.bootCompleted(locked: false)) == (apiLevel >= 35))
    }

    @Test("swipe-from-recents kills the process and keeps alarms; OEMs with swipeFromRecentsForceStops force-stop (notifee#126)",
          arguments: [false, true])
    func swipeFromRecents(oemForceStops: Bool) {
        var driver = AndroidDriver { $0.swipeFromRecentsForceStops = oemForceStops }
        driver.set("clock", .setAlarmClock, inMs: Self.hour)
        driver.apply(driver.model.swipedFromRecents(now: driver.now))
        #expect(driver.model.pending.isEmpty == oemForceStops)
        #expect(driver.model.forceStopped == oemForceStops)
    }

    @Test("app update: AOSP keeps alarms, exact ones go only if the permission is lost, OEMs may clear all; MY_PACKAGE_REPLACED launches the app (AMS; flutter_local_notifications#188)")
    func packageReplaced() {
        var kept = AndroidDriver { $0.apiLevel = 34 }
        kept.set("clock", .setAlarmClock, inMs: Self.hour)
        kept.set("inexact", .set, inMs: Self.hour)
        kept.apply(kept.model.packageReplaced(now: kept.now))
        #expect(kept.model.pending.count == 2)
        #expect(kept.effects.contains(.broadcast(.myPackageReplaced, launch: .broadcast)))
        #expect(kept.effects.contains(.processKilled(.packageUpdate)))

        var lost = AndroidDriver { $0.apiLevel = 34 }
        lost.set("clock", .setAlarmClock, inMs: Self.hour)
        let inexact = lost.set("inexact", .set, inMs: Self.hour)
        var manifest = AndroidManifestDeclarations()
        manifest.declaresScheduleExactAlarm = false
        lost.apply(lost.model.packageReplaced(manifest: manifest, now: lost.now))
        #expect(lost.model.pending.map(\.id) == [inexact])

        var oem = AndroidDriver { $0.updateClearsAlarms = true }
        oem.set("clock", .setAlarmClock, inMs: Self.hour)
        oem.apply(oem.model.packageReplaced(now: oem.now))
        #expect(oem.model.pending.isEmpty)
    }

    // MARK: OEM delivery delay

    @Test("OEM battery optimisation delays deliveries within the parameter's bound; setAlarmClock spared by default (alarm#365, #439)",
          arguments: UInt64(1)...UInt64(5))
    func oemDelay(seed: UInt64) {
        var driver = AndroidDriver({ $0.oemDeliveryDelayMaxMs = 600_000 }, seed: seed)
        let start = driver.elapsedMs
        let exact = driver.set("exact", .setExactAndAllowWhileIdle, inMs: Self.hour)
        let clock = driver.set("clock", .setAlarmClock, inMs: Self.hour)
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(clock) == [start + Self.hour])
        #expect(driver.deliveryTimes(exact).allSatisfy { $0 >= start + Self.hour && $0 <= start + Self.hour + 600_000 })
        #expect(driver.deliveryTimes(exact).count == 1)
    }
}

import AlarmBridge
import AndroidModel
import SimKernel
import Testing

/// Issue 18 part 2: the power allowlist, Battery Saver, forced app standby ("Restricted"), a
/// disabled start mode and PendingIntents cancelled outside AlarmManager, each mirroring the AOSP
/// `AlarmManagerServiceTest` method it names (Android 13 version; see the conformance table).
extension AOSPAlarmManagerServiceConformanceTests {
    /// An app targeting 34 on API 34, freshly installed: SCHEDULE_EXACT_ALARM denied by default,
    /// no USE_EXACT_ALARM — only an exemption lets it set exact alarms.
    static func noPermission(_ usage: AppBatteryUsage) -> (inout AlarmManagerParameters) -> Void {
        { testable(&$0); $0.apiLevel = 34; $0.freshInstall = true; $0.batteryUsage = usage }
    }

    static func succeeded(_ driver: AndroidDriver, _ id: AlarmUUID) -> Bool {
        driver.scheduleResult(id).map { (try? $0.get()) != nil } == true
    }

    // MARK: Power allowlist

    @Test("canScheduleExactAlarmsBinderCall: true with USE_EXACT_ALARM, with SCHEDULE_EXACT_ALARM allowed, or on the power allowlist (system or user); false with none")
    func canScheduleExactAlarmsBinderCall() {
        #expect(!AndroidDriver(Self.noPermission(.optimized)).model.canScheduleExactAlarms, "no permission, no exemption")
        #expect(!AndroidDriver(Self.noPermission(.restricted)).model.canScheduleExactAlarms, "Restricted is no exemption")
        #expect(AndroidDriver(Self.noPermission(.systemAllowlisted)).model.canScheduleExactAlarms, "no permission, exemption")
        #expect(AndroidDriver(Self.noPermission(.unrestricted)).model.canScheduleExactAlarms, "no permission, user exemption")
        #expect(AndroidDriver { $0.apiLevel = 34; $0.freshInstall = true; $0.manifest.declaresUseExactAlarm = true }.model.canScheduleExactAlarms,
                "policy permission only")
        #expect(AndroidDriver { $0.apiLevel = 34 }.model.canScheduleExactAlarms, "user permission only")
        #expect(AndroidDriver { $0.apiLevel = 34; $0.manifest.declaresUseExactAlarm = true; $0.batteryUsage = .unrestricted }
            .model.canScheduleExactAlarms, "both permissions and exemption")
    }

    @Test("alarmClockBinderCallWithoutPermission: a power-allowlisted app sets an alarm clock without the permission; revoking the permission then removes nothing and kills nothing",
          arguments: [AppBatteryUsage.systemAllowlisted, .unrestricted])
    func alarmClockBinderCallWithoutPermission(usage: AppBatteryUsage) {
        var driver = AndroidDriver { $0.apiLevel = 32; $0.batteryUsage = usage }
        let before = driver.set("before", .setAlarmClock, inMs: Self.hour)
        driver.apply(driver.model.revokeExactAlarmPermission())
        #expect(driver.model.pending.map(\.id) == [before], "removeExactAlarmsOnPermissionRevoked returns early for an exempt uid")
        #expect(driver.kills == 0)
        let clock = driver.set("clock", .setAlarmClock, inMs: 2 * Self.hour)
        #expect(Self.succeeded(driver, clock), "EXACT_ALLOW_REASON_ALLOW_LIST")
        driver.advance(byMs: 3 * Self.hour)
        #expect(driver.deliveryTimes(clock).count == 1)
    }

    @Test("exactBinderCallWithAllowlist: a power-allowlisted app's setExact without the permission succeeds and runs on time")
    func exactBinderCallWithAllowlist() {
        var driver = AndroidDriver(Self.noPermission(.systemAllowlisted))
        let trigger = driver.elapsedMs + Self.minute
        let id = Self.setAt(&driver, "exact", elapsedMs: trigger)
        #expect(Self.succeeded(driver, id))
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveryTimes(id) == [trigger])
        #expect(driver.model.mayStartForegroundService(for: id, nowElapsedMs: trigger), "an allowlisted app needs no FGS grant")
    }

    @Test("exactAllowWhileIdleBinderCallWithAllowlist: a system-allowlisted app's setExactAndAllowWhileIdle without the permission gets FLAG_ALLOW_WHILE_IDLE_COMPAT: 7 per hour in doze")
    func exactAllowWhileIdleBinderCallWithAllowlist() {
        var (driver, first, last) = Self.allowWhileIdle(method: .setExactAndAllowWhileIdle, quota: 7, idleMs: Self.day) {
            $0.apiLevel = 34; $0.freshInstall = true; $0.batteryUsage = .systemAllowlisted
        }
        #expect(driver.deliveries.count == 7)
        #expect(driver.model.alarm(last)?.lowerQuota == true)
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(last) == [first + Self.hour], "the compat quota, not 72")
    }

    @Test("binderCallWithUserAllowlist: a user-exempt app's setExactAndAllowWhileIdle gets FLAG_ALLOW_WHILE_IDLE_UNRESTRICTED (no quota), with or without the permission",
          arguments: [false, true])
    func binderCallWithUserAllowlist(freshInstall: Bool) {
        var driver = AndroidDriver { Self.testable(&$0); $0.apiLevel = 34; $0.freshInstall = freshInstall; $0.batteryUsage = .unrestricted }
        let id = driver.set("w", .setExactAndAllowWhileIdle, inMs: Self.minute)
        #expect(Self.succeeded(driver, id))
        #expect(driver.model.alarm(id)?.allowWhileIdleUnrestricted == true)
        #expect(driver.model.alarm(id)?.lowerQuota == false)
        let clock = driver.set("clock", .setAlarmClock, inMs: Self.minute)
        #expect(driver.model.alarm(clock)?.allowWhileIdleUnrestricted == false, "an alarm clock keeps FLAG_WAKE_FROM_IDLE only")
    }

    @Test("allowWhileIdleUnrestricted: a user-exempt app's allow-while-idle alarms all run on time in doze and in Battery Saver, past both quotas",
          arguments: [AlarmSetMethod.setExactAndAllowWhileIdle, .setAndAllowWhileIdle])
    func allowWhileIdleUnrestricted(method: AlarmSetMethod) {
        var driver = AndroidDriver { Self.testable(&$0); $0.batteryUsage = .unrestricted; $0.dozeIdlePeriodsMs = [Self.day] }
        driver.apply(driver.model.enterDoze(now: driver.now))
        let first = driver.elapsedMs + 10
        let ids = (0..<100).map { Self.setAt(&driver, "d\($0)", elapsedMs: first + Int64($0), method: method) }
        driver.advance(byMs: Self.minute)
        driver.apply(driver.model.exitDoze(now: driver.now))
        driver.apply(driver.model.setBatterySaver(true, now: driver.now))
        let second = driver.elapsedMs + 10
        let saverIDs = (0..<100).map { Self.setAt(&driver, "b\($0)", elapsedMs: second + Int64($0), method: method) }
        driver.advance(byMs: Self.minute)
        if method == .setExactAndAllowWhileIdle {
            for (index, id) in ids.enumerated() { #expect(driver.deliveryTimes(id) == [first + Int64(index)]) }
            for (index, id) in saverIDs.enumerated() { #expect(driver.deliveryTimes(id) == [second + Int64(index)]) }
        } else {
            // setAndAllowWhileIdle is inexact: on time means within its window, never deferred by a quota.
            #expect(ids.allSatisfy { driver.deliveryTimes($0).count == 1 } && saverIDs.allSatisfy { driver.deliveryTimes($0).count == 1 })
        }
    }

    // MARK: Battery Saver

    @Test("batterySaverThrottling: Battery Saver holds an inactive, non-allowlisted app's ordinary alarm indefinitely; off, it runs at its time; alarm clocks are spared")
    func batterySaverThrottling() {
        var driver = AndroidDriver { Self.testable(&$0); $0.batterySaver = true }
        let now = driver.elapsedMs
        let id = Self.setAt(&driver, "a", elapsedMs: now + 7)
        let clock = driver.set("clock", .setAlarmClock, inMs: 5)
        #expect(driver.model.deliveryBounds(driver.model.alarm(id)!).whenElapsedMs == now + 365 * Self.day, "INDEFINITE_DELAY")
        driver.advance(byMs: Self.minute)
        #expect(driver.deliveryTimes(id).isEmpty)
        #expect(driver.deliveryTimes(clock) == [now + 5], "isExemptFromBatterySaver: alarm clocks")
        driver.apply(driver.model.setBatterySaver(false, now: driver.now))
        #expect(driver.deliveryTimes(id) == [now + Self.minute], "updateAllAlarms: due at once")
        let again = Self.setAt(&driver, "again", elapsedMs: driver.elapsedMs + 7)
        driver.apply(driver.model.setBatterySaver(true, now: driver.now))
        driver.advance(byMs: Self.minute)
        #expect(driver.deliveryTimes(again).isEmpty, "updateAlarmsForUid: restricted again")
        driver.apply(driver.model.setAppActive(true, now: driver.now))
        #expect(driver.deliveryTimes(again).count == 1, "an active uid is not restricted")
    }

    @Test("batterySaverThrottling: charging turns Battery Saver off, and an allowlisted app is never restricted by it")
    func batterySaverSpares() {
        var charging = AndroidDriver { Self.testable(&$0); $0.batterySaver = true }
        let id = charging.set("a", .setExact, inMs: 7, type: .elapsedRealtimeWakeup)
        charging.apply(charging.model.setCharging(true, now: charging.now))
        charging.advance(byMs: Self.minute)
        #expect(charging.deliveryTimes(id).count == 1)
        var allowlisted = AndroidDriver { Self.testable(&$0); $0.batterySaver = true; $0.batteryUsage = .systemAllowlisted }
        let trigger = allowlisted.elapsedMs + 7
        let exempt = Self.setAt(&allowlisted, "a", elapsedMs: trigger)
        allowlisted.advance(byMs: Self.minute)
        #expect(allowlisted.deliveryTimes(exempt) == [trigger])
    }

    /// `quota` allow-while-idle alarms delivered 1 ms apart under Battery Saver (no doze), then one more.
    static func batterySaverQuota(method: AlarmSetMethod, quota: Int) -> (driver: AndroidDriver, first: Int64, last: AlarmUUID) {
        var driver = AndroidDriver { Self.testable(&$0); $0.batterySaver = true }
        let first = driver.elapsedMs + 10
        for index in 0..<quota {
            Self.setAt(&driver, "w\(index)", elapsedMs: first + Int64(index), method: method)
            Self.advance(&driver, to: first + Int64(index))
        }
        let last = Self.setAt(&driver, "last", elapsedMs: first + Int64(quota), method: method)
        return (driver, first, last)
    }

    @Test("allowWhileIdleAlarmsInBatterySaver: in Battery Saver setExactAndAllowWhileIdle runs 72 per hour; the next waits until the first leaves the window (no idle end caps it)")
    func allowWhileIdleAlarmsInBatterySaver() {
        var (driver, first, last) = Self.batterySaverQuota(method: .setExactAndAllowWhileIdle, quota: 72)
        #expect(driver.deliveries.count == 72)
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(last) == [first + Self.hour])
    }

    @Test("allowWhileIdleCompatAlarmsInBatterySaver: in Battery Saver setAndAllowWhileIdle runs 7 per hour; the next waits until the first leaves the window")
    func allowWhileIdleCompatAlarmsInBatterySaver() {
        var (driver, first, last) = Self.batterySaverQuota(method: .setAndAllowWhileIdle, quota: 7)
        #expect(driver.deliveries.count == 7)
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(last) == [first + Self.hour])
    }

    // MARK: Forced app standby, start mode

    @Test("testAlarmRestrictedByFAS: a Restricted app's due alarm is held while its uid is idle and sent when the app becomes active; alarm clocks are not held")
    func testAlarmRestrictedByFAS() {
        var driver = AndroidDriver { Self.testable(&$0); $0.batteryUsage = .restricted }
        let now = driver.elapsedMs
        let id = Self.setAt(&driver, "a", elapsedMs: now + 2)
        let clock = driver.set("clock", .setAlarmClock, inMs: 3)
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveryTimes(id).isEmpty, "mPendingBackgroundAlarms")
        #expect(driver.deliveryTimes(clock) == [now + 3], "isBackgroundRestricted: alarm clocks are not deferred")
        driver.apply(driver.model.setAppActive(true, now: driver.now))
        #expect(driver.deliveryTimes(id) == [now + Self.hour], "unblockAlarmsForUid")
        driver.apply(driver.model.setAppActive(false, now: driver.now))
        let later = Self.setAt(&driver, "later", elapsedMs: driver.elapsedMs + 2)
        driver.advance(byMs: Self.minute)
        #expect(driver.deliveryTimes(later).isEmpty)
        driver.apply(driver.model.setBatteryUsage(.optimized, now: driver.now))
        #expect(driver.deliveryTimes(later).count == 1, "lifting the restriction unblocks too")
    }

    @Test("alarmsRemovedOnAppStartModeDisabled: when the uid of an app whose start mode is disabled goes idle its alarms are removed; while idle its set calls set nothing")
    func alarmsRemovedOnAppStartModeDisabled() {
        var driver = AndroidDriver { Self.testable(&$0); $0.appStartModeDisabled = true }
        driver.apply(driver.model.setAppActive(true, now: driver.now))
        let now = driver.elapsedMs
        Self.setAt(&driver, "a", elapsedMs: now + 2 * Self.minute)
        Self.setAt(&driver, "b", elapsedMs: now + 4 * Self.minute)
        #expect(driver.model.pending.count == 2)
        driver.apply(driver.model.setAppActive(false, now: driver.now))
        #expect(driver.model.pending.isEmpty, "removeForStoppedLocked")
        let ignored = Self.setAt(&driver, "c", elapsedMs: now + Self.minute)
        #expect(Self.succeeded(driver, ignored), "setImpl returns normally")
        #expect(driver.model.pending.isEmpty, "package not allowed to start")
    }

    // MARK: PendingIntent cancelled outside AlarmManager

    @Test("alarmCountOnRemoveForCanceled: PendingIntent.cancel() removes the alarm (REMOVE_FOR_CANCELED)")
    func alarmCountOnRemoveForCanceled() {
        var driver = AndroidDriver(Self.testable)
        let id = Self.setAt(&driver, "a", elapsedMs: driver.elapsedMs + 12_345, type: .elapsedRealtime)
        #expect(driver.model.pending.count == 1)
        driver.apply(driver.model.pendingIntentCancelled(id, noticed: true))
        #expect(driver.model.pending.isEmpty)
    }

    @Test("alarmCountOnExceptionWhileSendingPi: an alarm whose PendingIntent's send throws CanceledException is dropped at delivery and no longer counts")
    func alarmCountOnExceptionWhileSendingPi() {
        var driver = AndroidDriver(Self.testable)
        driver.apply(driver.model.setScreen(on: true, now: driver.now))
        let now = driver.elapsedMs
        let ids = (0..<5).map { Self.setAt(&driver, "a\($0)", elapsedMs: now + Int64($0) + 10, type: .elapsedRealtime) }
        for id in ids { driver.apply(driver.model.pendingIntentCancelled(id, noticed: false)) }
        for expired in 1...5 {
            Self.advance(&driver, to: now + Int64(expired - 1) + 10)
            #expect(driver.model.pending.count == 5 - expired)
        }
        #expect(driver.deliveries.isEmpty)
    }

    @Test("alarmCountForRepeatingAlarms: a repeating alarm counts once while it repeats; once its PendingIntent throws CanceledException it is removed")
    func alarmCountForRepeatingAlarms() {
        var driver = AndroidDriver(Self.testable)
        driver.apply(driver.model.setScreen(on: true, now: driver.now))
        let interval: Int64 = 1_231
        let first = driver.elapsedMs + 321
        let id = driver.set("r", .setRepeating, inMs: 321, type: .elapsedRealtime, intervalMs: interval)
        #expect(driver.model.pending.count == 1)
        for index in 0..<5 {
            Self.advance(&driver, to: first + Int64(index) * interval)
            #expect(driver.model.pending.count == 1)
        }
        #expect(driver.deliveryTimes(id).count == 5)
        driver.apply(driver.model.pendingIntentCancelled(id, noticed: false))
        Self.advance(&driver, to: first + 5 * interval)
        #expect(driver.model.pending.isEmpty)
        #expect(driver.deliveryTimes(id).count == 5)
    }
}

import AlarmBridge
import AndroidModel
import SimKernel
import Testing

/// Doze, allow-while-idle quotas and app-standby buckets (AMS adjustDeliveryTimeBasedOnDeviceIdle,
/// adjustIdleUntilTime, adjustDeliveryTimeBasedOnBucketLocked; developer.android.com/training/monitoring-device-state/doze-standby).
struct DozeAndQuotaConformanceTests {
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000

    @Test("doze: setExact and set wait for the next maintenance window (AMS adjustDeliveryTimeBasedOnDeviceIdle → mPendingIdleUntil)",
          arguments: [AlarmSetMethod.setExact, .set, .setWindow])
    func deferredToMaintenance(method: AlarmSetMethod) {
        var driver = AndroidDriver { $0.dozeIdlePeriodsMs = [3_600_000] }
        driver.apply(driver.model.enterDoze(now: driver.now))
        let start = driver.elapsedMs
        let id = driver.set("a", method, inMs: 10 * Self.minute)
        driver.advance(byMs: Self.hour - 1)
        #expect(driver.deliveryTimes(id).isEmpty, "delivered inside the idle period")
        driver.advance(byMs: Self.minute)
        #expect(driver.deliveryTimes(id) == [start + Self.hour], "delivered when the maintenance window opens")
    }

    @Test("doze idle periods follow the named spacing parameter and maintenance windows recur (DeviceIdleController; spacing: parameter)")
    func idlePeriodsLengthen() {
        var driver = AndroidDriver {
            $0.dozeIdlePeriodsMs = [3_600_000, 7_200_000, 14_400_000]
            $0.dozeMaintenanceWindowMs = 300_000
        }
        driver.apply(driver.model.enterDoze(now: driver.now))
        let start = driver.elapsedMs
        var maintenanceStarts: [Int64] = []
        for _ in 0..<(20 * 60) {
            driver.advance(byMs: Self.minute)
            if case .maintenance = driver.model.doze, maintenanceStarts.last.map({ driver.elapsedMs - $0 > 10 * Self.minute }) ?? true {
                maintenanceStarts.append(driver.elapsedMs)
            }
        }
        let offsets = maintenanceStarts.map { $0 - start }
        #expect(offsets == [Self.hour, 3 * Self.hour + 5 * Self.minute, 7 * Self.hour + 10 * Self.minute,
                            11 * Self.hour + 15 * Self.minute, 15 * Self.hour + 20 * Self.minute, 19 * Self.hour + 25 * Self.minute])
    }

    @Test("setAlarmClock is never deferred by doze, and pulls the doze exit to alarm − a random 2..15 min (AMS adjustIdleUntilTime)",
          arguments: UInt64(1)...UInt64(8))
    func alarmClockPullsExit(seed: UInt64) {
        var driver = AndroidDriver({ $0.dozeIdlePeriodsMs = [21_600_000] }, seed: seed)
        driver.apply(driver.model.enterDoze(now: driver.now))
        let start = driver.elapsedMs
        let clock = driver.set("clock", .setAlarmClock, inMs: 2 * Self.hour)
        guard case .idle(let until, _) = driver.model.doze else {
            Issue.record("expected idle")
            return
        }
        let alarmAt = start + 2 * Self.hour
        #expect(until >= alarmAt - 15 * Self.minute && until <= alarmAt - 2 * Self.minute)
        driver.advance(byMs: 3 * Self.hour)
        #expect(driver.deliveryTimes(clock) == [alarmAt], "an alarm clock rings on time in doze")
    }

    @Test("an alarm clock closer than 2 min ends doze at once (AMS adjustIdleUntilTime: futurity ≤ MIN_DEVICE_IDLE_FUZZ)")
    func nearAlarmClockEndsIdleNow() {
        var driver = AndroidDriver { $0.dozeIdlePeriodsMs = [21_600_000] }
        driver.apply(driver.model.enterDoze(now: driver.now))
        driver.set("clock", .setAlarmClock, inMs: Self.minute)
        #expect(driver.model.doze == .idle(untilElapsedMs: driver.elapsedMs, period: 0))
    }

    @Test("setExactAndAllowWhileIdle in doze: at most 72 per rolling hour, the rest deferred (AMS ALLOW_WHILE_IDLE_QUOTA)")
    func allowWhileIdleQuota() {
        quota(method: .setExactAndAllowWhileIdle, expected: 72)
    }

    @Test("setAndAllowWhileIdle in doze: at most 7 per rolling hour, the rest deferred (AMS ALLOW_WHILE_IDLE_COMPAT_QUOTA)")
    func allowWhileIdleCompatQuota() {
        quota(method: .setAndAllowWhileIdle, expected: 7)
    }

    /// The quota counts delivery batches, not alarms: AMS fixes a batch before sending it and
    /// `AppWakeupHistory.recordAlarmForPackage` keeps one entry per elapsed ms, so inexact
    /// `setAndAllowWhileIdle` alarms sharing a window are one slot (AOSP AlarmManagerServiceTest
    /// `allowWhileIdleCompatAlarmsWhileDeviceIdle` spaces its alarms 1 ms apart).
    func quota(method: AlarmSetMethod, expected: Int) {
        var driver = AndroidDriver { $0.dozeIdlePeriodsMs = [86_400_000] }
        driver.apply(driver.model.enterDoze(now: driver.now))
        let start = driver.elapsedMs
        for number in 0..<100 { driver.set("q\(number)", method, inMs: 10_000 + Int64(number) * 10_000) }
        driver.advance(byMs: 3 * Self.hour)
        var times: [Int64] = []
        for delivery in driver.deliveries where times.last != delivery.elapsedMs { times.append(delivery.elapsedMs) }
        #expect(times.filter { $0 < start + Self.hour }.count == expected, "the first hour delivers exactly the quota of batches")
        for time in times {
            let inWindow = times.filter { $0 > time - Self.hour && $0 <= time }.count
            #expect(inWindow <= expected, "more than the quota in the rolling hour ending at \(time)")
        }
        #expect(times.count > expected, "deferred alarms run once the quota frees")
    }

    @Test("outside doze the allow-while-idle quota does not apply (AMS: quota only while mPendingIdleUntil)")
    func noQuotaOutsideDoze() {
        var driver = AndroidDriver()
        for number in 0..<20 { driver.set("q\(number)", .setAndAllowWhileIdle, inMs: 10_000 + Int64(number) * 10_000) }
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveries.count == 20)
    }

    @Test("standby buckets: non-exempt alarms per rolling hour: active 720, working 10, frequent 2, rare 1, never 0 (AMS DEFAULT_APP_STANDBY_QUOTAS)",
          arguments: [(StandbyBucket.workingSet, 10), (.frequent, 2), (.rare, 1), (.never, 0)])
    func standbyQuota(bucket: StandbyBucket, quota: Int) {
        var driver = AndroidDriver()
        driver.apply(driver.model.setStandbyBucket(bucket, now: driver.now))
        let start = driver.elapsedMs
        for number in 0..<15 { driver.set("s\(number)", .setExact, inMs: 10_000 + Int64(number) * 60_000) }
        let clock = driver.set("clock", .setAlarmClock, inMs: 30 * Self.minute)
        driver.advance(byMs: Self.hour - 1)
        let ordinary = driver.deliveries.filter { $0.id != clock }
        #expect(ordinary.count == quota)
        #expect(ordinary.allSatisfy { $0.elapsedMs < start + Self.hour })
        #expect(driver.deliveryTimes(clock) == [start + 30 * Self.minute], "setAlarmClock is exempt from standby buckets")
    }

    @Test("restricted bucket: 1 non-exempt alarm per 24 h (AMS APP_STANDBY_RESTRICTED_QUOTA / _WINDOW)")
    func restrictedBucket() {
        var driver = AndroidDriver()
        driver.apply(driver.model.setStandbyBucket(.restricted, now: driver.now))
        let start = driver.elapsedMs
        driver.set("first", .setExact, inMs: Self.minute)
        let second = driver.set("second", .setExact, inMs: 2 * Self.minute)
        driver.advance(byMs: 23 * Self.hour)
        #expect(driver.deliveries.count == 1)
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(second) == [start + Self.minute + 86_400_000])
    }

    @Test("charging lifts standby-bucket quotas (AMS mAppStandbyParole)")
    func chargingParole() {
        var driver = AndroidDriver()
        driver.apply(driver.model.setStandbyBucket(.rare, now: driver.now))
        driver.apply(driver.model.setCharging(true, now: driver.now))
        for number in 0..<5 { driver.set("c\(number)", .setExact, inMs: 10_000 + Int64(number) * 60_000) }
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveries.count == 5)
    }

    @Test("quota slots are counted per delivery batch: two alarms due together with one slot left are both delivered (AMS triggerAlarmsLocked fixes the batch; AppWakeupHistory.recordAlarmForPackage: one entry per elapsed ms)")
    func quotaPerBatch() {
        var driver = AndroidDriver()
        driver.apply(driver.model.setStandbyBucket(.rare, now: driver.now))
        let start = driver.elapsedMs
        let one = driver.set("one", .setExact, inMs: Self.minute)
        let two = driver.set("two", .setExact, inMs: Self.minute)
        let three = driver.set("three", .setExact, inMs: 2 * Self.minute)
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(one) == [start + Self.minute])
        #expect(driver.deliveryTimes(two) == [start + Self.minute], "the batch holds both")
        #expect(driver.deliveryTimes(three) == [start + Self.minute + Self.hour], "the batch used the one slot")
    }

    @Test("non-wakeup alarms count for the standby bucket too (AMS DeliveryTracker.deliverLocked records every non-exempt delivery)")
    func nonWakeupCountsForStandby() {
        var driver = AndroidDriver()
        driver.apply(driver.model.setStandbyBucket(.rare, now: driver.now))
        driver.apply(driver.model.setScreen(on: true, now: driver.now))
        let start = driver.elapsedMs
        let rtc = driver.set("rtc", .setExact, inMs: Self.minute, type: .rtc)
        let wakeup = driver.set("wakeup", .setExact, inMs: 2 * Self.minute)
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(rtc) == [start + Self.minute])
        #expect(driver.deliveryTimes(wakeup) == [start + Self.minute + Self.hour])
    }

    @Test("force-stop clears the standby and allow-while-idle counts (AMS UninstallReceiver, ACTION_PACKAGE_RESTARTED)")
    func forceStopClearsQuotas() {
        var driver = AndroidDriver()
        driver.apply(driver.model.setStandbyBucket(.rare, now: driver.now))
        driver.set("first", .setExact, inMs: Self.minute)
        driver.advance(byMs: Self.minute)
        driver.apply(driver.model.forceStop(now: driver.now))
        driver.apply(driver.model.appLaunchedByUser())
        let start = driver.elapsedMs
        let again = driver.set("again", .setExact, inMs: Self.minute)
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(again) == [start + Self.minute])
    }

    @Test("allow-while-idle deliveries count only while the device is in doze idle (AMS deliverLocked: mPendingIdleUntil != null)")
    func allowWhileIdleCountsOnlyInDoze() {
        var driver = AndroidDriver {
            $0.allowWhileIdleQuota = 2
            $0.dozeIdlePeriodsMs = [6 * 3_600_000]
        }
        driver.set("out1", .setExactAndAllowWhileIdle, inMs: Self.minute)
        driver.set("out2", .setExactAndAllowWhileIdle, inMs: 2 * Self.minute)
        driver.advance(byMs: 2 * Self.minute)
        #expect(driver.deliveries.count == 2)
        driver.apply(driver.model.enterDoze(now: driver.now))
        let start = driver.elapsedMs
        let inDoze = driver.set("in", .setExactAndAllowWhileIdle, inMs: Self.minute)
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveryTimes(inDoze) == [start + Self.minute], "the two deliveries before doze did not count")
    }

    @Test("doze ends on screen-on and on charging; it cannot start with the screen on (doze docs: screen off, unplugged)")
    func dozeExit() {
        var driver = AndroidDriver()
        driver.apply(driver.model.enterDoze(now: driver.now))
        let id = driver.set("a", .setExact, inMs: Self.minute)
        driver.advance(byMs: 10 * Self.minute)
        #expect(driver.deliveryTimes(id).isEmpty)
        driver.apply(driver.model.setScreen(on: true, now: driver.now))
        #expect(driver.model.doze == .inactive)
        #expect(driver.deliveryTimes(id) == [driver.elapsedMs], "deferred alarms run when doze ends")
        driver.apply(driver.model.enterDoze(now: driver.now))
        #expect(driver.model.doze == .inactive, "no doze with the screen on")
        driver.apply(driver.model.setScreen(on: false, now: driver.now))
        driver.apply(driver.model.enterDoze(now: driver.now))
        driver.apply(driver.model.setCharging(true, now: driver.now))
        #expect(driver.model.doze == .inactive)
    }
}

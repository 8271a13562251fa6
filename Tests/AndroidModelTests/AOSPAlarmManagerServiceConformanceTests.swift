import AlarmBridge
import AndroidModel
import SimKernel
import Testing

/// The Android model held to AOSP's own test suite: each case mirrors one test method of
/// `AlarmManagerServiceTest` (platform_frameworks_base,
/// services/tests/mockingservicestests/src/com/android/server/alarm/) that encodes behaviour an
/// app can observe, and names it. The conformance table (Scenarios/conformance/README.md,
/// "Android — AOSP AlarmManagerServiceTest") lists every method with its status.
///
/// AOSP's tests lower MIN_FUTURITY to 0 and the standby quotas to active 50 / working 35 /
/// frequent 20 (`setTestableQuotas`); the cases below set the same named parameters, so the
/// arithmetic is AOSP's own. Times are virtual ms.
struct AOSPAlarmManagerServiceConformanceTests {
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// AOSP `setTestableQuotas`.
    static func testable(_ parameters: inout AlarmManagerParameters) {
        parameters.minFuturityMs = 0
        parameters.minRepeatIntervalMs = 0
        parameters.standbyQuotas.active = 50
        parameters.standbyQuotas.workingSet = 35
        parameters.standbyQuotas.frequent = 20
    }

    /// AOSP `setTestAlarm(ELAPSED_REALTIME_WAKEUP, at, pi)`: exact, FLAG_STANDALONE, at an absolute
    /// elapsed time.
    @discardableResult
    static func setAt(_ driver: inout AndroidDriver, _ name: String, elapsedMs: Int64,
                      method: AlarmSetMethod = .setExact, type: AlarmClockType = .elapsedRealtimeWakeup) -> AlarmUUID {
        driver.set(name, method, inMs: elapsedMs - driver.elapsedMs, type: type)
    }

    /// Moves the driver to `elapsedMs` (never back).
    static func advance(_ driver: inout AndroidDriver, to elapsedMs: Int64) {
        driver.advance(byMs: max(0, elapsedMs - driver.elapsedMs))
    }

    // MARK: Setting and delivery

    @Test("singleElapsedAlarmSet / testSingleAlarmExpiration: an ELAPSED_REALTIME_WAKEUP alarm is delivered once, at its trigger, as a broadcast")
    func singleElapsedAlarmSet() {
        var driver = AndroidDriver(Self.testable)
        let trigger = driver.elapsedMs + 5_000
        let id = Self.setAt(&driver, "a", elapsedMs: trigger)
        driver.advance(byMs: 4_999)
        #expect(driver.deliveries.isEmpty)
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveryTimes(id) == [trigger])
        #expect(driver.effects.contains(.toApp(.alarmDelivered(id), launch: .broadcast)))
    }

    @Test("singleRtcAlarmSet: an RTC_WAKEUP trigger becomes elapsed = trigger − (wall − elapsed) at set time")
    func singleRtcAlarmSet() {
        var driver = AndroidDriver(Self.testable)
        let id = driver.set("rtc", .setExact, inMs: 5_000, type: .rtcWakeup)
        #expect(driver.model.alarm(id)?.whenElapsedMs == driver.wallMs + 5_000 - driver.wallOffsetMs)
        let trigger = driver.elapsedMs + 5_000
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveryTimes(id) == [trigger])
    }

    @Test("timeChangeMovesRtcAlarm: the first clock change since boot, even of 123 ms, moves an RTC alarm by the change and sends TIME_SET")
    func timeChangeMovesRtcAlarm() {
        var driver = AndroidDriver(Self.testable)
        let id = driver.set("rtc", .setExact, inMs: 5_000, type: .rtcWakeup)
        let before = driver.model.alarm(id)?.whenElapsedMs
        driver.wallOffsetMs -= 123
        driver.apply(driver.model.observe(driver.now))
        #expect(driver.model.alarm(id)?.whenElapsedMs == before.map { $0 + 123 })
        #expect(driver.broadcasts() == [.timeSet])
    }

    @Test("testMinFuturity: a trigger closer than MIN_FUTURITY is raised to now + MIN_FUTURITY")
    func testMinFuturity() {
        var driver = AndroidDriver { $0.minFuturityMs = 10 }
        let now = driver.elapsedMs
        let id = Self.setAt(&driver, "a", elapsedMs: now + 1)
        #expect(driver.model.alarm(id)?.whenElapsedMs == now + 10)
        driver.advance(byMs: Self.minute)
        #expect(driver.deliveryTimes(id) == [now + 10])
    }

    @Test("testEarliestAlarmSet: the next wakeup is the earliest pending alarm; removing alarms moves it to the next one")
    func testEarliestAlarmSet() {
        var driver = AndroidDriver(Self.testable)
        let now = driver.elapsedMs
        let pi8 = Self.setAt(&driver, "pi8", elapsedMs: now + 8)
        let pi9 = Self.setAt(&driver, "pi9", elapsedMs: now + 9)
        let pi6 = Self.setAt(&driver, "pi6", elapsedMs: now + 6)
        driver.apply(driver.model.cancel(pi6))
        driver.apply(driver.model.cancel(pi8))
        driver.advance(byMs: Self.minute)
        #expect(driver.deliveries.map(\.id) == [pi9])
        #expect(driver.deliveryTimes(pi9) == [now + 9])
    }

    @Test("alarmTypes: RTC and ELAPSED types keep their wakeup bit — wakeup types wake the device, the others wait for a wakeup or the screen")
    func alarmTypes() {
        var driver = AndroidDriver(Self.testable)
        let now = driver.elapsedMs
        let wakeups = [Self.setAt(&driver, "ew", elapsedMs: now + Self.minute, type: .elapsedRealtimeWakeup),
                       driver.set("rw", .setExact, inMs: 2 * Self.minute, type: .rtcWakeup)]
        let others = [Self.setAt(&driver, "e", elapsedMs: now + 3 * Self.minute, type: .elapsedRealtime),
                      driver.set("r", .setExact, inMs: 4 * Self.minute, type: .rtc)]
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveryTimes(wakeups[0]) == [now + Self.minute])
        #expect(driver.deliveryTimes(wakeups[1]) == [now + 2 * Self.minute])
        #expect(others.allSatisfy { driver.deliveryTimes($0).isEmpty }, "non-wakeup alarms wait while the screen is off")
        driver.apply(driver.model.setScreen(on: true, now: driver.now))
        #expect(others.allSatisfy { driver.deliveryTimes($0) == [now + Self.hour] })
    }

    // MARK: App-standby quotas (AMS adjustDeliveryTimeBasedOnBucketLocked)

    static let quotaBuckets: [(StandbyBucket, Int)] = [(.active, 50), (.workingSet, 35), (.frequent, 20), (.rare, 1)]

    static func bucketDriver(_ bucket: StandbyBucket) -> AndroidDriver {
        var driver = AndroidDriver(Self.testable)
        driver.apply(driver.model.setStandbyBucket(bucket, now: driver.now))
        return driver
    }

    @Test("testActiveQuota_deferredOnSet, testWorkingQuota_deferredOnSet, testFrequentQuota_deferredOnSet, testRareQuota_deferredOnSet: after `quota` deliveries a new alarm waits until the first leaves the window",
          arguments: AOSPAlarmManagerServiceConformanceTests.quotaBuckets)
    func standbyQuotaDeferredOnSet(bucket: StandbyBucket, quota: Int) {
        var driver = Self.bucketDriver(bucket)
        let first = driver.elapsedMs + 10
        for index in 0..<quota {
            Self.setAt(&driver, "q\(index)", elapsedMs: first + Int64(index))
            Self.advance(&driver, to: first + Int64(index))
        }
        #expect(driver.deliveries.count == quota)
        let last = Self.setAt(&driver, "last", elapsedMs: first + Int64(quota))
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(last) == [first + Self.hour])
    }

    @Test("testActiveQuota_deferredOnExpiration, testWorkingQuota_deferredOnExpiration, testFrequentQuota_deferredOnExpiration, testRareQuota_deferredOnExpiration: the alarm after `quota` deliveries is deferred when they expire",
          arguments: AOSPAlarmManagerServiceConformanceTests.quotaBuckets)
    func standbyQuotaDeferredOnExpiration(bucket: StandbyBucket, quota: Int) {
        var driver = Self.bucketDriver(bucket)
        let first = driver.elapsedMs + 10
        for index in 0...quota { Self.setAt(&driver, "q\(index)", elapsedMs: first + Int64(index)) }
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveries.prefix(quota).map(\.elapsedMs) == (0..<quota).map { first + Int64($0) })
        #expect(driver.deliveries.last?.elapsedMs == first + Self.hour)
        #expect(driver.deliveries.count == quota + 1)
    }

    @Test("testActiveQuota_notDeferred, testWorkingQuota_notDeferred, testFrequentQuota_notDeferred, testRareQuota_notDeferred: an alarm that keeps the quota within its window is not deferred",
          arguments: AOSPAlarmManagerServiceConformanceTests.quotaBuckets)
    func standbyQuotaNotDeferred(bucket: StandbyBucket, quota: Int) {
        var driver = Self.bucketDriver(bucket)
        let first = driver.elapsedMs + 10
        for index in 0..<quota { Self.setAt(&driver, "q\(index)", elapsedMs: first + Int64(index)) }
        let expected = first + Self.hour + 5
        let last = Self.setAt(&driver, "last", elapsedMs: expected)
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(last) == [expected])
    }

    @Test("testRestrictedBucketAlarmsDeferredOnSet / testRestrictedBucketAlarmsDeferredOnExpiration: restricted bucket, one alarm per day", arguments: [false, true])
    func restrictedBucket(secondSetBeforeFirstDelivery: Bool) {
        var driver = Self.bucketDriver(.restricted)
        let first = driver.elapsedMs + 10
        let one = Self.setAt(&driver, "first", elapsedMs: first)
        if !secondSetBeforeFirstDelivery { Self.advance(&driver, to: first) }
        let two = Self.setAt(&driver, "second", elapsedMs: first + 1)
        driver.advance(byMs: 2 * Self.day)
        #expect(driver.deliveryTimes(one) == [first])
        #expect(driver.deliveryTimes(two) == [first + Self.day])
    }

    @Test("testStandbyQuotaDowngrade: moving to a smaller bucket defers the pending alarm by the new quota")
    func testStandbyQuotaDowngrade() {
        var driver = Self.bucketDriver(.workingSet)
        let quota = 35
        let first = driver.elapsedMs + 10
        for index in 0..<quota { Self.setAt(&driver, "q\(index)", elapsedMs: first + Int64(index)) }
        Self.advance(&driver, to: first + Int64(quota - 2))
        #expect(driver.deliveries.count == quota - 1, "no deferral in the working set")
        driver.apply(driver.model.setStandbyBucket(.rare, now: driver.now))
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveries.last?.elapsedMs == first + Int64(quota - 1 - 1) + Self.hour)
    }

    @Test("testStandbyQuotaUpgrade: moving to a larger bucket restores a deferred alarm's own time")
    func testStandbyQuotaUpgrade() {
        var driver = Self.bucketDriver(.frequent)
        let quota = 20
        let first = driver.elapsedMs + 10
        for index in 0...quota {
            Self.setAt(&driver, "q\(index)", elapsedMs: first + Int64(index))
            if index < quota { Self.advance(&driver, to: first + Int64(index)) }
        }
        let last = driver.model.pending.first!
        #expect(driver.model.deliveryBounds(last).whenElapsedMs == first + Self.hour, "deferred over the quota")
        driver.apply(driver.model.setStandbyBucket(.active, now: driver.now))
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveryTimes(last.id) == [first + Int64(quota)])
    }

    @Test("testCharging: charging lifts the standby quota; deliveries in parole still count once it ends")
    func testCharging() {
        var driver = Self.bucketDriver(.workingSet)
        let quota = 35
        let first = driver.elapsedMs + 10
        for index in 0..<(quota + 10) { Self.setAt(&driver, "q\(index)", elapsedMs: first + Int64(index)) }
        Self.advance(&driver, to: first + Int64(quota - 1))
        #expect(driver.deliveries.count == quota)
        driver.apply(driver.model.setCharging(true, now: driver.now))
        Self.advance(&driver, to: first + Int64(quota + 4))
        #expect(driver.deliveries.suffix(5).map(\.elapsedMs) == (quota..<(quota + 5)).map { first + Int64($0) })
        driver.apply(driver.model.setCharging(false, now: driver.now))
        driver.advance(byMs: Self.hour - 1_000)
        #expect(driver.deliveries.count == quota + 5, "deferred again after parole")
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveries[quota + 5].elapsedMs == first + 5 + Self.hour)
    }

    // MARK: Pending alarms per app (AMS mAlarmsPerUid, MAX_ALARMS_PER_UID)

    @Test("alarmCountOnSetPi: every set of any type counts once against the per-app limit")
    func alarmCountOnSetPi() {
        var driver = AndroidDriver { Self.testable(&$0); $0.maxAlarmsPerApp = 103 }
        let types: [AlarmClockType] = [.rtcWakeup, .rtc, .elapsedRealtimeWakeup, .elapsedRealtime]
        for index in 1...103 {
            driver.set("a\(index)", .setExact, inMs: Int64(index) * 1_000, type: types[index % 4])
            #expect(driver.model.pending.count == index)
        }
        let over = driver.set("over", .setExact, inMs: Self.hour)
        #expect(driver.scheduleResult(over)?.failure == .illegalStateException)
    }

    @Test("alarmCountOnExpirationPi: a delivered one-shot no longer counts")
    func alarmCountOnExpirationPi() {
        var driver = AndroidDriver { Self.testable(&$0); $0.maxAlarmsPerApp = 8 }
        let now = driver.elapsedMs
        for index in 0..<8 { Self.setAt(&driver, "a\(index)", elapsedMs: now + Int64(index) + 10, type: .elapsedRealtime) }
        driver.apply(driver.model.setScreen(on: true, now: driver.now))
        for expired in 1...8 {
            Self.advance(&driver, to: now + Int64(expired - 1) + 10)
            #expect(driver.model.pending.count == 8 - expired)
        }
        let again = driver.set("again", .setExact, inMs: Self.hour)
        #expect(driver.scheduleResult(again).map { (try? $0.get()) != nil } == true)
    }

    @Test("alarmCountOnAlarmRemoved: a cancelled alarm no longer counts")
    func alarmCountOnAlarmRemoved() {
        var driver = AndroidDriver(Self.testable)
        let ids = (0..<10).map { driver.set("a\($0)", .setExact, inMs: Int64($0 + 5) * 1_000, type: .elapsedRealtime) }
        for (index, id) in ids.enumerated() {
            driver.apply(driver.model.cancel(id))
            #expect(driver.model.pending.count == 10 - index - 1)
        }
    }

    @Test("alarmCountOnUidRemoved: removing the app's alarms (force-stop: ACTION_PACKAGE_RESTARTED → removeLocked(uid)) leaves none")
    func alarmCountOnUidRemoved() {
        var driver = AndroidDriver(Self.testable)
        for index in 0..<10 { driver.set("a\(index)", .setExact, inMs: Int64(index + 10) * 1_000, type: .elapsedRealtime) }
        #expect(driver.model.pending.count == 10)
        driver.apply(driver.model.forceStop(now: driver.now))
        #expect(driver.model.pending.isEmpty)
    }

    // MARK: Non-wakeup alarms (AMS checkAllowNonWakeupDelayLocked, interactiveStateChangedLocked)

    @Test("nonWakeupAlarmsDeferred: non-wakeup alarms due while the screen is off are held, then all sent when it turns on")
    func nonWakeupAlarmsDeferred() {
        var driver = AndroidDriver(Self.testable)
        let now = driver.elapsedMs
        let ids = (0..<10).map { Self.setAt(&driver, "n\($0)", elapsedMs: now + Int64($0) + 5, type: .elapsedRealtime) }
        driver.advance(byMs: 10 + 5)
        #expect(driver.deliveries.isEmpty)
        #expect(driver.model.pending.count == 10, "held, not dropped")
        driver.apply(driver.model.setScreen(on: true, now: driver.now))
        #expect(driver.deliveries.map(\.id).sorted() == ids.sorted())
    }

    @Test("alarmCountOnPendingNonWakeupAlarmsRemoved: a held non-wakeup alarm can be cancelled; it is then never sent")
    func alarmCountOnPendingNonWakeupAlarmsRemoved() {
        var driver = AndroidDriver(Self.testable)
        let now = driver.elapsedMs
        let ids = (0..<10).map { Self.setAt(&driver, "n\($0)", elapsedMs: now + Int64($0) + 5, type: .elapsedRealtime) }
        driver.advance(byMs: 10 + 5)
        for (index, id) in ids.enumerated() {
            driver.apply(driver.model.cancel(id))
            #expect(driver.model.pending.count == 10 - index - 1)
        }
        driver.apply(driver.model.setScreen(on: true, now: driver.now))
        #expect(driver.deliveries.isEmpty)
    }

    // MARK: Doze (AMS adjustDeliveryTimeBasedOnDeviceIdle, adjustIdleUntilTime)

    @Test("nextWakeFromIdle: in doze, alarm clocks wake the device at their own times, earliest first; a cancelled one does not")
    func nextWakeFromIdle() {
        var driver = AndroidDriver { Self.testable(&$0); $0.dozeIdlePeriodsMs = [6 * Self.hour] }
        driver.apply(driver.model.enterDoze(now: driver.now))
        let now = driver.elapsedMs
        let clock6 = driver.set("clock6", .setAlarmClock, inMs: 60 * Self.minute)
        let clock10 = driver.set("clock10", .setAlarmClock, inMs: 100 * Self.minute)
        let clock3 = driver.set("clock3", .setAlarmClock, inMs: 30 * Self.minute)
        Self.advance(&driver, to: now + 30 * Self.minute)
        #expect(driver.deliveries.map(\.id) == [clock3])
        driver.apply(driver.model.cancel(clock6))
        driver.advance(byMs: 3 * Self.hour)
        #expect(driver.deliveries.map(\.id) == [clock3, clock10])
        #expect(driver.deliveryTimes(clock10) == [now + 100 * Self.minute])
    }

    @Test("idleUntilFuzzedBeforeWakeFromIdle: idle ends a fuzz before the next alarm clock (now if it is closer than the minimum fuzz); cancelling alarm clocks re-fuzzes against the next or restores the requested end",
          arguments: UInt64(1)...UInt64(6))
    func idleUntilFuzzedBeforeWakeFromIdle(seed: UInt64) {
        var driver = AndroidDriver({
            Self.testable(&$0)
            $0.minDeviceIdleFuzzMs = 6 * Self.minute
            $0.maxDeviceIdleFuzzMs = 17 * Self.minute
            $0.dozeIdlePeriodsMs = [12 * Self.minute]
        }, seed: seed)
        driver.apply(driver.model.enterDoze(now: driver.now))
        let now = driver.elapsedMs
        #expect(driver.model.doze == .idle(untilElapsedMs: now + 12 * Self.minute, period: 0))
        let clock5 = driver.set("clock5", .setAlarmClock, inMs: 5 * Self.minute)
        #expect(driver.model.doze == .idle(untilElapsedMs: now, period: 0), "closer than the minimum fuzz: now")
        let clock8 = driver.set("clock8", .setAlarmClock, inMs: 8 * Self.minute)
        driver.set("clock19", .setAlarmClock, inMs: 19 * Self.minute)
        #expect(driver.model.doze == .idle(untilElapsedMs: now, period: 0), "the next alarm clock is still the 5-minute one")
        driver.apply(driver.model.cancel(clock5))
        guard case .idle(let until, _) = driver.model.doze else {
            Issue.record("expected idle")
            return
        }
        #expect(until >= now && until <= now + 8 * Self.minute - 6 * Self.minute)
        driver.apply(driver.model.cancel(clock8))
        #expect(driver.model.doze == .idle(untilElapsedMs: now + 12 * Self.minute, period: 0),
                "19 min is more than the minimum fuzz after the requested end: no fuzz")
    }

    static func allowWhileIdle(method: AlarmSetMethod, quota: Int, idleMs: Int64, configure: (inout AlarmManagerParameters) -> Void = { _ in })
        -> (driver: AndroidDriver, first: Int64, last: AlarmUUID) {
        var driver = AndroidDriver {
            Self.testable(&$0)
            $0.dozeIdlePeriodsMs = [idleMs]
            configure(&$0)
        }
        driver.apply(driver.model.enterDoze(now: driver.now))
        let first = driver.elapsedMs + 10
        for index in 0..<quota {
            Self.setAt(&driver, "w\(index)", elapsedMs: first + Int64(index), method: method)
            Self.advance(&driver, to: first + Int64(index))
        }
        let last = Self.setAt(&driver, "last", elapsedMs: first + Int64(quota), method: method)
        return (driver, first, last)
    }

    @Test("allowWhileIdleAlarmsWhileDeviceIdle: in doze, setExactAndAllowWhileIdle runs 72 per hour; the next waits for the quota, or for the end of idle if sooner",
          arguments: [false, true])
    func allowWhileIdleAlarmsWhileDeviceIdle(idleEndsFirst: Bool) {
        let idleMs = idleEndsFirst ? Self.hour + 10 - 50 : Self.hour + 1_000
        var (driver, first, last) = Self.allowWhileIdle(method: .setExactAndAllowWhileIdle, quota: 72, idleMs: idleMs)
        #expect(driver.deliveries.count == 72)
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(last) == [idleEndsFirst ? first - 10 + idleMs : first + Self.hour])
    }

    @Test("allowWhileIdleCompatAlarmsWhileDeviceIdle: in doze, setAndAllowWhileIdle runs 7 per hour; the next waits for the quota, or for the end of idle if sooner",
          arguments: [false, true])
    func allowWhileIdleCompatAlarmsWhileDeviceIdle(idleEndsFirst: Bool) {
        let idleMs = idleEndsFirst ? Self.hour + 10 - 50 : Self.hour + 1_000
        var (driver, first, last) = Self.allowWhileIdle(method: .setAndAllowWhileIdle, quota: 7, idleMs: idleMs)
        #expect(driver.deliveries.count == 7)
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(last) == [idleEndsFirst ? first - 10 + idleMs : first + Self.hour])
    }

    @Test("allowWhileIdleCompatHistorySeparate (in doze; AOSP runs it under Battery Saver, which shares the histories): the exact and compat quotas are counted apart",
          arguments: [false, true])
    func allowWhileIdleCompatHistorySeparate(compatFirst: Bool) {
        let (exhausted, other, otherQuota) = compatFirst ? (AlarmSetMethod.setAndAllowWhileIdle, AlarmSetMethod.setExactAndAllowWhileIdle, 72)
                                                         : (.setExactAndAllowWhileIdle, .setAndAllowWhileIdle, 7)
        var (driver, first, last) = Self.allowWhileIdle(method: exhausted, quota: compatFirst ? 7 : 72, idleMs: Self.day)
        #expect(driver.model.deliveryBounds(driver.model.alarm(last)!).whenElapsedMs == first + Self.hour, "no quota left")
        driver.apply(driver.model.cancel(last))
        for index in 0..<otherQuota {
            let trigger = driver.elapsedMs + 1
            let id = Self.setAt(&driver, "o\(index)", elapsedMs: trigger, method: other)
            driver.advance(byMs: 1)
            #expect(driver.deliveryTimes(id) == [trigger], "the other quota is untouched")
        }
    }

    @Test("deviceIdleDeferralOnSet: alarms set in doze wait for the end of idle, then all are sent")
    func deviceIdleDeferralOnSet() {
        var driver = AndroidDriver { Self.testable(&$0); $0.dozeIdlePeriodsMs = [20 * Self.minute] }
        driver.apply(driver.model.enterDoze(now: driver.now))
        let now = driver.elapsedMs
        let ids = (0..<10).map { driver.set("d\($0)", .setExact, inMs: Int64($0 + 1) * Self.minute, type: .elapsedRealtimeWakeup) }
        driver.advance(byMs: 20 * Self.minute - 1)
        #expect(driver.deliveries.isEmpty)
        driver.advance(byMs: 1)
        #expect(ids.allSatisfy { driver.deliveryTimes($0) == [now + 20 * Self.minute] })
    }

    @Test("deviceIdleStateChanges: alarms set before doze are held by it; leaving doze sends the due ones and restores the rest")
    func deviceIdleStateChanges() {
        var driver = AndroidDriver { Self.testable(&$0); $0.dozeIdlePeriodsMs = [20 * Self.minute] }
        let now = driver.elapsedMs
        let ids = (0..<10).map { Self.setAt(&driver, "s\($0)", elapsedMs: now + Int64($0 + 1) * 1_000) }
        driver.apply(driver.model.enterDoze(now: driver.now))
        driver.advance(byMs: 5_500)
        #expect(driver.deliveries.isEmpty)
        driver.apply(driver.model.exitDoze(now: driver.now))
        #expect(driver.deliveries.map(\.id) == Array(ids.prefix(5)))
        driver.advance(byMs: Self.minute)
        for (index, id) in ids.enumerated().dropFirst(5) {
            #expect(driver.deliveryTimes(id) == [now + Int64(index + 1) * 1_000])
        }
    }

    @Test("dispatchOrder (one app): at the end of idle the app's alarms are sent in requested-time order, wakeup or not")
    func dispatchOrder() {
        var driver = AndroidDriver { Self.testable(&$0); $0.dozeIdlePeriodsMs = [20 * Self.minute] }
        driver.apply(driver.model.enterDoze(now: driver.now))
        let pi5wakeup = driver.set("pi5", .setExact, inMs: 5 * Self.minute, type: .elapsedRealtimeWakeup)
        let pi4 = driver.set("pi4", .setExact, inMs: 4 * Self.minute, type: .elapsedRealtime)
        let pi2 = driver.set("pi2", .setExact, inMs: 2 * Self.minute, type: .elapsedRealtime)
        driver.advance(byMs: 30 * Self.minute)
        #expect(driver.deliveries.map(\.id) == [pi2, pi4, pi5wakeup])
        #expect(driver.deliveries.allSatisfy { $0.elapsedMs == driver.deliveries.first?.elapsedMs }, "one batch at the end of idle")
    }

    // MARK: Exact-alarm permission (AMS hasScheduleExactAlarmInternal, canScheduleExactAlarms, opChanged)

    @Test("hasScheduleExactAlarmBinderCallNotDenyListed: declared SCHEDULE_EXACT_ALARM is held with the app-op default/allowed, not with it errored/ignored",
          arguments: [31, 32, 33])
    func hasScheduleExactAlarmNotDenyListed(apiLevel: Int) {
        var driver = AndroidDriver { $0.apiLevel = apiLevel }
        #expect(driver.model.canScheduleExactAlarms, "MODE_DEFAULT")
        driver.apply(driver.model.revokeExactAlarmPermission())
        #expect(!driver.model.canScheduleExactAlarms, "MODE_ERRORED / MODE_IGNORED")
        driver.apply(driver.model.grantExactAlarmPermission())
        #expect(driver.model.canScheduleExactAlarms, "MODE_ALLOWED")
    }

    @Test("hasScheduleExactAlarmBinderCallNotDeclared: without the manifest declaration the permission is never held, whatever the app-op")
    func hasScheduleExactAlarmNotDeclared() {
        var manifest = AndroidManifestDeclarations()
        manifest.declaresScheduleExactAlarm = false
        var driver = AndroidDriver { $0.apiLevel = 33; $0.manifest = manifest }
        #expect(!driver.model.canScheduleExactAlarms)
        driver.apply(driver.model.grantExactAlarmPermission())
        #expect(!driver.model.canScheduleExactAlarms)
    }

    /// An app targeting API 30 on an API 34 device, freshly installed (app-op denied) and
    /// declaring nothing: REQUIRE_EXACT_ALARM_PERMISSION is off for it.
    static func preSDriver() -> AndroidDriver {
        var manifest = AndroidManifestDeclarations()
        manifest.declaresScheduleExactAlarm = false
        return AndroidDriver {
            Self.testable(&$0)
            $0.apiLevel = 34
            $0.targetSdk = 30
            $0.freshInstall = true
            $0.manifest = manifest
        }
    }

    @Test("canScheduleExactAlarmsBinderCallChangeDisabled, noPermissionCheckWhenChangeDisabled, exactBinderCallWhenChangeDisabled, alarmClockBinderCallWhenChangeDisabled: an app targeting below 31 needs no permission for any set call")
    func exactCallsWhenChangeDisabled() {
        var driver = Self.preSDriver()
        #expect(driver.model.canScheduleExactAlarms)
        for method in [AlarmSetMethod.setAlarmClock, .setExact, .setExactAndAllowWhileIdle, .setAndAllowWhileIdle] {
            let id = driver.set(method.rawValue, method, inMs: Self.hour)
            #expect(driver.scheduleResult(id).map { (try? $0.get()) != nil } == true, "\(method.rawValue) refused")
        }
    }

    @Test("exactAllowWhileIdleBinderCallWhenChangeDisabled: below target 31, setExactAndAllowWhileIdle gets FLAG_ALLOW_WHILE_IDLE_COMPAT — the 7-per-hour quota in doze")
    func exactAllowWhileIdleWhenChangeDisabled() {
        var driver = Self.preSDriver()
        driver.apply(driver.model.enterDoze(now: driver.now))
        let start = driver.elapsedMs
        for index in 0..<20 { driver.set("w\(index)", .setExactAndAllowWhileIdle, inMs: 10_000 + Int64(index) * 10_000) }
        driver.advance(byMs: Self.hour - 1)
        #expect(driver.deliveries.filter { $0.elapsedMs < start + Self.hour }.count == 7)
    }

    @Test("inexactAllowWhileIdleBinderCallWhenChangeDisabled: below target 31, the app may start a foreground service from its delivery (no background-start restriction before target 31)")
    func inexactAllowWhileIdleWhenChangeDisabled() {
        var driver = Self.preSDriver()
        let id = driver.set("w", .setAndAllowWhileIdle, inMs: Self.minute)
        driver.advance(byMs: Self.hour)
        let delivered = driver.deliveryTimes(id)
        #expect(delivered.count == 1)
        #expect(delivered.first.map { driver.model.mayStartForegroundService(for: id, nowElapsedMs: $0) } == true,
                "TEMPORARY_ALLOWLIST_TYPE_FOREGROUND_SERVICE_ALLOWED")
    }

    @Test("opChangedChangeDisabled: below target 31, revoking the app-op removes nothing and kills nothing")
    func opChangedChangeDisabled() {
        var driver = AndroidDriver { $0.apiLevel = 34; $0.targetSdk = 30 }
        let clock = driver.set("clock", .setAlarmClock, inMs: Self.hour)
        driver.apply(driver.model.revokeExactAlarmPermission())
        #expect(driver.model.pending.map(\.id) == [clock])
        #expect(driver.kills == 0)
    }

    @Test("alarmClockBinderCall, exactBinderCallWithPermission, exactAllowWhileIdleBinderCallWithPermission: with the permission exact calls succeed, and the delivery lets the app start a foreground service",
          arguments: [AlarmSetMethod.setAlarmClock, .setExact, .setExactAndAllowWhileIdle])
    func exactCallWithPermission(method: AlarmSetMethod) {
        var driver = AndroidDriver { $0.apiLevel = 33 }
        let id = driver.set("a", method, inMs: Self.minute)
        #expect(driver.scheduleResult(id).map { (try? $0.get()) != nil } == true)
        driver.advance(byMs: Self.hour)
        let delivered = driver.deliveryTimes(id)
        #expect(delivered.count == 1)
        #expect(delivered.first.map { driver.model.mayStartForegroundService(for: id, nowElapsedMs: $0) } == true,
                "TEMPORARY_ALLOWLIST_TYPE_FOREGROUND_SERVICE_ALLOWED")
    }

    @Test("exactBinderCallsWithoutPermissionWithoutAllowlist: without the permission setExact and setExactAndAllowWhileIdle throw SecurityException")
    func exactCallsWithoutPermission() {
        var driver = AndroidDriver { $0.apiLevel = 33 }
        driver.apply(driver.model.revokeExactAlarmPermission())
        for method in [AlarmSetMethod.setExact, .setExactAndAllowWhileIdle] {
            let id = driver.set(method.rawValue, method, inMs: Self.hour)
            #expect(driver.scheduleResult(id)?.failure == .securityException)
        }
    }

    @Test("inexactAllowWhileIdleBinderCall: setAndAllowWhileIdle needs no permission, and its delivery gives no foreground-service start")
    func inexactAllowWhileIdle() {
        var driver = AndroidDriver { $0.apiLevel = 33 }
        driver.apply(driver.model.revokeExactAlarmPermission())
        let id = driver.set("w", .setAndAllowWhileIdle, inMs: Self.minute)
        #expect(driver.scheduleResult(id).map { (try? $0.get()) != nil } == true)
        driver.advance(byMs: Self.hour)
        let delivered = driver.deliveryTimes(id)
        #expect(delivered.count == 1)
        #expect(delivered.first.map { driver.model.mayStartForegroundService(for: id, nowElapsedMs: $0) } == false,
                "TEMPORARY_ALLOWLIST_TYPE_FOREGROUND_SERVICE_NOT_ALLOWED")
    }

    @Test("opChangedPermissionRevoked / removeExactAlarmsOnPermissionRevoked: a revocation removes setExact, setExactAndAllowWhileIdle and setAlarmClock alarms, keeps inexact ones, and kills the app")
    func removeExactAlarmsOnPermissionRevoked() {
        var driver = AndroidDriver { $0.apiLevel = 32 }
        driver.set("exact", .setExact, inMs: Self.hour, type: .elapsedRealtime)
        driver.set("exactAwi", .setExactAndAllowWhileIdle, inMs: Self.hour, type: .elapsedRealtime)
        driver.set("clock", .setAlarmClock, inMs: Self.hour)
        let inexact = driver.set("inexact", .setWindow, inMs: Self.hour, type: .elapsedRealtime, windowMs: 10)
        let inexactAwi = driver.set("inexactAwi", .setAndAllowWhileIdle, inMs: Self.hour, type: .elapsedRealtime)
        driver.apply(driver.model.revokeExactAlarmPermission())
        #expect(driver.model.pending.map(\.id).sorted() == [inexact, inexactAwi].sorted())
        #expect(driver.kills == 1)
    }

    @Test("opChangedPermissionGranted: a grant sends ACTION_SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED to the app")
    func opChangedPermissionGranted() {
        var driver = AndroidDriver { $0.apiLevel = 33 }
        driver.apply(driver.model.revokeExactAlarmPermission())
        driver.apply(driver.model.grantExactAlarmPermission())
        #expect(driver.effects.contains(.toApp(.exactAlarmPermissionGranted, launch: .broadcast)))
    }

    @Test("refreshExactAlarmCandidatesRemovesExactAlarmsIfNeeded: an app that stops declaring SCHEDULE_EXACT_ALARM loses its exact alarms, keeps inexact ones")
    func refreshExactAlarmCandidatesRemovesExactAlarms() {
        var driver = AndroidDriver { $0.apiLevel = 32 }
        driver.set("exact", .setExact, inMs: Self.hour, type: .elapsedRealtime)
        let inexact = driver.set("inexact", .setWindow, inMs: Self.hour, type: .elapsedRealtime, windowMs: 23)
        var manifest = AndroidManifestDeclarations()
        manifest.declaresScheduleExactAlarm = false
        driver.apply(driver.model.packageReplaced(manifest: manifest, now: driver.now))
        #expect(driver.model.pending.map(\.id) == [inexact])
    }

    // MARK: Windows (AMS setImpl, getMinimumAllowedWindow)

    @Test("minWindowChangeEnabled: a setWindow window below MIN_WINDOW becomes max(window, 0.75 × futurity) capped at MIN_WINDOW; longer windows are kept")
    func minWindowChangeEnabled() {
        let minWindow: Int64 = 73
        var driver = AndroidDriver { Self.testable(&$0); $0.minWindowMs = minWindow }
        var checked = 0
        for window in Int64(1)...minWindow {
            for futurity in [(window * 37) % minWindow, 2 * minWindow + window] {
                let id = driver.set("w\(window)-\(futurity)", .setWindow, inMs: futurity, type: .elapsedRealtime, windowMs: window)
                let expected = futurity < minWindow ? max(futurity * 3 / 4, window) : minWindow
                #expect(driver.model.alarm(id)?.windowLengthMs == expected, "window \(window), futurity \(futurity)")
                driver.apply(driver.model.cancel(id))
                checked += 1
            }
        }
        let long = driver.set("long", .setWindow, inMs: -1, type: .elapsedRealtime, windowMs: minWindow + 42)
        #expect(driver.model.alarm(long)?.windowLengthMs == minWindow + 42)
        #expect(checked == 2 * Int(minWindow))
    }

    @Test("minWindowChangeDisabled: below target 31 a setWindow window is kept as asked")
    func minWindowChangeDisabled() {
        var driver = AndroidDriver { Self.testable(&$0); $0.minWindowMs = 73; $0.targetSdk = 30 }
        for window in Int64(1)...73 {
            let id = driver.set("w\(window)", .setWindow, inMs: 10_000, type: .elapsedRealtime, windowMs: window)
            #expect(driver.model.alarm(id)?.windowLengthMs == window)
        }
    }

    // MARK: Time zone

    @Test("setTimeZoneImpl: a new zone id sends ACTION_TIMEZONE_CHANGED to the app")
    func setTimeZoneImpl() {
        var driver = AndroidDriver { $0.timeZoneID = "Europe/Berlin" }
        driver.apply(driver.model.setTimeZone("UTC"))
        #expect(driver.broadcasts() == [.timezoneChanged("UTC")])
    }
}

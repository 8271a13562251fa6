import AlarmBridge
import AndroidModel
import SimKernel
import Testing

/// Conformance of the AlarmManager-like scheduler: one case per documented behaviour, each naming
/// its source (AOSP AlarmManagerService = AMS; developer.android.com; PLATFORMS.md Android table).
struct AlarmManagerSchedulerConformanceTests {
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000

    @Test("trigger = max(now + 5 s, requested) for every method, setAlarmClock included (AMS setImpl, MIN_FUTURITY)",
          arguments: AlarmSetMethod.allCases)
    func fiveSecondFloor(method: AlarmSetMethod) {
        var driver = AndroidDriver()
        let start = driver.elapsedMs
        let id = driver.set("a", method, inMs: 1_000, intervalMs: method.isRepeating ? Self.hour : 0)
        #expect(driver.model.alarm(id)?.whenElapsedMs == start + 5_000)
        driver.advance(byMs: 4_999)
        #expect(driver.deliveryTimes(id).isEmpty, "delivered before the 5 s floor")
        driver.advance(byMs: 2 * Self.hour)
        #expect(driver.deliveryTimes(id).first.map { $0 >= start + 5_000 } == true)
    }

    @Test("exact methods deliver at their trigger; a past trigger is raised to now + 5 s (AMS setImpl)",
          arguments: [AlarmSetMethod.setExact, .setExactAndAllowWhileIdle, .setAlarmClock])
    func exactOnTime(method: AlarmSetMethod) {
        var driver = AndroidDriver()
        let start = driver.elapsedMs
        let onTime = driver.set("on-time", method, inMs: 20 * Self.minute)
        let past = driver.set("past", method, inMs: -Self.hour)
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveryTimes(onTime) == [start + 20 * Self.minute])
        #expect(driver.deliveryTimes(past) == [start + 5_000])
    }

    @Test("set: delivered within 0.75 × futurity, capped at 1 h, never early (AMS maxTriggerTime)",
          arguments: [Int64(20_000), Int64(480_000), Int64(2_400_000), Int64(14_400_000)])
    func inexactWindow(futurityMs: Int64) {
        var driver = AndroidDriver()
        let start = driver.elapsedMs
        let id = driver.set("a", .set, inMs: futurityMs)
        let window = min(futurityMs * 3 / 4, Self.hour)
        #expect(driver.model.alarm(id)?.windowLengthMs == window)
        driver.advance(byMs: futurityMs + 2 * Self.hour)
        let delivered = driver.deliveryTimes(id)
        #expect(delivered.count == 1)
        #expect(delivered.allSatisfy { $0 >= start + futurityMs && $0 <= start + futurityMs + window })
        #expect(AlarmManagerModel.maxTriggerTime(nowElapsedMs: 0, triggerElapsedMs: 9_999, intervalMs: 0) == 9_999,
                "no window under MIN_FUZZABLE_INTERVAL (10 s)")
    }

    @Test("inexact alarms batch: one wakeup at the smallest shared window end (AMS LazyAlarmStore.getNextWakeupDeliveryTime)")
    func inexactBatching() {
        var driver = AndroidDriver()
        let first = driver.set("first", .set, inMs: 40 * Self.minute)  // window [40, 70] min
        let second = driver.set("second", .set, inMs: 50 * Self.minute)  // window [50, 87.5] min
        driver.advance(byMs: 3 * Self.hour)
        #expect(driver.deliveryTimes(first) == driver.deliveryTimes(second), "the two windows overlap: one batch")
        #expect(driver.deliveryTimes(first).first == driver.deliveries.first?.elapsedMs)
    }

    @Test("setWindow: a short window is expanded to min(10 min, 0.75 × futurity), a window over 1 day clamped to 1 day (AMS setImpl, getMinimumAllowedWindow)")
    func setWindowBounds() {
        var driver = AndroidDriver()
        let short = driver.set("short", .setWindow, inMs: Self.hour, windowMs: Self.minute)
        let near = driver.set("near", .setWindow, inMs: 20_000, windowMs: 1_000)
        let long = driver.set("long", .setWindow, inMs: Self.hour, windowMs: 2 * 86_400_000)
        let fine = driver.set("fine", .setWindow, inMs: Self.hour, windowMs: 30 * Self.minute)
        #expect(driver.model.alarm(short)?.windowLengthMs == 10 * Self.minute)
        #expect(driver.model.alarm(near)?.windowLengthMs == 15_000)
        #expect(driver.model.alarm(long)?.windowLengthMs == 86_400_000)
        #expect(driver.model.alarm(fine)?.windowLengthMs == 30 * Self.minute)
        #expect(driver.model.canScheduleExactAlarms)
    }

    @Test("the same PendingIntent (request code) replaces the pending alarm (AMS setImplLocked → removeLocked)")
    func samePendingIntentReplaces() {
        var driver = AndroidDriver()
        let id = driver.set("a", .setExact, inMs: 10 * Self.minute)
        driver.set("a", .setExact, inMs: 30 * Self.minute)
        #expect(driver.model.pending.count == 1)
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveryTimes(id).count == 1, "the replaced trigger must not fire")
    }

    @Test("with 500 alarms pending, any set — a replacement too — throws IllegalStateException (AMS setImpl, MAX_ALARMS_PER_UID)")
    func fiveHundredLimit() {
        var driver = AndroidDriver()
        for number in 0..<500 { driver.set("alarm-\(number)", .set, inMs: Self.hour + Int64(number)) }
        #expect(driver.model.pending.count == 500)
        let extra = driver.set("extra", .set, inMs: Self.hour)
        #expect(driver.scheduleResult(extra)?.failure == .illegalStateException)
        let replacement = driver.set("alarm-7", .set, inMs: 2 * Self.hour)
        #expect(driver.scheduleResult(replacement)?.failure == .illegalStateException)
        #expect(driver.model.pending.count == 500)
    }

    @Test("setRepeating: interval raised to ≥ 60 s; missed repeats deliver once with a count, the next keeps its phase (AMS setImpl MIN_INTERVAL, triggerAlarmsLocked)")
    func missedRepeats() {
        var driver = AndroidDriver { $0.dozeIdlePeriodsMs = [3_600_000] }
        let clamped = driver.set("clamped", .setInexactRepeating, inMs: 10 * Self.hour, intervalMs: 1_000)
        #expect(driver.model.alarm(clamped)?.intervalMs == 60_000)
        driver.apply(driver.model.enterDoze(now: driver.now))
        let start = driver.elapsedMs
        let id = driver.set("repeat", .setRepeating, inMs: Self.minute, intervalMs: 15 * Self.minute)
        let phase = driver.model.alarm(id)!.whenElapsedMs
        driver.advance(byMs: Self.hour + Self.minute)  // doze holds it until the maintenance window at +1 h
        let delivery = driver.model.deliveryLog.first { $0.id == id }
        #expect(delivery != nil)
        #expect(delivery.map { $0.deliveredElapsedMs >= start + Self.hour } == true)
        #expect(delivery.map { $0.count >= 4 } == true, "four intervals passed in doze: one delivery with the count")
        #expect(driver.deliveryTimes(id).count == 1)
        let next = driver.model.alarm(id)!.whenElapsedMs
        #expect((next - phase) % (15 * Self.minute) == 0, "the next trigger keeps the phase")
        #expect(delivery.map { next > $0.deliveredElapsedMs } == true, "the next trigger is after the delivery")
    }

    @Test("equal-time delivery order: set order by default; with seededEqualTimeOrder a function of the seed (AMS dispatch comparator leaves ties unspecified)")
    func equalTimeOrder() {
        func order(seeded: Bool, seed: UInt64) -> [AlarmUUID] {
            var driver = AndroidDriver({ $0.seededEqualTimeOrder = seeded }, seed: seed)
            let trigger = driver.wallMs + Self.hour
            for number in 0..<8 {
                let request = AlarmManagerRequest(method: .setExact, triggerAtMs: trigger, id: AndroidDriver.uuid("t\(number)"),
                                                  metadata: AndroidDriver.metadata("t\(number)"))
                driver.apply(driver.model.set(request, now: driver.now))
            }
            driver.advance(byMs: 2 * Self.hour)
            return driver.deliveries.map(\.id)
        }
        let setOrder = (0..<8).map { AndroidDriver.uuid("t\($0)") }
        #expect(order(seeded: false, seed: 1) == setOrder)
        #expect(order(seeded: true, seed: 1) == order(seeded: true, seed: 1), "same seed, same order")
        let orders = (1...6).map { order(seeded: true, seed: $0) }
        #expect(orders.contains { $0 != orders[0] }, "different seeds must be able to choose different orders")
        #expect(orders.allSatisfy { Set($0) == Set(setOrder) })
    }

    @Test("non-wakeup alarms due while the screen is off are held until the next wakeup alarm or screen-on (AMS checkAllowNonWakeupDelayLocked)")
    func nonWakeupHeld() {
        var driver = AndroidDriver()
        let start = driver.elapsedMs
        let rtc = driver.set("rtc", .setExact, inMs: 10 * Self.minute, type: .rtc)
        let elapsed = driver.set("elapsed", .setExact, inMs: 12 * Self.minute, type: .elapsedRealtime)
        let wakeup = driver.set("wakeup", .setExact, inMs: 30 * Self.minute, type: .elapsedRealtimeWakeup)
        let late = driver.set("late", .setExact, inMs: 40 * Self.minute, type: .rtc)
        driver.advance(byMs: 20 * Self.minute)
        driver.apply(driver.model.setStandbyBucket(.active, now: driver.now))  // the scheduler runs without a wakeup
        driver.advance(byMs: 9 * Self.minute)
        #expect(driver.deliveries.isEmpty, "the screen is off: nothing wakes the device for RTC / ELAPSED_REALTIME")
        driver.advance(byMs: Self.minute)
        #expect(driver.deliveryTimes(wakeup) == [start + 30 * Self.minute])
        #expect(driver.deliveryTimes(rtc) == [start + 30 * Self.minute], "flushed with the wakeup alarm")
        #expect(driver.deliveryTimes(elapsed) == [start + 30 * Self.minute])
        driver.advance(byMs: 20 * Self.minute)
        #expect(driver.deliveryTimes(late).isEmpty)
        driver.apply(driver.model.setScreen(on: true, now: driver.now))
        #expect(driver.deliveryTimes(late) == [start + 50 * Self.minute], "flushed at screen-on")
    }

    @Test("with the screen on, non-wakeup alarms deliver on time (AMS: held only while non-interactive)")
    func nonWakeupScreenOn() {
        var driver = AndroidDriver()
        driver.apply(driver.model.setScreen(on: true, now: driver.now))
        let start = driver.elapsedMs
        let id = driver.set("rtc", .setExact, inMs: 10 * Self.minute, type: .rtc)
        driver.advance(byMs: Self.hour)
        #expect(driver.deliveryTimes(id) == [start + 10 * Self.minute])
    }
}

import AlarmBridge
@testable import AndroidModel
import SimKernel
import Testing

/// Issue 20: the model's next wakeup is found in one pass (`nextDeliveryElapsed`) instead of AMS
/// `getNextWakeupDeliveryTime`'s walk over the alarms sorted by delivery start. The two agree
/// because no alarm's window ends before it opens; this holds them equal, walk against pass, over
/// random alarm sets and device states (doze, standby, battery saver, screen).
struct NextWakeupTests {
    /// AMS's walk, as the model ran it before: by (start, end); stop at the first alarm that opens
    /// after the smallest end so far.
    static func walk(_ bounds: [(whenElapsedMs: Int64, maxWhenElapsedMs: Int64)]) -> Int64? {
        var next: Int64?
        for bound in bounds.sorted(by: { ($0.whenElapsedMs, $0.maxWhenElapsedMs) < ($1.whenElapsedMs, $1.maxWhenElapsedMs) }) {
            if let current = next {
                if bound.whenElapsedMs > current { break }
                next = min(current, bound.maxWhenElapsedMs)
            } else {
                next = bound.maxWhenElapsedMs
            }
        }
        return next
    }

    @Test("Issue 20: the one-pass next wakeup equals AMS's sorted walk over random alarm sets and device states", arguments: 1...40)
    func onePassEqualsWalk(seed: UInt64) {
        var random = Xoshiro256StarStar(seed: seed)
        func below(_ bound: UInt64) -> Int64 { Int64(random.next() % bound) }
        var driver = AndroidDriver({ parameters in
            parameters.dozeIdlePeriodsMs = [3_600_000, 7_200_000]
        }, seed: seed)
        if below(2) == 0 { driver.apply(driver.model.setScreen(on: false, now: driver.now)) }
        if below(3) == 0 { driver.apply(driver.model.setBatterySaver(true, now: driver.now)) }
        if below(3) == 0 { driver.apply(driver.model.setStandbyBucket(.rare, now: driver.now)) }
        let methods = AlarmSetMethod.allCases
        for index in 0..<Int(2 + below(12)) {
            let method = methods[Int(below(UInt64(methods.count)))]
            let type: AlarmClockType = below(4) == 0 ? .elapsedRealtimeWakeup : (below(5) == 0 ? .rtc : .rtcWakeup)
            driver.set("a\(index)", method, inMs: 60_000 + below(6 * 3_600_000), type: method == .setAlarmClock ? .rtcWakeup : type,
                       windowMs: method == .setWindow ? 60_000 + below(7_200_000) : 0)
        }
        var checked = 0
        for _ in 0..<6 {
            driver.advance(byMs: 300_000 + below(3_600_000))
            let model = driver.model
            for wakeupOnly in [true, false] {
                let bounds = model.pending.filter { !wakeupOnly || $0.type.isWakeup }.map(model.deliveryBounds)
                #expect(bounds.allSatisfy { $0.whenElapsedMs <= $0.maxWhenElapsedMs }, "a window that ends before it opens")
                #expect(model.nextDeliveryElapsed(wakeupOnly: wakeupOnly) == Self.walk(bounds))
                checked += bounds.count
            }
        }
        #expect(checked > 0 || driver.model.pending.isEmpty)
    }
}

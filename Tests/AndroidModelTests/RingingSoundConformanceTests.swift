import AlarmBridge
import AndroidModel
import SimKernel
import Testing

/// The ringing service's sound: what it plays, that time alone never changes it, and the system
/// fallback after a player failure (SND-9, SND-11).
struct RingingSoundConformanceTests {
    @Test("SND-11: the ringing service keeps playing its ring's sound; elapsed time alone neither stops it nor changes it")
    func keepsRingingWithItsSound() {
        var driver = AndroidDriver()
        let id = driver.set("ring", .setAlarmClock, inMs: 60_000)
        driver.advance(byMs: 61_000)
        driver.apply(driver.model.startRinging(id, metadata: AndroidDriver.metadata("ring"), soundName: "birds", now: driver.now))
        for _ in 0..<10 {
            driver.advance(byMs: 30_000)
            #expect(driver.model.isAudible(id))
            #expect(driver.model.ringingStatus(id)?.soundName == "birds")
            #expect(driver.model.ringingStatus(id)?.playingSystemFallback == false)
        }
    }

    @Test("SND-9: a player failure leaves the service silent until the app asks for the system sound, which then plays")
    func systemFallbackAfterPlayerFailure() {
        var driver = AndroidDriver()
        let id = driver.set("ring", .setAlarmClock, inMs: 60_000)
        driver.advance(byMs: 61_000)
        driver.apply(driver.model.startRinging(id, metadata: AndroidDriver.metadata("ring"), soundName: "birds", now: driver.now))
        _ = driver.model.playbackFailed(id)
        #expect(!driver.model.isAudible(id))
        #expect(driver.model.ringingStatus(id)?.failedElapsedMs != nil)
        _ = driver.model.playSystemSound(id)
        #expect(driver.model.isAudible(id))
        #expect(driver.model.ringingStatus(id)?.playingSystemFallback == true)
        #expect(driver.model.ringingStatus(id)?.failedElapsedMs == nil)
    }
}

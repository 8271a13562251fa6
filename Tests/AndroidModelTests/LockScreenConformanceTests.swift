import AlarmBridge
import AndroidModel
import SimKernel
import Testing

/// The keyguard flags of the app's activities (Activity.setShowWhenLocked, KeyguardManager) and
/// the SNZ-18 exemption extra of the ringing service.
struct LockScreenConformanceTests {
    @Test("AND-10: the alarm surface of a ringing alarm shows over the keyguard without any keyguard dismissal")
    func alarmSurfaceOverKeyguard() {
        let driver = RingingServiceConformanceTests.ringing()
        #expect(driver.model.alarmSurfaceShowsOverKeyguard(RingingServiceConformanceTests.id))
        #expect(driver.model.lockScreen.keyguardDismissRequests == 0)
        #expect(!driver.model.lockScreen.mainActivityShowWhenLocked)
    }

    @Test("setShowWhenLocked is a flag of a live activity: set, cleared, and gone when the process dies")
    func mainActivityFlag() {
        var driver = RingingServiceConformanceTests.ringing()
        driver.apply(driver.model.setMainActivityShowWhenLocked(true))
        #expect(driver.model.lockScreen.mainActivityShowWhenLocked)
        driver.apply(driver.model.setMainActivityShowWhenLocked(false))
        #expect(!driver.model.lockScreen.mainActivityShowWhenLocked)
        driver.apply(driver.model.setMainActivityShowWhenLocked(true))
        driver.apply(driver.model.processDied())
        #expect(!driver.model.lockScreen.mainActivityShowWhenLocked)
        #expect(driver.model.lockScreen.grants == 2 && driver.model.lockScreen.revocations == 1)
    }

    @Test("requestDismissKeyguard is counted (each one puts the PIN prompt in front of the app, AND-12)")
    func keyguardDismissCounted() {
        var driver = RingingServiceConformanceTests.ringing()
        driver.apply(driver.model.requestDismissKeyguard())
        #expect(driver.model.lockScreen.keyguardDismissRequests == 1)
    }

    @Test("SNZ-18: a ring started with the exemption extra carries it in the service's status; an ordinary ring does not")
    func exemptionTravelsToTheService() {
        var driver = AndroidDriver()
        let snooze = driver.set("snooze", .setAlarmClock, inMs: 60_000)
        let plain = driver.set("plain", .setAlarmClock, inMs: 60_000)
        driver.advance(byMs: 61_000)
        driver.apply(driver.model.startRingingSuppressionExempt(snooze, metadata: AndroidDriver.metadata("snooze")))
        driver.apply(driver.model.startRinging(plain, metadata: AndroidDriver.metadata("plain"), now: driver.now))
        #expect(driver.model.ringingStatus(snooze)?.suppressionExemptOnce == true)
        #expect(driver.model.ringingStatus(plain)?.suppressionExemptOnce == false)
    }
}

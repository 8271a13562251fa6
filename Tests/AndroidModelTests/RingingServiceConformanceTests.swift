import AlarmBridge
import AndroidModel
import SimKernel
import Testing

/// The app's ringing foreground service, notification presentation and the step counter.
struct RingingServiceConformanceTests {
    static let id = AndroidDriver.uuid("ring")
    static let metadata = AndroidDriver.metadata("ring")

    /// A driver whose ring was delivered by `method` and is now ringing.
    static func ringing(_ configure: (inout AlarmManagerParameters) -> Void = { _ in },
                        method: AlarmSetMethod = .setAlarmClock) -> AndroidDriver {
        var driver = AndroidDriver(configure)
        let id = driver.set("ring", method, inMs: 60_000)
        driver.advance(byMs: method.isExact ? 61_000 : 7_200_000)  // exact: start 1 s after the delivery
        #expect(driver.deliveryTimes(id).count == 1)
        driver.apply(driver.model.startRinging(id, metadata: metadata, now: driver.now))
        return driver
    }

    @Test("the ringing service may start from the background only right after an exact alarm (FGS background-start restrictions, 12+)")
    func startedFromExactAlarm() {
        let exact = Self.ringing(method: .setAlarmClock)
        #expect(exact.model.ringingStatus(Self.id)?.startedFromExactAlarm == true)
        let inexact = Self.ringing(method: .set)
        #expect(inexact.model.ringingStatus(Self.id)?.startedFromExactAlarm == false)
    }

    @Test("API 34+: USE_FULL_SCREEN_INTENT denied → heads-up only, collapsing after about 60 s; below 34 it cannot be revoked (fsi-limits)",
          arguments: [33, 34])
    func fullScreenIntentDenied(apiLevel: Int) {
        var driver = AndroidDriver { $0.apiLevel = apiLevel }
        driver.apply(driver.model.setFullScreenIntentPermission(false))
        let id = driver.set("ring", .setAlarmClock, inMs: 60_000)
        driver.advance(byMs: 65_000)
        driver.apply(driver.model.startRinging(id, metadata: Self.metadata, now: driver.now))
        let expected: RingPresentation = apiLevel >= 34 ? .headsUp : .fullScreen
        #expect(driver.model.ringingStatus(id)?.presentation == expected)
        driver.advance(byMs: 61_000)
        #expect(driver.model.ringingStatus(id)?.presentation == (apiLevel >= 34 ? .shade : .fullScreen))
        #expect(driver.model.isAudible(id), "the sound plays whatever the notification shows")
    }

    @Test("a low-importance burst channel shows no full-screen alarm (NotificationChannel importance)")
    func lowImportanceChannel() {
        let driver = Self.ringing { $0.ringingChannel = .burstLowImportance }
        #expect(driver.model.ringingStatus(Self.id)?.presentation == .shade)
    }

    @Test("audio focus: a call leaves only the in-call tone, ducking keeps it audible, regaining focus restores it (audio-focus docs; AlarmClock#198)")
    func audioFocus() {
        var driver = Self.ringing()
        driver.apply(driver.model.audioFocusChanged(.callStarted))
        #expect(driver.model.ringingStatus(Self.id)?.audio == .inCallTone)
        #expect(!driver.model.isAudible(Self.id))
        driver.apply(driver.model.audioFocusChanged(.gain))
        #expect(driver.model.isAudible(Self.id))
        driver.apply(driver.model.audioFocusChanged(.lossTransientCanDuck))
        #expect(driver.model.ringingStatus(Self.id)?.audio == .ducked)
        #expect(driver.model.isAudible(Self.id))
        driver.apply(driver.model.audioFocusChanged(.loss))
        #expect(driver.model.isAudible(Self.id), "12+ fades only media and game usages")
        var silencing = Self.ringing { $0.focusLossSilencesAlarm = true }
        silencing.apply(silencing.model.audioFocusChanged(.loss))
        #expect(!silencing.model.isAudible(Self.id))
    }

    @Test("playback failure leaves the service running but silent (MediaPlayer.OnErrorListener)")
    func playbackFailure() {
        var driver = Self.ringing()
        driver.apply(driver.model.playbackFailed(Self.id))
        #expect(driver.model.ringing == [Self.id])
        #expect(!driver.model.isAudible(Self.id))
    }

    @Test("volume keys and the volume setting move STREAM_ALARM within [min 1, max] (AudioService MIN/MAX_STREAM_VOLUME)")
    func alarmVolume() {
        var driver = Self.ringing()
        for _ in 0..<20 { driver.apply(driver.model.volumeKey(up: false)) }
        #expect(driver.model.parameters.alarmVolumeIndex == 1)
        #expect(driver.model.isAudible(Self.id), "the alarm stream cannot be muted by volume keys")
        driver.apply(driver.model.setAlarmVolume(100))
        #expect(driver.model.parameters.alarmVolumeIndex == driver.model.parameters.alarmVolumeMaxIndex)
    }

    @Test("service teardown ends the ring without a stop completion; the process lives (Service lifecycle)")
    func serviceTeardown() {
        var driver = Self.ringing()
        let before = driver.effects.count
        driver.apply(driver.model.ringingServiceTornDown(Self.id))
        #expect(driver.model.ringing.isEmpty)
        #expect(driver.effects[before...].contains(.alertEnded(Self.id, Self.metadata)))
        #expect(!driver.effects[before...].contains { if case .toApp = $0 { return true }; return false })
        #expect(driver.kills == 0)
    }

    @Test("an OEM battery killer kills the ringing process after the parameter's delay (gdelataillade/alarm#82, #430)")
    func oemKillsRinging() {
        var driver = Self.ringing { $0.oemKillsRingingAfterMs = 30_000 }
        driver.advance(byMs: 29_999)
        #expect(driver.model.ringing == [Self.id])
        driver.advance(byMs: 1)
        #expect(driver.model.ringing.isEmpty)
        #expect(driver.effects.contains(.processKilled(.oemBatteryKiller)))
    }

    @Test("screen-off while ringing reaches only a running process (SCREEN_OFF is context-registered only)")
    func screenOffBroadcast() {
        var driver = Self.ringing()
        driver.apply(driver.model.setScreen(on: true, now: driver.now))
        driver.apply(driver.model.setScreen(on: false, now: driver.now))
        #expect(driver.effects.contains(.broadcast(.screenOff, launch: nil)))
    }

    @Test("step counter: cumulative since boot, batched up to maxReportLatency, reset by reboot (Sensor.TYPE_STEP_COUNTER)")
    func stepCounter() {
        var sensor = StepCounterSensor(maxReportLatencyMs: 5_000)
        sensor.walk(steps: 10, nowElapsedMs: 0)
        let first = sensor.setListening(true, nowElapsedMs: 1_000)
        #expect(first.map(\.stepsSinceBoot) == [10])
        sensor.walk(steps: 3, nowElapsedMs: 2_000)
        sensor.walk(steps: 4, nowElapsedMs: 4_000)
        #expect(sensor.deliverDue(nowElapsedMs: 6_999).isEmpty)
        let batch = sensor.deliverDue(nowElapsedMs: 7_000)
        #expect(batch.map(\.stepsSinceBoot) == [13, 17])
        #expect(batch.map(\.stepElapsedMs) == [2_000, 4_000])
        sensor.reboot()
        #expect(sensor.stepsSinceBoot == 0)
        #expect(sensor.nextDeliveryElapsedMs == nil)
    }
}

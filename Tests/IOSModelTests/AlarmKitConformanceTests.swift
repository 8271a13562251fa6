import AlarmBridge
import IOSModel
import SimKernel
import Testing

/// Conformance of the AlarmKit-like daemon, one case per documented behaviour, each naming its
/// source (PLATFORMS.md; developer.apple.com/documentation/alarmkit/…).
struct AlarmKitConformanceTests {
    /// Runs the daemon's own timed events in (time, order) until `untilWallMs`.
    struct Driver {
        var daemon: AlarmKitDaemon
        var nowWallMs: Int64 = 1_772_430_000_000  // 2026-03-02 06:40 Berlin
        var queue = EventQueue<DaemonEvent>()
        var alerts: [AlarmUUID] = []

        init(capacity: Int = 64) {
            var parameters = AlarmKitParameters()
            parameters.capacity = capacity
            parameters.scheduleLatencyMinMs = 50
            parameters.scheduleLatencyMaxMs = 50
            daemon = AlarmKitDaemon(parameters: parameters, calendar: WallCalendar(zoneIdentifier: "Europe/Berlin")!,
                                    streams: RandomStreams(seed: 1))
        }

        mutating func apply(_ effects: [DaemonEffect]) {
            for effect in effects {
                switch effect {
                case .later(let event, let afterMs): queue.schedule(event, at: nowWallMs + afterMs)
                case .alertStarted(let id, _): alerts.append(id)
                default: break
                }
            }
        }

        mutating func advance(byMs: Int64) {
            let until = nowWallMs + byMs
            while let next = queue.peekNext(), next.dueMs <= until {
                let event = queue.removeNext()
                nowWallMs = event.dueMs
                apply(daemon.handle(event.payload, nowWallMs: nowWallMs))
            }
            nowWallMs = until
        }

        mutating func schedule(_ name: String, _ schedule: RingSchedule, countdown: CountdownDuration? = nil) -> AlarmUUID {
            let id = AlarmUUID.v5(namespace: AlarmUUID.dnsNamespace, name: name)
            let request = RingRequest(id: id, schedule: schedule, fireWallMs: 0,
                                      metadata: RingMetadata(rootID: name, alarmID: name, kind: .primary, token: nil, title: name),
                                      countdown: countdown)
            apply(daemon.schedule(request))
            advance(byMs: 100)  // the async schedule completes
            return id
        }

        func state(_ id: AlarmUUID) -> PlatformAlarm.State? { daemon.alarm(id)?.state }
    }

    @Test("scheduled → alerting at the fire time (Alarm.State; schedule(id:configuration:))")
    func firesAtTime() {
        var driver = Driver()
        let id = driver.schedule("a", .fixed(wallMs: driver.nowWallMs + 60_000))
        #expect(driver.state(id) == .scheduled)
        driver.advance(byMs: 59_000)
        #expect(driver.state(id) == .scheduled)
        driver.advance(byMs: 1_000)
        #expect(driver.state(id) == .alerting)
    }

    @Test("with a preAlert countdown: scheduled → countdown at fire − preAlert → alerting at fire (Alarm.CountdownDuration)")
    func preAlertCountdown() {
        var driver = Driver()
        let id = driver.schedule("a", .fixed(wallMs: driver.nowWallMs + 600_000),
                                 countdown: CountdownDuration(preAlertMs: 300_000, postAlertMs: nil))
        driver.advance(byMs: 299_000)
        #expect(driver.state(id) == .scheduled)
        driver.advance(byMs: 1_000)
        #expect(driver.state(id) == .countdown)
        driver.advance(byMs: 300_000)
        #expect(driver.state(id) == .alerting)
    }

    @Test("countdown(id:) moves alerting → countdown for postAlert, then alerting again; pause/resume keep the time left (…/countdown(id:), pause(id:), resume(id:))")
    func snoozeCountdownPauseResume() throws {
        var driver = Driver()
        let id = driver.schedule("a", .fixed(wallMs: driver.nowWallMs + 1_000),
                                 countdown: CountdownDuration(preAlertMs: nil, postAlertMs: 540_000))
        driver.advance(byMs: 1_000)
        #expect(driver.state(id) == .alerting)
        driver.apply(try driver.daemon.countdown(id, nowWallMs: driver.nowWallMs).get())
        #expect(driver.state(id) == .countdown)
        driver.advance(byMs: 240_000)
        driver.apply(try driver.daemon.pause(id, nowWallMs: driver.nowWallMs).get())
        #expect(driver.state(id) == .paused)
        driver.advance(byMs: 3_600_000)  // paused: nothing runs out
        #expect(driver.state(id) == .paused)
        driver.apply(try driver.daemon.resume(id, nowWallMs: driver.nowWallMs).get())
        driver.advance(byMs: 299_000)
        #expect(driver.state(id) == .countdown)
        driver.advance(byMs: 1_000)  // 240 s + 300 s = the 540 s postAlert
        #expect(driver.state(id) == .alerting)
    }

    @Test("each call in the wrong state throws, and an unknown ID throws not-found (…/alarmmanager method pages)")
    func wrongStateThrows() {
        var driver = Driver()
        let id = driver.schedule("a", .fixed(wallMs: driver.nowWallMs + 60_000), countdown: CountdownDuration(preAlertMs: nil, postAlertMs: 60_000))
        #expect(driver.daemon.pause(id, nowWallMs: driver.nowWallMs) == .failure(.invalidState))
        #expect(driver.daemon.resume(id, nowWallMs: driver.nowWallMs) == .failure(.invalidState))
        #expect(driver.daemon.countdown(id, nowWallMs: driver.nowWallMs) == .failure(.invalidState))
        let stop = driver.daemon.stop(id, nowWallMs: driver.nowWallMs, byUser: false)
        #expect(stop.contains { if case .toApp(.stopCompleted(_, .failure(.invalidState)), _) = $0 { return true }; return false })
        let unknown = AlarmUUID.v5(namespace: AlarmUUID.dnsNamespace, name: "nope")
        #expect(driver.daemon.pause(unknown, nowWallMs: driver.nowWallMs) == .failure(.notFound))
        let cancel = driver.daemon.cancel(unknown)
        #expect(cancel.contains { if case .toApp(.cancelCompleted(_, .failure(.notFound)), _) = $0 { return true }; return false })
    }

    @Test("countdown(id:) of an alarm with no countdown duration at all throws (Alarm.CountdownDuration.postAlert: nil falls back to preAlert, and both are nil)")
    func countdownNeedsPostAlert() {
        var driver = Driver()
        let id = driver.schedule("a", .fixed(wallMs: driver.nowWallMs + 1_000))
        driver.advance(byMs: 1_000)
        #expect(driver.state(id) == .alerting)
        #expect(driver.daemon.countdown(id, nowWallMs: driver.nowWallMs) == .failure(.invalidState))
    }

    @Test("cancel(id:) deletes from every state (…/alarmmanager/cancel(id:))",
          arguments: [PlatformAlarm.State.scheduled, .countdown, .paused, .alerting])
    func cancelFromAnyState(state: PlatformAlarm.State) throws {
        var driver = Driver()
        let id = driver.schedule("a", .fixed(wallMs: driver.nowWallMs + 600_000),
                                 countdown: CountdownDuration(preAlertMs: 300_000, postAlertMs: nil))
        switch state {
        case .scheduled: break
        case .countdown: driver.advance(byMs: 300_000)
        case .paused:
            driver.advance(byMs: 300_000)
            driver.apply(try driver.daemon.pause(id, nowWallMs: driver.nowWallMs).get())
        case .alerting: driver.advance(byMs: 600_000)
        }
        #expect(driver.state(id) == state)
        driver.apply(driver.daemon.cancel(id))
        #expect(driver.daemon.alarm(id) == nil)
    }

    @Test("a weekly relative alarm re-arms for its next time when stopped; a one-shot is deleted (…/alarmmanager/stop(id:))")
    func stopRearmsWeekly() {
        var driver = Driver()
        let weekly = driver.schedule("w", .relative(hour: 7, minute: 0, weekday: .monday))
        let once = driver.schedule("o", .relative(hour: 7, minute: 0, weekday: nil))
        driver.advance(byMs: 20 * 60_000)  // 07:00
        #expect(driver.state(weekly) == .alerting && driver.state(once) == .alerting)
        driver.apply(driver.daemon.stop(weekly, nowWallMs: driver.nowWallMs, byUser: true))
        driver.apply(driver.daemon.stop(once, nowWallMs: driver.nowWallMs, byUser: true))
        #expect(driver.state(weekly) == .scheduled)
        #expect(driver.daemon.alarm(weekly)?.nextFireWallMs == Int64(1_772_431_200_000) + 7 * 86_400_000)  // next Monday 07:00
        #expect(driver.daemon.alarm(once) == nil)
    }

    @Test("alarms persist across a reboot, and a paused countdown stays paused (forums 797158)")
    func persistAcrossReboot() throws {
        var driver = Driver()
        let weekly = driver.schedule("w", .relative(hour: 7, minute: 0, weekday: .monday))
        let timer = driver.schedule("t", .fixed(wallMs: driver.nowWallMs + 600_000), countdown: CountdownDuration(preAlertMs: 300_000, postAlertMs: nil))
        driver.advance(byMs: 300_000)
        driver.apply(try driver.daemon.pause(timer, nowWallMs: driver.nowWallMs).get())
        driver.apply(driver.daemon.shutdown(nowWallMs: driver.nowWallMs))
        driver.advance(byMs: 60_000)
        driver.apply(driver.daemon.boot(nowWallMs: driver.nowWallMs))
        #expect(driver.state(weekly) == .scheduled)
        #expect(driver.state(timer) == .paused)
        driver.advance(byMs: 15 * 60_000)  // 07:00 of the same Monday
        #expect(driver.state(weekly) == .alerting)
    }

    @Test("the stop intent of a lock-screen Stop launches the app process (AlarmConfiguration.stopIntent; forums 797158)")
    func stopIntentLaunches() {
        var driver = Driver()
        let id = driver.schedule("a", .fixed(wallMs: driver.nowWallMs + 1_000))
        driver.advance(byMs: 1_000)
        let effects = driver.daemon.stop(id, nowWallMs: driver.nowWallMs, byUser: true)
        #expect(effects.contains(.toApp(.stopIntent(id), launch: .intent)))
    }

    @Test("alarmUpdates sends the whole list on every change; with coalescing, changes inside the window arrive as one snapshot (…/alarmupdates; forums 825427)")
    func coalescedUpdates() {
        var plain = Driver()
        let first = plain.daemon.cancel(plain.schedule("a", .fixed(wallMs: plain.nowWallMs + 60_000)))
        #expect(first.contains { if case .toApp(.alarmUpdates([]), nil) = $0 { return true }; return false })
        var coalescing = Driver()
        coalescing.daemon.parameters.coalesceUpdates = true
        let a = coalescing.daemon.schedule(RingRequest(id: AlarmUUID.v5(namespace: AlarmUUID.dnsNamespace, name: "x"),
                                                       schedule: .fixed(wallMs: coalescing.nowWallMs + 60_000), fireWallMs: 0,
                                                       metadata: RingMetadata(rootID: "x", alarmID: "x", kind: .primary, token: nil, title: "x")))
        coalescing.apply(a)
        var snapshots = 0
        for _ in 0..<3 {
            // Three quick changes inside one window produce one pending snapshot event.
            guard let next = coalescing.queue.peekNext() else { break }
            let event = coalescing.queue.removeNext()
            coalescing.nowWallMs = next.dueMs
            let effects = coalescing.daemon.handle(event.payload, nowWallMs: coalescing.nowWallMs)
            snapshots += effects.filter { if case .toApp(.alarmUpdates, _) = $0 { return true }; return false }.count
            coalescing.apply(effects)
        }
        #expect(snapshots <= 1)
    }
}

struct AlarmKitAuthorizationTests {
    func daemon(_ configure: (inout AlarmKitParameters) -> Void) -> AlarmKitDaemon {
        var parameters = AlarmKitParameters()
        configure(&parameters)
        return AlarmKitDaemon(parameters: parameters, calendar: WallCalendar(zoneIdentifier: "UTC")!, streams: RandomStreams(seed: 3))
    }

    func scheduleResult(_ daemon: inout AlarmKitDaemon) -> Result<Int64, PlatformError>? {
        let request = RingRequest(id: AlarmUUID.v5(namespace: AlarmUUID.dnsNamespace, name: "a"), schedule: .fixed(wallMs: 120_000),
                                  fireWallMs: 120_000, metadata: RingMetadata(rootID: "a", alarmID: "a", kind: .primary, token: nil, title: "a"))
        guard case .later(let event, _) = daemon.schedule(request).first! else { return nil }
        for effect in daemon.handle(event, nowWallMs: 0) {
            if case .toApp(.scheduleCompleted(_, let result), _) = effect { return result }
        }
        return nil
    }

    @Test("denied authorization fails every schedule (…/alarmmanager/requestauthorization())")
    func deniedFails() {
        var denied = daemon { $0.authorization = .denied }
        #expect(scheduleResult(&denied) == .failure(.notAuthorized))
        #expect(denied.alarms.isEmpty)
    }

    @Test("not determined: the first schedule prompts once, and the answer decides this and every later schedule",
          arguments: [true, false])
    func firstSchedulePrompts(grants: Bool) {
        var undecided = daemon { $0.authorization = .notDetermined; $0.promptGrants = grants }
        #expect(undecided.authorizationState == .notDetermined)
        let first = scheduleResult(&undecided)
        #expect(undecided.authorizationState == (grants ? .authorized : .denied))
        if grants { #expect((try? first?.get()) != nil) } else { #expect(first == .failure(.notAuthorized)) }
        #expect(undecided.requestAuthorization().0 == (grants ? .authorized : .denied))  // no second prompt
    }

    @Test("a missing NSAlarmKitUsageDescription makes every schedule fail, even when authorized (Info.plist key doc; seed 003)")
    func usageDescriptionMissing() {
        var misconfigured = daemon { $0.usageDescriptionPresent = false }
        #expect(scheduleResult(&misconfigured) == .failure(.notAuthorized))
    }

    @Test("field fault: the state reads notDetermined after a grant, yet scheduling works (forums 792819)")
    func staleNotDetermined() {
        var stale = daemon { $0.staleNotDetermined = true }
        #expect(stale.authorizationState == .notDetermined)
        #expect((try? scheduleResult(&stale)?.get()) != nil)
    }
}

struct AlarmKitLockedPhoneTests {
    @Test("field fault (forums 825427): on a locked phone, dense fixed alarms alert 20 s – 4 min late; unlocked or sparse, on time")
    func denseFixedAlarmsAlertLate() {
        for (locked, count, expectLate) in [(true, 4, true), (false, 4, false), (true, 1, false)] {
            var driver = AlarmKitConformanceTests.Driver()
            driver.daemon.parameters.denseLateDelayMaxMs = 240_000
            driver.daemon.screenLocked = locked
            let start = driver.nowWallMs
            let ids = (0..<count).map { driver.schedule("f\($0)", .fixed(wallMs: start + 600_000 + Int64($0) * 60_000)) }
            driver.daemon.screenLocked = locked
            driver.advance(byMs: 600_000 - 100)
            let onTime = driver.state(ids[0]) == .alerting
            driver.advance(byMs: 240_000)
            #expect(onTime == !expectLate, "locked \(locked), \(count) alarms")
            #expect(driver.state(ids[0]) == .alerting, "it alerts at the latest 4 min late")
        }
    }

    @Test("field report (forums 825427): alarmUpdates are held while locked and arrive as one burst at unlock")
    func updatesHeldWhileLocked() {
        var driver = AlarmKitConformanceTests.Driver()
        driver.daemon.parameters.holdUpdatesWhileLocked = true
        driver.daemon.screenLocked = true
        let request = RingRequest(id: AlarmUUID.v5(namespace: AlarmUUID.dnsNamespace, name: "h"), schedule: .fixed(wallMs: driver.nowWallMs + 1_000),
                                  fireWallMs: 0, metadata: RingMetadata(rootID: "h", alarmID: "h", kind: .primary, token: nil, title: "h"))
        guard case .later(let completion, _) = driver.daemon.schedule(request).first! else { return }
        let held = driver.daemon.handle(completion, nowWallMs: driver.nowWallMs)
        #expect(!held.contains { if case .toApp(.alarmUpdates, _) = $0 { return true }; return false })
        let burst = driver.daemon.screenUnlocked()
        #expect(burst.contains { if case .toApp(.alarmUpdates(let alarms), _) = $0 { return alarms.count == 1 }; return false })
        #expect(driver.daemon.screenUnlocked().isEmpty, "one burst, not two")
    }

    @Test("an unattended alert keeps alerting past its sound's length until it is stopped (forums 852856)")
    func alertKeepsSounding() {
        var driver = AlarmKitConformanceTests.Driver()
        let id = driver.schedule("a", .fixed(wallMs: driver.nowWallMs + 1_000))
        driver.advance(byMs: 3 * 3_600_000)
        #expect(driver.state(id) == .alerting)
    }
}

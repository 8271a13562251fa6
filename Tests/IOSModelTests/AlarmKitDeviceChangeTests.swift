import AlarmBridge
import IOSModel
import SimKernel
import Testing

/// Conformance of the AlarmKit-like daemon to device changes: time zone, wall clock, DST policy,
/// OS-initiated removal, sound and Silent mode. Each case names its source (PLATFORMS.md).
struct AlarmKitDeviceChangeTests {
    /// Drives the daemon on true time, with the wall clock as true time plus an offset the test
    /// can step (as `VirtualClock` does in the simulator).
    struct Driver {
        var daemon: AlarmKitDaemon
        var trueMs: Int64 = 1_772_430_000_000  // 2026-03-02 06:40 Berlin
        var wallOffsetMs: Int64 = 0
        var queue = EventQueue<DaemonEvent>()
        var alerts: [(id: AlarmUUID, wallMs: Int64)] = []
        var snapshots: [[PlatformAlarm]] = []
        var wallMs: Int64 { trueMs + wallOffsetMs }

        init(zone: String = "Europe/Berlin", startTrueMs: Int64? = nil, _ configure: (inout AlarmKitParameters) -> Void = { _ in }) {
            var parameters = AlarmKitParameters()
            parameters.scheduleLatencyMinMs = 50
            parameters.scheduleLatencyMaxMs = 50
            configure(&parameters)
            daemon = AlarmKitDaemon(parameters: parameters, calendar: WallCalendar(zoneIdentifier: zone)!,
                                    streams: RandomStreams(seed: 7))
            daemon.screenLocked = false
            if let startTrueMs { trueMs = startTrueMs }
        }

        mutating func apply(_ effects: [DaemonEffect]) {
            for effect in effects {
                switch effect {
                case .later(let event, let afterMs): queue.schedule(event, at: trueMs + afterMs)
                case .alertStarted(let id, _): alerts.append((id, wallMs))
                case .toApp(.alarmUpdates(let list), _): snapshots.append(list)
                default: break
                }
            }
        }

        mutating func advance(byMs: Int64) {
            let until = trueMs + byMs
            while let next = queue.peekNext(), next.dueMs <= until {
                let event = queue.removeNext()
                trueMs = event.dueMs
                apply(daemon.handle(event.payload, nowWallMs: wallMs))
            }
            trueMs = until
        }

        mutating func schedule(_ name: String, _ schedule: RingSchedule, sound: String? = nil) -> AlarmUUID {
            let id = AlarmUUID.v5(namespace: AlarmUUID.dnsNamespace, name: name)
            let request = RingRequest(id: id, schedule: schedule, fireWallMs: 0,
                                      metadata: RingMetadata(rootID: name, alarmID: name, kind: .primary, token: nil, title: name),
                                      soundName: sound)
            apply(daemon.schedule(request))
            advance(byMs: 100)
            return id
        }

        mutating func setWallClock(byMs delta: Int64) {
            wallOffsetMs += delta
            apply(daemon.wallClockChanged(byMs: delta, nowWallMs: wallMs))
        }

        func alertWallTimes(_ id: AlarmUUID) -> [Int64] { alerts.filter { $0.id == id }.map(\.wallMs) }
    }

    static let berlin = WallCalendar(zoneIdentifier: "Europe/Berlin")!
    static let tokyo = WallCalendar(zoneIdentifier: "Asia/Tokyo")!

    @Test("a time-zone change moves a .relative alarm to the new zone's local time and leaves a .fixed instant alone (…/schedule-swift.enum/relative(_:), fixed(_:))")
    func zoneChange() {
        var driver = Driver()
        let start = driver.wallMs
        let fixedAt = Self.berlin.nextFire(hour: 7, minute: 0, weekday: nil, after: start + 3_600_000)
        let relative = driver.schedule("relative", .relative(hour: 7, minute: 0, weekday: nil))
        let fixed = driver.schedule("fixed", .fixed(wallMs: fixedAt))
        let snapshotsBefore = driver.snapshots.count
        driver.apply(driver.daemon.timeZoneChanged(to: "Asia/Tokyo", nowWallMs: driver.wallMs))
        #expect(driver.snapshots.count == snapshotsBefore)  // no state changed: no alarmUpdates
        let tokyoSeven = Self.tokyo.nextFire(hour: 7, minute: 0, weekday: nil, after: driver.wallMs)
        #expect(driver.daemon.alarm(relative)?.nextFireWallMs == tokyoSeven)
        #expect(driver.daemon.alarm(fixed)?.nextFireWallMs == fixedAt)
        driver.advance(byMs: 2 * 86_400_000)
        #expect(driver.alertWallTimes(relative) == [tokyoSeven])
        #expect(driver.alertWallTimes(fixed) == [fixedAt])
    }

    @Test("a manual wall-clock change re-arms alarms against the new clock: a .fixed instant alerts when the wall clock reaches it (PLATFORMS.md .fixed)")
    func wallClockBack() {
        var driver = Driver()
        let fixedAt = driver.wallMs + 3_600_000
        let fixed = driver.schedule("fixed", .fixed(wallMs: fixedAt))
        driver.setWallClock(byMs: -1_800_000)  // the clock is set back half an hour
        driver.advance(byMs: 3_600_000)
        #expect(driver.alertWallTimes(fixed).isEmpty)  // an hour of true time: the wall shows 30 min short
        driver.advance(byMs: 1_800_000)
        #expect(driver.alertWallTimes(fixed) == [fixedAt])
    }

    @Test("a wall-clock jump over an alarm's time: a .fixed alarm alerts at once; a .relative one per the parameter",
          arguments: [true, false])
    func wallClockJumpOver(relativeFires: Bool) {
        var driver = Driver { $0.jumpedOverRelativeFires = relativeFires }
        let start = driver.wallMs
        let seven = Self.berlin.nextFire(hour: 7, minute: 0, weekday: nil, after: start)
        let fixed = driver.schedule("fixed", .fixed(wallMs: seven))
        let relative = driver.schedule("relative", .relative(hour: 7, minute: 0, weekday: nil))
        driver.setWallClock(byMs: seven - start + 600_000)  // jump to 07:10
        driver.advance(byMs: 1_000)
        #expect(driver.alertWallTimes(fixed).count == 1)
        #expect(driver.alertWallTimes(relative).count == (relativeFires ? 1 : 0))
        if !relativeFires {
            #expect(driver.daemon.alarm(relative)?.nextFireWallMs == seven + 86_400_000)
        }
    }

    @Test("a weekly .relative alarm on a DST gap night follows the seed's policy (undocumented: parameter dstPolicy)",
          arguments: WallCalendar.DSTPolicy.Gap.allCases)
    func dstGap(gap: WallCalendar.DSTPolicy.Gap) {
        // Saturday 28 March 2026, noon Berlin; Sunday 29 March skips 02:00–03:00.
        let saturday = Self.berlin.instant(year: 2026, month: 3, day: 28, hour: 12, minute: 0)!
        var driver = Driver(startTrueMs: saturday) { $0.dstPolicy = .init(gap: gap) }
        let id = driver.schedule("weekly", .relative(hour: 2, minute: 30, weekday: .sunday))
        let expected = WallCalendar(zoneIdentifier: "Europe/Berlin", dstPolicy: .init(gap: gap))!
            .nextFire(hour: 2, minute: 30, weekday: .sunday, after: saturday)
        #expect(driver.daemon.alarm(id)?.nextFireWallMs == expected)
        let local = Self.berlin.local(expected)
        switch gap {
        case .nextHour: #expect(local.day == 29 && local.hour == 3 && local.minute == 0)
        case .preserveMinute: #expect(local.day == 29 && local.hour == 3 && local.minute == 30)
        case .skip: #expect(local.month == 4 && local.day == 5 && local.hour == 2 && local.minute == 30)
        }
    }

    @Test("the OS removes an alarm with no app call: nothing is returned, the next alarmUpdates snapshot lacks it (forums 825427; IOS-5)")
    func systemRemoval() {
        var driver = Driver()
        let kept = driver.schedule("kept", .fixed(wallMs: driver.wallMs + 600_000))
        let removed = driver.schedule("removed", .fixed(wallMs: driver.wallMs + 600_000))
        let effects = driver.daemon.systemRemove(removed, nowWallMs: driver.wallMs)
        #expect(!effects.contains { if case .toApp(.cancelCompleted, _) = $0 { return true }; return false })
        driver.apply(effects)
        #expect(driver.snapshots.last?.map(\.id) == [kept])
        driver.advance(byMs: 700_000)
        #expect(driver.alertWallTimes(removed).isEmpty)
        #expect(driver.alertWallTimes(kept).count == 1)
        if case .toApp(.cancelCompleted(_, .failure(.notFound)), _)? = driver.daemon.cancel(removed).first {} else {
            Issue.record("cancel of an alarm the OS removed must throw")
        }
    }

    @Test("a custom sound plays, or with the field fault the system tone replaces it; the state is alerting either way (forums 802620)",
          arguments: [false, true])
    func customSound(fails: Bool) {
        var driver = Driver { $0.customSoundFails = fails }
        let custom = driver.schedule("custom", .fixed(wallMs: driver.wallMs + 60_000), sound: "birds.caf")
        let plain = driver.schedule("plain", .fixed(wallMs: driver.wallMs + 60_000))
        driver.advance(byMs: 61_000)
        #expect(driver.daemon.alarm(custom)?.state == .alerting)
        #expect(driver.daemon.soundPlayed(custom) == (fails ? .systemFallback("birds.caf") : .custom("birds.caf")))
        #expect(driver.daemon.soundPlayed(plain) == .systemDefault)
    }

    @Test("Silent mode: alarms break through by default (Apple sample, IOS-3); under the [limit] parameter an alert is inaudible yet still reads alerting — the app reads only ID and state (IOS-4, IOS-6)",
          arguments: [false, true])
    func silentMode(silences: Bool) {
        var driver = Driver { $0.silentModeSilencesAlerts = silences }
        driver.daemon.silentMode = true
        let id = driver.schedule("a", .fixed(wallMs: driver.wallMs + 60_000))
        driver.advance(byMs: 61_000)
        #expect(driver.daemon.alarm(id)?.state == .alerting)
        #expect(driver.daemon.isAudible(id) == !silences)
        if case .success(let list) = driver.daemon.readAlarms() {
            #expect(list.first { $0.id == id }?.state == .alerting)
        }
        driver.daemon.silentMode = false
        #expect(driver.daemon.isAudible(id))
    }
}

extension AlarmKitDeviceChangeTests {
    @Test("field fault: schedule throws on every call despite authorization (nitro-ios-alarm-kit#1)")
    func scheduleAlwaysFails() {
        var driver = Driver { $0.scheduleAlwaysFails = true }
        #expect(driver.daemon.authorizationState == .authorized)
        for name in ["a", "b", "c"] {
            let id = driver.schedule(name, .fixed(wallMs: driver.wallMs + 60_000))
            #expect(driver.daemon.alarm(id) == nil)
        }
        #expect(driver.daemon.alarms.isEmpty)
    }
}

import Foundation
import AlarmBridge
import Testing

/// Recurrence (REC-1..10) and capacity (CAP-1..9), driven through the sans-I/O core.
struct RecurrenceCapacityTests {
    static let berlin = WallCalendar(zoneIdentifier: "Europe/Berlin")!

    /// Monday 2026-03-02 06:00 Berlin (the harness's start); tomorrow is Tuesday 2026-03-03.
    static let tomorrow = LocalDate(year: 2026, month: 3, day: 3)
    let daily = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly(Weekday.allCases), title: "Wake up",
                             skipDates: [RecurrenceCapacityTests.tomorrow])

    static func requests(_ commands: [BridgeCommand]) -> [RingRequest] {
        commands.compactMap { if case .schedule(let request, _) = $0 { return request }; return nil }
    }

    static func harness(flavor: PlatformFlavor = .ios, defects: KnownDefects = KnownDefects(),
                        configure: (inout BridgeConfiguration) -> Void = { _ in }) -> BridgeHarness {
        var harness = BridgeHarness(flavor: flavor, defects: defects)
        var configuration = BridgeConfiguration(flavor: flavor, calendar: berlin, defects: defects)
        configure(&configuration)
        harness.core = BridgeCore(configuration: configuration)
        _ = harness.send(.processStarted(.user))
        return harness
    }

    @Test("REC-3, REC-4: on iOS a weekly alarm with a skip date is registered as concrete .fixed occurrences, never on the skip date; a plain weekly one stays .relative (SCH-2)")
    func skipDatesBecomeFixedOccurrences() {
        var harness = Self.harness()
        _ = harness.send(.didBecomeActive)
        let commands = harness.send(.api(.saveAlarm(daily)))
        let primaries = Self.requests(commands).filter { $0.metadata.kind == .primary }
        #expect(primaries.count == 7)
        for primary in primaries {
            guard case .fixed(let fire) = primary.schedule else { Issue.record("not fixed: \(primary.schedule)"); continue }
            #expect(Self.berlin.localDate(fire) != Self.tomorrow)
            #expect(Self.berlin.local(fire).hour == 7 && Self.berlin.local(fire).minute == 0)
        }
        let plain = LogicalAlarm(id: "plain", hour: 7, minute: 0, repeats: .weekly([.monday]), title: "Plain")
        let relative = Self.requests(harness.send(.api(.saveAlarm(plain))))
        #expect(relative.map(\.schedule) == [.relative(hour: 7, minute: 0, weekday: .monday)])
    }

    @Test("REC-4 on Android: the next fixed primary skips the skip date")
    func androidSkipsSkipDate() throws {
        var harness = Self.harness(flavor: .android)
        let commands = harness.send(.api(.saveAlarm(daily)))
        let tuesday = try #require(Self.requests(commands).first { $0.metadata.rootID == "wake.tue" })
        #expect(Self.berlin.localDate(tuesday.fireWallMs) == LocalDate(year: 2026, month: 3, day: 10))
    }

    @Test("CAP-3, CAP-6, REC-5, REC-7: no seed from a direct save or while active; after backgrounding each skip-date root gets one seed at its next concrete occurrence")
    func seedsFollowBackgrounding() throws {
        var harness = Self.harness()
        _ = harness.send(.didBecomeActive)
        let saved = harness.send(.api(.saveAlarm(daily)))
        #expect(!Self.requests(saved).contains { $0.metadata.kind == .seed })
        let foreground = harness.send(.api(.syncEnabledAlarms))
        #expect(!Self.requests(foreground).contains { $0.metadata.kind == .seed })
        _ = harness.send(.willResignActive)
        let background = harness.send(.didEnterBackground)
        let seeds = Self.requests(background).filter { $0.metadata.kind == .seed }
        // H_SKIP 14 days: every root's following occurrence, except Tuesday's (its primary is
        // 03-10 after the skip date, so its next, 03-17, lies beyond the horizon).
        #expect(seeds.count == 6)
        #expect(Set(seeds.map(\.metadata.rootID)).count == 6 && !seeds.contains { $0.metadata.rootID == "wake.tue" })
        for seed in seeds {
            let primary = try #require(harness.stored?.rings.first { $0.metadata.rootID == seed.metadata.rootID && $0.metadata.kind == .primary })
            #expect(seed.fireWallMs - primary.fireWallMs == 7 * 86_400_000)  // no DST night in March 2-17
            #expect(seed.metadata.token == nil && !seed.metadata.kind.isOccurrenceBound)
        }
        // SCH-20: a second sync adds nothing.
        #expect(BridgeHarness.schedulerCalls(harness.send(.api(.syncEnabledAlarms))).isEmpty)
    }

    @Test("CAP-8: no seed beyond H_SKIP; CAP-7: the primary is registered however far away")
    func horizonBoundsSeedsOnly() {
        var harness = Self.harness { $0.skipHorizonMs = 3 * 86_400_000 }
        let alarm = LogicalAlarm(id: "sat", hour: 7, minute: 0, repeats: .weekly([.saturday]), title: "Sat",
                                 skipDates: [LocalDate(year: 2026, month: 3, day: 7)])
        _ = harness.send(.api(.saveAlarm(alarm)))
        let background = harness.send(.didEnterBackground)
        #expect(!Self.requests(background).contains { $0.metadata.kind == .seed })
        let primary = harness.stored?.rings.first { $0.metadata.kind == .primary }
        #expect(primary.map { $0.fireWallMs - harness.now.wallMs > 26 * 3_600_000 } == true)  // 2026-03-14, 12 days on
    }

    @Test("CAP-8, CAP-9: N_SKIP cuts concrete occurrences but never a configured primary, and the dropped count says how many; recomputed, it does not grow")
    func skipBoundIsCounted() {
        var harness = Self.harness { $0.skipOccurrenceMax = 3 }
        _ = harness.send(.api(.saveAlarm(daily)))
        _ = harness.send(.api(.syncEnabledAlarms))  // the sync, not the save (CAP-6), recounts
        // 7 primaries and 6 seeds wanted (Tuesday's seed is beyond H_SKIP); the primaries exceed
        // the bound and all stay (CAP-8, CAP-5), so every seed is cut.
        #expect(harness.stored?.droppedCount == 6)
        #expect(harness.stored?.dropped?.filter { $0.kind == .primary }.isEmpty == true)
        _ = harness.send(.didEnterBackground)
        _ = harness.send(.api(.syncEnabledAlarms))
        #expect(harness.stored?.droppedCount == 6)  // recomputed, never a running total
        #expect(harness.stored?.rings.filter { $0.metadata.kind == .seed }.isEmpty == true)
    }

    @Test("REC-1, REC-2: concrete occurrences derive from the stored hour and minute across a DST night; the dst-shifts-weekly-time defect adds 7 x 24 h")
    func occurrencesKeepLocalTimeAcrossDST() throws {
        for defective in [false, true] {
            var defects = KnownDefects()
            defects.dstShiftsWeeklyTime = defective
            var harness = Self.harness(defects: defects)
            harness.now.wallMs = Self.berlin.instant(year: 2026, month: 3, day: 26, hour: 20, minute: 0)!
            let alarm = LogicalAlarm(id: "sat", hour: 7, minute: 0, repeats: .weekly([.saturday]), title: "Sat",
                                     skipDates: [LocalDate(year: 2026, month: 12, day: 26)])
            _ = harness.send(.api(.saveAlarm(alarm)))
            let seed = try #require(Self.requests(harness.send(.didEnterBackground)).first { $0.metadata.kind == .seed })
            #expect(Self.berlin.localDate(seed.fireWallMs) == LocalDate(year: 2026, month: 4, day: 4))
            #expect((Self.berlin.local(seed.fireWallMs).hour == 7) != defective)  // 08:00 CEST with the defect
        }
    }

    @Test("REC-2: a first occurrence in the spring-forward gap is normalised; the next week's is at the stored time again (Android fixed primaries)")
    func gapNormalisesOnlyThatOccurrence() throws {
        var harness = Self.harness(flavor: .android)
        harness.now.wallMs = Self.berlin.instant(year: 2026, month: 3, day: 28, hour: 20, minute: 0)!
        let alarm = LogicalAlarm(id: "night", hour: 2, minute: 30, repeats: .weekly([.sunday]), title: "Night")
        let first = try #require(Self.requests(harness.send(.api(.saveAlarm(alarm)))).first)
        #expect(Self.berlin.local(first.fireWallMs).hour == 3)  // 02:30 does not exist on 03-29
        harness.now.wallMs = first.fireWallMs + 1_000
        var commands = harness.send(.alarmDelivered(first.id))
        commands += harness.send(.ringDismissed(first.id))  // SCH-22: the sync waits for the ring to end
        commands += harness.send(.api(.syncEnabledAlarms))
        let rolled = Self.requests(commands).filter { $0.metadata.kind == .primary }
        let next = try #require(rolled.first { $0.id != first.id })
        #expect(Self.berlin.localDate(next.fireWallMs) == LocalDate(year: 2026, month: 4, day: 5))
        #expect(Self.berlin.local(next.fireWallMs).hour == 2 && Self.berlin.local(next.fireWallMs).minute == 30)
    }

    @Test("REC-6: the delivery of a concrete occurrence makes the bridge sync, rolling the next occurrence into the primary")
    func deliveryRolls() throws {
        var harness = Self.harness()
        _ = harness.send(.api(.saveAlarm(daily)))
        _ = harness.send(.didEnterBackground)
        let monday = try #require(harness.stored?.rings.first { $0.metadata.rootID == "wake.mon" && $0.metadata.kind == .primary })
        harness.now.wallMs = monday.fireWallMs + 1_000
        harness.daemon = harness.daemon.map { $0.id == monday.id ? PlatformAlarm(id: $0.id, state: .alerting) : $0 }
        let commands = harness.send(.alarmUpdates(harness.daemon))
        #expect(commands.contains(.readInventory(.resumeSync)))
    }

    @Test("CAP-1, CAP-4, CAP-5, CAP-9: on the limit a primary reclaims only a later non-alerting seed and retries once; a failed retry is reported and counted")
    func limitReclaimsOneLaterSeed() throws {
        var harness = Self.harness()
        _ = harness.send(.api(.saveAlarm(daily)))
        _ = harness.send(.didEnterBackground)
        let seeds = harness.stored?.rings.filter { $0.metadata.kind == .seed } ?? []
        #expect(seeds.count == 6)
        // A new alarm's primary is refused by the daemon's limit.
        let extra = LogicalAlarm(id: "extra", hour: 6, minute: 30, repeats: .weekly([.wednesday]), title: "Extra")
        var core = harness.core
        var commands = core.handle(.api(.saveAlarm(extra)), at: harness.now)
        commands += core.handle(.inventoryRead(.directSave(alarmID: "extra"), .success(harness.daemon)), at: harness.now)
        let request = try #require(Self.requests(commands).first { $0.metadata.alarmID == "extra" })
        let first = core.handle(.scheduleCompleted(request.id, .failure(.maximumLimitReached)), at: harness.now)
        let cancelled = first.compactMap { if case .cancel(let id, _) = $0 { return id }; return nil }
        #expect(cancelled.count == 1)
        let reclaimed = try #require(seeds.first { $0.id == cancelled.first })
        #expect(reclaimed.fireWallMs > request.fireWallMs)
        #expect(reclaimed.fireWallMs == seeds.map(\.fireWallMs).max())  // the latest seed
        #expect(Self.requests(first).map(\.id) == [request.id])  // exactly one retry
        let second = core.handle(.scheduleCompleted(request.id, .failure(.maximumLimitReached)), at: harness.now)
        #expect(BridgeHarness.schedulerCalls(second).isEmpty)  // no second retry, no other cancel
        // API-19, SCH-10: a direct save the limit refused rejects as a whole with reason capacity
        // (what the user is shown) and leaves no half-saved alarm behind.
        harness.core = core
        harness.daemon.removeAll { $0.id == reclaimed.id }
        var rest = second + harness.send(.cancelCompleted(reclaimed.id, .success(0)))
        for _ in 0..<3 {
            harness.advance(100)
            rest += harness.send(.timerFired(.saveVerification))
        }
        let failures = rest.compactMap { command -> SaveFailureReason? in
            if case .reply(.saveFailed("extra", let reason)) = command { return reason }
            return nil
        }
        #expect(failures == [.capacity])
        #expect(harness.core.document?.alarm("extra") == nil)
    }

    @Test("CAP-4: without a later seed nothing is cancelled; the failure is counted at once")
    func limitWithoutSeedCounts() throws {
        var harness = Self.harness()
        var core = harness.core
        let alarm = LogicalAlarm(id: "one", hour: 7, minute: 0, repeats: .weekly([.monday]), title: "One")
        var commands = core.handle(.api(.saveAlarm(alarm)), at: harness.now)
        commands += core.handle(.inventoryRead(.directSave(alarmID: "one"), .success([])), at: harness.now)
        let request = try #require(Self.requests(commands).first)
        let failed = core.handle(.scheduleCompleted(request.id, .failure(.maximumLimitReached)), at: harness.now)
        #expect(BridgeHarness.schedulerCalls(failed).isEmpty)
        #expect(core.document?.droppedCount == 1)
        harness.core = core
    }

    @Test("CAP-2, CAP-3: the seed-before-primary defect registers seeds first, even while the app is active")
    func seedBeforePrimaryDefect() {
        var defects = KnownDefects()
        defects.seedBeforePrimary = true
        var harness = Self.harness(defects: defects)
        _ = harness.send(.didBecomeActive)
        let saved = Self.requests(harness.send(.api(.saveAlarm(daily))))
        #expect(!saved.contains { $0.metadata.kind == .seed })  // CAP-6: the direct save itself adds none
        harness.daemon = []  // the OS dropped everything: the next sync registers afresh
        let requests = Self.requests(harness.send(.api(.syncEnabledAlarms)))
        #expect(requests.first?.metadata.kind == .seed)
    }

    @Test("REC-8: after a time-zone change the running process re-plans every fixed occurrence in the new local frame")
    func zoneChangeReplansFixedOccurrences() throws {
        var harness = Self.harness()
        _ = harness.send(.api(.saveAlarm(daily)))
        _ = harness.send(.didEnterBackground)
        harness.now.zoneIdentifier = "Asia/Tokyo"
        let commands = harness.send(.clockChanged(zoneIdentifier: "Asia/Tokyo"))
        let tokyo = WallCalendar(zoneIdentifier: "Asia/Tokyo")!
        let replanned = Self.requests(commands).filter { $0.metadata.kind == .primary }
        #expect(!replanned.isEmpty)
        for request in replanned { #expect(tokyo.local(request.fireWallMs).hour == 7) }
        let held = harness.stored?.rings.filter { $0.metadata.kind == .primary } ?? []
        #expect(held.allSatisfy { tokyo.local($0.fireWallMs).hour == 7 })
    }

    @Test("REC-10: a manual clock correction neither ends nor restarts an active wake session (monotonic deadline)")
    func wakeSessionSurvivesClockCorrection() throws {
        var harness = BridgeCoreTests().stoppedAtRingTimeHarness()
        _ = harness.send(.didBecomeActive)
        _ = harness.send(.api(.setForegroundAlarmContext(ForegroundAlarmContext(wakeSessionEstablished: true))))
        #expect(harness.core.wakeSessionActive(at: harness.now))
        harness.now.wallMs += 3 * 3_600_000  // the user sets the clock 3 h forward: wall only
        _ = harness.send(.api(.setForegroundAlarmContext(ForegroundAlarmContext(wakeSessionEstablished: true))))
        #expect(harness.core.wakeSessionActive(at: harness.now))
        harness.now.monotonicMs += 30 * 60_000 + 1  // D_SESSION (30 min) of monotonic time
        #expect(!harness.core.wakeSessionActive(at: harness.now))
    }

    @Test("REC-4: documents without skip dates decode (older versions) and encode byte for byte as before")
    func skipDatesDecodeIfPresent() throws {
        let plain = LogicalAlarm(id: "a", hour: 7, minute: 0, repeats: .weekly([.monday]), title: "A")
        let encoded = try JSONEncoder().encode(plain)
        #expect(!String(decoding: encoded, as: UTF8.self).contains("skipDates"))
        #expect(try JSONDecoder().decode(LogicalAlarm.self, from: encoded) == plain)
        let withDates = try JSONDecoder().decode(LogicalAlarm.self, from: try JSONEncoder().encode(daily))
        #expect(withDates.skipDates == [Self.tomorrow])
    }
}

extension BridgeCoreTests {
    /// The harness of `stoppedAtRingTime`, without `throws` at the call site.
    func stoppedAtRingTimeHarness() -> BridgeHarness {
        (try? stoppedAtRingTime()) ?? BridgeHarness()
    }
}

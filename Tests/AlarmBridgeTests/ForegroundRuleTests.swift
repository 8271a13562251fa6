import AlarmBridge
import Testing

/// FG and API-3/9/17 rules, driven on the core directly.
struct ForegroundRuleTests {
    let weekly = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday, .wednesday]), title: "Wake up")

    func alertingAtRingTime(imminentHorizonMs: Int64 = 30_000) throws -> (BridgeHarness, AlarmUUID) {
        try BridgeHarness.atRingTime(imminentHorizonMs: imminentHorizonMs)
    }

    static func stops(_ commands: [BridgeCommand]) -> [AlarmUUID] {
        commands.compactMap { if case .stop(let id, _) = $0 { return id }; return nil }
    }

    @Test("FG-1, FG-2, OCC-10: foregrounding stops the alerting primary and completes nothing")
    func foregroundingSilences() throws {
        var (harness, primary) = try alertingAtRingTime()
        let token = try #require(harness.core.document?.liveOccurrence?.token)
        let commands = harness.send(.didBecomeActive)
        #expect(Self.stops(commands) == [primary])
        // OCC-10: the occurrence is still live, with the same token; nothing was acknowledged.
        #expect(harness.core.document?.liveOccurrence?.token == token)
        #expect(harness.core.foregroundSuppressed.map(\.ringID) == [primary])  // FG-2's proof
        // SCH-18: the proof does not survive backgrounding.
        _ = harness.send(.willResignActive)
        #expect(harness.core.foregroundSuppressed.isEmpty)
    }

    @Test("FG-2: foregrounding consumes a confirmed successor due within Δ_IMMINENT, not a later one",
          arguments: [(Int64(30_000), true), (Int64(5_000), false)])
    func imminentSuccessor(horizonMs: Int64, consumed: Bool) throws {
        var (harness, primary) = try BridgeHarness.atRingTime(imminentHorizonMs: horizonMs, deliver: false)
        _ = harness.send(.stopIntent(primary))  // OCC-6: one successor due in 10 s
        let successor = try #require(harness.core.document?.rings.first { $0.metadata.kind == .successor }).id
        let commands = harness.send(.didBecomeActive)
        let cancelled = commands.contains { if case .cancel(successor, _) = $0 { return true }; return false }
        #expect(cancelled == consumed)
    }

    @Test("SNZ-17: a sounding one-time snooze ring is not silenced by foregrounding")
    func snoozeRingKeepsSounding() throws {
        var (harness, _) = try alertingAtRingTime()
        _ = harness.send(.didBecomeActive)
        let live = try #require(harness.core.document?.liveOccurrence)
        _ = harness.send(.api(.beginOneTimeSnooze(untilMs: harness.now.wallMs + 60_000, occurrenceToken: live.token, alarmIDs: ["wake"])))
        let snooze = try #require(harness.core.document?.rings.first { $0.metadata.kind == .snooze }).id
        _ = harness.send(.willResignActive)
        _ = harness.send(.didEnterBackground)
        harness.advance(60_000)
        harness.daemon = harness.daemon.map { $0.id == snooze ? PlatformAlarm(id: snooze, state: .alerting) : $0 }
        _ = harness.send(.alarmUpdates(harness.daemon))
        let commands = harness.send(.didBecomeActive)
        #expect(!Self.stops(commands).contains(snooze))
    }

    @Test("FG-8, FG-11: a context claiming activity while the native lifecycle is inactive suppresses nothing; a context lapses after H_CTX")
    func contextIsAHintAndLapses() throws {
        var (harness, _) = try alertingAtRingTime()
        let visible = ForegroundAlarmContext(appActive: true, wakeSessionEstablished: true, challengeScreenVisible: true)
        _ = harness.send(.api(.setForegroundAlarmContext(visible)))
        #expect(!harness.core.challengeScreenVisible)  // FG-8: the app is not natively active
        #expect(!harness.core.appActive)
        _ = harness.send(.didBecomeActive)
        _ = harness.send(.api(.setForegroundAlarmContext(visible)))
        #expect(harness.core.challengeScreenVisible)
        harness.advance(harness.core.configuration.contextHeartbeatLifetimeMs - 1)
        _ = harness.send(.timerFired(.contextLapse))
        #expect(harness.core.challengeScreenVisible)  // not yet lapsed
        harness.advance(1)
        _ = harness.send(.timerFired(.contextLapse))
        #expect(!harness.core.challengeScreenVisible)  // FG-11: lapsed
    }

    @Test("FG-7: the older bundles' onChallengeScreen acknowledgement is honoured like the rendered signal")
    func onChallengeScreenHonoured() throws {
        // Δ_IMMINENT 0: the successor survives the activation, so only the context can remove it.
        var (harness, primary) = try alertingAtRingTime(imminentHorizonMs: 0)
        _ = harness.send(.stopIntent(primary))
        let successor = try #require(harness.core.document?.rings.first { $0.metadata.kind == .successor }).id
        harness.advance(2_000)
        _ = harness.send(.didBecomeActive)
        #expect(harness.core.document?.row(successor) != nil)
        let commands = harness.send(.api(.setForegroundAlarmContext(ForegroundAlarmContext(onChallengeScreen: true))))
        #expect(commands.contains { if case .cancel(successor, _) = $0 { return true }; return false })
    }

    @Test("FG-9, FG-10, FG-12: a wake session claimed without a native occurrence creates none; a claimed session lapses at D_SESSION")
    func wakeSessionNeverCreates() throws {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        _ = harness.send(.didBecomeActive)
        harness.advance(3_600_000 + 60_000)  // inside the 07:00 anchor window, nothing delivered
        _ = harness.send(.api(.setForegroundAlarmContext(ForegroundAlarmContext(wakeSessionEstablished: true, challengeScreenVisible: true))))
        #expect(harness.core.document?.liveOccurrence == nil)
        #expect(!harness.core.wakeSessionActive(at: harness.now))

        var (live, _) = try alertingAtRingTime()
        _ = live.send(.didBecomeActive)
        _ = live.send(.api(.setForegroundAlarmContext(ForegroundAlarmContext(wakeSessionEstablished: true, challengeScreenVisible: true))))
        #expect(live.core.wakeSessionActive(at: live.now))
        live.advance(live.core.configuration.wakeSessionDeadlineMs)
        // Refreshing the claim does not move its deadline (FG-12: explicit and bounded).
        _ = live.send(.api(.setForegroundAlarmContext(ForegroundAlarmContext(wakeSessionEstablished: true, challengeScreenVisible: true))))
        #expect(!live.core.wakeSessionActive(at: live.now))
    }

    @Test("API-9, ID-10: getAlertingAlarmIds returns root IDs, never ring UUIDs")
    func alertingIDsAreRoots() throws {
        var (harness, _) = try alertingAtRingTime()
        let commands = harness.send(.api(.getAlertingAlarmIds))
        #expect(commands.contains(.reply(.alertingAlarmIDs(["wake.mon"]))))
    }

    @Test("API-17, OCC-11: stopAlertingAlarms stops only the listed roots' alerts and completes nothing")
    func stopAlertingAlarms() throws {
        var (harness, primary) = try alertingAtRingTime()
        let other = harness.send(.api(.stopAlertingAlarms(alarmIDs: ["wake.wed"])))
        #expect(Self.stops(other).isEmpty)
        let commands = harness.send(.api(.stopAlertingAlarms(alarmIDs: ["wake.mon"])))
        #expect(Self.stops(commands) == [primary])
        #expect(harness.core.document?.liveOccurrence?.rootID == "wake.mon")  // OCC-11: still unfinished
    }
}

import AlarmBridge
import Foundation
import Testing

/// OCC, INACT, SNZ, ACT and API rules on the core, one property each.
struct LifecycleRuleTests {
    let weekly = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday, .wednesday]), title: "Wake up")

    func alerting(flavor: PlatformFlavor = .ios, alarm: LogicalAlarm? = nil) throws -> (BridgeHarness, AlarmUUID) {
        try BridgeHarness.atRingTime(flavor: flavor, alarm: alarm ?? weekly)
    }

    static func successors(_ harness: BridgeHarness) -> [RingRow] {
        harness.core.document?.rings.filter { $0.metadata.kind == .successor && !$0.delivered } ?? []
    }

    @Test("API-11, INACT-14, SNZ-23: getActiveWakeOccurrence reports policy, activity, expiry, offset; oneTimeSnoozeUntilMs only while armed")
    func activeWakeOccurrenceReport() throws {
        var (harness, primary) = try alerting()
        let ringTime = harness.now.wallMs
        _ = harness.send(.stopIntent(primary))  // INACT-4: genuine activity
        let reply = harness.send(.api(.getActiveWakeOccurrence)).compactMap { command -> ActiveWakeOccurrence? in
            if case .reply(.activeWakeOccurrence(let active?)) = command { return active }
            return nil
        }.first
        let active = try #require(reply)
        #expect(active.rootID == "wake.mon")
        #expect(active.occurrenceStartedAtMs == ringTime)
        #expect(active.inactivityPolicyVersion == .v3)
        #expect(active.lastMeaningfulActivityMs == harness.now.wallMs)
        #expect(active.effectiveExpiryMs == harness.now.wallMs + 30 * 60_000)
        #expect(active.inactivityClockOffsetMs == 0)
        #expect(active.oneTimeSnoozeUsed == false && active.oneTimeSnoozeUntilMs == nil)
        // API-2: what JS receives is a plain value: it round-trips through JSON unchanged.
        let data = try JSONEncoder().encode(active)
        #expect(try JSONDecoder().decode(ActiveWakeOccurrence.self, from: data) == active)
    }

    @Test("INACT-25, INACT-8: an occurrence takes its schedule's policy marker (2 here) and keeps it")
    func policyFromSchedule() throws {
        var alarm = weekly
        alarm.policy = .v2
        var (harness, _) = try alerting(alarm: alarm)
        #expect(harness.core.document?.liveOccurrence?.policy == .v2)
        #expect(harness.core.document?.liveOccurrence?.deadlineMs == harness.now.wallMs + 15 * 60_000)
        _ = harness.send(.processStarted(.user))
        #expect(harness.core.document?.liveOccurrence?.policy == .v2)
    }

    @Test("API-13, INACT-15: expireWakeOccurrence rejects before the deadline and changes nothing")
    func expireRejectsEarly() throws {
        var (harness, _) = try alerting()
        let live = try #require(harness.core.document?.liveOccurrence)
        let before = harness.core.document
        let commands = harness.send(.api(.expireWakeOccurrence(alarmIDs: ["wake.mon"], occurrenceStartedAtMs: live.startedAtMs, occurrenceToken: live.token)))
        #expect(commands.contains(.reply(.expired(false))))
        #expect(harness.core.document == before)
    }

    @Test("INACT-7, OCC-20: repeated dismissals keep the occurrence live; none revives it once expired")
    func dismissalsNeverRevive() throws {
        var (harness, primary) = try alerting(flavor: .android)
        _ = harness.send(.ringDismissed(primary))
        harness.advance(20 * 60_000)
        _ = harness.send(.ringDismissed(primary))
        #expect(harness.core.document?.liveOccurrence != nil)
        harness.advance(31 * 60_000)
        _ = harness.send(.timerFired(.expiryCheck))
        #expect(harness.core.document?.liveOccurrence == nil)
        _ = harness.send(.ringDismissed(primary))
        #expect(harness.core.document?.liveOccurrence == nil)
    }

    @Test("ACT-6, ACT-8, API-7, API-8: the same Stop handed over twice is journalled once; peek is pure; only the exact triple acknowledges")
    func duplicateActionOnce() throws {
        var (harness, primary) = try alerting()
        _ = harness.send(.stopIntent(primary))
        _ = harness.send(.stopIntent(primary))  // ACT-8: the platform repeats the action
        #expect(harness.core.document?.actions.count == 1)
        #expect(Self.successors(harness).count == 1)  // no second effect (ACT-6, OCC-7)
        let peek = harness.send(.api(.peekLastAlarmAction))
        let again = harness.send(.api(.peekLastAlarmAction))
        #expect(peek == again)
        let record = try #require(harness.core.document?.actions.first)
        _ = harness.send(.api(.acknowledgeLastAlarmAction(alarmID: record.alarmID, action: record.action, occurredAtMs: record.occurredAtMs - 1)))
        #expect(harness.core.document?.actions.count == 1)
        _ = harness.send(.api(.acknowledgeLastAlarmAction(alarmID: record.alarmID, action: record.action, occurredAtMs: record.occurredAtMs)))
        #expect(harness.core.document?.actions.isEmpty == true)
    }

    @Test("SNZ-8, SNZ-12, API-14: the snooze ring is kind one-time-snooze; before it, leaving arms a successor; while armed, none")
    func snoozeRingIsThePressure() throws {
        var (harness, _) = try alerting()
        _ = harness.send(.didBecomeActive)
        _ = harness.send(.willResignActive)  // SNZ-12: before any snooze, the ordinary rearm
        #expect(Self.successors(harness).count == 1)
        _ = harness.send(.didBecomeActive)
        _ = harness.send(.api(.setForegroundAlarmContext(ForegroundAlarmContext(challengeScreenVisible: true))))
        let live = try #require(harness.core.document?.liveOccurrence)
        let commands = harness.send(.api(.beginOneTimeSnooze(untilMs: harness.now.wallMs + 600_000, occurrenceToken: live.token, alarmIDs: ["wake"])))
        #expect(commands.contains(.reply(.snoozeAccepted(token: live.token, untilMs: harness.now.wallMs + 600_000))))
        let snooze = harness.core.document?.rings.filter { $0.metadata.kind == .snooze } ?? []
        #expect(snooze.count == 1 && snooze.first?.metadata.token == live.token)
        _ = harness.send(.willResignActive)
        #expect(Self.successors(harness).isEmpty)  // SNZ-10: the snooze ring holds the pressure
    }

    @Test("SNZ-13: a spent snooze ring whose delivery and stop arrive in one coalesced update is retired as delivered")
    func coalescedSnoozeRetired() throws {
        var (harness, _) = try alerting()
        _ = harness.send(.didBecomeActive)
        let live = try #require(harness.core.document?.liveOccurrence)
        _ = harness.send(.api(.beginOneTimeSnooze(untilMs: harness.now.wallMs + 60_000, occurrenceToken: live.token, alarmIDs: ["wake"])))
        let snooze = try #require(harness.core.document?.rings.first { $0.metadata.kind == .snooze })
        _ = harness.send(.willResignActive)
        _ = harness.send(.didEnterBackground)
        harness.advance(90_000)
        harness.daemon.removeAll { $0.id == snooze.id }  // delivered and stopped inside one update
        _ = harness.send(.alarmUpdates(harness.daemon))
        #expect(harness.core.document?.row(snooze.id)?.delivered != false)
        #expect(harness.core.document?.liveOccurrence?.oneTimeSnoozeUsed == true)  // the latch stays spent
        #expect(Self.successors(harness).count == 1)  // OCC-5: its end arms the ordinary successor
    }

    @Test("API-15, SNZ-15: skipOneTimeSnooze needs the exact token; the wrong one changes nothing")
    func skipNeedsExactToken() throws {
        var (harness, _) = try alerting()
        _ = harness.send(.didBecomeActive)
        let live = try #require(harness.core.document?.liveOccurrence)
        _ = harness.send(.api(.beginOneTimeSnooze(untilMs: harness.now.wallMs + 60_000, occurrenceToken: live.token, alarmIDs: ["wake"])))
        let before = harness.core.document
        let commands = harness.send(.api(.skipOneTimeSnooze(occurrenceToken: "not-the-token", alarmIDs: ["wake"])))
        #expect(commands.contains { if case .reply(.skipRejected) = $0 { return true }; return false })
        #expect(harness.core.document == before)
    }

    @Test("OCC-15, OCC-12: completing the occurrence retires only its own retries; the other weekday root stays armed")
    func completionScope() throws {
        var (harness, primary) = try alerting()
        _ = harness.send(.stopIntent(primary))
        let successor = try #require(Self.successors(harness).first)
        let wednesday = try #require(harness.core.document?.rings.first { $0.metadata.rootID == "wake.wed" && $0.metadata.kind == .primary })
        let live = try #require(harness.core.document?.liveOccurrence)
        let commands = harness.send(.api(.completeChallenge(rootID: live.rootID, occurrenceToken: live.token)))
        #expect(commands.contains { if case .cancel(successor.id, _) = $0 { return true }; return false })
        #expect(!commands.contains { if case .cancel(wednesday.id, _) = $0 { return true }; return false })
    }

    @Test("OCC-22, OCC-16: a process opened during the silent gap recovers the owner from the durable record, with its token")
    func ownerFromDurableRecord() throws {
        var (harness, primary) = try alerting()
        _ = harness.send(.stopIntent(primary))
        let token = try #require(harness.core.document?.liveOccurrence?.token)
        harness.core = BridgeCore(configuration: harness.core.configuration)  // process death
        harness.advance(5_000)  // the silent gap before the successor
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.didBecomeActive)
        #expect(harness.core.document?.liveOccurrence?.token == token)
        #expect(harness.core.document?.liveOccurrence?.rootID == "wake.mon")
    }

    @Test("OCC-23: a Start wake-up check from a ring that is not the live occurrence's is ignored")
    func staleHandoffRejected() throws {
        var (harness, _) = try alerting(flavor: .android)
        let wednesday = try #require(harness.core.document?.rings.first { $0.metadata.rootID == "wake.wed" }).id
        let commands = harness.send(.startWakeUpCheck(wednesday))
        #expect(!commands.contains(.setMainActivityShowWhenLocked(true)))
    }
}

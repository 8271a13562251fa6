import AlarmBridge
import Foundation
import Testing

/// The iOS walk fuse in the sans-I/O core (WALK-1..26, FG-5), driven by hand through `BridgeHarness`.
struct WalkFuseTests {
    let walkAlarm = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday]), title: "Wake up",
                                 challenge: .walk)

    static func requests(_ commands: [BridgeCommand], kind: RingKind) -> [RingRequest] {
        commands.compactMap { command in
            if case .schedule(let request, _) = command, request.metadata.kind == kind { return request }
            return nil
        }
    }

    static func cancelIndex(_ commands: [BridgeCommand], _ id: AlarmUUID) -> Int? {
        commands.firstIndex { if case .cancel(id, _) = $0 { return true }; return false }
    }

    /// A walk alarm saved with Health access; at its Monday ring time the user presses Stop, opens
    /// the app and starts the walk check, which HealthKit confirms in the foreground.
    /// A started walk whose app just resigned active: the provisional fuse is armed (WALK-8).
    func provisionalFuse() throws -> (BridgeHarness, AlarmUUID) {
        var harness = try startedWalk()
        _ = harness.send(.workoutCollectionConfirmed)
        _ = harness.send(.willResignActive)
        return (harness, try #require(harness.stored?.walk?.fuseID))
    }

    func startedWalk(flavor: PlatformFlavor = .ios, defects: KnownDefects = KnownDefects()) throws -> BridgeHarness {
        var harness = BridgeHarness(flavor: flavor, defects: defects)
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.healthAccessObserved(granted: true))
        _ = harness.send(.api(.saveAlarm(walkAlarm)))
        let primary = try #require(harness.daemon.first { harness.stored?.row($0.id)?.metadata.kind == .primary }).id
        harness.advance(3_600_000)
        _ = harness.send(flavor == .ios ? .stopIntent(primary) : .alarmDelivered(primary))
        _ = harness.send(.didBecomeActive)
        _ = harness.send(.api(.setForegroundAlarmContext(ForegroundAlarmContext(challengeScreenVisible: true))))  // OCC-9: the Stop's successor goes
        let start = harness.send(.api(.startWalkCheck(alarmIDs: ["wake"])))
        if flavor == .ios { #expect(start.contains(.startWorkout)) }
        _ = harness.send(.workoutSessionConfirmed)
        return harness
    }

    @Test("older documents decode: an alarm without `challenge` is no walk, a document without walk state has none")
    func olderDocumentsDecode() throws {
        var document = BridgeDocument()
        document.alarms = [LogicalAlarm(id: "old", hour: 6, minute: 30, repeats: .weekly([.friday]), title: "Old")]
        let data = try JSONEncoder().encode(document)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var alarms = try #require(object["alarms"] as? [[String: Any]])
        alarms[0].removeValue(forKey: "challenge")
        object["alarms"] = alarms
        object.removeValue(forKey: "walk")
        object.removeValue(forKey: "diagnostics")
        let old = try JSONSerialization.data(withJSONObject: object)
        let decoded = try JSONDecoder().decode(BridgeDocument.self, from: old)
        #expect(decoded.alarms.first?.challenge == ChallengeKind.none)
        #expect(decoded.walk == nil && decoded.diagnostics == nil)
    }

    @Test("WALK-4: saving a walk alarm and starting a walk check both reject without Health access")
    func healthAccessRequired() throws {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        let save = harness.send(.api(.saveAlarm(walkAlarm)))
        #expect(save.contains { if case .reply(.saveRejected(alarmID: "wake", _)) = $0 { return true }; return false })
        #expect(harness.stored?.alarm("wake") == nil && BridgeHarness.schedulerCalls(save).isEmpty)
        _ = harness.send(.healthAccessObserved(granted: true))
        _ = harness.send(.api(.saveAlarm(walkAlarm)))
        let primary = try #require(harness.daemon.first).id
        harness.advance(3_600_000)
        _ = harness.send(.stopIntent(primary))
        _ = harness.send(.didBecomeActive)
        _ = harness.send(.healthAccessObserved(granted: false))
        let start = harness.send(.api(.startWalkCheck(alarmIDs: ["wake"])))
        #expect(!start.contains(.startWorkout))
        #expect(start.contains { if case .reply(.walkCheckRejected) = $0 { return true }; return false })
    }

    @Test("WALK-3, WALK-5, WALK-8: started only after both confirmations in the foreground; no fuse in the foreground; resign-active arms one provisional fuse at +60 s instead of a successor")
    func provisionalFuseAtResign() throws {
        var harness = try startedWalk()
        let confirmed = harness.send(.workoutCollectionConfirmed)
        let token = try #require(harness.stored?.liveOccurrence?.token)
        #expect(confirmed.contains(.reply(.walkStarted(token: token))))
        #expect(Self.requests(confirmed, kind: .walkFuse).isEmpty)  // WALK-5
        harness.advance(10_000)
        let resign = harness.send(.willResignActive)
        let fuses = Self.requests(resign, kind: .walkFuse)
        #expect(fuses.count == 1)
        #expect(fuses.first?.fireWallMs == harness.now.wallMs + 60_000)
        #expect(fuses.first?.metadata.token == token)
        #expect(Self.requests(resign, kind: .successor).isEmpty)  // FG-5
        harness.advance(1_500)
        let background = harness.send(.didEnterBackground)
        #expect(BridgeHarness.schedulerCalls(background).isEmpty)  // WALK-10: the deadline stays
    }

    @Test("WALK-3: confirmations that arrive after the app left the foreground do not start the walk; leaving arms the ordinary successor")
    func confirmationInBackgroundDoesNotStart() throws {
        var harness = try startedWalk()
        let resign = harness.send(.willResignActive)
        #expect(Self.requests(resign, kind: .successor).count == 1)
        let confirmed = harness.send(.workoutCollectionConfirmed)
        #expect(!confirmed.contains { if case .reply(.walkStarted) = $0 { return true }; return false })
        #expect(harness.stored?.walk?.phase == .starting)
    }

    @Test("WALK-11, WALK-12, WALK-15: an accepted step moves the one fuse to step + 30..35 s, arming the replacement before the predecessor is cancelled; steps inside the tolerance need no rotation")
    func stepRotatesTransactionally() throws {
        var (harness, provisional) = try provisionalFuse()
        harness.advance(4_000)
        let step = harness.send(.stepsObserved)
        let replacement = try #require(Self.requests(step, kind: .walkFuse).first)
        #expect(replacement.fireWallMs - harness.now.wallMs >= 30_000 && replacement.fireWallMs - harness.now.wallMs <= 35_000)
        let scheduled = try #require(step.firstIndex { if case .schedule(replacement, _) = $0 { return true }; return false })
        let cancelled = try #require(Self.cancelIndex(step, provisional))
        #expect(scheduled < cancelled)
        #expect(harness.daemon.filter { harness.stored?.row($0.id)?.metadata.kind == .walkFuse }.count == 1)  // WALK-16
        harness.advance(3_000)
        #expect(BridgeHarness.schedulerCalls(harness.send(.stepsObserved)).isEmpty)
        #expect(harness.stored?.liveOccurrence?.lastActivityMs == harness.now.wallMs)  // INACT-4
    }

    @Test("WALK-9: returning active without a background edge (Control Center) cancels the provisional fuse")
    func controlCenterCancels() throws {
        var (harness, fuse) = try provisionalFuse()
        harness.advance(5_000)
        let back = harness.send(.didBecomeActive)
        #expect(Self.cancelIndex(back, fuse) != nil)
        #expect(harness.stored?.walk?.fuseID == nil && harness.stored?.walk?.handoffAtMs == nil)
    }

    @Test("WALK-23, WALK-21: workout loss arms the ordinary successor at +10 s and retires the fuse only after it was accepted")
    func workoutLossHandsBack() throws {
        var (harness, fuse) = try provisionalFuse()
        harness.advance(10_000)
        let lost = harness.send(.workoutLost)
        let successor = try #require(Self.requests(lost, kind: .successor).first)
        #expect(successor.fireWallMs == harness.now.wallMs + 10_000)
        let completed = try #require(lost.firstIndex { if case .schedule(successor, _) = $0 { return true }; return false })
        let cancelled = try #require(Self.cancelIndex(lost, fuse))
        #expect(completed < cancelled)
        #expect(harness.stored?.walk?.phase == .lost)
    }

    @Test("WALK-20, WALK-24: while the walk fuse holds the pressure a repeated rearm arms no ordinary successor; a snooze retires the fuse")
    func walkOwnsRearm() throws {
        var harness = try startedWalk()
        _ = harness.send(.workoutCollectionConfirmed)
        _ = harness.send(.willResignActive)
        let again = harness.send(.timerFired(.armRetry))
        #expect(Self.requests(again, kind: .successor).isEmpty)
        let token = try #require(harness.stored?.liveOccurrence?.token)
        _ = harness.send(.didBecomeActive)
        let snooze = harness.send(.api(.beginOneTimeSnooze(untilMs: harness.now.wallMs + 300_000, occurrenceToken: token, alarmIDs: ["wake"])))
        #expect(snooze.contains(.reply(.snoozeAccepted(token: token, untilMs: harness.now.wallMs + 300_000))))
        let resign = harness.send(.willResignActive)
        #expect(Self.requests(resign, kind: .walkFuse).isEmpty && Self.requests(resign, kind: .successor).isEmpty)  // SNZ-10
    }

    @Test("WALK-6: the diagnostics journal stays within its bound and records no health data")
    func diagnosticsBounded() throws {
        var harness = try startedWalk()
        _ = harness.send(.workoutCollectionConfirmed)
        _ = harness.send(.willResignActive)
        for _ in 0..<80 {
            harness.advance(6_000)
            _ = harness.send(.stepsObserved)
        }
        let journal = try #require(harness.stored?.diagnostics)
        #expect(journal.count == 48)
        #expect(journal.contains { $0.event == .fuseRotationCommitted })
        // Only a time, a closed-vocabulary event and a root: no field could hold a step count.
        let objects = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(journal)) as? [[String: Any]])
        #expect(objects.allSatisfy { Set($0.keys).isSubset(of: ["atMs", "event", "rootID"]) })
    }

    @Test("the fuse-retire-before-arm defect cancels the predecessor before the replacement is accepted (the defect has teeth)")
    func retireBeforeArmDefect() throws {
        var defects = KnownDefects()
        defects.fuseRetireBeforeArm = true
        var harness = try startedWalk(defects: defects)
        _ = harness.send(.workoutCollectionConfirmed)
        _ = harness.send(.willResignActive)
        let provisional = try #require(harness.stored?.walk?.fuseID)
        harness.advance(4_000)
        let step = harness.send(.stepsObserved)
        let replacement = try #require(Self.requests(step, kind: .walkFuse).first)
        let scheduled = try #require(step.firstIndex { if case .schedule(replacement, _) = $0 { return true }; return false })
        #expect(try #require(Self.cancelIndex(step, provisional)) < scheduled)
    }

    @Test("Android has no walk fuse: the walk check is rejected and leaving arms the ordinary successor")
    func androidUnaffected() throws {
        var harness = try startedWalk(flavor: .android)
        _ = harness.send(.workoutCollectionConfirmed)
        #expect(harness.stored?.walk == nil && harness.stored?.diagnostics == nil)
        let resign = harness.send(.willResignActive)
        #expect(Self.requests(resign, kind: .walkFuse).isEmpty)
        #expect(Self.requests(resign, kind: .successor).count == 1)
    }
}

/// Recovery of a walk by a process HealthKit relaunched (WALK-2, WALK-7, WALK-19..22, WALK-26).
struct WalkRecoveryTests {
    @Test("WALK-2: the workout's background-task identifier is among the app's declared identifiers")
    func declaredIdentifier() {
        #expect(BridgeConfiguration.declaredBackgroundTaskIdentifiers.contains("com.bonkalarm.app.healthkit-workout"))
        #expect(BridgeConfiguration.workoutBackgroundTaskIdentifier == "com.bonkalarm.app.healthkit-workout")
    }

    @Test("WALK-7, WALK-19, WALK-20, WALK-22, WALK-26: a recovered process looks back only at the post-handoff part of the last 30 s, relocates the same fuse transactionally, arms no ordinary successor and leaves no fallback beside the fuse")
    func recoveryRelocatesTheFuse() throws {
        var first = try WalkFuseTests().startedWalk()
        _ = first.send(.workoutCollectionConfirmed)
        _ = first.send(.willResignActive)
        let handoff = first.now.wallMs
        let fuse = try #require(first.stored?.walk?.fuseID)
        // The process dies; HealthKit relaunches it 12 s after the handoff.
        var second = BridgeHarness()
        second.daemon = first.daemon
        second.stored = first.stored
        second.now = first.now
        second.advance(12_000)
        _ = second.send(.processStarted(.workoutRecovery))
        _ = second.send(.healthAccessObserved(granted: true))
        let recovered = second.send(.workoutRecovered)
        let query = try #require(recovered.compactMap { command -> (Int64, Int64)? in
            if case .queryRecentSteps(let from, let to) = command { return (from, to) }
            return nil
        }.first)
        #expect(query.0 == max(handoff, second.now.wallMs - 30_000) && query.1 == second.now.wallMs)
        #expect(WalkFuseTests.requests(second.send(.timerFired(.armRetry)), kind: .successor).isEmpty)  // WALK-20
        let step = second.now.wallMs - 4_000
        let relocated = second.send(.recentStepsQueried(latestStepWallMs: step))
        let replacement = try #require(WalkFuseTests.requests(relocated, kind: .walkFuse).first)
        #expect(replacement.fireWallMs >= step + 30_000 && replacement.fireWallMs <= step + 35_000)
        let scheduled = try #require(relocated.firstIndex { if case .schedule(replacement, _) = $0 { return true }; return false })
        #expect(try #require(WalkFuseTests.cancelIndex(relocated, fuse)) > scheduled)  // WALK-19: arm, then retire
        #expect(second.stored?.walk?.recovering == false && second.stored?.walk?.fuseID == replacement.id)
        #expect(!second.daemon.contains { second.stored?.row($0.id)?.metadata.kind == .successor })  // WALK-22
    }

    @Test("WALK-26: a step before the handoff or older than 30 s does not move the fuse")
    func lookBackIsBounded() throws {
        var first = try WalkFuseTests().startedWalk()
        _ = first.send(.workoutCollectionConfirmed)
        let beforeHandoff = first.now.wallMs - 1_000
        _ = first.send(.willResignActive)
        first.advance(20_000)
        _ = first.send(.workoutRecovered)
        let answer = first.send(.recentStepsQueried(latestStepWallMs: beforeHandoff))
        #expect(WalkFuseTests.requests(answer, kind: .walkFuse).isEmpty)
        #expect(first.stored?.walk?.lastAcceptedStepMs == nil)
    }
}

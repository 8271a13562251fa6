import AlarmBridge
import Foundation
import Testing

/// The Android occurrence rules of the core, driven by hand: AND-11, AND-13, AND-14, AND-15,
/// AND-16, AND-17, AND-18, API-16, SNZ-18, INACT-6.
struct BridgeCoreAndroidTests {
    let monday = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday]), title: "Wake up")

    /// A harness with the Monday alarm saved; returns it and the primary's request.
    func saved(_ flavor: PlatformFlavor = .android, defects: KnownDefects = KnownDefects()) -> (BridgeHarness, RingRequest) {
        var harness = BridgeHarness(flavor: flavor, defects: defects)
        _ = harness.send(.processStarted(.user))
        let commands = harness.send(.api(.saveAlarm(monday)))
        let primary = commands.compactMap { command -> RingRequest? in
            if case .schedule(let request, _) = command, request.metadata.kind == .primary { return request }
            return nil
        }.min { $0.fireWallMs < $1.fireWallMs }!
        return (harness, primary)
    }

    /// Advances the harness to `wallMs` (both clocks move).
    func move(_ harness: inout BridgeHarness, to wallMs: Int64) {
        harness.advance(wallMs - harness.now.wallMs)
    }

    static func scheduled(_ commands: [BridgeCommand], kind: RingKind) -> [RingRequest] {
        commands.compactMap { command in
            if case .schedule(let request, _) = command, request.metadata.kind == kind { return request }
            return nil
        }
    }

    static func startsRinging(_ commands: [BridgeCommand], _ id: AlarmUUID) -> Bool {
        commands.contains { $0 == .startRinging(id) || $0 == .startRingingSuppressionExempt(id) }
    }

    @Test("[derived] AND-1, AND-3: a primary setAlarmClock refuses is kept as an inexact allow-while-idle ring, reported inexact, and made exact again on the grant")
    func refusedExactKeepsInexactRing() throws {
        var harness = BridgeHarness(flavor: .android)
        harness.exactRefused = true
        _ = harness.send(.processStarted(.user))
        let save = harness.send(.api(.saveAlarm(monday)))
        let requests = Self.scheduled(save, kind: .primary)
        #expect(requests.map(\.precision) == [nil, .allowWhileIdle])  // refused, then degraded, same ID
        #expect(Set(requests.map(\.id)).count == 1)
        #expect(save.contains(.reply(.saved(alarmID: "wake"))))
        let times = harness.send(.api(.getScheduledAlarmTimes)).compactMap { command -> ScheduledAlarmTimes? in
            if case .reply(.scheduledAlarmTimes(let times)) = command { return times }
            return nil
        }
        let row = try #require(times.first?.roots.first)
        #expect(row.registered && row.inexact)
        harness.exactRefused = false
        let grant = harness.send(.exactAlarmPermissionGranted)
        #expect(Self.scheduled(grant, kind: .primary).contains { $0.id == requests[0].id && $0.precision == nil })
        #expect(harness.core.document?.row(requests[0].id)?.inexact == nil)
    }

    @Test("the keeps-nothing-when-exact-refused defect drops the refused primary (the known defect has teeth)")
    func refusedExactDefectKeepsNothing() {
        var defects = KnownDefects()
        defects.keepsNothingWhenExactRefused = true
        var harness = BridgeHarness(flavor: .android, defects: defects)
        harness.exactRefused = true
        _ = harness.send(.processStarted(.user))
        let save = harness.send(.api(.saveAlarm(monday)))
        #expect(Self.scheduled(save, kind: .primary).allSatisfy { $0.precision == nil })
        #expect(harness.daemon.isEmpty)
    }

    static func armRetryDelay(_ commands: [BridgeCommand]) -> Int64? {
        commands.compactMap { command -> Int64? in
            if case .setTimer(.armRetry, let delayMs) = command { return delayMs }
            return nil
        }.last
    }

    @Test("OCC-5, [derived] WALK-18: a refused successor arm is asked again while the process lives, 1 s apart for the first armRetryMax refusals, then with doubling backoff (android uniform seed 34730)")
    func refusedSuccessorIsRetriedWithBackoff() throws {
        var (harness, primary) = saved()
        move(&harness, to: primary.fireWallMs)
        _ = harness.send(.alarmDelivered(primary.id))
        harness.advance(20_000)
        // Seven refusals: the dismissal's step asks twice (the harness answers at once; a request
        // of that step lands in between, which resets the series, and the step re-arms the
        // refused successor), then the `armRetry` timer asks again until the eighth request lands.
        harness.refusedSuccessors = 7
        var commands = harness.send(.ringDismissed(primary.id))
        var delays: [Int64] = []
        var refused = Self.scheduled(commands, kind: .successor).count
        while let delay = Self.armRetryDelay(commands), delays.count < 10 {
            delays.append(delay)
            harness.advance(delay)
            commands = harness.send(.timerFired(.armRetry))
            refused += Self.scheduled(commands, kind: .successor).count
        }
        #expect(refused == 8)
        #expect(delays == [1_000, 1_000, 1_000, 2_000, 4_000, 8_000])
        let landed = try #require(Self.scheduled(commands, kind: .successor).first)
        #expect(harness.daemon.contains { $0.id == landed.id })
        // The backoff is bounded by the primary retry's 5 min.
        #expect(BridgeConfiguration.defaultSuccessorRetryDelayMs(afterRefusals: 40) == BridgeConfiguration.primaryRetryBoundMs)
    }

    @Test("[derived] AND-1, AND-3, INACT-2: an undelivered inexact one-shot the platform lost hours after its ring time is added back while a legacy occurrence could still live, and recorded missed under policy 3 (android swarm seed 49170)",
          arguments: [(InactivityPolicy.legacy, true), (.v3, false)])
    func lostHeldInexactPrimary(policy: InactivityPolicy, addedBack: Bool) throws {
        var first = BridgeHarness(flavor: .android)
        first.exactRefused = true
        _ = first.send(.processStarted(.user))
        let fireWallMs = first.now.wallMs + 3_600_000
        let once = LogicalAlarm(id: "once", hour: 7, minute: 0, repeats: .once(fireWallMs: fireWallMs), title: "Once", policy: policy)
        _ = first.send(.api(.saveAlarm(once)))
        let primary = try #require(first.stored?.rings.first { $0.metadata.kind == .primary })
        #expect(primary.inexact == true && primary.fireWallMs == fireWallMs)
        // The ring is held (Restricted battery) and never delivered; an update clears AlarmManager
        // 3.5 h after its ring time and MY_PACKAGE_REPLACED starts a new process.
        var second = BridgeHarness(flavor: .android)
        second.exactRefused = true
        second.stored = first.stored
        second.advance(fireWallMs + 3 * 3_600_000 + 1_800_000 - second.now.wallMs)
        let launch = second.send(.processStarted(.broadcast))
        #expect(Self.scheduled(launch, kind: .primary).contains { $0.id == primary.id && $0.fireWallMs == fireWallMs } == addedBack)
        #expect(second.stored?.missReceipts.contains { $0.reason == MissReceipt.missedReason } == !addedBack)
    }

    @Test("[derived] AND-1, AND-3, OCC-20: an undelivered inexact day the platform lost is over once its alarm is turned off after its ring time: enabling it again adds nothing back and records nothing (android uniform seeds 78528, 86913)")
    func disabledAfterRingTimeEndsLostInexactDay() throws {
        var first = BridgeHarness(flavor: .android)
        first.exactRefused = true
        _ = first.send(.processStarted(.user))
        let fireWallMs = first.now.wallMs + 3_600_000
        var once = LogicalAlarm(id: "once", hour: 7, minute: 0, repeats: .once(fireWallMs: fireWallMs), title: "Once", policy: .legacy)
        _ = first.send(.api(.saveAlarm(once)))
        let primary = try #require(first.stored?.rings.first { $0.metadata.kind == .primary })
        #expect(primary.inexact == true)
        // AlarmManager loses the held ring undelivered; 30 min after its ring time the user turns
        // the alarm off, and 30 min later on again.
        first.advance(fireWallMs + 1_800_000 - first.now.wallMs)
        first.daemon.removeAll()
        once.enabled = false
        _ = first.send(.api(.saveAlarm(once)))
        #expect(first.stored?.row(primary.id)?.dayEndedByDisable == true)
        first.advance(1_800_000)
        once.enabled = true
        let enable = first.send(.api(.saveAlarm(once))) + first.send(.api(.syncEnabledAlarms))
        #expect(!Self.scheduled(enable, kind: .primary).contains { $0.id == primary.id })
        // A new process (a legacy day would still be due for 20 h) neither adds it back nor records it.
        var second = BridgeHarness(flavor: .android)
        second.stored = first.stored
        second.advance(first.now.wallMs + 600_000 - second.now.wallMs)
        let launch = second.send(.processStarted(.broadcast))
        #expect(!Self.scheduled(launch, kind: .primary).contains { $0.id == primary.id })
        #expect(second.stored?.missReceipts.contains { $0.reason == MissReceipt.missedReason } == false)
    }

    @Test("AND-13, AND-14, AND-19: completion discards the pending retry, and its late delivery rings nothing and opens no occurrence")
    func lateRetryOfClosedOccurrenceRingsNothing() {
        var (harness, primary) = saved()
        move(&harness, to: primary.fireWallMs)
        #expect(Self.startsRinging(harness.send(.alarmDelivered(primary.id)), primary.id))
        harness.advance(20_000)
        let dismissed = harness.send(.ringDismissed(primary.id))
        let retry = try! #require(Self.scheduled(dismissed, kind: .successor).first)
        #expect(retry.metadata.token == harness.core.document?.liveOccurrence?.token)  // bound to (root, token)
        let live = harness.core.document!.liveOccurrence!
        let completion = harness.send(.api(.completeChallenge(rootID: live.rootID, occurrenceToken: live.token)))
        #expect(completion.contains { $0 == .cancel(retry.id, origin: .completion) })
        let occurrences = harness.core.document!.occurrences.count
        harness.advance(3_600_000)  // AlarmManager delivers it an hour late (doze)
        let late = harness.send(.alarmDelivered(retry.id))
        #expect(!Self.startsRinging(late, retry.id))
        #expect(harness.core.document!.liveOccurrence == nil)
        #expect(harness.core.document!.occurrences.count == occurrences)
    }

    @Test("INACT-6: a volume dismissal of the ringing owner ring moves the deadline; one of a ring that no longer rings earns nothing")
    func volumeDismissalIsValidated() {
        var (harness, primary) = saved()
        move(&harness, to: primary.fireWallMs)
        _ = harness.send(.alarmDelivered(primary.id))
        harness.advance(60_000)
        _ = harness.send(.volumeDismissal(primary.id, .volumeKey))
        let credited = harness.now.wallMs
        #expect(harness.core.document!.liveOccurrence!.lastActivityMs == credited)
        harness.advance(60_000)
        let stale = harness.send(.volumeDismissal(primary.id, .volumeLowered))  // it was stopped a minute ago
        #expect(harness.core.document!.liveOccurrence!.lastActivityMs == credited)
        #expect(stale.contains { if case .note(let text) = $0 { return text.hasPrefix("INACT-6") }; return false })
    }

    @Test("API-16: reconcileStepSuppressionTracking registers the listener for rings due within W_STEP on Android, and is unsupported on iOS",
          arguments: PlatformFlavor.allCases)
    func reconcileStepTracking(flavor: PlatformFlavor) {
        var (harness, primary) = saved(flavor)
        move(&harness, to: primary.fireWallMs - 30_000)
        let commands = harness.send(.api(.reconcileStepSuppressionTracking))
        switch flavor {
        case .ios:
            #expect(commands.contains(.reply(.stepSuppressionTracking(rootIDs: [], supported: false))))
            #expect(!commands.contains(.setStepTracking(true)))
        case .android:
            #expect(commands.contains(.setStepTracking(true)))
            #expect(commands.contains(.reply(.stepSuppressionTracking(rootIDs: [primary.metadata.rootID], supported: true))))
        }
    }

    @Test("AND-16, AND-17: steps within W_STEP postpone the ring, and the durable retry is armed anyway")
    func recentStepsPostponeButArm() {
        var (harness, primary) = saved()
        move(&harness, to: primary.fireWallMs - 50_000)
        let arming = harness.send(.timerFired(.stepTrackingArm))
        #expect(arming.contains(.setStepTracking(true)))  // armed before the ring fires (AND-16)
        _ = harness.send(.stepCounterChanged(stepsSinceBoot: 100, stepElapsedMs: harness.now.monotonicMs))  // baseline
        harness.advance(10_000)
        _ = harness.send(.stepCounterChanged(stepsSinceBoot: 130, stepElapsedMs: harness.now.monotonicMs))
        move(&harness, to: primary.fireWallMs)
        let delivery = harness.send(.alarmDelivered(primary.id))
        #expect(!Self.startsRinging(delivery, primary.id))
        let retry = try! #require(Self.scheduled(delivery, kind: .successor).first)
        #expect(retry.fireWallMs == primary.fireWallMs + 10_000)
        // Past W_STEP the retry rings.
        move(&harness, to: primary.fireWallMs + 60_000)
        #expect(Self.startsRinging(harness.send(.alarmDelivered(retry.id)), retry.id))
    }

    @Test("AND-11: Start wake-up check grants MainActivity the lock screen; leaving the foreground revokes it (kept only by the known defect)",
          arguments: [false, true])
    func lockScreenGrant(defect: Bool) {
        var defects = KnownDefects()
        defects.lockScreenGrantKept = defect
        var (harness, primary) = saved(defects: defects)
        move(&harness, to: primary.fireWallMs)
        _ = harness.send(.alarmDelivered(primary.id))
        _ = harness.send(.didBecomeActive)
        #expect(harness.send(.startWakeUpCheck(primary.id)).contains(.setMainActivityShowWhenLocked(true)))
        let resign = harness.send(.willResignActive)
        #expect(resign.contains(.setMainActivityShowWhenLocked(false)) == !defect)
    }

    @Test("AND-15: a root due during another's wake session is queued durably, silent, and released silently when the owner completes")
    func passOverQueue() {
        var harness = BridgeHarness(flavor: .android)
        _ = harness.send(.processStarted(.user))
        let second = LogicalAlarm(id: "gym", hour: 7, minute: 5, repeats: .weekly([.monday]), title: "Gym")
        let first = Self.scheduled(harness.send(.api(.saveAlarm(monday))), kind: .primary).min { $0.fireWallMs < $1.fireWallMs }!
        let gym = Self.scheduled(harness.send(.api(.saveAlarm(second))), kind: .primary).min { $0.fireWallMs < $1.fireWallMs }!
        move(&harness, to: first.fireWallMs)
        _ = harness.send(.alarmDelivered(first.id))
        move(&harness, to: gym.fireWallMs)
        let passOver = harness.send(.alarmDelivered(gym.id))
        #expect(!Self.startsRinging(passOver, gym.id))
        #expect(harness.stored?.passOverQueue?.map(\.rootID) == [gym.metadata.rootID])  // durable (AND-2)
        let live = harness.core.document!.liveOccurrence!
        let completion = harness.send(.api(.completeChallenge(rootID: live.rootID, occurrenceToken: live.token)))
        #expect(harness.stored?.passOverQueue == [])
        #expect(!Self.startsRinging(completion, gym.id))
        #expect(harness.core.document!.liveOccurrence == nil)  // never became owner (OCC-3)
    }

    @Test("a document written before the pass-over queue existed decodes, with no queue")
    func olderDocumentDecodes() throws {
        var document = BridgeDocument()
        document.serial = 7
        let data = try JSONEncoder().encode(document)
        #expect(!String(decoding: data, as: UTF8.self).contains("passOverQueue"))
        let decoded = try JSONDecoder().decode(BridgeDocument.self, from: data)
        #expect(decoded.passOverQueue == nil)
        #expect(decoded.serial == 7)
    }
}

/// AND-18: abandonment reasserts step tracking for the other alarms due within W_STEP.
struct BridgeCoreAndroidAbandonTests {
    @Test("AND-18: after an abandonment step tracking is reasserted for every other alarm due within W_STEP, and only then")
    func abandonmentReassertsTracking() {
        var harness = BridgeHarness(flavor: .android)
        _ = harness.send(.processStarted(.user))
        let wake = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday]), title: "Wake")
        let soon = LogicalAlarm(id: "soon", hour: 7, minute: 1, repeats: .weekly([.monday]), title: "Soon")
        let first = BridgeCoreAndroidTests.scheduled(harness.send(.api(.saveAlarm(wake))), kind: .primary).min { $0.fireWallMs < $1.fireWallMs }!
        let second = BridgeCoreAndroidTests.scheduled(harness.send(.api(.saveAlarm(soon))), kind: .primary).min { $0.fireWallMs < $1.fireWallMs }!
        harness.advance(first.fireWallMs - harness.now.wallMs)
        _ = harness.send(.alarmDelivered(first.id))
        _ = harness.send(.didBecomeActive)
        harness.advance(20_000)  // the other alarm is due in 40 s, inside the default W_STEP of 60 s
        let abandon = harness.send(.api(.abandonWakeOccurrence(alarmIDs: ["wake"])))
        #expect(abandon.contains(.reply(.abandoned(true))))
        #expect(abandon.contains(.setStepTracking(true)))
        #expect(abandon.contains { if case .note(let text) = $0 { return text.hasPrefix("AND-18") && text.hasSuffix(second.metadata.rootID) }; return false })
        // A rejected abandonment (another alarm's ID) reasserts nothing.
        let rejected = harness.send(.api(.abandonWakeOccurrence(alarmIDs: ["nobody"])))
        #expect(rejected.contains(.reply(.abandoned(false))))
        #expect(!rejected.contains { if case .note(let text) = $0 { return text.hasPrefix("AND-18") }; return false })
    }
}

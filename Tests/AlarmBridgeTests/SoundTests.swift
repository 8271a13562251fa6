import AlarmBridge
import Foundation
import Testing

/// Sound order, audible counting, bursts and the foreground watchdog (SND, API-4..6, FG-14..18, AND-9).
struct SoundTests {
    @Test("issue 20: a draw salted by a ring's ID is the draw salted by its description, at every position and mode")
    func drawByIDMatchesDrawByText() {
        let random = SoundSettings(pool: ["a", "b", "c", "d", "e", "f", "g"], groups: nil, mode: .random)
        let progressive = SoundSettings(pool: ["a1", "a2", "a3", "b1", "b2", "c1"], groups: [["a1", "a2", "a3"], ["b1", "b2"], ["c1"]],
                                        mode: .progressive)
        for index in 0..<600 {
            let id = RingIdentity.seedID(rootID: "r\(index % 7)", wallMinute: Int64(index) * 1_440)
            for settings in [random, progressive] {
                for position in 0..<4 {
                    let byID = settings.choose(position: position, saltID: id)
                    let byText = settings.choose(position: position, salt: id.description)
                    #expect(byID?.name == byText?.name && byID?.group == byText?.group)
                }
            }
        }
    }

    static let progressive = SoundSettings(pool: ["a", "b", "c"], groups: [["a"], ["b"], ["c"]], mode: .progressive)
    let alarm = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday]), title: "Wake up",
                             sounds: SoundTests.progressive)

    @Test("SND-2: in progressive mode position k draws from group min(k, groups - 1)", arguments: 0..<6)
    func progressiveGroups(position: Int) throws {
        let settings = SoundSettings(pool: ["a1", "a2", "b1", "c1", "c2"], groups: [["a1", "a2"], ["b1"], ["c1", "c2"]],
                                     mode: .progressive)
        for salt in ["r1", "r2", "r3", "r4"] {
            let choice = try #require(settings.choose(position: position, salt: salt))
            #expect(choice.group == min(position, 2))
            #expect(settings.effectiveGroups[min(position, 2)].contains(choice.name))
        }
    }

    @Test("SND-3: in random mode every distinct ring draws from the whole pool, and distinct rings spread over it")
    func randomDrawsFromPool() throws {
        let settings = SoundSettings(pool: ["a", "b", "c", "d"], groups: [["a"], ["b", "c", "d"]], mode: .random)
        var seen: [String] = []
        for ring in 0..<64 {
            let choice = try #require(settings.choose(position: ring % 3, salt: "ring-\(ring)"))
            #expect(settings.pool.contains(choice.name))
            if !seen.contains(choice.name) { seen.append(choice.name) }
        }
        #expect(seen.count == 4)
    }

    @Test("SND-8: records without mode and groups decode and read as progressive with one flat group")
    func legacyRecords() throws {
        let legacy = try JSONDecoder().decode(SoundSettings.self, from: Data(#"{"pool":["x","y"]}"#.utf8))
        #expect(legacy.effectiveMode == .progressive)
        #expect(legacy.effectiveGroups == [["x", "y"]])
        #expect(legacy.choose(position: 3, salt: "r").map { ["x", "y"].contains($0.name) } == true)
        // An alarm stored before sounds existed decodes with none (the system default plays).
        var old = try JSONSerialization.jsonObject(with: JSONEncoder().encode(alarm)) as! [String: Any]
        old.removeValue(forKey: "sounds")
        let decoded = try JSONDecoder().decode(LogicalAlarm.self, from: JSONSerialization.data(withJSONObject: old))
        #expect(decoded.sounds == nil)
    }

    /// Saves the alarm; at Monday 07:00 its primary alerts and the bridge observes it.
    func alerting(flavor: PlatformFlavor = .ios, defects: KnownDefects = KnownDefects()) throws -> (BridgeHarness, AlarmUUID) {
        var harness = BridgeHarness(flavor: flavor, defects: defects)
        _ = harness.send(.processStarted(.user))
        let save = harness.send(.api(.saveAlarm(alarm)))
        let primary = try #require(save.compactMap { command -> RingRequest? in
            if case .schedule(let request, _) = command, request.metadata.rootID == "wake.mon" { return request }
            return nil
        }.first)
        #expect(primary.soundName == "a")  // SND-2: a primary opens its occurrence: the lowest group
        _ = harness.send(.didEnterBackground)
        harness.advance(3_600_000)
        if flavor == .android {
            _ = harness.send(.alarmDelivered(primary.id))
        } else {
            harness.daemon = harness.daemon.map { PlatformAlarm(id: $0.id, state: $0.id == primary.id ? .alerting : $0.state) }
            _ = harness.send(.alarmUpdates(harness.daemon))
        }
        return (harness, primary.id)
    }

    func successorSounds(_ commands: [BridgeCommand]) -> [String?] {
        commands.compactMap { command in
            if case .schedule(let request, _) = command, request.metadata.kind == .successor { return request.soundName }
            return nil
        }
    }

    @Test("SND-5, SND-6, SND-7: an audible ring advances the persisted position once; re-observing it does not; the Stop's successor plays the next group")
    func sequenceAdvancesOncePerAudibleRing() throws {
        var (harness, primary) = try alerting()
        #expect(harness.stored?.liveOccurrence?.audibleRingIDs == [primary])
        _ = harness.send(.alarmUpdates(harness.daemon))  // the same alert observed again
        #expect(harness.stored?.liveOccurrence?.audibleRingIDs == [primary])
        // A new process reads the position back from the store (SND-5).
        let restarted = BridgeHarness(flavor: .ios)
        var next = harness
        next.core = restarted.core
        _ = next.send(.processStarted(.intent))
        _ = next.send(.alarmUpdates(next.daemon))
        #expect(next.stored?.liveOccurrence?.audibleRingIDs == [primary])
        next.daemon = next.daemon.map { PlatformAlarm(id: $0.id, state: .scheduled) }
        let stop = next.send(.stopIntent(primary))
        #expect(successorSounds(stop) == ["b"])
    }

    @Test("SND-7: a successor cancelled before it was heard does not advance the sequence (the defect does)",
          arguments: [false, true])
    func unheardSuccessorDoesNotAdvance(defect: Bool) throws {
        var defects = KnownDefects()
        defects.unheardRingAdvancesSequence = defect
        var (harness, primary) = try alerting(defects: defects)
        harness.daemon = harness.daemon.map { PlatformAlarm(id: $0.id, state: .scheduled) }
        #expect(successorSounds(harness.send(.stopIntent(primary))) == ["b"])
        _ = harness.send(.didBecomeActive)
        _ = harness.send(.api(.setForegroundAlarmContext(ForegroundAlarmContext(challengeScreenVisible: true))))  // cancels it (OCC-9)
        let resign = harness.send(.willResignActive)
        #expect(successorSounds(resign) == [defect ? "c" : "b"])
    }

    @Test("SND-13, SND-14, API-5, API-6: the audible record holds the alerted root; JS records, reads and resets it")
    func audibleRecord() throws {
        var (harness, _) = try alerting()
        #expect(harness.send(.api(.getAudibleAlarmCount)).contains(.reply(.audibleAlarmCount(1))))
        #expect(harness.send(.api(.getAudibleAlarmIds)).contains(.reply(.audibleAlarmIDs(["wake.mon"]))))
        #expect(harness.send(.api(.resetAudibleAlarmCount)).contains(.reply(.audibleAlarmCountReset)))
        #expect(harness.send(.api(.getAudibleAlarmCount)).contains(.reply(.audibleAlarmCount(0))))
        #expect(harness.send(.api(.recordAudibleAlarm(alarmID: "wake.mon"))).contains(.reply(.audibleAlarmRecorded(true))))
        // ID-10: only root IDs; a physical ring UUID or an unknown name is refused.
        #expect(harness.send(.api(.recordAudibleAlarm(alarmID: "nope"))).contains(.reply(.audibleAlarmRecorded(false))))
        #expect(harness.stored?.audibleAlarmIDs == ["wake.mon"])
    }

    func burstRequests(_ commands: [BridgeCommand]) -> [BurstRequest] {
        commands.compactMap { if case .startBurst(let request) = $0 { return request }; return nil }
    }

    @Test("API-4, FG-17, FG-18, AND-9: a burst is audible only once playback began, stays the only one until muted, and uses Android's low-importance channel",
          arguments: PlatformFlavor.allCases)
    func bursts(flavor: PlatformFlavor) throws {
        var (harness, _) = try alerting(flavor: flavor)
        #expect(harness.stored?.audibleAlarmIDs == ["wake.mon"])  // SND-13: the alerted ring
        _ = harness.send(.api(.resetAudibleAlarmCount))
        let refused = harness.send(.api(.startForegroundAlarmSound(alarmID: "wake.mon", title: "t", body: "b")))
        #expect(burstRequests(refused).isEmpty)  // not in the foreground
        _ = harness.send(.didBecomeActive)
        let start = harness.send(.api(.startForegroundAlarmSound(alarmID: "wake.mon", title: "t", body: "b")))
        let request = try #require(burstRequests(start).first)
        #expect(request.lowImportanceChannel == (flavor == .android))
        #expect(start.contains(.reply(.foregroundAlarmSound(request.id))))
        #expect(harness.stored?.audibleAlarmIDs?.isEmpty ?? true)  // FG-17: not before playback
        let second = harness.send(.api(.startForegroundAlarmSound(alarmID: "wake.mon", title: "t", body: "b")))
        #expect(burstRequests(second).isEmpty && second.contains(.reply(.foregroundAlarmSound(nil))))
        _ = harness.send(.burstPlaybackBegan(request.id))
        #expect(harness.stored?.audibleAlarmIDs == ["wake.mon"])
        _ = harness.send(.burstEnded(request.id))  // muted
        let next = harness.send(.api(.startForegroundAlarmSound(alarmID: "wake.mon", title: "t", body: "b")))
        #expect(burstRequests(next).count == 1)
        let leave = harness.send(.willResignActive)
        #expect(leave.contains { if case .stopBurst = $0 { return true }; return false })
    }

    @Test("FG-14, FG-15: the watchdog runs 45 s from visibility or the last interaction; firing while still foreground starts a native burst")
    func watchdog() throws {
        var (harness, primary) = try alerting()
        harness.daemon = harness.daemon.map { PlatformAlarm(id: $0.id, state: .scheduled) }
        _ = harness.send(.stopIntent(primary))
        _ = harness.send(.didBecomeActive)
        let shown = harness.send(.api(.setForegroundAlarmContext(ForegroundAlarmContext(challengeScreenVisible: true))))
        #expect(shown.contains(.setTimer(.challengeWatchdog, delayMs: 45_000)))
        harness.advance(30_000)
        let touched = harness.send(.api(.recordChallengeInteraction))
        #expect(touched.contains(.setTimer(.challengeWatchdog, delayMs: 45_000)))
        harness.advance(15_000)  // the first arming's time: restarted since, so nothing happens
        #expect(burstRequests(harness.send(.timerFired(.challengeWatchdog))).isEmpty)
        harness.advance(30_000)  // 45 s after the interaction: JS stalled
        let fired = harness.send(.timerFired(.challengeWatchdog))
        #expect(burstRequests(fired).map(\.rootID) == ["wake.mon"])
        #expect(fired.contains(.setTimer(.challengeWatchdog, delayMs: 45_000)))
    }

    @Test("SNZ-17, SND-7: the snooze ring sounding while Ember is active is audible wake evidence and advances the sequence")
    func snoozeRingCountsAsAudible() throws {
        var (harness, _) = try alerting()
        _ = harness.send(.didBecomeActive)
        let token = try #require(harness.stored?.liveOccurrence?.token)
        let snooze = harness.send(.api(.beginOneTimeSnooze(untilMs: harness.now.wallMs + 600_000, occurrenceToken: token,
                                                            alarmIDs: ["wake"])))
        let ring = try #require(snooze.compactMap { command -> RingRequest? in
            if case .schedule(let request, _) = command, request.metadata.kind == .snooze { return request }
            return nil
        }.first)
        #expect(ring.soundName == "b")  // SND-2: the second audible ring of the occurrence
        _ = harness.send(.api(.resetAudibleAlarmCount))
        harness.advance(600_000)
        harness.daemon = harness.daemon.map { PlatformAlarm(id: $0.id, state: $0.id == ring.id ? .alerting : .scheduled) }
        _ = harness.send(.alarmUpdates(harness.daemon))
        #expect(harness.stored?.audibleAlarmIDs == ["wake.mon"])
        #expect(harness.stored?.liveOccurrence?.audibleRingIDs?.count == 2)
    }
}

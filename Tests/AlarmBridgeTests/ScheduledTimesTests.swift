import AlarmBridge
import Foundation
import Testing

/// API-10 `getScheduledAlarmTimes` (SCH-13..18, AND-5), identity rules ID-1/ID-7/ID-11, the
/// relative schedules of SCH-2, the pure planner of SCH-25, and the issue-6 defect switches.
struct ScheduledTimesTests {
    let weekly = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday, .wednesday]), title: "Wake up")

    static func times(_ commands: [BridgeCommand]) -> ScheduledAlarmTimes? {
        for case .reply(.scheduledAlarmTimes(let times)) in commands { return times }
        return nil
    }

    static func rejected(_ commands: [BridgeCommand]) -> Bool {
        commands.contains { if case .reply(.scheduledAlarmTimesRejected) = $0 { return true }; return false }
    }

    func saved(_ flavor: PlatformFlavor = .ios) -> BridgeHarness {
        var harness = BridgeHarness(flavor: flavor)
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        return harness
    }

    @Test("API-10, SCH-13, SCH-14, SCH-15, ID-10: root rows under root IDs, registered from the read, ring rows the platform confirms",
          arguments: PlatformFlavor.allCases)
    func snapshot(flavor: PlatformFlavor) throws {
        var harness = saved(flavor)
        let times = try #require(Self.times(harness.send(.api(.getScheduledAlarmTimes))))
        #expect(times.roots.map(\.rootID) == ["wake.mon", "wake.wed"])
        #expect(times.roots.allSatisfy { $0.registered && !$0.foregroundSuppressed })
        #expect(times.roots.allSatisfy { $0.hour == 7 && $0.minute == 0 && $0.policy == .v3 })  // recovery metadata
        #expect(Set(times.rings.map(\.ringID)) == Set(harness.daemon.map(\.id)))
        #expect(times.droppedCount == 0)
    }

    @Test("SCH-14, SCH-15, IOS-2: a primary the daemon no longer holds is reported unregistered and has no ring row; the registry row is not a substitute")
    func vanishedPrimaryIsUnregistered() throws {
        var harness = saved()
        let monday = try #require(harness.stored?.rings.first { $0.metadata.rootID == "wake.mon" }).id
        harness.daemon.removeAll { $0.id == monday }  // the OS removed it
        // Answer the read by hand: no repair in between (iOS only reads, SCH-13).
        let commands = harness.core.handle(.api(.getScheduledAlarmTimes), at: harness.now)
        #expect(commands == [.readInventory(.scheduledTimes)])
        let answer = harness.core.handle(.inventoryRead(.scheduledTimes, .success(harness.daemon)), at: harness.now)
        let times = try #require(Self.times(answer))
        #expect(times.roots.first { $0.rootID == "wake.mon" }?.registered == false)
        #expect(times.roots.first { $0.rootID == "wake.wed" }?.registered == true)
        #expect(!times.rings.contains { $0.ringID == monday })
        #expect(BridgeHarness.schedulerCalls(answer).isEmpty, "SCH-13: on iOS the snapshot only reads")
    }

    @Test("AND-5: on Android every inventory request also repairs the stored schedules")
    func androidRepairsOnRequest() throws {
        var harness = saved(.android)
        let monday = try #require(harness.stored?.rings.first { $0.metadata.rootID == "wake.mon" }).id
        harness.daemon.removeAll { $0.id == monday }  // force-stop or process death lost it
        let commands = harness.send(.api(.getScheduledAlarmTimes))
        let times = try #require(Self.times(commands))
        #expect(times.roots.first { $0.rootID == "wake.mon" }?.registered == false, "the answer is what the read saw")
        #expect(commands.contains { if case .schedule(let request, .launchSync) = $0 { return request.id == monday }; return false })
        #expect(harness.daemon.contains { $0.id == monday })
    }

    @Test("SCH-16, BOOT-2: an unreadable inventory rejects the call and decides nothing; a gated bridge rejects too",
          arguments: PlatformFlavor.allCases)
    func unreadableRejects(flavor: PlatformFlavor) {
        var harness = saved(flavor)
        _ = harness.core.handle(.api(.getScheduledAlarmTimes), at: harness.now)
        let answer = harness.core.handle(.inventoryRead(.scheduledTimes, .failure(.readFailed)), at: harness.now)
        #expect(Self.rejected(answer))
        #expect(Self.times(answer) == nil)
        #expect(BridgeHarness.schedulerCalls(answer).isEmpty)
        var locked = BridgeHarness(flavor: flavor)
        locked.stored = harness.stored
        locked.daemon = harness.daemon
        _ = locked.send(.processStarted(.user), storeReadable: false)
        #expect(Self.rejected(locked.send(.api(.getScheduledAlarmTimes), storeReadable: false)))
    }

    @Test("SCH-17, SCH-18: foregroundSuppressed marks only the consumed primary, never implies registered, and dies with the foreground")
    func foregroundSuppressedIsSeparate() throws {
        let once = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .once(fireWallMs: BridgeHarness().now.wallMs + 3_600_000),
                                title: "Once")
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(once)))
        _ = harness.send(.didEnterBackground)
        let primary = try #require(harness.daemon.first).id
        harness.advance(3_600_000)
        harness.daemon = [PlatformAlarm(id: primary, state: .alerting)]
        _ = harness.send(.alarmUpdates(harness.daemon))
        _ = harness.send(.didBecomeActive)  // FG-2: the alerting primary is stopped, with its proof
        harness.daemon.removeAll { $0.id == primary }  // a stopped one-shot leaves the daemon
        let times = try #require(Self.times(harness.send(.api(.getScheduledAlarmTimes))))
        let row = try #require(times.roots.first { $0.rootID == "wake" })
        #expect(row.foregroundSuppressed)
        #expect(!row.registered)
        _ = harness.send(.didEnterBackground)
        let later = try #require(Self.times(harness.send(.api(.getScheduledAlarmTimes))))
        #expect(later.roots.allSatisfy { !$0.foregroundSuppressed })
    }

    @Test("SCH-2: on iOS one-shots and weekly alarms use AlarmKit relative wall-clock schedules; Android uses fixed instants",
          arguments: PlatformFlavor.allCases)
    func relativeSchedules(flavor: PlatformFlavor) {
        var harness = BridgeHarness(flavor: flavor)
        _ = harness.send(.processStarted(.user))
        let once = LogicalAlarm(id: "nap", hour: 9, minute: 30, repeats: .once(fireWallMs: harness.now.wallMs + 3 * 3_600_000 + 30 * 60_000),
                                title: "Nap")
        _ = harness.send(.api(.saveAlarm(weekly)))
        _ = harness.send(.api(.saveAlarm(once)))
        let schedules = harness.stored?.rings.map(\.schedule) ?? []
        #expect(schedules.count == 3)
        for schedule in schedules {
            switch (flavor, schedule) {
            case (.ios, .relative), (.android, .fixed): break
            default: Issue.record("\(flavor): unexpected schedule \(schedule)")
            }
        }
    }

    @Test("ID-1: a weekly alarm is one root per selected weekday, each with its own stable ID and primary")
    func rootPerWeekday() {
        let roots = weekly.roots
        #expect(roots.map(\.id) == ["wake.mon", "wake.wed"])
        let ids = roots.map { RingIdentity.primaryID(rootID: $0.id, fireKey: .localTime(hour: 7, minute: 0)) }
        #expect(Set(ids).count == 2)
        var edited = weekly
        edited.title = "Other"
        #expect(edited.roots.map(\.id) == roots.map(\.id))
    }

    @Test("ID-7: consecutive occurrences of the same root never share a token")
    func tokensAreUnique() {
        var tokens: [String] = []
        for serial in UInt64(1)...50 {
            tokens.append(RingIdentity.occurrenceToken(rootID: "wake.mon", startedAtMs: 1_000, serial: serial))
        }
        #expect(Set(tokens).count == tokens.count)
    }

    @Test("ID-11: a platform action is the triple (alarmId, action, occurredAtMs); a second identical one is recorded once")
    func actionTriple() throws {
        var (harness, primary) = try BridgeHarness.atRingTime()
        _ = harness.send(.stopIntent(primary))
        _ = harness.send(.stopIntent(primary))  // the same intent handed over twice (ACT-6)
        let actions = harness.stored?.actions ?? []
        #expect(actions.count == 1)
        #expect(actions.first == ActionRecord(alarmID: "wake.mon", action: "stop", occurredAtMs: harness.now.wallMs))
    }

    @Test("ID-5, SCH-20: with a countdown the fingerprint holds its presence only; the countdown-length defect re-registers every sync")
    func countdownFingerprint() {
        var alarm = weekly
        alarm.countdown = CountdownDuration(preAlertMs: nil, postAlertMs: 540_000)
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(alarm)))
        harness.advance(60_000)
        #expect(BridgeHarness.schedulerCalls(harness.send(.api(.syncEnabledAlarms))).isEmpty)
        var defects = KnownDefects()
        defects.countdownLengthInFingerprint = true
        var broken = BridgeHarness(defects: defects)
        _ = broken.send(.processStarted(.user))
        _ = broken.send(.api(.saveAlarm(alarm)))
        broken.advance(60_000)
        #expect(!BridgeHarness.schedulerCalls(broken.send(.api(.syncEnabledAlarms))).isEmpty)
    }

    @Test("ID-2, ID-3: the ids-change-on-edit defect changes the primary ID on a sound or policy edit; correct code does not")
    func idsStayOnAttributeEdits() {
        for broken in [false, true] {
            var defects = KnownDefects()
            defects.idsChangeOnEdit = broken
            var harness = BridgeHarness(defects: defects)
            _ = harness.send(.processStarted(.user))
            _ = harness.send(.api(.saveAlarm(weekly)))
            let before = harness.daemon.map(\.id)
            var edited = weekly
            edited.policy = .v2
            edited.challenge = .math
            _ = harness.send(.api(.saveAlarm(edited)))
            #expect((harness.daemon.map(\.id) == before) == !broken)
        }
    }

    @Test("SCH-16: the reconcile-on-empty-read defect reconciles a failed read as empty; correct code makes no call")
    func emptyReadDefect() {
        for broken in [false, true] {
            var defects = KnownDefects()
            defects.reconcileOnEmptyRead = broken
            var harness = BridgeHarness(defects: defects)
            _ = harness.send(.processStarted(.user))
            _ = harness.send(.api(.saveAlarm(weekly)))
            _ = harness.core.handle(.api(.syncEnabledAlarms), at: harness.now)
            let answer = harness.core.handle(.inventoryRead(.resumeSync, .failure(.readFailed)), at: harness.now)
            #expect(BridgeHarness.schedulerCalls(answer).isEmpty == !broken)
        }
    }

    @Test("SCH-25: the planner, reconciler and policy logic import no OS framework")
    func plannerIsPure() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/AlarmBridge")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                // Synchronization is the Swift standard library's (SE-0433 `Mutex`, for the pure-function
                // memos of issue 20), not an OS framework.
                #expect(["import Foundation", "import Synchronization"].contains(String(line)), "\(file): \(line)")
            }
        }
    }
}

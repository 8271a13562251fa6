@testable import AlarmBridge
import Testing

/// The direct save entry point and its verification: API-19, CAP-6, SCH-6..12, SCH-26, IOS-1.
/// The platform is played by hand where the harness's well-behaved daemon would hide the rule.
struct SaveRuleTests {
    let weekly = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday, .wednesday]), title: "Wake up")

    static func schedules(_ commands: [BridgeCommand]) -> [RingRequest] {
        commands.compactMap { if case .schedule(let request, _) = $0 { return request }; return nil }
    }

    static func cancels(_ commands: [BridgeCommand]) -> [AlarmUUID] {
        commands.compactMap { if case .cancel(let id, _) = $0 { return id }; return nil }
    }

    static func replies(_ commands: [BridgeCommand]) -> [APIReply] {
        commands.compactMap { if case .reply(let reply) = $0 { return reply }; return nil }
    }

    /// A ready bridge holding `weekly` as saved and verified by the well-behaved harness.
    func savedHarness(flavor: PlatformFlavor = .ios) -> BridgeHarness {
        var harness = BridgeHarness(flavor: flavor)
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        return harness
    }

    @Test("API-19, CAP-6, SCH-6, SCH-9: a save schedules only its roots' primaries after publishing their rows, and resolves after a verification read",
          arguments: PlatformFlavor.allCases)
    func verifiedSave(flavor: PlatformFlavor) {
        var harness = BridgeHarness(flavor: flavor)
        _ = harness.send(.processStarted(.user))
        let commands = harness.send(.api(.saveAlarm(weekly)))
        let requests = Self.schedules(commands)
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.metadata.kind == .primary && $0.metadata.alarmID == "wake" })  // CAP-6
        let firstSchedule = commands.firstIndex { if case .schedule = $0 { return true }; return false }!
        let publication = commands[..<firstSchedule].lastIndex { command in
            if case .persist(let document) = command { return requests.allSatisfy { document.row($0.id) != nil } }
            return false
        }
        #expect(publication != nil)  // SCH-6: every row persisted before the first daemon call
        let verification = commands.firstIndex(of: .readInventory(.verifySave(alarmID: "wake")))
        let reply = commands.firstIndex(of: .reply(.saved(alarmID: "wake")))
        #expect(verification != nil && reply != nil && verification! < reply!)  // SCH-9: resolves after the read
    }

    @Test("SCH-9, SCH-10: three reads 100 ms apart that miss the exact primary reject the save; only the new ring is cancelled and the previous definition restored")
    func unverifiedSaveRejects() {
        var harness = savedHarness()
        let before = harness.daemon
        var edited = weekly
        edited.hour = 8
        var out = harness.core.handle(.api(.saveAlarm(edited)), at: harness.now)
        #expect(out.contains(.readInventory(.directSave(alarmID: "wake"))))
        out = harness.core.handle(.inventoryRead(.directSave(alarmID: "wake"), .success(before)), at: harness.now)
        let prepared = Self.schedules(out).map(\.id)
        #expect(prepared.count == 2 && prepared.allSatisfy { !before.map(\.id).contains($0) })
        #expect(Self.cancels(out).isEmpty)  // arm before retire: nothing of the previous schedule goes yet
        for id in prepared { out = harness.core.handle(.scheduleCompleted(id, .success(0)), at: harness.now) }
        #expect(out.contains(.readInventory(.verifySave(alarmID: "wake"))))
        var reads = 1
        // The daemon "lost" the new rings: every read sees only the old primaries (SCH-9: an old
        // primary of the same root never satisfies the check).
        while true {
            out = harness.core.handle(.inventoryRead(.verifySave(alarmID: "wake"), .success(before)), at: harness.now)
            if out.contains(.setTimer(.saveVerification, delayMs: 100)) {
                harness.advance(100)
                out = harness.core.handle(.timerFired(.saveVerification), at: harness.now)
                #expect(out.contains(.readInventory(.verifySave(alarmID: "wake"))))
                reads += 1
                continue
            }
            break
        }
        #expect(reads == 3)
        #expect(Self.replies(out) == [.saveFailed(alarmID: "wake", reason: .notVerified)])
        #expect(Set(Self.cancels(out)) == Set(prepared))  // SCH-10: only the new rings
        #expect(harness.core.document?.alarm("wake") == weekly)
        #expect(before.allSatisfy { harness.core.document?.row($0.id) != nil })
    }

    @Test("SCH-10: a failed write rejects with write-failed and leaves every ring and row of the previous schedule")
    func failedWriteKeepsPrevious() {
        var harness = savedHarness()
        let before = harness.daemon
        let rowsBefore = harness.core.document?.rings
        var edited = weekly
        edited.minute = 30
        _ = harness.core.handle(.api(.saveAlarm(edited)), at: harness.now)
        var out = harness.core.handle(.inventoryRead(.directSave(alarmID: "wake"), .success(before)), at: harness.now)
        let prepared = Self.schedules(out).map(\.id)
        out = harness.core.handle(.scheduleCompleted(prepared[0], .failure(.writeFailed)), at: harness.now)
        out += harness.core.handle(.scheduleCompleted(prepared[1], .success(0)), at: harness.now)
        #expect(Self.replies(out) == [.saveFailed(alarmID: "wake", reason: .writeFailed)])
        #expect(Self.cancels(out) == [prepared[1]])
        #expect(harness.core.document?.rings == rowsBefore)
        #expect(harness.core.document?.alarm("wake") == weekly)
    }

    @Test("SCH-10: a brand-new alarm whose save fails is removed, so no later sync re-creates it")
    func brandNewAlarmRemoved() {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.core.handle(.api(.saveAlarm(weekly)), at: harness.now)
        var out = harness.core.handle(.inventoryRead(.directSave(alarmID: "wake"), .success([])), at: harness.now)
        let prepared = Self.schedules(out).map(\.id)
        out = []
        for id in prepared { out += harness.core.handle(.scheduleCompleted(id, .failure(.maximumLimitReached)), at: harness.now) }
        #expect(Self.replies(out) == [.saveFailed(alarmID: "wake", reason: .capacity)])
        #expect(harness.core.document?.alarm("wake") == nil)
        #expect(Self.schedules(harness.send(.api(.syncEnabledAlarms))).isEmpty)
    }

    @Test("SCH-26: without AlarmKit, or with authorization denied, a save rejects with not-authorized and never reports that the alarm will ring")
    func notAuthorized() {
        var configuration = BridgeConfiguration(flavor: .ios, calendar: WallCalendar(zoneIdentifier: "Europe/Berlin")!)
        configuration.alarmKitAvailable = false
        var harness = BridgeHarness()
        harness.core = BridgeCore(configuration: configuration)
        _ = harness.send(.processStarted(.user))
        let unavailable = harness.send(.api(.saveAlarm(weekly)))
        #expect(Self.replies(unavailable) == [.saveFailed(alarmID: "wake", reason: .notAuthorized)])
        #expect(Self.schedules(unavailable).isEmpty)

        var denied = BridgeHarness()
        _ = denied.send(.processStarted(.user))
        _ = denied.core.handle(.api(.saveAlarm(weekly)), at: denied.now)
        let out = denied.core.handle(.inventoryRead(.directSave(alarmID: "wake"), .success([])), at: denied.now)
        var replies: [APIReply] = []
        for request in Self.schedules(out) {
            replies += Self.replies(denied.core.handle(.scheduleCompleted(request.id, .failure(.notAuthorized)), at: denied.now))
        }
        #expect(replies == [.saveFailed(alarmID: "wake", reason: .notAuthorized)])
        #expect(!replies.contains(.saved(alarmID: "wake")))
    }

    @Test("superseded: saving again while a save verifies resolves the earlier save as superseded; the newer one resolves alone")
    func supersededSave() {
        var harness = savedHarness()
        var first = weekly
        first.title = "First"
        _ = harness.core.handle(.api(.saveAlarm(first)), at: harness.now)
        var second = weekly
        second.title = "Second"
        let out = harness.send(.api(.saveAlarm(second)))
        #expect(Self.replies(out).first == .saveFailed(alarmID: "wake", reason: .superseded))
        #expect(Self.replies(out).last == .saved(alarmID: "wake"))
        #expect(harness.core.document?.alarm("wake")?.title == "Second")
    }

    @Test("SCH-7: a background sync during a save leaves the saving family alone; it cannot retire the previous primaries before verification")
    func backgroundSyncLeavesSavingFamily() {
        var harness = savedHarness()
        let before = harness.daemon
        var edited = weekly
        edited.hour = 9
        _ = harness.core.handle(.api(.saveAlarm(edited)), at: harness.now)
        let prepared = Self.schedules(harness.core.handle(.inventoryRead(.directSave(alarmID: "wake"), .success(before)), at: harness.now)).map(\.id)
        let sync = harness.core.handle(.inventoryRead(.resumeSync, .success(before)), at: harness.now)
        #expect(BridgeHarness.schedulerCalls(sync).isEmpty)
        var out: [BridgeCommand] = []
        for id in prepared { out += harness.core.handle(.scheduleCompleted(id, .success(0)), at: harness.now) }
        let held = before + prepared.map { PlatformAlarm(id: $0, state: .scheduled) }
        out = harness.core.handle(.inventoryRead(.verifySave(alarmID: "wake"), .success(held)), at: harness.now)
        #expect(Self.replies(out) == [.saved(alarmID: "wake")])
        #expect(Set(Self.cancels(out)) == Set(before.map(\.id)))  // retired only after verification
        #expect(out.contains(.readInventory(.resumeSync)))  // the deferred sync runs afterwards
    }

    @Test("SCH-8: deletion resolves only after the platform confirmed its cancellations")
    func deletionWaitsForConfirmation() {
        var harness = savedHarness()
        let ids = harness.daemon.map(\.id)
        let out = harness.core.handle(.api(.deleteAlarm(id: "wake")), at: harness.now)
        #expect(Set(Self.cancels(out)) == Set(ids))
        #expect(Self.replies(out).isEmpty)
        #expect(Self.replies(harness.core.handle(.cancelCompleted(ids[0], .success(0)), at: harness.now)).isEmpty)
        let last = harness.core.handle(.cancelCompleted(ids[1], .failure(.notFound)), at: harness.now)
        #expect(Self.replies(last) == [.alarmDeleted(alarmID: "wake", confirmed: true)])
    }

    @Test("SCH-11: a primary the platform was never seen holding may not finish its handoff")
    func handoffNeedsSeenPrimary() {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.core.handle(.api(.saveAlarm(weekly)), at: harness.now)
        let out = harness.core.handle(.inventoryRead(.directSave(alarmID: "wake"), .success([])), at: harness.now)
        let id = Self.schedules(out)[0].id
        #expect(!harness.core.handoffPermitted(id))  // published, in flight, never seen held
    }

    @Test("SCH-12: the imminent sweep waits while a save verifies and runs once it resolved")
    func sweepWaitsForVerification() {
        var harness = savedHarness()
        _ = harness.core.handle(.api(.saveAlarm(weekly)), at: harness.now)
        let active = harness.core.handle(.didBecomeActive, at: harness.now)
        #expect(active.contains(.note("SCH-12: imminent sweep waits for a save's verification")))
        #expect(harness.core.saves.sweepWaiting)
        _ = harness.send(.inventoryRead(.directSave(alarmID: "wake"), .success(harness.daemon)))
        #expect(!harness.core.saves.sweepWaiting)
    }

    @Test("IOS-1: the bridge states the iOS configuration it requires: the AlarmKit usage description, the walk's task identifier, no entitlement")
    func requiredConfiguration() {
        let required = BridgeConfiguration.requiredIOSConfiguration
        #expect(required.alarmKitUsageDescription)
        #expect(required.backgroundTaskIdentifiers == [BridgeConfiguration.workoutBackgroundTaskIdentifier])
        #expect(required.entitlements.isEmpty)  // no com.apple.developer.alarmkit entitlement exists
        #expect(required.permitsWorkoutRecoveryLaunch)
    }
}

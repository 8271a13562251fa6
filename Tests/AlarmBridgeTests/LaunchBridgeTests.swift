import AlarmBridge
import Foundation
import Testing

/// The launch path of the core: Keychain receipts (IOS-9, IOS-10), the kill switch (BOOT-12),
/// the gate's native facts (BOOT-3, BOOT-8), recovery (INACT-13), `cancelSystemAlarms` (API-18)
/// and the abandoned-occurrence journal (API-20, INACT-18, INACT-20).
struct LaunchBridgeTests {
    let weekly = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday, .wednesday]), title: "Wake up")

    /// A fresh install saves the weekly alarm; at its Monday ring time the user presses Stop.
    func stoppedAtRingTime(flavor: PlatformFlavor = .ios, defects: KnownDefects = KnownDefects()) throws -> (BridgeHarness, AlarmUUID) {
        var harness = BridgeHarness(flavor: flavor, defects: defects)
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        _ = harness.send(.didEnterBackground)
        let primary = try #require(harness.daemon.first { harness.stored?.row($0.id)?.metadata.rootID == "wake.mon" }).id
        harness.advance(3_600_000)
        _ = harness.send(flavor == .ios ? .stopIntent(primary) : .alarmDelivered(primary))
        return (harness, primary)
    }

    static func isSchedule(_ command: BridgeCommand) -> Bool {
        if case .schedule = command { return true }
        return false
    }

    @Test("IOS-9: the occurrence iOS confirmed gets a receipt, written after the occurrence is persisted; completion deletes it")
    func receiptLifecycle() throws {
        var (harness, _) = try stoppedAtRingTime()
        let live = try #require(harness.stored?.liveOccurrence)
        #expect(harness.receipts == [WakeReceipt(token: live.token, rootID: "wake.mon", startedAtMs: live.startedAtMs)])
        let done = harness.send(.api(.completeChallenge(rootID: live.rootID, occurrenceToken: live.token)))
        #expect(done.contains(.deleteReceipt(token: live.token)))
        #expect(harness.receipts.isEmpty)
    }

    @Test("IOS-9: Android keeps no Keychain receipt")
    func noReceiptsOnAndroid() throws {
        let (harness, _) = try stoppedAtRingTime(flavor: .android)
        #expect(harness.stored?.liveOccurrence != nil)
        #expect(harness.receipts.isEmpty)
    }

    @Test("IOS-10: a fresh install writes the failed wake day of a surviving receipt before release, and deletes it only after the write")
    func survivorBecomesFailedWakeDay() throws {
        var fresh = BridgeHarness()
        let survivor = WakeReceipt(token: "t-old", rootID: "wake.mon", startedAtMs: 42)
        fresh.receipts = [survivor]
        let commands = fresh.send(.processStarted(.user))
        let write = try #require(commands.firstIndex { if case .writeFailedWakeDay = $0 { return true }; return false })
        let delete = try #require(commands.firstIndex(of: .deleteReceipt(token: "t-old")))
        let release = try #require(commands.firstIndex(of: .launchGate(.released)))
        #expect(write < delete && write < release)
        #expect(fresh.failedWakeDays.map(\.token) == ["t-old"])
        #expect(fresh.receipts.isEmpty)
    }

    @Test("IOS-10: a failed app-state write keeps the receipt and holds startup; the re-check writes again")
    func failedWriteKeepsReceipt() {
        var core = BridgeCore(configuration: BridgeConfiguration(flavor: .ios, calendar: WallCalendar(zoneIdentifier: "UTC")!))
        let now = BridgeInstants(wallMs: 1_000_000, monotonicMs: 1_000)
        _ = core.handle(.processStarted(.user), at: now)
        _ = core.handle(.receiptsRead(.success([WakeReceipt(token: "t", rootID: "r", startedAtMs: 1)])), at: now)
        _ = core.handle(.storeLoaded(.success(nil)), at: now)
        let asked = core.handle(.inventoryRead(.launchGate, .success([])), at: now)
        #expect(asked.contains { if case .writeFailedWakeDay = $0 { return true }; return false })
        let failed = core.handle(.failedWakeDayWritten(token: "t", succeeded: false), at: now)
        #expect(!failed.contains(.deleteReceipt(token: "t")) && !failed.contains(.launchGate(.released)))
        #expect(!core.isAcceptingInputs)
        let retried = core.handle(.timerFired(.gateRecheck), at: now)
        #expect(retried.contains { if case .writeFailedWakeDay = $0 { return true }; return false })
        let ok = core.handle(.failedWakeDayWritten(token: "t", succeeded: true), at: now)
        #expect(ok.contains(.deleteReceipt(token: "t")) && ok.contains(.launchGate(.released)))
    }

    @Test("IOS-10: the defect receipt-deleted-before-write deletes the survivor before the write completed")
    func defectDeletesEarly() {
        var defects = KnownDefects()
        defects.receiptDeletedBeforeWrite = true
        var core = BridgeCore(configuration: BridgeConfiguration(flavor: .ios, calendar: WallCalendar(zoneIdentifier: "UTC")!, defects: defects))
        let now = BridgeInstants(wallMs: 1_000_000, monotonicMs: 1_000)
        _ = core.handle(.processStarted(.user), at: now)
        _ = core.handle(.receiptsRead(.success([WakeReceipt(token: "t", rootID: "r", startedAtMs: 1)])), at: now)
        _ = core.handle(.storeLoaded(.success(nil)), at: now)
        let asked = core.handle(.inventoryRead(.launchGate, .success([])), at: now)
        #expect(asked.contains(.deleteReceipt(token: "t")))
    }

    @Test("BOOT-12: a timeout, network failure or unreadable answer keeps scheduling enabled; a later save schedules",
          arguments: [KillSwitchResponse.timeout, .networkFailure, .unreadable, .ok])
    func failsOpen(_ response: KillSwitchResponse) {
        var harness = BridgeHarness()
        let start = harness.send(.processStarted(.user))
        #expect(start.contains(.checkKillSwitch))
        let answer = harness.send(.killSwitchChecked(response))
        #expect(!answer.contains(.remoteScheduling(.disabledByKillSwitch)))
        #expect(!harness.core.remoteSchedulingDisabled)
        #expect(harness.send(.api(.saveAlarm(weekly))).contains(where: Self.isSchedule))
    }

    @Test("BOOT-12: an explicit disabled holds the sync's scheduler calls; the defect fails closed on a timeout")
    func explicitDisabled() {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        #expect(harness.send(.killSwitchChecked(.disabled)).contains(.remoteScheduling(.disabledByKillSwitch)))
        #expect(!harness.send(.api(.saveAlarm(weekly))).contains(where: Self.isSchedule))
        var defects = KnownDefects()
        defects.killSwitchFailsClosed = true
        var closed = BridgeHarness(defects: defects)
        _ = closed.send(.processStarted(.user))
        #expect(closed.send(.killSwitchChecked(.timeout)).contains(.remoteScheduling(.disabledByKillSwitch)))
    }

    @Test("BOOT-12: with scheduling disabled a Stop still arms the live occurrence's successor")
    func disabledKeepsLifecycle() throws {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        _ = harness.send(.didEnterBackground)
        _ = harness.send(.killSwitchChecked(.disabled))
        let primary = try #require(harness.daemon.first { harness.stored?.row($0.id)?.metadata.rootID == "wake.mon" }).id
        harness.advance(3_600_000)
        let stop = harness.send(.stopIntent(primary))
        #expect(stop.contains { if case .schedule(let request, .lifecycle) = $0 { return request.metadata.kind == .successor }; return false })
    }

    @Test("BOOT-3: JS's cached \"no alarms\" never releases an unreadable store; the defect gate-trusts-js-cache does")
    func gateIgnoresJSCache() {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        var locked = BridgeHarness()
        locked.stored = harness.stored
        locked.daemon = harness.daemon
        _ = locked.send(.api(.reportCachedPreferences(alarmsConfigured: false)), storeReadable: false)
        let commands = locked.send(.processStarted(.intent), storeReadable: false)
        #expect(locked.core.phase == .gated(.waitingForUnlock))
        #expect(!commands.contains(.launchGate(.released)))
        var defects = KnownDefects()
        defects.gateTrustsJSCache = true
        var trusting = BridgeHarness(defects: defects)
        trusting.stored = harness.stored
        trusting.daemon = harness.daemon
        _ = trusting.send(.api(.reportCachedPreferences(alarmsConfigured: false)), storeReadable: false)
        #expect(trusting.send(.processStarted(.intent), storeReadable: false).contains(.launchGate(.released)))
    }

    @Test("BOOT-8: before first unlock a Stop is journalled and waits; with the saved definition it opens the occurrence")
    func stopWaitsForSavedDefinition() throws {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        let primary = try #require(harness.daemon.first { harness.stored?.row($0.id)?.metadata.rootID == "wake.mon" }).id
        var locked = BridgeHarness()
        locked.stored = harness.stored
        locked.daemon = harness.daemon
        locked.advance(3_600_000)
        _ = locked.send(.processStarted(.intent), storeReadable: false)
        let stop = locked.send(.stopIntent(primary), storeReadable: false)
        #expect(stop.allSatisfy { if case .appendJournal = $0 { return true }; return false })
        #expect(locked.core.document == nil)
        _ = locked.send(.protectedDataAvailable)
        let live = try #require(locked.stored?.liveOccurrence)
        #expect(live.rootID == "wake.mon" && live.policy == .v3)
    }

    @Test("INACT-13: a new process restores the live occurrence's policy, ring time, activity and snooze deadline unchanged")
    func recoveryRestoresOccurrence() throws {
        var (harness, _) = try stoppedAtRingTime()
        _ = harness.send(.didBecomeActive)
        let before = harness.send(.api(.getActiveWakeOccurrence))
        var restarted = BridgeHarness()
        restarted.stored = harness.stored
        restarted.daemon = harness.daemon
        restarted.receipts = harness.receipts
        restarted.now = harness.now
        restarted.advance(60_000)
        _ = restarted.send(.processStarted(.intent))
        let after = restarted.send(.api(.getActiveWakeOccurrence))
        let old = try #require(before.compactMap { if case .reply(.activeWakeOccurrence(let o)) = $0 { return o }; return nil }.first ?? nil)
        let new = try #require(after.compactMap { if case .reply(.activeWakeOccurrence(let o)) = $0 { return o }; return nil }.first ?? nil)
        #expect(new.token == old.token && new.occurrenceStartedAtMs == old.occurrenceStartedAtMs)
        #expect(new.inactivityPolicyVersion == old.inactivityPolicyVersion && new.effectiveExpiryMs == old.effectiveExpiryMs)
        #expect(new.lastMeaningfulActivityMs == old.lastMeaningfulActivityMs && new.inactivitySnoozeUntilMs == old.inactivitySnoozeUntilMs)
        #expect(restarted.receipts == harness.receipts)  // IOS-9: the receipt stays while the occurrence is unfinished
    }

    @Test("API-18: cancelSystemAlarms cancels the roots' rings, retires them, and resolves only after the platform confirmed")
    func cancelSystemAlarms() throws {
        let (harness, _) = try stoppedAtRingTime()
        let live = try #require(harness.stored?.liveOccurrence)
        let wedPrimary = try #require(harness.stored?.rings.first { $0.metadata.rootID == "wake.wed" && $0.metadata.kind == .primary }).id
        var core = harness.core
        let issued = core.handle(.api(.cancelSystemAlarms(alarmIDs: ["wake.wed"])), at: harness.now)
        #expect(issued.contains(.cancel(wedPrimary, origin: .lifecycle)))
        #expect(!issued.contains { if case .reply = $0 { return true }; return false })
        let confirmed = core.handle(.cancelCompleted(wedPrimary, .success(0)), at: harness.now)
        #expect(confirmed.contains(.reply(.systemAlarmsCancelled(alarmIDs: ["wake.wed"], confirmed: true))))
        #expect(core.document?.alarm("wake")?.roots.map(\.id) == ["wake.mon"])
        // Retiring the live occurrence's root deletes its receipt (IOS-9) but keeps the occurrence.
        let mon = core.handle(.api(.cancelSystemAlarms(alarmIDs: ["wake.mon"])), at: harness.now)
        #expect(mon.contains(.deleteReceipt(token: live.token)))
        #expect(core.document?.liveOccurrence?.token == live.token)
    }

    @Test("API-20, INACT-18: the journal returns miss receipts until acknowledged; acknowledging removes only that one")
    func abandonedJournal() {
        var document = BridgeDocument()
        document.missReceipts = [
            MissReceipt(token: "t1", rootID: "wake.mon", reason: "inactivity", expiredAtMs: 10, policy: .v3, inactivityClockOffsetMs: 0),
            MissReceipt(token: "t2", rootID: "wake.wed", reason: "inactivity", expiredAtMs: 20, policy: .v2, inactivityClockOffsetMs: 5),
        ]
        var harness = BridgeHarness()
        harness.stored = document
        _ = harness.send(.processStarted(.user))
        let first = harness.send(.api(.getAbandonedWakeOccurrences))
        #expect(first.contains(.reply(.abandonedWakeOccurrences(document.missReceipts))))
        #expect(harness.send(.api(.getAbandonedWakeOccurrences)).contains(.reply(.abandonedWakeOccurrences(document.missReceipts))))
        #expect(harness.send(.api(.acknowledgeAbandonedWakeOccurrence(occurrenceToken: "t1"))).contains(.reply(.abandonedWakeOccurrenceAcknowledged(true))))
        #expect(harness.stored?.missReceipts.map(\.token) == ["t2"])
        #expect(harness.send(.api(.acknowledgeAbandonedWakeOccurrence(occurrenceToken: "t1"))).contains(.reply(.abandonedWakeOccurrenceAcknowledged(false))))
    }

    @Test("INACT-20: a miss receipt written before the policy field existed reads as policy 2")
    func oldReceiptReadsAsPolicy2() throws {
        let fixture = #"{"token":"t-old","rootID":"wake.mon","reason":"inactivity","expiredAtMs":1772431200000,"inactivityClockOffsetMs":0}"#
        let receipt = try JSONDecoder().decode(MissReceipt.self, from: Data(fixture.utf8))
        #expect(receipt.policy == .v2)
        #expect(receipt.reason == "inactivity" && receipt.expiredAtMs == 1_772_431_200_000)
        let current = #"{"token":"t","rootID":"r","reason":"inactivity","expiredAtMs":1,"policy":"v3","inactivityClockOffsetMs":7}"#
        let decoded = try JSONDecoder().decode(MissReceipt.self, from: Data(current.utf8))
        #expect(decoded.inactivityClockOffsetMs == 7)
    }

    @Test("INACT-18, INACT-19: an expiry's miss receipt carries reason, expiredAtMs, the original policy and clock offset")
    func expiryReceiptFields() throws {
        var (harness, _) = try stoppedAtRingTime()
        let live = try #require(harness.stored?.liveOccurrence)
        harness.advance(31 * 60_000)
        _ = harness.send(.timerFired(.expiryCheck))
        let receipt = try #require(harness.stored?.missReceipts.first)
        #expect(receipt.reason == "inactivity" && receipt.policy == live.policy && receipt.token == live.token)
        #expect(receipt.expiredAtMs == live.deadlineMs && receipt.inactivityClockOffsetMs == live.inactivityClockOffsetMs)
        #expect(harness.receipts.isEmpty)  // IOS-9: expiry ends the Keychain receipt too
    }
}

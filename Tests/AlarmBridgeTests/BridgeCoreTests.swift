import AlarmBridge
import Testing

/// Drives the sans-I/O core directly, playing the platform by hand.
struct BridgeHarness {
    var core: BridgeCore
    var now: BridgeInstants
    /// What the fake daemon holds.
    var daemon: [PlatformAlarm] = []
    var stored: BridgeDocument?
    /// Android credential-protected storage, where an older version kept the state (AND-4), and
    /// whether it can be read now (after the first unlock since boot).
    var credentialStored: BridgeDocument?
    var credentialReadable = true
    /// What the fake Keychain holds (IOS-9), and the app state's failed wake days (IOS-10).
    var receipts: [WakeReceipt] = []
    var failedWakeDays: [FailedWakeDay] = []
    /// Android without an exact-alarm permission: every exact request throws SecurityException.
    var exactRefused = false
    /// How many of the next successor requests the platform refuses (a failed write).
    var refusedSuccessors = 0

    init(flavor: PlatformFlavor = .ios, defects: KnownDefects = KnownDefects()) {
        let calendar = WallCalendar(zoneIdentifier: "Europe/Berlin")!
        core = BridgeCore(configuration: BridgeConfiguration(flavor: flavor, calendar: calendar, defects: defects))
        // Monday 2026-03-02 06:00 Berlin, an hour after boot.
        now = BridgeInstants(wallMs: calendar.instant(year: 2026, month: 3, day: 2, hour: 6, minute: 0)!, monotonicMs: 3_600_000)
    }

    /// Feeds one input; answers inventory reads, store loads and schedule calls synchronously,
    /// as a well-behaved platform would, and returns every command issued along the way.
    /// Time passes: wall and monotonic clocks move together (no clock correction).
    mutating func advance(_ ms: Int64) {
        now.wallMs += ms
        now.monotonicMs += ms
    }

    mutating func send(_ input: BridgeInput, storeReadable: Bool = true) -> [BridgeCommand] {
        var pending = [input]
        var all: [BridgeCommand] = []
        while !pending.isEmpty {
            let next = pending.removeFirst()
            let commands = core.handle(next, at: now)
            all += commands
            for command in commands {
                switch command {
                case .loadStore:
                    pending.append(.storeLoaded(storeReadable ? .success(stored) : .failure(.unavailable)))
                case .persist(let document):
                    if storeReadable { stored = document }
                case .loadCredentialProtectedStore:
                    pending.append(.credentialProtectedStoreLoaded(credentialReadable ? .success(credentialStored) : .failure(.unavailable)))
                case .deleteCredentialProtectedStore:
                    if credentialReadable { credentialStored = nil }
                case .readInventory(let purpose):
                    pending.append(.inventoryRead(purpose, .success(daemon)))
                case .schedule(let request, _) where refusedSuccessors > 0 && request.metadata.kind == .successor:
                    refusedSuccessors -= 1
                    pending.append(.scheduleCompleted(request.id, .failure(.writeFailed)))
                case .schedule(let request, _) where exactRefused && request.precision == nil:
                    pending.append(.scheduleCompleted(request.id, .failure(.securityException)))
                case .schedule(let request, _):
                    daemon.removeAll { $0.id == request.id }
                    daemon.append(PlatformAlarm(id: request.id, state: .scheduled))
                    daemon.sort { $0.id < $1.id }
                    pending.append(.scheduleCompleted(request.id, .success(request.fireWallMs)))
                case .cancel(let id, _):
                    daemon.removeAll { $0.id == id }
                case .readReceipts:
                    pending.append(.receiptsRead(storeReadable ? .success(receipts) : .failure(.unavailable)))
                case .writeReceipt(let receipt):
                    receipts.removeAll { $0.token == receipt.token }
                    receipts.append(receipt)
                    pending.append(.receiptWritten(token: receipt.token, succeeded: true))
                case .deleteReceipt(let token):
                    receipts.removeAll { $0.token == token }
                case .writeFailedWakeDay(let day):
                    failedWakeDays.append(day)
                    pending.append(.failedWakeDayWritten(token: day.token, succeeded: true))
                default:
                    break
                }
            }
        }
        return all
    }

    static func schedulerCalls(_ commands: [BridgeCommand]) -> [BridgeCommand] {
        commands.filter { command in
            switch command {
            case .schedule, .cancel, .stop: return true
            default: return false
            }
        }
    }
}

struct BridgeCoreTests {
    let weekly = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday, .wednesday]), title: "Wake up")

    @Test("SCH-20: a second sync with unchanged inputs and an unchanged daemon issues zero scheduler calls",
          arguments: PlatformFlavor.allCases)
    func secondSyncIsIdle(flavor: PlatformFlavor) {
        var harness = BridgeHarness(flavor: flavor)
        _ = harness.send(.processStarted(.user))
        let first = harness.send(.api(.saveAlarm(weekly)))
        #expect(BridgeHarness.schedulerCalls(first).count == 2)  // one primary per root (SCH-1)
        _ = harness.send(.api(.syncEnabledAlarms))
        let second = harness.send(.api(.syncEnabledAlarms))
        #expect(BridgeHarness.schedulerCalls(second).isEmpty)
    }

    @Test("ID-2, ID-3: editing the title keeps every primary ID; only the fingerprint re-registers it")
    func titleEditKeepsIDs() {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        let before = harness.daemon.map(\.id)
        var edited = weekly
        edited.title = "Gym"
        let calls = harness.send(.api(.saveAlarm(edited)))
        #expect(harness.daemon.map(\.id) == before)
        #expect(calls.contains { if case .schedule(let request, _) = $0 { return request.metadata.title == "Gym" }; return false })
        #expect(RingIdentity.primaryID(rootID: "wake.mon", fireKey: .localTime(hour: 7, minute: 0)) == before.first { id in
            harness.stored?.row(id)?.metadata.rootID == "wake.mon"
        })
    }

    @Test("the title-in-ring-id defect changes the ID on a title edit (the known defect has teeth)")
    func titleDefectChangesIDs() {
        var defects = KnownDefects()
        defects.titleInRingID = true
        var harness = BridgeHarness(defects: defects)
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        let before = harness.daemon.map(\.id)
        var edited = weekly
        edited.title = "Gym"
        _ = harness.send(.api(.saveAlarm(edited)))
        #expect(harness.daemon.map(\.id) != before)
    }

    @Test("BOOT-2, BOOT-4: an unreadable store holds the gate and makes no scheduler call")
    func unreadableHolds() {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        var relaunched = BridgeHarness()
        relaunched.daemon = harness.daemon
        relaunched.stored = harness.stored
        let commands = relaunched.send(.processStarted(.intent), storeReadable: false)
        #expect(commands.contains(.launchGate(.waitingForUnlock)))
        #expect(BridgeHarness.schedulerCalls(commands).isEmpty)
        #expect(relaunched.core.phase == .gated(.waitingForUnlock))
        _ = relaunched.send(.protectedDataAvailable)
        #expect(relaunched.core.phase == .ready)
    }

    @Test("BOOT-5, BOOT-6: no domain + daemon alarms holds; a fresh install (no domain, no alarms) launches")
    func domainAbsent() {
        var fresh = BridgeHarness()
        #expect(fresh.send(.processStarted(.user)).contains(.launchGate(.released)))
        var orphaned = BridgeHarness()
        orphaned.daemon = [PlatformAlarm(id: RingIdentity.primaryID(rootID: "x", fireKey: .wallMinute(1)), state: .scheduled)]
        let commands = orphaned.send(.processStarted(.user))
        #expect(commands.contains(.launchGate(.waitingForSavedDomain)))
        #expect(BridgeHarness.schedulerCalls(commands).isEmpty)
    }

    @Test("OCC-5..7: a Stop arms exactly one successor 10 s later; a concurrent trigger reuses it")
    func oneSuccessor() throws {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        _ = harness.send(.didEnterBackground)
        let primary = try #require(harness.daemon.first { harness.stored?.row($0.id)?.metadata.rootID == "wake.mon" }).id
        harness.advance(3_600_000)  // 07:00, Monday
        let stop = harness.send(.stopIntent(primary))
        let successors = stop.compactMap { command -> RingRequest? in
            if case .schedule(let request, .lifecycle) = command, request.metadata.kind == .successor { return request }
            return nil
        }
        #expect(successors.count == 1)
        #expect(successors.first?.fireWallMs == harness.now.wallMs + 10_000)
        let again = harness.send(.alarmUpdates(harness.daemon))
        #expect(!again.contains { if case .schedule = $0 { return true }; return false })
    }

    /// A fresh install saves the weekly alarm; at its Monday ring time the user presses Stop.
    func stoppedAtRingTime() throws -> BridgeHarness {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        let primary = try #require(harness.daemon.first { harness.stored?.row($0.id)?.metadata.rootID == "wake.mon" }).id
        harness.advance(3_600_000)
        _ = harness.send(.stopIntent(primary))
        return harness
    }

    @Test("REC-9: a clock correction during a live occurrence keeps its remaining time; the ring time and token stay")
    func clockCorrectionKeepsRemainingTime() throws {
        var harness = try stoppedAtRingTime()
        let before = try #require(harness.stored?.liveOccurrence)
        harness.now.wallMs -= 3_600_000  // the user sets the clock back an hour: wall only
        harness.advance(29 * 60_000)
        _ = harness.send(.timerFired(.expiryCheck))
        let shifted = try #require(harness.stored?.liveOccurrence, "29 of 30 minutes gone: still live")
        #expect(shifted.token == before.token && shifted.startedAtMs == before.startedAtMs)
        #expect(shifted.inactivityClockOffsetMs == -3_600_000)
        #expect(shifted.deadlineMs == before.deadlineMs - 3_600_000)
        harness.advance(2 * 60_000)
        _ = harness.send(.timerFired(.expiryCheck))
        #expect(harness.stored?.liveOccurrence == nil, "31 minutes after the Stop: expired, not an hour later")
    }

    @Test("INACT-16: expiry persists the miss receipt before it stops or cancels any ring")
    func receiptFirst() throws {
        var harness = try stoppedAtRingTime()
        harness.advance(31 * 60_000)  // policy 3: 30 min after the last genuine activity
        let commands = harness.send(.timerFired(.expiryCheck))
        let receiptIndex = try #require(commands.firstIndex { command in
            if case .persist(let document) = command { return document.missReceipts.count == 1 }
            return false
        })
        let firstSilence = commands.firstIndex { command in
            switch command {
            case .stop(_, .expiry), .cancel(_, .expiry): return true
            default: return false
            }
        }
        #expect(firstSilence.map { receiptIndex < $0 } ?? true)
        #expect(firstSilence != nil)
        #expect(harness.stored?.liveOccurrence == nil)
    }
}

struct OccurrenceRuleTests {
    let weekly = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday]), title: "Wake up")

    @Test("INACT-1: a newly created schedule carries inactivityPolicyVersion 3")
    func newSchedulesCarryV3() {
        #expect(LogicalAlarm(id: "x", hour: 6, minute: 0, repeats: .weekly([.monday]), title: "x").policy == .v3)
    }

    @Test("INACT-2, INACT-3: the deadline is the policy timeout after the later of ring time and last genuine activity; legacy lives 20 h",
          arguments: [(InactivityPolicy.v3, Int64(30 * 60_000)), (.v2, 15 * 60_000), (.legacy, 20 * 3_600_000)])
    func deadlines(policy: InactivityPolicy, timeoutMs: Int64) {
        var occurrence = OccurrenceRecord(token: "t", rootID: "r", startedAtMs: 1_000_000, policy: policy,
                                          lastActivityMs: nil, state: .live, closedAtMs: nil)
        #expect(occurrence.deadlineMs == 1_000_000 + timeoutMs)
        occurrence.lastActivityMs = 1_000_000 + 600_000
        let expected = policy == .legacy ? 1_000_000 + timeoutMs : 1_600_000 + timeoutMs
        #expect(occurrence.deadlineMs == expected)
    }

    @Test("ID-5: the fingerprint of an unchanged configuration is the same when recomputed later")
    func fingerprintIsStable() throws {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        let before = try #require(harness.stored?.rings.first?.fingerprint)
        harness.advance(25 * 60_000)
        _ = harness.send(.api(.syncEnabledAlarms))
        #expect(harness.stored?.rings.first?.fingerprint == before)
    }

    @Test("ID-6, OCC-1: the occurrence token survives process death, and a second due root is a pass-over, not a second owner")
    func tokenSurvivesAndOneOwner() throws {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        _ = harness.send(.api(.saveAlarm(LogicalAlarm(id: "gym", hour: 7, minute: 5, repeats: .weekly([.monday]), title: "Gym"))))
        let wake = try #require(harness.daemon.first { harness.stored?.row($0.id)?.metadata.rootID == "wake.mon" }).id
        let gym = try #require(harness.daemon.first { harness.stored?.row($0.id)?.metadata.rootID == "gym.mon" }).id
        harness.advance(3_600_000)
        _ = harness.send(.stopIntent(wake))
        let token = try #require(harness.stored?.liveOccurrence?.token)
        // Process death: a new core over the same store and daemon.
        var relaunched = BridgeHarness()
        relaunched.stored = harness.stored
        relaunched.daemon = harness.daemon
        relaunched.now = harness.now
        relaunched.advance(5 * 60_000)
        _ = relaunched.send(.processStarted(.intent))
        let passOver = relaunched.send(.stopIntent(gym))
        #expect(relaunched.stored?.liveOccurrence?.token == token)
        #expect(relaunched.stored?.liveOccurrence?.rootID == "wake.mon")
        #expect(relaunched.stored?.occurrences.filter { $0.state == .live }.count == 1)
        #expect(passOver.contains { if case .note(let text) = $0 { return text.hasPrefix("pass-over") }; return false })
    }

    @Test("OCC-7, OCC-8: a second trigger while a successor is pending reuses it; no second successor is armed")
    func reuseSuccessor() throws {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        let wake = try #require(harness.daemon.first).id
        harness.advance(3_600_000)
        _ = harness.send(.stopIntent(wake))
        let resign = harness.send(.willResignActive)
        #expect(!resign.contains { if case .schedule = $0 { return true }; return false })
        #expect(harness.stored?.rings.filter { $0.metadata.kind == .successor }.count == 1)
    }

    @Test("AND-2, AND-3: Android keeps its state in device-protected storage and re-arms every primary after a reboot")
    func androidBootRestore() {
        var harness = BridgeHarness(flavor: .android)
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(weekly)))
        let armed = harness.daemon.map(\.id)
        #expect(armed.count == 1)
        var booted = BridgeHarness(flavor: .android)  // reboot: AlarmManager cleared, store kept
        booted.stored = harness.stored
        booted.now = harness.now
        let commands = booted.send(.processStarted(.broadcast))
        _ = booted.send(.bootCompleted(locked: true))
        #expect(booted.daemon.map(\.id) == armed)
        #expect(commands.contains { if case .schedule(_, .launchSync) = $0 { return true }; return false })
    }
}

struct ActionJournalTests {
    @Test("ACT-1: a Stop that reaches a bridge which cannot read its store is journalled at once, and a new process acts on it")
    func stopJournalledBeforeFirstUnlock() throws {
        var harness = BridgeHarness()
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday]), title: "Wake"))))
        let primary = try #require(harness.daemon.first).id
        var locked = BridgeHarness()
        locked.stored = harness.stored
        locked.daemon = harness.daemon
        locked.advance(3_600_000)
        _ = locked.send(.processStarted(.intent), storeReadable: false)
        let commands = locked.send(.stopIntent(primary), storeReadable: false)
        let entries = commands.compactMap { if case .appendJournal(let entry) = $0 { return entry }; return nil }
        #expect(entries.map(\.ringID) == [primary])
        #expect(BridgeHarness.schedulerCalls(commands).isEmpty)  // BOOT-2: no decision yet
        // The process dies; a new one (after the unlock) reads the journal and arms the successor.
        var next = BridgeHarness()
        next.stored = harness.stored
        next.daemon = harness.daemon
        next.now = locked.now
        _ = next.core.handle(.processStarted(.user), at: next.now)
        _ = next.core.handle(.journalLoaded(entries), at: next.now)
        _ = next.core.handle(.receiptsRead(.success([])), at: next.now)  // IOS-10: no receipt survived
        let ready = next.send(.storeLoaded(.success(harness.stored)))
        #expect(ready.contains { if case .schedule(let request, .lifecycle) = $0 { return request.metadata.kind == .successor }; return false })
        #expect(ready.contains(.persistJournal([])))
    }
}

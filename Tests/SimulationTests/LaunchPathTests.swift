import AlarmBridge
import Foundation
import Scenario
import IOSModel
@testable import Simulation
import Testing

/// The launch path's invariants have teeth: each rule scenario passes as written and reports the
/// named violation with its defect switched on; each pure check fires on a crafted bad state.
struct LaunchPathScenarioTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var file: String
        var defect: String
        var invariant: String
        var testDescription: String { "\(file) + \(defect) → \(invariant)" }
    }

    static let cases = [
        Case(file: "receipt-survives-reinstall", defect: "receipt-deleted-before-write", invariant: "receipt-lifecycle"),
        Case(file: "kill-switch-timeout-fails-open", defect: "kill-switch-fails-closed", invariant: "fail-open"),
        Case(file: "kill-switch-network-failure-fails-open", defect: "kill-switch-fails-closed", invariant: "fail-open"),
        Case(file: "launch-ignores-js-cache", defect: "gate-trusts-js-cache", invariant: "unreadable-is-not-empty"),
    ]

    static func text(_ file: String) throws -> String {
        let url = FieldBugScenarioTests.directory.deletingLastPathComponent().appendingPathComponent("rules/\(file).scenario")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test("IOS-10, BOOT-12, BOOT-3: with its defect a launch-path rule scenario reports the named violation", arguments: cases)
    func defectIsCaught(_ testCase: Case) throws {
        let lines = try Self.text(testCase.file).split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("platform ") { return line + "\ndefect \(testCase.defect)" }
            if line.hasPrefix("expect no violations") { return "expect violation \(testCase.invariant)" }
            return String(line)
        }
        let outcome = ScenarioRunner.run(try FieldBugScenarioTests.parse(lines.joined(separator: "\n"), testCase.file))
        #expect(outcome.result.firstViolation?.invariant == testCase.invariant, "\(outcome.result.firstViolation?.message ?? "no violation")")
    }

    @Test("IOS-10: a surviving receipt becomes a failed wake day before release; failed writes keep the receipt and hold startup")
    func reinstallRecordsFailedWakeDay() throws {
        let outcome = ScenarioRunner.run(try FieldBugScenarioTests.parse(try Self.text("receipt-survives-reinstall"), "r"))
        #expect(outcome.passed, "\(outcome.failures)")
        let events = outcome.result.trace.events
        let failedWrites = events.filter { $0.component == "app-state" && $0.name == "write-failed" }
        let written = try #require(events.firstIndex { $0.component == "app-state" && $0.name == "failed-wake-day" })
        let deleted = try #require(events.lastIndex { $0.component == "keychain" && $0.name == "delete" })
        let released = try #require(events.lastIndex { $0.component == "bridge" && $0.name == "launch-gate" })
        #expect(failedWrites.count == 2)
        #expect(written < deleted && written < released)
    }

    @Test("BOOT-12: an explicit disabled holds sync scheduler calls but never the wake-up's pressure")
    func disabledKeepsWakeUpLoud() throws {
        let outcome = ScenarioRunner.run(try FieldBugScenarioTests.parse(try Self.text("kill-switch-disabled-keeps-the-wake-up-loud"), "d"))
        #expect(outcome.passed, "\(outcome.failures)")
        let events = outcome.result.trace.events
        #expect(events.contains { $0.component == "bridge" && $0.name == "remote-scheduling" })
        #expect(events.contains { $0.component == "bridge" && $0.name == "schedule" && $0.fields.contains { $0.value == "successor" } })
    }
}

/// Every pure judgement of Invariants+Occurrence.swift fires on a crafted bad state and stays
/// quiet on a good one.
struct OccurrenceCheckTests {
    static func record(_ token: String, root: String = "a1.mon", start: Int64 = 1_000_000, policy: InactivityPolicy = .v3,
                       state: OccurrenceState = .live) -> OccurrenceRecord {
        OccurrenceRecord(token: token, rootID: root, startedAtMs: start, policy: policy, lastActivityMs: nil, state: state, closedAtMs: nil)
    }

    @Test("single-owner (OCC-1): two live occurrences in one write is a violation, one is not")
    func singleOwner() {
        var document = BridgeDocument()
        document.occurrences = [Self.record("t1"), Self.record("t2", root: "a2")]
        #expect(OccurrenceChecks.singleOwner(document) != nil)
        document.occurrences[1].state = .completed
        #expect(OccurrenceChecks.singleOwner(document) == nil)
    }

    @Test("occurrence-identity (ID-6, ID-8, INACT-1): a changed ring time or policy, or a policy unlike the schedule's, fires")
    func identity() {
        let known = OccurrenceChecks.Identity(rootID: "a1.mon", startedAtMs: 1_000_000, policy: .v3)
        #expect(OccurrenceChecks.identity(of: Self.record("t"), known: known, configuredPolicy: .v3) == nil)
        #expect(OccurrenceChecks.identity(of: Self.record("t", start: 1_060_000), known: known, configuredPolicy: .v3) != nil)
        #expect(OccurrenceChecks.identity(of: Self.record("t", policy: .v2), known: known, configuredPolicy: .v3) != nil)
        #expect(OccurrenceChecks.identity(of: Self.record("t", policy: .v2), known: nil, configuredPolicy: .v3) != nil)
    }

    @Test("bounded-life (OCC-21, INACT-2): live past the effective expiry or 20 h after the start fires")
    func boundedLife() {
        let live = Self.record("t", policy: .legacy)
        #expect(OccurrenceChecks.boundedLife(live, wallMs: 1_000_000 + 3_600_000) == nil)
        #expect(OccurrenceChecks.boundedLife(live, wallMs: 1_000_000 + 20 * 3_600_000) != nil)
        #expect(OccurrenceChecks.boundedLife(Self.record("t"), wallMs: 1_000_000 + 30 * 60_000) != nil)
    }

    @Test("completion-scope (OCC-12, OCC-13): two completions in one write, or one JS did not ask for, fires")
    func completionScope() {
        var before = BridgeDocument()
        before.occurrences = [Self.record("t1"), Self.record("t2", root: "a1.tue", state: .expired)]
        var after = before
        after.occurrences[0].state = .completed
        #expect(OccurrenceChecks.completionScope(before: before, after: after, requested: ("a1.mon", "t1")) == nil)
        #expect(OccurrenceChecks.completionScope(before: before, after: after, requested: ("a1.mon", "t9")) != nil)
        after.occurrences[1].state = .completed
        #expect(OccurrenceChecks.completionScope(before: before, after: after, requested: ("a1.mon", "t1")) != nil)
    }

    @Test("root-ids-outward (ID-10, API-1): a ring UUID or an unknown ID handed to JS fires; a root ID does not")
    func rootIDsOutward() {
        let ring = RingIdentity.primaryID(rootID: "a1.mon", fireKey: .wallMinute(1)).description
        #expect(OccurrenceChecks.rootIDOutward(ring, knownRootIDs: ["a1.mon"]) != nil)
        #expect(OccurrenceChecks.rootIDOutward("a1", knownRootIDs: ["a1.mon"]) != nil)
        #expect(OccurrenceChecks.rootIDOutward("a1.mon", knownRootIDs: ["a1.mon"]) == nil)
    }

    @Test("launch-gate (BOOT-5, BOOT-6): release without a saved domain while the daemon holds alarms fires; a fresh install does not")
    func gateRelease() {
        #expect(OccurrenceChecks.gateRelease(savedDomainExists: false, daemonAlarmCount: 2) != nil)
        #expect(OccurrenceChecks.gateRelease(savedDomainExists: false, daemonAlarmCount: 0) == nil)
        #expect(OccurrenceChecks.gateRelease(savedDomainExists: true, daemonAlarmCount: 2) == nil)
    }

    @Test("receipt-lifecycle (IOS-10): deleting a survivor before its failed wake day is written fires")
    func survivorDeletion() {
        let survivor = WakeReceipt(token: "t", rootID: "a1.mon", startedAtMs: 1)
        #expect(OccurrenceChecks.survivorDeletion(token: "t", survivors: [survivor], failedWakeDays: []) != nil)
        let day = FailedWakeDay(token: "t", rootID: "a1.mon", startedAtMs: 1, recordedAtMs: 2)
        #expect(OccurrenceChecks.survivorDeletion(token: "t", survivors: [survivor], failedWakeDays: [day]) == nil)
    }

    @Test("fail-open (BOOT-12): disabled after anything but an explicit disabled fires", arguments: KillSwitchResponse.allCases)
    func failOpen(_ answer: KillSwitchResponse) {
        let message = OccurrenceChecks.failOpen(declared: .disabledByKillSwitch, lastAnswer: answer)
        #expect((message == nil) == (answer == .disabled))
        #expect(OccurrenceChecks.failOpen(declared: .enabled, lastAnswer: answer) == nil)
    }

    @Test("the catalog lists every launch and occurrence invariant with its rules")
    func catalog() {
        for id in ["single-owner", "occurrence-identity", "bounded-life", "completion-scope", "launch-gate", "root-ids-outward",
                   "receipt-lifecycle", "fail-open"] {
            #expect(InvariantCatalog.info(id)?.rules.isEmpty == false, "\(id)")
        }
    }
}

/// IOS-15: the never-silent judgement counts AlarmKit alarms only, never a notification.
struct IOSPressureTests {
    @Test("IOS-15: a notification is never pressure, whatever level it asked for and whatever the entitlements",
          arguments: NotificationInterruptionLevel.allCases)
    func notificationsAreNoPressure(_ level: NotificationInterruptionLevel) {
        for entitlements in [NotificationEntitlements(), NotificationEntitlements(timeSensitive: true, criticalAlerts: true)] {
            #expect(!IOSPressure.counts(.notification(requested: level, entitlements: entitlements)))
        }
        #expect(IOSPressure.counts(.alarmKitAlarm))
    }
}

/// Seeds on which a launch checker once misjudged the bridge (a held gate after an injected
/// inventory read failure is no BOOT-7 violation: the gate cannot know yet, BOOT-2). Kept clean.
struct LaunchCheckerSeedTests {
    @Test("ios seeds 2541, 4208, 4254 stay clean", arguments: [UInt64(2541), 4208, 4254])
    func staysClean(seed: UInt64) {
        let result = Simulator.run(RunOptions(platform: .ios, seed: seed))
        #expect(result.firstViolation == nil, "\(result.firstViolation?.message ?? "")")
    }
}

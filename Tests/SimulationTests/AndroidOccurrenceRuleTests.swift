import Foundation
import Scenario
import Simulation
import Testing

/// The Android occurrence rules' scenarios pass with the correct bridge, and each new invariant
/// can fail: with its known defect switched on, the same scenario reports that invariant.
struct AndroidOccurrenceRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var scenario: String
        var defect: String
        var invariant: String
        var testDescription: String { "\(scenario) with \(defect) → \(invariant)" }
    }

    static let cases: [Case] = [
        Case(scenario: "android-retry-discarded-on-abandonment", defect: "retry-survives-closure", invariant: "bound-retries"),
        Case(scenario: "android-lock-screen-grant-revoked-on-background", defect: "lock-screen-grant-kept", invariant: "lock-screen-grant"),
        Case(scenario: "android-pass-over-queue", defect: "pass-over-queue-rings", invariant: "pass-over-silent"),
        Case(scenario: "android-recent-steps-postpone-retry", defect: "step-suppression-drops-retry", invariant: "never-silent"),
    ]

    static func text(_ name: String) throws -> String {
        let url = FieldBugScenarioTests.directory.deletingLastPathComponent().appendingPathComponent("rules/\(name).scenario")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test("the rule scenario passes with no violation; with the defect it reports the invariant", arguments: cases)
    func invariantCanFail(_ rule: Case) throws {
        let text = try Self.text(rule.scenario)
        let clean = ScenarioRunner.run(try FieldBugScenarioTests.parse(text, rule.scenario))
        #expect(clean.passed, "\(clean.failures)")
        #expect(clean.result.violations.isEmpty)
        let broken = text.replacingOccurrences(of: "expect no violations", with: "defect \(rule.defect)\nexpect violation \(rule.invariant)")
        let outcome = ScenarioRunner.run(try FieldBugScenarioTests.parse(broken, rule.scenario))
        #expect(outcome.result.firstViolation?.invariant == rule.invariant, "\(outcome.result.firstViolation?.message ?? "no violation")")
    }

    @Test("the Android user's alarm-screen verbs are malformed in an iOS scenario",
          arguments: ["user volume-key", "user lower-alarm-volume", "user start-wake-up-check"])
    func androidOnlyUserVerbs(line: String) throws {
        let text = "platform ios\nstart 2026-03-02 06:55 UTC\nalarm wake 07:00 once\nat 07:00:10 \(line)\n"
        let scenario = try FieldBugScenarioTests.parse(text, "v.scenario")
        #expect(throws: ScenarioError.self) { try ScenarioRunner.validate(scenario, source: text) }
    }

    @Test("the Android invariants are in the catalog with their rule IDs")
    func catalog() {
        #expect(InvariantCatalog.info("bound-retries")?.rules.contains("AND-13") == true)
        #expect(InvariantCatalog.info("lock-screen-grant")?.rules == ["AND-10", "AND-11", "AND-12"])
        #expect(InvariantCatalog.info("pass-over-silent")?.rules.contains("AND-15") == true)
    }

    @Test("W_STEP is drawn per seed, printed with the run's parameters, and varies across seeds")
    func recentStepWindowIsAParameter() {
        let windows = (UInt64(1)...8).compactMap { seed -> String? in
            Simulator.run(RunOptions(platform: .android, seed: seed)).parameters.first { $0.name == "bridge.w-step-ms" }?.value
        }
        #expect(windows.count == 8)
        #expect(Set(windows).count > 1)
        #expect(windows.allSatisfy { Int64($0).map { (15_000...180_000).contains($0) } ?? false })
    }
}

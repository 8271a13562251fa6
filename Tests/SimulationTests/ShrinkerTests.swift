import Foundation
import AlarmBridge
@testable import Scenario
import Simulation
import Testing

/// The faithful export of a fuzz seed and the shrinker built on it (debug builds are slow: a
/// few seeds and a modest budget each).
@Suite("Shrinker")
struct ShrinkerTests {
    static func parse(_ text: String) throws -> ScenarioFile {
        try ScenarioParser.parse(text, file: "shrunk.scenario", knownDefects: KnownDefect.allCases.map(\.rawValue),
                                 knownInvariants: InvariantCatalog.all.map(\.id))
    }

    /// The first seed in 1...200 whose fuzz setup starts from a legacy install.
    static func legacySeed(_ platform: PlatformFlavor) -> UInt64 {
        (1...200).first { SeedGenerator.setup(platform: platform, seed: $0).0.legacyInstall != nil }!
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var platform: PlatformFlavor
        var seed: UInt64
        var defects: [KnownDefect]
        var testDescription: String { "\(platform.rawValue) seed \(seed) \(defects.map(\.rawValue))" }
    }

    @Test("the exported scenario of a fuzz seed, printed and parsed back, replays it: same trace hash and first violation",
          arguments: [Case(platform: .ios, seed: 1, defects: [.titleInRingID]), Case(platform: .ios, seed: 5, defects: []),
                      Case(platform: .android, seed: 48, defects: [.resyncWhileAlerting]), Case(platform: .android, seed: 3, defects: []),
                      Case(platform: .ios, seed: legacySeed(.ios), defects: []), Case(platform: .android, seed: legacySeed(.android), defects: [])])
    func exportReplaysTheSeed(_ c: Case) throws {
        let (setup, parameters) = SeedGenerator.setup(platform: c.platform, seed: c.seed)
        let original = Simulator.run(setup: setup, parameters: parameters,
                                     options: RunOptions(platform: c.platform, seed: c.seed, defects: c.defects))
        let exported = try ScenarioExport.scenario(from: setup, defects: c.defects, invariant: original.firstViolation?.invariant)
        let text = ScenarioPrinter.print(exported)
        var parsed = try Self.parse(text)
        try ScenarioRunner.validate(parsed, source: text)
        parsed.path = exported.path
        #expect(parsed.withoutSourcePositions() == exported.withoutSourcePositions())
        #expect(parsed.events.count == setup.plan.count)
        let replay = ScenarioRunner.run(parsed)
        #expect(replay.result.firstViolation?.invariant == original.firstViolation?.invariant)
        #expect(replay.result.firstViolation?.wallMs == original.firstViolation?.wallMs)
        #expect(replay.result.traceHashHex == original.traceHashHex)
        #expect(replay.passed, "\(replay.failures.joined(separator: "; "))")
    }

    @Test("a shrunk failing seed parses, prints stably, has at most 12 events and replays to the same invariant",
          arguments: [Case(platform: .ios, seed: 1, defects: [.titleInRingID]),
                      Case(platform: .android, seed: 48, defects: [.resyncWhileAlerting])])
    func shrinkIsSmallAndReplays(_ c: Case) throws {
        let result = try #require(Shrinker.shrink(platform: c.platform, seed: c.seed, defects: c.defects, budget: 300))
        #expect(result.shrunkEvents <= 12)
        #expect(result.shrunkEvents <= result.originalEvents)
        #expect(result.shrunkAlarms <= result.originalAlarms)
        #expect(result.candidateRuns <= 300)
        #expect(result.text == ScenarioPrinter.print(result.scenario))
        let parsed = try Self.parse(result.text)
        try ScenarioRunner.validate(parsed, source: result.text)
        #expect(ScenarioPrinter.print(parsed) == result.text)
        #expect(parsed.defects == c.defects.map(\.rawValue))
        #expect(parsed.expectations.map { $0 == .violation(result.invariant, line: $0.lineForTest) } == [true])
        let replay = ScenarioRunner.run(parsed)
        #expect(replay.passed, "\(replay.failures.joined(separator: "; "))")
        #expect(replay.result.firstViolation?.invariant == result.invariant)
    }

    @Test("a shrunk seed fails with the original's subject and shape, names only alarms the app saved, and keeps a timed event",
          arguments: [Case(platform: .ios, seed: 1, defects: [.titleInRingID]),
                      Case(platform: .android, seed: 48, defects: [.resyncWhileAlerting])])
    func shrinkKeepsTheSameBug(_ c: Case) throws {
        let (setup, _) = SeedGenerator.setup(platform: c.platform, seed: c.seed)
        let original = try #require(Simulator.run(RunOptions(platform: c.platform, seed: c.seed, defects: c.defects)).firstViolation)
        let result = try #require(Shrinker.shrink(platform: c.platform, seed: c.seed, defects: c.defects, budget: 300))
        #expect(result.isShrunk && result.shrunkEvents > 0)
        let replay = ScenarioRunner.run(try Self.parse(result.text))
        let shrunk = try #require(replay.result.firstViolation)
        let target = ShrinkTarget(original, alarmNames: setup.alarms.map(\.id))
        #expect(ShrinkTarget(shrunk, alarmNames: result.scenario.alarms.map(\.name)) == target)
        #expect(!target.roots.isEmpty)
        #expect(target.alarmNames.allSatisfy(replay.result.savedAlarmIDs.contains))
    }

    @Test("a legacy install's alarm is not this bridge's saved alarm until a process of it ran (iOS uniform 249's shrink)")
    func legacyAlarmNeedsALaunch() throws {
        // The world iOS uniform 249 shrank to before the guard: the updated app never launches,
        // so whatever the older version left in AlarmKit is all that can ring.
        let base = """
            platform ios
            start 2026-12-27 21:35:58 America/New_York
            seed 249
            param sim.first-launch scripted
            param app.legacy-install swarm
            alarm a1 09:21 once policy legacy

            """
        let never = ScenarioRunner.run(try Self.parse(base + "at +1d 09:21 user leave-app\n"))
        #expect(never.result.savedAlarmIDs.isEmpty, "no process ran: the legacy alarm is not the bridge's")
        let opened = ScenarioRunner.run(try Self.parse(base + "at 21:40 user open-app\nat 21:41 user leave-app\n"))
        #expect(opened.result.savedAlarmIDs == ["a1"], "a launch makes the migrated alarm the bridge's")
    }

    @Test("a shrink target keeps the invariant, the roots and the clause, and ignores IDs, numbers, quoted text and call lists")
    func shrinkTargetShape() {
        func target(_ invariant: String, _ message: String) -> ShrinkTarget {
            ShrinkTarget(Violation(invariant: invariant, rules: [], message: message, trueMs: 0, wallMs: 0, eventIndex: 0),
                         alarmNames: ["a1", "a2", "a3"])
        }
        let owner = target("pressure-belongs-to-owner", "successor 71036abf-9c85-5135-b6f1-5b64b408e6c4 armed for a3.thu while no occurrence is live")
        #expect(owner.roots == ["a3.thu"])
        #expect(owner.shape == "successor ‹ring› armed for ‹root› while no occurrence is live")
        #expect(owner == target("pressure-belongs-to-owner", "successor f45ad930-b1c1-5d3b-b519-a96efff28869 armed for a3.thu while no occurrence is live"))
        // Another root, another ring kind, another clause, another invariant: another bug.
        #expect(owner != target("pressure-belongs-to-owner", "successor 71036abf-9c85-5135-b6f1-5b64b408e6c4 armed for a2.thu while no occurrence is live"))
        #expect(owner != target("pressure-belongs-to-owner", "walk-fuse 71036abf-9c85-5135-b6f1-5b64b408e6c4 armed for a3.thu while no occurrence is live"))
        #expect(owner != target("pressure-belongs-to-owner", "successor 71036abf-9c85-5135-b6f1-5b64b408e6c4 armed for a3.thu, which does not own the live occurrence (a1 does)"))
        #expect(owner != target("no-resurrection", "successor 71036abf-9c85-5135-b6f1-5b64b408e6c4 armed for a3.thu while no occurrence is live"))
        let stable = target("stable-ids", "primary of a1.mon at 2026-12-21 05:09 changed ID from 8f2a2db3-… to 7c50818c-… (title now \"Alarm 1 edit 1\")")
        #expect(stable.roots == ["a1.mon"])
        #expect(stable == target("stable-ids", "primary of a1.mon at 2026-12-22 07:10 changed ID from 0a2a2db3-… to 1c50818c-… (title now \"a1\")"))
        // A list after ": " may shrink: only the clause before it is the shape.
        #expect(target("idempotent-sync", "a second sync with no intervening change issued 7 scheduler call(s): cancel(x); cancel(y)")
                == target("idempotent-sync", "a second sync with no intervening change issued 1 scheduler call(s): cancel(z)"))
    }

    @Test("a failure that needs the fuzz run's reactive user shrinks to explicit timed lines, with the switch off")
    func reactionsBecomeExplicit() throws {
        // ios seed 327 (282 before the late-delivery oracle fix changed its trajectory): the sleepy user double-taps Snooze (a reaction to the alert, not a plan line).
        let (setup, parameters) = SeedGenerator.setup(platform: .ios, seed: 327)
        let original = Simulator.run(setup: setup, parameters: parameters,
                                     options: RunOptions(platform: .ios, seed: 327, defects: [.snoozeLatchAfterArm]))
        #expect(!original.reactiveActions.isEmpty)
        #expect(!setup.plan.contains { if case .userSnooze = $0.action { return true } else { return false } })
        let result = try #require(Shrinker.shrink(platform: .ios, seed: 327, defects: [.snoozeLatchAfterArm], budget: 200))
        #expect(!result.scenario.parameters.contains { $0.key == "sim.reactive-user" })
        #expect(result.scenario.events.filter { $0.actor == "user" && $0.verb == "snooze" }.count == 2)
        let replay = ScenarioRunner.run(try Self.parse(result.text))
        #expect(replay.result.firstViolation?.invariant == "snooze-once")
    }

    @Test("every committed shrunk scenario (regressions' -shrunk files and Scenarios/defects) passes without its defect lines (the bug, not the scenario, fails)")
    func shrunkRegressionsPassWithoutDefect() throws {
        let shrunk = InvariantSuiteTests.regressions.filter { $0.hasSuffix("-shrunk.scenario") || $0.contains("/defects/") }
        #expect(shrunk.count >= 40)
        for path in shrunk {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("\ndefect "), "\(path) has no defect line")
            let fixed = text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
                if line.hasPrefix("defect ") { return nil }
                if line.hasPrefix("expect violation") { return "expect no violations" }
                return String(line)
            }.joined(separator: "\n")
            let outcome = ScenarioRunner.run(try Self.parse(fixed))
            #expect(outcome.passed, "\(path): \(outcome.failures.joined(separator: "; "))")
        }
    }

    @Test("shrinking is deterministic: the same seed gives the same file, byte for byte")
    func shrinkIsDeterministic() throws {
        let first = try #require(Shrinker.shrink(platform: .ios, seed: 1, defects: [.titleInRingID], budget: 120))
        let second = try #require(Shrinker.shrink(platform: .ios, seed: 1, defects: [.titleInRingID], budget: 120))
        #expect(first.text == second.text)
        #expect(first.candidateRuns == second.candidateRuns)
    }

    @Test("a seed that does not fail has nothing to shrink")
    func passingSeedGivesNil() {
        #expect(Shrinker.shrink(platform: .ios, seed: 2, defects: [], budget: 10) == nil)
    }

    @Test("the budget bounds the candidate runs")
    func budgetIsRespected() throws {
        let result = try #require(Shrinker.shrink(platform: .android, seed: 48, defects: [.resyncWhileAlerting], budget: 5))
        #expect(result.candidateRuns <= 5)
        let replay = ScenarioRunner.run(try Self.parse(result.text))
        #expect(replay.result.firstViolation?.invariant == result.invariant)
    }
}

extension ScenarioExpectation {
    var lineForTest: Int {
        switch self {
        case .violation(_, let line), .noViolations(let line): return line
        }
    }
}

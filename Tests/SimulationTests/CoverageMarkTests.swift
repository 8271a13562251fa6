import AlarmBridge
import Foundation
import Scenario
import Simulation
import Testing

/// The coverage catalog's shape, and marks reached by short scripted scenarios: each mark is
/// counted where its state or transition happens (CoverageMarks.swift), so a scenario built to
/// reach that state must count it.
@Suite("Coverage marks")
struct CoverageMarkTests {
    static let rulesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenarios/rules")

    @Test("the catalog is in stable order: each raw value is its index, names are unique kebab-case")
    func catalogShape() {
        #expect(CoverageMark.allCases.count >= 30)
        for (index, mark) in CoverageMark.allCases.enumerated() {
            #expect(mark.rawValue == index)
            #expect(CoverageMark(name: mark.name) == mark)
            #expect(!mark.name.isEmpty && mark.name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(mark.name)")
            #expect(!mark.info.platforms.isEmpty)
            #expect(!mark.info.summary.isEmpty)
            #expect(!mark.info.rules.isEmpty)
            for rule in mark.info.rules {
                let parts = rule.split(separator: "-")
                #expect(parts.count == 2 && parts[0].allSatisfy(\.isUppercase) && Int(parts[1]) != nil, "\(mark.name): \(rule)")
            }
        }
        #expect(Set(CoverageMark.allCases.map(\.name)).count == CoverageMark.allCases.count)
        #expect(CoverageCounts().hits.count == CoverageMark.allCases.count)
    }

    @Test("a scripted scenario counts the marks of the states it was written to reach",
          arguments: [
              ("snooze-once-per-occurrence", ["snooze-accepted", "snooze-refused-latch-spent", "snooze-refused-outside-window"]),
              ("snooze-skip-hands-back-to-successor", ["snooze-accepted", "snooze-skipped", "successor-armed"]),
              ("pass-over-stays-silent", ["pass-over", "challenge-completed"]),
              ("kill-switch-timeout-fails-open", ["kill-switch-fail-open"]),
              ("inactivity-expiry-after-policy-timeout", ["miss-receipt-written"]),
              ("receipt-survives-reinstall", ["receipt-written", "receipt-read-after-reinstall"]),
              ("migration-from-legacy-install-android", ["legacy-migration-done"]),
              ("android-credential-store-moved-to-device-protected", ["credential-store-moved"]),
              ("playback-failure-falls-back-to-system-sound", ["system-sound-fallback"]),
              ("android-volume-dismissal-credited", ["volume-dismissal"]),
              ("dst-spring-forward-weekly", ["dst-night-weekly-alarm"]),
              ("walk-steady-fuse-follows-steps", ["walk-check-started", "walk-fuse-armed", "walk-fuse-rotated"]),
              ("capacity-exhaustion-dropped-count", ["capacity-limit-hit", "dropped-count-raised"]),
              ("save-failure-keeps-previous-schedule", ["save-failed-rolled-back"]),
              ("ios-death-mid-stop-step-recovers-at-next-launch", ["death-mid-close"]),
          ])
    func scenarioReachesMarks(_ name: String, _ markNames: [String]) throws {
        let text = try String(contentsOf: Self.rulesDirectory.appendingPathComponent(name + ".scenario"), encoding: .utf8)
        let scenario = try ScenarioParser.parse(text, file: name, knownDefects: KnownDefect.allCases.map(\.rawValue),
                                                knownInvariants: InvariantCatalog.all.map(\.id))
        let outcome = ScenarioRunner.run(scenario)
        #expect(outcome.passed, "\(outcome.failures)")
        for markName in markNames {
            let mark = try #require(CoverageMark(name: markName), "no mark \(markName)")
            #expect(outcome.result.coverage[mark] > 0, "\(name) did not reach \(markName)")
            #expect(mark.info.platforms.map(\.rawValue).contains(scenario.platform.rawValue), "\(markName) on \(scenario.platform)")
        }
    }

    /// Issue 18: the Android field faults' conformance scenarios reach their marks.
    @Test("an issue-18 conformance scenario counts the mark of the field fault it scripts",
          arguments: [
              ("api34-default-deny-schedule-exact-only", ["exact-denied-by-default"]),
              ("api33-revoke-schedule-exact-only", ["exact-permission-revoked-api-33-plus"]),
              ("credential-sound-silent-before-unlock", ["credential-sound-fallback-before-unlock"]),
              ("accepted-request-dropped-after-reboot", ["accepted-request-dropped-exposed"]),
          ])
    func conformanceReachesMarks(_ name: String, _ markNames: [String]) throws {
        let directory = Self.rulesDirectory.deletingLastPathComponent().appendingPathComponent("conformance/android")
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".scenario"), encoding: .utf8)
        let scenario = try ScenarioParser.parse(text, file: name, knownDefects: KnownDefect.allCases.map(\.rawValue),
                                                knownInvariants: InvariantCatalog.all.map(\.id))
        let outcome = ScenarioRunner.run(scenario)
        #expect(outcome.passed, "\(outcome.failures)")
        for markName in markNames {
            let mark = try #require(CoverageMark(name: markName), "no mark \(markName)")
            #expect(outcome.result.coverage[mark] > 0, "\(name) did not reach \(markName)")
        }
    }

    @Test("coverage is part of a run's pure result: the same seed counts the same hits", arguments: [PlatformFlavor.ios, .android])
    func countsAreDeterministic(_ platform: PlatformFlavor) {
        let first = Simulator.run(RunOptions(platform: platform, seed: 11))
        let second = Simulator.run(RunOptions(platform: platform, seed: 11))
        #expect(first.coverage == second.coverage)
        #expect(first.coverage.hits.reduce(0, +) > 0)
        for mark in CoverageMark.allCases where !mark.info.platforms.contains(platform) {
            #expect(first.coverage[mark] == 0, "\(mark.name) is not a mark of \(platform)")
        }
    }
}

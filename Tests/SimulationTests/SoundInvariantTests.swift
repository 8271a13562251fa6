import Foundation
import Scenario
import Simulation
import Testing

/// Each sound invariant can fail: a scripted run with one sound defect reports exactly that
/// invariant, and the same script without the defect runs clean (RULES.md candidate invariants
/// 33, 34, 45, 47).
struct SoundInvariantTests {
    struct Case: Sendable, CustomStringConvertible {
        var invariant: String
        var defect: String
        var text: String
        var description: String { invariant }
    }

    static let cases: [Case] = [
        // 33 (SND-9): the app is in the foreground, so never-silent does not judge the gap; the
        // one ring that sounds while Ember is active is the snooze ring (FG-1, SNZ-17, SNZ-18).
        Case(invariant: "never-silent-by-sound-choice", defect: "no-system-sound-fallback", text: """
            platform android
            start 2026-03-02 06:50 Europe/Berlin
            seed 4
            alarm wake 07:00 weekly mon sounds "progressive: birds | rain"
            at 07:00:05     user open-app
            at 07:00:10     user snooze 1m
            at 07:01:12     fault playback-failure
            at 07:01:30     user complete-challenge
            at 07:01:40     user leave-app
            """),
        // 34 (SND-7): the successor the rendered challenge cancelled was never heard.
        Case(invariant: "sound-sequence", defect: "unheard-ring-advances-sequence", text: """
            platform ios
            start 2026-03-02 06:50 Europe/Berlin
            seed 4
            alarm wake 07:00 weekly mon sounds "progressive: birds | rain | horn"
            at 07:00:05     user stop
            at 07:00:07     user open-app
            at 07:00:20     user leave-app
            at 07:00:40     user stop
            at 07:01        user open-app
            at 07:01:10     user complete-challenge
            at 07:01:20     user leave-app
            """),
        // 45 (SND-11): nobody touches the ring for two minutes.
        Case(invariant: "android-keeps-ringing", defect: "android-ring-stops-after-30s", text: """
            platform android
            start 2026-03-02 06:50 Europe/Berlin
            seed 4
            alarm wake 07:00 weekly mon
            at 07:02        user open-app
            at 07:02:10     user complete-challenge
            at 07:02:20     user leave-app
            """),
        // 47 (SND-13): the second alarm is due while the first owns the occurrence.
        Case(invariant: "honest-audible-record", defect: "pass-over-counted-audible", text: """
            platform ios
            start 2026-03-02 06:50 Europe/Berlin
            seed 4
            alarm wake 07:00 weekly mon
            alarm late 07:05 weekly mon
            at 07:06        user open-app
            at 07:06:10     user complete-challenge
            at 07:06:20     user leave-app
            """),
    ]

    static func parse(_ text: String) throws -> ScenarioFile {
        try ScenarioParser.parse(text, file: "inline", knownDefects: KnownDefect.allCases.map(\.rawValue),
                                 knownInvariants: InvariantCatalog.all.map(\.id))
    }

    @Test("with its defect the script reports the sound invariant; without it the run is clean", arguments: cases)
    func invariantFires(_ testCase: Case) throws {
        let lines = testCase.text.split(separator: "\n").map(String.init)
        let clean = try Self.parse((lines + ["expect no violations"]).joined(separator: "\n"))
        let cleanOutcome = ScenarioRunner.run(clean)
        #expect(cleanOutcome.result.violations.isEmpty, "\(cleanOutcome.failures)")
        let broken = try Self.parse(([lines[0], lines[1], lines[2], "defect \(testCase.defect)"] + lines.dropFirst(3)
                                     + ["expect violation \(testCase.invariant)"]).joined(separator: "\n"))
        let outcome = ScenarioRunner.run(broken)
        #expect(outcome.result.firstViolation?.invariant == testCase.invariant, "\(String(describing: outcome.result.firstViolation))")
        #expect(InvariantCatalog.info(testCase.invariant) != nil)
    }
}

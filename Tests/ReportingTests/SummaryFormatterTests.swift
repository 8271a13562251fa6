import AlarmBridge
import Campaign
import Reporting
import Simulation
import Testing

@Suite("SummaryFormatter")
struct SummaryFormatterTests {
    private let violation = Violation(invariant: "never-silent", rules: ["OCC-5", "OCC-6"],
                                      message: "occurrence wake@07:00 had no pressure for 40000 ms",
                                      trueMs: 10, wallMs: 20, eventIndex: 3)

    private func summary(failing: [FailingSeed], defects: [KnownDefect] = []) -> FuzzSummary {
        FuzzSummary(
            options: FuzzOptions(platforms: [.ios, .android], seeds: 1...1000, defects: defects),
            tallies: [
                PlatformTally(platform: .ios, defects: defects, seeds: 1000, failures: failing.count, events: 1_234_567,
                              exemptions: [RunParameter("force-quit", "3"), RunParameter("mute-switch", "1")]),
                PlatformTally(platform: .android, seeds: 1000, failures: 0, events: 999, exemptions: []),
            ],
            failing: failing)
    }

    @Test("the summary has one line per platform and ends with 'violations: 0' when no seed failed")
    func cleanSummary() {
        let text = SummaryFormatter.text(summary(failing: []))
        #expect(text == """
            ios: 1000 seeds, 0 failing, 1234567 events, exemptions: force-quit=3 mute-switch=1
            android: 1000 seeds, 0 failing, 999 events, exemptions: none
            violations: 0

            """)
    }

    @Test("each failing seed gets a FAIL line with its violation and an indented repro line; N counts failing seeds")
    func failingSeeds() {
        let failing = [17, 4711].map { seed in
            FailingSeed(platform: .ios, seed: UInt64(seed), violation: violation,
                        repro: Campaign.reproLine(platform: .ios, seed: UInt64(seed), defects: [.titleInRingID]))
        }
        let lines = SummaryFormatter.text(summary(failing: failing, defects: [.titleInRingID])).split(separator: "\n")
        #expect(lines.last == "violations: 2")
        #expect(lines.contains("FAIL ios seed 17: never-silent — occurrence wake@07:00 had no pressure for 40000 ms"))
        #expect(lines.contains("  repro: alarmsim replay --platform ios --seed 4711 --defect title-in-ring-id"))
        let firstFail = lines.firstIndex { $0.hasPrefix("FAIL ios seed 17") }!
        #expect(lines[firstFail + 1].hasPrefix("  repro: alarmsim replay --platform ios --seed 17 "))
    }

    @Test("when stdout and stderr share one terminal or file, the summary counts the failing seeds already printed live instead of repeating them")
    func failingListedAbove() {
        let failing = [17, 4711].map { seed in
            FailingSeed(platform: .ios, seed: UInt64(seed), violation: violation,
                        repro: Campaign.reproLine(platform: .ios, seed: UInt64(seed), defects: [.titleInRingID]))
        }
        let lines = SummaryFormatter.text(summary(failing: failing, defects: [.titleInRingID]), failingListedAbove: true).split(separator: "\n")
        #expect(lines.last == "violations: 2")
        #expect(!lines.contains { $0.hasPrefix("FAIL") || $0.hasPrefix("  repro:") })
        #expect(lines.contains("failing seeds: 2, each listed above with its repro line as it failed"))
    }

    @Test("when defects were requested, each platform line names the ones it ran, or says none apply")
    func defectsShown() {
        let text = SummaryFormatter.text(summary(failing: [], defects: [.unavailableReadAsEmpty]))
        #expect(text.contains("ios: 1000 seeds, 0 failing, 1234567 events, defects: unavailable-read-as-empty, exemptions:"))
        #expect(text.contains("android: 1000 seeds, 0 failing, 999 events, defects: none apply, exemptions: none"))
    }

    @Test("the summary prints integers only: no decimal point anywhere")
    func integersOnly() {
        let text = SummaryFormatter.text(summary(failing: []))
        #expect(!text.contains(where: { $0 == "." }))
    }
}

import AlarmBridge
import Campaign
import Foundation
import Reporting
import SimKernel
import Simulation
import Testing

/// Rule IDs in the Markdown reports link to `Docs/rules.md` (``RulebookLinks``); plain-text
/// outputs keep bare IDs.
@Suite("Rulebook links")
struct RulebookLinksTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    private let violation = Violation(invariant: "never-silent", rules: ["OCC-5", "DESIGN.md: interleaving points"],
                                      message: "occurrence wake@07:00 had no pressure", trueMs: 10, wallMs: 20, eventIndex: 3)

    @Test("only rule IDs of RULES.md's families become links")
    func ruleIDs() {
        #expect(RulebookLinks.isRuleID("SCH-9") && RulebookLinks.isRuleID("WALK-25") && RulebookLinks.isRuleID("ID-2"))
        #expect(!RulebookLinks.isRuleID("UTF-8") && !RulebookLinks.isRuleID("SCH-") && !RulebookLinks.isRuleID("SCH-9a")
            && !RulebookLinks.isRuleID("DESIGN.md: interleaving points"))
        #expect(RulebookLinks.markdown("SCH-9", rulebook: "../../Docs/rules.md") == "[SCH-9](../../Docs/rules.md#SCH-9)")
        #expect(RulebookLinks.markdown("SCH-9", rulebook: "Docs/rules.md", code: true) == "[`SCH-9`](Docs/rules.md#SCH-9)")
        #expect(RulebookLinks.markdown("seed 004", rulebook: "Docs/rules.md", code: true) == "`seed 004`")
    }

    @Test("the link is relative to the report directory inside the checkout, the repository path outside it")
    func relativePath() {
        #expect(RulebookLinks.path(fromDirectory: Self.root + "/Reports/latest") == "../../Docs/rules.md")
        #expect(RulebookLinks.path(fromDirectory: Self.root + "/Reports/latest/failures/ios-17") == "../../../../Docs/rules.md")
        #expect(RulebookLinks.path(fromDirectory: Self.root + "/Reports/examples/x/../ios-1") == "../../../Docs/rules.md")
        #expect(RulebookLinks.path(fromDirectory: Self.root) == "Docs/rules.md")
        #expect(RulebookLinks.path(fromDirectory: "/nonexistent-alarmsim-dir/out", currentDirectory: "/nonexistent-alarmsim-dir") == "Docs/rules.md")
        // Outside any checkout, run from one: the checkout's rulebook by its absolute path.
        #expect(RulebookLinks.path(fromDirectory: "/nonexistent-alarmsim-dir/out", currentDirectory: Self.root) == Self.root + "/Docs/rules.md")
    }

    @Test("summary.md links each rule ID of a failing seed; the text summary and JUnit keep bare IDs")
    func summaryLinks() {
        let failing = FailingSeed(platform: .ios, seed: 17, violation: violation,
                                  repro: Campaign.reproLine(platform: .ios, seed: 17, defects: []))
        let summary = FuzzSummary(options: FuzzOptions(platforms: [.ios], seeds: 1...20, defects: []),
                                  tallies: [PlatformTally(platform: .ios, seeds: 20, failures: 1, events: 99, exemptions: [])],
                                  failing: [failing])
        let markdown = CampaignReport.markdown(summary, rulebook: "../../Docs/rules.md")
        #expect(markdown.contains("- rules: [OCC-5](../../Docs/rules.md#OCC-5), DESIGN.md: interleaving points\n"))
        #expect(CampaignReport.markdown(summary).contains("- rules: [OCC-5](Docs/rules.md#OCC-5), "))
        #expect(!CampaignReport.junit(summary).contains("rules.md"))
        #expect(!SummaryFormatter.text(summary).contains("rules.md"))
    }

    @Test("report.md links each rule ID, in code style")
    func reportLinks() {
        let header = TraceHeader(platform: "ios", seed: 7, defects: [], parameters: [], zoneData: "2025b",
                                 eventsProcessed: 0, traceEventCount: 0, traceHashHex: "0")
        let run = FailureRun(header: header, violations: [violation], reproLine: "alarmsim replay --platform ios --seed 7", events: [])
        let markdown = FailureReport.markdown(run, rulebook: "../../../../Docs/rules.md")
        #expect(markdown.contains("- **Rules:** [`OCC-5`](../../../../Docs/rules.md#OCC-5), `DESIGN.md: interleaving points`\n"))
    }
}

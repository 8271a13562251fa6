import AlarmBridge
import AlarmSimHarness
import AlarmSimTesting
import Foundation
import NaiveBridge
import Simulation
import Testing

/// How a team tests its own bridge with alarmsim: scenarios and a fuzz campaign, through the
/// `AlarmSimHarness` library, from `swift test`. `NaiveBridge` is a first draft, so every catch
/// below is marked as a known issue (`withKnownIssue`): CI stays green while the test proves that
/// alarmsim catches it. Fix the bridge and the known issue flips to a failure ("known issue was
/// not recorded"): then drop the `withKnownIssue`.
struct NaiveBridgeTests {
    static let naive = BridgeFactory(NaiveBridge.self)

    /// The directory of this file's scenarios (no bundle resources needed).
    static let scenarios = String(#filePath).replacingOccurrences(of: "NaiveBridgeTests.swift", with: "Scenarios/")

    /// Each scenario that shows one habit of the draft, with the invariant it breaks.
    static let catches: [(file: String, invariant: String)] = [
        ("stop-is-not-the-end.scenario", "never-silent"),
        ("open-app-while-ringing.scenario", "hands-off-alerting"),
        ("edit-title.scenario", "stable-ids"),
    ]

    @Test("the happy path works: the saved alarm rings on time")
    func happyPath() throws {
        let result = try Harness.runScenario(file: Self.scenarios + "it-rings.scenario", bridge: Self.naive)
        result.recordIssues()
        #expect(result.passed)
    }

    @Test("each scenario catches its habit, and the built-in bridge passes the same file clean",
          arguments: catches.map(\.file))
    func scenarioCatches(_ file: String) throws {
        let expected = Self.catches.first { $0.file == file }!.invariant
        let naive = try Harness.runScenario(file: Self.scenarios + file, bridge: Self.naive)
        // The file says `expect violation X`: it passes exactly when the naive bridge breaks X.
        #expect(naive.violation?.invariant == expected)
        #expect(naive.passed)
        let builtIn = try Harness.runScenario(file: Self.scenarios + file)
        #expect(builtIn.violation == nil, "the reference bridge breaks no invariant on \(file)")
    }

    /// The campaign the README shows: seeds 1...200 of the uniform fault profile on iOS.
    static func campaign(_ platform: PlatformFlavor) -> HarnessCampaign {
        Harness.fuzz(NaiveBridge.self, platform: platform, seeds: 1...200, faults: FaultSelection(profile: .uniform),
                     shrinkBudget: 0)
    }

    @Test("a fuzz campaign catches the draft by at least six distinct invariants")
    func fuzzCatches() {
        let campaign = Self.campaign(.ios)
        print(campaign.summaryText)
        withKnownIssue("NaiveBridge is a first draft: every failing seed is an expected failure") {
            campaign.recordIssues()
        }
        let expected = ["hands-off-alerting", "legacy-migration", "never-silent", "recurrence", "stable-ids", "verified-saves"]
        #expect(Set(campaign.invariantsBroken).isSuperset(of: expected), "broke \(campaign.invariantsBroken)")
    }

    @Test("every first failure per invariant replays from its repro line: same violation, same trace hash")
    func reproLinesReplay() throws {
        for failure in Self.campaign(.ios).firstFailurePerInvariant {
            let replay = try Harness.replay(failure.reproLine, bridge: Self.naive)
            #expect(replay?.violation == failure.violation, "\(failure.reproLine)")
            #expect(replay?.traceHashHex == failure.traceHashHex, "\(failure.reproLine)")
        }
    }

    @Test("a failing seed shrinks to a scenario that breaks the same invariant")
    func shrinkReplays() throws {
        let campaign = Harness.fuzz(NaiveBridge.self, platform: .ios, seeds: 7...7, faults: FaultSelection(profile: .uniform),
                                    shrinkBudget: 150)
        let failure = try #require(campaign.failures.first)
        let shrunk = try #require(failure.shrunkScenario)
        print(shrunk)
        let rerun = try Harness.runScenario(text: shrunk, name: "shrunk-ios-7.scenario", bridge: Self.naive)
        #expect(rerun.violation?.invariant == failure.violation.invariant)
    }

    @Test("Android: the same draft is caught there too")
    func androidCatches() {
        let campaign = Self.campaign(.android)
        print(campaign.summaryText)
        withKnownIssue("NaiveBridge is a first draft: every failing seed is an expected failure") {
            campaign.recordIssues()
        }
        #expect(campaign.invariantsBroken.count >= 4, "broke \(campaign.invariantsBroken)")
    }
}

@Test("README.md's example is ReadmeExample.swift, verbatim")
func readmeExampleIsCompiled() throws {
    let here = String(#filePath).replacingOccurrences(of: "NaiveBridgeTests.swift", with: "")
    let readme = try String(contentsOfFile: here + "../../../README.md", encoding: .utf8)
    let copy = try String(contentsOfFile: here + "ReadmeExample.swift", encoding: .utf8)
    let code = copy.components(separatedBy: "// README begin\n")[1].components(separatedBy: "// README end\n")[0]
    #expect(readme.contains("```swift\n" + code + "```"))
}

// The example of README.md's "Testing your bridge", verbatim between the markers, so that the
// README's code is compiled and run (a test below checks the copy is still the README's).
import NaiveBridge
typealias MyBridge = NaiveBridge
let scenarios = NaiveBridgeTests.scenarios
// README begin
import AlarmSimHarness
import AlarmSimTesting
import Simulation
import Testing

@Test func fuzzCatches() {
    // Seeds 1...200 of the uniform fault profile on the iOS model (shrinkBudget > 0 also shrinks).
    let campaign = Harness.fuzz(MyBridge.self, platform: .ios, seeds: 1...200,
                                faults: FaultSelection(profile: .uniform), shrinkBudget: 0)
    print(campaign.summaryText)  // one line per failing seed and its repro line
    withKnownIssue("a first draft: every failing seed is an expected failure") {
        campaign.recordIssues()  // one Issue per failing seed: invariant, rules, message, repro line
    }
}

@Test func reproLinesReplay() throws {
    for failure in Harness.fuzz(MyBridge.self, platform: .ios, seeds: 1...200,
                                faults: FaultSelection(profile: .uniform), shrinkBudget: 0).firstFailurePerInvariant {
        // `alarmsim replay --bridge MyBridge --platform ios --seed 7 --profile uniform`
        let replay = try Harness.replay(failure.reproLine, bridge: BridgeFactory(MyBridge.self))
        #expect(replay?.violation == failure.violation)
        #expect(replay?.traceHashHex == failure.traceHashHex)
    }
}

@Test func scenario() throws {
    let result = try Harness.runScenario(file: scenarios + "it-rings.scenario", bridge: BridgeFactory(MyBridge.self))
    result.recordIssues()  // one Issue per unmet `expect` line
}
// README end

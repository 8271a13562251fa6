import AlarmBridge
import Campaign
import Reporting
import Scenario
import Simulation

/// The scoreboard's shrink step: shrinks a defect's failing seed, writes the scenario to
/// `DIR/<platform>-<defect>.scenario` atomically, and runs it again to check that it breaks the
/// same invariant.
enum DefectShrinks {
    /// - Returns: The size (nil when the seed does not fail again) and a write problem, if any.
    static func shrink(platform: PlatformFlavor, seed: UInt64, defect: KnownDefect, profile: FaultProfile,
                       budget: Int, directory: String) -> (ShrinkSize?, String?) {
        var options = RunOptions(platform: platform, seed: seed, defects: [defect])
        options.faults = FaultSelection(profile: profile, forcedOn: defect.huntFaults)
        let (setup, parameters) = Simulator.runSetup(options)
        let origin = "alarmsim defects: \(platform.rawValue) seed \(seed) --profile \(profile.rawValue) --defect \(defect.rawValue)"
        guard let result = Shrinker.shrink(setup: setup, parameters: parameters, defects: [defect], budget: budget,
                                           origin: origin) else { return (nil, nil) }
        var scenario = result.scenario
        scenario.comments = scenario.comments.isEmpty ? [] : scenario.comments
        scenario.comments = [
            "Shrunk by `alarmsim defects` from \(platform.rawValue) seed \(seed) (profile \(profile.rawValue)) with defect",
            "\(defect.rawValue): \(result.originalEvents) → \(result.shrunkEvents) events. \(defect.summary)",
            "Regenerate with `alarmsim defects`; `swift test` replays it to the same invariant.",
        ]
        let text = ScenarioPrinter.print(scenario)
        let path = directory + "/\(platform.rawValue)-\(defect.rawValue).scenario"
        let replays: Bool
        if let parsed = try? ScenarioParser.parse(text, file: path, knownDefects: KnownDefect.allCases.map(\.rawValue),
                                                   knownInvariants: InvariantCatalog.all.map(\.id)) {
            let outcome = ScenarioRunner.run(parsed)
            replays = outcome.passed && outcome.result.firstViolation?.invariant == result.invariant
        } else {
            replays = false
        }
        var problem: String?
        do {
            try ShrinkCommand.write(text, to: path)  // creates the directory when missing
        } catch {
            problem = ShrinkCommand.describe(error, writing: path)
        }
        return (ShrinkSize(eventsBefore: result.originalEvents, eventsAfter: result.shrunkEvents, path: path,
                           replaysSameInvariant: replays), problem)
    }
}

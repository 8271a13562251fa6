import AlarmBridge
import Campaign
import Foundation
import Scenario
import SimKernel
import Simulation

/// alarmsim as a library (issue 19): run scenarios and fuzz campaigns against *your* bridge —
/// any type conforming to ``BridgeUnderTest`` — from your own `swift test`.
///
/// Every function is a pure function of its arguments (DESIGN.md, "Determinism"): the same
/// bridge, platform, seed and faults give the same violations and trace hash in any process.
/// Nothing here reads the wall clock, spawns threads or touches the file system except
/// ``runScenario(file:bridge:)``, which reads the one file it is given, and the failures file
/// that ``fuzz(_:platform:seeds:faults:defects:liveness:shrinkBudget:regressions:)`` reads and
/// ``recordFailures(_:to:)`` writes.
public enum Harness {
    /// Runs a scenario file (`Scenarios/README.md` has the grammar) against `bridge`.
    ///
    /// - Parameter file: Path of a `.scenario` file (UTF-8).
    /// - Parameter bridge: The bridge under test; ``BridgeFactory/builtIn`` by default.
    /// - Returns: Whether every `expect` line held, the unmet ones, the first violation, the trace.
    /// - Throws: ``HarnessError`` when the file cannot be read or does not parse (with
    ///   `file:line:column`).
    public static func runScenario(file: String, bridge: BridgeFactory = .builtIn) throws(HarnessError) -> HarnessScenarioResult {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw HarnessError("\(file): cannot read the scenario file (check the path, relative to the working directory)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw HarnessError("\(file): the file is not UTF-8 text") }
        return try runScenario(text: text, name: file, bridge: bridge)
    }

    /// Runs a scenario given as text against `bridge`.
    ///
    /// - Parameter text: The scenario, as a `.scenario` file would hold it.
    /// - Parameter name: Names it in failure lines (`name:line: …`).
    /// - Parameter bridge: The bridge under test; ``BridgeFactory/builtIn`` by default.
    /// - Returns: Whether every `expect` line held, the unmet ones, the first violation, the trace.
    /// - Throws: ``HarnessError`` with `name:line:column: message` when the text does not parse.
    public static func runScenario(text: String, name: String = "inline.scenario",
                                   bridge: BridgeFactory = .builtIn) throws(HarnessError) -> HarnessScenarioResult {
        let scenario: ScenarioFile
        do {
            scenario = try ScenarioParser.parse(text, file: name, knownDefects: KnownDefect.allCases.map(\.rawValue),
                                                knownInvariants: InvariantCatalog.all.map(\.id))
            try ScenarioRunner.validate(scenario, source: text)
        } catch {
            throw HarnessError(error.description)
        }
        let outcome = ScenarioRunner.run(scenario, keepFullTrace: true, bridge: bridge)
        return HarnessScenarioResult(name: name, passed: outcome.passed, failures: outcome.failures,
                                     violation: outcome.result.firstViolation, traceHashHex: outcome.result.traceHashHex,
                                     trace: outcome.result.trace.events.map(\.jsonLine))
    }

    /// Fuzzes a seed range on one platform: each seed draws a random world (user, app, platform
    /// parameters, faults by `faults`' profile), runs `bridge` in it and checks every invariant
    /// after every event. Each failing seed is shrunk to a scenario (unless `shrinkBudget` is 0).
    ///
    /// - Parameter bridge: The bridge under test.
    /// - Parameter platform: `.ios` (AlarmKit model) or `.android` (AlarmManager model).
    /// - Parameter seeds: The seeds to run, in order.
    /// - Parameter faults: The fault profile (`FaultSelection(profile: .uniform)`, `.swarm`, …).
    /// - Parameter defects: The built-in bridge's known-defect switches to turn on; they reach any
    ///   bridge in its ``BridgeConfiguration`` (yours may ignore them).
    /// - Parameter liveness: Run the liveness phase after the safety phase (invariant `convergence`).
    /// - Parameter shrinkBudget: The most candidate runs per failing seed's shrink; 0: no shrinking.
    /// - Returns: Every failing seed with its repro line, shrunk scenario and trace tail.
    /// - Complexity: One run per seed, plus up to `shrinkBudget` runs per failing seed.
    /// - Note: Seeds run one after another in the caller's process: a trap in the bridge ends the
    ///   test process (the CLI's worker subprocesses isolate crashes of the built-in bridge only).
    ///   A bridge that never settles hits the run limits and fails `run-limit`, never hangs.
    public static func fuzz(_ bridge: BridgeFactory, platform: PlatformFlavor, seeds: ClosedRange<UInt64>,
                            faults: FaultSelection = .swarm, defects: [KnownDefect] = [], liveness: Bool = true,
                            shrinkBudget: Int = 300) -> HarnessCampaign {
        var failures: [HarnessFailure] = []
        var exemptions: [String: Int] = [:]  // lookup and sum only; reported sorted by name
        for seed in seeds {
            let options = RunOptions(platform: platform, seed: seed, defects: defects, faults: faults, liveness: liveness, bridge: bridge)
            let result = Simulator.run(options)
            for exemption in result.exemptions { exemptions[exemption.name, default: 0] += Int(exemption.value) ?? 0 }
            guard let violation = result.firstViolation else { continue }
            let shrunk = shrinkBudget > 0 ? shrink(options, budget: shrinkBudget) : nil
            failures.append(failure(result, violation: violation, options: options, shrunk: shrunk))
        }
        let sums = exemptions.keys.sorted().map { RunParameter($0, String(exemptions[$0]!)) }
        return HarnessCampaign(bridgeName: bridge.name, platform: platform, seeds: seeds, faults: faults,
                               failures: failures, exemptions: sums)
    }

    /// ``fuzz(_:platform:seeds:faults:defects:liveness:shrinkBudget:)`` for a conforming type.
    ///
    /// - Parameter bridge: The conforming type; each app process gets `Bridge(configuration:)`.
    public static func fuzz<Bridge: BridgeUnderTest>(_ bridge: Bridge.Type, platform: PlatformFlavor, seeds: ClosedRange<UInt64>,
                                                    faults: FaultSelection = .swarm, defects: [KnownDefect] = [],
                                                    liveness: Bool = true, shrinkBudget: Int = 300) -> HarnessCampaign {
        fuzz(BridgeFactory(bridge), platform: platform, seeds: seeds, faults: faults, defects: defects,
             liveness: liveness, shrinkBudget: shrinkBudget)
    }

    /// Replays one repro line (``HarnessFailure/reproLine``) byte for byte.
    ///
    /// - Parameter reproLine: `alarmsim replay [--bridge NAME] --platform P --seed N [--defect D]…
    ///   [--profile X] [--faults a,-b] [--no-liveness]`.
    /// - Parameter bridge: The bridge to run; its name must match the line's `--bridge` (absent: the built-in one).
    /// - Parameter keepFullTrace: Keep every trace event instead of the fuzz ring's last ones (the
    ///   hash is the same either way).
    /// - Returns: The run's failure, or nil when it ran clean.
    /// - Throws: ``HarnessError`` when the line is malformed or names another bridge.
    public static func replay(_ reproLine: String, bridge: BridgeFactory = .builtIn,
                              keepFullTrace: Bool = false) throws(HarnessError) -> HarnessFailure? {
        var options = try ReproLine.parse(reproLine, bridge: bridge)
        options.keepFullTrace = keepFullTrace
        let result = Simulator.run(options)
        guard let violation = result.firstViolation else { return nil }
        return failure(result, violation: violation, options: options, shrunk: nil)
    }

    /// The repro line of a run: the CLI's (``Campaign/reproLine(platform:seed:defects:faults:liveness:command:)``)
    /// with `--bridge NAME` after `replay` for any bridge but the built-in one.
    ///
    /// - Returns: A line ``replay(_:bridge:keepFullTrace:)`` takes as is.
    public static func reproLine(_ options: RunOptions) -> String {
        Campaign.reproLine(platform: options.platform, seed: options.seed, defects: options.defects,
                           faults: options.faults, liveness: options.liveness, bridge: options.bridge)
    }

    static func failure(_ result: RunResult, violation: Violation, options: RunOptions, shrunk: String?) -> HarnessFailure {
        HarnessFailure(platform: options.platform, seed: options.seed, faults: options.faults, violation: violation,
                       reproLine: reproLine(options), shrunkScenario: shrunk,
                       traceTail: result.trace.events.map(\.jsonLine), traceHashHex: result.traceHashHex)
    }

    /// The seed's run shrunk to a scenario that breaks the same invariant first, or nil.
    static func shrink(_ options: RunOptions, budget: Int) -> String? {
        let (setup, parameters) = Simulator.runSetup(options)
        let origin = reproLine(options)
        return Shrinker.shrink(setup: setup, parameters: parameters, defects: options.defects, budget: budget,
                               origin: origin, bridge: options.bridge)?.text
    }
}

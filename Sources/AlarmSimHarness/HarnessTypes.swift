import AlarmBridge
import Campaign
import Simulation

/// One failing run of a bridge under the harness: what broke, how to replay it, the shrunk
/// scenario and the trace's last events.
public struct HarnessFailure: Sendable, Equatable, CustomStringConvertible {
    /// The platform model the run used.
    public var platform: PlatformFlavor
    /// The run's seed (fuzz) or the scenario's `seed` line.
    public var seed: UInt64
    /// The fault profile and forced kinds the seed's world was drawn with.
    public var faults: FaultSelection
    /// The run's first violation: stable invariant ID (`never-silent`, …), the RULES.md IDs it
    /// enforces, the message, and when it was found (virtual ms).
    public var violation: Violation
    /// One line that replays the run through ``Harness/replay(_:bridge:keepFullTrace:)``:
    /// `alarmsim replay --bridge NAME --platform P --seed N [--profile …] [--faults …]`. For the
    /// built-in bridge (`--bridge BridgeCore`) the CLI takes the same line without `--bridge`.
    public var reproLine: String
    /// The shrunk scenario file's text (nil when shrinking was off or did not reproduce): run it
    /// with ``Harness/runScenario(text:name:bridge:)`` or commit it next to your tests.
    public var shrunkScenario: String?
    /// The trace's last events as JSON Lines (one event per line, virtual ms), ending at the
    /// violation; at most ``RunOptions/fuzzTraceRingCapacity`` events for a fuzz run.
    public var traceTail: [String]
    /// The FNV-1a hash of the whole trace (16 hex digits): the same run gives the same hash.
    public var traceHashHex: String

    /// - Parameters: see the properties; all as the harness measured them.
    public init(platform: PlatformFlavor, seed: UInt64, faults: FaultSelection, violation: Violation, reproLine: String,
                shrunkScenario: String?, traceTail: [String], traceHashHex: String) {
        self.platform = platform
        self.seed = seed
        self.faults = faults
        self.violation = violation
        self.reproLine = reproLine
        self.shrunkScenario = shrunkScenario
        self.traceTail = traceTail
        self.traceHashHex = traceHashHex
    }

    /// The line the fuzzer prints for a failing seed:
    /// `ios seed 17: never-silent (OCC-1): MESSAGE` and the repro line under it.
    public var description: String {
        let rules = violation.rules.isEmpty ? "" : " (\(violation.rules.joined(separator: ", ")))"
        return "\(platform.rawValue) seed \(seed): \(violation.invariant)\(rules): \(violation.message)\n  repro: \(reproLine)"
    }
}

/// What a harness campaign found: seeds run, failing seeds in seed order, and the distinct
/// invariants they broke.
public struct HarnessCampaign: Sendable {
    /// The bridge's name (``BridgeFactory/name``).
    public var bridgeName: String
    /// The platform model every seed ran on.
    public var platform: PlatformFlavor
    /// The seed range that ran, in order.
    public var seeds: ClosedRange<UInt64>
    /// The fault profile every seed was drawn with.
    public var faults: FaultSelection
    /// Every failing run: the replayed known failures that still fail first (in file order), then
    /// the failing seeds in seed order; a run stops at its first violation.
    public var failures: [HarnessFailure]
    /// Exemptions the runs applied (`[limit]` gaps, RULES.md), summed by name, sorted by name.
    public var exemptions: [RunParameter]
    /// The known-failure repro lines replayed before the seeds, in file order (empty unless the
    /// campaign was given a failures file: ``Harness/fuzz(_:platform:seeds:faults:defects:liveness:shrinkBudget:regressions:)``).
    public var knownReplayed: [String] = []

    /// - Parameters: see the properties.
    public init(bridgeName: String, platform: PlatformFlavor, seeds: ClosedRange<UInt64>, faults: FaultSelection,
                failures: [HarnessFailure], exemptions: [RunParameter]) {
        self.bridgeName = bridgeName
        self.platform = platform
        self.seeds = seeds
        self.faults = faults
        self.failures = failures
        self.exemptions = exemptions
    }

    /// The distinct invariant IDs the failing seeds broke, sorted.
    public var invariantsBroken: [String] { Set(failures.map(\.violation.invariant)).sorted() }

    /// The first failing seed of each broken invariant, in invariant order.
    public var firstFailurePerInvariant: [HarnessFailure] {
        invariantsBroken.compactMap { invariant in failures.first { $0.violation.invariant == invariant } }
    }

    /// The summary the fuzzer prints: one line per failing seed (``HarnessFailure/description``)
    /// and a count line.
    public var summaryText: String {
        var lines = failures.map(\.description)
        let known = knownReplayed.isEmpty ? "" : "\(knownReplayed.count) known failure(s) replayed first, then "
        lines.append("\(bridgeName) on \(platform.rawValue), \(known)seeds \(seeds.lowerBound)...\(seeds.upperBound), profile \(faults): "
                     + "\(failures.count) failing, invariants: \(invariantsBroken.joined(separator: ", "))")
        return lines.joined(separator: "\n")
    }
}

/// A scenario's outcome under the harness.
public struct HarnessScenarioResult: Sendable {
    /// The file name or the name given to an inline scenario.
    public var name: String
    /// True when every `expect` line held (`expect violation X` holds when X broke).
    public var passed: Bool
    /// One line per unmet expectation, `file:line: message`.
    public var failures: [String]
    /// The run's first violation, if any.
    public var violation: Violation?
    /// The trace hash of the whole run (16 hex digits).
    public var traceHashHex: String
    /// The whole trace as JSON Lines (a scenario keeps every event).
    public var trace: [String]

    /// - Parameters: see the properties.
    public init(name: String, passed: Bool, failures: [String], violation: Violation?, traceHashHex: String, trace: [String]) {
        self.name = name
        self.passed = passed
        self.failures = failures
        self.violation = violation
        self.traceHashHex = traceHashHex
        self.trace = trace
    }
}

/// Errors of the harness's inputs (never of the bridge: a bridge's bug is a violation).
public struct HarnessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong and what to do, one sentence (`file:line:column: …` for a scenario).
    public var message: String
    /// - Parameter message: see ``message``.
    public init(_ message: String) { self.message = message }
    /// The message, as printed.
    public var description: String { message }
}

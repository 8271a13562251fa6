import AlarmBridge
import Simulation

/// The fuzz driver: runs a seed range on each platform and collects every failing seed with a
/// command line that reproduces it (DESIGN.md, "Determinism": print one repro line per failure).
///
/// Seeds run one after another in this process, no threads. The CLI's `fuzz` runs the same
/// seeds in worker subprocesses instead (crash isolation) and folds their ``SeedOutcome``s with
/// the same ``CampaignTally``, so both paths give the same summary.
public enum Campaign {
    /// The most seeds one platform may run in one campaign, so every count fits an `Int`.
    public static let seedCountMax: UInt64 = 1 << 40

    /// Runs every seed of `options.seeds` on each platform of `options.platforms`, in order.
    ///
    /// - Parameter options: What to run. Each platform runs only the requested defects that
    ///   apply to it.
    /// - Parameter progress: Called when a platform starts (`seedsDone == 0`) and after every
    ///   seed; never escapes, so the caller may write to an `inout` stream from it.
    /// - Returns: Per-platform tallies (in platform order) and the failing seeds, ordered by
    ///   platform, then seed. A pure function of `options`.
    /// - Complexity: One simulator run per (platform, seed).
    public static func fuzz(_ options: FuzzOptions, progress: (FuzzProgress) -> Void = { _ in }) -> FuzzSummary {
        precondition(options.seedCount <= seedCountMax,
                     "Campaign.fuzz: \(options.seedCount) seeds per platform is more than \(seedCountMax)")
        var tally = CampaignTally(options: options)
        let seedsTotal = options.runRange.map { Int($0.upperBound - $0.lowerBound) + 1 } ?? 0
        for platform in options.platforms {
            progress(FuzzProgress(platform: platform, seedsDone: 0, seedsTotal: seedsTotal, failing: 0))
            for seed in options.runRange ?? 1...0 {
                tally.add(outcome(platform: platform, seed: seed, options: options))
                let sofar = tally.tally(platform)
                progress(FuzzProgress(platform: platform, seedsDone: sofar.seeds, seedsTotal: seedsTotal, failing: sofar.failures))
            }
        }
        let summary = tally.summary()
        assert(summary.failing.count == summary.tallies.reduce(0) { $0 + $1.failures }, "every failure is listed once")
        return summary
    }

    /// The pseudo-invariant of a seed whose worker subprocess died (a trap, a crash, an exit).
    public static let crashInvariant = "crash"

    /// Runs one seed of a campaign in this process and keeps what the tally needs.
    ///
    /// - Parameter options: Its defects (those applying to `platform`), faults and liveness.
    /// - Returns: A pure function of (platform, seed, options).
    public static func outcome(platform: PlatformFlavor, seed: UInt64, options: FuzzOptions) -> SeedOutcome {
        var runOptions = RunOptions(platform: platform, seed: seed, defects: applicableDefects(options.defects, on: platform),
                                    faults: options.faults, liveness: options.liveness, bridge: options.bridge)
        runOptions.recordsTrace = false  // the outcome carries no trace; a failing seed's report re-runs it
        let result = Simulator.run(runOptions)
        return SeedOutcome(platform: platform, seed: seed, events: result.eventCount, exemptions: result.exemptions,
                           coverageHits: result.coverage.hits, violation: result.firstViolation)
    }

    /// The requested defects whose code path exists on `platform`, sorted.
    ///
    /// - Returns: `defects` without those whose ``KnownDefect/platforms`` exclude `platform`.
    public static func applicableDefects(_ defects: [KnownDefect], on platform: PlatformFlavor) -> [KnownDefect] {
        defects.filter { $0.platforms.contains(platform) }.sorted()
    }

    /// The requested defects that do not apply to `platform`, sorted (a usage error when the user
    /// named that platform explicitly).
    public static func inapplicableDefects(_ defects: [KnownDefect], on platform: PlatformFlavor) -> [KnownDefect] {
        defects.filter { !$0.platforms.contains(platform) }.sorted()
    }

    /// The listed marks (``CoverageMark/isListed``) that apply to a tally's platform and that no
    /// seed of the campaign reached, in catalog order.
    ///
    /// - Returns: Per platform tally (in tally order), each unreached listed mark.
    public static func unreachedListedMarks(_ summary: FuzzSummary) -> [(platform: PlatformFlavor, mark: CoverageMark)] {
        var unreached: [(platform: PlatformFlavor, mark: CoverageMark)] = []
        for tally in summary.tallies {
            for mark in CoverageMark.allCases
            where mark.isListed && mark.info.platforms.contains(tally.platform) && tally.coverage.hits(mark) == 0 {
                unreached.append((tally.platform, mark))
            }
        }
        return unreached
    }

    /// The one command line that replays a seed, e.g.
    /// `alarmsim replay --platform ios --seed 4711 --defect title-in-ring-id --profile uniform`.
    ///
    /// - Parameter defects: Printed sorted and de-duplicated, one `--defect` each, so the same
    ///   run always has the same line.
    /// - Parameter faults: Its non-default options (``FaultSelection/commandLineArguments``);
    ///   nothing for the default swarm profile.
    /// - Parameter command: The subcommand that takes the same words (`replay`, or `shrink`).
    /// - Parameter bridge: A bridge other than the built-in one is named (`--bridge NAME`, issue 19):
    ///   the library's `Harness.replay` takes that line; the CLI runs only the built-in bridge.
    /// - Returns: A line a shell takes as is (every part is a plain word).
    public static func reproLine(platform: PlatformFlavor, seed: UInt64, defects: [KnownDefect],
                                 faults: FaultSelection = .swarm, liveness: Bool = true, command: String = "replay",
                                 bridge: BridgeFactory = .builtIn) -> String {
        var words = ["alarmsim", command]
        if !bridge.isBuiltIn { words += ["--bridge", bridge.name] }
        words += ["--platform", platform.rawValue, "--seed", String(seed)]
        for defect in Array(Set(defects)).sorted() {
            words += ["--defect", defect.rawValue]
        }
        words += faults.commandLineArguments
        if !liveness { words.append("--no-liveness") }
        return words.joined(separator: " ")
    }
}

/// Exemption counts summed by name. An array, not a `Dictionary`, so no hash order can reach a
/// report (DESIGN.md, "Determinism").
struct ExemptionTotals {
    private var totals: [(name: String, count: Int)] = []

    /// Adds one run's exemptions; each value is a decimal count.
    mutating func add(_ exemptions: [RunParameter]) {
        for exemption in exemptions {
            guard let count = Int(exemption.value) else {
                preconditionFailure("exemption \(exemption.name) has a non-integer count \"\(exemption.value)\"")
            }
            if let index = totals.firstIndex(where: { $0.name == exemption.name }) {
                totals[index].count += count
            } else {
                totals.append((exemption.name, count))
            }
        }
    }

    /// The totals sorted by name, as `name = count` parameters.
    var sorted: [RunParameter] {
        totals.sorted { $0.name < $1.name }.map { RunParameter($0.name, String($0.count)) }
    }
}

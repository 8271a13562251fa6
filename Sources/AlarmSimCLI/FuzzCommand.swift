import AlarmBridge
import Campaign
import Reporting
import Scenario
import Simulation

/// `alarmsim fuzz`: runs a seed range on each platform and reports every failing seed.
struct FuzzCommand: Command {
    static let name = "fuzz"
    static let abstract = "Run many seeds, each a random world, and report every seed that breaks an invariant."
    static let usage = "alarmsim fuzz [--platform ios|android|both] [--seeds A..B] [--defect NAME]... [--profile swarm|uniform|none] [--faults A,B,-C] [--no-liveness] [--coverage] [--shrink-dir DIR | --no-shrink]"
    static let options = [
        "  --platform ios|android|both  platforms to run, ios first (default: both)",
        "  --seeds A..B|N               root seeds, inclusive (default: 1..1000)",
        "  --defect NAME                switch a known field bug back on; repeatable (see 'alarmsim list defects');",
        "                               with --platform both, each platform runs the defects that apply to it",
        "  --coverage                   after the summary, print the reachability table: per mark and platform its",
        "                               rules, hits and seeds reaching it; listed marks with no hit say UNREACHED",
        "  --profile swarm|uniform|none fault profile (default: swarm): swarm switches each fault kind on or off",
        "                               per seed and draws its rate; uniform runs every kind at its catalog rate;",
        "                               none injects no fault (the sleepy user still acts)",
        "  --faults A,B,-C              force fault kinds on (A) or off (-C) on top of the profile; repeatable",
        "                               (see 'alarmsim list faults'); failing seeds' repro lines carry both options",
        "  --shrink-dir DIR             where the shrunk scenarios go (default: Reports/shrunk)",
        "  --no-shrink                  do not shrink failing seeds",
        "  --no-liveness                run the safety phase only: no heal, no liveness phase, no convergence check",
        "  -h, --help                   show this help",
        "",
        "Progress goes to stderr; the summary goes to stdout and ends with 'violations: N'.",
        "After the campaign, the first failing seed of each distinct (platform, invariant) is shrunk",
        "to a minimal scenario (as 'alarmsim shrink' does) written to DIR/PLATFORM-SEED-INVARIANT.scenario;",
        "one 'shrunk …' line per file goes to stderr.",
        "Exit status: 0 no violation, 1 violations found, 64 usage error, 74 a shrunk file not writable.",
    ]
    static let examples = [
        "alarmsim fuzz --seeds 1..1000                                  # both platforms, no defect",
        "alarmsim fuzz --platform ios --seeds 1..2000 --defect unavailable-read-as-empty",
        "alarmsim fuzz --seeds 1..200 --coverage                        # which rule-relevant states were reached",
        "alarmsim fuzz --platform android --seeds 1..300 --profile uniform --faults -doze",
        "alarmsim fuzz --platform android --seeds 1..300 --defect title-in-ring-id --no-shrink   # no shrinking",
        "alarmsim fuzz --platform android --seeds 1..300 --defect restore-skips-locked-boot --no-liveness",
    ]

    static let defaultSeeds: ClosedRange<UInt64> = 1...1000

    var platforms: [PlatformFlavor]
    var platformNamedExplicitly: Bool
    var seeds: ClosedRange<UInt64>
    var defects: [KnownDefect]
    /// Print the reachability coverage table after the summary.
    var printsCoverage: Bool
    var faults: FaultSelection
    /// False with `--no-liveness`: the safety phase only (issue 7).
    var liveness: Bool
    /// Where shrunk scenarios go; nil with `--no-shrink`.
    var shrinkDirectory: String?

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name,
                                         valuedOptions: ["platform", "seeds", "defect", "profile", "faults", "shrink-dir"],
                                         allowsPositionals: false, flagOptions: ["coverage", "no-shrink", "no-liveness"])
        liveness = !parsed.has("no-liveness")
        let directory = try parsed.single("shrink-dir")
        if parsed.has("no-shrink") && directory != nil {
            throw UsageError("--no-shrink and --shrink-dir contradict each other; give one of them")
        }
        shrinkDirectory = parsed.has("no-shrink") ? nil : (directory ?? ShrinkCommand.defaultDirectory)
        let platformText = try parsed.single("platform")
        platforms = try ArgumentValues.platforms(platformText)
        platformNamedExplicitly = platforms.count == 1
        seeds = try parsed.single("seeds").map { (text) throws(UsageError) in try ArgumentValues.seedRange(text) }
            ?? Self.defaultSeeds
        defects = try ArgumentValues.defects(parsed.all("defect"))
        printsCoverage = parsed.has("coverage")
        faults = try ArgumentValues.faults(profile: parsed.single("profile"), faults: parsed.all("faults"))
    }

    func validate() throws(UsageError) {
        try ArgumentValues.checkFaults(faults, applyTo: platforms)
        // With `--platform both` a defect that exists on one platform only runs there; naming the
        // other platform explicitly would run the defect nowhere, which is surely a mistake.
        if platformNamedExplicitly {
            try ArgumentValues.checkDefects(defects, applyTo: platforms[0])
        }
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        let options = FuzzOptions(platforms: platforms, seeds: seeds, defects: defects, faults: faults, liveness: liveness)
        var meter = ProgressMeter(errorsIsTerminal: environment.errorsIsTerminal, elapsedMs: environment.elapsedMs)
        let summary = Campaign.fuzz(options) { progress in
            meter.report(progress, to: &errors)
        }
        output.write(SummaryFormatter.text(summary))
        if printsCoverage { output.write("\n" + CoverageReport.text(summary)) }
        if let shrinkDirectory, !summary.failing.isEmpty {
            guard shrinkFailures(summary, into: shrinkDirectory, errors: &errors, environment: environment) else { return .ioError }
        }
        return summary.violationCount == 0 ? .success : .violations
    }

    /// Shrinks the first failing seed of each distinct (platform, invariant), in summary order.
    /// - Returns: false when a file could not be written.
    func shrinkFailures(_ summary: FuzzSummary, into directory: String, errors: inout some TextOutputStream,
                        environment: CLIEnvironment) -> Bool {
        var done: [(PlatformFlavor, String)] = []
        for failing in summary.failing where !done.contains(where: { $0 == (failing.platform, failing.violation.invariant) }) {
            done.append((failing.platform, failing.violation.invariant))
            let defects = Campaign.applicableDefects(summary.options.defects, on: failing.platform)
            // determinism-ok: wall-clock timing of the shrink, printed only
            let startMs = environment.elapsedMs()
            let (setup, parameters) = Simulator.runSetup(RunOptions(platform: failing.platform, seed: failing.seed, defects: defects,
                                                                    faults: summary.options.faults, liveness: summary.options.liveness))
            guard let result = Shrinker.shrink(setup: setup, parameters: parameters, defects: defects, origin: failing.repro) else {
                errors.write("shrink: \(failing.platform.rawValue) seed \(failing.seed): the exported scenario does not reproduce \(failing.violation.invariant); not shrunk\n")
                continue
            }
            let path = directory + "/" + ShrinkCommand.fileName(platform: failing.platform, seed: failing.seed, defects: [],
                                                                suffix: failing.violation.invariant)
            do {
                try ShrinkCommand.write(result.text, to: path)
            } catch {
                errors.write("error: \(ShrinkCommand.describe(error, writing: path)); check that the directory is writable\n")
                return false
            }
            // determinism-ok: as above
            let elapsedMs = max(environment.elapsedMs() - startMs, 0)
            errors.write(ShrinkCommand.line(platform: failing.platform, seed: failing.seed, defects: defects, result: result,
                                            elapsedMs: elapsedMs, path: path) + "\n")
        }
        return true
    }
}

/// Campaign progress on stderr: one `\r`-rewritten line on a terminal, otherwise one line per
/// finished platform; each finished platform's line carries its wall-clock rate.
struct ProgressMeter {
    let errorsIsTerminal: Bool
    let elapsedMs: @Sendable () -> Int64
    private var platformStartMs: Int64 = 0

    init(errorsIsTerminal: Bool, elapsedMs: @escaping @Sendable () -> Int64) {
        self.errorsIsTerminal = errorsIsTerminal
        self.elapsedMs = elapsedMs
    }

    mutating func report(_ progress: FuzzProgress, to errors: inout some TextOutputStream) {
        let platform = progress.platform.rawValue
        if progress.seedsDone == 0 {
            // determinism-ok: wall-clock timing of the campaign, never reaches a run
            platformStartMs = elapsedMs()
        }
        if progress.isPlatformFinished {
            // determinism-ok: wall-clock timing of the campaign, never reaches a run
            let durationMs = max(elapsedMs() - platformStartMs, 0)
            let seedsPerSecond = Int64(progress.seedsTotal) * 1_000 / max(durationMs, 1)
            let line = "\(platform): \(progress.seedsTotal) \(progress.seedsTotal == 1 ? "seed" : "seeds"), \(progress.failing) failing, \(durationMs) ms, \(seedsPerSecond) seeds/s"
            errors.write(errorsIsTerminal ? "\r\(line)\u{1B}[K\n" : "\(line)\n")
            return
        }
        guard errorsIsTerminal else { return }
        // Rewrite the line about 500 times per platform at most: enough to look live, few
        // enough writes not to slow a fast campaign.
        let step = max(progress.seedsTotal / 500, 1)
        guard progress.seedsDone % step == 0 else { return }
        errors.write("\r\(platform) \(progress.seedsDone)/\(progress.seedsTotal) seeds, \(progress.failing) failing")
    }
}

import AlarmBridge
import Campaign
import Reporting
import Simulation

/// `alarmsim fuzz`: runs a seed range on each platform and reports every failing seed.
struct FuzzCommand: Command {
    static let name = "fuzz"
    static let abstract = "Run many seeds, each a random world, and report every seed that breaks an invariant."
    static let usage = "alarmsim fuzz [--platform ios|android|both] [--seeds A..B] [--defect NAME]... [--no-liveness]"
    static let options = [
        "  --platform ios|android|both  platforms to run, ios first (default: both)",
        "  --seeds A..B|N               root seeds, inclusive (default: 1..1000)",
        "  --defect NAME                switch a known field bug back on; repeatable (see 'alarmsim list defects');",
        "                               with --platform both, each platform runs the defects that apply to it",
        "  --no-liveness                run the safety phase only: no heal, no liveness phase, no convergence check",
        "  -h, --help                   show this help",
        "",
        "Progress goes to stderr; the summary goes to stdout and ends with 'violations: N'.",
        "Exit status: 0 no violation, 1 violations found, 64 usage error.",
    ]
    static let examples = [
        "alarmsim fuzz --seeds 1..1000                                  # both platforms, no defect",
        "alarmsim fuzz --platform ios --seeds 1..2000 --defect unavailable-read-as-empty",
        "alarmsim fuzz --platform android --seeds 1..300 --defect restore-skips-locked-boot --no-liveness",
    ]

    static let defaultSeeds: ClosedRange<UInt64> = 1...1000

    var platforms: [PlatformFlavor]
    var platformNamedExplicitly: Bool
    var seeds: ClosedRange<UInt64>
    var defects: [KnownDefect]
    /// False with `--no-liveness`: the safety phase only (issue 7).
    var liveness: Bool

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: ["platform", "seeds", "defect"],
                                         allowsPositionals: false, flagOptions: ["no-liveness"])
        liveness = !parsed.flag("no-liveness")
        let platformText = try parsed.single("platform")
        platforms = try ArgumentValues.platforms(platformText)
        platformNamedExplicitly = platforms.count == 1
        seeds = try parsed.single("seeds").map { (text) throws(UsageError) in try ArgumentValues.seedRange(text) }
            ?? Self.defaultSeeds
        defects = try ArgumentValues.defects(parsed.all("defect"))
    }

    func validate() throws(UsageError) {
        // With `--platform both` a defect that exists on one platform only runs there; naming the
        // other platform explicitly would run the defect nowhere, which is surely a mistake.
        if platformNamedExplicitly {
            try ArgumentValues.checkDefects(defects, applyTo: platforms[0])
        }
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        let options = FuzzOptions(platforms: platforms, seeds: seeds, defects: defects, liveness: liveness)
        var meter = ProgressMeter(errorsIsTerminal: environment.errorsIsTerminal, elapsedMs: environment.elapsedMs)
        let summary = Campaign.fuzz(options) { progress in
            meter.report(progress, to: &errors)
        }
        output.write(SummaryFormatter.text(summary))
        return summary.violationCount == 0 ? .success : .violations
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

import AlarmBridge
import Foundation
import Reporting
import Simulation

/// `alarmsim bench`: measures the simulator's speed and memory against the targets of issue 8
/// and writes them to `Reports/benchmarks.md`.
struct BenchCommand: Command {
    static let name = "bench"
    static let abstract = "Measure event-queue and simulation cost, throughput, --jobs speed-up and campaign memory (default Reports/latest/benchmarks.md; the committed report: --out Reports/benchmarks.md)."
    static let usage = "alarmsim bench [--out FILE] [--quick] [--seeds N] [--jobs-seeds N] [--memory-seeds N] [--binary PATH] [--baseline PATH [--baseline-seeds N] [--baseline-rounds N] [--baseline-only]] [--scale | --scale-only]"
    static let options = [
        "  --out FILE          the Markdown report to write atomically (default: \(defaultOutPath))",
        "  --quick             tiny sizes, for a smoke test (seconds); the figures mean little",
        "  --seeds N           seeds per platform timed in-process for the per-event cost (default: \(defaultSeeds); quick: \(quickSeeds))",
        "  --jobs-seeds N      seeds per platform of the 'fuzz --jobs 1' and '--jobs 2' runs (default: \(defaultJobsSeeds); quick: \(quickJobsSeeds))",
        "  --memory-seeds N    runs of the memory campaign: 'fuzz --seeds 1..N/2' on both platforms, in a child",
        "                      process, next to one a tenth its size so growth shows (default: \(defaultMemorySeeds); quick: \(quickMemorySeeds))",
        "  --binary PATH       the alarmsim binary to spawn for the subprocess figures (default: this executable)",
        "  --baseline PATH     also run another alarmsim binary (e.g. the previous commit's release build) on the",
        "                      same seeds in this run: CPU and wall speed-up of this build over it per platform,",
        "                      and whether behaviour is identical (campaign summaries and replay trace hashes)",
        "  --baseline-seeds N  seeds per platform per round of that comparison (default: \(defaultBaselineSeeds); quick: \(quickBaselineSeeds))",
        "  --baseline-rounds N campaigns per binary per platform, alternating which goes first (default: \(defaultBaselineRounds); quick: 1)",
        "  --baseline-only     run only the baseline comparison (about a minute; no memory campaign)",
        "  --scale             also measure CPU per event for 1, 10, 100, 1000, 3000 alarms (2 simulated days) and",
        "                      1, 2, 4, 7 simulated days (10 alarms) on both platforms, with the growth exponent",
        "                      (quick: 1, 10, 30 alarms; 1, 2 days)",
        "  --scale-only        only those scale rows (with --baseline-only: the baseline comparison and the rows)",
        "  -h, --help          show this help",
        "",
        "Measures, in one run: the bare event queue's push+pop per event (ns); the full simulation's",
        "cost per event per platform (bridge + platform model + oracle + invariants, the trace only",
        "counted, as a campaign runs; ns, and its ratio to the bare queue); seeds/s and virtual time per",
        "wall second (× real time) of",
        "the default profile; the wall-time speed-up of 'fuzz --jobs 2' over '--jobs 1' (spawned as",
        "subprocesses; reported as not measured when this build's fuzz has no --jobs); the peak RSS of a",
        "campaign in a child process (wait4 ru_maxrss, and /proc VmHWM of the parent and its workers).",
        "Each figure is set against its target (full simulation ≤ 5× the bare queue per event; ≥ 10^6 ×",
        "real time; --jobs 2 ≥ 1.8×; peak RSS ≤ 64 MiB) as MET or MISSED, with the reason for each miss.",
        "Timings are wall-clock: run a release build on an otherwise idle machine. The whole default",
        "bench, its memory campaign of 100,000 runs included, takes about 4 minutes on 2 cores.",
        "Exit status: 0 report written, 1 report written but the baseline's behaviour differs (summaries or trace",
        "hashes), 64 usage error, 73 the report cannot be written, 74 a write failed.",
    ]
    static let examples = [
        "alarmsim bench --out Reports/benchmarks.md                      # everything; regenerates the committed report",
        "alarmsim bench --memory-seeds 10000 --out /tmp/bench.md         # a smaller memory campaign",
        "alarmsim bench --quick --out /tmp/bench-quick.md                # a smoke test in seconds",
        "alarmsim bench --baseline /tmp/old/alarmsim --baseline-only     # speed-up over an older build, one run",
        "alarmsim bench --scale-only --out /tmp/scale.md                # CPU per event against alarms and days",
    ]

    static let defaultOutPath = "Reports/latest/benchmarks.md"  // the committed Reports/benchmarks.md: --out
    static let defaultSeeds = 300
    static let quickSeeds = 3
    static let defaultJobsSeeds = 300
    static let quickJobsSeeds = 4
    static let defaultMemorySeeds = 100_000
    static let quickMemorySeeds = 20
    static let defaultQueueEvents = 5_000_000
    static let quickQueueEvents = 200_000
    static let defaultBaselineSeeds = 1_000
    static let quickBaselineSeeds = 10
    static let defaultBaselineRounds = 2
    /// Seeds per platform whose replay trace hashes the baseline comparison checks.
    static let baselineHashSeeds = 20

    var outPath: String
    var outputFiles: [String] { [outPath] }
    var quick: Bool
    var seeds: Int
    var jobsSeeds: Int
    var memorySeeds: Int
    var binary: String?
    var baselinePath: String?
    var baselineSeeds: Int
    var baselineRounds: Int
    var baselineOnly: Bool
    var scale: Bool
    var scaleOnly: Bool

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name,
                                         valuedOptions: ["out", "seeds", "jobs-seeds", "memory-seeds", "binary", "baseline",
                                                         "baseline-seeds", "baseline-rounds"],
                                         allowsPositionals: false, flagOptions: ["quick", "baseline-only", "scale", "scale-only"])
        quick = parsed.has("quick")
        outPath = try parsed.single("out") ?? Self.defaultOutPath
        seeds = try Self.count(parsed.single("seeds"), option: "seeds") ?? (quick ? Self.quickSeeds : Self.defaultSeeds)
        jobsSeeds = try Self.count(parsed.single("jobs-seeds"), option: "jobs-seeds")
            ?? (quick ? Self.quickJobsSeeds : Self.defaultJobsSeeds)
        memorySeeds = try Self.count(parsed.single("memory-seeds"), option: "memory-seeds")
            ?? (quick ? Self.quickMemorySeeds : Self.defaultMemorySeeds)
        binary = try parsed.single("binary")
        baselinePath = try parsed.single("baseline")
        baselineSeeds = try Self.count(parsed.single("baseline-seeds"), option: "baseline-seeds")
            ?? (quick ? Self.quickBaselineSeeds : Self.defaultBaselineSeeds)
        baselineRounds = try Self.count(parsed.single("baseline-rounds"), option: "baseline-rounds") ?? (quick ? 1 : Self.defaultBaselineRounds)
        baselineOnly = parsed.has("baseline-only")
        scaleOnly = parsed.has("scale-only")
        scale = parsed.has("scale") || scaleOnly
    }

    func validate() throws(UsageError) {
        guard memorySeeds >= 2 else {
            throw UsageError("--memory-seeds must be at least 2 (one run per platform), e.g. --memory-seeds 10000")
        }
        if let baselinePath, !FileManager.default.isExecutableFile(atPath: baselinePath) {
            throw UsageError("--baseline \(baselinePath) is not an executable file; give the path of another alarmsim build, e.g. --baseline /tmp/old/alarmsim")
        }
        if baselineOnly, baselinePath == nil {
            throw UsageError("--baseline-only needs --baseline PATH, the binary to compare this build with")
        }
        if baselinePath == nil, baselineSeeds != (quick ? Self.quickBaselineSeeds : Self.defaultBaselineSeeds)
            || baselineRounds != (quick ? 1 : Self.defaultBaselineRounds) {
            throw UsageError("--baseline-seeds and --baseline-rounds size the --baseline comparison; give --baseline PATH too")
        }
        if let baselinePath, !(BenchMeasurements.output(of: baselinePath, ["fuzz", "--help"])?.contains("alarmsim fuzz") ?? false) {
            throw UsageError("--baseline \(baselinePath) does not answer 'fuzz --help' as alarmsim does; give another alarmsim build, e.g. --baseline /tmp/old/alarmsim")
        }
        if let binary, !FileManager.default.isExecutableFile(atPath: binary) {
            throw UsageError("--binary \(binary) is not an executable file; give the path of a built alarmsim, e.g. --binary .build/release/alarmsim")
        }
    }

    /// A positive count, e.g. `--seeds 300`.
    static func count(_ text: String?, option: String) throws(UsageError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value > 0, value <= 10_000_000 else {
            throw UsageError("--\(option) needs a whole number from 1 to 10000000, not '\(text)'; e.g. --\(option) 300")
        }
        return value
    }

    /// The command line that regenerates the report, as written into its header.
    var commandLine: String {
        var words = ["alarmsim", "bench"]
        if quick { words.append("--quick") }
        if seeds != (quick ? Self.quickSeeds : Self.defaultSeeds) { words += ["--seeds", String(seeds)] }
        if jobsSeeds != (quick ? Self.quickJobsSeeds : Self.defaultJobsSeeds) { words += ["--jobs-seeds", String(jobsSeeds)] }
        if memorySeeds != (quick ? Self.quickMemorySeeds : Self.defaultMemorySeeds) { words += ["--memory-seeds", String(memorySeeds)] }
        if let baselinePath { words += ["--baseline", baselinePath] }
        if baselinePath != nil, baselineSeeds != (quick ? Self.quickBaselineSeeds : Self.defaultBaselineSeeds) {
            words += ["--baseline-seeds", String(baselineSeeds)]
        }
        if baselinePath != nil, baselineRounds != (quick ? 1 : Self.defaultBaselineRounds) { words += ["--baseline-rounds", String(baselineRounds)] }
        if baselineOnly { words.append("--baseline-only") }
        if scaleOnly { words.append("--scale-only") } else if scale { words.append("--scale") }
        return words.joined(separator: " ")
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        // (`outputFiles`: the report path was checked before minutes of measuring.)
        let binaryPath = binary ?? BenchMeasurements.currentExecutable()
        var report = BenchReport(commandLine: commandLine, facts: BenchMeasurements.machineFacts())
        report.facts.append(("load average at start", Self.loadAverage()))
        if !scaleOnly || baselinePath != nil {  // the scale rows run in this process
            report.facts.append(("binary spawned", binaryPath))
        }

        report.baselineOnly = baselineOnly || scaleOnly
        if let baselinePath {
            report.facts.append(("baseline binary", baselinePath))
            report.baseline = BenchBaseline.measure(current: binaryPath, baseline: baselinePath, seeds: baselineSeeds,
                                                    rounds: baselineRounds, hashSeeds: Self.baselineHashSeeds,
                                                    progress: { errors.write($0 + "\n") })
        }
        if !baselineOnly && !scaleOnly { measureEverything(into: &report, binaryPath: binaryPath, errors: &errors) }
        if scale { report.scale = BenchScale.measure(quick: quick, progress: { errors.write($0 + "\n") }) }
        let status = write(report, output: &output, errors: &errors)
        if status == .success, let baseline = report.baseline, baseline.failure != nil || baseline.figures.contains(where: { !$0.identical }) {
            errors.write("bench: the baseline comparison did not show identical behaviour (see the report); exit 1\n")
            return .violations
        }
        return status
    }

    /// The issue-8 figures: queue, simulation, `--jobs`, memory.
    func measureEverything(into report: inout BenchReport, binaryPath: String, errors: inout some TextOutputStream) {
        errors.write("bench: bare event queue …\n")
        report.queue = BenchMeasurements.measureQueue(events: quick ? Self.quickQueueEvents : Self.defaultQueueEvents)

        for platform in [PlatformFlavor.ios, .android] {
            errors.write("bench: full simulation, \(platform.rawValue), seeds 1..\(seeds) …\n")
            report.simulations.append(BenchMeasurements.measureSimulation(platform: platform, seeds: seeds))
        }

        let fuzzHelp = BenchMeasurements.output(of: binaryPath, ["fuzz", "--help"])
        let extraFuzzWords = (fuzzHelp?.contains("--no-report") ?? false) ? ["--no-report"] : []
        if let fuzzHelp, fuzzHelp.contains("--jobs") {
            errors.write("bench: fuzz --jobs 1 and --jobs 2, seeds 1..\(jobsSeeds) on both platforms …\n")
            report.jobs = measureJobs(binary: binaryPath, extraWords: extraFuzzWords)
        } else if fuzzHelp == nil {
            report.jobs = .notMeasured("`\(binaryPath) fuzz --help` did not run; is --binary an alarmsim?")
        } else {
            report.jobs = .notMeasured("this build's `alarmsim fuzz` has no --jobs option (worker subprocesses come with the campaign part of issue 8); re-run `alarmsim bench` on a build that has it")
        }

        let small = max(memorySeeds / 10, 2)
        for size in [small, memorySeeds] {
            let perPlatform = max(size / 2, 1)
            let words = ["fuzz", "--seeds", "1..\(perPlatform)", "--no-shrink"] + extraFuzzWords
            errors.write("bench: memory, alarmsim \(words.joined(separator: " ")) …\n")
            do {
                let child = try BenchMeasurements.runChild(binary: binaryPath, arguments: words)
                report.memory.append(child.completed ? .measured(runs: perPlatform * 2, child)
                                                     : .notMeasured(runs: perPlatform * 2, child.failureReason))
            } catch {
                report.memory.append(.notMeasured(runs: perPlatform * 2, error.description))
            }
        }
    }

    /// Writes the report atomically and prints its summary lines.
    func write(_ report: BenchReport, output: inout some TextOutputStream, errors: inout some TextOutputStream) -> ExitStatus {
        let markdown = report.markdown()
        do {
            try AtomicFile.write(markdown, to: outPath)
        } catch {
            errors.write("error: \(error); \(error.hint)\n")
            return .ioError
        }
        output.write(report.summaryLines().joined(separator: "\n") + "\n")
        errors.write("bench: report written to \(outPath)\n")
        return .success
    }

    /// `fuzz --jobs 1` then `fuzz --jobs 2` over the same seeds; the speed-up is the ratio of
    /// their wall times.
    func measureJobs(binary: String, extraWords: [String]) -> BenchReport.Jobs {
        var runs: [BenchMeasurements.ChildRun] = []
        for jobs in [1, 2] {
            let words = ["fuzz", "--jobs", String(jobs), "--seeds", "1..\(jobsSeeds)", "--no-shrink"] + extraWords
            do {
                let child = try BenchMeasurements.runChild(binary: binary, arguments: words)
                guard child.completed else { return .notMeasured(child.failureReason) }
                runs.append(child)
            } catch {
                return .notMeasured(error.description)
            }
        }
        return .measured(seeds: jobsSeeds, one: runs[0], two: runs[1])
    }

    /// `/proc/loadavg`'s first three fields, or "unknown".
    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}

import AlarmBridge
import Campaign
import Reporting
import Simulation

/// `alarmsim replay`: re-runs one seed and prints its parameters, its violation and its trace hash.
struct ReplayCommand: Command {
    static let name = "replay"
    static let abstract = "Re-run one seed byte for byte: print its parameters, its violation if any, and its trace hash."
    static let usage = "alarmsim replay --platform ios|android --seed N [--defect NAME]... [--profile P] [--faults A,B,-C] [--setup ROW] [--no-liveness] [--trace FILE.jsonl] [--report DIR]"
    static let options = [
        "  --platform ios|android  the platform the seed ran on (required)",
        "  --seed N                the root seed (required)",
        "  --defect NAME           a known field bug to switch on; repeatable (see 'alarmsim list defects')",
        "  --profile P             fault profile the seed ran with: swarm (default), uniform or none",
        "  --faults A,B,-C         fault kinds forced on or off (-C), as the fuzz repro line prints them",
        SeedRunArguments.setupHelp,
        "  --no-liveness           run the safety phase only (as a fuzz run with --no-liveness did)",
        "  --trace FILE.jsonl      also write the full trace as JSON Lines (header line, then one event per line)",
        "  --report DIR            also write the seed's failure report into DIR (created when missing):",
        "                          trace.jsonl, report.md and timeline.html (a self-contained timeline page)",
        "  -h, --help              show this help",
        "",
        "Exit status: 0 no violation, 1 violation found, 64 usage error, 73 trace file or report directory not writable.",
    ]
    static let examples = [
        "alarmsim replay --platform ios --seed 4711 --defect title-in-ring-id   # as a fuzz repro line prints it",
        "alarmsim replay --platform android --seed 7 --trace Reports/android-7.jsonl",
        "alarmsim replay --platform ios --seed 12 --profile none --faults reboot   # only reboots",
        "alarmsim replay --platform ios --seed 1 --defect title-in-ring-id --report Reports/latest/ios-1   # + timeline.html, report.md",
    ]

    var seedRun: SeedRunArguments
    var tracePath: String?
    var reportDirectory: String?
    var outputFiles: [String] { tracePath.map { [$0] } ?? [] }
    var outputDirectories: [String] { reportDirectory.map { [$0] } ?? [] }

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: SeedRunArguments.valuedOptions + ["trace", "report"],
                                         allowsPositionals: false, flagOptions: SeedRunArguments.flagOptions)
        seedRun = try SeedRunArguments(parsed, purpose: "to replay")
        tracePath = try parsed.single("trace")
        reportDirectory = try parsed.single("report")
    }

    func validate() throws(UsageError) {
        try seedRun.validate()
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        // Always keep the full trace, so `--trace` never changes what the run does; the hash
        // covers every event either way.
        let result = seedRun.run(keepFullTrace: true)
        // `--trace -` puts the trace on stdout, so the report goes to stderr: stdout stays JSON Lines.
        if tracePath == AtomicFile.standardOutputPath { errors.write(Self.report(result)) } else { output.write(Self.report(result)) }
        if let tracePath {
            do {
                try AtomicFile.write(TraceWriter.jsonLines(result), to: tracePath)
            } catch {
                errors.write("error: \(error)\n")
                return .ioError
            }
            errors.write("trace: \(result.trace.events.count) events written to \(TraceText.pathName(tracePath))\n")
        }
        if let reportDirectory {
            do {
                let paths = try FailureArtifacts.write(FailureRun(result), into: reportDirectory)
                errors.write("report: \(paths.joined(separator: ", "))\n")
            } catch {
                errors.write("error: \(error)\n")
                return .ioError
            }
        }
        return result.violations.isEmpty ? .success : .violations
    }

    /// The replay report: identity and parameters, violations, exemptions, `trace-hash: HEX`.
    static func report(_ result: RunResult) -> String {
        var lines = [
            "platform: \(result.platform.rawValue)",
            "seed: \(result.seed)",
            "defects: " + (result.defects.isEmpty ? "none" : result.defects.map(\.rawValue).joined(separator: " ")),
        ]
        // Values for people (issue 17): instants as local wall time in the run's start zone,
        // durations of a second or more in words with their milliseconds; the keys stay the
        // `param` names a scenario file uses, except that an instant (`start-wall-ms`, never a
        // `param`) loses its unit: `start: 2026-03-06 22:07:15 +09:00`.
        let time = LocalTimeFormat(zoneIdentifier: result.parameters.first { $0.name == "zone" }?.value ?? "UTC")
        lines += result.parameters.map { "\(FailureReport.displayName($0)): \(FailureReport.readable($0, time: time))" }
        if result.violations.isEmpty {
            lines.append("no violations")
        }
        for violation in result.violations {
            let rules = violation.rules.isEmpty ? "" : " (\(violation.rules.joined(separator: ", ")))"
            lines.append("violation: \(violation.invariant)\(rules) at \(violation.localTime(fallbackZone: "UTC")) (trace event \(violation.eventIndex)) — \(violation.message)")
        }
        if !result.violations.isEmpty {
            lines.append("repro: " + Campaign.reproLine(platform: result.platform, seed: result.seed, defects: result.defects, faults: result.faults,
                                                        liveness: result.liveness))
        }
        lines.append("exemptions: " + SummaryFormatter.exemptionList(result.exemptions))
        lines.append("events: \(result.eventCount)")
        lines.append("trace-events: \(result.trace.count)")
        lines.append("virtual-duration-ms: " + FailureReport.readable(RunParameter("virtual-duration-ms", String(result.virtualDurationMs)), time: time))
        lines.append("trace-hash: \(result.traceHashHex)")
        return lines.joined(separator: "\n") + "\n"
    }
}

import Campaign
import Reporting
import Scenario
import Simulation

/// `alarmsim explain`: replays one seed (or one scenario file) with its full trace and prints a
/// readable timeline in local wall time (``TraceExplainer``).
struct ExplainCommand: Command {
    static let name = "explain"
    static let abstract = "Print a seed's (or scenario's) run as a readable timeline: local time, what happened, what the bridge did, what rang."
    static let usage = "alarmsim explain --platform ios|android --seed N [--defect NAME]... [--profile P] [--faults A,B,-C] [--setup ROW] [--no-liveness] [--all] [--report DIR]  |  alarmsim explain FILE.scenario [--all] [--report DIR]"
    static let options = [
        "  --platform ios|android  the platform the seed ran on (required with --seed)",
        "  --seed N                the root seed (required unless a scenario file is named)",
        "  --defect NAME           a known field bug to switch on; repeatable (see 'alarmsim list defects')",
        "  --profile P             fault profile the seed ran with: swarm (default), uniform or none",
        "  --faults A,B,-C         fault kinds forced on or off (-C), as the fuzz repro line prints them",
        SeedRunArguments.setupHelp,
        "  --no-liveness           run the safety phase only (as a fuzz run with --no-liveness did)",
        "  --all                   one line per trace event (default: routine polls, reads and completions are left out)",
        "  --report DIR            also write the run's trace.jsonl, report.md and timeline.html into DIR",
        "  -h, --help              show this help",
        "",
        "One line per event: the device's local wall time (zone in force then), the trace index (as in",
        "trace.jsonl), who acted (user, js, app, bridge, platform, RINGS/rang, FAULT, oracle) and what",
        "happened; ring IDs are shortened to 8 hex digits (--all prints them whole). The violation, the",
        "invariant it breaks and the repro line come last.",
        "Exit status: 0 no violation, 1 the run broke an invariant, 64 usage error, 65 malformed scenario",
        "file, 73 unwritable report directory, 74 unreadable scenario file.",
    ]
    static let examples = [
        "alarmsim explain --platform ios --seed 1 --defect title-in-ring-id   # as a fuzz repro line names it",
        "alarmsim explain --platform android --seed 7 --all | less             # every trace event",
        "alarmsim explain Scenarios/defects/ios-title-in-ring-id.scenario      # a scenario file's run",
    ]

    enum Source {
        case seed(SeedRunArguments)
        case scenario(String)
    }

    var source: Source
    var all: Bool
    var reportDirectory: String?
    var outputDirectories: [String] { reportDirectory.map { [$0] } ?? [] }

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: SeedRunArguments.valuedOptions + ["report"],
                                         allowsPositionals: true, flagOptions: SeedRunArguments.flagOptions + ["all"])
        all = parsed.has("all")
        reportDirectory = try parsed.single("report")
        switch parsed.positionals.count {
        case 0:
            source = .seed(try SeedRunArguments(parsed, purpose: "to explain"))
        case 1:
            let seedOptions = SeedRunArguments.valuedOptions.filter { !parsed.all($0).isEmpty } + (parsed.has("no-liveness") ? ["no-liveness"] : [])
            guard seedOptions.isEmpty else {
                throw UsageError("a scenario file names its own run: drop \(seedOptions.map { "--" + $0 }.joined(separator: ", ")) or the file '\(parsed.positionals[0])'")
            }
            source = .scenario(parsed.positionals[0])
        default:
            throw UsageError("explain one run at a time: name one scenario file (got \(parsed.positionals.count)), or give --platform and --seed")
        }
    }

    func validate() throws(UsageError) {
        if case .seed(let seedRun) = source { try seedRun.validate() }
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        let run: FailureRun
        switch source {
        case .seed(let seedRun):
            run = FailureRun(seedRun.run(keepFullTrace: true))
        case .scenario(let path):
            switch RunCommand.load(path) {
            case .success(let scenario):
                let outcome = ScenarioRunner.run(scenario, keepFullTrace: true)
                run = FailureRun(outcome.result, reproLine: "alarmsim run \(path)")
            case .failure(let error):
                return error.report(to: &errors)
            }
        }
        output.write(TraceExplainer.text(run, all: all))
        if let reportDirectory {
            do {
                let paths = try FailureArtifacts.write(run, into: reportDirectory)
                errors.write("report: \(paths.joined(separator: ", "))\n")
            } catch {
                errors.write("error: \(error); check that the directory is writable\n")
                return .ioError
            }
        }
        return run.violations.isEmpty ? .success : .violations
    }
}

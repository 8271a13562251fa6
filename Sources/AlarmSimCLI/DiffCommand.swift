import AlarmBridge
import Campaign
import Reporting
import Scenario
import SimKernel
import Simulation

/// `alarmsim diff`: runs one seed under two defect sets (or two scenario files) with the full
/// trace and prints the first trace event where they diverge, like diff(1) for runs.
struct DiffCommand: Command {
    static let name = "diff"
    static let abstract = "Run a seed under two defect sets (or two scenario files) and print the first diverging trace event."
    static let usage = "alarmsim diff --platform ios|android --seed N --defect A... [--vs-defect B]... [--profile P] [--faults A,B,-C] [--no-liveness] [--context N] | alarmsim diff A.scenario B.scenario [--context N]"
    static let options = [
        "  --platform ios|android  the platform of the seed (seed mode, required)",
        "  --seed N                the root seed (seed mode, required)",
        "  --defect NAME           a known defect on side A; repeatable (none: the correct bridge)",
        "  --vs-defect NAME        a known defect on side B; repeatable (none: the correct bridge)",
        "  --profile P             fault profile of both sides: swarm (default), uniform or none",
        "  --faults A,B,-C         fault kinds forced on or off on both sides, as a fuzz repro line prints them",
        "  --no-liveness           both sides run the safety phase only",
        "  --context N             trace events shown before the divergence (default 5, at most 1000)",
        "  -h, --help              show this help",
        "",
        "Both sides keep their full trace. The output names the first trace event that differs (its index,",
        "its virtual time as local wall time in the run's start zone, side A's line '<' and side B's '>'),",
        "the events before it, then each side's outcome: its first violation or 'clean', and its trace hash.",
        "Exit status: 0 identical traces, 1 the traces diverge, 64 usage error, 65 malformed scenario,",
        "74 unreadable scenario file.",
    ]
    static let examples = [
        "alarmsim diff --platform ios --seed 1 --defect title-in-ring-id   # the defect against the correct bridge",
        "alarmsim diff --platform android --seed 7 --defect ack-before-work --vs-defect retire-before-arm",
        "alarmsim diff Scenarios/field-bugs/001-resume-sync-while-alerting.scenario Scenarios/journals/001-resume-sync.scenario   # the field bug vs its journal",
    ]

    /// One side of the comparison.
    enum Side {
        case seed(RunOptions, label: String)
        case scenario(path: String)
    }

    var sideA: Side
    var sideB: Side
    var context: Int
    /// Seed mode's arguments, checked by `validate`.
    var seedRun: SeedRunArguments?
    var vsDefects: [KnownDefect] = []

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name,
                                         valuedOptions: SeedRunArguments.valuedOptions + ["vs-defect", "context"],
                                         allowsPositionals: true, flagOptions: SeedRunArguments.flagOptions)
        if let text = try parsed.single("context") {
            guard let value = Int(text), (0...1_000).contains(value), text.allSatisfy(\.isNumber) else {
                throw UsageError("invalid --context '\(text)': give a number of events 0...1000, e.g. --context 5")
            }
            context = value
        } else {
            context = 5
        }
        if !parsed.positionals.isEmpty {
            guard parsed.positionals.count == 2 else {
                throw UsageError("diff compares two scenario files: name exactly two (found \(parsed.positionals.count)), or use --platform P --seed N --defect A")
            }
            let seedOptions = SeedRunArguments.valuedOptions + ["vs-defect"]
            if let option = seedOptions.first(where: { !parsed.all($0).isEmpty }) ?? (parsed.has("no-liveness") ? "no-liveness" : nil) {
                throw UsageError("--\(option) belongs to seed mode; two scenario files carry their own setup (their `defect` and `param` lines)")
            }
            sideA = .scenario(path: parsed.positionals[0])
            sideB = .scenario(path: parsed.positionals[1])
            return
        }
        let run = try SeedRunArguments(parsed, purpose: "to run under both defect sets")
        if run.setup != nil {
            throw UsageError("--setup belongs to replay, explain and shrink; diff runs each side as the fuzz draws it")
        }
        vsDefects = try ArgumentValues.defects(parsed.all("vs-defect"))
        seedRun = run
        var optionsA = run.runOptions(keepFullTrace: true)
        optionsA.defects = run.defects
        var optionsB = run.runOptions(keepFullTrace: true)
        optionsB.defects = vsDefects
        sideA = .seed(optionsA, label: Self.label(run.defects))
        sideB = .seed(optionsB, label: Self.label(vsDefects))
    }

    func validate() throws(UsageError) {
        guard let seedRun else { return }
        try seedRun.validate()
        try ArgumentValues.checkDefects(vsDefects, applyTo: seedRun.platform)
        if seedRun.defects == vsDefects {
            throw UsageError("both sides have the same defect set (\(Self.label(vsDefects))); give --defect A and a different --vs-defect B, or leave --vs-defect out for the correct bridge")
        }
    }

    static func label(_ defects: [KnownDefect]) -> String {
        defects.isEmpty ? "correct bridge" : "defects " + defects.map(\.rawValue).joined(separator: ",")
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        var results: [(label: String, result: RunResult)] = []
        for side in [sideA, sideB] {
            switch side {
            case .seed(let options, let label):
                results.append((label, Simulator.run(options)))
            case .scenario(let path):
                switch RunCommand.load(path) {
                case .success(let scenario):
                    results.append((path, ScenarioRunner.run(scenario, keepFullTrace: true).result))
                case .failure(let error):
                    return error.report(to: &errors)
                }
            }
        }
        let (a, b) = (results[0], results[1])
        output.write(Self.report(a: a, b: b, context: context))
        return TraceDiff.firstDivergence(a.result.trace.events, b.result.trace.events) == nil ? .success : .violations
    }

    /// The whole report: the divergence (or `identical traces`) and both outcomes.
    static func report(a: (label: String, result: RunResult), b: (label: String, result: RunResult), context: Int) -> String {
        let zone = a.result.parameters.first { $0.name == "zone" }?.value ?? "UTC"
        let eventsA = a.result.trace.events, eventsB = b.result.trace.events
        var lines: [String] = ["< A: \(a.label)", "> B: \(b.label)"]
        if let index = TraceDiff.firstDivergence(eventsA, eventsB) {
            let at = index < eventsA.count ? eventsA[index] : eventsB[index]
            let trueTime = at.trueMs == at.wallMs ? "" : " (true time \(LocalTimeText.format(at.trueMs, zone: zone)): the device clock is off)"
            lines.append("first divergence at trace event \(index), \(LocalTimeText.format(at.wallMs, zone: zone))\(trueTime):")
            for shared in eventsA[max(0, index - context)..<index] {
                lines.append("  " + line(shared, zone: zone))
            }
            lines.append("< " + (index < eventsA.count ? line(eventsA[index], zone: zone) : "(end of trace: \(eventsA.count) events)"))
            lines.append("> " + (index < eventsB.count ? line(eventsB[index], zone: zone) : "(end of trace: \(eventsB.count) events)"))
        } else {
            lines.append("identical traces: \(eventsA.count) events")
        }
        lines.append("A: " + outcome(a.result, zone: zone))
        lines.append("B: " + outcome(b.result, zone: zone))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `INDEX HH:MM:SS.mmm component event key=value …` (the time: local wall time in `zone`;
    /// instants inside values too, with their milliseconds, and no Swift type names).
    static func line(_ event: TraceEvent, zone: String) -> String {
        let time = LocalTimeText.format(event.wallMs, zone: zone).split(separator: " ")[1]
        let format = LocalTimeFormat(zoneIdentifier: zone)
        let fields = event.fields.map { " \($0.key)=\(TraceExplainer.exactValue($0.value, time: format))" }.joined()
        return "\(event.index) \(time) \(event.component) \(event.name)\(fields)"
    }

    static func outcome(_ result: RunResult, zone: String) -> String {
        let verdict: String
        if let violation = result.firstViolation {
            verdict = "violation \(violation.invariant) at \(LocalTimeText.format(violation.wallMs, zone: zone)) (trace event \(violation.eventIndex)) — \(violation.message)"
        } else {
            verdict = "clean"
        }
        return "\(verdict); \(result.trace.count) trace events, trace-hash \(result.traceHashHex)"
    }
}

/// Where two traces part.
enum TraceDiff {
    /// The index of the first event whose time, component, name or fields differ, or where one
    /// trace ends before the other; nil when both are the same events.
    ///
    /// - Complexity: O(n) in the shorter trace.
    static func firstDivergence(_ a: [TraceEvent], _ b: [TraceEvent]) -> Int? {
        for index in 0..<min(a.count, b.count) where !same(a[index], b[index]) {
            return index
        }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    static func same(_ x: TraceEvent, _ y: TraceEvent) -> Bool {
        x.trueMs == y.trueMs && x.wallMs == y.wallMs && x.component == y.component && x.name == y.name && x.fields == y.fields
    }
}

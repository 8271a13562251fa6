import Foundation
import Reporting
import Scenario
import Simulation

/// `alarmsim run`: runs scenario files and checks their `expect` lines.
struct RunCommand: Command {
    static let name = "run"
    static let abstract = "Run scenario files and check their expect lines."
    static let usage = "alarmsim run FILE.scenario... [--check] [--junit FILE.xml] [--trace FILE.jsonl] [--continue-seeds A..B]"
    static let options = [
        "  --junit FILE.xml         also write a JUnit report: one test case per scenario file (file= its path)",
        "  --check                  parse and validate every file without running any: 'OK FILE' each",
        "  --trace FILE.jsonl       also write the run's full trace as JSON Lines (one scenario file only)",
        "  --continue-seeds A..B    replay the file (one only), then continue it for 36 h of virtual time with",
        "                           each seed's random behaviour (sleepy user, app edits, swarm faults); prints",
        "                           per seed its outcome and a repro line; exit 1 when any seed breaks an invariant",
        "  -h, --help               show this help",
        "",
        "Every file is parsed before any runs: each malformed file is reported, 'file:line:col: message'",
        "on stderr, and then none runs. Otherwise each prints 'PASS FILE' or 'FAIL FILE' and its failures.",
        "A file whose '#' header has '# status: known failure, not fixed' (alarmsim shrink --regression) prints",
        "'XFAIL FILE' while its 'expect violation' holds (an expected failure: it passes), and FAIL once the fix",
        "lands, saying what to change.",
        "Exit status: 0 all pass, 1 some failed, 64 usage error, 65 malformed file, 73 --trace or --junit file not writable, 74 unreadable file (with several bad files: the first's).",
    ]
    static let examples = [
        "alarmsim run Scenarios/field-bugs/*.scenario Scenarios/regressions/*.scenario",
        "alarmsim run Scenarios/regressions/ios-2446-launch-orders-deliveries-by-due-time.scenario",
        "alarmsim run Scenarios/conformance/ios/late-delivery.scenario --trace late.jsonl",
        "alarmsim run Scenarios/journals/001-resume-sync.scenario --continue-seeds 1..200   # an imported journal, continued",
    ]

    var paths: [String]
    var tracePath: String?
    var outputFiles: [String] { [tracePath, junitPath].compactMap { $0 } }
    /// `--junit FILE`: the scenario suite as JUnit XML.
    var junitPath: String?
    /// `--continue-seeds A..B`: the continuation seeds, nil for a plain run.
    var continueSeeds: ClosedRange<UInt64>?
    /// `--check`: parse and validate only.
    var checkOnly = false

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: ["trace", "continue-seeds", "junit"], allowsPositionals: true,
                                         flagOptions: ["check"])
        paths = parsed.positionals
        checkOnly = parsed.has("check")
        junitPath = try parsed.single("junit")
        tracePath = try parsed.single("trace")
        guard !paths.isEmpty else {
            throw UsageError("missing scenario file: name one or more, e.g. alarmsim run Scenarios/field-bugs/*.scenario")
        }
        if tracePath != nil && paths.count > 1 {
            throw UsageError("--trace writes one run's trace: name exactly one scenario file")
        }
        for (option, output) in [("trace", tracePath), ("junit", junitPath)] {
            guard let output, let input = paths.first(where: { ArgumentValues.sameFile($0, output) }) else { continue }
            throw UsageError("--\(option) \(output) would overwrite the scenario file \(input); write it to another path")
        }
        if let tracePath, let junitPath, tracePath != AtomicFile.standardOutputPath, ArgumentValues.sameFile(tracePath, junitPath) {
            throw UsageError("--trace and --junit name the same file \(tracePath); give each its own path")
        }
        if checkOnly && (tracePath != nil || junitPath != nil || parsed.all("continue-seeds").count > 0) {
            throw UsageError("--check only parses the files: give it without --trace, --junit and --continue-seeds")
        }
        if junitPath != nil && parsed.all("continue-seeds").count > 0 {
            throw UsageError("--junit reports scenario files: give it without --continue-seeds")
        }
        if let text = try parsed.single("continue-seeds") {
            do {
                continueSeeds = try ArgumentValues.seedRange(text)
            } catch {
                throw UsageError(error.message.replacingOccurrences(of: "--seeds", with: "--continue-seeds"))
            }
            guard paths.count == 1 else {
                throw UsageError("--continue-seeds continues one scenario: name exactly one file (its repro lines name it)")
            }
            if tracePath != nil && continueSeeds!.count != 1 {
                throw UsageError("--trace writes one run's trace: give a single continuation seed, e.g. --continue-seeds 7..7")
            }
        }
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        // `--trace -`: stdout is the trace alone (JSON Lines); what the run says goes to stderr.
        guard tracePath == AtomicFile.standardOutputPath else { return runScenarios(output: &output, errors: &errors) }
        var text = ""
        let status = runScenarios(output: &text, errors: &errors)
        errors.write(text)
        return status
    }

    func runScenarios(output: inout some TextOutputStream, errors: inout some TextOutputStream) -> ExitStatus {
        // Parse everything first: a typo in the last file should not cost the runs of the others.
        // Every bad file is reported, as a compiler reports every file's errors, so one pass over
        // a directory finds them all; then nothing runs.
        var scenarios: [(path: String, scenario: ScenarioFile)] = []
        var firstFailure: ExitStatus?
        for path in paths {
            switch Self.load(path) {
            case .success(let scenario): scenarios.append((path, scenario))
            case .failure(let error):
                let status = error.report(to: &errors)
                firstFailure = firstFailure ?? status
            }
        }
        if let firstFailure {
            let bad = paths.count - scenarios.count
            errors.write("scenarios: \(bad) of \(paths.count) file\(paths.count == 1 ? "" : "s") not well-formed or not readable, none run\n")
            return firstFailure
        }
        if checkOnly {
            for (path, _) in scenarios { output.write("OK \(path)\n") }
            output.write("scenarios: \(scenarios.count) well-formed, none run (--check)\n")
            return .success
        }
        if let continueSeeds {
            return continueRuns(scenarios[0].scenario, path: scenarios[0].path, seeds: continueSeeds,
                                output: &output, errors: &errors)
        }
        var failed = 0
        var expectedFailures = 0
        var cases: [(path: String, failures: [String])] = []
        for (path, scenario) in scenarios {
            let outcome = ScenarioRunner.run(scenario, keepFullTrace: tracePath != nil)
            let known = Self.knownFailure(scenario, path: path)
            cases.append((path, outcome.passed ? [] : outcome.failures))
            guard writeTrace(outcome.result, errors: &errors) else { return .ioError }
            if outcome.passed, let known {
                expectedFailures += 1
                output.write("XFAIL \(path)\n  expected failure: known, not fixed: \(known) still breaks\n")
            } else if outcome.passed {
                output.write("PASS \(path)\n")
            } else {
                failed += 1
                output.write("FAIL \(path)\n")
                for failure in outcome.failures {
                    output.write("  \(failure)\n")
                }
                if let known, outcome.result.firstViolation == nil {
                    output.write("  fixed? the file is marked '\(RegressionHeader.knownFailureStatus.dropFirst(2))' and \(known) no longer breaks: classify it in its header, change 'expect violation \(known)' to 'expect no violations' and remove the status line\n")
                }
            }
            for note in outcome.notes {
                output.write("  note: \(note)\n")
            }
        }
        let expected = expectedFailures == 0 ? "" : " (\(expectedFailures) of them \(expectedFailures == 1 ? "an expected failure" : "expected failures"): known, not fixed)"
        output.write("scenarios: \(scenarios.count - failed) passed\(expected), \(failed) failed\n")
        if let junitPath {
            do { try AtomicFile.write(Self.junit(cases), to: junitPath) } catch {
                errors.write("error: \(error.description)\n")
                return .ioError
            }
        }
        return failed == 0 ? .success : .violations
    }

    /// The scenario suite as JUnit XML: one `<testcase>` per file, named by its file name, with
    /// `file=` its path and `classname` its directory; a failing file's unmet expectations in
    /// `<failure>` (the first in `message`). `time="0"`: the report is a pure function of the files.
    static func junit(_ cases: [(path: String, failures: [String])]) -> String {
        let failures = cases.filter { !$0.failures.isEmpty }.count
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                     "<testsuites name=\"alarmsim run\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\">",
                     "  <testsuite name=\"alarmsim scenarios\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"0\">"]
        for (path, unmet) in cases {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let directory = path.split(separator: "/").dropLast().joined(separator: ".")
            let open = "    <testcase classname=\"\(HTMLText.escaped(directory.isEmpty ? "scenarios" : directory))\" name=\"\(HTMLText.escaped(name))\" file=\"\(HTMLText.escaped(path))\" time=\"0\""
            guard let first = unmet.first else {
                lines.append(open + "/>")
                continue
            }
            lines.append(open + ">")
            lines.append("      <failure type=\"scenario\" message=\"\(HTMLText.escaped(first))\">\(HTMLText.escaped(unmet.joined(separator: "\n")))</failure>")
            lines.append("    </testcase>")
        }
        return (lines + ["  </testsuite>", "</testsuites>"]).joined(separator: "\n") + "\n"
    }

    /// Writes `--trace FILE` (the run's full trace as JSON Lines; `-` for stdout), when given.
    /// - Returns: false (after saying why) when the file cannot be written.
    func writeTrace(_ result: RunResult, errors: inout some TextOutputStream) -> Bool {
        guard let tracePath else { return true }
        do {
            try AtomicFile.write(TraceWriter.jsonLines(result), to: tracePath)
        } catch {
            errors.write("error: \(error)\n")
            return false
        }
        errors.write("trace: \(result.trace.events.count) events written to \(TraceText.pathName(tracePath))\n")
        return true
    }

    /// `--continue-seeds`: one continuation per seed, in seed order; one line each (`clean`,
    /// or the first violation with its local wall time and a repro line), then a count.
    func continueRuns(_ scenario: ScenarioFile, path: String, seeds: ClosedRange<UInt64>,
                      output: inout some TextOutputStream, errors: inout some TextOutputStream) -> ExitStatus {
        var violating = 0
        var unmet = 0
        for seed in seeds {
            let outcome = ScenarioRunner.run(scenario, keepFullTrace: tracePath != nil, continuationSeed: seed)
            guard writeTrace(outcome.result, errors: &errors) else { return .ioError }
            let result = outcome.result
            if let violation = result.firstViolation {
                violating += 1
                let rules = violation.rules.isEmpty ? "" : " (\(violation.rules.joined(separator: ", ")))"
                let when = LocalTimeText.format(violation.wallMs, zone: scenario.start.zoneIdentifier)
                output.write("FAIL \(path) seed \(seed): \(violation.invariant)\(rules) at \(when) — \(violation.message)\n")
                output.write("  repro: alarmsim run \(path) --continue-seeds \(seed)..\(seed)\n")
            } else if !outcome.failures.isEmpty {
                unmet += 1
                output.write("FAIL \(path) seed \(seed): an expectation of the prefix was not met\n")
                output.write("  repro: alarmsim run \(path) --continue-seeds \(seed)..\(seed)\n")
            } else {
                output.write("ok   \(path) seed \(seed): clean, \(result.eventCount) events, trace-hash \(result.traceHashHex)\n")
            }
            for failure in outcome.failures {
                output.write("  \(failure)\n")
            }
        }
        output.write("continuations: \(seeds.count) seeds, \(violating) violating, \(unmet) with unmet expectations\n")
        return violating + unmet == 0 ? .success : .violations
    }

    /// The invariant a scenario marked as a known failure, not fixed (``RegressionHeader``),
    /// expects to break; nil for any other scenario.
    static func knownFailure(_ scenario: ScenarioFile, path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), RegressionHeader.marksKnownFailure(text) else { return nil }
        for case .violation(let name, _) in scenario.expectations { return name }
        return nil
    }

    enum LoadError: Error {
        case unreadable(String)
        case malformed(String)

        /// Says what went wrong on `errors` and gives the exit status: 74 for a file that
        /// cannot be read, 65 for a malformed one (its message is `file:line:col: …`).
        func report(to errors: inout some TextOutputStream) -> ExitStatus {
            switch self {
            case .unreadable(let message):
                errors.write("error: \(message)\n")
                return .ioError
            case .malformed(let message):
                errors.write("\(message)\n")
                return .dataError
            }
        }
    }

    /// Reads and parses one scenario file.
    static func load(_ path: String) -> Result<ScenarioFile, LoadError> {
        let data: Data
        switch InputFile.read(path, what: "scenario file", directoryHint: " (name the .scenario files in it)") {
        case .success(let bytes): data = bytes
        case .failure(let error): return .failure(.unreadable(error.message))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            let (line, column) = Self.firstInvalidUTF8(in: data)
            return .failure(.malformed("\(path):\(line):\(column): the file is not UTF-8 text (an invalid byte sequence starts here)"))
        }
        do {
            let scenario = try ScenarioParser.parse(
                text, file: path, knownDefects: KnownDefect.allCases.map(\.rawValue),
                knownInvariants: InvariantCatalog.all.map(\.id))
            try ScenarioRunner.validate(scenario, source: text)
            return .success(scenario)
        } catch {
            return .failure(.malformed(error.description))
        }
    }

    /// The 1-based line and column (in Unicode scalars) of the first byte that is not part of a
    /// valid UTF-8 sequence (``UTF8Scan/firstInvalid(in:)``); (1, 1) when there is none.
    static func firstInvalidUTF8(in data: Data) -> (line: Int, column: Int) {
        UTF8Scan.firstInvalid(in: [UInt8](data)) ?? (1, 1)
    }
}

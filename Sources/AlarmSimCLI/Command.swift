import SimKernel
import Reporting
/// One subcommand, in the shape of swift-argument-parser's `ParsableCommand`, written by hand
/// because the package takes no dependencies (STYLE.md, "CLI").
protocol Command {
    /// The subcommand's word, e.g. `fuzz`.
    static var name: String { get }
    /// One line saying what it does.
    static var abstract: String { get }
    /// The synopsis, e.g. `alarmsim fuzz [--platform ios|android|both] …`.
    static var usage: String { get }
    /// The options, one per line, indented by two spaces.
    static var options: [String] { get }
    /// Example command lines, each with a comment.
    static var examples: [String] { get }

    /// Parses the arguments after the subcommand's word.
    /// - Throws: ``UsageError`` for an unknown option, a missing or malformed value.
    init(arguments: [String]) throws(UsageError)
    /// Checks what single options cannot (combinations, required options).
    func validate() throws(UsageError)
    /// Does the work; writes results to `output`, progress and diagnostics to `errors`.
    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus
    /// Files the run will write (`--out`, `--trace`): checked before any work starts.
    var outputFiles: [String] { get }
    /// Directories the run will write into (`--report`, `--shrink-dir`, the parent a command
    /// creates for its `--out`): created and checked before any work starts, before the files.
    var outputDirectories: [String] { get }
}

extension Command {
    func validate() throws(UsageError) {}
    var outputFiles: [String] { [] }
    var outputDirectories: [String] { [] }

    /// Prepares the output paths: the first that cannot be written, in words, or nil when all can
    /// (``AtomicFile/checkWritable(_:)``, ``AtomicFile/prepareDirectory(_:)``). Every command
    /// treats a missing directory the same way: `--report DIR` and `--shrink-dir DIR` are
    /// created, and so is the directory of every output file (`--out`, `--trace`, `--junit`,
    /// `--failures`; the default `Reports/latest/`, which a fresh clone lacks). A path under a
    /// regular file, or one the process may not create, is refused before any work (exit 73).
    ///
    /// - Returns: the problem (nil: none) and the directories created for the run, outermost
    ///   first. On a problem those are removed again when still empty; so are they when the
    ///   command then fails on its input (``AtomicFile/removeEmptyDirectories(_:)``).
    func prepareOutputs() -> (problem: String?, created: [String]) {
        var created: [String] = []
        func fail(_ problem: String) -> (problem: String?, created: [String]) {
            AtomicFile.removeEmptyDirectories(created)
            return (problem, [])
        }
        for directory in outputDirectories {
            do { created += try AtomicFile.prepareDirectory(directory) } catch { return fail(error.description) }
        }
        for path in outputFiles {
            do {
                for parent in ShrinkCommand.parentDirectories(of: path) { created += try AtomicFile.prepareDirectory(parent) }
                try AtomicFile.checkWritable(path)
            } catch {
                return fail(AtomicFile.WriteError(path: path, step: error.step, reason: error.reason).description)  // the path asked for
            }
        }
        return (nil, created)
    }

    /// The text `--help` prints.
    static var help: String {
        var lines = [abstract, "", "USAGE: \(usage)"]
        if !options.isEmpty {
            lines += ["", "OPTIONS:"] + options
        }
        lines += ["", "EXAMPLES:"] + examples.map { "  " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The options and positional words of one command line, in order.
struct ParsedArguments {
    /// `--name value` pairs in the order given (the name without dashes).
    private(set) var options: [(name: String, value: String)] = []
    /// Words that are not options or option values.
    private(set) var positionals: [String] = []
    /// Flags (options without a value, e.g. `coverage` for `--coverage`) given, in order.
    private(set) var flags: [String] = []
    let command: String

    /// Splits `arguments` into options and positionals.
    ///
    /// Accepts `--name value` and `--name=value`; a `--` ends the options.
    /// - Parameter valuedOptions: Option names (without dashes) that take a value.
    /// - Parameter allowsPositionals: Whether words other than options are accepted.
    /// - Parameter flagOptions: Option names (without dashes) that take no value.
    /// - Throws: ``UsageError`` for an unknown option, a missing value, a value given to a flag,
    ///   or an unexpected word.
    init(_ arguments: [String], command: String, valuedOptions: [String], allowsPositionals: Bool,
         flagOptions: [String] = []) throws(UsageError) {
        self.command = command
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                guard allowsPositionals else {
                    throw UsageError("unexpected argument '\(word)' for 'alarmsim \(command)'; see 'alarmsim \(command) --help'")
                }
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = String(word.drop { $0 == "-" })
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if word.hasPrefix("--"), flagOptions.contains(name) {
                guard value == nil else {
                    throw UsageError("option '--\(name)' takes no value; give it alone, e.g. --\(name)")
                }
                guard !flags.contains(name) else {
                    throw UsageError("option '--\(name)' was given twice; give it once")
                }
                flags.append(name)
                continue
            }
            guard word.hasPrefix("--"), valuedOptions.contains(name) else {
                let known = (valuedOptions + flagOptions).map { "--" + $0 } + ["--help"]
                let hint = Suggestion.hint(for: name, among: valuedOptions + flagOptions, prefix: "--")
                throw UsageError("unknown option '\(word)' for 'alarmsim \(command)'\(hint); it takes \(known.joined(separator: ", "))")
            }
            if value == nil, index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            }
            guard let value, !value.isEmpty else {
                throw UsageError("option '--\(name)' needs a value, e.g. \(Self.valueExample(name))")
            }
            if ["report", "shrink-dir"].contains(name), value == "-" {
                throw UsageError("--\(name) names a directory of files; '-' (standard output) cannot hold them: give a directory, e.g. \(Self.valueExample(name))")
            }
            options.append((name, value))
        }
    }

    /// The value of an option given at most once, or nil when absent.
    /// - Throws: ``UsageError`` when it was given twice.
    func single(_ name: String) throws(UsageError) -> String? {
        let values = all(name)
        guard values.count <= 1 else {
            throw UsageError("option '--\(name)' was given \(values.count) times (\(values.joined(separator: ", "))); give it once")
        }
        return values.first
    }

    /// Whether the flag `name` (without dashes) was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// Every value of a repeatable option, in the order given.
    func all(_ name: String) -> [String] {
        options.filter { $0.name == name }.map(\.value)
    }

    private static func valueExample(_ name: String) -> String {
        switch name {
        case "platform": "--platform ios"
        case "seeds": "--seeds 1..1000"
        case "seed": "--seed 4711"
        case "defect": "--defect resync-while-alerting"
        case "trace": "--trace Reports/seed-4711.jsonl"
        case "out": "--out FILE"
        case "budget": "--budget 2000"
        case "shrink-dir": "--shrink-dir Reports/shrunk"
        case "jobs": "--jobs 2"
        case "seconds": "--seconds 60"
        case "shard": "--shard 2/4"
        case "report": "--report Reports/latest"
        case "continue-seeds": "--continue-seeds 1..20"
        case "profile": "--profile uniform"
        case "profiles": "--profiles swarm,uniform"
        case "faults": "--faults doze,-process-death"
        case "setup": "--setup kill-switch-disabled"
        case "exemption": "--exemption force-quit"
        case "vs-defect": "--vs-defect resync-while-alerting"
        case "context": "--context 10"
        case "junit": "--junit Reports/junit.xml"
        case "failures": "--failures Scenarios/regressions/failures.txt"
        case "regression": "--regression \"what it caught\""
        case "regressions-dir": "--regressions-dir Scenarios/regressions"
        case "baseline", "binary": "--\(name) /tmp/alarmsim-previous"
        case "baseline-seeds", "baseline-rounds", "memory-seeds", "jobs-seeds": "--\(name) 100"
        default: "--\(name) VALUE"
        }
    }
}

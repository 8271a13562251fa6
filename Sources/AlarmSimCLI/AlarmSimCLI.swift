import SimKernel
import Reporting

/// The `alarmsim` command line: picks the subcommand, parses its arguments, runs it and returns
/// the exit status. `main.swift` only passes the process's arguments and streams in, so tests
/// run every command in-process.
public enum AlarmSimCLI {
    /// The subcommands, in the order help lists them.
    static var commands: [any Command.Type] { [FuzzCommand.self, MergeCommand.self, CoverageCommand.self, DefectsCommand.self, ShrinkCommand.self, ReplayCommand.self, ExplainCommand.self, DiffCommand.self, RunCommand.self, FmtCommand.self, ImportCommand.self, BenchCommand.self, ExemptionsCommand.self, ListCommand.self] }

    static var commandNames: [String] { commands.map { $0.name } }

    static var usage: String { "alarmsim <subcommand> [options]   (\(commandNames.joined(separator: ", ")); 'alarmsim help <subcommand>' for more)" }

    static var help: String {
        var lines = [
            "alarmsim: a deterministic simulator for alarm-app native bridges (iOS AlarmKit, Android AlarmManager).",
            "",
            "USAGE: \(usage)",
            "",
            "SUBCOMMANDS:",
        ]
        let width = commands.map { $0.name.count }.max() ?? 0
        for command in commands {
            lines.append("  " + command.name + String(repeating: " ", count: width - command.name.count + 2) + command.abstract)
        }
        lines += ["", "EXAMPLES:"]
        lines += commands.map { "  " + $0.examples[0] }
        lines += ["", "OPTIONS:", "  --version                            print the version, trace format and time-zone data, then exit",
                  "  --generate-completion-script SHELL   print a completion script for bash, zsh or fish",
                  "  -h, --help                           show this help (alarmsim help SUBCOMMAND: a subcommand's)"]
        lines += ["", "Exit status: 0 success, 1 violations found, 64 usage error, 65 malformed input file, 73 an output path that cannot be written, 74 I/O error, 130/143 interrupted."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs one command line.
    ///
    /// - Parameter arguments: The words after the program name.
    /// - Parameter output: Results (summaries, reports): stdout.
    /// - Parameter errors: Progress and diagnostics: stderr.
    /// - Parameter environment: Whether stderr is a terminal, and the wall clock for rates.
    /// - Returns: The exit status (``ExitStatus``).
    public static func main(
        arguments: [String], output: inout some TextOutputStream, errors: inout some TextOutputStream,
        environment: CLIEnvironment = .process
    ) -> ExitStatus {
        // Bare `alarmsim` prints the help, as a swift-argument-parser command group does.
        guard let word = arguments.first else {
            output.write(help)
            return .success
        }
        let rest = Array(arguments.dropFirst())
        if ["--help", "-h", "help"].contains(word) {
            return showHelp(for: rest.first, output: &output, errors: &errors)
        }
        if let status = topLevelOption(word, rest, output: &output, errors: &errors) { return status }
        // The hidden worker subcommand of `fuzz` (WorkerCommand.swift): runnable, never listed.
        guard let command = commands.first(where: { $0.name == word }) ?? (word == WorkerCommand.name ? WorkerCommand.self : nil) else {
            let topLevel = ["--help", "--version", "--generate-completion-script"]
            let hint = word.hasPrefix("-")
                ? (Suggestion.closest(to: word, among: topLevel).map { " (did you mean '\($0)'?)" } ?? " (options go after the subcommand)")
                : Suggestion.hint(for: word, among: commandNames)
            errors.write("error: unknown subcommand '\(word)'\(hint); use one of \(commandNames.joined(separator: ", "))\n")
            errors.write("usage: \(usage)\n")
            return .usage
        }
        return run(command, arguments: rest, output: &output, errors: &errors, environment: environment)
    }

    /// `--version` and `--generate-completion-script SHELL`, the options of the tool itself; nil
    /// when `word` is neither.
    private static func topLevelOption(_ word: String, _ rest: [String], output: inout some TextOutputStream,
                                       errors: inout some TextOutputStream) -> ExitStatus? {
        switch word {
        case "--version", "version":
            output.write(VersionInfo.text)
            return .success
        case "--generate-completion-script":
            let shells = CompletionScript.shells.joined(separator: "|")
            guard rest.count == 1, let script = CompletionScript.script(for: rest[0], commands: commands) else {
                let given = rest.first.map { "'\($0)' is not a shell it knows" + Suggestion.hint(for: $0, among: CompletionScript.shells) } ?? "name the shell"
                errors.write("error: --generate-completion-script \(shells): \(given)\n")
                errors.write("usage: alarmsim --generate-completion-script \(shells)\n")
                return .usage
            }
            output.write(script)
            return .success
        default:
            return nil
        }
    }

    private static func run(
        _ command: any Command.Type, arguments: [String], output: inout some TextOutputStream,
        errors: inout some TextOutputStream, environment: CLIEnvironment
    ) -> ExitStatus {
        // Like swift-argument-parser, `--help` anywhere before `--` wins over everything else.
        let options = arguments.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") {
            output.write(command.help)
            return .success
        }
        let parsed: any Command
        do {
            parsed = try command.init(arguments: arguments)
            try parsed.validate()
        } catch {
            errors.write("error: \(error.message)\n")
            errors.write("usage: \(command.usage)\n")
            errors.write("See 'alarmsim \(command.name) --help'.\n")
            return .usage
        }
        // What cannot be written fails now, before minutes of work, and nothing is half written.
        let outputs = parsed.prepareOutputs()
        if let problem = outputs.problem {
            errors.write("error: \(problem)\n")
            return .cannotCreate
        }
        let status = parsed.run(output: &output, errors: &errors, environment: environment)
        // A run that ended in an error (a malformed `--failures` file, an unreadable input) leaves
        // none of the directories it created empty behind; a run that wrote into them keeps them.
        if status != .success && status != .violations { AtomicFile.removeEmptyDirectories(outputs.created) }
        return status
    }

    private static func showHelp(
        for name: String?, output: inout some TextOutputStream, errors: inout some TextOutputStream
    ) -> ExitStatus {
        guard let name else {
            output.write(help)
            return .success
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            errors.write("error: no help for '\(name)': it is not a subcommand\(Suggestion.hint(for: name, among: commandNames)); use one of \(commandNames.joined(separator: ", "))\n")
            return .usage
        }
        output.write(command.help)
        return .success
    }
}

import Reporting
import Scenario

/// `alarmsim fmt`: a scenario file in canonical form (``ScenarioPrinter``: the layout shrunk
/// files are written in), like `gofmt` and `swift-format`: to stdout, rewritten in place, or
/// checked.
///
/// Every comment is kept (``ScenarioPrinter/print(_:keepingCommentsOf:)``): the top block,
/// comment lines above a directive (they move with it), and a comment at the end of a line.
struct FmtCommand: Command {
    static let name = "fmt"
    static let abstract = "Print or rewrite scenario files in canonical form (the layout shrunk files use)."
    static let usage = "alarmsim fmt FILE.scenario... [--in-place | --check]"
    static let options = [
        "  --in-place   rewrite each file that is not canonical (atomically; its permission bits kept)",
        "  --check      change nothing: list the files that are not canonical; exit 1 if any",
        "  -h, --help   show this help",
        "",
        "Without --in-place or --check, prints the canonical form of one file on stdout.",
        "Every comment is kept: the block at the top, comment lines above a directive (they move with it)",
        "and a comment at the end of a line (written two spaces after it).",
    ]
    static let examples = [
        "alarmsim fmt Scenarios/regressions/ios-207-lagged-verification-read-is-no-delivery.scenario",
        "alarmsim fmt --check Scenarios/*/*.scenario   # CI: exit 1 when a file is not canonical",
        "alarmsim fmt --in-place my-bug.scenario",
    ]

    enum Mode { case print, inPlace, check }

    var paths: [String]
    var mode: Mode
    var outputFiles: [String] { mode == .inPlace ? paths : [] }

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: [], allowsPositionals: true,
                                         flagOptions: ["in-place", "check"])
        paths = parsed.positionals
        guard !paths.isEmpty else { throw UsageError("missing scenario file: name one or more, e.g. alarmsim fmt my-bug.scenario") }
        switch (parsed.has("in-place"), parsed.has("check")) {
        case (true, true): throw UsageError("--in-place and --check contradict each other; give one of them")
        case (true, false): mode = .inPlace
        case (false, true): mode = .check
        case (false, false):
            guard paths.count == 1 else {
                throw UsageError("printing formats one file: name exactly one, or use --in-place or --check for several")
            }
            mode = .print
        }
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        var formatted: [(path: String, source: String, canonical: String)] = []
        var failed: ExitStatus?  // --check reports every file; the other modes stop at the first error
        for path in paths {
            switch Self.format(path) {
            case .success(let pair): formatted.append((path, pair.source, pair.canonical))
            case .failure(let error):
                let status = error.report(to: &errors)
                guard mode == .check else { return status }
                if status.rawValue > (failed?.rawValue ?? 0) { failed = status }  // the most serious
            }
        }
        if let failed, formatted.isEmpty { return failed }
        switch mode {
        case .print:
            output.write(formatted[0].canonical)
            return .success
        case .check:
            let changed = formatted.filter { $0.source != $0.canonical }
            for file in changed { output.write("not canonical: \(file.path)\n") }
            let unreadable = paths.count - formatted.count
            output.write("fmt: \(formatted.count - changed.count) canonical, \(changed.count) not (alarmsim fmt --in-place FILE rewrites one)"
                         + (unreadable > 0 ? ", \(unreadable) could not be formatted (above)" : "") + "\n")
            if let failed { return failed }
            return changed.isEmpty ? .success : .violations
        case .inPlace:
            var rewritten = 0
            for file in formatted where file.source != file.canonical {
                do { try AtomicFile.write(file.canonical, to: file.path) } catch {
                    errors.write("error: \(error.description)\n")
                    return .ioError
                }
                rewritten += 1
            }
            output.write("fmt: \(rewritten) of \(formatted.count) file(s) rewritten\n")
            return .success
        }
    }

    /// The file's text and its canonical form, every comment kept; malformed when it does not parse.
    static func format(_ path: String) -> Result<(source: String, canonical: String), RunCommand.LoadError> {
        let scenario: ScenarioFile
        switch RunCommand.load(path) {
        case .success(let parsed): scenario = parsed
        case .failure(let error): return .failure(error)
        }
        guard case .success(let data) = InputFile.read(path, what: "scenario file"), let source = String(data: data, encoding: .utf8) else {
            return .failure(.unreadable("\(path): the file changed while it was read"))
        }
        return .success((source, ScenarioPrinter.print(scenario, keepingCommentsOf: source)))
    }
}

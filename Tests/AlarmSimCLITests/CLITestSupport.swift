import AlarmSimCLI
import Foundation

/// What one in-process run of the CLI printed and returned.
struct CLIRun {
    var status: ExitStatus
    var output: String
    var errors: String

    /// The last non-empty line of stdout.
    var lastOutputLine: String? {
        output.split(separator: "\n").last.map(String.init)
    }

    /// The value of the first stdout line starting with `prefix`, without the prefix.
    func outputValue(after prefix: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }
}

/// Runs `alarmsim ARGUMENTS…` in-process with a pinned environment: stderr is not a terminal and
/// the clock stands still, so nothing a test checks depends on the machine.
func cli(_ arguments: [String], errorsIsTerminal: Bool = false) -> CLIRun {
    var output = ""
    var errors = ""
    let environment = CLIEnvironment(errorsIsTerminal: errorsIsTerminal) { 0 }
    // A fuzz campaign writes Reports/latest (with a full-trace replay per failing seed) unless
    // told otherwise: tests that do not check the report skip it, to stay fast and leave no files.
    var arguments = arguments
    let options = arguments.prefix { $0 != "--" }
    if arguments.first == "fuzz", !options.contains(where: { $0.hasPrefix("--report") || $0 == "--no-report" || $0 == "--help" || $0 == "-h" }) {
        arguments.append("--no-report")
    }
    let status = AlarmSimCLI.main(arguments: arguments, output: &output, errors: &errors, environment: environment)
    return CLIRun(status: status, output: output, errors: errors)
}

func cli(_ arguments: String...) -> CLIRun {
    cli(arguments)
}

/// A fresh empty directory under the system's temporary directory, unique per call (`mkdtemp`,
/// so parallel tests never share one).
func makeTemporaryDirectory(_ label: String) throws -> URL {
    var template = Array((FileManager.default.temporaryDirectory.path + "/alarmsim-cli-tests-\(label)-XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw CocoaError(.fileWriteUnknown)
    }
    return URL(fileURLWithPath: String(cString: made), isDirectory: true)
}

import Foundation
import Reporting
import Scenario
import SimKernel
import Simulation

/// `alarmsim import`: turns a device's bridge journal (JSON Lines) into a scenario prefix.
struct ImportCommand: Command {
    static let name = "import"
    static let abstract = "Turn a device's bridge journal (JSON Lines) into a scenario file that alarmsim run replays."
    static let usage = "alarmsim import FILE.jsonl [--out FILE.scenario] [--platform ios|android]"
    static let options = [
        "  --out FILE.scenario     write the scenario there (atomically) instead of printing it",
        "  --platform ios|android  the journal's platform, when its header names none (must agree if it does)",
        "  -h, --help              show this help",
        "",
        "The format (header line, then lifecycle events, alarm actions, save results, alerts, schedule calls",
        "and scheduled-times answers, each with \"t\" in Unix-epoch ms) is documented in Scenarios/README.md,",
        "\"Bridge journals\". Alerts, save results and scheduled-times answers become timed expectations that",
        "'alarmsim run' checks; a failed schedule call becomes a 'fault schedule-failure' line; other calls are comments.",
        "Exit status: 0 written, 64 usage error, 65 malformed journal ('file:line:col: message'), 73 unwritable output, 74 unreadable journal.",
    ]
    static let examples = [
        "alarmsim import Scenarios/journals/001-resume-sync.jsonl   # print the scenario",
        "alarmsim import device.jsonl --platform android --out Scenarios/journals/device.scenario",
        "alarmsim import device.jsonl --out /tmp/d.scenario && alarmsim run /tmp/d.scenario --continue-seeds 1..100",
    ]

    var path: String
    var outPath: String?
    var outputFiles: [String] { outPath.map { [$0] } ?? [] }
    var platform: ScenarioPlatform?

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: ["out", "platform"], allowsPositionals: true)
        guard parsed.positionals.count == 1 else {
            throw UsageError(parsed.positionals.isEmpty
                ? "missing journal file: name one, e.g. alarmsim import device.jsonl"
                : "import reads one journal: name exactly one file (found \(parsed.positionals.count))")
        }
        path = parsed.positionals[0]
        outPath = try parsed.single("out")
        if let outPath, ArgumentValues.sameFile(path, outPath) {
            throw UsageError("--out \(outPath) would overwrite the journal \(path); write the scenario to another path")
        }
        if let text = try parsed.single("platform") {
            guard let value = ScenarioPlatform(rawValue: text) else {
                throw UsageError("unknown platform '\(text)'\(Suggestion.hint(for: text, among: ["ios", "android"])); use --platform ios or --platform android")
            }
            platform = value
        }
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        let data: Data
        switch InputFile.read(path, what: "journal") {
        case .success(let bytes): data = bytes
        case .failure(let error):
            errors.write("error: \(error.message)\n")
            return .ioError
        }
        guard let text = String(data: data, encoding: .utf8) else {
            let (line, column) = RunCommand.firstInvalidUTF8(in: data)
            errors.write("\(path):\(line):\(column): the journal is not UTF-8 text (an invalid byte sequence starts here)\n")
            return .dataError
        }
        let imported: JournalImport
        do {
            imported = try BridgeJournal.importJournal(text, file: path, platform: platform)
        } catch {
            errors.write("\(error.description)\n")
            return .dataError
        }
        let summary = "imported \(path): \(HumanText.counted(String(imported.journalLines), "journal line")) → \(HumanText.counted(String(imported.timedLines), "timed line")), \(HumanText.counted(String(imported.expectations), "expectation")), \(HumanText.counted(String(imported.scheduleComments), "schedule call")) (\(imported.platform.rawValue))"
        guard let outPath else {
            output.write(imported.scenarioText)
            errors.write(summary + "\n")
            return .success
        }
        do {
            try AtomicFile.write(imported.scenarioText, to: outPath)
        } catch {
            errors.write("error: cannot write \(outPath): \(error); check that the directory exists and is writable\n")
            return .ioError
        }
        errors.write(summary + " → \(outPath)\n")
        return .success
    }
}

import AlarmBridge
import Campaign
import Foundation
import Reporting
import Simulation

/// `alarmsim merge`: combines the `summary.json` files of a sharded campaign into one summary.
struct MergeCommand: Command {
    static let name = "merge"
    static let abstract = "Combine the summary.json files of a sharded campaign ('fuzz --shard I/N') into one summary."
    static let usage = "alarmsim merge FILE.json... [--report DIR]"
    static let options = [
        "  FILE.json                    a summary.json written by 'alarmsim fuzz --report DIR'; one per shard",
        "  --report DIR                 also write the merged summary.json, summary.md and junit.xml into DIR",
        "  -h, --help                   show this help",
        "",
        "The files must come from one campaign: the same platforms, --seeds, defects, faults, liveness and",
        "time budget, split by one --shard I/N, and no two may have run the same seed. The merged text (stdout)",
        "is exactly what the unsharded campaign prints; it ends with 'violations: N'.",
        "Exit status: 0 no violation, 1 violations found, 64 usage error, 65 a malformed or incompatible",
        "summary (the message names the file), 73 the report not writable, 74 a file not readable.",
    ]
    static let examples = [
        "alarmsim merge shard-1/summary.json shard-2/summary.json shard-3/summary.json shard-4/summary.json --report Reports/latest",
        "alarmsim merge summaries/*/summary.json        # text summary only",
    ]

    var files: [String]
    var reportDirectory: String?
    var outputDirectories: [String] { reportDirectory.map { [$0] } ?? [] }

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: ["report"], allowsPositionals: true)
        files = parsed.positionals
        reportDirectory = try parsed.single("report")
        guard !files.isEmpty else {
            throw UsageError("missing summary files: name the shards' summary.json files, e.g. alarmsim merge a/summary.json b/summary.json")
        }
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        var parts: [(source: String, summary: FuzzSummary)] = []
        for path in files {
            let data: Data
            switch InputFile.read(path, what: "summary file") {
            case .success(let bytes): data = bytes
            case .failure(let error):
                errors.write("error: \(error.message)\n")
                return .ioError
            }
            // JSON is UTF-8 (RFC 8259): an invalid byte is named by line and column, not decoded around.
            if let (line, column) = UTF8Scan.firstInvalid(in: [UInt8](data)) {
                errors.write("error: \(path):\(line):\(column): the file is not UTF-8 text (an invalid byte sequence starts here)\n")
                return .dataError
            }
            do {
                parts.append((path, try CampaignReport.read(data, source: path)))
            } catch {
                errors.write("error: \(error.message)\n")
                return .dataError
            }
        }
        let summary: FuzzSummary
        do {
            summary = try Campaign.merge(parts)
        } catch {
            errors.write("error: \(error.message)\n")
            return .dataError
        }
        output.write(SummaryFormatter.text(summary))
        // A shard that never reported (a failed CI job) leaves a gap: say so, so a merged report
        // never looks complete when it is not. A time budget or an interruption stops early by design.
        if summary.options.budgetSeconds == nil && !summary.interrupted {
            for tally in summary.tallies where tally.seedsRun != [summary.options.seeds] {
                let ran = tally.seedsRun.isEmpty ? "none" : SummaryFormatter.rangeList(tally.seedsRun)
                errors.write("warning: \(tally.platform.rawValue): the merged files cover seeds \(ran), not all of \(summary.options.seeds.lowerBound)..\(summary.options.seeds.upperBound); is a shard missing?\n")
            }
        }
        if let reportDirectory {
            do {
                try CampaignReport.write(summary, to: reportDirectory)
            } catch {
                errors.write("error: \(error.description); check that the directory is writable\n")
                return .ioError
            }
        }
        return summary.violationCount == 0 ? .success : .violations
    }
}

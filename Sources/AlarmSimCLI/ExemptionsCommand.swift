import AlarmBridge
import Foundation
import Campaign
import Simulation
import SimKernel

/// `alarmsim exemptions`: the exemption scoreboard (issue 16). For every exemption kind of the
/// exemption catalog, forces its faults (and any row-level setup override) on and reports how many seeds it applied to on the correct
/// bridge and which known defects the invariants still found under it; writes
/// `Reports/exemptions.md`.
struct ExemptionsCommand: Command {
    static let name = "exemptions"
    static let abstract = "Score every exemption kind under its own faults: seeds it applied to, defects still found (default Reports/latest/exemptions.md)."
    static let usage = "alarmsim exemptions [--seeds A..B] [--exemption NAME]... [--defect NAME]... [--witnesses-only] [--out FILE]"
    static let options = [
        "  --seeds A..B|N      the seeds of each hunt, in order (default: 1..40; every row takes ~15–60 s on 2 cores)",
        "  --exemption NAME    score only these exemptions; repeatable (default: every one the catalog names)",
        "  --defect NAME       hunt only these defects, plus each row's witness; repeatable (default: every known defect)",
        "  --witnesses-only    hunt only each row's witness (the committed scoreboard's setting: a full hunt takes hours)",
        "  --out FILE          the Markdown scoreboard (default: Reports/latest/exemptions.md; committed: Reports/exemptions.md)",
        "  -h, --help          show this help",
        "",
        "A row's faults (the catalog kinds that can cause its exemption) are forced on for every seed; where",
        "the cause is the app's configuration or an operator's answer, a row-level setup override forces it.",
        "The witness is the known defect that does nothing in the exemption's situation. Exit status:",
        "0 every row's witness was found, 1 one was not, 64 usage error, 73 the report cannot be written, 74 a write failed.",
    ]
    static let examples = [
        "alarmsim exemptions --seeds 1..300 --witnesses-only --out Reports/exemptions.md   # regenerates the committed scoreboard",
        "alarmsim exemptions --exemption mute-switch --seeds 1..100 --out /tmp/e.md",
    ]

    static let defaultSeeds: ClosedRange<UInt64> = 1...40
    static let defaultOut = "Reports/latest/exemptions.md"  // the committed Reports/exemptions.md: --out

    var seeds: ClosedRange<UInt64>
    var exemptions: [String]?
    var defects: [KnownDefect]
    var outPath: String
    var outputFiles: [String] { [outPath] }
    /// `--out`'s directory is created when missing.
    var outputDirectories: [String] { ShrinkCommand.parentDirectories(of: outPath) }
    var arguments: [String]

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: ["seeds", "exemption", "defect", "out"],
                                         allowsPositionals: false, flagOptions: ["witnesses-only"])
        seeds = try parsed.single("seeds").map { (text) throws(UsageError) in try ArgumentValues.seedRange(text) } ?? Self.defaultSeeds
        let known = ExemptionScoreboard.exemptionFaults().map(\.exemption)
        let named = parsed.all("exemption")
        if let unknown = named.first(where: { !known.contains($0) }) {
            throw UsageError("unknown exemption '\(unknown)'\(Suggestion.hint(for: unknown, among: known)); the catalog names \(known.joined(separator: ", "))")
        }
        exemptions = named.isEmpty ? nil : named
        let namedDefects = try ArgumentValues.defects(parsed.all("defect"))
        if parsed.has("witnesses-only") && !namedDefects.isEmpty {
            throw UsageError("--witnesses-only hunts each row's witness alone; drop it or drop --defect")
        }
        defects = parsed.has("witnesses-only") ? [] : namedDefects.isEmpty ? KnownDefect.listed : namedDefects
        outPath = try parsed.single("out") ?? Self.defaultOut
        self.arguments = arguments
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        // A report path that cannot be a file fails before the work, not after it.
        if let problem = Self.unwritable(outPath) {
            errors.write("error: \(problem)\n")
            return .ioError
        }
        let rows = ExemptionScoreboard.run(seeds: seeds, exemptions: exemptions, defects: defects) { row in
            output.write(Self.line(row) + "\n")
        }
        let command = (["alarmsim", "exemptions"] + arguments).joined(separator: " ")
        do {
            try ShrinkCommand.write(Self.markdown(rows, seeds: seeds, command: command), to: outPath)
        } catch {
            errors.write("error: \(ShrinkCommand.describe(error, writing: outPath))\n")
            return .ioError
        }
        output.write("exemptions: \(outPath)\n")
        let witnessed = rows.allSatisfy { row in
            row.setup?.isAppDefect == true ? row.seedsRed > 0 : row.witness == nil || row.witnessSeed != nil
        }
        return witnessed ? .success : .violations
    }

    /// Why `path` cannot take the report (a directory, or a missing parent directory), else nil.
    static func unwritable(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "cannot write \(path): it is a directory; name a file, e.g. --out \(path)/exemptions.md"
        }
        return nil
    }

    /// `mute-switch on ios: applied in 31 of 60 seeds, 12 of 37 defects found (5 with it applied), witness retire-before-arm found at seed 3`.
    static func line(_ row: ExemptionRow) -> String {
        let applied = row.found.filter(\.exemptionApplied).count
        let setup = row.setup.map { ", setup \($0.rawValue)" } ?? ""
        var text = "\(row.exemption) on \(row.platform.rawValue) (faults \(row.faults.isEmpty ? "none" : row.faults.joined(separator: ","))\(setup)): "
            + "applied in \(row.seedsApplied) of \(row.seedsRun) seeds, \(row.found.count) of \(row.hunted) defects found (\(applied) with it applied)"
        if let witness = row.witness {
            text += ", witness \(witness.rawValue) " + (row.witnessSeed.map { "found at seed \($0)" } ?? "NOT found")
        }
        if row.seedsRed > 0 { text += ", correct bridge red in \(row.seedsRed)" + (row.firstRed.map { " (first: seed \($0.seed), \($0.invariant))" } ?? "") }
        if row.seedsApplied == 0 { text += " (it never applied on the correct bridge: raise --seeds)" }
        return text
    }

    static func markdown(_ rows: [ExemptionRow], seeds: ClosedRange<UInt64>, command: String) -> String {
        var text = """
        # Exemption scoreboard

        Generated by `\(command)` (seeds \(seeds.lowerBound)..\(seeds.upperBound) per hunt). Each row forces on the
        fault kinds that can cause the exemption (`--faults`) under the swarm profile; where the cause is the app's
        configuration, the device's version or an operator's answer, a row-level **setup** override forces it on
        the seed's drawn world (`ExemptionSetup`), and **also drawn** names what else the swarm draws that causes
        it. **Red**: correct-bridge seeds with a violation under the row (a setup that is itself a fault of the
        app, such as a manifest without a receiver, is caught so: `android-manifest`, AND-1). **Applied**: correct-bridge
        seeds in which the exemption excused at least one gap (0 means the row proves little: raise `--seeds`).
        **Found**: known defects (of those that apply to the platform) whose first failing seed — a violation the
        correct bridge does not give on that seed — lies in the range. **Found with it applied**: those whose
        failing run had the exemption in force too, with that seed, so it hid nothing of them. **Witness**: the
        defect that does nothing in the exemption's situation, which the exemption must not excuse.

        | exemption | platform | faults forced | setup | also drawn | red | applied | found | found with it applied | witness |
        |---|---|---|---|---|---|---|---|---|---|

        """
        for row in rows {
            let underIt = row.found.filter(\.exemptionApplied).map { "\($0.defect.rawValue) (\($0.seed))" }
            let witness = row.witness.map { w in "\(w.rawValue): " + (row.witnessSeed.map { "found, seed \($0)" } ?? "**not found**") }
                ?? (row.setup?.isAppDefect == true ? "the setup itself (`android-manifest`, AND-1): red in \(row.seedsRed) of \(row.seedsRun)" : "– (open: `witnessOff`)")
            let faults = row.faults.isEmpty ? "–" : row.faults.joined(separator: ", ")
            let setup = row.setup.map { "`\($0.rawValue)`" } ?? "–"
            text += "| `\(row.exemption)` | \(row.platform.rawValue) | \(faults) | \(setup) | \(row.situation ?? "–") | \(row.seedsRed) "
                + "| \(row.seedsApplied) of \(row.seedsRun) "
                + "| \(row.found.count) of \(row.hunted) | \(underIt.isEmpty ? "–" : underIt.joined(separator: ", ")) | \(witness) |\n"
        }
        return text
    }
}

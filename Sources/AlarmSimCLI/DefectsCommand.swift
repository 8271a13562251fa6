import AlarmBridge
import Campaign
import Reporting
import Simulation
import SimKernel

/// `alarmsim defects`: the known-defect scoreboard (issue 7). Hunts every known defect on each
/// platform it applies to under each fault profile, shrinks the first profile's failing seed to
/// a scenario, and writes `Reports/defects.md`.
struct DefectsCommand: Command {
    static let name = "defects"
    static let abstract = "Score the fuzzer on every known defect: seeds to detect per fault profile, shrunk size (default Reports/latest/defects.md)."
    static let usage = "alarmsim defects [--seeds A..B] [--platform ios|android|both] [--defect NAME]... [--profiles P,Q] [--out FILE] [--shrink-dir DIR] [--budget N] [--no-shrink] [--any-platform]"
    static let options = [
        "  --seeds A..B|N               the budget: seeds tried in order until the first failure (default: 1..2000)",
        "  --platform ios|android|both  platforms to score (default: both); a defect is scored on each it applies to",
        "  --defect NAME                score only these defects; repeatable (default: every known defect)",
        "  --profiles P,Q               fault profiles compared side by side, the first one shrunk (default: swarm,uniform)",
        "  --out FILE                   the Markdown scoreboard (default: Reports/latest/defects.md; committed: Reports/defects.md)",
        "  --shrink-dir DIR             where the shrunk scenarios go (default: 'defects' beside --out, so",
        "                               Reports/latest/defects; committed: Scenarios/defects); not with --no-shrink",
        "  --budget N                   candidate runs one shrink may spend (default: 800)",
        "  --no-shrink                  skip shrinking (the events column stays empty; no directory is made for it)",
        "  --any-platform               stop hunting a defect at the first platform that finds it (a quick check)",
        "  -h, --help                   show this help",
        "",
        "One line per (defect, platform) goes to stdout as it finishes. A defect is found when one of its",
        "platforms finds it. Exit status: 0 every defect found within the budget under the first profile,",
        "1 one was not found (or a failing seed does not replay),",
        "64 usage error, 73 a report file cannot be written, 74 a write failed.",
    ]
    static let examples = [
        "alarmsim defects --out Reports/defects.md --shrink-dir Scenarios/defects   # regenerates the committed scoreboard and files",
        "alarmsim defects --platform android --seeds 1..500 --profiles uniform --no-shrink --out /tmp/d.md",
    ]

    static let defaultSeeds: ClosedRange<UInt64> = 1...2_000
    static let defaultOut = "Reports/latest/defects.md"  // the committed Reports/defects.md: --out
    static let defaultShrinkDirectory = "Reports/latest/defects"  // the committed Scenarios/defects: --shrink-dir

    /// The shrunk scenarios' directory without `--shrink-dir`: `defects` in `--out`'s directory
    /// (the default `Reports/latest/defects.md` gives ``defaultShrinkDirectory``), so a scoreboard
    /// written elsewhere (`--out /tmp/d.md`) writes nothing under the current directory.
    static func shrinkDirectory(besides outPath: String) -> String {
        guard outPath != AtomicFile.standardOutputPath else { return defaultShrinkDirectory }
        let directory = ShrinkCommand.directoryPart(of: outPath)
        return directory.isEmpty ? "defects" : directory == "/" ? "/defects" : directory + "/defects"
    }

    var platforms: [PlatformFlavor]
    var seeds: ClosedRange<UInt64>
    var defects: [KnownDefect]
    var profiles: [FaultProfile]
    var outPath: String
    var shrinkDirectory: String
    var outputFiles: [String] { [outPath] }
    /// The shrunk-scenario directory when shrinking, and `--out`'s directory (created when missing).
    var outputDirectories: [String] { (shrinks ? [shrinkDirectory] : []) + ShrinkCommand.parentDirectories(of: outPath) }
    var shrinkBudget: Int
    var shrinks: Bool
    var firstPlatformOnly: Bool
    var arguments: [String]

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name,
                                         valuedOptions: ["platform", "seeds", "defect", "profiles", "out", "shrink-dir", "budget"],
                                         allowsPositionals: false, flagOptions: ["no-shrink", "any-platform"])
        let platforms = try ArgumentValues.platforms(try parsed.single("platform"))
        self.platforms = platforms
        seeds = try parsed.single("seeds").map { (text) throws(UsageError) in try ArgumentValues.seedRange(text) }
            ?? Self.defaultSeeds
        let named = try ArgumentValues.defects(parsed.all("defect"))
        defects = named.isEmpty ? KnownDefect.listed : named
        if platforms.count == 1, let defect = named.first(where: { !$0.platforms.contains(platforms[0]) }) {
            throw UsageError("defect \(defect.rawValue) does not apply to \(platforms[0].rawValue); it applies to \(defect.platforms.map(\.rawValue).joined(separator: ", "))")
        }
        var profiles: [FaultProfile] = []
        for word in (try parsed.single("profiles") ?? "swarm,uniform").split(separator: ",", omittingEmptySubsequences: false) {
            guard let profile = FaultProfile(rawValue: String(word)) else {
                throw UsageError("unknown profile '\(word)' in --profiles\(Suggestion.hint(for: String(word), among: FaultProfile.allCases.map { $0.rawValue })); use a comma-separated list of \(FaultProfile.allCases.map(\.rawValue).joined(separator: ", ")), e.g. --profiles swarm,uniform")
            }
            guard !profiles.contains(profile) else { throw UsageError("profile '\(word)' is listed twice in --profiles") }
            profiles.append(profile)
        }
        self.profiles = profiles
        outPath = try parsed.single("out") ?? Self.defaultOut
        shrinks = !parsed.has("no-shrink")
        let shrinkDirectoryAsked = try parsed.single("shrink-dir")
        if shrinkDirectoryAsked != nil && !shrinks {
            throw UsageError("--shrink-dir names where shrunk scenarios go, and --no-shrink makes none: give one of them")
        }
        shrinkDirectory = shrinkDirectoryAsked ?? Self.shrinkDirectory(besides: outPath)
        let budgetText = try parsed.single("budget") ?? "800"
        guard let budget = Int(budgetText), budget >= 1 else {
            throw UsageError("invalid --budget '\(budgetText)': write a positive number of candidate runs, e.g. --budget 500")
        }
        shrinkBudget = budget
        firstPlatformOnly = parsed.has("any-platform")
        self.arguments = arguments
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        var options = ScoreboardOptions(platforms: platforms, seeds: seeds, defects: defects, profiles: profiles)
        options.firstPlatformOnly = firstPlatformOnly
        var writeFailure: String?
        let shrink: ((PlatformFlavor, UInt64, KnownDefect, FaultProfile) -> ShrinkSize?)? = shrinks ? { platform, seed, defect, profile in
            let (size, problem) = DefectShrinks.shrink(platform: platform, seed: seed, defect: defect, profile: profile,
                                                       budget: shrinkBudget, directory: shrinkDirectory)
            if let problem, writeFailure == nil { writeFailure = problem }
            return size
        } : nil
        let board = DefectScoreboard.run(options, elapsedMs: environment.elapsedMs, shrink: shrink) { row in
            output.write(ScoreboardFormatter.line(row) + "\n")
        }
        let command = (["alarmsim", "defects"] + arguments).joined(separator: " ")
        do {
            try ShrinkCommand.write(ScoreboardFormatter.markdown(board, command: command), to: outPath)
        } catch {
            errors.write("error: \(ShrinkCommand.describe(error, writing: outPath))\n")
            return .ioError
        }
        if let writeFailure {
            errors.write("error: \(writeFailure)\n")
            return .ioError
        }
        for profile in profiles {
            output.write("\(profile.rawValue): found \(board.foundCount(profile)) of \(board.defects.count) defects, median seeds to detect \(board.medianSeedsToDetect(profile).map(String.init) ?? "–")\n")
        }
        output.write("scoreboard: \(outPath)\n")
        let replays = board.rows.allSatisfy { $0.primary.firstFailingSeed == nil || $0.primary.replays }
        return board.everyDefectFound && replays ? .success : .violations
    }
}

import AlarmBridge
import Campaign
import Foundation
import Reporting
import Scenario
import Simulation

/// `alarmsim shrink`: reduces a failing fuzz seed to a minimal scenario file (Shrinker).
struct ShrinkCommand: Command {
    static let name = "shrink"
    static let abstract = "Shrink a failing seed to a minimal .scenario file that fails the same invariant first."
    static let usage = "alarmsim shrink --platform ios|android --seed N [--defect NAME]... [--profile P] [--faults A,B,-C] [--setup ROW] [--no-liveness] [--out FILE | --regression TEXT [--regressions-dir DIR]] [--budget N]"
    static let options = [
        "  --platform ios|android  the platform the seed ran on (required)",
        "  --seed N                the failing root seed (required)",
        "  --defect NAME           a known field bug to switch on; repeatable (see 'alarmsim list defects')",
        "  --profile P             fault profile the seed ran with: swarm (default), uniform or none",
        "  --faults A,B,-C         fault kinds forced on or off (-C), as the fuzz repro line prints them",
        SeedRunArguments.setupHelp,
        "  --no-liveness           the seed ran with the safety phase only",
        "  --out FILE              where to write the scenario (default: Reports/shrunk/PLATFORM-SEED-INVARIANT.scenario)",
        "  --regression TEXT       commit it as a regression: write DIR/PLATFORM-SEED-SLUG.scenario (SLUG: TEXT in",
        "                          lowercase words joined by '-') with a '#' header saying what it caught (TEXT), the",
        "                          repro line and that it is not yet classified; a seed failing without --defect is",
        "                          marked '# status: known failure, not fixed', so 'alarmsim run' reports it as an",
        "                          expected failure until the fix lands. An existing file is never overwritten (73)",
        "  --regressions-dir DIR   where --regression writes (default: Scenarios/regressions)",
        "  --budget N              the most candidate runs, each a verified simulator run (default: 2000)",
        "  -h, --help              show this help",
        "",
        "The seed's run is exported as a scenario (param lines for every drawn setting, the seed's own",
        "plan as timed lines), then reduced (fewer events, alarms, params; shorter run; simpler times)",
        "while its first violation keeps the same invariant. The file ends with 'expect violation NAME'",
        "and replays with 'alarmsim run FILE'. Same input, same file, byte for byte.",
        "Prints: 'shrunk ios seed 1 (title-in-ring-id): 52 → 1 events, 1 → 1 alarms, 78 runs, 1.0 s, invariant stable-ids → FILE'.",
        "Exit status: 0 written, 64 usage error, 65 the seed does not fail (or its export does not",
        "reproduce the failure), 73 the file is not writable (or, with --regression, exists already).",
    ]
    static let examples = [
        "alarmsim shrink --platform ios --seed 1 --defect title-in-ring-id",
        "alarmsim shrink --platform android --seed 3 --defect stop-leaves-recovery-guard --out Scenarios/regressions/android-stop-leaves-recovery-guard-shrunk.scenario",
        "alarmsim shrink --platform ios --seed 39907 --regression \"rollback drops a jumped-over one-shot\"   # → Scenarios/regressions/ios-39907-rollback-drops-a-jumped-over-one-shot.scenario",
    ]

    static let defaultBudget = 2000
    static let defaultDirectory = "Reports/shrunk"
    static let defaultRegressionsDirectory = "Scenarios/regressions"

    var seedRun: SeedRunArguments
    var outPath: String?
    /// `--regression TEXT`: what the regression caught (its header), and its file's slug.
    var regression: String?
    var regressionsDirectory: String
    var outputFiles: [String] { outPath.map { [$0] } ?? [] }
    /// `--out`'s directory, the regressions directory, or the default shrink directory, is created when missing.
    var outputDirectories: [String] {
        if regression != nil { return [regressionsDirectory] }
        return outPath.map { Self.parentDirectories(of: $0) } ?? [Self.defaultDirectory]
    }
    var budget: Int

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: SeedRunArguments.valuedOptions + ["out", "budget", "regression", "regressions-dir"],
                                         allowsPositionals: false, flagOptions: SeedRunArguments.flagOptions)
        seedRun = try SeedRunArguments(parsed, purpose: "to shrink")
        outPath = try parsed.single("out")
        regression = try parsed.single("regression")
        let directory = try parsed.single("regressions-dir")
        regressionsDirectory = directory ?? Self.defaultRegressionsDirectory
        if let regression {
            guard outPath == nil else {
                throw UsageError("--out and --regression name two files; give one: --regression writes \(regressionsDirectory)/PLATFORM-SEED-SLUG.scenario")
            }
            guard !regression.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
                throw UsageError("--regression '\(regression)' has a control character; say what it caught in one line")
            }
            guard !RegressionHeader.slug(regression).isEmpty else {
                throw UsageError("--regression '\(regression)' names nothing: say what it caught in words, e.g. --regression \"snooze lost after reboot\"")
            }
        } else if directory != nil {
            throw UsageError("--regressions-dir says where --regression writes: give --regression TEXT too")
        }
        budget = Self.defaultBudget
        if let text = try parsed.single("budget") {
            guard let value = Int(text), value >= 1, value <= 1_000_000, text.allSatisfy(\.isNumber) else {
                throw UsageError("'\(text)' is not a budget: give a number of candidate runs 1...1000000, e.g. --budget 2000")
            }
            budget = value
        }
    }

    func validate() throws(UsageError) {
        try seedRun.validate()
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        // determinism-ok: wall-clock timing of the shrink, printed only, never reaches a run
        let startMs = environment.elapsedMs()
        let (platform, seed, defects) = (seedRun.platform, seedRun.seed, seedRun.defects)
        let (setup, parameters) = seedRun.runSetup()
        let origin = Campaign.reproLine(platform: platform, seed: seed, defects: defects, faults: seedRun.faults,
                                        liveness: seedRun.liveness, command: "shrink")
        var path = outPath ?? regressionPath ?? Self.defaultDirectory + "/" + Self.fileName(platform: platform, seed: seed, defects: [])
        // A regression never replaces a committed file: checked before the shrink and again before the write.
        if regression != nil, let refusal = Self.existingFileRefusal(path) {
            errors.write(refusal)
            return .cannotCreate
        }
        guard let result = Shrinker.shrink(setup: setup, parameters: parameters, defects: defects, budget: budget, origin: origin) else {
            errors.write("error: \(platform.rawValue) seed \(seed) does not fail with \(Self.defectList(defects)), or its exported scenario does not reproduce the failure; nothing to shrink\n")
            return .dataError
        }
        if outPath == nil, regression == nil {
            // Named as a campaign names it: platform, seed, then the invariant it fails.
            path = Self.defaultDirectory + "/" + Self.fileName(platform: platform, seed: seed, defects: [], suffix: result.invariant)
        }
        var text = result.text
        if let regression {
            let repro = Campaign.reproLine(platform: platform, seed: seed, defects: defects, faults: seedRun.faults, liveness: seedRun.liveness)
            let header = RegressionHeader.lines(caught: regression, repro: repro + (seedRun.setup.map { " --setup \($0.rawValue)" } ?? ""),
                                                invariant: result.invariant, defects: Self.defectNames(defects))
            text = header.joined(separator: "\n") + "\n" + text
            if let refusal = Self.existingFileRefusal(path) {
                errors.write(refusal)
                return .cannotCreate
            }
        }
        do {
            try Self.write(text, to: path)
        } catch {
            errors.write("error: \(Self.describe(error, writing: path)); check that the directory is writable\n")
            return .ioError
        }
        // determinism-ok: as above
        let elapsedMs = max(environment.elapsedMs() - startMs, 0)
        output.write(Self.line(platform: platform, seed: seed, defects: defects, result: result, elapsedMs: elapsedMs, path: path) + "\n")
        return .success
    }

    /// `shrunk ios seed 1 (title-in-ring-id): 53 → 1 events, 1 → 1 alarms, 55 runs, 0.3 s, invariant stable-ids → FILE`.
    static func line(platform: PlatformFlavor, seed: UInt64, defects: [KnownDefect], result: ShrinkResult,
                     elapsedMs: Int64, path: String) -> String {
        let seconds = "\(elapsedMs / 1_000).\(elapsedMs % 1_000 / 100)"
        // A file with no timed event is no shrink of a run (issue 16): say so, never "→ 0 events".
        let verb = result.isShrunk ? "shrunk" : "not shrunk (no timed event would be left)"
        return "\(verb) \(platform.rawValue) seed \(seed) (\(defectList(defects))): \(result.originalEvents) → \(result.shrunkEvents) events, "
            + "\(result.originalAlarms) → \(result.shrunkAlarms) alarms, \(result.candidateRuns) runs, \(seconds) s, "
            + "invariant \(result.invariant) → \(path)"
    }

    /// `--regression`'s file: `DIR/ios-17-snooze-lost-after-reboot.scenario`.
    var regressionPath: String? {
        regression.map { text in
            regressionsDirectory + "/" + "\(seedRun.platform.rawValue)-\(seedRun.seed)-\(RegressionHeader.slug(text)).scenario"
        }
    }

    /// The error for a regression file that exists already (never overwritten), or nil.
    static func existingFileRefusal(_ path: String) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return "error: \(path) exists already; a regression is never overwritten: remove it first, or say what this one caught in other words (--regression TEXT names the file)\n"
    }

    static func defectNames(_ defects: [KnownDefect]) -> [String] {
        Array(Set(defects)).sorted().map(\.rawValue)
    }

    static func defectList(_ defects: [KnownDefect]) -> String {
        defects.isEmpty ? "no defect" : Array(Set(defects)).sorted().map(\.rawValue).joined(separator: ", ")
    }

    /// `ios-1-stable-ids.scenario`: platform, seed, any `defects`, then `suffix` (the invariant
    /// the shrunk run fails; `fuzz` and the default of `shrink` name files so).
    static func fileName(platform: PlatformFlavor, seed: UInt64, defects: [KnownDefect], suffix: String? = nil) -> String {
        let parts = [platform.rawValue, String(seed)] + Array(Set(defects)).sorted().map(\.rawValue) + (suffix.map { [$0] } ?? [])
        return parts.joined(separator: "-") + ".scenario"
    }

    /// One line for a failed `write`: the atomic write's own message, or the directory that
    /// could not be created, in words (never a raw Foundation error dump).
    static func describe(_ error: any Error, writing path: String) -> String {
        (error as? AtomicFile.WriteError)?.description ?? "cannot write \(path): \(error.localizedDescription)"
    }

    /// The directory `write(_:to:)` creates for `path`: none for a bare name or `-`.
    static func parentDirectories(of path: String) -> [String] {
        let directory = directoryPart(of: path)
        return path == AtomicFile.standardOutputPath || directory.isEmpty ? [] : [directory]
    }

    /// The directory part of `path` as written (`a/b/c` → `a/b`, `/c` → `/`, `c` → ""), by plain
    /// text: `NSString.deletingLastPathComponent` traps on a one-character path on Linux
    /// (`--out x` crashed shrink, defects and exemptions with SIGILL).
    static func directoryPart(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let directory = trimmed[..<slash]
        return directory.isEmpty ? "/" : String(directory)
    }

    /// Writes atomically, creating the file's directory when it is missing.
    static func write(_ text: String, to path: String) throws {
        let directory = directoryPart(of: path)
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
            try AtomicFile.prepareDirectory(directory)
        }
        try AtomicFile.write(text, to: path)
    }
}

/// How a message names an output path.
enum TraceText {
    /// `-` reads as "standard output"; any other path as given.
    static func pathName(_ path: String) -> String {
        path == AtomicFile.standardOutputPath ? "standard output" : path
    }
}

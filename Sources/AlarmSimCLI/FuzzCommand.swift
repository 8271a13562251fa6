import Foundation
import AlarmBridge
import Campaign
import Reporting
import Scenario
import Simulation

/// `alarmsim fuzz`: runs a seed range on each platform and reports every failing seed.
struct FuzzCommand: Command {
    static let name = "fuzz"
    static let abstract = "Run many seeds, each a random world, and report every seed that breaks an invariant."
    static let usage = "alarmsim fuzz [--platform ios|android|both] [--seeds A..B] [--seconds S] [--shard I/N] [--jobs N] [--defect NAME]... [--profile swarm|uniform|none] [--faults A,B,-C] [--no-liveness] [--coverage] [--report DIR | --no-report] [--shrink-dir DIR | --no-shrink] [--failures FILE] [--no-replay-known] [--record-failures]"
    static let options = [
        "  --platform ios|android|both  platforms to run, ios first (default: both)",
        "  --seeds A..B|N               root seeds, inclusive (default: 1..1000; with --seconds: from 1 upward)",
        "  --seconds S                  wall-clock budget instead of a seed count: seeds run from the range's first",
        "                               seed upward until the time is up or the range's last seed ran (a given",
        "                               --seeds range caps it); with --platform both each platform gets",
        "                               S/2 seconds, ios first. The summary's 'seeds run:' line names the seeds",
        "                               that ran, so '--seeds A..B' repeats the campaign exactly",
        "  --shard I/N                  run only the I-th of N contiguous blocks of the seed range (1 ≤ I ≤ N);",
        "                               combine the shards' summary.json files with 'alarmsim merge'",
        "  --jobs N                     worker subprocesses running seeds in parallel (default: the number of cores);",
        "                               a seed that traps or crashes kills only its worker: it is reported as the",
        "                               invariant 'crash' with its signal and repro line, and a new worker takes over.",
        "                               --jobs 1 still runs one worker subprocess, for the same isolation.",
        "                               The summary is the same for every N: results are folded in seed order",
        "  --defect NAME                switch a known field bug back on; repeatable (see 'alarmsim list defects');",
        "                               with --platform both, each platform runs the defects that apply to it",
        "  --coverage                   after the summary, print the reachability table: per mark and platform its",
        "                               rules, hits and seeds reaching it; listed marks with no hit say UNREACHED",
        "  --profile swarm|uniform|none fault profile (default: swarm): swarm switches each fault kind on or off",
        "                               per seed and draws its rate; uniform runs every kind at its catalog rate;",
        "                               none injects no fault (the sleepy user still acts)",
        "  --faults A,B,-C              force fault kinds on (A) or off (-C) on top of the profile; repeatable",
        "                               (see 'alarmsim list faults'); failing seeds' repro lines carry both options",
        "  --report DIR                 write summary.json, summary.md and junit.xml into DIR (default: Reports/latest),",
        "                               for each of the first 20 failing seeds DIR/failures/PLATFORM-SEED/ with",
        "                               trace.jsonl, report.md and timeline.html, and the shrunk scenarios into",
        "                               DIR/shrunk/, each linked from summary.md, report.md and junit.xml (an earlier",
        "                               DIR/failures and DIR/shrunk are replaced)",
        "  --no-report                  write no report files; shrunk scenarios still go to Reports/shrunk",
        "                               (or --shrink-dir DIR; add --no-shrink to write nothing)",
        "  --shrink-dir DIR             where the shrunk scenarios go instead of DIR/shrunk (nothing there is removed)",
        "  --no-shrink                  do not shrink failing seeds",
        "  --failures FILE              the known-failures file (default: Scenarios/regressions/failures.txt, read",
        "                               when it exists): one repro line per line, as the summary prints it ('#'",
        "                               comments). Its lines for the campaign's platforms and defects are replayed",
        "                               first, each with its own profile and faults; the summary says 'known failures",
        "                               replayed: N, still failing: M', and a seed still failing counts as a violation.",
        "                               A malformed file stops the command at once: 'FILE:LINE:COL: …', exit 65",
        "  --no-replay-known            do not replay the known failures",
        "  --record-failures            append the repro line of each failing seed not yet in the known-failures file",
        "                               to it (created with a comment header when missing); never done unasked",
        "  --no-liveness                run the safety phase only: no heal, no liveness phase, no convergence check",
        "  -h, --help                   show this help",
        "",
        "Progress goes to stderr (on a terminal one line: seeds done/total, seeds/s, failures, ETA); the summary",
        "goes to stdout and ends with 'violations: N'. Ctrl-C (SIGINT) or SIGTERM (timeout, CI cancellation) stops",
        "handing out seeds, stops the workers, and writes a partial summary that says 'interrupted' and which",
        "seeds ran (exit 130 for SIGINT, 143 for SIGTERM).",
        "After the campaign, the first failing seed of each distinct (platform, invariant) is shrunk",
        "to a minimal scenario (as 'alarmsim shrink' does) written to SHRINK/PLATFORM-SEED-INVARIANT.scenario",
        "(SHRINK: the report's shrunk/, or --shrink-dir); commit one with 'alarmsim shrink … --regression TEXT';",
        "one 'shrunk …' line per file goes to stderr. A 'crash' is never shrunk: its repro line is the lead.",
        "Exit status: 0 no violation, 1 violations found (a known failure still failing counts), 64 usage error,",
        "65 malformed known-failures file, 73 the report or shrink directory (or the --record-failures file)",
        "cannot be created or written (checked before the campaign), 74 a write failed later or --failures FILE",
        "cannot be read, 130 interrupted (SIGINT), 143 terminated (SIGTERM).",
    ]
    static let examples = [
        "alarmsim fuzz --seeds 1..1000                                  # both platforms, no defect",
        "alarmsim fuzz --platform ios --seeds 1..2000 --defect unavailable-read-as-empty",
        "alarmsim fuzz --seconds 60 --jobs 2                            # one minute, both platforms, 2 workers",
        "alarmsim fuzz --seeds 1..100000 --shard 2/4 --report out/shard-2   # then: alarmsim merge out/*/summary.json",
        "alarmsim fuzz --seeds 1..200 --coverage                        # which rule-relevant states were reached",
        "alarmsim fuzz --platform android --seeds 1..300 --profile uniform --faults -doze",
        "alarmsim fuzz --platform android --seeds 1..300 --defect title-in-ring-id --no-shrink   # no shrinking",
        "alarmsim fuzz --platform android --seeds 1..300 --defect restore-skips-locked-boot --no-liveness",
        "alarmsim fuzz --platform ios --seeds 1..2000 --record-failures   # replay known failures, record new ones",
    ]

    static let defaultSeeds: ClosedRange<UInt64> = 1...1000
    static let defaultReportDirectory = "Reports/latest"
    static let jobsMax = 256

    var platforms: [PlatformFlavor]
    var platformNamedExplicitly: Bool
    var seeds: ClosedRange<UInt64>
    var defects: [KnownDefect]
    /// Print the reachability coverage table after the summary.
    var printsCoverage: Bool
    var faults: FaultSelection
    /// False with `--no-liveness`: the safety phase only (issue 7).
    var liveness: Bool
    /// Where shrunk scenarios go; nil with `--no-shrink`.
    var shrinkDirectory: String?
    /// The report's `shrunk/` when no `--shrink-dir` names another place: an earlier campaign's
    /// files there are removed, as its `failures/` is (also with `--no-shrink`).
    var reportShrunkDirectory: String?
    /// True when the shrunk scenarios go to ``reportShrunkDirectory``.
    var shrinksIntoReport: Bool { shrinkDirectory != nil && shrinkDirectory == reportShrunkDirectory }
    /// The known-failures file (``KnownFailureFile``): `--failures FILE` or the default.
    var failuresPath: String
    var failuresPathIsExplicit: Bool
    /// False with `--no-replay-known`.
    var replaysKnown: Bool
    /// `--record-failures`: append new failing seeds' repro lines to ``failuresPath``.
    var recordsFailures: Bool
    var outputFiles: [String] { recordsFailures ? [failuresPath] : [] }
    /// Worker subprocesses; nil for the default (the number of cores).
    var jobs: Int?
    var budgetSeconds: Int?
    var shard: CampaignShard?
    /// Where the report files go; nil with `--no-report`.
    var reportDirectory: String?
    /// The report's own `shrunk/` is created when a scenario is written there, not before.
    var outputDirectories: [String] { [reportDirectory, shrinksIntoReport ? nil : shrinkDirectory].compactMap { $0 } }

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name,
                                         valuedOptions: ["platform", "seeds", "defect", "profile", "faults", "shrink-dir",
                                                         "jobs", "seconds", "shard", "report", "failures"],
                                         allowsPositionals: false,
                                         flagOptions: ["coverage", "no-shrink", "no-liveness", "no-report", "no-replay-known", "record-failures"])
        liveness = !parsed.has("no-liveness")
        let directory = try parsed.single("shrink-dir")
        if parsed.has("no-shrink") && directory != nil {
            throw UsageError("--no-shrink and --shrink-dir contradict each other; give one of them")
        }
        let report = try parsed.single("report")
        if parsed.has("no-report") && report != nil {
            throw UsageError("--no-report and --report contradict each other; give one of them")
        }
        reportDirectory = parsed.has("no-report") ? nil : (report ?? Self.defaultReportDirectory)
        // The shrunk files belong to the campaign's report (issue 19): DIR/shrunk, unless
        // --shrink-dir says otherwise; with --no-report they go where they always went.
        let inReport = reportDirectory.map { Self.trimmed($0) + "/" + CampaignReport.shrunkDirectoryName }
        shrinkDirectory = parsed.has("no-shrink") ? nil : (directory ?? inReport ?? ShrinkCommand.defaultDirectory)
        reportShrunkDirectory = directory == nil ? inReport : nil
        let failures = try parsed.single("failures")
        failuresPath = failures ?? KnownFailureFile.defaultPath
        failuresPathIsExplicit = failures != nil
        replaysKnown = !parsed.has("no-replay-known")
        recordsFailures = parsed.has("record-failures")
        let platformText = try parsed.single("platform")
        platforms = try ArgumentValues.platforms(platformText)
        platformNamedExplicitly = platforms.count == 1
        jobs = try parsed.single("jobs").map { (text) throws(UsageError) in
            try ArgumentValues.count(text, option: "--jobs", range: 1...Self.jobsMax, example: "--jobs 2")
        }
        budgetSeconds = try parsed.single("seconds").map { (text) throws(UsageError) in
            try ArgumentValues.count(text, option: "--seconds", range: 1...31_536_000, example: "--seconds 60")
        }
        shard = try parsed.single("shard").map { (text) throws(UsageError) in try ArgumentValues.shard(text) }
        let seedsText = try parsed.single("seeds")
        let seedRange = try seedsText.map { (text) throws(UsageError) in try ArgumentValues.seedRange(text) }
        if let seedRange {
            seeds = seedRange
        } else if budgetSeconds != nil {
            // A time budget without a range: seeds from 1 upward, as many as the budget allows.
            seeds = 1...Campaign.seedCountMax
        } else {
            seeds = Self.defaultSeeds
        }
        defects = try ArgumentValues.defects(parsed.all("defect"))
        printsCoverage = parsed.has("coverage")
        faults = try ArgumentValues.faults(profile: parsed.single("profile"), faults: parsed.all("faults"))
    }

    /// A directory path without trailing slashes (`out/` → `out`; `/` stays).
    static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    func validate() throws(UsageError) {
        try ArgumentValues.checkFaults(faults, applyTo: platforms)
        // With `--platform both` a defect that exists on one platform only runs there; naming the
        // other platform explicitly would run the defect nowhere, which is surely a mistake.
        if platformNamedExplicitly {
            try ArgumentValues.checkDefects(defects, applyTo: platforms[0])
        }
    }

    var fuzzOptions: FuzzOptions {
        FuzzOptions(platforms: platforms, seeds: seeds, defects: defects, faults: faults, liveness: liveness,
                    shard: shard, budgetSeconds: budgetSeconds)
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        // (`outputDirectories`: the report and shrink directories were checked before the campaign.)
        // The known failures are read first: a malformed file stops the command before anything
        // is run, written or removed.
        let known: KnownFile?
        switch loadKnownFailures() {
        case .success(let loaded): known = loaded
        case .failure(let problem): return problem.report(to: &errors)
        }
        let runner = CampaignRunner(options: fuzzOptions, jobs: jobs ?? environment.processorCount, environment: environment)
        var summary: FuzzSummary
        do {
            let replay = try known.flatMap { (file) throws(CampaignRunner.Failure) in
                replaysKnown ? try runner.replay(file.failures, file: failuresPath, errors: &errors) : nil
            }
            summary = try runner.run(errors: &errors)
            summary.known = replay
        } catch {
            errors.write("error: \(error.description)\n")
            return .ioError
        }
        output.write(SummaryFormatter.text(summary, failingListedAbove: environment.outputSharesErrors))
        if printsCoverage { output.write("\n" + CoverageReport.text(summary)) }
        // The summary files first, so an interruption during shrinking loses nothing; an earlier
        // campaign's failures/ (and shrunk/) goes first, so no report in DIR describes seeds this one did not fail.
        if let reportDirectory {
            guard removeEarlierArtifacts(in: reportDirectory, errors: &errors),
                  reportShrunkDirectory.map({ removeEarlierShrunk(in: $0, errors: &errors) }) ?? true,
                  writeReport(summary, to: reportDirectory, artifacts: [:], errors: &errors) else { return .ioError }
        }
        if recordsFailures {
            guard record(summary, in: known, errors: &errors) else { return .ioError }
        }
        if summary.interrupted { return Interrupt.status }
        var shrunk: [Int: (text: String, path: String)] = [:]
        if let shrinkDirectory, !summary.failing.isEmpty {
            guard let texts = shrinkFailures(summary, into: shrinkDirectory, errors: &errors, environment: environment) else { return .ioError }
            shrunk = texts
        }
        if let reportDirectory {
            var artifacts: [Int: String] = [:]
            if !summary.failing.isEmpty {
                let links = shrunk.mapValues { RelativePath.from(reportDirectory, to: $0.path) }
                guard let written = writeArtifacts(summary, shrunk: shrunk, into: reportDirectory, errors: &errors),
                      writeReport(summary, to: reportDirectory, artifacts: written, shrunk: links, errors: &errors) else { return .ioError }
                artifacts = written
            }
            let pages = artifacts.isEmpty ? "" : "; \(artifacts.count) failing \(artifacts.count == 1 ? "seed's" : "seeds'") timeline.html, report.md and trace.jsonl under \(reportDirectory)/\(CampaignReport.failuresDirectoryName)/"
            errors.write("report: \(reportDirectory)/\(CampaignReport.summaryMarkdownName), summary.json, junit.xml\(pages)\n")
        }
        return summary.violationCount == 0 ? .success : .violations
    }

    /// The most failing seeds that get per-failure artifacts (trace, Markdown, HTML timeline) in
    /// one campaign, in summary order; each is one more full-trace replay.
    static let artifactsMax = 20

    /// Writes summary.json, summary.md and junit.xml; false (after saying why) when it cannot.
    func writeReport(_ summary: FuzzSummary, to directory: String, artifacts: [Int: String], shrunk: [Int: String] = [:],
                     errors: inout some TextOutputStream) -> Bool {
        do {
            try CampaignReport.write(summary, to: directory, artifacts: artifacts, shrunk: shrunk)
            return true
        } catch {
            errors.write("error: \(error.description); check that the directory is writable or pass --no-report\n")
            return false
        }
    }

    /// Replays the first ``artifactsMax`` failing seeds (a `crash` is never replayed here: it would
    /// trap this process) with their full trace and writes each one's `trace.jsonl`, `report.md`
    /// and `timeline.html` into `DIR/failures/PLATFORM-SEED/` (``FailureArtifacts``), after
    /// removing the artifacts of an earlier campaign in `DIR/failures`.
    /// - Parameter shrunk: Shrunk scenario texts by index in `summary.failing`, shown in `report.md`.
    /// - Returns: The relative artifacts directory by index in `summary.failing`, or nil (after
    ///   saying why) when a file could not be written.
    func writeArtifacts(_ summary: FuzzSummary, shrunk: [Int: (text: String, path: String)], into directory: String,
                        errors: inout some TextOutputStream) -> [Int: String]? {
        guard removeEarlierArtifacts(in: directory, errors: &errors) else { return nil }
        var artifacts: [Int: String] = [:]
        var written = 0
        for index in Self.artifactOrder(summary.failing) {
            let failing = summary.failing[index]
            guard written < Self.artifactsMax else {
                errors.write("report: artifacts for \(Self.artifactsMax) failing seeds only (the first of each platform and invariant first); replay others with 'alarmsim replay … --report DIR'\n")
                break
            }
            let relative = CampaignReport.artifactsDirectory(for: failing)
            let options = RunOptions(platform: failing.platform, seed: failing.seed,
                                     defects: Campaign.applicableDefects(summary.options.defects, on: failing.platform),
                                     faults: summary.options.faults, liveness: summary.options.liveness)
            let link = shrunk[index].map { RelativePath.from(directory + "/" + relative, to: $0.path) }
            do {
                try FailureArtifacts.write(options: options, shrunkScenario: shrunk[index]?.text, shrunkPath: shrunk[index]?.path,
                                           shrunkLink: link, into: directory + "/" + relative)
            } catch {
                errors.write("error: \(error.description); check that the directory is writable or pass --no-report\n")
                return nil
            }
            artifacts[index] = relative
            written += 1
        }
        return artifacts
    }

    /// Removes an earlier campaign's per-failure artifacts from `DIR/failures`: only what alarmsim
    /// writes there — `PLATFORM-SEED` directories holding nothing but ``FailureArtifacts/fileNames``
    /// — then `failures` itself once empty. Anything else (a user's own files) is left alone.
    /// False (after saying why) when a removal fails.
    func removeEarlierArtifacts(in directory: String, errors: inout some TextOutputStream) -> Bool {
        let failures = directory + "/" + CampaignReport.failuresDirectoryName
        let files = FileManager.default
        guard let entries = try? files.contentsOfDirectory(atPath: failures) else { return true }
        do {
            for entry in entries.sorted() where Self.isArtifactsDirectoryName(entry) {
                let path = failures + "/" + entry
                guard let inside = try? files.contentsOfDirectory(atPath: path),
                      inside.allSatisfy(FailureArtifacts.fileNames.contains) else { continue }
                try files.removeItem(atPath: path)
            }
            if (try? files.contentsOfDirectory(atPath: failures))?.isEmpty == true { try files.removeItem(atPath: failures) }
            return true
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let reason = underlying.map { String(cString: strerror(Int32($0.code))) } ?? "it could not be removed"
            errors.write("error: cannot remove the earlier artifacts in \(failures): \(reason)\n")
            return false
        }
    }

    /// The failing seeds whose artifacts are written, in the order they get them: the first seed
    /// of each distinct (platform, invariant) first, so ``artifactsMax`` never spends itself on
    /// one platform's 20 copies of a bug while another invariant gets none; then the rest, in
    /// summary order. A `crash` is never replayed here (it would trap this process).
    static func artifactOrder(_ failing: [FailingSeed]) -> [Int] {
        var seen: [String] = []
        var firsts: [Int] = [], rest: [Int] = []
        for (index, seed) in failing.enumerated() where seed.signal == nil {
            let key = "\(seed.platform.rawValue) \(seed.violation.invariant)"
            if seen.contains(key) { rest.append(index) } else { seen.append(key); firsts.append(index) }
        }
        return firsts + rest
    }

    /// The command a shrunk file says it came from: the seed's `alarmsim shrink …` line (what a
    /// user runs to redo it), made from its `alarmsim replay …` repro line.
    static func shrinkOrigin(_ repro: String) -> String {
        repro.hasPrefix("alarmsim replay ") ? "alarmsim shrink " + repro.dropFirst("alarmsim replay ".count) : repro
    }

    /// True for `ios-17`, `android-4711`: the name of a failing seed's artifacts directory.
    static func isArtifactsDirectoryName(_ name: String) -> Bool {
        for platform in PlatformFlavor.allCases {
            let prefix = platform.rawValue + "-"
            if name.hasPrefix(prefix), let _ = UInt64(name.dropFirst(prefix.count)) { return true }
        }
        return false
    }

    /// Shrinks the first failing seed of each distinct (platform, invariant), in summary order.
    /// - Returns: The shrunk scenario texts by index in `summary.failing`; nil when a file could
    ///   not be written.
    func shrinkFailures(_ summary: FuzzSummary, into directory: String, errors: inout some TextOutputStream,
                        environment: CLIEnvironment) -> [Int: (text: String, path: String)]? {
        var texts: [Int: (text: String, path: String)] = [:]
        var done: [(PlatformFlavor, String)] = []
        // A crash is never shrunk: replaying its seed in this process would trap here too.
        for (index, failing) in summary.failing.enumerated() where failing.signal == nil
            && !done.contains(where: { $0 == (failing.platform, failing.violation.invariant) }) {
            done.append((failing.platform, failing.violation.invariant))
            let defects = Campaign.applicableDefects(summary.options.defects, on: failing.platform)
            // determinism-ok: wall-clock timing of the shrink, printed only
            let startMs = environment.elapsedMs()
            let (setup, parameters) = Simulator.runSetup(RunOptions(platform: failing.platform, seed: failing.seed, defects: defects,
                                                                    faults: summary.options.faults, liveness: summary.options.liveness))
            guard let result = Shrinker.shrink(setup: setup, parameters: parameters, defects: defects,
                                                origin: Self.shrinkOrigin(failing.repro)) else {
                errors.write("shrink: \(failing.platform.rawValue) seed \(failing.seed): the exported scenario does not reproduce \(failing.violation.invariant); not shrunk\n")
                continue
            }
            let path = directory + "/" + ShrinkCommand.fileName(platform: failing.platform, seed: failing.seed, defects: [],
                                                                suffix: failing.violation.invariant)
            do {
                try ShrinkCommand.write(result.text, to: path)
            } catch {
                errors.write("error: \(ShrinkCommand.describe(error, writing: path)); check that the directory is writable\n")
                return nil
            }
            texts[index] = (result.text, path)
            // determinism-ok: as above
            let elapsedMs = max(environment.elapsedMs() - startMs, 0)
            errors.write(ShrinkCommand.line(platform: failing.platform, seed: failing.seed, defects: defects, result: result,
                                            elapsedMs: elapsedMs, path: path) + "\n")
        }
        return texts
    }
}

/// Campaign progress on stderr: one `\r`-rewritten line on a terminal (seeds done/total,
/// failing, seeds/s, one ETA for the whole campaign), otherwise one line per finished platform;
/// each finished platform's line carries its wall-clock rate. A failing seed's `FAIL` line and
/// repro are printed the moment it is folded (in seed order), above the progress line.
struct ProgressMeter {
    let errorsIsTerminal: Bool
    let elapsedMs: @Sendable () -> Int64
    /// When the campaign's time budget ends (`--seconds`), on the `elapsedMs` clock.
    var deadlineMs: Int64?
    /// Seeds the whole campaign runs (every platform), for its one ETA.
    let campaignSeeds: Int
    private var campaignStartMs: Int64?
    /// Seeds of the platforms already finished.
    private var seedsBefore = 0
    private var platformStartMs: Int64 = 0
    private var lastDrawMs: Int64 = -1_000
    private var finished = false

    init(errorsIsTerminal: Bool, elapsedMs: @escaping @Sendable () -> Int64, campaignSeeds: Int = 0) {
        self.errorsIsTerminal = errorsIsTerminal
        self.elapsedMs = elapsedMs
        self.campaignSeeds = campaignSeeds
    }

    /// `FAIL ios seed 12: never-silent at 2026-03-03 06:15:12 America/New_York — …` and its
    /// repro line, as soon as the seed is folded (the summary lists it again at the end).
    mutating func failed(_ outcome: SeedOutcome, options: FuzzOptions, to errors: inout some TextOutputStream) {
        guard let violation = outcome.violation else { return }
        let when = outcome.signal == nil ? " at \(violation.localTime(fallbackZone: "UTC"))" : ""
        let repro = Campaign.reproLine(platform: outcome.platform, seed: outcome.seed,
                                       defects: Campaign.applicableDefects(options.defects, on: outcome.platform),
                                       faults: options.faults, liveness: options.liveness)
        let text = "FAIL \(outcome.platform.rawValue) seed \(outcome.seed): \(violation.invariant)\(when) — \(violation.message)\n  repro: \(repro)\n"
        errors.write(errorsIsTerminal ? "\r\u{1B}[K" + text : text)
        lastDrawMs = -1_000  // redraw the progress line below it at the next seed
    }

    mutating func report(_ progress: FuzzProgress, to errors: inout some TextOutputStream) {
        if progress.seedsDone == 0 {
            // determinism-ok: wall-clock timing of the campaign, never reaches a run
            platformStartMs = elapsedMs()
            if campaignStartMs == nil { campaignStartMs = platformStartMs }
            finished = false
        }
        if progress.isPlatformFinished {
            finish(progress, to: &errors)
            return
        }
        guard errorsIsTerminal else { return }
        // Rewrite the line at most ten times a second: enough to look live, few enough writes
        // not to slow a fast campaign.
        let nowMs = elapsedMs()  // determinism-ok: as above
        guard nowMs - lastDrawMs >= 100 || progress.seedsDone == 1 else { return }
        lastDrawMs = nowMs
        let durationMs = max(nowMs - platformStartMs, 1)
        let seedsPerSecond = Int64(progress.seedsDone) * 1_000 / durationMs
        var line = "\r\(progress.platform.rawValue) \(progress.seedsDone)/\(progress.seedsTotal) seeds, \(progress.failing) failing, \(seedsPerSecond) seeds/s"
        let doneAll = seedsBefore + progress.seedsDone
        let totalAll = max(campaignSeeds, seedsBefore + progress.seedsTotal)
        let campaignMs = max(nowMs - (campaignStartMs ?? platformStartMs), 1)
        if let deadlineMs {
            line += ", campaign ETA \(HumanText.rough(max(deadlineMs - nowMs, 0))) (time budget)"
        } else if doneAll > 0 {
            let remainingMs = Int64(totalAll - doneAll) * campaignMs / Int64(doneAll)
            line += ", campaign \(doneAll)/\(totalAll), ETA \(HumanText.rough(remainingMs))"
        }
        errors.write(line + "\u{1B}[K")
    }

    /// The finished line of a platform, also when it stopped before its last seed (a time
    /// budget, an interruption); printed once per platform.
    mutating func finish(_ progress: FuzzProgress, to errors: inout some TextOutputStream) {
        guard !finished else { return }
        finished = true
        seedsBefore += progress.seedsTotal
        // determinism-ok: wall-clock timing of the campaign, never reaches a run
        let durationMs = max(elapsedMs() - platformStartMs, 0)
        let seedsPerSecond = Int64(progress.seedsDone) * 1_000 / max(durationMs, 1)
        let line = "\(progress.platform.rawValue): \(progress.seedsDone) \(progress.seedsDone == 1 ? "seed" : "seeds"), \(progress.failing) failing, \(durationMs) ms, \(seedsPerSecond) seeds/s"
        errors.write(errorsIsTerminal ? "\r\(line)\u{1B}[K\n" : "\(line)\n")
    }
}

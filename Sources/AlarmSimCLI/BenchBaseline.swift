import AlarmBridge
import Foundation

/// `alarmsim bench --baseline PATH` (issue 20): this build against another alarmsim binary (e.g.
/// the previous commit's release build) on the same seeds, in the same run, so that a speed-up is
/// one measured ratio rather than two absolute figures taken at different moments of a shared
/// machine.
///
/// Per platform it runs `fuzz --platform P --seeds 1..N --jobs 1 --no-shrink --no-report` with
/// each binary, `rounds` times, alternating which goes first, and sums the CPU time (user +
/// system of the campaign and its worker, `wait4(2)` `rusage`) and the wall time of each side.
/// The speed-up is the baseline's CPU over this build's. It also checks that the change is
/// behaviour-free: the campaigns' summaries (failing seeds, events, exemptions) must be identical,
/// and `replay --seed S` must print the same trace hash for the first seeds.
struct BenchBaseline {
    /// One binary's totals over every round of one platform.
    struct Side: Equatable {
        var cpuNs: Int64 = 0
        var wallNs: Int64 = 0
        /// Seeds run in all (seeds × rounds).
        var seeds = 0

        /// Seeds per CPU-second, in thousandths.
        var milliSeedsPerCPUSecond: Int64 {
            cpuNs > 0 ? Int64(seeds) * 1_000 * 1_000_000_000 / cpuNs : 0
        }
    }

    /// One platform's comparison.
    struct PlatformFigure {
        var platform: PlatformFlavor
        var seeds: Int
        var rounds: Int
        var current = Side()
        var baseline = Side()
        /// The first summary line that differs, as "baseline: … / this build: …"; nil when identical.
        var summaryDifference: String?
        /// Seeds whose trace hash was compared.
        var hashesCompared = 0
        /// Seeds whose trace hashes differ, as "seed N: BASE → THIS".
        var hashDifferences: [String] = []

        /// The baseline's CPU time over this build's, in hundredths (2.00 × = twice as fast).
        var cpuSpeedUpHundredths: Int64 { baseline.cpuNs * 100 / max(current.cpuNs, 1) }
        /// The same for wall time.
        var wallSpeedUpHundredths: Int64 { baseline.wallNs * 100 / max(current.wallNs, 1) }
        var identical: Bool { summaryDifference == nil && hashDifferences.isEmpty }
    }

    var baselinePath: String
    var currentPath: String
    var figures: [PlatformFigure] = []
    /// Why the comparison could not be made, if it could not.
    var failure: String?

    /// Runs the comparison on both platforms.
    /// - Parameters:
    ///   - seeds: seeds per platform per round (from 1).
    ///   - rounds: campaigns per binary per platform; the order alternates from round to round.
    ///   - hashSeeds: seeds per platform whose `replay` trace hashes are compared.
    static func measure(current: String, baseline: String, seeds: Int, rounds: Int, hashSeeds: Int,
                        progress: (String) -> Void) -> BenchBaseline {
        var result = BenchBaseline(baselinePath: baseline, currentPath: current)
        let extra = sharedFuzzWords(current: current, baseline: baseline)
        for platform in [PlatformFlavor.ios, .android] {
            progress("bench: baseline comparison, \(platform.rawValue), seeds 1..\(seeds) × \(BenchScale.counted(rounds, "round")) …")
            do {
                result.figures.append(try measure(platform: platform, current: current, baseline: baseline,
                                                  seeds: seeds, rounds: rounds, hashSeeds: hashSeeds, extraWords: extra))
            } catch {
                result.failure = error.description
                return result
            }
        }
        return result
    }

    /// The campaign options both binaries know (an older build may lack `--no-replay-known`).
    static func sharedFuzzWords(current: String, baseline: String) -> [String] {
        let helps = [current, baseline].map { BenchMeasurements.output(of: $0, ["fuzz", "--help"]) ?? "" }
        return ["--no-report", "--no-replay-known"].filter { word in helps.allSatisfy { $0.contains(word) } }
    }

    static func measure(platform: PlatformFlavor, current: String, baseline: String, seeds: Int, rounds: Int,
                        hashSeeds: Int, extraWords: [String]) throws(BenchMeasurements.SpawnError) -> PlatformFigure {
        var figure = PlatformFigure(platform: platform, seeds: seeds, rounds: rounds)
        let words = ["fuzz", "--platform", platform.rawValue, "--seeds", "1..\(seeds)", "--jobs", "1", "--no-shrink"] + extraWords
        let outPath = FileManager.default.temporaryDirectory.path + "/alarmsim-bench-\(getpid())-baseline.txt"
        defer { unlink(outPath) }
        var summaries: [String: [String]] = [:]
        for round in 0..<rounds {
            let order = round % 2 == 0 ? [baseline, current] : [current, baseline]
            for binary in order {
                let child = try BenchMeasurements.runChild(binary: binary, arguments: words, stdoutPath: outPath)
                guard child.completed else { throw BenchMeasurements.SpawnError(description: child.failureReason) }
                let lines = summaryLines(of: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "", platform: platform)
                summaries[binary] = lines
                if binary == baseline {
                    figure.baseline.cpuNs += child.cpuNs
                    figure.baseline.wallNs += child.wallNs
                    figure.baseline.seeds += seeds
                } else {
                    figure.current.cpuNs += child.cpuNs
                    figure.current.wallNs += child.wallNs
                    figure.current.seeds += seeds
                }
            }
        }
        figure.summaryDifference = firstDifference(summaries[baseline] ?? [], summaries[current] ?? [])
        for seed in 1...max(1, min(hashSeeds, seeds)) {
            let replay = ["replay", "--platform", platform.rawValue, "--seed", String(seed)]
            let base = traceHash(binary: baseline, replay), this = traceHash(binary: current, replay)
            figure.hashesCompared += 1
            if base != this { figure.hashDifferences.append("seed \(seed): \(base ?? "none") → \(this ?? "none")") }
        }
        return figure
    }

    /// The lines of a campaign's stdout that describe its behaviour, not its speed: each FAIL line
    /// and the platform's "N seeds, K failing, E events, exemptions: …" line.
    static func summaryLines(of output: String, platform: PlatformFlavor) -> [String] {
        output.split(separator: "\n").map(String.init).filter { line in
            line.hasPrefix("FAIL ") || (line.hasPrefix("\(platform.rawValue): ") && line.contains(" events"))
        }
    }

    static func firstDifference(_ baseline: [String], _ current: [String]) -> String? {
        if baseline.isEmpty && current.isEmpty { return "neither campaign printed a summary line" }
        for index in 0..<max(baseline.count, current.count) {
            let base = index < baseline.count ? baseline[index] : "(no line)"
            let this = index < current.count ? current[index] : "(no line)"
            if base != this { return "baseline: \(base) / this build: \(this)" }
        }
        return nil
    }

    /// The `trace-hash:` value `binary replay …` prints (it exits 1 when the seed fails).
    static func traceHash(binary: String, _ arguments: [String]) -> String? {
        guard let text = BenchMeasurements.output(of: binary, arguments, acceptingStatus: [0, 1]) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("trace-hash:") }
        return line.map { $0.dropFirst("trace-hash:".count).trimmingCharacters(in: .whitespaces) }
    }

    // MARK: - Report

    /// The least CPU time per side for which a ratio is stated without a warning: below it one
    /// run's ratio is off by up to ±30 % on a shared machine (a `--quick` comparison is about
    /// 0.1 s per side; newcomer report, eighteenth session).
    static let reliableCPUNs: Int64 = 2_000_000_000

    /// The warning for a figure measured on too little CPU time, nil when there was enough.
    static func smallSampleWarning(_ figure: PlatformFigure) -> String? {
        let least = min(figure.baseline.cpuNs, figure.current.cpuNs)
        guard least < reliableCPUNs else { return nil }
        return "too small a sample for a speed-up: \(BenchReport.grouped(least / 1_000_000)) ms of CPU on one side "
            + "(below \(reliableCPUNs / 1_000_000_000) s a ratio can be off by ±30 %; raise --baseline-seeds)"
    }

    /// Stdout lines: one per platform.
    func summaryLines() -> [String] {
        if let failure { return ["NOT MEASURED: baseline comparison: \(failure)"] }
        return figures.map { figure in
            let identity = figure.identical ? "behaviour identical" : "BEHAVIOUR DIFFERS"
            return "baseline \(figure.platform.rawValue): CPU speed-up \(BenchReport.fixed(figure.cpuSpeedUpHundredths, scale: 100)) × "
                + "(\(BenchReport.fixed(figure.baseline.milliSeedsPerCPUSecond, scale: 1_000)) → "
                + "\(BenchReport.fixed(figure.current.milliSeedsPerCPUSecond, scale: 1_000)) seeds per CPU-second), \(identity)"
                + (Self.smallSampleWarning(figure).map { "; " + $0 } ?? "")
        }
    }

    /// The report's section.
    func markdownLines() -> [String] {
        var lines = ["", "## Against a baseline binary (`--baseline`)", "",
                     "Baseline: `\(baselinePath)`; this build: `\(currentPath)`. Each platform runs",
                     "`fuzz --seeds 1..N --jobs 1 --no-shrink` with each binary in turn, alternating which goes first;",
                     "CPU is user + system time of the campaign and its worker (`wait4` rusage).", ""]
        if let failure { return lines + ["Not measured: \(failure)"] }
        lines += ["| Platform | Seeds × rounds | Baseline CPU | This build CPU | Seeds per CPU-second | CPU speed-up | Wall speed-up | Behaviour |",
                  "|---|---|---|---|---|---|---|---|"]
        for figure in figures {
            let identity = figure.identical
                ? "identical (summaries; \(figure.hashesCompared) trace hashes)"
                : "**differs**: " + ([figure.summaryDifference].compactMap { $0 } + figure.hashDifferences.prefix(3)).joined(separator: "; ")
            lines.append("| \(figure.platform.rawValue) | \(figure.seeds) × \(figure.rounds) "
                + "| \(BenchReport.grouped(figure.baseline.cpuNs / 1_000_000)) ms | \(BenchReport.grouped(figure.current.cpuNs / 1_000_000)) ms "
                + "| \(BenchReport.fixed(figure.baseline.milliSeedsPerCPUSecond, scale: 1_000)) → \(BenchReport.fixed(figure.current.milliSeedsPerCPUSecond, scale: 1_000)) "
                + "| \(BenchReport.fixed(figure.cpuSpeedUpHundredths, scale: 100)) × | \(BenchReport.fixed(figure.wallSpeedUpHundredths, scale: 100)) × "
                + "| \(BenchReport.cell(identity)) |")
        }
        let warnings = figures.compactMap { figure in Self.smallSampleWarning(figure).map { "- \(figure.platform.rawValue): \($0)." } }
        return warnings.isEmpty ? lines : lines + [""] + warnings
    }
}

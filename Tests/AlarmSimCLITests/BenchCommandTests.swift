@testable import AlarmSimCLI
import AlarmBridge
import Foundation
import Testing

@Suite("alarmsim bench")
struct BenchCommandTests {
    @Test("--help exits 0 and prints the usage, the targets and examples")
    func help() {
        for arguments in [["bench", "--help"], ["help", "bench"]] {
            let run = cli(arguments)
            #expect(run.status == .success)
            #expect(run.output.contains("USAGE: alarmsim bench"))
            #expect(run.output.contains("EXAMPLES:\n  alarmsim bench "))
            #expect(run.output.contains("--memory-seeds N"))
            #expect(run.errors.isEmpty)
        }
        #expect(cli("--help").output.contains("\n  bench "), "top-level help lists bench")
    }

    @Test("bad flags are usage errors (exit 64) naming the option",
          arguments: [["--seeds", "0"], ["--seeds", "many"], ["--memory-seeds", "1"], ["--jobs-seeds", "-3"],
                      ["--binary", "/nonexistent/alarmsim"], ["--frobnicate"], ["--quick", "--quick"], ["extra"]])
    func usageErrors(_ arguments: [String]) {
        let run = cli(["bench"] + arguments)
        #expect(run.status == .usage, "\(arguments)")
        #expect(run.errors.hasPrefix("error: "), "\(arguments)")
        #expect(run.output.isEmpty)
    }

    @Test("a report path under a regular file exits 73 with the path, before measuring anything")
    func unwritableReport() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("alarmsim-bench-file-\(UInt64.random(in: 0...UInt64.max))").path
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = cli("bench", "--quick", "--out", file + "/benchmarks.md")
        #expect(run.status == .cannotCreate)
        #expect(run.errors.contains(file + "/benchmarks.md"))
        #expect(!run.errors.contains("bench: bare event queue"), "nothing was measured")
    }

    @Test("fixed-point and grouped numbers are printed from integers")
    func numberFormatting() {
        #expect(BenchReport.grouped(0) == "0")
        #expect(BenchReport.grouped(999) == "999")
        #expect(BenchReport.grouped(1_000) == "1,000")
        #expect(BenchReport.grouped(12_345_678) == "12,345,678")
        #expect(BenchReport.grouped(-1_234) == "-1,234")
        #expect(BenchReport.fixed(1_234, scale: 100) == "12.34")
        #expect(BenchReport.fixed(1_204, scale: 100) == "12.04")
        #expect(BenchReport.fixed(50, scale: 10) == "5.0")
        #expect(BenchReport.fixed(5_587, scale: 1_000) == "5.587")
        #expect(BenchReport.kibText(65_536) == "65,536 KiB (64.0 MiB)")
    }

    /// A report with synthetic figures, so the MET/MISSED decisions can be checked at the edges.
    private func report(simNs: Int64, queueNs: Int64, virtualMs: Int64, jobs: BenchReport.Jobs, peakKiB: Int) -> BenchReport {
        var report = BenchReport(commandLine: "alarmsim bench", facts: [("cores", "2")])
        report.queue = BenchMeasurements.QueueFigure(events: 1_000, pending: 64, wallNs: queueNs * 1_000, checksum: 0)
        report.simulations = [PlatformFlavor.ios, .android].map {
            BenchMeasurements.SimulationFigure(platform: $0, seeds: 10, events: 1_000, virtualMs: virtualMs,
                                               wallNs: simNs * 1_000, failing: 0)
        }
        report.jobs = jobs
        // wait4's ru_maxrss is only an upper bound (it includes the spawner's resident set): the
        // sampled peak is the figure.
        let child = BenchMeasurements.ChildRun(arguments: ["fuzz"], exitStatus: 0, signal: nil, wallNs: 1_000_000, maxRSSKiB: peakKiB + 5_000,
                                               parentPeakKiB: peakKiB - 10, largestWorkerPeakKiB: peakKiB, workersSeen: 2, firstErrorLine: nil)
        report.memory = [.measured(runs: 10, child), .measured(runs: 100, child)]
        return report
    }

    private func child(wallMs: Int64) -> BenchMeasurements.ChildRun {
        BenchMeasurements.ChildRun(arguments: ["fuzz", "--jobs", "1"], exitStatus: 0, signal: nil, wallNs: wallMs * 1_000_000,
                                   maxRSSKiB: 30_000, parentPeakKiB: 30_000, largestWorkerPeakKiB: 20_000, workersSeen: 2, firstErrorLine: nil)
    }

    @Test("each figure is MET exactly up to its target and MISSED past it, with a reason for every miss")
    func targets() {
        // 500 ns vs 100 ns = 5.0 ×: met; 2 × 500,000 virtual ms in 2 × 0.5 wall ms = 1,000,000 × real
        // time: met; 1.80 ×: met; 64 MiB: met.
        let edge = report(simNs: 500, queueNs: 100, virtualMs: 500_000, jobs: .measured(seeds: 10, one: child(wallMs: 1_800), two: child(wallMs: 1_000)),
                          peakKiB: 65_536)
        #expect(edge.rows.map(\.status) == [.met, .met, .met, .met, .met])
        #expect(edge.rows.allSatisfy { $0.note.isEmpty })
        // 510 ns: 5.1 × and 980,392 × real time; 1.79 ×; one KiB over.
        let past = report(simNs: 510, queueNs: 100, virtualMs: 500_000, jobs: .measured(seeds: 10, one: child(wallMs: 1_790), two: child(wallMs: 1_000)),
                          peakKiB: 65_537)
        #expect(past.rows.map(\.status) == [.missed, .missed, .missed, .missed, .missed])
        #expect(past.rows.allSatisfy { !$0.note.isEmpty })
        let markdown = past.markdown()
        #expect(markdown.contains("### Misses explained"))
        #expect(markdown.components(separatedBy: "**MISSED**").count - 1 == 5)
    }

    @Test("a --jobs figure that could not be measured says why, and the report still has every section")
    func jobsNotMeasured() {
        let report = report(simNs: 500, queueNs: 100, virtualMs: 4_000_000,
                            jobs: .notMeasured("this build's fuzz has no --jobs option"), peakKiB: 30_000)
        let row = report.rows.first { $0.measurement.contains("--jobs 2") }
        #expect(row?.status == .notMeasured)
        #expect(row?.note.contains("no --jobs option") == true)
        let markdown = report.markdown()
        for heading in ["# Benchmarks", "## Machine", "## Figures against the targets of issue 8", "### Misses explained",
                        "### Bare event queue", "### Full simulation", "### Parallel campaign", "### Memory"] {
            #expect(markdown.contains("\n\(heading)\n") || markdown.hasPrefix("\(heading)\n"), "missing \(heading)")
        }
        #expect(markdown.contains("Growth from 10 to 100 runs, each process's peak against the same process's: parent 0 KiB (0 KiB per 1,000 runs); largest worker 0 KiB"))
        // Like with like: a parent's peak is never set against a worker's (bench --quick showed
        // 22,836 KiB parent → 27,084 KiB worker as growth).
        var small = child(wallMs: 1_000), large = child(wallMs: 1_000)
        (small.parentPeakKiB, small.largestWorkerPeakKiB) = (22_836, nil)
        (large.parentPeakKiB, large.largestWorkerPeakKiB) = (22_900, 27_084)
        let text = BenchReport.growthText(smallRuns: 2, small: small, largeRuns: 20, large: large)
        #expect(text.contains("parent 64 KiB (3,555 KiB per 1,000 runs)") && !text.contains("largest worker"), "\(text)")
        // A parent sampled before it had started (4 KiB) is no peak: wait4's figures are compared.
        small.parentPeakKiB = 4
        let early = BenchReport.growthText(smallRuns: 2, small: small, largeRuns: 20, large: large)
        #expect(early.contains("wait4 ru_maxrss 0 KiB") && !early.contains("parent"), "\(early)")
    }

    @Test("bench --quick with the release binary writes a complete report and one status line per target",
          .timeLimit(.minutes(25)))
    func quickRun() throws {
        let binary = try ReleaseBinary.locate()
        let directory = try makeTemporaryDirectory("bench")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("benchmarks.md").path
        let run = try ReleaseBinary.run(binary, ["bench", "--quick", "--out", path])
        #expect(run.status == 0, "stderr: \(run.errors)")
        let report = try String(contentsOfFile: path, encoding: .utf8)
        #expect(report.hasPrefix("# Benchmarks\n\nGenerated by `alarmsim bench --quick`"))
        #expect(report.contains("| build | release |"))
        let statusRows = report.split(separator: "\n").filter {
            $0.hasSuffix("| **MET** |") || $0.hasSuffix("| **MISSED** |") || $0.hasSuffix("| **NOT MEASURED** |")
        }
        #expect(statusRows.count == 5, "two per-event ratios, real time, --jobs, memory")
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.allSatisfy { $0.hasPrefix("MET: ") || $0.hasPrefix("MISSED: ") || $0.hasPrefix("NOT MEASURED: ") })
        if statusRows.contains(where: { !$0.hasSuffix("| **MET** |") }) {
            #expect(report.contains("### Misses explained"), "every miss is explained")
        }
        // The simulation ran: events and virtual time are positive for both platforms.
        for platform in ["ios", "android"] {
            let row = report.split(separator: "\n").first { $0.hasPrefix("| \(platform) | 3 | ") }
            #expect(row != nil, "no simulation row for \(platform)")
        }
        // Both memory campaigns completed with a measured peak.
        let memoryRows = report.split(separator: "\n").filter { $0.hasPrefix("| 2 | ") || $0.hasPrefix("| 20 | ") }
        #expect(memoryRows.count == 2)
        #expect(memoryRows.allSatisfy { $0.contains(" KiB (") && !$0.contains("not measured") })
    }

    @Test("--baseline options are checked before anything is measured",
          arguments: [["--baseline-only"], ["--baseline", "/nonexistent/alarmsim"], ["--baseline", "/bin/sh", "--baseline-seeds", "0"],
                      ["--baseline", "/bin/sh", "--baseline-rounds", "x"]])
    func baselineUsageErrors(_ arguments: [String]) {
        let run = cli(["bench"] + arguments)
        #expect(run.status == .usage, "\(arguments)")
        #expect(run.errors.hasPrefix("error: "), "\(arguments)")
    }

    @Test("a baseline comparison keeps only behaviour lines and names the first difference")
    func baselineSummaryDifference() {
        let output = "FAIL ios seed 7: never-silent at …\nios: 10 seeds, 1 failing, 120 ms, 83 seeds/s\nios: 10 seeds, 1 failing, 4,100 events, exemptions: force-quit=2\n"
        let lines = BenchBaseline.summaryLines(of: output, platform: .ios)
        #expect(lines == ["FAIL ios seed 7: never-silent at …", "ios: 10 seeds, 1 failing, 4,100 events, exemptions: force-quit=2"],
                "timing lines are not behaviour")
        #expect(BenchBaseline.firstDifference(lines, lines) == nil)
        let other = ["FAIL ios seed 7: never-silent at …", "ios: 10 seeds, 1 failing, 4,101 events, exemptions: force-quit=2"]
        #expect(BenchBaseline.firstDifference(lines, other)?.contains("4,101 events") == true)
        #expect(BenchBaseline.firstDifference([], []) != nil, "no summary at all is no evidence of identity")
        var figure = BenchBaseline.PlatformFigure(platform: .ios, seeds: 10, rounds: 1)
        figure.baseline = BenchBaseline.Side(cpuNs: 3_000_000_000, wallNs: 3_000_000_000, seeds: 10)
        figure.current = BenchBaseline.Side(cpuNs: 1_000_000_000, wallNs: 2_000_000_000, seeds: 10)
        #expect(figure.cpuSpeedUpHundredths == 300)
        #expect(figure.wallSpeedUpHundredths == 150)
        #expect(figure.current.milliSeedsPerCPUSecond == 10_000)
        #expect(BenchBaseline.smallSampleWarning(figure)?.contains("1,000 ms of CPU") == true, "1 s on one side is too little")
        figure.current.cpuNs = 2_500_000_000
        #expect(BenchBaseline.smallSampleWarning(figure) == nil)
    }

    @Test("bench --baseline-only against the same release binary reports identical behaviour and a ratio near 1",
          .timeLimit(.minutes(10)))
    func baselineAgainstItself() throws {
        let binary = try ReleaseBinary.locate()
        let directory = try makeTemporaryDirectory("bench-baseline")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("baseline.md").path
        let run = try ReleaseBinary.run(binary, ["bench", "--baseline", binary.path, "--baseline-only", "--baseline-seeds", "5",
                                                 "--baseline-rounds", "1", "--out", path])
        #expect(run.status == 0, "stderr: \(run.errors)")
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 2, "one line per platform")
        #expect(lines.allSatisfy { $0.hasPrefix("baseline ") && $0.contains("behaviour identical") })
        #expect(lines.allSatisfy { $0.contains("too small a sample") }, "5 seeds are far below 2 s of CPU: the ratio is flagged")
        let report = try String(contentsOfFile: path, encoding: .utf8)
        #expect(report.contains("## Against a baseline binary (`--baseline`)"))
        #expect(report.contains("identical (summaries; 5 trace hashes)"))
        #expect(!report.contains("## Figures against the targets of issue 8"), "--baseline-only measures nothing else")
    }
}

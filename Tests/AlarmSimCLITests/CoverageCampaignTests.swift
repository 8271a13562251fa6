import AlarmSimCLI
import Foundation
import Simulation
import Testing

/// Reachability coverage of the default campaign (both platforms, seeds 1..1000): every listed
/// mark of CoverageMarks.swift must be reached on each of its platforms, so a generator change
/// that stops reaching a rule-relevant state fails CI instead of silently weakening the fuzzer.
///
/// An in-process debug campaign of 2 000 seeds would take many minutes; the test runs the
/// release binary instead (`.ci/run` builds it with `swift build -c release --product alarmsim`
/// before `swift test`; when it is missing, the test builds it).
@Suite("Coverage campaign")
struct CoverageCampaignTests {
    @Test("the default campaign reaches every listed coverage mark: `alarmsim coverage` exits 0 and its report has no UNREACHED row")
    func defaultCampaignReachesEveryListedMark() throws {
        let binary = try ReleaseBinary.locate()
        let directory = try makeTemporaryDirectory("coverage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("coverage.md").path
        let run = try ReleaseBinary.run(binary, ["coverage", "--out", path])
        let report = try String(contentsOfFile: path, encoding: .utf8)
        let unreached = report.split(separator: "\n").filter { $0.hasSuffix("| UNREACHED |") }
        #expect(unreached.isEmpty, "generator gap: \(unreached.joined(separator: "\n"))")
        #expect(run.status == 0, "alarmsim coverage exited \(run.status): \(run.errors)")
        #expect(report.contains("- violations: 0"))
        for mark in CoverageMark.allCases {
            for platform in mark.info.platforms {
                #expect(report.contains("| `\(mark.name)` | \(mark.info.rules.joined(separator: ", ")) | \(platform.rawValue) |"),
                        "no row for \(mark.name) on \(platform)")
            }
        }
    }

    @Test("alarmsim coverage on a small range writes the report atomically and names the command that regenerates it")
    func smallRangeReport() throws {
        let directory = try makeTemporaryDirectory("coverage-small")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("c.md").path
        let run = cli("coverage", "--platform", "android", "--seeds", "1..3", "--out", path)
        #expect(run.status == .success || run.status == .violations)
        let report = try String(contentsOfFile: path, encoding: .utf8)
        #expect(report.hasPrefix("# Reachability coverage\n"))
        #expect(report.contains("alarmsim coverage --platform android --seeds 1..3"))
        #expect(!report.contains("| ios |"), "only the platform that ran")
        #expect(run.output.contains("\nmark "))
        #expect(run.lastOutputLine?.hasPrefix("coverage: ") == true)
        let again = cli("coverage", "--platform", "android", "--seeds", "1..3", "--out", path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == report, "the same campaign writes the same bytes")
        #expect(again.output == run.output)
    }

    @Test("alarmsim coverage --out under a regular file exits 73 before the campaign and names the path")
    func unwritableReport() throws {
        let directory = try makeTemporaryDirectory("coverage-nowhere")
        defer { try? FileManager.default.removeItem(at: directory) }
        try "x".write(to: directory.appendingPathComponent("afile"), atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("afile/dir/c.md").path
        let run = cli("coverage", "--platform", "ios", "--seeds", "1..1", "--out", path)
        #expect(run.status == .cannotCreate)
        #expect(run.output.isEmpty, "no campaign ran")
        #expect(run.errors.contains(path))
    }

    @Test("fuzz --coverage prints the table after the summary; without it the output is unchanged")
    func fuzzCoverageTable() {
        let plain = cli("fuzz", "--platform", "ios", "--seeds", "1..2")
        let covered = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--coverage")
        #expect(covered.status == plain.status)
        #expect(covered.output.hasPrefix(plain.output + "\nmark "))
        #expect(covered.lastOutputLine?.hasPrefix("coverage: ") == true)
        for mark in CoverageMark.allCases where mark.info.platforms.contains(.ios) {
            #expect(covered.output.contains("\n" + mark.name + " "), "no row for \(mark.name)")
        }
        #expect(!covered.output.contains(" android "), "only the platform that ran")
    }
}

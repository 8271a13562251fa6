@testable import AlarmSimCLI
import AlarmBridge
import Campaign
import Foundation
import Reporting
import Scenario
import Simulation
import Testing

/// Issue 19 part 4, "failures that replay themselves": the known-failures file `fuzz` replays
/// first and appends to on request, shrunk files under the report and linked from it, `shrink
/// --regression`, and `run`'s expected failures. In-process (seeds run in this process).
@Suite("Known failures: replay first, record on request, shrunk files in the report, regressions")
struct KnownFailuresTests {
    private let defect = "title-in-ring-id"

    private func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    // MARK: The file

    @Test("a known-failures line is a repro line (with or without 'alarmsim replay'); comments, blank lines and CRLF are ignored")
    func parsesRepros() throws {
        let text = """
            # known failures
            alarmsim replay --platform ios --seed 17 --defect title-in-ring-id   # caught on 5 Dec

            --platform android --seed 4711 --profile uniform --faults -doze --no-liveness\r
            """
        let failures = try KnownFailureFile.parse(text, path: "f.txt")
        #expect(failures.map(\.repro) == [
            "alarmsim replay --platform ios --seed 17 --defect title-in-ring-id",
            "alarmsim replay --platform android --seed 4711 --profile uniform --faults -doze --no-liveness",
        ])
        #expect(failures.map(\.line) == [2, 4])
        #expect(failures[1].liveness == false && failures[1].faults.profile == .uniform)
    }

    @Test("a malformed line is 'file:line:col: what is wrong'",
          arguments: [
            ("--platform ios --seed 1 --defct title-in-ring-id", "f.txt:2:25: unexpected '--defct' (did you mean '--defect'?)"),
            ("--platform ios", "f.txt:2:15: missing --seed"),
            ("--platform ios --seed -3", "f.txt:2:23: '-3' is not a seed"),
            ("--platform ios --seed", "f.txt:2:22: --seed needs a value"),
            ("--platform ios --seed x7", "f.txt:2:23: 'x7' is not a seed"),
            ("--platform mac --seed 7", "f.txt:2:12: unknown platform 'mac'"),
            ("--platform ios --seed 7 --defect nope", "f.txt:2:34: unknown defect 'nope'"),
            ("--platform ios --seed 7 --faults bogus-kind", "f.txt:2:34: "),
            ("--platform ios --seed 7 --seed 8", "f.txt:2:25: --seed is given twice"),
            ("alarmsim run x.scenario", "f.txt:2:10: expected 'alarmsim replay'"),
            ("--platform ios --seed 1", "f.txt:2:1: repeats line 1"),
          ])
    func malformedLines(line: String, expected: String) {
        let text = "alarmsim replay --platform ios --seed 1\n" + line + "\n"
        #expect(throws: KnownFailureFile.ParseError.self) { try KnownFailureFile.parse(text, path: "f.txt") }
        do {
            _ = try KnownFailureFile.parse(text, path: "f.txt")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error.description)")
        }
    }

    @Test("a line applies to a campaign of its platform that runs exactly its defects")
    func applies() {
        let known = KnownFailure(platform: .ios, seed: 1, defects: [.titleInRingID])
        #expect(known.applies(to: FuzzOptions(platforms: [.ios, .android], seeds: 1...9, defects: [.titleInRingID])))
        #expect(!known.applies(to: FuzzOptions(platforms: [.ios], seeds: 1...9)))
        #expect(!known.applies(to: FuzzOptions(platforms: [.android], seeds: 1...9, defects: [.titleInRingID])))
    }

    @Test("the library replays known failures as fuzz does: a pure function of the lines and the campaign's options")
    func libraryReplay() throws {
        let known = try KnownFailureFile.parse("--platform ios --seed 1 --defect title-in-ring-id\n--platform ios --seed 1\n", path: "f")
        let replay = Campaign.replay(known, before: FuzzOptions(platforms: [.ios], seeds: 5...6, defects: [.titleInRingID]), file: "f")
        #expect(replay.replayed == ["alarmsim replay --platform ios --seed 1 --defect title-in-ring-id"] && replay.notReplayed == 1)
        #expect(replay.stillFailing.map(\.violation.invariant) == ["stable-ids"])
        #expect(replay.line == "known failures replayed: 1, still failing: 1 (1 line of f for other platforms or defects not replayed)")
    }

    // MARK: fuzz

    @Test("a malformed known-failures file stops fuzz with file:line:col and exit 65 before anything is written or removed")
    func malformedFileLosesNothing() throws {
        let directory = try makeTemporaryDirectory("known-bad")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("failures.txt")
        let original = "# mine\nalarmsim replay --platform ios --seed 1\n--platform ios --seed 2 --profile unifrom\n"
        try original.write(to: file, atomically: true, encoding: .utf8)
        let report = directory.appendingPathComponent("report")
        let earlier = report.appendingPathComponent("summary.md")
        try FileManager.default.createDirectory(at: report.appendingPathComponent("shrunk"), withIntermediateDirectories: true)
        try "earlier".write(to: earlier, atomically: true, encoding: .utf8)
        try "earlier".write(to: report.appendingPathComponent("shrunk/ios-5-stable-ids.scenario"), atomically: true, encoding: .utf8)
        let run = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--failures", file.path, "--record-failures", "--report", report.path)
        #expect(run.status == .dataError)
        #expect(run.errors.hasPrefix("\(file.path):3:35: "), "\(run.errors)")
        #expect(run.output.isEmpty)
        #expect(try text(file) == original)
        #expect(try text(earlier) == "earlier")
        #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent("shrunk/ios-5-stable-ids.scenario").path))
        // A report directory this run created (two levels of it) is not left behind empty; one
        // that existed stays, as does the directory above it.
        let fresh = directory.appendingPathComponent("new/report")
        let again = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--failures", file.path, "--report", fresh.path)
        #expect(again.status == .dataError)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("new").path))
        #expect(FileManager.default.fileExists(atPath: directory.path))
        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        #expect(cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--failures", file.path, "--report", empty.path).status == .dataError)
        #expect(FileManager.default.fileExists(atPath: empty.path), "a directory that existed is the user's")
    }

    @Test("fuzz replays the known failures of its platform and defects first; a still-failing one is a violation, counted once")
    func replaysKnownFirst() throws {
        let directory = try makeTemporaryDirectory("known-replay")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("failures.txt")
        try """
            alarmsim replay --platform ios --seed 7 --defect title-in-ring-id
            alarmsim replay --platform ios --seed 2 --defect title-in-ring-id
            alarmsim replay --platform android --seed 3
            """.write(to: file, atomically: true, encoding: .utf8)
        let run = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--defect", defect, "--no-shrink", "--failures", file.path)
        #expect(run.status == .violations)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines[1] == "known failures replayed: 2, still failing: 2 (1 line of \(file.path) for other platforms or defects not replayed)")
        #expect(lines[2].hasPrefix("FAIL known ios seed 7: stable-ids"))
        #expect(lines[4].hasPrefix("FAIL known ios seed 2: stable-ids"))
        // Seeds 1 and 2 fail in the range; known seed 2 is one of them, so only seed 7 adds one.
        #expect(run.lastOutputLine == "violations: 3")
        #expect(run.errors.hasPrefix("known failures: replaying 2 from \(file.path) before the seed range\n"))
        let skipped = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--defect", defect, "--no-shrink", "--failures", file.path,
                          "--no-replay-known")
        #expect(!skipped.output.contains("known failures") && skipped.lastOutputLine == "violations: 2")
    }

    @Test("a known failure that passes now is reported as replayed, not failing; the campaign passes")
    func fixedKnownFailure() throws {
        let directory = try makeTemporaryDirectory("known-fixed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("failures.txt")
        try "--platform ios --seed 1\n".write(to: file, atomically: true, encoding: .utf8)
        let report = directory.appendingPathComponent("report")
        let run = cli("fuzz", "--platform", "ios", "--seeds", "2..2", "--no-shrink", "--failures", file.path, "--report", report.path)
        #expect(run.status == .success)
        #expect(run.output.contains("\nknown failures replayed: 1, still failing: 0\n"))
        #expect(try text(report.appendingPathComponent("summary.md")).contains("- `alarmsim replay --platform ios --seed 1` — passes now"))
        let junit = try text(report.appendingPathComponent("junit.xml"))
        #expect(junit.contains("<testsuite name=\"alarmsim known failures\" tests=\"1\" failures=\"0\""))
        let summary = try CampaignReport.read(Data(contentsOf: report.appendingPathComponent("summary.json")), source: "summary.json")
        #expect(summary.known?.replayed == ["alarmsim replay --platform ios --seed 1"] && summary.known?.stillFailing == [])
    }

    @Test("without a known-failures file every output is what it was: the default path absent, or --no-replay-known")
    func absentFileChangesNothing() throws {
        let directory = try makeTemporaryDirectory("known-absent")
        defer { try? FileManager.default.removeItem(at: directory) }
        let absent = cli("fuzz", "--platform", "ios", "--seeds", "1..3", "--defect", defect, "--no-shrink")
        let skipped = cli("fuzz", "--platform", "ios", "--seeds", "1..3", "--defect", defect, "--no-shrink", "--no-replay-known")
        #expect(absent.output == skipped.output && absent.errors == skipped.errors)
        #expect(!absent.output.contains("known") && !absent.errors.contains("known"))
        // An explicit --failures FILE that does not exist is an unreadable input (74), unless it is to be created.
        let missing = cli("fuzz", "--platform", "ios", "--seeds", "1..1", "--no-shrink", "--failures", directory.path + "/none.txt")
        #expect(missing.status == .ioError && missing.errors.contains("no such file"))
    }

    @Test("--record-failures appends new failing seeds' repro lines (a new file gets a header), never twice; without it the file is not touched")
    func recordsOnRequest() throws {
        let directory = try makeTemporaryDirectory("known-record")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("failures.txt")
        let unasked = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--defect", defect, "--no-shrink", "--failures", file.path,
                          "--no-replay-known")
        #expect(unasked.status == .violations && !FileManager.default.fileExists(atPath: file.path))
        let first = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--defect", defect, "--no-shrink", "--failures", file.path,
                        "--record-failures")
        #expect(first.errors.contains("known failures: recorded 2 failing seeds in \(file.path)"))
        let written = try text(file)
        #expect(written.hasPrefix(KnownFailureFile.header))
        #expect(written.hasSuffix("alarmsim replay --platform ios --seed 1 --defect title-in-ring-id\nalarmsim replay --platform ios --seed 2 --defect title-in-ring-id\n"))
        let second = cli("fuzz", "--platform", "ios", "--seeds", "2..3", "--defect", defect, "--no-shrink", "--failures", file.path,
                         "--record-failures")
        #expect(second.output.contains("known failures replayed: 2, still failing: 2"))
        #expect(second.errors.contains("recorded 1 failing seed in"))
        #expect(try text(file) == written + "alarmsim replay --platform ios --seed 3 --defect title-in-ring-id\n")
        #expect(try KnownFailureFile.parse(text(file), path: file.path).count == 3)
    }

    // MARK: Shrunk files in the report

    @Test("the shrunk scenario goes to REPORT/shrunk and is linked from summary.md, report.md, junit.xml and summary.json; an earlier one is replaced, a user's file stays")
    func shrunkInReport() throws {
        let directory = try makeTemporaryDirectory("known-shrunk")
        defer { try? FileManager.default.removeItem(at: directory) }
        let shrunk = directory.appendingPathComponent("shrunk")
        try FileManager.default.createDirectory(at: shrunk, withIntermediateDirectories: true)
        try "old".write(to: shrunk.appendingPathComponent("android-9-never-silent.scenario"), atomically: true, encoding: .utf8)
        try "mine".write(to: shrunk.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let run = cli("fuzz", "--platform", "ios", "--seeds", "1..1", "--defect", defect, "--report", directory.path)
        #expect(run.status == .violations)
        let name = "ios-1-stable-ids.scenario"
        #expect(try text(shrunk.appendingPathComponent(name)).contains("expect violation stable-ids"))
        #expect(!FileManager.default.fileExists(atPath: shrunk.appendingPathComponent("android-9-never-silent.scenario").path))
        #expect(try text(shrunk.appendingPathComponent("notes.txt")) == "mine")
        #expect(try text(directory.appendingPathComponent("summary.md")).contains("- shrunk scenario: [shrunk/\(name)](shrunk/\(name))"))
        #expect(try text(directory.appendingPathComponent("failures/ios-1/report.md")).contains("File: [\(name)](../../shrunk/\(name))"))
        #expect(try text(directory.appendingPathComponent("junit.xml")).contains("shrunk: shrunk/\(name) (in the report directory)"))
        #expect(try text(directory.appendingPathComponent("summary.json")).contains("\"shrunk\" : \"shrunk/\(name)\""))
        // --shrink-dir still overrides; the report links it relative to the report directory.
        let elsewhere = directory.appendingPathComponent("mine")
        let other = cli("fuzz", "--platform", "ios", "--seeds", "1..1", "--defect", defect, "--report", directory.appendingPathComponent("r").path,
                        "--shrink-dir", elsewhere.path)
        #expect(other.status == .violations && FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent(name).path))
        #expect(try text(directory.appendingPathComponent("r/summary.md")).contains("](../mine/\(name))"))
    }

    @Test("relative links between report files are computed lexically")
    func relativePaths() {
        #expect(RelativePath.from("out", to: "out/shrunk/a.scenario", currentDirectory: "/w") == "shrunk/a.scenario")
        #expect(RelativePath.from("out/failures/ios-1", to: "out/shrunk/a.scenario", currentDirectory: "/w") == "../../shrunk/a.scenario")
        #expect(RelativePath.from("/tmp/r", to: "Reports/shrunk/a.scenario", currentDirectory: "/w") == "../../w/Reports/shrunk/a.scenario")
        #expect(RelativePath.from("./out/", to: "out/../out/x", currentDirectory: "/w") == "x")
    }

    // MARK: shrink --regression and run

    @Test("shrink --regression writes DIR/PLATFORM-SEED-SLUG.scenario with its header and never overwrites it (73)")
    func regressionFile() throws {
        let directory = try makeTemporaryDirectory("known-regression")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["shrink", "--platform", "ios", "--seed", "1", "--defect", defect, "--budget", "150",
                         "--regression", "Title edit changes the ring ID!", "--regressions-dir", directory.path]
        let run = cli(arguments)
        #expect(run.status == .success)
        let path = directory.appendingPathComponent("ios-1-title-edit-changes-the-ring-id.scenario")
        let written = try text(path)
        #expect(written.hasPrefix("# Regression: Title edit changes the ring ID!\n# Not yet classified: "))
        #expect(written.contains("# Caught by: alarmsim replay --platform ios --seed 1 --defect title-in-ring-id\n"))
        #expect(written.hasSuffix("expect violation stable-ids\n"))
        #expect(cli("run", path.path).status == .success)
        let again = cli(arguments)
        #expect(again.status == .cannotCreate && again.errors.contains("exists already"))
        #expect(try text(path) == written)
        #expect(cli("shrink", "--platform", "ios", "--seed", "1", "--regression", "x", "--out", "a.scenario").status == .usage)
        #expect(cli("shrink", "--platform", "ios", "--seed", "1", "--regression", "!!").status == .usage)
        #expect(cli("shrink", "--platform", "ios", "--seed", "1", "--regressions-dir", "d").status == .usage)
    }

    @Test("a failure without a defect is marked 'known failure, not fixed'; one with a defect is the defect's expected violation")
    func headerStatus() {
        let open = RegressionHeader.lines(caught: "snooze lost", repro: "alarmsim replay --platform ios --seed 9", invariant: "never-silent", defects: [])
        #expect(open.contains(RegressionHeader.knownFailureStatus) && open.last == "#")
        #expect(RegressionHeader.marksKnownFailure(open.joined(separator: "\n") + "\nplatform ios\n"))
        let withDefect = RegressionHeader.lines(caught: "x", repro: "r", invariant: "stable-ids", defects: ["title-in-ring-id"])
        #expect(!RegressionHeader.marksKnownFailure(withDefect.joined(separator: "\n")))
        // Only the leading comment block counts.
        #expect(!RegressionHeader.marksKnownFailure("platform ios\n" + RegressionHeader.knownFailureStatus + "\n"))
        #expect(RegressionHeader.slug("  Snooze lost — after REBOOT (Pixel 8) ") == "snooze-lost-after-reboot-pixel-8")
    }

    @Test("run reports a marked known failure as XFAIL while it breaks, and FAIL with what to change once it is fixed")
    func expectedFailures() throws {
        let directory = try makeTemporaryDirectory("known-xfail")
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = """
            platform ios
            start 2026-12-15 22:54:33 Europe/Berlin
            seed 1
            %DEFECT%alarm a1 05:09 once
            at 22:54:36 user edit-title a1 "Alarm 1"
            expect violation stable-ids

            """
        let header = RegressionHeader.lines(caught: "title edit", repro: "alarmsim replay --platform ios --seed 1", invariant: "stable-ids", defects: [])
            .joined(separator: "\n") + "\n"
        let broken = directory.appendingPathComponent("broken.scenario")
        let fixed = directory.appendingPathComponent("fixed.scenario")
        try (header + body.replacingOccurrences(of: "%DEFECT%", with: "defect title-in-ring-id\n")).write(to: broken, atomically: true, encoding: .utf8)
        try (header + body.replacingOccurrences(of: "%DEFECT%", with: "")).write(to: fixed, atomically: true, encoding: .utf8)
        let xfail = cli("run", broken.path)
        #expect(xfail.status == .success)
        #expect(xfail.output.hasPrefix("XFAIL \(broken.path)\n  expected failure: known, not fixed: stable-ids still breaks\n"))
        #expect(xfail.lastOutputLine == "scenarios: 1 passed (1 of them an expected failure: known, not fixed), 0 failed")
        let flipped = cli("run", fixed.path)
        #expect(flipped.status == .violations)
        #expect(flipped.output.contains("FAIL \(fixed.path)\n"))
        #expect(flipped.output.contains("change 'expect violation stable-ids' to 'expect no violations' and remove the status line"))
    }
}

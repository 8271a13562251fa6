@testable import AlarmSimCLI
import AlarmBridge
import Campaign
import Simulation
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `fuzz --report`, `--shard`, `--seconds` and `merge`, in-process (seeds run in this process).
@Suite("Campaign reports, shards and merge")
struct CampaignReportTests {
    private func read(_ url: URL, _ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("fuzz --report writes summary.json (schemaVersion, options, tallies, failing seeds with repro lines), summary.md and junit.xml")
    func reportFiles() throws {
        let directory = try makeTemporaryDirectory("report")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A stale artifacts folder of an earlier campaign is replaced.
        let stale = directory.appendingPathComponent("failures/ios-99")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        let run = cli("fuzz", "--platform", "ios", "--seeds", "1..3", "--defect", "title-in-ring-id", "--no-shrink",
                      "--report", directory.path)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(run.status == .violations)
        let json = try #require(JSONSerialization.jsonObject(with: Data(read(directory, "summary.json").utf8)) as? [String: Any])
        #expect(json["schemaVersion"] as? Int == 1)
        #expect(json["interrupted"] as? Bool == false)
        let options = try #require(json["options"] as? [String: Any])
        #expect(options["defects"] as? [String] == ["title-in-ring-id"])
        let platforms = try #require(json["platforms"] as? [[String: Any]])
        #expect(platforms.count == 1)
        #expect(platforms[0]["seeds"] as? Int == 3)
        #expect((platforms[0]["seedsRun"] as? [[String: Any]])?.first?["last"] as? Int == 3)
        let failing = try #require(json["failing"] as? [[String: Any]])
        #expect(failing.count == json["violations"] as? Int)
        #expect(failing.count == Int(run.lastOutputLine?.split(separator: " ").last ?? "") )
        for failure in failing {
            let seed = try #require(failure["seed"] as? Int)
            #expect(failure["repro"] as? String == "alarmsim replay --platform ios --seed \(seed) --defect title-in-ring-id")
            #expect(failure["signal"] == nil && failure["artifacts"] as? String == "failures/ios-\(seed)")
            let page = try read(directory, "failures/ios-\(seed)/timeline.html")
            #expect(page.contains("<svg") && page.contains("stable-ids"))
            #expect(try read(directory, "failures/ios-\(seed)/report.md").contains(failure["repro"] as? String ?? "?"))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("failures/ios-\(seed)/trace.jsonl").path))
            #expect(failure["eventIndex"] is Int && failure["trueMs"] is Int && !(failure["rules"] as? [String] ?? []).isEmpty)
        }
        let markdown = try read(directory, "summary.md")
        #expect(markdown.hasPrefix("# alarmsim fuzz campaign"))
        #expect(markdown.contains("`alarmsim replay --platform ios --seed 1 --defect title-in-ring-id`"))
        #expect(markdown.contains("[timeline](failures/ios-1/timeline.html)"))
        let junit = try read(directory, "junit.xml")
        try checkJUnit(junit, failingInvariants: Set(failing.compactMap { $0["invariant"] as? String }))
    }

    private func checkJUnit(_ text: String, failingInvariants: Set<String>) throws {
        let list = cli("list", "invariants").output.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        #if canImport(FoundationXML)
        let document = try XMLDocument(data: Data(text.utf8))
        let suites = try document.nodes(forXPath: "/testsuites/testsuite")
        #expect(suites.count == 1)
        let cases = try document.nodes(forXPath: "/testsuites/testsuite/testcase").compactMap { $0 as? XMLElement }
        #expect(cases.compactMap { $0.attribute(forName: "name")?.stringValue } == list, "one test case per listed invariant")
        for element in cases {
            let name = element.attribute(forName: "name")?.stringValue ?? ""
            let failures = element.elements(forName: "failure")
            #expect(failures.isEmpty != failingInvariants.contains(name), "\(name)")
            for failure in failures {
                #expect(failure.stringValue?.contains("repro: alarmsim replay --platform ios --seed ") == true)
                #expect(failure.attribute(forName: "message")?.stringValue?.contains("failing seed") == true)
            }
        }
        #else
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "))
        #expect(text.components(separatedBy: "<testcase ").count - 1 == list.count)
        #expect(text.components(separatedBy: "<failure ").count - 1 == failingInvariants.count)
        #endif
    }

    @Test("a merge with a shard missing warns that seeds are not covered; a report path that is a file fails at once (73)")
    func missingShardAndFileReportPath() throws {
        let root = try makeTemporaryDirectory("gap")
        defer { try? FileManager.default.removeItem(at: root) }
        let common = ["fuzz", "--platform", "ios", "--seeds", "1..6", "--no-shrink"]
        for index in [1, 3] {
            #expect(cli(common + ["--shard", "\(index)/3", "--report", root.appendingPathComponent("s\(index)").path]).status == .success)
        }
        let merged = cli(["merge", root.appendingPathComponent("s1/summary.json").path, root.appendingPathComponent("s3/summary.json").path])
        #expect(merged.status == .success)
        #expect(merged.errors.contains("warning: ios: the merged files cover seeds 1..2 5..6, not all of 1..6; is a shard missing?"))
        let file = root.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let run = cli(common + ["--report", file.path])
        #expect(run.status == .cannotCreate)
        #expect(run.output.isEmpty, "no campaign ran")
        #expect(run.errors.contains("\(file.path) exists and is not a directory"))
        // A path under a file, too, fails before the campaign, in words (no Foundation error dump).
        let under = cli(common + ["--report", file.path + "/x"])
        #expect(under.status == .cannotCreate)
        #expect(under.output.isEmpty, "no campaign ran")
        #expect(under.errors == "error: cannot write \(file.path)/x: \(file.path) is not a directory\n")
    }

    @Test("a clean campaign into an old report directory removes the old failures/, and summary.json links nothing there")
    func cleanCampaignRemovesOldFailures() throws {
        let root = try makeTemporaryDirectory("old-failures")
        defer { try? FileManager.default.removeItem(at: root) }
        let stale = root.appendingPathComponent("failures/ios-99")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        try Data("an earlier campaign's report".utf8).write(to: stale.appendingPathComponent("report.md"))
        let run = cli("fuzz", "--platform", "ios", "--seeds", "1..3", "--no-shrink", "--report", root.path)
        #expect(run.status == .success)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("failures").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["junit.xml", "summary.json", "summary.md"])
    }

    @Test("artifacts go first to the first seed of each platform and invariant, then in summary order")
    func artifactOrder() {
        func seed(_ platform: PlatformFlavor, _ number: UInt64, _ invariant: String) -> FailingSeed {
            FailingSeed(platform: platform, seed: number,
                        violation: Violation(invariant: invariant, rules: [], message: "m", trueMs: 0, wallMs: 0, eventIndex: 0),
                        repro: "alarmsim replay --platform \(platform.rawValue) --seed \(number)")
        }
        let failing = [seed(.ios, 1, "stable-ids"), seed(.ios, 2, "stable-ids"), seed(.ios, 3, "never-silent"),
                       seed(.ios, 4, "stable-ids"), seed(.android, 1, "stable-ids"), seed(.android, 2, "legacy-migration")]
        #expect(FuzzCommand.artifactOrder(failing) == [0, 2, 4, 5, 1, 3])
    }

    @Test("a campaign removes only the artifacts alarmsim wrote: a user's own files under failures/ stay")
    func userFilesUnderFailuresSurvive() throws {
        let root = try makeTemporaryDirectory("user-failures")
        defer { try? FileManager.default.removeItem(at: root) }
        let failures = root.appendingPathComponent("failures")
        try FileManager.default.createDirectory(at: failures.appendingPathComponent("ios-7"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: failures.appendingPathComponent("ios-8"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: failures.appendingPathComponent("notes.txt"))
        try Data("mine".utf8).write(to: failures.appendingPathComponent("ios-7/notes.txt"))
        try Data("old".utf8).write(to: failures.appendingPathComponent("ios-8/report.md"))
        let run = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--no-shrink", "--report", root.path)
        #expect(run.status == .success)
        #expect(FileManager.default.fileExists(atPath: failures.appendingPathComponent("notes.txt").path))
        #expect(FileManager.default.fileExists(atPath: failures.appendingPathComponent("ios-7/notes.txt").path))
        #expect(!FileManager.default.fileExists(atPath: failures.appendingPathComponent("ios-8").path), "an earlier campaign's artifacts go")
    }

    @Test("the merge of every shard prints and writes exactly what the unsharded campaign does")
    func shardUnionIsWhole() throws {
        let root = try makeTemporaryDirectory("shards")
        defer { try? FileManager.default.removeItem(at: root) }
        let common = ["fuzz", "--platform", "ios", "--seeds", "1..5", "--defect", "title-in-ring-id", "--no-shrink"]
        let whole = cli(common + ["--report", root.appendingPathComponent("whole").path])
        var files: [String] = []
        for index in 1...3 {
            let shard = cli(common + ["--shard", "\(index)/3", "--report", root.appendingPathComponent("s\(index)").path])
            #expect(shard.status == .violations)
            #expect(shard.output.contains("seeds run: ios "), "a shard states the seeds it ran")
            files.append(root.appendingPathComponent("s\(index)/summary.json").path)
        }
        let merged = cli(["merge"] + files.reversed() + ["--report", root.appendingPathComponent("merged").path])
        #expect(merged.status == whole.status)
        #expect(merged.output == whole.output)
        // A merge links no per-failure artifacts (they stay in each shard's directory).
        func withoutArtifacts(_ text: String) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains("\"artifacts\" : ") && !$0.hasPrefix("- artifacts: ") }.joined(separator: "\n")
        }
        for name in ["summary.json", "summary.md", "junit.xml"] {
            let wholeText = try read(root.appendingPathComponent("whole"), name)
            #expect(try read(root.appendingPathComponent("merged"), name) == withoutArtifacts(wholeText), "\(name)")
        }
        #expect(try read(root.appendingPathComponent("whole"), "summary.json").contains("\"artifacts\" : \"failures/ios-1\""))
    }

    @Test("merge: no file is a usage error (64); a malformed, foreign or overlapping summary is 65 naming the file; a missing one is 74")
    func mergeErrors() throws {
        let root = try makeTemporaryDirectory("merge-errors")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(cli("merge").status == .usage)
        let malformed = root.appendingPathComponent("malformed.json")
        try Data("{\"schemaVersion\": 1,".utf8).write(to: malformed)
        let run = cli("merge", malformed.path)
        #expect(run.status == .dataError)
        #expect(run.errors.contains(malformed.path))
        let future = root.appendingPathComponent("future.json")
        try Data("{\"schemaVersion\": 99}".utf8).write(to: future)
        #expect(cli("merge", future.path).errors.contains("schemaVersion 99"))
        _ = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--shard", "1/2", "--no-shrink", "--report", root.appendingPathComponent("a").path)
        _ = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--shard", "2/2", "--no-liveness", "--no-shrink", "--report", root.appendingPathComponent("b").path)
        let a = root.appendingPathComponent("a/summary.json").path, b = root.appendingPathComponent("b/summary.json").path
        let twice = cli("merge", a, a)
        #expect(twice.status == .dataError && twice.errors.contains("both ran ios seed 1"))
        let incompatible = cli("merge", a, b)
        #expect(incompatible.status == .dataError && incompatible.errors.contains("--no-liveness"))
        #expect(cli("merge", a, root.appendingPathComponent("missing.json").path).status == .ioError)
    }

    @Test("--seconds runs seeds from the first upward until the budget is spent and names them; --seeds with that range repeats it")
    func timeBudget() throws {
        // A clock that advances 100 ms per reading: the budget of 1 s lasts about ten readings.
        let clock = SteppingClock(stepMs: 100)
        var output = "", errors = ""
        let environment = CLIEnvironment(errorsIsTerminal: false, elapsedMs: { clock.read() })
        let status = AlarmSimCLI.main(arguments: ["fuzz", "--platform", "android", "--seconds", "1", "--no-report", "--no-shrink"],
                                      output: &output, errors: &errors, environment: environment)
        #expect(status == .success || status == .violations)
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("seeds run: android 1..") || $0 == "seeds run: android 1" })
        let last = line.split(separator: " ").last.map { String($0.split(separator: ".").last ?? "") } ?? ""
        let count = try #require(Int(last))
        #expect(count >= 2 && count <= 12)
        let repeated = cli("fuzz", "--platform", "android", "--seeds", "1..\(count)", "--no-report", "--no-shrink")
        #expect(repeated.output.split(separator: "\n").first == output.split(separator: "\n").first, "the same tally line")
    }

    @Test("fuzz rejects --jobs 0, --seconds x, --shard 3/2 and --report with --no-report as usage errors",
          arguments: [["--jobs", "0"], ["--seconds", "x"], ["--shard", "3/2"], ["--shard", "1"], ["--report", "d", "--no-report"]])
    func usageErrors(_ words: [String]) {
        let run = cli(["fuzz", "--seeds", "1"] + words)
        #expect(run.status == .usage)
        #expect(run.errors.hasPrefix("error: "))
    }
}

/// A test clock for `CLIEnvironment.elapsedMs` that moves forward by a fixed step per reading.
final class SteppingClock: @unchecked Sendable {
    private let lock = NSLock()
    private var nowMs: Int64 = 0
    private let stepMs: Int64

    init(stepMs: Int64) {
        self.stepMs = stepMs
    }

    func read() -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        nowMs += stepMs
        return nowMs
    }
}

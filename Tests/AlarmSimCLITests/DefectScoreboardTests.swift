import AlarmSimCLI
import Foundation
import Testing

/// `alarmsim defects`: the known-defect scoreboard (issue 7).
@Suite("alarmsim defects: the known-defect scoreboard")
struct DefectScoreboardTests {
    @Test("a defect found at its first seed scores 1 and writes its row; both profiles are compared")
    func scoresOneDefect() throws {
        let directory = try makeTemporaryDirectory("defects")
        let out = directory.appendingPathComponent("defects.md").path
        let run = cli("defects", "--platform", "ios", "--defect", "title-in-ring-id", "--seeds", "1..3", "--no-shrink", "--out", out)
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.output.contains("title-in-ring-id [ios]: swarm seed 1 (stable-ids) uniform seed 1 (stable-ids)"))
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("| `title-in-ring-id` | ios | 1 (seed 1) | 1 (seed 1) | `stable-ids` | yes | – |"))
        #expect(text.contains("- **swarm**: found 1 of 1 defects; median seeds to detect 1"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["defects.md"], "no shrink directory without shrinking")
    }

    @Test("without --shrink-dir the shrunk scenarios go to 'defects' beside --out, not under the current directory")
    func shrinkDirectoryBesideOut() throws {
        let directory = try makeTemporaryDirectory("defects-beside")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("board.md").path
        let run = cli("defects", "--platform", "ios", "--defect", "title-in-ring-id", "--seeds", "1..1",
                      "--profiles", "swarm", "--budget", "40", "--out", out)
        #expect(run.status == .success, "\(run.errors)")
        let shrunk = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("defects").path)
        #expect(shrunk.contains { $0.hasSuffix(".scenario") }, "\(shrunk)")
    }

    @Test("a defect not found within the budget fails the command and is marked in the report")
    func missIsAFailure() throws {
        let directory = try makeTemporaryDirectory("defects-miss")
        let out = directory.appendingPathComponent("defects.md").path
        // cancel-past-fire-time needs a held late delivery with the app opened: not in seeds 1..2.
        let run = cli("defects", "--platform", "ios", "--defect", "cancel-past-fire-time", "--seeds", "1..2",
                      "--profiles", "swarm", "--no-shrink", "--out", out)
        #expect(run.status == .violations)
        #expect(run.output.contains("NOT FOUND"))
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("**not found**"))
    }

    @Test("bad scoreboard flags are usage errors", arguments: [
        ["--profiles", "swarm,bogus"], ["--profiles", "swarm,swarm"], ["--budget", "0"], ["--no-shrink=yes"],
        ["--platform", "android", "--defect", "cancel-past-fire-time"], ["--no-shrink", "--no-shrink"],
        ["--no-shrink", "--shrink-dir", "unused"],
    ])
    func badFlags(arguments: [String]) {
        let run = cli(["defects"] + arguments)
        #expect(run.status == .usage, "\(arguments): \(run.errors)")
        #expect(run.output.isEmpty)
    }

    /// The proof that every invariant has teeth, in the release build (`.ci/run` builds it first):
    /// every known defect is found within the default budget (seeds 1..2000) under the swarm
    /// profile, and its first failing seed replays to the same violation and trace hash.
    @Test("every known defect is found within its budget, and its failing seed replays", .timeLimit(.minutes(20)))
    func everyDefectFound() throws {
        let binary = try ReleaseBinary.locate()
        let directory = try makeTemporaryDirectory("defects-all")
        let out = directory.appendingPathComponent("defects.md").path
        let (status, output, _) = try ReleaseBinary.run(binary, ["defects", "--profiles", "swarm", "--no-shrink", "--any-platform", "--out", out])
        #expect(status == 0, "\(output)")
                let listed = cli("list", "defects").output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        let text = try String(contentsOfFile: out, encoding: .utf8)
        for name in listed {
            #expect(text.contains("| `\(name)` |"), "\(name) has no row")
        }
    }
}

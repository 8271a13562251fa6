import AlarmSimCLI
import Foundation
import Testing

/// These run the real simulator, so they are slower than the parsing tests; each stays within a
/// few seconds by using few seeds.
@Suite("CLI end to end")
struct EndToEndTests {
    @Test("fuzz --platform ios --seeds 1..20 finds nothing without defects: exit 0, last line 'violations: 0'")
    func fuzzCleanRange() {
        let run = cli("fuzz", "--platform", "ios", "--seeds", "1..20")
        #expect(run.status == .success)
        #expect(run.lastOutputLine == "violations: 0")
        #expect(run.output.hasPrefix("ios: 20 seeds, 0 failing, "))
        // Not a terminal: one progress line for the finished platform, with its rate.
        #expect(run.errors.split(separator: "\n").count == 1)
        #expect(run.errors.hasPrefix("ios: 20 seeds, 0 failing, "))
        #expect(run.errors.contains(" seeds/s"))
    }

    @Test("shrink writes a scenario that 'run' passes, and prints the size before and after")
    func shrinkWritesAScenario() throws {
        let directory = try makeTemporaryDirectory("shrink")
        let path = directory.appendingPathComponent("nested/ios-title.scenario").path
        let run = cli("shrink", "--platform", "ios", "--seed", "1", "--defect", "title-in-ring-id", "--budget", "150", "--out", path)
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.output.hasPrefix("shrunk ios seed 1 (title-in-ring-id): 52 → "))
        #expect(run.output.contains("invariant stable-ids → \(path)\n"))
        let replay = cli("run", path)
        #expect(replay.status == .success, "\(replay.output)")
        let passing = cli("shrink", "--platform", "ios", "--seed", "2", "--budget", "5", "--out", path)
        #expect(passing.status == .dataError)
        #expect(passing.errors.contains("does not fail"))
    }

    @Test("fuzz shrinks the first failing seed of each (platform, invariant) into --shrink-dir; --no-shrink writes nothing")
    func fuzzShrinksFailures() throws {
        let directory = try makeTemporaryDirectory("fuzz-shrink")
        let run = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--defect", "title-in-ring-id", "--shrink-dir", directory.path)
        #expect(run.status == .violations)
        #expect(run.lastOutputLine == "violations: 2")
        let file = directory.appendingPathComponent("ios-1-stable-ids.scenario").path
        #expect(run.errors.contains("shrunk ios seed 1 (title-in-ring-id): "))
        #expect(run.errors.contains(" → \(file)\n"))
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["ios-1-stable-ids.scenario"])
        let quiet = try makeTemporaryDirectory("fuzz-no-shrink")
        let plain = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--defect", "title-in-ring-id", "--no-shrink")
        #expect(plain.output == run.output)
        #expect(!plain.errors.contains("shrunk"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: quiet.path).isEmpty)
    }

    @Test("on a terminal, fuzz progress rewrites one stderr line with \\r and stdout stays the same")
    func fuzzTerminalProgress() {
        let plain = cli(["fuzz", "--platform", "android", "--seeds", "1..3"], errorsIsTerminal: false)
        let terminal = cli(["fuzz", "--platform", "android", "--seeds", "1..3"], errorsIsTerminal: true)
        #expect(terminal.errors.contains("\randroid 1/3 seeds, 0 failing"))
        #expect(terminal.errors.hasSuffix("\n"))
        #expect(terminal.output == plain.output, "progress never reaches stdout")
        #expect(terminal.status == plain.status)
    }

    @Test("replay prints platform, seed and defects first, then parameters, and ends with the trace-hash line",
          arguments: ["ios", "android"])
    func replayShape(_ platform: String) {
        let run = cli("replay", "--platform", platform, "--seed", "7")
        #expect(run.status == .success || run.status == .violations)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == ["platform: \(platform)", "seed: 7", "defects: none"])
        #expect(lines.last?.hasPrefix("trace-hash: ") == true)
        #expect(lines.last?.count == "trace-hash: ".count + 16)
        let violated = lines.contains { $0.hasPrefix("violation: ") }
        #expect(violated == (run.status == .violations))
        #expect(violated != lines.contains("no violations"))
    }

    @Test("replay --trace writes the JSON Lines trace without changing stdout or the exit status")
    func replayTraceFile() throws {
        let directory = try makeTemporaryDirectory("trace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ios-7.jsonl").path
        let without = cli("replay", "--platform", "ios", "--seed", "7")
        let with = cli("replay", "--platform", "ios", "--seed", "7", "--trace", path)
        #expect(with.output == without.output)
        #expect(with.status == without.status)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["platform"] as? String == "ios")
        #expect(header["traceHash"] as? String == without.outputValue(after: "trace-hash: "))
        #expect(header["traceEvents"] as? Int == lines.count - 1, "replay keeps every event")
        for line in lines.dropFirst() {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }

    @Test("replay --trace under a regular file exits 73 before the run and says which path failed; into a missing directory it creates it")
    func replayTraceUnwritable() throws {
        let directory = try makeTemporaryDirectory("nowhere")
        defer { try? FileManager.default.removeItem(at: directory) }
        try "x".write(to: directory.appendingPathComponent("afile"), atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("afile/dir/t.jsonl").path
        let run = cli("replay", "--platform", "ios", "--seed", "7", "--trace", path)
        #expect(run.status == .cannotCreate)
        #expect(run.output.isEmpty, "nothing ran")
        #expect(run.errors.contains(path))
        // A missing directory is created, as `--report DIR` is (every command alike).
        let created = directory.appendingPathComponent("no/such/dir/t.jsonl").path
        #expect(cli("replay", "--platform", "ios", "--seed", "7", "--trace", created).status == .success)
        #expect(FileManager.default.fileExists(atPath: created))
    }

    @Test("replay --trace through a symbolic link writes the link's target and keeps the link; '-' is stdout and the report moves to stderr")
    func replayTraceLinkAndStdout() throws {
        let directory = try makeTemporaryDirectory("trace-link")
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("latest.jsonl").path
        #expect(symlink("run-7.jsonl", link) == 0)
        let run = cli("replay", "--platform", "ios", "--seed", "7", "--trace", link)
        #expect(run.status == .success)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "run-7.jsonl")
        let written = try String(contentsOfFile: directory.appendingPathComponent("run-7.jsonl").path, encoding: .utf8)
        #expect(written.hasPrefix("{\"header\":\"alarmsim-trace/1\""))
        let binary = try ReleaseBinary.locate()
        let piped = try ReleaseBinary.run(binary, ["replay", "--platform", "ios", "--seed", "7", "--trace", "-"])
        #expect(piped.status == 0)
        #expect(piped.output == written, "stdout carries exactly the trace")
    }

    @Test("replay of a seed prints the same trace-hash in two separate processes", arguments: ["ios", "android"])
    func replayHashAcrossProcesses(_ platform: String) throws {
        let binary = try BuiltBinary.locate()
        let first = try BuiltBinary.run(binary, ["replay", "--platform", platform, "--seed", "7"])
        let second = try BuiltBinary.run(binary, ["replay", "--platform", platform, "--seed", "7"])
        let firstHash = first.split(separator: "\n").first { $0.hasPrefix("trace-hash: ") }
        let secondHash = second.split(separator: "\n").first { $0.hasPrefix("trace-hash: ") }
        #expect(firstHash != nil)
        #expect(firstHash == secondHash)
        #expect(first == second, "the whole replay report is the same, not only the hash")
        // And the in-process CLI agrees with the binary.
        #expect(cli("replay", "--platform", platform, "--seed", "7").output == first)
    }
}

/// Finds (or builds) the `alarmsim` executable this test run belongs to.
enum BuiltBinary {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The package root: three levels up from this file (Tests/AlarmSimCLITests/…).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The sibling of the running test bundle first (right for any --scratch-path), then
    /// `.build/debug/alarmsim`; builds the product when neither exists.
    static func locate() throws -> URL {
        var candidates: [URL] = []
        if let testExecutable = Bundle.main.executableURL {
            candidates.append(testExecutable.deletingLastPathComponent().appendingPathComponent("alarmsim"))
        }
        let debugBinary = packageRoot.appendingPathComponent(".build/debug/alarmsim")
        candidates.append(debugBinary)
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        try buildProduct()
        guard FileManager.default.isExecutableFile(atPath: debugBinary.path) else {
            throw Failure(description: "no alarmsim binary at \(debugBinary.path) after 'swift build --product alarmsim'")
        }
        return debugBinary
    }

    /// Runs `swift build --product alarmsim` in the package root, giving up after ten minutes:
    /// if the SwiftPM running this test holds the build directory's lock, the build would wait
    /// for it forever.
    private static func buildProduct() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--product", "alarmsim"]
        process.currentDirectoryURL = packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pollIntervalUs: UInt32 = 100_000
        var waitedUs: UInt64 = 0
        while process.isRunning {
            guard waitedUs < 600_000_000 else {
                process.terminate()
                throw Failure(description: "'swift build --product alarmsim' did not finish in 10 minutes (is the build directory locked by this test run?); run 'swift build' first")
            }
            usleep(pollIntervalUs)
            waitedUs += UInt64(pollIntervalUs)
        }
    }

    /// Runs the binary with `arguments` and returns its stdout.
    static func run(_ binary: URL, _ arguments: [String]) throws -> String {
        try run(binary, arguments, in: packageRoot)
    }

    private static func run(_ executable: URL, _ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Read before waiting, so a full pipe can never block the child.
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        // replay exits 0 or 1 (violation found); anything else (a trap, a usage error) is a failure.
        if process.terminationReason != .exit || ![0, 1].contains(process.terminationStatus) {
            throw Failure(description: "\(executable.path) \(arguments.joined(separator: " ")) ended with status \(process.terminationStatus):\n\(text)")
        }
        return text
    }
}

/// Runs the real scenario runner.
@Suite("CLI run: scenario files end to end")
struct RunCommandEndToEndTests {
    private static let scenario = """
        # a weekday alarm rings and is stopped
        platform ios
        start 2026-03-02 06:55 Europe/Berlin
        seed 42
        alarm wake 07:00 weekly mon,tue,wed,thu,fri policy 3
        at 07:00:30  user stop wake

        """

    @Test("run prints PASS or FAIL per file in the order given, a totals line, and exits 0 only when all pass")
    func passFailLinesMatchStatus() throws {
        let directory = try makeTemporaryDirectory("run")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clean = directory.appendingPathComponent("clean.scenario").path
        let impossible = directory.appendingPathComponent("impossible.scenario").path
        try (Self.scenario + "expect no violations\n").write(toFile: clean, atomically: true, encoding: .utf8)
        // Without the title-in-ring-id defect and without a title edit, no ring ID can change.
        try (Self.scenario + "expect violation stable-ids\n").write(toFile: impossible, atomically: true, encoding: .utf8)
        let run = cli("run", clean, impossible)
        let lines = run.output.split(separator: "\n").map(String.init)
        let verdicts = lines.filter { $0.hasPrefix("PASS ") || $0.hasPrefix("FAIL ") }
        #expect(verdicts.map { String($0.dropFirst(5)) } == [clean, impossible])
        #expect(verdicts.last == "FAIL \(impossible)")
        #expect(run.status == .violations)
        let passed = verdicts.filter { $0.hasPrefix("PASS ") }.count
        #expect(lines.last == "scenarios: \(passed) passed, \(2 - passed) failed")
        // A FAIL line is followed by its failures, indented.
        let failIndex = try #require(lines.firstIndex(of: "FAIL \(impossible)"))
        #expect(lines[failIndex + 1].hasPrefix("  "))
    }
}

import AlarmSimCLI
import Foundation
import Testing

/// `fuzz` with worker subprocesses of the release binary: the summary does not depend on the
/// number of jobs, a trapping seed kills only its worker, and SIGINT or SIGTERM writes a partial summary.
@Suite("Campaign worker subprocesses", .serialized)
struct CampaignWorkerTests {
    @Test("the summary text and summary.json are byte-identical in-process, with --jobs 1 and with --jobs 2")
    func jobsInvariance() throws {
        let binary = try ReleaseBinary.locate()
        let root = try makeTemporaryDirectory("jobs")
        defer { try? FileManager.default.removeItem(at: root) }
        let common = ["fuzz", "--seeds", "1..12", "--defect", "title-in-ring-id", "--no-shrink"]
        let inProcess = cli(common + ["--report", root.appendingPathComponent("in").path])
        #expect(inProcess.status == .violations)
        for jobs in ["1", "2"] {
            let run = try ReleaseBinary.run(binary, common + ["--jobs", jobs, "--report", root.appendingPathComponent(jobs).path])
            #expect(run.status == 1)
            #expect(run.output == inProcess.output, "--jobs \(jobs)")
            let json = try String(contentsOf: root.appendingPathComponent("\(jobs)/summary.json"), encoding: .utf8)
            #expect(try json == String(contentsOf: root.appendingPathComponent("in/summary.json"), encoding: .utf8), "--jobs \(jobs)")
        }
        // The same worker path, driven from this process: the CLI spawns the release binary.
        var output = "", errors = ""
        let environment = CLIEnvironment(errorsIsTerminal: false, elapsedMs: { 0 }, executablePath: binary.path, processorCount: 2)
        _ = AlarmSimCLI.main(arguments: common + ["--no-report"], output: &output, errors: &errors, environment: environment)
        #expect(output == inProcess.output)
    }

    @Test("a seed that traps kills only its worker: the campaign completes, reports it as 'crash' with signal and repro line, and tallies every seed")
    func trappingWorker() throws {
        let binary = try ReleaseBinary.locate()
        let root = try makeTemporaryDirectory("trap")
        defer { try? FileManager.default.removeItem(at: root) }
        let seeds = 1...15
        let run = try ReleaseBinary.run(binary, ["fuzz", "--seeds", "1..15", "--defect", "test-trap", "--jobs", "2",
                                                 "--report", root.path, "--shrink-dir", root.appendingPathComponent("shrunk").path])
        #expect(run.status == 1)
        let trapping = seeds.filter { $0 % 5 == 3 }
        for platform in ["ios", "android"] {
            #expect(run.output.contains("\(platform): 15 seeds, \(trapping.count) failing"), "every seed tallied on \(platform)")
            for seed in trapping {
                #expect(run.output.contains("FAIL \(platform) seed \(seed): crash — the worker running this seed died (SIG"))
                #expect(run.output.contains("  repro: alarmsim replay --platform \(platform) --seed \(seed) --defect test-trap\n"))
            }
        }
        #expect(run.output.hasSuffix("violations: \(2 * trapping.count)\n"))
        // The shrink directory is created (and checked) before the campaign; a crash writes nothing into it.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("shrunk").path)) == [], "a crash is never shrunk")
        let data = try Data(contentsOf: root.appendingPathComponent("summary.json"))
        let json = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let failing = try #require(json["failing"] as? [[String: Any]])
        #expect(failing.count == 2 * trapping.count)
        for failure in failing {
            #expect(failure["invariant"] as? String == "crash")
            #expect(["SIGILL", "SIGTRAP"].contains(failure["signal"] as? String ?? ""), "a Swift trap is SIGILL (x86-64) or SIGTRAP (arm64)")
            #expect(failure["eventIndex"] == nil)
        }
        let junit = try String(contentsOf: root.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("name=\"crash\""))
    }

    @Test("SIGINT and SIGTERM stop the campaign cleanly: exit 130 / 143 and a valid summary.json that says interrupted, with seeds run",
          arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func interrupt(signal: Int32, status: Int32) throws {
        let binary = try ReleaseBinary.locate()
        let root = try makeTemporaryDirectory("signal-\(signal)")
        defer { try? FileManager.default.removeItem(at: root) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["fuzz", "--seeds", "1..10000000", "--jobs", "2", "--no-shrink", "--report", root.path]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(1_500_000)
        kill(process.processIdentifier, signal)  // what Ctrl-C, `timeout` and CI cancellation send
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        #expect(output.contains("interrupted: "))
        let data = try Data(contentsOf: root.appendingPathComponent("summary.json"))
        let json = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["interrupted"] as? Bool == true)
        let platforms = try #require(json["platforms"] as? [[String: Any]])
        let seedsRun = platforms.compactMap { $0["seeds"] as? Int }.reduce(0, +)
        #expect(seedsRun > 0)
        let ranges = try #require(platforms.first?["seedsRun"] as? [[String: Any]])
        #expect(ranges.count == 1 && ranges[0]["first"] as? Int == 1, "the seeds that ran are a prefix of the range")
    }
}

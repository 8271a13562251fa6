import AlarmSimCLI
import Foundation
import Testing

@Suite("CLI run: scenario file errors")
struct RunCommandFileErrorTests {
    @Test("an unreadable scenario file exits 74 and names the file")
    func unreadableFile() throws {
        let directory = try makeTemporaryDirectory("unreadable")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("missing.scenario").path
        let run = cli("run", path)
        #expect(run.status == .ioError)
        #expect(run.status.rawValue == 74)
        #expect(run.errors.contains(path))
    }

    @Test("a directory named as a scenario file exits 74 and says it is a directory; /dev/null reads as an empty file (65)")
    func directoryAndDevice() throws {
        let directory = try makeTemporaryDirectory("directory")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = cli("run", directory.path)
        #expect(run.status == .ioError)
        #expect(run.errors.contains("it is a directory"), "\(run.errors)")
        let empty = cli("run", "/dev/null")
        #expect(empty.status == .dataError)
        #expect(empty.errors.hasPrefix("/dev/null:1:1: "), "\(empty.errors)")
    }

    @Test("a malformed scenario file exits 65 with file:line:col on stderr, before any scenario runs")
    func malformedFile() throws {
        let directory = try makeTemporaryDirectory("malformed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.scenario").path
        try "platform ios\nstart 2026-03-02 06:55 Europe/Berlin\nfrobnicate now\n".write(toFile: path, atomically: true, encoding: .utf8)
        let run = cli("run", path)
        #expect(run.status == .dataError)
        #expect(run.status.rawValue == 65)
        #expect(run.errors.hasPrefix("\(path):3:1: "), "\(run.errors)")
        #expect(run.output.isEmpty, "nothing ran")
    }

    @Test("every bad file named is reported, each with its own location, and none runs; the exit status is the first's")
    func everyBadFileReported() throws {
        let directory = try makeTemporaryDirectory("several")
        defer { try? FileManager.default.removeItem(at: directory) }
        let header = "platform ios\nstart 2026-03-02 06:55 Europe/Berlin\n"
        let good = directory.appendingPathComponent("good.scenario").path
        try (header + "expect no violations\n").write(toFile: good, atomically: true, encoding: .utf8)
        let first = directory.appendingPathComponent("first.scenario").path
        try (header + "frobnicate now\n").write(toFile: first, atomically: true, encoding: .utf8)
        let second = directory.appendingPathComponent("second.scenario").path
        try (header + "\nat +1h frobnicate\n").write(toFile: second, atomically: true, encoding: .utf8)
        let missing = directory.appendingPathComponent("missing.scenario").path
        for arguments in [["run", first, good, second, missing], ["run", "--check", first, good, second, missing]] {
            let run = cli(arguments)
            #expect(run.status == .dataError, "\(arguments)")
            let lines = run.errors.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("\(first):3:1: ") }, "\(run.errors)")
            #expect(lines.contains { $0.hasPrefix("\(second):4:") }, "\(run.errors)")
            #expect(lines.contains { $0.contains(missing) }, "\(run.errors)")
            #expect(!run.errors.contains(good) && run.output.isEmpty, "nothing ran, nothing said OK")
            #expect(lines.last == "scenarios: 3 of 4 files not well-formed or not readable, none run")
        }
        let unreadableFirst = cli("run", "--check", missing, first)
        #expect(unreadableFirst.status == .ioError)
    }

    @Test("a file that is not UTF-8 is malformed input (65), not a crash")
    func notUTF8() throws {
        let directory = try makeTemporaryDirectory("binary")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("binary.scenario").path
        try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: URL(fileURLWithPath: path))
        let run = cli("run", path)
        #expect(run.status == .dataError)
        #expect(run.errors.hasPrefix("\(path):1:1: "))
        // The position is that of the first invalid byte: line 3, after five valid characters.
        let later = directory.appendingPathComponent("later.scenario").path
        try Data("platform ios\nstart 2026-03-02 06:55 Europe/Berlin\n# café ".utf8 + [0xE9, 0x0A]).write(to: URL(fileURLWithPath: later))
        let located = cli("run", later)
        #expect(located.status == .dataError)
        #expect(located.errors.hasPrefix("\(later):3:8: "), "\(located.errors)")
    }

    @Test("an input larger than the 16 MiB cap (or an endless device) fails at once with a sentence, for run, import and merge")
    func inputSizeCap() throws {
        let directory = try makeTemporaryDirectory("huge")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("huge.scenario").path
        try Data(repeating: 0x23, count: (16 << 20) + 1).write(to: URL(fileURLWithPath: path))
        // A private /dev/zero (1, 5) when the tests run as root, as CI does; the machine's own is never touched.
        let zero = directory.appendingPathComponent("zero").path
        #if os(Linux)
        let endless = mknod(zero, S_IFCHR | 0o444, dev_t(1 << 8 | 5)) == 0 ? [zero] : []
        #else
        let endless: [String] = []
        #endif
        for input in [path] + endless {
            for arguments in [["run", input], ["import", input], ["merge", input]] {
                let run = cli(arguments)
                #expect(run.status == .ioError, "\(arguments)")
                #expect(run.errors.contains("it is larger than 16 MiB"), "\(arguments): \(run.errors)")
            }
        }
    }
}

@Suite("Scenario run limits")
struct ScenarioRunLimitTests {
    @Test("a valid file with 'at +1000d' ends at once with a run-limit failure naming the limit and the param that raises it")
    func farFutureLineIsBounded() throws {
        let directory = try makeTemporaryDirectory("far")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("far.scenario").path
        try "platform android\nstart 2026-03-02 06:55 Europe/Berlin\nalarm a1 07:00 weekly mon,tue,wed,thu,fri,sat,sun\nat 06:56 user open-app\nat +1000d 07:30 user leave-app\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let clock = ContinuousClock()
        let start = clock.now
        let run = cli("run", path)
        #expect(clock.now - start < .seconds(60), "bounded (it took minutes before)")
        #expect(run.status == .violations)
        #expect(run.output.contains("unexpected violation run-limit: the run passed its limit of 31 days of virtual time (2026-04-02 07:55:00 Europe/Berlin) with its next event, at 2026-04-0"))
        #expect(run.output.contains("'param sim.max-virtual-days D'"))
        // Raised by the file itself, the same run covers 40 days and then stops at the new limit.
        try "platform android\nstart 2026-03-02 06:55 Europe/Berlin\nparam sim.max-virtual-days 40\nalarm a1 07:00 weekly mon\nat +1000d 07:30 user leave-app\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(cli("run", path).output.contains("the run passed its limit of 40 days of virtual time (2026-04-11 07:55:00 Europe/Berlin) with its next event, at 2026-04-1"))
        try "platform android\nstart 2026-03-02 06:55 Europe/Berlin\nparam sim.max-events 5\nalarm a1 07:00 weekly mon\nat +2d 07:30 user open-app\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(cli("run", path).output.contains("the run reached its limit of 5 events at 2026-03-"))
        try "platform android\nstart 2026-03-02 06:55 Europe/Berlin\nparam sim.max-events 0\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(cli("run", path).status == .dataError)
    }
}

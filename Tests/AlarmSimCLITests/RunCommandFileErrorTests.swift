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
}

import Foundation
import Reporting
import Testing

@Suite("AtomicFile")
struct AtomicFileTests {
    private func temporaryDirectory(_ label: String) throws -> URL {
        // mkdtemp: unique per call, so parallel tests never share a directory.
        var template = Array((FileManager.default.temporaryDirectory.path + "/alarmsim-reporting-tests-\(label)-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    @Test("write creates the file with exactly the given bytes and leaves no temporary file")
    func writesNewFile() throws {
        let directory = try temporaryDirectory("new")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.txt").path
        try AtomicFile.write("héllo\nworld\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "héllo\nworld\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"])
    }

    @Test("write replaces an existing file completely, even with shorter content")
    func replacesExistingFile() throws {
        let directory = try temporaryDirectory("replace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.bin").path
        try AtomicFile.write(Data(repeating: 0x41, count: 100_000), to: path)
        try AtomicFile.write(Data([1, 2, 3]), to: path)
        #expect(FileManager.default.contents(atPath: path) == Data([1, 2, 3]))
        try AtomicFile.write("", to: path)
        #expect(FileManager.default.contents(atPath: path) == Data())
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.bin"])
    }

    @Test("write into a missing directory throws an error naming the path, and creates nothing")
    func missingDirectoryThrows() throws {
        let directory = try temporaryDirectory("missing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("absent/out.txt").path
        #expect {
            try AtomicFile.write("x", to: path)
        } throws: { error in
            (error as? AtomicFile.WriteError)?.description.contains(path) == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("a path relative to the working directory is written next to its name")
    func relativePathWithoutDirectory() throws {
        let directory = try temporaryDirectory("relative")
        defer { try? FileManager.default.removeItem(at: directory) }
        // An explicit "./" form of a path in a known directory (the process's working directory
        // is shared by parallel tests, so the test does not change it).
        let path = directory.path + "/./rel.txt"
        try AtomicFile.write("r", to: path)
        #expect(try String(contentsOfFile: directory.appendingPathComponent("rel.txt").path, encoding: .utf8) == "r")
    }
}

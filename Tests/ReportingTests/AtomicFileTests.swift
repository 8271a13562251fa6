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

    @Test("names of 1 to 255 bytes (multi-byte letters cut whole) are written, and checked writable first; a 256-byte name is refused before any work",
          arguments: [1, 200, 242, 243, 250, 255])
    func longNames(bytes: Int) throws {
        let directory = try temporaryDirectory("long")
        defer { try? FileManager.default.removeItem(at: directory) }
        // "é" is two bytes: an odd stem length puts a letter across the temporary stem's limit.
        let name = String(repeating: "é", count: (bytes - 1) / 2) + String(repeating: "x", count: 1 + (bytes - 1) % 2)
        #expect(name.utf8.count == bytes)
        let path = directory.appendingPathComponent(name).path
        try AtomicFile.checkWritable(path)
        try AtomicFile.write("long\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "long\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [name])
        let tooLong = directory.appendingPathComponent(name + String(repeating: "y", count: 256 - bytes)).path
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.checkWritable(tooLong) }
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

    @Test("a symbolic link is followed: its target gets the bytes and the link stays a link")
    func followsSymbolicLinks() throws {
        let directory = try temporaryDirectory("link")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("target.txt").path
        let link = directory.appendingPathComponent("link").path
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        #expect(symlink("target.txt", link) == 0)
        try AtomicFile.write("new", to: link)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.txt")
        // A dangling link names the file to create.
        let dangling = directory.appendingPathComponent("dangling").path
        #expect(symlink("created.txt", dangling) == 0)
        try AtomicFile.write("c", to: dangling)
        #expect(try String(contentsOfFile: directory.appendingPathComponent("created.txt").path, encoding: .utf8) == "c")
        // A loop is an error, not a hang.
        let loop = directory.appendingPathComponent("loop").path
        #expect(symlink("loop", loop) == 0)
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write("x", to: loop) }
    }

    @Test("an existing file keeps its permission bits")
    func keepsPermissions() throws {
        let directory = try temporaryDirectory("mode")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("script").path
        try AtomicFile.write("a", to: path)
        #expect(chmod(path, 0o750) == 0)
        try AtomicFile.write("b", to: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o750)
    }

    @Test("a FIFO is written in place, never replaced by a regular file")
    func fifoWrittenInPlace() throws {
        let directory = try temporaryDirectory("fifo")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(path, 0o600) == 0)
        try AtomicFile.checkWritable(path)
        let received = ReceivedBytes()
        let reader = Thread { received.set(FileHandle(forReadingAtPath: path)?.readDataToEndOfFile()) }
        reader.start()
        try AtomicFile.write("through the pipe", to: path)
        while !received.done { usleep(10_000) }
        #expect(received.data == Data("through the pipe".utf8))
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("a character device is written in place: a private /dev/null takes the bytes, a private /dev/full fails with ENOSPC; both stay devices")
    func deviceWrittenInPlace() throws {
        let directory = try temporaryDirectory("device")
        defer { try? FileManager.default.removeItem(at: directory) }
        let null = directory.appendingPathComponent("null").path
        let full = directory.appendingPathComponent("full").path
        // Private nodes with the numbers of /dev/null (1, 3) and /dev/full (1, 7); the machine's
        // own are never touched. Creating a device node needs root (as CI runs): skip otherwise.
        guard mknod(null, S_IFCHR | 0o666, deviceNumber(1, 3)) == 0, mknod(full, S_IFCHR | 0o666, deviceNumber(1, 7)) == 0 else { return }
        try AtomicFile.write("discarded", to: null)
        #expect { try AtomicFile.write("no room", to: full) } throws: { error in
            (error as? AtomicFile.WriteError)?.reason == String(cString: strerror(ENOSPC))
        }
        for path in [null, full] {
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "\(path) is still a device")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["full", "null"])
    }

    @Test("checkWritable and prepareDirectory refuse, before any work, a path under a file, a missing directory and a directory named as a file")
    func preflight() throws {
        let directory = try temporaryDirectory("preflight")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("afile").path
        try AtomicFile.write("", to: file)
        #expect { try AtomicFile.checkWritable(file + "/x") } throws: { error in
            (error as? AtomicFile.WriteError)?.reason == "\(file) exists and is not a directory"
        }
        #expect { try AtomicFile.prepareDirectory(file + "/x/y") } throws: { error in
            (error as? AtomicFile.WriteError)?.reason == "\(file) is not a directory"
        }
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.checkWritable(directory.path + "/absent/out.txt") }
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.checkWritable(directory.path) }
        try AtomicFile.checkWritable(directory.path + "/new.txt")
        try AtomicFile.checkWritable(AtomicFile.standardOutputPath)
        let created = try AtomicFile.prepareDirectory(directory.path + "/a/b/c")
        #expect(created == ["a", "a/b", "a/b/c"].map { directory.path + "/" + $0 })
        #expect(FileManager.default.fileExists(atPath: directory.path + "/a/b/c"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/a/b/c").isEmpty, "the probe file is gone")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/new.txt"))
        #expect(try AtomicFile.prepareDirectory(directory.path + "/a/b").isEmpty, "nothing created: it exists")
        // What was created and is still empty goes, innermost first; a directory holding a file stays.
        try AtomicFile.write("kept", to: directory.path + "/a/kept.txt")
        AtomicFile.removeEmptyDirectories(created)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/a/b"))
        #expect(FileManager.default.fileExists(atPath: directory.path + "/a/kept.txt"))
    }

    @Test("a directory that takes no new file is refused with the path asked for, never the probe's name")
    func refusalNamesThePathAskedFor() throws {
        let directory = try temporaryDirectory("probe")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A directory whose path leaves no room under PATH_MAX (4096) for the probe's name: creating
        // any file there fails (ENAMETOOLONG), for root too, unlike a read-only mode.
        var deep = directory.path
        while deep.utf8.count < 4_068 { deep += "/" + String(repeating: "d", count: min(200, 4_068 - deep.utf8.count)) }
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        let asked = deep + "/o.md"
        #expect { try AtomicFile.checkWritable(asked) } throws: { error in
            guard let error = error as? AtomicFile.WriteError else { return false }
            return error.path == asked && !error.description.contains("alarmsim-write-check")
                && error.description.contains("cannot create files in")
        }
    }
}

/// `makedev(3)` (a C macro Swift does not import) for small numbers: Linux packs the minor in
/// the low byte, Darwin in the low 24 bits.
private func deviceNumber(_ major: UInt32, _ minor: UInt32) -> dev_t {
    #if os(Linux)
    return dev_t(major << 8 | minor)
    #else
    return dev_t(Int32(bitPattern: major << 24 | minor))
    #endif
}

/// Bytes a reader thread hands back to the test.
private final class ReceivedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Data?
    private var finished = false
    func set(_ data: Data?) { lock.lock(); value = data; finished = true; lock.unlock() }
    var done: Bool { lock.lock(); defer { lock.unlock() }; return finished }
    var data: Data? { lock.lock(); defer { lock.unlock() }; return value }
}

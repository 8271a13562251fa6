#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A file write that readers never see half done: the bytes go to a new file in the same
/// directory, which is flushed and then renamed over the destination (POSIX `rename(2)` is
/// atomic within one file system, which "same directory" guarantees).
public enum AtomicFile {
    /// Why a write failed; `description` names the path and the system's reason.
    public struct WriteError: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        /// What was being done ("create a temporary file", "write", "rename", …).
        public var step: String
        /// `strerror(errno)` at the failure.
        public var reason: String

        public var description: String { step.isEmpty ? "cannot write \(path): \(reason)" : "cannot write \(path): \(step) failed: \(reason)" }
    }

    /// How many temporary names to try before giving up (another writer may hold one).
    static let temporaryNameAttemptsMax = 100

    /// Writes `text` as UTF-8 to `path`, replacing any existing file atomically.
    ///
    /// - Throws: ``WriteError`` when the directory is missing or not writable, the disk is
    ///   full, or the rename fails; the destination is then unchanged and no temporary file is
    ///   left behind.
    public static func write(_ text: String, to path: String) throws(WriteError) {
        try write(Data(text.utf8), to: path)
    }

    /// Writes `data` to `path`, replacing any existing file atomically.
    ///
    /// - Throws: ``WriteError``; the destination is then unchanged.
    public static func write(_ data: Data, to path: String) throws(WriteError) {
        precondition(!path.isEmpty, "AtomicFile.write: empty path")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw WriteError(path: path, step: "replace", reason: "it is a directory; name a file inside it")
        }
        let (temporaryPath, descriptor) = try createTemporaryFile(besides: path)
        do throws(WriteError) {
            try writeAll(data, to: descriptor, path: path)
            guard fsync(descriptor) == 0 else { throw failure(path, "flush") }
            guard close(descriptor) == 0 else {
                let error = failure(path, "close")
                unlink(temporaryPath)
                throw error
            }
        } catch {
            close(descriptor)
            unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, path) == 0 else {
            let error = failure(path, "rename \(temporaryPath)")
            unlink(temporaryPath)
            throw error
        }
    }

    /// Creates `.NAME.tmp-PID-N` next to `path`, exclusively, with mode 0644 (less the umask).
    private static func createTemporaryFile(besides path: String) throws(WriteError) -> (String, Int32) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        for attempt in 0..<temporaryNameAttemptsMax {
            // determinism-ok: the process ID only names a temporary file that is renamed away;
            // it keeps two processes writing the same destination from colliding.
            let temporaryPath = directory + "/." + name + ".tmp-\(getpid())-\(attempt)"
            let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 { return (temporaryPath, descriptor) }
            guard errno == EEXIST else { throw failure(path, "create a temporary file in \(directory)") }
        }
        throw WriteError(path: path, step: "create a temporary file",
                         reason: "\(temporaryNameAttemptsMax) temporary names were all taken")
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(WriteError) {
        let written = data.withUnsafeBytes { Descriptor.writeAll($0, to: descriptor) }
        if !written { throw failure(path, "write") }
    }

    private static func failure(_ path: String, _ step: String) -> WriteError {
        WriteError(path: path, step: step, reason: String(cString: strerror(errno)))
    }
}

/// Raw writes to a file descriptor, shared by `AtomicFile` and the CLI's standard streams.
public enum Descriptor {
    /// Writes every byte, retrying after `EINTR` and short writes.
    /// - Returns: false when `write(2)` failed (errno says why; a closed pipe, say).
    @discardableResult
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = posixWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// `write(2)`, named apart from `AtomicFile.write` so the call is unambiguous.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
    return Musl.write(descriptor, bytes, count)
    #else
    return Darwin.write(descriptor, bytes, count)
    #endif
}

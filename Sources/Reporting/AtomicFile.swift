#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A file write that readers never see half done, and that never destroys what a path points at.
///
/// - A regular file (or a name that does not exist yet) is replaced atomically: the bytes go to
///   a new file in the same directory, which is flushed and then renamed over the destination
///   (POSIX `rename(2)` is atomic within one file system, which "same directory" guarantees).
///   An existing file keeps its permission bits.
/// - A symbolic link is followed (up to ``symbolicLinksMax`` links): its target is written, the
///   link stays a link.
/// - A special file — a character or block device (`/dev/stdout`, `/dev/null`), a FIFO, a socket
///   — is written in place, as a shell's `>` would; it is never replaced by a regular file. A FIFO
///   with no reader blocks until one opens it.
/// - `-` is standard output.
public enum AtomicFile {
    /// Why a write failed; `description` names the path and the system's reason.
    public struct WriteError: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        /// What was being done ("create a temporary file", "write", "rename", …).
        public var step: String
        /// `strerror(errno)` at the failure.
        public var reason: String
        /// `errno` at the failure, when a system call failed.
        public var code: Int32?

        public init(path: String, step: String, reason: String, code: Int32? = nil) {
            self.path = path
            self.step = step
            self.reason = reason
            self.code = code
        }

        public var description: String { step.isEmpty ? "cannot write \(path): \(reason)" : "cannot write \(path): \(step) failed: \(reason)" }

        /// What to do about it, for the line after the error: a full disk or a read-only file
        /// system is not fixed by checking the directory.
        public var hint: String {
            switch code {
            case ENOSPC, EDQUOT: return "free some space on that file system, or write elsewhere"
            case EROFS: return "that file system is read-only: write elsewhere"
            default: return "check that the directory exists and is writable"
            }
        }
    }

    /// How many temporary names to try before giving up (another writer may hold one).
    static let temporaryNameAttemptsMax = 100

    /// The longest file name the file systems we write to take, in bytes (`NAME_MAX`, Linux and
    /// macOS alike).
    static let nameBytesMax = 255

    /// The most bytes of the target's name a temporary file's name repeats: with the dot and the
    /// `.tmp-PID-N` suffix it stays within ``nameBytesMax`` however long the target's name is (a
    /// 243–255-byte name failed only after the run, its temporary name too long).
    static let temporaryStemBytesMax = 200

    /// `name`'s first whole Unicode scalars within ``temporaryStemBytesMax`` UTF-8 bytes.
    static func temporaryStem(_ name: String) -> String {
        guard name.utf8.count > temporaryStemBytesMax else { return name }
        var stem = String.UnicodeScalarView()
        var bytes = 0
        for scalar in name.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= temporaryStemBytesMax else { break }
            stem.append(scalar)
        }
        return String(stem)
    }
    /// Links followed before a path counts as a loop (Linux's `MAXSYMLINKS` is 40).
    public static let symbolicLinksMax = 40
    /// The path that names standard output.
    public static let standardOutputPath = "-"

    /// Writes `text` as UTF-8 to `path` (see the type's comment for what each kind of path gets).
    ///
    /// - Throws: ``WriteError`` when the directory is missing or not writable, the disk is
    ///   full, the path is a directory or a link loop, or the rename fails; a regular destination
    ///   is then unchanged and no temporary file is left behind.
    public static func write(_ text: String, to path: String) throws(WriteError) {
        try write(Data(text.utf8), to: path)
    }

    /// Writes `data` to `path` (see the type's comment for what each kind of path gets).
    ///
    /// - Throws: ``WriteError``; a regular destination is then unchanged.
    public static func write(_ data: Data, to path: String) throws(WriteError) {
        precondition(!path.isEmpty, "AtomicFile.write: empty path")
        if path == standardOutputPath {
            guard data.withUnsafeBytes({ Descriptor.writeAll($0, to: STDOUT_FILENO) }) else { throw failure("standard output", "write") }
            return
        }
        let target = try resolvingLinks(path)
        var info = stat()
        var mode: mode_t?
        if lstat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: throw WriteError(path: path, step: "replace", reason: "it is a directory; name a file inside it")
            case S_IFREG: mode = info.st_mode & 0o7777
            default: return try writeInPlace(data, to: target, shownAs: path)
            }
        }
        try replace(target, with: data, mode: mode, shownAs: path)
    }

    /// Checks, before any work, that ``write(_:to:)-(Data,_)`` could write `path`: a special file
    /// must be writable; otherwise the directory must exist and take a new file (one is created
    /// and removed: the only test a read-only mount or a full inode table cannot fool).
    /// - Throws: ``WriteError`` saying why it cannot.
    public static func checkWritable(_ path: String) throws(WriteError) {
        precondition(!path.isEmpty, "AtomicFile.checkWritable: empty path")
        guard path != standardOutputPath else { return }
        let target = try resolvingLinks(path)
        let nameBytes = URL(fileURLWithPath: target).lastPathComponent.utf8.count
        guard nameBytes <= nameBytesMax else {
            throw WriteError(path: path, step: "", reason: "its name is \(nameBytes) bytes long; a file name holds at most \(nameBytesMax)")
        }
        var info = stat()
        if lstat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: throw WriteError(path: path, step: "", reason: "it is a directory; name a file inside it")
            case S_IFREG: break
            case S_IFIFO: return  // opening it would wait for a reader; the write will
            default:
                guard access(target, W_OK) == 0 else { throw failure(path, "open") }
                return
            }
        }
        let directory = URL(fileURLWithPath: target).deletingLastPathComponent().path
        try checkDirectory(directory, creating: false, shownAs: path)
    }

    /// Creates `directory` with its missing parents (mode 0755 less the umask) unless it exists,
    /// and checks that it takes a new file (one is created and removed).
    /// - Throws: ``WriteError`` naming the part of the path that is not a directory, or the
    ///   system's reason (read-only file system, permission denied, …).
    /// - Returns: the directories this call created, outermost first (empty when `directory`
    ///   existed), for ``removeEmptyDirectories(_:)`` when the command then fails on its input.
    @discardableResult
    public static func prepareDirectory(_ directory: String) throws(WriteError) -> [String] {
        precondition(!directory.isEmpty, "AtomicFile.prepareDirectory: empty path")
        return try checkDirectory(directory, creating: true, shownAs: directory)
    }

    /// Removes those of `created` (outermost first, as ``prepareDirectory(_:)`` returns them)
    /// that are still empty, innermost first: a command that fails on its input before writing
    /// anything leaves no directory behind. A directory that holds anything stays; errors are
    /// ignored (`rmdir(2)` removes only an empty directory).
    public static func removeEmptyDirectories(_ created: [String]) {
        for directory in created.reversed() { _ = rmdir(directory) }
    }

    @discardableResult
    private static func checkDirectory(_ directory: String, creating: Bool, shownAs path: String) throws(WriteError) -> [String] {
        var info = stat()
        var created: [String] = []
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw WriteError(path: path, step: "", reason: "\(directory) exists and is not a directory")
            }
        } else if errno == ENOENT && creating {
            created = try createDirectories(directory, shownAs: path)
        } else if errno == ENOENT {
            throw WriteError(path: path, step: "", reason: "the directory \(directory) does not exist")
        } else if errno == ENOTDIR, let file = firstNonDirectory(in: directory) {
            throw WriteError(path: path, step: "", reason: "\(file) is not a directory")
        } else {
            throw failure(path, "look up \(directory)")
        }
        // The probe's own name is no business of the user's: a failure names the path asked for.
        let probe: String, descriptor: Int32
        do {
            (probe, descriptor) = try createTemporaryFile(besides: directory + "/.alarmsim-write-check")
        } catch {
            removeEmptyDirectories(created)
            throw WriteError(path: path, step: "", reason: "cannot create files in \(directory): \(error.reason)")
        }
        close(descriptor)
        unlink(probe)
        return created
    }

    /// The shortest prefix of `directory` that exists and is not a directory (`afile` of `afile/x`).
    private static func firstNonDirectory(in directory: String) -> String? {
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            var info = stat()
            if stat(prefix, &info) == 0, info.st_mode & S_IFMT != S_IFDIR { return prefix }
        }
        return nil
    }

    /// `mkdir -p`: each missing component in turn, so the message names the one that failed.
    /// - Returns: the directories created, outermost first.
    private static func createDirectories(_ directory: String, shownAs path: String) throws(WriteError) -> [String] {
        var prefix = directory.hasPrefix("/") ? "/" : ""
        var created: [String] = []
        for component in directory.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            var info = stat()
            if stat(prefix, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    removeEmptyDirectories(created)
                    throw WriteError(path: path, step: "", reason: "\(prefix) is not a directory")
                }
                continue
            }
            if mkdir(prefix, 0o755) == 0 {
                created.append(prefix)
            } else if errno != EEXIST {
                let error = failure(path, "creating the directory \(prefix)")
                removeEmptyDirectories(created)
                throw error
            }
        }
        return created
    }

    /// `path` with every symbolic link along its last component followed (a dangling link names
    /// the file to create). - Throws: ``WriteError`` for a loop or an unreadable link.
    static func resolvingLinks(_ path: String) throws(WriteError) -> String {
        var current = path
        for _ in 0..<symbolicLinksMax {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw failure(path, "read the link \(current)") }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : URL(fileURLWithPath: current).deletingLastPathComponent().path + "/" + target
        }
        throw WriteError(path: path, step: "", reason: "more than \(symbolicLinksMax) symbolic links (a loop?)")
    }

    /// A device, FIFO or socket: opened for writing (never created, never truncated) and written.
    private static func writeInPlace(_ data: Data, to target: String, shownAs path: String) throws(WriteError) {
        let descriptor = open(target, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, "open") }
        let written = data.withUnsafeBytes { Descriptor.writeAll($0, to: descriptor) }
        let error = written ? nil : failure(path, "write")
        close(descriptor)
        if let error { throw error }
    }

    /// The atomic path: a temporary file beside `target`, flushed, given `mode`, renamed over it.
    private static func replace(_ target: String, with data: Data, mode: mode_t?, shownAs path: String) throws(WriteError) {
        let (temporaryPath, descriptor) = try createTemporaryFile(besides: target)
        do throws(WriteError) {
            try writeAll(data, to: descriptor, path: path)
            if let mode, fchmod(descriptor, mode) != 0 { throw failure(path, "keep the file's permissions") }
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
        guard rename(temporaryPath, target) == 0 else {
            let error = failure(path, "rename \(temporaryPath)")
            unlink(temporaryPath)
            throw error
        }
    }

    /// Creates `.NAME.tmp-PID-N` next to `path`, exclusively, with mode 0644 (less the umask);
    /// NAME is the target's name cut to ``temporaryStemBytesMax`` bytes.
    private static func createTemporaryFile(besides path: String) throws(WriteError) -> (String, Int32) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = temporaryStem(url.lastPathComponent)
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
        WriteError(path: path, step: step, reason: String(cString: strerror(errno)), code: errno)
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

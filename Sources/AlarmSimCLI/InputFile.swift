import Foundation

/// Reading one input file the user named (a scenario, a journal, a summary), with the error
/// every command prints the same way.
enum InputFile {
    /// The whole file's bytes.
    ///
    /// A `FileHandle` reads devices and pipes too (`/dev/null`, `<(…)`), which `Data(contentsOf:)`
    /// refuses.
    /// - Parameter what: The kind of file, for the message (`scenario file`, `journal`, …).
    /// - Parameter directoryHint: Added to the message when `path` is a directory.
    /// - Parameter sizeMaxBytes: The most bytes accepted; a larger file or an endless stream
    ///   (`/dev/zero`, `/dev/urandom`) is an error once the cap is passed.
    /// - Returns: The bytes, or the message `cannot read WHAT PATH: REASON` (the caller exits 74).
    /// The most bytes read from one input file (16 MiB): far above any real scenario, journal or
    /// summary (the largest committed is under 100 KB), and low enough that `/dev/zero` or a
    /// mistyped path to a disk image fails in a moment instead of filling memory.
    static let sizeMaxBytes = 16 << 20
    /// Bytes asked of `read(2)` at a time.
    static let chunkBytes = 1 << 20

    static func read(_ path: String, what: String, directoryHint: String = "",
                     sizeMaxBytes: Int = InputFile.sizeMaxBytes) -> Result<Data, InputFileError> {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            return .failure(InputFileError(message: "cannot read \(what) \(path): it is a directory\(directoryHint)"))
        }
        guard exists, let handle = FileHandle(forReadingAtPath: path) else {
            let reason = exists ? "it exists but cannot be read (permissions?)" : "no such file"
            return .failure(InputFileError(message: "cannot read \(what) \(path): \(reason)"))
        }
        defer { try? handle.close() }
        var data = Data()
        do {
            // In chunks, so an endless source (a device, a pipe that never closes) stops at the cap.
            while let chunk = try handle.read(upToCount: Self.chunkBytes), !chunk.isEmpty {
                data.append(chunk)
                if data.count > sizeMaxBytes {
                    return .failure(InputFileError(message: "cannot read \(what) \(path): it is larger than \(sizeMaxBytes >> 20) MiB, the most alarmsim reads from one file (is it the file you meant?)"))
                }
            }
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            return .failure(InputFileError(message: "cannot read \(what) \(path): \(reason.map { String(cString: strerror(Int32($0.code))) } ?? "the read failed")"))
        }
        return .success(data)
    }
}

/// Why an input file could not be read: a sentence naming the file.
struct InputFileError: Error {
    var message: String
}

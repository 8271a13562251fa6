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
    /// - Returns: The bytes, or the message `cannot read WHAT PATH: REASON` (the caller exits 74).
    static func read(_ path: String, what: String, directoryHint: String = "") -> Result<Data, InputFileError> {
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
        do {
            return .success(try handle.readToEnd() ?? Data())
        } catch {
            return .failure(InputFileError(message: "cannot read \(what) \(path): \(error.localizedDescription)"))
        }
    }
}

/// Why an input file could not be read: a sentence naming the file.
struct InputFileError: Error {
    var message: String
}

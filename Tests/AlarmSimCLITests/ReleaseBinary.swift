import Foundation

/// The release `alarmsim`, for campaign-sized tests (the known-defect scoreboard, the coverage
/// campaign) that would take many minutes in a debug build.
///
/// `.ci/run` builds it (`swift build -c release --product alarmsim`) before `swift test`. When
/// `.build/release/alarmsim` is missing or older than a file under `Sources/`, the test builds a
/// fresh one into its own scratch directory (`.build/test-release`), so it never waits for the
/// build lock of the `swift test` that is running it, and never tests stale code.
enum ReleaseBinary {
    /// - Throws: `BuiltBinary.Failure` when the build fails or takes more than 20 minutes.
    static func locate() throws -> URL {
        let root = BuiltBinary.packageRoot
        let ciBinary = root.appendingPathComponent(".build/release/alarmsim")
        let newestSource = newestModification(under: root.appendingPathComponent("Sources"))
        if let built = modification(ciBinary), built >= newestSource {
            return ciBinary
        }
        let scratch = root.appendingPathComponent(".build/test-release")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "-c", "release", "--product", "alarmsim", "--scratch-path", scratch.path]
        process.currentDirectoryURL = root
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var waitedMs = 0
        while process.isRunning {
            guard waitedMs < 1_200_000 else {
                process.terminate()
                throw BuiltBinary.Failure(description: "'swift build -c release' did not finish in 20 minutes; run .ci/run or 'swift build -c release --product alarmsim' first")
            }
            usleep(200_000)
            waitedMs += 200
        }
        let binary = scratch.appendingPathComponent("release/alarmsim")
        guard process.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BuiltBinary.Failure(description: "'swift build -c release --product alarmsim --scratch-path \(scratch.path)' failed (status \(process.terminationStatus))")
        }
        return binary
    }

    /// Runs `binary arguments…` in the package root; returns the exit status, stdout and stderr
    /// (stderr goes through a file, so neither pipe can fill up and block the child); the
    /// tests' own time limits bound the wait.
    static func run(_ binary: URL, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = BuiltBinary.packageRoot
        let directory = try makeTemporaryDirectory("alarmsim-stderr")
        defer { try? FileManager.default.removeItem(at: directory) }
        let errorsFile = directory.appendingPathComponent("stderr.txt")
        guard FileManager.default.createFile(atPath: errorsFile.path, contents: nil) else {
            throw BuiltBinary.Failure(description: "cannot create \(errorsFile.path) for the child's stderr")
        }
        let errorsHandle = try FileHandle(forWritingTo: errorsFile)
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = errorsHandle
        try process.run()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()  // until the child closes stdout
        process.waitUntilExit()
        try errorsHandle.close()
        guard process.terminationReason == .exit else {
            throw BuiltBinary.Failure(description: "\(binary.path) \(arguments.joined(separator: " ")) died of signal \(process.terminationStatus)")
        }
        let errors = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), errors)
    }

    private static func modification(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    private static func newestModification(under directory: URL) -> Date {
        var newest = Date(timeIntervalSince1970: 0)
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.contentModificationDateKey])
        while let file = files?.nextObject() as? URL {
            if let date = modification(file), date > newest { newest = date }
        }
        return newest
    }
}

import Foundation
import Reporting
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the CLI reads from the process it runs in, passed in so tests can pin it.
///
/// This is the only place the tool looks at the real world (a terminal, the wall clock), and
/// nothing read here reaches a simulation run.
public struct CLIEnvironment: Sendable {
    /// Whether standard error is a terminal: then progress is one line rewritten with `\r`;
    /// otherwise (a log file, CI) one line per finished platform.
    public var errorsIsTerminal: Bool
    /// A monotonic reading in milliseconds, for campaign rates (seeds/s) only.
    public var elapsedMs: @Sendable () -> Int64
    /// The absolute path of the running `alarmsim` binary, which `fuzz` starts again as its
    /// worker subprocesses; nil when the CLI runs inside another program (the test process),
    /// where `fuzz` runs its seeds in-process instead.
    public var executablePath: String?
    /// The default of `fuzz --jobs`: the number of active processor cores.
    public var processorCount: Int
    /// Whether standard output and standard error are the same file or terminal (`2>&1`, or
    /// both on one terminal): what went to stderr as it happened is then already in the output.
    public var outputSharesErrors = false

    public init(errorsIsTerminal: Bool, elapsedMs: @escaping @Sendable () -> Int64, executablePath: String? = nil,
                processorCount: Int = 1) {
        self.errorsIsTerminal = errorsIsTerminal
        self.elapsedMs = elapsedMs
        self.executablePath = executablePath
        self.processorCount = max(processorCount, 1)
    }

    /// The real process: `isatty(2)`, the continuous clock, the binary's own path and the cores.
    public static var process: CLIEnvironment {
        let origin = ContinuousClock.now  // determinism-ok: campaign wall-clock timing, never reaches a run
        // determinism-ok: the core count only sizes the worker pool; results are folded in seed order
        let cores = ProcessInfo.processInfo.activeProcessorCount  // determinism-ok: the default --jobs; results are folded in seed order
        var environment = CLIEnvironment(errorsIsTerminal: isatty(2) != 0, elapsedMs: {
            let elapsed = origin.duration(to: ContinuousClock.now)  // determinism-ok: as above
            return elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        }, executablePath: ownExecutablePath(), processorCount: cores)
        environment.outputSharesErrors = sameFile(1, 2)
        return environment
    }

    /// True when descriptors `a` and `b` are open on the same file (device and inode).
    static func sameFile(_ a: Int32, _ b: Int32) -> Bool {
        var first = stat(), second = stat()
        guard fstat(a, &first) == 0, fstat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// `/proc/self/exe` resolved (Linux), else `argv[0]` made absolute against the working directory.
    static func ownExecutablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard let first = CommandLine.arguments.first, !first.isEmpty else { return nil }
        if first.hasPrefix("/") { return first }
        guard first.contains("/") else { return nil }  // found on PATH: no reliable absolute path
        return FileManager.default.currentDirectoryPath + "/" + first
    }
}

/// Standard output: each `write` goes straight to file descriptor 1 (no stdio buffer, so
/// nothing is lost on `exit` and the order with stderr is the order of the calls).
public struct StandardOutput: TextOutputStream {
    public init() {}
    public mutating func write(_ string: String) {
        writeAll(string, to: 1)
    }
}

/// Standard error: each `write` goes straight to file descriptor 2, so progress shows at once.
public struct StandardError: TextOutputStream {
    public init() {}
    public mutating func write(_ string: String) {
        writeAll(string, to: 2)
    }
}

/// Writes every byte of `string`, retrying after interrupts and short writes; gives up quietly
/// when the reader has gone (a closed pipe), as `print` does.
private func writeAll(_ string: String, to descriptor: Int32) {
    let bytes = Array(string.utf8)
    bytes.withUnsafeBytes { _ = Descriptor.writeAll($0, to: descriptor) }
}

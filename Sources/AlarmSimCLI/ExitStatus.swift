import SimKernel

/// The process exit status of `alarmsim` (STYLE.md, "CLI"; the 6x codes are BSD `sysexits.h`).
public enum ExitStatus: Int32, Sendable, Equatable, CaseIterable {
    /// The command did what was asked and found no violation.
    case success = 0
    /// A run broke an invariant, or a scenario's expectation failed.
    case violations = 1
    /// The command line was wrong (`EX_USAGE`).
    case usage = 64
    /// An input file was malformed (`EX_DATAERR`).
    case dataError = 65
    /// An output file or directory (`--out`, `--trace`, `--report`, `--shrink-dir`) cannot be
    /// created or written; checked before any work starts (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// A file could not be read or written (`EX_IOERR`).
    case ioError = 74
    /// A campaign stopped by SIGINT after writing its partial summary (128 + SIGINT, as shells report it).
    case interrupted = 130
    /// A campaign stopped by SIGTERM (what `timeout` and CI cancellation send), after writing its
    /// partial summary like SIGINT (128 + SIGTERM).
    case terminated = 143
}

/// A command line the tool cannot run: what was wrong and what to do instead.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One sentence naming the offending argument and how to fix it.
    public var message: String

    /// - Parameter message: Control characters quoted from an argument are made visible
    ///   (``TerminalText/visible(_:)``), so the message is safe to print.
    public init(_ message: String) {
        self.message = TerminalText.bounded(TerminalText.visible(message))
    }

    public var description: String { message }
}

import Foundation
import SimKernel
import Simulation

/// The per-failure artifacts of one seed, written into one directory:
///
/// - `trace.jsonl` — the full trace as JSON Lines (``TraceWriter``);
/// - `report.md` — the violation, repro line, parameters, shrunk scenario and last events
///   (``FailureReport``);
/// - `timeline.html` — the self-contained timeline page (``TimelinePage``).
///
/// Each file is written atomically (``AtomicFile``). The entry point for a campaign is
/// ``write(options:shrunkScenario:into:)``, which replays the seed with the full trace; `replay
/// --report DIR` and scenario runs use ``write(_:into:)``.
public enum FailureArtifacts {
    /// The file names, in the order ``write(_:into:)`` returns their paths.
    public static let fileNames = ["trace.jsonl", "report.md", "timeline.html"]

    /// Why the artifacts could not be written: the path and the system's reason, in words.
    public struct WriteError: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Replays `options` with the full trace kept (the result is the run a campaign saw, because
    /// a run is a pure function of its options) and writes the three files into `directory`,
    /// creating it (and its parents) when missing.
    ///
    /// - Parameters:
    ///   - shrunkScenario: The shrunk scenario's text, shown fenced in `report.md`.
    ///   - shrunkPath: The file it was written to, named in the report's "What next".
    ///   - shrunkLink: The same file relative to `directory`, linked from the report.
    /// - Returns: The paths written, in ``fileNames`` order.
    /// - Throws: ``WriteError`` when the directory cannot be created or a file cannot be written;
    ///   files already written stay (each is complete: atomic writes).
    @discardableResult
    public static func write(options: RunOptions, shrunkScenario: String?, shrunkPath: String? = nil, shrunkLink: String? = nil,
                             into directory: String) throws(WriteError) -> [String] {
        var options = options
        options.keepFullTrace = true
        let result = Simulator.run(options)
        var run = FailureRun(result, shrunkScenario: shrunkScenario)
        run.shrunkPath = shrunkPath
        run.shrunkLink = shrunkLink
        return try write(run, into: directory)
    }

    /// Writes the three files of `run` into `directory` (created when missing).
    ///
    /// - Returns: The paths written, in ``fileNames`` order.
    /// - Throws: ``WriteError``.
    @discardableResult
    public static func write(_ run: FailureRun, into directory: String) throws(WriteError) -> [String] {
        try makeDirectory(directory)
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let texts = [
            TraceWriter.jsonLines(header: run.header, events: run.events),
            FailureReport.markdown(run, rulebook: RulebookLinks.path(fromDirectory: base.isEmpty ? "." : base)),
            TimelinePage.html(run),
        ]
        var paths: [String] = []
        for (name, text) in zip(fileNames, texts) {
            let path = (base.isEmpty ? "." : base) + "/" + name
            do {
                try AtomicFile.write(text, to: path)
            } catch {
                throw WriteError(path: path, reason: "\(error.step) failed: \(error.reason)")
            }
            paths.append(path)
        }
        return paths
    }

    /// Creates `directory` and its parents when missing; fails when it is a file or not creatable.
    static func makeDirectory(_ directory: String) throws(WriteError) {
        guard !directory.isEmpty else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw WriteError(path: directory, reason: "it is a file, not a directory")
            }
            return
        }
        do {
            try AtomicFile.prepareDirectory(directory)
        } catch {
            throw WriteError(path: directory, reason: error.step.isEmpty ? error.reason : "\(error.step) failed: \(error.reason)")
        }
    }
}

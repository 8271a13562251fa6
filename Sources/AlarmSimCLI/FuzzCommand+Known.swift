import AlarmBridge
import Campaign
import Foundation
import Reporting

/// The known failures of `alarmsim fuzz` (issue 19 part 4): read before the campaign, replayed
/// first (CampaignRunner), and appended to only with `--record-failures`.
extension FuzzCommand {
    /// The known-failures file as read: its text (kept to append to) and its lines.
    struct KnownFile {
        var text: String
        var failures: [KnownFailure]
    }

    /// Reads and parses ``failuresPath`` when the campaign replays or records known failures.
    /// - Returns: nil when neither is asked, or when the default file does not exist (the
    ///   campaign's output is then what it was before known failures existed); `.unreadable`
    ///   (exit 74) for a `--failures FILE` that does not exist (unless it is to be created by
    ///   `--record-failures`) or cannot be read; `.malformed` (exit 65) with `FILE:LINE:COL: …`.
    func loadKnownFailures() -> Result<KnownFile?, RunCommand.LoadError> {
        guard replaysKnown || recordsFailures else { return .success(nil) }
        guard FileManager.default.fileExists(atPath: failuresPath) else {
            if failuresPathIsExplicit && !recordsFailures {
                return .failure(.unreadable("cannot read known-failures file \(failuresPath): no such file (add --record-failures to create it)"))
            }
            return .success(nil)
        }
        let data: Data
        switch InputFile.read(failuresPath, what: "known-failures file") {
        case .success(let bytes): data = bytes
        case .failure(let error): return .failure(.unreadable(error.message))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            let (line, column) = RunCommand.firstInvalidUTF8(in: data)
            return .failure(.malformed("\(failuresPath):\(line):\(column): the file is not UTF-8 text (an invalid byte sequence starts here)"))
        }
        do {
            return .success(KnownFile(text: text, failures: try KnownFailureFile.parse(text, path: failuresPath)))
        } catch {
            return .failure(.malformed(error.description))
        }
    }

    /// `--record-failures`: appends the repro line of every failing seed of the range that the
    /// file does not hold yet, atomically (the whole file is rewritten beside it and renamed).
    /// - Returns: false (after saying why) when the file cannot be written.
    func record(_ summary: FuzzSummary, in known: KnownFile?, errors: inout some TextOutputStream) -> Bool {
        guard !summary.failing.isEmpty else { return true }
        guard let (text, lines) = KnownFailureFile.appending(summary.failing.map(\.repro), to: known?.text, known: known?.failures ?? []) else {
            errors.write("known failures: every failing seed is in \(failuresPath) already\n")
            return true
        }
        let added = lines.count
        do {
            try AtomicFile.write(text, to: failuresPath)
        } catch {
            errors.write("error: \(error.description); the known failures were not recorded\n")
            return false
        }
        errors.write("known failures: recorded \(added) failing \(added == 1 ? "seed" : "seeds") in \(failuresPath)\n")
        return true
    }

    /// Removes an earlier campaign's shrunk scenarios from the report's `shrunk/`: only files
    /// named as fuzz names them (`ios-17-never-silent.scenario`), then the directory once empty.
    /// False (after saying why) when a removal fails.
    func removeEarlierShrunk(in directory: String, errors: inout some TextOutputStream) -> Bool {
        let files = FileManager.default
        guard let entries = try? files.contentsOfDirectory(atPath: directory) else { return true }
        do {
            for entry in entries.sorted() where Self.isShrunkFileName(entry) {
                try files.removeItem(atPath: directory + "/" + entry)
            }
            if (try? files.contentsOfDirectory(atPath: directory))?.isEmpty == true { try files.removeItem(atPath: directory) }
            return true
        } catch {
            errors.write("error: cannot remove the earlier shrunk scenarios in \(directory): \(error.localizedDescription)\n")
            return false
        }
    }

    /// True for `ios-17-never-silent.scenario`: a file fuzz shrinks a failing seed into.
    static func isShrunkFileName(_ name: String) -> Bool {
        guard name.hasSuffix(".scenario") else { return false }
        let parts = name.dropLast(".scenario".count).split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count == 3 && PlatformFlavor(rawValue: String(parts[0])) != nil && UInt64(parts[1]) != nil
            && !parts[2].isEmpty && parts[2].utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }
}

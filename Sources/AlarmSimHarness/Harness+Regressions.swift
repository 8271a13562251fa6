import AlarmBridge
import Campaign
import Foundation
import Reporting
import Simulation

/// Known failures replayed first (issue 19 part 4, as proptest's `proptest-regressions/` files and
/// Hypothesis's example database do): a failures file next to your tests holds one repro line per
/// failing seed your campaigns found; every campaign replays those lines before its new seeds, so a
/// fix is checked against every seed that ever failed, and a regression shows at once.
///
/// File format (UTF-8; LF or CRLF line ends): one ``HarnessFailure/reproLine`` per line; blank
/// lines and lines starting with `#` are ignored. Every line is checked; a line naming another
/// bridge (`--bridge NAME`), another platform or another defect set is left for that campaign.
/// The CLI's `Scenarios/regressions/failures.txt` holds the built-in bridge's lines in the same
/// form without `--bridge` (the CLI refuses a line that names a bridge).
extension Harness {
    /// ``fuzz(_:platform:seeds:faults:defects:liveness:shrinkBudget:)`` that first replays the known
    /// failures in `regressions` for this bridge, platform and defect set.
    ///
    /// - Parameter regressions: Path of the failures file; a missing file holds no lines.
    /// - Returns: The campaign; ``HarnessCampaign/knownReplayed`` lists the lines replayed, and a
    ///   replayed line that still fails comes first in ``HarnessCampaign/failures`` (once, even when
    ///   its seed is also in `seeds`).
    /// - Throws: ``HarnessError`` with `file:line: what is wrong` for a malformed line, or when the
    ///   file exists but cannot be read.
    public static func fuzz(_ bridge: BridgeFactory, platform: PlatformFlavor, seeds: ClosedRange<UInt64>,
                            faults: FaultSelection = .swarm, defects: [KnownDefect] = [], liveness: Bool = true,
                            shrinkBudget: Int = 300, regressions: String) throws(HarnessError) -> HarnessCampaign {
        let known = try knownFailureLines(regressions, bridge: bridge, platform: platform, defects: defects)
        var replayedFailures: [HarnessFailure] = []
        for line in known {
            if let failure = try replay(line, bridge: bridge) { replayedFailures.append(failure) }
        }
        var campaign = fuzz(bridge, platform: platform, seeds: seeds, faults: faults, defects: defects,
                            liveness: liveness, shrinkBudget: shrinkBudget)
        let replayedLines = replayedFailures.map(\.reproLine)
        campaign.failures = replayedFailures + campaign.failures.filter { !replayedLines.contains($0.reproLine) }
        campaign.knownReplayed = known
        return campaign
    }

    /// ``fuzz(_:platform:seeds:faults:defects:liveness:shrinkBudget:regressions:)`` for a conforming type.
    public static func fuzz<Bridge: BridgeUnderTest>(_ bridge: Bridge.Type, platform: PlatformFlavor, seeds: ClosedRange<UInt64>,
                                                    faults: FaultSelection = .swarm, defects: [KnownDefect] = [],
                                                    liveness: Bool = true, shrinkBudget: Int = 300,
                                                    regressions: String) throws(HarnessError) -> HarnessCampaign {
        try fuzz(BridgeFactory(bridge), platform: platform, seeds: seeds, faults: faults, defects: defects,
                 liveness: liveness, shrinkBudget: shrinkBudget, regressions: regressions)
    }

    /// Appends the repro line of every failure of `campaign` the file does not hold yet (compared
    /// as the runs they name, not as text), so the next campaign replays it first. A new file
    /// starts with a `#` comment saying what it is. The file is written whole to a new file in the
    /// same directory and renamed over it (`AtomicFile`): never left half written, its permission
    /// bits kept.
    ///
    /// - Returns: The lines added, in the campaign's order.
    /// - Throws: ``HarnessError`` when the file cannot be read, holds a malformed line
    ///   (`file:line: what is wrong`), or cannot be written.
    @discardableResult
    public static func recordFailures(_ campaign: HarnessCampaign, to path: String) throws(HarnessError) -> [String] {
        let existing = try readFailuresFile(path)
        let held = try parsedLines(existing ?? "", path: path).map(\.canonical)
        var added: [String] = []
        for line in campaign.failures.map(\.reproLine) where !held.contains(line) && !added.contains(line) { added.append(line) }
        guard !added.isEmpty else { return [] }
        var text = existing ?? "# Known failures: one repro line per failing seed, replayed first by every campaign\n"
            + "# (Harness.fuzz(…, regressions:)). Delete a line once its fix has landed and it replays clean.\n"
        if !text.hasSuffix("\n") { text += "\n" }
        text += added.joined(separator: "\n") + "\n"
        do { try AtomicFile.write(text, to: path) } catch { throw HarnessError("\(path): cannot write: \(error.description)") }
        return added
    }

    /// The repro lines of `path` this bridge, platform and defect set replay, in file order.
    static func knownFailureLines(_ path: String, bridge: BridgeFactory, platform: PlatformFlavor,
                                  defects: [KnownDefect]) throws(HarnessError) -> [String] {
        guard let text = try readFailuresFile(path) else { return [] }
        return try parsedLines(text, path: path).filter { entry in
            entry.bridgeName == bridge.name && entry.options.platform == platform
                && Set(entry.options.defects.map(\.rawValue)) == Set(defects.map(\.rawValue))
        }.map { $0.line }
    }

    /// Every repro line of a failures file's text, checked: the line as written, the bridge it
    /// names, the run it names and that run's own repro line (the canonical form).
    /// - Throws: ``HarnessError`` `path:line: what is wrong` for the first malformed line.
    static func parsedLines(_ text: String, path: String) throws(HarnessError)
        -> [(line: String, bridgeName: String, options: RunOptions, canonical: String)] {
        var entries: [(line: String, bridgeName: String, options: RunOptions, canonical: String)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let words = line.split(separator: " ").map(String.init)
            let named = words.firstIndex(of: "--bridge").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
            let bridgeName = named ?? BridgeFactory.builtIn.name
            // Checked as the built-in bridge's line: the bridge only has to be named.
            let checked = words.enumerated().filter { item in
                guard let at = words.firstIndex(of: "--bridge") else { return true }
                return item.offset != at && item.offset != at + 1
            }.map(\.element).joined(separator: " ")
            let options: RunOptions
            do { options = try ReproLine.parse(checked, bridge: .builtIn) } catch {
                throw HarnessError("\(path):\(index + 1): \(error.message)")
            }
            let canonical = reproLine(options).replacingOccurrences(
                of: "alarmsim replay ", with: bridgeName == BridgeFactory.builtIn.name ? "alarmsim replay " : "alarmsim replay --bridge \(bridgeName) ")
            entries.append((line, bridgeName, options, canonical))
        }
        return entries
    }

    /// The file's text; nil when it does not exist.
    static func readFailuresFile(_ path: String) throws(HarnessError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw HarnessError("\(path): cannot be read as UTF-8 text")
        }
        return text
    }
}

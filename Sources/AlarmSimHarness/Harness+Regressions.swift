import AlarmBridge
import Campaign
import Foundation
import Simulation

/// Known failures replayed first (issue 19 part 4, as proptest's `proptest-regressions/` files and
/// Hypothesis's example database do): a failures file next to your tests holds one repro line per
/// failing seed your campaigns found; every campaign replays those lines before its new seeds, so a
/// fix is checked against every seed that ever failed, and a regression shows at once.
///
/// File format (UTF-8, the CLI's `Scenarios/regressions/failures.txt` is the same): one
/// ``HarnessFailure/reproLine`` per line; blank lines and lines starting with `#` are ignored. A line
/// naming another bridge (`--bridge NAME`) or another platform is left for that campaign.
extension Harness {
    /// ``fuzz(_:platform:seeds:faults:defects:liveness:shrinkBudget:)`` that first replays the known
    /// failures in `regressions` for this bridge and platform.
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
        let known = try knownFailureLines(regressions, bridge: bridge, platform: platform)
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

    /// Appends the repro line of every failure of `campaign` the file does not hold yet, so the
    /// next campaign replays it first. A new file starts with a `#` comment saying what it is. The
    /// file is written whole to a temporary file beside it and moved over it (never left half written).
    ///
    /// - Returns: The lines added, in the campaign's order.
    /// - Throws: ``HarnessError`` when the file cannot be read or written.
    @discardableResult
    public static func recordFailures(_ campaign: HarnessCampaign, to path: String) throws(HarnessError) -> [String] {
        let existing = try readFailuresFile(path)
        let held = existing.map { $0.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        var added: [String] = []
        for line in campaign.failures.map(\.reproLine) where !held.contains(line) && !added.contains(line) { added.append(line) }
        guard !added.isEmpty else { return [] }
        var text = existing ?? "# Known failures: one repro line per failing seed, replayed first by every campaign\n"
            + "# (Harness.fuzz(…, regressions:)). Delete a line once its fix has landed and it replays clean.\n"
        if !text.hasSuffix("\n") { text += "\n" }
        text += added.joined(separator: "\n") + "\n"
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
        do {
            try Data(text.utf8).write(to: temporary)
            if FileManager.default.fileExists(atPath: path) {
                _ = try FileManager.default.replaceItemAt(url, withItemAt: temporary)
            } else {
                try FileManager.default.moveItem(at: temporary, to: url)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw HarnessError("\(path): cannot write: \(error.localizedDescription)")
        }
        return added
    }

    /// The repro lines of `path` this bridge and platform replay, in file order.
    static func knownFailureLines(_ path: String, bridge: BridgeFactory, platform: PlatformFlavor) throws(HarnessError) -> [String] {
        guard let text = try readFailuresFile(path) else { return [] }
        var lines: [String] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let words = line.split(separator: " ").map(String.init)
            let named = words.firstIndex(of: "--bridge").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
            guard (named ?? BridgeFactory.builtIn.name) == bridge.name else { continue }
            let options: RunOptions
            do { options = try ReproLine.parse(line, bridge: bridge) } catch {
                throw HarnessError("\(path):\(index + 1): \(error.message)")
            }
            if options.platform == platform { lines.append(line) }
        }
        return lines
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

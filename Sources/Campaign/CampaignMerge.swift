import AlarmBridge
import Simulation

extension Campaign {
    /// Why summaries cannot be merged; `message` names the files and what differs.
    public struct MergeError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Combines the summaries of a campaign's shards (`fuzz --shard I/N`) into one.
    ///
    /// The merge of every shard of a campaign equals the summary of the unsharded campaign:
    /// tallies are sums (coverage, exemptions by name, sorted), failing seeds are ordered by
    /// platform then seed, and the shard is dropped from the options.
    /// - Parameter parts: Each summary with the file it came from, for messages.
    /// - Throws: ``MergeError`` when there is no summary, when options other than the shard
    ///   differ (platforms, seed range, defects, faults, liveness, time budget), when shard
    ///   counts differ, or when two summaries ran the same seed on a platform.
    public static func merge(_ parts: [(source: String, summary: FuzzSummary)]) throws(MergeError) -> FuzzSummary {
        guard let first = parts.first else { throw MergeError(message: "nothing to merge: name at least one summary.json") }
        var reference = first.summary.options
        reference.shard = nil
        for part in parts.dropFirst() {
            var options = part.summary.options
            options.shard = nil
            if let difference = difference(reference, options) {
                throw MergeError(message: "\(part.source) and \(first.source) are not shards of one campaign: \(difference)")
            }
        }
        let shardCounts = Array(Set(parts.map { $0.summary.options.shard?.count ?? 0 })).sorted()
        guard shardCounts.count == 1 else {
            throw MergeError(message: "the summaries split the campaign differently (shard counts \(shardCounts.map { $0 == 0 ? "unsharded" : String($0) }.joined(separator: ", "))); merge shards of one --shard I/N split")
        }
        var tallies: [PlatformTally] = []
        for (index, platform) in reference.platforms.enumerated() {
            tallies.append(try mergeTallies(parts.map { ($0.source, $0.summary.tallies[index]) }, platform: platform))
        }
        let failing = reference.platforms.flatMap { platform in
            parts.flatMap { $0.summary.failing.filter { $0.platform == platform } }.sorted { $0.seed < $1.seed }
        }
        // Every shard replays the same known failures (a pure function of the file): one replay counts.
        return FuzzSummary(options: reference, tallies: tallies, failing: failing,
                           interrupted: parts.contains { $0.summary.interrupted },
                           known: parts.lazy.compactMap(\.summary.known).first)
    }

    private static func mergeTallies(_ tallies: [(source: String, tally: PlatformTally)],
                                     platform: PlatformFlavor) throws(MergeError) -> PlatformTally {
        var merged = PlatformTally(platform: platform, defects: tallies[0].tally.defects)
        var exemptions = ExemptionTotals()
        var ranges: [(range: ClosedRange<UInt64>, source: String)] = []
        for (source, tally) in tallies {
            merged.seeds += tally.seeds
            merged.failures += tally.failures
            merged.events += tally.events
            exemptions.add(tally.exemptions)
            merged.coverage.add(tally.coverage)
            ranges += tally.seedsRun.map { ($0, source) }
        }
        merged.exemptions = exemptions.sorted
        ranges.sort { $0.range.lowerBound < $1.range.lowerBound }
        for (earlier, later) in zip(ranges, ranges.dropFirst()) where later.range.lowerBound <= earlier.range.upperBound {
            throw MergeError(message: "\(earlier.source) and \(later.source) both ran \(platform.rawValue) seed \(later.range.lowerBound); each seed must come from one shard (the same file twice?)")
        }
        for (range, _) in ranges {
            if let last = merged.seedsRun.last, last.upperBound &+ 1 == range.lowerBound {
                merged.seedsRun[merged.seedsRun.count - 1] = last.lowerBound...range.upperBound
            } else {
                merged.seedsRun.append(range)
            }
        }
        return merged
    }

    /// The first option that differs, in words, or nil when none does.
    private static func difference(_ a: FuzzOptions, _ b: FuzzOptions) -> String? {
        if a.platforms != b.platforms {
            return "platforms \(b.platforms.map(\.rawValue)) vs \(a.platforms.map(\.rawValue))"
        }
        if a.seeds != b.seeds { return "seed ranges \(b.seeds.lowerBound)..\(b.seeds.upperBound) vs \(a.seeds.lowerBound)..\(a.seeds.upperBound)" }
        if a.defects != b.defects {
            return "defects [\(b.defects.map(\.rawValue).joined(separator: " "))] vs [\(a.defects.map(\.rawValue).joined(separator: " "))]"
        }
        if a.faults != b.faults { return "fault selections '\(b.faults)' vs '\(a.faults)'" }
        if a.liveness != b.liveness { return "one ran with --no-liveness, the other without" }
        if a.budgetSeconds != b.budgetSeconds {
            return "time budgets \(b.budgetSeconds.map { "\($0) s" } ?? "none") vs \(a.budgetSeconds.map { "\($0) s" } ?? "none")"
        }
        return nil
    }
}

import AlarmBridge
import Campaign
import Simulation

/// The campaign summary printed on stdout by `alarmsim fuzz`.
///
/// Deterministic: a pure function of the summary, integers only (no timing, no floats), so two
/// runs of the same campaign print the same bytes and can be diffed. Wall-clock rates belong to
/// the CLI's stderr progress.
public enum SummaryFormatter {
    /// The summary text, one item per line, ending with a newline.
    ///
    /// Shape:
    /// ```
    /// ios: 1000 seeds, 1 failing, 1234567 events, exemptions: force-quit=3 mute-switch=1
    /// android: 1000 seeds, 0 failing, 1200000 events, exemptions: none
    /// FAIL ios seed 17: never-silent at 2026-03-03 06:15:12 America/New_York — <message>
    ///   repro: alarmsim replay --platform ios --seed 17
    /// violations: 1
    /// ```
    /// A platform line names its defects (`defects: …`) when the campaign asked for any; a
    /// requested defect that does not apply there shows as `defects: none apply`.
    /// - Returns: Text whose last line is `violations: N`, N being the number of failing seeds.
    /// - Parameter failingListedAbove: true when each failing seed was already printed, as it
    ///   failed, to the same file or terminal (stdout and stderr share it): the summary then counts
    ///   them instead of printing every FAIL and repro line a second time.
    public static func text(_ summary: FuzzSummary, failingListedAbove: Bool = false) -> String {
        var lines: [String] = summary.tallies.map { tallyLine($0, defectsRequested: !summary.options.defects.isEmpty) }
        if statesSeedsRun(summary) {
            lines.append("seeds run: " + summary.tallies.map { "\($0.platform.rawValue) \(rangeList($0.seedsRun))" }.joined(separator: ", "))
        }
        if summary.interrupted {
            lines.append("interrupted: the campaign was stopped (Ctrl-C or SIGTERM) before its end; only the seeds run above count")
        }
        if let known = summary.known {
            // The known failures ran first (KnownFailureFile); only a campaign that read the file says so.
            lines.append(known.line)
            if !failingListedAbove { lines += known.stillFailing.flatMap { failLines($0, prefix: "FAIL known") } }
        }
        if failingListedAbove, !summary.failing.isEmpty {
            lines.append("failing seeds: \(summary.failing.count), each listed above with its repro line as it failed")
        } else {
            lines += summary.failing.flatMap { failLines($0, prefix: "FAIL") }
        }
        lines.append("violations: \(summary.violationCount)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `FAIL ios seed 17: never-silent at … — message` and its `  repro: …` line.
    public static func failLines(_ failing: FailingSeed, prefix: String) -> [String] {
        // When: local wall time in the zone recorded with the violation (none for a crash, or in
        // a summary written before zones were kept).
        let when = failing.signal == nil && failing.violation.zone != nil ? " at \(failing.violation.localTime(fallbackZone: "UTC"))" : ""
        return ["\(prefix) \(failing.platform.rawValue) seed \(failing.seed): \(failing.violation.invariant)\(when) — \(failing.violation.message)",
                "  repro: \(failing.repro)"]
    }

    /// `ios: 1000 seeds, 0 failing, N events[, defects: …], exemptions: a=3 b=1`.
    public static func tallyLine(_ tally: PlatformTally, defectsRequested: Bool) -> String {
        var line = "\(tally.platform.rawValue): \(tally.seeds) \(tally.seeds == 1 ? "seed" : "seeds"), \(tally.failures) failing, \(tally.events) events"
        if defectsRequested {
            let names = tally.defects.map(\.rawValue)
            line += ", defects: " + (names.isEmpty ? "none apply" : names.joined(separator: " "))
        }
        line += ", exemptions: " + exemptionList(tally.exemptions)
        return line
    }

    /// Whether the text needs a `seeds run:` line: when the seeds that ran are not simply the
    /// requested range (a time budget, a shard, an interruption, a merge of only some shards).
    /// A merge of every plain shard covers
    /// the whole range and prints none, exactly like the unsharded campaign.
    public static func statesSeedsRun(_ summary: FuzzSummary) -> Bool {
        summary.interrupted || summary.options.budgetSeconds != nil || summary.options.shard != nil
            || summary.tallies.contains { !$0.seedsRun.isEmpty && $0.seedsRun != [summary.options.seeds] }
    }

    /// `1..250 301..400`, a single seed as `17`, or `none`.
    public static func rangeList(_ ranges: [ClosedRange<UInt64>]) -> String {
        ranges.isEmpty ? "none" : ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)..\($0.upperBound)" }.joined(separator: " ")
    }

    /// `a=3 b=1` in the given order, or `none`.
    public static func exemptionList(_ exemptions: [RunParameter]) -> String {
        exemptions.isEmpty ? "none" : exemptions.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    }
}

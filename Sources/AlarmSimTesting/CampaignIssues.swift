import AlarmSimHarness
import Testing

extension HarnessCampaign {
    /// Records one swift-testing `Issue` per failing seed, `#expect`-style: the message names the
    /// invariant, its rules, the violation and the repro line (and the shrunk scenario when there
    /// is one), so a red test says how to replay itself. Inside `withKnownIssue { … }` the issues
    /// are expected failures.
    ///
    /// - Parameter sourceLocation: Where the issues point; the caller's line by default.
    /// - Returns: The number of issues recorded (failing seeds).
    @discardableResult
    public func recordIssues(sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        for failure in failures {
            Issue.record(Comment(rawValue: HarnessIssueText.message(failure)), sourceLocation: sourceLocation)
        }
        return failures.count
    }
}

extension HarnessScenarioResult {
    /// Records one swift-testing `Issue` per unmet `expect` line of the scenario (none when it passed).
    ///
    /// - Parameter sourceLocation: Where the issues point; the caller's line by default.
    /// - Returns: The number of issues recorded.
    @discardableResult
    public func recordIssues(sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        for failure in failures { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
        return failures.count
    }
}

/// The text of a campaign's issue (``HarnessCampaign/recordIssues(sourceLocation:)``).
public enum HarnessIssueText {
    /// `never-silent (OCC-1) on ios seed 17: MESSAGE` / `repro: alarmsim replay …` / the shrunk scenario.
    ///
    /// - Parameter failure: One failing seed.
    /// - Returns: The issue's message, several lines.
    public static func message(_ failure: HarnessFailure) -> String {
        let rules = failure.violation.rules.isEmpty ? "" : " (\(failure.violation.rules.joined(separator: ", ")))"
        var text = "\(failure.violation.invariant)\(rules) on \(failure.platform.rawValue) seed \(failure.seed): "
            + "\(failure.violation.message)\nrepro: \(failure.reproLine)"
        if let shrunk = failure.shrunkScenario { text += "\nshrunk scenario:\n\(shrunk)" }
        return text
    }
}

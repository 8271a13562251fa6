/// The comment header of a regression scenario written by `alarmsim shrink --regression` (issue
/// 19 part 4), and the status line that marks a known failure that is not fixed yet.
///
/// A marked file ends with `expect violation INVARIANT`: `alarmsim run` passes it while the bug
/// is there and reports it as an expected failure; once the fix lands the violation is gone, the
/// expectation fails, and the file says what to change (classify it, expect no violations, drop
/// the status line).
public enum RegressionHeader {
    /// The line that marks a known failure, not fixed yet.
    public static let knownFailureStatus = "# status: known failure, not fixed"

    /// True when the file's leading comment block (the `#` and blank lines before its first
    /// directive) holds ``knownFailureStatus``.
    public static func marksKnownFailure(_ text: String) -> Bool {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()
            let body = String(trimmed)
            if body.isEmpty { continue }
            guard body.hasPrefix("#") else { return false }
            if body == knownFailureStatus || body.hasPrefix(knownFailureStatus + " ") { return true }
        }
        return false
    }

    /// The header lines (each starting with `#`) for a shrunk scenario committed as a regression.
    /// - Parameters:
    ///   - caught: What it caught, in the user's words.
    ///   - repro: The seed's `alarmsim replay …` line.
    ///   - invariant: The invariant its last line expects to break.
    ///   - defects: The known defects the seed ran with; a regression of a switched-on defect is
    ///     the defect's expected outcome, not a known failure of the bridge.
    public static func lines(caught: String, repro: String, invariant: String, defects: [String]) -> [String] {
        var lines = [
            "# Regression: \(caught)\(caught.last.map { ".!?".contains($0) } == true ? "" : ".")",
            "# Not yet classified: say bridge or oracle and the rule IDs once the cause is known.",
            "# Caught by: \(repro)",
        ]
        if defects.isEmpty {
            lines += [
                knownFailureStatus,
                "#   'alarmsim run' passes this file while \(invariant) still breaks (an expected failure). When the",
                "#   fix lands it fails: classify it above, change its last line to 'expect no violations' and",
                "#   remove this status.",
            ]
        } else {
            lines.append("# status: expected violation: the known defect \(defects.joined(separator: ", ")) is switched on in this file")
        }
        return lines + ["#"]
    }

    /// A file-name slug of `text`: lowercase ASCII letters and digits, other runs as one `-`,
    /// at most `lengthMax` characters, no `-` at either end; empty when `text` has no letter or digit.
    public static func slug(_ text: String, lengthMax: Int = 60) -> String {
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        slug = String(slug.prefix(lengthMax))
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }
}

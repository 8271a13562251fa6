import Foundation

/// Links from the Markdown reports (`summary.md`, `report.md`) to the project's rulebook digest
/// `Docs/rules.md`, one anchor per rule ID (`Docs/rules.md#SCH-9`). Plain-text outputs (stdout,
/// JUnit, the HTML timeline's tooltips) keep the bare IDs.
///
/// Where the link points: a Markdown link is resolved relative to the file that holds it, and a
/// report lands wherever `--report DIR` says — `Reports/latest/` by default, its per-failure
/// reports two levels deeper (`failures/ios-17/`), `replay --report DIR` anywhere. So the writer,
/// which knows the directory, computes the path: it walks up from the report directory to the
/// first ancestor holding `Docs/rules.md` (the repository checkout) and links relatively, e.g.
/// `../../Docs/rules.md` from `Reports/latest/summary.md` and `../../../../Docs/rules.md` from
/// `Reports/latest/failures/ios-17/report.md`, which works in a file browser, an editor's preview
/// and on GitHub alike. A report written outside any checkout (`/tmp/out`) falls back to the
/// repository-root path ``repositoryPath``: not a working link there, but it still names the file
/// a reader opens in the checkout. The formatters default to that path, so their output does not
/// depend on the file system unless a writer passes the computed one.
public enum RulebookLinks {
    /// The rulebook digest, relative to the repository root.
    public static let repositoryPath = "Docs/rules.md"

    /// RULES.md's rule families: only IDs of these become links (`FAMILY-N`).
    static let families: Set<String> = ["ID", "SCH", "CAP", "REC", "OCC", "FG", "INACT", "SNZ", "WALK", "SND", "ACT", "BOOT", "AND", "IOS", "API"]

    /// Whether `text` is one rule ID such as `SCH-9` (and not, say, `DESIGN.md: interleaving`).
    public static func isRuleID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, families.contains(String(parts[0])), !parts[1].isEmpty else { return false }
        return parts[1].utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// `rule` as a Markdown link into `rulebook` (`[SCH-9](../../Docs/rules.md#SCH-9)`), with the
    /// link text in backticks when `code`; anything that is not a rule ID is returned as plain
    /// text (in backticks when `code`).
    public static func markdown(_ rule: String, rulebook: String, code: Bool = false) -> String {
        let text = code ? "`\(rule)`" : rule
        return isRuleID(rule) ? "[\(text)](\(rulebook)#\(rule))" : text
    }

    /// The path of `Docs/rules.md` relative to `directory`, found by walking up from the
    /// directory (made absolute against the current directory, `..` resolved lexically) to the
    /// first ancestor that holds the file. A report outside any checkout (`--report /tmp/out`)
    /// links to the absolute path of the checkout alarmsim runs in (`currentDirectory` holds
    /// `Docs/rules.md`), which a file browser or an editor still opens; ``repositoryPath`` when
    /// neither holds it.
    public static func path(fromDirectory directory: String,
                            currentDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        let start = directory.hasPrefix("/") ? directory : currentDirectory + "/" + directory
        var components: [String] = []
        for part in start.split(separator: "/") where part != "." && !part.isEmpty {
            if part == ".." { _ = components.popLast() } else { components.append(String(part)) }
        }
        for up in 0...components.count {
            let ancestor = "/" + components.dropLast(up).joined(separator: "/")
            let candidate = (ancestor == "/" ? "" : ancestor) + "/" + repositoryPath
            if FileManager.default.fileExists(atPath: candidate) {
                return String(repeating: "../", count: up) + repositoryPath
            }
        }
        let here = (currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/") + repositoryPath
        return currentDirectory.hasPrefix("/") && FileManager.default.fileExists(atPath: here) ? here : repositoryPath
    }
}

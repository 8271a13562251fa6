/// `alarmsim fmt` keeps every comment, as `gofmt` and `swift-format` do: the block at the top of
/// the file (``ScenarioFile/comments``), the comment lines above a directive (they move with
/// it), a comment at the end of a directive's line (written after it, two spaces before `#`),
/// and those after the last directive (kept at the end). Blank lines below the top block go.
extension ScenarioPrinter {
    /// The comments of one source directive line.
    struct LineComments {
        /// Whole comment lines right above the directive (below the top block), trimmed.
        var above: [String] = []
        /// The comment on the directive's own line, from its `#`.
        var trailing: String?
    }

    /// `scenario` (parsed from `source`) in canonical form, with every comment of `source` kept.
    public static func print(_ scenario: ScenarioFile, keepingCommentsOf source: String) -> String {
        let (comments, keywordLines, dangling) = sourceComments(source)
        var nextOfKeyword: [String: Int] = [:]
        var used: Set<Int> = []
        var lines = headerComments(scenario)
        for statement in statements(scenario) {
            // The source line: recorded by the parser, else the next source directive with the same first word.
            var line = statement.sourceLine.flatMap { $0 > 0 ? $0 : nil }
            if line == nil, let candidates = keywordLines[statement.keyword] {
                let index = nextOfKeyword[statement.keyword, default: 0]
                if index < candidates.count { line = candidates[index] }
                nextOfKeyword[statement.keyword] = index + 1
            }
            guard let line, !used.contains(line), let attached = comments[line] else {
                lines.append(statement.text)
                continue
            }
            used.insert(line)  // one source line may give several statements: its comments go once
            lines += attached.above
            lines.append(statement.text + (attached.trailing.map { "  " + $0 } ?? ""))
        }
        // Comments of a line no statement came from (none in a file that parsed) are not lost.
        for line in comments.keys.sorted() where !used.contains(line) {
            let attached = comments[line]!
            lines += attached.above + (attached.trailing.map { [$0] } ?? [])
        }
        return (lines + dangling).joined(separator: "\n") + "\n"
    }

    /// Per 1-based directive line: its comments; per first word: its directive lines in order;
    /// and the comment lines after the last directive. The top block (before the first
    /// directive) is the parser's (``ScenarioFile/comments``).
    static func sourceComments(_ source: String) -> (comments: [Int: LineComments], keywordLines: [String: [Int]], dangling: [String]) {
        var comments: [Int: LineComments] = [:]
        var keywordLines: [String: [Int]] = [:]
        var pending: [String] = []
        var seenDirective = false
        for (index, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                if seenDirective { pending.append(String(trimmed).trimmingTrailingBlanks()) }
                continue
            }
            seenDirective = true
            let keyword = String(trimmed.prefix { $0 != " " && $0 != "\t" })
            keywordLines[keyword, default: []].append(index + 1)
            let trailing = commentStart(in: line).map { String(line[$0...]).trimmingTrailingBlanks() }
            if !pending.isEmpty || trailing != nil {
                comments[index + 1] = LineComments(above: pending, trailing: trailing)
            }
            pending = []
        }
        return (comments, keywordLines, pending)
    }

    /// Where a comment starts on a directive line: the first `#` outside a quoted string.
    static func commentStart(in line: Substring) -> Substring.Index? {
        var quoted = false, escaped = false
        for index in line.indices {
            let character = line[index]
            if escaped { escaped = false; continue }
            if character == "\\" && quoted { escaped = true; continue }
            if character == "\"" { quoted.toggle() }
            if character == "#" && !quoted { return index }
        }
        return nil
    }
}

private extension String {
    func trimmingTrailingBlanks() -> String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}

import SimKernel

/// Text from a run (alarm titles, messages, trace fields) made safe for a Markdown report.
///
/// A title is user input: `"><img src=x onerror=…>` must show as text, not become HTML, and a
/// NUL or ESC must not reach the terminal that `cat`s the report. CommonMark treats `<…>` as raw
/// HTML and `\`, `` ` ``, `*`, `_`, `[`, `]`, `|`, `#` as syntax; each is escaped, control
/// characters become their Unicode control pictures (NUL → ␀, ESC → ␛), and line breaks a space.
public enum MarkdownText {
    /// `text` as inline Markdown (a list item, a paragraph, a table cell): one line, no markup.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\\", "`", "*", "_", "[", "]", "|", "#":
                out += "\\"
                out.unicodeScalars.append(scalar)
            case "\n", "\r", "\u{2028}", "\u{2029}": out += " "
            default: out += visible(scalar)
            }
        }
        return out
    }

    /// `text` for a fenced code block: markup is inert there, but control characters are not.
    public static func codeLine(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" { out += " " } else { out += visible(scalar) }
        }
        return out
    }

    /// A control character as its Unicode control picture (``TerminalText/picture(_:)``; a tab
    /// as a space), and the noncharacters U+FFFE, U+FFFF as U+FFFD.
    static func visible(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x09: return " "
        case 0x00..<0x20, 0x7F, 0x80...0x9F: return String(TerminalText.picture(scalar))
        case 0xFFFE, 0xFFFF: return "\u{FFFD}"
        default: return String(scalar)
        }
    }
}

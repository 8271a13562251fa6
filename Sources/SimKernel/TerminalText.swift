/// Text echoed back to a terminal (an error message quoting a file's bytes or an argument) with
/// its control characters made visible: a NUL or an ESC from a malformed scenario or a pasted
/// argument must not reach the terminal as a control sequence. C0 controls become their Unicode
/// control pictures (NUL → ␀, ESC → ␛), DEL → ␡, C1 controls → U+FFFD; a tab stays a tab
/// and line breaks stay line breaks (a message may span lines).
public enum TerminalText {
    /// `text` with every control character other than tab and line feed made visible.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            out.append(isControl(scalar) ? picture(scalar) : scalar)
        }
        return String(out)
    }

    /// A control character's visible stand-in: its Unicode control picture for C0 (U+2400
    /// block), ␡ for DEL, U+FFFD for C1 (which has no pictures). Shared with the Markdown
    /// escaper (`MarkdownText`), so a report and a terminal show the same symbol.
    public static func picture(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x00..<0x20: return Unicode.Scalar(0x2400 + scalar.value)!
        case 0x7F: return "\u{2421}"
        default: return "\u{FFFD}"
        }
    }

    /// At most `limit` characters of `text`: a message that quotes a 3 MB token shows its start
    /// and says it was cut, instead of echoing the whole input back.
    public static func bounded(_ text: String, limit: Int = 2_000) -> String {
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (cut at \(limit) characters)"
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: return false
        case 0x00..<0x20, 0x7F, 0x80...0x9F: return true
        default: return false
        }
    }
}

/// Locating the first invalid UTF-8 byte of an input file in one pass (linear in the file's
/// size, whatever its line lengths), for the `file:line:col` of a malformed-file message.
///
/// Well-formed UTF-8 is RFC 3629's (Unicode 15, table 3-7 "Well-Formed UTF-8 Byte Sequences"):
/// no overlong forms (`C0`, `C1`, `E0 80..9F`, `F0 80..8F`), no surrogates (`ED A0..BF`),
/// nothing above U+10FFFF (`F4 90..`, `F5..FF`), no lone or missing continuation bytes — exactly
/// what Swift's `String(validating:as:)` accepts (`UTF8ScanTests` checks the two agree).
enum UTF8Scan {
    /// The 1-based line (lines end at LF) and column (Unicode scalars before the bad byte on that
    /// line, plus one) of the first byte that does not begin or continue a well-formed sequence;
    /// nil when all of `bytes` is well-formed.
    static func firstInvalid(in bytes: [UInt8]) -> (line: Int, column: Int)? {
        var line = 1
        var column = 1
        var index = 0
        while index < bytes.count {
            guard let length = sequenceLength(bytes, at: index) else { return (line, column) }
            if bytes[index] == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        return nil
    }

    /// The length (1–4) of the well-formed sequence starting at `index`, or nil.
    static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int? {
        let lead = bytes[index]
        let second: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (second, length) = (0x80...0xBF, 2)
        case 0xE0: (second, length) = (0xA0...0xBF, 3)
        case 0xE1...0xEC, 0xEE...0xEF: (second, length) = (0x80...0xBF, 3)
        case 0xED: (second, length) = (0x80...0x9F, 3)
        case 0xF0: (second, length) = (0x90...0xBF, 4)
        case 0xF1...0xF3: (second, length) = (0x80...0xBF, 4)
        case 0xF4: (second, length) = (0x80...0x8F, 4)
        default: return nil
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
        return length
    }
}

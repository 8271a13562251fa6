// A small JSON (RFC 8259) reader for one line of a JSON Lines file, keeping the 1-based column
// (in Unicode scalars, like scenario files) of every value and key, and the key order of objects,
// so that a bridge journal's errors point at `file:line:col`. Foundation's JSONSerialization
// gives neither positions nor key order.

/// One JSON value with where it starts.
public struct JSONValue: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case object([JSONMember])
        case array([JSONValue])
        case string(String)
        /// A number as written (`-12`, `3.5e2`); `integer` reads it.
        case number(String)
        case bool(Bool)
        case null
    }

    public var kind: Kind
    /// 1-based column of the value's first character.
    public var column: Int

    /// The value as a 64-bit integer, when it is a number written without fraction or exponent.
    public var integer: Int64? {
        guard case .number(let text) = kind, !text.contains("."), !text.contains("e"), !text.contains("E") else { return nil }
        return Int64(text)
    }

    /// The value as a string, when it is one.
    public var string: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    /// What kind of value it is, for error messages: `a string`, `a number`, ….
    public var kindName: String {
        switch kind {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}

/// One `"key": value` of an object.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    /// 1-based column of the key's opening quote.
    public var keyColumn: Int
    public var value: JSONValue
}

/// A JSON syntax error: the 1-based column and what is wrong.
public struct JSONLineError: Error, Sendable, Equatable {
    public var column: Int
    public var message: String
}

/// Parses one line of JSON.
public enum JSONLine {
    /// Nesting deeper than this is refused (a journal needs 3), so no input can exhaust the stack.
    public static let depthMax = 16

    /// Parses `line` (no line break inside) as exactly one JSON value, surrounded by optional
    /// whitespace.
    ///
    /// - Throws: `JSONLineError` at the first offending character.
    /// - Complexity: O(n) in the line's length.
    public static func parse(_ line: String) throws(JSONLineError) -> JSONValue {
        var reader = Reader(scalars: Array(line.unicodeScalars))
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        if reader.index < reader.scalars.count {
            throw JSONLineError(column: reader.index + 1, message: "unexpected '\(reader.scalars[reader.index])' after the JSON value; one object per line")
        }
        return value
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        mutating func skipSpace() {
            while index < scalars.count, [" ", "\t"].contains(scalars[index]) { index += 1 }
        }

        func fail(_ message: String, at position: Int? = nil) -> JSONLineError {
            JSONLineError(column: (position ?? index) + 1, message: message)
        }

        var current: String {
            index < scalars.count ? "'\(scalars[index])'" : "the end of the line"
        }

        mutating func value(depth: Int) throws(JSONLineError) -> JSONValue {
            guard index < scalars.count else { throw fail("expected a JSON value, found the end of the line") }
            let column = index + 1
            switch scalars[index] {
            case "{":
                guard depth < JSONLine.depthMax else { throw fail("JSON nested deeper than \(JSONLine.depthMax) levels") }
                return JSONValue(kind: .object(try object(depth: depth)), column: column)
            case "[":
                guard depth < JSONLine.depthMax else { throw fail("JSON nested deeper than \(JSONLine.depthMax) levels") }
                return JSONValue(kind: .array(try array(depth: depth)), column: column)
            case "\"":
                return JSONValue(kind: .string(try string()), column: column)
            case "-", "0"..."9":
                return JSONValue(kind: .number(try number()), column: column)
            default:
                for (word, kind) in [("true", JSONValue.Kind.bool(true)), ("false", .bool(false)), ("null", .null)] {
                    let end = index + word.unicodeScalars.count
                    if end <= scalars.count, String(String.UnicodeScalarView(scalars[index..<end])) == word {
                        index = end
                        return JSONValue(kind: kind, column: column)
                    }
                }
                throw fail("expected a JSON value (object, array, string, number, true, false or null), found \(current)")
            }
        }

        mutating func object(depth: Int) throws(JSONLineError) -> [JSONMember] {
            index += 1  // {
            var members: [JSONMember] = []
            skipSpace()
            if index < scalars.count, scalars[index] == "}" {
                index += 1
                return members
            }
            while true {
                skipSpace()
                guard index < scalars.count, scalars[index] == "\"" else { throw fail("expected a quoted key, found \(current)") }
                let keyColumn = index + 1
                let key = try string()
                if members.contains(where: { $0.key == key }) {
                    throw fail("duplicate key \"\(key)\"", at: keyColumn - 1)
                }
                skipSpace()
                guard index < scalars.count, scalars[index] == ":" else { throw fail("expected ':' after the key, found \(current)") }
                index += 1
                skipSpace()
                let value = try value(depth: depth + 1)
                members.append(JSONMember(key: key, keyColumn: keyColumn, value: value))
                skipSpace()
                guard index < scalars.count else { throw fail("unterminated object: expected ',' or '}', found the end of the line") }
                if scalars[index] == "," { index += 1; continue }
                if scalars[index] == "}" { index += 1; return members }
                throw fail("expected ',' or '}' in the object, found \(current)")
            }
        }

        mutating func array(depth: Int) throws(JSONLineError) -> [JSONValue] {
            index += 1  // [
            var elements: [JSONValue] = []
            skipSpace()
            if index < scalars.count, scalars[index] == "]" {
                index += 1
                return elements
            }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                guard index < scalars.count else { throw fail("unterminated array: expected ',' or ']', found the end of the line") }
                if scalars[index] == "," { index += 1; continue }
                if scalars[index] == "]" { index += 1; return elements }
                throw fail("expected ',' or ']' in the array, found \(current)")
            }
        }

        mutating func string() throws(JSONLineError) -> String {
            let opening = index
            index += 1
            var text = String.UnicodeScalarView()
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "\"" {
                    index += 1
                    return String(text)
                }
                if scalar.value < 0x20 {
                    throw fail("control character U+\(String(scalar.value, radix: 16, uppercase: true)) inside a string; escape it")
                }
                if scalar == "\\" {
                    guard index + 1 < scalars.count else { break }
                    let escaped = scalars[index + 1]
                    index += 2
                    switch escaped {
                    case "\"": text.append("\"")
                    case "\\": text.append("\\")
                    case "/": text.append("/")
                    case "b": text.append("\u{8}")
                    case "f": text.append("\u{C}")
                    case "n": text.append("\n")
                    case "r": text.append("\r")
                    case "t": text.append("\t")
                    case "u":
                        var code = try hex4()
                        if (0xD800...0xDBFF).contains(code) {
                            guard index + 1 < scalars.count, scalars[index] == "\\", scalars[index + 1] == "u" else {
                                throw fail("a high surrogate \\u escape must be followed by a low one", at: index - 6)
                            }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw fail("expected a low surrogate \\u escape", at: index - 6) }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let decoded = Unicode.Scalar(code) else { throw fail("a lone low surrogate \\u escape", at: index - 6) }
                        text.append(decoded)
                    default:
                        throw fail("unknown escape '\\\(escaped)' in a string", at: index - 2)
                    }
                    continue
                }
                text.append(scalar)
                index += 1
            }
            throw fail("unterminated string; close it with \" on the same line", at: opening)
        }

        mutating func hex4() throws(JSONLineError) -> UInt32 {
            guard index + 4 <= scalars.count else { throw fail("a \\u escape needs four hex digits") }
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard "0123456789abcdefABCDEF".unicodeScalars.contains(scalars[index]),
                      let digit = UInt32(String(scalars[index]), radix: 16) else {
                    throw fail("a \\u escape needs four hex digits, found \(current)")
                }
                code = code * 16 + digit
                index += 1
            }
            return code
        }

        mutating func number() throws(JSONLineError) -> String {
            let start = index
            if scalars[index] == "-" { index += 1 }
            func digits() -> Int {
                let from = index
                while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
                return index - from
            }
            let integerStart = index
            let integerDigits = digits()
            guard integerDigits > 0 else { throw fail("expected a digit in the number, found \(current)") }
            if integerDigits > 1, scalars[integerStart] == "0" { throw fail("a number may not have a leading zero", at: integerStart) }
            if index < scalars.count, scalars[index] == "." {
                index += 1
                guard digits() > 0 else { throw fail("expected a digit after the decimal point, found \(current)") }
            }
            if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
                index += 1
                if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
                guard digits() > 0 else { throw fail("expected a digit in the exponent, found \(current)") }
            }
            return String(String.UnicodeScalarView(scalars[start..<index]))
        }
    }
}

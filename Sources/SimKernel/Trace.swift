/// One `key=value` detail of a ``TraceEvent``.
public struct TraceField: Sendable, Equatable {
    /// The field's name, for example `"alarmId"`.
    public let key: String
    /// The field's value, already formatted as text (integers, never floats).
    public let value: String

    /// Creates the field `key=value`.
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// One recorded step of a run: what happened, where, and at which of the three clock readings.
public struct TraceEvent: Sendable, Equatable {
    /// The event's position in the whole run, starting at 0; counts events no longer kept.
    public let index: Int
    /// True time, in milliseconds since the Unix epoch.
    public let trueMs: Int64
    /// The device's wall-clock reading, in milliseconds since the Unix epoch.
    public let wallMs: Int64
    /// Milliseconds since the device last booted.
    public let monotonicMs: Int64
    /// The part of the system that emitted the event, for example `"bridge"` or `"ios.daemon"`.
    public let component: String
    /// What happened, for example `"alarmFired"`.
    public let name: String
    /// Details, in the order the emitter gave them; keys are unique.
    public let fields: [TraceField]

    /// Creates a trace event.
    ///
    /// - Parameter fields: Details in emission order; keys must be unique, because the JSON
    ///   form is an object and a duplicate name would be silently dropped by most readers.
    public init(
        index: Int, trueMs: Int64, wallMs: Int64, monotonicMs: Int64,
        component: String, name: String, fields: [TraceField]
    ) {
        precondition(index >= 0, "TraceEvent: index must not be negative (got \(index))")
        for (position, field) in fields.enumerated() {
            precondition(!fields[..<position].contains { $0.key == field.key },
                         "TraceEvent \(component).\(name): duplicate field key \"\(field.key)\"")
        }
        self.index = index
        self.trueMs = trueMs
        self.wallMs = wallMs
        self.monotonicMs = monotonicMs
        self.component = component
        self.name = name
        self.fields = fields
    }

    /// The event as one line of text, the unit the trace hash is computed over.
    ///
    /// Format: `index trueMs wallMs monotonicMs component name key=value key=value …`, separated
    /// by single spaces, no trailing newline. In `component`, `name`, keys and values, every
    /// byte of a space, `=`, `%`, C0/C1 control character, DEL, U+2028 or U+2029 is written as
    /// `%XX` (uppercase hex), so a line never contains a separator or a line break it did not
    /// put there: splitting on spaces, then each field at its first `=`, recovers every string.
    /// Other text, including non-ASCII letters, is kept as its exact UTF-8 bytes.
    public var canonicalLine: String {
        var line = "\(index) \(trueMs) \(wallMs) \(monotonicMs) "
        line += Self.canonicalEscaped(component)
        line += " "
        line += Self.canonicalEscaped(name)
        for field in fields {
            line += " "
            line += Self.canonicalEscaped(field.key)
            line += "="
            line += Self.canonicalEscaped(field.value)
        }
        return line
    }

    /// The event as one JSON object on one line (RFC 8259), for tools outside the simulator.
    ///
    /// Keys in fixed order: `index`, `trueMs`, `wallMs`, `monotonicMs`, `component`, `event`
    /// (the ``name``), `fields` (an object, keys in emission order). Strings escape `"` and `\`
    /// with a backslash and every control character U+0000–U+001F as `\u00xx` (lowercase hex);
    /// everything else is literal UTF-8. No Foundation, so the bytes never depend on a
    /// platform's `JSONEncoder` key ordering or number formatting.
    public var jsonLine: String {
        var json = "{\"index\":\(index),\"trueMs\":\(trueMs),\"wallMs\":\(wallMs),\"monotonicMs\":\(monotonicMs)"
        json += ",\"component\":"
        json += JSONText.quoted(component)
        json += ",\"event\":"
        json += JSONText.quoted(name)
        json += ",\"fields\":{"
        for (position, field) in fields.enumerated() {
            if position > 0 { json += "," }
            json += JSONText.quoted(field.key)
            json += ":"
            json += JSONText.quoted(field.value)
        }
        json += "}}"
        return json
    }

    /// Folds ``canonicalLine``'s UTF-8 bytes into a running FNV-1a state without building the
    /// line: the same value as `FNV1a.hash(canonicalLine, into: state)`, without the string
    /// allocations (the trace hash is computed for every event of every run).
    ///
    /// - Parameter state: The state to continue from.
    /// - Returns: The state after the line's last byte (no newline).
    /// - Complexity: O(length of the line), no allocation.
    public func canonicalLineHash(into state: UInt64) -> UInt64 {
        var hash = state
        Self.hashDecimal(Int64(index), into: &hash)
        Self.hashByte(UInt8(ascii: " "), into: &hash)
        Self.hashDecimal(trueMs, into: &hash)
        Self.hashByte(UInt8(ascii: " "), into: &hash)
        Self.hashDecimal(wallMs, into: &hash)
        Self.hashByte(UInt8(ascii: " "), into: &hash)
        Self.hashDecimal(monotonicMs, into: &hash)
        Self.hashByte(UInt8(ascii: " "), into: &hash)
        Self.hashEscaped(component, into: &hash)
        Self.hashByte(UInt8(ascii: " "), into: &hash)
        Self.hashEscaped(name, into: &hash)
        for field in fields {
            Self.hashByte(UInt8(ascii: " "), into: &hash)
            Self.hashEscaped(field.key, into: &hash)
            Self.hashByte(UInt8(ascii: "="), into: &hash)
            Self.hashEscaped(field.value, into: &hash)
        }
        return hash
    }

    @inline(__always)
    private static func hashByte(_ byte: UInt8, into hash: inout UInt64) {
        hash = (hash ^ UInt64(byte)) &* FNV1a.prime
    }

    /// The decimal digits of `value` as `String(value)` writes them (a `-` first when negative).
    private static func hashDecimal(_ value: Int64, into hash: inout UInt64) {
        if value < 0 { hashByte(UInt8(ascii: "-"), into: &hash) }
        var magnitude = value.magnitude
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            hashByte(UInt8(ascii: "0") + UInt8(magnitude / divisor), into: &hash)
            magnitude %= divisor
            divisor /= 10
        }
    }

    /// The bytes of `canonicalEscaped(text)`, read from `text`'s UTF-8 directly: the scalars
    /// ``needsCanonicalEscape(_:)`` names are, in UTF-8, the ASCII bytes 0x00–0x20, `%`, `=`,
    /// 0x7F; C1 controls (`C2 80`–`C2 9F`); U+2028 and U+2029 (`E2 80 A8`, `E2 80 A9`). Lead
    /// bytes `C2` and `E2` never occur inside another scalar, so matching them is exact.
    private static func hashEscaped(_ text: String, into hash: inout UInt64) {
        var text = text
        text.withUTF8 { bytes in
            var position = 0
            let count = bytes.count
            while position < count {
                let byte = bytes[position]
                var escapedLength = 0
                if byte < 0x80 {
                    if byte <= 0x20 || byte == 0x7F || byte == 0x25 || byte == 0x3D { escapedLength = 1 }
                } else if byte == 0xC2, position + 1 < count, (0x80...0x9F).contains(bytes[position + 1]) {
                    escapedLength = 2
                } else if byte == 0xE2, position + 2 < count, bytes[position + 1] == 0x80,
                          bytes[position + 2] == 0xA8 || bytes[position + 2] == 0xA9 {
                    escapedLength = 3
                }
                guard escapedLength > 0 else {
                    hashByte(byte, into: &hash)
                    position += 1
                    continue
                }
                for offset in 0..<escapedLength {
                    let escaped = bytes[position + offset]
                    hashByte(UInt8(ascii: "%"), into: &hash)
                    hashByte(upperHexBytes[Int(escaped >> 4)], into: &hash)
                    hashByte(upperHexBytes[Int(escaped & 0x0F)], into: &hash)
                }
                position += escapedLength
            }
        }
    }

    private static let upperHexBytes: [UInt8] = Array("0123456789ABCDEF".utf8)
    private static let upperHexDigits: [Character] = Array("0123456789ABCDEF")

    private static func needsCanonicalEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x20, 0x7F...0x9F, 0x2028, 0x2029: true  // controls, space, DEL, C1, line/paragraph separators
        case 0x25, 0x3D: true  // "%" (the escape itself) and "="
        default: false
        }
    }

    private static func canonicalEscaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsCanonicalEscape) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            guard needsCanonicalEscape(scalar) else {
                escaped.unicodeScalars.append(scalar)
                continue
            }
            for byte in String(scalar).utf8 {
                escaped.append("%")
                escaped.append(upperHexDigits[Int(byte >> 4)])
                escaped.append(upperHexDigits[Int(byte & 0x0F)])
            }
        }
        return escaped
    }

}

/// The record of a run: every event's canonical line folded into a running hash, and the
/// events themselves (all of them, or the last few).
///
/// The hash is what makes replays checkable: the same seed must give the same ``hashHex``
/// in two processes and on two machines.
public struct Trace: Sendable {
    /// How many events are kept: `nil` keeps all (replay mode); `n` keeps the last `n` (fuzz mode);
    /// 0 for a counting-only trace.
    public let keepLast: Int?
    /// False for a counting-only trace (``countingOnly()``): events are counted, never built,
    /// kept or hashed. A fuzz campaign's seeds run so, since a campaign reads only their
    /// verdicts and re-runs a failing seed for its report.
    public let isRecording: Bool
    /// How many events have been recorded in total, kept or not.
    public private(set) var count: Int = 0
    /// FNV-1a 64 over `canonicalLine + "\n"` of every event recorded so far, kept or not.
    public private(set) var hash: UInt64 = FNV1a.offsetBasis

    /// The kept events; when full in ring mode, `ringStorage[nextRingSlot]` is the oldest.
    private var ringStorage: [TraceEvent] = []
    private var nextRingSlot = 0

    /// Creates an empty trace.
    ///
    /// - Parameter keepLast: `nil` to keep every event, or the number of most recent events to
    ///   keep (must be greater than zero). The hash covers every event either way.
    public init(keepLast: Int?) {
        self.isRecording = true
        if let keepLast {
            precondition(keepLast > 0, "Trace(keepLast:) must keep at least one event (got \(keepLast))")
            ringStorage.reserveCapacity(keepLast)
        }
        self.keepLast = keepLast
    }

    /// A trace that only counts events: ``record(component:name:fields:trueMs:wallMs:monotonicMs:)``
    /// and ``skip()`` advance ``count``; ``hash`` stays the FNV-1a offset basis and no event is kept.
    public static func countingOnly() -> Trace { Trace(counting: ()) }

    private init(counting: Void) {
        self.isRecording = false
        self.keepLast = 0
    }

    /// Counts an event a counting-only trace does not build (its caller checked ``isRecording``).
    public mutating func skip() {
        assert(!isRecording, "Trace.skip() on a recording trace: the event's line would be missing from the hash")
        count += 1
    }

    /// Records the next event, stamping it with index ``count``; a counting-only trace only counts it.
    ///
    /// - Parameter fields: Details in emission order; keys must be unique.
    /// - Complexity: O(length of the event's canonical line), amortised; the line itself is
    ///   never built (``TraceEvent/canonicalLineHash(into:)``), only hashed.
    public mutating func record(
        component: String, name: String, fields: [TraceField],
        trueMs: Int64, wallMs: Int64, monotonicMs: Int64
    ) {
        guard isRecording else { count += 1; return }
        let event = TraceEvent(
            index: count, trueMs: trueMs, wallMs: wallMs, monotonicMs: monotonicMs,
            component: component, name: name, fields: fields)
        let previousHash = hash
        hash = event.canonicalLineHash(into: hash)
        hash = FNV1a.hash(CollectionOfOne(UInt8(ascii: "\n")), into: hash)
        assert(hash == FNV1a.hash(event.canonicalLine + "\n", into: previousHash), "canonicalLineHash disagrees with canonicalLine")
        count += 1
        if let keepLast, ringStorage.count == keepLast {
            ringStorage[nextRingSlot] = event
            nextRingSlot = (nextRingSlot + 1) % keepLast
        } else {
            ringStorage.append(event)
        }
        assert(ringStorage.count <= (keepLast ?? .max), "trace ring grew past keepLast")
        assert(ringStorage.count == min(count, keepLast ?? .max), "trace kept the wrong number of events")
    }

    /// ``hash`` as 16 lowercase hexadecimal digits, zero-padded.
    public var hashHex: String {
        let digits = String(hash, radix: 16, uppercase: false)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The kept events, oldest first.
    ///
    /// - Complexity: O(number of kept events).
    public var events: [TraceEvent] {
        guard nextRingSlot > 0 else { return ringStorage }
        return Array(ringStorage[nextRingSlot...] + ringStorage[..<nextRingSlot])
    }
}

/// JSON string quoting shared by every JSON writer (trace lines, trace headers, reports):
/// `"` and `\` escaped with a backslash, U+0000–U+001F as `\u00xx` (lowercase hex), everything
/// else literal UTF-8 (RFC 8259 §7). Hand-written so output is byte-stable across platforms.
public enum JSONText {
    private static let lowerHexDigits: [Character] = Array("0123456789abcdef")

    public static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: quoted += "\\\""
            case 0x5C: quoted += "\\\\"
            case 0x00...0x1F:
                quoted += "\\u00"
                quoted.append(lowerHexDigits[Int(scalar.value >> 4)])
                quoted.append(lowerHexDigits[Int(scalar.value & 0x0F)])
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        quoted += "\""
        return quoted
    }
}

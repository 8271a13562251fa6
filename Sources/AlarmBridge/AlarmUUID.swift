/// A 128-bit identifier for alarms and rings, as in RFC 4122; derived deterministically
/// (version 5) rather than drawn at random, so traces replay byte for byte.
///
/// Deliberately not Foundation's `UUID`: its initialiser draws at random, banned in the simulation,
/// and the bridge core must build without Foundation.
public struct AlarmUUID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Bytes 0–7 and 8–15, each read big-endian: the identifier held inline, so copying, comparing
    /// and hashing one allocates nothing and counts no references (issue 20: the identifier was a
    /// heap array, hashed byte by byte). Big-endian halves order as the bytes do.
    fileprivate let high: UInt64
    fileprivate let low: UInt64

    /// The 16 bytes in network (big-endian) order, as printed.
    public var bytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index)))
        }
        return bytes
    }

    /// Byte `index` (0–15) in network order.
    @inline(__always)
    func byte(_ index: Int) -> UInt8 {
        index < 8 ? UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
            : UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index - 8)))
    }

    /// Creates an identifier from its 16 bytes.
    ///
    /// - Parameter bytes: Exactly 16 bytes, network order.
    public init(bytes: [UInt8]) {
        precondition(bytes.count == 16, "AlarmUUID needs exactly 16 bytes (got \(bytes.count))")
        var high: UInt64 = 0, low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(bytes[index])
            low = low << 8 | UInt64(bytes[8 + index])
        }
        self.high = high
        self.low = low
    }

    /// A cheap hash for tables that are only looked up, never iterated (``RingIDTable``, issue 20):
    /// the ID's own bits mixed by multiplication (a v5 ID is SHA-1 output, a legacy one any 128
    /// bits); use its high bits.
    var tableHash: UInt64 {
        (high &* 0x9E37_79B9_7F4A_7C15 ^ low) &* 0xBF58_476D_1CE4_E5B9
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }

    /// What `Set` and `Dictionary` hash an ID by: its own bits and the table's seed through
    /// SplitMix64's finaliser (Steele, Lea, Flood 2014), every output bit depending on every
    /// input bit, instead of SipHash over 16 bytes (issue 20: the oracle looks ring IDs up in
    /// its bindings after every event). Stable within a process, like the standard hash; the
    /// simulator never lets a table's order reach behaviour or output, so no trace changes.
    /// (`Hashable`'s `_rawHashValue(seed:)` requirement, which the standard integer types also
    /// implement; a composite key that contains an ID still hashes it through `hash(into:)`.)
    public func _rawHashValue(seed: Int) -> Int {
        var mixed = (high &* 0x9E37_79B9_7F4A_7C15) ^ low ^ UInt64(truncatingIfNeeded: seed)
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 31))
    }

    /// Parses the canonical `8-4-4-4-12` hexadecimal form, in either case.
    ///
    /// - Parameter string: For example `"6ba7b810-9dad-11d1-80b4-00c04fd430c8"`.
    /// - Returns: `nil` unless `string` is exactly 36 characters with hyphens at offsets
    ///   8, 13, 18 and 23 and hexadecimal digits everywhere else (no braces, no `urn:uuid:`).
    public init?(string: String) {
        let characters = Array(string.utf8)
        guard characters.count == 36 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var position = 0
        while position < 36 {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard characters[position] == UInt8(ascii: "-") else { return nil }
                position += 1
                continue
            }
            guard let high = Self.hexValue(characters[position]),
                  let low = Self.hexValue(characters[position + 1]) else { return nil }
            bytes.append(high << 4 | low)
            position += 2
        }
        self.init(bytes: bytes)
    }

    /// The lowercase canonical form, for example `"2ed6657d-e927-568b-95e1-2665a8aea6a2"`.
    ///
    /// Built as 36 ASCII bytes in one buffer: trace fields print ring IDs for most events.
    public var description: String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            var position = 0
            for index in 0..<16 {
                let byte = self.byte(index)
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                buffer[position] = Self.lowerHexDigit(byte >> 4)
                buffer[position + 1] = Self.lowerHexDigit(byte & 0x0F)
                position += 2
            }
            return position
        }
    }

    /// The ASCII lowercase hex digit of a nibble (0–15), computed: a table read went through
    /// the static's lazy initialiser for every digit (issue 20).
    @inline(__always)
    private static func lowerHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
    }

    /// The version number in the high nibble of byte 6 (5 for ``v5(namespace:name:)``).
    public var version: Int { Int(byte(6) >> 4) }

    /// Whether the variant bits (top two bits of byte 8) are `10`, the RFC 4122 layout.
    public var isRFC4122Variant: Bool { byte(8) & 0xC0 == 0x80 }

    /// The name-based identifier of `name` within `namespace` (RFC 4122 §4.3, SHA-1, version 5).
    ///
    /// The first 16 bytes of SHA-1(namespace bytes ‖ UTF-8 of `name`), with the version nibble
    /// set to 5 and the variant bits to `10`. Same inputs, same identifier, on every platform;
    /// matches Python's `uuid.uuid5` and Java/Kotlin implementations of RFC 4122.
    ///
    /// - Parameter namespace: The namespace identifier, for example ``dnsNamespace``.
    /// - Parameter name: The name, hashed as its exact UTF-8 bytes (no normalisation).
    /// - Returns: A version-5, RFC 4122-variant identifier.
    public static func v5(namespace: AlarmUUID, name: String) -> AlarmUUID {
        v5Memo.value(for: V5Key(namespace: namespace, name: ExactText(name))) { computeV5(namespace: namespace, name: name) }
    }

    private struct V5Key: MixedHashKey, Sendable {
        var namespace: AlarmUUID
        var name: ExactText  // the bytes SHA-1 reads: "é" precomposed and decomposed are two names

        /// The name's bytes and the namespace's halves mixed in turn (``ExactText/mix(_:)``).
        func mixedHash(seed: UInt64) -> UInt64 {
            let hash = ExactText.mix(ExactText.bytesHash(name.text, seed: seed) ^ namespace.high)
            return ExactText.mix(hash ^ namespace.low)
        }
    }

    /// Ring IDs are derived again on every reconcile (issue 20: SHA-1 was 7–9 % of a campaign).
    private static let v5Memo = BoundedMemo<V5Key, AlarmUUID>(capacity: 16_384)

    private static func computeV5(namespace: AlarmUUID, name: String) -> AlarmUUID {
        var digest = SHA1.digest(namespace.bytes + Array(name.utf8))
        digest[6] = (digest[6] & 0x0F) | 0x50
        digest[8] = (digest[8] & 0x3F) | 0x80
        let identifier = AlarmUUID(bytes: Array(digest[0..<16]))
        assert(identifier.version == 5 && identifier.isRFC4122Variant, "v5 bits not set")
        return identifier
    }

    /// The namespace for fully qualified domain names, `6ba7b810-9dad-11d1-80b4-00c04fd430c8`
    /// (RFC 4122 Appendix C).
    public static let dnsNamespace = AlarmUUID(bytes: [
        0x6B, 0xA7, 0xB8, 0x10, 0x9D, 0xAD, 0x11, 0xD1, 0x80, 0xB4, 0x00, 0xC0, 0x4F, 0xD4, 0x30, 0xC8,
    ])

    /// The namespace for URLs, `6ba7b811-9dad-11d1-80b4-00c04fd430c8` (RFC 4122 Appendix C).
    public static let urlNamespace = AlarmUUID(bytes: [
        0x6B, 0xA7, 0xB8, 0x11, 0x9D, 0xAD, 0x11, 0xD1, 0x80, 0xB4, 0x00, 0xC0, 0x4F, 0xD4, 0x30, 0xC8,
    ])

    /// Orders identifiers by their bytes, lexicographically (the same order as their lowercase strings).
    public static func < (lhs: AlarmUUID, rhs: AlarmUUID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// Decodes the canonical string form.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the string is not a canonical UUID.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = AlarmUUID(string: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a canonical 8-4-4-4-12 UUID")
        }
        self = parsed
    }

    /// Encodes the lowercase canonical string form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

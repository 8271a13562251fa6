/// SHA-1, hand-written from RFC 3174 (US Secure Hash Algorithm 1) / FIPS 180-4 §6.1.
///
/// Used only to derive name-based (version 5) UUIDs, where RFC 4122 §4.3 prescribes it; it is
/// not used for security. Written out rather than taken from a platform library so the bridge
/// core has no dependency and produces the same bytes everywhere.
public enum SHA1 {
    /// The initial hash value H0…H4 (RFC 3174 §6.1).
    private static let initialState: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]

    /// The SHA-1 digest of `bytes`.
    ///
    /// - Parameter bytes: The message.
    /// - Returns: The 20-byte digest, big-endian H0 … H4.
    /// - Complexity: O(n) in the message length.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var state = initialState
        let fullBlockCount = bytes.count / 64
        for blockIndex in 0..<fullBlockCount {
            compress(&state, bytes[(blockIndex * 64)..<(blockIndex * 64 + 64)])
        }
        // RFC 3174 §4: append 0x80, zeros to 56 mod 64, then the bit length as a 64-bit big-endian word.
        var tail = Array(bytes[(fullBlockCount * 64)...])
        tail.append(0x80)
        while tail.count % 64 != 56 {
            tail.append(0)
        }
        let bitLength = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        assert(tail.count == 64 || tail.count == 128, "SHA-1 padding must yield one or two blocks")
        for blockStart in stride(from: 0, to: tail.count, by: 64) {
            compress(&state, tail[blockStart..<(blockStart + 64)])
        }
        return [UInt8](unsafeUninitializedCapacity: 20) { buffer, initializedCount in
            for (index, word) in state.enumerated() {
                buffer[4 * index] = UInt8(word >> 24)
                buffer[4 * index + 1] = UInt8(truncatingIfNeeded: word >> 16)
                buffer[4 * index + 2] = UInt8(truncatingIfNeeded: word >> 8)
                buffer[4 * index + 3] = UInt8(truncatingIfNeeded: word)
            }
            initializedCount = 20
        }
    }

    /// The SHA-1 digest of the UTF-8 encoding of `string`, as 40 lowercase hex digits.
    public static func hexDigest(_ string: String) -> String {
        hexDigest(Array(string.utf8))
    }

    /// The SHA-1 digest of `bytes`, as 40 lowercase hex digits.
    public static func hexDigest(_ bytes: [UInt8]) -> String {
        let digest = digest(bytes)
        return String(unsafeUninitializedCapacity: 40) { buffer in
            for (index, byte) in digest.enumerated() {
                buffer[2 * index] = lowerHexDigits[Int(byte >> 4)]
                buffer[2 * index + 1] = lowerHexDigits[Int(byte & 0x0F)]
            }
            return 40
        }
    }

    private static let lowerHexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Processes one 64-byte block (RFC 3174 §6.1, method 1).
    private static func compress(_ state: inout [UInt32], _ block: ArraySlice<UInt8>) {
        precondition(block.count == 64, "SHA-1 compresses 64-byte blocks only")
        // The message schedule on the stack: an 80-word heap array per block was most of the cost.
        // The block's bytes and the five words are read in place (issue 20: bounds-checked
        // subscripts of the slice and the state array were most of what remained).
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { schedule in
            block.withUnsafeBufferPointer { bytes in
                for wordIndex in 0..<16 {
                    let byteIndex = 4 * wordIndex
                    schedule[wordIndex] = UInt32(bytes[byteIndex]) << 24 | UInt32(bytes[byteIndex + 1]) << 16
                        | UInt32(bytes[byteIndex + 2]) << 8 | UInt32(bytes[byteIndex + 3])
                }
            }
            for wordIndex in 16..<80 {
                schedule[wordIndex] = rotateLeft(
                    schedule[wordIndex - 3] ^ schedule[wordIndex - 8] ^ schedule[wordIndex - 14] ^ schedule[wordIndex - 16], by: 1)
            }
            state.withUnsafeMutableBufferPointer { state in
                rounds(&state, schedule: UnsafeBufferPointer(schedule))
            }
        }
    }

    /// The 80 rounds over one block's message schedule, added into H0…H4.
    private static func rounds(_ state: inout UnsafeMutableBufferPointer<UInt32>, schedule: UnsafeBufferPointer<UInt32>) {
        var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
        for round in 0..<20 {
            let temporary = rotateLeft(a, by: 5) &+ ((b & c) | (~b & d)) &+ e &+ schedule[round] &+ 0x5A82_7999
            (e, d, c, b, a) = (d, c, rotateLeft(b, by: 30), a, temporary)
        }
        for round in 20..<40 {
            let temporary = rotateLeft(a, by: 5) &+ (b ^ c ^ d) &+ e &+ schedule[round] &+ 0x6ED9_EBA1
            (e, d, c, b, a) = (d, c, rotateLeft(b, by: 30), a, temporary)
        }
        for round in 40..<60 {
            let temporary = rotateLeft(a, by: 5) &+ ((b & c) | (b & d) | (c & d)) &+ e &+ schedule[round] &+ 0x8F1B_BCDC
            (e, d, c, b, a) = (d, c, rotateLeft(b, by: 30), a, temporary)
        }
        for round in 60..<80 {
            let temporary = rotateLeft(a, by: 5) &+ (b ^ c ^ d) &+ e &+ schedule[round] &+ 0xCA62_C1D6
            (e, d, c, b, a) = (d, c, rotateLeft(b, by: 30), a, temporary)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
    }

    @inline(__always)
    private static func rotateLeft(_ value: UInt32, by amount: UInt32) -> UInt32 {
        (value << amount) | (value >> (32 - amount))
    }
}

/// The 64-bit FNV-1a hash (Fowler, Noll, Vo).
///
/// Source: the FNV specification, http://www.isthe.com/chongo/tech/comp/fnv/ and
/// draft-eastlake-fnv. Used to turn stream names into seeds (``RandomStreams``) and to hash
/// traces (``Trace/hash``). Unlike Swift's `Hasher`, it is not seeded per process, so its
/// values are stable across processes and machines.
public enum FNV1a {
    /// The published 64-bit offset basis, `0xcbf29ce484222325`.
    public static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    /// The published 64-bit FNV prime, `2^40 + 2^8 + 0xb3`.
    public static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// Folds `bytes` into a running FNV-1a state.
    ///
    /// Hashing `a` and then `b` into the result equals hashing `a + b` at once, which is what
    /// lets the trace hash be incremental.
    ///
    /// - Parameter bytes: The bytes to hash, in order.
    /// - Parameter state: The state to continue from; ``offsetBasis`` starts a new hash.
    /// - Returns: The state after folding in every byte.
    /// - Complexity: O(n) in the number of bytes.
    public static func hash(_ bytes: some Sequence<UInt8>, into state: UInt64 = offsetBasis) -> UInt64 {
        var hash = state
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* prime
        }
        return hash
    }

    /// Folds the UTF-8 encoding of `string` into a running FNV-1a state.
    ///
    /// The hash is over the exact UTF-8 bytes: two canonically equivalent strings with
    /// different scalars (precomposed and decomposed "é") hash differently.
    ///
    /// - Parameter string: The text to hash.
    /// - Parameter state: The state to continue from; ``offsetBasis`` starts a new hash.
    /// - Returns: The state after folding in every UTF-8 byte.
    /// - Complexity: O(n) in the number of UTF-8 bytes.
    public static func hash(_ string: String, into state: UInt64 = offsetBasis) -> UInt64 {
        // A native string's bytes in place (issue 20: the view's iterator cost more than the hash).
        string.utf8.withContiguousStorageIfAvailable { hash($0, into: state) } ?? hash(string.utf8, into: state)
    }
}

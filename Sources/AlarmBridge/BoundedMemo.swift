// Foundation: memcmp (ExactText).
import Foundation
import Synchronization

/// A thread-safe memo of a pure function's answers (issue 20: each piece of work once).
///
/// Holds at most `capacity` entries; when full it is emptied and starts again, so memory stays
/// bounded over a campaign of any length (the 64 MiB per-process budget of issue 8). The memo is
/// never iterated, so its order cannot reach behaviour or output: an answer is the same whether
/// it was computed now or remembered, which keeps every trace hash unchanged.
final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let table: Mutex<[Key: Value]>
    private let capacity: Int

    /// - Parameter capacity: the most entries held at once (> 0).
    init(capacity: Int) {
        precondition(capacity > 0, "a memo holds at least one entry")
        self.capacity = capacity
        self.table = Mutex([:])
    }

    /// The remembered answer for `key`, or `compute()`'s (remembered from now on).
    /// `compute` runs outside the lock, so it may itself use other memos.
    func value(for key: Key, compute: () -> Value) -> Value {
        if let known = table.withLock({ $0[key] }) { return known }
        let fresh = compute()
        table.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = fresh
        }
        return fresh
    }
}

/// A memo key hashed by mixing its fields' bits (``ExactText/mix(_:)``, FNV-1a for text) rather
/// than by SipHash over every field, which a synthesized `Hashable` runs at every look-up (issue
/// 20). `Dictionary` reads `_rawHashValue(seed:)`; `hash(into:)` feeds the same value to a
/// `Hasher`. Equal keys must give equal ``mixedHash(seed:)``; memos are never iterated, so the
/// hash never orders anything.
@usableFromInline
protocol MixedHashKey: Hashable {
    /// The key's hash from `seed`, its fields mixed in turn.
    func mixedHash(seed: UInt64) -> UInt64
}

extension MixedHashKey {
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(mixedHash(seed: 0)) }

    @usableFromInline func _rawHashValue(seed: Int) -> Int {
        Int(truncatingIfNeeded: mixedHash(seed: UInt64(truncatingIfNeeded: seed)))
    }
}

/// A string as its exact UTF-8 bytes, for memo keys (``BoundedMemo``) of functions that read
/// those bytes (SHA-1 of a UUIDv5 name, a fingerprint's text, a sound draw's salt).
///
/// `String`'s `==` holds canonically equivalent strings equal (a precomposed and a decomposed
/// "é"), which a byte hash does not: keyed by `String`, a memo answered one with the other's
/// result, so what a run computed depended on what an earlier run in the same process had
/// asked. Equal here only byte for byte; hashed with FNV-1a and SplitMix64's finaliser, cheaper
/// than SipHash over the string (issue 20). Memos are never iterated, so no order reaches output.
@usableFromInline
struct ExactText: MixedHashKey, Sendable {
    @usableFromInline let text: String

    @usableFromInline init(_ text: String) { self.text = text }

    @usableFromInline static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        // The same string value (one storage, or the same small string) holds the same bytes
        // (issue 20: a memo's key usually is a copy of the very string it is asked for).
        if unsafeBitCast(lhs.text, to: (UInt64, UInt64).self) == unsafeBitCast(rhs.text, to: (UInt64, UInt64).self) { return true }
        let left = lhs.text.utf8, right = rhs.text.utf8
        guard left.count == right.count else { return false }
        // A native string's bytes are contiguous: one memcmp (the fallback walks the views).
        let compared = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes in
                leftBytes.isEmpty || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0
            }
        }
        return (compared ?? nil) ?? left.elementsEqual(right)
    }

    @usableFromInline func mixedHash(seed: UInt64) -> UInt64 { Self.bytesHash(text, seed: seed) }

    /// FNV-1a (64-bit) of the text's UTF-8 bytes from `seed`'s basis, then SplitMix64's finaliser.
    @usableFromInline static func bytesHash(_ text: String, seed: UInt64) -> UInt64 {
        func fnv(_ bytes: some Sequence<UInt8>) -> UInt64 {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash
        }
        return mix(text.utf8.withContiguousStorageIfAvailable { fnv($0) } ?? fnv(text.utf8))
    }

    /// SplitMix64's finaliser: every input bit reaches every output bit. Memo keys built of
    /// several fields hash each field, then mix (issue 20: cheaper than SipHash, which a
    /// synthesized `Hashable` runs over every field for every memo look-up).
    @usableFromInline static func mix(_ value: UInt64) -> UInt64 {
        var hash = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }
}

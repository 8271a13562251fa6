/// xoshiro256**, the all-purpose 64-bit generator of Blackman and Vigna.
///
/// Source: D. Blackman, S. Vigna, "Scrambled Linear Pseudorandom Number Generators",
/// ACM TOMS 47(4), 2021; transcribed from the reference C code
/// https://prng.di.unimi.it/xoshiro256starstar.c.
///
/// Every bounded draw is written here rather than taken from the standard library, whose
/// bounded-integer and shuffling algorithms (`random(in:using:)`, `shuffled(using:)`) are not promised to stay the
/// same across Swift releases. That is also why this type deliberately does not conform to
/// `RandomNumberGenerator`: a recorded seed must replay identically after a toolchain upgrade.
public struct Xoshiro256StarStar: Sendable {
    private var state0: UInt64
    private var state1: UInt64
    private var state2: UInt64
    private var state3: UInt64

    /// Creates a generator whose state is the first four outputs of ``SplitMix64`` seeded with
    /// `seed`, the seeding the reference code recommends.
    ///
    /// Four consecutive SplitMix64 outputs are pairwise distinct (its output function is a
    /// bijection of a counter), so the state is never all zero.
    public init(seed: UInt64) {
        var expander = SplitMix64(seed: seed)
        self.init(state: (expander.next(), expander.next(), expander.next(), expander.next()))
    }

    /// Creates a generator from an explicit 256-bit state `(s[0], s[1], s[2], s[3])`.
    ///
    /// - Parameter state: The four state words; must not all be zero (the all-zero state is a
    ///   fixed point that outputs zero forever).
    public init(state: (UInt64, UInt64, UInt64, UInt64)) {
        precondition(state != (0, 0, 0, 0), "Xoshiro256StarStar: the all-zero state is not allowed")
        (state0, state1, state2, state3) = state
    }

    /// Returns the next 64-bit output and advances the generator.
    ///
    /// - Complexity: O(1).
    public mutating func next() -> UInt64 {
        let result = Self.rotateLeft(state1 &* 5, by: 7) &* 9
        let shifted = state1 << 17
        state2 ^= state0
        state3 ^= state1
        state1 ^= state2
        state0 ^= state3
        state2 ^= shifted
        state3 = Self.rotateLeft(state3, by: 45)
        return result
    }

    /// Returns an integer drawn uniformly from `0 ..< bound`, without modulo bias.
    ///
    /// Uses Lemire's multiply-shift with rejection: the high word of `next() * bound` is the
    /// candidate, and draws whose low word falls below `2^64 mod bound` are rejected.
    /// Source: D. Lemire, "Fast Random Integer Generation in an Interval", ACM TOMOCS 29(1), 2019.
    ///
    /// - Parameter bound: The exclusive upper bound; must be greater than zero.
    /// - Returns: A value in `0 ..< bound`.
    /// - Complexity: O(1) expected; fewer than two draws on average for any bound.
    public mutating func uniform(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "Xoshiro256StarStar.uniform(below:): bound must be greater than zero")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            // (2^64 - bound) mod bound == 2^64 mod bound: the count of low words that would
            // make some results one draw more likely than others.
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        assert(product.high < bound, "Lemire draw escaped its bound")
        return product.high
    }

    /// Returns an integer drawn uniformly from `range`, bounds included.
    ///
    /// - Parameter range: Any non-empty closed range, including `Int64.min ... Int64.max`.
    /// - Returns: A value in `range`.
    /// - Complexity: O(1) expected.
    public mutating func int(in range: ClosedRange<Int64>) -> Int64 {
        // The width minus one always fits in UInt64, even for the full Int64 range.
        let widthMinusOne = UInt64(bitPattern: range.upperBound &- range.lowerBound)
        let offset = widthMinusOne == .max ? next() : uniform(below: widthMinusOne + 1)
        let value = range.lowerBound &+ Int64(bitPattern: offset)
        assert(range.contains(value), "int(in:) produced a value outside its range")
        return value
    }

    /// Returns `true` with probability exactly `ratio`.
    ///
    /// Always consumes exactly one bounded draw, even for ``Ratio/never`` and
    /// ``Ratio/always``, so changing a probability does not shift later values of the stream
    /// (beyond the rejection step of the draw itself).
    ///
    /// - Parameter ratio: The probability of `true`.
    /// - Returns: `uniform(below: ratio.denominator) < ratio.numerator`.
    public mutating func chance(_ ratio: Ratio) -> Bool {
        uniform(below: ratio.denominator) < ratio.numerator
    }

    /// Returns an element of `elements` chosen uniformly.
    ///
    /// - Parameter elements: The candidates; must not be empty.
    /// - Returns: One of `elements`.
    public mutating func pick<T>(_ elements: [T]) -> T {
        precondition(!elements.isEmpty, "Xoshiro256StarStar.pick: cannot pick from an empty array")
        let index = Int(uniform(below: UInt64(elements.count)))
        return elements[elements.startIndex + index]
    }

    /// Shuffles `elements` in place into a uniformly chosen permutation.
    ///
    /// Fisher–Yates (Durstenfeld's variant, Knuth TAOCP vol. 2, Algorithm P): walking down from
    /// the last index, swap each position with a uniformly chosen position at or below it.
    ///
    /// - Parameter elements: The array to permute.
    /// - Complexity: O(n), with n − 1 bounded draws.
    public mutating func shuffle<T>(_ elements: inout [T]) {
        guard elements.count > 1 else { return }
        for position in stride(from: elements.count - 1, to: 0, by: -1) {
            let other = Int(uniform(below: UInt64(position + 1)))
            elements.swapAt(elements.startIndex + position, elements.startIndex + other)
        }
    }

    @inline(__always)
    private static func rotateLeft(_ value: UInt64, by amount: UInt64) -> UInt64 {
        (value << amount) | (value >> (64 &- amount))
    }
}

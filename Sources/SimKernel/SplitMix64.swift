/// SplitMix64, the 64-bit generator of Steele, Lea and Flood.
///
/// Source: G. L. Steele Jr., D. Lea, C. H. Flood, "Fast Splittable Pseudorandom Number
/// Generators", OOPSLA 2014; transcribed from Vigna's reference C code
/// (https://prng.di.unimi.it/splitmix64.c). The simulator uses it only to expand a 64-bit
/// seed into the 256-bit state of ``Xoshiro256StarStar``, as that reference recommends.
public struct SplitMix64: Sendable {
    /// The Weyl-sequence counter; advanced by the golden-ratio increment on every draw.
    private var state: UInt64

    /// Creates a generator whose counter starts at `seed`. Every seed, including zero, is valid.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// Returns the next 64-bit output and advances the generator.
    ///
    /// - Complexity: O(1).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

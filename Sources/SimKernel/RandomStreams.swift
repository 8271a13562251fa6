/// Named, independent random streams derived from one root seed.
///
/// Each consumer of randomness asks for its own stream by name
/// (`streams.stream("daemon.latency")`), so adding, removing or reordering draws in one part
/// of the simulation never reshuffles the values another part sees — the property that keeps
/// shrinking a failing run meaningful.
///
/// Derivation (stable, documented, part of the replay format):
///
///     seedMix    = SplitMix64(seed: seed).next()
///     nameHash   = FNV1a.hash(name.utf8)                      // 64-bit FNV-1a
///     generator  = Xoshiro256StarStar(seed: seedMix ^ nameHash)
///                = xoshiro state from the first four SplitMix64(seed: seedMix ^ nameHash) outputs
///
/// Passing the root seed through SplitMix64 first means neighbouring root seeds (4711, 4712)
/// do not differ only in the low bits that FNV-1a also perturbs; for a fixed root seed two
/// names collide only if their FNV-1a hashes do.
public struct RandomStreams: Sendable {
    /// The root seed every stream is derived from.
    public let seed: UInt64
    private let seedMix: UInt64

    /// Creates the family of streams for one run's root seed.
    public init(seed: UInt64) {
        self.seed = seed
        var mixer = SplitMix64(seed: seed)
        self.seedMix = mixer.next()
    }

    /// Returns a fresh generator for the stream called `name`.
    ///
    /// Pure: the same `(seed, name)` always returns a generator in the same initial state,
    /// regardless of which other streams were requested or drawn from. Callers that want a
    /// stream to continue must keep the returned generator.
    ///
    /// - Parameter name: The stream's name, conventionally `component.purpose`.
    /// - Returns: A generator at the start of that stream.
    /// - Complexity: O(n) in the UTF-8 length of `name`.
    public func stream(_ name: String) -> Xoshiro256StarStar {
        Xoshiro256StarStar(seed: seedMix ^ FNV1a.hash(name))
    }

    /// The 64-bit FNV-1a hash of `bytes`; same as `FNV1a.hash(bytes)`
    /// starting from the offset basis.
    public static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        FNV1a.hash(bytes)
    }
}

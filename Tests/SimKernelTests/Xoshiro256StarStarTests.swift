import SimKernel
import Testing

/// Seeds for the property tests; plain integers so a failing case re-runs alone.
let propertySeeds: [UInt64] = [0, 1, 2, 42, 4711, 1_234_567, 0xDEAD_BEEF, .max]

@Suite("Xoshiro256StarStar")
struct Xoshiro256StarStarTests {
    /// Expected values computed with a python3 transcription of the reference C code,
    /// https://prng.di.unimi.it/xoshiro256starstar.c (Blackman & Vigna), started from s = {1, 2, 3, 4}.
    @Test("state (1, 2, 3, 4) produces the reference C code's first eight outputs")
    func referenceVectorState1234() {
        var generator = Xoshiro256StarStar(state: (1, 2, 3, 4))
        let outputs = (0..<8).map { _ in generator.next() }
        #expect(outputs == [
            11520, 0, 1_509_978_240, 1_215_971_899_390_074_240,
            1_216_172_134_540_287_360, 607_988_272_756_665_600,
            16_172_922_978_634_559_625, 8_476_171_486_693_032_832,
        ])
    }

    /// Expected values from the same python3 port, state = first four SplitMix64(42) outputs.
    @Test("init(seed:) fills the state with four SplitMix64 outputs")
    func seedingMatchesReference() {
        var expander = SplitMix64(seed: 42)
        var explicit = Xoshiro256StarStar(state: (expander.next(), expander.next(), expander.next(), expander.next()))
        var seeded = Xoshiro256StarStar(seed: 42)
        let outputs = (0..<5).map { _ in seeded.next() }
        #expect(outputs == [
            1_546_998_764_402_558_742, 6_990_951_692_964_543_102, 12_544_586_762_248_559_009,
            17_057_574_109_182_124_193, 18_295_552_978_065_317_476,
        ])
        #expect(outputs == (0..<5).map { _ in explicit.next() })
    }

    @Test("uniform(below:) stays below its bound", arguments: propertySeeds)
    func uniformStaysBelowBound(seed: UInt64) {
        var generator = Xoshiro256StarStar(seed: seed)
        let bounds: [UInt64] = [1, 2, 3, 7, 10, 1000, 1 << 32, (1 << 63) + 1, .max - 1, .max]
        for bound in bounds {
            for _ in 0..<200 {
                #expect(generator.uniform(below: bound) < bound)
            }
        }
    }

    @Test("uniform(below: 10) hits every value about equally (integer chi-square below 30, df 9)",
          arguments: propertySeeds)
    func uniformIsRoughlyUniform(seed: UInt64) {
        var generator = Xoshiro256StarStar(seed: seed)
        let bucketCount = 10
        let drawsPerBucket = 2_000
        var counts = [Int](repeating: 0, count: bucketCount)
        for _ in 0..<(bucketCount * drawsPerBucket) {
            counts[Int(generator.uniform(below: UInt64(bucketCount)))] += 1
        }
        // chi² = Σ (count − expected)² / expected; compared as Σ (count − expected)² < 30 · expected.
        // 30 exceeds the 0.1% critical value for 9 degrees of freedom (27.88).
        let squaredDeviations = counts.map { ($0 - drawsPerBucket) * ($0 - drawsPerBucket) }.reduce(0, +)
        #expect(squaredDeviations < 30 * drawsPerBucket, "counts \(counts)")
    }

    /// With bound = 3·2^62, plain `next() % bound` would put half of all draws below 2^62
    /// instead of a third; this catches a modulo-biased implementation.
    @Test("uniform(below:) has no modulo bias for a bound of three quarters of 2^64", arguments: propertySeeds)
    func uniformHasNoModuloBias(seed: UInt64) {
        var generator = Xoshiro256StarStar(seed: seed)
        let bound: UInt64 = 3 << 62
        let draws = 30_000
        var lowThird = 0
        for _ in 0..<draws where generator.uniform(below: bound) < (1 << 62) {
            lowThird += 1
        }
        #expect((9_000...11_000).contains(lowThird), "\(lowThird) of \(draws) draws fell in the lowest third")
    }

    @Test("int(in:) stays inside the range and reaches both ends", arguments: propertySeeds)
    func intInRange(seed: UInt64) {
        var generator = Xoshiro256StarStar(seed: seed)
        var seen = Set<Int64>()
        for _ in 0..<500 {
            let value = generator.int(in: -3...3)
            #expect((-3...3).contains(value))
            seen.insert(value)
        }
        #expect(seen == Set(-3...3))
        #expect(generator.int(in: 17...17) == 17)
        #expect(generator.int(in: Int64.min...Int64.min) == Int64.min)
        for _ in 0..<100 {
            #expect(generator.int(in: (Int64.max - 1)...Int64.max) >= Int64.max - 1)
            _ = generator.int(in: Int64.min...Int64.max)  // The full range must not trap.
        }
    }

    @Test("chance(never) is always false and chance(always) always true", arguments: propertySeeds)
    func chanceExtremes(seed: UInt64) {
        var generator = Xoshiro256StarStar(seed: seed)
        for _ in 0..<200 {
            let impossible = generator.chance(.never)
            let certain = generator.chance(.always)
            #expect(!impossible)
            #expect(certain)
        }
    }

    @Test("chance(1/4) succeeds about a quarter of the time", arguments: propertySeeds)
    func chanceQuarter(seed: UInt64) {
        var generator = Xoshiro256StarStar(seed: seed)
        var successes = 0
        for _ in 0..<20_000 where generator.chance(Ratio(1, 4)) {
            successes += 1
        }
        #expect((4_700...5_300).contains(successes), "\(successes) of 20000")
    }

    @Test("pick returns only elements of the array and reaches all of them", arguments: propertySeeds)
    func pickReachesEveryElement(seed: UInt64) {
        var generator = Xoshiro256StarStar(seed: seed)
        let elements = ["a", "b", "c", "d", "e"]
        var seen = Set<String>()
        for _ in 0..<200 {
            let element = generator.pick(elements)
            #expect(elements.contains(element))
            seen.insert(element)
        }
        #expect(seen == Set(elements))
        #expect(generator.pick([42]) == 42)
        #expect(generator.pick(Array(elements[2...])) != "a")  // Works on arrays rebuilt from slices.
    }

    @Test("shuffle returns a permutation and reaches all six orders of three elements about equally",
          arguments: propertySeeds)
    func shuffleIsUniformPermutation(seed: UInt64) {
        var generator = Xoshiro256StarStar(seed: seed)
        var counts: [[Int]: Int] = [:]
        for _ in 0..<6_000 {
            var elements = [1, 2, 3]
            generator.shuffle(&elements)
            counts[elements, default: 0] += 1
        }
        #expect(counts.count == 6)
        for (order, count) in counts {
            #expect(order.sorted() == [1, 2, 3])
            #expect((850...1_150).contains(count), "order \(order) appeared \(count) times")
        }
        var empty: [Int] = []
        generator.shuffle(&empty)
        #expect(empty.isEmpty)
        var single = [9]
        generator.shuffle(&single)
        #expect(single == [9])
    }

    @Test("shuffle with the same seed gives the same order", arguments: propertySeeds)
    func shuffleIsDeterministic(seed: UInt64) {
        var first = Xoshiro256StarStar(seed: seed)
        var second = Xoshiro256StarStar(seed: seed)
        var firstElements = Array(0..<50)
        var secondElements = Array(0..<50)
        first.shuffle(&firstElements)
        second.shuffle(&secondElements)
        #expect(firstElements == secondElements)
        #expect(firstElements.sorted() == Array(0..<50))
    }
}

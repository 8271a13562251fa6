import SimKernel
import Testing

@Suite("SplitMix64")
struct SplitMix64Tests {
    /// Expected values computed with a python3 transcription of https://prng.di.unimi.it/splitmix64.c.
    @Test("seed 1234567 produces the reference C code's first five outputs")
    func referenceVectorSeed1234567() {
        var generator = SplitMix64(seed: 1_234_567)
        let outputs = (0..<5).map { _ in generator.next() }
        #expect(outputs == [
            6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
            4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
        ])
    }

    @Test("seed 0 produces the reference C code's first five outputs")
    func referenceVectorSeedZero() {
        var generator = SplitMix64(seed: 0)
        let outputs = (0..<5).map { _ in generator.next() }
        #expect(outputs == [
            0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
            0xF88B_B8A8_724C_81EC, 0x1B39_896A_51A8_749B,
        ])
    }

    @Test("two generators with the same seed produce the same sequence", arguments: [UInt64(0), 1, 4711, .max])
    func sameSeedSameSequence(seed: UInt64) {
        var first = SplitMix64(seed: seed)
        var second = SplitMix64(seed: seed)
        for _ in 0..<100 {
            #expect(first.next() == second.next())
        }
    }
}

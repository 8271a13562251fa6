import SimKernel
import Testing

@Suite("FNV1a")
struct FNV1aTests {
    struct Vector: Sendable, Codable, CustomTestStringConvertible {
        let input: String
        let expected: UInt64
        var testDescription: String { "\"\(input)\"" }
    }

    /// Published FNV-1a 64 test vectors (http://www.isthe.com/chongo/src/fnv/test_fnv.c).
    static let vectors: [Vector] = [
        Vector(input: "", expected: 0xCBF2_9CE4_8422_2325),
        Vector(input: "a", expected: 0xAF63_DC4C_8601_EC8C),
        Vector(input: "foobar", expected: 0x8594_4171_F739_67E8),
    ]

    @Test("hash matches the published FNV-1a 64 vectors", arguments: vectors)
    func publishedVectors(vector: Vector) {
        #expect(FNV1a.hash(vector.input) == vector.expected)
        #expect(FNV1a.hash(Array(vector.input.utf8)) == vector.expected)
    }

    @Test("hashing in pieces equals hashing the concatenation")
    func incremental() {
        let whole = FNV1a.hash("foobar")
        #expect(FNV1a.hash("bar", into: FNV1a.hash("foo")) == whole)
        #expect(FNV1a.hash([UInt8](), into: whole) == whole)
    }

    @Test("constants are the published offset basis and prime")
    func constants() {
        #expect(FNV1a.offsetBasis == 14_695_981_039_346_656_037)
        #expect(FNV1a.prime == 1_099_511_628_211)
    }
}

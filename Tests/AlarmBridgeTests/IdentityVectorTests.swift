import AlarmBridge
import Foundation  // Tests only: JSONEncoder/JSONDecoder exercise AlarmUUID's Codable form.
import Testing

@Suite("IdentityVectorTests")
struct IdentityVectorTests {
    struct DigestVector: Sendable, Codable, CustomTestStringConvertible {
        let label: String
        let message: String
        let hexDigest: String
        var testDescription: String { label }
    }

    /// The `abcd…` cycle of lowercase letters, `count` bytes long: exercises the padding
    /// boundaries (55 fits one block with the length, 56 needs a second block, 64 is a full block).
    static func alphabetCycle(_ count: Int) -> String {
        String(decoding: (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }, as: UTF8.self)
    }

    /// RFC 3174 §7.3 / FIPS 180 examples, plus boundary lengths whose digests were computed with
    /// python3 `hashlib.sha1` and pasted here.
    static let digestVectors: [DigestVector] = [
        DigestVector(label: "empty", message: "", hexDigest: "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        DigestVector(label: "abc", message: "abc", hexDigest: "a9993e364706816aba3e25717850c26c9cd0d89d"),
        DigestVector(label: "RFC 3174 TEST2 (56 bytes)",
                     message: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                     hexDigest: "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        DigestVector(label: "55 bytes", message: alphabetCycle(55), hexDigest: "a617d006d1ca12671785098a19a87fe58443bde9"),
        DigestVector(label: "56 bytes", message: alphabetCycle(56), hexDigest: "4ad5bb7ae3c4024768d364b77c52128ea3cffebe"),
        DigestVector(label: "63 bytes", message: alphabetCycle(63), hexDigest: "fc8a5ab77259625085ead3ec96515b3b8d933fad"),
        DigestVector(label: "64 bytes", message: alphabetCycle(64), hexDigest: "93249d4c2f8903ebf41ac358473148ae6ddd7042"),
        DigestVector(label: "65 bytes", message: alphabetCycle(65), hexDigest: "cf2a63cc308225cf07b498d2309a01dd0df52f67"),
        DigestVector(label: "55 × a", message: String(repeating: "a", count: 55), hexDigest: "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
        DigestVector(label: "56 × a", message: String(repeating: "a", count: 56), hexDigest: "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
        DigestVector(label: "63 × a", message: String(repeating: "a", count: 63), hexDigest: "03f09f5b158a7a8cdad920bddc29b81c18a551f5"),
        DigestVector(label: "64 × a", message: String(repeating: "a", count: 64), hexDigest: "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
        DigestVector(label: "65 × a", message: String(repeating: "a", count: 65), hexDigest: "11655326c708d70319be2610e8a57d9a5b959d3b"),
    ]

    @Test("SHA-1 matches the RFC 3174 / FIPS 180 vectors and hashlib at padding boundaries", arguments: digestVectors)
    func sha1Vectors(vector: DigestVector) {
        #expect(SHA1.hexDigest(vector.message) == vector.hexDigest)
        let digest = SHA1.digest(Array(vector.message.utf8))
        #expect(digest.count == 20)
        let digestHex: [String] = digest.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        #expect(digestHex.joined() == vector.hexDigest)
    }

    @Test("SHA-1 of one million 'a' bytes matches RFC 3174 TEST3")
    func sha1OneMillionA() {
        #expect(SHA1.hexDigest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    struct NameVector: Sendable, Codable, CustomTestStringConvertible {
        let namespace: String
        let name: String
        let expected: String
        var testDescription: String { "\(name) in \(namespace)" }
    }

    /// The first two are the widely published examples; the others were computed with python3
    /// `uuid.uuid5` and pasted here (including a non-ASCII name, hashed as UTF-8, and an empty name).
    static let nameVectors: [NameVector] = [
        NameVector(namespace: "dns", name: "www.example.com", expected: "2ed6657d-e927-568b-95e1-2665a8aea6a2"),
        NameVector(namespace: "dns", name: "python.org", expected: "886313e1-3b8a-5372-9b90-0c9aee199e5d"),
        NameVector(namespace: "url", name: "https://example.com/alarm/1", expected: "4fd5e97e-85d0-5cec-82a6-58e2749f907a"),
        NameVector(namespace: "dns", name: "alarmsim.example", expected: "261b4a58-2917-5607-bc49-e723b8709d3a"),
        NameVector(namespace: "url", name: "http://www.ietf.org/rfc/rfc4122.txt", expected: "d0690b3c-b29d-52e7-81b0-d573b503f2d4"),
        NameVector(namespace: "dns", name: "", expected: "4ebd0208-8328-5d69-8c44-ec50939c0967"),
        NameVector(namespace: "dns", name: "caf\u{E9}.example", expected: "1f25f992-3aeb-54f1-b196-ccca88f733b1"),
    ]

    @Test("v5 matches published and python3 uuid.uuid5 values", arguments: nameVectors)
    func v5Vectors(vector: NameVector) {
        let namespace = vector.namespace == "dns" ? AlarmUUID.dnsNamespace : AlarmUUID.urlNamespace
        let identifier = AlarmUUID.v5(namespace: namespace, name: vector.name)
        #expect(identifier.description == vector.expected)
        #expect(identifier == AlarmUUID(string: vector.expected))
    }

    /// `v5` hashes the name's exact UTF-8 bytes: a precomposed and a decomposed "é" (equal as
    /// Swift strings) are two names, in either order of asking (python3 `uuid.uuid5` values). Its
    /// memo once answered the second with the first's identifier.
    @Test("v5 of canonically equivalent names differs byte for byte, whichever is asked first")
    func v5ReadsExactBytes() {
        let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed)  // String's equality: why the memo needed its own key
        for names in [[precomposed, decomposed], [decomposed, precomposed]] {
            let identifiers = names.map { AlarmUUID.v5(namespace: .urlNamespace, name: $0).description }
            let expected = names.map { $0.utf8.count == 5 ? "79d4db4c-73a9-5cec-bd37-4fc862e2120d" : "549feaac-5211-5fee-8511-bff7456812c3" }
            #expect(identifiers == expected)
        }
    }

    @Test("v5 identifiers carry version 5 and the RFC 4122 variant bits 10")
    func versionAndVariantBits() {
        for index in 0..<64 {
            let identifier = AlarmUUID.v5(namespace: .urlNamespace, name: "alarm/\(index)")
            #expect(identifier.bytes[6] >> 4 == 5)
            #expect(identifier.bytes[8] >> 6 == 0b10)
            #expect(identifier.version == 5)
            #expect(identifier.isRFC4122Variant)
        }
    }

    @Test("the namespaces are the RFC 4122 Appendix C constants")
    func namespaces() {
        #expect(AlarmUUID.dnsNamespace.description == "6ba7b810-9dad-11d1-80b4-00c04fd430c8")
        #expect(AlarmUUID.urlNamespace.description == "6ba7b811-9dad-11d1-80b4-00c04fd430c8")
        #expect(AlarmUUID.dnsNamespace.version == 1)
    }

    @Test("parsing is case-insensitive and printing is lowercase canonical")
    func stringRoundTrip() throws {
        let upper = "2ED6657D-E927-568B-95E1-2665A8AEA6A2"
        let parsed = try #require(AlarmUUID(string: upper))
        #expect(parsed.description == upper.lowercased())
        #expect(AlarmUUID(string: parsed.description) == parsed)
        #expect(parsed.bytes.count == 16)
        #expect(AlarmUUID(bytes: parsed.bytes) == parsed)
    }

    @Test("non-canonical strings are rejected", arguments: [
        "", "2ed6657de927568b95e12665a8aea6a2", "{2ed6657d-e927-568b-95e1-2665a8aea6a2}",
        "2ed6657d-e927-568b-95e1-2665a8aea6a", "2ed6657d-e927-568b-95e1-2665a8aea6a2 ",
        "2ed6657d_e927-568b-95e1-2665a8aea6a2", "2ed6657d-e927-568b-95e1-2665a8aea6g2",
        "2ed6657-de927-568b-95e1-2665a8aea6a2", "urn:uuid:2ed6657d-e927-568b-95e1-2665a8",
        "2ed6657d-e927-568b-95e1-2665a8aea6\u{E9}",
    ])
    func rejectsNonCanonical(text: String) {
        #expect(AlarmUUID(string: text) == nil)
    }

    @Test("identifiers compare by bytes, the same order as their lowercase strings")
    func comparable() {
        let identifiers = (0..<32).map { AlarmUUID.v5(namespace: .dnsNamespace, name: "ring\($0)") }
        #expect(identifiers.sorted().map(\.description) == identifiers.map(\.description).sorted())
        let low = AlarmUUID(bytes: [UInt8](repeating: 0, count: 15) + [1])
        let high = AlarmUUID(bytes: [1] + [UInt8](repeating: 0, count: 15))
        #expect(low < high)
        #expect(!(high < low))
        #expect(!(low < low))
    }

    @Test("Codable uses the lowercase canonical string")
    func codableAsString() throws {
        let identifier = AlarmUUID.v5(namespace: .dnsNamespace, name: "www.example.com")
        let encoded = try JSONEncoder().encode([identifier])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["2ed6657d-e927-568b-95e1-2665a8aea6a2"]"#)
        #expect(try JSONDecoder().decode([AlarmUUID].self, from: encoded) == [identifier])
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode([AlarmUUID].self, from: Data(#"["not-a-uuid"]"#.utf8))
        }
    }
}

/// AlarmUUID holds its 16 bytes inline (issue 20); its order, equality, hash and text must be
/// those of the bytes.
@Suite("AlarmUUID inline storage keeps the byte semantics")
struct AlarmUUIDStorageTests {
    static func pseudoRandomIDs(_ count: Int) -> [AlarmUUID] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            AlarmUUID(bytes: (0..<16).map { _ in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 59)  // few values: many shared prefixes
            })
        }
    }

    @Test("order is the bytes' lexicographic order and the strings' order; equality is the bytes'")
    func orderAndEquality() {
        let ids = Self.pseudoRandomIDs(300)
        for (lhs, rhs) in zip(ids, ids.dropFirst() + ids.prefix(1)) {
            #expect((lhs < rhs) == lhs.bytes.lexicographicallyPrecedes(rhs.bytes))
            #expect((lhs < rhs) == (lhs.description < rhs.description))
            #expect((lhs == rhs) == (lhs.bytes == rhs.bytes))
            #expect(AlarmUUID(bytes: lhs.bytes) == lhs)
            #expect(AlarmUUID(string: lhs.description) == lhs)
        }
    }

    @Test("equal identifiers hash equal and work as set members")
    func hashing() {
        let ids = Self.pseudoRandomIDs(200)
        let set = Set(ids)
        #expect(set.count == Set(ids.map(\.description)).count)
        for id in ids {
            #expect(set.contains(AlarmUUID(bytes: id.bytes)))
            #expect(id.hashValue == AlarmUUID(string: id.description)?.hashValue)
        }
    }

    @Test("the Android request code reads the first four bytes")
    func requestCode() {
        let id = AlarmUUID(bytes: [0xFF, 0x12, 0x34, 0x56] + [UInt8](repeating: 7, count: 12))
        #expect(RingIdentity.requestCode(of: id) == 0x7F12_3456)
    }
}

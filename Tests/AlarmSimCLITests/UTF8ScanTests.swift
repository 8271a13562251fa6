@testable import AlarmSimCLI
import Foundation
import Testing

/// The linear UTF-8 scan that places a malformed file's first bad byte (issue 17: it was
/// quadratic in the line's length), against published vectors and against Swift's own decoder.
@Suite("UTF8Scan")
struct UTF8ScanTests {
    /// Vectors from Markus Kuhn's "UTF-8 decoder capability and stress test" (sections 2–5) and
    /// Unicode 15 table 3-7: (bytes, well-formed?).
    static let vectors: [([UInt8], Bool)] = [
        ([0x41], true), ([0xC2, 0x80], true), ([0xDF, 0xBF], true),                 // 2.1, 2.2 boundaries
        ([0xE0, 0xA0, 0x80], true), ([0xEF, 0xBF, 0xBF], true),
        ([0xF0, 0x90, 0x80, 0x80], true), ([0xF4, 0x8F, 0xBF, 0xBF], true),          // U+10000, U+10FFFF
        ([0xF4, 0x90, 0x80, 0x80], false),                                          // 2.3.5: U+110000
        ([0x80], false), ([0xBF], false),                                           // 3.1 lone continuations
        ([0xC0, 0xAF], false), ([0xE0, 0x80, 0xAF], false), ([0xF0, 0x80, 0x80, 0xAF], false),  // 4.1 overlong '/'
        ([0xC1, 0xBF], false), ([0xE0, 0x9F, 0xBF], false), ([0xF0, 0x8F, 0xBF, 0xBF], false),  // 4.2 overlong maxima
        ([0xED, 0xA0, 0x80], false), ([0xED, 0xBF, 0xBF], false),                   // 5.1 single surrogates
        ([0xED, 0x9F, 0xBF], true),                                                 // U+D7FF
        ([0xC2], false), ([0xE0, 0xA0], false), ([0xF0, 0x90, 0x80], false),        // 3.3 truncated
        ([0xFE], false), ([0xFF], false), ([0xF5, 0x80, 0x80, 0x80], false),        // 3.5 impossible bytes
        ([0xC2, 0x41], false),                                                      // continuation missing
    ]

    @Test("published vectors: well-formed sequences pass, overlongs, surrogates, truncations and impossible bytes fail")
    func vectors() {
        for (bytes, wellFormed) in Self.vectors {
            #expect((UTF8Scan.firstInvalid(in: bytes) == nil) == wellFormed, "\(bytes.map { String($0, radix: 16) })")
            #expect((String(validating: bytes, as: UTF8.self) != nil) == wellFormed, "Swift agrees on \(bytes)")
        }
    }

    @Test("agrees with Swift's decoder on random byte strings, and names the line and column of the longest valid prefix")
    func agreesWithSwift() {
        var generator = FuzzRNG(seed: 0x9E37_79B9_7F4A_7C15)  // InputFuzzTests.swift
        let alphabet: [UInt8] = [0x0A, 0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xA0, 0x9F, 0x90, 0x8F]
        for _ in 0..<3_000 {
            let bytes = (0..<Int(generator.next() % 12)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let position = UTF8Scan.firstInvalid(in: bytes)
            #expect((position == nil) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
            guard let position else { continue }
            // The slow reference: the longest prefix Swift decodes, then its last line's scalar count.
            var valid = bytes.count
            while valid > 0, String(validating: bytes[0..<valid], as: UTF8.self) == nil { valid -= 1 }
            let prefix = String(validating: bytes[0..<valid], as: UTF8.self) ?? ""
            let lines = prefix.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(position.line == lines.count && position.column == lines.last!.unicodeScalars.count + 1, "\(bytes)")
        }
    }

    @Test("a 1 MB line with a bad byte at its end is placed in well under a second (linear, not quadratic)")
    func longLineIsLinear() {
        let bytes = [UInt8](repeating: 0x61, count: 1_000_000) + [0xC0, 0x0A]
        let clock = ContinuousClock()
        let start = clock.now
        let position = UTF8Scan.firstInvalid(in: bytes)
        #expect(position?.line == 1 && position?.column == 1_000_001)
        #expect(clock.now - start < .seconds(5), "generous for a loaded machine; the quadratic version took minutes")
    }
}

import Foundation  // Tests only: JSONEncoder/JSONDecoder exercise Codable. The kernel itself is stdlib-only.
import SimKernel
import Testing

@Suite("Ratio")
struct RatioTests {
    @Test("description is numerator/denominator")
    func description() {
        #expect(Ratio(3, 1000).description == "3/1000")
        #expect(Ratio.never.description == "0/1")
        #expect(Ratio.always.description == "1/1")
    }

    @Test("the labelled and unlabelled initialisers build the same ratio")
    func labelledInitialiser() {
        #expect(Ratio(numerator: 2, denominator: 7) == Ratio(2, 7))
        #expect(Ratio.never == Ratio(0, 1))
        #expect(Ratio.always == Ratio(1, 1))
    }

    @Test("a ratio round-trips through Codable as {numerator, denominator}")
    func codableRoundTrip() throws {
        let data = try JSONEncoder().encode(Ratio(5, 8))
        #expect(try JSONDecoder().decode(Ratio.self, from: data) == Ratio(5, 8))
        let handWritten = Data(#"{"numerator":1,"denominator":3}"#.utf8)
        #expect(try JSONDecoder().decode(Ratio.self, from: handWritten) == Ratio(1, 3))
    }

    @Test("decoding an invalid ratio throws instead of trapping",
          arguments: [#"{"numerator":3,"denominator":2}"#, #"{"numerator":0,"denominator":0}"#])
    func decodingRejectsInvalid(json: String) {
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(Ratio.self, from: Data(json.utf8))
        }
    }
}

import AlarmSimCLI
import Foundation
import Testing

/// `merge` validates a summary like the scenario reader validates a file: impossible values are
/// refused with exit 65 and a message naming the file and the field (issue 17 part 2).
@Suite("merge refuses impossible summaries")
struct MergeValidationTests {
    /// One corruption of a valid summary.json and words the error must contain.
    struct Corruption: Sendable, CustomTestStringConvertible {
        var name: String
        var edit: @Sendable (inout [String: Any]) -> Void
        var mentions: [String]
        var testDescription: String { name }
    }

    static func platform(_ json: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
        var platforms = json["platforms"] as! [[String: Any]]
        change(&platforms[0])
        json["platforms"] = platforms
    }

    static func failure(_ json: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
        var failing = json["failing"] as! [[String: Any]]
        change(&failing[0])
        json["failing"] = failing
    }

    static let corruptions: [Corruption] = [
        Corruption(name: "negative coverage hits", edit: { json in
            platform(&json) { p in var c = p["coverage"] as! [[String: Any]]; c[0]["hits"] = -1; p["coverage"] = c }
        }, mentions: ["platforms[0].coverage", "hits"]),
        Corruption(name: "a mark reached by more seeds than ran", edit: { json in
            platform(&json) { p in var c = p["coverage"] as! [[String: Any]]; c[0]["hits"] = 99; c[0]["seeds"] = 99; p["coverage"] = c }
        }, mentions: ["seeds reaching ≤ seeds run"]),
        Corruption(name: "more failures than seeds", edit: { json in platform(&json) { $0["failures"] = 7 } },
                   mentions: ["failures is 7, outside 0...3"]),
        Corruption(name: "an empty invariant name", edit: { json in failure(&json) { $0["invariant"] = "" } },
                   mentions: ["failing[0].invariant", "not an invariant name"]),
        Corruption(name: "a count that is not a number", edit: { json in json["violations"] = "many" },
                   mentions: ["violations is not a whole number"]),
        Corruption(name: "an invariant no catalog names", edit: { json in failure(&json) { $0["invariant"] = "never-loud" } },
                   mentions: ["failing[0].invariant", "unknown invariant 'never-loud'"]),
        Corruption(name: "a NUL in the invariant name", edit: { json in failure(&json) { $0["invariant"] = "stable\u{0}ids" } },
                   mentions: ["failing[0].invariant", "\\u{0}"]),
        Corruption(name: "ESC in a message", edit: { json in failure(&json) { $0["message"] = "boom \u{1B}[2J" } },
                   mentions: ["failing[0].message", "control character"]),
        Corruption(name: "a failing seed that did not run", edit: { json in failure(&json) { $0["seed"] = 4_000 } },
                   mentions: ["seed 4000 is not among the seeds"]),
        Corruption(name: "seeds run outside the campaign's range", edit: { json in
            platform(&json) { $0["seedsRun"] = [["first": 8, "last": 10]] }
        }, mentions: ["8..10 lies outside options.seeds 1..3"]),
        Corruption(name: "a negative exemption count", edit: { json in
            platform(&json) { $0["exemptions"] = [["name": "force-quit", "count": -2]] }
        }, mentions: ["exemptions[0]", "count ≥ 0"]),
    ]

    func validSummary() throws -> (directory: URL, json: [String: Any]) {
        let directory = try makeTemporaryDirectory("merge-validation")
        let run = cli("fuzz", "--platform", "ios", "--seeds", "1..3", "--defect", "title-in-ring-id", "--no-shrink",
                      "--report", directory.appendingPathComponent("r").path)
        #expect(run.status == .violations)
        let data = try Data(contentsOf: directory.appendingPathComponent("r/summary.json"))
        return (directory, try JSONSerialization.jsonObject(with: data) as! [String: Any])
    }

    @Test("each impossible value is refused with exit 65, naming the file and the field", arguments: corruptions)
    func refused(_ corruption: Corruption) throws {
        let (directory, valid) = try validSummary()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(cli("merge", directory.appendingPathComponent("r/summary.json").path).status == .violations, "the valid one merges")
        var json = valid
        corruption.edit(&json)
        let path = directory.appendingPathComponent("bad.json")
        try JSONSerialization.data(withJSONObject: json).write(to: path)
        let run = cli("merge", path.path)
        #expect(run.status == .dataError)
        for word in [path.path] + corruption.mentions {
            #expect(run.errors.contains(word), "\(corruption.name): \(run.errors)")
        }
    }

    @Test("invalid UTF-8 inside a string is located by line and column")
    func invalidUTF8() throws {
        let (directory, _) = try validSummary()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent("r/summary.json")))
        let quote = try #require(bytes.firstIndex(of: UInt8(ascii: "\"")))
        bytes.insert(0xC3, at: quote + 1)  // a lead byte with no continuation
        let path = directory.appendingPathComponent("bad.json")
        try Data(bytes).write(to: path)
        let run = cli("merge", path.path)
        #expect(run.status == .dataError)
        let line = bytes[..<quote].filter { $0 == UInt8(ascii: "\n") }.count + 1
        let column = quote - (bytes[..<quote].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
        #expect(run.errors.contains("\(path.path):\(line):\(column): the file is not UTF-8 text"))
    }
}

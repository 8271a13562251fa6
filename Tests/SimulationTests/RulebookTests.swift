import Foundation
import Testing

/// `Docs/rules.md`, the project's readable digest of RULES.md: every rule ID the sources cite must
/// have an anchor there, so a report's rule link (`Docs/rules.md#SCH-9`) always lands.
/// A file-level check: it reads the repository's files, it runs no simulation.
@Suite("Rulebook")
struct RulebookTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// RULES.md's rule families, the prefixes of its IDs (`SCH-9`, `WALK-25`).
    static let families = ["ID", "SCH", "CAP", "REC", "OCC", "FG", "INACT", "SNZ", "WALK", "SND", "ACT", "BOOT", "AND", "IOS", "API"]

    /// Every `FAMILY-N` in `text` whose family is one of ``families`` and that is not part of a
    /// longer word (`UTF-8` and `SHA-1` have no family; `XSCH-1` is not `SCH-1`).
    static func ruleIDs(in text: String) -> Set<String> {
        var found: Set<String> = []
        let bytes = Array(text.utf8)
        func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var index = 0
        while index < bytes.count {
            guard isUpper(bytes[index]), index == 0 || !(isUpper(bytes[index - 1]) || isDigit(bytes[index - 1])) else { index += 1; continue }
            var end = index
            while end < bytes.count && isUpper(bytes[end]) { end += 1 }
            var digits = end + 1
            while digits < bytes.count && isDigit(bytes[digits]) { digits += 1 }
            let family = String(decoding: bytes[index..<end], as: UTF8.self)
            if end < bytes.count, bytes[end] == UInt8(ascii: "-"), digits > end + 1, Self.families.contains(family) {
                found.insert(family + "-" + String(decoding: bytes[(end + 1)..<digits], as: UTF8.self))
            }
            index = max(end, index + 1)
        }
        return found
    }

    /// The anchors `<a id="X"></a>` of `Docs/rules.md`.
    static func anchors() throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent("Docs/rules.md"), encoding: .utf8)
        var found: Set<String> = []
        for piece in text.components(separatedBy: "<a id=\"").dropFirst() {
            if let close = piece.firstIndex(of: "\"") { found.insert(String(piece[..<close])) }
        }
        return found
    }

    @Test("the scanner finds rule IDs and nothing else")
    func scanner() {
        #expect(Self.ruleIDs(in: "(SCH-9, ID-2) WALK-25: UTF-8 SHA-1 XSCH-4 SCH- OCC-6.") == ["SCH-9", "ID-2", "WALK-25", "OCC-6"])
    }

    @Test("every rule ID cited in Sources/ has an anchor in Docs/rules.md")
    func citedRulesHaveAnchors() throws {
        let anchors = try Self.anchors()
        #expect(anchors.count >= 263, "Docs/rules.md: \(anchors.count) anchors, RULES.md has 263 rule IDs")
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 50)
        var missing: [String] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let text = try String(contentsOf: file, encoding: .utf8)
            for id in Self.ruleIDs(in: text).sorted() where !anchors.contains(id) {
                missing.append("\(file.lastPathComponent): \(id)")
            }
        }
        #expect(missing.isEmpty, "rule IDs without an anchor in Docs/rules.md: \(missing)")
    }
}

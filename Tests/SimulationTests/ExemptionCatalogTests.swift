import Foundation
import Simulation
import Testing

/// The exemption catalog (`alarmsim list exemptions`) explains every name a summary can count:
/// the names fault kinds list, and every name the oracle counts (`countExemption`, the fault
/// exemption `noteFault` opens, the names the exemption functions return). The oracle's names
/// are found by reading its source files, so a new literal without an entry fails here.
@Suite("Exemption catalog")
struct ExemptionCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("entries are unique kebab-case names, each with an explanation, a duty, rules and a source")
    func shape() {
        let names = ExemptionCatalog.all.map(\.name)
        #expect(Set(names).count == names.count)
        for info in ExemptionCatalog.all {
            #expect(FaultKind.isKebabCase(info.name), "\(info.name)")
            #expect(!info.platforms.isEmpty && !info.rules.isEmpty && !info.source.isEmpty, "\(info.name)")
            #expect(info.explanation.hasSuffix(".") && !info.explanation.contains("\n"), "\(info.name)")
            #expect(!info.bridgeMustStill.isEmpty && !info.bridgeMustStill.contains("\n"), "\(info.name)")
            #expect(ExemptionCatalog.info(info.name) == info)
        }
    }

    @Test("every exemption a fault kind lists has an entry, on the kind's platforms")
    func faultExemptions() {
        for kind in FaultCatalog.all {
            for name in kind.exemptions {
                let info = ExemptionCatalog.info(name)
                #expect(info != nil, "fault \(kind.name) lists \(name), which the catalog does not explain")
                #expect(info.map { !Set($0.platforms).isDisjoint(with: kind.platforms) } ?? true, "\(kind.name): \(name)")
            }
        }
    }

    /// Quoted kebab-case words in `text` that follow `prefix` (`countExemption("`).
    static func literals(after prefix: String, in text: String) -> [String] {
        text.components(separatedBy: prefix).dropFirst().compactMap { piece in
            guard let close = piece.firstIndex(of: "\"") else { return nil }
            let word = String(piece[..<close])
            return FaultKind.isKebabCase(word) ? word : nil
        }
    }

    /// Quoted kebab-case words anywhere in `text` (the odd pieces between quotes).
    static func quoted(in text: String) -> [String] {
        text.components(separatedBy: "\"").enumerated().compactMap { index, piece in
            index % 2 == 1 && FaultKind.isKebabCase(piece) ? piece : nil
        }
    }

    /// The names the oracle can count, read from Sources/Simulation: literals passed to
    /// `countExemption` and `noteFault` or set as a snooze's platform excuse, the names the
    /// exemption functions (`…Exemption(`, `snoozeExcuse(`) return, and the Android model's kill
    /// reasons (`noteFault(reason.rawValue)`).
    static func countedNames() throws -> Set<String> {
        let directory = root.appendingPathComponent("Sources/Simulation")
        var names: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for prefix in ["countExemption(\"", "noteFault(\"", "platformExcuse = \""] {
                names.formUnion(literals(after: prefix, in: text))
            }
            var inExemptionFunction = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.contains("func ") {
                    inExemptionFunction = line.contains("Exemption(") || line.contains("Excuse(")
                }
                guard inExemptionFunction, line.contains("return ") else { continue }
                names.formUnion(quoted(in: String(line)))
            }
            if file == "Invariants+SnoozeRing.swift", let list = text.components(separatedBy: "func noteSnoozePlatformFault").dropFirst().first {
                names.formUnion(quoted(in: String(list.prefix(400))))
            }
        }
        let kills = try String(contentsOf: root.appendingPathComponent("Sources/AndroidModel/AlarmTypes.swift"), encoding: .utf8)
        if let body = kills.components(separatedBy: "enum AndroidKillReason").dropFirst().first?.components(separatedBy: "}").first {
            names.formUnion(literals(after: "= \"", in: body))
        }
        return names
    }

    @Test("every name the oracle can count has an entry")
    func countedNamesHaveEntries() throws {
        let counted = try Self.countedNames()
        #expect(counted.count >= 30, "the source scan found only \(counted.sorted())")
        for name in ["mute-switch", "force-stop", "app-update", "alarmkit-unavailable", "late-delivery", "clock-jump-ambiguous-start"] {
            #expect(counted.contains(name), "the source scan missed \(name)")
        }
        let missing = counted.filter { ExemptionCatalog.info($0) == nil }.sorted()
        #expect(missing.isEmpty, "counted but not in ExemptionCatalog: \(missing)")
    }
}

import Campaign
import Simulation
import SimKernel

/// `alarmsim list`: the known defects, the invariants, the fault kinds or the exemptions, one per line.
struct ListCommand: Command {
    static let name = "list"
    static let abstract = "List the known defects, the invariants, the fault kinds or the exemptions, one per line: name, then a short description."
    static let usage = "alarmsim list defects|invariants|faults|exemptions"
    static let options = [
        "  -h, --help  show this help",
    ]
    static let examples = [
        "alarmsim list defects      # names to pass to --defect",
        "alarmsim list invariants   # IDs that violations and 'expect violation' lines use",
        "alarmsim list faults       # fault kinds for --faults: platforms, rate and unit, summary",
        "alarmsim list exemptions   # names counted in summaries: what each excuses, what the bridge must still do",
    ]

    enum Subject: String, CaseIterable {
        case defects, invariants, faults, exemptions
    }

    var subject: Subject

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: [], allowsPositionals: true)
        guard let word = parsed.positionals.first else {
            throw UsageError("missing what to list: say 'alarmsim list defects', 'alarmsim list invariants', 'alarmsim list faults' or 'alarmsim list exemptions'")
        }
        guard let subject = Subject(rawValue: word) else {
            throw UsageError("cannot list '\(word)'\(Suggestion.hint(for: word, among: Subject.allCases.map { $0.rawValue })): say 'alarmsim list defects', 'alarmsim list invariants', 'alarmsim list faults' or 'alarmsim list exemptions'")
        }
        guard parsed.positionals.count == 1 else {
            throw UsageError("unexpected argument '\(parsed.positionals[1])': list one thing at a time, defects, invariants, faults or exemptions")
        }
        self.subject = subject
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        let rows: [(String, String)]
        switch subject {
        case .defects:
            rows = KnownDefect.listed.map {
                ($0.rawValue, "\($0.summary) [platforms: \($0.platforms.map(\.rawValue).joined(separator: ", "))]")
            }
        case .invariants:
            rows = InvariantCatalog.all.map {
                ($0.id, $0.statement + ($0.rules.isEmpty ? "" : " [rules: \($0.rules.joined(separator: ", "))]"))
            }
        case .faults:
            rows = FaultCatalog.all.map {
                ($0.name, "\($0.summary) [platforms: \($0.platforms.map(\.rawValue).joined(separator: ", "))]"
                    + " [rate: \($0.rate) \($0.unit.rawValue); swarm switch: \($0.swarmChance)]"
                    + " [rules: \($0.rules.joined(separator: ", "))]")
            }
        case .exemptions:
            rows = ExemptionCatalog.all.map(Self.exemptionRow)
        }
        let width = rows.map(\.0.count).max() ?? 0
        for (name, description) in rows {
            output.write(name + String(repeating: " ", count: width - name.count + 2) + description + "\n")
        }
        return .success
    }

    /// One exemption: what it excuses, then its platforms, what the bridge must still do, the
    /// fault kinds that cause it (if any), its rules and the source of the limit.
    static func exemptionRow(_ info: ExemptionInfo) -> (String, String) {
        let causes = ExemptionScoreboard.exemptionFaults().first { $0.exemption == info.name }
        let faults = causes?.faults ?? ExemptionCatalog.faults(causing: info.name)
        let witnesses = ExemptionScoreboard.witnesses[info.name] ?? []
        return (info.name, info.explanation
            + " [platforms: \(info.platforms.map(\.rawValue).joined(separator: ", "))]"
            + " [the bridge must still: \(info.bridgeMustStill)]"
            + (faults.isEmpty ? "" : " [faults: \(faults.joined(separator: ", "))]")
            + (causes?.setup.map { " [scoreboard setup: \($0.rawValue)]" } ?? "")
            + (causes?.situation.map { " [also: \($0)]" } ?? "")
            + (witnesses.isEmpty ? "" : " [witness: \(witnesses.map(\.rawValue).joined(separator: ", "))]")
            + " [rules: \(info.rules.joined(separator: ", "))]"
            + " [source: \(info.source)]")
    }
}

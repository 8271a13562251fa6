import Foundation
import SimKernel
import Simulation

/// `report.md`: a failing run in Markdown — the violation (invariant, its statement, rule IDs,
/// message, local wall time, virtual ms, trace index), the repro line, every run parameter, the
/// shrunk scenario when there is one, and the last events before the violation.
public enum FailureReport {
    /// Events listed at the end of the report.
    public static let lastEventsCount = 30

    /// The Markdown report of `run`, ending with a newline.
    /// - Parameter rulebook: Where rule IDs link to (``RulebookLinks``): the path of
    ///   `Docs/rules.md` relative to the report's directory; the repository-root path by default.
    public static func markdown(_ run: FailureRun, rulebook: String = RulebookLinks.repositoryPath) -> String {
        let header = run.header
        var lines: [String] = []
        if let violation = run.violation {
            lines.append("# \(violation.invariant) — \(header.platform) seed \(header.seed)")
        } else {
            lines.append("# No violation — \(header.platform) seed \(header.seed)")
        }
        lines += violationSection(run, rulebook: rulebook)
        lines += ["", "## Repro", "", "```sh", run.reproLine, "```"]
        lines += runSection(run)
        if let scenario = run.shrunkScenario {
            let fence = fenceFor(scenario)
            lines += ["", "## Shrunk scenario", ""]
            if let link = run.shrunkLink {
                let name = link.split(separator: "/").last.map(String.init) ?? link
                lines += ["File: [\(MarkdownText.escaped(name))](\(link))", ""]
            }
            lines += [fence, scenario.hasSuffix("\n") ? String(scenario.dropLast()) : scenario, fence]
        }
        lines += lastEventsSection(run)
        lines += [
            "", "## Files", "",
            "- `trace.jsonl` — the full trace as JSON Lines (a header line, then one event per line)",
            "- `timeline.html` — the timeline page (one self-contained HTML file)",
        ]
        lines += ["", "## What next", ""] + whatNext(run)
        return lines.joined(separator: "\n") + "\n"
    }

    /// "## Violation": the first violation's invariant, statement, rules, message, local time and
    /// trace index, then any later ones.
    static func violationSection(_ run: FailureRun, rulebook: String) -> [String] {
        var lines = ["", "## Violation", ""]
        guard let violation = run.violation else { return lines + ["The run broke no invariant."] }
        lines.append("- **Invariant:** `\(violation.invariant)`")
        if let info = InvariantCatalog.info(violation.invariant) {
            lines.append("- **Statement:** \(oneLine(info.statement))")
        }
        lines.append("- **Rules:** " + (violation.rules.isEmpty ? "none" : violation.rules.map { RulebookLinks.markdown($0, rulebook: rulebook, code: true) }.joined(separator: ", ")))
        lines.append("- **Message:** \(oneLine(violation.message))")
        lines.append("- **When:** \(violation.localTime(fallbackZone: run.startZone))")
        lines.append("- **Trace event:** \(violation.eventIndex)")
        for other in run.violations.dropFirst() {
            lines.append("- **Also:** `\(other.invariant)` at trace event \(other.eventIndex): \(oneLine(other.message))")
        }
        return lines
    }

    /// "## Run": the seed's parameters in readable form, its exemptions and trace facts.
    static func runSection(_ run: FailureRun) -> [String] {
        let time = LocalTimeFormat(zoneIdentifier: run.startZone)
        let header = run.header
        var lines = ["", "## Run", "", "| parameter | value |", "|---|---|"]
        lines.append("| platform | \(cell(header.platform)) |")
        lines.append("| seed | \(header.seed) |")
        lines.append("| defects | \(cell(header.defects.isEmpty ? "none" : header.defects.joined(separator: ", "))) |")
        for parameter in header.parameters where parameter.name != "zone-data" {  // its own row below
            lines.append("| \(cell(displayName(parameter))) | \(cell(readable(parameter, time: time))) |")
        }
        lines.append("| exemptions | \(cell(SummaryFormatter.exemptionList(run.exemptions))) |")
        lines.append("| zone data | \(cell(header.zoneData)) |")
        lines.append("| events processed | \(header.eventsProcessed) |")
        lines.append("| trace records | \(header.traceEventCount) |")
        lines.append("| virtual duration | \(HumanText.duration(run.virtualDurationMs)) |")
        lines.append("| trace hash | `\(header.traceHashHex)` |")
        return lines
    }

    /// The last ``lastEventsCount`` events up to the violation (or the run's end), as the
    /// explainer prints them, and those after it at the same instant.
    static func lastEventsSection(_ run: FailureRun) -> [String] {
        let events = lastEvents(run, count: lastEventsCount)
        let what = run.violation == nil ? "the end of the run" : "the violation"
        let after = run.violation.map { violation in events.filter { $0.index > violation.eventIndex }.count } ?? 0
        let shown = Set(events.map(\.index))
        let block = TraceExplainer.lines(run, all: true) { shown.contains($0.index) }.map(MarkdownText.codeLine).joined(separator: "\n")
        let fence = fenceFor(block)
        return [
            "",
            "## The last \(events.count - after) events up to \(what)" + (after > 0 ? ", and the \(after) after it at the same instant" : ""),
            "",
            "Local wall time in \(run.startZone); `#` is the trace index (`trace.jsonl`).",
            "",
            fence, block, fence,
        ]
    }

    /// The commands a person runs next for this failure, as Markdown list items: `explain` (the
    /// timeline in local time), `shrink` (the smallest scenario that still fails), `diff` (where a
    /// defect's run leaves the correct bridge's) and the shrunk file, when one was written.
    public static func whatNext(_ run: FailureRun) -> [String] {
        var items: [String] = []
        let replay = "alarmsim replay "
        if run.reproLine.hasPrefix(replay) {
            let arguments = String(run.reproLine.dropFirst(replay.count))
            // Under Reports/shrunk/ (ignored by git), so following the advice leaves the tree clean.
            let name = "Reports/shrunk/\(run.header.platform)-\(run.header.seed)-\(run.violation?.invariant ?? "run").scenario"
            items.append("- `alarmsim explain \(arguments)` — the run as a local-time timeline, event by event")
            items.append("- `alarmsim shrink \(arguments) --out \(name)` — the smallest scenario that still breaks the same invariant")
            if !run.header.defects.isEmpty {
                let correct = arguments.replacingOccurrences(of: #" --defect [a-z0-9-]+"#, with: "", options: .regularExpression)
                let defects = run.header.defects.map { "--defect \($0)" }.joined(separator: " ")
                items.append("- `alarmsim diff \(correct) \(defects)` — the first event where the defect's run leaves the correct bridge's")
            }
        } else {
            items.append("- `\(run.reproLine)` — run it again")
        }
        if let path = run.shrunkPath {
            items.append("- `alarmsim run \(path)` — the shrunk scenario shown above, as written by this campaign")
        }
        return items
    }

    /// A run parameter's name for people: an instant shown as local wall time loses its unit
    /// (`start-wall-ms` → `start`); every other name as it is.
    public static func displayName(_ parameter: RunParameter) -> String {
        guard parameter.name.hasSuffix("-wall-ms"), Int64(parameter.value) != nil else { return parameter.name }
        return String(parameter.name.dropLast("-wall-ms".count))
    }

    /// A run parameter's value for people: a `…-wall-ms` instant as local wall time, a `…-ms`
    /// duration in the largest fitting units with its exact value; any other value as it is.
    public static func readable(_ parameter: RunParameter, time: LocalTimeFormat) -> String {
        guard let ms = Int64(parameter.value) else { return TraceExplainer.localizingInstants(parameter.value, time: time) }
        if parameter.name.hasSuffix("-wall-ms") { return time.dateTime(ms, milliseconds: false) }
        if parameter.name.hasSuffix("-ms"), ms >= 1_000 { return "\(HumanText.duration(ms)) (\(ms) ms)" }
        return parameter.value
    }

    /// The last `count` events up to and including the violation's (or the last event), and
    /// then the rest of the violation's instant (at most 5 events): a check that runs as the
    /// platform receives a request records its violation before the request's own event, so the
    /// cancel or schedule the message names follows it at the same instant.
    public static func lastEvents(_ run: FailureRun, count: Int) -> [TraceEvent] {
        guard let index = run.violation?.eventIndex, let position = run.events.firstIndex(where: { $0.index == index }) else {
            return Array(run.events.suffix(count))
        }
        let at = run.events[position].trueMs
        let after = run.events[(position + 1)...].prefix { $0.trueMs == at }.prefix(5)
        return Array(run.events[...position].suffix(count)) + after
    }

    /// A table cell: pipes escaped, line breaks as spaces.
    static func cell(_ text: String) -> String {
        MarkdownText.escaped(text)
    }

    static func oneLine(_ text: String) -> String {
        MarkdownText.escaped(text)
    }

    /// A backtick fence longer than any backtick run inside `text`.
    static func fenceFor(_ text: String) -> String {
        var longest = 0, current = 0
        for character in text {
            current = character == "`" ? current + 1 : 0
            longest = max(longest, current)
        }
        return String(repeating: "`", count: max(3, longest + 1))
    }
}

import AlarmBridge
import Campaign
import Foundation
import Simulation

extension CampaignReport {
    /// `summary.md`: the options, one table row per platform, then each failing seed with its
    /// invariant, rules, message, virtual time, repro line and, when written, links to its
    /// per-failure artifacts.
    /// - Parameters:
    ///   - artifacts: Relative artifacts directories by index in `summary.failing`.
    ///   - shrunk: Shrunk scenario paths relative to the report directory, by the same index.
    ///   - rulebook: Where rule IDs link to (``RulebookLinks``): the path of `Docs/rules.md`
    ///     relative to the report directory; the repository-root path by default.
    public static func markdown(_ summary: FuzzSummary, artifacts: [Int: String] = [:], shrunk: [Int: String] = [:],
                                rulebook: String = RulebookLinks.repositoryPath) -> String {
        let options = summary.options
        var lines = ["# alarmsim fuzz campaign", ""]
        lines.append("- seeds: \(options.seeds.lowerBound)..\(options.seeds.upperBound)"
            + (options.shard.map { ", shard \($0.index)/\($0.count)" } ?? "")
            + (options.budgetSeconds.map { ", time budget \($0) s" } ?? ""))
        lines.append("- defects: " + (options.defects.isEmpty ? "none" : options.defects.map(\.rawValue).joined(separator: ", ")))
        lines.append("- faults: " + (options.faults.commandLineArguments.isEmpty ? "--profile swarm" : options.faults.commandLineArguments.joined(separator: " ")))
        lines.append("- liveness phase: " + (options.liveness ? "on" : "off (--no-liveness)"))
        if summary.interrupted {
            lines.append("- **interrupted** (stopped by SIGINT or SIGTERM): only the seeds run below count")
        }
        lines += ["", "| platform | seeds run | seeds | failing | events | exemptions |", "|---|---|---:|---:|---:|---|"]
        for tally in summary.tallies {
            lines.append("| \(tally.platform.rawValue) | \(SummaryFormatter.rangeList(tally.seedsRun)) | \(tally.seeds) | \(tally.failures) | \(tally.events) | \(markdownCell(SummaryFormatter.exemptionList(tally.exemptions))) |")
        }
        lines += ["", "What the names mean: `alarmsim list exemptions` (each exemption: the platform limit it names and what the bridge must still do), `alarmsim list invariants`, and the rule IDs in the rulebook (`Docs/rules.md`)."]
        if let known = summary.known { lines += knownMarkdown(known) }
        lines += ["", "## Failing seeds", ""]
        if summary.failing.isEmpty { lines.append("None: every seed ran without a violation.") }
        for (index, failing) in summary.failing.enumerated() {
            let violation = failing.violation
            lines.append("### \(failing.platform.rawValue) seed \(failing.seed): \(violation.invariant)")
            lines.append("")
            lines.append("- message: \(markdownCell(violation.message))")
            if let signal = failing.signal {
                lines.append("- worker died: \(signal)")
            } else {
                lines.append("- rules: " + (violation.rules.isEmpty ? "none" : violation.rules.map { RulebookLinks.markdown($0, rulebook: rulebook) }.joined(separator: ", ")))
                lines.append("- found at \(violation.localTime(fallbackZone: "UTC")), after trace event \(violation.eventIndex)")
            }
            lines.append("- repro: `\(failing.repro)`")
            if failing.signal == nil, failing.repro.hasPrefix("alarmsim replay ") {
                let arguments = failing.repro.dropFirst("alarmsim replay ".count)
                lines.append("- next: `alarmsim explain \(arguments)` (the timeline in local time), `alarmsim shrink \(arguments)` (the smallest failing scenario)")
            }
            if let directory = artifacts[index] {
                lines.append("- artifacts: [timeline](\(directory)/timeline.html), [report](\(directory)/report.md), [trace](\(directory)/trace.jsonl)")
            }
            if let path = shrunk[index] {
                lines.append("- shrunk scenario: [\(markdownCell(path))](\(path)) (replays with `alarmsim run`)")
            }
            lines.append("")
        }
        lines.append("violations: \(summary.violationCount)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The "Known failures replayed" section of `summary.md`: each replayed repro line and whether
    /// it still fails.
    static func knownMarkdown(_ known: KnownReplay) -> [String] {
        var lines = ["", "## Known failures replayed", "", "\(markdownCell(known.line)), from `\(markdownCell(known.file))`, before the seed range.", ""]
        for repro in known.replayed {
            if let failing = known.stillFailing.first(where: { $0.repro == repro }) {
                lines.append("- `\(repro)` — **still failing**: \(failing.violation.invariant) — \(markdownCell(failing.violation.message))")
            } else {
                lines.append("- `\(repro)` — passes now (its fix has landed? remove the line once its regression scenario is committed)")
            }
        }
        return lines
    }

    /// `junit.xml`: one `<testsuite>` per platform, one `<testcase>` per invariant of
    /// ``InvariantCatalog/all`` (every invariant is checked on both platforms) plus any other
    /// invariant a seed broke (`crash`, `run-limit`), in catalog order then by name. A broken
    /// invariant's `<failure>` lists its seeds and repro lines, and each seed's shrunk scenario
    /// (`shrunk`: paths relative to the report directory, by index in `summary.failing`). When known
    /// failures were replayed, one more `<testsuite>` has a `<testcase>` per replayed repro line.
    /// Every text is XML-escaped.
    public static func junit(_ summary: FuzzSummary, shrunk: [Int: String] = [:]) -> String {
        var suites: [String] = []
        var testsTotal = 0
        var failuresTotal = 0
        for tally in summary.tallies {
            let indices = summary.failing.indices.filter { summary.failing[$0].platform == tally.platform }
            let failing = indices.map { summary.failing[$0] }
            let catalog = InvariantCatalog.all.map(\.id)
            let extra = Array(Set(failing.map(\.violation.invariant)).subtracting(catalog)).sorted()
            var cases: [String] = []
            var failures = 0
            for invariant in catalog + extra {
                let brokenIndices = indices.filter { summary.failing[$0].violation.invariant == invariant }
                let broken = brokenIndices.map { summary.failing[$0] }
                // time="0": the campaign's files are a pure function of its seeds (byte-identical for
                // every --jobs), so no wall time goes into them; the attribute is there for consumers
                // that require it.
                let open = "    <testcase classname=\"alarmsim.\(tally.platform.rawValue)\" name=\"\(xmlEscaped(invariant))\" time=\"0\""
                guard !broken.isEmpty else {
                    cases.append(open + "/>")
                    continue
                }
                failures += 1
                // The first failing seed, whole, where CI annotations show it; the rest in the body.
                let first = broken[0]
                let more = broken.count == 1 ? "" : " (and \(broken.count - 1) more failing \(broken.count == 2 ? "seed" : "seeds"))"
                let message = "seed \(first.seed): \(first.violation.message) — repro: \(first.repro)\(more)"
                let body = brokenIndices.map { index in
                    let failing = summary.failing[index]
                    return "seed \(failing.seed): \(failing.violation.message)" + (failing.signal.map { " [\($0)]" } ?? "") + "\nrepro: \(failing.repro)"
                        + (shrunk[index].map { "\nshrunk: \($0) (in the report directory)" } ?? "")
                }.joined(separator: "\n")
                cases.append(open + ">")
                cases.append("      <failure type=\"\(xmlEscaped(invariant))\" message=\"\(xmlEscaped(message))\">\(xmlEscaped(body))</failure>")
                cases.append("    </testcase>")
            }
            testsTotal += catalog.count + extra.count
            failuresTotal += failures
            let properties = [
                ("seeds", SummaryFormatter.rangeList(tally.seedsRun)),
                ("defects", tally.defects.map(\.rawValue).joined(separator: " ")),
                ("interrupted", summary.interrupted ? "true" : "false"),
            ].map { "      <property name=\"\($0.0)\" value=\"\(xmlEscaped($0.1))\"/>" }
            suites.append("  <testsuite name=\"alarmsim fuzz \(tally.platform.rawValue)\" tests=\"\(catalog.count + extra.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"0\">")
            suites += ["    <properties>"] + properties + ["    </properties>"] + cases + ["  </testsuite>"]
        }
        if let known = summary.known {
            suites += knownJUnit(known)
            testsTotal += known.replayed.count
            failuresTotal += known.stillFailing.count
        }
        let head = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"alarmsim fuzz\" tests=\"\(testsTotal)\" failures=\"\(failuresTotal)\" errors=\"0\">",
        ]
        return (head + suites + ["</testsuites>"]).joined(separator: "\n") + "\n"
    }

    /// The known failures' `<testsuite>`: one `<testcase>` per replayed repro line, failing while
    /// its seed still fails.
    static func knownJUnit(_ known: KnownReplay) -> [String] {
        var lines = ["  <testsuite name=\"alarmsim known failures\" tests=\"\(known.replayed.count)\" failures=\"\(known.stillFailing.count)\" errors=\"0\" skipped=\"0\" time=\"0\">",
                     "    <properties>", "      <property name=\"file\" value=\"\(xmlEscaped(known.file))\"/>", "    </properties>"]
        for repro in known.replayed {
            let open = "    <testcase classname=\"alarmsim.known\" name=\"\(xmlEscaped(repro))\" time=\"0\""
            guard let failing = known.stillFailing.first(where: { $0.repro == repro }) else {
                lines.append(open + "/>")
                continue
            }
            let message = "still failing: \(failing.violation.invariant): \(failing.violation.message)" + (failing.signal.map { " [\($0)]" } ?? "")
            lines += [open + ">",
                      "      <failure type=\"\(xmlEscaped(failing.violation.invariant))\" message=\"\(xmlEscaped(message))\">\(xmlEscaped(message + "\nrepro: " + repro))</failure>",
                      "    </testcase>"]
        }
        return lines + ["  </testsuite>"]
    }

    /// XML text and attribute values, escaped as the HTML pages are (``HTMLText/escaped(_:)``).
    public static func xmlEscaped(_ text: String) -> String { HTMLText.escaped(text) }

    /// A Markdown table cell or list item: `|` escaped, newlines as spaces.
    static func markdownCell(_ text: String) -> String {
        MarkdownText.escaped(text)
    }
}

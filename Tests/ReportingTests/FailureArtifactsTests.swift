import AlarmBridge
import Foundation
import Reporting
import SimKernel
import Simulation
import Testing

@Suite("Failure artifacts: trace.jsonl, report.md, timeline.html")
struct FailureArtifactsTests {
    /// ios seed 1 with the seed-003 title bug: a known `stable-ids` failure (README).
    static let options = RunOptions(platform: .ios, seed: 1, defects: [.titleInRingID])

    private func temporaryDirectory(_ label: String) throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/alarmsim-artifacts-\(label)-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return String(cString: made)
    }

    private func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The text of the SVG element with `id`.
    private func svg(_ id: String, in html: String) throws -> String {
        let start = try #require(html.range(of: "<svg class=\"timeline\" id=\"\(id)\""))
        let end = try #require(html.range(of: "</svg>", range: start.upperBound..<html.endIndex))
        return String(html[start.lowerBound..<end.upperBound])
    }

    @Test("a failing seed's three files: one self-contained HTML page with one lane per root, lifecycle and fault lanes, the violation marked")
    func knownFailingSeed() throws {
        let directory = try temporaryDirectory("ios-1")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let paths = try FailureArtifacts.write(options: Self.options, shrunkScenario: "platform ios\nalarm a1 05:09 once\n", into: directory + "/nested/ios-1")
        #expect(paths.map { ($0 as NSString).lastPathComponent } == ["trace.jsonl", "report.md", "timeline.html"])

        let html = try String(contentsOfFile: paths[2], encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html"))
        #expect(count("<html", in: html) == 1 && count("</html>", in: html) == 1, "a single document")
        #expect(count("<body", in: html) == 1)
        #expect(html.hasSuffix("</html>\n"))
        // Self-contained: no script, no external reference of any kind.
        for forbidden in ["http", "src=", "<script", "<link", "@import", "url(", "href="] {
            #expect(!html.contains(forbidden), "the page contains \(forbidden)")
        }
        let overview = try svg("overview", in: html)
        // One lane per root the run scheduled a ring for, read back from the trace itself.
        let result = Simulator.run(RunOptions(platform: .ios, seed: 1, defects: [.titleInRingID], keepFullTrace: true))
        let roots = Set(result.trace.events.filter { $0.component == "bridge" && $0.name == "schedule" }.compactMap { $0.field("root") })
        #expect(roots.count >= 2, "the seed schedules several weekday roots")
        #expect(count("class=\"lane lane-root\"", in: overview) == roots.count)
        for root in roots {
            #expect(overview.contains("data-lane=\"\(root)\""), "no lane for root \(root)")
        }
        #expect(count("class=\"lane lane-lifecycle\"", in: overview) == 1)
        #expect(count("class=\"lane lane-faults\"", in: overview) == 1)
        #expect(count("<g class=\"violation\">", in: overview) == 1, "the violation is marked")
        #expect(overview.contains("stable-ids"))
        // Hover text for every bar and mark: each shape carries a <title>.
        let shapes = count("<rect class=\"bar ", in: overview) + count("class=\"mark ", in: overview)
        #expect(shapes > 20)
        #expect(count("<title>", in: overview) >= shapes)
        #expect(count("class=\"bar scheduled\"", in: overview) > 0 && count("class=\"bar alerting\"", in: overview) > 0)
        #expect(count("class=\"tick\"", in: overview) >= 5, "a time axis")
        #expect(overview.contains("+01:00"), "ticks and hover text in Europe/Berlin local time")
        #expect(html.contains("<svg class=\"timeline\" id=\"detail\""), "the detail before the violation")

        let markdown = try String(contentsOfFile: paths[1], encoding: .utf8)
        for section in ["# stable-ids — ios seed 1", "## Violation", "## Repro", "## Run", "## Shrunk scenario",
                        "## The last 30 events up to the violation", "## Files"] {
            #expect(markdown.contains("\n\(section)") || markdown.hasPrefix(section + "\n"), "missing \(section)")
        }
        #expect(markdown.contains("`ID-2`"))
        #expect(markdown.contains("alarmsim replay --platform ios --seed 1 --defect title-in-ring-id"))
        #expect(markdown.contains("```\nplatform ios\nalarm a1 05:09 once\n```"))
        #expect(markdown.contains("| zone | Europe/Berlin |"))
        let violation = try #require(result.firstViolation)
        #expect(markdown.contains("#\(violation.eventIndex) "), "the event list reaches the violation")
        // After it, only the rest of its instant (the request a per-command check names).
        let violationTrueMs = try #require(result.trace.events.first { $0.index == violation.eventIndex }?.trueMs)
        for event in result.trace.events where event.index > violation.eventIndex && markdown.contains("#\(event.index) ") {
            #expect(event.trueMs == violationTrueMs, "#\(event.index) is after the violation's instant")
        }

        let trace = try String(contentsOfFile: paths[0], encoding: .utf8)
        #expect(trace == TraceWriter.jsonLines(result), "the full trace of the replayed run")

        // A pure function of the run: written again, byte for byte the same.
        let again = try FailureArtifacts.write(options: Self.options, shrunkScenario: "platform ios\nalarm a1 05:09 once\n", into: directory + "/again")
        for (first, second) in zip(paths, again) {
            #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
        }
    }

    /// A run whose every text is hostile: titles, root IDs, messages, parameters.
    static func hostileRun() -> FailureRun {
        let hostile = "<script>&\"'"
        var trace = Trace(keepLast: nil)
        let start: Int64 = 1_772_430_000_000
        func record(_ component: String, _ name: String, _ fields: [TraceField], at offset: Int64) {
            trace.record(component: component, name: name, fields: fields, trueMs: start + offset, wallMs: start + offset, monotonicMs: offset)
        }
        record("sim", "start", [TraceField("platform", "ios"), TraceField("seed", "7"), TraceField("zone", "Europe/Berlin")], at: 0)
        record("plan", "action", [TraceField("action", "userEditTitle(alarmID: \"a1\", title: \"\(hostile)\")")], at: 1_000)
        record("bridge", "input", [TraceField("input", "saveAlarm(a1, title \(hostile))")], at: 1_000)
        record("bridge", "schedule", [TraceField("id", "ring-1"), TraceField("kind", "primary"), TraceField("root", "a1.\(hostile)"),
                                      TraceField("schedule", "fixed(\(start + 60_000))"), TraceField("origin", "directSave")], at: 1_000)
        record("ios", "alerting", [TraceField("id", "ring-1")], at: 60_000)
        record("user", "stop", [TraceField("id", "ring-1")], at: 70_000)
        record("ios", "alert-ended", [TraceField("id", "ring-1")], at: 70_000)
        record("plan", "action", [TraceField("action", "faultProcessDeath")], at: 80_000)
        record("check", "violation", [TraceField("invariant", "never-silent"), TraceField("message", hostile)], at: 90_000)
        record("sim", "end", [TraceField("events", "9")], at: 90_000)
        let header = TraceHeader(platform: "ios", seed: 7, defects: [hostile], parameters: [RunParameter("zone", "Europe/Berlin"), RunParameter("title", hostile)],
                                 zoneData: "2025b", eventsProcessed: 9, traceEventCount: trace.count, traceHashHex: trace.hashHex)
        let violation = Violation(invariant: "never-silent", rules: ["OCC-5"], message: "alarm \(hostile) went silent",
                                  trueMs: start + 90_000, wallMs: start + 90_000, eventIndex: 8)
        return FailureRun(header: header, violations: [violation], reproLine: "alarmsim replay --seed 7 \(hostile)", events: trace.events,
                          shrunkScenario: "user edit-title a1 \"\(hostile)\"")
    }

    @Test("every text from the run is HTML-escaped: a hostile alarm title never becomes markup")
    func hostileTextIsEscaped() throws {
        let html = TimelinePage.html(Self.hostileRun())
        #expect(!html.contains("<script"), "raw markup leaked")
        #expect(!html.contains("&\"'"), "raw ampersand and quotes leaked")
        #expect(html.contains("&lt;script&gt;&amp;&quot;&#39;"))
        #expect(html.contains("data-lane=\"a1.&lt;script&gt;&amp;&quot;&#39;\""), "the hostile root has its lane, escaped")
        // Every `<` in the page opens a known element: no tag was injected.
        let tags = Set(html.components(separatedBy: "<").dropFirst().map { String($0.prefix { $0.isLetter || $0.isNumber || $0 == "/" || $0 == "!" }) })
        let allowed: Set<String> = ["!DOCTYPE", "html", "/html", "head", "/head", "meta", "title", "/title", "style", "/style", "body", "/body",
                                    "header", "/header", "h1", "/h1", "h2", "/h2", "div", "/div", "p", "/p", "strong", "/strong", "span", "/span",
                                    "time", "/time", "code", "/code", "section", "/section", "svg", "/svg", "g", "/g", "rect", "/rect", "line",
                                    "/line", "text", "/text", "path", "/path", "circle", "/circle", "br", "table", "/table", "thead", "/thead",
                                    "tbody", "/tbody", "tr", "/tr", "th", "/th", "td", "/td", "footer", "/footer"]
        #expect(tags.subtracting(allowed).isEmpty, "unexpected tags \(tags.subtracting(allowed).sorted())")
        #expect(HTMLText.escaped("a\u{0}b\u{1B}c") == "a\u{FFFD}b\u{FFFD}c", "control characters are not XML")
    }

    @Test("the timeline reads root states from the trace: scheduled until it fires, alerting until it ends, stop and faults as marks")
    func timelineStates() throws {
        let timeline = Timeline(Self.hostileRun())
        #expect(timeline.lanes.map(\.category) == [.root, .actions, .lifecycle, .faults])
        let root = timeline.lanes[0]
        let scheduled = try #require(root.bars.first { $0.kind == .scheduled })
        let alerting = try #require(root.bars.first { $0.kind == .alerting })
        #expect(scheduled.endMs == alerting.startMs, "pending until it fired")
        #expect(alerting.endMs - alerting.startMs == 10_000)
        #expect(root.marks.map(\.kind) == [.fired, .dismissed])
        #expect(timeline.lanes[3].marks.count == 1, "the process-death fault")
        #expect(timeline.lanes[1].marks.map(\.label) == ["edit-title", "save"], "the user's title edit and JS's save")
        #expect(timeline.violation?.label == "never-silent")
    }

    @Test("a directory that cannot be created is a WriteError naming the path; nothing is half written")
    func unwritableDirectory() throws {
        let directory = try temporaryDirectory("unwritable")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/plain-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: FailureArtifacts.WriteError.self) {
            try FailureArtifacts.write(Self.hostileRun(), into: file + "/report")
        }
        do {
            try FailureArtifacts.write(Self.hostileRun(), into: file)
            Issue.record("writing into a file succeeded")
        } catch {
            #expect(error.description.contains(file))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["plain-file"])
    }
}

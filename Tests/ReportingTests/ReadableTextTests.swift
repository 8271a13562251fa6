import AlarmBridge
import Foundation
import Reporting
import SimKernel
import Simulation
import Testing

/// Text for people: durations, local times, Markdown that user input cannot break (issue 17 part 3).
@Suite("Readable text: durations, local times, safe Markdown, what next")
struct ReadableTextTests {
    @Test("durations read in the largest fitting units", arguments: [
        (Int64(0), "0 ms"), (17, "17 ms"), (999, "999 ms"), (1_000, "1.000 s"), (5_001, "5.001 s"), (45_210, "45.2 s"),
        (60_000, "1 min"), (189_373, "3 min 9 s"), (3_600_000, "1 h"), (7_500_000, "2 h 5 min"), (90_000_000, "1 d 1 h"),
        (-600_000, "−10 min"),
    ])
    func durations(ms: Int64, text: String) {
        #expect(HumanText.duration(ms) == text)
    }

    @Test("a violation's instant is local wall time in the zone recorded with it")
    func violationLocalTime() {
        // 2026-03-02 06:00:00 UTC is 07:00 in Berlin (CET, +01:00).
        let violation = Violation(invariant: "never-silent", rules: [], message: "m", trueMs: 1_772_431_200_000,
                                  wallMs: 1_772_431_200_000, eventIndex: 3, zone: "Europe/Berlin")
        #expect(violation.localTime(fallbackZone: "UTC") == "2026-03-02 07:00:00 Europe/Berlin")
        var old = violation
        old.zone = nil
        #expect(old.localTime(fallbackZone: "UTC") == "2026-03-02 06:00:00 UTC", "a summary from before the zone was kept")
    }

    @Test("user text in Markdown shows as text: no HTML, no markup, no control characters")
    func markdownEscaping() {
        let title = "\"><img src=x onerror=alert(1)> *bold* [link](x) `code` | cell\u{0}\u{1B}[31m\nnext # h"
        let escaped = MarkdownText.escaped(title)
        #expect(!escaped.contains("<") && !escaped.contains(">"), "no tag survives")
        #expect(escaped.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(escaped.contains("\\*bold\\*") && escaped.contains("\\[link\\]") && escaped.contains("\\`code\\`") && escaped.contains("\\|"))
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "NUL, ESC and line breaks are gone")
        #expect(escaped.contains("␀␛\\[31m next \\# h"))
        #expect(MarkdownText.codeLine("a\u{0}b\u{1B}c\u{7F}") == "a␀b␛c␡")
    }

    /// A failing run whose alarm title and message are hostile.
    static func hostileRun() -> FailureRun {
        let hostile = "\"><img src=x onerror=alert(1)>\u{0}\u{1B}[2J"
        var trace = Trace(keepLast: nil)
        let start: Int64 = 1_772_430_000_000
        trace.record(component: "sim", name: "start", fields: [TraceField("platform", "ios"), TraceField("seed", "7"), TraceField("zone", "Europe/Berlin")],
                     trueMs: start, wallMs: start, monotonicMs: 0)
        trace.record(component: "bridge", name: "input", fields: [TraceField("input", "saveAlarm(a1, title \(hostile))")],
                     trueMs: start + 1_000, wallMs: start + 1_000, monotonicMs: 1_000)
        trace.record(component: "check", name: "violation", fields: [TraceField("invariant", "stable-ids"), TraceField("message", hostile)],
                     trueMs: start + 2_000, wallMs: start + 2_000, monotonicMs: 2_000)
        let header = TraceHeader(platform: "ios", seed: 7, defects: ["title-in-ring-id"], parameters: [RunParameter("title", hostile)],
                                 zoneData: "2025b", eventsProcessed: 3, traceEventCount: trace.count, traceHashHex: trace.hashHex)
        let violation = Violation(invariant: "stable-ids", rules: ["ID-2"], message: "title now \(hostile)", trueMs: start + 2_000,
                                  wallMs: start + 2_000, eventIndex: 2, zone: "Europe/Berlin")
        return FailureRun(header: header, violations: [violation],
                          reproLine: "alarmsim replay --platform ios --seed 7 --defect title-in-ring-id", events: trace.events,
                          shrunkPath: "Reports/shrunk/ios-7-stable-ids.scenario")
    }

    @Test("report.md: the violation in local time, user text escaped, no control characters, and what to run next")
    func failureReport() {
        let markdown = FailureReport.markdown(Self.hostileRun())
        // Outside fenced code blocks (where Markdown shows text as it is) no tag survives.
        let prose = markdown.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
        #expect(!prose.contains("<img"), "the title never becomes HTML")
        #expect(prose.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!markdown.unicodeScalars.contains { $0.value == 0 || $0.value == 0x1B }, "NUL and ESC never reach a terminal")
        #expect(markdown.contains("- **When:** 2026-03-02 06:40:02 Europe/Berlin"))
        #expect(!markdown.contains("1772430002000"), "no epoch milliseconds")
        let next = markdown.components(separatedBy: "## What next").last ?? ""
        #expect(next.contains("`alarmsim explain --platform ios --seed 7 --defect title-in-ring-id`"))
        #expect(next.contains("`alarmsim shrink --platform ios --seed 7 --defect title-in-ring-id --out Reports/shrunk/ios-7-stable-ids.scenario`"))
        #expect(next.contains("`alarmsim diff --platform ios --seed 7 --defect title-in-ring-id`"))
        #expect(next.contains("`alarmsim run Reports/shrunk/ios-7-stable-ids.scenario`"))
    }

    @Test("explain lines speak the product's terms: no module or type names, no Optional(…), instants in local time")
    func explainLines() {
        var trace = Trace(keepLast: nil)
        let start: Int64 = 1_772_430_000_000
        trace.record(component: "sim", name: "start", fields: [TraceField("zone", "Europe/Berlin")], trueMs: start, wallMs: start, monotonicMs: 0)
        trace.record(component: "plan", name: "action",
                     fields: [TraceField("action", "userEditAlarm(alarmID: \"a1\", edit: Simulation.AlarmEdit.sounds(Optional(AlarmBridge.SoundSettings(pool: [], groups: nil, mode: Optional(AlarmBridge.SoundSettings.PlaybackMode.progressive)))))")],
                     trueMs: start + 1_000, wallMs: start + 1_000, monotonicMs: 1_000)
        trace.record(component: "sim", name: "heal", fields: [TraceField("end-ms", String(start + 3_600_000))],
                     trueMs: start + 2_000, wallMs: start + 2_000, monotonicMs: 2_000)
        let header = TraceHeader(platform: "ios", seed: 1, defects: [], parameters: [], zoneData: "2025b", eventsProcessed: 3,
                                 traceEventCount: trace.count, traceHashHex: trace.hashHex)
        let run = FailureRun(header: header, violations: [], reproLine: "alarmsim replay --platform ios --seed 1", events: trace.events)
        let lines = TraceExplainer.lines(run, all: true) { _ in true }
        #expect(lines[1].hasSuffix("user      edit alarm (alarm ID \"a1\", edit sounds (sound settings (pool [], groups none, mode progressive)))"), "\(lines[1])")
        #expect(lines[2].hasSuffix("heal end=2026-03-02 07:40:00 +01:00"))
        let whole = TraceExplainer.lines(run, all: true, full: true) { _ in true }[1]
        #expect(whole.hasSuffix("edit sounds (sound settings (pool [], groups none, mode progressive)))"), "--all keeps the text whole, in people's terms")
        #expect(!whole.contains("Optional(") && !whole.contains("AlarmBridge."))
    }

    @Test("the plan's user actions between a shutdown and its boot read as having no effect; the platform's own events do not")
    func phoneOffActions() {
        var trace = Trace(keepLast: nil)
        let start: Int64 = 1_772_430_000_000
        trace.record(component: "sim", name: "start", fields: [TraceField("zone", "Europe/Berlin")], trueMs: start, wallMs: start, monotonicMs: 0)
        trace.record(component: "device", name: "shutdown", fields: [], trueMs: start + 1_000, wallMs: start + 1_000, monotonicMs: 1_000)
        trace.record(component: "app", name: "process-death", fields: [TraceField("reason", "reboot")], trueMs: start + 1_000, wallMs: start + 1_000, monotonicMs: 1_000)
        trace.record(component: "plan", name: "action", fields: [TraceField("action", "userOpenApp")], trueMs: start + 2_000, wallMs: start + 2_000, monotonicMs: 2_000)
        trace.record(component: "device", name: "boot", fields: [], trueMs: start + 46_000, wallMs: start + 46_000, monotonicMs: 0)
        trace.record(component: "plan", name: "action", fields: [TraceField("action", "userOpenApp")], trueMs: start + 50_000, wallMs: start + 50_000, monotonicMs: 4_000)
        let header = TraceHeader(platform: "ios", seed: 1, defects: [], parameters: [], zoneData: "2025b", eventsProcessed: 6,
                                 traceEventCount: trace.count, traceHashHex: trace.hashHex)
        let run = FailureRun(header: header, violations: [], reproLine: "alarmsim replay --platform ios --seed 1", events: trace.events)
        let lines = TraceExplainer.lines(run, all: true) { _ in true }
        #expect(lines.filter { $0.hasSuffix("(phone off: no effect)") }.count == 1, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("user      open app (phone off: no effect)") })
        #expect(lines.last?.hasSuffix("user      open app") == true)
    }

    @Test("JS's retry of a failed save reads as the alarm's ID, time and title, not a struct dump")
    func retriedSaveText() {
        let action = "appRetrySave(AlarmBridge.LogicalAlarm(id: \"a3\", hour: 5, minute: 54, repeats: AlarmBridge.AlarmRepeat.once(fireWallMs: 1769230440000), title: \"Alarm 3, edit 5\", policy: AlarmBridge.InactivityPolicy.v3, enabled: true), generation: 0)"
        #expect(TraceExplainer.retriedSave(action) == "retry save of alarm \"a3\" (05:54, title \"Alarm 3, edit 5\")")
        #expect(!TraceExplainer.retriedSave("appRetrySave(garbled").contains("AlarmBridge."), "unparsable text still loses its type names")
    }
}

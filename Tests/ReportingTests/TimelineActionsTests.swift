import Reporting
import SimKernel
import Simulation
import Testing

@Suite("Failure artifacts: the timeline's actions lane, detail window and natural size")
struct TimelineActionsTests {
    static let start: Int64 = 1_772_430_000_000
    static let minute: Int64 = 60_000

    /// A crafted iOS run: the user opens the app, edits a1's title (JS saves it; the bridge
    /// schedules a1.mon), leaves; a1.mon rings at +60 min, the user stops it at +61 min; at
    /// +90 min the user opens the app and JS syncs; another root (a2.tue) changes at +75 and
    /// +80 min; the violation names a1.mon at `violationAtMs` after the start. Heartbeats, polls
    /// and peeks are sprinkled in: the actions lane must leave them out.
    static func craftedRun(violationAtMs: Int64 = 93 * minute + 20_000) -> FailureRun {
        var trace = Trace(keepLast: nil)
        func record(_ component: String, _ name: String, _ fields: [TraceField], at offset: Int64) {
            trace.record(component: component, name: name, fields: fields, trueMs: start + offset, wallMs: start + offset, monotonicMs: offset)
        }
        func action(_ text: String, at offset: Int64) { record("plan", "action", [TraceField("action", text)], at: offset) }
        func input(_ text: String, at offset: Int64) { record("bridge", "input", [TraceField("input", text)], at: offset) }
        record("sim", "start", [TraceField("platform", "ios"), TraceField("seed", "9"), TraceField("zone", "Europe/Berlin")], at: 0)
        action("userOpenApp", at: minute)
        input("didBecomeActive", at: minute)
        action("appContextHeartbeat(stint: 1)", at: minute)
        input("setForegroundAlarmContext(challengeScreenVisible: false, wakeSession: false)", at: minute)
        action("appGetScheduledAlarmTimes", at: minute)
        input("getScheduledAlarmTimes", at: minute)
        action("appPeekAction", at: minute)
        input("peekLastAlarmAction", at: minute)
        action("userEditTitle(alarmID: \"a1\", title: \"Wake\")", at: minute + 2_000)
        input("saveAlarm(a1, title Wake)", at: minute + 2_000)
        record("bridge", "schedule", [TraceField("id", "ring-1"), TraceField("kind", "primary"), TraceField("root", "a1.mon"),
                                      TraceField("schedule", "fixed(\(start + 60 * minute))"), TraceField("origin", "directSave")], at: minute + 2_000)
        action("userLeaveApp", at: 2 * minute)
        input("willResignActive", at: 2 * minute)
        record("ios", "alerting", [TraceField("id", "ring-1")], at: 60 * minute)
        action("userStop(alarmID: Optional(\"a1\"))", at: 61 * minute)
        record("user", "stop", [TraceField("id", "ring-1")], at: 61 * minute)
        record("ios", "alert-ended", [TraceField("id", "ring-1")], at: 61 * minute)
        action("userOpenApp", at: 90 * minute)
        action("appSyncEnabledAlarms", at: 90 * minute)
        input("syncEnabledAlarms", at: 90 * minute)
        record("bridge", "schedule", [TraceField("id", "ring-2"), TraceField("kind", "primary"), TraceField("root", "a2.tue"),
                                      TraceField("schedule", "fixed(\(start + 600 * minute))"), TraceField("origin", "resumeSync")], at: 75 * minute)
        record("bridge", "cancel", [TraceField("id", "ring-2"), TraceField("origin", "resumeSync")], at: 80 * minute)
        action("appContextHeartbeat(stint: 2)", at: 92 * minute)
        let message = "primary of a1.mon was not re-armed after the sync"
        record("check", "violation", [TraceField("invariant", "never-silent"), TraceField("message", message)], at: violationAtMs)
        record("sim", "end", [TraceField("events", "\(trace.count)")], at: violationAtMs)
        let header = TraceHeader(platform: "ios", seed: 9, defects: [], parameters: [RunParameter("zone", "Europe/Berlin")],
                                 zoneData: "2025b", eventsProcessed: trace.count, traceEventCount: trace.count, traceHashHex: trace.hashHex)
        let violation = Violation(invariant: "never-silent", rules: ["OCC-5"], message: message, trueMs: start + violationAtMs,
                                  wallMs: start + violationAtMs, eventIndex: trace.count - 2)
        return FailureRun(header: header, violations: [violation], reproLine: "alarmsim replay --platform ios --seed 9", events: trace.events)
    }

    /// The user opens the app at +10 min and JS saves; the violation comes 20 s later.
    static func briefRun() -> FailureRun {
        var trace = Trace(keepLast: nil)
        func record(_ component: String, _ name: String, _ fields: [TraceField], at offset: Int64) {
            trace.record(component: component, name: name, fields: fields, trueMs: start + offset, wallMs: start + offset, monotonicMs: offset)
        }
        record("sim", "start", [TraceField("platform", "ios"), TraceField("seed", "9"), TraceField("zone", "Europe/Berlin")], at: 0)
        record("plan", "action", [TraceField("action", "userOpenApp")], at: 10 * minute)
        record("bridge", "input", [TraceField("input", "saveAlarm(a1, title Wake)")], at: 10 * minute)
        record("check", "violation", [TraceField("invariant", "save-outcome"), TraceField("message", "no reply")], at: 10 * minute + 20_000)
        let header = TraceHeader(platform: "ios", seed: 9, defects: [], parameters: [RunParameter("zone", "Europe/Berlin")],
                                 zoneData: "2025b", eventsProcessed: trace.count, traceEventCount: trace.count, traceHashHex: trace.hashHex)
        let violation = Violation(invariant: "save-outcome", rules: ["API-19"], message: "no reply", trueMs: start + 10 * minute + 20_000,
                                  wallMs: start + 10 * minute + 20_000, eventIndex: trace.count - 1)
        return FailureRun(header: header, violations: [violation], reproLine: "alarmsim replay --platform ios --seed 9", events: trace.events)
    }

    private func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test("the actions lane shows the user's open, edit, leave and stop and the app's save and sync, in local time, without heartbeats or polls")
    func actionsLane() throws {
        let timeline = Timeline(Self.craftedRun())
        #expect(timeline.lanes.map(\.category) == [.root, .root, .actions, .lifecycle, .faults])
        let lane = try #require(timeline.lanes.first { $0.category == .actions })
        let user = lane.marks.filter { $0.kind == .userAction }
        let app = lane.marks.filter { $0.kind == .appCall }
        #expect(user.compactMap(\.label) == ["open-app", "edit-title", "leave-app", "stop", "open-app"])
        #expect(app.compactMap(\.label) == ["save", "sync"])
        #expect(user.allSatisfy { $0.row == 0 } && app.allSatisfy { $0.row == 1 }, "user above, app below")
        let stop = try #require(user.first { $0.label == "stop" })
        #expect(stop.atMs == Self.start + 61 * Self.minute)
        let time = LocalTimeFormat(zoneIdentifier: "Europe/Berlin")
        #expect(stop.title.contains(time.dateTime(stop.atMs)), "hover text in local time")
        #expect(stop.title.contains("+01:00"))
        let edit = try #require(user.first { $0.label == "edit-title" })
        #expect(edit.title.contains("edit title (alarm ID \"a1\", title \"Wake\")"), "\(edit.title)")
        for noise in ["appContextHeartbeat", "getScheduledAlarmTimes", "appPeekAction", "peekLastAlarmAction", "setForegroundAlarmContext", "didBecomeActive"] {
            #expect(!lane.marks.contains { $0.title.contains(noise) }, "routine \(noise) in the actions lane")
        }

        let html = TimelinePage.html(Self.craftedRun())
        #expect(count("class=\"lane lane-actions\"", in: html) == 2, "one actions lane per SVG")
        #expect(html.contains("data-lane=\"user &amp; app actions\""))
        #expect(html.contains("class=\"mark user-action\"") && html.contains("class=\"mark app-call\""))
        #expect(html.contains("<text class=\"mark-label\"") && html.contains(">stop</text>"), "short names drawn next to the marks")
    }

    @Test("the SVGs keep their natural size: width equals the viewBox width, inside a horizontally scrolling box, text at least 11 px")
    func naturalSize() throws {
        let html = TimelinePage.html(Self.craftedRun())
        var widths: [String] = []
        for id in ["overview", "detail"] {
            let open = try #require(html.range(of: "<svg class=\"timeline\" id=\"\(id)\""))
            let tagEnd = try #require(html.range(of: ">", range: open.upperBound..<html.endIndex))
            let tag = String(html[open.lowerBound..<tagEnd.lowerBound])
            let viewBox = try #require(tag.range(of: "viewBox=\"0 0 ")).upperBound
            let viewBoxWidth = tag[viewBox...].prefix { $0.isNumber }
            #expect(tag.contains(" width=\"\(viewBoxWidth)\""), "\(id): width differs from the viewBox's \(viewBoxWidth)")
            widths.append(String(viewBoxWidth))
            let before = html[html.startIndex..<open.lowerBound]
            let container = try #require(before.range(of: "<div class=\"scroll\">\n<div class=\"track\">\n<svg class=\"lane-labels\"", options: .backwards))
            #expect(!before[container.upperBound...].contains("<div"), "\(id) is not in a scroll container right after its lane labels")
            #expect(before[container.upperBound...].contains("</svg>\n"), "\(id): its lane-label column ends before it")
        }
        let css = try #require(html.range(of: "<style>")).upperBound..<(try #require(html.range(of: "</style>"))).lowerBound
        let style = String(html[css])
        #expect(style.contains(".scroll { overflow-x: auto;"))
        // The lane names stay in view while the plot scrolls: a sticky column at the left.
        #expect(style.contains("svg.lane-labels { position: sticky; left: 0;"))
        let labelsColumn = try #require(html.range(of: "<svg class=\"lane-labels\"")).lowerBound
        let labelsEnd = try #require(html.range(of: "</svg>", range: labelsColumn..<html.endIndex)).lowerBound
        let column = String(html[labelsColumn..<labelsEnd])
        #expect(column.contains("aria-hidden=\"true\"") && column.contains("class=\"lane-label\""))
        for label in ["app lifecycle", "user &amp; app actions", "root "] {
            #expect(column.contains(">\(label)") || (label == "root " && column.contains(">⚠ root ")), "the sticky column lacks \(label)")
        }
        let svgRule = try #require(style.split(separator: "\n").first { $0.hasPrefix("svg.timeline {") })
        #expect(!svgRule.contains("max-width: 100%") && !svgRule.contains("width: 100%"), "an SVG scaled to the window shrinks its text")
        #expect(widths.count == 2 && svgRule.contains("min-width: \(widths[0])px"), "the SVG never narrower than its natural width")
        #expect(!html.contains("preserveAspectRatio"))
        // Every font size the page sets is at least 11 px.
        let sizes = style.components(separatedBy: "font-size: ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(!sizes.isEmpty && sizes.allSatisfy { $0 >= 11 }, "font sizes \(sizes)")
    }

    @Test("the detail opens at the story's start: steps of cause back from the violation until a 10 min pause or 3 steps; it ends after the violation")
    func detailWindow() throws {
        let timeline = Timeline(Self.craftedRun())
        #expect(timeline.violationRoots == ["a1.mon"], "a2.tue is not named")
        let window = timeline.detailWindow()
        let violationMs = Self.start + 93 * Self.minute + 20_000
        #expect(window.focusMs == violationMs)
        // Steps of cause, latest first: +90 min (open-app, sync), then +61 min (stop, dismissed,
        // alerting ended) after a 29 min pause, which ends the story. a2.tue's changes at +80
        // and +75 min would continue it, but the violation does not name a2.tue.
        #expect(window.openingMs == Self.start + 90 * Self.minute)
        #expect(window.beforeMs == 3 * Self.minute + 20_000)
        #expect(window.fromMs < window.openingMs && window.fromMs >= timeline.startMs, "a margin before the opening cause")
        #expect(window.toMs == violationMs + Timeline.detailAfterMs, "it ends after the violation")
        #expect(window.openingCause?.contains("open-app") == true, "\(window.openingCause ?? "")")
        let html = TimelinePage.html(Self.craftedRun())
        #expect(html.contains("the 3 min 20 s before the violation</span> (from 08:10:00) and 1 min after"))
        // Three steps at most: a story with no long pause opens at its third-latest step.
        #expect(Timeline.storyStart([0, 60_000, 65_000, 120_000, 180_000, 240_000]) == 120_000)
        #expect(Timeline.storyStart([0, 60_000, 900_000, 905_000]) == 900_000, "a 14 min pause ends the story")
        #expect(Timeline.storyStart([]) == nil)

        // Ceiling: the same causes, the violation 10 h in: the window covers 2 h.
        let late = Timeline(Self.craftedRun(violationAtMs: 600 * Self.minute)).detailWindow()
        #expect(late.beforeMs == Timeline.detailBeforeMsMax && late.openingCause == nil)
        // Floor: a violation 20 s after its only cause still gets 1 min before it.
        let soon = Timeline(Self.briefRun()).detailWindow()
        #expect(soon.beforeMs == Timeline.detailBeforeMsMin && soon.openingCause == nil)
        #expect(soon.toMs > soon.focusMs)
        // A clean run: every root lane counts (a2.tue at +80 and +75 min continues the story);
        // the detail ends at the run's end plus the margin, and says nothing of after.
        var clean = Self.craftedRun()
        clean.violations = []
        let end = Timeline(clean).detailWindow()
        #expect(end.focusMs == Timeline(clean).endMs && end.toMs - end.focusMs == (end.focusMs - end.openingMs) / 20)
        #expect(TimelinePage.html(clean).contains("before the end of the run</span> (from 07:55:00)</h2>"))
        #expect(Timeline.durationWords(200_000) == "3 min 20 s" && Timeline.durationWords(7_200_000) == "2 h"
            && Timeline.durationWords(3_900_000) == "1 h 5 min" && Timeline.durationWords(45_000) == "45 s")
    }
}

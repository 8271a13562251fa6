import AlarmSimCLI
import Foundation
import Testing

@Suite("CLI explain and replay --report")
struct ExplainAndReportTests {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test("explain prints a local-time timeline ending with the violation and its repro line")
    func explainSeed() {
        let run = cli("explain", "--platform", "ios", "--seed", "1", "--defect", "title-in-ring-id")
        #expect(run.status == .violations)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("VIOLATION stable-ids (ID-2, ID-3, ID-4) at 2026-") })
        #expect(run.output.contains("repro: alarmsim replay --platform ios --seed 1 --defect title-in-ring-id\n"))
        // Local wall time in the run's zone (Europe/Berlin in December: +01:00), one event per line.
        let eventLines = lines.filter { $0.hasPrefix("2026-") }
        #expect(eventLines.count > 20)
        #expect(eventLines.allSatisfy { $0.contains(" +01:00  #") })
        #expect(eventLines.contains { $0.contains(" RINGS ") && $0.contains("alerting") }, "what rang")
        #expect(eventLines.contains { $0.contains(" bridge ") && $0.contains("schedule a1.mon primary ring") }, "what the bridge did")
        #expect(eventLines.contains { $0.contains(" FAULT ") }, "the faults")
        #expect(eventLines.contains { $0.contains(" CHECK ") && $0.contains("violation stable-ids") }, "the check that failed, in order")
        let all = cli("explain", "--platform", "ios", "--seed", "1", "--defect", "title-in-ring-id", "--all")
        let allEvents = all.output.split(separator: "\n").filter { $0.hasPrefix("2026-") }
        #expect(allEvents.count > eventLines.count, "--all lists the routine events too")
        #expect(all.output.contains("8f2a2db3-ee64-5179-8c00-8eb211f25098"), "--all prints ring IDs whole")
        #expect(all.output.range(of: #"\b1[0-9]{12}\b"#, options: .regularExpression) == nil, "--all shows instants as local time, never epoch ms")
    }

    @Test("explain FILE.scenario explains the scenario's run; its repro line is 'alarmsim run FILE'")
    func explainScenario() {
        let path = Self.packageRoot.appendingPathComponent("Scenarios/defects/ios-title-in-ring-id.scenario").path
        let run = cli("explain", path)
        #expect(run.status == .violations)
        #expect(run.output.contains("VIOLATION stable-ids"))
        #expect(run.output.contains("repro: alarmsim run \(path)\n"))
    }

    @Test("a scenario whose alarm title is hostile markup: explain --report writes a page where it stays text")
    func hostileTitleEndToEnd() throws {
        let directory = try makeTemporaryDirectory("hostile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hostile.scenario").path
        try """
        platform ios
        start 2026-12-15 22:54:33 Europe/Berlin
        seed 1
        defect title-in-ring-id
        alarm a1 05:09 once
        at 22:54:36 user edit-title a1 "<script>&\\"'"
        expect violation stable-ids

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let report = directory.appendingPathComponent("report").path
        let run = cli("explain", path, "--report", report)
        #expect(run.status == .violations, "\(run.errors)")
        #expect(run.output.contains("<script>&\"'"), "the terminal shows the title as it is")
        let html = try String(contentsOfFile: report + "/timeline.html", encoding: .utf8)
        #expect(html.contains("&lt;script&gt;&amp;&quot;&#39;"))
        #expect(!html.contains("<script"))
        let markdown = try String(contentsOfFile: report + "/report.md", encoding: .utf8)
        #expect(markdown.contains("repro: ") == false && markdown.contains("alarmsim run \(path)"))
    }

    @Test("explain: bad flags exit 64, a malformed scenario 65 with file:line:col, a missing one 74")
    func explainErrors() throws {
        #expect(cli("explain", "--platform", "ios").status == .usage)
        #expect(cli("explain", "--platform", "ios", "--seed", "x").status == .usage)
        #expect(cli("explain", "--platform", "ios", "--seed", "1", "--frobnicate").status == .usage)
        #expect(cli("explain", "a.scenario", "b.scenario").status == .usage)
        let mixed = cli("explain", "a.scenario", "--seed", "1")
        #expect(mixed.status == .usage)
        #expect(mixed.errors.contains("--seed"))
        #expect(cli("explain", "--help").output.contains("EXAMPLES:\n  alarmsim explain --platform ios --seed 1"))

        let directory = try makeTemporaryDirectory("explain")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.scenario").path
        try "platform ios\nstart 2026-03-02 06:55 Europe/Berlin\nfrobnicate now\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let malformed = cli("explain", bad)
        #expect(malformed.status == .dataError)
        #expect(malformed.errors.hasPrefix("\(bad):3:1: "), "\(malformed.errors)")
        let missing = directory.appendingPathComponent("missing.scenario").path
        let unreadable = cli("explain", missing)
        #expect(unreadable.status == .ioError)
        #expect(unreadable.errors.contains(missing))
    }

    @Test("replay --report DIR writes trace.jsonl, report.md and timeline.html; an unwritable DIR exits 73 naming it, before the run")
    func replayReport() throws {
        let directory = try makeTemporaryDirectory("replay-report")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("ios-1").path
        let run = cli("replay", "--platform", "ios", "--seed", "1", "--defect", "title-in-ring-id", "--report", target)
        #expect(run.status == .violations)
        #expect(run.output.contains("violation: stable-ids"), "replay prints what it always prints")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).sorted() == ["report.md", "timeline.html", "trace.jsonl"])
        #expect(run.errors.contains(target + "/timeline.html"))

        let file = directory.appendingPathComponent("plain-file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let unwritable = cli("replay", "--platform", "ios", "--seed", "1", "--report", file + "/sub")
        #expect(unwritable.status == .cannotCreate)
        #expect(unwritable.errors.contains(file))
        #expect(unwritable.output.isEmpty, "nothing ran")
        #expect(cli("replay", "--platform", "ios", "--seed", "1", "--report").status == .usage)
    }
}

// Printing then parsing gives the same scenario back, and printing is stable.

import Scenario
import Testing

@Suite("Print/parse round trip")
struct ScenarioRoundTripTests {
    /// Checks both round-trip properties and that printed line numbers come back.
    static func checkRoundTrip(_ scenario: ScenarioFile) throws {
        let printed = ScenarioPrinter.print(scenario)
        let parsed = try Fixture.parse(printed, file: scenario.path)
        #expect(parsed.withoutSourcePositions() == scenario.withoutSourcePositions(), "printed:\n\(printed)")
        #expect(ScenarioPrinter.print(parsed) == printed)
        let printedLines = printed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for event in parsed.events {
            #expect(printedLines[event.line - 1].hasPrefix("at "))
        }
        for alarm in parsed.alarms {
            #expect(printedLines[alarm.line - 1].hasPrefix("alarm \(alarm.name) "))
        }
    }

    static let handBuilt = ScenarioFile(
        path: "hand-built.scenario",
        comments: ["002: every argument kind", "", "  indented, with # and \"quotes\""],
        platform: .android,
        start: ScenarioStart(date: LocalDate(year: 2026, month: 10, day: 25), hour: 1, minute: 59, second: 59, zoneIdentifier: "Europe/Berlin"),
        seed: UInt64.max,
        defects: ["unavailable-read-as-empty", "resync-while-alerting"],
        parameters: [
            ScenarioParameter(key: "daemon.latency-ms", value: "300"),
            ScenarioParameter(key: "device.name", value: "Pixel # \"8\""),
        ],
        alarms: [
            ScenarioAlarm(name: "wake", hour: 7, minute: 0, repeats: .weekly([.fri, .mon]), policy: .legacy,
                          title: "say \"hi\" \\ #now", challenge: .walk),
            ScenarioAlarm(name: "nap", hour: 0, minute: 5, repeats: .once, policy: .v2, title: "", challenge: .math),
            ScenarioAlarm(name: "plain", hour: 23, minute: 59, repeats: .once),
        ],
        events: [
            ScenarioEvent(time: ScenarioTime(hour: 1, minute: 59, second: 59), actor: "device", verb: "reboot"),
            ScenarioEvent(time: ScenarioTime(hour: 2, minute: 30, second: 0, millisecond: 7), actor: "user", verb: "unlock"),
            ScenarioEvent(time: ScenarioTime(hour: 2, minute: 30, second: 0, millisecond: 7), actor: "user", verb: "stop"),
            ScenarioEvent(time: ScenarioTime(hour: 7, minute: 0), actor: "user", verb: "stop", arguments: [.alarm("wake")]),
            ScenarioEvent(time: ScenarioTime(hour: 7, minute: 0), actor: "user", verb: "edit-title", arguments: [.alarm("nap"), .text("Früh 🌅")]),
            ScenarioEvent(time: ScenarioTime(hour: 7, minute: 1), actor: "user", verb: "edit-time",
                          arguments: [.alarm("nap"), .timeOfDay(hour: 9, minute: 5)]),
            ScenarioEvent(time: ScenarioTime(hour: 7, minute: 2), actor: "fault", verb: "schedule-failure", arguments: [.count(1)]),
            ScenarioEvent(time: ScenarioTime(hour: 7, minute: 3), actor: "fault", verb: "capacity", arguments: [.count(0)]),
            ScenarioEvent(time: ScenarioTime(hour: 7, minute: 4), actor: "fault", verb: "coalesce-updates", arguments: [.onOff(true)]),
            ScenarioEvent(time: ScenarioTime(hour: 7, minute: 5), actor: "fault", verb: "late-delivery", arguments: [.durationMs(90_000)]),
            ScenarioEvent(time: ScenarioTime(hour: 7, minute: 6), actor: "fault", verb: "late-delivery", arguments: [.durationMs(1_500)]),
            ScenarioEvent(time: ScenarioTime(hour: 7, minute: 6), actor: "fault", verb: "late-delivery", arguments: [.durationMs(0)]),
            ScenarioEvent(time: ScenarioTime(dayOffset: 400, hour: 0, minute: 0), actor: "expect", verb: "silent", arguments: [.alarm("plain")]),
        ],
        expectations: [.violation("never-silent", line: 0), .violation("hands-off-alerting", line: 0)])

    @Test("a hand-built scenario using every argument kind survives print then parse")
    func handBuiltRoundTrip() throws {
        try Self.checkRoundTrip(Self.handBuilt)
    }

    @Test("the canonical layout leaves out defaults and prints each value in its shortest exact form")
    func canonicalLayout() {
        let printed = ScenarioPrinter.print(Self.handBuilt).split(separator: "\n").map(String.init)
        #expect(printed.contains("start 2026-10-25 01:59:59 Europe/Berlin"))
        #expect(printed.contains("seed 18446744073709551615"))
        #expect(printed.contains("param device.name \"Pixel # \\\"8\\\"\""))
        #expect(printed.contains("alarm plain 23:59 once"))
        #expect(printed.contains("alarm nap 00:05 once policy 2 title \"\" challenge math"))
        #expect(printed.contains("at 02:30:00.007 user unlock"))
        #expect(printed.contains("at 07:05 fault late-delivery 90s"))
        #expect(printed.contains("at 07:06 fault late-delivery 1500ms"))
        #expect(printed.contains("at +400d 00:00 expect silent plain"))
        #expect(printed.contains("at 07:02 fault schedule-failure 1"))
    }

    @Test("a minimal scenario prints as platform, start and seed")
    func minimal() throws {
        let scenario = ScenarioFile(
            platform: .ios,
            start: ScenarioStart(date: LocalDate(year: 2026, month: 3, day: 2), hour: 6, minute: 55, zoneIdentifier: "UTC"))
        #expect(ScenarioPrinter.print(scenario) == "platform ios\nstart 2026-03-02 06:55 UTC\nseed 1\n")
        try Self.checkRoundTrip(scenario)
    }

    @Test("expect no violations round-trips")
    func noViolations() throws {
        var scenario = Self.handBuilt
        scenario.expectations = [.noViolations(line: 0)]
        try Self.checkRoundTrip(scenario)
    }

    @Test("random valid scenarios survive print then parse", arguments: 1...60 as ClosedRange<UInt64>)
    func randomRoundTrip(seed: UInt64) throws {
        var generator = RandomScenarioGenerator(seed: seed)
        try Self.checkRoundTrip(generator.scenario(path: "random-\(seed).scenario"))
    }

    @Test("a parsed file with comments and odd spacing reprints canonically and stably")
    func reprintParsed() throws {
        let parsed = try Fixture.parse(ScenarioParserTests.example)
        let printed = ScenarioPrinter.print(parsed)
        #expect(printed.hasPrefix("# 001: the resume sync must not reschedule an alarm that is alerting\n#\nplatform ios\n"))
        #expect(printed.contains("alarm wake 07:00 weekly mon,tue,wed,thu,fri title \"Wake up\" challenge voice\n"))
        #expect(printed.contains("at +1d 06:59 user edit-title wake \"Gym\"\n"))
        try Self.checkRoundTrip(parsed)
    }

    @Test("a time with a UTC offset prints as HH:MM[:SS[.mmm]]±HH:MM and survives print then parse")
    func utcOffsetRoundTrip() throws {
        let scenario = ScenarioFile(
            path: "offsets.scenario", platform: .android,
            start: ScenarioStart(date: LocalDate(year: 2026, month: 10, day: 24), hour: 22, minute: 0, zoneIdentifier: "Europe/Berlin"),
            events: [
                ScenarioEvent(time: ScenarioTime(dayOffset: 1, hour: 2, minute: 43, second: 43, millisecond: 904), actor: "device", verb: "doze",
                              arguments: [.onOff(true)]),
                ScenarioEvent(time: ScenarioTime(dayOffset: 1, hour: 2, minute: 4, second: 8, millisecond: 251, utcOffsetMinutes: 60),
                              actor: "user", verb: "open-app"),
                ScenarioEvent(time: ScenarioTime(dayOffset: 1, hour: 2, minute: 5, utcOffsetMinutes: 60), actor: "user", verb: "leave-app"),
            ])
        let printed = ScenarioPrinter.print(scenario)
        #expect(printed.contains("\nat +1d 02:43:43.904 device doze on\nat +1d 02:04:08.251+01:00 user open-app\nat +1d 02:05+01:00 user leave-app\n"),
                "printed:\n\(printed)")
        try Self.checkRoundTrip(scenario)
        var west = scenario
        west.start.zoneIdentifier = "America/St_Johns"
        west.events = [ScenarioEvent(time: ScenarioTime(hour: 23, minute: 0, utcOffsetMinutes: -150), actor: "user", verb: "lock")]
        #expect(ScenarioPrinter.print(west).contains("\nat 23:00-02:30 user lock\n"))
        try Self.checkRoundTrip(west)
    }
}

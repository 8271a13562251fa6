// What a well-formed scenario file parses to.

import Scenario
import Testing

@Suite("Parsing well-formed scenario files")
struct ScenarioParserTests {
    static let example = """
        # 001: the resume sync must not reschedule an alarm that is alerting
        #
        platform ios
        start 2026-03-02 06:55 Europe/Berlin
        seed 42                                   # remaining randomness (latencies, coalescing)
        defect resync-while-alerting              # optional, repeatable
        param daemon.latency-ms 300               # optional, repeatable: KEY VALUE
        alarm wake 07:00 weekly mon,tue,wed,thu,fri policy 3 challenge voice title "Wake up"
        alarm nap 13:30 once
        at 07:00:00  expect alerting wake
        at 07:00:20  user open-app
        at 07:00:21  app sync-enabled-alarms
        at 07:00:25  expect alerting wake
        at +1d 06:59  user edit-title wake "Gym"
        expect violation hands-off-alerting

        """

    @Test("the design document's example parses to the expected scenario")
    func example() throws {
        let scenario = try Fixture.parse(Self.example, file: "Scenarios/001.scenario")
        let expected = ScenarioFile(
            path: "Scenarios/001.scenario",
            comments: ["001: the resume sync must not reschedule an alarm that is alerting", ""],
            platform: .ios,
            start: ScenarioStart(date: LocalDate(year: 2026, month: 3, day: 2), hour: 6, minute: 55, zoneIdentifier: "Europe/Berlin"),
            seed: 42,
            defects: ["resync-while-alerting"],
            parameters: [ScenarioParameter(key: "daemon.latency-ms", value: "300")],
            alarms: [
                ScenarioAlarm(name: "wake", hour: 7, minute: 0, repeats: .weekly([.mon, .tue, .wed, .thu, .fri]),
                              policy: .v3, title: "Wake up", challenge: .voice),
                ScenarioAlarm(name: "nap", hour: 13, minute: 30, repeats: .once),
            ],
            events: [
                ScenarioEvent(time: ScenarioTime(hour: 7, minute: 0), actor: "expect", verb: "alerting", arguments: [.alarm("wake")]),
                ScenarioEvent(time: ScenarioTime(hour: 7, minute: 0, second: 20), actor: "user", verb: "open-app"),
                ScenarioEvent(time: ScenarioTime(hour: 7, minute: 0, second: 21), actor: "app", verb: "sync-enabled-alarms"),
                ScenarioEvent(time: ScenarioTime(hour: 7, minute: 0, second: 25), actor: "expect", verb: "alerting", arguments: [.alarm("wake")]),
                ScenarioEvent(time: ScenarioTime(dayOffset: 1, hour: 6, minute: 59), actor: "user", verb: "edit-title",
                              arguments: [.alarm("wake"), .text("Gym")]),
            ],
            expectations: [.violation("hands-off-alerting", line: 0)])
        #expect(scenario.withoutSourcePositions() == expected)
    }

    @Test("source positions are the 1-based lines and columns of the file")
    func sourcePositions() throws {
        let scenario = try Fixture.parse(Self.example)
        #expect(scenario.alarms.map(\.line) == [8, 9])
        #expect(scenario.events.map(\.line) == [10, 11, 12, 13, 14])
        #expect(scenario.parameters.first.map { [$0.line, $0.column, $0.valueColumn] } == [7, 7, 25])
        #expect(scenario.expectations == [.violation("hands-off-alerting", line: 15)])
    }

    @Test("defaults: seed 1, policy 3, title = name, no challenge")
    func defaults() throws {
        let scenario = try Fixture.parse(Fixture.text(Fixture.header))
        #expect(scenario.seed == 1)
        #expect(scenario.alarms == [ScenarioAlarm(name: "wake", hour: 7, minute: 0, repeats: .once, policy: .v3,
                                                  title: "wake", challenge: .none, line: 3)])
        #expect(scenario.defects.isEmpty && scenario.parameters.isEmpty && scenario.events.isEmpty && scenario.expectations.isEmpty)
    }

    @Test("alarm options come in any order; weekly days keep the file's order")
    func alarmOptions() throws {
        let scenario = try Fixture.parse(Fixture.text(Fixture.header + [
            "alarm gym 18:05 weekly sun,sat challenge walk title \"Gym\" policy legacy",
            "alarm late 23:59 once policy 2",
        ]))
        #expect(scenario.alarms[1].repeats == .weekly([.sun, .sat]))
        #expect(scenario.alarms[1].policy == .legacy && scenario.alarms[1].title == "Gym" && scenario.alarms[1].challenge == .walk)
        #expect(scenario.alarms[2].policy == .v2 && scenario.alarms[2].hour == 23 && scenario.alarms[2].minute == 59)
    }

    @Test("a # inside a quoted string is text; outside it starts a comment, even right after a word")
    func commentsAndQuotedHash() throws {
        let scenario = try Fixture.parse(Fixture.text([
            "   # leading comment, indented",
            "",
            "#no space after the hash",
            "platform android# trailing comment glued to the word",
            "# a comment after the first directive is not kept",
            "start 2026-03-02 06:55:30 America/New_York",
            "alarm wake 07:00 once title \"#1 alarm # really\" # the real comment",
            "at 07:00 user edit-title wake \"a#b\"#glued comment",
        ]))
        #expect(scenario.comments == ["leading comment, indented", "no space after the hash"])
        #expect(scenario.platform == .android)
        #expect(scenario.start.second == 30)
        #expect(scenario.alarms[0].title == "#1 alarm # really")
        #expect(scenario.events[0].arguments == [.alarm("wake"), .text("a#b")])
    }

    @Test("quoted strings unescape \\\" and \\\\ and keep spaces, tabs and Unicode")
    func quotedStrings() throws {
        let scenario = try Fixture.parse(Fixture.text([
            "platform ios",
            "start 2026-03-02 06:55 Europe/Berlin",
            "alarm wake 07:00 once title \"say \\\"hi\\\" \\\\ now\"",
            "alarm empty 07:00 once title \"\"",
            "alarm fruh 07:00 once title \"  Früh\t🌅 \"",
        ]))
        #expect(scenario.alarms.map(\.title) == ["say \"hi\" \\ now", "", "  Früh\t🌅 "])
    }

    @Test("CRLF and CR line ends count as one line break each")
    func lineEnds() throws {
        let scenario = try Fixture.parse("platform ios\r\nstart 2026-03-02 06:55 UTC\ralarm wake 07:00 once\r\n\r\nat 07:00 user stop\r\n")
        #expect(scenario.alarms[0].line == 3)
        #expect(scenario.events[0].line == 5)
    }

    @Test("event times: day offsets, seconds and milliseconds; equal times and the start instant are allowed")
    func eventTimes() throws {
        let scenario = try Fixture.parse(Fixture.text(Fixture.header + [
            "at 06:55 user unlock",
            "at 06:55 user lock",
            "at 07:00:01.250 user open-app",
            "at +0d 07:00:02 user leave-app",
            "at +2d 00:00:00.001 device reboot",
        ]))
        #expect(scenario.events.map(\.time.millisecondsSinceStartDateMidnight) == [
            24_900_000, 24_900_000, 25_201_250, 25_202_000, 2 * 86_400_000 + 1,
        ])
        #expect(scenario.events[4].time == ScenarioTime(dayOffset: 2, hour: 0, minute: 0, second: 0, millisecond: 1))
    }

    @Test("a UTC offset after an event time names one pass of a repeated wall time; files order by instant")
    func utcOffsets() throws {
        // Europe/Berlin falls back at 03:00 CEST (01:00 UTC) on 2026-10-25: 02:00–02:59 runs twice.
        let scenario = try Fixture.parse(Fixture.text([
            "platform android",
            "start 2026-10-24 22:00 Europe/Berlin",
            "at +1d 02:43:43.904 device doze on",        // first pass (+02:00): 00:43:43.904 UTC
            "at +1d 02:04:08.251+01:00 user open-app",  // second pass: 01:04:08.251 UTC, later
            "at +1d 02:04:08.251+01:00 user leave-app", // the same instant again
            "at +1d 02:05+01:00 user lock",
            "at +1d 03:00 user unlock",                 // plain, after the night: 02:00 UTC
            "at +1d 04:00+01:00 device reboot",         // an offset on an unambiguous time is allowed
        ]))
        #expect(scenario.events.map(\.time.utcOffsetMinutes) == [nil, 60, 60, 60, nil, 60])
        #expect(scenario.events[1].time == ScenarioTime(dayOffset: 1, hour: 2, minute: 4, second: 8, millisecond: 251, utcOffsetMinutes: 60))
        let offsets = try Fixture.parse("platform ios\nstart 2026-03-02 06:55 America/St_Johns\nat 07:00-03:30 user lock\n")
        #expect(offsets.events.map(\.time.utcOffsetMinutes) == [-210])
    }

    @Test("durations are written in ms, s, m or h and stored in milliseconds", arguments: [
        ("1500ms", Int64(1_500)), ("90s", 90_000), ("5m", 300_000), ("2h", 7_200_000), ("0s", 0), ("720h", 2_592_000_000),
    ])
    func durations(text: String, milliseconds: Int64) throws {
        let scenario = try Fixture.parse(Fixture.text(Fixture.header + ["at 07:00 fault late-delivery \(text)"]))
        #expect(scenario.events[0].arguments == [.durationMs(milliseconds)])
    }

    @Test("optional arguments: an omitted alarm is absent, an omitted count is its default")
    func optionalArguments() throws {
        let scenario = try Fixture.parse(Fixture.text(Fixture.header + [
            "at 07:00 user stop",
            "at 07:00 user stop wake",
            "at 07:00 fault schedule-failure",
            "at 07:00 fault schedule-failure 3",
            "at 07:00 fault inventory-read-failure",
            "at 07:00 fault coalesce-updates off",
            "at 07:00 user edit-time wake 08:15",
        ]))
        #expect(scenario.events.map(\.arguments) == [
            [], [.alarm("wake")], [.count(1)], [.count(3)], [.count(1)], [.onOff(false)], [.alarm("wake"), .timeOfDay(hour: 8, minute: 15)],
        ])
    }

    @Test("a parameter value may be quoted to hold spaces or #")
    func quotedParameterValue() throws {
        let scenario = try Fixture.parse(Fixture.text(Fixture.header + ["param device.name \"Pixel # 8\""]))
        #expect(scenario.parameters.map(\.value) == ["Pixel # 8"])
    }

    @Test("expect no violations parses on its own")
    func noViolations() throws {
        let scenario = try Fixture.parse(Fixture.text(Fixture.header + ["expect no violations", "at 07:00 expect silent wake"]))
        #expect(scenario.expectations == [.noViolations(line: 4)])
        #expect(scenario.events.map(\.verb) == ["silent"])
    }

    @Test("leap days are calendar dates")
    func leapDay() throws {
        let scenario = try Fixture.parse("platform ios\nstart 2028-02-29 23:59:59 Asia/Kolkata\n")
        #expect(scenario.start.date == LocalDate(year: 2028, month: 2, day: 29))
        #expect(scenario.start.millisecondsSinceStartDateMidnight == 86_399_000)
    }
}

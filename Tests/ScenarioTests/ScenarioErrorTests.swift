// Every class of malformed file reports `file:line:col: message` at the offending token.

import Scenario
import Testing

/// One malformed file and where its error must point. `Codable`, so a failing case re-runs alone.
struct ErrorCase: Codable, Sendable, CustomTestStringConvertible {
    var name: String
    var lines: [String]
    var line: Int
    var column: Int
    /// A fragment the message must contain (says *what* is wrong).
    var message: String

    var testDescription: String { name }

    /// A case whose lines follow `Fixture.header` (lines 1–3: platform, start 06:55, alarm wake).
    static func afterHeader(_ name: String, _ lines: [String], line: Int, column: Int, _ message: String) -> ErrorCase {
        ErrorCase(name: name, lines: Fixture.header + lines, line: line, column: column, message: message)
    }
}

@Suite("Malformed scenario files")
struct ScenarioErrorTests {
    static let cases: [ErrorCase] = [
        // Whole-file checks.
        ErrorCase(name: "missing platform", lines: ["start 2026-03-02 06:55 Europe/Berlin"], line: 1, column: 1, message: "missing `platform"),
        ErrorCase(name: "missing start", lines: ["# only a comment", "platform ios"], line: 1, column: 1, message: "missing `start"),
        ErrorCase(name: "empty file", lines: [], line: 1, column: 1, message: "missing `platform"),
        .afterHeader("event before start", ["at 06:54:59.999 user open-app"], line: 4, column: 4, "before the start"),
        .afterHeader("event before start, found only at the end", ["at 06:50 user open-app", "bogus"], line: 5, column: 1, "unknown directive"),
        ErrorCase(name: "event before a start given later", lines: ["platform ios", "at 06:00 user lock", "start 2026-03-02 06:55 UTC"],
                  line: 2, column: 4, message: "before the start"),
        // Header lines.
        .afterHeader("duplicate platform", ["platform android"], line: 4, column: 1, "duplicate `platform`"),
        .afterHeader("duplicate start", ["  start 2026-03-03 06:55 Europe/Berlin"], line: 4, column: 3, "duplicate `start`"),
        .afterHeader("duplicate seed", ["seed 1", "seed 2"], line: 5, column: 1, "duplicate `seed`"),
        ErrorCase(name: "unknown platform", lines: ["platform windows"], line: 1, column: 10, message: "unknown platform 'windows'"),
        ErrorCase(name: "bad zone", lines: ["platform ios", "start 2026-03-02 06:55 Europe/Atlantis"], line: 2, column: 24, message: "unknown time zone 'Europe/Atlantis'"),
        ErrorCase(name: "bad date 2026-02-30", lines: ["platform ios", "start 2026-02-30 06:55 Europe/Berlin"], line: 2, column: 7, message: "not a calendar date"),
        ErrorCase(name: "not a leap year", lines: ["platform ios", "start 2100-02-29 06:55 UTC"], line: 2, column: 7, message: "not a calendar date"),
        ErrorCase(name: "month 13", lines: ["platform ios", "start 2026-13-01 06:55 UTC"], line: 2, column: 7, message: "month 13"),
        ErrorCase(name: "malformed date", lines: ["platform ios", "start 2026-3-2 06:55 UTC"], line: 2, column: 7, message: "expected a date YYYY-MM-DD"),
        ErrorCase(name: "start hour 24", lines: ["platform ios", "start 2026-03-02 24:00 UTC"], line: 2, column: 18, message: "expected a start time"),
        ErrorCase(name: "milliseconds on start", lines: ["platform ios", "start 2026-03-02 06:55:00.500 UTC"], line: 2, column: 18, message: "expected a start time"),
        ErrorCase(name: "start without zone", lines: ["platform ios", "start 2026-03-02 06:55"], line: 2, column: 1, message: "incomplete `start` line"),
        .afterHeader("negative seed", ["seed -4"], line: 4, column: 6, "expected a seed"),
        .afterHeader("seed overflow", ["seed 18446744073709551616"], line: 4, column: 6, "expected a seed"),
        .afterHeader("unknown defect", ["defect time-travel"], line: 4, column: 8, "unknown defect 'time-travel'; known defects: resync-while-alerting"),
        .afterHeader("duplicate defect", ["defect resync-while-alerting", "defect resync-while-alerting"], line: 5, column: 8, "duplicate defect"),
        .afterHeader("bad parameter key", ["param Daemon.latency 300"], line: 4, column: 7, "bad parameter key"),
        .afterHeader("parameter without value", ["param daemon.latency-ms"], line: 4, column: 1, "incomplete `param` line"),
        .afterHeader("parameter with two values", ["param daemon.latency-ms 300 400"], line: 4, column: 29, "unexpected '400'"),
        .afterHeader("duplicate parameter", ["param a 1", "param a 2"], line: 5, column: 7, "duplicate parameter 'a'"),
        .afterHeader("unknown directive", ["snooze wake"], line: 4, column: 1, "unknown directive 'snooze'"),
        // Alarms.
        .afterHeader("duplicate alarm", ["alarm wake 08:00 once"], line: 4, column: 7, "duplicate alarm 'wake'; already declared on line 3"),
        .afterHeader("bad alarm name", ["alarm 1st 08:00 once"], line: 4, column: 7, "bad alarm name"),
        .afterHeader("bad alarm time", ["alarm nap 13:30:00 once"], line: 4, column: 11, "expected a time of day HH:MM"),
        .afterHeader("weekly without days", ["alarm gym 18:00 weekly"], line: 4, column: 17, "needs its days"),
        .afterHeader("duplicate weekday", ["alarm gym 18:00 weekly mon,mon"], line: 4, column: 24, "appears twice"),
        .afterHeader("bad weekday", ["alarm gym 18:00 weekly mon,funday"], line: 4, column: 24, "bad weekday 'funday'"),
        .afterHeader("days on a once alarm", ["alarm nap 13:30 once mon"], line: 4, column: 22, "unknown alarm option 'mon'"),
        .afterHeader("neither once nor weekly", ["alarm nap 13:30 daily"], line: 4, column: 17, "expected once or weekly"),
        .afterHeader("option given twice", ["alarm nap 13:30 once policy 2 policy 3"], line: 4, column: 31, "`policy` is given twice"),
        .afterHeader("bad policy", ["alarm nap 13:30 once policy 4"], line: 4, column: 29, "expected policy 3, 2 or legacy"),
        .afterHeader("unquoted title", ["alarm nap 13:30 once title Nap"], line: 4, column: 28, "quoted string"),
        .afterHeader("option without value", ["alarm nap 13:30 once challenge"], line: 4, column: 22, "`challenge` needs a value"),
        // Lexical errors.
        .afterHeader("unterminated quote", ["alarm nap 13:30 once title \"Nap"], line: 4, column: 28, "unterminated quoted string"),
        .afterHeader("backslash before the end of line", ["alarm nap 13:30 once title \"Nap\\"], line: 4, column: 28, "unterminated quoted string"),
        .afterHeader("unknown escape", ["alarm nap 13:30 once title \"a\\n\""], line: 4, column: 30, "unknown escape '\\n'"),
        .afterHeader("quote glued to a word", ["alarm nap 13:30 once title x\"y\""], line: 4, column: 29, "separate token"),
        .afterHeader("word glued to a closing quote", ["alarm nap 13:30 once title \"y\"x"], line: 4, column: 31, "space after the closing quote"),
        // Timed events.
        .afterHeader("unknown verb", ["at 07:00 user dance"], line: 4, column: 15, "unknown verb 'user dance'"),
        .afterHeader("snooze without a duration", ["at 07:00 user snooze"], line: 4, column: 15, "`user snooze` needs 1 argument(s)"),
        .afterHeader("unknown actor", ["at 07:00 cat stop"], line: 4, column: 10, "unknown actor 'cat'"),
        .afterHeader("actor without verb", ["at 07:00 fault"], line: 4, column: 10, "needs a verb"),
        .afterHeader("time without event", ["at 07:00"], line: 4, column: 1, "no event"),
        .afterHeader("bare at", ["at"], line: 4, column: 1, "incomplete `at` line"),
        .afterHeader("unknown alarm name", ["at 07:00 user edit-title nap \"x\""], line: 4, column: 26, "unknown alarm 'nap'; declared above: wake"),
        .afterHeader("alarm used before its declaration", ["at 07:00 user stop nap", "alarm nap 13:30 once"], line: 4, column: 20, "unknown alarm 'nap'"),
        .afterHeader("bad duration", ["at 07:00 fault late-delivery 90x"], line: 4, column: 30, "expected a duration"),
        .afterHeader("negative duration", ["at 07:00 fault late-delivery -5s"], line: 4, column: 30, "expected a duration"),
        .afterHeader("duration over 30 days", ["at 07:00 fault late-delivery 721h"], line: 4, column: 30, "at most 30 days"),
        .afterHeader("negative count", ["at 07:00 fault capacity -1"], line: 4, column: 25, "expected a count"),
        .afterHeader("clock change without a sign", ["at 07:00 device set-clock 30m"], line: 4, column: 27, "expected a signed duration"),
        .afterHeader("clock change of zero", ["at 07:00 device set-clock +0s"], line: 4, column: 27, "a clock change of zero changes nothing"),
        .afterHeader("zone abbreviation", ["at 07:00 device time-zone EST"], line: 4, column: 27, "unknown time zone 'EST'"),
        .afterHeader("POSIX offset zone", ["at 07:00 device time-zone GMT+5"], line: 4, column: 27, "unknown time zone 'GMT+5'"),
        .afterHeader("unknown zone", ["at 07:00 device time-zone Mars/Base"], line: 4, column: 27, "unknown time zone 'Mars/Base'"),
        .afterHeader("bad on/off", ["at 07:00 fault coalesce-updates yes"], line: 4, column: 33, "expected on or off"),
        .afterHeader("bad time of day argument", ["at 07:00 user edit-time wake 7:30"], line: 4, column: 30, "expected a time of day"),
        .afterHeader("unquoted text argument", ["at 07:00 user edit-title wake Gym"], line: 4, column: 31, "expected a quoted string"),
        .afterHeader("too many arguments", ["at 07:00 user open-app now"], line: 4, column: 24, "unexpected argument 'now'"),
        .afterHeader("too few arguments", ["at 07:00 user edit-title wake"], line: 4, column: 15, "needs 2 argument(s), found 1"),
        .afterHeader("missing required count", ["at 07:00 fault capacity"], line: 4, column: 16, "needs 1 argument(s), found 0"),
        .afterHeader("one-digit hour", ["at 7:00 user open-app"], line: 4, column: 4, "expected an event time"),
        .afterHeader("two-digit milliseconds", ["at 07:00:00.50 user open-app"], line: 4, column: 4, "expected an event time"),
        .afterHeader("milliseconds without seconds", ["at 07:00.500 user open-app"], line: 4, column: 4, "expected an event time"),
        .afterHeader("bad day offset", ["at +1 07:00 user open-app"], line: 4, column: 4, "expected a day offset"),
        .afterHeader("negative day offset", ["at -1d 07:00 user open-app"], line: 4, column: 4, "expected an event time"),
        .afterHeader("day offset beyond the limit", ["at +3661d 07:00 user open-app"], line: 4, column: 4, "expected a day offset"),
        .afterHeader("time going backwards", ["at 07:10 user open-app", "at 07:05 user leave-app"], line: 5, column: 4, "time goes backwards"),
        .afterHeader("time going backwards across days", ["at +1d 06:00 user open-app", "   at 07:00 user leave-app"], line: 5, column: 7, "time goes backwards"),
        // UTC offsets (header: Europe/Berlin, 2026-03-02, at +01:00; +27d is the spring-forward
        // night 2026-03-29, +237d the fall-back night 2026-10-25).
        .afterHeader("a UTC offset the zone does not have then", ["at 07:00+02:00 user open-app"], line: 4, column: 9,
                     "Europe/Berlin is not at UTC+02:00 at 07:00 on 2026-03-02; that wall time is at +01:00"),
        .afterHeader("a wrong offset for a repeated wall time", ["at +237d 02:30+03:00 user open-app"], line: 4, column: 15,
                     "that wall time is at +02:00 (its first pass) or +01:00 (its second)"),
        .afterHeader("an offset on a wall time inside the spring-forward gap", ["at +27d 02:30+01:00 user open-app"], line: 4, column: 14,
                     "02:30 on 2026-03-29 does not exist in Europe/Berlin"),
        .afterHeader("a UTC offset without minutes", ["at 07:00+01 user open-app"], line: 4, column: 9, "expected a UTC offset ±HH:MM"),
        .afterHeader("a UTC offset hour beyond 23", ["at 07:00:00.250+24:00 user open-app"], line: 4, column: 16, "expected a UTC offset ±HH:MM"),
        .afterHeader("a UTC offset written -00:00", ["at 07:00-00:00 user open-app"], line: 4, column: 9, "+00:00"),
        .afterHeader("a bad clock before a UTC offset", ["at 7:00+01:00 user open-app"], line: 4, column: 4, "expected an event time"),
        ErrorCase(name: "a UTC offset before the start line", lines: ["platform ios", "at 07:00+01:00 user lock", "start 2026-03-02 06:55 UTC"],
                  line: 2, column: 9, message: "needs the `start` line above it"),
        .afterHeader("a plain time in the first pass after one in the second", ["at +237d 02:30+01:00 user open-app", "at +237d 02:40 user leave-app"],
                     line: 5, column: 4, "+237d 02:40 is +237d 02:40+02:00 in Europe/Berlin, before the previous event at +237d 02:30+01:00 (line 4)"),
        .afterHeader("the first pass written with its offset after the second", ["at +237d 02:10+01:00 user open-app", "at +237d 02:50+02:00 user leave-app"],
                     line: 5, column: 4, "time goes backwards"),
        // Untimed expectations.
        .afterHeader("no violations, then a violation", ["expect no violations", "expect violation never-silent"], line: 5, column: 1,
                     "`expect violation` cannot be combined with `expect no violations` (line 4)"),
        .afterHeader("a violation, then no violations", ["expect violation never-silent", "# note", "expect no violations"], line: 6, column: 1,
                     "`expect no violations` cannot be combined with `expect violation` (line 4)"),
        .afterHeader("unknown invariant", ["expect violation sleepy"], line: 4, column: 18, "unknown invariant 'sleepy'"),
        .afterHeader("duplicate violation", ["expect violation never-silent", "expect violation never-silent"], line: 5, column: 18, "duplicate"),
        .afterHeader("duplicate no violations", ["expect no violations", "expect no violations"], line: 5, column: 1, "duplicate"),
        .afterHeader("untimed alerting expectation", ["expect alerting wake"], line: 4, column: 1, "at TIME expect alerting"),
        .afterHeader("unknown expectation", ["expect miracles"], line: 4, column: 8, "unknown expectation 'miracles'"),
        .afterHeader("no violation (singular)", ["expect no violation"], line: 4, column: 11, "expected `expect no violations`"),
    ]

    @Test("each malformed file reports the offending token's line and column", arguments: cases)
    func reportsPosition(_ errorCase: ErrorCase) throws {
        let error = try #require(Fixture.parseError(Fixture.text(errorCase.lines), file: "Scenarios/bad.scenario"))
        #expect(error.file == "Scenarios/bad.scenario")
        #expect(error.line == errorCase.line)
        #expect(error.column == errorCase.column)
        #expect(error.message.contains(errorCase.message), "message: \(error.message)")
    }

    @Test("the description is file:line:col: message")
    func description() {
        let error = ScenarioError(file: "a/b.scenario", line: 3, column: 14, message: "unknown verb 'user snooze'")
        #expect(error.description == "a/b.scenario:3:14: unknown verb 'user snooze'")
    }

    @Test("columns count Unicode scalars, so text before the error may be any script")
    func unicodeColumns() {
        let error = Fixture.parseError(Fixture.text(Fixture.header + ["alarm fruh 07:00 once title \"Früh 🌅\" policy 9"]))
        #expect(error?.line == 4)
        #expect(error?.column == 45)
    }
}

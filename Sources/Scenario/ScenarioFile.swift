// The scenario file AST: a plain, platform-neutral description of one scripted run.
//
// This layer is a pure file format. It imports no simulator type: another layer maps the AST
// onto the simulator (platform models, fault plan, invariant checkers). Every type here is a
// value, `Sendable` and `Equatable`, so a scenario can be built by hand, shrunk, printed and
// compared.
//
// Source positions (`line`, `column`) are 1-based and point into the text the scenario was
// parsed from; a hand-built value uses 0 for "no position". Use `withoutSourcePositions()` to
// compare two scenarios by meaning only.

import SimKernel  // TerminalText only: error messages echo the file's bytes safely.

/// The platform a scenario runs on.
public enum ScenarioPlatform: String, Sendable, Equatable, CaseIterable {
    case ios
    case android
}

/// A proleptic Gregorian calendar date, as written in a `start` line (no time zone).
public struct LocalDate: Sendable, Equatable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether the date exists in the proleptic Gregorian calendar (2026-02-30 does not).
    public var isValid: Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        return day <= LocalDate.daysInMonth(year: year, month: month)
    }

    /// The number of days in `month` of `year` (28…31), leap years included.
    ///
    /// - Parameter year: The Gregorian year.
    /// - Parameter month: The month, 1…12.
    /// - Returns: The number of days in the month.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        precondition((1...12).contains(month), "month \(month) is not in 1...12")
        switch month {
        case 2:
            let isLeapYear = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return isLeapYear ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }
}

/// The run's starting instant, as local wall time in a named (IANA) zone.
public struct ScenarioStart: Sendable, Equatable {
    public var date: LocalDate
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// An IANA time zone identifier, e.g. `Europe/Berlin`; the parser checks that
    /// `TimeZone(identifier:)` knows it.
    public var zoneIdentifier: String

    public init(date: LocalDate, hour: Int, minute: Int, second: Int = 0, zoneIdentifier: String) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
        self.zoneIdentifier = zoneIdentifier
    }

    /// The start's wall time, in milliseconds since midnight of the start date (nominal:
    /// ignores daylight-saving transitions, like `ScenarioTime`).
    public var millisecondsSinceStartDateMidnight: Int64 {
        Int64(hour) * 3_600_000 + Int64(minute) * 60_000 + Int64(second) * 1_000
    }
}

/// A day of the week, in the order a weekly alarm's `DAYS` list names them.
public enum ScenarioWeekday: String, Sendable, Equatable, CaseIterable {
    case mon, tue, wed, thu, fri, sat, sun
}

/// How an alarm repeats.
public enum ScenarioRepeat: Sendable, Equatable {
    /// Rings once, at the next occurrence of its time of day.
    case once
    /// Rings on the listed weekdays, in the order the file lists them (never empty, no duplicates).
    case weekly([ScenarioWeekday])
}

/// The inactivity policy version an alarm is created with.
public enum ScenarioPolicy: String, Sendable, Equatable {
    case v3 = "3"
    case v2 = "2"
    case legacy
}

/// The challenge the user must complete to dismiss an alarm.
public enum ScenarioChallenge: String, Sendable, Equatable {
    case none, voice, math, walk
}

/// One `alarm` line.
public struct ScenarioAlarm: Sendable, Equatable {
    /// Unique within the file; matches `[A-Za-z][A-Za-z0-9_-]*`.
    public var name: String
    public var hour: Int
    public var minute: Int
    public var repeats: ScenarioRepeat
    public var policy: ScenarioPolicy
    public var title: String
    public var challenge: ScenarioChallenge
    /// The alarm's sound settings (SND-1), nil when the line gives none.
    public var sounds: ScenarioSounds?
    /// REC-4: skip dates (`YYYY-MM-DD`, local) of a weekly alarm; empty when the line gives none.
    public var skipDates: [String] = []
    /// ID-4, ID-5: the AlarmKit alert countdown (post-alert, virtual ms), nil when the line gives none.
    public var countdownMs: Int64?
    public var line: Int

    /// Creates an alarm; the defaults are those of the file format (policy 3, title = name,
    /// no challenge).
    public init(
        name: String, hour: Int, minute: Int, repeats: ScenarioRepeat,
        policy: ScenarioPolicy = .v3, title: String? = nil, challenge: ScenarioChallenge = .none,
        line: Int = 0
    ) {
        self.name = name
        self.hour = hour
        self.minute = minute
        self.repeats = repeats
        self.policy = policy
        self.title = title ?? name
        self.challenge = challenge
        self.line = line
    }
}

/// One typed argument of a timed event (see `ScenarioVocabulary` for which verb takes which).
public enum ScenarioArgument: Sendable, Equatable {
    /// The name of an alarm declared by an `alarm` line.
    case alarm(String)
    /// A quoted string, unescaped.
    case text(String)
    /// A non-negative integer.
    case count(Int)
    /// A duration in milliseconds (written `1500ms`, `90s`, `5m` or `2h`).
    case durationMs(Int64)
    /// `on` or `off`.
    case onOff(Bool)
    /// A local wall time of day, `HH:MM`.
    case timeOfDay(hour: Int, minute: Int)
    /// An IANA time-zone identifier.
    case zone(String)
    /// A signed duration in milliseconds (written `+30m`, `-1h`).
    case signedDurationMs(Int64)
}

/// When a timed event happens: local wall time on the start date plus `dayOffset` days.
public struct ScenarioTime: Sendable, Equatable {
    /// Whole days after the start date, ≥ 0.
    public var dayOffset: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var millisecond: Int
    /// The UTC offset, in minutes east of UTC, that names one instant of the wall time
    /// (`02:04:08.251+01:00`, ISO 8601 / RFC 3339): on a fall-back night a local time occurs twice
    /// and a plain time means the earlier instant. nil for a plain time. The parser checks that the
    /// start zone has this offset at this local time (so the time is never in a DST gap).
    public var utcOffsetMinutes: Int?

    public init(dayOffset: Int = 0, hour: Int, minute: Int, second: Int = 0, millisecond: Int = 0,
                utcOffsetMinutes: Int? = nil) {
        self.dayOffset = dayOffset
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Nominal wall-clock milliseconds since midnight of the start date: every day counts
    /// 86 400 000 ms, daylight-saving transitions and `utcOffsetMinutes` are ignored. Events in a
    /// file are ordered by their instants (`ScenarioTime.orderKey`), this breaking ties; mapping the
    /// wall time onto an instant (DST gaps and overlaps) is `ScenarioTime.instantMs`.
    public var millisecondsSinceStartDateMidnight: Int64 {
        Int64(dayOffset) * 86_400_000 + Int64(hour) * 3_600_000 + Int64(minute) * 60_000
            + Int64(second) * 1_000 + Int64(millisecond)
    }
}

/// One `at TIME ACTOR VERB ARGS…` line. Timed expectations are events with actor `expect`.
public struct ScenarioEvent: Sendable, Equatable {
    public var time: ScenarioTime
    /// `user`, `app`, `device`, `fault` or `expect` (see `ScenarioVocabulary`).
    public var actor: String
    public var verb: String
    /// Typed arguments, in the order the vocabulary lists them; an optional count that the
    /// file omits is filled in with its default, an omitted optional alarm is absent.
    public var arguments: [ScenarioArgument]
    public var line: Int

    public init(time: ScenarioTime, actor: String, verb: String, arguments: [ScenarioArgument] = [], line: Int = 0) {
        self.time = time
        self.actor = actor
        self.verb = verb
        self.arguments = arguments
        self.line = line
    }
}

/// One `param KEY VALUE` line. The value's meaning is checked by the layer that applies it,
/// which reports errors at `line`/`column` (the key) or `valueColumn` (the value).
public struct ScenarioParameter: Sendable, Equatable {
    /// Matches `[a-z0-9][a-z0-9.-]*`, e.g. `daemon.latency-ms`.
    public var key: String
    public var value: String
    public var line: Int
    /// 1-based column of the key.
    public var column: Int
    /// 1-based column of the value.
    public var valueColumn: Int

    public init(key: String, value: String, line: Int = 0, column: Int = 0, valueColumn: Int = 0) {
        self.key = key
        self.value = value
        self.line = line
        self.column = column
        self.valueColumn = valueColumn
    }
}

/// An untimed expectation about the whole run.
public enum ScenarioExpectation: Sendable, Equatable {
    /// `expect violation NAME`: the named invariant must be violated at least once.
    case violation(String, line: Int)
    /// `expect no violations`: no invariant may be violated.
    case noViolations(line: Int)
}

/// A parsed scenario file.
public struct ScenarioFile: Sendable, Equatable {
    /// The file the scenario was parsed from (as given to the parser); not printed.
    public var path: String
    /// The comment lines before the first directive, without the `#` and one following space.
    /// Other comments are not kept.
    public var comments: [String]
    public var platform: ScenarioPlatform
    public var start: ScenarioStart
    /// Seeds the remaining randomness (latencies, coalescing); 1 when the file has no `seed`.
    public var seed: UInt64
    /// Known defects to reintroduce, in file order.
    public var defects: [String]
    public var parameters: [ScenarioParameter]
    public var alarms: [ScenarioAlarm]
    /// Timed events in file order (non-decreasing time), timed expectations included.
    public var events: [ScenarioEvent]
    public var expectations: [ScenarioExpectation]

    public init(
        path: String = "", comments: [String] = [], platform: ScenarioPlatform, start: ScenarioStart,
        seed: UInt64 = 1, defects: [String] = [], parameters: [ScenarioParameter] = [],
        alarms: [ScenarioAlarm] = [], events: [ScenarioEvent] = [], expectations: [ScenarioExpectation] = []
    ) {
        self.path = path
        self.comments = comments
        self.platform = platform
        self.start = start
        self.seed = seed
        self.defects = defects
        self.parameters = parameters
        self.alarms = alarms
        self.events = events
        self.expectations = expectations
    }

    /// A copy with every `line` and `column` set to 0, for comparing scenarios by meaning
    /// (e.g. a parsed file against a hand-built one, or across a print/parse round trip).
    public func withoutSourcePositions() -> ScenarioFile {
        var copy = self
        copy.alarms = alarms.map { alarm in
            var alarm = alarm
            alarm.line = 0
            return alarm
        }
        copy.events = events.map { event in
            var event = event
            event.line = 0
            return event
        }
        copy.parameters = parameters.map { parameter in
            ScenarioParameter(key: parameter.key, value: parameter.value)
        }
        copy.expectations = expectations.map { expectation in
            switch expectation {
            case .violation(let name, line: _): return .violation(name, line: 0)
            case .noViolations(line: _): return .noViolations(line: 0)
            }
        }
        return copy
    }
}

/// A malformed scenario file: where, and what is wrong.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column of the offending token, counted in Unicode scalars (for ASCII: bytes).
    public var column: Int
    public var message: String

    /// - Parameter message: Control characters quoted from the file (a NUL, an ESC) are made
    ///   visible (``TerminalText/visible(_:)``), so the message is safe to print.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = TerminalText.bounded(TerminalText.visible(message))
    }

    /// `file:line:col: message`, the shape compilers use, so editors can jump to it.
    public var description: String {
        "\(TerminalText.visible(file)):\(line):\(column): \(message)"
    }
}

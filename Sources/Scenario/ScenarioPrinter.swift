// Prints a `ScenarioFile` in the canonical layout, so that parsing the output gives the same
// scenario back (source positions aside) and printing is stable: print(parse(print(x))) ==
// print(x). This is how a shrunk failing seed becomes a committed regression file.
//
// Canonical layout: leading comments, platform, start, seed, defects, parameters, alarms,
// timed events, untimed expectations; one directive per line, single spaces, defaults left
// out where the grammar has them (alarm options, `+0d`, `:00` seconds, `.000` milliseconds),
// and always an explicit seed.

/// Writes scenario files.
public enum ScenarioPrinter {
    /// Prints a scenario in the canonical layout, ending with a newline.
    ///
    /// - Parameter scenario: The scenario; `path` and source positions are not printed.
    /// - Returns: Text that `ScenarioParser.parse` reads back into the same scenario.
    ///
    /// Names (alarms, defects, invariants, parameter keys) must be words the parser accepts,
    /// and no string may contain a line break: a scenario that cannot be written as a file
    /// is a programming error upstream and traps.
    public static func print(_ scenario: ScenarioFile) -> String {
        (headerComments(scenario) + statements(scenario).map(\.text)).joined(separator: "\n") + "\n"
    }

    /// The comment block at the top of the file, as printed (`# text`).
    public static func headerComments(_ scenario: ScenarioFile) -> [String] {
        scenario.comments.map { comment in
            precondition(!comment.contains(where: \.isNewline), "a comment cannot contain a line break: \(comment.debugDescription)")
            return comment.isEmpty ? "#" : "# " + comment
        }
    }

    /// One printed directive line: its first word, its canonical text, and the 1-based source
    /// line it was parsed from where the file records it (alarms, params, events, expectations;
    /// nil for `platform`, `start`, `seed` and `defect`, and for a scenario built in code: 0).
    public struct Statement: Sendable, Equatable {
        public var keyword: String
        public var text: String
        public var sourceLine: Int?
    }

    /// The directive lines of the canonical form, in order (``print(_:)`` without the header).
    public static func statements(_ scenario: ScenarioFile) -> [Statement] {
        var lines = [Statement(keyword: "platform", text: "platform \(scenario.platform.rawValue)", sourceLine: nil),
                     Statement(keyword: "start", text: "start \(format(scenario.start.date)) \(formatStartTime(scenario.start)) \(word(scenario.start.zoneIdentifier))", sourceLine: nil),
                     Statement(keyword: "seed", text: "seed \(scenario.seed)", sourceLine: nil)]
        lines += scenario.defects.map { Statement(keyword: "defect", text: "defect \(word($0))", sourceLine: nil) }
        lines += scenario.parameters.map { Statement(keyword: "param", text: "param \(word($0.key)) \(value($0.value))", sourceLine: $0.line) }
        lines += scenario.alarms.map { Statement(keyword: "alarm", text: format($0), sourceLine: $0.line) }
        lines += scenario.events.map { Statement(keyword: "at", text: format($0), sourceLine: $0.line) }
        lines += scenario.expectations.map { expectation in
            switch expectation {
            case .violation(let name, let line): return Statement(keyword: "expect", text: "expect violation \(word(name))", sourceLine: line)
            case .noViolations(let line): return Statement(keyword: "expect", text: "expect no violations", sourceLine: line)
            }
        }
        return lines
    }

    // MARK: Lines

    static func format(_ alarm: ScenarioAlarm) -> String {
        var parts = ["alarm", word(alarm.name), twoDigits(alarm.hour) + ":" + twoDigits(alarm.minute)]
        switch alarm.repeats {
        case .once:
            parts.append("once")
        case .weekly(let days):
            precondition(!days.isEmpty, "weekly alarm '\(alarm.name)' has no days")
            parts += ["weekly", days.map(\.rawValue).joined(separator: ",")]
        }
        if alarm.policy != .v3 {
            parts += ["policy", alarm.policy.rawValue]
        }
        if alarm.title != alarm.name {
            parts += ["title", quote(alarm.title)]
        }
        if alarm.challenge != .none {
            parts += ["challenge", alarm.challenge.rawValue]
        }
        if !alarm.skipDates.isEmpty {
            parts += ["skip", alarm.skipDates.joined(separator: ",")]
        }
        if let sounds = alarm.sounds {
            parts += ["sounds", quote(sounds.spec)]
        }
        if let countdownMs = alarm.countdownMs {
            parts += ["countdown", formatDuration(countdownMs)]
        }
        return parts.joined(separator: " ")
    }

    static func format(_ event: ScenarioEvent) -> String {
        assert(ScenarioVocabulary.lookup(actor: event.actor, verb: event.verb) != nil,
               "event '\(event.actor) \(event.verb)' is not in ScenarioVocabulary")
        let arguments = event.arguments.map(format(_:))
        return (["at", format(event.time), word(event.actor), word(event.verb)] + arguments).joined(separator: " ")
    }

    static func format(_ argument: ScenarioArgument) -> String {
        switch argument {
        case .alarm(let name): return word(name)
        case .text(let text): return quote(text)
        case .count(let count): return String(count)
        case .durationMs(let milliseconds): return formatDuration(milliseconds)
        case .onOff(let isOn): return isOn ? "on" : "off"
        case .timeOfDay(let hour, let minute): return twoDigits(hour) + ":" + twoDigits(minute)
        case .zone(let zone): return word(zone)
        case .signedDurationMs(let milliseconds):
            return (milliseconds < 0 ? "-" : "+") + formatDuration(milliseconds < 0 ? -milliseconds : milliseconds)
        }
    }

    // MARK: Values

    /// `YYYY-MM-DD`.
    static func format(_ date: LocalDate) -> String {
        let year = String(date.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + twoDigits(date.month) + "-" + twoDigits(date.day)
    }

    /// `HH:MM`, or `HH:MM:SS` when the seconds are not zero.
    static func formatStartTime(_ start: ScenarioStart) -> String {
        let clock = twoDigits(start.hour) + ":" + twoDigits(start.minute)
        return start.second == 0 ? clock : clock + ":" + twoDigits(start.second)
    }

    /// `[+Nd ]HH:MM[:SS[.mmm]][±HH:MM]`, leaving out a zero day offset and trailing zero fields;
    /// the UTC offset only when the time has one.
    static func format(_ time: ScenarioTime) -> String {
        var text = twoDigits(time.hour) + ":" + twoDigits(time.minute)
        if time.second != 0 || time.millisecond != 0 {
            text += ":" + twoDigits(time.second)
        }
        if time.millisecond != 0 {
            let digits = String(time.millisecond)
            text += "." + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        }
        if let offsetMinutes = time.utcOffsetMinutes {
            text += formatUTCOffset(minutes: offsetMinutes)
        }
        return time.dayOffset == 0 ? text : "+\(time.dayOffset)d " + text
    }

    /// `+HH:MM` / `-HH:MM` (ISO 8601 / RFC 3339 `time-numoffset`); UTC is `+00:00`.
    static func formatUTCOffset(minutes: Int) -> String {
        precondition(abs(minutes) < 24 * 60, "a UTC offset is less than a day: \(minutes) min")
        let magnitude = abs(minutes)
        return (minutes < 0 ? "-" : "+") + twoDigits(magnitude / 60) + ":" + twoDigits(magnitude % 60)
    }

    /// In the largest unit that is exact: `2h`, `5m`, `90s`, `1500ms`.
    static func formatDuration(_ milliseconds: Int64) -> String {
        precondition(milliseconds >= 0, "a duration cannot be negative: \(milliseconds) ms")
        if milliseconds == 0 { return "0s" }
        if milliseconds % 3_600_000 == 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000)s" }
        return "\(milliseconds)ms"
    }

    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    /// A double-quoted string with `"` and `\` escaped.
    static func quote(_ text: String) -> String {
        precondition(!text.contains(where: \.isNewline), "a quoted string cannot contain a line break: \(text.debugDescription)")
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" {
                result.append("\\")
            }
            result.append(character)
        }
        return result + "\""
    }

    /// A word the lexer reads back as one bare token.
    static func word(_ text: String) -> String {
        precondition(isBareWord(text), "cannot print \(text.debugDescription) as a bare word")
        return text
    }

    /// A parameter value: bare when it reads back as one bare token, quoted otherwise.
    static func value(_ text: String) -> String {
        isBareWord(text) ? text : quote(text)
    }

    static func isBareWord(_ text: String) -> Bool {
        !text.isEmpty && !text.contains { character in
            character == " " || character == "\t" || character == "#" || character == "\"" || character.isNewline
        }
    }
}

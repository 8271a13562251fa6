// Parses scenario files (grammar in Scenarios/README.md) into a `ScenarioFile`.
//
// Two stages, both single passes over the text: a lexer that cuts each line into tokens
// (bare words and double-quoted strings, each with its 1-based column) and strips comments,
// then a directive parser that checks each line in file order. The first error in file order
// is thrown, except for the two whole-file checks (a required line is missing; the first event
// is before `start`), which can only be decided at the end.
//
// Columns count Unicode scalars (see `ScenarioLexer`); for ASCII text that is the byte column
// editors show.

import AlarmBridge  // WallCalendar only: an `at` time's instant, for ordering and UTC offsets.
import Foundation
import SimKernel

/// Reads scenario files.
public enum ScenarioParser {
    /// The largest `+Nd` day offset an event may have (about ten years), so that every time
    /// in a file is bounded.
    public static let dayOffsetMax = 3_660
    /// The largest duration argument: 30 days, in milliseconds.
    public static let durationMsMax: Int64 = 30 * 86_400_000
    /// The largest count argument.
    public static let countMax = 1_000_000

    /// Parses one scenario file.
    ///
    /// - Parameter text: The file's contents (`\n`, `\r\n` or `\r` line ends).
    /// - Parameter file: The path shown in errors and stored as `ScenarioFile.path`.
    /// - Parameter knownDefects: The names a `defect` line may use.
    /// - Parameter knownInvariants: The names an `expect violation` line may use.
    /// - Returns: The scenario, with 1-based source lines on alarms, events, parameters and
    ///   expectations.
    /// - Throws: `ScenarioError` at the first malformed line, pointing at the offending token.
    /// - Complexity: O(n·a) for n lines and a declared alarms.
    public static func parse(
        _ text: String, file: String, knownDefects: [String], knownInvariants: [String]
    ) throws(ScenarioError) -> ScenarioFile {
        var builder = ScenarioBuilder(file: file, knownDefects: knownDefects, knownInvariants: knownInvariants)
        for (index, lineText) in splitLines(text).enumerated() {
            let line = try ScenarioLexer.tokenize(lineText, line: index + 1, file: file)
            try builder.add(line)
        }
        return try builder.finish()
    }

    /// Splits text at `\n`, `\r\n` and `\r`, so that line numbers agree with what editors
    /// show. Other Unicode line separators stay inside a line.
    static func splitLines(_ text: String) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previousWasCarriageReturn {
                previousWasCarriageReturn = false
                continue
            }
            previousWasCarriageReturn = scalar == "\r"
            if scalar == "\n" || scalar == "\r" {
                lines.append(current)
                current = []
            } else {
                current.append(scalar)
            }
        }
        lines.append(current)
        return lines
    }
}

// MARK: - Lexer

/// One word of a line.
fileprivate struct ScenarioToken: Equatable {
    /// The word, or for a quoted string its unescaped contents.
    var text: String
    /// 1-based column of the token's first character (the opening quote for a quoted string).
    var column: Int
    var isQuoted: Bool
}

/// One line, cut into tokens.
fileprivate struct ScenarioLine {
    var number: Int
    var tokens: [ScenarioToken]
    /// The text after `#`, when the line has a comment.
    var comment: String?
}

/// Cuts lines into tokens. It works on Unicode scalars, not grapheme clusters, so that a
/// combining mark written right after a quote cannot hide the quote (`"` + U+0301 is one
/// `Character`); columns therefore count scalars, which for ASCII text is the byte column
/// editors show.
fileprivate enum ScenarioLexer {
    /// Cuts one line into tokens separated by spaces and tabs; `#` outside a quoted string
    /// starts a comment. A quoted string must stand alone as a token.
    ///
    /// - Throws: `ScenarioError` for an unterminated string, an unknown escape, or a quote
    ///   glued to a word.
    static func tokenize(_ scalars: [Unicode.Scalar], line: Int, file: String) throws(ScenarioError) -> ScenarioLine {
        var tokens: [ScenarioToken] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if isSeparator(scalar) {
                index += 1
            } else if scalar == "#" {
                let comment = string(scalars[(index + 1)...])
                return ScenarioLine(number: line, tokens: tokens, comment: comment)
            } else if scalar == "\"" {
                tokens.append(try quotedToken(scalars, from: &index, line: line, file: file))
            } else {
                tokens.append(try bareToken(scalars, from: &index, line: line, file: file))
            }
        }
        return ScenarioLine(number: line, tokens: tokens, comment: nil)
    }

    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t"
    }

    static func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    private static func bareToken(
        _ scalars: [Unicode.Scalar], from index: inout Int, line: Int, file: String
    ) throws(ScenarioError) -> ScenarioToken {
        let startIndex = index
        while index < scalars.count, !isSeparator(scalars[index]), scalars[index] != "#" {
            if scalars[index] == "\"" {
                throw ScenarioError(file: file, line: line, column: index + 1,
                                    message: "a quoted string must be a separate token; put a space before the quote")
            }
            index += 1
        }
        assert(index > startIndex, "a bare token starts at a non-separator scalar")
        return ScenarioToken(text: string(scalars[startIndex..<index]), column: startIndex + 1, isQuoted: false)
    }

    private static func quotedToken(
        _ scalars: [Unicode.Scalar], from index: inout Int, line: Int, file: String
    ) throws(ScenarioError) -> ScenarioToken {
        assert(scalars[index] == "\"", "a quoted token starts at a quote")
        let openingColumn = index + 1
        var text = String.UnicodeScalarView()
        index += 1
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"" {
                index += 1
                if index < scalars.count, !isSeparator(scalars[index]), scalars[index] != "#" {
                    throw ScenarioError(file: file, line: line, column: index + 1,
                                        message: "expected a space after the closing quote")
                }
                return ScenarioToken(text: String(text), column: openingColumn, isQuoted: true)
            }
            if scalar == "\\" {
                guard index + 1 < scalars.count else { break }
                let escaped = scalars[index + 1]
                guard escaped == "\"" || escaped == "\\" else {
                    throw ScenarioError(file: file, line: line, column: index + 1,
                                        message: "unknown escape '\\\(escaped)'; only \\\" and \\\\ are allowed in a quoted string")
                }
                text.append(escaped)
                index += 2
                continue
            }
            text.append(scalar)
            index += 1
        }
        throw ScenarioError(file: file, line: line, column: openingColumn,
                            message: "unterminated quoted string; close it with \" on the same line")
    }
}

// MARK: - Directives

/// Accumulates a scenario line by line and checks each line against what came before.
fileprivate struct ScenarioBuilder {
    let file: String
    let knownDefects: [String]
    let knownInvariants: [String]

    private var comments: [String] = []
    private var hasSeenDirective = false
    private var platform: (value: ScenarioPlatform, line: Int)?
    private var start: (value: ScenarioStart, line: Int)?
    /// The start zone's calendar, once the `start` line is read: `at` times order by instant.
    private var calendar: WallCalendar?
    private var seed: (value: UInt64, line: Int)?
    private var defects: [(name: String, line: Int)] = []
    private var parameters: [ScenarioParameter] = []
    private var alarms: [ScenarioAlarm] = []
    private var events: [ScenarioEvent] = []
    /// Where the first event's time is written, for the whole-file "not before start" check.
    private var firstEventTimePosition: (line: Int, column: Int)?
    private var expectations: [ScenarioExpectation] = []

    static let directives = ["platform", "start", "seed", "defect", "param", "alarm", "at", "expect"]

    init(file: String, knownDefects: [String], knownInvariants: [String]) {
        self.file = file
        self.knownDefects = knownDefects
        self.knownInvariants = knownInvariants
    }

    func error(_ line: Int, _ column: Int, _ message: String) -> ScenarioError {
        ScenarioError(file: file, line: line, column: column, message: message)
    }

    func error(_ line: ScenarioLine, at token: ScenarioToken, _ message: String) -> ScenarioError {
        error(line.number, token.column, message)
    }

    mutating func add(_ line: ScenarioLine) throws(ScenarioError) {
        guard let keyword = line.tokens.first else {
            if let comment = line.comment, !hasSeenDirective {
                comments.append(comment.hasPrefix(" ") ? String(comment.dropFirst()) : comment)
            }
            return
        }
        hasSeenDirective = true
        guard !keyword.isQuoted else {
            throw error(line, at: keyword, "expected a directive (\(Self.directives.joined(separator: ", "))), found a quoted string")
        }
        switch keyword.text {
        case "platform": try addPlatform(line)
        case "start": try addStart(line)
        case "seed": try addSeed(line)
        case "defect": try addDefect(line)
        case "param": try addParameter(line)
        case "alarm": try addAlarm(line)
        case "at": try addEvent(line)
        case "expect": try addExpectation(line)
        default:
            throw error(line, at: keyword,
                        "unknown directive '\(keyword.text)'\(Suggestion.hint(for: keyword.text, among: Self.directives)); expected one of \(Self.directives.joined(separator: ", "))")
        }
    }

    /// Checks that a line has exactly `count` tokens after its keyword.
    func requireArguments(_ line: ScenarioLine, count: Int, usage: String) throws(ScenarioError) {
        let keyword = line.tokens[0]
        if line.tokens.count - 1 < count {
            throw error(line, at: keyword, "incomplete `\(keyword.text)` line; expected `\(usage)`")
        }
        if line.tokens.count - 1 > count {
            let extra = line.tokens[count + 1]
            throw error(line, at: extra, "unexpected '\(extra.text)' at the end of the `\(keyword.text)` line; expected `\(usage)`")
        }
    }

    /// A token that must be a bare word (keywords, names, numbers).
    func bare(_ line: ScenarioLine, _ token: ScenarioToken, expected: String) throws(ScenarioError) -> String {
        guard !token.isQuoted else {
            throw error(line, at: token, "expected \(expected), found a quoted string")
        }
        return token.text
    }

    // MARK: Header lines

    mutating func addPlatform(_ line: ScenarioLine) throws(ScenarioError) {
        if let previous = platform {
            throw error(line, at: line.tokens[0], "duplicate `platform` line; the platform is already set on line \(previous.line)")
        }
        try requireArguments(line, count: 1, usage: "platform ios|android")
        let token = line.tokens[1]
        let name = try bare(line, token, expected: "ios or android")
        guard let value = ScenarioPlatform(rawValue: name) else {
            throw error(line, at: token, "unknown platform '\(name)'; expected ios or android")
        }
        platform = (value, line.number)
    }

    mutating func addStart(_ line: ScenarioLine) throws(ScenarioError) {
        if let previous = start {
            throw error(line, at: line.tokens[0], "duplicate `start` line; the start is already set on line \(previous.line)")
        }
        try requireArguments(line, count: 3, usage: "start YYYY-MM-DD HH:MM[:SS] ZONE")
        let date = try parseDate(line, line.tokens[1])
        let timeToken = line.tokens[2]
        guard !timeToken.isQuoted,
              let clock = ScenarioClock.parse(timeToken.text, allowsSeconds: true, allowsMilliseconds: false)
        else {
            throw error(line, at: timeToken, "expected a start time HH:MM or HH:MM:SS (24-hour, two digits each), found '\(timeToken.text)'")
        }
        let zoneToken = line.tokens[3]
        let zone = try bare(line, zoneToken, expected: "an IANA time zone such as Europe/Berlin")
        guard ScenarioClock.isIANAZone(zone) else {
            throw error(line, at: zoneToken, "unknown time zone '\(zone)'; expected an IANA identifier such as Europe/Berlin or America/New_York")
        }
        let value = ScenarioStart(date: date, hour: clock.hour, minute: clock.minute, second: clock.second, zoneIdentifier: zone)
        start = (value, line.number)
        calendar = WallCalendar(zoneIdentifier: zone)
        assert(calendar != nil, "an IANA zone Foundation knows has a WallCalendar")
    }

    func parseDate(_ line: ScenarioLine, _ token: ScenarioToken) throws(ScenarioError) -> LocalDate {
        let parts = token.text.split(separator: "-", omittingEmptySubsequences: false)
        guard !token.isQuoted, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = ScenarioClock.decimal(parts[0]), let month = ScenarioClock.decimal(parts[1]),
              let day = ScenarioClock.decimal(parts[2])
        else {
            throw error(line, at: token, "expected a date YYYY-MM-DD, found '\(token.text)'")
        }
        let date = LocalDate(year: year, month: month, day: day)
        guard (1...12).contains(month) else {
            throw error(line, at: token, "\(token.text) is not a calendar date: month \(month) is not in 1...12")
        }
        guard date.isValid else {
            let days = LocalDate.daysInMonth(year: year, month: month)
            throw error(line, at: token, "\(token.text) is not a calendar date: that month has \(days) days")
        }
        return date
    }

    mutating func addSeed(_ line: ScenarioLine) throws(ScenarioError) {
        if let previous = seed {
            throw error(line, at: line.tokens[0], "duplicate `seed` line; the seed is already set on line \(previous.line)")
        }
        try requireArguments(line, count: 1, usage: "seed N")
        let token = line.tokens[1]
        guard !token.isQuoted, ScenarioClock.isDecimal(token.text), let value = UInt64(token.text) else {
            throw error(line, at: token, "expected a seed as a decimal integer 0...\(UInt64.max), found '\(token.text)'")
        }
        seed = (value, line.number)
    }

    mutating func addDefect(_ line: ScenarioLine) throws(ScenarioError) {
        try requireArguments(line, count: 1, usage: "defect NAME")
        let token = line.tokens[1]
        let name = try bare(line, token, expected: "a defect name")
        guard knownDefects.contains(name) else {
            throw error(line, at: token, "unknown defect '\(name)'\(Suggestion.hint(for: name, among: knownDefects)); known defects: \(Self.list(knownDefects))")
        }
        if let previous = defects.first(where: { $0.name == name }) {
            throw error(line, at: token, "duplicate defect '\(name)'; already listed on line \(previous.line)")
        }
        defects.append((name, line.number))
    }

    mutating func addParameter(_ line: ScenarioLine) throws(ScenarioError) {
        try requireArguments(line, count: 2, usage: "param KEY VALUE")
        let keyToken = line.tokens[1]
        let valueToken = line.tokens[2]
        let key = try bare(line, keyToken, expected: "a parameter key")
        guard Self.isParameterKey(key) else {
            throw error(line, at: keyToken, "bad parameter key '\(key)'; a key is lowercase letters, digits, '.' and '-', starting with a letter or digit")
        }
        if let previous = parameters.first(where: { $0.key == key }) {
            throw error(line, at: keyToken, "duplicate parameter '\(key)'; already set on line \(previous.line)")
        }
        parameters.append(ScenarioParameter(key: key, value: valueToken.text, line: line.number,
                                            column: keyToken.column, valueColumn: valueToken.column))
    }

    /// `[a-z0-9][a-z0-9.-]*`.
    static func isParameterKey(_ key: String) -> Bool {
        guard let first = key.first, isLowercaseAlphanumeric(first) else { return false }
        return key.allSatisfy { isLowercaseAlphanumeric($0) || $0 == "." || $0 == "-" }
    }

    static func isLowercaseAlphanumeric(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(ascii) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(ascii)
    }

    /// `a, b, c`, or `(none)` for an empty list, in the caller's order.
    static func list(_ names: [String]) -> String {
        names.isEmpty ? "(none)" : names.joined(separator: ", ")
    }

    // MARK: Whole file

    func finish() throws(ScenarioError) -> ScenarioFile {
        guard let platform else {
            throw error(1, 1, "missing `platform ios|android` line")
        }
        guard let start else {
            throw error(1, 1, "missing `start YYYY-MM-DD HH:MM[:SS] ZONE` line")
        }
        if let first = events.first, let position = firstEventTimePosition, isBeforeStart(first.time, start.value) {
            throw error(position.line, position.column,
                        "event at \(ScenarioPrinter.format(first.time)) is before the start (\(ScenarioPrinter.formatStartTime(start.value)), line \(start.line))")
        }
        assert(zip(events, events.dropFirst()).allSatisfy { !isBackwards($1.time, after: $0.time) },
               "events are in non-decreasing time order")
        assert(Set(alarms.map(\.name)).count == alarms.count, "alarm names are unique")
        return ScenarioFile(
            path: file, comments: comments, platform: platform.value, start: start.value,
            seed: seed?.value ?? 1, defects: defects.map(\.name), parameters: parameters,
            alarms: alarms, events: events, expectations: expectations)
    }
}

// MARK: - Alarms

extension ScenarioBuilder {
    /// A `YYYY-MM-DD` that exists (REC-4 skip dates).
    static func isSkipDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return false }
        return LocalDate(year: year, month: month, day: day).isValid
    }

    static let alarmUsage = "alarm NAME HH:MM once|weekly DAYS [policy 3|2|legacy] [title \"TEXT\"] [challenge none|voice|math|walk] [sounds \"MODE: a,b | c\"] [skip YYYY-MM-DD,…]"

    mutating func addAlarm(_ line: ScenarioLine) throws(ScenarioError) {
        let tokens = line.tokens
        guard tokens.count >= 4 else {
            throw error(line, at: tokens[0], "incomplete `alarm` line; expected `\(Self.alarmUsage)`")
        }
        let name = try alarmName(line, tokens[1])
        let clock = try timeOfDay(line, tokens[2])
        var index = 4
        let repeats: ScenarioRepeat
        switch try bare(line, tokens[3], expected: "once or weekly") {
        case "once":
            repeats = .once
        case "weekly":
            guard index < tokens.count else {
                throw error(line, at: tokens[3], "`weekly` needs its days, e.g. `weekly mon,tue,wed,thu,fri`")
            }
            repeats = .weekly(try weekdays(line, tokens[index]))
            index += 1
        default:
            throw error(line, at: tokens[3], "expected once or weekly, found '\(tokens[3].text)'")
        }
        var alarm = ScenarioAlarm(name: name, hour: clock.hour, minute: clock.minute, repeats: repeats, line: line.number)
        try addAlarmOptions(line, from: index, to: &alarm)
        alarms.append(alarm)
    }

    func alarmName(_ line: ScenarioLine, _ token: ScenarioToken) throws(ScenarioError) -> String {
        let name = try bare(line, token, expected: "an alarm name")
        guard Self.isAlarmName(name) else {
            throw error(line, at: token, "bad alarm name '\(name)'; a name is a letter followed by letters, digits, '_' and '-'")
        }
        if let previous = alarms.first(where: { $0.name == name }) {
            throw error(line, at: token, "duplicate alarm '\(name)'; already declared on line \(previous.line)")
        }
        return name
    }

    /// `[A-Za-z][A-Za-z0-9_-]*`, ASCII only.
    static func isAlarmName(_ name: String) -> Bool {
        func isLetter(_ character: Character) -> Bool {
            guard let ascii = character.asciiValue else { return false }
            return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(ascii) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(ascii)
        }
        guard let first = name.first, isLetter(first) else { return false }
        return name.allSatisfy { isLetter($0) || ($0.asciiValue.map { (48...57).contains($0) } ?? false) || $0 == "_" || $0 == "-" }
    }

    func timeOfDay(_ line: ScenarioLine, _ token: ScenarioToken) throws(ScenarioError) -> ScenarioClock {
        guard !token.isQuoted, let clock = ScenarioClock.parse(token.text, allowsSeconds: false, allowsMilliseconds: false) else {
            throw error(line, at: token, "expected a time of day HH:MM (24-hour, two digits each), found '\(token.text)'")
        }
        return clock
    }

    func weekdays(_ line: ScenarioLine, _ token: ScenarioToken) throws(ScenarioError) -> [ScenarioWeekday] {
        let text = try bare(line, token, expected: "weekdays such as mon,tue,wed")
        var days: [ScenarioWeekday] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let day = ScenarioWeekday(rawValue: String(part)) else {
                throw error(line, at: token, "bad weekday '\(part)' in '\(text)'; expected a comma list of mon,tue,wed,thu,fri,sat,sun")
            }
            guard !days.contains(day) else {
                throw error(line, at: token, "weekday '\(part)' appears twice in '\(text)'")
            }
            days.append(day)
        }
        return days
    }

    func addAlarmOptions(_ line: ScenarioLine, from startIndex: Int, to alarm: inout ScenarioAlarm) throws(ScenarioError) {
        let tokens = line.tokens
        var seen: [String] = []
        var index = startIndex
        while index < tokens.count {
            let option = tokens[index]
            let name = try bare(line, option, expected: "an alarm option (policy, title, challenge, sounds, skip, countdown)")
            guard ["policy", "title", "challenge", "sounds", "skip", "countdown"].contains(name) else {
                throw error(line, at: option, "unknown alarm option '\(name)'\(Suggestion.hint(for: name, among: ["policy", "title", "challenge", "sounds", "skip", "countdown"])); expected policy, title, challenge, sounds, skip or countdown")
            }
            guard !seen.contains(name) else {
                throw error(line, at: option, "`\(name)` is given twice on this alarm")
            }
            seen.append(name)
            guard index + 1 < tokens.count else {
                throw error(line, at: option, "`\(name)` needs a value")
            }
            let value = tokens[index + 1]
            switch name {
            case "policy":
                guard !value.isQuoted, let policy = ScenarioPolicy(rawValue: value.text) else {
                    throw error(line, at: value, "expected policy 3, 2 or legacy, found '\(value.text)'")
                }
                alarm.policy = policy
            case "title":
                guard value.isQuoted else {
                    throw error(line, at: value, "expected the title as a quoted string, e.g. title \"Wake up\"")
                }
                alarm.title = value.text
            case "skip":
                let dates = value.text.split(separator: ",").map(String.init)
                guard !value.isQuoted, !dates.isEmpty, dates.allSatisfy(Self.isSkipDate) else {
                    throw error(line, at: value, "expected skip dates as YYYY-MM-DD[,YYYY-MM-DD…], found '\(value.text)'")
                }
                alarm.skipDates = dates
            case "countdown":
                guard !value.isQuoted, let ms = ScenarioClock.durationMs(value.text), ms > 0 else {
                    throw error(line, at: value, "expected a countdown duration such as 5m or 540s, found '\(value.text)'")
                }
                alarm.countdownMs = ms
            case "sounds":
                guard value.isQuoted, let sounds = ScenarioSounds(spec: value.text) else {
                    throw error(line, at: value, "expected sounds as a quoted \"MODE: a,b | c\" with MODE progressive, random or legacy")
                }
                alarm.sounds = sounds
            default:
                guard !value.isQuoted, let challenge = ScenarioChallenge(rawValue: value.text) else {
                    throw error(line, at: value, "expected challenge none, voice, math or walk, found '\(value.text)'")
                }
                alarm.challenge = challenge
            }
            index += 2
        }
    }
}

// MARK: - Timed events

extension ScenarioBuilder {
    mutating func addEvent(_ line: ScenarioLine) throws(ScenarioError) {
        let tokens = line.tokens
        var index = 1
        guard index < tokens.count else {
            throw error(line, at: tokens[0], "incomplete `at` line; expected `at [+Nd] HH:MM[:SS[.mmm]] ACTOR VERB ARGS…`")
        }
        let timeColumn = tokens[index].column
        let time = try eventTime(line, index: &index)
        if let previous = events.last, isBackwards(time, after: previous.time) {
            throw error(line.number, timeColumn, backwardsMessage(time, previous: previous))
        }
        guard index < tokens.count else {
            throw error(line, at: tokens[0], "`at` line has no event; expected ACTOR VERB after the time")
        }
        let actorToken = tokens[index]
        let actor = try bare(line, actorToken, expected: "an actor (\(ScenarioVocabulary.actors.joined(separator: ", ")))")
        guard ScenarioVocabulary.actors.contains(actor) else {
            if let first = actor.first, first == "+" || first == "-", actor.contains(":") {
                throw error(line, at: actorToken, "'\(actor)' reads as a UTC offset: write it against the time, with no space (e.g. 02:04+01:00)")
            }
            throw error(line, at: actorToken, "unknown actor '\(actor)'\(Suggestion.hint(for: actor, among: ScenarioVocabulary.actors)); expected one of \(ScenarioVocabulary.actors.joined(separator: ", "))")
        }
        let verbs = ScenarioVocabulary.verbs(of: actor)
        guard index + 1 < tokens.count else {
            throw error(line, at: actorToken, "`\(actor)` needs a verb: \(verbs.map(\.verb).joined(separator: ", "))")
        }
        let verbToken = tokens[index + 1]
        let verbName = try bare(line, verbToken, expected: "a verb")
        guard let entry = ScenarioVocabulary.lookup(actor: actor, verb: verbName) else {
            throw error(line, at: verbToken, "unknown verb '\(actor) \(verbName)'\(Suggestion.hint(for: verbName, among: verbs.map(\.verb))); `\(actor)` knows \(verbs.map(\.verb).joined(separator: ", "))")
        }
        let arguments = try eventArguments(line, entry: entry, verbToken: verbToken, from: index + 2)
        if events.isEmpty {
            firstEventTimePosition = (line.number, timeColumn)
        }
        events.append(ScenarioEvent(time: time, actor: actor, verb: verbName, arguments: arguments, line: line.number))
    }

    /// `[+Nd] HH:MM[:SS[.mmm]][±HH:MM]`, the day offset as its own token, the UTC offset glued to the time.
    func eventTime(_ line: ScenarioLine, index: inout Int) throws(ScenarioError) -> ScenarioTime {
        let tokens = line.tokens
        var dayOffset = 0
        if tokens[index].text.hasPrefix("+"), !tokens[index].isQuoted {
            let token = tokens[index]
            let digits = token.text.dropFirst().dropLast()
            guard token.text.hasSuffix("d"), ScenarioClock.isDecimal(digits), let days = Int(digits), days <= ScenarioParser.dayOffsetMax else {
                throw error(line, at: token, "expected a day offset +Nd (N = 0...\(ScenarioParser.dayOffsetMax)) followed by a space and the time, found '\(token.text)'")
            }
            dayOffset = days
            index += 1
            guard index < tokens.count else {
                throw error(line, at: token, "expected a time HH:MM[:SS[.mmm]] after the day offset")
            }
        }
        let token = tokens[index]
        // A UTC offset (`+01:00`) follows the clock in the same token, ISO 8601 / RFC 3339 style.
        let text = token.text.unicodeScalars
        let signIndex = text.firstIndex { $0 == "+" || $0 == "-" } ?? text.endIndex
        let clockText = String(text[..<signIndex])
        guard !token.isQuoted, let clock = ScenarioClock.parse(clockText, allowsSeconds: true, allowsMilliseconds: true) else {
            throw error(line, at: token, "expected an event time [+Nd] HH:MM[:SS[.mmm]][±HH:MM] (24-hour, two digits each), found '\(token.text)'")
        }
        index += 1
        var time = ScenarioTime(dayOffset: dayOffset, hour: clock.hour, minute: clock.minute,
                                second: clock.second, millisecond: clock.millisecond)
        if signIndex != text.endIndex {
            let offsetColumn = token.column + text.distance(from: text.startIndex, to: signIndex)
            time.utcOffsetMinutes = try utcOffset(String(text[signIndex...]), of: time, line: line.number, column: offsetColumn)
        }
        return time
    }

    /// The `±HH:MM` after an event time, in minutes east of UTC; it must be an offset the start
    /// zone has at that local time (naming one instant of a time a fall-back night repeats).
    func utcOffset(_ text: String, of time: ScenarioTime, line: Int, column: Int) throws(ScenarioError) -> Int {
        guard let minutes = ScenarioClock.parseUTCOffset(text) else {
            throw error(line, column, "expected a UTC offset ±HH:MM after the time (e.g. +01:00 or -04:00), found '\(text)'")
        }
        guard text != "-00:00" else {
            throw error(line, column, "write a zero UTC offset as +00:00 (-00:00 means an unknown offset)")
        }
        guard let start = start?.value, let calendar else {
            throw error(line, column, "a time with a UTC offset needs the `start` line above it: the offset is checked against the start zone")
        }
        let withOffset = ScenarioTime(dayOffset: time.dayOffset, hour: time.hour, minute: time.minute, second: time.second,
                                      millisecond: time.millisecond, utcOffsetMinutes: minutes)
        guard withOffset.instantMs(start: start, calendar: calendar) == nil else { return minutes }
        let day = time.localDay(start: start, calendar: calendar)
        let wallTime = "\(ScenarioPrinter.format(ScenarioTime(hour: time.hour, minute: time.minute, second: time.second, millisecond: time.millisecond))) on \(ScenarioPrinter.format(LocalDate(year: day.year, month: day.month, day: day.day)))"
        let possible = time.possibleUTCOffsetsMinutes(start: start, calendar: calendar).map(ScenarioPrinter.formatUTCOffset(minutes:))
        guard !possible.isEmpty else {
            throw error(line, column, "\(wallTime) does not exist in \(start.zoneIdentifier) (the clocks skip it for daylight saving); no UTC offset names it")
        }
        let shown = possible.count == 1 ? possible[0] : "\(possible[0]) (its first pass) or \(possible[1]) (its second)"
        throw error(line, column, "\(start.zoneIdentifier) is not at UTC\(text) at \(wallTime); that wall time is at \(shown)")
    }

    /// Whether `time` is before `previous`: by instant once the `start` line is known (ties by
    /// wall time), by wall time before it (where no time may carry an offset).
    func isBackwards(_ time: ScenarioTime, after previous: ScenarioTime) -> Bool {
        guard let start = start?.value, let calendar,
              let key = time.orderKey(start: start, calendar: calendar),
              let previousKey = previous.orderKey(start: start, calendar: calendar) else {
            return time.millisecondsSinceStartDateMidnight < previous.millisecondsSinceStartDateMidnight
        }
        return key < previousKey
    }

    func isBeforeStart(_ time: ScenarioTime, _ start: ScenarioStart) -> Bool {
        let startTime = ScenarioTime(hour: start.hour, minute: start.minute, second: start.second)
        return isBackwards(time, after: startTime)
    }

    /// "time goes backwards", with the UTC offsets spelled out when only the instants are out of order
    /// (a plain time on a fall-back night means its first pass).
    func backwardsMessage(_ time: ScenarioTime, previous: ScenarioEvent) -> String {
        let text = "time goes backwards: \(ScenarioPrinter.format(time)) is before the previous event at \(ScenarioPrinter.format(previous.time)) (line \(previous.line))"
        guard let start = start?.value, let calendar,
              time.millisecondsSinceStartDateMidnight >= previous.time.millisecondsSinceStartDateMidnight,
              let instant = time.instantMs(start: start, calendar: calendar),
              let previousInstant = previous.time.instantMs(start: start, calendar: calendar) else { return text }
        func explicit(_ time: ScenarioTime, _ instantMs: Int64) -> String {
            var named = time
            named.utcOffsetMinutes = Int(calendar.offsetMs(at: instantMs) / 60_000)
            return ScenarioPrinter.format(named)
        }
        return "time goes backwards: \(ScenarioPrinter.format(time)) is \(explicit(time, instant)) in \(start.zoneIdentifier), before the previous event at \(explicit(previous.time, previousInstant)) (line \(previous.line)); a wall time a fall-back night repeats means its first pass unless it carries the UTC offset of its second (e.g. 02:30+01:00)"
    }

    func eventArguments(
        _ line: ScenarioLine, entry: ScenarioVerb, verbToken: ScenarioToken, from startIndex: Int
    ) throws(ScenarioError) -> [ScenarioArgument] {
        let given = Array(line.tokens[startIndex...])
        let usage = "at TIME \(entry.usage)"
        var arguments: [ScenarioArgument] = []
        for (position, kind) in entry.arguments.enumerated() {
            guard position < given.count else {
                switch kind {
                case .optionalAlarm: continue
                case .optionalCount(let defaultValue): arguments.append(.count(defaultValue)); continue
                case .alarm, .text, .count, .duration, .onOff, .timeOfDay, .zone, .signedDuration:
                    throw error(line, at: verbToken, "`\(entry.actor) \(entry.verb)` needs \(entry.minimumArgumentCount) argument(s), found \(given.count); usage: `\(usage)`")
                }
            }
            arguments.append(try argument(line, given[position], kind: kind, usage: usage))
        }
        if given.count > entry.arguments.count {
            let extra = given[entry.arguments.count]
            throw error(line, at: extra, "unexpected argument '\(extra.text)'; usage: `\(usage)`")
        }
        return arguments
    }

    func argument(
        _ line: ScenarioLine, _ token: ScenarioToken, kind: ScenarioArgumentKind, usage: String
    ) throws(ScenarioError) -> ScenarioArgument {
        switch kind {
        case .alarm, .optionalAlarm:
            let name = try bare(line, token, expected: "an alarm name")
            guard alarms.contains(where: { $0.name == name }) else {
                let declared = alarms.isEmpty ? "no alarm is declared above this line" : "declared above: \(Self.list(alarms.map(\.name)))"
                throw error(line, at: token, "unknown alarm '\(name)'\(Suggestion.hint(for: name, among: alarms.map(\.name))); \(declared)")
            }
            return .alarm(name)
        case .text:
            guard token.isQuoted else {
                throw error(line, at: token, "expected a quoted string, e.g. \"Gym\"; usage: `\(usage)`")
            }
            return .text(token.text)
        case .count, .optionalCount:
            guard !token.isQuoted, ScenarioClock.isDecimal(token.text), let count = Int(token.text), count <= ScenarioParser.countMax else {
                throw error(line, at: token, "expected a count 0...\(ScenarioParser.countMax), found '\(token.text)'; usage: `\(usage)`")
            }
            return .count(count)
        case .duration:
            guard !token.isQuoted, let milliseconds = ScenarioClock.durationMs(token.text) else {
                throw error(line, at: token, "expected a duration such as 1500ms, 90s, 5m or 2h (at most 30 days), found '\(token.text)'")
            }
            return .durationMs(milliseconds)
        case .onOff:
            guard !token.isQuoted, token.text == "on" || token.text == "off" else {
                throw error(line, at: token, "expected on or off, found '\(token.text)'")
            }
            return .onOff(token.text == "on")
        case .timeOfDay:
            let clock = try timeOfDay(line, token)
            return .timeOfDay(hour: clock.hour, minute: clock.minute)
        case .zone:
            let zone = try bare(line, token, expected: "an IANA time zone such as Asia/Tokyo")
            guard ScenarioClock.isIANAZone(zone) else {
                throw error(line, at: token, "unknown time zone '\(zone)'; expected an IANA identifier such as Europe/Berlin or America/New_York")
            }
            return .zone(zone)
        case .signedDuration:
            let text = token.text
            guard !token.isQuoted, let sign = text.first, sign == "+" || sign == "-",
                  let milliseconds = ScenarioClock.durationMs(String(text.dropFirst())) else {
                throw error(line, at: token, "expected a signed duration such as +30m or -1h (at most 30 days), found '\(text)'")
            }
            guard milliseconds > 0 else {
                throw error(line, at: token, "a clock change of zero changes nothing; write at least +1ms or -1ms, found '\(text)'")
            }
            return .signedDurationMs(sign == "-" ? -milliseconds : milliseconds)
        }
    }
}

// MARK: - Untimed expectations

extension ScenarioBuilder {
    mutating func addExpectation(_ line: ScenarioLine) throws(ScenarioError) {
        let tokens = line.tokens
        guard tokens.count >= 2, !tokens[1].isQuoted else {
            throw error(line, at: tokens[0], "incomplete `expect` line; expected `expect violation NAME` or `expect no violations`")
        }
        switch tokens[1].text {
        case "violation":
            try requireArguments(line, count: 2, usage: "expect violation NAME")
            try addViolationExpectation(line, nameToken: tokens[2])
        case "no":
            try requireArguments(line, count: 2, usage: "expect no violations")
            guard !tokens[2].isQuoted, tokens[2].text == "violations" else {
                throw error(line, at: tokens[2], "expected `expect no violations`")
            }
            if let previous = expectationLine(where: { if case .violation = $0 { return true } else { return false } }) {
                throw error(line, at: tokens[0], "`expect no violations` cannot be combined with `expect violation` (line \(previous))")
            }
            if let previous = expectationLine(where: { if case .noViolations = $0 { return true } else { return false } }) {
                throw error(line, at: tokens[0], "duplicate `expect no violations`; already on line \(previous)")
            }
            expectations.append(.noViolations(line: line.number))
        default:
            if ScenarioVocabulary.lookup(actor: "expect", verb: tokens[1].text) != nil {
                throw error(line, at: tokens[0], "`expect \(tokens[1].text)` is checked at an instant; write it as `at TIME expect \(tokens[1].text) ALARM`")
            }
            throw error(line, at: tokens[1], "unknown expectation '\(tokens[1].text)'; expected `expect violation NAME` or `expect no violations`")
        }
    }

    mutating func addViolationExpectation(_ line: ScenarioLine, nameToken: ScenarioToken) throws(ScenarioError) {
        let name = try bare(line, nameToken, expected: "an invariant name")
        guard knownInvariants.contains(name) else {
            throw error(line, at: nameToken, "unknown invariant '\(name)'\(Suggestion.hint(for: name, among: knownInvariants)); known invariants: \(Self.list(knownInvariants))")
        }
        if let previous = expectationLine(where: { if case .noViolations = $0 { return true } else { return false } }) {
            throw error(line, at: line.tokens[0], "`expect violation` cannot be combined with `expect no violations` (line \(previous))")
        }
        if let previous = expectationLine(where: { if case .violation(name, _) = $0 { return true } else { return false } }) {
            throw error(line, at: nameToken, "duplicate `expect violation \(name)`; already on line \(previous)")
        }
        expectations.append(.violation(name, line: line.number))
    }

    func expectationLine(where matches: (ScenarioExpectation) -> Bool) -> Int? {
        expectations.first(where: matches).map(Self.line(of:))
    }

    static func line(of expectation: ScenarioExpectation) -> Int {
        switch expectation {
        case .violation(_, let line), .noViolations(let line): return line
        }
    }
}

// MARK: - Numbers and clock times

/// A wall-clock time of day as written in a file.
struct ScenarioClock: Equatable {
    var hour: Int
    var minute: Int
    var second = 0
    var millisecond = 0

    /// `HH:MM`, optionally `:SS`, optionally `.mmm`; exactly two digits per field (three for
    /// milliseconds), hour 00–23, minute and second 00–59.
    static func parse(_ text: String, allowsSeconds: Bool, allowsMilliseconds: Bool) -> ScenarioClock? {
        var clockText = Substring(text)
        var millisecond = 0
        let hasFraction = clockText.contains(".")
        if let dot = clockText.firstIndex(of: ".") {
            let fraction = clockText[clockText.index(after: dot)...]
            guard allowsMilliseconds, fraction.count == 3, let value = decimal(fraction) else { return nil }
            millisecond = value
            clockText = clockText[..<dot]
        }
        let fields = clockText.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || (allowsSeconds && fields.count == 3) else { return nil }
        // Milliseconds are written only after seconds: `07:00.500` is not a time.
        guard !hasFraction || fields.count == 3 else { return nil }
        var values: [Int] = []
        for field in fields {
            guard field.count == 2, let value = decimal(field) else { return nil }
            values.append(value)
        }
        guard values[0] < 24, values[1] < 60, values.count < 3 || values[2] < 60 else { return nil }
        return ScenarioClock(hour: values[0], minute: values[1], second: values.count == 3 ? values[2] : 0, millisecond: millisecond)
    }

    /// `+HH:MM` or `-HH:MM` (ISO 8601 / RFC 3339 `time-numoffset`: hour 00–23, minute 00–59), in
    /// minutes east of UTC; nil for anything else.
    static func parseUTCOffset(_ text: String) -> Int? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 6, scalars[0] == "+" || scalars[0] == "-", scalars[3] == ":" else { return nil }
        let hoursText = String(String.UnicodeScalarView(scalars[1...2]))
        let minutesText = String(String.UnicodeScalarView(scalars[4...5]))
        guard let hours = decimal(hoursText), let minutes = decimal(minutesText), hours < 24, minutes < 60 else { return nil }
        return (scalars[0] == "-" ? -1 : 1) * (hours * 60 + minutes)
    }

    /// An IANA zone Foundation knows: `Area/Location` (or `UTC` / `GMT`). Abbreviations such as
    /// `EST` and offsets such as `GMT+5` are refused: Foundation accepts them, but they are not
    /// IANA names, and POSIX-style `GMT+5` means the opposite sign of what most readers expect.
    static func isIANAZone(_ zone: String) -> Bool {
        guard TimeZone(identifier: zone) != nil else { return false }
        return zone.contains("/") || zone == "UTC" || zone == "GMT"
    }

    /// Whether `text` is one or more ASCII digits (no sign, no spaces).
    static func isDecimal(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.asciiValue.map { (48...57).contains($0) } ?? false }
    }

    /// The value of a short run of ASCII digits, or nil.
    static func decimal(_ text: some StringProtocol) -> Int? {
        guard isDecimal(text), text.count <= 9 else { return nil }
        return Int(text)
    }

    /// `1500ms`, `90s`, `5m`, `2h` in milliseconds, at most `ScenarioParser.durationMsMax`.
    static func durationMs(_ text: String) -> Int64? {
        let units: [(suffix: String, milliseconds: Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
        for unit in units where text.hasSuffix(unit.suffix) {
            let digits = text.dropLast(unit.suffix.count)
            guard isDecimal(digits), digits.count <= 12, let value = Int64(digits) else { return nil }
            let milliseconds = value * unit.milliseconds
            return milliseconds <= ScenarioParser.durationMsMax ? milliseconds : nil
        }
        return nil
    }
}

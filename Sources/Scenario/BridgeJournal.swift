// Bridge journals (`alarmsim import`): a device's record of what its bridge saw and did, as JSON
// Lines, turned into a scenario prefix. The format is documented in Scenarios/README.md,
// "Bridge journals"; every error is a `ScenarioError` at the journal's `file:line:col`.

import AlarmBridge

/// A journal turned into scenario text.
public struct JournalImport: Sendable, Equatable {
    /// The scenario file's text; `ScenarioParser.parse` and `ScenarioRunner.validate` accept it.
    public var scenarioText: String
    public var platform: ScenarioPlatform
    /// Journal lines read (header included; blank lines not counted), timed scenario lines written, and of those the
    /// expectations (checked by `alarmsim run`); schedule calls kept as comments.
    public var journalLines: Int
    public var timedLines: Int
    public var expectations: Int
    public var scheduleComments: Int
}

/// Reads bridge journals (format `alarmsim-bridge-journal`, version 1).
public enum BridgeJournal {
    public static let formatName = "alarmsim-bridge-journal"
    public static let version: Int64 = 1
    /// The latest a journal event may be after the journal's start: the scenario's day-offset bound.
    public static let spanMaxMs = Int64(ScenarioParser.dayOffsetMax) * 86_400_000

    static let lifecycleVerbs: [(event: String, actor: String, verb: String)] = [
        ("launch", "app", "launch"), ("foreground", "user", "open-app"), ("background", "user", "leave-app"),
        ("process-death", "fault", "process-death"), ("reboot", "device", "reboot"), ("boot-complete", "device", "boot-complete"),
        ("unlock", "user", "unlock"), ("lock", "user", "lock"), ("force-quit", "user", "force-quit"),
        ("app-update", "user", "app-update"), ("reinstall", "user", "reinstall"),
        ("time-zone", "device", "time-zone"), ("clock-change", "device", "set-clock"),
    ]
    static let actionVerbs: [(action: String, actor: String, verb: String)] = [
        ("stop", "user", "stop"), ("snooze", "user", "snooze"), ("dismiss", "user", "complete-challenge"),
        ("abandon", "user", "abandon"), ("skip-snooze", "user", "skip-snooze"), ("delete", "user", "delete-alarm"),
        ("save", "user", "edit-…"),
    ]
    /// A `save` action's change fields and the editor verb each becomes, in this order.
    static let saveFields: [(key: String, verb: String)] = [
        ("title", "edit-title"), ("time", "edit-alarm-time"), ("days", "edit-weekdays"), ("sounds", "edit-sounds"),
        ("policy", "edit-policy"), ("challenge", "edit-challenge"), ("countdown", "edit-countdown"), ("enabled", "enable-alarm"),
    ]
    static let kinds = ["alarm", "lifecycle", "action", "save-result", "alert", "schedule", "scheduled-times"]

    /// Turns a journal into a scenario prefix.
    ///
    /// - Parameter text: The journal (JSON Lines: a header object, then one event object per line;
    ///   blank lines are skipped).
    /// - Parameter file: The journal's path, shown in errors.
    /// - Parameter platform: `--platform`: required when the header names none; must agree with it.
    /// - Returns: The scenario text and its counts.
    /// - Throws: `ScenarioError` at the journal's line and column (1-based, Unicode scalars).
    public static func importJournal(_ text: String, file: String, platform: ScenarioPlatform? = nil) throws(ScenarioError) -> JournalImport {
        var importer = Importer(file: file, requestedPlatform: platform)
        let lines = ScenarioParser.splitLines(text)
        var read = 0
        for (index, scalars) in lines.enumerated() {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            let line = String(view)
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let value: JSONValue
            do {
                value = try JSONLine.parse(line)
            } catch {
                throw ScenarioError(file: file, line: index + 1, column: error.column, message: error.message)
            }
            try importer.add(value, line: index + 1)
            read += 1
        }
        return try importer.finish(lineCount: read)
    }
}

/// One scenario line and where in the journal it came from.
private struct OutputLine {
    var text: String
    var journalLine: Int
    var journalColumn: Int
    /// Timed lines: the instant (true ms) and a tie-break that keeps journal order.
    var ms: Int64 = 0
    var order: Int = 0
    /// A `fault schedule-failure N` line re-creating N failed schedule calls (text set at the end).
    var faultCount = 0
}

private struct Importer {
    let file: String
    let requestedPlatform: ScenarioPlatform?
    var platform: ScenarioPlatform?
    var start: ScenarioStart?
    var startMs: Int64 = 0
    var calendar: WallCalendar?
    var header: [OutputLine] = []
    var alarms: [OutputLine] = []
    var alarmNames: [String] = []
    var timed: [OutputLine] = []
    var lastMs: Int64 = 0
    var lastTriggerIndex: Int?
    /// The fault line collecting the failed schedule calls after the last trigger.
    var pendingFaultIndex: Int?
    var sawEvent = false
    var expectations = 0
    var scheduleComments = 0
    var order = 0

    init(file: String, requestedPlatform: ScenarioPlatform?) {
        self.file = file
        self.requestedPlatform = requestedPlatform
    }

    func error(_ line: Int, _ column: Int, _ message: String) -> ScenarioError {
        ScenarioError(file: file, line: line, column: column, message: message)
    }

    /// The object's members, each key checked against `allowed`.
    func members(_ value: JSONValue, line: Int, allowed: [String], what: String) throws(ScenarioError) -> [JSONMember] {
        guard case .object(let members) = value.kind else {
            throw error(line, value.column, "expected a JSON object for \(what), found \(value.kindName)")
        }
        for member in members where !allowed.contains(member.key) {
            throw error(line, member.keyColumn, "unknown key \"\(member.key)\" in \(what); expected \(allowed.joined(separator: ", "))")
        }
        return members
    }

    func member(_ members: [JSONMember], _ key: String) -> JSONMember? {
        members.first { $0.key == key }
    }

    func requiredString(_ members: [JSONMember], _ key: String, line: Int, object: JSONValue, what: String) throws(ScenarioError) -> (String, Int) {
        guard let found = member(members, key) else {
            throw error(line, object.column, "\(what) needs \"\(key)\"")
        }
        return try stringValue(found, line: line)
    }

    func stringValue(_ member: JSONMember, line: Int) throws(ScenarioError) -> (String, Int) {
        guard let text = member.value.string else {
            throw error(line, member.value.column, "\"\(member.key)\" must be a string, found \(member.value.kindName)")
        }
        if let bad = text.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            throw error(line, member.value.column, "\"\(member.key)\" contains the control character U+\(String(bad.value, radix: 16, uppercase: true)); a scenario line cannot hold it")
        }
        return (text, member.value.column)
    }

    func integerValue(_ member: JSONMember, line: Int) throws(ScenarioError) -> Int64 {
        guard let number = member.value.integer else {
            throw error(line, member.value.column, "\"\(member.key)\" must be an integer (milliseconds), found \(member.value.kindName)")
        }
        return number
    }

    /// `ms` as the journal's local wall time with its zone (`2026-03-02 06:40:00.000 Europe/Berlin`),
    /// for messages: the raw `t` alone is epoch milliseconds, which nobody reads.
    func localText(_ ms: Int64) -> String {
        // Years 1970…9999 only (as the header's `t`): a wild `t` is named by its digits alone.
        guard let calendar, let zone = start?.zoneIdentifier, (0...253_402_300_799_000).contains(ms) else { return "not a date" }
        let local = calendar.local(ms)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let millis = Int(((ms % 1_000) + 1_000) % 1_000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : String(millis)
        return "\(local.year)-\(two(local.month))-\(two(local.day)) \(two(local.hour)):\(two(local.minute)):\(two(local.second)).\(fraction) \(zone)"
    }

    mutating func add(_ value: JSONValue, line: Int) throws(ScenarioError) {
        if start == nil {
            try addHeader(value, line: line)
            return
        }
        let members = try members(value, line: line, allowed: allowedKeys(value), what: "a journal event")
        guard let timeMember = member(members, "t") else { throw error(line, value.column, "a journal event needs \"t\" (Unix-epoch ms)") }
        let t = try integerValue(timeMember, line: line)
        guard t >= startMs else {
            throw error(line, timeMember.value.column, "t \(t) (\(localText(t))) is before the journal's start, \(localText(startMs)); events follow the header")
        }
        guard t - startMs <= BridgeJournal.spanMaxMs else {
            throw error(line, timeMember.value.column, "t \(t) (\(localText(t))) is more than \(ScenarioParser.dayOffsetMax) days after the journal's start, \(localText(startMs))")
        }
        guard t >= lastMs else {
            throw error(line, timeMember.value.column, "time goes backwards: t \(t) (\(localText(t))) is before the previous event's, \(localText(lastMs))")
        }
        lastMs = t
        let (kind, kindColumn) = try requiredString(members, "kind", line: line, object: value, what: "a journal event")
        if kind == "alarm" {
            guard !sawEvent else {
                throw error(line, kindColumn, "an \"alarm\" line declares an alarm the app held at the journal's start: put it before every other event (a later alarm is an \"action\": \"save\")")
            }
            try addAlarm(members, line: line, object: value)
            return
        }
        sawEvent = true
        switch kind {
        case "lifecycle": try addLifecycle(members, t: t, line: line, object: value)
        case "action": try addAction(members, t: t, line: line, object: value)
        case "save-result":
            let (alarm, _) = try alarmReference(members, line: line, object: value, required: true)
            let (result, resultColumn) = try requiredString(members, "result", line: line, object: value, what: "a save-result")
            try emit("expect save \(alarm!) \(ScenarioPrinter.quote(result))", at: t, line: line, column: resultColumn)
            expectations += 1
        case "alert":
            let (alarm, _) = try alarmReference(members, line: line, object: value, required: true)
            let (state, stateColumn) = try requiredString(members, "state", line: line, object: value, what: "an alert")
            guard state == "alerting" || state == "ended" else {
                throw error(line, stateColumn, "unknown alert state \"\(state)\"; expected alerting or ended")
            }
            try emit("expect \(state == "alerting" ? "alerting" : "silent") \(alarm!)", at: t + 1_000, line: line, column: stateColumn, trigger: false)
            expectations += 1
        case "schedule": try addSchedule(members, t: t, line: line, object: value)
        case "scheduled-times": try addScheduledTimes(members, t: t, line: line, object: value)
        default:
            throw error(line, kindColumn, "unknown kind \"\(kind)\"; expected \(BridgeJournal.kinds.joined(separator: ", "))")
        }
    }

    func allowedKeys(_ value: JSONValue) -> [String] {
        guard case .object(let members) = value.kind, let kind = members.first(where: { $0.key == "kind" })?.value.string else {
            return ["t", "kind"]
        }
        switch kind {
        case "alarm": return ["t", "kind", "alarm", "time", "repeat", "title", "policy", "challenge", "sounds", "skip", "countdown"]
        case "lifecycle": return ["t", "kind", "event", "zone", "delta_ms"]
        case "action": return ["t", "kind", "action", "alarm", "duration_ms"] + BridgeJournal.saveFields.map(\.key)
        case "save-result": return ["t", "kind", "alarm", "result"]
        case "alert": return ["t", "kind", "alarm", "state"]
        case "schedule": return ["t", "kind", "call", "alarm", "id", "fire", "result"]
        case "scheduled-times": return ["t", "kind", "registered", "unregistered", "rejected"]
        default: return members.map(\.key)  // the unknown kind is reported instead
        }
    }

    // MARK: Header

    mutating func addHeader(_ value: JSONValue, line: Int) throws(ScenarioError) {
        let allowed = ["journal", "version", "platform", "zone", "t", "seed", "params", "device", "app", "note"]
        if case .object(let members) = value.kind, !members.contains(where: { $0.key == "journal" }) {
            throw error(line, value.column, "the first line must be the journal header {\"journal\": \"\(BridgeJournal.formatName)\", \"version\": 1, \"zone\": …, \"t\": …}")
        }
        let members = try members(value, line: line, allowed: allowed, what: "the journal header")
        let (format, formatColumn) = try requiredString(members, "journal", line: line, object: value, what: "the journal header")
        guard format == BridgeJournal.formatName else {
            throw error(line, formatColumn, "not a bridge journal: \"journal\" is \"\(format)\", expected \"\(BridgeJournal.formatName)\"")
        }
        guard let versionMember = member(members, "version") else { throw error(line, value.column, "the journal header needs \"version\": 1") }
        guard try integerValue(versionMember, line: line) == BridgeJournal.version else {
            throw error(line, versionMember.value.column, "unsupported journal version; this alarmsim reads version \(BridgeJournal.version)")
        }
        platform = try headerPlatform(members, line: line, header: value)
        let (zone, zoneColumn) = try requiredString(members, "zone", line: line, object: value, what: "the journal header")
        guard ScenarioClock.isIANAZone(zone), let calendar = WallCalendar(zoneIdentifier: zone) else {
            throw error(line, zoneColumn, "unknown time zone \"\(zone)\"; expected an IANA identifier such as Europe/Berlin")
        }
        guard let timeMember = member(members, "t") else { throw error(line, value.column, "the journal header needs \"t\": its start, Unix-epoch ms") }
        let t = try integerValue(timeMember, line: line)
        // Years 1970…9999, so the start line's date has four digits.
        guard (0...253_402_300_799_000 - BridgeJournal.spanMaxMs).contains(t) else {
            throw error(line, timeMember.value.column, "t \(t) is not a start instant between 1970 and 9989 (Unix-epoch ms)")
        }
        let local = calendar.local(t)
        let startValue = ScenarioStart(date: LocalDate(year: local.year, month: local.month, day: local.day),
                                       hour: local.hour, minute: local.minute, second: local.second, zoneIdentifier: zone)
        start = startValue
        startMs = t
        lastMs = t
        self.calendar = calendar
        for key in ["device", "app", "note"] {
            if let found = member(members, key) {
                let (text, _) = try stringValue(found, line: line)
                header.append(OutputLine(text: "# \(key): \(text)", journalLine: line, journalColumn: found.value.column))
            }
        }
        header.append(OutputLine(text: "platform \(platform!.rawValue)", journalLine: line, journalColumn: value.column))
        let startText = "start \(local.year)-\(two(local.month))-\(two(local.day)) \(two(local.hour)):\(two(local.minute)):\(two(local.second)) \(zone)"
        header.append(OutputLine(text: startText, journalLine: line, journalColumn: zoneColumn))
        var seed: Int64 = 1
        if let seedMember = member(members, "seed") {
            seed = try integerValue(seedMember, line: line)
            guard seed >= 0 else { throw error(line, seedMember.value.column, "\"seed\" must be a non-negative integer") }
        }
        header.append(OutputLine(text: "seed \(seed)", journalLine: line, journalColumn: value.column))
        let milliseconds = ((t % 1_000) + 1_000) % 1_000
        if milliseconds != 0 {
            header.append(OutputLine(text: "param sim.start-ms \(milliseconds)", journalLine: line, journalColumn: timeMember.value.column))
        }
        if let params = member(members, "params") { try addHeaderParameters(params, line: line) }
    }

    /// The header's `platform`, which `--platform` may give instead and must not contradict.
    func headerPlatform(_ members: [JSONMember], line: Int, header value: JSONValue) throws(ScenarioError) -> ScenarioPlatform {
        if let platformMember = member(members, "platform") {
            let (name, column) = try stringValue(platformMember, line: line)
            guard let named = ScenarioPlatform(rawValue: name) else { throw error(line, column, "unknown platform \"\(name)\"; expected ios or android") }
            if let requestedPlatform, requestedPlatform != named {
                throw error(line, column, "the journal was written on \(named.rawValue), but --platform says \(requestedPlatform.rawValue)")
            }
            return named
        } else {
            guard let requestedPlatform else {
                throw error(line, value.column, "the journal header names no \"platform\": give --platform ios or --platform android")
            }
            return requestedPlatform
        }
    }

    /// The header's `params` object: one `param KEY VALUE` line per entry (booleans as on/off).
    mutating func addHeaderParameters(_ params: JSONMember, line: Int) throws(ScenarioError) {
        guard case .object(let entries) = params.value.kind else {
            throw error(line, params.value.column, "\"params\" must be an object of scenario parameters, e.g. {\"ios.capacity\": 64}")
        }
        for entry in entries {
            guard !entry.key.isEmpty, entry.key.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }) else {
                throw error(line, entry.keyColumn, "bad parameter key \"\(entry.key)\"; keys are lowercase letters, digits, '.' and '-', as `param` lines take them")
            }
            let text: String
            switch entry.value.kind {
            case .string(let string):
                guard !string.isEmpty, string.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "#" }) else {
                    throw error(line, entry.value.column, "bad value for \(entry.key): a parameter value is one printable ASCII word")
                }
                text = string
            case .number:
                guard let number = entry.value.integer else { throw error(line, entry.value.column, "bad value for \(entry.key): write an integer") }
                text = String(number)
            case .bool(let flag):
                text = flag ? "on" : "off"
            default:
                throw error(line, entry.value.column, "bad value for \(entry.key): a string, an integer or a boolean, found \(entry.value.kindName)")
            }
            header.append(OutputLine(text: "param \(entry.key) \(text)", journalLine: line, journalColumn: entry.value.column))
        }
    }

    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    // MARK: Alarms

    mutating func addAlarm(_ members: [JSONMember], line: Int, object: JSONValue) throws(ScenarioError) {
        let (name, nameColumn) = try requiredString(members, "alarm", line: line, object: object, what: "an alarm")
        guard ScenarioBuilderNames.isAlarmName(name) else {
            throw error(line, nameColumn, "bad alarm name \"\(name)\"; a name is a letter followed by letters, digits, '_' and '-'")
        }
        guard !alarmNames.contains(name) else { throw error(line, nameColumn, "alarm \"\(name)\" is declared twice") }
        let (time, timeColumn) = try requiredString(members, "time", line: line, object: object, what: "an alarm")
        guard ScenarioClock.parse(time, allowsSeconds: false, allowsMilliseconds: false) != nil else {
            throw error(line, timeColumn, "expected a time of day \"HH:MM\" (24-hour), found \"\(time)\"")
        }
        let (repeats, repeatColumn) = try requiredString(members, "repeat", line: line, object: object, what: "an alarm")
        var parts = ["alarm", name, time]
        if repeats == "once" {
            parts.append("once")
        } else {
            try checkWeekdays(repeats, line: line, column: repeatColumn, key: "repeat")
            parts += ["weekly", repeats]
        }
        for key in ["policy", "title", "challenge", "sounds", "skip", "countdown"] {
            guard let found = member(members, key) else { continue }
            let (text, _) = try stringValue(found, line: line)
            let quoted = key == "title" || key == "sounds"
            if !quoted, text.isEmpty || text.contains(where: { $0 == " " || $0 == "\t" || $0 == "#" || $0 == "\"" }) {
                throw error(line, found.value.column, "bad \(key) \"\(text)\": one word without spaces")
            }
            parts += [key, quoted ? ScenarioPrinter.quote(text) : text]
        }
        alarmNames.append(name)
        alarms.append(OutputLine(text: parts.joined(separator: " "), journalLine: line, journalColumn: object.column))
    }

    func checkWeekdays(_ text: String, line: Int, column: Int, key: String) throws(ScenarioError) {
        let days = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let known = ScenarioWeekday.allCases.map(\.rawValue)
        if let bad = days.first(where: { !known.contains($0) }) {
            throw error(line, column, "\"\(key)\": \"\(bad)\" is not a weekday; write \"once\" or days such as \"mon,wed,fri\"")
        }
        guard Set(days).count == days.count else { throw error(line, column, "\"\(key)\": a weekday is repeated in \"\(text)\"") }
    }

    func alarmReference(_ members: [JSONMember], line: Int, object: JSONValue, required: Bool) throws(ScenarioError) -> (String?, Int) {
        guard let found = member(members, "alarm") else {
            if required { throw error(line, object.column, "this event needs \"alarm\": the name of an alarm line above") }
            return (nil, object.column)
        }
        let (name, column) = try stringValue(found, line: line)
        guard alarmNames.contains(name) else {
            let declared = alarmNames.isEmpty ? "the journal declares no alarm" : "declared: \(alarmNames.joined(separator: ", "))"
            throw error(line, column, "unknown alarm \"\(name)\"; \(declared)")
        }
        return (name, column)
    }

    // MARK: Events

    /// Adds one timed line. `trigger`: a line the bridge may react to with platform calls, so a
    /// failed schedule call recorded after it arms its fault just before it.
    mutating func emit(_ event: String, at ms: Int64, line: Int, column: Int, trigger: Bool = true) throws(ScenarioError) {
        order += 2
        guard let time = scenarioTime(ms) else {
            throw error(line, column, "this instant has no scenario time in \(start!.zoneIdentifier) (before the start date, or a UTC offset that is not whole minutes)")
        }
        timed.append(OutputLine(text: "at \(ScenarioPrinter.format(time)) \(event)", journalLine: line, journalColumn: column, ms: ms, order: order))
        // The first line a journal event makes is the one its failed schedule calls arm before.
        if trigger, lastTriggerIndex.map({ timed[$0].journalLine != line }) ?? true {
            lastTriggerIndex = timed.count - 1
            pendingFaultIndex = nil
        }
    }

    /// The `at` time of instant `ms`: a plain wall time, or in the second pass of a repeated
    /// hour the wall time with its UTC offset (`ScenarioTime.naming`).
    func scenarioTime(_ ms: Int64) -> ScenarioTime? {
        ScenarioTime.naming(instantMs: ms, start: start!, calendar: calendar!)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func dayNumber(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    mutating func addLifecycle(_ members: [JSONMember], t: Int64, line: Int, object: JSONValue) throws(ScenarioError) {
        let (event, eventColumn) = try requiredString(members, "event", line: line, object: object, what: "a lifecycle event")
        guard let entry = BridgeJournal.lifecycleVerbs.first(where: { $0.event == event }) else {
            throw error(line, eventColumn, "unknown lifecycle event \"\(event)\"; expected \(BridgeJournal.lifecycleVerbs.map(\.event).joined(separator: ", "))")
        }
        var text = "\(entry.actor) \(entry.verb)"
        if event == "time-zone" {
            let (zone, zoneColumn) = try requiredString(members, "zone", line: line, object: object, what: "a time-zone event")
            guard ScenarioClock.isIANAZone(zone) else { throw error(line, zoneColumn, "unknown time zone \"\(zone)\"; expected an IANA identifier such as Asia/Tokyo") }
            text += " " + zone
        } else if member(members, "zone") != nil {
            throw error(line, member(members, "zone")!.keyColumn, "\"zone\" belongs to a time-zone event")
        }
        if event == "clock-change" {
            guard let deltaMember = member(members, "delta_ms") else { throw error(line, object.column, "a clock-change event needs \"delta_ms\": how far the wall clock moved") }
            let delta = try integerValue(deltaMember, line: line)
            guard delta != 0, delta.magnitude <= UInt64(ScenarioParser.durationMsMax) else {
                throw error(line, deltaMember.value.column, "\"delta_ms\" must be non-zero and at most 30 days either way, found \(delta)")
            }
            text += " " + (delta > 0 ? "+" : "-") + ScenarioPrinter.formatDuration(Int64(delta.magnitude))
        } else if member(members, "delta_ms") != nil {
            throw error(line, member(members, "delta_ms")!.keyColumn, "\"delta_ms\" belongs to a clock-change event")
        }
        try emit(text, at: t, line: line, column: eventColumn)
    }

    mutating func addAction(_ members: [JSONMember], t: Int64, line: Int, object: JSONValue) throws(ScenarioError) {
        let (action, actionColumn) = try requiredString(members, "action", line: line, object: object, what: "an action")
        guard let entry = BridgeJournal.actionVerbs.first(where: { $0.action == action }) else {
            throw error(line, actionColumn, "unknown action \"\(action)\"; expected \(BridgeJournal.actionVerbs.map(\.action).joined(separator: ", "))")
        }
        let changes = BridgeJournal.saveFields.compactMap { field in member(members, field.key) }
        if action != "save", let change = changes.first {
            throw error(line, change.keyColumn, "\"\(change.key)\" belongs to a save action")
        }
        if action != "snooze", let extra = member(members, "duration_ms") {
            throw error(line, extra.keyColumn, "\"duration_ms\" belongs to a snooze action")
        }
        switch action {
        case "stop":
            let (alarm, _) = try alarmReference(members, line: line, object: object, required: false)
            try emit("user stop" + (alarm.map { " " + $0 } ?? ""), at: t, line: line, column: actionColumn)
        case "snooze":
            guard let durationMember = member(members, "duration_ms") else { throw error(line, object.column, "a snooze needs \"duration_ms\": how long, ms") }
            let duration = try integerValue(durationMember, line: line)
            guard duration > 0, duration <= ScenarioParser.durationMsMax else {
                throw error(line, durationMember.value.column, "\"duration_ms\" must be 1…\(ScenarioParser.durationMsMax), found \(duration)")
            }
            try emit("user snooze \(ScenarioPrinter.formatDuration(duration))", at: t, line: line, column: actionColumn)
        case "delete":
            let (alarm, column) = try alarmReference(members, line: line, object: object, required: true)
            try emit("user delete-alarm \(alarm!)", at: t, line: line, column: column)
        case "save":
            let (alarm, _) = try alarmReference(members, line: line, object: object, required: true)
            guard !changes.isEmpty else {
                throw error(line, actionColumn, "a save names what changed: \(BridgeJournal.saveFields.map(\.key).joined(separator: ", "))")
            }
            for field in BridgeJournal.saveFields {
                guard let change = member(members, field.key) else { continue }
                if field.key == "enabled" {
                    guard case .bool(let on) = change.value.kind else {
                        throw error(line, change.value.column, "\"enabled\" must be true or false, found \(change.value.kindName)")
                    }
                    try emit("user \(on ? "enable-alarm" : "disable-alarm") \(alarm!)", at: t, line: line, column: change.value.column)
                    continue
                }
                let (text, column) = try stringValue(change, line: line)
                switch field.key {
                case "time":
                    guard ScenarioClock.parse(text, allowsSeconds: false, allowsMilliseconds: false) != nil else {
                        throw error(line, column, "expected a time of day \"HH:MM\" (24-hour), found \"\(text)\"")
                    }
                    try emit("user edit-alarm-time \(alarm!) \(text)", at: t, line: line, column: column)
                case "days":
                    try checkWeekdays(text, line: line, column: column, key: "days")
                    try emit("user edit-weekdays \(alarm!) \(ScenarioPrinter.quote(text))", at: t, line: line, column: column)
                default:
                    try emit("user \(field.verb) \(alarm!) \(ScenarioPrinter.quote(text))", at: t, line: line, column: column)
                }
            }
        default:
            if member(members, "alarm") != nil, action != "stop" {
                throw error(line, member(members, "alarm")!.keyColumn, "\"alarm\" does not belong to a \(action) action (it acts on the live occurrence)")
            }
            try emit("\(entry.actor) \(entry.verb)", at: t, line: line, column: actionColumn)
        }
    }

    /// A platform call the bridge made. `ok` calls become comments; a failed one re-creates its
    /// failure: `fault schedule-failure` just before the journal event that led to it.
    mutating func addSchedule(_ members: [JSONMember], t: Int64, line: Int, object: JSONValue) throws(ScenarioError) {
        let (call, callColumn) = try requiredString(members, "call", line: line, object: object, what: "a schedule call")
        guard call == "schedule" || call == "cancel" else { throw error(line, callColumn, "unknown call \"\(call)\"; expected schedule or cancel") }
        let (result, resultColumn) = try requiredString(members, "result", line: line, object: object, what: "a schedule call")
        let (alarm, _) = try alarmReference(members, line: line, object: object, required: false)
        var id: String?
        if let idMember = member(members, "id") { id = try stringValue(idMember, line: line).0 }
        var fire: Int64?
        if let fireMember = member(members, "fire") {
            fire = try integerValue(fireMember, line: line)
            guard (0...253_402_300_799_000).contains(fire!) else { throw error(line, fireMember.value.column, "\"fire\" is not an instant between 1970 and 9999") }
        }
        var what = "bridge \(call) " + (alarm ?? "?") + (id.map { " id \($0)" } ?? "")
        if let fire { what += " fire " + LocalTime.text(fire, calendar: calendar!) }
        guard let time = scenarioTime(t) else {
            throw error(line, callColumn, "this instant has no scenario time in \(start!.zoneIdentifier) (before the start date, or a UTC offset that is not whole minutes)")
        }
        order += 2
        timed.append(OutputLine(text: "# \(ScenarioPrinter.format(time)) \(what) → \(result)", journalLine: line, journalColumn: resultColumn,
                                ms: t, order: order))
        scheduleComments += 1
        guard result != "ok" else { return }
        guard call == "schedule" else { return }  // a failed cancel has no fault line: kept as a comment
        if let index = pendingFaultIndex {
            timed[index].faultCount += 1
        } else {
            let trigger = lastTriggerIndex.map { timed[$0] }
            timed.append(OutputLine(text: "", journalLine: line, journalColumn: resultColumn, ms: trigger?.ms ?? startMs,
                                    order: (trigger?.order ?? 0) - 1, faultCount: 1))
            pendingFaultIndex = timed.count - 1
        }
    }

    mutating func addScheduledTimes(_ members: [JSONMember], t: Int64, line: Int, object: JSONValue) throws(ScenarioError) {
        try emit("app get-scheduled-times", at: t, line: line, column: object.column)
        if let rejected = member(members, "rejected") {
            guard case .bool(let on) = rejected.value.kind else {
                throw error(line, rejected.value.column, "\"rejected\" must be true or false, found \(rejected.value.kindName)")
            }
            try emit("expect scheduled-times-rejected \(on ? "on" : "off")", at: t + 2_000, line: line, column: rejected.value.column, trigger: false)
            expectations += 1
        }
        for (key, on) in [("registered", "on"), ("unregistered", "off")] {
            guard let list = member(members, key) else { continue }
            guard case .array(let names) = list.value.kind else {
                throw error(line, list.value.column, "\"\(key)\" must be an array of alarm names, found \(list.value.kindName)")
            }
            for name in names {
                guard let text = name.string, alarmNames.contains(text) else {
                    throw error(line, name.column, "\"\(key)\" lists \(name.string.map { "\"\($0)\"" } ?? name.kindName), which is not a declared alarm")
                }
                try emit("expect registered \(text) \(on)", at: t + 2_000, line: line, column: name.column, trigger: false)
                expectations += 1
            }
        }
    }

    // MARK: Output

    func finish(lineCount: Int) throws(ScenarioError) -> JournalImport {
        guard start != nil else {
            throw error(1, 1, "empty journal: the first line must be the header {\"journal\": \"\(BridgeJournal.formatName)\", \"version\": 1, …}")
        }
        let sortedTimed = timed.enumerated().sorted { ($0.element.ms, $0.element.order, $0.offset) < ($1.element.ms, $1.element.order, $1.offset) }
            .map(\.element)
        var output = [
            OutputLine(text: "# Imported by alarmsim import from the bridge journal \(file).", journalLine: 1, journalColumn: 1),
            OutputLine(text: "# The run starts as every scenario does (a fresh install saves the alarms within 3 s); then the journal's", journalLine: 1, journalColumn: 1),
            OutputLine(text: "# events follow, each with its journal line; schedule calls are comments (a failed one a fault line).", journalLine: 1, journalColumn: 1),
        ]
        output += header + alarms
        for var entry in sortedTimed {
            if entry.faultCount > 0 {
                entry.text = "at \(ScenarioPrinter.format(scenarioTime(entry.ms)!)) fault schedule-failure \(entry.faultCount)"
            }
            let suffix = entry.text.hasPrefix("#") ? "" : "   # journal line \(entry.journalLine)"
            output.append(OutputLine(text: entry.text + suffix, journalLine: entry.journalLine, journalColumn: entry.journalColumn))
        }
        let text = output.map(\.text).joined(separator: "\n") + "\n"
        // The output must parse and validate; an error maps back to the journal line it came from.
        let scenario: ScenarioFile
        do {
            scenario = try ScenarioParser.parse(text, file: file, knownDefects: [], knownInvariants: [])
            try ScenarioRunner.validate(scenario, source: text)
        } catch {
            let origin = error.line >= 1 && error.line <= output.count ? output[error.line - 1] : OutputLine(text: "", journalLine: 1, journalColumn: 1)
            throw ScenarioError(file: file, line: origin.journalLine, column: origin.journalColumn, message: error.message)
        }
        // Written in canonical form, every comment kept: `alarmsim fmt --check` accepts it as is.
        let canonical = ScenarioPrinter.print(scenario, keepingCommentsOf: text)
        let timedCount = sortedTimed.filter { !$0.text.hasPrefix("#") || $0.faultCount > 0 }.count
        return JournalImport(scenarioText: canonical, platform: platform!, journalLines: lineCount, timedLines: timedCount,
                             expectations: expectations, scheduleComments: scheduleComments)
    }
}

/// `ScenarioBuilder`'s name rule, shared with the importer.
enum ScenarioBuilderNames {
    static func isAlarmName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    }
}

/// Local wall time for comments: `2026-03-02 07:00:00`.
enum LocalTime {
    static func text(_ ms: Int64, calendar: WallCalendar) -> String {
        let local = calendar.local(ms)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(local.year)-\(two(local.month))-\(two(local.day)) \(two(local.hour)):\(two(local.minute)):\(two(local.second))"
    }
}

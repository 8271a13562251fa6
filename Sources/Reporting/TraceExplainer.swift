import AlarmBridge
import Foundation
import SimKernel
import Simulation

/// The readable timeline `alarmsim explain` prints: one line per meaningful trace event with the
/// device's local wall time (in the zone in force at that event), the trace index, who acted and
/// what happened — what the user and faults did, what the bridge asked the platform (schedule,
/// cancel, stop, saves), what rang and stopped ringing — then the violation and its repro line.
///
/// By default noise is condensed away: JS heartbeats and polls, inventory reads, successful
/// completions of platform calls, the platform's echo of accepted schedules, persists that
/// changed no count. With `all: true` every trace event gets a line.
public enum TraceExplainer {
    /// The whole explanation, ending with a newline.
    public static func text(_ run: FailureRun, all: Bool = false) -> String {
        var lines: [String] = []
        let header = run.header
        let defects = header.defects.isEmpty ? "no defect" : "defects " + header.defects.joined(separator: ", ")
        lines.append("\(header.platform) seed \(header.seed) · \(defects) · zone \(run.startZone) · \(header.eventsProcessed) events, \(header.traceEventCount) trace records")
        lines.append("local wall time                 #event  who       what")
        let described = Self.lines(run, all: all, full: all) { _ in true }
        lines += described
        let shown = described.count
        var time = LocalTimeFormat(zoneIdentifier: run.startZone)
        if let zone = run.events.last(where: { $0.component == "device" && $0.name == "time-zone" })?.field("to") {
            time = LocalTimeFormat(zoneIdentifier: zone)
        }
        if !all && shown < run.events.count {
            lines.append("(\(run.events.count - shown) routine events not shown; --all lists every trace event)")
        }
        if let violation = run.violation {
            let rules = violation.rules.isEmpty ? "" : " (\(violation.rules.joined(separator: ", ")))"
            lines.append("")
            lines.append("VIOLATION \(violation.invariant)\(rules) at \(time.dateTime(violation.wallMs)) (trace event \(violation.eventIndex))")
            lines.append("  \(violation.message)")
            if let info = InvariantCatalog.info(violation.invariant) {
                lines.append("  invariant: \(info.statement)")
            }
        } else {
            lines.append("")
            lines.append("no violation")
        }
        lines.append("repro: \(run.reproLine)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per event of `run` that `include` accepts (and, unless `all`, that is not routine
    /// noise): local wall time in the zone then in force, `#index`, who acted, what happened.
    /// Every event is walked, so a ring's root and kind are known from its schedule however far back.
    public static func lines(_ run: FailureRun, all: Bool, full: Bool = false, include: (TraceEvent) -> Bool) -> [String] {
        descriptions(run, all: all, full: full, include: include).map { line in
            // Control characters (an ESC in a journal's alarm title) never reach the terminal.
            MarkdownText.codeLine(line.stamp.padded(31) + " " + ("#\(line.index)").padded(7) + " " + line.who.padded(9) + " " + line.what)
        }
    }

    /// The events of `run` that `include` accepts (and, unless `all`, that are not routine), each
    /// as local wall time (the zone then in force), trace index, who acted and what happened.
    public static func descriptions(_ run: FailureRun, all: Bool, full: Bool = false,
                                    include: (TraceEvent) -> Bool) -> [(stamp: String, index: Int, who: String, what: String)] {
        var lines: [(stamp: String, index: Int, who: String, what: String)] = []
        var zone = run.startZone
        var time = LocalTimeFormat(zoneIdentifier: zone)
        var ringRoot: [String: String] = [:]  // lookup only
        var ringKind: [String: String] = [:]  // lookup only
        var lastPersist: (rings: String, occurrences: String)?
        var phoneOff = false  // between a shutdown and its boot
        for event in run.events {
            if event.component == "device", event.name == "shutdown" || event.name == "boot" { phoneOff = event.name == "shutdown" }
            if event.component == "device", event.name == "time-zone", let next = event.field("to") {
                zone = next
            }
            if event.component == "bridge", event.name == "schedule", let id = event.field("id") {
                ringRoot[id] = event.field("root")
                ringKind[id] = event.field("kind")
            }
            var persistChanged = true
            if event.component == "store", event.name == "persist" {
                let counts = (event.field("rings") ?? "", event.field("occurrences") ?? "")
                persistChanged = lastPersist.map { $0 != counts } ?? true
                lastPersist = counts
            }
            if include(event), all || (persistChanged && !isNoise(event)) {
                var (who, what) = describe(event, ringRoot: ringRoot, ringKind: ringKind, time: time, full: full)
                // The plan's user and app actions still come while the phone restarts; none acts.
                if phoneOff, event.component == "plan", ["user", "app"].contains(who) { what += " (phone off: no effect)" }
                // Instants as local wall time even in --all (whole text otherwise): to the
                // millisecond there, where `fire=` and the event's own time must compare.
                lines.append((time.dateTime(event.wallMs), event.index, who, localizingInstants(what, time: time, milliseconds: full)))
            }
            if event.component == "device", event.name == "time-zone" { time = LocalTimeFormat(zoneIdentifier: zone) }
        }
        return lines
    }

    /// Bridge inputs that are routine (polls, heartbeats, reads, successful completions).
    static let noisyInputPrefixes = [
        "inventoryRead(", "alarmUpdates(", "setForegroundAlarmContext(", "peekLastAlarmAction", "getScheduledAlarmTimes",
        "journalLoaded(", "receiptsRead(", "healthAccessObserved(", "reportCachedPreferences(", "killSwitchChecked(ok)",
        "burstPlaybackBegan(", "getAudibleAlarm", "recordChallengeInteraction", "stepsObserved", "stepCounterChanged(",
        "recentStepsQueried(", "timerFired(", "credentialStoreLoaded(", "storeLoaded(",
    ]
    static let noisyReplyPrefixes = ["lastAlarmAction(nil)", "scheduledAlarmTimes(", "audibleAlarm", "activeWakeOccurrence("]
    static let noisyActions: Set<String> = ["appContextHeartbeat", "appPeekAction", "appGetScheduledAlarmTimes"]
    static let noisyEvents: Set<String> = [
        "ios scheduled", "ios updates-burst", "keychain read", "store journal", "sim end", "platform burst-playing",
        "android standby-bucket", "android charging", "android step-listener", "android set-alarm-clock",
    ]

    static func isNoise(_ event: TraceEvent) -> Bool {
        let key = "\(event.component) \(event.name)"
        if noisyEvents.contains(key) { return true }
        switch key {
        case "bridge input":
            let input = event.field("input") ?? ""
            if input.contains(", ok)") && (input.hasPrefix("scheduleCompleted(") || input.hasPrefix("cancelCompleted(") || input.hasPrefix("stopCompleted(")) {
                return true
            }
            if input.hasPrefix("inventoryRead(") { return !input.contains("Failed") && !input.contains("failed") }
            return noisyInputPrefixes.contains { input.hasPrefix($0) }
        case "bridge reply":
            let reply = event.field("reply") ?? ""
            return noisyReplyPrefixes.contains { reply.hasPrefix($0) }
        case "plan action":
            return noisyActions.contains(Timeline.actionName(event.field("action") ?? ""))
        case "network kill-switch":
            return event.field("response") == "ok"
        case "android broadcast":
            let action = event.field("action") ?? ""
            return action.hasSuffix(".SCREEN_ON") || action.hasSuffix(".SCREEN_OFF")
        default:
            return false
        }
    }

    /// Why the bridge issued a scheduler call, in words (`resume sync`), from the trace's raw name.
    static func origin(_ event: TraceEvent) -> String {
        guard let raw = event.field("origin") else { return "?" }
        return CommandOrigin(rawValue: raw).map(HumanText.origin) ?? raw
    }

    /// A bridge input or reply as the trace keeps it (Swift's description, which the trace hash
    /// covers) made shorter for people: module prefixes dropped, cut at 200 characters unless `full`.
    static func readable(_ text: String, full: Bool) -> String {
        let plain = singularOfOne(withoutArrayBrackets(CaseWords.words(unwrappingOptionals(withoutTypeNames(text)))))
        guard !full else { return plain }
        guard plain.count > 200 else { return plain }
        return String(plain.prefix(200)) + "… (explain --all shows it whole)"
    }

    /// `["sound-4", "sound-1"]` → `[sound-4, sound-1]`: Swift's quotes in an array of plain words.
    static func withoutArrayBrackets(_ text: String) -> String {
        var plain = text
        while let range = plain.range(of: #"\["[^"\\ ]*"(, "[^"\\ ]*")*\]"#, options: .regularExpression) {
            plain.replaceSubrange(range, with: plain[range].replacingOccurrences(of: "\"", with: ""))
        }
        return plain
    }

    /// `1 alarms` → `1 alarm` (the trace keeps the counts as the simulator wrote them).
    static func singularOfOne(_ text: String) -> String {
        var plain = text
        for noun in ["alarm", "ring", "occurrence", "event", "call", "seed"] {
            plain = plain.replacingOccurrences(of: #"(?<![0-9])1 \#(noun)s\b"#, with: "1 \(noun)", options: .regularExpression)
        }
        return plain
    }

    /// `AlarmBridge.InactivityPolicy.v3` → `v3`, `Simulation.AlarmEdit.sounds(…)` → `sounds(…)`,
    /// `AlarmBridge.LogicalAlarm(id: …)` → `LogicalAlarm(id: …)`: module names, and the type names
    /// before an enum case, are implementation words.
    static func withoutTypeNames(_ text: String) -> String {
        var plain = text
        for module in ["AlarmBridge.", "Simulation.", "SimKernel.", "IOSModel.", "AndroidModel.", "Scenario."] {
            plain = plain.replacingOccurrences(of: module, with: "")
        }
        // A capitalised word followed by `.` and a lowercase case name (repeatedly, for nested types).
        while let range = plain.range(of: #"\b[A-Z][A-Za-z0-9]*\.(?=[a-z])"#, options: .regularExpression) {
            plain.removeSubrange(range)
        }
        return plain
    }

    /// Every Unix-epoch millisecond count in `text` (13 digits, 2001–2100) as local wall time:
    /// `once at 1770553860000` → `once at 2026-02-08 07:31:00 +01:00`.
    public static func localizingInstants(_ text: String, time: LocalTimeFormat, milliseconds: Bool = false) -> String {
        var out = ""
        var digits = ""
        func flush() {
            if digits.count == 13, let ms = Int64(digits), ms > 978_307_200_000, ms < 4_102_444_800_000 {
                out += time.dateTime(ms, milliseconds: milliseconds)
            } else {
                out += digits
            }
            digits = ""
        }
        for character in text {
            if character.isASCII, character.isNumber { digits.append(character) } else { flush(); out.append(character) }
        }
        flush()
        return out
    }

    /// `Optional(x)` → `x` at every depth (Swift's description of an optional).
    static func unwrappingOptionals(_ text: String) -> String {
        var characters = Array(text)
        let marker = Array("Optional(")
        var index = 0
        while index + marker.count <= characters.count {
            guard Array(characters[index..<(index + marker.count)]) == marker,
                  index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber) else {
                index += 1
                continue
            }
            var depth = 1, close = index + marker.count
            while close < characters.count, depth > 0 {
                if characters[close] == "(" { depth += 1 } else if characters[close] == ")" { depth -= 1 }
                if depth > 0 { close += 1 }
            }
            guard close < characters.count else { break }
            characters.remove(at: close)
            characters.removeSubrange(index..<(index + marker.count))
        }
        return String(characters)
    }

    /// A field's value for `alarmsim diff`, where one millisecond can be the difference: whole,
    /// without Swift's type names and `Optional(…)`, every instant as local wall time with its
    /// milliseconds (`fire=2026-02-08 07:31:00.000 +01:00`).
    public static func exactValue(_ value: String, time: LocalTimeFormat) -> String {
        localizingInstants(CaseWords.words(unwrappingOptionals(withoutTypeNames(value)), dropping: []), time: time, milliseconds: true)
    }

    /// A field's value for people: an instant (`…-ms`/`…Ms` key, a Unix-epoch ms value after
    /// 2001) as local wall time; anything else made ``readable(_:full:)``.
    static func fieldValue(_ key: String, _ value: String, time: LocalTimeFormat, full: Bool) -> String {
        if !full, key.lowercased().hasSuffix("ms"), let ms = Int64(value), ms > 978_307_200_000 {
            return time.dateTime(ms, milliseconds: false)
        }
        return readable(value, full: full)
    }

    /// A `getScheduledAlarmTimes` reply in words: each root's next fire time and whether the
    /// platform holds it (`a1.mon Mon 21 Dec 05:09 registered`), read from the trace's text.
    static func scheduledTimes(_ reply: String, time: LocalTimeFormat) -> String {
        let rows = reply.components(separatedBy: "ScheduledRootRow(").dropFirst()
        let described = rows.map { row -> String in
            func value(_ key: String) -> String? {
                guard let start = row.range(of: key + ": ") else { return nil }
                return String(row[start.upperBound...].prefix { $0 != "," && $0 != ")" })
            }
            let root = (value("rootID") ?? "?").replacingOccurrences(of: "\"", with: "")
            let fire = value("nextFireWallMs").flatMap { Int64($0.replacingOccurrences(of: "Optional(", with: "")) }
            let state = value("registered") == "true" ? "registered" : (value("foregroundSuppressed") == "true" ? "suppressed in the foreground" : "not registered")
            return root + (fire.map { " " + time.short($0) } ?? "") + " " + state + (value("inexact") == "true" ? " (inexact)" : "")
        }
        return "scheduled alarm times: " + (described.isEmpty ? "none" : described.joined(separator: "; "))
    }

    /// JS's retry of a failed save in words, from the trace's text of the alarm it sends again:
    /// `retry save of alarm "a3" (05:54, title "Alarm 3 edit 5")`.
    public static func retriedSave(_ action: String) -> String {
        func value(_ key: String) -> String? {
            guard let start = action.range(of: key + ": ") else { return nil }
            let rest = action[start.upperBound...]
            if rest.hasPrefix("\"") {
                return "\"" + rest.dropFirst().prefix { $0 != "\"" } + "\""
            }
            return String(rest.prefix { $0 != "," && $0 != ")" })
        }
        guard let id = value("id"), let hour = value("hour").flatMap(Int.init), let minute = value("minute").flatMap(Int.init) else {
            return readable(action, full: false)
        }
        let time = String(format: "%02d:%02d", hour, minute)
        return "retry save of alarm \(id) (\(time)" + (value("title").map { ", title \($0)" } ?? "") + ")"
    }

    /// The bridge's own events (`bridge *`, `store *`) in words; nil for any other event.
    /// - Parameter ring: names a ring by its root and kind (``describe(_:ringRoot:ringKind:time:full:)``).
    static func describeBridgeEvent(_ event: TraceEvent, ring: (String?) -> String, time: LocalTimeFormat,
                                    full: Bool) -> (String, String)? {
        let id = event.field("id")
        switch (event.component, event.name) {
        case ("bridge", "schedule"):
            var due = event.field("schedule") ?? "?"
            if due.hasPrefix("fixed("), let ms = Int64(due.dropFirst(6).dropLast()) { due = "due " + time.short(ms) }
            return ("bridge", "schedule \(ring(id)) \(due) (\(origin(event)))")
        case ("bridge", "cancel"):
            return ("bridge", "cancel \(ring(id)) (\(origin(event)))")
        case ("bridge", "stop"):
            return ("bridge", "stop \(ring(id)) (\(origin(event)))")
        case ("bridge", "input"):
            return ("bridge", "← \(readable(event.field("input") ?? "?", full: full))")
        case ("bridge", "reply"):
            let reply = event.field("reply") ?? "?"
            if !full, reply.hasPrefix("scheduledAlarmTimes(") { return ("bridge", "→ JS " + scheduledTimes(reply, time: time)) }
            return ("bridge", "→ JS \(readable(reply, full: full))")
        case ("bridge", "note"):
            return ("bridge", "note: \(event.field("text") ?? "")")
        case ("bridge", "launch-gate"):
            return ("bridge", "launch gate \(event.field("state") ?? "?")")
        case ("store", "persist"):
            return ("bridge", "saves its document (\(HumanText.counted(event.field("rings"), "ring")), \(HumanText.counted(event.field("occurrences"), "occurrence")))")
        case ("store", "persist-failed"):
            return ("FAULT", "save of the document failed (protected data unavailable)")
        default:
            return nil
        }
    }

    /// Who acted and what happened, in words.
    static func describe(_ event: TraceEvent, ringRoot: [String: String], ringKind: [String: String],
                         time: LocalTimeFormat, full: Bool) -> (String, String) {
        func ring(_ id: String?) -> String {
            guard let id else { return "a ring" }
            let short = full ? id : String(id.prefix(8))
            let kind = ringKind[id].map { "\($0) " } ?? ""
            if let root = ringRoot[id] { return "\(root) \(kind)ring \(short)" }
            return "ring \(short)"
        }
        func rest(except keys: Set<String>) -> String {
            let fields = event.fields.filter { !keys.contains($0.key) }.map { field in
                let value = fieldValue(field.key, field.value, time: time, full: full)
                // An instant shown as local time loses its unit from the key (`end-ms=` → `end=`).
                let key = value != field.value && field.key.hasSuffix("-ms") ? String(field.key.dropLast(3)) : field.key
                return "\(key)=\(value)"
            }
            return fields.isEmpty ? "" : " " + fields.joined(separator: " ")
        }
        let id = event.field("id")
        if let described = describeBridgeEvent(event, ring: ring, time: time, full: full) { return described }
        switch (event.component, event.name) {
        case ("sim", "start"):
            return ("sim", "run starts: \(event.field("platform") ?? "?") seed \(event.field("seed") ?? "?") in \(event.field("zone") ?? "?")")
        case ("sim", "end"):
            return ("sim", "run ends after \(event.field("events") ?? "?") events")
        case ("ios", "alerting"), ("android", "ringing"):
            return ("RINGS", "\(ring(id)) alerting" + (event.field("late") == "true" ? " (late)" : ""))
        case ("ios", "alert-ended"), ("android", "ringing-stopped"):
            return ("rang", "\(ring(id)) stops alerting")
        case ("android", "delivered"):
            return ("platform", "AlarmManager delivers \(ring(id))" + rest(except: ["id"]))
        case ("ios", "scheduled"):
            return ("platform", "AlarmKit holds \(ring(id))" + rest(except: ["id"]))
        case ("ios", "cancelled"), ("android", "cancelled"):
            return ("platform", "\(ring(id)) cancelled" + rest(except: ["id"]))
        case ("platform", "burst-start"):
            return ("RINGS", "in-app burst \(id.map { String($0.prefix(full ? 36 : 8)) } ?? "?") for \(event.field("root") ?? "?") (sound \(event.field("sound") ?? "?"))")
        case ("platform", "burst-stopped"):
            return ("rang", "in-app burst \(id.map { String($0.prefix(full ? 36 : 8)) } ?? "?") stops")
        case ("user", "stop"):
            return ("user", "taps Stop on \(ring(id))")
        case ("app", "launch"):
            return ("app", "process \(event.field("incarnation") ?? "?") launches (\(event.field("reason") ?? "?"))")
        case ("app", "process-death"):
            return ("app", "process dies (\(event.field("reason") ?? "?"))")
        case ("app", "suspended"):
            return ("app", "process suspended in the background")
        case ("app", "resumed"):
            return ("app", "process resumed")
        case ("plan", "action"):
            let action = event.field("action") ?? "?"
            if !full, action.hasPrefix("appRetrySave(") { return ("js", retriedSave(action)) }
            let text = readable(action, full: full)
            if Timeline.faultActionNames.contains(Timeline.actionName(action)) { return ("FAULT", text) }
            return (action.hasPrefix("app") ? "js" : "user", text)
        case ("check", "violation"):
            return ("CHECK", "violation \(event.field("invariant") ?? "?")")
        default:
            let key = "\(event.component) \(event.name)"
            let who = event.component == "fault" || Timeline.platformFaultEvents.contains(key) ? "FAULT" : event.component
            var what = event.name
            if let id { what += " \(ring(id))" }
            return (who, what + rest(except: ["id"]))
        }
    }
}

extension String {
    /// The string padded with spaces to `width` characters (never cut).
    fileprivate func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

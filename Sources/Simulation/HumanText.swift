import AlarmBridge

/// Text for people: durations and scheduler calls as the product names them, never Swift's
/// description of a struct (issue 17 part 3). Instants are written by ``World/localTimeText(_:)``
/// and ``World/wallText(_:)`` in the device's zone.
public enum HumanText {
    /// A duration of virtual milliseconds for a person: `17 ms`, `5.001 s`, `45.2 s`,
    /// `3 min 9 s`, `2 h 5 min`, `1 d 3 h`; a negative duration gets a leading minus sign.
    public static func duration(_ ms: Int64) -> String {
        if ms < 0 { return "−" + duration(ms == Int64.min ? Int64.max : -ms) }
        if ms < 1_000 { return "\(ms) ms" }
        if ms < 10_000 { return decimal(ms, places: 3) + " s" }
        if ms < 60_000 { return decimal(ms / 100, places: 1) + " s" }
        let seconds = ms / 1_000
        if seconds < 3_600 { return pair(seconds / 60, "min", seconds % 60, "s") }
        let minutes = seconds / 60
        if minutes < 1_440 { return pair(minutes / 60, "h", minutes % 60, "min") }
        return pair(minutes / 1_440, "d", (minutes % 1_440) / 60, "h")
    }

    /// A wall instant as a user reads it: local date, time with seconds and the zone, e.g.
    /// `2026-10-03 08:36:12 Australia/Sydney` (violation messages, summaries, FAIL lines).
    public static func localTime(_ wallMs: Int64, _ calendar: WallCalendar) -> String {
        let local = calendar.local(wallMs)
        let seconds = (local.second < 10 ? ":0" : ":") + String(local.second)
        return "\(calendar.localDate(wallMs)) \(clockTime(hour: local.hour, minute: local.minute))\(seconds) \(calendar.zoneIdentifier)"
    }

    /// `1 ring`, `3 rings`, `? rings` (a count read from a trace field, nil when absent): English
    /// plurals for the product's nouns, which all take a plain `s`.
    public static func counted(_ count: String?, _ noun: String) -> String {
        guard let count else { return "? \(noun)s" }
        return count == "1" ? "1 \(noun)" : "\(count) \(noun)s"
    }

    /// A rough duration for an ETA: whole seconds (`55 s`, `3 min 9 s`, `2 h 5 min`).
    public static func rough(_ ms: Int64) -> String {
        let seconds = max(ms, 0) / 1_000
        return seconds < 60 ? "\(seconds) s" : duration(seconds * 1_000)
    }

    /// `value` with its last `places` digits after a decimal point (`5001`, 3 → `5.001`).
    static func decimal(_ value: Int64, places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let fraction = String(value % scale)
        return "\(value / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    static func pair(_ major: Int64, _ majorUnit: String, _ minor: Int64, _ minorUnit: String) -> String {
        minor == 0 ? "\(major) \(majorUnit)" : "\(major) \(majorUnit) \(minor) \(minorUnit)"
    }

    /// Why the bridge issued a scheduler call, in the rulebook's words (`resume sync`, SCH-22).
    public static func origin(_ origin: CommandOrigin) -> String {
        switch origin {
        case .resumeSync: return "resume sync"
        case .launchSync: return "launch sync"
        case .directSave: return "direct save"
        case .lifecycle: return "occurrence lifecycle"
        case .completion: return "completion cleanup"
        case .expiry: return "inactivity expiry"
        case .retire: return "retiring a closed occurrence"
        case .foreground: return "foreground rule"
        }
    }
}

extension World {
    /// A scheduler call for a violation message: `schedule the primary of a1.sat (ring 4ab7af01…)
    /// for 2026-04-25 07:10:00 Europe/Berlin (resume sync)`, `cancel ring 4ab7af01… (launch sync)`;
    /// nil for a command that is not a scheduler call.
    func schedulerCallText(_ command: BridgeCommand) -> String? {
        switch command {
        case .schedule(let request, let origin):
            let kind = request.metadata.kind == .snooze ? "snooze ring" : request.metadata.kind.rawValue.replacingOccurrences(of: "-", with: " ")
            return "schedule the \(kind) of \(request.metadata.rootID) (ring \(request.id)) for \(localTimeText(request.fireWallMs)) (\(HumanText.origin(origin)))"
        case .cancel(let id, let origin):
            let owner = requestMetadata[id].map { " (the \($0.kind.rawValue.replacingOccurrences(of: "-", with: " ")) of \($0.rootID))" } ?? ""
            return "cancel ring \(id)\(owner) (\(HumanText.origin(origin)))"
        default:
            return nil
        }
    }
}

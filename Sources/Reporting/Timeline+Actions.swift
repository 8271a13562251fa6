import SimKernel

/// The actions lane of a ``Timeline``: what the user and the app's JS did, read from the trace.
extension Timeline {
    /// The JS API calls the actions lane shows (API-1 … API-20), by the name the trace prints in
    /// `bridge input input=NAME(…)`, with the short label drawn next to the mark. Only calls that
    /// change something are here: reads and polls (`getScheduledAlarmTimes`, `peekLastAlarmAction`,
    /// `getAlertingAlarmIds`, `setForegroundAlarmContext` heartbeats, `recordChallengeInteraction`,
    /// `reportCachedPreferences`) would bury the few calls that matter.
    public static let appCallLabels: [String: String] = [  // lookup only
        "saveAlarm": "save", "deleteAlarm": "delete", "syncEnabledAlarms": "sync", "completeChallenge": "complete",
        "beginOneTimeSnooze": "snooze", "skipOneTimeSnooze": "skip-snooze", "abandonWakeOccurrence": "abandon",
        "expireWakeOccurrence": "expire", "acknowledgeLastAlarmAction": "ack-action", "stopAlertingAlarms": "stop-alerting",
        "cancelSystemAlarms": "cancel-alarms", "acknowledgeAbandonedWakeOccurrence": "ack-abandoned",
        "startWalkCheck": "start-walk", "reconcileStepSuppressionTracking": "reconcile-steps",
        "startForegroundAlarmSound": "start-burst", "recordAudibleAlarm": "record-audible", "resetAudibleAlarmCount": "reset-audible",
    ]

    /// The actions-lane mark of `event`, or nil when it is neither a user's action nor a JS call
    /// worth showing.
    ///
    /// - a `plan action` named `user…` (``PlanAction``'s user cases) that is not a fault
    ///   (``faultActionNames``: force-quit, reinstall, app update, Health access) → upper row,
    ///   labelled with its name in kebab case (`userEditTitle` → `edit-title`);
    /// - a `bridge input` whose input is one of ``appCallLabels`` → lower row, labelled `save`,
    ///   `sync`, …;
    /// - anything ``TraceExplainer/isNoise(_:)`` calls routine is left out.
    /// - Parameter title: the event's hover text (the caller's, which knows the wall clock then).
    static func actionMark(_ event: TraceEvent, title: String) -> Mark? {
        guard !TraceExplainer.isNoise(event) else { return nil }
        switch (event.component, event.name) {
        case ("plan", "action"):
            let action = event.field("action") ?? ""
            let name = actionName(action)
            guard name.hasPrefix("user"), name.count > 4, !faultActionNames.contains(name) else { return nil }
            let label = kebabCase(String(name.dropFirst(4)))
            return Mark(kind: .userAction, atMs: event.trueMs, title: "the user: \(label) — \(TraceExplainer.readable(action, full: false))\n\(title)",
                        eventIndex: event.index, row: 0, label: label)
        case ("bridge", "input"):
            let input = event.field("input") ?? ""
            guard let label = appCallLabels[actionName(input)] else { return nil }
            return Mark(kind: .appCall, atMs: event.trueMs, title: "the app (JS) calls \(TraceExplainer.readable(input, full: false))\n\(title)",
                        eventIndex: event.index, row: 1, label: label)
        default:
            return nil
        }
    }

    /// `EditTitle` → `edit-title`.
    static func kebabCase(_ name: String) -> String {
        var text = ""
        for character in name {
            if character.isUppercase, !text.isEmpty { text += "-" }
            text += character.lowercased()
        }
        return text
    }

    /// The roots `message` names, sorted: a root whose ID it mentions as a word, or the root of a
    /// ring whose ID it mentions.
    /// - Parameters:
    ///   - roots: every root ID of the run, sorted.
    ///   - ringRoot: each ring ID's root (read by lookup only; the result is sorted).
    static func roots(namedIn message: String, roots: [String], ringRoot: [String: String]) -> [String] {
        var named = Set(roots.filter { mentions(message, $0) })
        for ring in ringRoot.keys.sorted() where message.contains(ring) {
            if let root = ringRoot[ring] { named.insert(root) }
        }
        return named.sorted()
    }

    /// Whether `text` contains `word` not as part of a longer ID: the characters around it are not
    /// letters, digits, `-`, `_` or a `.` that continues the ID (`a1` is not in `a1.mon` nor
    /// `a10`, but is in `alarm a1.` at a sentence's end).
    static func mentions(_ text: String, _ word: String) -> Bool {
        guard !word.isEmpty else { return false }
        func continuesID(_ character: Character?) -> Bool {
            guard let character else { return false }
            return character.isLetter || character.isNumber || character == "-" || character == "_"
        }
        var searchStart = text.startIndex
        while let found = text.range(of: word, range: searchStart..<text.endIndex) {
            let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : nil
            var after = found.upperBound < text.endIndex ? text[found.upperBound] : nil
            if after == ".", text.index(after: found.upperBound) < text.endIndex {
                after = continuesID(text[text.index(after: found.upperBound)]) ? "x" : nil
            }
            if !continuesID(before), before != ".", !continuesID(after) { return true }
            searchStart = found.upperBound
        }
        return false
    }
}

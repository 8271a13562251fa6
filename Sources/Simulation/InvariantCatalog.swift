/// The invariants checked after every event: stable ID, one-line statement, RULES.md IDs.
public struct InvariantInfo: Sendable, Equatable {
    public var id: String
    public var statement: String
    public var rules: [String]
}

public enum InvariantCatalog {
    public static let all: [InvariantInfo] = [
        InvariantInfo(id: "never-silent",
                      statement: "while the oracle says an occurrence is live and the app is not natively active, the platform holds pressure for it (alerting or a bound pending ring), except within T_OP of a trigger or under a named exemption",
                      rules: ["OCC-5", "OCC-6", "FG-3", "AND-3", "SNZ-22"]),
        InvariantInfo(id: "one-successor-per-occurrence",
                      statement: "each occurrence has at most one pending ordinary successor",
                      rules: ["OCC-6", "OCC-7", "OCC-8"]),
        InvariantInfo(id: "no-resurrection",
                      statement: "a ring bound to a closed occurrence never sounds and is retired within T_OP of the bridge's first execution after closure",
                      rules: ["OCC-20", "OCC-24", "OCC-25", "OCC-9", "AND-13", "AND-14", "INACT-21"]),
        InvariantInfo(id: "hands-off-alerting",
                      statement: "no sync cancels or re-registers a ring that is alerting or past its fire time, and the resume sync touches no family with an alerting member",
                      rules: ["SCH-3", "SCH-21", "SCH-22", "SCH-23"]),
        InvariantInfo(id: "unreadable-is-not-empty",
                      statement: "no reconcile, migration or cancel decision is taken by a process whose store read failed and was never read successfully",
                      rules: ["BOOT-2", "BOOT-4", "BOOT-5", "SCH-16"]),
        InvariantInfo(id: "idempotent-sync",
                      statement: "a second sync with no intervening input or daemon change issues zero scheduler calls",
                      rules: ["SCH-19", "SCH-20", "ID-4", "ID-5"]),
        InvariantInfo(id: "stable-ids",
                      statement: "a (root, fire minute) pair keeps one primary ring ID for the whole run, across title edits, relaunches and reboots",
                      rules: ["ID-2", "ID-3", "ID-4"]),
        InvariantInfo(id: "miss-receipt-first",
                      statement: "an inactivity expiry persists its miss receipt before it stops or cancels any ring",
                      rules: ["INACT-16", "INACT-18"]),
        InvariantInfo(id: "snooze-once",
                      statement: "for each occurrence token at most one beginOneTimeSnooze is accepted; the latch is spent before any snooze-ring arm request and never becomes unspent",
                      rules: ["SNZ-4", "SNZ-5", "SNZ-6", "SNZ-14"]),
        InvariantInfo(id: "snooze-window",
                      statement: "every accepted snooze deadline lies between the request time + MIN_SNOOZE_LEAD and the request time + 30 min",
                      rules: ["SNZ-3", "SNZ-20", "SNZ-21"]),
        InvariantInfo(id: "failed-snooze-changes-nothing",
                      statement: "a rejected or failed snooze leaves the occurrence's prior pressure rings as they were",
                      rules: ["SNZ-3", "SNZ-5", "SNZ-9", "SNZ-16"]),
        InvariantInfo(id: "no-collateral-damage",
                      statement: "completing, expiring or abandoning an occurrence never cancels a pending primary: another root's, or the next occurrence of its own root",
                      rules: ["INACT-17", "OCC-12", "OCC-14", "OCC-4", "SNZ-9"]),
        InvariantInfo(id: "action-journal",
                      statement: "no action older than 2 min is returned; an unexpired action whose work has not succeeded stays peekable (only an exact acknowledgement after the work removes it)",
                      rules: ["ACT-2", "ACT-3", "ACT-4", "ACT-5", "ACT-7"]),
        InvariantInfo(id: "never-silent-by-sound-choice",
                      statement: "every ring that becomes audible plays a sound of its alarm or the system sound, and an Android ring whose player failed is back on the system sound within T_OP",
                      rules: ["SND-9", "SND-10"]),
        InvariantInfo(id: "sound-sequence",
                      statement: "in progressive mode an audible ring that played its chosen custom sound uses group min(k, groups - 1), k counting the earlier audible distinct rings of its occurrence; a re-delivered ring replays its sound; unheard or failed rings do not advance k; suspended after a system fallback",
                      rules: ["SND-2", "SND-5", "SND-6", "SND-7", "SND-10"]),
        InvariantInfo(id: "android-keeps-ringing",
                      statement: "an unattended Android wake ring is never stopped by elapsed time alone: only a dismissal, interruption, completion, cancellation, challenge handling or expiry stops it, and its sound never changes except to the system fallback",
                      rules: ["SND-11", "SND-12"]),
        InvariantInfo(id: "honest-audible-record",
                      statement: "every recorded audible ID reached the alerting state unsuppressed, was a burst whose native playback began, or was recorded by JS through recordAudibleAlarm",
                      rules: ["SND-13", "SND-14", "FG-17"]),
        InvariantInfo(id: "run-limit",
                      statement: "a run finishes within its event and virtual-time limits",
                      rules: []),
    ]

    public static func info(_ id: String) -> InvariantInfo? {
        all.first { $0.id == id }
    }
}

// The timed-event vocabulary: which `at TIME ACTOR VERB ARGS…` lines exist and what they take.
//
// The table is the single source of truth for the parser, the printer and the README: adding
// a verb is one line in `ScenarioVocabulary.verbs`. Order matters only for documentation and
// error messages (which list the verbs in table order, never in hash order).

/// The kind of one argument a verb takes.
public enum ScenarioArgumentKind: Sendable, Equatable {
    /// The name of a declared alarm → `ScenarioArgument.alarm`.
    case alarm
    /// An alarm name that may be left out (only last in a list); absent from the AST when left out.
    case optionalAlarm
    /// A double-quoted string → `ScenarioArgument.text`.
    case text
    /// A non-negative decimal integer → `ScenarioArgument.count`.
    case count
    /// A count that may be left out (only last in a list); the AST holds `defaultValue` then.
    case optionalCount(defaultValue: Int)
    /// `1500ms`, `90s`, `5m`, `2h` → `ScenarioArgument.durationMs`.
    case duration
    /// `on` or `off` → `ScenarioArgument.onOff`.
    case onOff
    /// `HH:MM` → `ScenarioArgument.timeOfDay`.
    case timeOfDay
    /// An IANA time-zone identifier, e.g. `Asia/Tokyo`.
    case zone
    /// A duration with a sign: `+30m`, `-1h`.
    case signedDuration

    /// Whether a line may leave this argument out.
    public var isOptional: Bool {
        switch self {
        case .optionalAlarm, .optionalCount: return true
        case .alarm, .text, .count, .duration, .onOff, .timeOfDay, .zone, .signedDuration: return false
        }
    }

    /// How the argument is shown in usage messages and the README, e.g. `ALARM`, `[N]`.
    public var placeholder: String {
        switch self {
        case .alarm: return "ALARM"
        case .optionalAlarm: return "[ALARM]"
        case .text: return "\"TEXT\""
        case .count: return "N"
        case .optionalCount(let defaultValue): return "[N=\(defaultValue)]"
        case .duration: return "DURATION"
        case .onOff: return "on|off"
        case .timeOfDay: return "HH:MM"
        case .zone: return "ZONE"
        case .signedDuration: return "±DURATION"
        }
    }
}

/// One verb of the vocabulary.
public struct ScenarioVerb: Sendable, Equatable {
    public var actor: String
    public var verb: String
    /// Argument kinds in order; optional kinds only at the end.
    public var arguments: [ScenarioArgumentKind]
    /// What the line makes happen, in one sentence (shown by usage messages and the README).
    public var meaning: String

    public init(_ actor: String, _ verb: String, _ arguments: [ScenarioArgumentKind] = [], meaning: String) {
        self.actor = actor
        self.verb = verb
        self.arguments = arguments
        self.meaning = meaning
    }

    /// `user edit-title ALARM "TEXT"`.
    public var usage: String {
        ([actor, verb] + arguments.map(\.placeholder)).joined(separator: " ")
    }

    /// How many arguments a line must give.
    public var minimumArgumentCount: Int {
        arguments.filter { !$0.isOptional }.count
    }
}

/// The table of timed-event verbs.
public enum ScenarioVocabulary {
    /// Every verb, grouped by actor, in the order the README documents them.
    public static let verbs: [ScenarioVerb] = [
        ScenarioVerb("user", "stop", [.optionalAlarm],
                     meaning: "The user presses Stop on the lock screen / alarm screen (for the named alarm, or the one alerting)."),
        ScenarioVerb("user", "open-app", meaning: "The user brings the app to the foreground."),
        ScenarioVerb("user", "leave-app", meaning: "The user sends the app to the background (home gesture, app switcher)."),
        ScenarioVerb("user", "complete-challenge", meaning: "The user completes the alerting alarm's challenge (voice, math or walk)."),
        ScenarioVerb("user", "snooze", [.duration], meaning: "On the challenge screen the user taps Snooze: the app asks the bridge for one snooze until now + DURATION (beginOneTimeSnooze); the app must be in the foreground with a live occurrence."),
        ScenarioVerb("user", "abandon", meaning: "The user gives up on this morning's check in the app: JS calls abandonWakeOccurrence for the live occurrence's alarm (OCC-18); nothing is recorded as completed."),
        ScenarioVerb("user", "skip-snooze", meaning: "The user cancels the running snooze in the app (skipOneTimeSnooze): the ordinary 10 s successor takes over."),
        ScenarioVerb("user", "unlock", meaning: "The user unlocks the device; after a reboot this is the first unlock, which makes protected data readable."),
        ScenarioVerb("user", "lock", meaning: "The user locks the device."),
        ScenarioVerb("user", "force-quit", meaning: "The user swipes the app away in the app switcher."),
        ScenarioVerb("user", "edit-title", [.alarm, .text], meaning: "The user renames the alarm in the app."),
        ScenarioVerb("user", "edit-time", [.alarm, .timeOfDay], meaning: "The user moves the alarm to a new time of day in the app."),
        ScenarioVerb("user", "delete-alarm", [.alarm], meaning: "The user deletes the alarm in the app."),
        ScenarioVerb("user", "edit-weekdays", [.alarm, .text], meaning: "The user picks the weekdays of a weekly alarm (\"mon,wed\") and saves (API-19)."),
        ScenarioVerb("user", "edit-alarm-time", [.alarm, .timeOfDay], meaning: "The user moves the alarm to a new time of day in the editor and saves (API-19; `edit-time` is the quick rename path)."),
        ScenarioVerb("user", "edit-sounds", [.alarm, .text], meaning: "The user picks the alarm's sounds in the editor (\"none\" or \"MODE: a,b | c\", as the alarm option) and saves (API-19)."),
        ScenarioVerb("user", "edit-policy", [.alarm, .text], meaning: "The user's edit saves the alarm with inactivity policy \"3\", \"2\" or \"legacy\" (API-19)."),
        ScenarioVerb("user", "edit-challenge", [.alarm, .text], meaning: "The user picks the alarm's challenge (\"none\", \"voice\", \"math\" or \"walk\") and saves (API-19)."),
        ScenarioVerb("user", "edit-countdown", [.alarm, .text], meaning: "The user sets the alarm's alert countdown (\"off\" or a duration such as \"5m\") and saves (API-19; ID-4, ID-5)."),
        ScenarioVerb("user", "disable-alarm", [.alarm], meaning: "The user switches the alarm off and saves (API-19)."),
        ScenarioVerb("user", "enable-alarm", [.alarm], meaning: "The user switches the alarm on again and saves (API-19)."),
        ScenarioVerb("user", "control-center", meaning: "The user pulls down Control Center (or a system sheet covers the app) for a few seconds: the app resigns active without going to the background, then comes back."),
        ScenarioVerb("user", "app-update", meaning: "The app is updated to a new version: the process is killed; Android keeps the alarms (some OEMs clear them) and sends MY_PACKAGE_REPLACED; iOS keeps them and launches nothing."),
        ScenarioVerb("user", "reinstall", meaning: "The user deletes the app and installs it again: process, alarms and app data are gone; iOS Keychain items survive."),
        ScenarioVerb("user", "mute-burst", meaning: "The user dismisses or mutes the in-app wake-check burst now playing (FG-18)."),
        ScenarioVerb("app", "sync-enabled-alarms", meaning: "The app's JavaScript layer asks the bridge to sync its enabled alarms (as it does on resume)."),
        ScenarioVerb("app", "launch", meaning: "The app process is launched (cold start) and the bridge starts up."),
        ScenarioVerb("app", "challenge-interaction", meaning: "The app reports a validated challenge interaction (INACT-4): the 45 s foreground watchdog restarts (FG-14)."),
        ScenarioVerb("app", "start-burst", [.optionalAlarm], meaning: "The app calls startForegroundAlarmSound for the alarm's root (or the live occurrence's root): an in-app wake-check burst (API-4)."),
        ScenarioVerb("app", "record-audible", [.optionalAlarm], meaning: "The app calls recordAudibleAlarm for the alarm it was opened from (or the live occurrence's root) (SND-14)."),
        ScenarioVerb("app", "reset-audible-count", meaning: "The app calls resetAudibleAlarmCount (API-6)."),
        ScenarioVerb("app", "get-scheduled-times", meaning: "The app calls getScheduledAlarmTimes (API-10): one snapshot of the platform and the registry; on Android it also repairs (AND-5)."),
        ScenarioVerb("device", "reboot", meaning: "The device restarts; the app process is gone and the device stays locked (before first unlock) until `user unlock`."),
        ScenarioVerb("device", "boot-complete", meaning: "The OS delivers the boot-completed signal to the app."),
        ScenarioVerb("device", "time-zone", [.zone], meaning: "The device's time zone becomes ZONE (travel, or the user picks one)."),
        ScenarioVerb("device", "set-clock", [.signedDuration], meaning: "The wall clock is set forward (+) or back (-) by DURATION (manual correction)."),
        ScenarioVerb("device", "doze", [.onOff], meaning: "Android: the device enters (on) or leaves (off) deep doze; refused while the screen is on or the phone charges."),
        ScenarioVerb("device", "charging", [.onOff], meaning: "Android: the charger is connected (on) or removed (off); charging ends doze and lifts standby quotas."),
        ScenarioVerb("device", "silent-mode", [.onOff], meaning: "The ring/silent switch (iOS). With `param ios.silent-mode-silences on` an alert is inaudible though it still reads alerting [limit]."),
        ScenarioVerb("fault", "process-death", meaning: "The OS kills the app process now; everything in its memory is lost."),
        ScenarioVerb("fault", "schedule-failure", [.optionalCount(defaultValue: 1)],
                     meaning: "The next N schedule requests to the platform fail."),
        ScenarioVerb("fault", "inventory-read-failure", [.optionalCount(defaultValue: 1)],
                     meaning: "The next N reads of the platform's alarm inventory fail."),
        ScenarioVerb("fault", "capacity", [.count], meaning: "The AlarmKit daemon's undocumented alarm limit becomes N."),
        ScenarioVerb("fault", "revoke-exact-permission", meaning: "The exact-alarm permission is revoked (Android)."),
        ScenarioVerb("fault", "grant-exact-permission", meaning: "The exact-alarm permission is granted again (Android)."),
        ScenarioVerb("fault", "coalesce-updates", [.onOff], meaning: "on: alarmUpdates snapshots coalesce (several changes arrive as one); off: one snapshot per change again."),
        ScenarioVerb("fault", "late-delivery", [.duration], meaning: "The next alarm delivery is late by DURATION."),
        ScenarioVerb("fault", "wrong-instant-alert", meaning: "iOS: AlarmKit alerts the app's soonest `.fixed` alarm due 4–24 h from now, now, with the clock correct (forums 820388); a Stop deletes the one-shot."),
        ScenarioVerb("fault", "ghost-alert", [.duration], meaning: "iOS: the next alert reads alerting with no sound or UI, and AlarmKit ends it DURATION later with no Stop (OpenMinis#115)."),
        ScenarioVerb("fault", "os-update", meaning: "iOS: the next restart installs an OS update that empties the app's AlarmKit inventory (forums 809398)."),
        ScenarioVerb("fault", "damaged-store", [.duration], meaning: "iOS: the saved alarm domain is damaged: the next launch's read of it, and every read for DURATION after that one, fails although protected data is available (BOOT-5)."),
        ScenarioVerb("fault", "force-stop", meaning: "Android: Settings → Force stop [limit]: every alarm removed, the process killed, no broadcast until the user opens the app."),
        ScenarioVerb("fault", "audio-focus-loss", meaning: "Android: another app takes audio focus from the ringing service (silences it only with `param android.focus-loss-silences on`)."),
        ScenarioVerb("fault", "phone-call", meaning: "Android: a phone call starts: the ringing alarm is heard only as the in-call tone."),
        ScenarioVerb("fault", "audio-focus-regained", meaning: "Android: the ringing service gets audio focus back (the call or the other app ended)."),
        ScenarioVerb("fault", "playback-failure", meaning: "Android: the player of the ring now sounding fails (the service runs, silent)."),
        ScenarioVerb("fault", "os-removes-alarm", [.optionalAlarm], meaning: "iOS removes one of the app's alarms (of ALARM, or any) with no app call; the app sees it only as missing from the next snapshot."),
        ScenarioVerb("user", "start-walk", meaning: "iOS: in the app, the user starts the walk check of the live alarm (startWalkCheck): rejected without Health access (WALK-4); the walk counts as started once HealthKit confirms session and collection in the foreground (WALK-3)."),
        ScenarioVerb("user", "walk", [.count], meaning: "The user takes N steps now. iOS: a process attached to the running workout gets them as a live Core Motion update (WALK-11, WALK-14). Android: the step counter counts them and a registered listener gets them, batched by `android.step-report-latency-ms` (AND-16)."),
        ScenarioVerb("user", "app-switcher", [.duration], meaning: "The user swipes up into the app switcher: the app resigns active now and truly enters the background DURATION later (WALK-8, WALK-10)."),
        ScenarioVerb("user", "health-access", [.onOff], meaning: "iOS: the user grants (on) or revokes (off) Health access for workouts in Settings (WALK-4)."),
        ScenarioVerb("fault", "workout-lost", meaning: "iOS: HealthKit ends the workout session on its own (WALK-23)."),
        ScenarioVerb("expect", "alerting", [.alarm], meaning: "Check: at this instant, the alarm is alerting (ringing, on screen)."),
        ScenarioVerb("expect", "silent", [.alarm], meaning: "Check: at this instant, the alarm is not alerting."),
        ScenarioVerb("expect", "save", [.alarm, .text], meaning: "Check: the app's latest save reply for the alarm is \"saved\", a failure reason (\"not-verified\", \"capacity\", \"not-authorized\", \"write-failed\", \"scheduling-disabled\", \"superseded\") or \"deleted\" (API-19, SCH-8, SCH-26)."),
        ScenarioVerb("fault", "kill-switch-ok", meaning: "Every later remote kill-switch check answers ok (BOOT-12)."),
        ScenarioVerb("fault", "kill-switch-disabled", meaning: "Every later kill-switch check answers an explicit, readable \"disabled\" (a forced update): syncs and direct saves make no scheduler call; registered alarms and the live occurrence's pressure stay (BOOT-12)."),
        ScenarioVerb("fault", "kill-switch-timeout", meaning: "Every later kill-switch check times out; the bridge must fail open (BOOT-12)."),
        ScenarioVerb("fault", "kill-switch-network-failure", meaning: "Every later kill-switch check fails to connect (airplane mode, captive portal); the bridge must fail open (BOOT-12)."),
        ScenarioVerb("fault", "kill-switch-unreadable", meaning: "Every later kill-switch check gets a body that does not parse; the bridge must fail open (BOOT-12)."),
        ScenarioVerb("fault", "app-state-write-failure", [.optionalCount(defaultValue: 1)],
                     meaning: "The next N writes to the app's state (a failed wake day, IOS-10) fail."),
        ScenarioVerb("app", "cancel-system-alarms", [.alarm], meaning: "JS calls cancelSystemAlarms with every root of ALARM (API-18) and forgets the alarm."),
        ScenarioVerb("user", "volume-key", meaning: "Android: the user presses a volume key on the ringing alarm's screen: an explicit dismissal, credited only after validation (INACT-6)."),
        ScenarioVerb("user", "lower-alarm-volume", meaning: "Android: the user turns the alarm volume down one step while an alarm rings; the observed reduction is a dismissal (INACT-6). At the stream's minimum nothing changes."),
        ScenarioVerb("user", "start-wake-up-check", meaning: "Android: the user chooses Start wake-up check on the ringing alarm's screen: the app opens with the challenge and MainActivity may show over the lock screen (AND-11)."),
        ScenarioVerb("app", "reconcile-step-tracking", meaning: "JS calls reconcileStepSuppressionTracking() (API-16, Android only)."),
        ScenarioVerb("expect", "lock-screen-grant", [.onOff], meaning: "Check: at this instant MainActivity's lock-screen presentation is granted (on) or not (off) (AND-11)."),
        ScenarioVerb("expect", "sound", [.alarm, .text], meaning: "Check: one of the alarm's alerting rings plays this sound (`system-default` for the system sound; a system fallback matches its chosen name)."),
        ScenarioVerb("expect", "registered", [.alarm, .onOff], meaning: "Check: the last getScheduledAlarmTimes answer reports every root of ALARM registered (on) or none of them (off) (SCH-14); fails when the last call was rejected or never answered."),
        ScenarioVerb("expect", "scheduled-times-rejected", [.onOff], meaning: "Check: the last getScheduledAlarmTimes call was rejected (on: an unreadable platform or registry, SCH-16) or answered (off)."),
        ScenarioVerb("expect", "dropped-count", [.count], meaning: "Check: the user-visible count of wanted alarms not registered because of N_SKIP or the capacity limit is exactly N (CAP-9)."),
        ScenarioVerb("expect", "audible-count", [.count], meaning: "Check: the bridge's audible record holds exactly N alarm IDs (getAudibleAlarmCount, API-5)."),
        ScenarioVerb("expect", "burst", [.onOff], meaning: "Check: an in-app wake-check burst is playing (on) or not (off)."),
    ]

    /// The actors, in table order without repeats.
    public static var actors: [String] {
        var result: [String] = []
        for entry in verbs where !result.contains(entry.actor) {
            result.append(entry.actor)
        }
        return result
    }

    /// The verbs of one actor, in table order.
    public static func verbs(of actor: String) -> [ScenarioVerb] {
        verbs.filter { $0.actor == actor }
    }

    /// The table entry for `actor verb`, or nil when there is none.
    ///
    /// - Complexity: O(n) in the table size (a few dozen entries; a linear scan keeps the
    ///   lookup free of hash order).
    public static func lookup(actor: String, verb: String) -> ScenarioVerb? {
        verbs.first { $0.actor == actor && $0.verb == verb }
    }
}

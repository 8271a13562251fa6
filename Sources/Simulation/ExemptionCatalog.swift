import AlarmBridge

/// One named exemption: a condition the platforms cannot guarantee ([limit], RULES.md tags) or
/// an injected fault's effect, under which the oracle excuses a gap instead of reporting a
/// violation. Every summary counts exemptions by these names (`exemptions: force-quit=1 …`), and
/// `alarmsim list exemptions` prints this catalog.
public struct ExemptionInfo: Sendable, Equatable {
    /// The name the oracle counts (`World.countExemption(_:)`), kebab-case.
    public let name: String
    /// Platforms on which the oracle can count it.
    public let platforms: [PlatformFlavor]
    /// One sentence for a person: what happened, and why no bridge can do better there.
    public let explanation: String
    /// What the bridge must still do under it: the exemption excuses only the interval the
    /// limit touched, never this.
    public let bridgeMustStill: String
    /// RULES.md IDs the exemption narrows or the bridge must still honour.
    public let rules: [String]
    /// Where the limit comes from: a RULES.md [limit] or [platform] rule, a PLATFORMS.md row, a
    /// field report.
    public let source: String
}

/// Every exemption name the oracle can count, in a fixed order (grouped by cause). A test
/// (`ExemptionCatalogTests`) checks that every name a fault kind lists (``FaultKind/exemptions``)
/// and every literal the oracle counts has an entry here.
public enum ExemptionCatalog {
    static let both: [PlatformFlavor] = [.ios, .android]

    /// The entry for `name`, or nil when the catalog does not know it.
    public static func info(_ name: String) -> ExemptionInfo? { all.first { $0.name == name } }

    /// The fault kinds whose catalog entry lists `name` among its exemptions, in catalog order
    /// (empty for an exemption that a device parameter or the run's own history causes).
    public static func faults(causing name: String) -> [String] {
        FaultCatalog.all.filter { $0.exemptions.contains(name) }.map(\.name)
    }

    public static let all: [ExemptionInfo] = process + restart + clock + silencing + android + scheduling + configuration + observation

    static func entry(_ name: String, _ platforms: [PlatformFlavor], _ explanation: String, mustStill: String,
                      rules: [String], source: String) -> ExemptionInfo {
        ExemptionInfo(name: name, platforms: platforms, explanation: explanation, bridgeMustStill: mustStill, rules: rules, source: source)
    }

    // MARK: - The app process

    static let process: [ExemptionInfo] = [
        entry("process-death", both,
              "The app process died (between a request and its answer, or at any moment), and nothing of the app runs until the platform starts it again.",
              mustStill: "keep the rings it had armed durable, and restore the occurrence and its pressure at the next launch; the excuse ends at the first ready bridge step",
              rules: ["INACT-13", "OCC-24", "IOS-11", "AND-5"], source: "IOS-11 [platform]; DESIGN.md, interleaving points"),
        entry("force-quit", both,
              "The user swiped the app away: iOS may not relaunch it or deliver its intents before a ring is due.",
              mustStill: "have armed the successor already at resign-active, so a durable ring is in place before the kill; recover at the next launch",
              rules: ["FG-4", "WALK-25", "INACT-23"], source: "WALK-25, INACT-23 [limit]; PLATFORMS.md, intents after force-quit"),
        entry("walk-steps-after-force-quit", [.ios],
              "Steps taken after a force-quit reach no process, so they cannot move the walk fuse's deadline.",
              mustStill: "leave the committed walk fuse in place, so it rings loudly at its deadline",
              rules: ["WALK-25", "WALK-26"], source: "WALK-25 [limit]"),
        entry("app-update", both,
              "An app update killed the process (and on Android replaced the package); until the new version runs, nothing can re-arm.",
              mustStill: "adopt the daemon inventory unchanged and re-arm at the first run of the new version (iOS launch, Android MY_PACKAGE_REPLACED), keeping each occurrence's policy",
              rules: ["BOOT-9", "INACT-8", "AND-3"], source: "PLATFORMS.md, update"),
    ]

    // MARK: - Restarts and protected data

    static let restart: [ExemptionInfo] = [
        entry("device-restarting", both,
              "The phone was off or restarting when a ring was due, or (Android) had cleared its alarms at boot before any bridge process of the new boot ran.",
              mustStill: "restore and re-arm every ring at boot, before the first unlock on Android, and record the day that passed in silence as missed",
              rules: ["AND-2", "AND-3", "BOOT-1"], source: "BOOT-1 [platform]; PLATFORMS.md, reboot clears all alarms"),
        entry("protected-data-unavailable", [.ios],
              "Before the first unlock after a restart the app's files cannot be read, while AlarmKit keeps firing the alarms it holds.",
              mustStill: "never read the unavailable store as empty, hold the launch gate, and let the AlarmKit rings already registered sound",
              rules: ["BOOT-1", "BOOT-2", "BOOT-4"], source: "BOOT-1 [platform]; seed 004"),
        entry("locked-boot-restore-faulted", [.android],
              "A failed request, a failed read or a process death hit the direct-boot restore of these roots, and that process is gone: nothing starts the app again before the first unlock.",
              mustStill: "retry the restore (2 s, doubling to at most 5 min) for as long as its process lives, and restore everything once the user unlocks",
              rules: ["AND-2", "AND-3", "WALK-18"], source: "PLATFORMS.md, boot broadcasts; [derived] WALK-18, AND-3"),
        entry("alert-ended-unobserved-by-reboot", both,
              "A restart ended an alert that no bridge process ever saw begin, so nothing on the device can tell that the occurrence existed.",
              mustStill: "ring the root's next occurrences as usual",
              rules: ["IOS-11", "FG-10"], source: "IOS-11 [platform]"),
        entry("snooze-across-reboot", both,
              "A restart reset the monotonic clock, so the remaining time of a pending snooze can no longer be measured exactly.",
              mustStill: "err early: clamp the snooze deadline into the next 30 min and keep the existing ring if a replacement fails",
              rules: ["SNZ-20", "SNZ-21"], source: "SNZ-21"),
    ]

    // MARK: - Clock and time zone

    static let clock: [ExemptionInfo] = [
        entry("clock-jump-ambiguous-start", both,
              "The wall clock jumped while no bridge process ran (on iOS also while it ran, for an alert it had not seen begin: it dates a change by its own readings only), so an occurrence's start reads differently in the old and the new frame; the oracle takes the bridge's reading for that one occurrence.",
              mustStill: "rebase the live occurrence's deadline and the offset once it sees the change, and never leave it without pressure",
              rules: ["REC-9", "REC-10", "OCC-2", "INACT-21", "SNZ-22"], source: "REC-8 (only a running process notices); PLATFORMS.md, time change"),
        entry("zone-change-unobserved", both,
              "The time zone changed while no bridge process was ready, so a fixed instant planned in the old zone can still ring before the bridge re-plans.",
              mustStill: "treat that sounding ring as the occurrence it was planned for, and re-plan every fixed time at the first step that sees the change",
              rules: ["REC-3", "REC-4", "REC-8", "SCH-21"], source: "REC-3 [platform]; PLATFORMS.md, .fixed(Date)"),
        entry("clock-change-unseen", [.ios],
              "The clock was set back while the app was suspended, which pushed the live occurrence's pending successor or walk fuse beyond its bound before any bridge step could see the change.",
              mustStill: "rebase those rings to their bound at the first ready step that sees the correction",
              rules: ["REC-8", "REC-9", "OCC-5", "SNZ-22"], source: "REC-8 (only a running process notices); PLATFORMS.md, time change"),
        entry("snooze-clock-change-unseen", both,
              "The clock was set back while no process ran, which pushed the pending snooze ring beyond its 30-minute bound before anything could rebase it.",
              mustStill: "rebase the snooze ring at the first ready step that sees the correction",
              rules: ["SNZ-20", "SNZ-22", "REC-8"], source: "REC-8; SNZ-20"),
        entry("snooze-rearm-refused", both,
              "The platform refused the rebased snooze ring, so the old one stays in place beyond the bound; each refusal excuses one retry delay plus T_OP.",
              mustStill: "keep the existing snooze ring and ask again, a bounded number of times",
              rules: ["SNZ-21"], source: "SNZ-21; PLATFORMS.md, field faults"),
    ]

    // MARK: - Inaudible alerts

    static let silencing: [ExemptionInfo] = [
        entry("mute-switch", [.ios],
              "The occurrence's own alert is alerting but inaudible because of the ring/silent switch, which AlarmKit does not report to the app.",
              mustStill: "keep the alert alerting and rearm as soon as it ends; a gap with no alert of the occurrence at all is still a violation",
              rules: ["IOS-3", "IOS-6", "IOS-8", "IOS-7"], source: "IOS-6, IOS-8 [limit]"),
        entry("in-call", [.android],
              "A phone call reduced the occurrence's ringing alarm to the in-call tone.",
              mustStill: "keep the ring going with its sound; a gap with no ring of the occurrence is still a violation",
              rules: ["SND-11", "INACT-5"], source: "PLATFORMS.md, audio focus; AlarmClock#198"),
        entry("audio-focus-loss", [.android],
              "Another app took audio focus and the platform silenced the occurrence's ringing alarm.",
              mustStill: "keep the ring going (focus loss is no activity), and rearm if the ring ends",
              rules: ["SND-11", "INACT-5"], source: "PLATFORMS.md, audio focus"),
    ]

    // MARK: - Android limits

    static let android: [ExemptionInfo] = [
        entry("exact-permission-revoked", [.android],
              "Revoking the exact-alarm permission removed the app's exact alarms and killed it without a broadcast, so until a bridge process runs the app cannot know; after that, only the delivery window of the inexact rings it kept.",
              mustStill: "keep each refused ring as an inexact allow-while-idle alarm (reported inexact) and make it exact again on the grant",
              rules: ["AND-1", "AND-3"], source: "PLATFORMS.md, SCHEDULE_EXACT_ALARM (31/32); [derived] AND-1, AND-3"),
        entry("background-restricted", [.android],
              "The app's battery usage is \"Restricted\" (forced app standby): while the app is not in the foreground, AlarmManager holds every due alarm except alarm clocks, so the inexact ring the bridge had to set without the exact-alarm permission waits until the user opens the app.",
              mustStill: "use alarm clocks (never held) whenever exact alarms are allowed; the excuse covers only a refused ring past its own window, until the app is opened",
              rules: ["AND-1", "AND-3"], source: "AOSP AlarmManagerService isBackgroundRestricted, AlarmManagerServiceTest testAlarmRestrictedByFAS"),
        entry("accepted-request-dropped", [.android],
              "AlarmManager accepted a request and holds nothing for it (plus_plugins#1981); the app's PendingIntent probes still find it, and getNextAlarmClock() shows it missing only while it is the earliest alarm clock. Exempt for that ring until a ready step that reads getNextAlarmClock() ran while it was the earliest, and T_OP after.",
              mustStill: "read getNextAlarmClock() after each accepted request, cancel and delivery, and register a missing earliest ring again",
              rules: ["AND-3", "SCH-9"], source: "issue 18; plus_plugins#1981; [derived] AND-3"),
        entry("force-stop", [.android],
              "The app was force-stopped: Android removed its alarms and blocks its broadcasts until the user opens it again.",
              mustStill: "repair every schedule at the next open and record the day that passed in silence as missed",
              rules: ["AND-6", "AND-5"], source: "AND-6 [limit]; PLATFORMS.md, force-stop"),
        entry("oem-battery-killer", [.android],
              "An OEM battery optimiser killed the process while it was ringing.",
              mustStill: "restore its rings when it runs again, and keep ringing continuously otherwise",
              rules: ["AND-3", "SND-11"], source: "gdelataillade/alarm#82, #430 (field reports)"),
        entry("android-min-futurity", [.android],
              "AlarmManager delivers a trigger less than 5 s ahead of its set call 5 s after that call, so a snooze rebased just before its deadline rings up to that much late, and an occurrence whose deadline fell within 5 s after the heal is delivered only past it.",
              mustStill: "rebase the snooze as usual, and make an overdue inexact primary exact at the grant; nothing later than the platform floor is excused",
              rules: ["SNZ-20", "AND-3", "INACT-22"], source: "PLATFORMS.md, floors and limits (AOSP MIN_FUTURITY)"),
        entry("manifest-missing-exact-permission", [.android],
              "The app cannot schedule exact alarms (its manifest or the user's setting leaves it without the permission), so its rings cannot be exact.",
              mustStill: "declare the permission per API level (AND-1) and keep inexact rings meanwhile",
              rules: ["AND-1"], source: "AND-1; PLATFORMS.md, USE_EXACT_ALARM (33+)"),
        entry("manifest-missing-boot-receiver", [.android],
              "The app's manifest declares no boot receiver, so nothing restores its alarms after a restart.",
              mustStill: "declare the receiver (AND-1); with it, restore at every boot",
              rules: ["AND-1", "AND-3"], source: "AND-1; PLATFORMS.md, boot broadcasts"),
        entry("manifest-not-direct-boot-aware", [.android],
              "The app's receiver is not direct-boot aware, so nothing restores its alarms before the first unlock.",
              mustStill: "be direct-boot aware and keep its state in device-protected storage (AND-2)",
              rules: ["AND-1", "AND-2", "AND-3"], source: "AND-2; PLATFORMS.md, boot broadcasts, storage"),
    ]

    // MARK: - Failed or refused scheduling

    static let scheduling: [ExemptionInfo] = [
        entry("ios-schedule-latency", [.ios],
              "AlarmKit's schedule call is async: a snooze ring rebased just before its deadline alerts when the request lands, up to the daemon's schedule latency late.",
              mustStill: "rebase the snooze at the first step that sees the correction, before its deadline; nothing later than the request's latency is excused",
              rules: ["SNZ-20", "SNZ-21"], source: "PLATFORMS.md, schedule (async throws)"),
        entry("arm-failed-no-predecessor", both,
              "Arming a pressure ring failed after the alert it was to follow had already ended, so nothing was left to keep.",
              mustStill: "keep any predecessor until a replacement is confirmed (arm before retire), and retry the arm while the process lives: 1 s after each of the first 3 refusals in a row, then doubling to at most 5 min; excused only until that retry was due",
              rules: ["OCC-5", "SNZ-9", "WALK-18"], source: "RULES.md never-silent invariant (a failed arm with nothing to keep is named, not passed)"),
        entry("walk-fuse-arm-failed-keeps-predecessor", [.ios],
              "A walk-fuse rotation failed, so the older fuse stays as the pressure and may be due later than 35 s after the latest step.",
              mustStill: "keep the older fuse as loud pressure and retry through the 2 s background step poll",
              rules: ["WALK-15", "WALK-18"], source: "WALK-18"),
        entry("primary-unregistered-by-fault", both,
              "An injected schedule failure (or an OS removal) left a configured primary unregistered; excused only until its retry was due.",
              mustStill: "re-plan the failed primary after 2 s, doubling to at most 5 min, while its process runs; still missing 5 min + T_OP later is a violation",
              rules: ["WALK-18", "AND-3", "SCH-24"], source: "PLATFORMS.md, field faults; [derived] WALK-18, AND-3"),
        entry("capacity-dropped-surfaced", [.ios],
              "AlarmKit's capacity refused a wanted alarm, and the bridge told the user how many were dropped.",
              mustStill: "free only a later seed and retry once, never displace a primary, and keep the dropped count visible",
              rules: ["CAP-1", "CAP-4", "CAP-5", "CAP-9"], source: "CAP-1 [platform]"),
        entry("kill-switch-disabled", both,
              "The remote kill switch explicitly answered 'disabled', the operator's choice, so scheduling was held back.",
              mustStill: "fail open: a network failure, timeout or unreadable answer never disables scheduling",
              rules: ["BOOT-12"], source: "BOOT-12"),
    ]

    // MARK: - AlarmKit configuration and field faults

    static let configuration: [ExemptionInfo] = [
        entry("alarmkit-unavailable", [.ios],
              "The device has no AlarmKit (iOS before 26), so no system alarm can be scheduled.",
              mustStill: "never report that an alarm will ring: switch to the fallback or reject with a reason",
              rules: ["SCH-26"], source: "SCH-26"),
        entry("alarmkit-usage-description-missing", [.ios],
              "The app shipped without its AlarmKit usage description, so AlarmKit refuses every schedule.",
              mustStill: "never report that an alarm will ring; the config plugin must add the description (IOS-1)",
              rules: ["SCH-26", "IOS-1"], source: "PLATFORMS.md, configuration"),
        entry("alarmkit-authorization-denied", [.ios],
              "The user denied alarm authorization, so every schedule fails by the user's choice.",
              mustStill: "reject saves with a reason that leads to Settings",
              rules: ["SCH-26"], source: "SCH-26; PLATFORMS.md, authorization"),
        entry("alarmkit-schedule-always-fails", [.ios],
              "AlarmKit throws on every schedule call for this app despite authorization (a field report).",
              mustStill: "reject every save: a save succeeds only after a read finds its exact primary",
              rules: ["SCH-9", "SCH-26"], source: "nitro-ios-alarm-kit#1 (field report)"),
    ]

    // MARK: - What the platform did without telling the app

    static let observation: [ExemptionInfo] = [
        entry("os-removed-alarm", [.ios],
              "The OS removed one of the app's rings without any app call; the gap lasts until the bridge can see it (an alarmUpdates set or a successful read).",
              mustStill: "add the ring back at its next view of the daemon inventory, never trusting its own registry",
              rules: ["IOS-2", "IOS-5", "SCH-19"], source: "PLATFORMS.md, updates"),
        entry("alert-ended-unobserved-by-os-removal", [.ios],
              "The OS removed an alerting ring whose alert no bridge process ever saw begin, leaving nothing to tell it happened.",
              mustStill: "ring the root's next occurrences as usual",
              rules: ["IOS-5", "IOS-11"], source: "IOS-11 [platform]; PLATFORMS.md, updates"),
        entry("wrong-instant-alert-ambiguous", [.ios],
              "A bridge first saw an alert AlarmKit began hours before its `.fixed` instant only when that instant was less than 3 h away, where a clock set back while the ring sounded could explain it; it took the alert as the ring time's: the oracle takes that reading.",
              mustStill: "open nothing from an alert seen more than 3 h before its instant, and register the ring again for it",
              rules: ["ID-8", "OCC-2", "REC-9"], source: "Apple developer forums 820388 (FB22327481); RULES.md silent, decided from ID-8 and REC-9"),
        entry("ghost-alert", [.ios],
              "The occurrence's own alert reads alerting but plays no sound and shows no UI (an AlarmKit ghost alert, independent of Silent mode); nothing the app can read tells it apart from a sounding one.",
              mustStill: "keep the alert's occurrence live and hand it on to a successor as soon as a view of the daemon shows the alert ended",
              rules: ["IOS-7", "OCC-5", "IOS-5"], source: "OpenMinis#115 (field report, iOS 26.1)"),
        entry("ghost-alert-ended", [.ios],
              "AlarmKit ended a ghost alert with no Stop and launched nothing; the gap lasts until a ready bridge sees the daemon (an alarmUpdates set or a successful read).",
              mustStill: "at that view, take the alert's end (a one-shot gone from the list) as the trigger and arm one successor (IOS-7, OCC-5, OCC-6)",
              rules: ["IOS-7", "OCC-5", "OCC-6", "IOS-5"], source: "OpenMinis#115 (field report: gone from the list after)"),
        entry("alert-ended-unobserved-by-ghost-alert", [.ios],
              "AlarmKit ended a ghost alert that no bridge process ever saw begin, leaving nothing to tell that its occurrence existed.",
              mustStill: "ring the root's next occurrences as usual",
              rules: ["IOS-5", "IOS-11"], source: "OpenMinis#115 (field report); IOS-11 [platform]"),
        entry("late-delivery", both,
              "The platform delivered the snooze ring late (20 s to 4 min), beyond its scheduling tolerance.",
              mustStill: "arm the snooze ring at its deadline; the lateness is the platform's",
              rules: ["AND-19", "SNZ-20"], source: "AND-19 [platform]; PLATFORMS.md, field faults"),
        entry("sound-sequence-unobserved-ring", both,
              "An earlier ring of the occurrence sounded while no bridge process could see it, so the bridge cannot know to advance the sound sequence; the group check is suspended for that occurrence.",
              mustStill: "play the chosen sound or the system fallback on every ring (never silent)",
              rules: ["SND-2", "SND-7", "SND-9"], source: "RULES.md sound-sequence invariant (the seed does not say how such a ring moves the position)"),
        entry("sound-sequence-muted-ring", [.ios],
              "An earlier ring of the occurrence alerted inaudible under the ring/silent switch and was never heard; AlarmKit does not report the switch, so the bridge counted it as audible; the group check is suspended for that occurrence.",
              mustStill: "play the chosen sound or the system fallback on every ring (never silent)",
              rules: ["SND-7", "IOS-6", "SND-2"], source: "IOS-6 [limit]; RULES.md sound-sequence invariant"),
    ]
}

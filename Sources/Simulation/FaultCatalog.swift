import AlarmBridge
import SimKernel

/// What a fault kind's rate counts: the chance is drawn once per unit.
public enum RateUnit: String, Sendable, CaseIterable {
    /// Each hour of the run's virtual time draws once; a hit puts one fault at a uniform instant
    /// inside that hour (a Bernoulli process with one-hour steps).
    case perHour = "per hour of virtual time"
    /// Drawn once per seed: a hit means the seed has the fault (once, a short series, or a device
    /// parameter set for the whole run).
    case perSeed = "per seed"
    /// Each schedule request the bridge makes (an interleaving point: its completion comes back as
    /// a later input, DESIGN.md "The bridge is sans-I/O") draws once, in the run.
    case perScheduleRequest = "per schedule request"
    /// Each kill-switch check (a network request at launch, BOOT-12) draws once, in the run.
    case perKillSwitchCheck = "per kill-switch check"
    /// Each configured alarm draws once: a hit puts the fault at its next fire time in the run.
    case perAlarm = "per alarm"
    /// Each reboot of the seed draws once.
    case perReboot = "per reboot"
    /// Each walk the sleepy user starts (iOS walk challenge, WALK-*) draws once, in the run.
    case perWalk = "per walk"
    /// Each snooze the bridge accepts (SNZ-1) draws once, in the run.
    case perSnooze = "per accepted snooze"
    /// Each occurrence whose successor or walk fuse a trigger arms draws once, at its first arm.
    case perPressureArm = "per occurrence's first successor or walk-fuse arm"
    /// Each bridge step that closes an occurrence or hands it on (a successor arm, a snooze skip)
    /// draws once, in the run.
    case perClosingStep = "per step that closes or hands on an occurrence"
}

/// One kind of fault the simulator can inject, with the rate it has when switched on
/// (DESIGN.md, "Invariants, faults, known defects": faults are a catalog of kinds with rates).
///
/// A kind is data, not behaviour: `SeedGenerator` and `World` look at a seed's ``SeedFaults`` to
/// decide what to inject. Every kind draws its switch and rate from its own PRNG sub-stream
/// `fault.<name>`, its plan or parameters from `fault.<name>.plan` and in-run draws from
/// `fault.<name>.run` (or the in-run stream named in its summary), so switching one kind on or off
/// never reshuffles another kind's draws.
public struct FaultKind: Sendable, Equatable, CustomStringConvertible {
    /// Stable kebab-case name, as `--faults` and `alarmsim list faults` spell it.
    public let name: String
    /// One line: what happens to the device, the app or the platform.
    public let summary: String
    /// Platforms whose model has this fault.
    public let platforms: [PlatformFlavor]
    /// RULES.md IDs the fault exercises, and where the platform behaviour comes from
    /// (PLATFORMS.md rows, forum threads), as short citations.
    public let rules: [String]
    /// The rate when switched on, counted in ``unit``: `uniform` uses it as is, `swarm` draws one
    /// of half, once or twice it (capped at 1/1).
    public let rate: Ratio
    public let unit: RateUnit
    /// The swarm coin: the chance that a seed of the `swarm` profile switches the kind on
    /// (FoundationDB BUGGIFY, TigerBeetle swarm testing).
    public let swarmChance: Ratio
    /// Other kinds whose plan actions this kind changes when it is on (it has none of its own).
    public let modifies: [String]
    /// True for kinds that reshape the world the plan is made for (zone and start instant, or the
    /// saved alarms and the first launch), so other kinds' and the user's actions move too.
    public let reshapesWorld: Bool
    /// Exemption names ([limit] conditions, counted in every summary) this fault can cause.
    public let exemptions: [String]
    /// True for a kind the default profiles leave off: it runs only when forced on (`--faults`)
    /// or scripted, until the correct bridge is clean under it (issue 16 part 4).
    public let forcedOnly: Bool

    init(_ name: String, _ summary: String, platforms: [PlatformFlavor], rules: [String], rate: Ratio, unit: RateUnit,
         swarmChance: Ratio = Ratio(1, 2), modifies: [String] = [], reshapesWorld: Bool = false, exemptions: [String] = [],
         forcedOnly: Bool = false) {
        precondition(FaultKind.isKebabCase(name), "FaultKind: '\(name)' is not kebab-case")
        precondition(!platforms.isEmpty, "FaultKind \(name): no platform")
        self.name = name
        self.summary = summary
        self.platforms = platforms
        self.rules = rules
        self.rate = rate
        self.unit = unit
        self.swarmChance = swarmChance
        self.modifies = modifies
        self.reshapesWorld = reshapesWorld
        self.exemptions = exemptions
        self.forcedOnly = forcedOnly
    }

    public var description: String { name }

    /// Lowercase ASCII words of letters and digits joined by single hyphens.
    public static func isKebabCase(_ text: String) -> Bool {
        let words = text.split(separator: "-", omittingEmptySubsequences: false)
        return !text.isEmpty && words.allSatisfy { word in
            !word.isEmpty && word.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }
        }
    }

    /// The rate `swarm` uses for a drawn index 0, 1 or 2: half, once or twice the catalog rate
    /// (capped at 1/1), in lowest terms so it prints as people write it.
    func swarmRate(_ index: UInt64) -> Ratio {
        switch index {
        case 0: return Self.lowestTerms(rate.numerator, rate.denominator * 2)
        case 1: return rate
        default: return Self.lowestTerms(min(rate.numerator * 2, rate.denominator), rate.denominator)
        }
    }

    static func lowestTerms(_ numerator: UInt64, _ denominator: UInt64) -> Ratio {
        var (a, b) = (numerator, denominator)
        while b != 0 { (a, b) = (b, a % b) }  // Euclid: a is the greatest common divisor
        return a == 0 ? Ratio(0, 1) : Ratio(numerator / a, denominator / a)
    }
}

/// Every fault kind, in a fixed order (the order of draws, listings and printed profiles).
public enum FaultCatalog {
    static let both: [PlatformFlavor] = [.ios, .android]

    // MARK: - The app process

    public static let processDeathInterleaving = FaultKind(
        "process-death-interleaving",
        "the app process dies between a schedule request and its completion (0–400 virtual ms later; in-run stream faults.interleaving)",
        platforms: both, rules: ["SCH-6", "SCH-7", "INACT-13", "DESIGN.md: interleaving points"],
        rate: Ratio(1, 25), unit: .perScheduleRequest, exemptions: ["process-death"])
    public static let processDeath = FaultKind(
        "process-death",
        "the app process dies at a random instant (jetsam, a crash), bridge memory is lost",
        platforms: both, rules: ["INACT-13", "OCC-24", "FG-13", "AND-5"],
        rate: Ratio(1, 10), unit: .perHour, exemptions: ["process-death", "locked-boot-restore-faulted"])
    public static let forceQuit = FaultKind(
        "force-quit",
        "the user opens the app and swipes it away in the app switcher, 1–2 times, sometimes just after a ring [limit]",
        platforms: both, rules: ["FG-4", "WALK-25", "PLATFORMS.md: intents after force-quit"],
        rate: Ratio(2, 3), unit: .perSeed, exemptions: ["force-quit"])
    public static let walkForceQuit = FaultKind(
        "walk-force-quit",
        "during a walk the user force-quits the app (in-run stream fault.walk-force-quit.run) [limit]",
        platforms: [.ios], rules: ["WALK-25", "WALK-26"],
        rate: Ratio(1, 5), unit: .perWalk, exemptions: ["force-quit", "walk-steps-after-force-quit"])
    public static let appUpdate = FaultKind(
        "app-update",
        "the app is updated (Android MY_PACKAGE_REPLACED; iOS kills the process)",
        platforms: both, rules: ["BOOT-9", "INACT-8", "AND-3"],
        rate: Ratio(2, 5), unit: .perSeed, exemptions: ["app-update"])
    public static let reinstall = FaultKind(
        "reinstall",
        "the user deletes and reinstalls the app while a wake-up is unfinished, then opens it; Keychain receipts survive",
        platforms: [.ios], rules: ["IOS-9", "IOS-10"],
        rate: Ratio(1, 3), unit: .perSeed)
    public static let appStateWriteFailure = FaultKind(
        "app-state-write-failure",
        "the app's next 1–2 app-state writes (the failed wake day a fresh install records) fail",
        platforms: [.ios], rules: ["IOS-10"],
        rate: Ratio(1, 4), unit: .perSeed)
    public static let legacyInstall = FaultKind(
        "legacy-install",
        "the run starts right after an update from an older version, from the document and rings it left",
        platforms: both, rules: ["BOOT-9", "BOOT-10", "BOOT-11", "OCC-17", "AND-4", "INACT-25"],
        rate: Ratio(2, 5), unit: .perSeed, reshapesWorld: true)

    // MARK: - Device

    public static let reboot = FaultKind(
        "reboot",
        "the device restarts 1–2 times, half of them 1–30 min before an alarm (AlarmManager forgets every alarm)",
        platforms: both, rules: ["BOOT-1", "BOOT-2", "AND-3", "PLATFORMS.md: reboot clears all alarms"],
        rate: Ratio(1, 1), unit: .perSeed,
        // iOS: `os-update-clears-alarms` is drawn per restart, so its actions come with the reboots.
        modifies: ["os-update-clears-alarms"],
        exemptions: ["device-restarting", "protected-data-unavailable", "alert-ended-unobserved-by-reboot"])
    /// Issue 7: a night-time restart (an OS update) late in the safety phase that nobody unlocks
    /// before the liveness phase heals the world, so the liveness phase starts in direct boot and
    /// the restore must not wait for the first unlock (AND-2, AND-3; `restore-skips-locked-boot`).
    public static let lateReboot = FaultKind(
        "late-reboot",
        "the device restarts 5 min – 4 h before the safety phase ends and stays locked into the liveness phase (alarms must ring before the first unlock)",
        platforms: both, rules: ["AND-2", "AND-3", "BOOT-1", "BOOT-4"],
        rate: Ratio(2, 5), unit: .perSeed, modifies: ["os-update-clears-alarms"],
        exemptions: ["device-restarting", "protected-data-unavailable", "locked-boot-restore-faulted"])
    public static let lockedBootLength = FaultKind(
        "locked-boot-length",
        "after a reboot the phone stays locked 10 s – 1 h (not 10–60 s) before the first unlock, so alarms ring before first unlock",
        platforms: both, rules: ["BOOT-1", "BOOT-2", "BOOT-4", "BOOT-8", "AND-2", "AND-4", "seed 004"],
        rate: Ratio(1, 1), unit: .perReboot, modifies: ["reboot"], exemptions: ["protected-data-unavailable"])
    public static let clockJumpForward = FaultKind(
        "clock-jump-forward",
        "the user sets the wall clock forward by 90 s, 10 min or 1 h",
        platforms: both, rules: ["REC-8", "REC-9", "REC-10", "SNZ-20", "PLATFORMS.md: time change"],
        rate: Ratio(1, 5), unit: .perSeed, exemptions: ["clock-jump-ambiguous-start"])
    public static let clockJumpBack = FaultKind(
        "clock-jump-back",
        "the user sets the wall clock back by 90 s, 10 min or 1 h",
        platforms: both, rules: ["REC-8", "REC-9", "REC-10", "SNZ-20", "PLATFORMS.md: time change"],
        rate: Ratio(1, 5), unit: .perSeed, exemptions: ["clock-jump-ambiguous-start", "clock-change-unseen"])
    /// SNZ-20, SNZ-21: a clock correction while a snooze runs; a jump drawn over the whole run
    /// almost never lands in a 5–30 min snooze, so this one is timed from the acceptance.
    public static let clockChangeDuringSnooze = FaultKind(
        "clock-change-during-snooze",
        "while an accepted snooze runs, the wall clock is set forward or back by 90 s, 10 min or 1 h (in-run stream faults.snooze-clock)",
        platforms: both, rules: ["SNZ-20", "SNZ-21", "REC-9"],
        rate: Ratio(1, 2), unit: .perSnooze, exemptions: ["snooze-clock-change-unseen", "snooze-rearm-refused", "clock-jump-ambiguous-start"])
    /// SNZ-22, REC-9, OCC-5: a set-back while a trigger's successor (or a walk fuse) is pending
    /// pushes it beyond its bound; on iOS no process may see the change (`clock-change-unseen`)
    /// until the next ready step, which must rebase it. A jump drawn over the whole run almost
    /// never lands in a 10 s successor window (ios swarm seed 10378 was one in 10,000), so this one
    /// is timed from the arm: 1–9 s after the occurrence's first successor or fuse request.
    /// Forced-only: on by default it found two bridge bugs (ios swarm 991, 1834, fixed), left
    /// swarm 1..3000 clean and turned ios uniform 621, 1610, 1865, 2265, 2817 red (open).
    public static let clockSetBackAfterTrigger = FaultKind(
        "clock-set-back-after-trigger",
        "1–9 s after the occurrence's first successor or walk-fuse arm, the user sets the wall clock back by 90 s, 10 min or 1 h (in-run stream faults.trigger-clock; forced-only)",
        platforms: [.ios], rules: ["SNZ-22", "REC-8", "REC-9", "OCC-5"],
        rate: Ratio(1, 10), unit: .perPressureArm, exemptions: ["clock-change-unseen", "clock-jump-ambiguous-start"],
        forcedOnly: true)
    public static let timeZoneChange = FaultKind(
        "time-zone-change",
        "the device lands in another time zone (iOS: the traveller opens the app when skip dates need re-planning)",
        platforms: both, rules: ["REC-8", "PLATFORMS.md: .fixed / .relative, TIMEZONE_CHANGED"],
        rate: Ratio(2, 5), unit: .perSeed, exemptions: ["zone-change-unobserved"])
    public static let dstNightStart = FaultKind(
        "dst-night-start",
        "the run starts in a DST zone 1–6 days before a DST transition, so weekly occurrences cross a DST night",
        platforms: both, rules: ["REC-1", "REC-2"],
        rate: Ratio(1, 2), unit: .perSeed, reshapesWorld: true)
    public static let doze = FaultKind(
        "doze",
        "the phone enters deep doze (refused while the screen is on or charging)",
        platforms: [.android], rules: ["AND-19", "PLATFORMS.md: doze windows, setAlarmClock"],
        rate: Ratio(1, 18), unit: .perHour)
    public static let charging = FaultKind(
        "charging",
        "the charger is connected within the first 2 h for 1–10 h (no doze, no standby quotas)",
        platforms: [.android], rules: ["PLATFORMS.md: standby buckets"],
        rate: Ratio(2, 3), unit: .perSeed)
    public static let silentMode = FaultKind(
        "silent-mode",
        "the ring / silent switch is on for 10 min – 4 h",
        platforms: [.ios], rules: ["IOS-3", "IOS-6", "IOS-8"],
        rate: Ratio(2, 3), unit: .perSeed, exemptions: ["mute-switch"])

    // MARK: - Platform (AlarmKit / AlarmManager)

    public static let exactPermissionRevoke = FaultKind(
        "exact-permission-revoke",
        "the user revokes SCHEDULE_EXACT_ALARM where its app-op governs (API 31/32, or 33+ for an app declaring only it — the swarm draws that manifest; targeting 31+: every exact alarm removed, process killed) and grants it back 5 min – 12 h later (a night with the permission off; on API 34+ a fresh install's default deny is granted then); exempt only until a bridge process runs again, then only the AMS window of the inexact allow-while-idle rings the bridge must keep",
        platforms: [.android], rules: ["AND-1", "AND-3", "PLATFORMS.md: SCHEDULE_EXACT_ALARM (31/32), API 34 default", "flutter_local_notifications#1526, #2248"],
        rate: Ratio(1, 1), unit: .perSeed, exemptions: ["exact-permission-revoked"])
    public static let forceStop = FaultKind(
        "force-stop",
        "Settings → Force stop: every alarm of the app removed, broadcasts blocked until the user opens it [limit]",
        platforms: [.android], rules: ["AND-6", "PLATFORMS.md: force-stop"],
        rate: Ratio(1, 3), unit: .perSeed, exemptions: ["force-stop"])
    public static let oemKiller = FaultKind(
        "oem-killer",
        "an OEM battery optimiser kills the ringing service 10 s – 5 min into a ring",
        platforms: [.android], rules: ["AND-3", "SND-11", "gdelataillade/alarm#82, #430"],
        rate: Ratio(2, 5), unit: .perSeed, exemptions: ["oem-battery-killer"])
    public static let oemDeliveryDelay = FaultKind(
        "oem-delivery-delay",
        "an OEM delays alarm deliveries by up to 1–15 min",
        platforms: [.android], rules: ["AND-19", "gdelataillade/alarm#365, #439"],
        rate: Ratio(2, 5), unit: .perSeed)
    public static let scheduleFailure = FaultKind(
        "schedule-failure",
        "the next 1–3 schedule requests fail (AlarmKit daemon / AlarmManager write error)",
        platforms: both, rules: ["SCH-6", "SCH-7", "SNZ-7", "WALK-15", "CAP-4"],
        rate: Ratio(1, 12), unit: .perHour,
        exemptions: ["arm-failed-no-predecessor", "walk-fuse-arm-failed-keeps-predecessor", "primary-unregistered-by-fault", "locked-boot-restore-faulted"])
    public static let scheduleRequestFailure = FaultKind(
        "schedule-request-failure",
        "any one schedule request fails, so failures land on the requests that matter (a snooze ring, a rotation; in-run stream faults.requests)",
        platforms: both, rules: ["SCH-6", "SCH-7", "SNZ-7", "SNZ-9", "WALK-15", "WALK-18"],
        rate: Ratio(1, 30), unit: .perScheduleRequest,
        exemptions: ["arm-failed-no-predecessor", "walk-fuse-arm-failed-keeps-predecessor", "primary-unregistered-by-fault", "locked-boot-restore-faulted"])
    /// Issue 18 (plus_plugins#1981: an alarm re-armed after a reboot never fires). An app cannot
    /// list AlarmManager's alarms: a FLAG_NO_CREATE probe finds the PendingIntent the app created
    /// either way, so only `getNextAlarmClock()` shows the loss, and only while the dropped ring
    /// is the earliest alarm clock (`BridgeCore.verifyNextAlarmClock`). Exempt until a ready step
    /// could have seen it missing, and T_OP after. On by default since android uniform 19, 441,
    /// 447, 719, 980 were fixed (oracle: verified-saves, missed-day-recorded honour the unseen
    /// drop; bridge: a refused repair is remembered, `BridgeDocument.unheldRingIDs`).
    public static let acceptedRequestDropped = FaultKind(
        "accepted-request-dropped",
        "after a reboot AlarmManager accepts one of the app's first 1–3 requests (no exception) and holds nothing for it: no delivery, absent from getNextAlarmClock(), its PendingIntent still found by FLAG_NO_CREATE probes (in-run stream fault.accepted-request-dropped.run)",
        platforms: [.android], rules: ["AND-3", "SCH-9", "plus_plugins#1981"],
        rate: Ratio(1, 2), unit: .perReboot, exemptions: ["accepted-request-dropped"])
    public static let scheduleAlwaysFails = FaultKind(
        "schedule-always-fails",
        "AlarmKit throws on every schedule call for this app despite authorization",
        platforms: [.ios], rules: ["SCH-26", "nitro-ios-alarm-kit#1"],
        rate: Ratio(1, 50), unit: .perSeed, exemptions: ["alarmkit-schedule-always-fails"])
    public static let capacitySqueeze = FaultKind(
        "capacity-squeeze",
        "AlarmKit's capacity drops to 1–4 alarms for 10 min – 2 h",
        platforms: [.ios], rules: ["CAP-1", "CAP-4", "CAP-5", "CAP-9"],
        rate: Ratio(2, 3), unit: .perSeed, exemptions: ["capacity-dropped-surfaced"])
    public static let coalesceUpdates = FaultKind(
        "coalesce-updates",
        "alarmUpdates coalesces changes that follow each other quickly (the app sees only the last list)",
        platforms: [.ios], rules: ["IOS-5", "PLATFORMS.md: updates"],
        rate: Ratio(1, 1), unit: .perSeed)
    public static let heldUpdatesWhileLocked = FaultKind(
        "held-updates-while-locked",
        "alarmUpdates delivers nothing while the phone is locked, then a burst on wake",
        platforms: [.ios], rules: ["IOS-5", "Apple forums 825427"],
        rate: Ratio(2, 3), unit: .perSeed)
    public static let denseLateDelivery = FaultKind(
        "dense-late-delivery",
        "a dense fan-out of fixed alarms on a locked phone fires up to 4 min late",
        platforms: [.ios], rules: ["SCH-3", "SCH-21", "Apple forums 825427"],
        rate: Ratio(2, 3), unit: .perSeed)
    public static let lateDelivery = FaultKind(
        "late-delivery",
        "the platform delivers an alarm 20 s – 4 min late (iOS: the user sometimes opens the app while it is pending)",
        platforms: both, rules: ["SCH-3", "SCH-21", "AND-19", "AND-14"],
        rate: Ratio(1, 2), unit: .perAlarm)
    public static let osRemovesAlarm = FaultKind(
        "os-removes-alarm",
        "iOS removes one of the app's alarms with no app call",
        platforms: [.ios], rules: ["IOS-2", "IOS-5", "SCH-19", "PLATFORMS.md: updates"],
        rate: Ratio(1, 48), unit: .perHour, exemptions: ["os-removed-alarm", "alert-ended-unobserved-by-os-removal"])
    /// Issue 18: AlarmKit alerts a `.fixed` alarm hours before its instant with the clock correct
    /// (Apple developer forums thread 820388, FB22327481: a `.fixed` 07:30 alarm sometimes fires
    /// at 00:00). The bridge must not take it as the ring time's delivery (ID-8, OCC-2; the rule
    /// is `BridgeCore.isWrongInstantDelivery`), and the real ring time must still ring.
    public static let wrongInstantAlert = FaultKind(
        "wrong-instant-alert",
        "at a local midnight AlarmKit alerts the app's soonest `.fixed` alarm due 4–24 h later, with the clock correct (a Stop deletes the one-shot)",
        platforms: [.ios], rules: ["ID-8", "OCC-2", "IOS-2", "Apple forums 820388 (FB22327481)"],
        rate: Ratio(1, 2), unit: .perSeed, exemptions: ["wrong-instant-alert-ambiguous"])
    /// Issue 18: an alert that reads `alerting` but plays no sound and shows no UI, and leaves the
    /// list when AlarmKit ends it, with no Stop (OpenMinis#115, iOS 26.1; Silent mode off). The
    /// bridge sees only the state: an alert that ended without a Stop is handed on to a successor
    /// like any observed alert end (IOS-7, OCC-5, OCC-6); the silence itself is exempt by name.
    /// A set showing the ghost alerting that waited behind a look-first read still tells the
    /// bridge the alert happened (IOS-5, OCC-2); one held for a suspended process that died shows
    /// nothing. A wrong-instant ghost takes its `.fixed` ring off the list: an OS removal.
    /// Forced-only until the correct bridge is clean under it. Fixed on branch ios2: ios swarm
    /// 338, 487, 1198, 1841, 2648, 2841 (default-on draws) and, forced on, 1134, 1362, 1470,
    /// 1652, 1709, 1868, 2070, 2533, 2741; default-on ios swarm 1..3000 measured clean. Open,
    /// forced on (`--faults ghost-alert`, swarm 1..3000): 141 (pressure-belongs-to-owner: sets
    /// held across a time-zone change re-plan a relative one-shot before its stale alert is read).
    public static let ghostAlert = FaultKind(
        "ghost-alert",
        "the next alert reads alerting with no sound or UI and AlarmKit ends it 1–5 min later with no Stop (a one-shot leaves the list; forced-only)",
        platforms: [.ios], rules: ["IOS-7", "OCC-5", "OCC-6", "IOS-5", "OpenMinis#115"],
        rate: Ratio(1, 4), unit: .perAlarm, exemptions: ["ghost-alert", "ghost-alert-ended", "alert-ended-unobserved-by-ghost-alert", "sound-sequence-muted-ring",
                                                       "os-removed-alarm"],
        forcedOnly: true)
    /// Issue 18: a restart installs an OS update that empties the app's AlarmKit inventory (Apple
    /// developer forums thread 809398: alarms made under 26.1 stopped ringing after the update).
    /// Nothing tells the app; the next launch's sync must see the rings missing and add them back
    /// (IOS-2, IOS-5, SCH-19, SCH-24), and the liveness phase demands it.
    public static let osUpdateClearsAlarms = FaultKind(
        "os-update-clears-alarms",
        "a restart installs an OS update that empties the app's AlarmKit inventory (no app call, nothing reported)",
        platforms: [.ios], rules: ["IOS-2", "IOS-5", "SCH-19", "SCH-24", "BOOT-1", "Apple forums 809398"],
        rate: Ratio(1, 3), unit: .perReboot, exemptions: ["os-removed-alarm"])
    public static let inventoryReadFailure = FaultKind(
        "inventory-read-failure",
        "the next read of the daemon inventory (AlarmKit alarms / the AlarmManager store) fails",
        platforms: both, rules: ["SCH-16", "BOOT-2", "invariant 25"],
        rate: Ratio(1, 20), unit: .perHour, exemptions: ["locked-boot-restore-faulted"])

    /// Issue 16 part 4: the reason SCH-9 allows three verification reads 100 ms apart.
    public static let readAfterWriteLag = FaultKind(
        "read-after-write-lag",
        "AlarmKit reads list a newly scheduled alarm only 0–120 or 0–180 ms after its schedule call returned (in-run stream ios.daemon.read-lag)",
        platforms: [.ios], rules: ["SCH-9", "SCH-16", "API-19"],
        rate: Ratio(1, 2), unit: .perSeed)
    /// Seed 004's "the saved domain cannot be read yet" after the unlock (BOOT-5): the gate holds
    /// waiting for the saved domain. Activity the user makes meanwhile (steps) is queued and
    /// credited when the bridge is ready to validate it, as the oracle now judges it (candidate
    /// invariant 16; ios uniform seed 3345 was the oracle crediting it before). On by default at
    /// a rare fault's rate (1/10 per seed): ios uniform seed 9815, red when it was switched on at
    /// 1/2, was a bridge bug (SCH-9, OCC-5: a ring missing from a read within AlarmKit's listing
    /// lag was taken as removed by the OS).
    public static let damagedStore = FaultKind(
        "damaged-store",
        "the saved alarm domain is damaged: the next launch's read of it, and every read for 2–60 s after, fails although protected data is available",
        platforms: [.ios], rules: ["BOOT-5", "BOOT-2", "BOOT-7", "seed 004"],
        rate: Ratio(1, 10), unit: .perSeed)
    /// Issue 16 part 4 item 1: a process death between the commands of the step that closes an
    /// occurrence or hands it on. The next launch must recover from what was persisted and what
    /// the platform holds: the successor armed exactly once, no closed occurrence resurrected
    /// (OCC-5..7, SNZ-15, IOS-11, INACT-13). Forced-only until the correct bridge is clean under
    /// it (an earlier attempt on by default turned ~11 CI seeds red).
    public static let deathMidClose = FaultKind(
        "death-mid-close",
        "the process dies after k of the n commands of a step that closes an occurrence or hands it on (a Stop or dismissal with its successor arm, an expiry, an abandonment, a completion, a snooze skip; in-run stream faults.death-mid-close; forced-only)",
        platforms: both, rules: ["OCC-5", "OCC-6", "OCC-7", "SNZ-15", "IOS-11", "INACT-13"],
        rate: Ratio(1, 4), unit: .perClosingStep, exemptions: ["process-death"], forcedOnly: true)
    /// Issue 16 part 4: `getScheduledAlarmTimes`'s repair (AND-5) matters when the foreground
    /// sync's repair writes failed. On by default (android uniform seed 3844, red when it was
    /// first switched on, was a bridge bug of the exact-alarm grant, AND-3).
    public static let foregroundRepairFailure = FaultKind(
        "foreground-repair-failure",
        "the first 1–3 schedule requests of the syncs that run when the app comes to the foreground (launch, resume) fail, so the next getScheduledAlarmTimes repairs them",
        platforms: [.android], rules: ["AND-5", "AND-6", "SCH-16"],
        rate: Ratio(1, 2), unit: .perSeed)

    // MARK: - Sound, walk, network

    /// Issue 18 (BlackyHawky/Clock#292, #322, GrapheneOS#6622): the user's custom ringtones are
    /// files in credential-encrypted storage, unreadable before the first unlock after a boot; the
    /// player then stays silent with no error. The ringing service must fall back to the system
    /// alarm sound in locked boot (SND-9; `BridgeCore.fallBackFromCredentialSound`).
    public static let credentialStoredSound = FaultKind(
        "credential-stored-sound",
        "some of the app's sounds (each bundled sound name with chance 1/2, at least one) are files in credential-encrypted storage: before the first unlock after a boot the player cannot open them and stays silent, reporting no error",
        platforms: [.android], rules: ["SND-9", "SND-10", "AND-2", "BlackyHawky/Clock#292, #322", "GrapheneOS#6622"],
        rate: Ratio(1, 2), unit: .perSeed)
    public static let audioFocusLoss = FaultKind(
        "audio-focus-loss",
        "while an alarm rings another app takes audio focus or a call starts, for 30 s – 5 min",
        platforms: [.android], rules: ["INACT-5", "PLATFORMS.md: audio focus", "AlarmClock#198"],
        rate: Ratio(1, 2), unit: .perSeed, exemptions: ["audio-focus-loss", "in-call"])
    public static let playbackFailure = FaultKind(
        "playback-failure",
        "the ring's sound fails: Android's player fails 2 s into a ring; iOS plays an error tone for custom sounds",
        platforms: both, rules: ["SND-9", "Apple forums 802620"],
        rate: Ratio(1, 4), unit: .perSeed)
    public static let workoutLoss = FaultKind(
        "workout-loss",
        "HealthKit ends the walk's workout session on its own (in-run stream fault.workout-loss.run)",
        platforms: [.ios], rules: ["WALK-21", "WALK-23"],
        rate: Ratio(1, 4), unit: .perWalk)
    public static let healthAccessRevoked = FaultKind(
        "health-access-revoked",
        "the user revokes Health access for workouts in Settings (seeds with walk alarms)",
        platforms: [.ios], rules: ["WALK-4"],
        rate: Ratio(1, 4), unit: .perSeed)
    public static let killSwitchNetworkFailure = FaultKind(
        "kill-switch-network-failure",
        "a kill-switch check meets a timeout, a network failure or an unreadable body (in-run stream net.kill-switch)",
        platforms: both, rules: ["BOOT-12", "invariant 39"],
        rate: Ratio(1, 2), unit: .perKillSwitchCheck)

    /// Every kind, in catalog order.
    public static let all: [FaultKind] = [
        processDeathInterleaving, processDeath, forceQuit, walkForceQuit, appUpdate, reinstall, appStateWriteFailure,
        legacyInstall, reboot, lateReboot, lockedBootLength, clockJumpForward, clockJumpBack, clockChangeDuringSnooze, clockSetBackAfterTrigger, timeZoneChange, dstNightStart, doze,
        charging, silentMode, exactPermissionRevoke, forceStop, oemKiller, oemDeliveryDelay, scheduleFailure,
        scheduleRequestFailure, acceptedRequestDropped, scheduleAlwaysFails, capacitySqueeze, coalesceUpdates, heldUpdatesWhileLocked,
        denseLateDelivery, lateDelivery, osRemovesAlarm, wrongInstantAlert, ghostAlert, osUpdateClearsAlarms,
        inventoryReadFailure, readAfterWriteLag, damagedStore,
        deathMidClose, foregroundRepairFailure, audioFocusLoss, playbackFailure, credentialStoredSound,
        workoutLoss, healthAccessRevoked, killSwitchNetworkFailure,
    ]

    /// The kind called `name`, if any.
    public static func kind(named name: String) -> FaultKind? {
        all.first { $0.name == name }
    }
}

/// Which fault profile a run draws its faults from (`--profile`).
public enum FaultProfile: String, Sendable, CaseIterable, Codable {
    /// Per seed, each applicable kind is switched on with its ``FaultKind/swarmChance`` and, when
    /// on, its rate is drawn from half, once or twice the catalog rate. The default.
    case swarm
    /// Every applicable kind on at its catalog rate, every seed.
    case uniform
    /// No faults at all: a happy-path baseline (the sleepy user still acts).
    case none
}

/// A usage mistake in `--profile` or `--faults`, with what to write instead.
public struct FaultSelectionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The faults a run asks for: a profile plus kinds forced on or off on top of it (`--profile`,
/// `--faults a,b,-c`). Part of a run's identity: a repro line carries the non-default parts.
public struct FaultSelection: Sendable, Equatable, CustomStringConvertible {
    public var profile: FaultProfile
    /// Kind names forced on wherever they apply, sorted, de-duplicated.
    public var forcedOn: [String]
    /// Kind names forced off, sorted, de-duplicated.
    public var forcedOff: [String]

    /// The default: the swarm profile, nothing forced.
    public static let swarm = FaultSelection(profile: .swarm)

    public init(profile: FaultProfile, forcedOn: [String] = [], forcedOff: [String] = []) {
        self.profile = profile
        self.forcedOn = Array(Set(forcedOn)).sorted()
        self.forcedOff = Array(Set(forcedOff)).sorted()
    }

    /// Parses `--profile` and the `--faults` values.
    ///
    /// - Parameter profile: `swarm`, `uniform` or `none`; nil means `swarm`.
    /// - Parameter faults: Each a comma-separated list of kind names, `-name` forcing a kind off.
    /// - Throws: ``FaultSelectionError`` naming an unknown profile or kind (listing the valid
    ///   names), an empty item, or a kind forced both on and off.
    public static func parse(profile: String?, faults: [String]) throws(FaultSelectionError) -> FaultSelection {
        var selection = FaultSelection.swarm
        if let profile {
            guard let parsed = FaultProfile(rawValue: profile) else {
                throw FaultSelectionError(message: "unknown fault profile '\(profile)'\(Suggestion.hint(for: profile, among: FaultProfile.allCases.map { $0.rawValue })); use --profile swarm, uniform or none")
            }
            selection.profile = parsed
        }
        var on: [String] = []
        var off: [String] = []
        for list in faults {
            for item in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                let forcedOff = item.hasPrefix("-")
                let name = forcedOff ? String(item.dropFirst()) : item
                guard !name.isEmpty else {
                    throw FaultSelectionError(message: "empty fault name in --faults '\(list)'; write --faults a,b,-c with names from 'alarmsim list faults'")
                }
                guard FaultCatalog.kind(named: name) != nil else {
                    let names = FaultCatalog.all.map(\.name).joined(separator: ", ")
                    throw FaultSelectionError(message: "unknown fault '\(name)'\(Suggestion.hint(for: name, among: FaultCatalog.all.map { $0.name })); the fault kinds are \(names) (see 'alarmsim list faults')")
                }
                if forcedOff { off.append(name) } else { on.append(name) }
            }
        }
        if let both = on.first(where: { off.contains($0) }) {
            throw FaultSelectionError(message: "fault '\(both)' is forced both on and off; keep one of '\(both)' and '-\(both)'")
        }
        selection.forcedOn = Array(Set(on)).sorted()
        selection.forcedOff = Array(Set(off)).sorted()
        return selection
    }

    /// The non-default options, as a repro line carries them: empty for ``swarm``.
    public var commandLineArguments: [String] {
        var words: [String] = []
        if profile != .swarm { words += ["--profile", profile.rawValue] }
        let items = forcedOn + forcedOff.map { "-" + $0 }
        if !items.isEmpty { words += ["--faults", items.joined(separator: ",")] }
        return words
    }

    /// `swarm`, or e.g. `uniform +doze -reboot`.
    public var description: String {
        ([profile.rawValue] + forcedOn.map { "+" + $0 } + forcedOff.map { "-" + $0 }).joined(separator: " ")
    }

    /// Kind names forced on that apply to none of `platforms` (a usage error when the user named
    /// the platform explicitly).
    public func forcedOnInapplicable(to platforms: [PlatformFlavor]) -> [String] {
        forcedOn.filter { name in
            guard let kind = FaultCatalog.kind(named: name) else { return true }
            return !kind.platforms.contains { platforms.contains($0) }
        }
    }
}

/// The faults one seed runs with: every catalog kind off, or on at a rate. Drawn by
/// ``SeedFaults/draw(selection:platform:streams:applicable:)``.
public struct SeedFaults: Sendable, Equatable {
    /// The kinds switched on, in catalog order, with their rate (in the kind's unit).
    public private(set) var on: [(kind: FaultKind, rate: Ratio)]

    public static func == (lhs: SeedFaults, rhs: SeedFaults) -> Bool {
        lhs.on.map(\.kind.name) == rhs.on.map(\.kind.name) && lhs.on.map(\.rate) == rhs.on.map(\.rate)
    }

    /// Draws every kind's switch and rate from its own stream `fault.<name>`: one coin (its
    /// swarm chance) and one rate index, always both, whatever the profile, so a kind's draws do
    /// not depend on any other kind or on the selection.
    ///
    /// - Parameter applicable: Whether the kind's model exists on this seed's device (platform,
    ///   API level, walk alarms); a kind that is not applicable stays off even when forced on.
    public static func draw(selection: FaultSelection, platform: PlatformFlavor, streams: RandomStreams,
                            applicable: (FaultKind) -> Bool) -> SeedFaults {
        var faults = SeedFaults(on: [])
        for kind in FaultCatalog.all {
            if let rate = decide(kind, selection: selection, platform: platform, streams: streams, applicable: applicable(kind)) {
                faults.on.append((kind, rate))
            }
        }
        assert(faults.on.allSatisfy { $0.kind.platforms.contains(platform) }, "a kind on for a platform it lacks")
        return faults
    }

    /// One kind's switch and rate: a pure function of (selection, platform, seed, kind), so a
    /// kind needed before the rest of the world is drawn (`dst-night-start`) can be decided early.
    ///
    /// - Returns: The rate in the kind's unit, or nil when the kind is off.
    static func decide(_ kind: FaultKind, selection: FaultSelection, platform: PlatformFlavor, streams: RandomStreams,
                       applicable: Bool) -> Ratio? {
        var rng = streams.stream("fault." + kind.name)
        let coin = rng.chance(kind.swarmChance)
        let swarmRate = kind.swarmRate(rng.uniform(below: 3))
        guard kind.platforms.contains(platform), applicable, !selection.forcedOff.contains(kind.name) else { return nil }
        let forced = selection.forcedOn.contains(kind.name)
        if kind.forcedOnly && !forced { return nil }
        switch selection.profile {
        case .swarm: return coin || forced ? swarmRate : nil
        case .uniform: return kind.rate
        case .none: return forced ? kind.rate : nil
        }
    }

    /// The kind's rate on this seed, nil when it is off.
    public func rate(_ kind: FaultKind) -> Ratio? {
        on.first { $0.kind.name == kind.name }?.rate
    }

    /// Whether the kind is on for this seed.
    public func isOn(_ kind: FaultKind) -> Bool { rate(kind) != nil }

    /// `name=rate` for every kind on, comma-separated, or `none`.
    public var description: String {
        on.isEmpty ? "none" : on.map { "\($0.kind.name)=\($0.rate)" }.joined(separator: ",")
    }
}

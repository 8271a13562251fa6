import AlarmBridge

/// A reachability probe ("sometimes" assertion, like Antithesis's `sometimes` or FoundationDB's
/// code probes): a rule-relevant state or transition that a campaign should reach. Invariants say
/// what must never happen; marks say that the interesting situations did happen, so a checker
/// that never fires is not mistaken for a bridge that never fails.
///
/// Each mark is counted at the exact point the world sees the state or transition happen — a
/// bridge reply, command or document change in the step that produced it (World.swift's `step`),
/// or a platform model event (World+Coverage.swift) — never reconstructed afterwards.
///
/// The order of the cases is the catalog's stable order: the raw value is the index into
/// ``CoverageCounts/hits``; add new marks at the end of their group and never reuse a name.
public enum CoverageMark: Int, CaseIterable, Sendable, Comparable {
    // One-time snooze
    case snoozeAccepted
    case snoozeRefusedLatchSpent
    case snoozeRefusedOutsideWindow
    case snoozeSkipped
    case snoozeClockCorrected
    // Walk fuse (iOS)
    case walkCheckStarted
    case walkFuseArmed
    case walkFuseRotated
    // Occurrence lifecycle
    case successorArmed
    case successorReused
    case challengeCompleted
    case occurrenceAbandoned
    case passOver
    case missReceiptWritten
    // Capacity
    case capacityLimitHit
    case capacitySeedReclaimed
    case droppedCountRaised
    case nextOccurrenceSeedArmed
    // Launch, boot, migration
    case lockedBootRestore
    case alertBeforeFirstUnlock
    case protectedDataUnavailableAtLaunch
    case legacyMigrationDone
    case credentialStoreMoved
    case killSwitchFailOpen
    case receiptWritten
    case receiptReadAfterReinstall
    case packageReplaced
    // Recurrence, clock, zone
    case dstNightWeeklyAlarm
    case timeZoneChangeObserved
    case clockCorrectionObserved
    case skipDateOccurrenceRolled
    // Scheduling, saves, snapshots
    case saveVerified
    case saveFailedRolledBack
    case scheduledTimesAnswered
    case scheduledTimesRejected
    case inventoryReadFailed
    case syncDeferred
    case processDeathMidRequest
    // Platform faults
    case lateDelivery
    case coalescedUpdate
    case osRemovedAlarm
    case exactPermissionRevokedWithAlarms
    case forceStop
    case dozeIdleWithAlarmsPending
    case audioFocusLossWhileRinging
    case systemSoundFallback
    // Android wake path
    case stepSuppressionPostponed
    case volumeDismissal
    case startWakeUpCheck
    case queuedPassOverReleased
    // Foreground
    case foregroundSilenced
    case contextLapsed
    case watchdogBurst
    case burstPlaybackBegan
    case actionAcknowledged
    // Added after the first measurement (issue 7, part 4)
    case androidDeliveredLate
    // Issue 16 part 3: the action journal check sees every recorded action (iOS too)
    case actionJournalChecked
    // Added for issue 16 part 4: situations the fuzzer never produced
    case readAfterWriteLag
    case damagedStoreWithDaemonAlarms
    case scheduledTimesRepairAfterFailedSync
    case deathMidClose
    // Issue 18 part 1: the field's Android faults
    case exactDeniedByDefault
    case exactRevokedOnAPI33Plus
    case credentialSoundFallbackBeforeUnlock
    case droppedRequestRepairable
    // Issue 18: iOS field faults
    case wrongInstantAlert
    case ghostAlert
    case ghostAlertEnded
    case osUpdateClearedAlarms

    public static func < (lhs: CoverageMark, rhs: CoverageMark) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The catalog entry: name, what it means, rules, platforms, and whether it is listed.
    public struct Info: Sendable, Equatable {
        /// Stable kebab-case name, e.g. `snooze-accepted`.
        public var name: String
        /// One sentence: the state or transition, and where it is counted.
        public var summary: String
        /// The RULES.md IDs whose checks this mark shows were exercised.
        public var rules: [String]
        /// Platforms where the state or transition exists.
        public var platforms: [PlatformFlavor]
    }

    /// Why this mark is left out of the coverage check (`alarmsim coverage`'s exit status and the
    /// CI test), or nil for a listed mark, which the default campaign (both platforms, seeds
    /// 1..1000) must reach on each of its platforms. A mark the generator cannot reach is either
    /// reached by a generator change (in its own named PRNG stream) or unlisted here with the
    /// reason. Today every mark is reached (Reports/coverage.md), so none is unlisted; the
    /// measured gaps were fixed in the catalog instead: an alarm clock delivered in
    /// deep doze does not exist (AMS ends idle before the next alarm clock, FLAG_WAKE_FROM_IDLE),
    /// so Android counts `doze-idle-with-alarms-pending` and `android-delivered-late` instead.
    public var unlistedReason: String? {
        switch self {
        case .deathMidClose:
            return "fault death-mid-close is forced-only (--faults death-mid-close) until the correct bridge is clean under it (Reports/clean-bridge.md)"
        case .ghostAlert, .ghostAlertEnded:
            return "fault ghost-alert is forced-only (--faults ghost-alert) until the correct bridge is clean under it (issue 18; open seeds in FaultCatalog.ghostAlert)"
        default: return nil
        }
    }

    /// True when the default campaign must reach this mark on each of its platforms.
    public var isListed: Bool { unlistedReason == nil }

    /// The stable kebab-case name.
    public var name: String { info.name }

    /// The mark whose ``name`` is `name`, if any.
    public init?(name: String) {
        guard let mark = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = mark
    }

    public var info: Info {
        let both: [PlatformFlavor] = [.ios, .android]
        switch self {
        case .snoozeAccepted:
            return Info(name: "snooze-accepted", summary: "beginOneTimeSnooze resolved with an accepted deadline (reply snoozeAccepted)",
                        rules: ["SNZ-1", "SNZ-4", "API-14"], platforms: both)
        case .snoozeRefusedLatchSpent:
            return Info(name: "snooze-refused-latch-spent", summary: "a second snooze for one occurrence was refused: the latch is spent (second tap)",
                        rules: ["SNZ-4", "SNZ-5"], platforms: both)
        case .snoozeRefusedOutsideWindow:
            return Info(name: "snooze-refused-outside-window", summary: "a snooze deadline under MIN_SNOOZE_LEAD or over 30 min was refused",
                        rules: ["SNZ-3"], platforms: both)
        case .snoozeSkipped:
            return Info(name: "snooze-skipped", summary: "skipOneTimeSnooze ended a running snooze (reply snoozeSkipped)",
                        rules: ["SNZ-15", "API-15"], platforms: both)
        case .snoozeClockCorrected:
            return Info(name: "snooze-clock-corrected", summary: "a ready bridge step ran after a wall-clock correction while a snooze ring was pending (it must rebase it)",
                        rules: ["SNZ-20", "SNZ-21"], platforms: both)
        case .walkCheckStarted:
            return Info(name: "walk-check-started", summary: "startWalkCheck reported the walk started after HealthKit confirmed session and collection",
                        rules: ["WALK-3", "WALK-4"], platforms: [.ios])
        case .walkFuseArmed:
            return Info(name: "walk-fuse-armed", summary: "the bridge requested a walk fuse (provisional or steady)",
                        rules: ["WALK-8", "WALK-11"], platforms: [.ios])
        case .walkFuseRotated:
            return Info(name: "walk-fuse-rotated", summary: "a walk fuse was requested while the root already had one: a rotation",
                        rules: ["WALK-15", "WALK-16"], platforms: [.ios])
        case .successorArmed:
            return Info(name: "successor-armed", summary: "the bridge requested an ordinary successor 10 s after a trigger",
                        rules: ["OCC-5", "OCC-6"], platforms: both)
        case .successorReused:
            return Info(name: "successor-reused", summary: "a concurrent trigger reused the pending successor instead of arming another",
                        rules: ["OCC-7"], platforms: both)
        case .challengeCompleted:
            return Info(name: "challenge-completed", summary: "completeChallenge was accepted for the live owner",
                        rules: ["OCC-12", "OCC-13"], platforms: both)
        case .occurrenceAbandoned:
            return Info(name: "occurrence-abandoned", summary: "abandonWakeOccurrence retired the live occurrence",
                        rules: ["OCC-18", "API-12"], platforms: both)
        case .passOver:
            return Info(name: "pass-over", summary: "a root became due while another root owned the live occurrence and was passed over",
                        rules: ["OCC-3", "SND-13"], platforms: both)
        case .missReceiptWritten:
            return Info(name: "miss-receipt-written", summary: "an inactivity expiry wrote a miss receipt to the abandoned-occurrence journal",
                        rules: ["INACT-16", "INACT-18", "API-20"], platforms: both)
        case .capacityLimitHit:
            return Info(name: "capacity-limit-hit", summary: "AlarmKit refused a schedule with maximumLimitReached and the bridge handled it",
                        rules: ["CAP-1", "CAP-4"], platforms: [.ios])
        case .capacitySeedReclaimed:
            return Info(name: "capacity-seed-reclaimed", summary: "a primary refused at the limit reclaimed a later seed and was retried once",
                        rules: ["CAP-4", "CAP-5"], platforms: [.ios])
        case .droppedCountRaised:
            return Info(name: "dropped-count-raised", summary: "the surfaced dropped-alarm count went up (a bound or the limit kept a wanted alarm out)",
                        rules: ["CAP-9", "CAP-8"], platforms: [.ios])
        case .nextOccurrenceSeedArmed:
            return Info(name: "next-occurrence-seed-armed", summary: "the bridge requested a next-occurrence seed for a repeating root",
                        rules: ["REC-5", "REC-7", "CAP-3"], platforms: [.ios])
        case .lockedBootRestore:
            return Info(name: "locked-boot-restore", summary: "the bridge handled LOCKED_BOOT_COMPLETED from device-protected storage",
                        rules: ["AND-2", "AND-3"], platforms: [.android])
        case .alertBeforeFirstUnlock:
            return Info(name: "alert-before-first-unlock", summary: "a ring alerted after a reboot, before the first unlock",
                        rules: ["BOOT-1", "BOOT-2", "AND-2"], platforms: both)
        case .protectedDataUnavailableAtLaunch:
            return Info(name: "protected-data-unavailable-at-launch", summary: "a launching process found the protected store unreadable",
                        rules: ["BOOT-1", "BOOT-2", "BOOT-4"], platforms: [.ios])
        case .legacyMigrationDone:
            return Info(name: "legacy-migration-done", summary: "a step migrated an older version's document",
                        rules: ["BOOT-9", "BOOT-10", "BOOT-11"], platforms: both)
        case .credentialStoreMoved:
            return Info(name: "credential-store-moved", summary: "state found in credential-protected storage was moved and the old copy deleted",
                        rules: ["AND-4"], platforms: [.android])
        case .killSwitchFailOpen:
            return Info(name: "kill-switch-fail-open", summary: "a timed-out, failed or unreadable kill-switch check left scheduling enabled",
                        rules: ["BOOT-12"], platforms: both)
        case .receiptWritten:
            return Info(name: "receipt-written", summary: "a device-only Keychain receipt for an unfinished occurrence was written",
                        rules: ["IOS-9"], platforms: [.ios])
        case .receiptReadAfterReinstall:
            return Info(name: "receipt-read-after-reinstall", summary: "a fresh install found a surviving receipt and wrote the failed wake day",
                        rules: ["IOS-10"], platforms: [.ios])
        case .packageReplaced:
            return Info(name: "package-replaced", summary: "the bridge handled MY_PACKAGE_REPLACED after an app update",
                        rules: ["AND-3", "BOOT-9"], platforms: [.android])
        case .dstNightWeeklyAlarm:
            return Info(name: "dst-night-weekly-alarm", summary: "a weekly primary alerted in the first week after a DST transition",
                        rules: ["REC-1", "REC-2"], platforms: both)
        case .timeZoneChangeObserved:
            return Info(name: "time-zone-change-observed", summary: "a running bridge adopted a new device time zone",
                        rules: ["REC-8", "SCH-18"], platforms: both)
        case .clockCorrectionObserved:
            return Info(name: "clock-correction-observed", summary: "a running bridge applied a manual wall-clock correction",
                        rules: ["REC-9", "REC-10"], platforms: both)
        case .skipDateOccurrenceRolled:
            return Info(name: "skip-date-occurrence-rolled", summary: "a delivered concrete skip-date occurrence rolled its primary and seed",
                        rules: ["REC-4", "REC-6"], platforms: [.ios])
        case .saveVerified:
            return Info(name: "save-verified", summary: "a direct save resolved after verification found the exact primary",
                        rules: ["SCH-9", "API-19"], platforms: both)
        case .saveFailedRolledBack:
            return Info(name: "save-failed-rolled-back", summary: "a direct save rejected with the previous schedule intact",
                        rules: ["SCH-10", "API-19"], platforms: both)
        case .scheduledTimesAnswered:
            return Info(name: "scheduled-times-answered", summary: "getScheduledAlarmTimes resolved with a locked snapshot",
                        rules: ["SCH-13", "SCH-14", "API-10"], platforms: both)
        case .scheduledTimesRejected:
            return Info(name: "scheduled-times-rejected", summary: "getScheduledAlarmTimes rejected because a read failed",
                        rules: ["SCH-16", "API-10"], platforms: both)
        case .inventoryReadFailed:
            return Info(name: "inventory-read-failed", summary: "the bridge received a failed platform inventory read",
                        rules: ["SCH-16", "BOOT-2"], platforms: both)
        case .syncDeferred:
            return Info(name: "sync-deferred", summary: "a sync was deferred for an alerting family, an imminent fire or a save in progress",
                        rules: ["SCH-21", "SCH-22", "SCH-23"], platforms: both)
        case .processDeathMidRequest:
            return Info(name: "process-death-mid-request", summary: "a platform completion arrived for a process that died after issuing the request",
                        rules: ["SCH-6", "SCH-10", "ID-6"], platforms: both)
        case .lateDelivery:
            // iOS: the daemon's per-ring fire event is held; Android: the model holds the alarm
            // the kernel wakeup would deliver first, setAlarmClock included (issue 16 part 4).
            return Info(name: "late-delivery", summary: "the platform delivered a held ring late (injected, or AlarmKit's dense-fixed fault) and the world released it",
                        rules: ["SCH-3", "SCH-21"], platforms: both)
        case .coalescedUpdate:
            return Info(name: "coalesced-update", summary: "AlarmKit coalesced changes into one later alarmUpdates snapshot",
                        rules: ["IOS-5", "IOS-14"], platforms: [.ios])
        case .osRemovedAlarm:
            return Info(name: "os-removed-alarm", summary: "iOS removed one of the app's alarms with no app call",
                        rules: ["IOS-2", "IOS-14"], platforms: [.ios])
        case .exactPermissionRevokedWithAlarms:
            return Info(name: "exact-permission-revoked-with-alarms", summary: "the exact-alarm permission was revoked while alarms were pending",
                        rules: ["AND-1", "AND-3"], platforms: [.android])
        case .forceStop:
            return Info(name: "force-stop", summary: "Settings → Force stop removed the app's alarms and process",
                        rules: ["AND-5", "AND-6"], platforms: [.android])
        case .dozeIdleWithAlarmsPending:
            return Info(name: "doze-idle-with-alarms-pending", summary: "the device entered deep doze while the app had alarms pending",
                        rules: ["AND-19"], platforms: [.android])
        case .audioFocusLossWhileRinging:
            return Info(name: "audio-focus-loss-while-ringing", summary: "the ringing service lost audio focus (another app, a call) while a ring sounded",
                        rules: ["SND-11", "SND-12"], platforms: [.android])
        case .systemSoundFallback:
            return Info(name: "system-sound-fallback", summary: "a custom sound failed and the bridge fell back to the system alarm sound",
                        rules: ["SND-9", "SND-10"], platforms: [.android])
        case .stepSuppressionPostponed:
            return Info(name: "step-suppression-postponed", summary: "recent steps postponed a retry and a durable retry was armed",
                        rules: ["AND-16", "AND-17"], platforms: [.android])
        case .volumeDismissal:
            return Info(name: "volume-dismissal", summary: "a volume key or lowered alarm volume dismissed a ring",
                        rules: ["INACT-6"], platforms: [.android])
        case .startWakeUpCheck:
            return Info(name: "start-wake-up-check", summary: "the user chose Start wake-up check on the ringing alarm's screen",
                        rules: ["AND-11", "OCC-23"], platforms: [.android])
        case .queuedPassOverReleased:
            return Info(name: "queued-pass-over-released", summary: "a queued pass-over was released without sound once its owner closed",
                        rules: ["AND-15", "OCC-3"], platforms: [.android])
        case .foregroundSilenced:
            return Info(name: "foreground-silenced", summary: "an ordinary wake ring alerting while Ember is active was stopped",
                        rules: ["FG-1", "FG-2"], platforms: both)
        case .contextLapsed:
            return Info(name: "context-lapsed", summary: "a foreground context that claimed the challenge visible lapsed (no heartbeat)",
                        rules: ["FG-11"], platforms: both)
        case .watchdogBurst:
            return Info(name: "watchdog-burst", summary: "the foreground watchdog fired with JS stalled and started a native burst",
                        rules: ["FG-14", "FG-15"], platforms: both)
        case .burstPlaybackBegan:
            return Info(name: "burst-playback-began", summary: "an in-app wake-check burst's native playback began",
                        rules: ["FG-17", "API-4"], platforms: both)
        case .actionAcknowledged:
            return Info(name: "action-acknowledged", summary: "an exact-triple acknowledgement removed a journalled platform action",
                        rules: ["ACT-4", "ACT-5", "API-8"], platforms: both)
        case .androidDeliveredLate:
            return Info(name: "android-delivered-late", summary: "AlarmManager delivered an alarm more than 1 s after it was due",
                        rules: ["AND-19", "AND-14"], platforms: [.android])
        case .actionJournalChecked:
            return Info(name: "action-journal-checked", summary: "an action the bridge recorded in its journal (a Stop, a dismissal) entered the action-journal check, matched by its identity",
                        rules: ["ACT-1", "ACT-3", "ACT-4", "API-7", "API-8"], platforms: both)
        case .readAfterWriteLag:
            return Info(name: "read-after-write-lag", summary: "an AlarmKit read did not yet list an alarm whose schedule call had just returned",
                        rules: ["SCH-9", "SCH-16"], platforms: [.ios])
        case .damagedStoreWithDaemonAlarms:
            return Info(name: "damaged-store-with-daemon-alarms", summary: "a launch read a saved alarm domain that exists but cannot be read (a damaged store, protected data available) while AlarmKit held alarms",
                        rules: ["BOOT-5", "BOOT-2", "BOOT-7"], platforms: [.ios])
        case .scheduledTimesRepairAfterFailedSync:
            return Info(name: "scheduled-times-repair-after-failed-sync", summary: "getScheduledAlarmTimes's repair requested a ring whose write the foreground sync before it had failed",
                        rules: ["AND-5", "AND-6"], platforms: [.android])
        case .exactDeniedByDefault:
            return Info(name: "exact-denied-by-default", summary: "setAlarmClock threw SecurityException on API 34+ because SCHEDULE_EXACT_ALARM was denied by default (a fresh install of an app declaring only it; no revocation; flutter_local_notifications#2248)",
                        rules: ["AND-1", "AND-3"], platforms: [.android])
        case .exactRevokedOnAPI33Plus:
            return Info(name: "exact-permission-revoked-api-33-plus", summary: "the user revoked SCHEDULE_EXACT_ALARM on API 33+ (an app declaring only it) while alarms were pending (flutter_local_notifications#1526)",
                        rules: ["AND-1", "AND-3"], platforms: [.android])
        case .credentialSoundFallbackBeforeUnlock:
            return Info(name: "credential-sound-fallback-before-unlock", summary: "a ring whose sound is kept in credential-encrypted storage rang before the first unlock and the ringing service played the system alarm sound (BlackyHawky/Clock#292, GrapheneOS#6622)",
                        rules: ["SND-9", "SND-10"], platforms: [.android])
        case .droppedRequestRepairable:
            return Info(name: "accepted-request-dropped-exposed", summary: "a ready bridge step that reads getNextAlarmClock() ran while a request AlarmManager had accepted and dropped was the earliest alarm clock the app should hold (fault accepted-request-dropped; plus_plugins#1981)",
                        rules: ["AND-3", "SCH-9"], platforms: [.android])
        case .deathMidClose:
            return Info(name: "death-mid-close", summary: "the process died between the commands of a step that closed an occurrence or handed it on (fault death-mid-close)",
                        rules: ["OCC-5", "OCC-6", "OCC-7", "SNZ-15", "IOS-11"], platforms: both)
        case .wrongInstantAlert:
            return Info(name: "wrong-instant-alert", summary: "AlarmKit alerted a `.fixed` ring hours before its instant with the clock correct (fault wrong-instant-alert; forums 820388)",
                        rules: ["ID-8", "OCC-2", "IOS-2"], platforms: [.ios])
        case .ghostAlert:
            return Info(name: "ghost-alert", summary: "an alert began as a ghost: alerting, with no sound or UI (fault ghost-alert; OpenMinis#115)",
                        rules: ["IOS-7", "OCC-5"], platforms: [.ios])
        case .ghostAlertEnded:
            return Info(name: "ghost-alert-ended", summary: "AlarmKit ended a ghost alert with no Stop (fault ghost-alert; OpenMinis#115)",
                        rules: ["IOS-7", "OCC-5", "OCC-6", "IOS-5"], platforms: [.ios])
        case .osUpdateClearedAlarms:
            return Info(name: "os-update-cleared-alarms", summary: "a restart installed an OS update that emptied AlarmKit's inventory of the app's alarms (fault os-update-clears-alarms; forums 809398)",
                        rules: ["IOS-2", "IOS-5", "SCH-19", "SCH-24"], platforms: [.ios])
        }
    }
}

/// Hits per coverage mark for one run: a fixed-size array indexed by ``CoverageMark/rawValue``.
/// Counting is one array increment, so it can sit on the hot path.
public struct CoverageCounts: Sendable, Equatable {
    /// Hits by mark ordinal; always ``CoverageMark/allCases``.count long.
    public private(set) var hits: [Int]

    public init() {
        hits = Array(repeating: 0, count: CoverageMark.allCases.count)
    }

    /// The hits of one mark.
    public subscript(mark: CoverageMark) -> Int { hits[mark.rawValue] }

    /// Counts one hit of `mark`.
    /// - Complexity: O(1).
    public mutating func hit(_ mark: CoverageMark) {
        hits[mark.rawValue] += 1
    }
}

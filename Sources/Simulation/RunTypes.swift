import AlarmBridge
import SimKernel

/// A known field bug that can be switched back on (DESIGN.md, "Known defects"). Off by default.
public enum KnownDefect: String, CaseIterable, Sendable, Codable, Comparable {
    case resyncWhileAlerting = "resync-while-alerting"
    case unavailableReadAsEmpty = "unavailable-read-as-empty"
    case stopLeavesRecoveryGuard = "stop-leaves-recovery-guard"
    case titleInRingID = "title-in-ring-id"
    case snoozeLatchAfterArm = "snooze-latch-after-arm"
    case ackBeforeWork = "ack-before-work"
    case heartbeatExtendsDeadline = "heartbeat-extends-deadline"
    case dismissalRevivesExpired = "dismissal-revives-expired"
    case retireBeforeArm = "retire-before-arm"
    case completionScopedToFamily = "completion-scoped-to-family"
    case staleChallengeVisibleSurvivesRestart = "stale-challenge-visible-survives-restart"
    case foregroundAlertKept = "foreground-alert-kept"
    case contextNeverLapses = "context-never-lapses"
    case snoozeSilencedInForeground = "snooze-silenced-in-foreground"
    case killSwitchFailsClosed = "kill-switch-fails-closed"
    case receiptDeletedBeforeWrite = "receipt-deleted-before-write"
    case gateTrustsJSCache = "gate-trusts-js-cache"
    case fuseRetireBeforeArm = "fuse-retire-before-arm"
    case backgroundEdgeMovesFuse = "background-edge-moves-fuse"
    case rotationKeepsPredecessor = "rotation-keeps-predecessor"
    case foregroundWalkFuse = "foreground-walk-fuse"
    case walkFuseKeptInForeground = "walk-fuse-kept-in-foreground"
    case suppressionProofSurvivesClockChange = "suppression-proof-survives-clock-change"
    case suppressionProofSurvivesBackground = "suppression-proof-survives-background"
    case missedOccurrenceNotRecorded = "missed-occurrence-not-recorded"
    case stepSuppressionDropsRetry = "step-suppression-drops-retry"
    case lockScreenGrantKept = "lock-screen-grant-kept"
    case retrySurvivesClosure = "retry-survives-closure"
    case passOverQueueRings = "pass-over-queue-rings"
    case unheardRingAdvancesSequence = "unheard-ring-advances-sequence"
    case androidRingStopsAfter30s = "android-ring-stops-after-30s"
    case noSystemSoundFallback = "no-system-sound-fallback"
    case passOverCountedAudible = "pass-over-counted-audible"
    // Issue 6: scheduling.
    case countdownLengthInFingerprint = "countdown-length-in-fingerprint"
    case cancelPastFireTime = "cancel-past-fire-time"
    case idsChangeOnEdit = "ids-change-on-edit"
    case seedBeforePrimary = "seed-before-primary"
    case dstShiftsWeeklyTime = "dst-shifts-weekly-time"
    case verifyAnyRing = "verify-any-ring"
    case reconcileOnEmptyRead = "reconcile-on-empty-read"
    // Issue 16 part 4: a read-after-write lag.
    case verifySingleRead = "verify-single-read"
    // Issue 6: migration from legacy installs.
    case legacyRingsSurviveUpdate = "legacy-rings-survive-update"
    case legacyTombstonesKept = "legacy-tombstones-kept"
    // Issue 7: liveness.
    case restoreSkipsLockedBoot = "restore-skips-locked-boot"
    // Issue 16: what a bridge must still do where an exemption names a platform limit.
    case givesUpOnFailedPrimary = "gives-up-on-failed-primary"
    // Issue 16 part 3: invariant clauses that were not checked.
    case successorTimedFromObservation = "successor-timed-from-observation"
    case passOverLeftAlerting = "pass-over-left-alerting"
    case destructivePeek = "destructive-peek"
    case ackByAlarmID = "ack-by-alarm-id"
    case journalListsInactivityOnly = "journal-lists-inactivity-only"
    case snoozeEndOutlivesRing = "snooze-end-outlives-ring"
    case snoozeNotRebased = "snooze-not-rebased"
    case keepsNothingWhenExactRefused = "keeps-nothing-when-exact-refused"
    case syncTrustsRegistry = "sync-trusts-registry"
    // Issue 16 part 2: witnesses for exemptions that had none.
    case givesUpOnFailedSuccessor = "gives-up-on-failed-successor"
    case packageReplacedRestoresNothing = "package-replaced-restores-nothing"
    case successorNotRebased = "successor-not-rebased"
    case savesWithoutAlarmKit = "saves-without-alarmkit"
    case credentialSoundBeforeUnlock = "credential-sound-before-unlock"
    case trustsAcceptedAlarmClock = "trusts-accepted-alarm-clock"
    // Issue 18: iOS field faults.
    case wrongInstantTakenAsStart = "wrong-instant-taken-as-start"
    case alertEndNeedsStop = "alert-end-needs-stop"
    // Issue 8, test only: not a field bug but a deliberate trap, so the campaign's crash
    // isolation (worker subprocesses) can be tested. Hidden from every list (``listed``).
    case testTrap = "test-trap"

    public static func < (lhs: KnownDefect, rhs: KnownDefect) -> Bool { lhs.rawValue < rhs.rawValue }

    /// True for defects that exist only for tests (`test-trap`): accepted by `--defect`, but
    /// never listed, scored or documented.
    public var isTestOnly: Bool { self == .testTrap }

    /// The field-bug defects: every case except the test-only ones, in declaration order. Use
    /// this, not `allCases`, wherever defects are listed, scored or iterated.
    public static var listed: [KnownDefect] { allCases.filter { !$0.isTestOnly } }

    /// Whether `test-trap` traps on `seed`: seeds ≡ 3 (mod 5), so a campaign over 1..N has both
    /// trapping and clean seeds.
    public static func testTrapFires(seed: UInt64) -> Bool { seed % 5 == 3 }

    /// One line for `alarmsim list defects`.
    public var summary: String {
        switch self {
        case .resyncWhileAlerting:
            return "seed 001: the resume sync cancels and recreates a family that is alerting (SCH-22)"
        case .unavailableReadAsEmpty:
            return "seed 004: a store unreadable before first unlock is taken as empty, and the launch reconcile cancels the daemon's alarms (BOOT-2)"
        case .stopLeavesRecoveryGuard:
            return "seed 004: stop, challenge render and completion leave earlier recovery successors armed (OCC-9, OCC-25)"
        case .titleInRingID:
            return "seed 003: the title is hashed into the primary ring ID, so a title edit cancels and re-creates the alarm (ID-2, ID-3)"
        case .heartbeatExtendsDeadline:
            return "issue 5: opening the app counts as genuine activity and pushes the inactivity deadline (INACT-4, INACT-5)"
        case .dismissalRevivesExpired:
            return "issue 5: dismissing a ring of an expired occurrence makes the occurrence live again (OCC-20, INACT-7)"
        case .staleChallengeVisibleSurvivesRestart:
            return "issue 5: the rendered-challenge state is persisted, so a process restarted after a crash or reboot holds retries back as if the challenge were on screen (FG-6, FG-13)"
        case .completionScopedToFamily:
            return "issue 5: completing one weekday's occurrence cancels the pending primaries of every weekday root of the alarm (OCC-12, OCC-14)"
        case .retireBeforeArm:
            return "issue 5: a snooze silences the ringing alarm and its successor before its own ring is confirmed, so a failed arm leaves nothing (SNZ-7, SNZ-9)"
        case .ackBeforeWork:
            return "issue 5 (app side): JS acknowledges a platform action before the work it triggers has succeeded, so a failed or interrupted handler loses it (ACT-5)"
        case .foregroundAlertKept:
            return "issue 5: the bridge leaves an ordinary wake ring alerting while Ember is in the foreground instead of silencing it (FG-1, FG-2)"
        case .snoozeSilencedInForeground:
            return "mutation study: FG-2's foreground silencing also stops the one-time snooze ring, so a user who snoozed and came back to the app never hears the snooze, and the occurrence loses the ring that was its pressure (SNZ-17, SNZ-10, FG-1)"
        case .contextNeverLapses:
            return "issue 5: the foreground context has no heartbeat lifetime, so a stalled JS layer's last 'challenge visible' suppresses for ever (FG-11)"
        case .snoozeLatchAfterArm:
            return "issue 5: the one-time snooze latch is spent only after the snooze ring is confirmed, so a second request in flight gets a second snooze (SNZ-4, SNZ-5)"
        case .killSwitchFailsClosed:
            return "seed 003: a kill-switch check that timed out, failed or was unreadable disables scheduling (BOOT-12)"
        case .gateTrustsJSCache:
            return "seed 004: the launch gate trusts JS's cached \"no alarms configured\" and releases an unreadable store as a fresh install (BOOT-3, BOOT-4)"
        case .receiptDeletedBeforeWrite:
            return "seed 000: a fresh install deletes the surviving Keychain receipt before the failed wake day was written (IOS-10)"
        case .fuseRetireBeforeArm:
            return "walk: a walk-fuse rotation cancels the predecessor before AlarmKit accepted the replacement, so a failed arm leaves nothing (WALK-15, WALK-18)"
        case .rotationKeepsPredecessor:
            return "walk: a committed fuse rotation never retires its predecessor, leaving a durable pair of walk fuses (WALK-16)"
        case .foregroundWalkFuse:
            return "walk: a started walk arms a walk fuse while the app is steadily in the foreground, a legacy maintenance alarm (WALK-5, WALK-13)"
        case .walkFuseKeptInForeground:
            return "walk: returning to the foreground leaves the walk fuse pending, and the next resign-active reuses it at its old deadline instead of resign + 60 s (WALK-5, WALK-8, WALK-9)"
        case .suppressionProofSurvivesBackground:
            return "mutation study: leaving the foreground keeps the foregroundSuppressed proofs, so hours later, back in the app, getScheduledAlarmTimes still reports a primary as used up on purpose in the foreground (SCH-18, SCH-17)"
        case .suppressionProofSurvivesClockChange:
            return "seed 000: the foregroundSuppressed proof is not cleared on a wall-clock or time-zone change, so a consumed primary of the old frame still stands for its root (SCH-18)"
        case .missedOccurrenceNotRecorded:
            return "field reports (\"silently re-armed for tomorrow\"): a ring time that passed without ringing after a force-stop, a restart that re-armed nothing or a failed registration leaves no missed record the app can see (seed 000 failed wake day; PLATFORMS.md force-stop)"
        case .backgroundEdgeMovesFuse:
            return "walk: the real background edge re-arms the provisional fuse 60 s after itself instead of keeping resign-active + 60 s (WALK-8, WALK-10)"
        case .stepSuppressionDropsRetry:
            return "Android: a ring postponed by recent steps arms no durable retry, so the occurrence goes silent (AND-17, FG-6)"
        case .lockScreenGrantKept:
            return "Android: MainActivity keeps its lock-screen presentation after the app leaves the foreground (AND-11)"
        case .retrySurvivesClosure:
            return "Android: expiry and abandonment leave the occurrence's retries armed or ringing; only completion discards them (AND-13, AND-14)"
        case .passOverQueueRings:
            return "Android: a queued pass-over rings once its owner's occurrence closes, as a second challenge (AND-15, OCC-3)"
        case .unheardRingAdvancesSequence:
            return "sound order: the progressive sequence advances when a ring is armed, so a ring cancelled before it was heard still moves the next one up a group (SND-7)"
        case .androidRingStopsAfter30s:
            return "sound order: the old Android 30 s cap stops an unattended wake ring after 30 s and arms the next attempt (SND-11)"
        case .noSystemSoundFallback:
            return "sound order: a player failure of the ring's custom sound is ignored, so the ringing service stays silent (SND-9)"
        case .passOverCountedAudible:
            return "audible counting: a root silenced as a pass-over is recorded as audible (SND-13)"
        case .countdownLengthInFingerprint:
            return "seed 003: the configuration fingerprint holds the countdown's time left, which shrinks as the fire time nears, so every sync re-registers unchanged rings (ID-5, SCH-20)"
        case .cancelPastFireTime:
            return "seed 003: reconciliation cancels a ring it no longer wants even when its fire time has passed, killing an alert that fired or is about to be delivered (SCH-3, SCH-21)"
        case .idsChangeOnEdit:
            return "seed 003: every configured attribute (title, sound, policy, challenge, countdown) is hashed into the primary ring ID, so any edit re-creates the alarm (ID-2, ID-3)"
        case .seedBeforePrimary:
            return "seed 000: capacity is spent on next-occurrence seeds first, while the app is active and before every primary is registered (CAP-2, CAP-3)"
        case .dstShiftsWeeklyTime:
            return "seed 000: the next weekly occurrence is computed as the last one + 7 × 24 h, so a DST night moves the alarm by an hour (REC-1, REC-2)"
        case .verifyAnyRing:
            return "seed 000: save verification is satisfied by any daemon ring of the alarm (an old primary, a seed, another root), not the exact new primary UUID (SCH-9)"
        case .verifySingleRead:
            return "a first draft's verification: a direct save reads AlarmKit once, so a new alarm AlarmKit lists a moment late fails the save although it is scheduled (SCH-9, SCH-10)"
        case .reconcileOnEmptyRead:
            return "seed 004: a failed inventory read is taken as an empty inventory and the sync reconciles against it (SCH-16)"
        case .legacyRingsSurviveUpdate:
            return "seed 000: the first launch after an update adopts the daemon inventory but deletes no legacy ring, so maintenance alarms, fuse pairs, relays, walk cadences and surplus cadence rings stay armed (BOOT-10, BOOT-11)"
        case .legacyTombstonesKept:
            return "seed 000: migration keeps the future completion markers an older version wrote, so the primaries they suppressed stay missing (OCC-17)"
        case .restoreSkipsLockedBoot:
            return "Android: the boot restore waits for BOOT_COMPLETED and ignores LOCKED_BOOT_COMPLETED, so a rebooted phone left locked holds no alarm until the first unlock (AND-2, AND-3, SuntimesWidget#658)"
        case .givesUpOnFailedPrimary:
            return "a first draft's retry: a primary whose schedule request failed is never requested again while the process lives, so a failed write during a restore leaves the morning silent ([derived] WALK-18, AND-3; plus_plugins#1981)"
        case .successorTimedFromObservation:
            return "iOS: a Stop's successor and action record are timed from when the bridge acts on the Stop (after its look-first daemon read, or once the store is readable), not from the Stop itself, so the successor comes late (OCC-6, ACT-1, IOS-2)"
        case .passOverLeftAlerting:
            return "iOS: a root that comes due while another owns the wake occurrence is noted as a pass-over, but its AlarmKit alert is never stopped, so it rings beside the owner (OCC-3)"
        case .destructivePeek:
            return "peekLastAlarmAction removes the action it returns, so an action whose work then fails is lost (ACT-3, ACT-5, API-7)"
        case .snoozeEndOutlivesRing:
            return "mutation study: getActiveWakeOccurrence reports the snooze end the occurrence recorded (its inactivity baseline) when no snooze ring is armed, so after the snooze rang JS still counts down to it (SNZ-23, API-11)"
        case .journalListsInactivityOnly:
            return "mutation study: getAbandonedWakeOccurrences lists only inactivity receipts, so a morning recorded as missed (a force-stop, a restart that re-armed nothing, a failed registration) is kept but never shown to the user (API-20, INACT-18)"
        case .ackByAlarmID:
            return "acknowledgeLastAlarmAction matches on the alarm ID alone and removes every stored action of that alarm, so acknowledging an older action clears a newer one (ACT-4, API-8)"
        case .snoozeNotRebased:
            return "a wall-clock correction leaves the pending snooze ring at its old wall-clock time, so a clock set back by an hour makes a 10-minute snooze ring 70 minutes later (SNZ-20, SNZ-21)"
        case .keepsNothingWhenExactRefused:
            return "Android: a ring setAlarmClock refuses with SecurityException (exact-alarm permission revoked, or denied by default on API 34) is dropped, not kept as an inexact allow-while-idle alarm, so every morning until the grant is silent ([derived] AND-1, AND-3; flutter_local_notifications#1526, #2248)"
        case .syncTrustsRegistry:
            return "a first draft's sync: a ring its registry says was scheduled and confirmed counts as present, so a ring the OS removed (an AlarmKit cleanup, a force-stop, an update) is never added back (SCH-19, IOS-5, AND-5)"
        case .givesUpOnFailedSuccessor:
            return "a first draft's retry: a successor arm the platform refused is never asked again while the process lives, so the occurrence goes without pressure until its next trigger (OCC-5, [derived] WALK-18)"
        case .packageReplacedRestoresNothing:
            return "Android: the receiver of MY_PACKAGE_REPLACED restores nothing, so the alarms an update cleared (some OEMs do) and the ring its kill ended stay lost until the user opens the app (AND-3, BOOT-9)"
        case .successorNotRebased:
            return "a wall-clock correction leaves the live occurrence's pending successor and walk fuse at their old wall-clock instants, so after a clock set back by 10 min the occurrence waits 10 min without pressure, past the first step that saw the change (REC-9, SNZ-22, OCC-5)"
        case .trustsAcceptedAlarmClock:
            return "Android: the bridge trusts every request AlarmManager accepted and never reads getNextAlarmClock(), so an alarm clock accepted and dropped (an alarm re-armed after a reboot, plus_plugins#1981) is never registered again and its morning is silent (AND-3)"
        case .credentialSoundBeforeUnlock:
            return "Android: before the first unlock after a boot the ringing service plays a sound the app keeps in credential-encrypted storage, which cannot be opened then, instead of the system alarm sound, so the alarm screen shows and nothing is heard (SND-9; BlackyHawky/Clock#292, #322, GrapheneOS#6622)"
        case .savesWithoutAlarmKit:
            return "iOS below 26 (no AlarmKit): a direct save persists the alarm and replies saved with nothing scheduled, a silent fallback, instead of rejecting with the Settings path, so JS shows an alarm that never rings (SCH-26, SCH-9)"
        case .wrongInstantTakenAsStart:
            return "iOS: an alert AlarmKit begins hours before its `.fixed` instant (a 07:30 alarm at 00:00, the clock correct) is taken as that ring time's delivery: an occurrence opens from it, and a Stop of it leaves nothing to ring at the real time (ID-8, OCC-2; Apple forums 820388)"
        case .alertEndNeedsStop:
            return "iOS: only a Stop hands an occurrence on; an alert that left alerting without one (a ghost alert AlarmKit ended unheard) arms no successor, so the morning goes silent (IOS-7, OCC-5; OpenMinis#115)"
        case .testTrap:
            return "test only: the simulator traps (preconditionFailure) midway through every seed ≡ 3 mod 5, to test crash isolation"
        }
    }

    /// Forced-only fault kinds a hunt for this defect forces on (`alarmsim defects`): the kind
    /// that makes the defect's situation, where the default profiles leave it off.
    public var huntFaults: [String] {
        switch self {
        case .successorNotRebased: return ["clock-set-back-after-trigger"]  // SNZ-22: a set-back while a successor is pending
        case .alertEndNeedsStop: return ["ghost-alert"]  // IOS-7, OCC-5: an alert that ends with no Stop (issue 18)
        default: return []
        }
    }

    /// Platforms where the defect's code path exists.
    public var platforms: [PlatformFlavor] {
        switch self {
        case .receiptDeletedBeforeWrite, .gateTrustsJSCache: return [.ios]
        case .killSwitchFailsClosed: return [.ios, .android]
        case .unavailableReadAsEmpty, .fuseRetireBeforeArm, .backgroundEdgeMovesFuse, .rotationKeepsPredecessor,
             .foregroundWalkFuse, .walkFuseKeptInForeground: return [.ios]
        case .resyncWhileAlerting, .stopLeavesRecoveryGuard, .titleInRingID, .snoozeLatchAfterArm, .ackBeforeWork,
             .heartbeatExtendsDeadline, .dismissalRevivesExpired, .retireBeforeArm, .completionScopedToFamily,
             .staleChallengeVisibleSurvivesRestart, .foregroundAlertKept, .contextNeverLapses, .snoozeSilencedInForeground,
             .unheardRingAdvancesSequence, .passOverCountedAudible: return [.ios, .android]
        case .stepSuppressionDropsRetry, .lockScreenGrantKept, .retrySurvivesClosure, .passOverQueueRings,
             .androidRingStopsAfter30s, .noSystemSoundFallback, .restoreSkipsLockedBoot,
             .keepsNothingWhenExactRefused, .packageReplacedRestoresNothing, .credentialSoundBeforeUnlock,
             .trustsAcceptedAlarmClock: return [.android]
        case .destructivePeek, .ackByAlarmID, .snoozeNotRebased, .journalListsInactivityOnly, .snoozeEndOutlivesRing: return [.ios, .android]
        case .passOverLeftAlerting: return [.ios]  // Android's receiver never starts a pass-over's ring
        case .successorTimedFromObservation: return [.ios]  // Android has no Stop intent: its dismissal is acted on at once
        case .givesUpOnFailedPrimary, .suppressionProofSurvivesClockChange, .suppressionProofSurvivesBackground, .missedOccurrenceNotRecorded,
             .syncTrustsRegistry, .givesUpOnFailedSuccessor, .successorNotRebased: return [.ios, .android]
        case .idsChangeOnEdit, .dstShiftsWeeklyTime, .reconcileOnEmptyRead: return [.ios, .android]
        // Android's AlarmManager forgets an alarm once it fires, and has no countdown: only iOS
        // holds a ring past its fire time (a late delivery) for a sync to cancel.
        case .cancelPastFireTime, .countdownLengthInFingerprint, .seedBeforePrimary, .verifyAnyRing, .verifySingleRead: return [.ios]
        case .savesWithoutAlarmKit: return [.ios]  // SCH-26: Android has no AlarmKit
        case .wrongInstantTakenAsStart, .alertEndNeedsStop: return [.ios]  // issue 18: AlarmKit field faults
        case .legacyRingsSurviveUpdate, .legacyTombstonesKept, .testTrap: return [.ios, .android]
        }
    }

    /// The bridge switch set for a list of defects.
    public static func switches(_ defects: [KnownDefect]) -> KnownDefects {
        var switches = KnownDefects()
        for defect in defects {
            switch defect {
            case .resyncWhileAlerting: switches.resyncWhileAlerting = true
            case .unavailableReadAsEmpty: switches.unavailableReadAsEmpty = true
            case .stopLeavesRecoveryGuard: switches.stopLeavesRecoveryGuard = true
            case .titleInRingID: switches.titleInRingID = true
            case .snoozeLatchAfterArm: switches.snoozeLatchAfterArm = true
            case .ackBeforeWork: break  // the simulated JS, not the bridge, acknowledges too early
            case .heartbeatExtendsDeadline: switches.heartbeatExtendsDeadline = true
            case .dismissalRevivesExpired: switches.dismissalRevivesExpired = true
            case .retireBeforeArm: switches.retireBeforeArm = true
            case .completionScopedToFamily: switches.completionScopedToFamily = true
            case .staleChallengeVisibleSurvivesRestart: switches.staleChallengeVisibleSurvivesRestart = true
            case .foregroundAlertKept: switches.foregroundAlertKept = true
            case .snoozeSilencedInForeground: switches.snoozeSilencedInForeground = true
            case .contextNeverLapses: switches.contextNeverLapses = true
            case .killSwitchFailsClosed: switches.killSwitchFailsClosed = true
            case .receiptDeletedBeforeWrite: switches.receiptDeletedBeforeWrite = true
            case .gateTrustsJSCache: switches.gateTrustsJSCache = true
            case .fuseRetireBeforeArm: switches.fuseRetireBeforeArm = true
            case .backgroundEdgeMovesFuse: switches.backgroundEdgeMovesFuse = true
            case .rotationKeepsPredecessor: switches.rotationKeepsPredecessor = true
            case .foregroundWalkFuse: switches.foregroundWalkFuse = true
            case .walkFuseKeptInForeground: switches.walkFuseKeptInForeground = true
            case .suppressionProofSurvivesClockChange: switches.suppressionProofSurvivesClockChange = true
            case .suppressionProofSurvivesBackground: switches.suppressionProofSurvivesBackground = true
            case .missedOccurrenceNotRecorded: switches.missedOccurrenceNotRecorded = true
            case .stepSuppressionDropsRetry: switches.stepSuppressionDropsRetry = true
            case .lockScreenGrantKept: switches.lockScreenGrantKept = true
            case .retrySurvivesClosure: switches.retrySurvivesClosure = true
            case .passOverQueueRings: switches.passOverQueueRings = true
            case .unheardRingAdvancesSequence: switches.unheardRingAdvancesSequence = true
            case .androidRingStopsAfter30s: switches.androidRingStopsAfter30s = true
            case .noSystemSoundFallback: switches.noSystemSoundFallback = true
            case .passOverCountedAudible: switches.passOverCountedAudible = true
            case .countdownLengthInFingerprint: switches.countdownLengthInFingerprint = true
            case .cancelPastFireTime: switches.cancelPastFireTime = true
            case .idsChangeOnEdit: switches.idsChangeOnEdit = true
            case .seedBeforePrimary: switches.seedBeforePrimary = true
            case .dstShiftsWeeklyTime: switches.dstShiftsWeeklyTime = true
            case .verifyAnyRing: switches.verifyAnyRing = true
            case .verifySingleRead: switches.verifySingleRead = true
            case .reconcileOnEmptyRead: switches.reconcileOnEmptyRead = true
            case .legacyRingsSurviveUpdate: switches.legacyRingsSurviveUpdate = true
            case .legacyTombstonesKept: switches.legacyTombstonesKept = true
            case .restoreSkipsLockedBoot: switches.restoreSkipsLockedBoot = true
            case .givesUpOnFailedPrimary: switches.givesUpOnFailedPrimary = true
            case .successorTimedFromObservation: switches.successorTimedFromObservation = true
            case .passOverLeftAlerting: switches.passOverLeftAlerting = true
            case .destructivePeek: switches.destructivePeek = true
            case .ackByAlarmID: switches.ackByAlarmID = true
            case .journalListsInactivityOnly: switches.journalListsInactivityOnly = true
            case .snoozeEndOutlivesRing: switches.snoozeEndOutlivesRing = true
            case .snoozeNotRebased: switches.snoozeNotRebased = true
            case .keepsNothingWhenExactRefused: switches.keepsNothingWhenExactRefused = true
            case .syncTrustsRegistry: switches.syncTrustsRegistry = true
            case .givesUpOnFailedSuccessor: switches.givesUpOnFailedSuccessor = true
            case .packageReplacedRestoresNothing: switches.packageReplacedRestoresNothing = true
            case .successorNotRebased: switches.successorNotRebased = true
            case .savesWithoutAlarmKit: switches.savesWithoutAlarmKit = true
            case .credentialSoundBeforeUnlock: switches.credentialSoundBeforeUnlock = true
            case .trustsAcceptedAlarmClock: switches.trustsAcceptedAlarmClock = true
            case .wrongInstantTakenAsStart: switches.wrongInstantTakenAsStart = true
            case .alertEndNeedsStop: switches.alertEndNeedsStop = true
            case .testTrap: break  // the simulator traps, not the bridge (Simulator.run)
            }
        }
        return switches
    }
}

/// One invariant violation found in a run.
public struct Violation: Sendable, Equatable, Codable {
    /// Stable invariant ID, e.g. `never-silent`.
    public var invariant: String
    /// The RULES.md IDs it enforces.
    public var rules: [String]
    /// What was wrong, in one sentence with the ring / root involved.
    public var message: String
    /// Simulation time (Unix-epoch ms) and device wall time of the event after which it was found.
    public var trueMs: Int64
    public var wallMs: Int64
    /// Index of the trace event after which it was found.
    public var eventIndex: Int
    /// The device's time zone then (IANA identifier), to write `wallMs` as local time; nil in
    /// summaries written before it was recorded.
    public var zone: String?

    public init(invariant: String, rules: [String], message: String, trueMs: Int64, wallMs: Int64, eventIndex: Int,
                zone: String? = nil) {
        self.invariant = invariant
        self.rules = rules
        self.message = message
        self.trueMs = trueMs
        self.wallMs = wallMs
        self.eventIndex = eventIndex
        self.zone = zone
    }

    /// `wallMs` as local wall time with its zone (`2026-03-02 07:00:20 Europe/Berlin`), for people;
    /// `fallbackZone` (the run's start zone) when the violation has none.
    public func localTime(fallbackZone: String) -> String {
        let zone = self.zone ?? fallbackZone
        guard let calendar = WallCalendar(zoneIdentifier: zone) else { return "device time \(wallMs) ms" }
        return HumanText.localTime(wallMs, calendar)
    }
}

/// A named parameter of a run (printed first by `replay`).
public struct RunParameter: Sendable, Equatable, Codable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What to run: one seed on one platform, optionally with known defects and a fault selection.
public struct RunOptions: Sendable {
    public var platform: PlatformFlavor
    public var seed: UInt64
    public var defects: [KnownDefect]
    /// The fault profile and forced kinds the seed's world is drawn with (FaultCatalog.swift);
    /// ignored by scenario runs, whose faults are scripted.
    public var faults: FaultSelection = .swarm
    /// Keep every trace event (replay, scenario runs) instead of a bounded ring of the last
    /// ``fuzzTraceRingCapacity`` events (fuzz campaigns, the defect scoreboard, coverage). The
    /// trace hash covers every event either way, so both modes give the same `trace-hash`.
    public var keepFullTrace: Bool
    /// How many of the most recent events a fuzz-mode trace keeps (`keepFullTrace == false`):
    /// enough for a failure report's last events, and it bounds a campaign's memory per seed.
    public static let fuzzTraceRingCapacity = 400
    /// False to count trace events without building, keeping or hashing them
    /// (``Trace/countingOnly()``): the run's verdict, exemptions and coverage are the same, and
    /// ``RunResult/traceHashHex`` is empty, and so are ``RunResult/parameters`` (the seed's
    /// printed parameters). A fuzz campaign's seeds run so (issue 20: the trace text was about a
    /// tenth of a seed's CPU); a failing seed is re-run recording for its report.
    public var recordsTrace = true
    public var limits: RunLimits
    /// Run the liveness phase after the seeded safety phase (issue 7, invariant 46 `convergence`):
    /// faults stop, the world heals, and the bridge must converge within the seed's bounds.
    /// `--no-liveness` turns it off. Scenario files run without it unless `param sim.liveness on`.
    public var liveness: Bool = true
    /// The bridge under test (issue 19): the built-in ``BridgeCore`` unless a caller names another.
    public var bridge: BridgeFactory = .builtIn

    /// - Parameter bridge: The bridge under test; the built-in one by default.
    public init(platform: PlatformFlavor, seed: UInt64, defects: [KnownDefect] = [], faults: FaultSelection = .swarm,
                keepFullTrace: Bool = false,
                limits: RunLimits = RunLimits(maxEvents: 200_000, maxVirtualTimeMs: 4 * 24 * 3_600_000),
                liveness: Bool = true, bridge: BridgeFactory = .builtIn) {
        self.liveness = liveness
        self.bridge = bridge
        self.platform = platform
        self.seed = seed
        self.defects = defects.sorted()
        self.faults = faults
        self.keepFullTrace = keepFullTrace
        self.limits = limits
    }
}

/// The outcome of one run.
public struct RunResult: Sendable {
    public var platform: PlatformFlavor
    public var seed: UInt64
    public var defects: [KnownDefect]
    /// The fault selection the run was drawn with (part of its repro line).
    public var faults: FaultSelection = .swarm
    /// Every parameter the seed drew, in a fixed order.
    public var parameters: [RunParameter]
    /// Violations in the order found; the run stops at the first one.
    public var violations: [Violation]
    /// Exempted gaps by exemption name (sorted by name), counted, never silent.
    public var exemptions: [RunParameter]
    /// FNV-1a 64 of every event's canonical line, as 16 hex digits; empty when the run did not
    /// record its trace (``RunOptions/recordsTrace``).
    public var traceHashHex: String
    public var eventCount: Int
    /// Virtual time covered, ms.
    public var virtualDurationMs: Int64
    public var trace: Trace
    /// Unmet timed `expect` lines of a scenario (empty for fuzz runs).
    public var scenarioFailures: [String] = []
    /// Hits per reachability mark (CoverageMarks.swift), counted where each state or transition happened.
    public var coverage = CoverageCounts()
    /// What the hidden actors of a fuzz run did (the reactive user, interleaving deaths) up to
    /// the end of the run, as plan actions at their due instants (plan-frame ms), in the order
    /// they were planned. Empty when the setup turns both off.
    public var reactiveActions: [TimedAction] = []
    /// Whether the run had a liveness phase (issue 7).
    public var liveness = false
    /// IDs of the alarms the app saved during the run (the bridge accepted a save at least once)
    /// or that a legacy install's older version had saved, once a process of this version ran at
    /// or before the first violation, sorted. An alarm a scenario declares
    /// but the app never saved is not here: the shrinker never keeps a candidate whose violation
    /// names one (a shrunk file must still show the bridge's bug, not an alarm nobody set).
    public var savedAlarmIDs: [String] = []

    /// The first violation, if any.
    public var firstViolation: Violation? { violations.first }
}

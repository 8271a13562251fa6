/// Switchable reintroductions of the seeds' field bugs. All off in correct code.
///
/// They live in the bridge because they are the bridge's bugs; the simulator turns them on to
/// prove that its invariants find them (DESIGN.md, "Known defects").
public struct KnownDefects: Sendable, Equatable, Codable {
    /// Seed 001: the resume sync cancels and recreates rings of a family that is alerting.
    public var resyncWhileAlerting = false
    /// Seed 004: an unavailable store read (before first unlock) is taken as an empty domain.
    public var unavailableReadAsEmpty = false
    /// Seed 004: stop / challenge render / completion leave earlier recovery rings armed.
    public var stopLeavesRecoveryGuard = false
    /// Seed 003: the title is hashed into the primary ring ID.
    public var titleInRingID = false
    /// Issue 5: the snooze latch is spent only once the snooze ring is confirmed (SNZ-5).
    public var snoozeLatchAfterArm = false
    /// Issue 5: opening the app or a context heartbeat counts as genuine activity (INACT-5).
    public var heartbeatExtendsDeadline = false
    /// Issue 5: an explicit dismissal of a ring of an expired occurrence makes it live again (OCC-20).
    public var dismissalRevivesExpired = false
    /// Issue 5: a snooze request silences the prior pressure before its ring is confirmed (SNZ-7).
    public var retireBeforeArm = false
    /// Issue 5: the rendered-challenge state is persisted and restored by a new process (FG-13).
    public var staleChallengeVisibleSurvivesRestart = false
    /// Issue 5: completing one weekday root's occurrence cancels the whole family's pending primaries (OCC-12).
    public var completionScopedToFamily = false
    /// FG-1, FG-2 broken: ordinary wake rings keep alerting while Ember is active.
    public var foregroundAlertKept = false
    /// SNZ-17, SNZ-10 broken: FG-2's foreground silencing stops the one-time snooze ring too.
    public var snoozeSilencedInForeground = false
    /// FG-11 broken: the foreground context never lapses.
    public var contextNeverLapses = false
    /// BOOT-12: a kill-switch check that timed out, failed or was unreadable disables scheduling.
    public var killSwitchFailsClosed = false
    /// IOS-10: a fresh install deletes a surviving Keychain receipt as soon as it asks for the
    /// failed-wake-day write, before that write succeeded.
    public var receiptDeletedBeforeWrite = false
    /// BOOT-3: the launch gate believes JS's cached "no alarms configured" and releases an
    /// unreadable store as a fresh, empty install.
    public var gateTrustsJSCache = false
    /// Walk: a fuse rotation cancels the predecessor before AlarmKit accepted the replacement (WALK-15).
    public var fuseRetireBeforeArm = false
    /// Walk: the real background edge re-arms the provisional fuse 60 s after itself (WALK-10).
    public var backgroundEdgeMovesFuse = false
    /// Walk: a committed rotation keeps its predecessor, leaving a durable fuse pair (WALK-16).
    public var rotationKeepsPredecessor = false
    /// Walk: a started walk arms a fuse while the app is steadily in the foreground, a legacy
    /// foreground maintenance alarm (WALK-5, WALK-13).
    public var foregroundWalkFuse = false
    /// Walk: returning active keeps the walk fuse pending (WALK-9 cancels it) and the next
    /// resign-active reuses it at its old deadline instead of resign + 60 s (WALK-5, WALK-8).
    public var walkFuseKeptInForeground = false
    /// SCH-18: the foregroundSuppressed proof survives a wall-clock or time-zone change, so a proof
    /// for an instant of the old frame stands for the root in the new one.
    public var suppressionProofSurvivesClockChange = false
    /// SCH-18 broken: leaving the foreground keeps the foregroundSuppressed proofs.
    public var suppressionProofSurvivesBackground = false
    /// A ring time that passed without ringing (force-stop, a restart that re-armed nothing, a
    /// failed registration) is re-armed for the next day and leaves no missed record.
    public var missedOccurrenceNotRecorded = false
    /// AND-17: a ring postponed by recent steps arms no durable retry.
    public var stepSuppressionDropsRetry = false
    /// AND-11: MainActivity keeps its lock-screen presentation after the app leaves the foreground.
    public var lockScreenGrantKept = false
    /// AND-13: expiry and abandonment leave the occurrence's Android retries armed or ringing.
    public var retrySurvivesClosure = false
    /// AND-15: a queued pass-over rings once the owner's occurrence closes.
    public var passOverQueueRings = false
    /// SND-7: the sound sequence advances when a ring is armed, not when it is heard.
    public var unheardRingAdvancesSequence = false
    /// SND-11: Android stops an unattended ring after 30 s (the old cap).
    public var androidRingStopsAfter30s = false
    /// SND-9: a player failure is ignored; no system-sound fallback.
    public var noSystemSoundFallback = false
    /// SND-9, issue 18: before the first unlock the ringing service plays a sound kept in
    /// credential-encrypted storage (silent, no error) instead of the system alarm sound.
    public var credentialSoundBeforeUnlock = false
    /// Issue 18: the bridge never reads `getNextAlarmClock()` after its requests, so an alarm
    /// clock AlarmManager accepted and dropped (plus_plugins#1981) is never registered again.
    public var trustsAcceptedAlarmClock = false
    /// SND-13: a passed-over (silenced) root is recorded as audible.
    public var passOverCountedAudible = false
    /// Seed 003 (ID-5): the fingerprint hashes the countdown's time left, which shrinks as the fire
    /// time approaches, so every sync re-registers an unchanged ring.
    public var countdownLengthInFingerprint = false
    /// Seed 003 (SCH-3, SCH-21): reconciliation cancels unwanted rings even past their fire time.
    public var cancelPastFireTime = false
    /// Seed 003 (ID-2, ID-3): every configured attribute of the alarm is hashed into the primary ID.
    public var idsChangeOnEdit = false
    /// CAP-2, CAP-3: next-occurrence seeds are registered first, whatever the app state.
    public var seedBeforePrimary = false
    /// REC-1, REC-2: the next weekly occurrence is the last one + 7 × 24 h (absolute), not the
    /// configured local hour and minute.
    public var dstShiftsWeeklyTime = false
    /// SCH-9: save verification accepts any daemon ring of the saved alarm.
    public var verifyAnyRing = false
    /// SCH-9: save verification gives up after one read, so a read-after-write lag rejects a
    /// save whose primary AlarmKit holds.
    public var verifySingleRead = false
    /// SCH-16: a failed inventory read is reconciled as an empty inventory.
    public var reconcileOnEmptyRead = false
    /// BOOT-11: migration adopts the daemon inventory but deletes no legacy ring (maintenance
    /// alarms, fuse pairs, relays, walk cadences and surplus cadence rings stay armed).
    public var legacyRingsSurviveUpdate = false
    /// OCC-17: migration keeps the future completion markers an older version wrote, so the
    /// primaries they suppressed stay missing.
    public var legacyTombstonesKept = false
    /// AND-2, AND-3: the boot restore waits for BOOT_COMPLETED (after the first unlock) and
    /// ignores LOCKED_BOOT_COMPLETED, so a rebooted phone left locked holds no alarm (SuntimesWidget#658).
    public var restoreSkipsLockedBoot = false
    /// [derived] WALK-18, AND-3: a failed primary request is never retried while the process lives.
    public var givesUpOnFailedPrimary = false
    /// OCC-6, ACT-1: a Stop's successor and action record are timed from when the bridge acts on
    /// it (after its look-first read, IOS-2, or once the store is readable), not from the Stop.
    public var successorTimedFromObservation = false
    /// OCC-3 on iOS: a passed-over root is recorded as a pass-over but its AlarmKit alert is
    /// never stopped (as if AlarmKit, like Android's receiver, only rang what the app starts).
    public var passOverLeftAlerting = false
    /// ACT-3, API-7: `peekLastAlarmAction` removes the action it returns.
    public var destructivePeek = false
    /// ACT-4, API-8: an acknowledgement removes every stored action of its alarm ID.
    public var ackByAlarmID = false
    /// API-20 broken: the abandoned-occurrence journal lists only inactivity receipts.
    public var journalListsInactivityOnly = false
    /// SNZ-23 broken: the active occurrence's snooze end is reported with no snooze ring armed.
    public var snoozeEndOutlivesRing = false
    /// SNZ-20: a clock correction leaves the pending snooze ring at its old wall-clock instant
    /// (not rebased), so a clock set back makes the snooze ring late.
    public var snoozeNotRebased = false
    /// [derived] AND-1, AND-3: a ring `setAlarmClock` refuses (no exact-alarm permission) is
    /// dropped instead of kept as an inexact allow-while-idle alarm.
    public var keepsNothingWhenExactRefused = false
    /// SCH-19, IOS-5, AND-5: the sync takes a confirmed registry row as proof that the platform
    /// holds the ring, so a ring the OS removed (an OS cleanup, a force-stop) is never re-added.
    public var syncTrustsRegistry = false
    /// OCC-5, [derived] WALK-18: a successor arm the platform refused is never asked again while
    /// the process lives (no `armRetry`), so the occurrence waits without pressure for its next trigger.
    public var givesUpOnFailedSuccessor = false
    /// AND-3, BOOT-9: the process MY_PACKAGE_REPLACED starts takes no launch restore, so alarms
    /// an update cleared (some OEMs) or a ring the update's kill ended stay lost until the user opens the app.
    public var packageReplacedRestoresNothing = false
    /// REC-9, SNZ-22, OCC-5: a wall-clock correction leaves the live occurrence's pending
    /// successor and walk fuse at their old wall-clock instants (not rebased), so a set-back no
    /// process saw keeps them pushed out after the first ready step that sees it.
    public var successorNotRebased = false
    /// SCH-26: on an iPhone without AlarmKit (below iOS 26) a direct save persists the alarm and
    /// replies saved with nothing scheduled (a silent fallback), instead of rejecting with the
    /// Settings path, so JS shows an alarm that will never ring.
    public var savesWithoutAlarmKit = false
    /// Issue 18 (ID-8, OCC-2; Apple forums 820388): an alert AlarmKit began hours before its
    /// `.fixed` instant is taken as that ring time's delivery: an occurrence opens from it (its
    /// expiry, snooze and successors timed from it) and a Stop of it leaves the ring deleted.
    public var wrongInstantTakenAsStart = false
    /// Issue 18 (IOS-7, OCC-5; OpenMinis#115): only a Stop hands an occurrence on; an alert that
    /// left `alerting` with no Stop (a ghost alert AlarmKit ended) arms no successor.
    public var alertEndNeedsStop = false

    public init() {}

    public var isEmpty: Bool { self == KnownDefects() }
}

/// The bridge's named constants, including the open parameters of RULES.md that the simulation
/// varies per seed.
public struct BridgeConfiguration: Sendable {
    public var flavor: PlatformFlavor
    public var calendar: WallCalendar
    /// Successor / retry delay: 10 s (OCC-5, OCC-6, FG-3).
    public var successorDelayMs: Int64 = 10_000
    /// G_PUB, the in-flight publication grace (SCH-4). Virtual ms.
    public var publicationGraceMs: Int64 = 5_000
    /// SCH-23: a fingerprint re-registration (cancel + schedule) is deferred while the ring is due
    /// within this many ms, so the pair never straddles the fire time.
    public var reRegisterGuardMs: Int64 = 120_000
    /// Spacing and count of the quick retries of a successor arm (or a snooze rebase) the
    /// platform refused; a successor is asked again after them too, with backoff
    /// (``successorRetryDelayMs(afterRefusals:)``), while the process lives.
    public var armRetryDelayMs: Int64 = BridgeConfiguration.defaultArmRetryDelayMs
    public var armRetryMax: Int = BridgeConfiguration.defaultArmRetryMax
    /// The default retry delay of a failed successor or snooze rebase, virtual ms (OCC-8, SNZ-21).
    public static let defaultArmRetryDelayMs: Int64 = 1_000
    /// The default number of such retries.
    public static let defaultArmRetryMax = 3
    /// A refused successor arm is asked again for as long as the process lives (OCC-5, [derived]
    /// WALK-18; issue 16: "the best the platform allows: retry with backoff while the process
    /// lives"): the first `armRetryMax` times `armRetryDelayMs` apart, then with the primary
    /// retry's backoff (doubling, at most `primaryRetryDelayMsMax` apart). Before, the bridge gave
    /// up after `armRetryMax` refusals and the occurrence stayed silent while the process lived
    /// (android uniform seed 34730: three refusals in a row).
    /// - Parameter refusals: consecutive refused successor arms of this process, this one included.
    /// - Returns: virtual ms until the `armRetry` timer asks again.
    public func successorRetryDelayMs(afterRefusals refusals: Int) -> Int64 {
        Self.backoffDelayMs(baseMs: armRetryDelayMs, failures: refusals, quickRetries: armRetryMax, boundMs: primaryRetryDelayMsMax)
    }
    /// ``successorRetryDelayMs(afterRefusals:)`` with the default constants (the oracle's view).
    public static func defaultSuccessorRetryDelayMs(afterRefusals refusals: Int) -> Int64 {
        backoffDelayMs(baseMs: defaultArmRetryDelayMs, failures: refusals, quickRetries: defaultArmRetryMax, boundMs: primaryRetryBoundMs)
    }
    /// The retry backoff shared by failed primaries and refused successors: `baseMs` for the
    /// first `quickRetries` failures, then doubling per further failure, never above `boundMs`.
    /// - Parameter failures: consecutive failures, the latest included (≥ 1).
    public static func backoffDelayMs(baseMs: Int64, failures: Int, quickRetries: Int, boundMs: Int64) -> Int64 {
        let doublings = min(max(0, failures - max(1, quickRetries)), 20)
        return min(baseMs << Int64(doublings), boundMs)
    }
    /// Re-read spacing and bound after an inventory read failure.
    public var syncRetryDelayMs: Int64 = 2_000
    public var syncRetryMax: Int = 5
    /// A primary whose schedule request failed (not by the capacity limit, CAP-4, nor by a
    /// missing authorization, SCH-26, AND-1) is re-planned after this delay, doubling per
    /// consecutive failure up to `primaryRetryDelayMsMax`, for as long as the process lives
    /// ([derived] WALK-18, AND-3; the oracle's `primary-unregistered-by-fault` exemption ends
    /// where this retry could have run). Virtual ms.
    public var primaryRetryDelayMs: Int64 = 2_000
    public var primaryRetryDelayMsMax: Int64 = BridgeConfiguration.primaryRetryBoundMs
    /// The rule's bound on the primary retry's backoff: 5 min. Virtual ms.
    public static let primaryRetryBoundMs: Int64 = 300_000
    /// BOOT-7: launch-gate re-check period.
    public var gateRecheckMs: Int64 = 1_000
    /// Housekeeping: delivered past rows older than this are pruned (ACT-9-style bound).
    public var pastRowRetentionMs: Int64 = 26 * 3_600_000
    /// MIN_SNOOZE_LEAD (SNZ-3): "a few seconds"; the simulation varies it (2–10 s). Virtual ms.
    public var minSnoozeLeadMs: Int64 = 5_000
    /// Δ_CLOCK (REC-8): a wall-clock move against the monotonic clock larger than this is a
    /// clock correction. Virtual ms; the simulation varies it (1–60 s).
    public var clockChangeThresholdMs: Int64 = 1_000
    /// ACT-2: an action expires this long after its `occurredAtMs`: 2 min.
    public var actionLifetimeMs: Int64 = 120_000
    /// The snooze maximum: 30 min (SNZ-3, SNZ-11, SNZ-21).
    public var snoozeMaxMs: Int64 = 30 * 60_000
    /// Δ_IMMINENT (FG-2): foregrounding consumes an ordinary successor due within this horizon.
    /// Virtual ms; the simulation varies it (5 s – 2 min).
    public var imminentHorizonMs: Int64 = 30_000
    /// H_CTX (FG-11): a foreground context not refreshed within this lapses. Virtual ms; varied.
    public var contextHeartbeatLifetimeMs: Int64 = 15_000
    /// D_SESSION (FG-12): the longest a claimed wake session suppresses anything. Virtual ms; varied.
    public var wakeSessionDeadlineMs: Int64 = 30 * 60_000
    /// WALK-8: the provisional walk fuse is due this long after resign-active: 60 s.
    public var provisionalFuseDelayMs: Int64 = 60_000
    /// WALK-11, WALK-12: the steady fuse is due this long after the latest accepted step: 30 s…
    public var steadyFuseDelayMs: Int64 = 30_000
    /// …plus at most this scheduling tolerance (WALK-12): 5 s.
    public var steadyFuseToleranceMs: Int64 = 5_000
    /// WALK-18: the background step-poll repair period: 2 s.
    public var walkStepPollMs: Int64 = 2_000
    /// Bound on consecutive step-poll repairs (execution is never unbounded).
    public var walkStepPollMax: Int = 30
    /// WALK-7, WALK-26: the post-handoff step look-back of a recovering process: 30 s.
    public var walkLookBackMs: Int64 = 30_000
    /// WALK-6: size bound of the native diagnostics journal (entries).
    public var diagnosticsJournalMax: Int = 48
    /// W_STEP (FG-6, AND-16, AND-18): steps counted within this window before a ring is due
    /// postpone an ordinary Android retry; tracking is armed this long before each ring. Virtual
    /// ms; the simulation varies it (15 s – 3 min).
    public var recentStepWindowMs: Int64 = 60_000
    /// Android: the bound of a queued pass-over when its owner never closes in this process's
    /// view: the 20 h owner-record bound (OCC-21, AND-15).
    public var passOverQueueBoundMs: Int64 = 20 * 3_600_000
    /// FG-14: the foreground watchdog: 30 s activity window + 15 s countdown = 45 s. Virtual ms.
    public var challengeWatchdogMs: Int64 = 45_000
    /// H_SKIP (CAP-8): the horizon of concrete occurrences registered for a weekly alarm with
    /// skip dates (REC-4): a seed is registered only when its occurrence falls within this many
    /// ms from now. Default 14 days, borrowed from seed 003; the simulation varies it. A primary
    /// is never disqualified by distance (CAP-7). Virtual ms.
    public var skipHorizonMs: Int64 = 14 * 86_400_000
    /// N_SKIP (CAP-8): at most this many concrete skip-date occurrences (primaries and seeds of
    /// skip-date roots) are wanted at once app-wide, primaries first, each soonest first. Default
    /// 30, borrowed from seed 003; the simulation varies it. What it cuts is counted (CAP-9).
    public var skipOccurrenceMax: Int = 30
    /// SCH-9: a direct save looks for its exact primaries with at most this many inventory reads…
    public var saveVerificationReadsMax: Int = 3
    /// …spaced this many virtual ms apart (SCH-9: 100 ms).
    public var saveVerificationSpacingMs: Int64 = 100
    /// SCH-9: how long after a schedule call returned AlarmKit may still leave the new alarm out
    /// of a read — the span SCH-9's verification reads cover ((reads − 1) × spacing, 200 ms).
    /// A ring missing from a read within it was not removed (ios uniform seed 9815). Virtual ms.
    public var listingLagMs: Int64 { Int64(max(1, saveVerificationReadsMax - 1)) * saveVerificationSpacingMs }
    /// SCH-26: AlarmKit exists on this device (iOS 26 and later; the adapter's `#available`).
    /// When false every direct save rejects with `.notAuthorized` (the app offers its Settings
    /// path); JS never branches on the OS version itself. Always true on Android.
    public var alarmKitAvailable: Bool = true
    /// Android: the sound names the app keeps as files in credential-encrypted storage (a ringtone
    /// the user imported, copied into the app's files; a MediaStore file), unreadable before the
    /// first unlock after a boot (issue 18; BlackyHawky/Clock#292, GrapheneOS#6622). The sounds
    /// the app ships in its APK and the system alarm sound stay readable.
    public var credentialStoredSounds: [String] = []
    public var defects: KnownDefects

    /// WALK-2: the background-task identifier whose launch handler resumes the HealthKit workout.
    public static let workoutBackgroundTaskIdentifier = "com.bonkalarm.app.healthkit-workout"
    /// WALK-2: the app's declared Info.plist `BGTaskSchedulerPermittedIdentifiers`, as the config
    /// plugin writes them. The launch handler is registered before launch finishes (the adapter's
    /// `didFinishLaunching`); the bridge files no separate background-processing request — no
    /// `BridgeCommand` can express one.
    public static let declaredBackgroundTaskIdentifiers: [String] = [workoutBackgroundTaskIdentifier]

    /// IOS-1: the iOS configuration the bridge requires, as its config plugin writes it: the
    /// AlarmKit usage description and the walk's background-task identifier in Info.plist, and
    /// no `com.apple.developer.alarmkit` entitlement (none exists; seed 003 §1).
    public static let requiredIOSConfiguration = IOSAppConfiguration.required

    public init(flavor: PlatformFlavor, calendar: WallCalendar, defects: KnownDefects = KnownDefects()) {
        self.flavor = flavor
        self.calendar = calendar
        self.defects = defects
    }
}

/// IOS-1: the app's declared iOS configuration (Info.plist keys and entitlements), as the config
/// plugin writes it. The simulated device takes the app's declared configuration; the iOS model
/// enforces what a missing entry means.
public struct IOSAppConfiguration: Sendable, Equatable {
    /// Info.plist `NSAlarmKitUsageDescription` is present. Without it AlarmKit schedules nothing
    /// (every schedule fails `notAuthorized`; Info.plist key documentation, seed 003 §1).
    public var alarmKitUsageDescription: Bool
    /// Info.plist `BGTaskSchedulerPermittedIdentifiers`. A launch handler for an identifier not
    /// listed here is refused (BGTaskScheduler documentation), so the walk's workout-recovery
    /// launch (WALK-2) needs ``BridgeConfiguration/workoutBackgroundTaskIdentifier``.
    public var backgroundTaskIdentifiers: [String]
    /// Entitlements the app declares. The bridge requires none: no AlarmKit entitlement exists.
    public var entitlements: [String]

    public init(alarmKitUsageDescription: Bool, backgroundTaskIdentifiers: [String], entitlements: [String] = []) {
        self.alarmKitUsageDescription = alarmKitUsageDescription
        self.backgroundTaskIdentifiers = backgroundTaskIdentifiers
        self.entitlements = entitlements
    }

    /// What the bridge requires (IOS-1), and what the config plugin declares.
    public static let required = IOSAppConfiguration(
        alarmKitUsageDescription: true,
        backgroundTaskIdentifiers: BridgeConfiguration.declaredBackgroundTaskIdentifiers,
        entitlements: [])

    /// True when the workout-recovery launch handler (WALK-2) is permitted.
    public var permitsWorkoutRecoveryLaunch: Bool {
        backgroundTaskIdentifiers.contains(BridgeConfiguration.workoutBackgroundTaskIdentifier)
    }
}

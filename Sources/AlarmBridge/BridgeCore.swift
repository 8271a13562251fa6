/// The platform-neutral bridge core, sans-I/O: `handle(_:at:) -> [BridgeCommand]`.
///
/// One value lives per app process; process death discards it and a new process starts a new
/// core, which rebuilds from the store and the platform inventory (DESIGN.md, "The bridge is
/// sans-I/O"). Thin adapter differences (iOS AlarmKit vs Android AlarmManager) are switches on
/// `configuration.flavor`: relative schedules and daemon-owned alerts on iOS (SCH-2); fixed
/// `setAlarmClock` rings, a bridge-owned ringing service and boot restore on Android (AND-2, AND-3).
///
/// SCH-25: the planner, reconciler and policy logic import Foundation only — no AlarmKit,
/// AlarmManager, HealthKit or Core Motion; every OS interaction is a ``BridgeCommand`` the
/// adapter (here: the simulator's fakes) carries out (a test scans this module's imports).
public struct BridgeCore: Sendable {
    public enum Phase: Sendable, Equatable {
        /// Waiting for the store (and, for an absent domain, the inventory).
        case loading
        /// The launch gate holds (BOOT-4, BOOT-5).
        case gated(LaunchGateState)
        case ready
    }

    public private(set) var configuration: BridgeConfiguration {
        didSet { configurationRevision = PlanCache.nextConfigurationRevision() }
    }
    /// Names the configuration's content within the process: a fresh number from one counter at
    /// every change, so two bridges with the same number have the same configuration (the plan
    /// cache's key).
    private(set) var configurationRevision = PlanCache.nextConfigurationRevision()
    /// The last recurrence plan, shared by this bridge's copies (the idempotent-sync probe's
    /// among them): a pure function of the document, the configuration and the instant.
    let planCache = PlanCache()
    public private(set) var phase: Phase = .loading
    /// The loaded document; nil until the store was read (or the gate proved a fresh install).
    public private(set) var document: BridgeDocument?
    /// Inputs that arrived before the bridge was ready, replayed in order once it is. Bounded.
    var queued: [BridgeInput] = []
    /// While `handleObservation` replays what queued behind a read: the inputs still to come in
    /// this same step (empty otherwise). Process-local, never persisted.
    var replayAhead: [BridgeInput] = []
    /// Native lifecycle: authoritative foreground state (FG-8).
    public internal(set) var appActive = false
    var challengeVisible = false
    /// Rings the bridge believes are alerting (iOS: from snapshots; Android: its ringing service).
    /// Sorted, no duplicates.
    var alerting: [AlarmUUID] = []
    /// Schedule requests awaiting completion.
    var inFlight: [AlarmUUID] = []
    /// The ring IDs of the latest complete inventory or `alarmUpdates` set this process observed
    /// (IOS-5: an absent ring was removed); nil before the first. SCH-24: a wanted primary missing
    /// from it is repaired at the background edge (`repairSyncOnBackground`).
    var lastObservedRingIDs: [AlarmUUID]?
    /// Wall ms of this process's latest platform view before the one being observed (the previous
    /// process's last reading before its first): a one-shot `.relative` alert seen now that began at
    /// its row's instant can only have done so if no view came after that instant (REC-8, OCC-21).
    var observedBeforeWallMs: Int64?
    var lastObservationWallMs: Int64?
    /// True when `observedBeforeWallMs` was read in this boot (a view of this process, or the
    /// previous process's reading of this boot): every clock correction since it above the
    /// threshold has been noticed (REC-9, `clockCorrection`).
    var observedBeforeThisBoot = false
    /// Rings this process judged wrong-instant alerts (``isWrongInstantDelivery(_:atWallMs:)``;
    /// bounded, oldest dropped first): while the instant is still ahead, the same judgement holds.
    var wrongInstantRings: [AlarmUUID] = []
    /// Android: rings whose schedule this process saw succeed (bounded). AlarmManager loses a
    /// pending alarm only to a reboot, a force-stop or a permission revoke, all of which end the
    /// process, so one of these gone after its fire time was delivered (OCC-7, `desiredRings`).
    var confirmedInProcess: [AlarmUUID] = []
    /// iOS: rings whose schedule this process saw succeed that no `alarmUpdates` set has listed
    /// since (bounded). A set is delivered a moment after it was taken, so one that arrives after
    /// a schedule's completion may predate the landing: it is no evidence that the OS removed
    /// such a ring (IOS-5; ios swarm seed 26570). A set (or a verification read) that lists the
    /// ring takes it off; a fresh inventory read judges it as usual.
    var confirmedUnlisted: [AlarmUUID] = []
    /// Android: rings an inventory read of this process showed AlarmManager holding (bounded,
    /// oldest dropped first). Gone after their fire time, they were delivered, as for
    /// `confirmedInProcess` (OCC-7; android uniform seeds 844, 1455: a process that only read
    /// the inexact primary re-added it while its delivery was on the way).
    var heldInProcess: [AlarmUUID] = []
    static let heldInProcessMax = 128
    /// Android: delivered rings whose copy a sync may have added back that this process already
    /// cancelled (``retireReAddedCopies(of:kinds:keeping:into:)``), so that a challenge heartbeat
    /// does not cancel them again every few seconds (bounded, oldest dropped first; a new process
    /// cancels once more, which finds nothing).
    var reAddedCopiesCancelled: [AlarmUUID] = []
    /// Android: undelivered inexact primaries whose add-back failed in this process with an error
    /// worth retrying, their day recorded missed at the failure (``recordFailedReAdd(_:error:now:into:)``):
    /// the primary retry's sync adds them back again, and a landed add-back withdraws the record
    /// (bounded, oldest dropped first; process-local, like the retry timer).
    var failedReAdds: [AlarmUUID] = []
    /// iOS, SCH-9: rings whose schedule call this process saw return ok, with that instant
    /// (monotonic ms), for ``listingLagMs`` (bounded). AlarmKit may list a new alarm a moment
    /// after its schedule call returned, so a read in that moment that lacks it is no evidence
    /// that it was removed or rang (ios uniform seed 9815).
    var recentlyConfirmed: [(id: AlarmUUID, monotonicMs: Int64)] = []
    static let recentlyConfirmedMax = 64
    /// Refusals since the last accepted request that the quick `armRetry` budget still covers
    /// (successor and rebase refusals; at most `armRetryMax`).
    var armRetries = 0
    /// OCC-5, [derived] WALK-18: consecutive refused successor arms of this process (the backoff
    /// exponent of ``BridgeConfiguration/successorRetryDelayMs(afterRefusals:)``); any accepted
    /// request resets it, as a rebase's fresh series does. Process-local, like every timer.
    var successorRefusals = 0
    /// The last (wall, monotonic) reading: a later step whose wall clock moved by more than
    /// Δ_CLOCK against the monotonic clock saw a clock correction (REC-8, REC-9).
    var clockAnchor: (wallMs: Int64, monotonicMs: Int64, bootCount: Int)?
    /// A correction this process noticed before it was ready (a held launch gate, BOOT-5/BOOT-7):
    /// its size (ms) and the last reading before it (old frame). The launch measures the
    /// correction against the saved reference, which predates this process's own readings; the
    /// clock moved after this reading, not after the saved one (REC-9, `becomeReady`).
    var correctionBeforeReady: (deltaMs: Int64, previousReadingWallMs: Int64)?
    /// `.relative` rows this process re-planned as moved by a zone change, with the instant each
    /// was planned for before (bounded, oldest dropped first; `occurrenceStart`, REC-8).
    var replannedRelativeRows: [(id: AlarmUUID, fromWallMs: Int64)] = []
    static let replannedRelativeRowsMax = 64
    /// The last forward correction, as (pre-correction projected wall, wall after): ring times
    /// in between were jumped over.
    var lastForwardJump: (fromWallMs: Int64, toWallMs: Int64)?
    /// The last clock reading before that forward correction (old frame): the jump happened at
    /// some instant after it, unknown when no step ran at it (`replanMovedRelativeRows`).
    var lastForwardJumpReadingWallMs: Int64?
    /// AlarmKit may deliver a `.fixed`/`.relative` alarm 20 s – 4 min late (PLATFORMS.md: Apple
    /// forums 825427): a ring instant less than this long before a clock reading may still have
    /// been held, pending, at that reading, not jumped over and not missed (ms).
    public static let lateDeliverySlackMs: Int64 = 300_000
    /// The last backward correction this process noticed, as (projected wall before it = the old
    /// frame's "now", wall after it, the last clock reading before it, in the old frame). A ring
    /// time at or before that reading, or one the new frame has not reached yet, was reached in
    /// the old frame, before the correction (REC-9; ios seeds 6387, 7197).
    var lastBackwardJump: (fromWallMs: Int64, toWallMs: Int64, lastReadingWallMs: Int64)?
    /// Rings this process published after `lastBackwardJump` was taken (bounded, oldest dropped
    /// first): requested in the corrected frame, their ring times were never reached in the old
    /// one (REC-9; ios uniform seed 11530).
    var publishedSinceBackwardJump: [AlarmUUID] = []
    /// The wall clock's last reading persisted by an earlier process (`clockReferenceWallMs` at
    /// this process's launch), in that process's frame: rings it held pending and undelivered had
    /// not begun alerting by then (REC-9, `occurrenceStart`; ios uniform seed 10296).
    var previousProcessReadingWallMs: Int64?
    /// The boot `previousProcessReadingWallMs` was read in was this one (the saved reference's boot).
    var previousProcessReadingThisBoot = false
    /// Android: how the app's earlier processes ended (`ApplicationExitInfo`, newest first), as the
    /// launch input gave them; read by ``launchAlarmsClearedSpan(now:)``.
    var previousExits: [ProcessExit] = []
    /// Android: the first missed-day judgement of this process has run: rows found gone after it
    /// were lost while this process lived, which no exit record or boot dates.
    var launchLossJudged = false
    static let publishedSinceBackwardJumpMax = 128
    /// iOS, REC-9: rings this process saw listed still scheduled, undelivered, at or after their
    /// fire time (a delivery the phone held late; bounded, oldest first out). Such a ring began
    /// alerting only after that view, so across a later set-back it may have begun in either
    /// frame (ios uniform seed 42696). Process-local, never persisted.
    var heldPastFireSeen: [AlarmUUID] = []
    /// `heldPastFireSeen` as it stood, in the old frame, when `lastBackwardJump` was taken.
    var heldAtBackwardJump: [AlarmUUID] = []
    static let heldPastFireSeenMax = 64
    /// Android: the last set-back was dated by its TIME_SET broadcast (seen at its instant), so a
    /// ring time in the re-lived interval was due in the old frame (OCC-3).
    var lastBackwardJumpDated = false
    /// Android, with a dated set-back: the occurrence-opening rings the document held at the
    /// correction whose ring time lies in the re-lived interval. A ring registered after the
    /// correction was never due in the old frame, whatever its ring time (android uniform seed
    /// 11530: a day added back at 05:34 in the new frame, due 05:51, taken as due an hour before).
    var reLivedRingIDs: [AlarmUUID] = []
    /// Android: `lastBackwardJump` is an undated set-back an earlier process noticed and persisted
    /// (``BridgeDocument/datedSetBack`` with `dated` false): this process never saw which rings
    /// were registered after it, so only those the record lists (`reLivedRingIDs`: registered at
    /// the correction, ring time reached before it) take its shift (REC-9).
    var undatedSetBackRestored = false
    /// The token of the occurrence live across the last correction (its offset took the shift):
    /// the only record kept partly in the new frame; records closed before it are all in the old.
    var correctionLiveToken: String?
    /// SNZ-20: snooze rings and successors a set-back may have left late, with their rebased fire
    /// time (wall ms), until the next inventory read shows whether they fired (BridgeCore+Clock);
    /// `heldOnly`: reached in the old frame, rebased only if still listed scheduled (Android).
    var snoozeRebaseIfUnrung: [(id: AlarmUUID, fireWallMs: Int64, heldOnly: Bool)] = []
    /// SNZ-20, SNZ-21: the rebased snooze row whose re-registration the platform refused, asked
    /// again on the `armRetry` timer (at most `armRetryMax` times) while the process lives.
    var snoozeRebaseRetry: RingRow?
    /// SND-2: the rows of pending rings re-registered with the sound of a later sequence position,
    /// as they were before, until the daemon answers (a refused replacement keeps the old ring).
    var resounded: [RingRow] = []
    /// A skip in progress (SNZ-15): the successor armed for the handoff, then the snooze ring to retire.
    var pendingSkip: (token: String, successorID: AlarmUUID, snoozeID: AlarmUUID)?
    /// Snooze rings requested by `beginOneTimeSnooze` in this process and not yet answered: only
    /// their confirmation accepts a snooze (a repair's re-registration does not, ios seed 4592).
    var snoozeRequestsInFlight: [AlarmUUID] = []
    /// A sync skipped an alerting family (SCH-22); run it again once no family is alerting.
    var deferredSync: InventoryPurpose?
    /// A sync skipped a ring whose configuration changed while its schedule was in flight.
    var followUpSync: InventoryPurpose?
    /// A sync whose inventory read failed, to be read again; bounded by `syncRetryMax`.
    var retrySync: InventoryPurpose?
    var syncRetries = 0
    /// Consecutive failed primary requests (the retry's backoff exponent) and whether its timer
    /// is set; process-local, like every timer.
    var primaryRetries = 0
    var primaryRetryPending = false
    /// Known defect `gives-up-on-failed-primary`: primaries whose request failed, never requested
    /// again by this process (bounded; process-local).
    var givenUpPrimaries: [AlarmUUID] = []
    var dirty = false
    /// Counts every change of `document` (issue 20): a plan computed at one count is still the
    /// plan while the count is unchanged (``reconcile(purpose:inventory:now:into:)``).
    var documentChanges: UInt64 = 0
    /// Ready, but an inventory read that must be observed before anything else (the launch read,
    /// or a Stop intent's look-first read) has not arrived: inputs queue until it does.
    var awaitingObservation: InventoryPurpose?
    /// Failed reads of the awaited observation re-read so far (BOOT-2); bounded by `observationRereadsMax`.
    var observationRereads = 0
    static let observationRereadsMax = 3
    /// Actions journalled while the store could not be read; cleared once they were handled.
    var journal: [JournalEntry] = []
    /// OCC-6: when each Stop intent reached the bridge, newest last, bounded: the trigger its
    /// successor and its action record are timed from, however long the look-first read (IOS-2)
    /// or the store (ACT-1, BOOT-8) keeps the bridge from acting on it.
    var stopArrivals: [StopArrival] = []
    /// Alerting rings this foreground stint already asked to stop (FG-2), so that one alert gets
    /// one stop; an entry lasts while that alert does (`removeAlerting`) and is cleared on leaving.
    var foregroundStops: [AlarmUUID] = []
    /// Rings this process stopped in the foreground (FG-2) whose alert `alarmUpdates` has not yet
    /// shown ended; unlike `foregroundStops` kept after the app leaves: a stopped ring is no
    /// pressure (``hasPressure(_:now:)``). Sorted, no duplicates.
    var stoppedAlerts: [AlarmUUID] = []
    /// iOS: rings whose stop or cancel by this process completed ok, that no `alarmUpdates` set
    /// has shown since as not alerting or absent (bounded, oldest dropped first; process-local).
    /// The daemon yields a set for every change, in order, so until one reflects that stop or
    /// cancel, a set showing the ring alerting was taken before it
    /// (``alertPredatesOwnEnd(_:inventory:now:)``). A zone or clock change this process notices
    /// clears it: only within one frame is "planned ahead" the proof.
    var endedUnacknowledged: [AlarmUUID] = []
    static let endedUnacknowledgedMax = 64
    /// FG-2, SCH-18: primaries consumed while Ember stayed in the foreground. Process-local.
    public internal(set) var foregroundSuppressed: [ForegroundSuppressedProof] = []
    /// FG-11: monotonic time of the last `setForegroundAlarmContext` heartbeat, nil once lapsed.
    var contextHeartbeatMonotonicMs: Int64?
    /// FG-12: the wake session JS claimed for the live occurrence, with its explicit deadline.
    var wakeSession: (token: String, untilMonotonicMs: Int64)?
    /// Keychain receipts, the kill switch and `cancelSystemAlarms` (BridgeCore+Receipts.swift).
    var launch = LaunchLedger()
    /// iOS walk state that dies with the process (HealthKit confirmations, step poll): WALK-3, WALK-18.
    var walkSession = WalkSession()
    /// iOS: HealthKit workout authorization as the adapter last read it (WALK-4).
    var healthAccessGranted = false
    /// Android process-local state: step tracking, ringing captures, the lock-screen grant.
    var android = AndroidSession()
    /// The in-app wake-check burst alive in this process (FG-17); dies with the process.
    var foregroundBurst: ForegroundBurst?
    /// FG-14: when the foreground watchdog is due (monotonic ms); a firing before it is stale.
    var watchdogDueMonotonicMs: Int64?
    /// True while a delivery is inferred from a vanished ring rather than seen alerting (SND-13).
    var deliveryOnlyInferred = false
    /// CAP-4: primaries whose request in flight is the one retry after reclaiming a seed.
    var limitRetries: [AlarmUUID] = []
    /// AND-1, AND-3: rings whose request in flight is the inexact one sent after `setAlarmClock`
    /// refused them (``degradeRefusedExact(_:error:now:into:)``).
    var degradedRetries: [AlarmUUID] = []
    /// CAP-3: a sync withheld seeds while primaries it wanted were being established; it runs
    /// again once nothing is in flight. Bounded per round (`seedFollowUps`).
    var seedFollowUp: InventoryPurpose?
    var seedFollowUps = 0
    var seedFollowUpReadIssued = false
    /// CAP-3, SCH-20: a follow-up the bound held back while the primaries it waited for were
    /// still in flight; one of them landing is progress, so the follow-up runs after all.
    var seedFollowUpWithheld: InventoryPurpose?
    /// Direct saves in progress and deletions awaiting confirmation (BridgeCore+Save.swift).
    public internal(set) var saves = SaveLedger()

    static let queuedInputsMax = 256

    public init(configuration: BridgeConfiguration) {
        self.configuration = configuration
    }

    var flavor: PlatformFlavor { configuration.flavor }
    var defects: KnownDefects { configuration.defects }

    /// Handles one input at one instant and returns the requests it makes, in order.
    /// - Complexity: O(rings + alarms) per step.
    public mutating func handle(_ input: BridgeInput, at now: BridgeInstants) -> [BridgeCommand] {
        var out: [BridgeCommand] = []
        // The zone is read with the clock, not learnt from a notification that may still be
        // queued behind this input: every calendar decision uses the zone in force now (REC-8).
        if let zone = now.zoneIdentifier, zone != configuration.calendar.zoneIdentifier,
           let calendar = WallCalendar(zoneIdentifier: zone) {
            configuration.calendar = calendar
            clearForegroundSuppressedOnClockChange(into: &out)  // SCH-18: time-zone change
            if phase == .ready { adoptDeviceZone(now: now, into: &out) }
        }
        if case .healthAccessObserved(let granted) = input { healthAccessGranted = granted }  // WALK-4, any phase
        if case .stopIntent(let id) = input { noteStopArrival(id, now: now) }  // OCC-6, any phase
        noteOwnEndCompleted(input)  // IOS-5, OCC-20: any phase
        let correction = clockCorrection(now: now)
        if correction != nil { endedUnacknowledged = [] }  // a new frame: see `endedUnacknowledged`
        var previousReading = clockAnchor?.wallMs
        var datedByBroadcast = false
        if flavor == .android, case .clockChanged = input, correction != nil {
            // REC-9: AOSP AlarmManagerService.setTimeImpl sends ACTION_TIME_CHANGED (TIME_SET) as
            // it sets the clock, so a running process learns of the correction at its instant: ring
            // times up to now in the new frame were reached before it, in the old frame, and stay
            // due there (android swarm seed 5370: a held 05:42 delivery after a 90 s set-back).
            // Those up to the old frame's reading (the re-lived interval) were due in the old frame
            // too, but a held RTC trigger among them rings again at its time in the new frame (AMS
            // re-frames it; android uniform 7197), so they count for ownership only (OCC-3,
            // `datedByBroadcast`; android uniform 4988).
            previousReading = max(previousReading ?? .min, now.wallMs)
            datedByBroadcast = true
        }
        if phase != .ready, let correction, let previousReading {
            correctionBeforeReady = (correction, previousReading)  // REC-9: dated by this process's readings
        }
        clockAnchor = (now.wallMs, now.monotonicMs, now.bootCount)
        switch phase {
        case .loading, .gated:
            handleBeforeReady(input, now: now, into: &out)
        case .ready:
            if let correction { applyClockCorrection(correction, now: now, previousReadingWallMs: previousReading, datedByBroadcast: datedByBroadcast, into: &out) }  // before expiry
            expireIfDue(now: now, into: &out)  // INACT-21: every path checks expiry first
            if let awaited = awaitingObservation {
                if case .inventoryRead(awaited, let result) = input {
                    handleObservation(result, purpose: awaited, now: now, into: &out)
                } else {
                    enqueue(input)
                }
            } else if flavor == .ios, Self.looksFirst(input) {
                // IOS-2: look at the daemon before acting on a Stop or a background wake; alerts
                // the bridge never saw (updates held while locked) are observed first, in due
                // order (OCC-2), and expired ones are retired (INACT-21).
                journalStopBeforeLooking(input, now: now, into: &out)
                enqueue(input)
                awaitingObservation = .observe
                out.append(.readInventory(.observe))
            } else {
                handleReady(input, now: now, into: &out)
            }
            if flavor == .android { androidAfterStep(input, now: now, into: &out) }
        }
        // OCC-6: once the bridge takes inputs as they come, every Stop that reached it was acted on.
        if isAcceptingInputs { stopArrivals = [] }
        diagnoseLaunchGate(in: out, now: now)  // WALK-6
        flush(into: &out)
        launchHousekeeping(into: &out)  // IOS-9 receipts, BOOT-12 kill-switch check
        return out
    }

    // MARK: - Launch gate (BOOT-2, BOOT-4..7)

    mutating func handleBeforeReady(_ input: BridgeInput, now: BridgeInstants, into out: inout [BridgeCommand]) {
        if handleLaunchInput(input, now: now, into: &out) { return }
        switch input {
        case .processStarted(_, let exits):
            previousExits = exits
            out.append(.loadJournal)
            out.append(.loadStore)
        case .journalLoaded(let entries):
            // ACT-1: a Stop journalled by a process that died before it could act is acted on now,
            // before anything that arrived later.
            // Entries this process appended before the read are already on disk (an append), so
            // they are in `entries` too: merge, never overwrite (ios seed 1881 lost a clear that way).
            journal = entries + journal.filter { !entries.contains($0) }
            for entry in entries where entry.action == "stop" && !stopArrivals.contains(where: { $0.ringID == entry.ringID }) {
                stopArrivals.insert(StopArrival(ringID: entry.ringID, wallMs: entry.occurredAtMs, monotonicMs: nil, bootCount: nil), at: 0)
            }
            let pending = entries.map { BridgeInput.stopIntent($0.ringID) }.filter { !queued.contains($0) }
            queued = pending + queued
        case .bootCompleted(locked: true) where defects.restoreSkipsLockedBoot:
            // Known defect (AND-3): the boot receiver only acts on BOOT_COMPLETED, so a process
            // started by LOCKED_BOOT_COMPLETED restores nothing until the first unlock.
            android.restoreWaitsForUnlockedBoot = true
            out.append(.note("defect restore-skips-locked-boot: LOCKED_BOOT_COMPLETED ignored, restore waits for BOOT_COMPLETED"))
        case .packageReplaced where defects.packageReplacedRestoresNothing:
            // Known defect (AND-3, BOOT-9): the receiver of MY_PACKAGE_REPLACED restores nothing;
            // what the update cleared stays cleared until the user opens the app.
            android.restoreSkippedAfterUpdate = true
            out.append(.note("defect package-replaced-restores-nothing: MY_PACKAGE_REPLACED ignored, no restore"))
        case .stopIntent(let id):
            // ACT-1: journal the action durably before anything else, readable before first unlock.
            // BOOT-8: the Stop is not acted on now — without the saved definition the bridge
            // cannot tell a plain alarm from one with a challenge; it waits for the store.
            let entry = JournalEntry(ringID: id, action: "stop", occurredAtMs: now.wallMs)
            journal.append(entry)
            out.append(.appendJournal(entry))
            enqueue(input)
        case .storeLoaded(.success(let document)):
            if let document {
                becomeReady(document, now: now, into: &out)
            } else if flavor == .android {
                out.append(.loadCredentialProtectedStore)  // AND-4: an older version's state may sit in CE
            } else {
                out.append(.readInventory(.launchGate))  // BOOT-5 needs the daemon's answer
            }
        case .storeLoaded(.failure(let error)):
            if defects.unavailableReadAsEmpty {
                // Known defect (seed 004): the unreadable domain is taken as a fresh, empty one.
                out.append(.note("defect unavailable-read-as-empty: unreadable store taken as empty"))
                becomeReady(BridgeDocument(), now: now, into: &out)
            } else if error == .damaged {
                damagedStoreLoaded(now: now, into: &out)  // BOOT-5, BOOT-2
            } else {
                hold(.waitingForUnlock, into: &out)  // BOOT-2, BOOT-4
            }
        case .credentialProtectedStoreLoaded(let result):
            credentialProtectedStoreLoaded(result, now: now, into: &out)  // AND-4, BridgeCore+Storage.swift
        case .inventoryRead(.launchGate, .success(let inventory)):
            if inventory.isEmpty {
                becomeReady(BridgeDocument(), now: now, into: &out)  // BOOT-6: fresh install
            } else {
                hold(.waitingForSavedDomain, into: &out)  // BOOT-5
            }
        case .inventoryRead(.launchGate, .failure):
            hold(.waitingForSavedDomain, into: &out)
        case .protectedDataAvailable, .timerFired(.gateRecheck):
            if case .gated = phase { out.append(.loadStore) }  // BOOT-7
        case .didBecomeActive:
            if case .gated = phase { out.append(.loadStore) }  // BOOT-7: re-check on foreground
            enqueue(input)
        case .api(.getScheduledAlarmTimes):
            if case .gated = phase {
                // SCH-16: the registry (the saved domain) cannot be read: reject, never answer empty.
                out.append(.reply(.scheduledAlarmTimesRejected(reason: "saved alarm registry unreadable")))
            } else {
                enqueue(input)
            }
        default:
            enqueue(input)
        }
    }

    /// BOOT-5: the saved domain exists but cannot be read although protected data is available
    /// (a damaged store). The gate holds, waiting for the saved domain rather than for an unlock
    /// (BOOT-7: a distinct state), and re-reads it every 1 s. It holds whether or not the daemon
    /// holds alarms: a domain that exists is no fresh install (BOOT-6), and starting empty would
    /// overwrite the saved definitions with a decision taken from an unreadable store (BOOT-2).
    mutating func damagedStoreLoaded(now: BridgeInstants, into out: inout [BridgeCommand]) {
        out.append(.note("saved alarm domain unreadable (damaged store): waiting for the saved domain (BOOT-5)"))
        hold(.waitingForSavedDomain, into: &out)
    }

    mutating func hold(_ state: LaunchGateState, into out: inout [BridgeCommand]) {
        if phase != .gated(state) { out.append(.launchGate(state)) }
        phase = .gated(state)
        out.append(.setTimer(.gateRecheck, delayMs: configuration.gateRecheckMs))
    }

    /// FG-2, WALK-5, WALK-9: Ember is natively active, or its activation is already known and
    /// waits to be handled — queued behind a read, or later in the replay of this very step (an
    /// open foreground stint: `droppingEndedForegroundStints` removed the ended ones). A walk fuse
    /// armed now would be cancelled by that activation in the same step: a foreground maintenance
    /// alarm (WALK-13; ios swarm seed 42837: steps queued behind a damaged-store launch gate,
    /// then the user's open, replayed in that order at the release).
    var activeOrActivating: Bool {
        appActive || queued.contains(.didBecomeActive) || replayAhead.contains(.didBecomeActive)
    }

    mutating func enqueue(_ input: BridgeInput) {
        if queued.count >= Self.queuedInputsMax { queued.removeFirst() }
        queued.append(input)
    }

    mutating func becomeReady(_ loaded: BridgeDocument, now: BridgeInstants, into out: inout [BridgeCommand]) {
        // IOS-10: a surviving Keychain receipt becomes a failed wake day before startup is released.
        guard receiptsPermitRelease(loaded, now: now, into: &out) else { return }
        // INACT-13: the live occurrence is restored as persisted — its policy, ring time, activity
        // and snooze times — and its deadline is never restarted from this launch.
        document = loaded
        documentChanges &+= 1
        phase = .ready
        out.append(.launchGate(.released))
        if defects.staleChallengeVisibleSurvivesRestart, loaded.staleChallengeVisible == true {
            challengeVisible = true  // known defect: FG-13 says no visibility survives a restart
            out.append(.note("defect stale-challenge-visible-survives-restart: challenge taken as visible"))
        }
        restoreDatedSetBack(loaded)  // REC-9: before a correction this launch notices replaces it
        restoreForwardJump(loaded)  // REC-9, likewise
        restoreOwedSnoozeRebase(loaded, into: &out)  // SNZ-20, SNZ-21
        previousProcessReadingWallMs = loaded.clockReferenceWallMs
        previousProcessReadingThisBoot = loaded.clockReferenceBootCount == now.bootCount
        applyCorrectionAtRelease(loaded, now: now, into: &out)  // REC-9
        adoptDeviceZone(now: now, into: &out)  // REC-8: the zone may have changed while no process ran
        housekeeping(now: now)
        // INACT-21 with INACT-3, ACT-1: a Stop a ready process journalled before it died is genuine
        // activity at its own instant; it is credited before the expiry check, which must not
        // expire an occurrence whose activity the journal holds (fault death-mid-close, ios seed
        // 236: the launch expired it and deleted its receipt, the Stop 8 min before unapplied).
        for entry in journal where entry.action == "stop" && entry.journalledReady == true {
            credit(entry.ringID, now: now, into: &out)
        }
        expireIfDue(now: now, into: &out)
        armExpiryTimer(now: now, into: &out)
        if android.restoreWaitsForUnlockedBoot || android.restoreSkippedAfterUpdate {
            // Known defect `restore-skips-locked-boot`: a process started by LOCKED_BOOT_COMPLETED
            // takes no launch restore; what queued meanwhile runs now, unobserved.
            let replay = queued
            queued = []
            for input in replay { handleReady(input, now: now, into: &out) }
            return
        }
        // SCH-24, AND-3: restore on every launch / boot. Inputs that queued up during the launch
        // (a Stop intent, say) wait for this read, so that alerts are observed in due order
        // first (OCC-2) and not in the order the process happened to be woken for them.
        awaitingObservation = .launchSync
        out.append(.readInventory(.launchSync))
    }

    /// Inputs that make the iOS bridge read the daemon before acting.
    /// ACT-1, IOS-11: a Stop the bridge will act on only after its look-first read is journalled
    /// durably first, as before the launch gate, so that a process death before that read's step
    /// has persisted its effects leaves it to the next launch (fault death-mid-close: the step
    /// that opened the occurrence and armed its successor died before its first write, and the
    /// next launch knew nothing of the occurrence). The journal is cleared once the read's step
    /// has handled it (`handleObservation`).
    mutating func journalStopBeforeLooking(_ input: BridgeInput, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard case .stopIntent(let id) = input, !journal.contains(where: { $0.ringID == id && $0.action == "stop" }) else { return }
        let entry = JournalEntry(ringID: id, action: "stop", occurredAtMs: stopTriggerWallMs(id, now: now) ?? now.wallMs,
                                 journalledReady: true)
        journal.append(entry)
        out.append(.appendJournal(entry))
    }

    static func looksFirst(_ input: BridgeInput) -> Bool {
        switch input {
        case .stopIntent, .timerFired(.expiryCheck): return true
        default: return false
        }
    }

    /// FG-2, FG-3, WALK-8, WALK-9: a foreground stint that began and ended while inputs queued
    /// (the user opened and left the app while a launch gate held after the unlock, BOOT-5) is
    /// over: both its edges are dropped, so the replay neither silences an alert that sounds now,
    /// with Ember in the background, nor re-arms pressure for a stint in which the bridge never
    /// was the pressure (ios uniform seed 244). A stint still open (no resign after it) stays.
    static func droppingEndedForegroundStints(_ inputs: [BridgeInput]) -> [BridgeInput] {
        var result: [BridgeInput] = []
        var openActive: Int?  // the index in `result` of a didBecomeActive no resign followed yet
        for input in inputs {
            switch input {
            case .didBecomeActive:
                openActive = result.count
                result.append(input)
            case .willResignActive:
                if let index = openActive {
                    result.remove(at: index)
                    openActive = nil
                } else {
                    result.append(input)
                }
            default:
                result.append(input)
            }
        }
        return result
    }

    /// Handles an awaited inventory: observe, replay what queued meanwhile, then (at launch) reconcile.
    mutating func handleObservation(_ result: Result<[PlatformAlarm], PlatformError>, purpose: InventoryPurpose,
                                    now: BridgeInstants, into out: inout [BridgeCommand]) {
        awaitingObservation = nil
        // The known defect `reconcile-on-empty-read` takes the failure as empty instead of reading again.
        if case .failure = result, observationRereads < Self.observationRereadsMax, !defects.reconcileOnEmptyRead {
            // BOOT-2, IOS-2: a queued Stop cannot be validated against an unreadable inventory
            // (an earlier root's alert the bridge never saw may own the occurrence, OCC-2, OCC-3),
            // so nothing queued is acted on yet: read again at once, well inside T_OP.
            observationRereads += 1
            awaitingObservation = purpose
            out.append(.note("inventory unreadable (\(purpose)): queued inputs wait, read again (BOOT-2)"))
            out.append(.readInventory(purpose))
            return
        }
        observationRereads = 0
        let queuedDeliveries = queued.compactMap { input -> AlarmUUID? in
            switch input {
            case .stopIntent(let id), .alarmDelivered(let id): return id
            default: return nil
            }
        }
        var replay = Self.droppingEndedForegroundStints(queued)  // FG-2, WALK-8, WALK-9
        let stoppedRows = queuedDeliveries.compactMap { document?.row($0) }  // INACT-4: as the Stops found them
        if case .success(let inventory) = result {
            let ended = alertsEndedInQueuedSets(queued, read: inventory, queuedDeliveries: queuedDeliveries, now: now)
            observe(inventory: inventory, queuedDeliveries: queuedDeliveries, endedDeliveries: ended, now: now, into: &out)
            acknowledgeOwnEnds(in: queued)  // IOS-5: the superseded sets still came after what they show
            replay = Self.supersedingQueuedSnapshots(replay, with: inventory)
        }
        queued = []
        for (index, input) in replay.enumerated() {
            replayAhead = Array(replay[(index + 1)...])  // `activeOrActivating` looks ahead
            creditStopOfRetiredRing(input, rows: stoppedRows, now: now, into: &out)  // INACT-4
            handleReady(input, now: now, into: &out)
        }
        replayAhead = []
        if !journal.isEmpty {
            // ACT-5, ACT-1: the journal is cleared only after the document holding the replay's
            // effects is written; cleared first, a death between the two lost the Stop and its
            // credit for good (ios seed 162 of `--faults death-mid-close`: INACT-4).
            flush(into: &out)
            journal = []
            out.append(.persistJournal([]))  // handled: the journal has done its work
        }
        // Then the read itself: the launch reconcile, or (for a failed read) the bounded re-read.
        handleReady(.inventoryRead(purpose, result), now: now, into: &out)
    }

    /// IOS-5, IOS-7, OCC-2: the rings a queued `alarmUpdates` set showed alerting that the
    /// look-first read no longer shows alerting, which this bridge never saw alerting and has not
    /// recorded delivered, and for which no Stop is queued: each alerted and ended while the sets
    /// waited behind the read, with no Stop (OpenMinis#115: a ghost alert, ended by AlarmKit).
    /// The read supersedes the sets (``supersedingQueuedSnapshots(_:with:)``), not their evidence
    /// that the alert happened: it is a delivery, in due order with the others (OCC-2), whose end
    /// hands the occurrence on (IOS-7, OCC-5; ios swarm seeds 487, 1198: a weekly ghost ended
    /// while suspended, then a later root's Stop resumed the process and took the occurrence).
    func alertsEndedInQueuedSets(_ inputs: [BridgeInput], read inventory: [PlatformAlarm], queuedDeliveries: [AlarmUUID],
                                 now: BridgeInstants) -> [AlarmUUID] {
        guard flavor == .ios, let document else { return [] }
        var ended: [AlarmUUID] = []
        var acknowledged: [AlarmUUID] = []  // `endedUnacknowledged` an earlier set in the queue cleared
        for input in inputs {
            guard case .alarmUpdates(let set) = input else { continue }
            for ring in set where ring.state == .alerting && !ended.contains(ring.id) && !alerting.contains(ring.id)
                && !queuedDeliveries.contains(ring.id) && document.row(ring.id)?.delivered == false
                && (acknowledged.contains(ring.id) || !alertPredatesOwnEnd(ring.id, inventory: set, now: now))
                && !inventory.contains(where: { $0.id == ring.id && $0.state == .alerting }) {
                ended.append(ring.id)
            }
            acknowledged += endedUnacknowledged.filter { id in !set.contains { $0.id == id && $0.state == .alerting } }
        }
        return ended
    }

    /// IOS-5: every `alarmUpdates` set is the complete set at its moment, so one that queued
    /// behind the look-first read is older than the read's answer. Replayed as it came, a stale
    /// set ends alerts that are still alerting and arms a successor no trigger asked for (OCC-6,
    /// OCC-7; ios uniform seed 8437: the set from before a tied root's late alert made its primary
    /// look ended). The queued sets are replaced by the read's own answer, in the last one's place.
    static func supersedingQueuedSnapshots(_ inputs: [BridgeInput], with inventory: [PlatformAlarm]) -> [BridgeInput] {
        guard let last = inputs.lastIndex(where: { if case .alarmUpdates = $0 { return true } else { return false } }) else { return inputs }
        var result: [BridgeInput] = []
        for (index, input) in inputs.enumerated() {
            if case .alarmUpdates = input {
                if index == last { result.append(.alarmUpdates(inventory)) }
                continue
            }
            result.append(input)
        }
        return result
    }

    // MARK: - Ready

    mutating func handleReady(_ input: BridgeInput, now: BridgeInstants, into out: inout [BridgeCommand]) {
        if handleLaunchInput(input, now: now, into: &out) { return }
        switch input {
        case .processStarted, .storeLoaded, .credentialProtectedStoreLoaded, .journalLoaded, .protectedDataAvailable, .timerFired(.gateRecheck),
             .receiptsRead, .receiptWritten, .failedWakeDayWritten, .killSwitchChecked:
            break
        case .bootCompleted(let locked):
            if locked && defects.restoreSkipsLockedBoot {
                // Known defect (AND-3): LOCKED_BOOT_COMPLETED is ignored; only BOOT_COMPLETED restores.
                out.append(.note("defect restore-skips-locked-boot: LOCKED_BOOT_COMPLETED ignored"))
            } else {
                android.restoreWaitsForUnlockedBoot = false
                out.append(.readInventory(.launchSync))  // AND-3: restore after every boot broadcast
            }
        case .packageReplaced where defects.packageReplacedRestoresNothing:
            out.append(.note("defect package-replaced-restores-nothing: MY_PACKAGE_REPLACED ignored"))
        case .packageReplaced:
            out.append(.readInventory(.launchSync))  // AND-3, BOOT-9: restore after an app replacement
        case .playbackFailed(let id):
            // SND-9: a failed sound falls back to the system alarm sound; sequencing never makes
            // an alarm silent.
            playbackFailed(id, into: &out)
        case .nextAlarmClockRead(let triggerWallMs):
            nextAlarmClockRead(triggerWallMs, now: now, into: &out)  // issue 18, BridgeCore+Android.swift
        case .didBecomeActive:
            appActive = true
            // OCC-10: coming to the foreground acknowledges, completes and retires nothing; it
            // silences (FG-1, FG-2) and consumes an imminent successor (FG-2).
            consumeImminentSuccessors(now: now, into: &out)
            silenceWhileForeground(now: now, into: &out)
            walkBecameActive(now: now, into: &out)  // WALK-5, WALK-9
            if defects.heartbeatExtendsDeadline, let live = document?.liveOccurrence {
                // Known defect (issue 5): opening the app is taken as activity (INACT-5 says no).
                mutate { $0.update(with(live) { $0.lastActivityMs = now.wallMs }) }
                armExpiryTimer(now: now, into: &out)
            }
            out.append(.readInventory(.resumeSync))  // SCH-22: ask the daemon first, then sync
        case .willResignActive:
            leftForeground()
            if let live = document?.liveOccurrence, !walkResignActive(live, now: now, into: &out) {
                // FG-3, FG-4: leaving an unfinished challenge arms one successor at resign-active;
                // a started walk arms its provisional fuse instead (FG-5, WALK-8).
                armSuccessor(for: live, now: now, into: &out)
            }
        case .didEnterBackground:
            leftForeground()
            walkEnteredBackground(now: now, into: &out)  // WALK-10
            repairSyncOnBackground(now: now, into: &out)  // CAP-3, SCH-24: seeds and missing primaries
        case .scheduleCompleted(let id, let result):
            scheduleCompleted(id, result: result, now: now, into: &out)
            saveScheduleCompleted(id, result: result, now: now, into: &out)  // SCH-9, SCH-10
        case .cancelCompleted(let id, let result):
            deletionCancelCompleted(id, result: result, into: &out)  // SCH-8
        case .stopCompleted:
            // Rows were already retired when the call was issued; a re-registration republished
            // the same ID, so the completion must not remove anything.
            break
        case .inventoryRead(.directSave(let alarmID), .failure(let error)):
            // SCH-16: an unreadable inventory is not empty: the save decides nothing and rejects.
            out.append(.note("inventory unreadable (directSave \(alarmID)): \(error.rawValue)"))
            resolveSave(alarmID, failure: .notVerified, now: now, into: &out)
        case .inventoryRead(.verifySave(let alarmID), let result):
            saveVerificationRead(alarmID, result: result, now: now, into: &out)  // SCH-9
        case .timerFired(.saveVerification):
            saveVerificationTimerFired(now: now, into: &out)
        case .inventoryRead(let purpose, .success(let inventory)):
            syncRetries = 0
            observe(inventory: inventory, now: now, into: &out)
            if purpose == .scheduledTimes { answerScheduledTimes(.success(inventory), now: now, into: &out) }  // API-10
            reconcile(purpose: purpose, inventory: inventory, now: now, into: &out)
            // FG-2: alerts found on foregrounding are silenced — after the sync has seen them
            // alerting and deferred itself (SCH-22); it runs once `alarmUpdates` shows them ended.
            silenceWhileForeground(now: now, into: &out)
        case .inventoryRead(let purpose, .failure):
            // BOOT-2, SCH-16: an unreadable inventory is not empty; decide nothing now, read again.
            if purpose == .scheduledTimes {
                answerScheduledTimes(.failure(.readFailed), now: now, into: &out)  // SCH-16: reject
                return
            }
            if defects.reconcileOnEmptyRead, purpose != .launchGate, purpose != .observe {
                // Known defect (seed 004's mistake, applied to the daemon): "unreadable" taken as "empty".
                out.append(.note("defect reconcile-on-empty-read: unreadable inventory reconciled as empty"))
                reconcile(purpose: purpose, inventory: [], now: now, into: &out)
                return
            }
            out.append(.note("inventory unreadable (\(purpose)): no reconcile decision"))
            if purpose != .launchGate, syncRetries < configuration.syncRetryMax {
                syncRetries += 1
                retrySync = retrySync ?? purpose
                out.append(.setTimer(.syncRetry, delayMs: configuration.syncRetryDelayMs))
            }
        case .timerFired(.primaryRetry):
            primaryRetryPending = false
            out.append(.readInventory(.launchSync))  // re-plan: the failed primaries are requested again
        case .timerFired(.syncRetry):
            if let purpose = retrySync {
                retrySync = nil
                out.append(.readInventory(purpose))
            }
        case .alarmUpdates(let snapshot):
            observe(inventory: snapshot, mayPredateLandings: true, now: now, into: &out)
            silenceWhileForeground(now: now, into: &out)  // FG-1: a delivery while Ember is active
            runDeferredSyncIfClear(into: &out)
            // IOS-5: a set without a wanted primary says the OS removed it; the process repairs
            // it now rather than at the next background edge (SCH-24), in the foreground too.
            repairSyncOnBackground(now: now, observedRemoval: true, into: &out)
        case .stopIntent(let id):
            // OCC-11: Stop ends only this alert; the occurrence stays unfinished until its
            // challenge is completed.
            // ACT-1, OCC-6: the action and the successor are timed from the Stop's arrival.
            journal(id, action: "stop", now: now, occurredAtMs: stopTriggerWallMs(id, now: now))
            if isWrongInstantDelivery(id, atWallMs: stopTriggerWallMs(id, now: now) ?? now.wallMs) {
                // Issue 18 (forums 820388): the Stop of an alert hours before its instant ends no
                // occurrence; AlarmKit deleted the one-shot, so it is registered again (ID-8, IOS-2).
                registerAgainAfterWrongInstant(id, now: now, into: &out)
            } else {
                observeDelivery(id, now: now, into: &out)
                credit(id, now: now, into: &out)  // INACT-4: the iOS Stop is genuine activity
                alertEnded(id, now: now, into: &out)
            }
            runDeferredSyncIfClear(into: &out)
        case .alarmDelivered(let id):
            let rebased = document?.row(id).flatMap { $0.delivered ? nil : $0 }
            var observed: [BridgeCommand] = []
            let owner = observeDelivery(id, now: now, into: &observed)
            // INACT-13, OCC-5: the occurrence the delivery opened is written before anything is
            // rung or armed for it, so a process death in this step leaves it to the next launch
            // to restore with its pressure (fault death-mid-close, android seed 479: the process
            // died after the delivery's first command, before its durable retry and its write,
            // and the next launch recorded a delivered ring time as missed).
            flush(into: &out)
            out += observed
            if owner {
                deliverAndroidRing(id, now: now, into: &out)  // FG-1, AND-16, AND-17, SNZ-18
            }
            if let rebased { retireRebasedCopy(rebased, now: now, into: &out) }  // after the alert: arm before retire
            out.append(.readInventory(.launchSync))  // roll the root's next primary (REC-6)
        case .ringDismissed(let id):
            journal(id, action: "dismiss", now: now)
            var credited: [BridgeCommand] = []
            credit(id, now: now, into: &credited)  // INACT-6: validated against the live occurrence
            // ACT-1: the action and its credit are written first, before the ring is acted on, so
            // a process death in this step loses neither (fault death-mid-close, android seed 103).
            flush(into: &out)
            out += credited
            if alerting.contains(id) { out.append(.stop(id, origin: .lifecycle)) }
            alertEnded(id, now: now, into: &out)
            runDeferredSyncIfClear(into: &out)
        case .exactAlarmPermissionGranted:
            upgradeInexactRings(now: now, into: &out)  // AND-3: degraded rings become exact again
            out.append(.readInventory(.launchSync))  // AND-3
        case .clockChanged(let zoneIdentifier):
            clearForegroundSuppressedOnClockChange(into: &out)  // SCH-18: clock or time-zone change
            // REC-8, AND-3: re-plan every fire time in the new local frame and re-register.
            if zoneIdentifier != configuration.calendar.zoneIdentifier, let calendar = WallCalendar(zoneIdentifier: zoneIdentifier) {
                configuration.calendar = calendar
            }
            adoptDeviceZone(now: now, into: &out)  // REC-8: concrete skip-date occurrences follow in the sync
            out.append(.readInventory(.launchSync))
        case .timerFired(.expiryCheck):
            armExpiryTimer(now: now, into: &out)
        case .timerFired(.contextLapse):
            contextLapsed(now: now, into: &out)
        case .timerFired(.armRetry):
            retrySnoozeRebase(now: now, into: &out)  // SNZ-20, SNZ-21
            if let live = document?.liveOccurrence, !appActive, !hasPressure(live, now: now) {
                armSuccessor(for: live, now: now, into: &out)
            }
        case .api(let call):
            handleAPI(call, now: now, into: &out)
        case .healthAccessObserved, .workoutSessionConfirmed, .workoutCollectionConfirmed, .workoutStartFailed,
             .workoutLost, .stepsObserved, .workoutRecovered, .recentStepsQueried, .timerFired(.walkStepPoll):
            handleWalkInput(input, now: now, into: &out)  // WALK-*, BridgeCore+Walk.swift
        case .stepCounterChanged(let steps, let stepElapsedMs):
            stepCounterChanged(steps: steps, stepElapsedMs: stepElapsedMs, now: now, into: &out)
        case .volumeDismissal(let id, let kind):
            volumeDismissal(id, kind: kind, now: now, into: &out)
        case .startWakeUpCheck(let id):
            startWakeUpCheck(id, now: now, into: &out)
        case .timerFired(.stepTrackingArm):
            break  // androidAfterStep re-evaluates tracking after every step (AND-16)
        case .timerFired(.challengeWatchdog):
            challengeWatchdogFired(now: now, into: &out)  // FG-15
        case .timerFired(.ringTimeout):
            ringTimeoutFired(now: now, into: &out)
        case .burstPlaybackBegan(let id):
            burstPlaybackBegan(id)  // FG-17
        case .burstEnded(let id):
            burstEnded(id)  // FG-18
        }
        endBurstIfOrphaned(into: &out)
    }

    mutating func handleAPI(_ call: APICall, now: BridgeInstants, into out: inout [BridgeCommand]) {
        switch call {
        case .saveAlarm(let alarm):
            saveAlarm(alarm, now: now, into: &out)  // API-19, BridgeCore+Save.swift
        case .deleteAlarm(let alarmID):
            deleteAlarm(alarmID, now: now, into: &out)
        case .syncEnabledAlarms:
            out.append(.readInventory(.resumeSync))
        case .getScheduledAlarmTimes:
            out.append(.readInventory(.scheduledTimes))  // SCH-13: one read, answered in one step
        case .setForegroundAlarmContext(let context):
            applyForegroundContext(context, now: now, into: &out)
        case .getAlertingAlarmIds:
            out.append(.reply(.alertingAlarmIDs(alertingAlarmIDs)))
        case .stopAlertingAlarms(let alarmIDs):
            stopAlertingAlarms(alarmIDs, now: now, into: &out)
        case .beginOneTimeSnooze(let untilMs, let token, let alarmIDs):
            beginOneTimeSnooze(untilMs: untilMs, token: token, alarmIDs: alarmIDs, now: now, into: &out)
        case .skipOneTimeSnooze(let token, let alarmIDs):
            skipOneTimeSnooze(token: token, alarmIDs: alarmIDs, now: now, into: &out)
        case .getActiveWakeOccurrence:
            out.append(.reply(.activeWakeOccurrence(activeWakeOccurrence())))
        case .abandonWakeOccurrence(let alarmIDs):
            let before = out.count
            abandonWakeOccurrence(alarmIDs: alarmIDs, now: now, into: &out)
            if flavor == .android, out[before...].contains(.reply(.abandoned(true))) {
                reassertStepTracking(reason: "AND-18: after an abandonment", now: now, into: &out)
            }
        case .expireWakeOccurrence(let alarmIDs, let startedAt, let token):
            expireWakeOccurrence(alarmIDs: alarmIDs, startedAtMs: startedAt, token: token, now: now, into: &out)
        case .peekLastAlarmAction:
            let last = lastAlarmAction(now: now)
            out.append(.reply(.lastAlarmAction(last)))
            if defects.destructivePeek, let last {
                // Known defect (ACT-3, API-7): the peek consumes the action it returns.
                mutate { $0.actions.removeAll { $0 == last } }
            }
        case .acknowledgeLastAlarmAction(let alarmID, let action, let occurredAtMs):
            acknowledgeAlarmAction(alarmID: alarmID, action: action, occurredAtMs: occurredAtMs, into: &out)
        case .completeChallenge(let rootID, let token):
            completeChallenge(rootID: rootID, token: token, now: now, into: &out)
        case .cancelSystemAlarms(let rootIDs):
            cancelSystemAlarms(rootIDs: rootIDs, now: now, into: &out)
        case .getAbandonedWakeOccurrences:
            out.append(.reply(.abandonedWakeOccurrences(abandonedWakeOccurrences())))
        case .acknowledgeAbandonedWakeOccurrence(let token):
            acknowledgeAbandonedWakeOccurrence(token: token, into: &out)
        case .reportCachedPreferences:
            break  // BOOT-3: advisory; handled (and ignored by the gate) in handleLaunchInput
        case .startWalkCheck(let alarmIDs):
            startWalkCheck(alarmIDs: alarmIDs, now: now, into: &out)
        case .reconcileStepSuppressionTracking:
            reconcileStepSuppressionTracking(now: now, into: &out)  // API-16
        case .startForegroundAlarmSound(let alarmID, let title, let body):
            startForegroundAlarmSound(alarmID: alarmID, title: title, body: body, now: now, into: &out)
        case .getAudibleAlarmCount, .getAudibleAlarmIds, .recordAudibleAlarm, .resetAudibleAlarmCount:
            handleAudibleAPI(call, into: &out)
        case .recordChallengeInteraction:
            challengeInteraction(now: now, into: &out)
        }
    }

    // MARK: - Helpers

    /// Applies a change to the document and marks it for the next persist.
    /// REC-8: when the persisted zone differs from the device zone, one-shots still ahead are
    /// re-planned in the new local frame (``LogicalAlarm/rebasingOneShot(to:after:)``) and the
    /// zone is recorded. Weekly roots need nothing: their fire times are computed from local time.
    mutating func adoptDeviceZone(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let document, document.zoneIdentifier != configuration.calendar.zoneIdentifier else { return }
        let calendar = configuration.calendar
        let rebase = document.zoneIdentifier != nil
        endedUnacknowledged = []  // a new frame: see `endedUnacknowledged`
        // REC-8: a one-shot whose ring time came before a set-back is not ahead (seeds 54238, 54510).
        let latest = latestRingTimesCome()
        let came = document.alarms.map { alarm in alarm.roots.map { latest[$0.id] ?? .min }.max() ?? .min }
        mutate { document in
            if rebase {
                document.alarms = zip(document.alarms, came).map { alarm, cameAtMs in
                    alarm.rebasingOneShot(to: calendar, after: now.wallMs, cameAtMs: cameAtMs)
                }
            }
            document.previousZoneIdentifier = document.zoneIdentifier
            document.zoneIdentifier = calendar.zoneIdentifier
            document.zoneAdoptedAtMs = now.wallMs
        }
        flush(into: &out)
        if rebase { replanConcreteOccurrences(reason: "time-zone change", into: &out) }  // REC-8
    }

    mutating func mutate(_ change: (inout BridgeDocument) -> Void) {
        guard document != nil else { preconditionFailure("document mutated before the store was loaded") }
        // In place (issue 20): a copy taken out of `document` would share its arrays, so the
        // change would copy every one it touched.
        change(&document!)
        dirty = true
        documentChanges &+= 1
    }

    /// Emits the pending persist, so that later commands in `out` follow the durable write.
    mutating func flush(into out: inout [BridgeCommand]) {
        guard dirty, document != nil else { return }
        if let anchor = clockAnchor {
            // In place, and only when the anchor moved (issue 20: every flush copied the document
            // to write the same three fields a flush of the same step had written).
            if document?.clockReferenceWallMs != anchor.wallMs || document?.clockReferenceMonotonicMs != anchor.monotonicMs
                || document?.clockReferenceBootCount != anchor.bootCount {
                document!.clockReferenceWallMs = anchor.wallMs
                document!.clockReferenceMonotonicMs = anchor.monotonicMs
                document!.clockReferenceBootCount = anchor.bootCount
            }
            documentChanges &+= 1
        }
        out.append(.persist(document!))
        dirty = false
    }

    mutating func insertAlerting(_ id: AlarmUUID) {
        if !alerting.contains(id) {
            alerting.append(id)
            alerting.sort()
        }
    }

    mutating func removeAlerting(_ id: AlarmUUID) {
        alerting.removeAll { $0 == id }
        // FG-1, FG-2: a foreground stop covers the one alert it was issued for. Once that alert has
        // ended, the same ring ID alerting again is a new alert (a repeating primary re-fired
        // after the wall clock was set back, a re-registered ring) and is silenced again while
        // Ember is active; only the snooze ring may sound (SNZ-17). Regression:
        // Scenarios/regressions/ios-fg-silence-after-clock-set-back.scenario.
        foregroundStops.removeAll { $0 == id }
        stoppedAlerts.removeAll { $0 == id }
    }

    /// - Parameter occurredAtMs: when the action happened (wall ms); `now` when nil.
    mutating func journal(_ id: AlarmUUID, action: String, now: BridgeInstants, occurredAtMs: Int64? = nil) {
        guard let row = document?.row(id) else { return }
        let occurredAtMs = occurredAtMs ?? now.wallMs
        // ACT-6, ACT-8: the platform may hand the same action over twice (a journalled Stop
        // replayed after a restart, a repeated intent); the same (root, action, instant) is
        // recorded once, so applying it again has no second effect.
        let record = ActionRecord(alarmID: row.metadata.rootID, action: action, occurredAtMs: occurredAtMs)
        if document?.actions.contains(record) == true { return }
        // ACT-1; ID-10: actions are recorded under the root ID, never the physical ring UUID.
        mutate { document in
            document.actions.append(record)
            if document.actions.count > 32 { document.actions.removeFirst(document.actions.count - 32) }
        }
    }

    mutating func housekeeping(now: BridgeInstants) {
        let horizon = now.wallMs - configuration.pastRowRetentionMs
        guard let document else { return }
        if document.rings.contains(where: { $0.isPast(at: horizon) && $0.delivered }) {
            mutate { $0.rings.removeAll { $0.isPast(at: horizon) && $0.delivered } }
        }
        let closed = document.occurrences.filter { $0.state != .live }
        if closed.count > 32 {
            let drop = Set(closed.prefix(closed.count - 32).map(\.token))
            mutate { $0.occurrences.removeAll { drop.contains($0.token) } }
        }
    }
}

extension BridgeCore {
    /// True once the bridge handles inputs as they come (ready, launch inventory observed).
    public var isAcceptingInputs: Bool { phase == .ready && awaitingObservation == nil }
    /// True while a schedule request awaits its completion.
    public var hasRequestsInFlight: Bool { !inFlight.isEmpty }
    /// True while a sync is deferred (SCH-22, SCH-23), awaiting a follow-up, or awaiting a re-read.
    public var hasPendingSyncWork: Bool {
        deferredSync != nil || followUpSync != nil || retrySync != nil || seedFollowUp != nil || saves.hasVerificationPending
    }
    /// Rings the bridge believes are alerting.
    public var believedAlerting: [AlarmUUID] { alerting }
    /// The native lifecycle's view of the challenge being rendered.
    public var challengeScreenVisible: Bool { challengeVisible }
    /// The in-app burst alive in this process, if any (FG-17).
    public var liveForegroundBurst: ForegroundBurst? { foregroundBurst }
}

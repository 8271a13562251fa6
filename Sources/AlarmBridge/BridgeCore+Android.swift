/// Android occurrence rules: bound retries (AND-13, AND-14), the durable pass-over queue
/// (AND-15), step suppression (AND-16..18, API-16, SNZ-18), the lock-screen grant (AND-10..12)
/// and validated volume dismissals (INACT-6).
///
/// What is process-local lives in `AndroidSession` and dies with the process, as the real
/// listener, activity flag and ringing service do; the pass-over queue is persisted (AND-2).
///
/// Limits of this model, stated rather than hidden: step tracking is armed by a process-local
/// timer W_STEP before the next ring, so a process that is dead at that instant does not track,
/// and the ring then sounds unsuppressed (the safe side: suppression only ever postpones).

/// One ring the ringing service plays, with the occurrence it was started for (INACT-6).
/// Issue 18: how often this process registered a ring again after `getNextAlarmClock()`.
struct AlarmClockRepair: Sendable, Equatable {
    var id: AlarmUUID
    var count: Int
}

struct RingCapture: Sendable, Equatable {
    var ringID: AlarmUUID
    var token: String
}

/// Process-local Android bridge state.
struct AndroidSession: Sendable, Equatable {
    /// The `TYPE_STEP_COUNTER` listener is registered (AND-16).
    var stepTracking = false
    /// The count of the listener's last event; nil before the registration's first event.
    var lastStepCount: Int64?
    /// When (elapsedRealtime ms, this boot) the latest counted step happened.
    var lastStepMonotonicMs: Int64?
    var lastStepBootCount: Int?
    /// The wall instant the pending `stepTrackingArm` timer is due, to re-arm only on change.
    var stepTrackingTimerDueWallMs: Int64?
    /// Rings the ringing service was started for, with their captured occurrence.
    var captures: [RingCapture] = []
    /// The occurrence whose Start wake-up check holds MainActivity's lock-screen grant (AND-11).
    var lockScreenGrantToken: String?
    /// The live token at the end of the previous step: a change means another root took ownership.
    var lastLiveToken: String?
    /// Known defect `step-suppression-drops-retry`: the occurrence whose ring recent steps
    /// suppressed; every arm path skips it while set.
    var stepHoldToken: String?
    /// Known defect `restore-skips-locked-boot`: this process was started by LOCKED_BOOT_COMPLETED,
    /// and its launch restore waits for BOOT_COMPLETED instead (AND-3 says restore at either).
    var restoreWaitsForUnlockedBoot = false
    /// Known defect `package-replaced-restores-nothing`: this process was started by
    /// MY_PACKAGE_REPLACED, and takes no launch restore (AND-3 says restore after a replacement).
    var restoreSkippedAfterUpdate = false
    /// Issue 18: ring IDs this process registered again because `getNextAlarmClock()` showed
    /// AlarmManager did not hold them, with how often (bounded by `alarmClockRepairsMax` each).
    var alarmClockRepairs: [AlarmClockRepair] = []
    /// This process ran a launch or resume sync read (its PendingIntent probes re-registered what
    /// a reboot or force-stop cleared): from then on its rows are what AlarmManager should hold.
    var syncedInProcess = false
    /// Counts the steps after which the next alarm clock may have changed (each issues a read);
    /// `readEpochs` holds the count each outstanding read was issued at, oldest first. An answer
    /// issued before a later such step is stale: the later read decides.
    var alarmClockEpoch = 0
    var readEpochs: [Int] = []
    /// Repairs (``BridgeCore/nextAlarmClockRead(_:now:into:)``) whose answer has not come yet.
    var repairsInFlight: [AlarmUUID] = []
    static let alarmClockRepairsMax = 2
    /// The bound of `BridgeDocument.unheldRingIDs`.
    static let unheldRingIDsMax = 16
}

extension BridgeCore {
    // MARK: - After every Android step

    /// Runs after every ready Android step: revokes a lapsed lock-screen grant (AND-11), discards
    /// retries of a superseded owner (AND-13), releases the pass-over queue (AND-15) and keeps
    /// step tracking armed for rings due within W_STEP (AND-16).
    mutating func androidAfterStep(_ input: BridgeInput, now: BridgeInstants, into out: inout [BridgeCommand]) {
        android.captures.removeAll { !alerting.contains($0.ringID) }
        revokeLapsedLockScreenGrant(input, into: &out)
        discardSupersededRetries(into: &out)
        releasePassOverQueue(now: now, into: &out)
        maintainStepTracking(now: now, into: &out)
        verifyNextAlarmClock(after: input, now: now, into: &out)
    }

    // MARK: - Accepted and dropped (issue 18)

    /// Issue 18 (plus_plugins#1981: an alarm re-armed after a reboot never fires): AlarmManager
    /// may accept a request and hold nothing, and an app cannot list its alarms — a PendingIntent
    /// probe (FLAG_NO_CREATE) finds the intent the app itself created either way. Its only view of
    /// what will fire is `getNextAlarmClock()`. RULES.md is silent; decided from AND-3 ("its rings
    /// re-armed") and SCH-9's verify-after-write (seed 000, seed 003 "verify, then trust"): after
    /// every step in which AlarmManager accepted one of its requests, cancelled one, or delivered
    /// one — the moments the next alarm clock changes — a process that has synced reads it
    /// (``nextAlarmClockRead(_:now:into:)``). What stays hidden behind an earlier alarm clock
    /// becomes visible when that one is delivered or cancelled, before its own time.
    mutating func verifyNextAlarmClock(after input: BridgeInput, now: BridgeInstants, into out: inout [BridgeCommand]) {
        switch input {
        case .inventoryRead(.launchSync, .success), .inventoryRead(.resumeSync, .success): android.syncedInProcess = true
        case .scheduleCompleted(let id, .success):
            // A write of the ring landed: AlarmManager accepted it (a drop shows at the read below).
            android.repairsInFlight.removeAll { $0 == id }
            if document?.unheldRingIDs?.contains(id) == true { mutate { $0.unheldRingIDs?.removeAll { $0 == id } } }
        case .cancelCompleted, .alarmDelivered: break
        case .scheduleCompleted(let id, .failure):
            // A refused write is no drop: its ring may be registered again at the next read
            // (android swarm seed 2576: two repairs refused by schedule failures used up the
            // bound, and after the heal nothing registered the dropped primary).
            android.alarmClockRepairs.removeAll { $0.id == id }
            android.repairsInFlight.removeAll { $0 == id }
            return
        default: return
        }
        android.alarmClockEpoch += 1
        guard android.syncedInProcess, earliestAcceptedAlarmClock(now: now) != nil else { return }
        if defects.trustsAcceptedAlarmClock { return }
        android.readEpochs.append(android.alarmClockEpoch)
        if android.readEpochs.count > 64 { android.readEpochs.removeFirst() }
        out.append(.readNextAlarmClock)
    }

    /// The earliest ring this bridge holds as an alarm clock AlarmManager accepted: confirmed, not
    /// in flight, exact (an inexact ring is no alarm clock), undelivered, not a legacy ring, ahead,
    /// and still its root's ring time in the zone in force: a row planned before a zone change is
    /// the re-plan's to retire, never one to register again (REC-8; android uniform seed 45825: a
    /// deferred launch sync after a move from New York to UTC left a3.thu's 06:01 EDT row, and the
    /// drop check registered it again for 10:01 UTC).
    func earliestAcceptedAlarmClock(now: BridgeInstants) -> RingRow? {
        // No row copied into a list; the scan of `inFlight` after the cheap tests (issue 20). The
        // first row of the least (fire time, ID), as `min(by:)` over the filtered rows.
        guard let rings = document?.rings else { return nil }
        var earliest: RingRow?
        for row in rings where row.confirmed && !row.delivered && row.inexact != true && !row.metadata.kind.isLegacy
            && row.fireWallMs > now.wallMs && earliest.map({ (row.fireWallMs, row.id) < ($0.fireWallMs, $0.id) }) ?? true
            && !inFlight.contains(row.id) && !isPlannedInEarlierZone(row) {
            earliest = row
        }
        return earliest
    }

    /// The answer of `getNextAlarmClock()`: the earliest accepted ring is held when the next alarm
    /// clock comes at or before its time (an earlier one may be another app's, or this app's
    /// ring hiding it: inconclusive until it is gone). Later, or none: AlarmManager dropped it,
    /// and it is registered again with the same PendingIntent (AND-3), at most
    /// `alarmClockRepairsMax` times per ring and process.
    mutating func nextAlarmClockRead(_ triggerWallMs: Int64?, now: BridgeInstants, into out: inout [BridgeCommand]) {
        let issuedAt = android.readEpochs.isEmpty ? nil : android.readEpochs.removeFirst()
        guard flavor == .android, issuedAt == android.alarmClockEpoch, let row = earliestAcceptedAlarmClock(now: now) else { return }
        if let triggerWallMs, triggerWallMs <= row.fireWallMs { return }
        let count = android.alarmClockRepairs.first { $0.id == row.id }?.count ?? 0
        guard count < AndroidSession.alarmClockRepairsMax else { return }
        android.alarmClockRepairs.removeAll { $0.id == row.id }
        android.alarmClockRepairs.append(AlarmClockRepair(id: row.id, count: count + 1))
        if android.alarmClockRepairs.count > 64 { android.alarmClockRepairs.removeFirst() }
        out.append(.note("getNextAlarmClock() is \(triggerWallMs.map(String.init) ?? "none"), after the accepted \(row.metadata.kind.rawValue) \(row.id) at \(row.fireWallMs): AlarmManager dropped it; registered again (AND-3)"))
        // SCH-10 for a same-ID replacement (as `upgradeInexactRings`): a failed write leaves
        // whatever AlarmManager holds, so the row stays and still guards its occurrence.
        if !resounded.contains(where: { $0.id == row.id }) { resounded.append(row) }
        if !android.repairsInFlight.contains(row.id) { android.repairsInFlight.append(row.id) }
        let request = RingRequest(id: row.id, schedule: row.schedule, fireWallMs: row.fireWallMs, metadata: row.metadata,
                                  countdown: nil, soundName: row.soundName)
        publishAndSchedule([request], origin: .lifecycle, now: now, into: &out)
    }

    /// A re-registration was refused. For a repair of a dropped ring AlarmManager still holds
    /// nothing (the read just showed it), whatever the PendingIntent probes say, so the ring is
    /// remembered in the store as unheld (`unheldRingIDs`, read by the sync's reconcile) until a
    /// write of it lands (``verifyNextAlarmClock(after:now:into:)``), and a re-planning sync is
    /// asked for after the primary backoff ([derived] AND-3, WALK-18; android uniform seed 719).
    mutating func repairRefused(_ id: AlarmUUID, error: PlatformError, into out: inout [BridgeCommand]) {
        guard flavor == .android, android.repairsInFlight.contains(id) else { return }
        android.repairsInFlight.removeAll { $0 == id }
        out.append(.note("re-registration of dropped ring \(id) refused: AlarmManager still holds nothing for it; the next sync registers it again (AND-3)"))
        mutate { document in
            var ids = (document.unheldRingIDs ?? []).filter { $0 != id }
            ids.append(id)
            if ids.count > AndroidSession.unheldRingIDsMax { ids.removeFirst(ids.count - AndroidSession.unheldRingIDsMax) }
            document.unheldRingIDs = ids
        }
        schedulePrimaryRetry(id, after: error, into: &out)
    }

    /// The sync's view of what AlarmManager holds: the PendingIntent probes, less the rings known
    /// dropped (`unheldRingIDs`), which a probe still finds.
    func heldPresent(_ present: [PlatformAlarm]) -> [PlatformAlarm] {
        guard let unheld = document?.unheldRingIDs, !unheld.isEmpty else { return present }
        return present.filter { !unheld.contains($0.id) }
    }

    // MARK: - Delivery (AND-14, AND-16, AND-17, SNZ-18, FG-6)

    /// A delivered ring of the live owner (``observeDelivery(_:now:into:)`` returned true; a retry
    /// of a closed or superseded occurrence was already retired there and rings nothing, AND-14).
    /// The snooze ring rings with its one-shot exemption (SNZ-18); an ordinary ring after recent
    /// walking is postponed, but its durable retry is armed in every case (AND-17).
    mutating func deliverAndroidRing(_ id: AlarmUUID, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let row = document?.row(id), let live = document?.liveOccurrence else { return }
        if row.metadata.kind == .snooze {
            // SNZ-18: the delivered snooze attempt ignores recent-step and challenge-visible
            // suppression, once; the exemption travels in the ringing service's start extras.
            out.append(.note("SNZ-18: snooze ring \(id) rings, exempt once from step and challenge suppression"))
            ring(id, token: live.token, exempt: true, now: now, into: &out)
            return
        }
        if appActive && !defects.foregroundAlertKept {
            // FG-1: an ordinary wake ring never presents while Ember is active; the in-app
            // challenge takes the delivery over (SNZ-17: only the snooze ring rings).
            out.append(.note("FG-1: \(row.metadata.kind.rawValue) \(id) delivered while Ember is active: not rung"))
            if row.metadata.kind.opensOccurrence {
                noteForegroundSuppressed(rootID: live.rootID, ringID: id, startedAtMs: live.startedAtMs)
            }
            return
        }
        if row.metadata.kind == .successor && challengeVisible && appActive {
            // FG-6: a retry is held back while the challenge is rendered; the app is active, and
            // resigning active arms the next successor (FG-3).
            out.append(.note("FG-6: retry \(id) held back while the challenge is rendered"))
            return
        }
        if hasRecentSteps(now: now) {
            // AND-16, AND-17: recent walking postpones when the ring sounds, never the pressure.
            if defects.stepSuppressionDropsRetry {
                out.append(.note("defect step-suppression-drops-retry: \(id) suppressed with no retry armed"))
                android.stepHoldToken = live.token
                return
            }
            out.append(.note("AND-17: \(id) postponed by steps within W_STEP; durable retry armed"))
            armSuccessor(for: live, now: now, into: &out)
            return
        }
        ring(id, token: live.token, exempt: false, now: now, into: &out)
    }

    mutating func ring(_ id: AlarmUUID, token: String, exempt: Bool, now: BridgeInstants, into out: inout [BridgeCommand]) {
        android.stepHoldToken = nil
        refreshSoundAtDelivery(id, into: &out)
        insertAlerting(id)
        android.captures.removeAll { $0.ringID == id }
        android.captures.append(RingCapture(ringID: id, token: token))
        fallBackFromCredentialSound(id, now: now, into: &out)  // before the start: the service opens it
        out.append(exempt ? .startRingingSuppressionExempt(id) : .startRinging(id))
        ringingStarted(id, into: &out)  // SND-11
        // SND-7, SND-13: audible only once the ringing service starts it — not when FG-1 or
        // recent steps (AND-17) held the delivery back.
        if let row = document?.row(id) { noteAudibleRing(row) }
    }

    /// SND-9 before the first unlock (issue 18; BlackyHawky/Clock#292 and #322, GrapheneOS#6622):
    /// a sound the app keeps in credential-encrypted storage cannot be opened until the user
    /// unlocks after a boot, and the player then stays silent with no error callback (#322: "the
    /// alarm screen pops up, but no sound"), so SND-9's fallback on a player failure never runs.
    /// The ringing service therefore checks `UserManager.isUserUnlocked()` itself and plays the
    /// system alarm sound (readable in direct boot) for such a ring, as Clock's fix does (PR #293:
    /// "a fallback to a default alarm"). RULES.md is silent on where sounds live; decided from
    /// SND-9 ("sequencing can never make an alarm silent") and the direct-boot docs. The ring
    /// keeps its chosen sound in the sequence (SND-10: a fallback counts as Momentum).
    mutating func fallBackFromCredentialSound(_ id: AlarmUUID, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard flavor == .android, !now.userUnlocked, let sound = document?.row(id)?.soundName,
              configuration.credentialStoredSounds.contains(sound) else { return }
        if defects.credentialSoundBeforeUnlock {
            out.append(.note("defect credential-sound-before-unlock: \(id) plays \(sound) from credential-encrypted storage before the first unlock"))
            return
        }
        out.append(.note("SND-9: \(sound) of \(id) is in credential-encrypted storage, unreadable before the first unlock: the ringing service starts it with the system alarm sound"))
        out.append(.playSystemSound(id))
    }

    /// SND-1, SND-9 on Android: the app's ringing service reads a ring's sound from its row when a
    /// delivery starts it, so a ring not yet heard plays a sound of the alarm's settings as they
    /// are now. A ring whose stored sound the user's edit since removed (or moved to another
    /// progressive group) gets a fresh draw at the occurrence's current sequence position (SND-2,
    /// SND-3), or the system sound when the alarm has no custom sounds left (SND-4). A ring heard
    /// before keeps its sound (SND-6). Android seed 32581: a held (late) delivery of a2's primary
    /// rang with sound-12 after the user cleared a2's sounds. iOS differs: AlarmKit fixed the sound
    /// in the alert configuration at `schedule(id:configuration:)` (ios seed 21411, PLATFORMS.md).
    /// SND-4: a ring stored with no custom sound plays the system default, itself a member of the
    /// Momentum group, so once the alarm has sound settings it is judged like any other member
    /// (android uniform seed 97445: a1's held 08:15 primary was armed while a1 had no sounds; the
    /// user added progressive groups, Momentum with the system default last, before the late
    /// delivery, which rang the system default as ring 1 — group 2 where SND-2 wants group 0).
    /// With no settings the system default is the only sound, and stays.
    mutating func refreshSoundAtDelivery(_ id: AlarmUUID, into out: inout [BridgeCommand]) {
        guard flavor == .android, var row = document?.row(id),
              let live = document?.liveOccurrence, !(live.audibleRingIDs ?? []).contains(id) else { return }
        let settings = soundSettings(alarmID: row.metadata.alarmID)
        guard row.soundName != nil || settings != nil else { return }
        let sound = row.soundName ?? SoundSettings.systemDefaultSoundName
        let position = sequencePosition(of: live)
        if settings?.mayPlay(sound, atPosition: position) == true { return }
        let fresh = chooseSound(alarmID: row.metadata.alarmID, ringID: id, position: position)
        guard fresh != row.soundName else { return }  // nothing else to draw (SND-4: the system sound)
        row.soundName = fresh
        out.append(.note("SND-9: \(id) rings with \(row.soundName ?? "the system sound"): \(sound) is no longer a sound of \(row.metadata.alarmID)"))
        mutate { $0.upsert(row) }
    }

    /// Known defect `step-suppression-drops-retry`: a step-suppressed occurrence gets no retry
    /// from any arm path (the flag gates them all), until one of its rings sounds.
    mutating func stepHoldBlocksArm(_ live: OccurrenceRecord, into out: inout [BridgeCommand]) -> Bool {
        guard defects.stepSuppressionDropsRetry, android.stepHoldToken == live.token else { return false }
        out.append(.note("defect step-suppression-drops-retry: no retry armed for \(live.rootID) while steps suppress it"))
        return true
    }

    // MARK: - Bound retries (AND-13)

    /// True when closing an occurrence in `state` leaves its retries (known defect).
    func retrySurvivesClosureDefect(_ state: OccurrenceState) -> Bool {
        defects.retrySurvivesClosure && flavor == .android && (state == .expired || state == .abandoned)
    }

    /// AND-13: once another root took ownership, every retry bound to another token is discarded
    /// in that step (a closure normally retired them already; this is the ownership edge).
    mutating func discardSupersededRetries(into out: inout [BridgeCommand]) {
        let liveToken = document?.liveOccurrence?.token
        defer { android.lastLiveToken = liveToken }
        guard let liveToken, liveToken != android.lastLiveToken, !defects.retrySurvivesClosure,
              let rows = document?.rings else { return }
        for row in rows where row.metadata.kind.isOccurrenceBound && row.metadata.token != liveToken
            && (!row.delivered || alerting.contains(row.id)) {
            retire(row, reason: "AND-13: ownership passed to another occurrence", into: &out)
        }
    }

    // MARK: - Pass-over queue (AND-15)

    /// AND-15: a root due during another root's wake session waits in its own durable queue,
    /// silent and without a challenge (OCC-3).
    mutating func queuePassOver(_ row: RingRow, ringTimeMs: Int64, owner: OccurrenceRecord, now: BridgeInstants) {
        guard document?.passOverQueue?.contains(where: { $0.ringID == row.id }) != true else { return }
        let entry = QueuedPassOver(rootID: row.metadata.rootID, ringID: row.id, ringTimeMs: ringTimeMs,
                                   ownerToken: owner.token, queuedAtMs: now.wallMs)
        mutate { $0.passOverQueue = ($0.passOverQueue ?? []) + [entry] }
    }

    /// AND-15, decided from seed 000: the queue holds a passed-over root until the owner's
    /// occurrence completes or its bounded window ends (expiry, abandonment, the 20 h bound);
    /// then the entry is released *without* sound or challenge, because "Only one alarm may own a
    /// wake occurrence" says a pass-over "never replaces or queues a second challenge". The
    /// root's next independent occurrence stays armed (OCC-4): nothing here touches its rings.
    mutating func releasePassOverQueue(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let queue = document?.passOverQueue, !queue.isEmpty else { return }
        let liveToken = document?.liveOccurrence?.token
        let released = queue.filter { $0.ownerToken != liveToken || now.wallMs - $0.ringTimeMs >= configuration.passOverQueueBoundMs }
        guard !released.isEmpty else { return }
        mutate { $0.passOverQueue = queue.filter { !released.contains($0) } }
        for entry in released {
            if defects.passOverQueueRings, document?.row(entry.ringID) != nil {
                out.append(.note("defect pass-over-queue-rings: \(entry.rootID) rings after its owner closed"))
                insertAlerting(entry.ringID)
                out.append(.startRinging(entry.ringID))
                continue
            }
            out.append(.note("AND-15: queued pass-over of \(entry.rootID) released without sound or challenge"))
        }
    }

    // MARK: - Step suppression (AND-16, AND-18, API-16)

    /// Pending rings (any kind) due within W_STEP from now, in due order.
    func ringsDueWithinStepWindow(now: BridgeInstants) -> [RingRow] {
        (document?.rings ?? []).filter { isDueWithinStepWindow($0, now: now) }.sorted { ($0.fireWallMs, $0.id) < ($1.fireWallMs, $1.id) }
    }

    /// Whether `row` is one of ``ringsDueWithinStepWindow(now:)``: the cheap time test first, the
    /// scan of `inFlight` last (issue 20).
    func isDueWithinStepWindow(_ row: RingRow, now: BridgeInstants) -> Bool {
        row.fireWallMs > now.wallMs && row.fireWallMs - now.wallMs <= configuration.recentStepWindowMs
            && !row.delivered && (row.confirmed || inFlight.contains(row.id))
    }

    /// True when a step was counted within W_STEP of now, in this boot (AND-17, FG-6).
    func hasRecentSteps(now: BridgeInstants) -> Bool {
        guard let step = android.lastStepMonotonicMs, android.lastStepBootCount == now.bootCount else { return false }
        return now.monotonicMs >= step && now.monotonicMs - step <= configuration.recentStepWindowMs
    }

    /// AND-16: the listener is registered while a ring is due within W_STEP or an occurrence is
    /// live (its retries are due within 10 s), and a timer arms it W_STEP before the next ring.
    mutating func maintainStepTracking(now: BridgeInstants, into out: inout [BridgeCommand]) {
        // Whether any ring is due, without building and sorting the list (issue 20).
        let wanted = (document?.rings ?? []).contains { isDueWithinStepWindow($0, now: now) } || document?.hasLiveOccurrence == true
        if wanted != android.stepTracking {
            android.stepTracking = wanted
            android.lastStepCount = nil  // a registration reports a fresh baseline
            out.append(.setStepTracking(wanted))
        }
        // The earliest later ring, found without copying the rows; the scan of `inFlight` last (issue 20).
        var later: Int64?
        let window = configuration.recentStepWindowMs
        for row in document?.rings ?? [] where row.fireWallMs - now.wallMs > window && later.map({ row.fireWallMs < $0 }) ?? true
            && !row.delivered && (row.confirmed || inFlight.contains(row.id)) {
            later = row.fireWallMs
        }
        let due = later.map { $0 - configuration.recentStepWindowMs }
        if due != android.stepTrackingTimerDueWallMs {
            android.stepTrackingTimerDueWallMs = due
            if let due { out.append(.setTimer(.stepTrackingArm, delayMs: max(0, due - now.wallMs))) }
        }
    }

    /// A step-counter event: a count above the listener's last one is recent walking.
    mutating func stepCounterChanged(steps: Int64, stepElapsedMs: Int64, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard flavor == .android, android.stepTracking else { return }
        if let last = android.lastStepCount, steps > last {
            android.lastStepMonotonicMs = stepElapsedMs
            android.lastStepBootCount = now.bootCount
        }
        android.lastStepCount = steps
    }

    /// AND-18, API-16: registers the listener again for every ring still due within W_STEP.
    /// - Returns: the roots of those rings, sorted, without repeats.
    @discardableResult
    mutating func reassertStepTracking(reason: String, now: BridgeInstants, into out: inout [BridgeCommand]) -> [String] {
        let roots = Array(Set(ringsDueWithinStepWindow(now: now).map(\.metadata.rootID))).sorted()
        guard !roots.isEmpty else { return [] }
        android.stepTracking = true
        android.lastStepCount = nil
        out.append(.setStepTracking(true))
        out.append(.note("\(reason): step tracking reasserted for \(roots.joined(separator: ","))"))
        return roots
    }

    /// API-16 `reconcileStepSuppressionTracking()`: Android only.
    mutating func reconcileStepSuppressionTracking(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard flavor == .android else {
            out.append(.reply(.stepSuppressionTracking(rootIDs: [], supported: false)))
            return
        }
        let roots = reassertStepTracking(reason: "API-16", now: now, into: &out)
        out.append(.reply(.stepSuppressionTracking(rootIDs: roots, supported: true)))
    }

    // MARK: - Dismissals by volume (INACT-6)

    /// INACT-6: the captured occurrence of the ring is the live one and the ring still rings.
    func androidDismissalIsValid(_ id: AlarmUUID, live: OccurrenceRecord) -> Bool {
        alerting.contains(id) && android.captures.contains(RingCapture(ringID: id, token: live.token))
    }

    /// A volume key on the alarm screen, or an observed alarm-volume reduction: an explicit
    /// dismissal, credited only after INACT-6's validation (in ``credit(_:now:into:)``).
    mutating func volumeDismissal(_ id: AlarmUUID, kind: VolumeDismissal, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard flavor == .android else { return }
        journal(id, action: "dismiss", now: now)
        var credited: [BridgeCommand] = [.note("dismissal by \(kind.rawValue) of \(id)")]
        credit(id, now: now, into: &credited)
        flush(into: &out)  // ACT-1: written first, before the ring is acted on (as `ringDismissed`)
        out += credited
        if alerting.contains(id) { out.append(.stop(id, origin: .lifecycle)) }
        alertEnded(id, now: now, into: &out)
        runDeferredSyncIfClear(into: &out)
    }

    // MARK: - Lock-screen grant (AND-10, AND-11, AND-12)

    /// AND-11: Start wake-up check on the live owner's ring grants MainActivity lock-screen
    /// presentation for that challenge launch. AND-10, AND-12: the alarm surface already shows
    /// over the keyguard; the bridge never requests keyguard dismissal (no PIN prompt).
    mutating func startWakeUpCheck(_ id: AlarmUUID, now: BridgeInstants, into out: inout [BridgeCommand]) {
        // OCC-23: a handoff from a ring of another root, or of a closed or superseded occurrence,
        // is rejected and never opens a fresh challenge.
        guard flavor == .android, let live = document?.liveOccurrence, let row = document?.row(id), isBound(row, to: live) else {
            out.append(.note("AND-11, OCC-23: Start wake-up check of \(id) ignored: not a ring of the live occurrence"))
            return
        }
        guard handoffPermitted(id) else {
            // SCH-11: a primary never seen held by the platform may not finish its handoff.
            out.append(.note("SCH-11: handoff from \(id) refused: the platform was never seen holding it"))
            return
        }
        if android.lockScreenGrantToken != live.token {
            android.lockScreenGrantToken = live.token
            out.append(.setMainActivityShowWhenLocked(true))
        }
    }

    /// AND-11: the grant ends the moment its challenge ends (the occurrence closed or another
    /// took its place) or the app leaves the foreground.
    mutating func revokeLapsedLockScreenGrant(_ input: BridgeInput, into out: inout [BridgeCommand]) {
        guard let granted = android.lockScreenGrantToken else { return }
        var reason: String?
        if document?.liveOccurrence?.token != granted {
            reason = "the challenge ended"
        } else if input == .willResignActive || input == .didEnterBackground {
            if defects.lockScreenGrantKept {
                out.append(.note("defect lock-screen-grant-kept: grant kept in the background"))
            } else {
                reason = "the app left the foreground"
            }
        }
        guard let reason else { return }
        android.lockScreenGrantToken = nil
        out.append(.setMainActivityShowWhenLocked(false))
        out.append(.note("AND-11: lock-screen grant revoked: \(reason)"))
    }
}

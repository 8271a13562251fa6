/// Clock corrections (REC-8, REC-9, SNZ-20..22): the bridge compares the wall clock with the
/// monotonic clock at every step, so it notices a correction whichever input it is running for.
extension BridgeCore {
    /// The wall-clock correction since the last step, in ms, when larger than Δ_CLOCK; nil when
    /// none, or when the monotonic clock restarted (a reboot: nothing to compare).
    func clockCorrection(now: BridgeInstants) -> Int64? {
        guard let anchor = clockAnchor, anchor.bootCount == now.bootCount, now.monotonicMs >= anchor.monotonicMs else { return nil }
        let delta = (now.wallMs - anchor.wallMs) - (now.monotonicMs - anchor.monotonicMs)
        return abs(delta) > configuration.clockChangeThresholdMs ? delta : nil
    }

    /// REC-9, at the launch gate's release: a correction made while no process ran is measured
    /// against the reference the last process saved (same boot: the monotonic clock went on).
    /// One this process noticed itself while held at its gate (`correctionBeforeReady`) counts
    /// too: dated by its own readings when the saved reference measures the same shift, applied
    /// as noticed when no reference of this boot can measure it (a reboot since the last save).
    /// Forgetting it left the ring time of the Stop that launched the process "reached in either
    /// frame", and the Stop older than the occurrence (ios swarm and uniform seed 33491: a Stop's
    /// intent launched a process held for unlock; a 1 h set-back came while it waited; released in
    /// the new frame, it refused the Stop and left the deadline 30 min after the ring time).
    mutating func applyCorrectionAtRelease(_ loaded: BridgeDocument, now: BridgeInstants, into out: inout [BridgeCommand]) {
        defer { correctionBeforeReady = nil }
        if let wall = loaded.clockReferenceWallMs, let mono = loaded.clockReferenceMonotonicMs,
           let boot = loaded.clockReferenceBootCount, boot == now.bootCount {
            let saved = clockAnchor
            clockAnchor = (wall, mono, boot)
            if let delta = clockCorrection(now: now) {
                applyClockCorrection(delta, now: now, previousReadingWallMs: readingBefore(delta, savedWallMs: wall), into: &out)
            }
            clockAnchor = saved ?? (now.wallMs, now.monotonicMs, now.bootCount)
        } else if let seen = correctionBeforeReady {
            applyClockCorrection(seen.deltaMs, now: now, previousReadingWallMs: seen.previousReadingWallMs, into: &out)
        }
    }

    /// REC-9: the last reading before a correction the launch measures against the saved
    /// reference (`savedWallMs`). When this process, held at its launch gate, read the clock after
    /// that reference and noticed the same correction (`correctionBeforeReady`), the clock moved
    /// after its own latest reading: ring times up to it were reached in the old frame.
    func readingBefore(_ delta: Int64, savedWallMs: Int64) -> Int64 {
        guard let seen = correctionBeforeReady, abs(seen.deltaMs - delta) <= configuration.clockChangeThresholdMs,
              seen.previousReadingWallMs > savedWallMs else { return savedWallMs }
        return seen.previousReadingWallMs
    }

    /// REC-9: the live occurrence's activity and snooze baseline move with the clock and its
    /// offset grows by the same shift (its ring time and token stay). SNZ-20, SNZ-22: its pending
    /// successor and snooze ring keep their remaining time — re-registered under the same ID,
    /// which the platform treats as a replacement, so a failed re-arm leaves the old ring (SNZ-21).
    /// - Parameter previousReadingWallMs: the wall reading (old frame) the correction was measured
    ///   against: the clock moved at some instant after it, unknown when no process saw it.
    mutating func applyClockCorrection(_ delta: Int64, now: BridgeInstants, previousReadingWallMs: Int64?,
                                       datedByBroadcast: Bool = false, into out: inout [BridgeCommand]) {
        out.append(.note("clock corrected by \(delta) ms (REC-9)"))
        clearForegroundSuppressedOnClockChange(into: &out)  // SCH-18: clock change
        // REC-9: the corrected frame is the new clock reference, persisted with this step, so that a
        // later process never takes the same correction again from a stale one (ios seeds 6184, 10178).
        if document != nil { dirty = true }
        // A backward correction brings the jumped-over times back: they ring at their own time.
        lastForwardJump = delta > 0 ? (now.wallMs - delta, now.wallMs) : nil
        lastForwardJumpReadingWallMs = delta > 0 ? previousReadingWallMs : nil
        // Set back: times up to the old frame's "now" were reached before it (occurrenceStart).
        lastBackwardJump = delta < 0 ? (now.wallMs - delta, now.wallMs, previousReadingWallMs ?? .min) : nil
        publishedSinceBackwardJump = []
        heldAtBackwardJump = delta < 0 ? heldPastFireSeen : []
        heldPastFireSeen = []  // later views are in the new frame
        lastBackwardJumpDated = delta < 0 && datedByBroadcast
        correctionLiveToken = document?.liveOccurrence?.token
        recordDatedSetBack(delta, now: now)
        recordForwardJump()
        replanConcreteOccurrences(reason: "significant clock change", into: &out)  // REC-8
        guard let live = document?.liveOccurrence else { return }
        mutate { document in
            document.update(with(live) { occurrence in
                occurrence.inactivityClockOffsetMs += delta
                occurrence.lastActivityMs = occurrence.lastActivityMs.map { $0 + delta }
                occurrence.inactivitySnoozeUntilMs = occurrence.inactivitySnoozeUntilMs.map { $0 + delta }
            })
        }
        // REC-9, WALK-8, WALK-11: a started walk's handoff edge, provisional deadline and latest
        // accepted step are instants of this occurrence too; they move with the clock, so the
        // fuse rebased below stays current (resign + 60 s, step + 30..35 s in the corrected frame)
        // instead of being rotated back to an uncorrected deadline (ios uniform seeds 1735, 2342).
        if walkRecord(for: live) != nil {
            updateWalk { walk in
                walk.handoffAtMs = walk.handoffAtMs.map { $0 + delta }
                walk.handoffDeadlineMs = walk.handoffDeadlineMs.map { $0 + delta }
                walk.lastAcceptedStepMs = walk.lastAcceptedStepMs.map { $0 + delta }
            }
        }
        var rebased: [RingRequest] = []
        // WALK-5, WALK-9: no walk fuse is kept while Ember is natively active — the activation
        // (already seen, or queued behind the launch read) cancels it — so it is not re-armed at
        // its rebased time (ios uniform seeds 621, 1865 of `clock-set-back-after-trigger`: a
        // process death after the resign edge, a set-back, and the user's launch rebased the fuse
        // in the foreground). As in `resoundPendingRings`.
        let foreground = activeOrActivating
        // WALK-15, WALK-16: with a rotation recorded, only its replacement moves; re-arming both
        // would arm a fuse pair in one step (ios swarm seed 2204 of `clock-set-back-after-trigger`:
        // a death with a rotation in flight, a set-back, and the recovering launch rebased both).
        // The predecessor is retired when the replacement is accepted (`walkFuseConfirmed`).
        let rotatedAway = walkRecord(for: live).flatMap { walk in walk.rotationID == nil ? nil : walk.fuseID }
        // Only rings still ahead of the uncorrected clock: one already due has rung (or is ringing,
        // unseen yet); re-registering its ID would recreate it (ios seed 2101).
        for row in document?.rings ?? [] where row.metadata.kind.isOccurrenceBound && row.metadata.token == live.token
            && !row.delivered && row.fireWallMs > now.wallMs - delta && !deliveredByJump(row, now: now)
            && !(foreground && row.metadata.kind == .walkFuse) && row.id != rotatedAway
            && !(defects.snoozeNotRebased && row.metadata.kind == .snooze)
            && !(defects.successorNotRebased && (row.metadata.kind == .successor || row.metadata.kind == .walkFuse)) {
            let fire = max(now.wallMs, row.fireWallMs + delta)
            // SNZ-21: a refused same-ID replacement leaves the existing ring in place, so its row
            // stands (as a refused re-sound's does) instead of being taken for a lost arm that
            // calls for a successor beside it (android seed 1166 of `--faults
            // clock-change-during-snooze`: a failed snooze rebase armed a successor).
            if row.confirmed, !resounded.contains(where: { $0.id == row.id }) { resounded.append(row) }
            rebased.append(RingRequest(id: row.id, schedule: .fixed(wallMs: fire), fireWallMs: fire, metadata: row.metadata,
                                       soundName: row.soundName))  // SND-6: the same ring keeps its sound
        }
        // SNZ-21, SNZ-22: the rebase starts a retry series of its own: a refusal is asked again
        // `armRetryMax` times, whatever an earlier failed arm spent of the budget (ios uniform
        // seed 58071: a skip's successor refused for capacity at 05:43 left two retries for the
        // snooze rebase of a 1 h set-back; refused three times, the snooze ring stayed 79 min out).
        if !rebased.isEmpty {
            armRetries = 0
            successorRefusals = 0  // a fresh series: quick retries first (OCC-5)
        }
        publishAndSchedule(rebased, origin: .lifecycle, now: now, into: &out)
        if !defects.snoozeNotRebased {
            noteAmbiguousSnoozeRows(delta, now: now, previousReadingWallMs: previousReadingWallMs, datedByBroadcast: datedByBroadcast)
        }
        armExpiryTimer(now: now, into: &out)
    }

    /// Android, REC-9, OCC-3: a set-back dated by TIME_SET is kept in the document with the
    /// rings then registered for the re-lived interval (`reLivedRingIDs`), so that the process a
    /// later delivery starts dates it too (android uniform seed 12330: an OEM kill after the
    /// set-back, then the held delivery of a ring time passed over in the old frame opened an
    /// occurrence in the new one). Any other correction clears it, as it replaces the memory —
    /// except an undated set-back (measured at a launch against the saved reference), kept with
    /// `dated` false and the undelivered occurrence-opening rings then registered whose ring time
    /// came before it: a delivery of one held past the correction (the Restricted battery setting,
    /// Doze, a late inexact window) began at its ring time in the old frame, and the process it
    /// starts must take the correction as made since (REC-9, INACT-3), as the one that noticed it
    /// would (`clockOffset`), and as a persisted forward jump does (android uniform seed 35966:
    /// a1.mon's 07:52 held by "Restricted", a 1 h set-back noticed by the launch its TIME_SET
    /// started, a process death, then the delivery at 21:05 opened the legacy occurrence with no
    /// offset, its deadline an hour late).
    mutating func recordDatedSetBack(_ delta: Int64, now: BridgeInstants) {
        reLivedRingIDs = []
        undatedSetBackRestored = false
        guard document != nil else { return }
        guard let back = lastBackwardJump else {
            if document?.datedSetBack != nil { mutate { $0.datedSetBack = nil } }
            return
        }
        guard lastBackwardJumpDated else {
            guard flavor == .android else {
                if document?.datedSetBack != nil { mutate { $0.datedSetBack = nil } }
                return
            }
            let reached = (document?.rings ?? []).filter { row in
                row.metadata.kind.opensOccurrence && !row.delivered && row.fireWallMs <= back.fromWallMs
                    && back.toWallMs - row.fireWallMs < 20 * 3_600_000
            }.map(\.id)
            let record = DatedSetBack(fromWallMs: back.fromWallMs, toWallMs: back.toWallMs, lastReadingWallMs: back.lastReadingWallMs,
                                      liveToken: correctionLiveToken, reLivedRingIDs: reached, dated: false)
            mutate { $0.datedSetBack = record }
            return
        }
        reLivedRingIDs = (document?.rings ?? []).filter { row in
            row.metadata.kind.opensOccurrence && row.fireWallMs > back.toWallMs && row.fireWallMs <= back.fromWallMs
        }.map(\.id)
        let record = DatedSetBack(fromWallMs: back.fromWallMs, toWallMs: back.toWallMs, lastReadingWallMs: back.lastReadingWallMs,
                                  liveToken: correctionLiveToken, reLivedRingIDs: reLivedRingIDs)
        mutate { $0.datedSetBack = record }
    }

    /// Android: a ring registered again after an undated set-back was requested in the new frame:
    /// it leaves the persisted record's list (``recordDatedSetBack(_:now:)``), as it joins
    /// `publishedSinceBackwardJump` in this process.
    mutating func dropRegisteredAgain(_ ids: [AlarmUUID]) {
        guard flavor == .android, let back = document?.datedSetBack, back.dated == false,
              back.reLivedRingIDs.contains(where: ids.contains) else { return }
        mutate { $0.datedSetBack?.reLivedRingIDs.removeAll(where: ids.contains) }
        if undatedSetBackRestored { reLivedRingIDs.removeAll(where: ids.contains) }
    }

    /// Android, REC-9: the forward correction is persisted with this step's write, so that a
    /// process that starts after this one died still dates a held delivery of a ring time the
    /// clock jumped past (``BridgeDocument/forwardJump``); a later correction replaces it.
    mutating func recordForwardJump() {
        guard flavor == .android, document != nil else { return }
        let record = lastForwardJump.map { ForwardJump(fromWallMs: $0.fromWallMs, toWallMs: $0.toWallMs,
                                                       lastReadingWallMs: lastForwardJumpReadingWallMs) }
        if document?.forwardJump != record { mutate { $0.forwardJump = record } }
    }

    /// Android: a later process takes the persisted dated set-back back into memory (see
    /// ``recordDatedSetBack(_:now:)``).
    mutating func restoreDatedSetBack(_ loaded: BridgeDocument) {
        guard flavor == .android, let back = loaded.datedSetBack, lastBackwardJump == nil else { return }
        lastBackwardJump = (back.fromWallMs, back.toWallMs, back.lastReadingWallMs)
        lastBackwardJumpDated = back.dated ?? true
        undatedSetBackRestored = back.dated == false
        correctionLiveToken = back.liveToken
        reLivedRingIDs = back.reLivedRingIDs
    }

    /// Android: a later process takes the persisted forward correction back into memory (see
    /// ``recordForwardJump()``), unless this process noticed one of its own already.
    mutating func restoreForwardJump(_ loaded: BridgeDocument) {
        guard flavor == .android, let jump = loaded.forwardJump, lastForwardJump == nil, lastBackwardJump == nil else { return }
        lastForwardJump = (jump.fromWallMs, jump.toWallMs)
        lastForwardJumpReadingWallMs = jump.lastReadingWallMs
    }

    /// OCC-7: on Android, AlarmManager recomputes RTC alarms from their wall time at a jump and
    /// delivers at once one the jump passed; a ring this process saw accepted whose fire time is
    /// now behind the clock is being delivered, and re-registering it would leave a pending copy
    /// beside the successor that delivery arms (android seed 2143; the sync's guard is
    /// `deliveryInFlight`).
    ///
    /// iOS: AlarmKit fires a `.fixed` instant the jump went over at the jump (it alerts now, unseen
    /// yet); re-registering its ID would replace the alert with a pending ring and race the
    /// observer's bookkeeping (a walk fuse retired as delivered stayed pending beside the next
    /// one, or its failed re-arm dropped the row of a sounding fuse: ios uniform seeds 1735,
    /// 2342). It is loud pressure, the safe direction (SNZ-22). A snooze ring is no exception:
    /// SNZ-20 would keep its remaining duration, but the daemon has already alerted it, and
    /// SNZ-21 lets a failure err only toward the earlier ring; re-registering the alerting ring
    /// left it ringing unseen, or pending again beside the successor its Stop armed (ios seeds
    /// 167, 554 of `--faults clock-change-during-snooze`).
    ///
    /// Android: a delivery already queued behind the launch the TIME_SET broadcast started is
    /// that ring being delivered, whichever process confirmed it (android seed 1293 of the same
    /// fault: the rebased snooze ring stayed pending beside the successor its dismissal armed).
    func deliveredByJump(_ row: RingRow, now: BridgeInstants) -> Bool {
        if flavor == .ios {
            guard case .fixed = row.schedule else { return false }
            return row.fireWallMs <= now.wallMs
        }
        return row.fireWallMs <= now.wallMs
            && (confirmedInProcess.contains(row.id) || queued.contains(.alarmDelivered(row.id)))
    }

    /// SNZ-20, SNZ-21: asks again for a snooze rebase the platform refused, unless its ring has
    /// since been delivered, replaced or retired.
    mutating func retrySnoozeRebase(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let wanted = snoozeRebaseRetry else { return }
        snoozeRebaseRetry = nil
        if document?.snoozeRebaseOwed != nil { mutate { $0.snoozeRebaseOwed = nil } }  // a refusal owes it again
        guard let current = document?.row(wanted.id), !current.delivered, current.fireWallMs != wanted.fireWallMs,
              !inFlight.contains(wanted.id), let live = document?.liveOccurrence, current.metadata.token == live.token else { return }
        if current.confirmed, !resounded.contains(where: { $0.id == current.id }) { resounded.append(current) }
        let fire = max(now.wallMs, wanted.fireWallMs)
        out.append(.note("\(current.metadata.kind.rawValue) rebase refused before: asked again (SNZ-20, SNZ-21)"))
        publishAndSchedule([RingRequest(id: current.id, schedule: .fixed(wallMs: fire), fireWallMs: fire, metadata: current.metadata,
                                        soundName: current.soundName)], origin: .lifecycle, now: now, into: &out)
    }

    /// Android, SNZ-20, SNZ-21: a snooze rebase the platform refused and the process that owed
    /// its retry died before asking again is asked by the next process, at once (android uniform
    /// seed 9523: a refused rebase after a 1 h set-back, the process killed 100 ms later; the held
    /// snooze ring stayed an hour late, past the occurrence's deadline, with nothing else pending).
    mutating func restoreOwedSnoozeRebase(_ loaded: BridgeDocument, into out: inout [BridgeCommand]) {
        guard flavor == .android, let owed = loaded.snoozeRebaseOwed, snoozeRebaseRetry == nil else { return }
        snoozeRebaseRetry = owed
        out.append(.setTimer(.armRetry, delayMs: 0))
    }

    /// iOS, SNZ-20: after a set-back no process saw happen, a snooze ring whose old-frame time
    /// lies between the last reading before the correction and the old frame's "now" may or may
    /// not have fired before it: AlarmKit still lists it as `scheduled` only if it has not, and
    /// then it would ring that much late. Such rows wait here, with the rebased fire time (wall
    /// ms), for the next inventory read to decide (ios seeds 1038, 1348 of
    /// `--faults clock-change-during-snooze`: a 10-minute snooze rang an hour late).
    ///
    /// Android, the same when no TIME_SET broadcast dated the correction (a launch noticed it: the
    /// app was stopped, or no process ran); a dated one leaves no doubt whether the rows due
    /// before it in the old frame were reached there.
    ///
    /// Android, reached is not delivered: AlarmManager may hold a due delivery back (late
    /// delivery, PLATFORMS.md), and a set-back re-frames a held RTC trigger, which it then
    /// delivers only when the new frame reaches its wall time again (AMS `reevaluateRtcAlarms`;
    /// android uniform seeds 7197, 15730). So a row reached in the old frame (before the last
    /// reading, or under a dated correction) that now lies ahead of the clock waits too, with
    /// `heldOnly`: the read rebases it only if AlarmManager still lists it scheduled (REC-9,
    /// SNZ-22, OCC-5; android uniform seeds 64540, 74139: a successor held late, a 1 h or 90 s
    /// set-back, and nothing pending within its bound).
    mutating func noteAmbiguousSnoozeRows(_ delta: Int64, now: BridgeInstants, previousReadingWallMs: Int64?,
                                          datedByBroadcast: Bool) {
        snoozeRebaseIfUnrung = []
        guard delta < 0, let live = document?.liveOccurrence else { return }
        let lastReading = previousReadingWallMs ?? .min
        // REC-9, SNZ-22, OCC-5: a pending successor is in the same doubt (ios swarm seed 991 of
        // `clock-set-back-after-trigger`: a 90 s set-back 5 s before the successor was due, with
        // the process dead; the next launch took it as rung, and the Stop it then handled reused
        // it, 40 s away).
        for row in document?.rings ?? [] where (row.metadata.kind == .snooze
            || (row.metadata.kind == .successor && !defects.successorNotRebased)) && row.metadata.token == live.token
            && !row.delivered && row.fireWallMs <= now.wallMs - delta {
            let reached = row.fireWallMs <= lastReading || (flavor == .android && datedByBroadcast)
            if reached && !(flavor == .android && row.fireWallMs > now.wallMs) { continue }
            snoozeRebaseIfUnrung.append((row.id, max(now.wallMs, row.fireWallMs + delta), reached))
        }
    }

    /// The read that decides ``noteAmbiguousSnoozeRows(_:now:previousReadingWallMs:datedByBroadcast:)``: a snooze
    /// ring still `scheduled` never fired, so it is re-registered at its rebased time; one
    /// alerting or gone rang in the old frame and is left alone.
    ///
    /// Android: a gone ring whose delivery the bridge never saw (none handled, none queued, none
    /// in flight to this process) did not ring — AlarmManager delivers by starting the process —
    /// but was removed (a force-stop, a reboot). The sync repairs it (SNZ-11) from its row, so the
    /// row is rebased too and the repair rings at once, its deadline being past (android uniform
    /// seed 11515: force-stopped before its 09:00 snooze, clock set back an hour unseen, the
    /// launch's repair re-armed 09:00 in the new frame, 34 min away: no pressure).
    mutating func rebaseUnrungSnoozeRows(_ inventory: [PlatformAlarm], now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard !snoozeRebaseIfUnrung.isEmpty else { return }
        let waiting = snoozeRebaseIfUnrung
        snoozeRebaseIfUnrung = []
        var rebased: [RingRequest] = []
        for (id, fire, heldOnly) in waiting {
            guard !inFlight.contains(id), let row = document?.row(id), !row.delivered else { continue }
            let held = inventory.contains { $0.id == id && $0.state == .scheduled }
            let removedUnrung = flavor == .android && !heldOnly && !inventory.contains { $0.id == id }
                && !queued.contains(.alarmDelivered(id)) && !deliveryInFlight(row, now: now)
            guard held || removedUnrung else { continue }
            if held, row.confirmed, !resounded.contains(where: { $0.id == row.id }) { resounded.append(row) }  // SNZ-21
            rebased.append(RingRequest(id: row.id, schedule: .fixed(wallMs: max(now.wallMs, fire)), fireWallMs: max(now.wallMs, fire),
                                       metadata: row.metadata, soundName: row.soundName))
        }
        guard !rebased.isEmpty else { return }
        out.append(.note("snooze ring or successor unrung after an unseen clock set-back: rebased (SNZ-20, REC-9)"))
        publishAndSchedule(rebased, origin: .lifecycle, now: now, into: &out)
    }
}

/// The one-time snooze (SNZ-1..19): exactly one user-chosen delay per occurrence token, validated
/// against native state only, the latch spent before the ring is attempted, the ring armed and
/// confirmed before anything that pressured the occurrence is silenced.
extension BridgeCore {
    /// The occurrence's snooze ring while it is armed (not yet delivered), if any.
    func pendingSnooze(of live: OccurrenceRecord) -> RingRow? {
        document?.rings.firstPending(.snooze, token: live.token)
    }

    /// Validates against the live occurrence only (SNZ-2): it exists, the token matches when
    /// given, and its root's alarm is among `alarmIDs`. Returns the live record or why not.
    func snoozeTarget(token: String?, alarmIDs: [String]) -> Result<OccurrenceRecord, SnoozeRejection> {
        guard let live = document?.liveOccurrence else { return .failure(.noLiveOccurrence) }
        if let token, token != live.token { return .failure(.staleToken) }
        let alarmID = document?.root(live.rootID)?.alarmID ?? rootFromRows(live.rootID)?.alarmID
        guard let alarmID, alarmIDs.contains(alarmID) else { return .failure(.notTheOwner) }
        return .success(live)
    }

    /// Why `beginOneTimeSnooze` or `skipOneTimeSnooze` was refused; the raw value is the reply's
    /// reason (public so a caller can tell a spent latch from a bad window without string copies).
    public enum SnoozeRejection: String, Error, Sendable {
        case noLiveOccurrence = "no live occurrence"
        case staleToken = "token is not the live occurrence's"
        case notTheOwner = "no owning root among alarmIds"
        case outsideWindow = "untilMs outside [now + MIN_SNOOZE_LEAD, now + 30 min]"
        case latchSpent = "this occurrence already used its snooze"
        case noSnoozeArmed = "no snooze ring is armed"
    }

    /// API-14 `beginOneTimeSnooze({untilMs, occurrenceToken?, alarmIds})`; SNZ-8: the ring is
    /// kind `one_time_snooze` (iOS) / a PendingRetry with `oneTimeSnooze` (Android).
    /// SNZ-1..9. Rejections change nothing (SNZ-3); an accepted request spends the latch durably
    /// first (SNZ-5), then arms the snooze ring; the reply waits for the platform's answer
    /// (`snoozeConfirmed`, or the failure path of `scheduleCompleted`).
    mutating func beginOneTimeSnooze(untilMs: Int64, token: String?, alarmIDs: [String], now: BridgeInstants,
                                     into out: inout [BridgeCommand]) {
        let live: OccurrenceRecord
        switch snoozeTarget(token: token, alarmIDs: alarmIDs) {
        case .failure(let reason):
            out.append(.reply(.snoozeRejected(reason: reason.rawValue)))
            return
        case .success(let found):
            live = found
        }
        guard untilMs >= now.wallMs + configuration.minSnoozeLeadMs, untilMs <= now.wallMs + configuration.snoozeMaxMs else {
            out.append(.reply(.snoozeRejected(reason: SnoozeRejection.outsideWindow.rawValue)))
            return
        }
        let inFlightSnooze = document?.rings.contains { $0.metadata.kind == .snooze && $0.metadata.token == live.token } ?? false
        guard !live.oneTimeSnoozeUsed, !inFlightSnooze || defects.snoozeLatchAfterArm else {
            out.append(.reply(.snoozeRejected(reason: SnoozeRejection.latchSpent.rawValue)))
            return
        }
        guard let request = newOccurrenceRing(.snooze, for: live, fireWallMs: untilMs) else { return }
        if !defects.snoozeLatchAfterArm {
            // SNZ-5: spent before the attempt — persisted in the same write that publishes the row,
            // which precedes the platform call (SCH-6).
            mutate { $0.update(with(live) { $0.oneTimeSnoozeUsed = true }) }
        }
        snoozeRequestsInFlight.append(request.id)
        if defects.retireBeforeArm {
            // Known defect (issue 5): the prior pressure goes before the snooze ring is accepted.
            out.append(.note("defect retire-before-arm: silencing before the snooze ring is confirmed"))
            for ring in alerting { if let row = document?.row(ring), isBound(row, to: live) { silence(ring, origin: .lifecycle, into: &out) } }
            cancelPendingSuccessors(of: live, origin: .lifecycle, now: now, into: &out)
        }
        publishAndSchedule([request], origin: .lifecycle, now: now, into: &out)  // persists the latch with the row
    }

    /// SNZ-7: the snooze ring is confirmed; only now is the prior pressure silenced (the ring
    /// sounding, pending successors). INACT-9: the deadline baseline becomes the snooze deadline.
    mutating func snoozeConfirmed(_ row: RingRow, now: BridgeInstants, into out: inout [BridgeCommand]) {
        // A repair (launch restore, SNZ-11) re-registers an accepted ring: nothing to accept again.
        guard let request = snoozeRequestsInFlight.firstIndex(of: row.id) else { return }
        snoozeRequestsInFlight.remove(at: request)
        guard let live = document?.liveOccurrence, live.token == row.metadata.token else { return }
        mutate { document in
            document.update(with(live) {
                $0.oneTimeSnoozeUsed = true  // with the defect this is the first time it is spent
                $0.inactivitySnoozeUntilMs = row.fireWallMs
            })
        }
        flush(into: &out)
        for id in alerting where id != row.id {
            if let ring = document?.row(id), isBound(ring, to: live) { silence(id, origin: .lifecycle, into: &out) }
        }
        cancelPendingSuccessors(of: live, origin: .lifecycle, now: now, into: &out)
        retireWalkFuses(of: live, now: now, into: &out)  // SNZ-7, SNZ-10: the walk fuse too
        armExpiryTimer(now: now, into: &out)
        out.append(.reply(.snoozeAccepted(token: live.token, untilMs: row.fireWallMs)))
    }

    /// SNZ-7, SNZ-10: a snooze ring an earlier process armed, whose confirmation died with that
    /// process, is held by the platform: the arm landed, so the snooze stands. Its confirmation is
    /// completed now — what pressured the occurrence until then is silenced (a successor that
    /// process armed on its background edge while the arm was in flight would otherwise sound
    /// beside the pending snooze ring: ios uniform seed 18001), INACT-9 moves the deadline, and the
    /// reply the dead process owed says that the snooze stands (iOS; an Android snooze ring is
    /// repaired by `repairPendingRetries`, SNZ-11).
    /// - Parameter row: the snooze row as found, before `observe` marked it confirmed.
    mutating func adoptLandedSnooze(_ row: RingRow, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard flavor == .ios, let live = document?.liveOccurrence, live.token == row.metadata.token, !row.delivered,
              live.inactivitySnoozeUntilMs == nil, row.fireWallMs > now.wallMs,
              !snoozeRequestsInFlight.contains(row.id) else { return }
        out.append(.note("SNZ-7: snooze ring \(row.id) armed by an earlier process is held: the snooze stands"))
        snoozeRequestsInFlight.append(row.id)
        snoozeConfirmed(with(row) { $0.confirmed = true }, now: now, into: &out)
    }

    /// SNZ-15, SNZ-10: a successor an earlier process armed beside a confirmed snooze ring — a
    /// skip's handoff (`armSuccessor` arms none beside a confirmed snooze) whose confirmation died
    /// with that process — is held by the platform (found in an inventory, or accepted when a sync
    /// sent its row again: `skipHandoffConfirmed`): the skip's arm landed, so the skip stands, as
    /// `adoptLandedSnooze` lets a landed snooze stand. Its handoff completes now: the snooze ring is
    /// retired (arm before retire: the successor is accepted) and the reply the dead process owed
    /// says so. Left alone, the successor sat beside the pending snooze ring for good (ios swarm
    /// seed 41589: a process death 125 ms after a skip; the successor landed while no process ran).
    /// iOS only, like `adoptLandedSnooze` (Android's retries are repaired by `repairPendingRetries`).
    mutating func adoptLandedSkipSuccessor(_ id: AlarmUUID, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard flavor == .ios, pendingSkip == nil, let row = document?.row(id), row.metadata.kind == .successor, !row.delivered,
              let live = document?.liveOccurrence, live.token == row.metadata.token,
              let snooze = pendingSnooze(of: live), snooze.confirmed, !snoozeRequestsInFlight.contains(snooze.id),
              !inFlight.contains(snooze.id) else { return }
        out.append(.note("SNZ-15: successor \(id) of an earlier process's skip is held: the skip stands"))
        retire(snooze, reason: "snooze skipped (SNZ-15)", into: &out)
        out.append(.reply(.snoozeSkipped(token: live.token)))
    }

    /// SNZ-12, SNZ-13, SNZ-10, SNZ-21: a snooze ring whose earlier registration rang before the
    /// rebase of a clock correction landed (a same-ID replacement: AlarmKit then holds the ring
    /// pending again, at the rebased deadline) was consumed by that alert: the ordinary rearm rules
    /// armed a successor at its end, and the pending copy is a spent snooze ring, retired once that
    /// successor is accepted (arm before retire) — as the Android bridge cancels the pending copy
    /// of a snooze ring that rang from its earlier registration (android uniform seed 35241). Left
    /// alone, the copy stood beside the successor until it rang a second time. Ios uniform seed
    /// 75493: a 5 min snooze, a +90 s jump landing 615 ms before its fire time; the old
    /// registration rang, the rebase landed 150 ms later and replaced it, and the successor armed
    /// at the alert's end sat beside the pending copy.
    mutating func retireSpentSnoozeCopy(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard flavor == .ios, let live = document?.liveOccurrence, let successor = pendingSuccessor(of: live), successor.confirmed,
              let copy = document?.rings.first(where: { row in
                  row.metadata.kind == .snooze && row.metadata.token == live.token && row.delivered && row.confirmed
                      && row.fireWallMs > now.wallMs && !alerting.contains(row.id) && !inFlight.contains(row.id)
                      && (lastObservedRingIDs ?? []).contains(row.id)  // the platform lists it again, after its alert
              }) else { return }
        out.append(.note("SNZ-13: snooze ring \(copy.id) rang before its rebase landed: its pending copy is retired"))
        out.append(.cancel(copy.id, origin: .lifecycle))  // SCH-21: spent-snooze retirement is a lifecycle path
        mutate { $0.removeRow(copy.id) }
    }

    /// SNZ-19: rendering the challenge stops a snooze ring that is sounding.
    mutating func stopSoundingSnooze(of live: OccurrenceRecord, into out: inout [BridgeCommand]) {
        for id in alerting {
            guard let row = document?.row(id), row.metadata.kind == .snooze, row.metadata.token == live.token else { continue }
            silence(id, origin: .lifecycle, into: &out)
        }
    }

    /// SNZ-15, SNZ-16: only for the exact live owner and token with a snooze armed; arms the
    /// ordinary successor first and retires the snooze ring once that successor is confirmed.
    /// API-15: `skipOneTimeSnooze({occurrenceToken, alarmIds})`.
    mutating func skipOneTimeSnooze(token: String, alarmIDs: [String], now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard case .success(let live) = snoozeTarget(token: token, alarmIDs: alarmIDs) else {
            out.append(.reply(.skipRejected(reason: "not the live owner and token")))
            return
        }
        guard let snooze = pendingSnooze(of: live), pendingSkip == nil else {
            out.append(.reply(.skipRejected(reason: SnoozeRejection.noSnoozeArmed.rawValue)))
            return
        }
        guard let request = newOccurrenceRing(.successor, for: live, fireWallMs: now.wallMs + configuration.successorDelayMs) else { return }
        if defects.retireBeforeArm {
            // Known defect (issue 5): the snooze ring goes before its replacement is accepted.
            out.append(.note("defect retire-before-arm: snooze ring retired before the skip's successor is confirmed"))
            out.append(.cancel(snooze.id, origin: .lifecycle))
            mutate { $0.removeRow(snooze.id) }
            pendingSkip = (live.token, request.id, snooze.id)
            publishAndSchedule([request], origin: .lifecycle, now: now, into: &out)
            return
        }
        pendingSkip = (live.token, request.id, snooze.id)
        publishAndSchedule([request], origin: .lifecycle, now: now, into: &out)
    }

    /// The skip's successor is confirmed: retire the snooze ring (SNZ-15); the latch stays spent.
    /// A successor accepted with no skip of this process waiting for it, beside a confirmed snooze
    /// ring, is an earlier process's skip that a sync sent again (SCH-19: its row was published,
    /// its ring missing): the skip's arm is accepted, so its handoff completes as when the earlier
    /// process's own arm is found held (`adoptLandedSkipSuccessor`). Whether the daemon held the
    /// ring at the launch read or only accepted it after is a race, not a different skip (ios
    /// swarm seed 65370: the process died 288 ms after a skip, the launch read came before the arm
    /// landed, the launch sync re-sent the successor and it sat beside the snooze ring).
    mutating func skipHandoffConfirmed(_ row: RingRow, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let skip = pendingSkip, skip.successorID == row.id else {
            adoptLandedSkipSuccessor(row.id, now: now, into: &out)  // SNZ-15, SNZ-10
            return
        }
        pendingSkip = nil
        if let snooze = document?.row(skip.snoozeID) {
            retire(snooze, reason: "snooze skipped (SNZ-15)", into: &out)
        }
        out.append(.reply(.snoozeSkipped(token: skip.token)))
    }
}

/// JS's view of and hold on the live occurrence (API-11..13).
extension BridgeCore {
    /// API-11, INACT-14, SNZ-23.
    func activeWakeOccurrence() -> ActiveWakeOccurrence? {
        guard let live = document?.liveOccurrence else { return nil }
        return ActiveWakeOccurrence(rootID: live.rootID, token: live.token, occurrenceStartedAtMs: live.startedAtMs,
                                    inactivityPolicyVersion: live.policy, lastMeaningfulActivityMs: live.lastActivityMs,
                                    effectiveExpiryMs: live.deadlineMs, inactivityClockOffsetMs: live.inactivityClockOffsetMs,
                                    inactivitySnoozeUntilMs: live.inactivitySnoozeUntilMs, oneTimeSnoozeUsed: live.oneTimeSnoozeUsed,
                                    oneTimeSnoozeUntilMs: pendingSnooze(of: live)?.fireWallMs
                                        ?? (defects.snoozeEndOutlivesRing ? live.inactivitySnoozeUntilMs : nil))  // SNZ-23 (known defect)
    }

    /// OCC-18, OCC-19, API-12: retires the live occurrence only for its owner, without recording
    /// a completion; otherwise changes nothing.
    mutating func abandonWakeOccurrence(alarmIDs: [String], now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard case .success(let live) = snoozeTarget(token: nil, alarmIDs: alarmIDs) else {
            out.append(.reply(.abandoned(false)))
            return
        }
        close(live, as: .abandoned, now: now, into: &out)
        out.append(.reply(.abandoned(true)))
    }

    /// INACT-15..17, API-13: only the live occurrence of one of `alarmIDs`, with that ring time
    /// (and token, when given), whose deadline has passed; the miss receipt goes first (INACT-16).
    mutating func expireWakeOccurrence(alarmIDs: [String], startedAtMs: Int64, token: String?, now: BridgeInstants,
                                       into out: inout [BridgeCommand]) {
        guard case .success(let live) = snoozeTarget(token: token, alarmIDs: alarmIDs), live.startedAtMs == startedAtMs,
              now.wallMs >= live.deadlineMs else {
            out.append(.reply(.expired(false)))
            return
        }
        expireIfDue(now: now, into: &out)
        out.append(.reply(.expired(true)))
    }
}

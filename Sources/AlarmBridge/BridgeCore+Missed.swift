/// Missed occurrences: a configured ring time that passed without ringing leaves a record the app
/// can see (issue 16; RULES.md is silent).
///
/// Sources for the rule, since RULES.md names none: seed 000 ("Stored schedules are also repaired
/// whenever JavaScript requests native inventory, covering process death and force-stop recovery
/// after the user next opens Ember"; "a fresh install can convert the surviving receipt into the
/// failed wake day") — a day the alarm could not do its job is recorded, not silently re-armed;
/// PLATFORMS.md, Android: force-stop removes every alarm of the uid, a reboot clears AlarmManager
/// until the app re-arms, and the field row (battery killers, "reboot with nothing re-armed",
/// alarm#243). The record goes to the abandoned-occurrence journal (API-20), the one history JS
/// reads and acknowledges (`abandonedWakeOccurrences`), with reason `missed`; unlike an inactivity
/// receipt (INACT-18) no occurrence began, so `expiredAtMs` is the configured ring time that did
/// not ring and the clock offset is 0.
///
/// Evidence, judged at every successful platform read a sync reconciles against: a registry row
/// of an occurrence-opening kind (primary or seed) whose fixed fire time passed more than
/// `missedOccurrenceGraceMs` ago, which the bridge never saw delivered, which is not in flight,
/// which the platform no longer holds, and whose ring time opened no occurrence (a tied root's
/// delivery opens it for both). A repeating AlarmKit schedule (`.relative` weekly) is re-armed by
/// the daemon and proves nothing about one day: not judged. Each row is recorded once
/// (`missedRingIDs`), so an acknowledged record does not come back.
extension BridgeCore {
    /// How long past its fire time (virtual ms) an undelivered, vanished ring must be before it is
    /// recorded as missed: a delivery the platform has begun may still be queued behind the read.
    public static let missedOccurrenceGraceMs: Int64 = 60_000
    /// The bound of `missedRingIDs` (oldest dropped first).
    static let missedRingIDsMax = 64

    /// The bound of `refusedRows` (oldest dropped first).
    static let refusedRowsMax = 32

    /// iOS: keeps the row of an occurrence-opening ring whose request AlarmKit refused, which the
    /// failure path drops, as the evidence of its ring time. On iOS that answer is the only sure
    /// sign nothing was registered: a row whose answer was lost with its process (never confirmed)
    /// and that AlarmKit no longer holds reads exactly like a ring that landed, fired and was
    /// dismissed by the lock or volume button (IOS-5, IOS-7, IOS-11). A capacity refusal is
    /// surfaced as dropped instead (CAP-9).
    mutating func noteRefusedRow(_ row: RingRow, error: PlatformError) {
        guard flavor == .ios, row.metadata.kind.opensOccurrence, error != .maximumLimitReached else { return }
        mutate { document in
            // One per ring time: a later refusal of the same ring for a later time (a weekly
            // `.relative` re-registration after its ring time) keeps the earlier, passed one
            // (ios uniform seed 19069: retries at 06:00:00 for next Monday replaced the refused 06:00).
            var rows = (document.refusedRows ?? []).filter { $0.id != row.id || $0.fireWallMs != row.fireWallMs }
            rows.append(row)
            if rows.count > Self.refusedRowsMax { rows.removeFirst(rows.count - Self.refusedRowsMax) }
            document.refusedRows = rows
        }
    }

    /// Appends a `missed` receipt for every ring time the evidence shows passed silently.
    mutating func recordMissedOccurrences(inventory: [PlatformAlarm], now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let document else { return }
        let present = inventory.map(\.id)
        let recorded = document.missedRingIDs ?? []
        let cleared = launchLossJudged ? nil : launchAlarmsClearedSpan(now: now)
        launchLossJudged = true
        var missed: [RingRow] = []
        // iOS: a refused ring time, once passed, with no row of the same ring since (a row is
        // judged below) and nothing in AlarmKit.
        // Its fire instant decides, a weekly `.relative` one's too: nothing was registered to re-arm
        // (ios uniform seed 1992).
        // A weekly `.relative` row is never judged below (`isPast`), so it does not speak for a
        // refused one: a failed direct save rolls back to the previous, unconfirmed row of the
        // same ring and day (SCH-10), which AlarmKit would still hold had it landed (ios swarm
        // seed 21236: a1.thu refused by a failed save, its previous request's answer lost).
        // A refused row speaks only for a ring time the alarm still has: a failed edit rolls back
        // to the previous definition (SCH-10), and the time it asked for was never configured
        // (ios uniform seed 7051: an edit of a1 from 09:08 to 09:23 refused twice; the launch
        // at 09:28 recorded 09:23 missed).
        let refused = (document.refusedRows ?? []).filter { refusedRow in
            !document.rings.contains { $0.id == refusedRow.id && $0.fireWallMs == refusedRow.fireWallMs && $0.isPast(at: $0.fireWallMs) }
                && isConfiguredRingTime(refusedRow)
        }
        // A refused row was never registered, so no clock jump can have delivered it: the
        // `deliveredByJump` guard (an iOS `.fixed` ring already due has rung, unseen) is for rows
        // AlarmKit may hold (ios uniform seed 4780: a refused fixed primary left no record).
        let refusedIDs = refused.map(\.id)
        // A day whose alarm was turned off after its ring time owes no record (``endDisabledAlarmDays``).
        func isMissed(_ row: RingRow) -> Bool {
            guard row.metadata.kind.opensOccurrence && !row.delivered && !inFlight.contains(row.id)
                && row.dayEndedByDisable != true
                && (row.isPast(at: now.wallMs) || (refusedIDs.contains(row.id) && row.fireWallMs <= now.wallMs))
                && now.wallMs - row.fireWallMs > Self.missedOccurrenceGraceMs
                && (!present.contains(row.id) || (refusedIDs.contains(row.id) && landedAfterRefusal(row))) && !recorded.contains(row.id)
                && (refusedIDs.contains(row.id) || !deliveredByJump(row, now: now))
                && !(row.inexact == true && now.wallMs - row.fireWallMs < inexactStillDueBoundMs(row)  // still due: re-added (AND-1, AND-3)
                     && !isPlannedInEarlierZone(row)  // unless the zone moved its day (REC-8): not re-added
                     && !isLostInsideAnotherRootsOccurrence(row, cleared: cleared)) else { return false }  // nor a pass-over (OCC-3, AND-15)
            guard let alarm = document.alarm(row.metadata.alarmID), alarm.enabled, document.hasRoot(row.metadata.rootID),
                  !document.occurrences.contains(where: { $0.startedAtMs == row.fireWallMs }) else { return false }
            return true
        }
        // The rows, then the refused ones; by index, each row read in place (issue 20: the two
        // lists were joined into a copy of every row at every reconcile).
        let rings = document.rings
        for index in rings.indices where isMissed(rings[index]) { missed.append(rings[index]) }
        for index in refused.indices where isMissed(refused[index]) { missed.append(refused[index]) }
        if let rows = document.refusedRows, rows.contains(where: { now.wallMs - $0.fireWallMs > Self.missedOccurrenceGraceMs }) {
            // Judged (recorded now, or spoken for by an occurrence or a delivery): no longer evidence.
            mutate { $0.refusedRows = rows.filter { now.wallMs - $0.fireWallMs <= Self.missedOccurrenceGraceMs } }
        }
        recordMissed(missed, into: &out)
        rememberMissedPassOvers(missed, cleared: cleared)
    }

    /// Android, at the first missed-day judgement of a process: when, since the last process's
    /// saved reading (`previousProcessReadingWallMs`), the platform first cleared every alarm of
    /// the app, as a span of wall ms the launch can date it to; nil when nothing dates it.
    /// - a force-stop: its `ApplicationExitInfo` record (`REASON_USER_REQUESTED`, ``ProcessExit``),
    ///   whose timestamp is the removal (AMS `removeLocked(uid)` on ACTION_PACKAGE_RESTARTED): one
    ///   instant;
    /// - a reboot (a boot since that reading): AlarmManager forgets every alarm at the shutdown,
    ///   some time after that reading and before this boot (`wallMs - monotonicMs`): that span.
    /// The earlier of the two when both happened. A loss nothing dates (an accepted request the
    /// platform dropped) gives nil.
    func launchAlarmsClearedSpan(now: BridgeInstants) -> ClosedRange<Int64>? {
        guard flavor == .android, let reading = previousProcessReadingWallMs else { return nil }
        let bootMs = now.wallMs - now.monotonicMs
        let forceStopMs = previousExits.filter { $0.reason == .userRequested && $0.wallMs >= reading }.map(\.wallMs).min()
        if let forceStopMs, previousProcessReadingThisBoot || forceStopMs <= bootMs { return forceStopMs...forceStopMs }
        guard !previousProcessReadingThisBoot, bootMs >= reading else { return nil }
        return reading...bootMs
    }

    /// OCC-3, AND-15: true when `row`, an undelivered inexact primary the platform no longer
    /// holds, was lost while another root owned the live occurrence: at the loss its ring time had
    /// come (AMS held it, inexact), or it came later with nothing held for it, and another root's
    /// occurrence was live at that instant, `max(ring time, loss)`. A delivery then would have been
    /// passed over, and so is the loss: the day is recorded missed and remembered as passed over,
    /// never added back to ring late (android uniform seed 31485: a2.sun's legacy 05:14 held
    /// inexact, a1's 05:16 delivered at 05:17:23 and opened; a force-stop at 05:17:38 cleared
    /// a2.sun; the 06:37 launch added 05:14 back as still due and it rang at once). When the loss
    /// is known only to a span (``launchAlarmsClearedSpan(now:)``, a reboot), the occurrence must
    /// have been live at both ends of it. A row this process finds gone after its first judgement
    /// is not dated: a delivery may be in flight, or it was lost after that occurrence closed
    /// (android uniform seed 15049: a2.fri's held 07:55 was delivered as the app resumed, after
    /// a1.fri's occurrence completed, and must ring), so it stays still due. RULES.md is silent
    /// on a held inexact ring lost inside another root's occurrence; decided from OCC-3, AND-15
    /// and AOSP's force-stop and reboot (PLATFORMS.md).
    func isLostInsideAnotherRootsOccurrence(_ row: RingRow, cleared: ClosedRange<Int64>?) -> Bool {
        guard let cleared, row.inexact == true, !row.delivered, row.metadata.kind == .primary, let document else { return false }
        let earliestMs = max(row.fireWallMs, cleared.lowerBound)
        let latestMs = max(row.fireWallMs, cleared.upperBound)
        return document.occurrences.contains { occurrence in
            occurrence.rootID != row.metadata.rootID && occurrence.wasLive(at: earliestMs) && occurrence.wasLive(at: latestMs)
        }
    }

    /// OCC-3, OCC-20, REC-9: a missed ring time that came while another root's occurrence was
    /// live was a pass-over as well (its root never becomes owner there), even though no ring was
    /// delivered for it; it is remembered as passed over (`passedOverRingTimes`), so a clock set
    /// back over it brings that ring time back as come (``latestRingTimeCome(of:)``), not as a
    /// new occurrence to register and ring (android uniform seed 66428: a3.sun's 08:53 came while
    /// a1 owned the occurrence and the app was force-stopped; the 09:43 launch recorded it missed,
    /// a 1 h set-back at 09:47 re-planned a3.sun for the 08:53 it brought back, and it rang after
    /// a1's completion at 08:50). The Android bridge otherwise remembers a passed-over time only
    /// by its delivered fixed primary row (android seed 10378), which a missed day never has.
    mutating func rememberMissedPassOvers(_ missed: [RingRow], cleared: ClosedRange<Int64>?) {
        guard !defects.missedOccurrenceNotRecorded, let document else { return }
        for row in missed where isLostInsideAnotherRootsOccurrence(row, cleared: cleared)
            || document.occurrences.contains(where: { $0.rootID != row.metadata.rootID && $0.wasLive(at: row.fireWallMs) }) {
            rememberPassedOver(rootID: row.metadata.rootID, ringTimeMs: row.fireWallMs)
        }
    }

    /// SCH-2, SCH-10: true when `landed`, a `.relative` registration that landed at `now`, came
    /// after the `refused` row's ring time: AlarmKit rings it at the first match after its
    /// registration, never at that passed ring time.
    static func landedPastRingTime(_ landed: RingRow, refused: RingRow, now: BridgeInstants) -> Bool {
        guard case .relative = landed.schedule else { return false }
        return refused.fireWallMs <= now.wallMs
    }

    /// A refused row whose ring ID AlarmKit lists again because a later registration of it landed
    /// after the refused ring time (``landedPastRingTime(_:refused:now:)``): the listing is that
    /// later registration, not the refused ring time's (ios uniform seed 19069).
    func landedAfterRefusal(_ refused: RingRow) -> Bool {
        guard let current = document?.row(refused.id), current.confirmed, case .relative = current.schedule else { return false }
        return current.publishedAtMs > refused.fireWallMs
    }

    /// True when `row`'s instant is its root's configured hour and minute (the root's definition
    /// now, not one a failed save asked for) in the zone it was planned in: the zone in force, or
    /// for a row planned before the bridge adopted it, the previous one (REC-8: a ring time that
    /// passed before the zone changed was that zone's; ios uniform seed 62961: a1's 07:34 Berlin
    /// one-shot refused three times, the zone became São Paulo after 07:34, and the launch
    /// judged the refused row at 02:34 local, not a configured time, and recorded nothing).
    func isConfiguredRingTime(_ row: RingRow) -> Bool {
        guard let document, let root = document.root(row.metadata.rootID) else { return false }
        let plannedEarlier = document.zoneAdoptedAtMs.map { row.publishedAtMs < $0 } ?? false
        let calendar = (plannedEarlier ? previousZoneCalendar() : nil) ?? configuration.calendar
        let local = calendar.local(row.fireWallMs)
        return local.hour == root.hour && local.minute == root.minute
    }

    /// A primary the sync added back after its ring time (an undelivered inexact one inside its
    /// AMS window, ``undeliveredInexactPrimaries(now:)``) whose registration failed: nothing will
    /// ring that day unless a retry lands, and a process death before it takes the row — the day's
    /// only evidence — with it, so the day is recorded now (android seed 1497: force-stopped over
    /// 09:23, the 09:53 launch's re-registration failed, and the day was left with neither a ring
    /// nor a record). A failure worth retrying (``isRetryable(_:)``) is also remembered in
    /// `failedReAdds`: the primary retry's sync adds the day back again while the process lives,
    /// and a landed add-back withdraws the record (``withdrawFailedReAddRecord(_:into:)``; android
    /// swarm seed 15377: the only add-back failed at 05:17 and the occurrence the oracle opened
    /// was never rung; android uniform seeds 3168, 4728, 5919, 6851, 8821: the process died before
    /// the retry, and the record is what is left). [derived] WALK-18, AND-3, API-20, OCC-2.
    /// - Returns: true when the day is recorded by this failure or an earlier one of this process
    ///   (the caller keeps the row for a late delivery of the original alarm, OCC-2).
    @discardableResult
    mutating func recordFailedReAdd(_ row: RingRow, error: PlatformError, now: BridgeInstants,
                                    into out: inout [BridgeCommand]) -> Bool {
        guard flavor == .android, let document, row.metadata.kind == .primary, !row.delivered, row.fireWallMs <= now.wallMs,
              row.publishedAtMs >= row.fireWallMs, document.alarm(row.metadata.alarmID)?.enabled == true,
              !document.occurrences.contains(where: { $0.startedAtMs == row.fireWallMs }) else { return false }
        if (document.missedRingIDs ?? []).contains(row.id) { return failedReAdds.contains(row.id) }
        recordMissed([row], into: &out)
        guard !defects.missedOccurrenceNotRecorded else { return false }
        if isRetryable(error), !failedReAdds.contains(row.id) {
            failedReAdds.append(row.id)
            if failedReAdds.count > Self.heldInProcessMax { failedReAdds.removeFirst() }
        }
        return true
    }

    /// A failed add-back that landed on a retry (``recordFailedReAdd(_:error:now:into:)``): the
    /// day will ring after all, so its `missed` receipt and `missedRingIDs` entry are withdrawn
    /// (API-20: a missed record says no ring was delivered).
    mutating func withdrawFailedReAddRecord(_ row: RingRow, into out: inout [BridgeCommand]) {
        guard let index = failedReAdds.firstIndex(of: row.id) else { return }
        failedReAdds.remove(at: index)
        let token = "missed:\(row.metadata.rootID):\(row.fireWallMs)"
        mutate { document in
            document.missReceipts.removeAll { $0.token == token }
            document.missedRingIDs?.removeAll { $0 == row.id }
        }
        out.append(.note("primary \(row.id) added back on a retry: its missed record is withdrawn"))
    }

    /// Appends one `missed` receipt per row, remembers the rows (`missedRingIDs`), persists.
    mutating func recordMissed(_ missed: [RingRow], into out: inout [BridgeCommand]) {
        guard !missed.isEmpty else { return }
        if defects.missedOccurrenceNotRecorded {
            // Known defect: the silent day is re-armed for tomorrow and leaves nothing behind.
            out.append(.note("defect missed-occurrence-not-recorded: \(missed.count) silent ring time(s) dropped"))
            return
        }
        mutate { document in
            var ids = document.missedRingIDs ?? []
            for row in missed {
                let policy = document.root(row.metadata.rootID)?.policy ?? .v3
                document.missReceipts.append(MissReceipt(token: "missed:\(row.metadata.rootID):\(row.fireWallMs)", rootID: row.metadata.rootID,
                                                         reason: MissReceipt.missedReason, expiredAtMs: row.fireWallMs,
                                                         policy: policy, inactivityClockOffsetMs: 0))
                ids.append(row.id)
            }
            if ids.count > Self.missedRingIDsMax { ids.removeFirst(ids.count - Self.missedRingIDsMax) }
            document.missedRingIDs = ids
        }
        for row in missed {
            out.append(.note("missed occurrence of \(row.metadata.rootID) at \(row.fireWallMs) recorded (no ring was delivered)"))
        }
        flush(into: &out)
    }
}

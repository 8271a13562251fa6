/// Android exact-alarm permission: what the bridge still does when exact alarms are refused.
///
/// RULES.md requires the exact-alarm permissions (AND-1) and a restore on every permission change
/// (AND-3), but is silent on the time between a refusal and the grant. Decided here from the AOSP
/// behaviour (PLATFORMS.md, AlarmManager table: `SCHEDULE_EXACT_ALARM` is user-revocable on API
/// 31/32 and denied by default on API 34 for apps that declare only it; `setAndAllowWhileIdle`
/// needs no permission and is delivered in doze) and from seed 004's "a morning must not be
/// silent": a ring `setAlarmClock` refuses with `SecurityException` is kept as an inexact
/// allow-while-idle alarm at the same trigger — late by at most its AMS window, never silent —
/// and `getScheduledAlarmTimes` reports it as inexact, so JS can ask the user for the permission.
/// The grant (`ACTION_SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED`) re-registers every degraded
/// ring exactly.
extension BridgeCore {
    /// A refused exact request is sent again as ``RingPrecision/allowWhileIdle``.
    ///
    /// - Returns: true when the degraded request was issued: the failure is not the outcome of
    ///   the ring's request (its save, snooze or handoff waits for the degraded one).
    mutating func degradeRefusedExact(_ row: RingRow, error: PlatformError, now: BridgeInstants,
                                      into out: inout [BridgeCommand]) -> Bool {
        let wasDegraded = degradedRetries.contains(row.id)
        degradedRetries.removeAll { $0 == row.id }
        guard flavor == .android, error == .securityException, row.inexact != true, !wasDegraded,
              !row.metadata.kind.isLegacy else { return false }
        if defects.keepsNothingWhenExactRefused {
            out.append(.note("defect keeps-nothing-when-exact-refused: \(row.metadata.kind.rawValue) \(row.id) dropped"))
            return false
        }
        out.append(.note("exact alarms refused (SecurityException): \(row.metadata.kind.rawValue) \(row.id) kept as an inexact allow-while-idle alarm"))
        degradedRetries.append(row.id)
        var request = RingRequest(id: row.id, schedule: row.schedule, fireWallMs: row.fireWallMs, metadata: row.metadata,
                                  countdown: nil, soundName: row.soundName)
        request.precision = .allowWhileIdle
        publishAndSchedule([request], origin: .lifecycle, now: now, into: &out)
        return true
    }

    /// A same-ID re-registration of a ring the platform holds (a snooze rebase after a clock
    /// correction, SNZ-20, SNZ-21; its retry) that `setAlarmClock` refused for want of the
    /// exact-alarm permission is sent again as ``RingPrecision/allowWhileIdle`` at the new time,
    /// as a first registration is (``degradeRefusedExact(_:error:now:into:)``): refused, the
    /// held ring stayed at its old-frame time — an hour late after a set-back — and the grant
    /// then re-registered that stale time exactly (android uniform seed 7558). The previous row
    /// stays the fallback of the degraded request (`resounded`), so its refusal keeps it.
    /// - Returns: true when the degraded request was issued.
    mutating func degradeRefusedReRegistration(_ previous: RingRow, row: RingRow, error: PlatformError, now: BridgeInstants,
                                               into out: inout [BridgeCommand]) -> Bool {
        guard flavor == .android, error == .securityException, row.inexact != true, !row.metadata.kind.isLegacy,
              !defects.keepsNothingWhenExactRefused else { return false }
        out.append(.note("exact alarms refused (SecurityException): re-registration of \(row.metadata.kind.rawValue) \(row.id) sent as an inexact allow-while-idle alarm"))
        resounded.append(previous)
        var request = RingRequest(id: row.id, schedule: row.schedule, fireWallMs: row.fireWallMs, metadata: row.metadata,
                                  countdown: nil, soundName: row.soundName)
        request.precision = .allowWhileIdle
        publishAndSchedule([request], origin: .lifecycle, now: now, into: &out)
        return true
    }

    /// AND-3: the exact-alarm permission was granted: every ring held inexact is registered
    /// exactly again (same ID: the PendingIntent replaces the inexact alarm), then the sync runs.
    /// So is a degraded primary whose ring time came but whose delivery was not seen and is still
    /// due (``undeliveredInexactPrimaries(now:)``): registered exactly at its past ring time, AMS
    /// delivers it at once, instead of at the end of its inexact window — possibly past the
    /// occurrence's deadline, never audible (android uniform seed 3844: an 08:15 primary held
    /// inexact, the grant at 08:27, delivered at 08:48 after its 08:45 deadline).
    /// A primary or seed planned before the zone now in force is not re-registered at its stale
    /// time: the sync re-plans it in the local frame (REC-8). Nor is one no configured root wants
    /// any more (``isSupersededRing(_:wanted:)``).
    mutating func upgradeInexactRings(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let document else { return }
        // Only ring times still inside their AMS window: one a hold keeps past it (a legacy
        // occurrence, ``inexactStillDueBoundMs(_:)``) stays with the platform, which delivers it
        // when the hold ends, as before (the grant's reason, seed 3844, is the window).
        let dueNow = undeliveredInexactPrimaries(now: now, beyondWindow: false).map(\.id)
        let wanted = desiredRings(now: now).map(\.id)
        let degraded = document.rings.filter { row in
            row.inexact == true && !row.delivered && !alerting.contains(row.id) && (!row.isPast(at: now.wallMs) || dueNow.contains(row.id))
                && !isSupersededRing(row, wanted: wanted)
                // REC-8: a ring time planned before the zone now in force is stale; the sync that
                // follows re-plans it in the local frame (android uniform seed 43852: a zone change
                // while a1's family was alerting deferred the re-plan, SCH-22, and the grant
                // registered Sydney's 07:48 as Tokyo's 06:48).
                && !(row.metadata.kind.opensOccurrence && isPlannedInEarlierZone(row))
        }
        guard !degraded.isEmpty else { return }
        out.append(.note("exact alarms granted: \(degraded.count) inexact ring(s) registered exactly again (AND-3)"))
        // SCH-10 for a same-ID replacement: a failed exact write leaves the inexact alarm the
        // platform holds (the AlarmManager model, like AOSP's `setImpl`, refuses a request before
        // it replaces the PendingIntent's old alarm), so its row stays and still guards its occurrence (android swarm seed
        // 36599: the upgrade of a pending snooze ring failed and the bridge armed a successor
        // beside the snooze the platform still held, SNZ-7, SNZ-10).
        for row in degraded where row.confirmed && !resounded.contains(where: { $0.id == row.id }) { resounded.append(row) }
        let requests = degraded.map { row in
            RingRequest(id: row.id, schedule: row.schedule, fireWallMs: row.fireWallMs, metadata: row.metadata,
                        countdown: nil, soundName: row.soundName)
        }
        publishAndSchedule(requests, origin: .lifecycle, now: now, into: &out)
    }

    /// REC-1, SCH-10, AND-3: true when `row` opens occurrences but is no ring time the bridge
    /// wants now (`wanted`: ``desiredRings(now:)``) nor a ring of the previous schedule that a save
    /// of this process still keeps (arm before retire): an older time of an edited alarm whose save
    /// a process death cut after the new rings were armed, before the old ones were retired. The
    /// sync that follows cancels it; re-registering it exactly first asks the platform for a time
    /// the user changed away from (android uniform seeds 63585, 66709: a2 moved 07:43 -> 07:50, a1
    /// 09:19 -> 09:31, both held inexact; the grant re-registered the old times exactly).
    func isSupersededRing(_ row: RingRow, wanted: [AlarmUUID]) -> Bool {
        guard row.metadata.kind.opensOccurrence, !wanted.contains(row.id) else { return false }
        return !saves.pending.contains { save in save.previousRows.contains { $0.id == row.id } }
    }

    /// The longest AMS delays an inexact one-shot (`maxTriggerTime` caps the window at +1 h).
    static let inexactWindowBoundMs: Int64 = 3_600_000

    /// How long after its ring time an undelivered inexact primary is still due (virtual ms): its
    /// AMS window (at most 1 h), or, when longer, the lifetime of the occurrence it would open
    /// (legacy schedules: 20 h from the ring time, INACT-2, OCC-21). AMS holds a due inexact
    /// alarm past its window under doze and, for an app whose battery usage is "Restricted"
    /// (forced app standby), until the app is next active (PLATFORMS.md: doze windows; AMS
    /// `isBackgroundRestricted`, `mPendingBackgroundAlarms`), so a legacy occurrence may still be
    /// rung by it hours late; one the platform lost meanwhile (an OEM update, a reboot, a
    /// force-stop) is added back like one inside the window ([derived] AND-1, AND-3; android
    /// swarm seed 49170: a1's legacy 09:35 held by the restriction, cleared by the 13:03 update,
    /// recorded missed by the MY_PACKAGE_REPLACED launch while its occurrence lived). A policy 3
    /// or 2 occurrence has expired by then (INACT-3), so its bound stays the window. RULES.md is
    /// silent on deliveries held past the inexact window; decided from PLATFORMS.md and AOSP.
    func inexactStillDueBoundMs(_ row: RingRow) -> Int64 {
        let policy = document?.root(row.metadata.rootID)?.policy ?? .v3
        return max(Self.inexactWindowBoundMs, policy.timeoutMs)
    }

    /// A degraded primary whose ring time came but whose delivery was not seen is still due: AMS
    /// may deliver it until the end of its window (at most 1 h), or later while a hold keeps it
    /// (``inexactStillDueBoundMs(_:)``). When the platform no longer
    /// holds it (a reboot or a force-stop cleared AlarmManager), the sync adds it back at its
    /// ring time — delivered at once — instead of moving on to the next occurrence
    /// ([derived] AND-1, AND-3; android seeds 2704, 3163). A primary this process saw AlarmManager
    /// accept that is gone after its ring time was delivered, and the delivery is on its way to
    /// the bridge (OCC-7, ``deliveryInFlight(_:now:)``): adding it back would leave a duplicate
    /// that rings the occurrence's primary again after its successor was armed (android seeds
    /// 443, 995: the screen-on that opened Ember ended doze and released the inexact primary).
    /// - Parameter beyondWindow: whether a ring time still due past its AMS window counts
    ///   (``inexactStillDueBoundMs(_:)``); false: the window alone.
    func undeliveredInexactPrimaries(now: BridgeInstants, beyondWindow: Bool = true) -> [RingRequest] {
        guard flavor == .android, let document else { return [] }
        // The cheap field tests first, in place (issue 20: `filter` copied every row).
        let rings = document.rings
        let candidates = rings.indices.filter {
            rings[$0].inexact == true && rings[$0].metadata.kind == .primary && !rings[$0].delivered && rings[$0].fireWallMs <= now.wallMs
        }
        return candidates.map { rings[$0] }.filter { row in
            !deliveryInFlight(row, now: now)
                && now.wallMs - row.fireWallMs < (beyondWindow ? inexactStillDueBoundMs(row) : Self.inexactWindowBoundMs)
                && document.alarm(row.metadata.alarmID)?.enabled == true
                && row.dayEndedByDisable != true  // the user turned the alarm off after it came
                // A failed add-back, recorded: not again, unless this process retries it.
                && (!(document.missedRingIDs ?? []).contains(row.id) || failedReAdds.contains(row.id))
                && !isPlannedInEarlierZone(row)  // REC-8: the day's ring time moved with the zone
                && !document.occurrences.contains { $0.rootID == row.metadata.rootID && $0.startedAtMs == row.fireWallMs }
        }.map { row in
            RingRequest(id: row.id, schedule: row.schedule, fireWallMs: row.fireWallMs, metadata: row.metadata,
                        countdown: nil, soundName: row.soundName)
        }
    }

    /// [derived] AND-1, AND-3, OCC-2, OCC-20, API-20: an undelivered primary whose ring time came
    /// and that a read while its alarm is disabled finds unheld (``heldPresent(_:)``) is no longer
    /// due: the user turned the alarm off after its ring time, and that ends the day — enabling
    /// the alarm again plans its ring times from then on, it never brings back one already gone.
    /// Without this, ``undeliveredInexactPrimaries(now:beyondWindow:)`` judged the row by the
    /// alarm's current state alone, and a legacy day (still due for 20 h) was added back by the
    /// launch after a re-enable and rang over an hour late with no occurrence live (android
    /// uniform seeds 78528: a1.sun's 06:34 dropped by AlarmManager, a1 off at 07:03, on at 07:37,
    /// rung at 07:47; 86913: 07:25, off at 09:37, on at 09:55, rung at 10:05). The row is marked
    /// (`dayEndedByDisable`), not removed (SCH-5: the observer still needs it), and owes no missed
    /// record either, as a disabled alarm owes none (android uniform seed 4161). A copy the
    /// platform still holds is a ring past its time that disabling does not cancel (SCH-21): its
    /// delivery opens the day (android uniform seed 21647), so it is not marked. RULES.md is silent
    /// on a day whose alarm was turned off after its ring time; decided from the seeds' "the user
    /// edits the alarm, native state decides" (glossary: logical alarm) and the simulator's reading
    /// of 4161 and 21647 (Invariants+Missed.swift, `checkMissedRecorded`).
    mutating func endDisabledAlarmDays(inventory: [PlatformAlarm], now: BridgeInstants, into out: inout [BridgeCommand]) {
        // Only a disabled alarm's rows can qualify (issue 20: every Android sync scanned every row).
        guard flavor == .android, let document, document.alarms.contains(where: { !$0.enabled }) else { return }
        let held = heldPresent(inventory).map(\.id)
        let ended = document.rings.filter { row in
            row.metadata.kind == .primary && !row.delivered && row.dayEndedByDisable != true && row.fireWallMs <= now.wallMs
                && document.alarm(row.metadata.alarmID)?.enabled == false
                && !held.contains(row.id) && !inFlight.contains(row.id) && !alerting.contains(row.id)
        }.map(\.id)
        guard !ended.isEmpty else { return }
        mutate { document in
            for index in document.rings.indices where ended.contains(document.rings[index].id) {
                document.rings[index].dayEndedByDisable = true
            }
        }
        out.append(.note("\(ended.count) ring time(s) of a disabled alarm came undelivered and are not held: the day is over"))
        flush(into: &out)
    }

    /// SCH-21, REC-8, REC-9, [derived] AND-1, AND-3: a primary whose ring time came in the old
    /// frame of a set-back TIME_SET dated (`reLivedRingIDs`) with no delivery seen: AlarmManager
    /// held it (inexact window, or a hold) and, re-framing RTC alarms at the set-back, holds it
    /// for its wall time again, ahead now. Its day is due — its fire time has passed — so no sync
    /// cancels it, even once a later zone change re-plans the root (REC-8 recomputes the ring
    /// times still to come; this one came before the change, which the dated set-back orders).
    /// The re-plan moved past it left the day with no ring at all (android swarm seed 68355:
    /// a2.tue's 09:16 Tokyo held inexact, a 1 h set-back at 09:46, the grant at 08:47
    /// re-registered it exactly, a zone change to Sydney at 09:02 cancelled it for 3 Mar).
    /// RULES.md is silent on a held ring time re-lived by a set-back; decided from SCH-21 and
    /// AOSP's `reevaluateRtcAlarms` (PLATFORMS.md: RTC alarms follow the wall clock). Only a ring
    /// the last inventory read still lists: one the platform lost (a force-stop) is the plan's to
    /// re-arm, as before (android uniform seed 73509).
    func heldPrimariesReachedBeforeSetBack(now: BridgeInstants) -> [RingRequest] {
        guard flavor == .android, lastBackwardJumpDated, let back = lastBackwardJump, let document else { return [] }
        return document.rings.filter { row in
            row.metadata.kind == .primary && !row.delivered && reLivedRingIDs.contains(row.id)
                && row.confirmed && lastObservedRingIDs?.contains(row.id) != false
                && row.fireWallMs > back.toWallMs && row.fireWallMs <= back.fromWallMs && row.fireWallMs > now.wallMs
                && document.alarm(row.metadata.alarmID)?.enabled == true
                && !(document.missedRingIDs ?? []).contains(row.id)
                && !document.occurrences.contains { $0.rootID == row.metadata.rootID && $0.startedAtMs == row.fireWallMs }
        }.map { row in
            RingRequest(id: row.id, schedule: row.schedule, fireWallMs: row.fireWallMs, metadata: row.metadata,
                        countdown: nil, soundName: row.soundName)
        }
    }

    /// REC-8: true when `row` was planned before the bridge adopted the device zone now in force
    /// (`zoneAdoptedAtMs`) and its instant is no longer one of its root's ring times there: the
    /// re-plan in the new local frame owns that day (its primary is in the recurrence plan), so
    /// adding the old-zone instant back would ring the root a second time, at an hour nobody
    /// configured (android uniform seed 7662: force-stopped over a São Paulo → New York change, the
    /// launch re-added a1.thu's 06:16 BRT primary — 05:16 EDT — beside the re-planned 06:16 EDT).
    /// Such a row is judged like an exact one that vanished (``recordMissedOccurrences``): the bridge
    /// cannot tell whether the change came before its ring time or after it.
    ///
    /// A one-shot's row is in the same position when its ring time came before the bridge adopted
    /// the zone: the adoption keeps such a one-shot at its old-frame instant
    /// (``LogicalAlarm/rebasingOneShot(to:after:cameAtMs:)``: the bridge cannot tell whether it
    /// moved), but that instant is no ring time of the zone in force, so it is not added back
    /// either: the launch that saw the change would register an old-zone instant itself, and the
    /// day is recorded missed instead (REC-8; the `zone-change-unobserved` limit's "re-plan every
    /// fixed time at the first step that sees the change"). RULES.md is silent on a one-shot's
    /// old-frame day after a zone change no process saw; decided from seed 7662's rule above
    /// (android uniform seed 54420: a2's legacy 05:48 Berlin one-shot, force-stopped over a move to
    /// São Paulo, was added back at 02:32 BRT as its 00:48 BRT day — still due under the legacy
    /// bound — and rang at an hour nobody configured, opening an occurrence no reading supports).
    func isPlannedInEarlierZone(_ row: RingRow) -> Bool {
        guard let document, let adopted = document.zoneAdoptedAtMs, row.publishedAtMs < adopted,
              let root = document.root(row.metadata.rootID) else { return false }
        guard let weekday = root.weekday else {
            guard root.onceFireWallMs == row.fireWallMs else { return true }  // the re-plan moved it
            return row.fireWallMs <= adopted
                && configuration.calendar.latestFire(hour: root.hour, minute: root.minute, weekday: nil, atOrBefore: row.fireWallMs) != row.fireWallMs
        }
        let ringTime = configuration.calendar.latestFire(hour: root.hour, minute: root.minute, weekday: weekday,
                                                         atOrBefore: row.fireWallMs)
        return ringTime != row.fireWallMs
    }

    /// Keeps the rings an inventory read of this process showed held (``heldInProcess``).
    mutating func noteHeldInProcess(_ inventory: [PlatformAlarm]) {
        if heldInProcess.count * inventory.count <= 256 {
            for alarm in inventory where !heldInProcess.contains(alarm.id) { heldInProcess.append(alarm.id) }
        } else {
            // Issue 20: one table over the kept IDs and the read's, instead of a scan of up to
            // 128 kept IDs per held ring. A read's ID is appended exactly when its first place in
            // the combined list is its own, as the scan above decides.
            let start = heldInProcess.count
            let combined = heldInProcess + inventory.map(\.id)
            let table = RingIDTable(count: combined.count) { combined[$0] }
            for offset in start..<combined.count where table.firstIndex(of: combined[offset], id: { combined[$0] }) == offset {
                heldInProcess.append(combined[offset])
            }
        }
        if heldInProcess.count > Self.heldInProcessMax { heldInProcess.removeFirst(heldInProcess.count - Self.heldInProcessMax) }
    }

    /// The first delivery of a primary the sync added back after its ring time
    /// (``undeliveredInexactPrimaries(now:)``; its row was published at or after its fire time):
    /// when the delivery is the original inexact alarm's, which was already on its way to a
    /// process that could not know (a cold start at the screen-on that ended doze), the copy
    /// added back is still pending and would ring the occurrence's primary again after its
    /// successor was armed (OCC-1, SND-2; android uniform seed 306). It is cancelled; when the
    /// delivery is the copy's own, the cancel finds nothing. Only AlarmManager's pending list is
    /// touched: the ring's alert, if any, goes on.
    mutating func retireReAddedCopy(_ row: RingRow, into out: inout [BridgeCommand]) {
        guard flavor == .android, row.metadata.kind == .primary, row.publishedAtMs >= row.fireWallMs else { return }
        out.append(.note("primary \(row.id) added back after its ring time was delivered: any pending copy is cancelled"))
        out.append(.cancel(row.id, origin: .lifecycle))
    }

    /// AND-13, AND-14, OCC-25: at the close of its occurrence, a delivered occurrence-bound ring
    /// (successor, snooze, walk fuse) a sync added back at or after its ring time (its row was
    /// published at or after its fire time) may still have that copy pending: the delivery the
    /// bridge saw may have been the original registration's, already on its way when the process
    /// that re-added it started. While the occurrence is live the copy is harmless pressure (its
    /// delivery rings for the live owner), so it is not cancelled at the delivery, which may be
    /// the copy's own and the occurrence's last pressure (android swarm seed 7155,
    /// `arm-before-retire`); once the occurrence closes nothing may stay bound to it, and the copy
    /// is cancelled in the closing step. When there is no copy the cancel finds nothing; only
    /// AlarmManager's pending list is touched, any alert goes on (the close stops it). Android
    /// uniform seed 55749: a successor delivered at 06:54:05 as Ember opened, added back by the
    /// launch sync an instant before the delivery reached the bridge, held by the allow-while-idle
    /// quota, outlived the occurrence's expiry at 07:23.
    mutating func retireReAddedCopyAtClose(_ row: RingRow, origin: CommandOrigin, into out: inout [BridgeCommand]) {
        guard flavor == .android, row.delivered, row.metadata.kind.isOccurrenceBound,
              row.publishedAtMs >= row.fireWallMs else { return }
        out.append(.note("\(row.metadata.kind.rawValue) \(row.id) was added back after its ring time: any pending copy is cancelled at the close"))
        out.append(.cancel(row.id, origin: origin))
    }

    /// A delivery of a ring whose row is due later than now: the delivery is an earlier
    /// registration's, which AlarmManager had already released when the bridge re-registered the
    /// same ID at a new time (a snooze or successor rebased at a clock correction, SNZ-20, REC-9;
    /// AlarmManager never delivers an alarm before its trigger). The later copy is still pending
    /// and would ring the occurrence again, or outlive its close (android uniform seed 35241: the
    /// 09:08 snooze was delivered at the +10 min TIME_SET, the rebase to 09:18 landed first, and
    /// the completion at 09:15 left the 09:18 copy pending, AND-13). It is cancelled; only
    /// AlarmManager's pending list is touched, the ring's alert goes on; it is sent after the
    /// delivery rang, so the alert is the pressure before the copy goes (OCC-8). A copy whose
    /// row the delivery's step retired is cancelled there already.
    mutating func retireRebasedCopy(_ row: RingRow, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard flavor == .android, row.metadata.kind != .primary, row.fireWallMs > now.wallMs,
              document?.row(row.id) != nil else { return }
        out.append(.note("\(row.metadata.kind.rawValue) \(row.id) delivered from its earlier registration: the pending copy due later is cancelled"))
        out.append(.cancel(row.id, origin: .lifecycle))
    }
}

import AlarmBridge
import SimKernel

/// A configured ring time that passed with nothing on the platform to ring it (the oracle's
/// truth), with the evidence a later launch has: on Android the registry row that planned it in the
/// durable store; on iOS a refusal of its request that a bridge process saw (`seenRefusals`). See
/// BridgeCore+Missed.swift for the rule and its sources (RULES.md is silent).
struct MissedExpectation {
    var rootID: String
    /// The configured ring time that did not ring (wall ms).
    var fireWallMs: Int64
    /// Why nothing rang (the exemption the oracle counted).
    var cause: String
    /// The process incarnation at the miss: the record is owed by a later one (the next launch).
    var incarnation: Int
    /// True ms of the first successful sync read a ready bridge of a later incarnation handled at
    /// least the grace after the ring time; the record is due T_OP after it.
    var readAtMs: Int64?
    /// True once the platform held a primary for the ring time after that read: the launch added
    /// the day back (an undelivered inexact primary inside its AMS window).
    var addedBack = false
    /// True while the bridge's `missed` receipt for the day is in the durable store: the record
    /// is made, and the expectation is kept only so that a late delivery of an added-back copy
    /// still opens the day (``oracleMissedDayRungLate(_:)``).
    var recorded = false
    /// The wall clock's offset from true time (ms) when the ring time was reached: at the miss,
    /// or anew when a set-back put the ring time ahead again (`reframeHeldAndroidTriggers`). A
    /// late delivery of the day applies the corrections made since (REC-9; android uniform 76599).
    var reachedWallMinusTrueMs: Int64 = 0
}

extension World {
    /// Called where `oracleFireTime` excuses a due root that the platform held no ring for by a
    /// named [limit] or fault that silenced the day (force-stop, a restart that re-armed nothing,
    /// a failed registration). Only when the persisted store holds the undelivered row that
    /// planned this ring time: that row is what the next launch can see.
    ///
    /// A ring time a forward clock jump went over is due at the jump, and is judged by the ring
    /// time it had (`jumpedOverRingTimes`): that is the instant the stored row, the platform's
    /// re-added request and the bridge's record carry (android uniform seed 3168: a +10 min jump
    /// during a reboot went over 05:19; the launch's re-add failed and was recorded, and the
    /// retry's delivery opened an occurrence the oracle, judging 05:19:14.944, never expected).
    func noteMissedOccurrence(rootID: String, fireWallMs dueWallMs: Int64, cause: String) {
        notePassOverUnheld(rootID: rootID, fireWallMs: dueWallMs)
        let fireWallMs = jumpedOverRingTime(rootID: rootID, dueWallMs: dueWallMs) ?? dueWallMs
        // iOS: only a refusal a bridge process saw proves the day: a ring that vanished from
        // AlarmKit, confirmed or with its answer lost with its process (never confirmed), reads
        // exactly like one that landed, fired and was dismissed by the lock or volume button
        // (IOS-5, IOS-7, IOS-11; ios seeds 6963, 7923, 2343, uniform 562: each request's process died
        // before its failure answer came). The refused row is the evidence (`refusedRows`).
        let owed: Bool
        if setup.platform == .ios {
            owed = seenRefusals.contains { $0.rootID == rootID && $0.fireWallMs == fireWallMs }
        } else {
            owed = storedDocument?.rings.contains(where: { row in
                row.metadata.rootID == rootID && row.metadata.kind.opensOccurrence && !row.delivered
                    && row.fireWallMs == fireWallMs && row.isPast(at: fireWallMs)
            }) ?? false
        }
        guard owed, !missedExpectations.contains(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }) else { return }
        missedExpectations.append(MissedExpectation(rootID: rootID, fireWallMs: fireWallMs, cause: cause,
                                                    incarnation: process.incarnation, reachedWallMinusTrueMs: wallMs - nowMs))
        if missedExpectations.count > 32 { missedExpectations.removeFirst() }
        record("oracle", "missed-occurrence", [TraceField("root", rootID), TraceField("cause", cause)])
    }

    /// OCC-3, OCC-20: a ring time that comes while another root owns the live occurrence (before
    /// its deadline) is a pass-over, whatever the platform held for it: with nothing registered
    /// (a force-stop, a restart that re-armed nothing, a failed registration) there is only
    /// nothing to silence. Recorded as passed over, so that the same ring time re-lived by a
    /// set-back is that pass-over again, never a new occurrence (`alreadyOpened`), as the bridge
    /// judges it (ownership in the old frame; android uniform seed 73509: a2's 07:54 came while
    /// a1 owned, with the app force-stopped; a 1 h set-back after a1 was completed brought 07:54
    /// back, the bridge passed the re-armed ring over, and the oracle opened a2: `never-silent`).
    func notePassOverUnheld(rootID: String, fireWallMs: Int64) {
        guard let index = oracle.liveIndex else { return }
        let owner = oracle.occurrences[index]
        guard owner.rootID != rootID, !owner.tiedRoots.contains(rootID), owner.deadlineMs > wallMs,
              !oracle.passedOver.contains(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }) else { return }
        record("oracle", "pass-over", [TraceField("root", rootID), TraceField("owner", owner.rootID), TraceField("unheld", "true")])
        oracle.passedOver.append((rootID, fireWallMs))
        if oracle.passedOver.count > 64 { oracle.passedOver.removeFirst() }
    }

    /// iOS, after a step: a schedule answer of an occurrence-opening ring reached the bridge — a
    /// refusal other than the capacity limit (CAP-9 surfaces those) is what `noteMissedOccurrence`
    /// owes a record for; a success for the same ring clears it. A refused same-ID replacement
    /// while AlarmKit still holds that ring leaves it in place (SCH-10, SNZ-21): nothing went
    /// unregistered, and a ring the OS removes later, unseen, reads like one that rang and was
    /// dismissed (IOS-5; ios uniform seed 5146). So does a later request whose answer no process
    /// sees (World's `.schedule`).
    func noteRefusalSeen(_ input: BridgeInput) {
        guard setup.platform == .ios, case .scheduleCompleted(let id, let result) = input,
              let metadata = requestMetadata[id], metadata.kind.opensOccurrence, let fire = requestFires[id] else { return }
        seenRefusals.removeAll { $0.ringID == id }
        guard case .failure(let error) = result, error != .maximumLimitReached, ios?.alarm(id) == nil else { return }
        seenRefusals.append((metadata.rootID, fire, id))
        if seenRefusals.count > 32 { seenRefusals.removeFirst() }
    }

    /// After a step: a successful read that a sync reconciles against, handled by a ready bridge
    /// of a later incarnation than the miss, starts the T_OP clock of every owed record.
    func noteMissedSyncRead(_ input: BridgeInput, bridge: any BridgeUnderTest) {
        guard !missedExpectations.isEmpty, bridge.phase == .ready, case .inventoryRead(let purpose, .success) = input else { return }
        switch purpose {
        case .launchSync, .resumeSync: break
        case .scheduledTimes where setup.platform == .android: break  // AND-5: it repairs too
        default: return
        }
        for index in missedExpectations.indices where !missedExpectations[index].recorded
            && missedExpectations[index].incarnation != process.incarnation
            && missedExpectations[index].readAtMs == nil
            && wallMs - missedExpectations[index].fireWallMs > BridgeCore.missedOccurrenceGraceMs {
            missedExpectations[index].readAtMs = nowMs
            enqueue(.gapCheck, afterMs: setup.transitionBoundMs + 1)
        }
    }

    /// `missed-day-recorded`: a ring time that passed silently is recorded at the next launch — a
    /// `missed` receipt in the abandoned-occurrence journal (or an occurrence, had it rung late)
    /// is in the durable store within T_OP of that launch's first successful sync read.
    func checkMissedRecorded() {
        guard !missedExpectations.isEmpty, !stopped else { return }
        let occurrences = storedDocument?.occurrences ?? []
        // A disabled root owes no record, but a copy of its day the launch added back and the
        // platform still holds is a ring past its time (SCH-21): disabling does not cancel it, and
        // its delivery opens the day (`oracleMissedDayRungLate`; android uniform seed 21647: a2's
        // 09:18 re-added at 09:25, disabled at 09:25:04, delivered at 09:25:05).
        missedExpectations.removeAll { expected in
            occurrences.contains { $0.startedAtMs == expected.fireWallMs }
                || (!rootEnabled(expected.rootID) && !platformHoldsPrimary(rootID: expected.rootID, fireWallMs: expected.fireWallMs))
        }
        noteMissedReceipts()
        reoweAddedBackDays()
        for expected in missedExpectations where !expected.recorded && rootEnabled(expected.rootID) {
            guard let readAt = expected.readAtMs, nowMs - readAt > setup.transitionBoundMs,
                  !platformHoldsPrimary(rootID: expected.rootID, fireWallMs: expected.fireWallMs) else { continue }
            if droppedUnseen(rootID: expected.rootID, fireWallMs: expected.fireWallMs) {
                // Issue 18 [limit]: the launch added the day back (or re-armed its ring time) and
                // AlarmManager accepted and dropped that very request: the app believes it
                // registered, and no read has shown it missing (a dropped inexact ring never
                // shows; android uniform seeds 19, 447 with accepted-request-dropped on).
                countExemption("accepted-request-dropped")
                continue
            }
            violate("missed-day-recorded", [], "\(expected.rootID) did not ring at \(localTimeText(expected.fireWallMs)) (\(expected.cause)), and the next launch left no missed record the app can see \(HumanText.duration(nowMs - readAt)) after its sync read the platform")
            return
        }
    }

    /// Marks the expectations whose `missed` receipt is in the durable store as `recorded`. A
    /// recorded day whose receipt is gone again while the platform holds a primary for it was
    /// added back on a retry, and the bridge withdrew the record (BridgeCore+Missed.swift,
    /// `withdrawFailedReAddRecord`; android uniform seed 3168): it is owed again as an added-back
    /// day. A receipt gone with nothing held was taken by the app (API-20): the record was made.
    func noteMissedReceipts() {
        let receipts = storedDocument?.missReceipts ?? []
        for index in missedExpectations.indices {
            let expected = missedExpectations[index]
            let present = receipts.contains {
                $0.reason == MissReceipt.missedReason && $0.rootID == expected.rootID && $0.expiredAtMs == expected.fireWallMs
            }
            if present {
                missedExpectations[index].recorded = true
            } else if expected.recorded, platformHoldsPrimary(rootID: expected.rootID, fireWallMs: expected.fireWallMs) {
                missedExpectations[index].recorded = false
                record("oracle", "missed-record-withdrawn", [TraceField("root", expected.rootID)])
            }
        }
    }

    /// The bridge records a missed day of an alarm that is still configured and enabled
    /// (`recordMissedOccurrences`, BridgeCore+Missed.swift): once the user turned the alarm off or
    /// deleted it before a later launch could record the day, no record is owed (RULES.md is
    /// silent; android uniform seed 4161: a1's 08:37 restore was dropped by AlarmManager in a
    /// locked boot, the user disabled a1 at 13:02 before any later process ran, and the 13:40
    /// launch was held to a record of a disabled alarm).
    func rootEnabled(_ rootID: String) -> Bool {
        alarms.contains { $0.enabled && $0.hasRoot(withID: rootID) }  // issue 20: no root built
    }

    /// A day the launch added back (`addedBack`) whose copy then left the platform undelivered
    /// with no process running — a force-stop or a reboot, the limit that silenced the day the
    /// first time — is owed again by the next launch, whose sync finds its row past the AMS window
    /// and records it (BridgeCore+Missed.swift). Judged from the earlier launch's read, the record
    /// was demanded before any process could write it (android uniform seed 6855: the copy was
    /// added back at 10:11 and force-stopped at 10:12, undelivered in doze). A copy lost while the
    /// process runs (the bridge's own cancel) is still judged from that read.
    func reoweAddedBackDays() {
        guard setup.platform == .android else { return }  // iOS owes only seen refusals, never adds back
        for index in missedExpectations.indices where !missedExpectations[index].recorded {
            let expected = missedExpectations[index]
            // A dropped add-back the app cannot see counts as added back (issue 18): when its
            // PendingIntent goes with no process running (a reboot, a force-stop), it is owed again.
            let held = platformHoldsPrimary(rootID: expected.rootID, fireWallMs: expected.fireWallMs)
                || droppedUnseen(rootID: expected.rootID, fireWallMs: expected.fireWallMs)
            if held, expected.readAtMs != nil {
                missedExpectations[index].addedBack = true
            } else if !held, expected.addedBack, !process.running {
                missedExpectations[index].addedBack = false
                missedExpectations[index].readAtMs = nil
                missedExpectations[index].incarnation = process.incarnation
                record("oracle", "missed-day-owed-again", [TraceField("root", expected.rootID)])
            }
        }
    }

    /// Android: the platform delivers a primary for a ring time the oracle excused and recorded
    /// as owed (force-stop, a restart that re-armed nothing, a failed registration): the next
    /// launch added it back (an undelivered inexact primary still inside its AMS window,
    /// BridgeCore+ExactAlarms.swift), so the day rings late instead of being missed. The
    /// occurrence begins at its configured ring time once delivered (glossary; INACT-3), as a
    /// held delivery's does: the oracle opens it now, and the record owed is that occurrence
    /// (android seeds 1752, uniform 211, 1716). While the platform still holds the added-back
    /// primary, `checkMissedRecorded` waits for it.
    ///
    /// REC-9, INACT-19, OCC-21: that occurrence began at its ring time, so a manual clock
    /// correction made since the ring time was reached is one it was live across, and moves its
    /// deadline, exactly as for a held delivery (`applyHeldDeliveryClockShift`; ios uniform 2143,
    /// android uniform 757). RULES.md is silent on the frame of a missed day rung late; decided
    /// from the glossary ("begins at its configured ring time once delivered") and REC-9. Android
    /// uniform seed 76599: a2.fri's 08:39 (legacy) was dropped by AlarmManager, the clock was set
    /// +90 s at 12:31 with a process running, and the day added back at the 14:08 exact-alarm grant
    /// rang at once; the bridge kept the 20 h lifetime in the corrected frame (offset +90 s), the
    /// oracle measured it from the ring time in the new frame, 90 s short of 20 h.
    func oracleMissedDayRungLate(_ id: AlarmUUID) {
        // (One wakeup delivers a batch: the log's last entry may be a later alarm of it.)
        guard let manager = android, let delivery = manager.deliveryLog.last(where: { $0.id == id }), let fire = delivery.triggerWallMs,
              let metadata = requestMetadata[id] ?? groundTruthMetadata(id), metadata.kind == .primary,
              let index = missedExpectations.firstIndex(where: { $0.rootID == metadata.rootID && $0.fireWallMs == fire }),
              !oracle.occurrences.contains(where: { $0.startWallMs == fire && $0.tiedRoots.contains(metadata.rootID) }) else { return }
        let reachedWallMinusTrueMs = missedExpectations[index].reachedWallMinusTrueMs
        missedExpectations.remove(at: index)
        record("oracle", "missed-day-rung-late", [TraceField("root", metadata.rootID)])
        androidReleasing = (fire, metadata, reachedWallMinusTrueMs)  // the platform is delivering it (platformHoldsPrimary)
        defer { androidReleasing = nil }
        oracleFireTime(rootID: metadata.rootID, alarmID: metadata.alarmID, fireWallMs: fire, deliveredLate: true)
        applyHeldDeliveryClockShift()  // REC-9: the corrections since the ring time was reached
    }
}

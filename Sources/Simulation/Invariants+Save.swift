import AlarmBridge
import IOSModel
import SimKernel

/// Candidate invariants 30 ("verified saves") and 40 ("publish before write"): the direct save
/// entry point (API-19) as ground truth sees it.
extension World {
    /// JS asked for a save: a new verification window opens; the first save of a chain records
    /// the previous schedule's pending primaries (SCH-10's baseline).
    func noteSaveRequested(_ alarmID: String) {
        saveTruth.verificationReads.removeAll { $0.alarmID == alarmID }
        // A verification read of a superseded save still in flight is no read of this save (SCH-9).
        for index in saveTruth.verifyReadsIssued.indices where saveTruth.verifyReadsIssued[index].alarmID == alarmID {
            saveTruth.verifyReadsIssued[index].stale = true
        }
        guard !jsSaves.pending.searchSortedByID(alarmID).found else { return }  // a chain keeps its baseline
        saveTruth.before[alarmID] = pendingPrimaries(of: alarmID)
    }

    /// The primaries of `alarmID` the platform holds now and that are still ahead.
    func pendingPrimaries(of alarmID: String) -> [AlarmUUID] {
        if let daemon = ios {
            return daemon.alarms.filter { $0.metadata.alarmID == alarmID && $0.metadata.kind == .primary && $0.state == .scheduled }.map(\.id)
        }
        guard let manager = android else { return [] }
        return manager.pending.filter { $0.metadata.alarmID == alarmID && $0.metadata.kind == .primary }.map(\.id)
    }

    func platformHolds(_ id: AlarmUUID) -> Bool {
        if let daemon = ios { return daemon.alarm(id) != nil }
        return android?.alarm(id) != nil
    }

    /// Records each verification read the bridge received (SCH-9).
    func noteSaveInput(_ input: BridgeInput) {
        if case .inventoryRead(let purpose, .success) = input, purpose == .launchSync || purpose == .resumeSync,
           !jsSaves.interrupted.isEmpty, process.bridge?.hasPendingSyncWork == false {
            // The sync after an interrupted save retired the previous schedule's rings.
            for alarmID in jsSaves.interrupted {
                unscheduleOracleFireTimes(alarmID: alarmID)
                scheduleOracleFireTimes(for: [alarmID])
            }
            jsSaves.interrupted = []
            jsSaves.interruptedPrevious = []
        }
        guard case .inventoryRead(.verifySave(let alarmID), let result) = input else { return }
        saveTruth.verifyReadsIssued.removeAll { $0.incarnation != process.incarnation }  // died with their process
        if let index = saveTruth.verifyReadsIssued.firstIndex(where: { $0.alarmID == alarmID }) {
            let issued = saveTruth.verifyReadsIssued.remove(at: index)
            if issued.stale { return }  // requested by a save that a newer one superseded
        }
        let ids = (try? result.get())?.map(\.id) ?? []
        saveTruth.verificationReads.append((alarmID, nowMs, ids))
        if saveTruth.verificationReads.count > 64 { saveTruth.verificationReads.removeFirst() }
    }

    /// The bridge requested a verification read of `alarmID` (SCH-9 counts it on arrival).
    func noteVerifyReadIssued(_ alarmID: String) {
        saveTruth.verifyReadsIssued.append((alarmID, process.incarnation, false))
        if saveTruth.verifyReadsIssued.count > 64 { saveTruth.verifyReadsIssued.removeFirst() }
    }

    /// Candidate invariant 30 (SCH-9, SCH-10, SCH-11, API-19): a save resolves successfully only
    /// if one of at most 3 reads 100 ms apart saw each root's exact new primary; a failed save
    /// leaves the previous schedule's rings and rows unchanged.
    func checkVerifiedSave(_ reply: APIReply) {
        guard !stopped else { return }
        switch reply {
        case .saved(let alarmID):
            guard let definition = jsSaves.pending.sortedByIDElement(alarmID), definition.enabled else { return }
            let reads = saveTruth.verificationReads.filter { $0.alarmID == alarmID }
            if reads.count > 3 {
                violate("verified-saves", ["SCH-9"], "save of \(alarmID) resolved after \(reads.count) verification reads (at most 3)")
                return
            }
            for (earlier, later) in zip(reads, reads.dropFirst()) where later.atMs - earlier.atMs < 100 {
                violate("verified-saves", ["SCH-9"], "verification reads of \(alarmID) only \(HumanText.duration(later.atMs - earlier.atMs)) apart (100 ms)")
                return
            }
            for root in definition.roots {
                if let once = root.onceFireWallMs, once <= wallMs || oneShotRang(root.id, at: once) { continue }  // nothing left to ring
                if let once = root.onceFireWallMs, oneShotSpentByInference(root.id, at: once) {
                    countExemption("os-removed-alarm")  // IOS-5: spent in the bridge's books (see below)
                    continue
                }
                let seen = reads.contains { read in read.ids.contains { isExactPrimary($0, of: root) } }
                if !seen {
                    violate("verified-saves", ["SCH-9", "API-19"], "save of \(alarmID) resolved although no verification read saw the exact primary of \(root.id) at \(clockTime(hour: root.hour, minute: root.minute))")
                    return
                }
            }
        case .saveFailed(let alarmID, let reason) where reason != .superseded:
            // SCH-9: up to three reads 100 ms apart exist because AlarmKit may list a new alarm a
            // moment after its schedule call returned (fault read-after-write-lag): a verification
            // that gives up before its third read rejects a save it could have verified.
            let reads = saveTruth.verificationReads.filter { $0.alarmID == alarmID }
            if reason == .notVerified, !reads.isEmpty, reads.count < 3 {
                violate("verified-saves", ["SCH-9", "SCH-10"], "save of \(alarmID) rejected as not verified after \(reads.count) of the 3 verification reads AlarmKit allows (100 ms apart), while a new alarm may be listed a moment late")
                return
            }
            guard let baseline = saveTruth.before[alarmID] else { return }
            let document = process.document
            for id in baseline where !saveTruth.osRemoved.contains(id) {
                guard let fire = requestFireWallMs(id), fire > wallMs else { continue }  // may have fired meanwhile
                if !platformHolds(id) {
                    if droppedUnseen(id: id) {
                        // Issue 18 [limit]: the save's same-ID re-registration of this ring was
                        // accepted and dropped by AlarmManager (plus_plugins#1981); the app's
                        // PendingIntent probe still finds it, and no read has shown it missing
                        // (android uniform seeds 441, 980 with accepted-request-dropped on).
                        countExemption("accepted-request-dropped")
                        continue
                    }
                    violate("verified-saves", ["SCH-10"], "failed save of \(alarmID) (\(reason.rawValue)) lost ring \(id) of the previous schedule")
                    return
                }
                if document?.row(id) == nil {
                    violate("verified-saves", ["SCH-10"], "failed save of \(alarmID) (\(reason.rawValue)) lost the registry row of \(id)")
                    return
                }
            }
        default:
            return
        }
    }

    /// The next fire of a ring the platform holds, or (gone) the one it was requested for.
    func requestFireWallMs(_ id: AlarmUUID) -> Int64? {
        if let daemon = ios {
            if let alarm = daemon.alarm(id) { return alarm.nextFireWallMs }
        }
        if let manager = android, let alarm = manager.alarm(id) { return alarm.triggerWallMs }
        switch saveTruth.requestedSchedules[id] {
        case .fixed(let wallMs): return wallMs
        case .relative(let hour, let minute, let weekday):
            return calendar.nextFire(hour: hour, minute: minute, weekday: weekday, after: wallMs - 1)
        case nil: return nil
        }
    }

    /// True when `id` is the primary of `root` at the root's configured time (the schedule the
    /// platform was asked for). On Android the fixed instant is matched by root and kind only.
    /// REC-8, OCC-20: a one-shot rings once. After the wall clock was set back over its time it
    /// is ahead again, but spent: no primary is owed for it (android seed 1189 of
    /// `--faults clock-change-during-snooze`: a title edit after a 1 h set-back).
    func oneShotRang(_ rootID: String, at fireWallMs: Int64) -> Bool {
        oracle.occurrences.contains { $0.startWallMs == fireWallMs && $0.tiedRoots.contains(rootID) }
            || oracle.passedOver.contains { $0.rootID == rootID && $0.fireWallMs == fireWallMs }
    }

    /// [limit] `os-removed-alarm`, iOS (IOS-5, OCC-20, REC-1, API-19): the OS removed the
    /// one-shot's pending primary for `fireWallMs` (`osRemovedFires`), and the bridge's books hold
    /// an occurrence of the root that began at that very instant: the bridge read the vanished ring
    /// as delivered and stopped inside one coalesced update, which it cannot tell apart, and ran
    /// that occurrence. The one-shot is spent for it, as for the oracle one that rang
    /// (`oneShotRang`): a clock set back over its time brings that occurrence again, never a new
    /// one, so a later save of the alarm owes no primary for it (ios uniform seed 35755: an OS
    /// update at a 06:40 reboot removed a2's 06:45 one-shot; the 07:06 launch inferred it rang and
    /// its occurrence expired at 07:15; after a 1 h set-back, a title edit at 06:24 resolved with
    /// no 06:45 primary, which the oracle required). As liveness's
    /// `oneShotSpentByInferredDelivery` and `openedByInferenceFromRemoval`: only that root and ring
    /// time, only with that occurrence on record and none of the oracle's there.
    func oneShotSpentByInference(_ rootID: String, at fireWallMs: Int64) -> Bool {
        guard setup.platform == .ios, oracle.osRemovedFires.contains(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }),
              let document = process.document ?? storedDocument else { return false }
        return document.occurrences.contains { $0.rootID == rootID && $0.startedAtMs == fireWallMs }
    }

    func isExactPrimary(_ id: AlarmUUID, of root: Root) -> Bool {
        // A primary adopted from a legacy install (BOOT-9) was never requested in this run: the
        // platform's own record describes it.
        guard let metadata = requestMetadata[id] ?? groundTruthMetadata(id), metadata.kind == .primary,
              metadata.rootID == root.id else { return false }
        let schedule = saveTruth.requestedSchedules[id] ?? ios?.alarm(id)?.schedule
            ?? android?.alarm(id).map { RingSchedule.fixed(wallMs: $0.triggerWallMs) }
        switch schedule {
        case .relative(let hour, let minute, let weekday):
            return hour == root.hour && minute == root.minute && weekday == root.weekday
        case .fixed(let wallMs):
            return root.onceFireWallMs.map { $0 == wallMs } ?? true
        case nil:
            return false
        }
    }

    /// Candidate invariant 40 (SCH-6, SCH-7): every daemon schedule call of a direct save follows
    /// the atomic publication of its registry row with its exact primary ID.
    func checkPublishBeforeWrite(_ request: RingRequest, origin: CommandOrigin) {
        saveTruth.requestedSchedules[request.id] = request.schedule
        guard origin == .directSave, !stopped else { return }
        guard setup.platform == .android || protectedDataAvailable else { return }  // the store is not writable yet
        guard let row = storedDocument?.row(request.id) else {
            violate("publish-before-write", ["SCH-6"], "direct save scheduled \(request.id) of \(request.metadata.rootID) before its registry row was persisted")
            return
        }
        if row.metadata.kind != request.metadata.kind || row.metadata.rootID != request.metadata.rootID || row.schedule != request.schedule {
            violate("publish-before-write", ["SCH-6"], "the persisted row of \(request.id) does not describe the primary being scheduled")
        }
    }
}

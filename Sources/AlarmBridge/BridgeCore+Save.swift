/// The direct save entry point and its verification (API-19, CAP-6, SCH-6..12, SCH-26), and the
/// confirmed deletion (SCH-8).
///
/// A save runs in three phases, each an interleaving point:
/// 1. **reconciling** — the new definition is persisted and the daemon is read (SCH-3);
/// 2. **scheduling** — only the saved alarm's roots' primaries are prepared (CAP-6: no seed, no
///    live-occurrence ring, no other root); their registry rows are published atomically before
///    the daemon calls (SCH-6); nothing of the previous schedule is retired yet;
/// 3. **verifying** — once every schedule call completed, at most 3 inventory reads 100 ms apart
///    look for each exact primary UUID (SCH-9). A registry row, a ring of another root, an old
///    primary or a seed never satisfies the check.
///
/// Success replies `.saved` and only then retires what the previous schedule held and the new
/// one no longer wants (arm before retire). Failure replies `.saveFailed` with a reason, cancels
/// only the newly prepared rings, restores the rows they overwrote and the previous definition
/// (or removes a brand-new alarm), so later syncs do not re-create the rejected root (SCH-10).
///
/// Decisions the seeds leave open:
/// - **Saving again while an earlier save verifies**: the earlier save resolves at once with
///   `.saveFailed(.superseded)`; the newer save inherits the earlier one's baseline (the last
///   definition and rows that were in force before either) and its prepared rings, so a failure
///   of the newer save restores that baseline and cancels both saves' new rings.
/// - **Process death mid-verification**: the persisted (new) definition stands and JS got no
///   reply; the next process's launch sync reconciles it like any other configured alarm.
/// - **AlarmKit unavailable or not authorized** (SCH-26): the save rejects with `.notAuthorized`
///   (the app offers its Settings path); a save never reports that an alarm will ring.
extension BridgeCore {
    // MARK: - Entry point (API-19)

    /// API-19: the editor's direct save of one logical alarm.
    mutating func saveAlarm(_ alarm: LogicalAlarm, now: BridgeInstants, into out: inout [BridgeCommand]) {
        if rejectWalkSaveWithoutHealth(alarm, into: &out) { return }  // WALK-4
        if flavor == .ios && !configuration.alarmKitAvailable && defects.savesWithoutAlarmKit && document != nil {
            out.append(.note("defect saves-without-alarmkit: save of \(alarm.id) accepted with nothing scheduled"))
            mutate { document in
                document.alarms.removeAll { $0.id == alarm.id }
                document.alarms.append(alarm)
                document.alarms.sort { $0.id < $1.id }
            }
            flush(into: &out)
            out.append(.reply(.saved(alarmID: alarm.id)))
            return
        }
        if flavor == .ios && !configuration.alarmKitAvailable {
            // SCH-26: no AlarmKit on this device: the save never claims the alarm will ring.
            out.append(.note("SCH-26: AlarmKit unavailable: save of \(alarm.id) rejected (Settings path)"))
            out.append(.reply(.saveFailed(alarmID: alarm.id, reason: .notAuthorized)))
            return
        }
        guard let document else { return }
        var save = PendingSave(alarmID: alarm.id, previous: document.alarm(alarm.id),
                               previousRows: document.rings.filter { $0.metadata.alarmID == alarm.id && $0.metadata.kind == .primary })
        if let index = saves.pending.firstIndex(where: { $0.alarmID == alarm.id }) {
            // Superseded: the earlier save resolves now; its baseline and new rings carry over.
            let earlier = saves.pending.remove(at: index)
            save.previous = earlier.previous
            save.previousRows = earlier.previousRows
            save.touched = earlier.touched
            save.landed = earlier.landed
            out.append(.note("save of \(alarm.id) superseded by a newer save"))
            out.append(.reply(.saveFailed(alarmID: alarm.id, reason: .superseded)))
            retireSupersededRings(&save, newDefinition: alarm, now: now, into: &out)
        }
        saves.pending.append(save)
        mutate { document in
            document.alarms.removeAll { $0.id == alarm.id }
            document.alarms.append(alarm)
            document.alarms.sort { $0.id < $1.id }
        }
        flush(into: &out)
        out.append(.readInventory(.directSave(alarmID: alarm.id)))  // SCH-3 before scheduling
    }

    /// SCH-10, REC-1: a superseded save failed, so the primaries it alone added — new ring IDs
    /// the daemon already confirmed, that no previous row describes and the newer definition does
    /// not want — are cancelled at once, not when the newer save resolves: a process death in
    /// between would leave them to ring at a time the user changed away from (ios uniform seed
    /// 1015). The previous schedule's rings stay until the newer save is verified (arm before
    /// retire); rings still in flight, alerting, delivered or past their fire time are left to
    /// the newer save's resolution (SCH-21).
    mutating func retireSupersededRings(_ save: inout PendingSave, newDefinition alarm: LogicalAlarm, now: BridgeInstants,
                                        into out: inout [BridgeCommand]) {
        // The wanted primaries are planned only for a ring that could be retired, and before the
        // first retirement changes the document (issue 20: every completion of a save planned
        // them; the tests are pure, so their order does not change the answer).
        var wanted: [AlarmUUID]?
        let previousIDs = save.previousRows.map(\.id)
        var retired: [AlarmUUID] = []
        for id in save.touched where !previousIDs.contains(id) && !inFlight.contains(id) && !alerting.contains(id) {
            guard let row = document?.row(id), row.metadata.kind == .primary, row.confirmed, !row.delivered,
                  !row.isPast(at: now.wallMs), row.fireWallMs > now.wallMs else { continue }
            if wanted == nil {
                let lookups = planLookups()
                wanted = alarm.enabled ? alarm.roots.compactMap { primaryRequest(for: $0, alarmID: alarm.id, now: now, lookups: lookups)?.id } : []
            }
            if wanted?.contains(id) == true { continue }
            out.append(.cancel(id, origin: .directSave))
            mutate { $0.removeRow(id) }
            retired.append(id)
        }
        save.touched.removeAll { retired.contains($0) }
    }

    // MARK: - Scheduling (CAP-6, SCH-6)

    /// The reconciliation read of a direct save arrived: prepare the saved alarm's primaries only.
    /// Returns false when no save of this alarm waits for it (the read then changes nothing).
    mutating func directSaveRead(_ alarmID: String, inventory: [PlatformAlarm], now: BridgeInstants,
                                 into out: inout [BridgeCommand]) {
        guard let index = saves.pending.firstIndex(where: { $0.alarmID == alarmID && $0.phase == .reconciling }) else {
            return  // a save superseded while its read was outstanding: the newer one plans
        }
        removeStaleRows(present: inventory, now: now)  // SCH-4: younger rows survive G_PUB
        endDisabledAlarmDays(inventory: inventory, now: now, into: &out)  // a save that turned it off
        var save = saves.pending[index]
        for row in save.previousRows where save.touched.contains(row.id) && document?.row(row.id) == nil
            && inventory.contains(where: { $0.id == row.id }) {
            // A superseded save's same-ID replacement failed and took its row: the daemon still
            // holds the ring as last registered, so that row describes it (never a BOOT-9 adoption).
            mutate { $0.upsert(save.heldRow(row.id) ?? row) }
        }
        var toSchedule: [RingRequest] = []
        var expected: [AlarmUUID] = []
        var awaiting: [AlarmUUID] = []
        if let alarm = document?.alarm(alarmID), alarm.enabled {
            // Looked up once: an adoption below adds a row that is neither delivered nor adopted
            // from a legacy ID, so it changes none of them.
            let lookups = planLookups()
            for root in alarm.roots {
                // CAP-6: the primary of each requested root and nothing else (no seed, no other root).
                guard let request = primaryRequest(for: root, alarmID: alarmID, now: now, lookups: lookups) else { continue }
                expected.append(request.id)
                if inFlight.contains(request.id) {
                    awaiting.append(request.id)  // an earlier request of the same ring: wait for it
                    continue
                }
                guard let held = inventory.first(where: { $0.id == request.id }) else {
                    toSchedule.append(request)
                    continue
                }
                guard let row = document?.row(request.id) else {
                    adopt(request, now: now)  // BOOT-9: a live daemon ID whose row was lost
                    continue
                }
                guard row.fingerprint != fingerprint(request, now: now) else { continue }
                if held.state == .alerting || (!row.delivered && row.fireWallMs <= now.wallMs)
                    || request.fireWallMs - now.wallMs < configuration.reRegisterGuardMs {
                    // SCH-21, SCH-23: never replace a ring that alerts, may be delivering late, or is
                    // due too soon; the exact UUID is held, and a later sync re-registers it.
                    deferredSync = deferredSync ?? .launchSync
                    continue
                }
                toSchedule.append(request)  // ID-4: a same-ID replacement, no cancel (arm before retire)
            }
        }
        // A superseded save's requests still in flight are waited for too, so that a failure
        // restores their rows after the platform answered (SCH-10).
        awaiting += save.touched.filter { inFlight.contains($0) && !awaiting.contains($0) }
        save.expected = expected
        save.prepared = toSchedule.map(\.id)
        save.touched += save.prepared.filter { !save.touched.contains($0) }
        save.awaiting = awaiting + toSchedule.map(\.id)
        save.phase = .scheduling
        saves.pending[index] = save
        if !toSchedule.isEmpty, killSwitchFreezesSync(origin: .directSave, into: &out) {  // BOOT-12
            save.prepared = []
            saves.pending[index] = save
            resolveSave(alarmID, failure: .schedulingDisabled, now: now, into: &out)
            return
        }
        publishAndSchedule(toSchedule, origin: .directSave, now: now, into: &out)  // SCH-6: rows first
        if save.awaiting.isEmpty { startVerification(alarmID, now: now, into: &out) }
    }

    /// A primary a verified save left to retire once it landed (``SaveLedger/retireOnLanding``)
    /// is now held by the daemon: it is cancelled unless the definition wants it after all.
    mutating func retireLandedLeftover(_ id: AlarmUUID, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let landing = saves.retireOnLanding.firstIndex(of: id) else { return }
        saves.retireOnLanding.remove(at: landing)
        if let row = document?.row(id), row.metadata.kind == .primary, !alerting.contains(id),
           document?.alarm(row.metadata.alarmID).map({ alarm in
               let lookups = planLookups()
               return !alarm.enabled || !alarm.roots.contains { primaryRequest(for: $0, alarmID: alarm.id, now: now, lookups: lookups)?.id == id }
           }) ?? true {
            out.append(.cancel(id, origin: .directSave))  // arm before retire: the verified save no longer wants it
            mutate { $0.removeRow(id) }
            flush(into: &out)
        }
    }

    /// A schedule call completed: a save waiting for it records the outcome (after the ordinary
    /// bookkeeping of ``scheduleCompleted(_:result:now:into:)``).
    mutating func saveScheduleCompleted(_ id: AlarmUUID, result: Result<Int64, PlatformError>, now: BridgeInstants,
                                        into out: inout [BridgeCommand]) {
        if case .success = result {
            retireLandedLeftover(id, now: now, into: &out)
            noteSaveWriteLanded(id)
        } else {
            saves.retireOnLanding.removeAll { $0 == id }
        }
        if case .success = result {
            // SCH-10: a superseded save's primary that was still in flight when the newer save
            // began lands now: it is cancelled at once, as ``retireSupersededRings`` does for those
            // already confirmed then — a process death before the newer save resolves would leave
            // it to ring at a time the user changed away from (ios seed 5917: 05:05 rang after an
            // edit to 06:14).
            for alarmID in saves.pending.filter({ $0.touched.contains(id) }).map(\.alarmID) {
                guard let index = saves.pending.firstIndex(where: { $0.alarmID == alarmID }),
                      let alarm = document?.alarm(alarmID) else { continue }
                var save = saves.pending[index]
                let before = save.touched.count
                retireSupersededRings(&save, newDefinition: alarm, now: now, into: &out)
                saves.pending[index] = save
                if save.touched.count != before { flush(into: &out) }
            }
        }
        // CAP-4: a limit failure the bridge answered with its one retry is not the outcome yet;
        // the save waits for the retry (which clears `limitRetries` when it completes).
        if case .failure = result, limitRetries.contains(id) { return }
        // AND-1, AND-3: likewise a refused exact request answered with its inexact one.
        if case .failure = result, degradedRetries.contains(id) { return }
        for alarmID in saves.pending.filter({ $0.awaiting.contains(id) }).map(\.alarmID) {
            guard let index = saves.pending.firstIndex(where: { $0.alarmID == alarmID }) else { continue }
            saves.pending[index].awaiting.removeAll { $0 == id }
            if case .failure = result { saves.pending[index].failedPrepared.append(id) }
            if case .success = result { reRegisterStaleLanding(id, saveIndex: index, now: now, into: &out) }
            if case .failure(let error) = result, saves.pending[index].expected.contains(id), !defects.verifyAnyRing {
                // (The known defect `verify-any-ring` trusts its verification alone: a failed
                // schedule call goes on to a verification that any ring of the alarm satisfies.)
                if saves.pending[index].failure == nil { saves.pending[index].failure = SaveFailureReason(error) }
            }
            guard saves.pending[index].awaiting.isEmpty else { continue }
            if let failure = saves.pending[index].failure {
                resolveSave(alarmID, failure: failure, now: now, into: &out)
            } else {
                startVerification(alarmID, now: now, into: &out)
            }
        }
    }

    /// SND-5, SND-6, ID-4, SCH-19: a primary the save waited for because an earlier request of
    /// the same ring was still in flight (a launch sync's) landed with that request's
    /// configuration. When the saved definition wants it configured otherwise (a sound edit), the
    /// save re-registers it now, a same-ID replacement, and waits for that too, as
    /// ``directSaveRead(_:inventory:now:into:)`` does for a ring already held; the same guards
    /// defer it to a later sync (SCH-21, SCH-23). Otherwise the ring kept the old sound until a
    /// sync that may come only after its ring time (ios swarm seed 88637: a sound edit 1.5 s after
    /// the launch sync's requests; four of them landed after the edit's read with the old sounds,
    /// and a1.thu rang sound-9 at 06:17, a sound the alarm no longer had).
    mutating func reRegisterStaleLanding(_ id: AlarmUUID, saveIndex index: Int, now: BridgeInstants, into out: inout [BridgeCommand]) {
        let save = saves.pending[index]
        guard save.expected.contains(id), !save.prepared.contains(id), let row = document?.row(id), row.confirmed,
              let alarm = document?.alarm(save.alarmID), alarm.enabled,
              let request = stalePrimaryRequest(id, of: alarm, row: row, now: now) else { return }
        if alerting.contains(id) || (!row.delivered && row.fireWallMs <= now.wallMs)
            || request.fireWallMs - now.wallMs < configuration.reRegisterGuardMs {
            deferredSync = deferredSync ?? .launchSync  // SCH-21, SCH-23: a later sync re-registers it
            return
        }
        saves.pending[index].prepared.append(id)
        if !saves.pending[index].touched.contains(id) { saves.pending[index].touched.append(id) }
        saves.pending[index].awaiting.append(id)
        publishAndSchedule([request], origin: .directSave, now: now, into: &out)  // ID-4: no cancel
    }

    /// The request the saved definition wants for primary `id` when the held `row` is configured
    /// otherwise (its fingerprint differs); nil when it matches or no root wants `id`.
    func stalePrimaryRequest(_ id: AlarmUUID, of alarm: LogicalAlarm, row: RingRow, now: BridgeInstants) -> RingRequest? {
        let lookups = planLookups()
        for root in alarm.roots {
            guard let request = primaryRequest(for: root, alarmID: alarm.id, now: now, lookups: lookups), request.id == id else { continue }
            return row.fingerprint != fingerprint(request, now: now) ? request : nil
        }
        return nil
    }

    // MARK: - Verification (SCH-9)

    mutating func startVerification(_ alarmID: String, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let index = saves.pending.firstIndex(where: { $0.alarmID == alarmID }) else { return }
        if saves.pending[index].expected.isEmpty {
            resolveSave(alarmID, failure: nil, now: now, into: &out)  // nothing to ring (disabled, or past)
            return
        }
        saves.pending[index].phase = .verifying
        issueVerificationRead(index, now: now, into: &out)
    }

    mutating func issueVerificationRead(_ index: Int, now: BridgeInstants, into out: inout [BridgeCommand]) {
        saves.pending[index].reads += 1
        saves.pending[index].readOutstanding = true
        saves.pending[index].nextReadMonotonicMs = nil
        out.append(.readInventory(.verifySave(alarmID: saves.pending[index].alarmID)))
    }

    /// SCH-9: one verification read. Only the exact expected primary UUIDs count; an unreadable
    /// inventory counts as a read that saw nothing (SCH-16: never as "present").
    mutating func saveVerificationRead(_ alarmID: String, result: Result<[PlatformAlarm], PlatformError>,
                                       now: BridgeInstants, into out: inout [BridgeCommand]) {
        if case .success(let inventory) = result {
            // SCH-9: a verification read may not list a just-scheduled ring yet (read-after-write lag).
            observe(inventory: inventory, mayPredateLandings: true, now: now, into: &out)
            silenceWhileForeground(now: now, into: &out)
        }
        guard let index = saves.pending.firstIndex(where: { $0.alarmID == alarmID && $0.phase == .verifying && $0.readOutstanding }) else { return }
        saves.pending[index].readOutstanding = false
        if case .success(let inventory) = result {
            var save = saves.pending[index]
            let held = inventory.map(\.id)
            save.seen += save.expected.filter { held.contains($0) && !save.seen.contains($0) }
            if defects.verifyAnyRing, inventory.contains(where: { document?.row($0.id)?.metadata.alarmID == alarmID }) {
                // Known defect (SCH-9): any daemon ring of the saved alarm satisfies the check.
                out.append(.note("defect verify-any-ring: a ring of \(alarmID) taken as the verified primary"))
                save.seen = save.expected
            }
            saves.pending[index] = save
            // SCH-11: the exact UUIDs AlarmKit was seen holding.
            for id in save.seen where !saves.seenHeld.contains(id) { saves.seenHeld.append(id) }
        }
        let save = saves.pending[index]
        if save.expected.allSatisfy({ save.seen.contains($0) }) {
            resolveSave(alarmID, failure: nil, now: now, into: &out)
        } else if save.reads >= (defects.verifySingleRead ? 1 : configuration.saveVerificationReadsMax) {
            resolveSave(alarmID, failure: .notVerified, now: now, into: &out)
        } else {
            saves.pending[index].nextReadMonotonicMs = now.monotonicMs + configuration.saveVerificationSpacingMs
            out.append(.setTimer(.saveVerification, delayMs: configuration.saveVerificationSpacingMs))
        }
    }

    /// The 100 ms spacing passed: every save whose next read is due reads again (SCH-9).
    mutating func saveVerificationTimerFired(now: BridgeInstants, into out: inout [BridgeCommand]) {
        for index in saves.pending.indices {
            guard let due = saves.pending[index].nextReadMonotonicMs else { continue }
            if due <= now.monotonicMs {
                issueVerificationRead(index, now: now, into: &out)
            }
        }
        if let next = saves.pending.compactMap(\.nextReadMonotonicMs).min() {
            out.append(.setTimer(.saveVerification, delayMs: max(0, next - now.monotonicMs)))
        }
    }

    // MARK: - Resolution (SCH-10)

    /// Resolves a save: success retires the previous schedule's leftovers; failure restores the
    /// previous definition and rows and cancels only the newly prepared rings (SCH-10).
    mutating func resolveSave(_ alarmID: String, failure: SaveFailureReason?, now: BridgeInstants,
                              into out: inout [BridgeCommand]) {
        guard let index = saves.pending.firstIndex(where: { $0.alarmID == alarmID }) else { return }
        let save = saves.pending.remove(at: index)
        if let failure {
            rollBack(save, now: now, into: &out)
            out.append(.note("save of \(alarmID) failed: \(failure.rawValue); previous schedule intact (SCH-10)"))
            out.append(.reply(.saveFailed(alarmID: alarmID, reason: failure)))
        } else {
            out.append(.reply(.saved(alarmID: alarmID)))
            retirePrevious(save, now: now, into: &out)
        }
        if saves.sweepWaiting && !saves.hasVerificationPending {
            saves.sweepWaiting = false
            if appActive { consumeImminentSuccessors(now: now, into: &out) }  // SCH-12: the sweep ran late
        }
        runDeferredSyncIfClear(into: &out)
    }

    /// SCH-10, ID-4, SND-5: a same-ID write of a previous schedule's ring by this save (or a save
    /// it superseded) that the platform accepted: the row as registered then is what the daemon
    /// holds under that ID until a later write lands, so a later failed write leaves that row —
    /// not the previous schedule's — describing the ring.
    mutating func noteSaveWriteLanded(_ id: AlarmUUID) {
        guard let row = document?.row(id), row.confirmed else { return }
        for index in saves.pending.indices where saves.pending[index].touched.contains(id)
            && saves.pending[index].previousRows.contains(where: { $0.id == id }) {
            saves.pending[index].landed.removeAll { $0.id == id }
            saves.pending[index].landed.append(row)
        }
    }

    /// SCH-10: the failed save's rings go; the previous schedule's rings and rows stay untouched.
    mutating func rollBack(_ save: PendingSave, now: BridgeInstants, into out: inout [BridgeCommand]) {
        for id in save.touched {
            if let row = save.previousRows.first(where: { $0.id == id }) {
                if !save.failedPrepared.contains(id), let written = document?.row(id), written.fingerprint != row.fingerprint {
                    // A same-ID replacement the platform accepted: the daemon now holds the new
                    // configuration (its sound and title, SND-5), so the written row stays (it
                    // describes the ring) and a sync re-registers the previous one (ID-4, SCH-10).
                    deferredSync = deferredSync ?? .launchSync
                    continue
                }
                if let held = save.heldRow(id), held.fingerprint != row.fingerprint {
                    // The last write failed, but an earlier one of the chain (a superseded save's)
                    // landed: the daemon holds that configuration, so its row stays and a sync
                    // re-registers the previous one (ID-4, SCH-10, SND-5; ios uniform seed 64733:
                    // a sound edit's write landed with the system default, the newer title save's
                    // write failed, the previous row with its group-0 sound was restored, and the
                    // ring rang with the system default).
                    mutate { $0.upsert(held) }
                    deferredSync = deferredSync ?? .launchSync
                    continue
                }
                // A same-ID replacement: the previous row stands (a failed write left the ring as it was).
                mutate { $0.upsert(row) }
                continue
            }
            // SCH-21: a new ring already alerting is left to the lifecycle paths.
            if alerting.contains(id) { continue }
            if !save.failedPrepared.contains(id) { out.append(.cancel(id, origin: .directSave)) }
            mutate { $0.removeRow(id) }
        }
        let previous = save.previous.map(followingReplannedOneShot)
        mutate { document in
            document.alarms.removeAll { $0.id == save.alarmID }
            if let previous {
                document.alarms.append(previous)
                document.alarms.sort { $0.id < $1.id }
            }
        }
        flush(into: &out)
    }

    /// REC-8, SCH-10: a one-shot's previous definition as the bridge has re-planned it since the
    /// save began. `replanMovedRelativeRows` moves a jumped-over (or zone-moved) one-shot's primary
    /// row and its definition to the next match; a failed save restoring the definition it saw
    /// first would undo that, leave the one-shot dated at an instant already passed, and the sync
    /// would cancel the ring AlarmKit still holds for the next match as spent (ios swarm seed
    /// 39907: 05:54 jumped over by a +1 h correction, a title edit whose write failed restored the
    /// 05:54 of the day before, and the next morning's ring was cancelled and never re-armed).
    func followingReplannedOneShot(_ alarm: LogicalAlarm) -> LogicalAlarm {
        guard case .once(let fire) = alarm.repeats, let document,
              let moved = replannedRelativeRows.last(where: { entry in
                  guard entry.fromWallMs == fire, let row = document.row(entry.id) else { return false }
                  return row.metadata.kind == .primary && row.metadata.alarmID == alarm.id
              }), let row = document.row(moved.id),
              case .relative(let hour, let minute, nil) = row.schedule, hour == alarm.hour, minute == alarm.minute else { return alarm }
        return with(alarm) { $0.repeats = .once(fireWallMs: row.fireWallMs) }
    }

    /// Arm before retire: only after the save was verified do the previous schedule's primaries
    /// that the new definition no longer wants go (an old time, a removed weekday, a superseded
    /// save's ring). Alerting rings and rings past their fire time are left alone (SCH-21).
    mutating func retirePrevious(_ save: PendingSave, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let document else { return }
        clearForegroundSuppressed(rootIDs: (save.previous?.roots.map(\.id) ?? []))  // SCH-18: replacement
        let rows = document.rings.filter { $0.metadata.alarmID == save.alarmID && $0.metadata.kind == .primary }
        for row in rows where !save.expected.contains(row.id) {
            if inFlight.contains(row.id) {
                // Still landing: retired once the platform accepted it (never cancelled mid-flight).
                if !saves.retireOnLanding.contains(row.id) { saves.retireOnLanding.append(row.id) }
                continue
            }
            if alerting.contains(row.id) { continue }
            // An unconfirmed row may be a request of an earlier process still landing: it is
            // retired once the daemon holds it (its completion or the read that shows it), not
            // left to the next sync, which may come only after its ring time (ios uniform seed
            // 27758: an edit's 08:11 primary in flight at a death landed after the next process's
            // verified 08:22 save, no sync ran, and it rang at 08:11 with no occurrence to own).
            if !row.confirmed {
                if !row.delivered, row.fireWallMs > now.wallMs, !saves.retireOnLanding.contains(row.id) {
                    saves.retireOnLanding.append(row.id)
                }
                continue
            }
            // Past its fire time and no delivery seen: it may be delivering late (SCH-21; ios
            // swarm seed 583: a held 05:45 delivery of a weekly ring, then a1 disabled).
            if !row.delivered && row.fireWallMs <= now.wallMs { continue }
            // A delivered weekly `.relative` primary of the old time is still armed for its next
            // week: it goes, unless its root's occurrence is live (ios swarm seed 21374: a zone
            // change made the old 06:45 ring again the same morning, after the edit to 08:36, and
            // its Stop opened an occurrence). A delivered non-repeating one has ended.
            if row.delivered && (!row.repeatsInDaemon || document.liveOccurrence?.rootID == row.metadata.rootID) { continue }
            out.append(.cancel(row.id, origin: .directSave))
            mutate { $0.removeRow(row.id) }
        }
        flush(into: &out)
    }

    // MARK: - Deletion (SCH-8)

    /// SCH-8, API-18: deletes a logical alarm; resolves only once the platform confirmed every
    /// cancellation. A save of it still verifying is superseded.
    mutating func deleteAlarm(_ alarmID: String, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let document else {
            out.append(.reply(.alarmDeleted(alarmID: alarmID, confirmed: false)))
            return
        }
        if let index = saves.pending.firstIndex(where: { $0.alarmID == alarmID }) {
            saves.pending.remove(at: index)
            out.append(.reply(.saveFailed(alarmID: alarmID, reason: .superseded)))
        }
        let rows = document.rings.filter { $0.metadata.alarmID == alarmID && $0.metadata.kind.opensOccurrence }  // + seeds
        mutate { $0.alarms.removeAll { $0.id == alarmID } }
        clearForegroundSuppressed(rootIDs: rows.map(\.metadata.rootID))  // SCH-18: deletion
        flush(into: &out)
        let cancelled = cancelExplicitly(rows, now: now, into: &out)
        if cancelled.isEmpty {
            out.append(.reply(.alarmDeleted(alarmID: alarmID, confirmed: true)))
        } else {
            saves.deletions.append(PendingDeletion(alarmID: alarmID, rings: cancelled, confirmed: true))
        }
    }

    /// SCH-8: a cancellation completed; a deletion resolves when its last ring was confirmed.
    /// A ring the daemon no longer holds (`notFound`) counts as cancelled.
    mutating func deletionCancelCompleted(_ id: AlarmUUID, result: Result<Int64, PlatformError>, into out: inout [BridgeCommand]) {
        guard saves.deletions.contains(where: { $0.rings.contains(id) }) else { return }
        for index in saves.deletions.indices where saves.deletions[index].rings.contains(id) {
            saves.deletions[index].rings.removeAll { $0 == id }
            if case .failure(let error) = result, error != .notFound { saves.deletions[index].confirmed = false }
        }
        let done = saves.deletions.filter { $0.rings.isEmpty }
        saves.deletions.removeAll { $0.rings.isEmpty }
        for deletion in done {
            out.append(.reply(.alarmDeleted(alarmID: deletion.alarmID, confirmed: deletion.confirmed)))
        }
    }

    // MARK: - SCH-7, SCH-11, SCH-12

    /// SCH-7: families whose direct save is in progress. A background reconciliation leaves them
    /// alone (it neither cancels the new primaries nor retires the old ones) and runs again after
    /// the save resolved, so it can never turn a save whose daemon write succeeded into a failure.
    var savingFamilies: [String] { saves.pending.isEmpty ? [] : saves.pending.map(\.alarmID).sorted() }

    /// SCH-11: a primary delivered immediately after scheduling may finish its foreground
    /// handoff only if AlarmKit was seen holding that exact UUID (a verification or inventory read,
    /// or a confirmed schedule) and its occurrence has not closed.
    func handoffPermitted(_ id: AlarmUUID) -> Bool {
        guard let row = document?.row(id) else { return false }
        guard row.metadata.kind == .primary else { return true }
        guard row.confirmed || saves.seenHeld.contains(id) else { return false }
        guard let live = document?.liveOccurrence else { return false }
        return isBound(row, to: live)
    }

    /// SCH-12: true while the imminent-foreground sweep must wait for a save's verification.
    /// Alerting alarms are silenced at once all the same (FG-1, FG-2).
    mutating func sweepWaitsForSave(into out: inout [BridgeCommand]) -> Bool {
        guard saves.hasVerificationPending else { return false }
        saves.sweepWaiting = true
        out.append(.note("SCH-12: imminent sweep waits for a save's verification"))
        return true
    }
}

extension InventoryPurpose {
    /// True for the SCH-9 verification reads of a direct save (not a sync).
    public var isSaveVerification: Bool {
        if case .verifySave = self { return true }
        return false
    }
}

/// Why a direct save rejected (API-19, SCH-10, SCH-26). JS shows the reason; `.notAuthorized`
/// lets the app offer its Settings path.
public enum SaveFailureReason: String, Sendable, Equatable, Codable, CaseIterable {
    /// SCH-9: no verification read saw every exact primary.
    case notVerified = "not-verified"
    /// CAP-1, CAP-4: AlarmKit reported its limit for a primary of this save.
    case capacity
    /// SCH-26: AlarmKit is unavailable on this device, authorization is denied, or the app lacks
    /// its usage description: the app offers a Settings path.
    case notAuthorized = "not-authorized"
    /// The daemon rejected a schedule call for another reason.
    case writeFailed = "write-failed"
    /// BOOT-12: the remote kill switch has disabled new scheduling.
    case schedulingDisabled = "scheduling-disabled"
    /// A newer save of the same alarm (or its deletion) replaced this one while it verified.
    case superseded

    init(_ error: PlatformError) {
        switch error {
        case .maximumLimitReached, .illegalStateException: self = .capacity
        case .notAuthorized, .securityException: self = .notAuthorized
        default: self = .writeFailed
        }
    }
}

/// One direct save in progress. Process-local: a process death drops it (JS got no reply; the
/// persisted definition stands and the next launch sync reconciles it).
struct PendingSave: Sendable, Equatable {
    enum Phase: Sendable, Equatable { case reconciling, scheduling, verifying }
    var alarmID: String
    /// The definition in force before this save (and any save it superseded); nil: brand-new.
    var previous: LogicalAlarm?
    /// The alarm's primary rows before this save published anything (SCH-10).
    var previousRows: [RingRow]
    var phase = Phase.reconciling
    /// Every ring this save and the saves it superseded published (SCH-10: what a failure undoes).
    var touched: [AlarmUUID] = []
    /// The rows of same-ID writes of `previousRows` rings that this save or a save it superseded
    /// had accepted by the platform, the latest per ID: what the daemon holds there now (SND-5).
    var landed: [RingRow] = []
    /// Primaries this save published and asked the daemon for (new, or same-ID replacements).
    var prepared: [AlarmUUID] = []
    /// Every exact primary UUID the verification must see (SCH-9).
    var expected: [AlarmUUID] = []
    /// Schedule completions still outstanding.
    var awaiting: [AlarmUUID] = []
    /// Prepared rings whose schedule call failed (the daemon holds nothing new for them).
    var failedPrepared: [AlarmUUID] = []
    var failure: SaveFailureReason?
    /// Verification reads issued so far (≤ `saveVerificationReadsMax`).
    var reads = 0
    var readOutstanding = false
    var nextReadMonotonicMs: Int64?
    /// Expected UUIDs a verification read saw.
    var seen: [AlarmUUID] = []

    init(alarmID: String, previous: LogicalAlarm?, previousRows: [RingRow]) {
        self.alarmID = alarmID
        self.previous = previous
        self.previousRows = previousRows
    }

    /// SCH-10: the row describing what the daemon holds under `id`, a ring of the previous
    /// schedule: the latest write of this save chain the platform accepted, else the previous row.
    func heldRow(_ id: AlarmUUID) -> RingRow? {
        landed.last { $0.id == id } ?? previousRows.first { $0.id == id }
    }
}

/// A deletion waiting for its cancellations (SCH-8).
struct PendingDeletion: Sendable, Equatable {
    var alarmID: String
    var rings: [AlarmUUID]
    var confirmed: Bool
}

/// Process-local state of direct saves and deletions; dies with the process.
public struct SaveLedger: Sendable, Equatable {
    var pending: [PendingSave] = []
    var deletions: [PendingDeletion] = []
    /// SCH-11: exact primary UUIDs a verification read saw the daemon holding.
    var seenHeld: [AlarmUUID] = []
    /// SCH-12: the imminent sweep was held back by a verification and runs once it resolves.
    var sweepWaiting = false
    /// Primaries a verified save no longer wants whose schedule was still in flight, in this
    /// process or (an unconfirmed row) in an earlier one: retired once the daemon holds them.
    var retireOnLanding: [AlarmUUID] = []

    public init() {}

    /// True while any save is preparing, scheduling or verifying.
    public var hasVerificationPending: Bool { !pending.isEmpty }
    /// The alarms whose save is in progress, sorted.
    public var savingAlarmIDs: [String] { pending.map(\.alarmID).sorted() }
}

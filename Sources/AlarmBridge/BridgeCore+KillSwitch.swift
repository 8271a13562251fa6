/// The remote kill switch (BOOT-12), `cancelSystemAlarms` (API-18) and the abandoned-occurrence
/// journal (API-20).
extension BridgeCore {
    // MARK: - Kill switch (BOOT-12)

    /// BOOT-12: the check fails open. Only an explicit, readable "disabled" changes anything; a
    /// timeout, a network failure or an unreadable answer counts as "ok" (seed 003, section 6:
    /// "The check returns .ok on any network failure").
    mutating func killSwitchChecked(_ response: KillSwitchResponse, into out: inout [BridgeCommand]) {
        let disables: Bool
        switch response {
        case .disabled: disables = true
        case .ok: disables = false
        case .timeout, .networkFailure, .unreadable:
            disables = defects.killSwitchFailsClosed  // known defect: fail closed
            if disables { out.append(.note("defect kill-switch-fails-closed: \(response.rawValue) taken as disabled")) }
        }
        let state: RemoteSchedulingState = disables ? .disabledByKillSwitch : .enabled
        guard state != launch.remoteScheduling else { return }
        launch.remoteScheduling = state
        out.append(.remoteScheduling(state))
        if state == .enabled { out.append(.readInventory(.launchSync)) }  // catch up on what waited
    }

    /// True when the kill switch holds this sync's scheduler calls back (BOOT-12). Lifecycle
    /// paths (successors, snooze rings, completion and expiry cleanup, explicit deletion) are
    /// never held: the switch must not silence a wake-up.
    mutating func killSwitchFreezesSync(origin: CommandOrigin, into out: inout [BridgeCommand]) -> Bool {
        guard origin.isSync, launch.remoteScheduling == .disabledByKillSwitch else { return false }
        out.append(.note("kill switch: \(origin.rawValue) makes no scheduler call (BOOT-12, forced update)"))
        return true
    }

    /// True while the kill switch has disabled new scheduling in this process (BOOT-12).
    public var remoteSchedulingDisabled: Bool { launch.remoteScheduling == .disabledByKillSwitch }

    // MARK: - cancelSystemAlarms (API-18)

    /// API-18: retires the listed roots from the configuration (a weekly alarm loses those days;
    /// an alarm left without roots is removed), cancels their pending and alerting primaries, and
    /// resolves once the platform confirmed every cancellation. The roots' Keychain receipts go
    /// with the schedule (IOS-9, by `reconcileReceipts`). The live occurrence itself is not
    /// closed: its successor and snooze rings keep the wake-up loud until it completes, is
    /// abandoned or expires. The roots' foregroundSuppressed proofs go too (SCH-18: deletion).
    mutating func cancelSystemAlarms(rootIDs: [String], now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let document else {
            out.append(.reply(.systemAlarmsCancelled(alarmIDs: rootIDs, confirmed: false)))
            return
        }
        mutate { document in
            document.alarms = document.alarms.compactMap { alarm in
                let listed = alarm.roots.filter { rootIDs.contains($0.id) }
                if listed.isEmpty { return alarm }
                guard listed.count < alarm.roots.count, case .weekly(let days) = alarm.repeats else { return nil }
                var kept = alarm
                kept.repeats = .weekly(days.filter { day in !listed.contains { $0.weekday == day } })
                return kept
            }
        }
        clearForegroundSuppressed(rootIDs: rootIDs)  // SCH-18
        flush(into: &out)
        let rows = document.rings.filter { rootIDs.contains($0.metadata.rootID) && $0.metadata.kind.opensOccurrence }
        let rings = cancelExplicitly(rows, now: now, into: &out)
        if rings.isEmpty {
            out.append(.reply(.systemAlarmsCancelled(alarmIDs: rootIDs, confirmed: true)))
        } else {
            launch.systemCancels.append((rootIDs, rings, true))
        }
    }

    /// API-18, SCH-21: an explicit deletion cancels every ring of `rows` still ahead — and may end
    /// even an alerting one (SCH-21's named exception) — dropping its row; then persists. Returns
    /// the cancelled ring IDs, whose confirmations the caller awaits (SCH-8).
    mutating func cancelExplicitly(_ rows: [RingRow], now: BridgeInstants, into out: inout [BridgeCommand]) -> [AlarmUUID] {
        var cancelled: [AlarmUUID] = []
        for row in rows where !row.isPast(at: now.wallMs) || alerting.contains(row.id) {
            out.append(.cancel(row.id, origin: .lifecycle))
            removeAlerting(row.id)
            mutate { $0.removeRow(row.id) }
            cancelled.append(row.id)
        }
        flush(into: &out)
        return cancelled
    }

    /// API-18: a cancellation completed; the call resolves when its last ring was confirmed. A
    /// ring the daemon no longer holds (`notFound`) counts as cancelled.
    mutating func systemCancelCompleted(_ id: AlarmUUID, result: Result<Int64, PlatformError>, into out: inout [BridgeCommand]) {
        for index in launch.systemCancels.indices where launch.systemCancels[index].rings.contains(id) {
            launch.systemCancels[index].rings.removeAll { $0 == id }
            if case .failure(let error) = result, error != .notFound { launch.systemCancels[index].confirmed = false }
        }
        let done = launch.systemCancels.filter { $0.rings.isEmpty }
        launch.systemCancels.removeAll { $0.rings.isEmpty }
        for call in done {
            out.append(.reply(.systemAlarmsCancelled(alarmIDs: call.rootIDs, confirmed: call.confirmed)))
        }
    }

    // MARK: - Abandoned-occurrence journal (API-20, INACT-18)

    /// API-20: the miss receipts not yet acknowledged, oldest first. A read never removes any.
    func abandonedWakeOccurrences() -> [MissReceipt] {
        let receipts = document?.missReceipts ?? []
        return defects.journalListsInactivityOnly ? receipts.filter { $0.reason == MissReceipt.inactivityReason } : receipts  // known defect
    }

    /// API-20: removes the one receipt with this token, persisted before the reply.
    mutating func acknowledgeAbandonedWakeOccurrence(token: String, into out: inout [BridgeCommand]) {
        guard let index = document?.missReceipts.firstIndex(where: { $0.token == token }) else {
            out.append(.reply(.abandonedWakeOccurrenceAcknowledged(false)))
            return
        }
        mutate { $0.missReceipts.remove(at: index) }
        flush(into: &out)
        out.append(.reply(.abandonedWakeOccurrenceAcknowledged(true)))
    }
}

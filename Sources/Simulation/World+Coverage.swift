import AlarmBridge
import AndroidModel
import SimKernel

/// Reachability coverage (CoverageMarks.swift): each mark is counted where the world sees its
/// state or transition happen. Counting never changes a run: it draws nothing, schedules nothing
/// and records nothing in the trace, so every seed keeps its trace hash.
extension World {
    /// One week of wall time, ms (the period of a weekly root).
    static let weekMs: Int64 = 7 * 86_400_000

    /// Counts one hit of `mark`.
    /// - Complexity: O(1).
    func cover(_ mark: CoverageMark) {
        coverage.hit(mark)
    }

    /// The marks one bridge step reached: what its input was, what it replied and requested, and
    /// how its persisted document changed. Called once per step, after its commands ran.
    ///
    /// - Parameter input: The step's input.
    /// - Parameter bridge: The bridge as the step left it.
    /// - Parameter before: Its document before the step (nil before the store was loaded).
    /// - Parameter commands: Every command the step issued, in order.
    func coverStep(_ input: BridgeInput, bridge: any BridgeUnderTest, before: BridgeDocument?, commands: [BridgeCommand]) {
        coverInput(input, bridge: bridge)
        for command in commands { coverCommand(command, before: before) }
        if migrationWatch.migrationStep { cover(.legacyMigrationDone) }  // BOOT-9..11
        guard let before, let after = bridge.document else { return }
        if after.droppedCount > before.droppedCount { cover(.droppedCountRaised) }  // CAP-9
        // INACT-16. Unchanged receipts (one storage) hold the same count; counted in place (issue
        // 20: the receipts grow by a day's and were copied twice at every step).
        if !OccurrenceChecks.sameStorage(after.missReceipts, before.missReceipts),
           Self.inactivityReceiptCount(after.missReceipts) > Self.inactivityReceiptCount(before.missReceipts) {
            cover(.missReceiptWritten)
        }
        if let was = before.zoneIdentifier, let now = after.zoneIdentifier, was != now {
            cover(.timeZoneChangeObserved)  // REC-8
        }
    }

    /// How many of `receipts` record an inactivity miss (INACT-16), read in place.
    static func inactivityReceiptCount(_ receipts: [MissReceipt]) -> Int {
        var count = 0
        for index in receipts.indices where receipts[index].reason == MissReceipt.inactivityReason { count += 1 }
        return count
    }

    private func coverInput(_ input: BridgeInput, bridge: any BridgeUnderTest) {
        switch input {
        case .bootCompleted(locked: true): cover(.lockedBootRestore)  // AND-2, AND-3
        case .storeLoaded(.failure(.unavailable)): cover(.protectedDataUnavailableAtLaunch)  // BOOT-1
        case .storeLoaded(.failure(.damaged)):
            if ios?.alarms.isEmpty == false { cover(.damagedStoreWithDaemonAlarms) }  // BOOT-5
        case .killSwitchChecked(.timeout), .killSwitchChecked(.networkFailure), .killSwitchChecked(.unreadable):
            if !bridge.remoteSchedulingDisabled { cover(.killSwitchFailOpen) }  // BOOT-12
        case .receiptWritten(_, succeeded: true): cover(.receiptWritten)  // IOS-9
        case .packageReplaced: cover(.packageReplaced)
        case .inventoryRead(_, .failure): cover(.inventoryReadFailed)  // SCH-16
        case .scheduleCompleted(_, .failure(.maximumLimitReached)): cover(.capacityLimitHit)  // CAP-4
        case .scheduleCompleted(_, .failure(.securityException)):
            // Issue 18: API 34's default deny, never a revocation (AND-1, AND-3).
            if android?.parameters.exactAlarmDeniedByDefault == true && exactRevokedAtMs == nil { cover(.exactDeniedByDefault) }
        case .volumeDismissal: cover(.volumeDismissal)  // INACT-6
        case .startWakeUpCheck: cover(.startWakeUpCheck)  // AND-11
        case .burstPlaybackBegan: cover(.burstPlaybackBegan)  // FG-17
        default: break
        }
    }

    private func coverCommand(_ command: BridgeCommand, before: BridgeDocument?) {
        switch command {
        case .reply(let reply): coverReply(reply)
        case .schedule(let request, _):
            switch request.metadata.kind {
            case .successor: cover(.successorArmed)
            case .seed: cover(.nextOccurrenceSeedArmed)
            case .walkFuse:
                cover(.walkFuseArmed)
                // WALK-15, WALK-16: a second fuse for a root that holds one is a rotation.
                let held = before?.rings.contains {
                    $0.metadata.kind == .walkFuse && $0.metadata.rootID == request.metadata.rootID && $0.id != request.id
                } ?? false
                if held { cover(.walkFuseRotated) }
            default: break
            }
        case .stop(_, origin: .foreground): cover(.foregroundSilenced)  // FG-2
        case .playSystemSound: cover(.systemSoundFallback)  // SND-9
        case .writeFailedWakeDay: cover(.receiptReadAfterReinstall)  // IOS-10
        case .deleteCredentialProtectedStore: cover(.credentialStoreMoved)  // AND-4
        case .note(let text): coverNote(text)
        default: break
        }
    }

    private func coverReply(_ reply: APIReply) {
        switch reply {
        case .snoozeAccepted: cover(.snoozeAccepted)
        case .snoozeRejected(let reason):
            if reason == BridgeCore.SnoozeRejection.latchSpent.rawValue { cover(.snoozeRefusedLatchSpent) }
            if reason == BridgeCore.SnoozeRejection.outsideWindow.rawValue { cover(.snoozeRefusedOutsideWindow) }
        case .snoozeSkipped: cover(.snoozeSkipped)
        case .walkStarted: cover(.walkCheckStarted)
        case .completed(_, accepted: true): cover(.challengeCompleted)
        case .abandoned(true): cover(.occurrenceAbandoned)
        case .saved: cover(.saveVerified)
        case .saveFailed: cover(.saveFailedRolledBack)
        case .scheduledAlarmTimes: cover(.scheduledTimesAnswered)
        case .scheduledAlarmTimesRejected: cover(.scheduledTimesRejected)
        case .actionAcknowledged(true): cover(.actionAcknowledged)
        default: break
        }
    }

    /// The bridge's notes that state a transition with no structured reply or command of its own.
    /// Each prefix is the rule-citing text the bridge writes at that exact point. If the bridge
    /// rewords one, its mark stops being counted and the coverage check (`alarmsim coverage`, the
    /// CI test) reports it `UNREACHED`, so the coupling cannot rot silently.
    private func coverNote(_ text: String) {
        if text.hasPrefix("pass-over") { cover(.passOver) }  // OCC-3
        else if text.hasPrefix("CAP-4:") { cover(.capacitySeedReclaimed) }
        else if text.hasPrefix("clock corrected by") { cover(.clockCorrectionObserved) }  // REC-9
        else if text.hasPrefix("REC-6:") { cover(.skipDateOccurrenceRolled) }
        else if text.hasPrefix("sync deferred") { cover(.syncDeferred) }  // SCH-21..23
        else if text.hasPrefix("successor "), text.hasSuffix("reused (OCC-7)") { cover(.successorReused) }
        else if text.hasPrefix("AND-17:") { cover(.stepSuppressionPostponed) }
        else if text.hasPrefix("AND-15:") { cover(.queuedPassOverReleased) }
        else if text.hasPrefix("FG-11:") { cover(.contextLapsed) }
        else if text.hasPrefix("foreground watchdog fired") { cover(.watchdogBurst) }  // FG-15
    }

    /// The marks of a ring that started alerting on the platform.
    func coverAlertStarted(_ metadata: RingMetadata) {
        if bootCount > 0 && !protectedDataAvailable { cover(.alertBeforeFirstUnlock) }  // BOOT-1
        // REC-1, REC-2: a weekly primary whose previous week held a DST transition.
        if metadata.kind == .primary, !configuredWeeklyRoots(metadata).isEmpty,
           calendar.offsetMs(at: wallMs) != calendar.offsetMs(at: wallMs - Self.weekMs) {
            cover(.dstNightWeeklyAlarm)
        }
    }

    /// Android: an alarm the model delivered more than a second after it was due (AND-19).
    func coverAndroidDelivery(_ id: AlarmUUID) {
        guard let delivery = android?.deliveryLog.last(where: { $0.id == id }) else { return }
        if delivery.deliveredElapsedMs - delivery.dueElapsedMs > 1_000 { cover(.androidDeliveredLate) }
    }

    /// A platform completion for `input` reached no process: the one that issued the request died
    /// between the request and its completion.
    func coverDroppedCompletion(_ input: BridgeInput) {
        switch input {
        case .scheduleCompleted, .cancelCompleted, .stopCompleted, .inventoryRead: cover(.processDeathMidRequest)
        default: break
        }
    }
}

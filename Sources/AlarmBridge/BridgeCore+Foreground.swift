/// The JS app's foreground context, sent as a heartbeat through `setForegroundAlarmContext(payload)`
/// (API-3). Every field is advisory and process-local; none is persisted (FG-13).
public struct ForegroundAlarmContext: Sendable, Equatable, Codable {
    /// JS's view of the foreground. A hint only: the native lifecycle decides (FG-8).
    public var appActive: Bool
    /// JS says a wake session was delivered or entered. Honoured only when native state holds
    /// a live occurrence; a wall-clock-only anchor window never makes one (FG-9, FG-10).
    public var wakeSessionEstablished: Bool
    /// The challenge rendered (FG-7): the handoff signal that cancels a pending handoff retry.
    public var challengeScreenVisible: Bool
    /// Older bundles' later acknowledgement of activity on the challenge screen (FG-7).
    public var onChallengeScreen: Bool

    public init(appActive: Bool = true, wakeSessionEstablished: Bool = false,
                challengeScreenVisible: Bool = false, onChallengeScreen: Bool = false) {
        self.appActive = appActive
        self.wakeSessionEstablished = wakeSessionEstablished
        self.challengeScreenVisible = challengeScreenVisible
        self.onChallengeScreen = onChallengeScreen
    }
}

/// An exact primary the bridge deliberately consumed while Ember stayed in the foreground (FG-2):
/// process-local, occurrence-scoped, never a claim of registration (SCH-17, SCH-18).
public struct ForegroundSuppressedProof: Sendable, Equatable {
    public var rootID: String
    public var ringID: AlarmUUID
    /// The configured ring time the consumed primary opened (ID-8). Virtual wall ms.
    public var occurrenceStartedAtMs: Int64
}

/// Foreground rules: silencing while natively active, imminent successors, context heartbeats.
///
/// Not modelled: FG-2's sweep of an imminent *primary* before it fires (cancel it, keep the
/// proof, enter the occurrence natively at its ring time). A primary due while Ember is active
/// is instead consumed when it is delivered: its alert is silenced at once (FG-1) and its
/// occurrence begins as delivered, so it keeps an ordinary native owner record (OCC-22).
extension BridgeCore {
    /// FG-1, FG-2: while Ember is natively active no wake ring other than the one-time snooze ring
    /// stays alerting. Issues one stop per alerting ordinary ring (primary, seed, successor,
    /// walk fuse, legacy ring). On iOS the ring stays in `alerting` until `alarmUpdates` shows the
    /// stop took effect, so a resume sync stays deferred for its family meanwhile (SCH-22).
    /// SNZ-17: the snooze ring may sound while Ember is active.
    mutating func silenceWhileForeground(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard appActive, phase == .ready, let document else { return }
        if defects.foregroundAlertKept { return }  // known defect: FG-1 not applied
        for id in alerting where !foregroundStops.contains(id) {
            guard let row = document.row(id) else { continue }
            if row.metadata.kind == .snooze && !defects.snoozeSilencedInForeground { continue }  // SNZ-17 (known defect: not applied)
            out.append(.note("FG-2: \(row.metadata.kind.rawValue) \(id) of \(row.metadata.rootID) silenced while Ember is active"))
            foregroundStops.append(id)
            if !stoppedAlerts.contains(id) { stoppedAlerts.append(id); stoppedAlerts.sort() }
            if row.metadata.kind.opensOccurrence, let live = document.liveOccurrence, live.rootID == row.metadata.rootID {
                noteForegroundSuppressed(rootID: live.rootID, ringID: id, startedAtMs: live.startedAtMs)
            }
            out.append(.stop(id, origin: .foreground))
            if flavor == .android { removeAlerting(id) }  // the ringing service stops synchronously
        }
    }

    /// FG-2: foregrounding consumes any ordinary successor of the live occurrence due within
    /// Δ_IMMINENT; the in-app challenge is the pressure while Ember is active, and leaving it
    /// unfinished arms a fresh one (FG-3). Snooze rings and walk fuses are not ordinary (SNZ-10).
    mutating func consumeImminentSuccessors(now: BridgeInstants, into out: inout [BridgeCommand]) {
        if sweepWaitsForSave(into: &out) { return }  // SCH-12: wait for a pending save's verification
        // Only a confirmed one: a cancel may overtake a schedule still in flight and leave an
        // orphan sounding if the process dies before the schedule lands (ios seed 104). One in
        // flight is silenced on delivery instead (FG-1).
        guard let live = document?.liveOccurrence, let pending = pendingSuccessor(of: live),
              pending.confirmed, !inFlight.contains(pending.id), pending.fireWallMs > now.wallMs,
              pending.fireWallMs - now.wallMs <= configuration.imminentHorizonMs else { return }
        // Only one still ahead: a successor past its fire time may be alerting unobserved; the
        // resume read observes it and FG-2 silences it as an alert (ios seed 70).
        out.append(.note("FG-2: imminent successor \(pending.id) consumed on foregrounding"))
        out.append(.cancel(pending.id, origin: .foreground))
        mutate { $0.removeRow(pending.id) }
    }

    /// FG-2 proof bookkeeping: one proof per root, replaced by a newer occurrence's.
    mutating func noteForegroundSuppressed(rootID: String, ringID: AlarmUUID, startedAtMs: Int64) {
        foregroundSuppressed.removeAll { $0.rootID == rootID }
        foregroundSuppressed.append(ForegroundSuppressedProof(rootID: rootID, ringID: ringID, occurrenceStartedAtMs: startedAtMs))
    }

    /// SCH-18: a wall-clock correction, a time-zone change or the system's clock-change
    /// notification clears every proof: its occurrence instant belongs to the old frame.
    mutating func clearForegroundSuppressedOnClockChange(into out: inout [BridgeCommand]) {
        guard !foregroundSuppressed.isEmpty else { return }
        if defects.suppressionProofSurvivesClockChange {
            out.append(.note("defect suppression-proof-survives-clock-change: \(foregroundSuppressed.count) proof(s) kept"))
            return
        }
        out.append(.note("SCH-18: foregroundSuppressed proof cleared by a clock or time-zone change"))
        clearForegroundSuppressed()
    }

    /// SCH-18: no foregroundSuppressed proof survives backgrounding, a clock or time-zone change,
    /// replacement or deletion (process death discards it with the core).
    mutating func clearForegroundSuppressed(rootIDs: [String]? = nil) {
        if let rootIDs {
            foregroundSuppressed.removeAll { rootIDs.contains($0.rootID) }
        } else {
            foregroundSuppressed = []
        }
    }

    /// The native lifecycle left the foreground: FG-8 (JS cannot bring it back), FG-11.
    mutating func leftForeground() {
        appActive = false
        challengeVisible = false
        watchdogDueMonotonicMs = nil  // FG-16: background pressure takes over at once
        foregroundStops = []
        if !defects.suppressionProofSurvivesBackground { clearForegroundSuppressed() }  // SCH-18 (known defect: kept)
    }

    /// API-3: applies one heartbeat of the JS foreground context.
    /// - FG-8: `appActive` is a hint: it never sets the native foreground state; a context that
    ///   claims activity while the native lifecycle is inactive suppresses nothing.
    /// - FG-7: `challengeScreenVisible` (rendered) or `onChallengeScreen` (older bundles'
    ///   activity acknowledgement) marks the challenge visible, which cancels the pending
    ///   handoff successor (OCC-9) and stops a sounding snooze ring (SNZ-19).
    /// - FG-9, FG-10: `wakeSessionEstablished` never creates an occurrence; with no live native
    ///   occurrence it is ignored.
    /// - FG-11, FG-12: the context lapses H_CTX after this heartbeat (`contextLapse` timer), and
    ///   the wake session it claims lapses D_SESSION after it was first claimed, however often it
    ///   is refreshed; neither suppresses anything afterwards.
    mutating func applyForegroundContext(_ context: ForegroundAlarmContext, now: BridgeInstants, into out: inout [BridgeCommand]) {
        let visible = (context.challengeScreenVisible || context.onChallengeScreen) && appActive
        let wasVisible = challengeVisible
        challengeVisible = visible
        challengeVisibilityChanged(wasVisible: wasVisible, now: now, into: &out)  // FG-14
        contextHeartbeatMonotonicMs = now.monotonicMs
        out.append(.setTimer(.contextLapse, delayMs: configuration.contextHeartbeatLifetimeMs))
        if context.wakeSessionEstablished, let live = document?.liveOccurrence {
            if wakeSession?.token != live.token {
                // REC-10: the deadline is held against the monotonic clock, so a manual wall-clock
                // correction noticed by the running process neither ends nor restarts the session.
                wakeSession = (live.token, now.monotonicMs + configuration.wakeSessionDeadlineMs)
            }
        } else if !context.wakeSessionEstablished {
            wakeSession = nil
        }
        if context.appActive && !appActive {
            out.append(.note("FG-8: context claims the app is active; the native lifecycle says it is not"))
        }
        if defects.staleChallengeVisibleSurvivesRestart {
            let visibleNow = challengeVisible
            mutate { $0.staleChallengeVisible = visibleNow }
        }
        if challengeVisible, let live = document?.liveOccurrence, !defects.stopLeavesRecoveryGuard {
            cancelPendingSuccessors(of: live, origin: .lifecycle, now: now, into: &out)  // OCC-9, FG-7
        }
        if challengeVisible && !wasVisible, let live = document?.liveOccurrence {
            // SNZ-19: rendering the challenge stops a sounding snooze ring — the render, not each
            // heartbeat: a snooze ring delivered while the challenge stays rendered may sound
            // (SNZ-17, SNZ-18).
            stopSoundingSnooze(of: live, into: &out)
        }
    }

    /// FG-11: a context not refreshed within H_CTX lapses and suppresses nothing.
    mutating func contextLapsed(now: BridgeInstants, into out: inout [BridgeCommand]) {
        if defects.contextNeverLapses { return }  // known defect: FG-11 not applied
        guard let beat = contextHeartbeatMonotonicMs,
              now.monotonicMs - beat >= configuration.contextHeartbeatLifetimeMs else { return }
        contextHeartbeatMonotonicMs = nil
        if challengeVisible { out.append(.note("FG-11: foreground context lapsed; challenge no longer taken as visible")) }
        challengeVisible = false
    }

    /// FG-12: the wake session JS claims, while its explicit deadline holds. Nothing after it.
    /// REC-10: judged on the monotonic clock; wall-clock corrections do not move it.
    public func wakeSessionActive(at now: BridgeInstants) -> Bool {
        guard let session = wakeSession, let live = document?.liveOccurrence, live.token == session.token else { return false }
        return now.monotonicMs < session.untilMonotonicMs
    }

    /// API-9: the root IDs of the wake rings alerting now, never physical ring UUIDs (ID-10).
    /// Sorted, no duplicates.
    public var alertingAlarmIDs: [String] {
        var roots: [String] = []
        for id in alerting {
            if let root = document?.row(id)?.metadata.rootID, !roots.contains(root) { roots.append(root) }
        }
        return roots.sorted()
    }

    /// API-17: stops only the alerting rings of the listed roots (or of the listed logical
    /// alarms' roots). OCC-11: stopping an alert never completes its occurrence; like any alert
    /// end it leaves the ordinary rearm rules in force (OCC-5), so a backgrounded owner gets its
    /// successor.
    mutating func stopAlertingAlarms(_ alarmIDs: [String], now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let document else { return }
        var stopped: [String] = []
        for id in alerting {
            guard let row = document.row(id),
                  alarmIDs.contains(row.metadata.rootID) || alarmIDs.contains(row.metadata.alarmID) else { continue }
            out.append(.stop(id, origin: .lifecycle))
            stopped.append(row.metadata.rootID)
            // iOS: the alert ends when `alarmUpdates` says so (the stop is asynchronous, and an
            // alerting family keeps a resume sync deferred until then, SCH-22).
            if flavor == .android { alertEnded(id, now: now, into: &out) }
        }
        out.append(.reply(.alertsStopped(rootIDs: stopped.sorted())))
        runDeferredSyncIfClear(into: &out)
    }
}

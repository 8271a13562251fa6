/// In-app wake-check bursts and the foreground watchdog (API-4, FG-14, FG-15, FG-17, FG-18, AND-9).
///
/// A burst is an in-app wake-check sound played while the challenge is in the foreground, through
/// the native alarm lifecycle (seed 000, "Foreground wake-check bursts use the same native alarm
/// lifecycle"). The bridge keeps at most one alive: it stays alive until the user dismisses or
/// mutes it, the occurrence closes, or the app leaves the foreground (FG-17); JS starts the next
/// one only after that (FG-18, enforced here by refusing a second start). A burst is recorded as
/// audible only once the platform reports that its playback began (FG-17, SND-13). Bursts do not
/// move an occurrence's sound sequence: the seed's sequence counts wake rings, and a burst is a
/// foreground sound inside the challenge (a reading noted in the branch report).
///
/// While the challenge is visible, a resettable watchdog mirrors the app's 30 s activity window
/// plus 15 s countdown (FG-14); if it fires while the app is still in the foreground, JS has
/// stalled and the bridge starts the next burst itself (FG-15).
public struct ForegroundBurst: Sendable, Equatable {
    public var id: AlarmUUID
    public var rootID: String
    /// True once the platform reported that native playback began (FG-17).
    public var playing: Bool
}

extension BridgeCore {
    /// API-4: `startForegroundAlarmSound(alarmId, title, body)`.
    mutating func startForegroundAlarmSound(alarmID: String, title: String, body: String, now: BridgeInstants,
                                            into out: inout [BridgeCommand]) {
        let id = startBurst(rootID: alarmID, title: title, body: body, into: &out)
        out.append(.reply(.foregroundAlarmSound(id)))
    }

    /// Starts a burst for `rootID`; returns its ring ID, nil when none was started.
    @discardableResult
    mutating func startBurst(rootID: String, title: String, body: String, into out: inout [BridgeCommand]) -> AlarmUUID? {
        guard appActive else {
            out.append(.note("burst for \(rootID) refused: in-app bursts play only in the foreground (API-4)"))
            return nil
        }
        if let alive = foregroundBurst {
            // FG-17: the current burst stays alive until it is stopped; FG-18: JS starts the next
            // only after it was dismissed or muted.
            out.append(.note("burst for \(rootID) refused: burst \(alive.id) is still alive (FG-17, FG-18)"))
            return nil
        }
        guard document?.hasLiveOccurrence == true else {
            // A wake-check burst belongs to a live wake occurrence; it would end at once.
            out.append(.note("burst for \(rootID) refused: no live occurrence"))
            return nil
        }
        guard let alarmID = document?.root(rootID)?.alarmID ?? rootFromRows(rootID)?.alarmID else {
            out.append(.note("burst for unknown root \(rootID) refused (ID-10)"))
            return nil
        }
        var serial: UInt64 = 0
        mutate { document in
            document.serial += 1
            serial = document.serial
        }
        flush(into: &out)
        let id = RingIdentity.successorID(token: "burst|\(rootID)", serial: serial)
        let position = document?.liveOccurrence.map { $0.rootID == rootID ? sequencePosition(of: $0) : 0 } ?? 0
        let request = BurstRequest(id: id, rootID: rootID, title: title, body: body,
                                   soundName: chooseSound(alarmID: alarmID, ringID: id, position: position),
                                   lowImportanceChannel: flavor == .android)  // AND-9
        foregroundBurst = ForegroundBurst(id: id, rootID: rootID, playing: false)
        out.append(.startBurst(request))
        return id
    }

    /// FG-17: native playback began: only now is the burst's root recorded as audible.
    mutating func burstPlaybackBegan(_ id: AlarmUUID) {
        guard var burst = foregroundBurst, burst.id == id else { return }
        burst.playing = true
        foregroundBurst = burst
        recordAudible(rootID: burst.rootID)
    }

    /// FG-18: the burst was dismissed, muted or ended by the platform; JS may start the next.
    mutating func burstEnded(_ id: AlarmUUID) {
        if foregroundBurst?.id == id { foregroundBurst = nil }
    }

    /// Stops the live burst (completion, closure, leaving the foreground).
    mutating func stopForegroundBurst(reason: String, into out: inout [BridgeCommand]) {
        guard let burst = foregroundBurst else { return }
        foregroundBurst = nil
        out.append(.note("burst \(burst.id) stopped: \(reason)"))
        out.append(.stopBurst(burst.id))
    }

    /// After every ready step: a burst outlives neither the live occurrence nor the foreground.
    mutating func endBurstIfOrphaned(into out: inout [BridgeCommand]) {
        guard foregroundBurst != nil else { return }
        if !appActive { stopForegroundBurst(reason: "the app left the foreground (FG-16)", into: &out) }
        else if document?.hasLiveOccurrence != true { stopForegroundBurst(reason: "no live occurrence", into: &out) }
    }

    /// FG-14: (re)arms the watchdog 45 s from now while the challenge is visible.
    mutating func armChallengeWatchdog(into out: inout [BridgeCommand]) {
        guard challengeVisible, appActive else { return }
        watchdogDueMonotonicMs = nil
        out.append(.setTimer(.challengeWatchdog, delayMs: configuration.challengeWatchdogMs))
    }

    /// FG-14: the challenge became visible (a transition from not visible).
    mutating func challengeVisibilityChanged(wasVisible: Bool, now: BridgeInstants, into out: inout [BridgeCommand]) {
        if challengeVisible && !wasVisible {
            armChallengeWatchdog(into: &out)
            watchdogDueMonotonicMs = now.monotonicMs + configuration.challengeWatchdogMs
        }
    }

    /// FG-14: a real challenge interaction restarts the watchdog (INACT-4's validated interaction).
    mutating func challengeInteraction(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard challengeVisible, appActive, document?.hasLiveOccurrence == true else { return }
        armChallengeWatchdog(into: &out)
        watchdogDueMonotonicMs = now.monotonicMs + configuration.challengeWatchdogMs
    }

    /// FG-15: the watchdog fired. Still in the foreground with the challenge visible: JS stalled,
    /// so native code starts the next wake-check burst and the watchdog runs again. Otherwise the
    /// background pressure of FG-16 has taken over and the watchdog does nothing.
    mutating func challengeWatchdogFired(now: BridgeInstants, into out: inout [BridgeCommand]) {
        // Armed while the challenge was visible; a stalled JS also stops its context heartbeats,
        // so the context may have lapsed (FG-11) — the watchdog still fires while Ember is in
        // the foreground: that is the stall it exists for. Leaving the foreground disarms it.
        guard appActive, let due = watchdogDueMonotonicMs, let live = document?.liveOccurrence else { return }
        if now.monotonicMs < due { return }  // restarted since
        let title = document?.root(live.rootID)?.title ?? live.rootID
        out.append(.note("foreground watchdog fired: JS stalled, native burst (FG-15)"))
        startBurst(rootID: live.rootID, title: title, body: "wake-up check", into: &out)
        out.append(.setTimer(.challengeWatchdog, delayMs: configuration.challengeWatchdogMs))
        watchdogDueMonotonicMs = now.monotonicMs + configuration.challengeWatchdogMs
    }
}

import AlarmBridge
import SimKernel

/// Foreground invariants (RULES.md candidate invariants 3 and 32), judged against platform truth
/// and what JS actually sent, never against the bridge's own flags alone.
extension World {
    /// Rings the platform holds in the alerting state now (daemon `alerting`; Android's ringing
    /// service), whether or not they can be heard. In platform order.
    func alertingRings() -> [(id: AlarmUUID, metadata: RingMetadata)] {
        if let alarms = ios?.alarms {  // read in place, not a copy of the model (issue 20)
            return alarms.matching(state: .alerting).map { (alarms[$0].id, alarms[$0].metadata) }
        }
        guard let ringing = android?.ringing else { return [] }
        return ringing.compactMap { id in android?.ringingMetadata(id).map { (id, $0) } }
    }

    /// Candidate invariant 3, `foreground-silence` (FG-1, FG-2, SCH-12): while Ember is natively
    /// active, no wake ring other than a snooze ring stays alerting longer than T_OP after the
    /// bridge observed it (or after the activation, whichever is later). A ring the bridge has
    /// not observed for 60 s while the app is active counts as observed (a bridge that never
    /// looks is no excuse). Exempt: a bridge that cannot read its store yet (BOOT-2: it decides
    /// nothing then).
    func checkForegroundSilence() {
        guard deviceUp, process.running, process.active, !process.suspended,
              process.isAcceptingInputs == true, let believedAlerting = process.believedAlerting else {
            foregroundAlerts = []
            return
        }
        var tracked: [(id: AlarmUUID, sinceMs: Int64, observed: Bool)] = []
        for ring in alertingRings() where ring.metadata.kind != .snooze {
            let believed = believedAlerting.contains(ring.id) || android != nil
            var entry = foregroundAlerts.first { $0.id == ring.id } ?? (ring.id, nowMs, believed)
            if believed && !entry.observed { entry = (ring.id, nowMs, true) }
            let bound = entry.observed ? setup.transitionBoundMs : 60_000
            if nowMs - entry.sinceMs > bound {
                violate("foreground-silence", [], "\(ring.metadata.kind.rawValue) \(ring.id) of \(ring.metadata.rootID) has been alerting for \(HumanText.duration(nowMs - entry.sinceMs)) \(entry.observed ? "after the bridge observed it" : "unobserved") while Ember is active")
                return
            }
            if !foregroundAlerts.contains(where: { $0.id == ring.id }) || (believed && foregroundAlerts.first { $0.id == ring.id }?.observed == false) {
                enqueue(.gapCheck, afterMs: bound + 1)
            }
            tracked.append(entry)
        }
        foregroundAlerts = tracked
    }

    /// `foreground-silence`'s other half (SNZ-17, SNZ-10, FG-1): the one-time snooze ring is the
    /// one wake ring allowed to sound while Ember is active, and it is the occurrence's pressure by
    /// itself, so foregrounding never stops or cancels it (FG-2's sweep covers ordinary rings only).
    /// Judged at the command, by the ring the platform holds (its kind as registered).
    func checkSnoozeSparedInForeground(_ id: AlarmUUID, origin: CommandOrigin, isCancel: Bool) {
        guard origin == .foreground, !stopped,
              let metadata = groundTruthMetadata(id) ?? requestMetadata[id], metadata.kind == .snooze else { return }
        violate("foreground-silence", [], "coming to the front \(isCancel ? "cancelled" : "stopped") the snooze ring \(id) of \(metadata.rootID); the snooze ring may sound while Ember is active and is the occurrence's pressure")
    }

    /// Candidate invariant 32, `no-stale-suppression` (FG-8, FG-10..FG-13): the bridge takes the
    /// challenge as visible only while the app is natively active and JS said so in this process
    /// within H_CTX; no restart, reboot or lapsed heartbeat leaves it standing.
    func checkNoStaleSuppression() {
        guard process.running, process.challengeScreenVisible == true else { return }  // the cache: no copy of the bridge
        let fresh = lastVisibleContext.map {
            $0.incarnation == process.incarnation && nowMs - $0.trueMs <= setup.contextHeartbeatLifetimeMs
        } ?? false
        guard !(process.active && fresh) else { return }
        let why = !process.active ? "the app is not active"
            : lastVisibleContext?.incarnation != process.incarnation ? "no context said so in this process (incarnation \(process.incarnation))"
            : "the last heartbeat is \(nowMs - (lastVisibleContext?.trueMs ?? nowMs)) ms old (H_CTX \(setup.contextHeartbeatLifetimeMs) ms)"
        violate("no-stale-suppression", [], "the bridge takes the challenge as visible although \(why)")
    }
}

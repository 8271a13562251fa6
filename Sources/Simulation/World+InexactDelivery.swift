import AlarmBridge
import AndroidModel
import SimKernel

/// When an inexact primary's occurrence begins (oracle truth).
///
/// A ring `setAlarmClock` refused for want of the exact-alarm permission is kept as an inexact
/// `setAndAllowWhileIdle` alarm at the same trigger (BridgeCore+ExactAlarms.swift; [derived]
/// AND-1, AND-3). AlarmManager delivers it anywhere inside its window (0.75 × futurity, at most
/// 1 h, plus doze deferral; PLATFORMS.md), so two roots a minute apart can be delivered in either
/// order. The glossary's "an occurrence begins at its configured ring time once delivered" and
/// OCC-2's "first due root" are read as for a delivery the platform holds back (`fault
/// late-delivery`): the root becomes due when the platform delivers it, ownership follows the
/// order the app can see, and its inactivity clock still runs from the configured ring time
/// (INACT-3). Before, the oracle opened the occurrence at the ring time and passed over a root
/// AlarmManager delivered first (android uniform seed 2645: a1 at 08:47 delivered at 08:54,
/// a2's 08:46 primary still pending). A primary that leaves AlarmManager without a delivery (a
/// cancel, a force-stop, a reboot) is due at once, where the usual exemptions or a violation
/// judge it: the deferral never hides a ring the bridge lost.
extension World {
    /// The root's primary for `fireWallMs`, pending in AlarmManager as an inexact alarm.
    func pendingInexactPrimary(rootID: String, fireWallMs: Int64) -> AlarmUUID? {
        android?.pending.first { alarm in
            !alarm.method.isExact && alarm.metadata.rootID == rootID && alarm.metadata.kind == .primary
                && alarm.triggerWallMs == fireWallMs
        }?.id
    }

    /// At a root's configured time: defers it while AlarmManager holds its primary inexact.
    /// - Returns: true when deferred.
    func deferInexactOracleFire(rootID: String, alarmID: String, fireWallMs: Int64) -> Bool {
        guard let id = pendingInexactPrimary(rootID: rootID, fireWallMs: fireWallMs) else { return false }
        if !inexactOracleFires.contains(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }) {
            inexactOracleFires.append((id, rootID, alarmID, fireWallMs, wallMs - nowMs, wallMs - nowMs))
        }
        record("oracle", "due-when-delivered-inexact", [TraceField("root", rootID)])
        return true
    }

    /// AlarmManager delivered ring `id`: a root deferred on it is due now.
    func releaseInexactOracleFires(delivered id: AlarmUUID) {
        let due = inexactOracleFires.filter { $0.ringID == id }
        guard !due.isEmpty else { return }
        inexactOracleFires.removeAll { $0.ringID == id }
        for fire in due {
            let metadata = RingMetadata(rootID: fire.rootID, alarmID: fire.alarmID, kind: .primary, token: nil, title: "")
            androidReleasing = (fire.fireWallMs, metadata, fire.wallMinusTrueMs)  // being delivered: platformHoldsPrimary
            releasingReachedWallMinusTrueMs = fire.reachedWallMinusTrueMs
            oracleFireTime(rootID: fire.rootID, alarmID: fire.alarmID, fireWallMs: fire.fireWallMs, deliveredLate: true)
            // REC-9: its inactivity clock runs from the ring time (INACT-3), so a correction made
            // since moves its deadline, as the bridge's `clockOffset(forStart:)` does (android
            // uniform seed 757: 07:57 reached, a 10 min set-back at 08:17, delivered at 08:26 in
            // the new frame; the bridge expired it at once, the oracle kept it live).
            releasingReachedWallMinusTrueMs = nil
            applyHeldDeliveryClockShift()
            androidReleasing = nil
        }
    }

    /// REC-9: an inexact primary AlarmManager delivers inside the TIME_SET of a clock change (AMS
    /// `reevaluateRtcAlarms` found it due) opens a live occurrence that the change's own
    /// live-occurrence shift then moves (World+Device.swift): its release applies only the
    /// corrections before this one, or it would count it twice (android swarm seed 1893: 05:48
    /// reached, a +10 min change at 05:55 delivered it; the deadline was moved by 20 min).
    func countingChangeAsLive(_ deltaMs: Int64, _ body: () -> Void) {
        inexactOracleFires = inexactOracleFires.map { fire in
            (fire.ringID, fire.rootID, fire.alarmID, fire.fireWallMs, fire.wallMinusTrueMs + deltaMs, fire.reachedWallMinusTrueMs + deltaMs)
        }
        body()
        inexactOracleFires = inexactOracleFires.map { fire in
            (fire.ringID, fire.rootID, fire.alarmID, fire.fireWallMs, fire.wallMinusTrueMs - deltaMs, fire.reachedWallMinusTrueMs - deltaMs)
        }
    }

    /// After every event: a deferred root whose inexact primary left AlarmManager undelivered
    /// is due now, judged as any root whose ring the platform does not hold.
    func releaseLostInexactOracleFires() {
        guard let manager = android, !inexactOracleFires.isEmpty else { return }
        let lost = inexactOracleFires.filter { fire in !manager.pending.contains { $0.id == fire.ringID } }
        guard !lost.isEmpty else { return }
        inexactOracleFires.removeAll { fire in lost.contains { $0.ringID == fire.ringID && $0.fireWallMs == fire.fireWallMs } }
        for fire in lost {
            record("oracle", "inexact-primary-lost", [TraceField("root", fire.rootID)])
            oracleFireTime(rootID: fire.rootID, alarmID: fire.alarmID, fireWallMs: fire.fireWallMs, deliveredLate: true)
        }
    }
}

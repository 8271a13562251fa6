import AlarmBridge
import SimKernel

/// Candidate invariant 13 on iOS (`pass-over-silent`, OCC-3): Android's check is in
/// Invariants+Android.swift, because there the bridge decides whether a delivery rings at all;
/// on iOS AlarmKit alerts every due alarm itself, and the bridge must stop a pass-over.
extension World {
    /// The daemon alarms alerting now whose ring time the oracle counts as a pass-over (OCC-3):
    /// a primary or seed of a root that came due while another root owned a live occurrence.
    func alertingPassOvers() -> [AlarmUUID] {
        guard let daemon = ios else { return [] }
        return daemon.alarms.filter { alarm in
            alarm.state == .alerting && alarm.metadata.kind.opensOccurrence
                && oracle.passedOver.contains { $0.rootID == alarm.metadata.rootID && $0.fireWallMs == alarm.nextFireWallMs }
                && !oracle.occurrences.contains { $0.startWallMs == alarm.nextFireWallMs && $0.tiedRoots.contains(alarm.metadata.rootID) }
        }.map(\.id)
    }

    /// After an iOS bridge step: a ready bridge handed an `alarmUpdates` set or a successful
    /// inventory read that lists a pass-over alerting has observed it, from now.
    func notePassOversObserved(_ input: BridgeInput, bridge: any BridgeUnderTest) {
        guard ios != nil, bridge.phase == .ready, !stopped else { return }
        let shown: [PlatformAlarm]
        switch input {
        case .alarmUpdates(let snapshot): shown = snapshot
        case .inventoryRead(_, .success(let inventory)): shown = inventory
        default: return
        }
        for id in alertingPassOvers() where shown.contains(where: { $0.id == id && $0.state == .alerting })
            && !passOversSeen.contains(where: { $0.id == id }) {
            passOversSeen.append((id, nowMs))
        }
    }

    /// OCC-3 on iOS: a pass-over the bridge was shown alerting is stopped by a request of that
    /// step, which completes within T_OP. One no ready bridge step has been shown yet (a
    /// suspended or dead app, updates held while locked) is AlarmKit's alone.
    func checkIOSPassOverSilenced() {
        guard ios != nil, !passOversSeen.isEmpty, !stopped else { return }
        let alerting = alertingPassOvers()
        passOversSeen.removeAll { !alerting.contains($0.id) }
        guard let late = passOversSeen.first(where: { nowMs - $0.sinceMs > setup.transitionBoundMs }),
              let alarm = ios?.alarm(late.id) else { return }
        violate("pass-over-silent", [], "\(alarm.metadata.rootID), due at \(wallText(alarm.nextFireWallMs)) while another root owned the wake occurrence, is still alerting \(HumanText.duration(nowMs - late.sinceMs)) after the bridge was shown it (ring \(late.id))")
    }
}

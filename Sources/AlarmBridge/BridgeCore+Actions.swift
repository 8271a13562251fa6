/// The action journal as JS reads it (ACT-1..7): platform actions are recorded natively when
/// they happen (`journal(_:action:now:)`), JS peeks at the newest unexpired one and acknowledges
/// it only after its work succeeded.
extension BridgeCore {
    /// API-7 `peekLastAlarmAction()`; ACT-2, ACT-3, ACT-7: the newest action by `occurredAtMs` (so an older action recorded
    /// later never hides a newer one) that is younger than the action lifetime. Reads only.
    func lastAlarmAction(now: BridgeInstants) -> ActionRecord? {
        guard let actions = document?.actions else { return nil }
        let live = actions.filter { now.wallMs - $0.occurredAtMs < configuration.actionLifetimeMs }
        return live.max { ($0.occurredAtMs, $0.alarmID) < ($1.occurredAtMs, $1.alarmID) }
    }

    /// API-8 `acknowledgeLastAlarmAction(alarmId, action, occurredAtMs)`; ACT-4: removes the stored action only when root, action and time all match, so an
    /// acknowledgement of an older action never clears a newer one.
    mutating func acknowledgeAlarmAction(alarmID: String, action: String, occurredAtMs: Int64,
                                         into out: inout [BridgeCommand]) {
        let matches = document?.actions.contains {
            $0.alarmID == alarmID && $0.action == action && $0.occurredAtMs == occurredAtMs
        } ?? false
        if defects.ackByAlarmID, document?.actions.contains(where: { $0.alarmID == alarmID }) == true {
            // Known defect (ACT-4, API-8): every stored action of the alarm goes, whatever its kind and time.
            mutate { $0.actions.removeAll { $0.alarmID == alarmID } }
            flush(into: &out)
            out.append(.reply(.actionAcknowledged(true)))
            return
        }
        if matches {
            mutate { document in
                document.actions.removeAll { $0.alarmID == alarmID && $0.action == action && $0.occurredAtMs == occurredAtMs }
            }
            flush(into: &out)
        }
        out.append(.reply(.actionAcknowledged(matches)))
    }
}

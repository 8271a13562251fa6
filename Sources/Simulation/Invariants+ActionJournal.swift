import AlarmBridge
import SimKernel

/// Candidate invariant 31 (`action-journal`, ACT-1..ACT-5, API-7, API-8): what enters the check
/// and what one step may do to the journal. The peek-time half is `jsGotLastAction` (World+Actions.swift).
extension World {
    /// After a step of a loaded bridge: every action its document gained in the step enters the
    /// journal check, matched by identity (root, action, `occurredAtMs`), not by the step's
    /// input or instant — the iOS bridge acts on a Stop only after its look-first daemon read
    /// (IOS-2), and on a journalled one once its store is readable (ACT-1), steps after the Stop
    /// arrived. A document just loaded brings no new action: its actions were recorded before.
    func noteRecordedActions(before: BridgeDocument?, after: BridgeDocument?) {
        guard let before, let actions = after?.actions, actions != before.actions else { return }
        for action in actions where !before.actions.contains(action) && !bridgeActions.contains(action) {
            bridgeActions.append(action)
            cover(.actionJournalChecked)
            if bridgeActions.count > 64 { bridgeActions.removeFirst() }
        }
    }

    /// Candidate invariant 31 within one step: a peek never changes the journal (ACT-3, API-7),
    /// and an acknowledgement removes at most the one action matching all three of its fields
    /// (ACT-4, API-8). An action past its 2 min lifetime may go in any step (ACT-2).
    func checkActionJournalStep(_ input: BridgeInput, before: BridgeDocument?, after: BridgeDocument?) {
        guard !stopped, let before, let after else { return }
        // Only a peek or an acknowledgement is judged (issue 20: the removed actions were
        // worked out for every step).
        switch input {
        case .api(.peekLastAlarmAction), .api(.acknowledgeLastAlarmAction): break
        default: return
        }
        let lifetime = configuration().actionLifetimeMs
        let removed = before.actions.filter { !after.actions.contains($0) && wallMs - $0.occurredAtMs < lifetime }
        switch input {
        case .api(.peekLastAlarmAction):
            guard let lost = removed.first else { return }
            violate("action-journal", [], "peekLastAlarmAction removed \(lost.action) on \(lost.alarmID) at \(wallText(lost.occurredAtMs)) from the journal; a peek never changes it")
        case .api(.acknowledgeLastAlarmAction(let alarmID, let action, let occurredAtMs)):
            let acknowledged = ActionRecord(alarmID: alarmID, action: action, occurredAtMs: occurredAtMs)
            guard let lost = removed.first(where: { $0 != acknowledged }) else { return }
            violate("action-journal", [], "acknowledging \(action) on \(alarmID) at \(wallText(occurredAtMs)) also removed \(lost.action) on \(lost.alarmID) at \(wallText(lost.occurredAtMs)); only the action matching all three fields goes")
        default:
            return
        }
    }
}

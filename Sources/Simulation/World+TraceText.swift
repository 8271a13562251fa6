import AlarmBridge

/// The text of a `bridge reply` trace event, without runtime reflection.
///
/// The trace has always recorded a reply as Swift's default description (`"\(reply)"`), and the
/// trace hash covers that text, so it must stay byte for byte the same. Building it through
/// `Mirror` cost about a tenth of a fuzz run (issue 8 profile: `scheduledAlarmTimes` replies
/// with every root and ring row); the frequent cases are written out here in the same format:
/// an enum case is `name(label: value, …)`; a struct `Module.Type(field: value, …)` with its
/// stored properties in declaration order; strings quoted as `debugDescription` does; optionals
/// `Optional(x)` or `nil`; enums without a custom description `Module.Type.case`. Every other
/// case falls back to the default description. Debug builds check each text against it.
enum ReplyText {
    static func text(_ reply: APIReply) -> String {
        let text: String
        switch reply {
        case .scheduledAlarmTimes(let times):
            text = "scheduledAlarmTimes(" + scheduledAlarmTimes(times) + ")"
        case .lastAlarmAction(let record):
            text = "lastAlarmAction(" + (record.map { "Optional(" + actionRecord($0) + ")" } ?? "nil") + ")"
        case .saved(let alarmID):
            text = "saved(alarmID: " + alarmID.debugDescription + ")"
        case .saveFailed(let alarmID, let reason):
            text = "saveFailed(alarmID: " + alarmID.debugDescription + ", reason: " + (saveFailureNames[reason] ?? String(reflecting: reason)) + ")"
        case .completed(let rootID, let accepted):
            text = "completed(rootID: " + rootID.debugDescription + ", accepted: " + String(accepted) + ")"
        case .actionAcknowledged(let acknowledged):
            text = "actionAcknowledged(" + String(acknowledged) + ")"
        default:
            text = "\(reply)"
        }
        assert(text == "\(reply)", "ReplyText differs from the default description: \(text) vs \(reply)")
        return text
    }

    static func scheduledAlarmTimes(_ times: ScheduledAlarmTimes) -> String {
        var text = "AlarmBridge.ScheduledAlarmTimes(roots: ["
        for (position, row) in times.roots.enumerated() {
            if position > 0 { text += ", " }
            text += "AlarmBridge.ScheduledRootRow(rootID: " + row.rootID.debugDescription
            text += ", alarmID: " + row.alarmID.debugDescription
            text += ", hour: " + String(row.hour) + ", minute: " + String(row.minute)
            text += ", weekday: " + (row.weekday.map { "Optional(" + $0.description + ")" } ?? "nil")
            text += ", title: " + row.title.debugDescription
            text += ", policy: " + (policyNames[row.policy] ?? String(reflecting: row.policy))
            text += ", enabled: " + String(row.enabled)
            text += ", primaryID: " + (row.primaryID.map { "Optional(" + $0.description + ")" } ?? "nil")
            text += ", nextFireWallMs: " + (row.nextFireWallMs.map { "Optional(" + String($0) + ")" } ?? "nil")
            text += ", registered: " + String(row.registered)
            text += ", foregroundSuppressed: " + String(row.foregroundSuppressed)
            text += ", inexact: " + String(row.inexact) + ")"
        }
        text += "], rings: ["
        for (position, row) in times.rings.enumerated() {
            if position > 0 { text += ", " }
            text += "AlarmBridge.ScheduledRingRow(ringID: " + row.ringID.description
            text += ", rootID: " + row.rootID.debugDescription
            text += ", kind: " + (ringKindNames[row.kind] ?? String(reflecting: row.kind))
            text += ", fireWallMs: " + String(row.fireWallMs)
            text += ", state: " + (stateNames[row.state] ?? String(reflecting: row.state)) + ")"
        }
        text += "], droppedCount: " + String(times.droppedCount) + ")"
        return text
    }

    static func actionRecord(_ record: ActionRecord) -> String {
        "AlarmBridge.ActionRecord(alarmID: " + record.alarmID.debugDescription + ", action: " + record.action.debugDescription
            + ", occurredAtMs: " + String(record.occurredAtMs) + ")"
    }

    // Enum names as `String(reflecting:)` prints them, computed once (reflection, but only here).
    // Looked up, never iterated, so no hash order reaches the trace.
    private static let ringKindNames = Dictionary(uniqueKeysWithValues: RingKind.allCases.map { ($0, String(reflecting: $0)) })
    private static let saveFailureNames = Dictionary(uniqueKeysWithValues: SaveFailureReason.allCases.map { ($0, String(reflecting: $0)) })
    private static let policyNames = Dictionary(uniqueKeysWithValues: [InactivityPolicy.v3, .v2, .legacy].map { ($0, String(reflecting: $0)) })
    private static let stateNames = Dictionary(uniqueKeysWithValues: [PlatformAlarm.State.scheduled, .countdown, .paused, .alerting]
        .map { ($0, String(reflecting: $0)) })
}

/// The text of a `plan action` trace event, without runtime reflection for the frequent cases:
/// the same bytes as the default description (`"\(action)"`), which the trace hash covers (see
/// ``ReplyText``). Debug builds check each text against it.
enum PlanActionText {
    static func text(_ action: PlanAction) -> String {
        let text: String
        switch action {
        case .appShowChallenge: text = "appShowChallenge"
        case .appPeekAction: text = "appPeekAction"
        case .appGetScheduledAlarmTimes: text = "appGetScheduledAlarmTimes"
        case .userLeaveApp: text = "userLeaveApp"
        case .userOpenApp: text = "userOpenApp"
        case .appSyncEnabledAlarms: text = "appSyncEnabledAlarms"
        case .faultProcessDeath: text = "faultProcessDeath"
        case .appChallengeInteraction: text = "appChallengeInteraction"
        case .userControlCenter: text = "userControlCenter"
        case .userCompleteChallenge: text = "userCompleteChallenge"
        case .appContextHeartbeat(let stint): text = "appContextHeartbeat(stint: " + String(stint) + ")"
        case .userEditTitle(let alarmID, let title):
            text = "userEditTitle(alarmID: " + alarmID.debugDescription + ", title: " + title.debugDescription + ")"
        default: text = bareName(action) ?? scalarPayloadText(action) ?? "\(action)"
        }
        assert(text == "\(action)", "PlanActionText differs from the default description: \(text) vs \(action)")
        return text
    }

    /// A case without payload: its name, as reflection prints it.
    static func bareName(_ action: PlanAction) -> String? {
        switch action {
        case .userUnlock: "userUnlock"
        case .userForceQuit: "userForceQuit"
        case .userSkipSnooze: "userSkipSnooze"
        case .appLaunch: "appLaunch"
        case .deviceReboot: "deviceReboot"
        case .userReinstall: "userReinstall"
        case .faultRevokeExactPermission: "faultRevokeExactPermission"
        case .faultGrantExactPermission: "faultGrantExactPermission"
        case .faultWrongInstantAlert: "faultWrongInstantAlert"
        case .faultOSUpdate: "faultOSUpdate"
        case .userAppUpdate: "userAppUpdate"
        case .faultForceStop: "faultForceStop"
        case .faultPlaybackFailure: "faultPlaybackFailure"
        case .userStartWalk: "userStartWalk"
        case .faultWorkoutLost: "faultWorkoutLost"
        case .userVolumeKey: "userVolumeKey"
        case .userLowerAlarmVolume: "userLowerAlarmVolume"
        case .userStartWakeUpCheck: "userStartWakeUpCheck"
        case .appReconcileStepTracking: "appReconcileStepTracking"
        case .userMuteBurst: "userMuteBurst"
        case .appResetAudibleCount: "appResetAudibleCount"
        default: nil
        }
    }

    /// A case whose payload is strings, numbers and flags, as reflection prints it (issue 20:
    /// reflection was 2–3 % of a campaign); nil for the rest.
    static func scalarPayloadText(_ action: PlanAction) -> String? {
        switch action {
        case .userStop(let alarmID): "userStop(alarmID: " + optional(alarmID) + ")"
        case .userEditTime(let alarmID, let hour, let minute):
            "userEditTime(alarmID: " + alarmID.debugDescription + ", hour: " + String(hour) + ", minute: " + String(minute) + ")"
        case .userDeleteAlarm(let alarmID): "userDeleteAlarm(alarmID: " + alarmID.debugDescription + ")"
        case .userSnooze(let delayMs, let doubleTap): "userSnooze(delayMs: " + String(delayMs) + ", doubleTap: " + String(doubleTap) + ")"
        case .userAbandon(let wrongAlarm): "userAbandon(wrongAlarm: " + String(wrongAlarm) + ")"
        case .faultScheduleFailure(let count): "faultScheduleFailure(count: " + String(count) + ")"
        case .faultInventoryReadFailure(let count): "faultInventoryReadFailure(count: " + String(count) + ")"
        case .faultDamagedStore(let ms): "faultDamagedStore(ms: " + String(ms) + ")"
        case .faultCapacity(let limit): "faultCapacity(" + String(limit) + ")"
        case .faultCoalesceUpdates(let on): "faultCoalesceUpdates(" + String(on) + ")"
        case .deviceTimeZone(let zone): "deviceTimeZone(" + zone.debugDescription + ")"
        case .deviceSetClock(let deltaMs): "deviceSetClock(deltaMs: " + String(deltaMs) + ")"
        case .deviceSilentMode(let on): "deviceSilentMode(" + String(on) + ")"
        case .faultOSRemovesAlarm(let alarmID): "faultOSRemovesAlarm(alarmID: " + optional(alarmID) + ")"
        case .faultLateDelivery(let ms): "faultLateDelivery(ms: " + String(ms) + ")"
        case .faultGhostAlert(let ms): "faultGhostAlert(ms: " + String(ms) + ")"
        case .deviceDoze(let on): "deviceDoze(" + String(on) + ")"
        case .deviceCharging(let on): "deviceCharging(" + String(on) + ")"
        case .faultAppStateWriteFailure(let count): "faultAppStateWriteFailure(count: " + String(count) + ")"
        case .appCancelSystemAlarms(let alarmID): "appCancelSystemAlarms(alarmID: " + alarmID.debugDescription + ")"
        case .userWalk(let steps): "userWalk(steps: " + String(steps) + ")"
        case .userAppSwitcher(let afterMs): "userAppSwitcher(backgroundAfterMs: " + String(afterMs) + ")"
        case .userSetHealthAccess(let granted): "userSetHealthAccess(" + String(granted) + ")"
        case .appStartBurst(let alarmID): "appStartBurst(alarmID: " + optional(alarmID) + ")"
        case .appRecordAudible(let alarmID): "appRecordAudible(alarmID: " + optional(alarmID) + ")"
        default: nil
        }
    }

    /// `Optional("a1")` or `nil`, as reflection prints an optional string.
    static func optional(_ text: String?) -> String {
        text.map { "Optional(" + $0.debugDescription + ")" } ?? "nil"
    }
}

import AlarmBridge
@testable import Simulation
import Testing

/// The trace's hand-written texts (issue 20: reflection was 2–3 % of a campaign) must be exactly
/// what reflection prints, or every trace hash would change. Checked in release builds too, where
/// the `assert` inside ``PlanActionText/text(_:)`` is compiled out.
@Suite("Trace text: hand-written action texts equal reflection's")
struct TraceTextTests {
    static let actions: [PlanAction] = [
        .userStop(alarmID: nil), .userStop(alarmID: "a1"), .userStop(alarmID: "quote\"d"),
        .userUnlock, .userForceQuit, .userSkipSnooze, .appLaunch, .deviceReboot, .userReinstall,
        .faultRevokeExactPermission, .faultGrantExactPermission, .faultWrongInstantAlert, .faultOSUpdate,
        .userAppUpdate, .faultForceStop, .faultPlaybackFailure, .userStartWalk, .faultWorkoutLost,
        .userVolumeKey, .userLowerAlarmVolume, .userStartWakeUpCheck, .appReconcileStepTracking,
        .userMuteBurst, .appResetAudibleCount,
        .userEditTime(alarmID: "a2", hour: 7, minute: 5), .userDeleteAlarm(alarmID: "a3"),
        .userSnooze(delayMs: 300_000, doubleTap: true), .userSnooze(delayMs: -1, doubleTap: false),
        .userAbandon(wrongAlarm: true), .faultScheduleFailure(count: 2), .faultInventoryReadFailure(count: 0),
        .faultDamagedStore(ms: 90_000), .faultCapacity(5), .faultCoalesceUpdates(true), .deviceTimeZone("Europe/Berlin"),
        .deviceSetClock(deltaMs: -600_000), .deviceSilentMode(false), .faultOSRemovesAlarm(alarmID: nil),
        .faultOSRemovesAlarm(alarmID: "a1"), .faultLateDelivery(ms: 1_500), .faultGhostAlert(ms: 30_000),
        .deviceDoze(true), .deviceCharging(false), .faultAppStateWriteFailure(count: 3),
        .appCancelSystemAlarms(alarmID: "a\u{1B}b"), .userWalk(steps: 40), .userAppSwitcher(backgroundAfterMs: 4_000),
        .userSetHealthAccess(true), .appStartBurst(alarmID: nil), .appStartBurst(alarmID: "a9"),
        .appRecordAudible(alarmID: "a1"), .appRecordAudible(alarmID: nil),
        .appContextHeartbeat(stint: 3), .userEditTitle(alarmID: "a1", title: "Wake\nup"), .appShowChallenge,
    ]

    @Test("every hand-written case prints as reflection does")
    func handWrittenEqualsReflection() {
        for action in Self.actions {
            #expect(PlanActionText.text(action) == "\(action)")
        }
    }

    @Test("the hand-written tables cover the cases they claim and no complex payload")
    func tablesAnswerOnlyTheirCases() {
        #expect(PlanActionText.bareName(.userStop(alarmID: nil)) == nil)
        #expect(PlanActionText.scalarPayloadText(.userUnlock) == nil)
        #expect(PlanActionText.scalarPayloadText(.appSyncEnabledAlarms) == nil)
        #expect(Self.actions.allSatisfy { action in
            PlanActionText.bareName(action) != nil || PlanActionText.scalarPayloadText(action) != nil
                || PlanActionText.text(action) == "\(action)"
        })
    }
}

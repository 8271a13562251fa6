import AlarmBridge
import SimKernel

/// Power management as AlarmManager sees it (issue 18 part 2): Battery Saver, the app's uid
/// becoming active or idle, its battery-usage setting, and PendingIntents cancelled outside
/// AlarmManager. Each cites the AOSP AlarmManagerServiceTest method it mirrors.
extension AlarmManagerModel {
    /// Battery Saver is switched on or off (PowerManager low-power mode → AppStateTracker
    /// `updateForceAllAppsStandby` → AMS listener `updateAllAlarms`): every alarm's Battery Saver
    /// policy time is re-evaluated and what is due now is delivered. AOSP AlarmManagerServiceTest
    /// `batterySaverThrottling`.
    public mutating func setBatterySaver(_ on: Bool, now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        guard on != batterySaverOn else { return effects }
        batterySaverOn = on
        effects.append(.trace("battery-saver", [TraceField("on", String(on))]))
        return effects + runKernelAlarm()
    }

    /// The app's uid becomes active (the app comes to the foreground) or idle (it leaves).
    /// Active: Battery Saver no longer restricts it (`areAlarmsRestrictedByBatterySaver`), and
    /// alarms forced app standby held are sent (AppStateTracker `unblockAlarmsForUid` → AMS
    /// `sendPendingBackgroundAlarmsLocked`; AOSP `testAlarmRestrictedByFAS`). Idle: an app whose
    /// start mode is disabled loses its alarms (``uidWentIdle()``).
    public mutating func setAppActive(_ active: Bool, now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        guard active != appActive else { return effects }
        appActive = active
        effects.append(.trace("uid-" + (active ? "active" : "idle"), []))
        if !active { effects += uidWentIdle() }
        return effects + runKernelAlarm()
    }

    /// The user changes the app's battery usage in Settings (Unrestricted / Optimized / Restricted):
    /// alarms already set keep the flags they were set with (AMS fixes them in `set`); Battery Saver
    /// and forced-app-standby holds are re-evaluated at once (AppStateTracker listener
    /// `updateAlarmsForUid` / `unblockAlarmsForUid`).
    public mutating func setBatteryUsage(_ usage: AppBatteryUsage, now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        guard usage != parameters.batteryUsage else { return effects }
        parameters.batteryUsage = usage
        effects.append(.trace("battery-usage", [TraceField("usage", usage.rawValue)]))
        return effects + runKernelAlarm()
    }

    /// The uid went idle or gone: with the app's start mode disabled (an instant app), AppStateTracker
    /// calls the AMS listener `removeAlarmsForUid` → `removeForStoppedLocked`, which removes every
    /// alarm of the uid (AOSP AlarmManagerServiceTest `alarmsRemovedOnAppStartModeDisabled`).
    mutating func uidWentIdle() -> [AlarmManagerEffect] {
        appActive = false
        guard parameters.appStartModeDisabled else { return [] }
        let removed = removeAlarms { _ in true }
        return [.trace("alarms-removed-start-mode-disabled", [TraceField("removed", String(removed))])]
    }

    /// `PendingIntent.cancel()` on the alarm's PendingIntent, outside AlarmManager.
    ///
    /// - Parameter noticed: true: AMS's cancel listener removes the alarm at once (`REMOVE_FOR_CANCELED`
    ///   → `removeLocked(pi, REMOVE_REASON_PI_CANCELLED)`; AOSP `alarmCountOnRemoveForCanceled`).
    ///   false: the cancel lands while AMS still holds the alarm, so its `send` throws
    ///   CanceledException at delivery: nothing is delivered, the alarm (a repeating one too) is
    ///   removed and no quota counts it (AMS `DeliveryTracker.deliverLocked`; AOSP
    ///   `alarmCountOnExceptionWhileSendingPi`, `alarmCountForRepeatingAlarms`).
    /// - Returns: A trace; no callback reaches the app.
    public mutating func pendingIntentCancelled(_ id: AlarmUUID, noticed: Bool) -> [AlarmManagerEffect] {
        let field = TraceField("id", id.description)
        if noticed {
            let removed = removeAlarms { $0.id == id }
            return [.trace("pending-intent-cancelled", [field, TraceField("removed", String(removed))])] + rearmKernelAlarm()
        }
        for index in pending.indices where pending[index].id == id { pending[index].intentCancelled = true }
        return [.trace("pending-intent-cancelled-unnoticed", [field])]
    }
}

import AlarmBridge
import SimKernel

/// Device state the scheduler reacts to: doze, screen, charging, standby bucket, clock and zone
/// changes, permissions, force-stop, updates, boot and storage.
extension AlarmManagerModel {
    // MARK: - Doze

    /// The device enters deep doze (screen off, unplugged, stationary): the first idle period
    /// starts, ending early before the next alarm clock (AMS `adjustIdleUntilTime`).
    ///
    /// - Returns: No effect but a trace when the screen is on, the device charges or it already dozes.
    public mutating func enterDoze(now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        guard doze == .inactive, !screenOn, !charging else {
            return effects + [.trace("doze-refused", [TraceField("screenOn", String(screenOn)), TraceField("charging", String(charging))])]
        }
        startIdle(period: 0)
        effects.append(.trace("doze-idle", dozeFields()))
        return effects + rearmKernelAlarm()
    }

    /// The device leaves doze (motion, screen on, charger): deferred alarms become due at once.
    public mutating func exitDoze(now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        guard doze != .inactive else { return effects }
        doze = .inactive
        effects.append(.trace("doze-exit", []))
        return effects + runKernelAlarm()
    }

    /// Starts idle period `period` now, pulled before the next alarm clock.
    mutating func startIdle(period: Int) {
        let periods = parameters.dozeIdlePeriodsMs
        precondition(!periods.isEmpty, "dozeIdlePeriodsMs must not be empty")
        let length = periods[min(period, periods.count - 1)]
        dozeNominalUntilMs = now.elapsedRealtimeMs + length
        doze = .idle(untilElapsedMs: dozeNominalUntilMs, period: period)
        readjustIdleUntil()
    }

    /// AMS `adjustIdleUntilTime`: when the next alarm clock (`mNextWakeFromIdle`) is due no earlier
    /// than MIN_DEVICE_IDLE_FUZZ before the requested end of idle, idle ends at that alarm clock
    /// minus a uniform fuzz in [MIN, min(MAX, futurity)] — or now when futurity ≤ MIN.
    mutating func readjustIdleUntil() {
        guard case .idle(_, let period) = doze else { return }
        var until = dozeNominalUntilMs
        let nowElapsed = now.elapsedRealtimeMs
        let wakeFromIdle = pending.filter { $0.method == .setAlarmClock }.map(\.whenElapsedMs).min()
        if let upcoming = wakeFromIdle, until >= upcoming - parameters.minDeviceIdleFuzzMs {
            let futurity = upcoming - nowElapsed
            if futurity <= parameters.minDeviceIdleFuzzMs {
                until = nowElapsed
            } else {
                let fuzz = random.int(in: parameters.minDeviceIdleFuzzMs...min(parameters.maxDeviceIdleFuzzMs, futurity))
                until = upcoming - fuzz
            }
        }
        doze = .idle(untilElapsedMs: until, period: period)
    }

    /// Moves doze on when its boundary has come: idle → maintenance (a wakeup that flushes held
    /// alarms), maintenance → the next, longer idle period.
    /// - Returns: Whether this step is a maintenance wakeup.
    mutating func stepDoze(_ effects: inout [AlarmManagerEffect]) -> Bool {
        let nowElapsed = now.elapsedRealtimeMs
        switch doze {
        case .inactive:
            return false
        case .idle(let until, let period):
            guard until <= nowElapsed else { return false }
            doze = .maintenance(untilElapsedMs: nowElapsed + parameters.dozeMaintenanceWindowMs, period: period)
            effects.append(.trace("doze-maintenance", dozeFields()))
            return true
        case .maintenance(let until, let period):
            guard until <= nowElapsed else { return false }
            startIdle(period: period + 1)
            effects.append(.trace("doze-idle", dozeFields()))
            return false
        }
    }

    func dozeFields() -> [TraceField] {
        switch doze {
        case .inactive: return []
        case .idle(let until, let period), .maintenance(let until, let period):
            return [TraceField("untilElapsed", String(until)), TraceField("period", String(period))]
        }
    }

    // MARK: - Screen, charging, standby bucket

    /// The screen turns on or off. On: doze ends and held non-wakeup alarms are delivered
    /// (AMS `interactiveStateChangedLocked`); SCREEN_ON / SCREEN_OFF reach a running process only.
    public mutating func setScreen(on: Bool, now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        guard on != screenOn else { return effects }
        screenOn = on
        effects.append(.broadcast(on ? .screenOn : .screenOff, launch: nil))
        if on && doze != .inactive {
            doze = .inactive
            effects.append(.trace("doze-exit", [TraceField("reason", "screen-on")]))
        }
        return effects + (on ? runKernelAlarm() : rearmKernelAlarm())
    }

    /// The charger is connected or removed. Charging ends doze and lifts standby-bucket quotas
    /// (AMS `mAppStandbyParole`).
    public mutating func setCharging(_ charging: Bool, now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        guard charging != self.charging else { return effects }
        self.charging = charging
        if charging && doze != .inactive {
            doze = .inactive
            effects.append(.trace("doze-exit", [TraceField("reason", "charging")]))
        }
        effects.append(.trace("charging", [TraceField("on", String(charging))]))
        return effects + runKernelAlarm()
    }

    /// UsageStats moves the app to another standby bucket (AMS `reorderAlarmsBasedOnStandbyBuckets`).
    public mutating func setStandbyBucket(_ bucket: StandbyBucket, now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        standbyBucket = bucket
        effects.append(.trace("standby-bucket", [TraceField("bucket", bucket.rawValue)]))
        return effects + runKernelAlarm()
    }

    // MARK: - Clock and zone

    /// The user or network time sets the wall clock to `wallMs` (a jump > 1 s is a time change).
    public mutating func setTime(wallMs: Int64, now: AndroidInstant) -> [AlarmManagerEffect] {
        observe(AndroidInstant(elapsedRealtimeMs: now.elapsedRealtimeMs, wallMs: wallMs))
    }

    /// AMS `reevaluateRtcAlarms` + TIME_SET: RTC alarms are recomputed from their wall time (no
    /// floor: a time now in the past is due at once); ELAPSED alarms do not move.
    mutating func wallClockChanged(jumpMs: Int64) -> [AlarmManagerEffect] {
        for index in pending.indices where pending[index].type.isWallClock {
            pending[index].whenElapsedMs = pending[index].requestedTriggerMs - wallMinusElapsedMs
        }
        var effects: [AlarmManagerEffect] = [.trace("time-set", [TraceField("jumpMs", String(jumpMs))])]
        effects += sendBroadcast(.timeSet, launch: .broadcast)
        if doze != .inactive { readjustIdleUntil() }
        effects += runKernelAlarm()
        return effects
    }

    /// The device's time zone is set to `zoneID` (AMS `setTimeZoneImpl`): TIMEZONE_CHANGED only
    /// when the id changes. RTC alarms are UTC instants and do not move; a DST transition changes
    /// no zone id and sends nothing.
    public mutating func setTimeZone(_ zoneID: String) -> [AlarmManagerEffect] {
        guard zoneID != timeZoneID else { return [.trace("timezone-unchanged", [TraceField("zone", zoneID)])] }
        timeZoneID = zoneID
        return sendBroadcast(.timezoneChanged(zoneID), launch: .broadcast)
    }

    /// A broadcast to the app; a force-stopped app receives none (stopped state), nor an app
    /// without a manifest receiver for it, nor — before the first unlock — one whose receivers
    /// are not direct-boot aware (AND-1).
    func sendBroadcast(_ broadcast: AndroidBroadcast, launch: LaunchReason?) -> [AlarmManagerEffect] {
        guard !forceStopped else { return [.trace("broadcast-blocked-stopped", [TraceField("action", broadcast.action)])] }
        if let blocked = manifestBlocks(broadcast.action) { return [blocked] }
        return [.broadcast(broadcast, launch: launch)]
    }

    /// AND-1: the trace of a broadcast the app's declared manifest keeps from it, nil when it is
    /// delivered. Context-registered broadcasts (SCREEN_ON/OFF) need no manifest entry.
    func manifestBlocks(_ action: String) -> AlarmManagerEffect? {
        let manifest = parameters.manifest
        let declared: Bool
        switch action {
        case AndroidAppManifest.myPackageReplaced: declared = manifest.receivesPackageReplaced
        case AndroidAppManifest.timeSet: declared = manifest.receivesTimeSet
        case AndroidAppManifest.timezoneChanged: declared = manifest.receivesTimezoneChanged
        case "SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED", AndroidAppManifest.exactAlarmPermissionChanged:
            declared = manifest.receivesExactAlarmPermissionChanged
        default: return nil
        }
        if !declared { return .trace("broadcast-no-receiver", [TraceField("action", action)]) }
        if !userUnlocked && !manifest.directBootAware {
            return .trace("broadcast-before-unlock-not-direct-boot-aware", [TraceField("action", action)])
        }
        return nil
    }

    /// A bridge input delivered as a broadcast; a force-stopped app receives none.
    func sendToApp(_ input: BridgeInput, launch: LaunchReason?, action: String) -> [AlarmManagerEffect] {
        guard !forceStopped else { return [.trace("broadcast-blocked-stopped", [TraceField("action", action)])] }
        if let blocked = manifestBlocks(action) { return [blocked] }
        return [.toApp(input, launch: launch)]
    }

    // MARK: - Exact-alarm permission

    /// The user revokes SCHEDULE_EXACT_ALARM in Settings (app-op). If it governs the app (declared
    /// for this API level and no USE_EXACT_ALARM on 33+, whose holders' app-op changes AMS ignores),
    /// every exact alarm (setExact*, setAlarmClock) is removed and the process is killed, with no
    /// broadcast (AMS `removeExactAlarmsOnPermissionRevoked`).
    ///
    /// An app on the power allowlist loses the app-op but nothing else: AMS
    /// `removeExactAlarmsOnPermissionRevoked` returns early for `isExemptFromExactAlarmPermissionNoLock`,
    /// so no alarm is removed and the process lives (AOSP AlarmManagerServiceTest
    /// `removeExactAlarmsOnPermissionRevoked` checks `isAppOnWhitelist`; `canScheduleExactAlarmsBinderCall`).
    public mutating func revokeExactAlarmPermission() -> [AlarmManagerEffect] {
        guard parameters.exactAlarmAppOpGoverns else {
            return [.trace("exact-permission-revoke-ignored", [TraceField("useExactAlarm", String(holdsUseExactAlarm))])]
        }
        if parameters.batteryUsage.onPowerAllowlist {
            exactAlarmPermission = false
            return [.trace("exact-permission-revoked-allowlisted", [TraceField("usage", parameters.batteryUsage.rawValue)])]
        }
        exactAlarmPermission = false
        let removed = removeAlarms { $0.method.isExact }
        if removed == 0 { changeCounter += 1 }
        return processDied() + [.killProcess, .trace("exact-permission-revoked", [])] + rearmKernelAlarm()
    }

    /// The user grants SCHEDULE_EXACT_ALARM: ACTION_SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED
    /// (launches the receiver). Without a declaration there is no toggle to grant.
    public mutating func grantExactAlarmPermission() -> [AlarmManagerEffect] {
        guard scheduleExactAlarmDeclared else { return [.trace("exact-permission-grant-ignored", [])] }
        exactAlarmPermission = true
        return sendToApp(.exactAlarmPermissionGranted, launch: .broadcast, action: "SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED")
            + [.trace("exact-permission-granted", [])]
    }

    // MARK: - Force-stop, recents, update

    /// Settings → Force stop [limit]: every alarm of the app removed, the process killed, and the
    /// app put in the stopped state: no broadcast (boot included) until the user launches it (AMS
    /// `removeLocked(uid)` on ACTION_PACKAGE_RESTARTED; PLATFORMS.md "force-stop"). The same
    /// receiver clears the app's standby and allow-while-idle histories (AMS `UninstallReceiver`:
    /// `mAppWakeupHistory.removeForPackage`, `mAllowWhileIdleHistory.removeForPackage`), so the
    /// quotas start afresh.
    public mutating func forceStop(now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        let removed = removeAlarms { _ in true }
        droppedAlarms = []
        standbyHistory = []
        allowWhileIdleHistory = []
        allowWhileIdleCompatHistory = []
        forceStopped = true
        effects += processDied()
        effects += [.processKilled(.forceStop), .trace("force-stopped", [TraceField("removed", String(removed))])]
        return effects + rearmKernelAlarm()
    }

    /// The user swipes the app away in recents. AOSP: the host kills the process (this call ends the
    /// ringing service and keeps every alarm). OEMs that treat it as force-stop
    /// (`swipeFromRecentsForceStops`; notifee#126): `forceStop(now:)`.
    public mutating func swipedFromRecents(now: AndroidInstant) -> [AlarmManagerEffect] {
        if parameters.swipeFromRecentsForceStops { return forceStop(now: now) }
        return observe(now) + processDied() + [.trace("swiped-from-recents", [])]
    }

    /// The user launches the app: it leaves the stopped state. API 35 then sends BOOT_COMPLETED
    /// (Android 15 behaviour changes, "stopped state"; PLATFORMS.md).
    public mutating func appLaunchedByUser() -> [AlarmManagerEffect] {
        guard forceStopped else { return [] }
        forceStopped = false
        var effects: [AlarmManagerEffect] = [.trace("unstopped", [])]
        if parameters.apiLevel >= 35 && parameters.manifest.receivesBootCompleted {
            effects.append(.toApp(.bootCompleted(locked: false), launch: .broadcast))
        }
        return effects
    }

    /// The app is updated (ACTION_PACKAGE_REPLACED): the process is killed; AOSP keeps the alarms,
    /// except exact ones when the new manifest loses the exact-alarm permission; OEMs with
    /// `updateClearsAlarms` drop them all; then MY_PACKAGE_REPLACED launches the app.
    ///
    /// - Parameter manifest: The new version's manifest; nil keeps the current one.
    public mutating func packageReplaced(manifest: AndroidManifestDeclarations? = nil, now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        let couldScheduleExact = canScheduleExactAlarms
        if let manifest { parameters.manifest = manifest }
        var removed = 0
        if parameters.updateClearsAlarms {
            removed = removeAlarms { _ in true }
        } else if couldScheduleExact && !canScheduleExactAlarms {
            removed = removeAlarms { $0.method.isExact }
        }
        effects += processDied()
        effects += [.processKilled(.packageUpdate), .trace("package-replaced", [TraceField("removed", String(removed))])]
        effects += sendBroadcast(.myPackageReplaced, launch: .broadcast)
        return effects + rearmKernelAlarm()
    }

    // MARK: - Boot and storage

    /// Reboot: every alarm is cleared (AlarmManager reference); the ringing service dies.
    public mutating func shutdown() -> [AlarmManagerEffect] {
        let effects = processDied()
        pending = []
        droppedAlarms = []  // the PendingIntents die with the system too
        setsSinceBoot = 0
        changeCounter += 1
        poweredOn = false
        doze = .inactive
        kernelAlarmElapsedMs = nil
        kernelAlarmToken += 1
        standbyHistory = []
        allowWhileIdleHistory = []
        allowWhileIdleCompatHistory = []
        return effects
    }

    /// Power on: elapsedRealtime restarts at 0; the user is locked until the first unlock;
    /// LOCKED_BOOT_COMPLETED follows after `lockedBootBroadcastDelayMs`.
    public mutating func boot() -> [AlarmManagerEffect] {
        poweredOn = true
        userUnlocked = false
        clockAnchored = false
        lastTimeChange = nil  // AMS restarts with mLastTimeChangeClockTime = 0
        now = AndroidInstant(elapsedRealtimeMs: 0, wallMs: now.wallMs)
        return [.later(.lockedBootBroadcast, afterMs: parameters.lockedBootBroadcastDelayMs)]
    }

    /// LOCKED_BOOT_COMPLETED: only to a direct-boot-aware boot receiver of a non-stopped app
    /// (developer.android.com/privacy-and-security/direct-boot).
    mutating func lockedBootCompleted() -> [AlarmManagerEffect] {
        guard poweredOn else { return [] }
        let manifest = parameters.manifest
        guard manifest.receivesBootCompleted && manifest.directBootAware else {
            return [.trace("locked-boot-not-delivered", [TraceField("directBootAware", String(manifest.directBootAware))])]
        }
        return sendToApp(.bootCompleted(locked: true), launch: .broadcast, action: "LOCKED_BOOT_COMPLETED")
    }

    /// The first unlock after boot: BOOT_COMPLETED (boot receiver, not while stopped) and USER_UNLOCKED
    /// (to a running process). Does not record the unlock: see `unlockAfterBoot()`.
    public func firstUnlock() -> [AlarmManagerEffect] {
        var effects: [AlarmManagerEffect] = []
        if parameters.manifest.receivesBootCompleted {
            effects += sendToApp(.bootCompleted(locked: false), launch: .broadcast, action: "BOOT_COMPLETED")
        } else {
            effects.append(.trace("broadcast-no-receiver", [TraceField("action", AndroidAppManifest.bootCompleted)]))
        }
        return effects + [.toApp(.protectedDataAvailable, launch: nil)]
    }

    /// The first unlock after boot, recorded: credential-protected storage becomes readable; the
    /// broadcasts of `firstUnlock()`.
    public mutating func unlockAfterBoot() -> [AlarmManagerEffect] {
        guard !userUnlocked else { return [] }
        userUnlocked = true
        return firstUnlock()
    }

    /// Whether the app can read `area` now: device-protected storage always (direct boot),
    /// credential-protected storage only after the first unlock since boot
    /// (developer.android.com/privacy-and-security/direct-boot). Also answers for a boot receiver.
    public func isReadable(_ area: AndroidStorageArea) -> Bool {
        switch area {
        case .deviceProtected: return poweredOn
        case .credentialProtected: return poweredOn && userUnlocked
        }
    }
}

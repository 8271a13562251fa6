import AlarmBridge
import SimKernel

/// Named parameters of the AlarmManager-like scheduler.
public struct AlarmManagerParameters: Sendable, Equatable {
    /// Delay from boot to LOCKED_BOOT_COMPLETED (undocumented; drawn per seed).
    public var lockedBootBroadcastDelayMs: Int64 = 3_000
    /// API level of the device (31/32: SCHEDULE_EXACT_ALARM revocable; 33+: USE_EXACT_ALARM).
    public var apiLevel: Int = 34
    public init() {}
}

/// One pending alarm: a PendingIntent identified by its request code.
public struct PendingAlarm: Sendable, Equatable {
    public var id: AlarmUUID
    public var requestCode: Int32
    public var triggerWallMs: Int64
    public var metadata: RingMetadata
    public var generation: UInt64
}

public enum AlarmManagerEvent: Sendable, Equatable {
    case fire(AlarmUUID, generation: UInt64)
    case lockedBootBroadcast
}

public enum AlarmManagerEffect: Sendable, Equatable {
    /// Deliver to the app process; `launch` non-nil starts it (manifest receivers), nil drops it
    /// when no process runs.
    case toApp(BridgeInput, launch: LaunchReason?)
    case later(AlarmManagerEvent, afterMs: Int64)
    case alertStarted(AlarmUUID, RingMetadata)
    case alertEnded(AlarmUUID, RingMetadata)
    /// The system kills the app process (exact-alarm permission revoked).
    case killProcess
    case trace(String, [TraceField])
}

/// An AlarmManager-like scheduler plus the app's ringing service (first cut; issue 4 deepens it).
///
/// Modelled, with sources (AOSP `AlarmManagerService`, developer.android.com): exact alarms via
/// `setAlarmClock` on `RTC_WAKEUP` (never deferred by doze); the same PendingIntent (request code)
/// replaces the old alarm; a delivered alarm is gone; reboot clears every alarm; boot sends
/// LOCKED_BOOT_COMPLETED to direct-boot-aware receivers and BOOT_COMPLETED + USER_UNLOCKED after
/// the first unlock; revoking SCHEDULE_EXACT_ALARM removes every exact alarm of the app and kills
/// its process with no broadcast, a grant sends ACTION_SCHEDULE_EXACT_ALARM_PERMISSION_STATE_CHANGED;
/// scheduling without the permission throws SecurityException. The ringing service lives in the
/// app process: process death silences it.
///
/// Not yet modelled (issue 4): inexact/`set`/`setWindow`, the 5 s floor, doze and its quotas,
/// standby buckets, the 500-alarm limit, force-stop, app update, OEM behaviour, equal-time order.
public struct AlarmManagerModel: Sendable {
    public var parameters: AlarmManagerParameters
    /// Sorted by request code.
    public private(set) var pending: [PendingAlarm] = []
    /// Rings the app's ringing service is playing (audible), sorted.
    public private(set) var ringing: [AlarmUUID] = []
    var ringingMetadata: [RingMetadata] = []
    public private(set) var exactAlarmPermission = true
    public private(set) var poweredOn = true
    public var failNextSchedules = 0
    public var failNextReads = 0
    public private(set) var changeCounter: UInt64 = 0

    public init(parameters: AlarmManagerParameters) {
        self.parameters = parameters
    }

    public func alarm(_ id: AlarmUUID) -> PendingAlarm? { pending.first { $0.id == id } }

    public func ringingMetadata(_ id: AlarmUUID) -> RingMetadata? {
        ringing.firstIndex(of: id).map { ringingMetadata[$0] }
    }

    /// `canScheduleExactAlarms()`.
    public var canScheduleExactAlarms: Bool { exactAlarmPermission }

    /// `setAlarmClock(AlarmClockInfo(triggerAtMillis), PendingIntent)`: synchronous.
    public mutating func setAlarmClock(_ request: RingRequest, nowWallMs: Int64) -> [AlarmManagerEffect] {
        guard canScheduleExactAlarms else {
            return [.toApp(.scheduleCompleted(request.id, .failure(.securityException)), launch: nil),
                    .trace("security-exception", [TraceField("id", request.id.description)])]
        }
        if failNextSchedules > 0 {
            failNextSchedules -= 1
            return [.toApp(.scheduleCompleted(request.id, .failure(.writeFailed)), launch: nil),
                    .trace("schedule-failed", [TraceField("id", request.id.description)])]
        }
        let code = RingIdentity.requestCode(of: request.id)
        pending.removeAll { $0.requestCode == code }  // the same PendingIntent replaces
        changeCounter += 1
        let alarm = PendingAlarm(id: request.id, requestCode: code, triggerWallMs: request.fireWallMs,
                                 metadata: request.metadata, generation: changeCounter)
        pending.append(alarm)
        pending.sort { $0.requestCode < $1.requestCode }
        return [.later(.fire(alarm.id, generation: alarm.generation), afterMs: max(0, alarm.triggerWallMs - nowWallMs)),
                .toApp(.scheduleCompleted(request.id, .success(alarm.triggerWallMs)), launch: nil),
                .trace("set-alarm-clock", [TraceField("id", request.id.description), TraceField("code", String(code)),
                                           TraceField("trigger", String(alarm.triggerWallMs))])]
    }

    /// `AlarmManager.cancel(PendingIntent)`.
    public mutating func cancel(_ id: AlarmUUID) -> [AlarmManagerEffect] {
        let existed = pending.contains { $0.id == id }
        pending.removeAll { $0.id == id }
        if existed { changeCounter += 1 }
        return [.toApp(.cancelCompleted(id, existed ? .success(0) : .failure(.notFound)), launch: nil),
                .trace("cancelled", [TraceField("id", id.description), TraceField("existed", String(existed))])]
    }

    /// PendingIntent existence probes over the app's request codes.
    public mutating func readPending() -> Result<[PlatformAlarm], PlatformError> {
        if failNextReads > 0 {
            failNextReads -= 1
            return .failure(.readFailed)
        }
        return .success(pending.map { PlatformAlarm(id: $0.id, state: .scheduled) }.sorted { $0.id < $1.id })
    }

    public mutating func startRinging(_ id: AlarmUUID, metadata: RingMetadata) -> [AlarmManagerEffect] {
        guard !ringing.contains(id) else { return [] }
        ringing.append(id)
        ringingMetadata.append(metadata)
        return [.alertStarted(id, metadata), .trace("ringing", [TraceField("id", id.description)])]
    }

    public mutating func stopRinging(_ id: AlarmUUID) -> [AlarmManagerEffect] {
        guard let index = ringing.firstIndex(of: id) else {
            return [.toApp(.stopCompleted(id, .failure(.notFound)), launch: nil)]
        }
        let metadata = ringingMetadata[index]
        ringing.remove(at: index)
        ringingMetadata.remove(at: index)
        return [.alertEnded(id, metadata), .toApp(.stopCompleted(id, .success(0)), launch: nil),
                .trace("ringing-stopped", [TraceField("id", id.description)])]
    }

    /// The app process died: its ringing service goes with it.
    public mutating func processDied() -> [AlarmManagerEffect] {
        var effects: [AlarmManagerEffect] = []
        for (index, id) in ringing.enumerated() {
            effects.append(.alertEnded(id, ringingMetadata[index]))
        }
        ringing = []
        ringingMetadata = []
        return effects
    }

    public mutating func handle(_ event: AlarmManagerEvent) -> [AlarmManagerEffect] {
        switch event {
        case .fire(let id, let generation):
            guard poweredOn, let alarm = alarm(id), alarm.generation == generation else { return [] }
            pending.removeAll { $0.id == id }
            changeCounter += 1
            return [.toApp(.alarmDelivered(id), launch: .broadcast),
                    .trace("delivered", [TraceField("id", id.description)])]
        case .lockedBootBroadcast:
            guard poweredOn else { return [] }
            return [.toApp(.bootCompleted(locked: true), launch: .broadcast)]
        }
    }

    /// Reboot: every alarm is cleared (AlarmManager reference).
    public mutating func shutdown() -> [AlarmManagerEffect] {
        let effects = processDied()
        pending = []
        changeCounter += 1
        poweredOn = false
        return effects
    }

    public mutating func boot() -> [AlarmManagerEffect] {
        poweredOn = true
        return [.later(.lockedBootBroadcast, afterMs: parameters.lockedBootBroadcastDelayMs)]
    }

    /// The first unlock after boot: BOOT_COMPLETED and USER_UNLOCKED.
    public func firstUnlock() -> [AlarmManagerEffect] {
        [.toApp(.bootCompleted(locked: false), launch: .broadcast), .toApp(.protectedDataAvailable, launch: nil)]
    }

    /// The user revokes SCHEDULE_EXACT_ALARM (API 31/32): exact alarms removed, process killed, no broadcast.
    public mutating func revokeExactAlarmPermission() -> [AlarmManagerEffect] {
        exactAlarmPermission = false
        pending = []
        changeCounter += 1
        return processDied() + [.killProcess, .trace("exact-permission-revoked", [])]
    }

    public mutating func grantExactAlarmPermission() -> [AlarmManagerEffect] {
        exactAlarmPermission = true
        return [.toApp(.exactAlarmPermissionGranted, launch: .broadcast), .trace("exact-permission-granted", [])]
    }
}

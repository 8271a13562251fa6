import AlarmBridge
import AndroidModel
import SimKernel

/// The app's declared Android configuration (AND-1, AND-7, AND-8): what a missing entry costs.
extension World {
    /// `alarm-surface-interruptive` (AND-8): every Android wake ring is presented as the
    /// full-screen alarm surface, or — where the user denied USE_FULL_SCREEN_INTENT (API 34+,
    /// the platform's choice) — as a heads-up; never only in the shade, which an alarm channel
    /// below high importance gives.
    func checkAlarmSurface(_ id: AlarmUUID) {
        guard let manager = android, !stopped, let status = manager.ringingStatus(id),
              status.channel == .alarmHighImportance, status.presentation == .shade else { return }
        violate("alarm-surface-interruptive", [], "wake ring \(id) of \(status.metadata.rootID) posted without heads-up or full-screen presentation: alarm channel importance \(manager.parameters.manifest.alarmChannelImportance.rawValue) (AND-8)")
    }
}

extension World {
    /// `android-manifest` (AND-1, AND-3): nothing the bridge relies on is lost to an entry missing
    /// from the app's declared manifest — a broadcast after which state is restored (boot, locked
    /// boot, replacement, clock, zone, exact-alarm permission) that no receiver (or no
    /// direct-boot-aware receiver) takes, or an exact alarm refused because no exact-alarm
    /// permission is declared for this API level. A user's revocation is not a missing entry.
    func checkDeclaredManifest(_ name: String, _ fields: [TraceField]) {
        // Only these four trace events are judged here; the model and its manifest are read for
        // them alone (issue 20: every model trace event copied the manifest and searched its fields).
        guard name == "broadcast-no-receiver" || name == "broadcast-before-unlock-not-direct-boot-aware"
                || name == "locked-boot-not-delivered" || name == "security-exception",
              let manager = android, !stopped else { return }
        let manifest = manager.parameters.manifest
        let action = fields.first { $0.key == "action" }?.value ?? "?"
        switch name {
        case "broadcast-no-receiver":
            violate("android-manifest", [], "\(action) not delivered: the app declares no receiver for it (AND-1, AND-3)")
        case "broadcast-before-unlock-not-direct-boot-aware":
            violate("android-manifest", [], "\(action) not delivered before the first unlock: the receiver is not direct-boot aware (AND-1, AND-2)")
        case "locked-boot-not-delivered":
            violate("android-manifest", [], "LOCKED_BOOT_COMPLETED not delivered: no direct-boot-aware boot receiver (AND-1, AND-3)")
        case "security-exception":
            let api = manager.parameters.apiLevel
            let scheduleExact = manifest.declaresScheduleExactAlarm && (manifest.scheduleExactAlarmMaxSdk.map { api <= $0 } ?? true)
            let useExact = api >= 33 && manifest.declaresUseExactAlarm
            guard api >= 31, !scheduleExact, !useExact else { return }
            violate("android-manifest", [], "setAlarmClock threw SecurityException: no exact-alarm permission declared for API \(api) (AND-1)")
        default:
            break
        }
    }
}

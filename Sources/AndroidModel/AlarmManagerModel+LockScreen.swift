import AlarmBridge
import SimKernel

/// The keyguard and the app's two activities' lock-screen window flags.
///
/// Sources: `Activity.setShowWhenLocked(boolean)` and `setTurnScreenOn` (API 27; the manifest
/// attributes `android:showWhenLocked` / `android:turnScreenOn`) let an activity show above the
/// keyguard without dismissing it; `KeyguardManager.requestDismissKeyguard(activity, callback)`
/// asks the user to unlock, which shows the PIN/password/pattern prompt when the keyguard is
/// secure (developer.android.com/reference/android/app/Activity#setShowWhenLocked(boolean),
/// …/KeyguardManager#requestDismissKeyguard). The alarm activity declares `showWhenLocked` in
/// its manifest, so the alarm surface always shows over the lock screen (AND-10); MainActivity
/// shows there only while the app sets the flag (AND-11). Not modelled: screen timeout relocking,
/// trust agents, Smart Lock (they change only when the keyguard is shown, not these flags).
public struct LockScreenState: Sendable, Equatable {
    /// MainActivity's `setShowWhenLocked` flag (false when its process is gone).
    public var mainActivityShowWhenLocked = false
    /// Calls of `requestDismissKeyguard`: each would put the PIN prompt in front of the wake check (AND-12).
    public var keyguardDismissRequests = 0
    /// Times the flag was set to true, and to false (for conformance tests and traces).
    public var grants = 0
    public var revocations = 0
    public init() {}
}

extension AlarmManagerModel {
    /// MainActivity `setShowWhenLocked(on)`: its window may (or may no longer) show above the keyguard.
    public mutating func setMainActivityShowWhenLocked(_ on: Bool) -> [AlarmManagerEffect] {
        guard lockScreen.mainActivityShowWhenLocked != on else { return [] }
        lockScreen.mainActivityShowWhenLocked = on
        if on { lockScreen.grants += 1 } else { lockScreen.revocations += 1 }
        return [.trace("show-when-locked", [TraceField("activity", "MainActivity"), TraceField("on", String(on))])]
    }

    /// `KeyguardManager.requestDismissKeyguard`: the system shows the unlock (PIN) prompt. The
    /// bridge has no command that calls it (AND-12); the count lets checkers prove it.
    public mutating func requestDismissKeyguard() -> [AlarmManagerEffect] {
        lockScreen.keyguardDismissRequests += 1
        return [.trace("keyguard-dismiss-requested", [])]
    }

    /// Whether the alarm surface of a ringing alarm shows above the keyguard: full-screen (the
    /// alarm activity, `showWhenLocked` in its manifest) or heads-up over the lock screen (AND-10).
    public func alarmSurfaceShowsOverKeyguard(_ id: AlarmUUID) -> Bool {
        guard let status = ringingStatus(id) else { return false }
        return status.presentation == .fullScreen || status.presentation == .headsUp
    }

    /// Starts the ringing service with the SNZ-18 one-shot exemption extra.
    public mutating func startRingingSuppressionExempt(_ id: AlarmUUID, metadata: RingMetadata, soundName: String? = nil) -> [AlarmManagerEffect] {
        let effects = startRinging(id, metadata: metadata, soundName: soundName)
        if let index = ringingStatuses.firstIndex(where: { $0.id == id }) {
            ringingStatuses[index].suppressionExemptOnce = true
        }
        return effects + [.trace("ringing-suppression-exempt", [TraceField("id", id.description)])]
    }
}

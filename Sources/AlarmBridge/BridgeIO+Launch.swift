/// Types of the launch path that other engineers' sections do not share: Keychain wake receipts
/// (IOS-9, IOS-10), the failed wake day a fresh install records from one, and the remote kill
/// switch (BOOT-12).

/// A device-only Keychain receipt for a wake occurrence iOS confirmed began (IOS-9).
///
/// Stored with `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: readable from the first unlock
/// after a restart, never restored onto another device, and — unlike the app container — still
/// there after the app is deleted and installed again (seed 000, "When iOS confirms that a wake
/// occurrence began"; `KeychainModel` documents the platform facts).
public struct WakeReceipt: Codable, Sendable, Equatable {
    /// The occurrence token (ID-6).
    public var token: String
    /// The schedule root that owns the occurrence (ID-1).
    public var rootID: String
    /// The configured ring time that opened the occurrence, wall-clock Unix-epoch milliseconds (ID-8).
    public var startedAtMs: Int64
    public init(token: String, rootID: String, startedAtMs: Int64) {
        self.token = token
        self.rootID = rootID
        self.startedAtMs = startedAtMs
    }

    /// The Keychain item key (`kSecAttrAccount`) of a receipt for `token`.
    public static func key(token: String) -> String { "wake-receipt." + token }
    /// The prefix every receipt key starts with.
    public static let keyPrefix = "wake-receipt."

    /// The item's value: `rootID|startedAtMs` (the token is in the key).
    public var keychainValue: String { "\(rootID)|\(startedAtMs)" }

    /// Parses an item written by `keychainValue`; nil for an item that is not a receipt.
    public init?(key: String, value: String) {
        guard key.hasPrefix(Self.keyPrefix) else { return nil }
        let parts = value.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2, let started = Int64(parts[1]) else { return nil }
        self.init(token: String(key.dropFirst(Self.keyPrefix.count)), rootID: String(parts[0]), startedAtMs: started)
    }
}

/// A wake day the app records as failed: an occurrence that never finished because the app was
/// deleted while it was live (IOS-10). Written to the app's own state (its container), which a
/// reinstall starts empty.
public struct FailedWakeDay: Codable, Sendable, Equatable {
    public var token: String
    public var rootID: String
    /// The configured ring time of the failed occurrence, wall-clock Unix-epoch milliseconds.
    public var startedAtMs: Int64
    /// When the fresh install recorded it, wall-clock Unix-epoch milliseconds.
    public var recordedAtMs: Int64
    public init(token: String, rootID: String, startedAtMs: Int64, recordedAtMs: Int64) {
        self.token = token
        self.rootID = rootID
        self.startedAtMs = startedAtMs
        self.recordedAtMs = recordedAtMs
    }
}

/// What the remote kill-switch / forced-update check got back (BOOT-12; seed 003, "6. Any
/// remote kill switch must fail open": a small `version.json` on the developer's site).
public enum KillSwitchResponse: String, Sendable, Equatable, Codable, CaseIterable {
    /// A readable answer: this version is fine.
    case ok
    /// A readable, explicit answer: this release must be updated before it schedules again.
    case disabled
    /// No answer within the request's timeout.
    case timeout
    /// No connection: airplane mode, a captive Wi-Fi portal, DNS failure, a CDN outage.
    case networkFailure = "network-failure"
    /// An answer that does not parse (an HTML portal page, a truncated body, an unknown value).
    case unreadable
}

/// Whether the bridge may create new alarms, as the kill switch decided (BOOT-12).
public enum RemoteSchedulingState: String, Sendable, Equatable, Codable {
    /// Scheduling proceeds: the check said ok, or failed (fail open).
    case enabled
    /// An explicit, readable "disabled" (a forced update): sync and the editor's direct save
    /// create, re-register and cancel nothing until a later check says ok. Alarms already
    /// registered keep firing, and the live occurrence keeps its pressure (successors, snooze
    /// rings, completion cleanup): the switch exists to stop a buggy release from making things
    /// worse (seed 003), never to silence a wake-up. It lasts for the process: every launch
    /// checks again.
    case disabledByKillSwitch = "disabled-by-kill-switch"
}

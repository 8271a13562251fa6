/// The app's Keychain items as the bridge's receipts (IOS-9, IOS-10) see them.
///
/// Modelled (Keychain Services, `kSecAttrAccessible` constants): an item's accessibility class
/// decides when it can be read — `afterFirstUnlockThisDeviceOnly` from the first unlock after a
/// restart on, `whenUnlockedThisDeviceOnly` only while the device is unlocked; before that a read
/// fails with `errSecInteractionNotAllowed` (not "missing": BOOT-2's rule applies). Items are
/// not part of the app container: they survive deleting and reinstalling the app (long-standing
/// behaviour, not a documented guarantee — parameter `survivesAppDeletion`); `…ThisDeviceOnly`
/// items never move to another device through a backup.
///
/// Not modelled: access groups, iCloud Keychain sync, item attributes beyond a key and a value.
public struct KeychainModel: Sendable, Equatable {
    public enum Accessibility: String, Sendable, Equatable {
        case afterFirstUnlockThisDeviceOnly = "after-first-unlock-this-device-only"
        case whenUnlockedThisDeviceOnly = "when-unlocked-this-device-only"
    }
    public enum KeychainError: String, Error, Sendable, Equatable {
        /// `errSecInteractionNotAllowed`: the item's class is not readable in this device state.
        case interactionNotAllowed = "interaction-not-allowed"
    }
    public struct Item: Sendable, Equatable {
        public var key: String
        public var value: String
        public var accessibility: Accessibility
    }

    /// Whether items survive deleting the app (see type docs). Default: they do.
    public var survivesAppDeletion: Bool
    /// Sorted by key.
    public private(set) var items: [Item] = []

    public init(survivesAppDeletion: Bool = true) {
        self.survivesAppDeletion = survivesAppDeletion
    }

    func readable(_ accessibility: Accessibility, unlockedSinceBoot: Bool, unlockedNow: Bool) -> Bool {
        switch accessibility {
        case .afterFirstUnlockThisDeviceOnly: return unlockedSinceBoot
        case .whenUnlockedThisDeviceOnly: return unlockedNow
        }
    }

    /// `SecItemCopyMatching`: the value, nil when absent.
    /// - Throws: `.interactionNotAllowed` when the item exists but its class is locked.
    public func read(_ key: String, unlockedSinceBoot: Bool, unlockedNow: Bool) throws(KeychainError) -> String? {
        guard let item = items.first(where: { $0.key == key }) else { return nil }
        guard readable(item.accessibility, unlockedSinceBoot: unlockedSinceBoot, unlockedNow: unlockedNow) else {
            throw .interactionNotAllowed
        }
        return item.value
    }

    /// `SecItemAdd` / `SecItemUpdate`. Writing needs the same device state as reading the class.
    /// - Throws: `.interactionNotAllowed`.
    public mutating func write(_ key: String, _ value: String, accessibility: Accessibility,
                               unlockedSinceBoot: Bool, unlockedNow: Bool) throws(KeychainError) {
        guard readable(accessibility, unlockedSinceBoot: unlockedSinceBoot, unlockedNow: unlockedNow) else {
            throw .interactionNotAllowed
        }
        items.removeAll { $0.key == key }
        items.append(Item(key: key, value: value, accessibility: accessibility))
        items.sort { $0.key < $1.key }
    }

    /// `SecItemDelete`.
    public mutating func delete(_ key: String) {
        items.removeAll { $0.key == key }
    }

    /// The user deletes the app: the container goes; Keychain items stay (parameter).
    public mutating func appDeleted() {
        if !survivesAppDeletion { items = [] }
    }

    /// Restoring a backup onto another device: `…ThisDeviceOnly` items do not come along.
    public mutating func restoredOnAnotherDevice() {
        items = []
    }
}

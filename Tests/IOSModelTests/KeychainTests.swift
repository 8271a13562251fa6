import IOSModel
import Testing

/// Conformance of the Keychain model (Keychain Services `kSecAttrAccessible…`; IOS-9, IOS-10).
struct KeychainTests {
    @Test("an after-first-unlock item is unreadable before the first unlock: interactionNotAllowed, not missing (kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly)")
    func lockedClassThrows() throws {
        var keychain = KeychainModel()
        try keychain.write("receipt", "occ-1", accessibility: .afterFirstUnlockThisDeviceOnly, unlockedSinceBoot: true, unlockedNow: true)
        #expect(throws: KeychainModel.KeychainError.interactionNotAllowed) {
            _ = try keychain.read("receipt", unlockedSinceBoot: false, unlockedNow: false)
        }
        #expect(try keychain.read("receipt", unlockedSinceBoot: true, unlockedNow: false) == "occ-1")
        #expect(try keychain.read("absent", unlockedSinceBoot: false, unlockedNow: false) == nil)
    }

    @Test("a when-unlocked item is readable only while the device is unlocked (kSecAttrAccessibleWhenUnlockedThisDeviceOnly)")
    func whenUnlocked() throws {
        var keychain = KeychainModel()
        try keychain.write("k", "v", accessibility: .whenUnlockedThisDeviceOnly, unlockedSinceBoot: true, unlockedNow: true)
        #expect(throws: KeychainModel.KeychainError.interactionNotAllowed) {
            _ = try keychain.read("k", unlockedSinceBoot: true, unlockedNow: false)
        }
        #expect(throws: KeychainModel.KeychainError.interactionNotAllowed) {
            try keychain.write("k2", "v", accessibility: .whenUnlockedThisDeviceOnly, unlockedSinceBoot: true, unlockedNow: false)
        }
    }

    @Test("device-only items survive deleting the app (parameter survivesAppDeletion), never a restore onto another device",
          arguments: [true, false])
    func survivesDeletion(survives: Bool) throws {
        var keychain = KeychainModel(survivesAppDeletion: survives)
        try keychain.write("receipt", "occ-1", accessibility: .afterFirstUnlockThisDeviceOnly, unlockedSinceBoot: true, unlockedNow: true)
        keychain.appDeleted()
        #expect(try keychain.read("receipt", unlockedSinceBoot: true, unlockedNow: true) == (survives ? "occ-1" : nil))
        keychain.restoredOnAnotherDevice()
        #expect(keychain.items.isEmpty)
    }
}

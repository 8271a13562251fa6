import AlarmBridge
import Foundation
import Testing

/// The first launch after an update from an older version, driven by hand from the committed
/// legacy fixtures (`Scenarios/fixtures/legacy-*.json`): BOOT-2, BOOT-9, BOOT-10, BOOT-11, OCC-17,
/// ACT-9, INACT-2, INACT-25, CAP-7; Android storage AND-2, AND-4; BOOT-13 and SCH-24.
struct MigrationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios/fixtures")

    static func fixture(_ name: String) throws -> BridgeDocument {
        let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
        return try JSONDecoder().decode(BridgeDocument.self, from: data)
    }

    static func id(_ text: String) -> AlarmUUID { AlarmUUID(string: text)! }

    static func cancels(_ commands: [BridgeCommand]) -> [AlarmUUID] {
        commands.compactMap { if case .cancel(let id, _) = $0 { return id }; return nil }
    }

    static func schedules(_ commands: [BridgeCommand]) -> [RingRequest] {
        commands.compactMap { if case .schedule(let request, _) = $0 { return request }; return nil }
    }

    /// The iOS fixture at Monday 07:02 Berlin: the live occurrence of wake.mon began at 07:00, its
    /// safety relay is sounding, the daemon holds every ring the document lists (but the stale
    /// walk cadence row) under the older version's IDs.
    static func iosLegacyHarness() throws -> BridgeHarness {
        var harness = BridgeHarness(flavor: .ios)
        harness.advance(62 * 60_000)
        harness.stored = try fixture("legacy-ios-live-cadence.json")
        harness.daemon = harness.stored!.rings.filter { $0.confirmed }.map { row in
            PlatformAlarm(id: row.id, state: row.metadata.kind == .legacySafetyRelay ? .alerting : .scheduled)
        }.sorted { $0.id < $1.id }
        return harness
    }

    @Test("INACT-2, INACT-25, BOOT-11: every legacy fixture decodes with the current types; an unmarked schedule reads as legacy",
          arguments: ["legacy-ios-live-cadence.json", "legacy-android-credential-protected.json"])
    func fixturesDecode(name: String) throws {
        let document = try Self.fixture(name)
        #expect(document.schemaVersion < BridgeDocument.currentSchemaVersion)
        #expect(document.alarms.allSatisfy { $0.policy == .legacy })  // no marker: the 20 h lifetime
        #expect(document.rings.contains { $0.metadata.kind.isLegacy })
        #expect(InactivityPolicy.legacy.timeoutMs == 20 * 3_600_000)
    }

    @Test("BOOT-9, BOOT-10, BOOT-11, OCC-17, ACT-9, CAP-7: the first launch after an update adopts the valid primary unchanged, keeps the alert and one cadence ring, deletes every other legacy ring, restores the tombstoned far primary and discards stale metadata")
    func iosMigration() throws {
        var harness = try Self.iosLegacyHarness()
        let commands = harness.send(.processStarted(.user))
        let cancelled = Self.cancels(commands)
        let legacyPrimary = Self.id("11111111-1111-4111-8111-111111111111")
        // BOOT-9: the valid primary is adopted unchanged — neither cancelled nor re-registered.
        #expect(!cancelled.contains(legacyPrimary))
        #expect(!Self.schedules(commands).contains { $0.metadata.rootID == "wake.mon" })
        #expect(harness.stored?.row(legacyPrimary)?.adoptedLegacyID == true)
        // BOOT-10: the sounding relay stays; one cadence ring (the earliest) is the live occurrence's pressure.
        #expect(!cancelled.contains(Self.id("44444444-4444-4444-8444-444444444444")))
        #expect(!cancelled.contains(Self.id("22222222-2222-4222-8222-000000000001")))
        #expect(cancelled.contains(Self.id("22222222-2222-4222-8222-000000000002")))
        #expect(cancelled.contains(Self.id("22222222-2222-4222-8222-000000000003")))
        // BOOT-11: maintenance alarm, fuse pair and walk cadence go.
        for text in ["33333333-3333-4333-8333-333333333333", "55555555-5555-4555-8555-000000000001",
                     "55555555-5555-4555-8555-000000000002", "66666666-6666-4666-8666-666666666666"] {
            #expect(cancelled.contains(Self.id(text)), "\(text) not cancelled")
        }
        // OCC-17, CAP-7: the tombstone goes and the nap primary (more than 26 h ahead) is restored at once.
        let stored = try #require(harness.stored)
        #expect(stored.schemaVersion == BridgeDocument.currentSchemaVersion)
        #expect(stored.occurrence(token: "tok-tomb") == nil)
        let nap = try #require(Self.schedules(commands).first { $0.metadata.rootID == "nap" })
        #expect(nap.fireWallMs - harness.now.wallMs > 26 * 3_600_000)
        // ACT-9: the expired action, the stale row and the persisted context are gone; no root was cancelled for it.
        #expect(stored.actions.isEmpty)
        #expect(stored.row(Self.id("77777777-7777-4777-8777-777777777777")) == nil)
        #expect(stored.staleChallengeVisible == nil)
        #expect(stored.liveOccurrence?.token == "tok-live")
        #expect(stored.liveOccurrence?.policy == .legacy)  // INACT-25: the update changes no marker
        // Idempotent afterwards (SCH-19): a second sync makes no scheduler call.
        #expect(BridgeHarness.schedulerCalls(harness.send(.api(.syncEnabledAlarms))).isEmpty)
    }

    @Test("BOOT-2, ACT-9: an unreadable inventory takes no migration decision; the next readable one migrates")
    func noMigrationFromUnreadableInventory() throws {
        var harness = try Self.iosLegacyHarness()
        var core = harness.core
        var out = core.handle(.processStarted(.user), at: harness.now)
        out += core.handle(.journalLoaded([]), at: harness.now)
        out += core.handle(.receiptsRead(.success([])), at: harness.now)
        out += core.handle(.storeLoaded(.success(harness.stored)), at: harness.now)
        out += core.handle(.inventoryRead(.launchSync, .failure(.readFailed)), at: harness.now)
        #expect(Self.cancels(out).isEmpty && Self.schedules(out).isEmpty)
        #expect(core.needsMigration)
        out = core.handle(.inventoryRead(.launchSync, .success(harness.daemon)), at: harness.now)
        #expect(!core.needsMigration)
        #expect(!Self.cancels(out).isEmpty)
        harness.core = core
    }

    @Test("BOOT-9: an app update keeps a current install's rings: the first launch of the new version adopts the inventory with no scheduler call")
    func updateOfCurrentInstallIsIdle() {
        var harness = BridgeHarness(flavor: .ios)
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday, .tuesday]), title: "Wake"))))
        var updated = BridgeHarness(flavor: .ios)  // the process was killed; the daemon and the store stay
        updated.now = harness.now
        updated.stored = harness.stored
        updated.daemon = harness.daemon
        #expect(BridgeHarness.schedulerCalls(updated.send(.processStarted(.user))).isEmpty)
        #expect(updated.daemon == harness.daemon)
    }

    @Test("AND-2, AND-4, BOOT-2: state in credential-protected storage is not read as empty in locked boot, then moved to device-protected storage before the CE copy is deleted, and migrated")
    func androidCredentialStoreMove() throws {
        var harness = BridgeHarness(flavor: .android)
        let legacy = try Self.fixture("legacy-android-credential-protected.json")
        harness.daemon = legacy.rings.map { PlatformAlarm(id: $0.id, state: .scheduled) }.sorted { $0.id < $1.id }
        harness.credentialStored = legacy
        harness.credentialReadable = false  // locked boot
        let locked = harness.send(.processStarted(.broadcast))  // LOCKED_BOOT_COMPLETED: DE holds nothing
        #expect(locked.contains(.loadCredentialProtectedStore))
        #expect(locked.contains(.launchGate(.waitingForUnlock)))
        #expect(BridgeHarness.schedulerCalls(locked).isEmpty && !locked.contains { if case .persist = $0 { return true }; return false })
        #expect(harness.credentialStored == legacy)
        harness.credentialReadable = true
        let moved = harness.send(.protectedDataAvailable)  // USER_UNLOCKED: read again
        let persist = try #require(moved.firstIndex(of: .persist(legacy)))
        let delete = try #require(moved.firstIndex(of: .deleteCredentialProtectedStore))
        #expect(persist < delete)  // AND-4: DE written first, only then the CE copy goes
        #expect(harness.credentialStored == nil)
        let stored = try #require(harness.stored)
        #expect(stored.schemaVersion == BridgeDocument.currentSchemaVersion)
        #expect(stored.alarms.map(\.id) == ["wake"] && stored.missReceipts.count == 1)  // nothing lost
        #expect(stored.passOverQueue?.isEmpty == true)  // ACT-9: its owner closed long ago
        let cancelled = Self.cancels(moved)
        #expect(!cancelled.contains(Self.id("88888888-8888-4888-8888-888888888888")))  // BOOT-9: valid, adopted
        #expect(cancelled.contains(Self.id("99999999-9999-4999-8999-000000000001")))  // BOOT-11
        #expect(cancelled.contains(Self.id("aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa")))
        #expect(Self.schedules(moved).contains { $0.metadata.rootID == "wake.mon" })  // today's primary, missing
    }

    @Test("INACT-2: an occurrence of a schedule without a marker keeps the legacy 20 h lifetime")
    func unmarkedScheduleKeepsLegacyLifetime() throws {
        var harness = BridgeHarness(flavor: .android)
        harness.stored = try Self.fixture("legacy-android-credential-protected.json")
        _ = harness.send(.processStarted(.user))
        let primary = try #require(harness.stored?.rings.first { $0.metadata.rootID == "wake.mon" && $0.metadata.kind == .primary })
        harness.advance(primary.fireWallMs - harness.now.wallMs)
        _ = harness.send(.alarmDelivered(primary.id))
        let live = try #require(harness.core.document?.liveOccurrence)
        #expect(live.policy == .legacy)
        #expect(live.deadlineMs == primary.fireWallMs + 20 * 3_600_000)
    }

    @Test("BOOT-13, SCH-24: background refresh may not run for days, so the bridge registers the wanted rings directly, in the same execution as the launch or the save")
    func registersDirectlyWithoutBackgroundRefresh() throws {
        var harness = BridgeHarness(flavor: .ios)
        _ = harness.send(.processStarted(.user))
        let alarm = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday]), title: "Wake")
        #expect(Self.schedules(harness.send(.api(.saveAlarm(alarm)))).contains { $0.metadata.rootID == "wake.mon" })
        var relaunched = BridgeHarness(flavor: .ios)  // the daemon lost the ring; nothing ran in the background since
        relaunched.now = harness.now
        relaunched.stored = harness.stored
        #expect(Self.schedules(relaunched.send(.processStarted(.user))).contains { $0.metadata.rootID == "wake.mon" })
    }

    @Test("AND-1, AND-7, AND-8: the bridge states the Android manifest it requires")
    func requiredManifest() {
        let manifest = BridgeCore.requiredAndroidManifest
        #expect(manifest.permissions.contains(.init(AndroidAppManifest.scheduleExactAlarm, maxSdkVersion: 32)))
        #expect(manifest.declares(AndroidAppManifest.useExactAlarm))
        #expect(manifest.declares(AndroidAppManifest.receiveBootCompleted) && manifest.declares(AndroidAppManifest.useFullScreenIntent))
        for action in [AndroidAppManifest.lockedBootCompleted, AndroidAppManifest.bootCompleted, AndroidAppManifest.myPackageReplaced,
                       AndroidAppManifest.timeSet, AndroidAppManifest.timezoneChanged, AndroidAppManifest.exactAlarmPermissionChanged] {
            #expect(manifest.receiver(action)?.directBootAware == true, "\(action)")
        }
        #expect(!manifest.allowBackup)
        #expect(manifest.alarmChannelImportance == .high)
    }
}

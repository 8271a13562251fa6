import AlarmBridge
import AndroidModel
import Testing

struct AlarmManagerModelTests {
    func request(_ name: String, at wallMs: Int64) -> RingRequest {
        RingRequest(id: AlarmUUID.v5(namespace: AlarmUUID.dnsNamespace, name: name), schedule: .fixed(wallMs: wallMs),
                    fireWallMs: wallMs, metadata: RingMetadata(rootID: name, alarmID: name, kind: .primary, token: nil, title: name))
    }

    @Test("the same request code replaces; reboot clears every alarm")
    func replaceAndReboot() {
        var model = AlarmManagerModel(parameters: AlarmManagerParameters())
        _ = model.setAlarmClock(request("a", at: 10_000), nowWallMs: 0)
        _ = model.setAlarmClock(request("a", at: 20_000), nowWallMs: 0)
        #expect(model.pending.count == 1)
        #expect(model.pending.first?.triggerWallMs == 20_000)
        _ = model.shutdown()
        #expect(model.pending.isEmpty)
    }

    @Test("revoking the exact-alarm permission removes every exact alarm, kills the process, and scheduling then throws")
    func revocation() {
        var model = AlarmManagerModel(parameters: AlarmManagerParameters())
        _ = model.setAlarmClock(request("a", at: 10_000), nowWallMs: 0)
        let effects = model.revokeExactAlarmPermission()
        #expect(model.pending.isEmpty)
        #expect(effects.contains(.killProcess))
        #expect(!effects.contains { if case .toApp = $0 { return true }; return false })
        let denied = model.setAlarmClock(request("b", at: 10_000), nowWallMs: 0)
        #expect(denied.contains { if case .toApp(.scheduleCompleted(_, .failure(.securityException)), _) = $0 { return true }; return false })
    }
}

import AlarmBridge
import Testing

extension BridgeHarness {
    /// The weekly Mon/Wed 07:00 alarm the rule tests share.
    static let weeklyWake = LogicalAlarm(id: "wake", hour: 7, minute: 0, repeats: .weekly([.monday, .wednesday]), title: "Wake up")

    /// A fresh install saves `alarm` and goes to the background; at 07:00 on Monday its `wake.mon`
    /// primary comes due: alerting (iOS `alarmUpdates`) or delivered (Android), unless `deliver`
    /// is false. Returns the harness and that primary's ID.
    static func atRingTime(flavor: PlatformFlavor = .ios, alarm: LogicalAlarm = weeklyWake,
                           imminentHorizonMs: Int64 = 30_000, deliver: Bool = true) throws -> (BridgeHarness, AlarmUUID) {
        var harness = BridgeHarness(flavor: flavor)
        var configuration = harness.core.configuration
        configuration.imminentHorizonMs = imminentHorizonMs
        harness.core = BridgeCore(configuration: configuration)
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(alarm)))
        _ = harness.send(.didEnterBackground)
        let primary = try #require(harness.daemon.first { harness.stored?.row($0.id)?.metadata.rootID == "wake.mon" }).id
        harness.advance(3_600_000)
        guard deliver else { return (harness, primary) }
        if flavor == .ios {
            harness.daemon = harness.daemon.map { $0.id == primary ? PlatformAlarm(id: primary, state: .alerting) : $0 }
            _ = harness.send(.alarmUpdates(harness.daemon))
        } else {
            _ = harness.send(.alarmDelivered(primary))
        }
        return (harness, primary)
    }
}

import AlarmBridge
import IOSModel
import SimKernel
import Testing

struct AlarmKitDaemonTests {
    let calendar = WallCalendar(zoneIdentifier: "Europe/Berlin")!

    func request(_ name: String, _ schedule: RingSchedule) -> RingRequest {
        RingRequest(id: AlarmUUID.v5(namespace: AlarmUUID.dnsNamespace, name: name), schedule: schedule, fireWallMs: 0,
                    metadata: RingMetadata(rootID: name, alarmID: name, kind: .primary, token: nil, title: name))
    }

    @Test("a schedule beyond the capacity fails with maximumLimitReached")
    func capacity() {
        var parameters = AlarmKitParameters()
        parameters.capacity = 1
        var daemon = AlarmKitDaemon(parameters: parameters, calendar: calendar, streams: RandomStreams(seed: 1))
        let now: Int64 = 1_772_430_000_000
        for name in ["a", "b"] {
            guard case .later(let event, _) = daemon.schedule(request(name, .fixed(wallMs: now + 60_000))).first! else { Issue.record("no completion"); return }
            let effects = daemon.handle(event, nowWallMs: now)
            let failed = effects.contains { if case .toApp(.scheduleCompleted(_, .failure(.maximumLimitReached)), _) = $0 { return true }; return false }
            #expect(failed == (name == "b"))
        }
        #expect(daemon.alarms.count == 1)
    }

    @Test("stop deletes a one-shot and re-arms a weekly relative alarm; stop of a non-alerting alarm throws")
    func stopSemantics() {
        var daemon = AlarmKitDaemon(parameters: AlarmKitParameters(), calendar: calendar, streams: RandomStreams(seed: 2))
        let now: Int64 = 1_772_430_000_000
        for (name, schedule) in [("once", RingSchedule.fixed(wallMs: now)), ("weekly", .relative(hour: 7, minute: 0, weekday: .monday))] {
            guard case .later(let event, _) = daemon.schedule(request(name, schedule)).first! else { return }
            _ = daemon.handle(event, nowWallMs: now)
        }
        for alarm in daemon.alarms { _ = daemon.handle(.fire(alarm.id, generation: alarm.generation), nowWallMs: now) }
        #expect(daemon.alarms.allSatisfy { $0.state == .alerting || $0.schedule != .fixed(wallMs: now) })
        for alarm in daemon.alarms where alarm.state == .alerting { _ = daemon.stop(alarm.id, nowWallMs: now, byUser: true) }
        #expect(daemon.alarms.count == 1)
        #expect(daemon.alarms.first?.state == .scheduled)
        let again = daemon.stop(daemon.alarms[0].id, nowWallMs: now, byUser: false)
        #expect(again.contains { if case .toApp(.stopCompleted(_, .failure(.invalidState)), _) = $0 { return true }; return false })
    }
}

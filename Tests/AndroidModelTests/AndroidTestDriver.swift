import AlarmBridge
import AndroidModel
import SimKernel

/// Runs the AlarmManager model's own timed events in (elapsed time, order), recording what it does.
struct AndroidDriver {
    var model: AlarmManagerModel
    /// elapsedRealtime, ms (starts well after boot).
    var elapsedMs: Int64 = 10_000_000
    /// wall − elapsed, ms (2026-03-02 06:40 UTC at the start).
    var wallOffsetMs: Int64 = 1_772_433_600_000 - 10_000_000
    var queue = EventQueue<AlarmManagerEvent>()
    var effects: [AlarmManagerEffect] = []
    /// (id, elapsed ms) of every delivery, in order.
    var deliveries: [(id: AlarmUUID, elapsedMs: Int64)] = []
    var kills = 0

    init(_ configure: (inout AlarmManagerParameters) -> Void = { _ in }, seed: UInt64 = 1) {
        var parameters = AlarmManagerParameters()
        configure(&parameters)
        model = AlarmManagerModel(parameters: parameters, random: Xoshiro256StarStar(seed: seed))
        apply(model.observe(now))
    }

    var now: AndroidInstant { AndroidInstant(elapsedRealtimeMs: elapsedMs, wallMs: elapsedMs + wallOffsetMs) }
    var wallMs: Int64 { elapsedMs + wallOffsetMs }

    mutating func apply(_ new: [AlarmManagerEffect]) {
        for effect in new {
            effects.append(effect)
            switch effect {
            case .later(let event, let afterMs): queue.schedule(event, at: elapsedMs + afterMs)
            case .toApp(.alarmDelivered(let id), _): deliveries.append((id, elapsedMs))
            case .killProcess, .processKilled: kills += 1
            default: break
            }
        }
    }

    mutating func advance(byMs: Int64) {
        let until = elapsedMs + byMs
        while let next = queue.peekNext(), next.dueMs <= until {
            let event = queue.removeNext()
            elapsedMs = max(elapsedMs, event.dueMs)
            apply(model.handle(event.payload, now: now))
        }
        elapsedMs = until
    }

    static func uuid(_ name: String) -> AlarmUUID { AlarmUUID.v5(namespace: AlarmUUID.dnsNamespace, name: name) }

    static func metadata(_ name: String) -> RingMetadata {
        RingMetadata(rootID: name, alarmID: name, kind: .primary, token: nil, title: name)
    }

    /// `method` on `type` at `inMs` from now in the type's clock; returns the id.
    @discardableResult
    mutating func set(_ name: String, _ method: AlarmSetMethod, inMs: Int64, type: AlarmClockType = .rtcWakeup,
                      windowMs: Int64 = 0, intervalMs: Int64 = 0) -> AlarmUUID {
        let trigger = type.isWallClock ? wallMs + inMs : elapsedMs + inMs
        let request = AlarmManagerRequest(method: method, type: type, triggerAtMs: trigger, windowLengthMs: windowMs,
                                          intervalMs: intervalMs, id: Self.uuid(name), metadata: Self.metadata(name))
        apply(model.set(request, now: now))
        return request.id
    }

    func deliveryTimes(_ id: AlarmUUID) -> [Int64] { deliveries.filter { $0.id == id }.map(\.elapsedMs) }

    /// The result of the last schedule completion for `id`.
    func scheduleResult(_ id: AlarmUUID) -> Result<Int64, PlatformError>? {
        for effect in effects.reversed() {
            if case .toApp(.scheduleCompleted(id, let result), _) = effect { return result }
        }
        return nil
    }

    func broadcasts() -> [AndroidBroadcast] {
        effects.compactMap { if case .broadcast(let broadcast, _) = $0 { return broadcast }; return nil }
    }

    func appInputs() -> [BridgeInput] {
        effects.compactMap { if case .toApp(let input, _) = $0 { return input }; return nil }
    }
}

extension Result where Failure == PlatformError {
    var failure: PlatformError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

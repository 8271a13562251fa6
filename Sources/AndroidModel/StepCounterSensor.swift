/// A `Sensor.TYPE_STEP_COUNTER` model, for walk / step suppression of an alarm.
///
/// Source: developer.android.com/reference/android/hardware/Sensor#TYPE_STEP_COUNTER — "the total
/// number of steps taken by the user since the last reboot while activated"; the value resets to 0
/// at reboot; events are batched by the hardware FIFO up to the listener's `maxReportLatencyUs`
/// (SensorManager.registerListener). Apps compare readings, never absolute values.
public struct StepCounterSensor: Sendable, Equatable {
    /// One SensorEvent: the cumulative count since boot and when it is delivered.
    public struct Event: Sendable, Equatable {
        /// Steps since boot (a float upstream; whole steps here).
        public var stepsSinceBoot: Int64
        /// When the last counted step happened (SensorEvent.timestamp), elapsed ms.
        public var stepElapsedMs: Int64
        /// When the event reaches the listener, elapsed ms.
        public var deliveredElapsedMs: Int64
    }

    /// Hardware batching latency: a step is reported at most this late (the listener's
    /// `maxReportLatencyUs`; 0 = as they happen). Parameter; swarm: 0–10 000 ms.
    public var maxReportLatencyMs: Int64
    /// Steps since the last boot.
    public private(set) var stepsSinceBoot: Int64 = 0
    /// Whether an app listener is registered (the counter counts only "while activated"; the
    /// low-power hardware counter stays active on most devices, so counting continues regardless).
    public private(set) var listening = false
    /// Events not yet delivered, oldest first (bounded by `maxQueuedEvents`).
    var queued: [Event] = []
    static let maxQueuedEvents = 1_024

    public init(maxReportLatencyMs: Int64 = 0) {
        precondition(maxReportLatencyMs >= 0, "maxReportLatencyMs must not be negative")
        self.maxReportLatencyMs = maxReportLatencyMs
    }

    /// Registers or unregisters the app's listener. Registering delivers the current count at once
    /// (the sensor reports on activation).
    public mutating func setListening(_ on: Bool, nowElapsedMs: Int64) -> [Event] {
        listening = on
        guard on else {
            queued = []
            return []
        }
        return [Event(stepsSinceBoot: stepsSinceBoot, stepElapsedMs: nowElapsedMs, deliveredElapsedMs: nowElapsedMs)]
    }

    /// The user takes `steps` steps at `nowElapsedMs`. With a listener, an event is queued for
    /// delivery no later than `maxReportLatencyMs` after the first undelivered step (a FIFO flush).
    public mutating func walk(steps: Int64, nowElapsedMs: Int64) {
        precondition(steps >= 0, "steps must not be negative")
        guard steps > 0 else { return }
        stepsSinceBoot += steps
        guard listening else { return }
        let flushAt = queued.first.map { $0.deliveredElapsedMs } ?? nowElapsedMs + maxReportLatencyMs
        queued.append(Event(stepsSinceBoot: stepsSinceBoot, stepElapsedMs: nowElapsedMs, deliveredElapsedMs: flushAt))
        if queued.count > Self.maxQueuedEvents { queued.removeFirst(queued.count - Self.maxQueuedEvents) }
    }

    /// The next instant an event is due, if any (for the host's queue).
    public var nextDeliveryElapsedMs: Int64? { queued.first?.deliveredElapsedMs }

    /// Removes and returns the events due by `nowElapsedMs`, in order.
    public mutating func deliverDue(nowElapsedMs: Int64) -> [Event] {
        let due = queued.filter { $0.deliveredElapsedMs <= nowElapsedMs }
        queued.removeFirst(due.count)
        return due
    }

    /// Reboot: the count restarts at zero; the listener is gone with the process.
    public mutating func reboot() {
        stepsSinceBoot = 0
        listening = false
        queued = []
    }
}

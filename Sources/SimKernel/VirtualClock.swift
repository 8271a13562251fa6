/// The simulation's three views of time, all in integer milliseconds.
///
/// - *True time* (``nowMs``): the instant in the simulated world, as Unix-epoch
///   milliseconds. Only the run loop moves it, and only forward.
/// - *Wall time* (``wallMs``): what the device's calendar clock shows; true time plus a
///   modelled error that NTP or the user can correct (``correctWall(byMs:)``).
/// - *Monotonic time* (``monotonicMs``): milliseconds since the device last booted; immune to
///   wall corrections, restarted by ``reboot()``.
public struct VirtualClock: Sendable {
    /// The simulation's true time, in milliseconds since the Unix epoch; never decreases.
    public private(set) var nowMs: Int64
    /// How far the device's wall clock is ahead of true time, in milliseconds (negative: behind).
    public private(set) var wallOffsetMs: Int64
    /// The true time, in Unix-epoch milliseconds, at which the device last booted.
    public private(set) var bootAtMs: Int64

    /// Creates a clock whose true and wall time are `startMs` and whose monotonic time is zero.
    ///
    /// - Parameter startMs: The run's epoch, in milliseconds since the Unix epoch.
    public init(startMs: Int64) {
        self.nowMs = startMs
        self.wallOffsetMs = 0
        self.bootAtMs = startMs
    }

    /// The device's wall-clock reading, in milliseconds since the Unix epoch.
    public var wallMs: Int64 { nowMs + wallOffsetMs }

    /// Milliseconds since the device last booted.
    public var monotonicMs: Int64 { nowMs - bootAtMs }

    /// Moves true time forward to `trueMs`; wall and monotonic time move with it.
    ///
    /// - Parameter trueMs: The new true time, in Unix-epoch milliseconds; must not be earlier
    ///   than ``nowMs`` — the clock never goes back.
    public mutating func advance(to trueMs: Int64) {
        precondition(trueMs >= nowMs, "VirtualClock.advance(to: \(trueMs)) would move time back from \(nowMs)")
        nowMs = trueMs
        assert(monotonicMs >= 0, "monotonic time went negative")
    }

    /// Steps the wall clock by `delta` milliseconds (a modelled NTP or manual correction).
    ///
    /// True and monotonic time are untouched: a correction is a fault of the wall clock only.
    ///
    /// - Parameter delta: Milliseconds to add to the wall clock; negative steps it back.
    public mutating func correctWall(byMs delta: Int64) {
        wallOffsetMs += delta
    }

    /// Models a device reboot at the current instant: monotonic time restarts at zero.
    ///
    /// True time and wall time are untouched (the wall clock is battery-backed).
    public mutating func reboot() {
        bootAtMs = nowMs
        assert(monotonicMs == 0, "monotonic time must be zero right after a reboot")
    }
}

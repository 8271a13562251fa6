/// Bounds on one simulation run; hitting either is a reported failure with its seed, never a hang.
public struct RunLimits: Sendable, Equatable {
    /// The most events the run loop may process.
    public var maxEvents: Int
    /// The most virtual time the run may cover, in milliseconds after the run's epoch.
    public var maxVirtualTimeMs: Int64
    /// How a user raises the limits, for the `run-limit` message (a scenario's `param` line); the
    /// default says a seed never needs more.
    public var raiseHint = "a generated seed never needs more: a loop in the bridge or a model is the likely cause (report the repro line)"

    /// Creates limits for a run.
    ///
    /// - Parameter maxEvents: The most events to process; must be greater than zero.
    /// - Parameter maxVirtualTimeMs: The most virtual milliseconds to simulate; must be greater
    ///   than zero.
    public init(maxEvents: Int, maxVirtualTimeMs: Int64) {
        precondition(maxEvents > 0, "RunLimits: maxEvents must be greater than zero (got \(maxEvents))")
        precondition(maxVirtualTimeMs > 0, "RunLimits: maxVirtualTimeMs must be greater than zero (got \(maxVirtualTimeMs))")
        self.maxEvents = maxEvents
        self.maxVirtualTimeMs = maxVirtualTimeMs
    }

    /// 200 000 events or eight virtual days (a week of alarms plus a day of slack).
    public static let `default` = RunLimits(maxEvents: 200_000, maxVirtualTimeMs: 8 * 24 * 3_600_000)
}

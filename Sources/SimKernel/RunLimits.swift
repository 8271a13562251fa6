/// Bounds on one simulation run; hitting either is a reported failure with its seed, never a hang.
public struct RunLimits: Sendable, Equatable {
    /// The most events the run loop may process.
    public var maxEvents: Int
    /// The most virtual time the run may cover, in milliseconds after the run's epoch.
    public var maxVirtualTimeMs: Int64
    /// Whose limits these are, for the `run-limit` message: a generated seed's (never raised: a
    /// seed needing more is a loop in the bridge or a model) or a scenario file's (its `param`
    /// lines raise them).
    public var origin: Origin = .seed

    /// Whose limits a run has (``origin``).
    public enum Origin: Sendable, Equatable {
        case seed, scenario
    }

    /// The most events a scenario may ask for with `param sim.max-events` (minutes of work).
    public static let scenarioEventsCeiling = 20_000_000
    /// The most virtual days a scenario may ask for with `param sim.max-virtual-days` (ten years).
    public static let scenarioVirtualDaysCeiling = 3_650

    /// How a user raises the limits, for the `run-limit` message.
    public var raiseHint: String {
        switch origin {
        case .seed: "a generated seed never needs more: a loop in the bridge or a model is the likely cause (report the repro line)"
        case .scenario: "a scenario that needs more can raise it with 'param sim.max-events N' (up to \(Self.scenarioEventsCeiling)) "
            + "or 'param sim.max-virtual-days D' (up to \(Self.scenarioVirtualDaysCeiling))"
        }
    }

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

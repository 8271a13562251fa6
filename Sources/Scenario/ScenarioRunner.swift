import AlarmBridge
import SimKernel
import Simulation

/// The result of running one scenario file.
public struct ScenarioOutcome: Sendable {
    /// True when every `expect` line held.
    public var passed: Bool
    /// One line per unmet expectation: "file:line: expected …, got …".
    public var failures: [String]
    public var result: RunResult
}

/// Maps a parsed scenario onto the simulator and checks its expectations. (Being written.)
public enum ScenarioRunner {
    public static func run(_ scenario: ScenarioFile, keepFullTrace: Bool = false) -> ScenarioOutcome {
        fatalError("ScenarioRunner.run is being written")
    }
}

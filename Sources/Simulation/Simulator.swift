import AlarmBridge
import SimKernel

/// Runs one simulated device for one seed. (Being written: this entry point's signature is fixed.)
public enum Simulator {
    public static func run(_ options: RunOptions) -> RunResult {
        fatalError("Simulator.run is being written")
    }
}

import AlarmBridge
import Foundation
import Simulation
import Testing

/// SCH-20: the idempotent-sync probe runs a second sync on a copy of the bridge "with no
/// intervening change", so that sync must read the instant a real step would read then: the same
/// clocks, boot, zone and lock state. The probe had passed boot 0, no zone and an unlocked user:
/// after a reboot its copy took the clock anchor for another boot's, a change the probe itself made.
struct ProbeInstantsTests {
    /// Every instant any copy of a ``RecordingBridge`` was handed, in order; shared by the copies.
    final class InstantsLog: @unchecked Sendable {  // guarded by `lock`
        @TaskLocal static var current: InstantsLog?
        private let lock = NSLock()
        private var entries: [BridgeInstants] = []

        func append(_ instants: BridgeInstants) { lock.withLock { entries.append(instants) } }
        var all: [BridgeInstants] { lock.withLock { entries } }
    }

    /// The built-in bridge, recording the instants of every step, its probe copies' included.
    struct RecordingBridge: CoreBackedBridge {
        var core: BridgeCore
        let log: InstantsLog?
        init(configuration: BridgeConfiguration) {
            core = BridgeCore(configuration: configuration)
            log = InstantsLog.current
        }
        mutating func handle(_ input: BridgeInput, at now: BridgeInstants) -> [BridgeCommand] {
            log?.append(now)
            return core.handle(input, at: now)
        }
    }

    @Test("Every step at one clock reading reads one boot, zone and lock state, the probe's second sync included",
          arguments: [PlatformFlavor.ios, .android])
    func probeReadsTheStepsInstant(_ platform: PlatformFlavor) {
        var rebootedPairs = 0
        for seed in UInt64(1)...30 {
            let log = InstantsLog()
            var options = RunOptions(platform: platform, seed: seed, faults: FaultSelection(profile: .swarm))
            options.bridge = BridgeFactory(RecordingBridge.self)
            _ = InstantsLog.$current.withValue(log) { Simulator.run(options) }
            var seen: [String: BridgeInstants] = [:]  // looked up only, never iterated
            for instants in log.all {
                let clocks = "\(instants.wallMs)/\(instants.monotonicMs)"
                guard let earlier = seen[clocks] else { seen[clocks] = instants; continue }
                #expect(earlier == instants, "\(platform.rawValue) seed \(seed): two steps at one clock reading read different devices")
                if instants.bootCount > 0 { rebootedPairs += 1 }
            }
        }
        // Not vacuous: some steps shared a clock reading after a reboot (a sync and its probe).
        #expect(rebootedPairs > 0)
    }
}

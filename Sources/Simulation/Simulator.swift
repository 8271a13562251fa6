import AlarmBridge
import SimKernel

/// Runs one simulated device for one seed: a pure function of (platform, seed, defects, faults).
public enum Simulator {
    /// Draws the seed's world (zone, start, alarms, platform parameters, swarm fault profile,
    /// ambient user plan) and runs it, checking every invariant after every event.
    public static func run(_ options: RunOptions) -> RunResult {
        let (setup, parameters) = runSetup(options)
        return run(setup: setup, parameters: parameters, options: options)
    }

    /// The setup `run(_:)` runs for `options`: the seed's world drawn with `options.faults`, and
    /// the liveness phase switched on or off by `options.liveness` (its bounds printed with the
    /// parameters; no parameters when `options.recordsTrace` is false). The shrinker starts from
    /// the same setup.
    public static func runSetup(_ options: RunOptions) -> (DeviceSetup, [RunParameter]) {
        var (setup, parameters) = SeedGenerator.setup(platform: options.platform, seed: options.seed, faults: options.faults,
                                                      describing: options.recordsTrace)
        setup.liveness.enabled = options.liveness
        if options.recordsTrace { parameters += setup.liveness.parameters(boundaryWallMs: setup.startWallMs + setup.durationMs) }
        return (setup, parameters)
    }

    /// Runs an explicit setup (scenario files, tests). The liveness phase runs when both the
    /// setup (`setup.liveness.enabled`) and the options (`options.liveness`) ask for it.
    public static func run(setup: DeviceSetup, parameters: [RunParameter], options: RunOptions) -> RunResult {
        var setup = setup
        setup.liveness.enabled = setup.liveness.enabled && options.liveness
        let world = World(setup: setup, defects: options.defects, keepFullTrace: options.keepFullTrace,
                          recordsTrace: options.recordsTrace, bridge: options.bridge)
        world.run(limits: options.limits)
        let exemptions = world.exemptionCounts.keys.sorted().map { RunParameter($0, String(world.exemptionCounts[$0]!)) }
        var result = RunResult(platform: options.platform, seed: options.seed, defects: options.defects,
                               parameters: parameters, violations: world.violations, exemptions: exemptions,
                               traceHashHex: world.trace.isRecording ? world.trace.hashHex : "", eventCount: world.eventsProcessed,
                               virtualDurationMs: world.nowMs - setup.startWallMs, trace: world.trace)
        result.scenarioFailures = world.scenarioFailures
        result.coverage = world.coverage
        result.faults = options.faults
        result.reactiveActions = world.reactiveActions
        result.liveness = setup.liveness.enabled
        // A legacy install's alarms were saved by the older version: they are this bridge's only
        // once a process of it ran, at or before the first violation. A world where it never ran
        // shows no bug of this bridge (issue 16 part 5: iOS uniform 249 shrank to a file with no
        // launch, which fails on the correct bridge too).
        let bridgeRan = world.firstLaunchMs.map { launch in world.violations.first.map { launch <= $0.trueMs } ?? true } ?? false
        let legacy = bridgeRan ? (setup.legacyInstall?.document.alarms.map(\.id) ?? []) : []
        result.savedAlarmIDs = Set(world.jsSaves.accepted + legacy).sorted()
        return result
    }
}

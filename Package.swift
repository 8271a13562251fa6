// swift-tools-version:6.0
// alarmsim — a deterministic discrete-event simulator for alarm-app native bridges.
// No package dependencies: Swift standard library, Foundation, and the toolchain's
// swift-testing only (see ../shared/DESIGN.md, "Package layout").
import PackageDescription

let package = Package(
    name: "alarmsim",
    products: [
        .executable(name: "alarmsim", targets: ["alarmsim"]),
        .library(name: "AlarmBridge", targets: ["AlarmBridge"]),
        // alarmsim as a library (issue 19): run scenarios and fuzz campaigns against your own
        // bridge (any `BridgeUnderTest`); Examples/ is a package that uses them.
        .library(name: "AlarmSimHarness", targets: ["AlarmSimHarness"]),
        // The harness's swift-testing glue: one `Issue` per failing seed, with its repro line.
        .library(name: "AlarmSimTesting", targets: ["AlarmSimTesting"]),
        // The simulator's own modules, for callers that need more than the harness.
        .library(name: "AlarmSimulation", targets: ["Simulation", "Scenario", "Campaign", "Reporting"]),
    ],
    targets: [
        // Virtual time, event queue, PRNG with named sub-streams, trace + hash. stdlib only.
        .target(name: "SimKernel"),
        // The system under test: sans-I/O bridge core + platform adapters. Never imports the simulator.
        .target(name: "AlarmBridge"),
        .target(name: "IOSModel", dependencies: ["SimKernel", "AlarmBridge"]),
        .target(name: "AndroidModel", dependencies: ["SimKernel", "AlarmBridge"]),
        .target(name: "Simulation", dependencies: ["SimKernel", "AlarmBridge", "IOSModel", "AndroidModel"]),
        .target(name: "Scenario", dependencies: ["SimKernel", "AlarmBridge", "IOSModel", "AndroidModel", "Simulation"]),
        .target(name: "Campaign", dependencies: ["Simulation", "Scenario"]),
        .target(name: "Reporting", dependencies: ["Campaign", "Simulation", "SimKernel"]),
        // The CLI's commands, as a library so tests call them in-process; `alarmsim` is main.swift only.
        .target(name: "AlarmSimCLI", dependencies: ["Campaign", "Reporting", "Scenario", "Simulation", "SimKernel"]),
        .executableTarget(name: "alarmsim", dependencies: ["AlarmSimCLI"]),
        // The library face (issue 19): scenarios, campaigns, replay for any bridge.
        .target(name: "AlarmSimHarness", dependencies: ["AlarmBridge", "Campaign", "Reporting", "Scenario", "Simulation", "SimKernel"]),
        .target(name: "AlarmSimTesting", dependencies: ["AlarmSimHarness"]),

        .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"]),
        .testTarget(name: "AlarmBridgeTests", dependencies: ["AlarmBridge", "SimKernel"]),
        .testTarget(name: "IOSModelTests", dependencies: ["IOSModel", "SimKernel", "AlarmBridge"]),
        .testTarget(name: "AndroidModelTests", dependencies: ["AndroidModel", "SimKernel", "AlarmBridge"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Scenario", "AlarmBridge"]),
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario"]),
        .testTarget(name: "CampaignTests", dependencies: ["Campaign"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting"]),
        .testTarget(name: "AlarmSimCLITests", dependencies: ["AlarmSimCLI"]),
        .testTarget(name: "AlarmSimHarnessTests", dependencies: ["AlarmSimHarness", "AlarmSimTesting", "Simulation", "AlarmBridge"]),
    ]
)

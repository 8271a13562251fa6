// swift-tools-version:6.0
// An example of testing your own alarm bridge with alarmsim (issue 19): `NaiveBridge` is a
// first-draft bridge; `NaiveBridgeTests` runs scenarios and a fuzz campaign over it through the
// `AlarmSimHarness` library and proves what alarmsim catches. No other dependencies.
import PackageDescription

let package = Package(
    name: "NaiveBridgeExample",
    dependencies: [
        // Your package would write `.package(url: "…/alarmsim.git", from: "…")`; this one sits
        // inside the alarmsim checkout.
        // `name:` lets the products below say `package: "alarmsim"` whatever the checkout's
        // directory is called (a path dependency's identity is otherwise its directory name).
        .package(name: "alarmsim", path: ".."),
    ],
    targets: [
        // The bridge only needs the bridge vocabulary (inputs, commands, store document).
        .target(name: "NaiveBridge", dependencies: [.product(name: "AlarmBridge", package: "alarmsim")]),
        .testTarget(name: "NaiveBridgeTests",
                    dependencies: [
                        "NaiveBridge",
                        .product(name: "AlarmBridge", package: "alarmsim"),
                        .product(name: "AlarmSimHarness", package: "alarmsim"),
                        .product(name: "AlarmSimTesting", package: "alarmsim"),
                        .product(name: "AlarmSimulation", package: "alarmsim"),
                    ],
                    exclude: ["Scenarios"]),
    ]
)

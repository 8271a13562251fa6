import AlarmBridge

/// How the world creates the bridge under test for each new app process: a name (printed in
/// repro lines and reports of a foreign bridge) and a constructor. The built-in ``BridgeCore``
/// is the default everywhere (``builtIn``); a team tests its own bridge with
/// ``init(_:name:)`` (the `AlarmSimHarness` library does this for a conforming type).
///
/// The world keeps the bridge as `any BridgeUnderTest` (an existential, one box per process):
/// measured no slower than the concrete type on the built-in bridge (issue 19 note).
public struct BridgeFactory: Sendable, Equatable {
    /// The bridge's name: `BridgeCore` for the built-in one, the conforming type's name otherwise.
    public let name: String
    /// Creates the bridge of a new process (empty memory) from the run's configuration.
    public let make: @Sendable (BridgeConfiguration) -> any BridgeUnderTest

    /// A factory for any conforming type: each process gets `Bridge(configuration:)`.
    ///
    /// - Parameter bridge: The conforming type.
    /// - Parameter name: Printed in repro lines and reports; defaults to the type's name.
    public init<Bridge: BridgeUnderTest>(_ bridge: Bridge.Type, name: String? = nil) {
        self.name = name ?? String(describing: bridge)
        self.make = { Bridge(configuration: $0) }
    }

    /// The built-in bridge (`Sources/AlarmBridge`), with its known-defect switches.
    public static let builtIn = BridgeFactory(BridgeCore.self)

    /// True for the built-in bridge: the CLI's repro lines (`alarmsim replay …`) replay only it.
    public var isBuiltIn: Bool { name == BridgeFactory.builtIn.name }

    /// Two factories are equal when they name the same bridge (a closure has no identity to compare).
    public static func == (lhs: BridgeFactory, rhs: BridgeFactory) -> Bool { lhs.name == rhs.name }
}

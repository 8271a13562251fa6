import AlarmBridge
import Scenario
import Simulation
import Synchronization
import Testing

/// Android `ApplicationExitInfo` (API 30+): a new process is told how the app's earlier processes
/// ended, newest first, with the wall clock at each death; the bridge dates a force-stop's removal
/// of every alarm by it (`launchAlarmsClearedSpan`, android uniform seed 31485).
@Suite(.serialized)
struct ProcessExitInfoTests {
    /// Every `exits` list a launch handed the bridge, in launch order.
    static let launches = Mutex<[[ProcessExit]]>([])

    /// Records each launch's exit history, then behaves as the built-in bridge.
    struct RecordingBridge: CoreBackedBridge {
        var core: BridgeCore
        init(configuration: BridgeConfiguration) { core = BridgeCore(configuration: configuration) }
        mutating func handle(_ input: BridgeInput, at now: BridgeInstants) -> [BridgeCommand] {
            if case .processStarted(_, let exits) = input { ProcessExitInfoTests.launches.withLock { $0.append(exits) } }
            return core.handle(input, at: now)
        }
    }

    static func launchesOf(apiLevel: Int, platform: String = "android") throws -> [[ProcessExit]] {
        let text = """
            platform \(platform)
            start 2026-08-08 22:00 UTC
            \(platform == "android" ? "param android.api-level \(apiLevel)\nparam android.swipe-force-stops on" : "")
            alarm a1 07:00 weekly sun
            at +1d 03:00 user open-app
            at +1d 03:00:10 user force-quit
            at +1d 03:30 user open-app
            at +1d 03:31 user leave-app
            at +1d 04:00 device reboot
            at +1d 04:10 user open-app
            expect no violations

            """
        let scenario = try ScenarioParser.parse(text, file: "exit-info.scenario", knownDefects: KnownDefect.allCases.map(\.rawValue),
                                                knownInvariants: InvariantCatalog.all.map(\.id))
        launches.withLock { $0 = [] }
        let outcome = ScenarioRunner.run(scenario, bridge: BridgeFactory(RecordingBridge.self))
        #expect(outcome.passed, "\(outcome.failures)")
        return launches.withLock { $0 }
    }

    @Test("API 30+: each launch gets the app's exits newest first; a force-stop is REASON_USER_REQUESTED at its instant; a reboot adds none")
    func exitHistoryReachesTheBridge() throws {
        let forceStopMs: Int64 = 1_786_244_410_000  // 2026-08-09 03:00:10 UTC
        let launches = try Self.launchesOf(apiLevel: 34)
        let afterForceStop = try #require(launches.first { $0.first?.reason == .userRequested })
        #expect(afterForceStop.first?.wallMs == forceStopMs)
        // Later launches see the same record at the head, or a newer one: never a reboot's.
        let last = try #require(launches.last)
        #expect(last.contains(ProcessExit(reason: .userRequested, wallMs: forceStopMs)))
        #expect(last.allSatisfy { $0.wallMs <= forceStopMs || $0.reason != .userRequested })
        #expect(launches.allSatisfy { exits in zip(exits, exits.dropFirst()).allSatisfy { $0.wallMs >= $1.wallMs } })
    }

    @Test("before API 30, and on iOS, no exit history reaches the bridge")
    func noHistoryWithoutTheAPI() throws {
        #expect(try Self.launchesOf(apiLevel: 29).allSatisfy(\.isEmpty))
        #expect(try Self.launchesOf(apiLevel: 0, platform: "ios").allSatisfy(\.isEmpty))
    }
}

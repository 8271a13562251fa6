import AlarmBridge
import Reporting
import Simulation
import Testing

/// Runs the real simulator.
@Suite("TraceWriter: replay determinism")
struct ReplayDeterminismTests {
    @Test("replaying the same seed in-process twice gives an identical trace hash and identical JSON Lines",
          arguments: [(PlatformFlavor.ios, UInt64(7)), (.android, 7), (.ios, 123), (.android, 4711)])
    func replayTwice(_ platform: PlatformFlavor, _ seed: UInt64) throws {
        let options = RunOptions(platform: platform, seed: seed, keepFullTrace: true)
        let first = Simulator.run(options)
        let second = Simulator.run(options)
        #expect(first.traceHashHex == second.traceHashHex)
        #expect(first.eventCount == second.eventCount)
        #expect(first.parameters == second.parameters)
        #expect(first.violations == second.violations)
        let firstLines = TraceWriter.jsonLines(first)
        #expect(firstLines == TraceWriter.jsonLines(second))
        #expect(firstLines.split(separator: "\n").count == first.trace.count + 1, "a full trace keeps every event")
    }

    @Test("the trace hash covers every event, whether the trace keeps them all or only the last few")
    func hashIndependentOfKeptEvents() {
        let full = Simulator.run(RunOptions(platform: .ios, seed: 7, keepFullTrace: true))
        let ring = Simulator.run(RunOptions(platform: .ios, seed: 7, keepFullTrace: false))
        #expect(full.traceHashHex == ring.traceHashHex)
        #expect(full.eventCount == ring.eventCount)
        #expect(full.trace.count == ring.trace.count)
    }
}

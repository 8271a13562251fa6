import AlarmBridge
import Simulation
import Testing

/// Fuzz mode keeps a bounded ring of the last events; replay keeps them all. Both must be the
/// same run: same trace hash, same event count, same violation (issue 8, "Benchmarks": a
/// campaign's memory must not grow with a seed's length).
@Suite("Trace ring: fuzz mode is the same run as replay")
struct TraceRingTests {
    @Test("ring and full trace give the same hash, events and first violation; the ring keeps at most K events, the last ones",
          arguments: [
              (PlatformFlavor.ios, UInt64(1), [KnownDefect]()),
              (.android, 2, []),
              (.ios, 1, [.titleInRingID]),  // fails stable-ids
              (.android, 3, [.titleInRingID]),
              (.ios, 17, []),
          ])
    func ringMatchesFullTrace(_ platform: PlatformFlavor, _ seed: UInt64, _ defects: [KnownDefect]) {
        let capacity = RunOptions.fuzzTraceRingCapacity
        let full = Simulator.run(RunOptions(platform: platform, seed: seed, defects: defects, keepFullTrace: true))
        let ring = Simulator.run(RunOptions(platform: platform, seed: seed, defects: defects, keepFullTrace: false))
        #expect(full.traceHashHex == ring.traceHashHex)
        #expect(full.eventCount == ring.eventCount)
        #expect(full.violations == ring.violations)
        #expect(full.exemptions == ring.exemptions)
        #expect(full.trace.count == ring.trace.count)
        #expect(ring.trace.keepLast == capacity)
        #expect(full.trace.keepLast == nil)
        #expect(full.trace.events.count == full.trace.count, "replay keeps every event")
        #expect(ring.trace.events.count == min(ring.trace.count, capacity), "the ring holds at most K events")
        #expect(ring.trace.events == Array(full.trace.events.suffix(capacity)), "the ring holds the last K events, oldest first")
        if !defects.isEmpty {
            #expect(ring.firstViolation != nil, "the defect seed is expected to fail, so the violation comparison means something")
        }
    }

    @Test("a seed long enough to overflow the ring still ends with the same hash")
    func ringOverflows() {
        let run = Simulator.run(RunOptions(platform: .ios, seed: 1))
        #expect(run.trace.count > RunOptions.fuzzTraceRingCapacity, "seed 1 is expected to record more events than the ring keeps")
        #expect(run.trace.events.count == RunOptions.fuzzTraceRingCapacity)
        #expect(run.trace.events.last?.index == run.trace.count - 1)
    }

    @Test("a counting-only trace (how a campaign runs its seeds) is the same run: same events, verdict, exemptions, coverage and actors; nothing kept or hashed",
          arguments: [
              (PlatformFlavor.ios, UInt64(1), [KnownDefect]()),
              (.android, 2, []),
              (.ios, 1, [.titleInRingID]),  // fails stable-ids
              (.android, 3, [.titleInRingID]),
              (.android, 9, []),
              (.ios, 17, []),
          ])
    func countingOnlyIsTheSameRun(_ platform: PlatformFlavor, _ seed: UInt64, _ defects: [KnownDefect]) {
        let recorded = Simulator.run(RunOptions(platform: platform, seed: seed, defects: defects))
        var options = RunOptions(platform: platform, seed: seed, defects: defects)
        options.recordsTrace = false
        let counted = Simulator.run(options)
        #expect(counted.eventCount == recorded.eventCount)
        #expect(counted.trace.count == recorded.trace.count)
        #expect(counted.violations == recorded.violations)
        #expect(counted.exemptions == recorded.exemptions)
        #expect(counted.coverage.hits == recorded.coverage.hits)
        #expect(counted.reactiveActions == recorded.reactiveActions)
        #expect(counted.virtualDurationMs == recorded.virtualDurationMs)
        #expect(!counted.trace.isRecording && counted.trace.events.isEmpty && counted.traceHashHex.isEmpty)
        #expect(recorded.trace.isRecording && recorded.traceHashHex.count == 16)
        #expect(counted.parameters.isEmpty && !recorded.parameters.isEmpty, "a counting run prints no parameters")
        if !defects.isEmpty {
            #expect(counted.firstViolation != nil, "the defect seed is expected to fail, so the violation comparison means something")
        }
    }
}

import SimKernel
import Testing

@Suite("VirtualClock")
struct VirtualClockTests {
    static let epochMs: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z

    @Test("a new clock has true and wall time at the start and monotonic time zero")
    func initialState() {
        let clock = VirtualClock(startMs: Self.epochMs)
        #expect(clock.nowMs == Self.epochMs)
        #expect(clock.wallMs == Self.epochMs)
        #expect(clock.monotonicMs == 0)
        #expect(clock.wallOffsetMs == 0)
        #expect(clock.bootAtMs == Self.epochMs)
    }

    @Test("advancing moves true, wall and monotonic time together; advancing to now is allowed")
    func advance() {
        var clock = VirtualClock(startMs: Self.epochMs)
        clock.advance(to: Self.epochMs + 5_000)
        clock.advance(to: Self.epochMs + 5_000)
        #expect(clock.nowMs == Self.epochMs + 5_000)
        #expect(clock.wallMs == Self.epochMs + 5_000)
        #expect(clock.monotonicMs == 5_000)
    }

    @Test("a wall correction moves wall time but not true or monotonic time", arguments: [Int64(-3_600_000), 90_000])
    func correctionMovesWallOnly(deltaMs: Int64) {
        var clock = VirtualClock(startMs: Self.epochMs)
        clock.advance(to: Self.epochMs + 1_000)
        clock.correctWall(byMs: deltaMs)
        #expect(clock.wallMs == Self.epochMs + 1_000 + deltaMs)
        #expect(clock.nowMs == Self.epochMs + 1_000)
        #expect(clock.monotonicMs == 1_000)
        clock.advance(to: Self.epochMs + 2_000)
        #expect(clock.wallMs == Self.epochMs + 2_000 + deltaMs)  // The offset persists.
        clock.correctWall(byMs: -deltaMs)
        #expect(clock.wallMs == clock.nowMs)
    }

    @Test("a reboot restarts monotonic time at zero and leaves wall and true time alone")
    func rebootResetsMonotonicOnly() {
        var clock = VirtualClock(startMs: Self.epochMs)
        clock.correctWall(byMs: 250)
        clock.advance(to: Self.epochMs + 60_000)
        clock.reboot()
        #expect(clock.monotonicMs == 0)
        #expect(clock.bootAtMs == Self.epochMs + 60_000)
        #expect(clock.nowMs == Self.epochMs + 60_000)
        #expect(clock.wallMs == Self.epochMs + 60_250)
        clock.advance(to: Self.epochMs + 61_000)
        #expect(clock.monotonicMs == 1_000)
    }
}

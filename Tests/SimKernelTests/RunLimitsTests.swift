import SimKernel
import Testing

@Suite("RunLimits")
struct RunLimitsTests {
    @Test("the default allows 200 000 events and eight virtual days")
    func defaults() {
        #expect(RunLimits.default.maxEvents == 200_000)
        #expect(RunLimits.default.maxVirtualTimeMs == 691_200_000)
        #expect(RunLimits.default == RunLimits(maxEvents: 200_000, maxVirtualTimeMs: 8 * 24 * 3_600_000))
    }

    @Test("limits are mutable values compared by field")
    func mutation() {
        var limits = RunLimits.default
        limits.maxEvents = 10
        #expect(limits != RunLimits.default)
        #expect(limits == RunLimits(maxEvents: 10, maxVirtualTimeMs: RunLimits.default.maxVirtualTimeMs))
    }
}

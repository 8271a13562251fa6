@testable import AlarmSimCLI
import AlarmBridge
import Campaign
import Foundation
import Simulation
import SimKernel
import Testing

/// The worker's answer line (issue 20): a seed's outcome with its coverage hits written sparse
/// reads back as the same outcome, and a malformed coverage field is refused, never guessed.
@Suite("Worker answers: sparse coverage")
struct WorkerAnswerTests {
    static func outcome(hits: [Int], violation: Violation? = nil) -> SeedOutcome {
        SeedOutcome(platform: .android, seed: 4711, events: 321, exemptions: [RunParameter("process-death", "2")],
                    coverageHits: hits, violation: violation)
    }

    @Test("random coverage vectors (zeros, large counts, empty) survive the JSON line unchanged")
    func roundTrip() throws {
        var rng = Xoshiro256StarStar(seed: 20)
        let violation = Violation(invariant: "never-silent", rules: ["OCC-1"], message: "a1.mon, \"quoted\" x:1,2",
                                  trueMs: 5, wallMs: 6, eventIndex: 7)
        for trial in 0..<200 {
            let count = trial == 0 ? 0 : Int(rng.uniform(below: 90))
            let hits = (0..<count).map { _ in rng.uniform(below: 5) != 0 ? 0 : Int(rng.uniform(below: 1_000_000)) }
            let original = Self.outcome(hits: hits, violation: trial % 3 == 0 ? violation : nil)
            let line = try JSONEncoder().encode(WorkerAnswer(original))
            let decoded = try JSONDecoder().decode(WorkerAnswer.self, from: line).outcome
            #expect(decoded == original)
        }
        #expect(WorkerAnswer(Self.outcome(hits: [0, 3, 0, 0, 12])).coverage == "5:1x3,4x12")
    }

    @Test("a malformed coverage field gives no outcome", arguments: [
        "", "5", "x:1x1", "-1:", "5:1x3,1x4", "5:5x1", "5:-1x1", "5:1x0", "5:1x", "5:x3", "5:1x3x4", "5:1x3,", "200000:",
    ])
    func malformed(coverage: String) {
        var answer = WorkerAnswer(Self.outcome(hits: [0, 0, 0, 0, 0]))
        answer.coverage = coverage
        #expect(answer.outcome == nil)
    }
}

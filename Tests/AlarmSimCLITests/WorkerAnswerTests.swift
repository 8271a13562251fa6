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

    @Test("a clean seed's answer is one compact line that reads back as the same outcome; a violation, a signal or an odd exemption stays JSON")
    func compactLine() throws {
        var rng = Xoshiro256StarStar(seed: 21)
        let encoder = JSONEncoder(), decoder = JSONDecoder()
        let violation = Violation(invariant: "never-silent", rules: ["OCC-1"], message: "C ios 1 2 3:", trueMs: 5, wallMs: 6, eventIndex: 7)
        for trial in 0..<300 {
            let count = Int(rng.uniform(below: 80))
            let hits = (0..<count).map { _ in rng.uniform(below: 4) != 0 ? 0 : Int(rng.uniform(below: 100_000)) }
            var outcome = SeedOutcome(platform: trial % 2 == 0 ? .ios : .android, seed: rng.next(), events: Int(rng.uniform(below: 10_000)),
                                      exemptions: (0..<Int(rng.uniform(below: 4))).map { RunParameter("kind-\($0)", "\(rng.uniform(below: 50))") },
                                      coverageHits: hits, violation: trial % 7 == 0 ? violation : nil)
            if trial % 11 == 0 { outcome.exemptions.append(RunParameter("odd name", "a=b;c")) }
            let line = WorkerAnswer(outcome).line(encoder: encoder)
            let clean = trial % 7 != 0 && trial % 11 != 0
            #expect(line.hasPrefix("C ") == clean, "\(line)")
            #expect(!line.contains("\n"))
            #expect(WorkerAnswer.parse(Array(line.utf8), decoder: decoder)?.outcome == outcome, "\(line)")
        }
        let sample = SeedOutcome(platform: .ios, seed: 17, events: 512, exemptions: [RunParameter("process-death", "2"), RunParameter("force-quit", "1")],
                                 coverageHits: [0, 6, 0, 1], violation: nil)
        #expect(WorkerAnswer(sample).line(encoder: encoder) == "C ios 17 512 4:1x6,3x1 process-death=2;force-quit=1")
        #expect(WorkerAnswer(SeedOutcome(platform: .android, seed: 3, events: 0, exemptions: [], coverageHits: [], violation: nil)).line(encoder: encoder) == "C android 3 0 0: -")
    }

    @Test("a malformed compact line gives no answer", arguments: [
        "C", "C ios 17 512 4:1x6", "C ios 17 512 4:1x6 - extra", "C mac 17 512 4: -", "C ios -1 512 4: -", "C ios 17 -5 4: -",
        "C ios 17 512  -", "C ios 17 512 4: ", "C ios 17 512 4: a", "C ios 17 512 4: a=", "C ios 17 512 4: =1", "C ios 17 512 4: a=1;",
        "C ios 17 512 4: a=1=2", "C ios 17 512 4: a b=1", "C  ios 17 512 4: -", "Cios 17 512 4: -",
    ])
    func malformedCompact(line: String) {
        let answer = WorkerAnswer.parse(Array(line.utf8), decoder: JSONDecoder())
        #expect(answer == nil, "\(line)")
    }
}

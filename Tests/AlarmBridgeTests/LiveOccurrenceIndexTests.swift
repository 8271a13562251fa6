@testable import AlarmBridge
import Foundation
import SimKernel
import Testing

/// `BridgeDocument.liveOccurrence` (issue 20: the live record's index is kept by every change of
/// `occurrences` instead of a scan per question) answers what a scan of the history answers,
/// after any sequence of changes, a decode included.
@Suite("BridgeDocument.liveOccurrence by a kept index")
struct LiveOccurrenceIndexTests {
    static func scanned(_ document: BridgeDocument) -> OccurrenceRecord? {
        document.occurrences.last { $0.state == .live }
    }

    static func record(_ serial: Int, state: OccurrenceState) -> OccurrenceRecord {
        OccurrenceRecord(token: "t\(serial)", rootID: "a1.mon", startedAtMs: Int64(serial) * 60_000, policy: .v3,
                         lastActivityMs: nil, state: state, closedAtMs: state == .live ? nil : Int64(serial) * 60_000 + 1)
    }

    @Test("after 2,000 random changes of the history (append, update, close, remove, replace, decode), the live occurrence equals the scan")
    func matchesScan() throws {
        var random = SplitMix64(seed: 20)
        var document = BridgeDocument()
        var mismatches: [Int] = []
        let states: [OccurrenceState] = [.live, .completed, .expired, .abandoned, .retired]
        for step in 0..<2_000 {
            let draw = Int(random.next() % 7)
            switch draw {
            case 0, 1: document.occurrences.append(Self.record(step, state: states[Int(random.next() % 5)]))
            case 2: document.update(Self.record(Int(random.next() % UInt64(step + 1)), state: states[Int(random.next() % 5)]))
            case 3 where !document.occurrences.isEmpty:
                document.occurrences[Int(random.next() % UInt64(document.occurrences.count))].state = states[Int(random.next() % 5)]
            case 4 where !document.occurrences.isEmpty:
                document.occurrences.remove(at: Int(random.next() % UInt64(document.occurrences.count)))
            case 5: document.occurrences = Array(document.occurrences.suffix(Int(random.next() % 8)))
            default:
                document = try JSONDecoder().decode(BridgeDocument.self, from: JSONEncoder().encode(document))
            }
            let copy = document  // a copy answers the same, and a change to it never shows through
            if document.liveOccurrence != Self.scanned(document) || copy.liveOccurrence != Self.scanned(copy)
                || document.hasLiveOccurrence != (Self.scanned(document) != nil) {
                mismatches.append(step)
            }
        }
        #expect(mismatches.isEmpty, "steps \(mismatches.prefix(10))")
    }
}

import AlarmBridge
import SimKernel
@testable import Simulation
import Testing

/// The oracle's binary searches over definitions sorted by ID (issue 20) must give exactly what
/// the scans, `removeAll` + `append` + sort they replaced gave, or traces would change.
@Suite("Sorted alarms: binary search equals the scan it replaced")
struct SortedAlarmsTests {
    static func alarm(_ id: String, minute: Int = 0) -> LogicalAlarm {
        LogicalAlarm(id: id, hour: 7, minute: minute, repeats: .weekly([.monday]), title: "t")
    }

    @Test("2,000 random upserts, lookups and removals agree with the scan and sort")
    func randomOperationsAgree() {
        var rng = Xoshiro256StarStar(seed: 20)
        var sorted: [LogicalAlarm] = []
        var reference: [LogicalAlarm] = []
        // IDs that sort unlike numbers ("a10" < "a9"), with a non-ASCII one.
        let ids = (1...60).map { "a\($0)" } + ["é1", "A1", "a"]
        for _ in 0..<2_000 {
            let id = ids[Int(rng.next() % UInt64(ids.count))]
            switch rng.next() % 3 {
            case 0:
                let definition = Self.alarm(id, minute: Int(rng.next() % 60))
                let replaced = sorted.upsertSortedByID(definition)
                let old = reference.first { $0.id == id }
                reference.removeAll { $0.id == id }
                reference.append(definition)
                reference.sort { $0.id < $1.id }
                #expect(replaced == old)
            case 1:
                #expect(sorted.sortedByIDElement(id) == reference.first { $0.id == id })
                #expect(sorted.searchSortedByID(id).found == reference.contains { $0.id == id })
            default:
                let (index, found) = sorted.searchSortedByID(id)
                if found { sorted.remove(at: index) }
                reference.removeAll { $0.id == id }
            }
            #expect(sorted == reference)
            #expect(sorted.isSortedByUniqueID)
        }
    }

    @Test("an unsorted or duplicated array is not sorted by unique ID")
    func sortednessIsChecked() {
        #expect([Self.alarm("a2"), Self.alarm("a1")].isSortedByUniqueID == false)
        #expect([Self.alarm("a1"), Self.alarm("a1")].isSortedByUniqueID == false)
        #expect([Self.alarm("a1"), Self.alarm("a10"), Self.alarm("a2")].isSortedByUniqueID)
        #expect([LogicalAlarm]().isSortedByUniqueID)
    }
}

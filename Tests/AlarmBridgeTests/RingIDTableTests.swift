@testable import AlarmBridge
import SimKernel
import Testing

/// `RingIDTable`, `RingIDSet` and `RingsByID` (issue 20: open addressing instead of SipHash)
/// answer exactly what a scan answers: membership, and the first element of an ID, duplicates,
/// patterned IDs (legacy ones may be any 128 bits) and absent IDs included.
@Suite("Ring ID tables answer as a scan does")
struct RingIDTableTests {
    /// SimKernel's SplitMix64, with a bounded draw.
    struct Generator {
        var base: SplitMix64
        init(state: UInt64) { base = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { base.next() }
        mutating func uniform(below bound: UInt64) -> UInt64 { next() % bound }
    }

    static func uuid(_ high: UInt64, _ low: UInt64) -> AlarmUUID {
        AlarmUUID(bytes: (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64($0))) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64($0))) })
    }

    /// Random, sequential, same-high and same-low IDs, with repeats.
    static func idLists() -> [[AlarmUUID]] {
        var rng = Generator(state: 77)
        var lists: [[AlarmUUID]] = [[]]
        for trial in 0..<120 {
            let count = Int(rng.uniform(below: 300))
            var ids: [AlarmUUID] = (0..<count).map { index in
                switch trial % 4 {
                case 0: return uuid(rng.next(), rng.next())
                case 1: return uuid(0, UInt64(index))
                case 2: return uuid(0xABCD, UInt64(index) << 40)
                default: return uuid(UInt64(index), 7)
                }
            }
            if count > 3 { for _ in 0..<count / 3 { ids.append(ids[Int(rng.uniform(below: UInt64(count)))]) } }  // repeats
            if trial % 5 == 0 { ids.sort() }
            lists.append(ids)
        }
        return lists
    }

    @Test("membership and first index equal a scan's, for present and absent IDs")
    func matchesScan() {
        var rng = Generator(state: 78)
        for ids in Self.idLists() {
            let set = RingIDSet(ids)
            let table = RingIDTable(count: ids.count) { ids[$0] }
            let rows = ids.enumerated().map { PlatformAlarm(id: $0.element, state: $0.offset % 2 == 0 ? .scheduled : .alerting) }
            let byID = RingsByID(rows)
            let probes = ids + (0..<50).map { _ in Self.uuid(rng.next(), rng.next()) } + [Self.uuid(0, 100_000), Self.uuid(0xABCD, 1)]
            for id in probes {
                #expect(set.contains(id) == ids.contains(id))
                #expect(table.firstIndex(of: id) { ids[$0] } == ids.firstIndex(of: id))
                #expect(byID[id] == rows.first { $0.id == id })
            }
        }
    }
}

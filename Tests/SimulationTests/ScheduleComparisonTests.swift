import AlarmBridge
@testable import Simulation
import Testing

/// `World.sameSchedule` (issue 20) decides exactly what comparing each root's key string decided
/// before it: the root ID with `String`'s equality, then hour, minute, weekday and one-shot
/// instant, root by root.
@Suite("a save's schedule comparison")
struct ScheduleComparisonTests {
    /// The key string a save built for each root before (World+Save.swift until issue 20).
    static func keyString(_ root: Root) -> String {
        "\(root.id)|\(root.hour):\(root.minute)|\(root.weekday?.description ?? "-")|\(root.onceFireWallMs.map(String.init) ?? "-")"
    }

    static let alarms: [LogicalAlarm] = [
        LogicalAlarm(id: "a1", hour: 1, minute: 23, repeats: .weekly([.monday, .friday]), title: "t"),
        LogicalAlarm(id: "a1", hour: 12, minute: 3, repeats: .weekly([.monday, .friday]), title: "t"),  // "1:23" against "12:3"
        LogicalAlarm(id: "a1", hour: 1, minute: 23, repeats: .weekly([.monday]), title: "t"),
        LogicalAlarm(id: "a1", hour: 1, minute: 23, repeats: .weekly([.monday, .friday]), title: "other title"),
        LogicalAlarm(id: "a1", hour: 1, minute: 23, repeats: .once(fireWallMs: 1_800_000_000_000), title: "t"),
        LogicalAlarm(id: "a1", hour: 1, minute: 23, repeats: .once(fireWallMs: 1_800_000_060_000), title: "t"),
        LogicalAlarm(id: "caf\u{E9}", hour: 6, minute: 30, repeats: .weekly([.sunday]), title: "t"),  // precomposed
        LogicalAlarm(id: "cafe\u{301}", hour: 6, minute: 30, repeats: .weekly([.sunday]), title: "t"),  // decomposed
        LogicalAlarm(id: "a2", hour: 1, minute: 23, repeats: .weekly([.monday, .friday]), title: "t"),
    ]

    @Test("every pair of alarms compares as their roots' key strings do")
    func agreesWithKeyStrings() {
        for old in Self.alarms {
            for new in Self.alarms {
                let byKeys = old.roots.map(Self.keyString) == new.roots.map(Self.keyString)
                #expect(World.sameSchedule(old.roots, new.roots) == byKeys, "\(old.id) \(old.hour):\(old.minute) against \(new.id) \(new.hour):\(new.minute)")
            }
        }
    }

    @Test("canonically equal root IDs are the same schedule; a different time or weekday is not")
    func cases() {
        #expect(World.sameSchedule(Self.alarms[6].roots, Self.alarms[7].roots))
        #expect(!World.sameSchedule(Self.alarms[0].roots, Self.alarms[1].roots))
        #expect(!World.sameSchedule(Self.alarms[0].roots, Self.alarms[2].roots))
        #expect(World.sameSchedule(Self.alarms[0].roots, Self.alarms[3].roots))  // the title is no part of it
        #expect(!World.sameSchedule(Self.alarms[4].roots, Self.alarms[5].roots))
    }
}

@testable import AlarmBridge
import Testing

/// `LogicalAlarm.root(withID:)` (issue 20: ASCII root IDs matched byte by byte) answers exactly
/// what `roots.first { $0.id == rootID }` answers, for every ID, near miss and Unicode spelling.
@Suite("LogicalAlarm.root(withID:) by ID")
struct RootWithIDTests {
    static let alarmIDs = ["a1", "a", "wake-up.7", "a1.mon", "Ａ1", "café", "cafe\u{301}", "x\u{1F600}", ""]

    static func alarms() -> [LogicalAlarm] {
        var alarms: [LogicalAlarm] = []
        for id in alarmIDs {
            alarms.append(LogicalAlarm(id: id, hour: 6, minute: 30, repeats: .weekly([.friday, .monday, .sunday]), title: "t"))
            alarms.append(LogicalAlarm(id: id, hour: 7, minute: 5, repeats: .weekly(Weekday.allCases), title: "t"))
            alarms.append(LogicalAlarm(id: id, hour: 8, minute: 0, repeats: .once(fireWallMs: 1_800_000_000_000), title: "t"))
        }
        return alarms
    }

    static func candidateIDs() -> [String] {
        var ids: [String] = []
        for id in alarmIDs + ["a2", "b1", "café", "cafe\u{301}"] {  // both spellings of é
            ids.append(id)
            for day in Weekday.allCases { ids += ["\(id).\(day)", "\(id)-\(day)", "\(id).\(day)x", "\(id).\(String(describing: day).uppercased())"] }
            ids += ["\(id).", "\(id).mo", "\(id)..mon", "\(id).mon.tue"]
        }
        return ids
    }

    @Test("root(withID:) equals roots.first { $0.id == rootID }, and hasRoot its being found, for every alarm and candidate ID")
    func matchesRoots() {
        var mismatches: [String] = []
        for alarm in Self.alarms() {
            let roots = alarm.roots
            for rootID in Self.candidateIDs() {
                let scanned = roots.first(where: { $0.id == rootID })
                if alarm.root(withID: rootID) != scanned || alarm.hasRoot(withID: rootID) != (scanned != nil) {
                    mismatches.append("\(alarm.id) / \(rootID)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        var document = BridgeDocument()
        document.alarms = Self.alarms()
        for rootID in Self.candidateIDs() where document.hasRoot(rootID) != (document.root(rootID) != nil) {
            mismatches.append("document / \(rootID)")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        // The Unicode case is live: the other spelling of é finds the root (String equality canonicalises).
        let alarm = LogicalAlarm(id: "café", hour: 6, minute: 0, repeats: .weekly([.monday]), title: "t")
        #expect(alarm.root(withID: "cafe\u{301}.mon")?.weekday == .monday)
    }

    @Test("a weekly root's ID is the alarm's ID, a dot and the day's three letters; each day's letters name it back")
    func rootIDsSpellTheDay() {
        for id in Self.alarmIDs {
            for day in Weekday.allCases {
                #expect(LogicalAlarm(id: id, hour: 6, minute: 0, repeats: .weekly([day]), title: "t").rootID(on: day) == "\(id).\(day)")
            }
        }
        for day in Weekday.allCases {
            let letters = Array(day.description.utf8)
            #expect(Weekday(rootIDLetters: letters[0], letters[1], letters[2]) == day)
            #expect(Weekday(rootIDLetters: letters[0] & 0xDF, letters[1], letters[2]) == nil)  // "Mon" is no root ID's
        }
        var document = BridgeDocument()
        document.alarms = Self.alarms()
        let unfound = Self.alarms().flatMap(\.roots).map(\.id).filter { !document.hasRoot($0) }
        #expect(unfound.isEmpty, "\(unfound.prefix(10))")
    }
}

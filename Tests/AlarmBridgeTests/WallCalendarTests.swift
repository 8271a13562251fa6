@testable import AlarmBridge
import Foundation
import Testing

/// `WallCalendar` is checked against Foundation's `Calendar` (the reference it replaces for speed).
struct WallCalendarTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Tokyo", "America/Sao_Paulo",
                        "UTC", "Pacific/Chatham", "Asia/Kolkata", "Australia/Lord_Howe", "America/St_Johns"]

    struct Reference {
        let calendar: Calendar
        init(_ zone: String) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zone)!
            self.calendar = calendar
        }
        func nextFire(hour: Int, minute: Int, weekday: Weekday?, after wallMs: Int64) -> Int64 {
            var components = DateComponents(hour: hour, minute: minute, second: 0)
            if let weekday { components.weekday = weekday.rawValue }
            let next = calendar.nextDate(after: Date(timeIntervalSince1970: TimeInterval(wallMs) / 1000), matching: components,
                                         matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward)!
            return Int64((next.timeIntervalSince1970 * 1000).rounded())
        }
    }

    /// Foundation's own offset at an instant (ms), the reference for ``WallCalendar/offsetMs(at:)``.
    static func foundationOffsetMs(_ zone: TimeZone, _ instantMs: Int64) -> Int64 {
        let seconds = instantMs >= 0 ? instantMs / 1000 : (instantMs - 999) / 1000
        return Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))) * 1000
    }

    @Test("offsetMs (a transition table over 2000–2070) equals TimeZone.secondsFromGMT every 7 h 13 min from 1995 to 2075, and a second either side of each offset change",
          arguments: zones)
    func offsetTableMatchesFoundation(zone: String) {
        let calendar = WallCalendar(zoneIdentifier: zone)!
        #expect(calendar.hasTransitionTable, "\(zone): Foundation's transitions did not check out, so the table is not used")
        let foundation = TimeZone(identifier: zone)!
        var mismatches: [Int64] = []
        var instant: Int64 = 788_918_400_000  // 1995-01-01T00:00:00Z: before and after the table's span too
        var previous = calendar.offsetMs(at: instant)
        while instant < 3_313_526_400_000 {  // 2075-01-01
            let offset = calendar.offsetMs(at: instant)
            if offset != Self.foundationOffsetMs(foundation, instant) { mismatches.append(instant) }
            if offset != previous {  // an offset change in the last step: find it and check its edges
                var low = instant - 26_580_000, high = instant
                while high - low > 1_000 {
                    let mid = low + (high - low) / 2
                    if Self.foundationOffsetMs(foundation, mid) == previous { low = mid } else { high = mid }
                }
                for edge in [low - 1_000, low, high, high + 1_000, high + 999]
                where calendar.offsetMs(at: edge) != Self.foundationOffsetMs(foundation, edge) { mismatches.append(edge) }
            }
            previous = offset
            instant += 26_580_000
        }
        #expect(mismatches.isEmpty, "\(zone): offsets differ from Foundation at \(mismatches.prefix(5)) (ms since the epoch)")
    }

    /// ``WallCalendar/nextTransition(after:withinMs:)`` as it was written before it skipped ahead
    /// (issue 20): hourly probes from `wallMs`, the first that shows another offset bisected to a
    /// second.
    static func hourlyTransition(_ calendar: WallCalendar, after wallMs: Int64, withinMs: Int64) -> Int64? {
        let start = calendar.offsetMs(at: wallMs)
        var probe = wallMs
        while probe < wallMs + withinMs {
            probe += 3_600_000
            if calendar.offsetMs(at: probe) != start {
                var low = probe - 3_600_000, high = probe
                while high - low > 1_000 {
                    let mid = low + (high - low) / 2
                    if calendar.offsetMs(at: mid) == start { low = mid } else { high = mid }
                }
                return high
            }
        }
        return nil
    }

    @Test("nextTransition, which skips to the zone's next change, answers what hourly probing answers: windows from an hour to a year, across the table's ends",
          arguments: zones + ["Pacific/Apia", "America/Caracas", "Europe/Moscow", "Antarctica/Troll"])
    func nextTransitionMatchesHourlyProbing(zone: String) {
        let calendar = WallCalendar(zoneIdentifier: zone)!
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(zone.utf8.count)
        var differences: [String] = []
        for _ in 0..<300 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // 1998 to 2072: the table covers 2000 ..< 2070, so windows start and end on both sides of it.
            let instant = 883_612_800_000 + Int64((state >> 20) % 2_335_219_200_000)
            let window = [3_600_000, 86_400_000, 40 * 86_400_000, 366 * 86_400_000][Int(state >> 60) % 4]
            let fast = calendar.nextTransition(after: instant, withinMs: Int64(window))
            let reference = Self.hourlyTransition(calendar, after: instant, withinMs: Int64(window))
            if fast != reference {
                let shown = [fast, reference].map { $0.map { String($0) } ?? "none" }
                differences.append("after \(instant) within \(window) ms: \(shown[0]) against \(shown[1]) (ms since the epoch)")
            }
        }
        for edge: Int64 in [946_684_800_000 - 3_600_000, 946_684_800_000 - 1, 3_155_760_000_000 - 86_400_000, 3_155_760_000_000 - 1] {
            if calendar.nextTransition(after: edge, withinMs: 400 * 86_400_000) != Self.hourlyTransition(calendar, after: edge, withinMs: 400 * 86_400_000) {
                differences.append("at the table's end \(edge)")
            }
        }
        #expect(differences.isEmpty, "\(zone): \(differences.prefix(3).joined(separator: "; "))")
    }

    @Test("offsetMs equals TimeZone.secondsFromGMT in every zone Foundation knows, at 400 instants from 1995 to 2075")
    func offsetTableMatchesFoundationEverywhere() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var mismatched: [String] = [], withoutTable: [String] = []
        for zone in TimeZone.knownTimeZoneIdentifiers {
            guard let calendar = WallCalendar(zoneIdentifier: zone), let foundation = TimeZone(identifier: zone) else { continue }
            if !calendar.hasTransitionTable { withoutTable.append(zone) }
            for _ in 0..<400 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let instant = 788_918_400_000 + Int64((state >> 20) % 2_524_608_000_000)
                if calendar.offsetMs(at: instant) != Self.foundationOffsetMs(foundation, instant) { mismatched.append(zone); break }
            }
        }
        #expect(TimeZone.knownTimeZoneIdentifiers.count > 300)
        #expect(mismatched.isEmpty, "offsets differ from Foundation in \(mismatched.prefix(10))")
        #expect(withoutTable.isEmpty, "no transition table (Foundation's transitions did not check out) in \(withoutTable.prefix(10))")
    }

    @Test("nextFire agrees with Calendar.nextDate(.nextTime, .first), DST nights included", arguments: zones)
    func nextFireMatchesFoundation(zone: String) {
        // Foundation's repeating search (both instants of an overlap); the default policy keeps the first.
        let calendar = WallCalendar(zoneIdentifier: zone, dstPolicy: .foundation)!
        let reference = Reference(zone)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(zone.utf8.count)
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        // Instants spread over 2026, with extra density around each zone's transitions.
        let yearStart: Int64 = 1_767_225_600_000
        var mismatches: [String] = []
        for _ in 0..<1_500 {
            let after = yearStart + Int64(next(365 * 86_400)) * 1000 + Int64(next(1000))
            let hour = Int(next(24))
            let minute = [0, 15, 30, 45, Int(next(60))][Int(next(5))]
            let weekday: Weekday? = next(2) == 0 ? nil : Weekday(rawValue: Int(next(7)) + 1)
            let ours = calendar.nextFire(hour: hour, minute: minute, weekday: weekday, after: after)
            let theirs = reference.nextFire(hour: hour, minute: minute, weekday: weekday, after: after)
            if ours != theirs { mismatches.append("\(hour):\(minute) \(String(describing: weekday)) after \(after): \(ours) vs \(theirs)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// On DST nights Foundation is not self-consistent at the edges: it skips the second instance
    /// of a repeated time when asked from exactly the first, and skips a whole day for a time inside
    /// a 30-minute gap (Lord Howe). So this test demands: never later than Foundation, and where
    /// earlier, a genuine instant of that local time (or, in a gap, the next whole hour) that
    /// Foundation skipped.
    @Test("on the 2026 DST nights nextFire is never later than Foundation, and every earlier answer is a real match",
          arguments: zones)
    func dstNights(zone: String) {
        let calendar = WallCalendar(zoneIdentifier: zone, dstPolicy: .foundation)!  // Foundation's repeating search
        let reference = Reference(zone)
        let timeZone = TimeZone(identifier: zone)!
        var transitions: [Int64] = []
        var cursor = Date(timeIntervalSince1970: 1_767_225_600)
        while let transition = timeZone.nextDaylightSavingTimeTransition(after: cursor), transition.timeIntervalSince1970 < 1_798_761_600 {
            transitions.append(Int64(transition.timeIntervalSince1970 * 1000))
            cursor = transition
        }
        var checked = 0
        for transition in transitions {
            for hoursBefore in stride(from: Int64(-30), through: 2, by: 1) {
                let after = transition + hoursBefore * 3_600_000
                for (hour, minute) in [(1, 30), (2, 0), (2, 30), (3, 0), (0, 0), (23, 30)] {
                    let ours = calendar.nextFire(hour: hour, minute: minute, weekday: nil, after: after)
                    let theirs = reference.nextFire(hour: hour, minute: minute, weekday: nil, after: after)
                    checked += 1
                    if ours == theirs { continue }
                    let shown = calendar.local(ours)
                    let realMatch = shown.hour == hour && shown.minute == minute
                    let gapResolution = shown.minute == 0 && !realMatch && ours >= transition - 3_600_000
                    #expect(ours > after && ours < theirs && (realMatch || gapResolution),
                            "\(zone) \(hour):\(minute) after \(after): ours \(ours) theirs \(theirs)")
                }
            }
        }
        if ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Pacific/Chatham"].contains(zone) {
            #expect(transitions.count == 2 && checked > 0)  // the test really visited both DST nights
        }
    }

    @Test("local() and instant() round-trip and agree with Foundation's components", arguments: zones)
    func localFields(zone: String) {
        let calendar = WallCalendar(zoneIdentifier: zone, dstPolicy: .foundation)!  // Foundation's repeating search
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = TimeZone(identifier: zone)!
        for step in 0..<400 {
            let instant: Int64 = 1_767_225_600_000 + Int64(step) * 79_213_457
            let fields = calendar.local(instant)
            let c = gregorian.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday],
                                             from: Date(timeIntervalSince1970: TimeInterval(instant) / 1000))
            let ours: [Int] = [fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second, fields.weekday.rawValue]
            let theirs: [Int] = [c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!, c.weekday!]
            #expect(ours == theirs)
        }
        #expect(calendar.instant(year: 2026, month: 2, day: 30, hour: 7, minute: 0) == nil)
    }

    @Test("civil-date arithmetic matches Hinnant's published anchors")
    func civilAnchors() {
        let utc = WallCalendar(zoneIdentifier: "UTC")!
        #expect(utc.instant(year: 1970, month: 1, day: 1, hour: 0, minute: 0) == 0)
        #expect(utc.instant(year: 2000, month: 3, day: 1, hour: 0, minute: 0) == 951_868_800_000)
        #expect(utc.local(0).weekday == .thursday)
        #expect(utc.instant(year: 1969, month: 12, day: 31, hour: 23, minute: 59) == -60_000)
    }

    /// Berlin 2026: spring forward 29 March 02:00 CET → 03:00 CEST (01:00 UTC); fall back
    /// 25 October 03:00 CEST → 02:00 CET (01:00 UTC). A daily 02:30 alarm meets both nights.
    @Test("DST policies: a 02:30 daily alarm on Berlin's 2026 gap and overlap nights, per policy")
    func dstPolicies() {
        let utc = WallCalendar(zoneIdentifier: "UTC")!
        func at(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Int64 {
            utc.instant(year: 2026, month: month, day: day, hour: hour, minute: minute)!
        }
        func fires(_ policy: WallCalendar.DSTPolicy, from: Int64, count: Int) -> [Int64] {
            let calendar = WallCalendar(zoneIdentifier: "Europe/Berlin", dstPolicy: policy)!
            var result: [Int64] = []
            var after = from
            for _ in 0..<count {
                after = calendar.nextFire(hour: 2, minute: 30, weekday: nil, after: after)
                result.append(after)
            }
            return result
        }
        let springEve = at(3, 28, 12, 0)  // noon UTC the day before
        // The gap: 02:30 local does not exist on 29 March.
        #expect(fires(.init(gap: .nextHour), from: springEve, count: 1) == [at(3, 29, 1, 0)])          // 03:00 CEST
        #expect(fires(.init(gap: .preserveMinute), from: springEve, count: 1) == [at(3, 29, 1, 30)])   // 03:30 CEST
        #expect(fires(.init(gap: .skip), from: springEve, count: 1) == [at(3, 30, 0, 30)])             // next day 02:30 CEST
        // The normalisation changes no later occurrence (invariant 44).
        for gap in WallCalendar.DSTPolicy.Gap.allCases {
            let later = fires(.init(gap: gap), from: springEve, count: 3)
            #expect(later.contains(at(3, 30, 0, 30)) && later.contains(at(3, 31, 0, 30)))
        }
        // The overlap: 02:30 local happens at 00:30 UTC (CEST) and 01:30 UTC (CET) on 25 October.
        let fallEve = at(10, 24, 12, 0)
        #expect(fires(.init(overlap: .both), from: fallEve, count: 3) == [at(10, 25, 0, 30), at(10, 25, 1, 30), at(10, 26, 1, 30)])
        #expect(fires(.init(overlap: .first), from: fallEve, count: 2) == [at(10, 25, 0, 30), at(10, 26, 1, 30)])
        #expect(fires(.init(overlap: .last), from: fallEve, count: 2) == [at(10, 25, 1, 30), at(10, 26, 1, 30)])
        #expect(WallCalendar.DSTPolicy.foundation == .init(gap: .nextHour, overlap: .both))
        // REC-1, REC-2: once per configured day — the default rings the first 02:30 only.
        #expect(WallCalendar(zoneIdentifier: "Europe/Berlin")!.dstPolicy == .oncePerDay)
        #expect(fires(.oncePerDay, from: fallEve, count: 2) == [at(10, 25, 0, 30), at(10, 26, 1, 30)])
        #expect(fires(.oncePerDay, from: springEve, count: 2) == [at(3, 29, 1, 0), at(3, 30, 0, 30)])
    }
}

// Maps a scenario time (local wall time in the start zone, optionally with a UTC offset) onto
// the instant it names, and back. The parser (ordering, offset checks), the runner, the
// shrinker, the exporter and the journal importer all go through these functions, so a time
// means the same instant everywhere.
//
// A plain wall time keeps its historical meaning: the instant `WallCalendar.instant` gives —
// the earlier one on a fall-back night (Foundation's `repeatedTimePolicy: .first`), the end of
// the gap on a spring-forward night. A time with an offset (`02:04:08.251+01:00`, ISO 8601 /
// RFC 3339) names exactly `local − offset`, and is valid only when the zone has that offset at
// that instant: the only way to name the second pass of a repeated hour.

import AlarmBridge

extension ScenarioTime {
    /// The local calendar date `dayOffset` days after the start date.
    func localDay(start: ScenarioStart, calendar: WallCalendar) -> (year: Int, month: Int, day: Int) {
        let midnight = calendar.instant(year: start.date.year, month: start.date.month, day: start.date.day, hour: 0, minute: 0)!
        // Noon of the day: a DST change moves midnight by an hour, never noon off its date.
        let day = calendar.local(midnight + Int64(dayOffset) * 86_400_000 + 12 * 3_600_000)
        return (day.year, day.month, day.day)
    }

    /// The wall time as milliseconds since the local epoch (1970-01-01 00:00 local), ignoring offsets.
    func localEpochMs(start: ScenarioStart, calendar: WallCalendar) -> Int64 {
        let day = localDay(start: start, calendar: calendar)
        return ScenarioExport.civilDays(day.year, day.month, day.day) * 86_400_000 + Int64(hour) * 3_600_000
            + Int64(minute) * 60_000 + Int64(second) * 1_000 + Int64(millisecond)
    }

    /// The instant this time names, in the start zone.
    ///
    /// - Parameters:
    ///   - start: the scenario's start (its date anchors `dayOffset`).
    ///   - calendar: the start zone's calendar.
    /// - Returns: Unix-epoch milliseconds; nil when `utcOffsetMinutes` is not an offset the zone
    ///   has at this local time (a wrong offset, or a time inside a DST gap).
    public func instantMs(start: ScenarioStart, calendar: WallCalendar) -> Int64? {
        guard let utcOffsetMinutes else {
            let day = localDay(start: start, calendar: calendar)
            let base = calendar.instant(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, second: second)!
            return base + Int64(millisecond)
        }
        let offsetMs = Int64(utcOffsetMinutes) * 60_000
        let instant = localEpochMs(start: start, calendar: calendar) - offsetMs
        return calendar.offsetMs(at: instant) == offsetMs ? instant : nil
    }

    /// The UTC offsets (minutes east) the zone has at this local time, earliest instant first:
    /// one, two in a fall-back overlap, none in a spring-forward gap. `utcOffsetMinutes` is ignored.
    public func possibleUTCOffsetsMinutes(start: ScenarioStart, calendar: WallCalendar) -> [Int] {
        let local = localEpochMs(start: start, calendar: calendar)
        // Transitions are days apart: the offsets in force two days either side are the candidates.
        var offsets: [Int64] = []
        for offset in [calendar.offsetMs(at: local - 2 * 86_400_000), calendar.offsetMs(at: local + 2 * 86_400_000)]
        where calendar.offsetMs(at: local - offset) == offset && !offsets.contains(offset) {
            offsets.append(offset)
        }
        return offsets.sorted(by: >).filter { $0 % 60_000 == 0 }.map { Int($0 / 60_000) }
    }

    /// How events order in a file: by instant, then (equal instants, e.g. two plain times in one
    /// DST gap) by nominal wall time. For plain times this is exactly the nominal order, since a
    /// plain time's instant never decreases as its wall time grows (one-hour gaps at whole hours).
    ///
    /// - Returns: nil when the time names no instant (`instantMs` is nil).
    public func orderKey(start: ScenarioStart, calendar: WallCalendar) -> ScenarioTimeOrder? {
        instantMs(start: start, calendar: calendar).map { ScenarioTimeOrder(instantMs: $0, nominalMs: millisecondsSinceStartDateMidnight) }
    }

    /// The scenario time that names `instantMs`: a plain wall time when that gives the instant,
    /// else (the second pass of a repeated wall time) the wall time with its UTC offset.
    ///
    /// An instant is never inside a gap (its own local time exists), so every instant on or after
    /// the start date has a name, unless its offset is not whole minutes (historical local mean time).
    ///
    /// - Returns: nil before the start date, or when the offset is not a whole number of minutes.
    public static func naming(instantMs: Int64, start: ScenarioStart, calendar: WallCalendar) -> ScenarioTime? {
        let local = calendar.local(instantMs)
        let days = ScenarioExport.civilDays(local.year, local.month, local.day)
            - ScenarioExport.civilDays(start.date.year, start.date.month, start.date.day)
        guard days >= 0 else { return nil }
        let millisecond = Int(((instantMs % 1_000) + 1_000) % 1_000)
        var time = ScenarioTime(dayOffset: Int(days), hour: local.hour, minute: local.minute, second: local.second,
                                millisecond: millisecond)
        if time.instantMs(start: start, calendar: calendar) == instantMs { return time }
        let offsetMs = calendar.offsetMs(at: instantMs)
        guard offsetMs % 60_000 == 0 else { return nil }
        time.utcOffsetMinutes = Int(offsetMs / 60_000)
        return time.instantMs(start: start, calendar: calendar) == instantMs ? time : nil
    }
}

/// Where a scenario time falls in a file's order (`ScenarioTime.orderKey`): its instant, then its
/// nominal wall time.
public struct ScenarioTimeOrder: Sendable, Comparable {
    /// Unix-epoch milliseconds.
    public var instantMs: Int64
    /// `ScenarioTime.millisecondsSinceStartDateMidnight`.
    public var nominalMs: Int64

    public static func < (left: ScenarioTimeOrder, right: ScenarioTimeOrder) -> Bool {
        (left.instantMs, left.nominalMs) < (right.instantMs, right.nominalMs)
    }
}

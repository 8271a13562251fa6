import Foundation

/// Local wall time ↔ instant conversions, in one pinned time zone.
///
/// The bridge and the simulator both go through this one port for calendar math (DESIGN.md,
/// "Determinism"): never `TimeZone.current`. Instants are wall-clock Unix-epoch milliseconds.
/// DST gap handling: a local time that does not exist is moved to the next existing time
/// (`Calendar.MatchingPolicy.nextTime`); in an overlap the first instance is used.
public struct WallCalendar: Sendable {
    public let zoneIdentifier: String
    private let calendar: Calendar

    /// - Returns: nil when `zoneIdentifier` is not a known IANA zone.
    public init?(zoneIdentifier: String) {
        guard let zone = TimeZone(identifier: zoneIdentifier) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        self.calendar = calendar
        self.zoneIdentifier = zoneIdentifier
    }

    /// The version of the time-zone database in use (recorded in trace headers).
    public static var zoneDataVersion: String { TimeZone.timeZoneDataVersion }

    /// The instant of a local date-time (seconds included) in this zone.
    public func instant(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0) -> Int64? {
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// Local calendar fields of an instant.
    public func local(_ wallMs: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Weekday) {
        let date = Date(timeIntervalSince1970: TimeInterval(wallMs) / 1000)
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        return (c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!, Weekday(rawValue: c.weekday!)!)
    }

    /// The first instant strictly after `wallMs` whose local time is `hour:minute:00`, on `weekday`
    /// when given.
    public func nextFire(hour: Int, minute: Int, weekday: Weekday?, after wallMs: Int64) -> Int64 {
        var components = DateComponents(hour: hour, minute: minute, second: 0)
        if let weekday { components.weekday = weekday.rawValue }
        let start = Date(timeIntervalSince1970: TimeInterval(wallMs) / 1000)
        let next = calendar.nextDate(after: start, matching: components, matchingPolicy: .nextTime,
                                     repeatedTimePolicy: .first, direction: .forward)!
        let ms = Int64((next.timeIntervalSince1970 * 1000).rounded())
        precondition(ms > wallMs, "nextFire must move forward")
        return ms
    }

    /// The latest instant at or before `wallMs` whose local time is `hour:minute:00` (on `weekday`).
    public func latestFire(hour: Int, minute: Int, weekday: Weekday?, atOrBefore wallMs: Int64) -> Int64 {
        // Look back at most eight days, then walk forward: avoids backward calendar searches,
        // whose DST behaviour differs between Foundation implementations.
        var candidate = nextFire(hour: hour, minute: minute, weekday: weekday, after: wallMs - 8 * 86_400_000)
        var latest = candidate
        while candidate <= wallMs {
            latest = candidate
            candidate = nextFire(hour: hour, minute: minute, weekday: weekday, after: candidate)
        }
        return latest
    }
}

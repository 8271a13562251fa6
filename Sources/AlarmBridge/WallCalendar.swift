import Foundation

/// Local wall time ↔ instant conversions, in one pinned time zone.
///
/// The bridge and the simulator both go through this one port for calendar math (DESIGN.md,
/// "Determinism"): never `TimeZone.current`. Instants are wall-clock Unix-epoch milliseconds.
///
/// The zone's rules come from Foundation (`TimeZone.secondsFromGMT(for:)`, the toolchain's ICU
/// data); the civil-date arithmetic is Howard Hinnant's `days_from_civil` / `civil_from_days`
/// (http://howardhinnant.github.io/date_algorithms.html), hand-written because
/// `Calendar.nextDate(after:matching:…)` cost more than half of a simulated event. A test checks
/// every answer of ``DSTPolicy/foundation`` against `Calendar` with `matchingPolicy: .nextTime,
/// repeatedTimePolicy: .first`: a local time inside a DST gap resolves to the next whole hour
/// after it; in an overlap both instants exist, so a repeating search finds the second when the
/// first has passed. An alarm rings once per configured day (REC-1, REC-2), so the default
/// policy, ``DSTPolicy/oncePerDay``, keeps only the first instant of an overlap. Whether
/// AlarmKit's `.relative` does the same is undocumented (PLATFORMS.md, `.relative`: "DST
/// gap/overlap behaviour undocumented"), so the iOS model passes a ``DSTPolicy`` the seed draws.
public struct WallCalendar: Sendable {
    /// How a local wall time that a DST transition skips or repeats resolves to instants.
    public struct DSTPolicy: Sendable, Equatable, CustomStringConvertible {
        /// A local time inside a spring-forward gap (e.g. 02:30 on a night that jumps 02:00→03:00).
        public enum Gap: String, Sendable, CaseIterable {
            /// The next whole hour after it (03:00): Foundation `.nextTime`.
            case nextHour = "next-hour"
            /// Shifted by the gap's length, keeping the minutes (03:30):
            /// Foundation `.nextTimePreservingSmallerComponents`.
            case preserveMinute = "preserve-minute"
            /// No instant that day: the alarm skips the night (Foundation `.strict` semantics).
            case skip
        }
        /// A local time a fall-back night shows twice (e.g. 02:30 before and after 03:00→02:00).
        public enum Overlap: String, Sendable, CaseIterable {
            /// Both instants: a daily alarm fires twice that night.
            case both
            /// The earlier instant only (Foundation `repeatedTimePolicy: .first`).
            case first
            /// The later instant only (`.last`).
            case last
        }
        public var gap: Gap
        public var overlap: Overlap
        public init(gap: Gap = .nextHour, overlap: Overlap = .both) {
            self.gap = gap
            self.overlap = overlap
        }
        /// Foundation's `nextDate(after:matching:matchingPolicy: .nextTime)` as a repeating search sees it
        /// (a search started between the two instants of an overlap finds the second).
        public static let foundation = DSTPolicy()
        /// REC-1, REC-2 as Ember reads them: an alarm rings once per configured day. A time in a
        /// spring-forward gap rings at the next whole hour (Foundation `.nextTime`); a time a
        /// fall-back night repeats rings at its first instant only — Foundation's default
        /// `repeatedTimePolicy: .first` (developer.apple.com/documentation/foundation/calendar/
        /// repeatedtimepolicy/first) and java.time's "earlier offset" for a local time in an overlap
        /// (`ZonedDateTime.of`, `LocalDateTime.atZone`), which Android clock apps schedule with.
        /// The bridge's planner and the simulator's oracle both use it; what AlarmKit's `.relative`
        /// does is the iOS model's parameter.
        public static let oncePerDay = DSTPolicy(gap: .nextHour, overlap: .first)
        public var description: String { "gap \(gap.rawValue), overlap \(overlap.rawValue)" }
    }

    public let zoneIdentifier: String
    private let zone: TimeZone
    /// The zone's UTC offsets by whole second, shared by every calendar of the zone (issue 20:
    /// `secondsFromGMT` takes a Foundation lock and an ICU call per lookup, and planning asks for
    /// the same instants on every reconcile). Same answers as the zone, so traces are unchanged.
    private let offsets: BoundedMemo<Int64, Int32>
    /// The zone's transitions over ``ZoneTransitions/coveredSeconds``, shared by every calendar of
    /// the zone: an offset inside it is a binary search, without the memo's lock and hash (issue
    /// 20). Nil when Foundation's transitions did not check out; the memo answers then.
    private let transitions: ZoneTransitions?
    /// How DST gaps and overlaps resolve (``DSTPolicy``).
    public let dstPolicy: DSTPolicy

    /// - Parameters:
    ///   - zoneIdentifier: an IANA zone (e.g. `Europe/Berlin`).
    ///   - dstPolicy: gap / overlap resolution; once per configured day (``DSTPolicy/oncePerDay``) by default.
    /// - Returns: nil when `zoneIdentifier` is not a known IANA zone.
    public init?(zoneIdentifier: String, dstPolicy: DSTPolicy = .oncePerDay) {
        guard let zone = TimeZone(identifier: zoneIdentifier) else { return nil }
        self.zone = zone
        self.zoneIdentifier = zoneIdentifier
        self.dstPolicy = dstPolicy
        self.offsets = Self.offsetMemos.value(for: zoneIdentifier) { BoundedMemo(capacity: 65_536) }
        self.transitions = Self.transitionTables.value(for: zoneIdentifier) { ZoneTransitions(zone) }
    }

    /// Whether offsets inside ``ZoneTransitions/coveredSeconds`` come from the transition table
    /// (tests: a zone whose transitions did not check out falls back to asking the zone).
    var hasTransitionTable: Bool { transitions != nil }

    /// One transition table per zone identifier (nil: the zone's transitions did not check out).
    private static let transitionTables = BoundedMemo<String, ZoneTransitions?>(capacity: 1_024)

    /// One offset memo per zone identifier (a handful per process).
    private static let offsetMemos = BoundedMemo<String, BoundedMemo<Int64, Int32>>(capacity: 1_024)

    /// The same zone with another DST policy.
    public func with(dstPolicy: DSTPolicy) -> WallCalendar {
        WallCalendar(zoneIdentifier: zoneIdentifier, dstPolicy: dstPolicy)!
    }

    /// The version of the time-zone database in use (recorded in trace headers).
    public static var zoneDataVersion: String { TimeZone.timeZoneDataVersion }

    static let dayMs: Int64 = 86_400_000

    /// UTC offset in force at an instant, ms.
    public func offsetMs(at instantMs: Int64) -> Int64 {
        let seconds = instantMs >= 0 ? instantMs / 1000 : (instantMs - 999) / 1000
        if let table = transitions, let offset = table.offset(atSeconds: seconds) { return Int64(offset) * 1000 }
        let zone = self.zone
        let offset = offsets.value(for: seconds) {
            Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        }
        return Int64(offset) * 1000
    }

    /// The instant of a local date-time (seconds included) in this zone; nil for an impossible date.
    public func instant(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0) -> Int64? {
        guard (1...12).contains(month), day >= 1, day <= Self.daysInMonth(year: year, month: month),
              (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        let localMs = Self.daysFromCivil(year: year, month: month, day: day) * Self.dayMs
            + Int64(hour) * 3_600_000 + Int64(minute) * 60_000 + Int64(second) * 1000
        return resolve(localMs: localMs)
    }

    /// Local calendar fields of an instant.
    public func local(_ wallMs: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Weekday) {
        let localMs = wallMs + offsetMs(at: wallMs)
        let days = Self.floorDiv(localMs, Self.dayMs)
        let msOfDay = localMs - days * Self.dayMs
        let (year, month, day) = Self.civilFromDays(days)
        return (year, month, day, Int(msOfDay / 3_600_000), Int(msOfDay / 60_000 % 60), Int(msOfDay / 1000 % 60),
                Self.weekday(ofDays: days))
    }

    /// The local calendar date of an instant (REC-4: skip dates are local dates).
    public func localDate(_ wallMs: Int64) -> LocalDate {
        let fields = local(wallMs)
        return LocalDate(year: fields.year, month: fields.month, day: fields.day)
    }

    /// True when `hour:minute` does not exist on `date` in this zone (a spring-forward gap):
    /// an occurrence there is normalised (REC-2).
    public func isInGap(date: LocalDate, hour: Int, minute: Int) -> Bool {
        let localMs = Self.daysFromCivil(year: date.year, month: date.month, day: date.day) * Self.dayMs
            + Int64(hour) * 3_600_000 + Int64(minute) * 60_000
        return exactInstants(localMs: localMs).isEmpty
    }

    /// The first instant after `wallMs` at which the zone's UTC offset changes (a DST transition),
    /// searched up to `withinMs` ahead in hourly steps; nil when none.
    public func nextTransition(after wallMs: Int64, withinMs: Int64) -> Int64? {
        let start = offsetMs(at: wallMs)
        var probe = wallMs
        while probe < wallMs + withinMs {
            // The hourly probes before the zone's next change all show `start` (the table is the
            // offset's source there): skipped, the bound tested again as each would have been
            // (issue 20: a window of weeks stepped hour by hour). Same probes found, same answer.
            if let table = transitions, let until = table.offsetUnchangedBefore(seconds: probe >= 0 ? probe / 1000 : (probe - 999) / 1000) {
                let steps = (until * 1000 - 1 - probe) / 3_600_000
                if steps > 0 {
                    probe += steps * 3_600_000
                    continue
                }
            }
            probe += 3_600_000
            if offsetMs(at: probe) != start {
                var low = probe - 3_600_000, high = probe
                while high - low > 1_000 {
                    let mid = low + (high - low) / 2
                    if offsetMs(at: mid) == start { low = mid } else { high = mid }
                }
                return high
            }
        }
        return nil
    }

    /// The first instant strictly after `wallMs` whose local time is `hour:minute:00`, on `weekday`
    /// when given.
    public func nextFire(hour: Int, minute: Int, weekday: Weekday?, after wallMs: Int64) -> Int64 {
        let firstDay = Self.floorDiv(wallMs + offsetMs(at: wallMs), Self.dayMs) - 1
        for day in firstDay...(firstDay + 9) {
            if let weekday, Self.weekday(ofDays: day) != weekday { continue }
            let local = day * Self.dayMs + Int64(hour) * 3_600_000 + Int64(minute) * 60_000
            if let candidate = firstFireInstant(localMs: local, after: wallMs) { return candidate }
        }
        preconditionFailure("no \(hour):\(minute) within ten days after \(wallMs) in \(zoneIdentifier)")
    }

    /// The latest instant at or before `wallMs` whose local time is `hour:minute:00` (on `weekday`).
    public func latestFire(hour: Int, minute: Int, weekday: Weekday?, atOrBefore wallMs: Int64) -> Int64 {
        var candidate = nextFire(hour: hour, minute: minute, weekday: weekday, after: wallMs - 8 * Self.dayMs)
        var latest = candidate
        while candidate <= wallMs {
            latest = candidate
            candidate = nextFire(hour: hour, minute: minute, weekday: weekday, after: candidate)
        }
        return latest
    }

    /// The instants an alarm at this local time fires at under ``dstPolicy``: none (a skipped
    /// gap), one, or two (an overlap under `.both`).
    func fireInstants(localMs: Int64) -> [Int64] {
        let found = exactInstants(localMs: localMs)
        if found.isEmpty {
            switch dstPolicy.gap {
            case .nextHour:
                let nextHour = (Self.floorDiv(localMs, 3_600_000) + 1) * 3_600_000
                return [instants(localMs: nextHour)[0]]
            case .preserveMinute:
                // The offset before the gap applied to the skipped local time lands after it.
                return [localMs - offsetMs(at: localMs - 2 * Self.dayMs)]
            case .skip:
                return []
            }
        }
        guard found.count > 1 else { return found }
        switch dstPolicy.overlap {
        case .both: return found
        case .first: return [found[0]]
        case .last: return [found[found.count - 1]]
        }
    }

    /// `fireInstants(localMs:).first { $0 > wallMs }`, without building the list on a day no
    /// transition is near (issue 20: the planner asks this for every root on every reconcile).
    func firstFireInstant(localMs: Int64, after wallMs: Int64) -> Int64? {
        let before = offsetMs(at: localMs - 2 * Self.dayMs)
        if before == offsetMs(at: localMs + 2 * Self.dayMs), offsetMs(at: localMs - before) == before {
            // exactInstants finds this one instant (both offsets agree), and fireInstants keeps it.
            let instant = localMs - before
            return instant > wallMs ? instant : nil
        }
        return fireInstants(localMs: localMs).first { $0 > wallMs }
    }

    /// The instants whose local time is exactly `localMs`: none in a gap, two in an overlap.
    func exactInstants(localMs: Int64) -> [Int64] {
        let before = offsetMs(at: localMs - 2 * Self.dayMs)
        let after = offsetMs(at: localMs + 2 * Self.dayMs)
        var found: [Int64] = []
        for offset in [before, after] where offsetMs(at: localMs - offset) == offset {
            if !found.contains(localMs - offset) { found.append(localMs - offset) }
        }
        return found.sorted()
    }

    /// The instant of a local time (ms since the local epoch): the earlier instant in an overlap.
    func resolve(localMs: Int64) -> Int64 {
        instants(localMs: localMs)[0]
    }

    /// Every instant showing this local time, earliest first: two in an overlap. A local time
    /// inside a gap resolves, as Foundation's `.nextTime` does, to the next whole hour after it.
    func instants(localMs: Int64) -> [Int64] {
        // Offsets in force well before and well after: transitions are at least days apart.
        let before = offsetMs(at: localMs - 2 * Self.dayMs)
        let after = offsetMs(at: localMs + 2 * Self.dayMs)
        var found: [Int64] = []
        for offset in [before, after] where offsetMs(at: localMs - offset) == offset {
            if !found.contains(localMs - offset) { found.append(localMs - offset) }
        }
        if found.isEmpty {
            let nextHour = (Self.floorDiv(localMs, 3_600_000) + 1) * 3_600_000
            return [instants(localMs: nextHour)[0]]
        }
        return found.sorted()
    }

    // MARK: Civil-date arithmetic (proleptic Gregorian)

    static func floorDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// Days since 1970-01-01 of a civil date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Civil date of a day count since 1970-01-01.
    static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// 1970-01-01 was a Thursday.
    static func weekday(ofDays days: Int64) -> Weekday {
        Weekday(rawValue: Int(floorDiv(days + 4, 7) * -7 + days + 4) + 1)!
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// A zone's UTC offsets over a span of years, as the instants its offset changes at (issue 20:
/// an offset is a binary search instead of a Foundation lock and an ICU call, or a locked memo).
///
/// Built from Foundation's `TimeZone.nextDaylightSavingTimeTransition(after:)` (ICU's
/// transition list, which holds every change of the UTC offset, standard-offset changes as well
/// as daylight saving) and checked against `TimeZone.secondsFromGMT(for:)` at both ends of
/// every interval; when any check fails, or a transition does not move forward, there is no
/// table and ``WallCalendar/offsetMs(at:)`` asks the zone itself. Same answers as the zone, so
/// traces are unchanged (a test compares them hour by hour for every zone the seeds draw).
final class ZoneTransitions: Sendable {
    /// 2000-01-01T00:00:00Z ..< 2070-01-01T00:00:00Z, in seconds since the epoch: every seed's
    /// world and every scenario of the repository; outside it the zone is asked.
    static let coveredSeconds: Range<Int64> = 946_684_800..<3_155_760_000

    /// Ascending; `starts[0]` is the start of ``coveredSeconds``.
    private let starts: [Int64]
    /// `offsets[i]` is in force from `starts[i]` up to `starts[i + 1]` (seconds east of UTC).
    private let offsets: [Int32]
    /// `firstIndex[b]`: the index of the last start at or before the start of bucket `b`, the
    /// ``bucketSeconds`` from `starts[0] + b × bucketSeconds` on (issue 20: an offset is a bucket
    /// read and a step or two forward, not a binary search over every transition).
    private let firstIndex: [Int32]
    /// 2^21 s (about 24 days): a zone's offset changes at most a few times in one.
    static let bucketShift: Int64 = 21

    init?(_ zone: TimeZone) {
        let covered = Self.coveredSeconds
        func offset(_ seconds: Int64) -> Int32 { Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))) }
        var starts = [covered.lowerBound], offsets = [offset(covered.lowerBound)]
        var cursor = covered.lowerBound, steps = 0
        while let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: TimeInterval(cursor))) {
            let seconds = Int64(next.timeIntervalSince1970.rounded(.up))
            guard seconds < covered.upperBound else { break }
            steps += 1
            guard seconds > cursor, steps < 10_000 else { return nil }
            cursor = seconds
            let after = offset(seconds)
            // The interval before it held one offset throughout, as far as its ends show.
            guard offset(seconds - 1) == offsets[offsets.count - 1] else { return nil }
            if after != offsets[offsets.count - 1] {
                starts.append(seconds)
                offsets.append(after)
            }
        }
        guard offset(covered.upperBound - 1) == offsets[offsets.count - 1] else { return nil }
        self.starts = starts
        self.offsets = offsets
        self.firstIndex = Self.bucketIndex(starts)
    }

    /// ``firstIndex`` of `starts` (ascending, `starts[0]` the start of ``coveredSeconds``).
    static func bucketIndex(_ starts: [Int64]) -> [Int32] {
        let buckets = Int((coveredSeconds.upperBound - coveredSeconds.lowerBound - 1) >> bucketShift) + 1
        var index: [Int32] = []
        index.reserveCapacity(buckets)
        var last = 0
        for bucket in 0..<buckets {
            let bucketStart = coveredSeconds.lowerBound + Int64(bucket) << bucketShift
            while last + 1 < starts.count && starts[last + 1] <= bucketStart { last += 1 }
            index.append(Int32(last))
        }
        return index
    }

    /// The offset in force at `seconds`, or nil outside ``coveredSeconds``.
    func offset(atSeconds seconds: Int64) -> Int32? {
        guard let index = interval(containing: seconds) else { return nil }
        return offsets[index]
    }

    /// The first second after `seconds` whose offset differs from the one at `seconds` (the next
    /// start), or the end of ``coveredSeconds`` when none does before it; nil outside it.
    func offsetUnchangedBefore(seconds: Int64) -> Int64? {
        guard let index = interval(containing: seconds) else { return nil }
        return index + 1 < starts.count ? starts[index + 1] : Self.coveredSeconds.upperBound
    }

    /// The index of the last start at or before `seconds`; nil outside ``coveredSeconds``.
    private func interval(containing seconds: Int64) -> Int? {
        guard Self.coveredSeconds.contains(seconds) else { return nil }
        return starts.withUnsafeBufferPointer { starts in
            // At or after its bucket's first start, never past the next start.
            var index = Int(firstIndex[Int((seconds - Self.coveredSeconds.lowerBound) >> Self.bucketShift)])
            while index + 1 < starts.count && starts[index + 1] <= seconds { index += 1 }
            return index
        }
    }
}

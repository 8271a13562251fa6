import Foundation

/// A day of the week, numbered as Foundation's Gregorian `Calendar` numbers them (Sunday = 1).
public enum Weekday: Int, Codable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The day whose three-letter name (``description``) is these ASCII bytes, nil when none is.
    init?(rootIDLetters first: UInt8, _ second: UInt8, _ third: UInt8) {
        switch (first, second, third) {
        case (0x73, 0x75, 0x6E): self = .sunday     // sun
        case (0x6D, 0x6F, 0x6E): self = .monday     // mon
        case (0x74, 0x75, 0x65): self = .tuesday    // tue
        case (0x77, 0x65, 0x64): self = .wednesday  // wed
        case (0x74, 0x68, 0x75): self = .thursday   // thu
        case (0x66, 0x72, 0x69): self = .friday     // fri
        case (0x73, 0x61, 0x74): self = .saturday   // sat
        default: return nil
        }
    }

    /// The end of a weekly root's ID, `.mon` (``LogicalAlarm/rootID(on:)``).
    var rootIDSuffix: String {
        switch self {
        case .sunday: return ".sun"
        case .monday: return ".mon"
        case .tuesday: return ".tue"
        case .wednesday: return ".wed"
        case .thursday: return ".thu"
        case .friday: return ".fri"
        case .saturday: return ".sat"
        }
    }

    /// Three-letter lowercase name (`mon`), as scenario files and root IDs spell it.
    public var description: String {
        switch self {
        case .sunday: return "sun"
        case .monday: return "mon"
        case .tuesday: return "tue"
        case .wednesday: return "wed"
        case .thursday: return "thu"
        case .friday: return "fri"
        case .saturday: return "sat"
        }
    }
}

/// The inactivity policy an occurrence inherits from its schedule.
/// - Rule: INACT-1, INACT-2, INACT-25.
public enum InactivityPolicy: String, Codable, Sendable, Equatable {
    /// `inactivityPolicyVersion = 3`: expires after 30 min without genuine activity.
    case v3
    /// `inactivityPolicyVersion = 2`: expires after 15 min without genuine activity.
    case v2
    /// No marker: the legacy 20 h lifetime from the configured ring time.
    case legacy

    /// Inactivity timeout in virtual milliseconds (legacy: lifetime from ring time).
    public var timeoutMs: Int64 {
        switch self {
        case .v3: return 30 * 60_000
        case .v2: return 15 * 60_000
        case .legacy: return 20 * 3_600_000
        }
    }
}

/// The wake-up check of a logical alarm (the app's mission). The bridge distinguishes only walk
/// from non-walk: a started iOS walk owns its pressure through the walk fuse (FG-5, WALK-8).
public enum ChallengeKind: String, Codable, Sendable, Equatable, CaseIterable {
    case none, voice, math, walk
    /// True for the walk challenge.
    public var isWalk: Bool { self == .walk }
}

/// How a logical alarm repeats.
public enum AlarmRepeat: Codable, Sendable, Equatable {
    /// Rings once, at `fireWallMs` (device wall clock, Unix-epoch milliseconds), fixed at save time.
    case once(fireWallMs: Int64)
    /// Rings every selected weekday at the alarm's local hour and minute. Sorted, no duplicates.
    case weekly([Weekday])
}

/// The alarm as the user edits it in JS. Advisory to the bridge: native state decides (API-1).
public struct LogicalAlarm: Codable, Sendable, Equatable {
    public var id: String
    public var hour: Int
    public var minute: Int
    public var repeats: AlarmRepeat
    public var title: String
    public var policy: InactivityPolicy
    public var enabled: Bool
    /// The wake-up check the user must pass. Only `.walk` changes native behaviour (iOS walk
    /// fuse, WALK-1..26); documents written before this field existed decode as `.none`.
    public var challenge: ChallengeKind = .none
    /// SND-1: the sound settings of every root of this alarm; nil: no custom sounds (system
    /// default). Optional so documents written before sounds existed still decode.
    public var sounds: SoundSettings?
    /// The alert's countdown configuration (AlarmKit `Alarm.CountdownDuration`: `postAlert` is the
    /// repeat countdown an alert can enter); nil: none. Not an identity input (ID-2); the
    /// fingerprint records only its presence (ID-4, ID-5). Absent from older documents.
    public var countdown: CountdownDuration?
    /// REC-4: local calendar dates (device zone) on which a weekly alarm does not ring. Sorted, no
    /// duplicates; ignored for one-shots. Absent from older documents (decoded as none). On iOS a
    /// weekly alarm with at least one skip date is registered as concrete `.fixed` occurrences,
    /// because AlarmKit repeating schedules cannot express exclusions (REC-3).
    public var skipDates: [LocalDate] = []

    public init(id: String, hour: Int, minute: Int, repeats: AlarmRepeat, title: String,
                policy: InactivityPolicy = .v3, enabled: Bool = true, challenge: ChallengeKind = .none,
                sounds: SoundSettings? = nil, countdown: CountdownDuration? = nil, skipDates: [LocalDate] = []) {
        precondition((0..<24).contains(hour) && (0..<60).contains(minute), "alarm time out of range")
        self.id = id
        self.hour = hour
        self.minute = minute
        self.repeats = repeats
        self.title = title
        self.policy = policy
        self.enabled = enabled
        self.challenge = challenge
        self.sounds = sounds
        self.countdown = countdown
        self.skipDates = Array(Set(skipDates)).sorted()
    }

    enum CodingKeys: String, CodingKey { case id, hour, minute, repeats, title, policy, enabled, challenge, sounds, countdown, skipDates }

    /// Decodes documents of every version: `challenge` is absent from documents written before
    /// walk alarms existed and then means `.none`; `policy` is absent from schedules written
    /// before the inactivity-policy marker existed and then means `.legacy` (INACT-2).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        hour = try container.decode(Int.self, forKey: .hour)
        minute = try container.decode(Int.self, forKey: .minute)
        repeats = try container.decode(AlarmRepeat.self, forKey: .repeats)
        title = try container.decode(String.self, forKey: .title)
        // INACT-2, INACT-25: a schedule an older version saved without an inactivity-policy
        // marker keeps the legacy 20 h lifetime; an update never adds a marker to it.
        policy = try container.decodeIfPresent(InactivityPolicy.self, forKey: .policy) ?? .legacy
        enabled = try container.decode(Bool.self, forKey: .enabled)
        challenge = try container.decodeIfPresent(ChallengeKind.self, forKey: .challenge) ?? .none
        sounds = try container.decodeIfPresent(SoundSettings.self, forKey: .sounds)
        countdown = try container.decodeIfPresent(CountdownDuration.self, forKey: .countdown)
        skipDates = try container.decodeIfPresent([LocalDate].self, forKey: .skipDates) ?? []  // REC-4: older documents
    }

    /// Encodes `skipDates` only when there are some, so documents without skip dates stay byte
    /// for byte what older versions wrote.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(hour, forKey: .hour)
        try container.encode(minute, forKey: .minute)
        try container.encode(repeats, forKey: .repeats)
        try container.encode(title, forKey: .title)
        try container.encode(policy, forKey: .policy)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(challenge, forKey: .challenge)
        try container.encodeIfPresent(sounds, forKey: .sounds)
        try container.encodeIfPresent(countdown, forKey: .countdown)
        if !skipDates.isEmpty { try container.encode(skipDates, forKey: .skipDates) }
    }

    /// The schedule roots this alarm is realised as: one per selected weekday, or one for a one-shot.
    /// Root IDs are stable: `"<alarm id>"` for a one-shot, `"<alarm id>.<weekday>"` for weekly roots.
    /// - Rule: ID-1.
    /// REC-8: a one-shot still ahead keeps its wall-clock time in a new local frame — the next
    /// `hour:minute` after `wallMs` in `calendar` (as AlarmKit's `.relative(… repeats: .never)`
    /// does). Weekly alarms and one-shots already due are returned unchanged: a one-shot whose
    /// instant passed before the app learnt of the change may have rung already (ios seed 482).
    /// So is one whose ring time already came (`cameAtMs`: the latest ring time of its root that
    /// opened an occurrence, was passed over or delivered): a clock set-back can put that instant
    /// ahead of the wall clock again, yet the one-shot has rung and is spent — re-planning it in
    /// the new zone would ring it a second time, for no occurrence (android uniform seeds 54238,
    /// 54510: a1 06:05 rang, a 1 h set-back at 06:12, a zone change at 05:44 re-planned it for
    /// 06:05 of the next day). RULES.md (REC-8) speaks of fire times only; decided from the
    /// glossary's one-shot (one ring time) and the planner's ``BridgeCore/latestRingTimeCome(of:)``.
    public func rebasingOneShot(to calendar: WallCalendar, after wallMs: Int64, cameAtMs: Int64 = .min) -> LogicalAlarm {
        guard case .once(let fire) = repeats, fire > wallMs, fire > cameAtMs else { return self }
        var copy = self
        copy.repeats = .once(fireWallMs: calendar.nextFire(hour: hour, minute: minute, weekday: nil, after: wallMs))
        return copy
    }

    /// Whether ``roots`` holds a root with ID `rootID`, without building it (issue 20: the
    /// receipt check after every step asks only this).
    public func hasRoot(withID rootID: String) -> Bool {
        switch repeats {
        case .once: return rootID == id
        case .weekly(let days): return weekday(ofRootID: rootID, days: days) != nil
        }
    }

    /// The first of ``roots`` whose ID is `rootID`, nil when none is; only that root is built
    /// (issue 20: a look-up by ID built every root, title and skip dates included). IDs compare
    /// as `roots` would compare them (`String` equality).
    public func root(withID rootID: String) -> Root? {
        switch repeats {
        case .once:
            return rootID == id ? roots[0] : nil
        case .weekly(let days):
            guard let day = weekday(ofRootID: rootID, days: days) else { return nil }
            return Root(id: self.rootID(on: day), alarmID: id, hour: hour, minute: minute, weekday: day,
                        onceFireWallMs: nil, policy: policy, title: title, skipDates: skipDates)
        }
    }

    /// The first of `days` (in order) whose root ID `"\(id).\(day)"` equals `rootID`. ASCII IDs
    /// (every generated one) are matched byte by byte, without building each candidate ID
    /// (issue 20: root look-ups run at every sync); for others `String`'s own equality decides,
    /// as it canonicalises Unicode.
    private func weekday(ofRootID rootID: String, days: [Weekday]) -> Weekday? {
        switch Self.asciiRootWeekday(id: id, rootID: rootID) {
        case .some(let day):  // both ASCII: decided byte by byte
            // Each weekday has its own suffix, so at most one day matches, whatever the days' order.
            guard let day, days.contains(day) else { return nil }
            return day
        case .none:
            return days.sorted().first(where: { "\(id).\($0)" == rootID })
        }
    }

    /// When `id` and `rootID` are both ASCII: the weekday whose root ID (`id.mon`) `rootID` is,
    /// or `.some(nil)` when it is none's; nil when either holds other characters (then only
    /// `String` equality, which canonicalises Unicode, can decide). Read through each string's
    /// UTF-8 buffer (issue 20: iterating the UTF-8 views cost a few thousand instructions per
    /// alarm, and every step asks whether a root still exists).
    private static func asciiRootWeekday(id: String, rootID: String) -> Weekday?? {
        var id = id, rootID = rootID  // `withUTF8` is mutating; a native string is not copied
        return id.withUTF8 { idBytes in
            rootID.withUTF8 { rootBytes -> Weekday?? in
                var high: UInt8 = 0
                for byte in idBytes { high |= byte }
                for byte in rootBytes { high |= byte }
                guard high < 0x80 else { return nil }
                let length = idBytes.count
                guard rootBytes.count == length + 4, rootBytes[length] == UInt8(ascii: "."),
                      length == 0 || memcmp(idBytes.baseAddress!, rootBytes.baseAddress!, length) == 0 else { return .some(nil) }
                return .some(Weekday(rootIDLetters: rootBytes[length + 1], rootBytes[length + 2], rootBytes[length + 3]))
            }
        }
    }

    /// The ID of this alarm's weekly root on `day`, `"\(id).\(day)"` (ID-1), built by one append
    /// (issue 20: an interpolation appended three times; roots are built at every sync).
    public func rootID(on day: Weekday) -> String {
        var rootID = id
        rootID.append(day.rootIDSuffix)
        return rootID
    }

    public var roots: [Root] {
        switch repeats {
        case .once(let fireWallMs):
            return [Root(id: id, alarmID: id, hour: hour, minute: minute, weekday: nil,
                         onceFireWallMs: fireWallMs, policy: policy, title: title)]
        case .weekly(let days):
            return days.sorted().map { day in
                Root(id: rootID(on: day), alarmID: id, hour: hour, minute: minute, weekday: day,
                     onceFireWallMs: nil, policy: policy, title: title, skipDates: skipDates)
            }
        }
    }
}

/// One natively scheduled entry derived from a logical alarm. A logical alarm's roots form its family.
/// - Rule: ID-1.
public struct Root: Codable, Sendable, Equatable {
    public var id: String
    /// The logical alarm (family) this root belongs to.
    public var alarmID: String
    public var hour: Int
    public var minute: Int
    /// The weekday of a weekly root; nil for a one-shot.
    public var weekday: Weekday?
    /// The fixed fire instant of a one-shot root (wall-clock Unix-epoch ms); nil for weekly roots.
    public var onceFireWallMs: Int64?
    public var policy: InactivityPolicy
    public var title: String
    /// REC-4: the alarm's skip dates (weekly roots only; empty for one-shots).
    public var skipDates: [LocalDate] = []
}

/// A local calendar date (proleptic Gregorian, in the device zone), as skip dates name days.
/// Printed and parsed as `YYYY-MM-DD`.
public struct LocalDate: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }
    /// Parses `YYYY-MM-DD`; nil when malformed or not a date.
    public init?(_ text: String) {
        let parts = text.split(separator: "-").map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2],
              (1...12).contains(month), day >= 1, day <= WallCalendar.daysInMonth(year: year, month: month) else { return nil }
        self.init(year: year, month: month, day: day)
    }
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}

/// The kind of a physical ring. Every ring has exactly one owning root and one kind.
/// - Rule: SCH-1, ID-9.
public enum RingKind: String, Codable, Sendable, Equatable, CaseIterable {
    /// The configured ring of a root at a fire time; one per occurrence.
    case primary
    /// The owner-scoped retry due 10 s after a trigger (OCC-5, OCC-6).
    case successor
    /// The occurrence's one user-chosen delay (SNZ-1, SNZ-8): AlarmKit kind `one_time_snooze`,
    /// Android a PendingRetry with `oneTimeSnooze`.
    case snooze = "one-time-snooze"
    /// Root-scoped pressure ring of a started iOS walk (WALK-8, WALK-11): provisional (due 60 s
    /// after resign-active) or steady (due 30 s after the latest accepted step). Bound to the
    /// occurrence token like the other retries (ID-9).
    case walkFuse = "walk-fuse"
    /// REC-5, REC-7: the next-occurrence seed of a repeating root registered as concrete `.fixed`
    /// occurrences (iOS, skip dates, REC-4): a ring at the scheduled occurrence after the
    /// primary's. Recurrence durability only: bound to the root's schedule, never to an
    /// occurrence token, never pressure for the current occurrence; if it fires (no process ran
    /// to roll it into the primary, REC-6) it opens its occurrence as a primary would. Optional:
    /// added only after every primary (CAP-2, CAP-3), the only ring capacity may be reclaimed
    /// from (CAP-4), never armed by a direct save (CAP-6).
    case seed

    // MARK: Legacy kinds (BOOT-10, BOOT-11, WALK-13)
    // Written by older versions and never created now: they exist so that a legacy document and
    // a legacy daemon inventory decode, and migration can collapse or delete them.

    /// An ordinary same-morning cadence ring pre-armed by an older version (OCC-6 forbids them
    /// now). Migration keeps at most one per live occurrence, as its single pressure ring (BOOT-10).
    case legacyCadence = "same-morning-cadence"
    /// A maintenance alarm an older version kept armed while the app was in the foreground (WALK-5).
    case legacyForegroundMaintenance = "foreground-maintenance"
    /// One ring of a prearmed walk-fuse pair (WALK-13).
    case legacyFusePair = "walk-fuse-pair"
    /// A safety relay ring.
    case legacySafetyRelay = "safety-relay"
    /// A walk cadence ring.
    case legacyWalkCadence = "walk-cadence"

    /// Kinds bound to one occurrence token rather than to a root's schedule (ID-9).
    public var isOccurrenceBound: Bool { self != .primary && self != .seed }

    /// True for the kinds only older versions wrote (BOOT-11): the current bridge never creates one.
    public var isLegacy: Bool {
        switch self {
        case .primary, .successor, .snooze, .walkFuse, .seed: return false
        case .legacyCadence, .legacyForegroundMaintenance, .legacyFusePair, .legacySafetyRelay, .legacyWalkCadence: return true
        }
    }
    /// Kinds whose delivery opens an occurrence of their root (OCC-2): the primary, and a seed
    /// that fired before the bridge could roll it into the primary (REC-5, REC-6).
    public var opensOccurrence: Bool { self == .primary || self == .seed }
}

/// When a ring fires, in the platform-neutral form the core plans with.
public enum RingSchedule: Codable, Sendable, Equatable, CustomStringConvertible {
    /// An absolute wall-clock instant (Unix-epoch ms). AlarmKit `.fixed(Date)`; Android `RTC_WAKEUP`.
    case fixed(wallMs: Int64)
    /// Local hour and minute in the device zone, following zone changes. AlarmKit `.relative`:
    /// `weekday == nil` is `repeats: .never` (next such local time), otherwise `.weekly([weekday])`.
    case relative(hour: Int, minute: Int, weekday: Weekday?)

    public var description: String {
        switch self {
        case .fixed(let wallMs): return "fixed(\(wallMs))"
        case .relative(let hour, let minute, let weekday):
            let time = clockTime(hour: hour, minute: minute)
            return weekday.map { "relative(\(time) weekly \($0))" } ?? "relative(\(time) never)"
        }
    }
}

/// The identity input of a primary: the fire time truncated to the minute (ID-2).
/// For a repeating relative schedule it is the configured local hour and minute; otherwise the
/// absolute wall-clock minute.
public enum FireKey: Codable, Sendable, Hashable, CustomStringConvertible {
    case localTime(hour: Int, minute: Int)
    case wallMinute(Int64)

    public var description: String {
        switch self {
        case .localTime(let hour, let minute): return "local-" + clockTime(hour: hour, minute: minute)
        case .wallMinute(let minute): return "minute-\(minute)"
        }
    }
}

/// `HH:MM`, zero-padded (cheaper than `String(format:)`, which sits on hot trace paths).
public func clockTime(hour: Int, minute: Int) -> String {
    (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
}

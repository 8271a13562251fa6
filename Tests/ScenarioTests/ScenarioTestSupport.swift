// Shared helpers for the scenario format tests: fixed name lists, parse shortcuts, and a
// random scenario generator driven by a local LCG (no dependency on other targets, no
// `static var` state: every test builds its own generator).

import Scenario

enum Fixture {
    static let knownDefects = ["resync-while-alerting", "unavailable-read-as-empty", "stop-leaves-recovery-guard", "title-in-ring-id"]
    static let knownInvariants = ["never-silent", "one-successor-per-occurrence", "hands-off-alerting", "stable-ids"]

    /// Parses `text` with the fixture's name lists.
    static func parse(_ text: String, file: String = "test.scenario") throws(ScenarioError) -> ScenarioFile {
        try ScenarioParser.parse(text, file: file, knownDefects: knownDefects, knownInvariants: knownInvariants)
    }

    /// The error parsing `text` throws, or nil when it parses.
    static func parseError(_ text: String, file: String = "test.scenario") -> ScenarioError? {
        do {
            _ = try parse(text, file: file)
            return nil
        } catch {
            return error
        }
    }

    /// The three lines most tests start from: lines 1–3.
    static let header = [
        "platform ios",
        "start 2026-03-02 06:55 Europe/Berlin",
        "alarm wake 07:00 once",
    ]

    static func text(_ lines: [String]) -> String {
        lines.joined(separator: "\n") + "\n"
    }
}

/// A 64-bit linear congruential generator (Knuth's MMIX constants). Good enough to vary test
/// inputs; the simulator's own PRNG lives in SimKernel, which this target must not import.
struct TestLCG {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1
    }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }

    /// A value in `0..<bound` (upper bits; the slight modulo bias does not matter here).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int((next() >> 33) % UInt64(bound))
    }

    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    mutating func pick<T>(_ values: [T]) -> T {
        values[below(values.count)]
    }

    /// A random subset in random order.
    mutating func subset<T>(_ values: [T], count: Int) -> [T] {
        var pool = values
        var result: [T] = []
        while result.count < count, !pool.isEmpty {
            result.append(pool.remove(at: below(pool.count)))
        }
        return result
    }
}

/// Builds random, valid scenarios: every name declared, times non-decreasing and not before
/// the start, arguments matching the vocabulary (optional counts filled in, as the parser does).
struct RandomScenarioGenerator {
    var random: TestLCG

    static let comments = ["", "001: a regression", "  indented # with hash", "quotes \" and \\ backslash", "ünïcödé ✓ 🚨", "\ttab"]
    static let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "UTC", "Australia/Lord_Howe", "Pacific/Chatham"]
    static let alarmNames = ["wake", "nap", "gym_1", "Late-Night", "a", "Z9"]
    static let texts = ["", "Gym", "Wake up", "say \"hi\"", "back\\slash", "#not a comment", "\\\"", "Früh 🌅", "  spaced  "]
    static let parameterKeys = ["daemon.latency-ms", "capacity", "doze.window-s", "0x"]
    static let parameterValues = ["300", "on", "-1", "1.5", "two words", "a#b", "q\"uote", "日本"]

    init(seed: UInt64) {
        random = TestLCG(seed: seed)
    }

    mutating func scenario(path: String) -> ScenarioFile {
        let start = randomStart()
        let alarms = randomAlarms()
        var scenario = ScenarioFile(
            path: path,
            comments: random.subset(Self.comments, count: random.below(3)),
            platform: random.pick(ScenarioPlatform.allCases),
            start: start,
            seed: random.next(),
            defects: random.subset(Fixture.knownDefects, count: random.below(3)),
            parameters: random.subset(Self.parameterKeys, count: random.below(4)).map { key in
                ScenarioParameter(key: key, value: random.pick(Self.parameterValues))
            },
            alarms: alarms)
        scenario.events = randomEvents(start: start, alarms: alarms)
        scenario.expectations = random.chance(1, in: 3)
            ? [.noViolations(line: 0)]
            : random.subset(Fixture.knownInvariants, count: random.below(3)).map { .violation($0, line: 0) }
        return scenario
    }

    mutating func randomStart() -> ScenarioStart {
        let year = 2020 + random.below(11)
        let month = 1 + random.below(12)
        let day = 1 + random.below(LocalDate.daysInMonth(year: year, month: month))
        return ScenarioStart(
            date: LocalDate(year: year, month: month, day: day),
            hour: random.below(24), minute: random.below(60),
            second: random.chance(1, in: 2) ? 0 : random.below(60),
            zoneIdentifier: random.pick(Self.zones))
    }

    mutating func randomAlarms() -> [ScenarioAlarm] {
        random.subset(Self.alarmNames, count: random.below(5)).map { name in
            let repeats: ScenarioRepeat = random.chance(1, in: 2)
                ? .once
                : .weekly(random.subset(ScenarioWeekday.allCases, count: 1 + random.below(7)))
            return ScenarioAlarm(
                name: name, hour: random.below(24), minute: random.below(60), repeats: repeats,
                policy: random.pick([.v3, .v2, .legacy]),
                title: random.chance(1, in: 2) ? nil : random.pick(Self.texts),
                challenge: random.pick([.none, .voice, .math, .walk]))
        }
    }

    mutating func randomEvents(start: ScenarioStart, alarms: [ScenarioAlarm]) -> [ScenarioEvent] {
        let usable = ScenarioVocabulary.verbs.filter { entry in
            !alarms.isEmpty || !entry.arguments.contains(.alarm)
        }
        var millisecondsSinceMidnight = start.millisecondsSinceStartDateMidnight
        var events: [ScenarioEvent] = []
        for _ in 0..<random.below(13) {
            switch random.below(4) {
            case 0: break  // same instant as the previous event
            case 1: millisecondsSinceMidnight += Int64(random.below(1_000))
            case 2: millisecondsSinceMidnight += Int64(random.below(3_600)) * 1_000
            default: millisecondsSinceMidnight += Int64(random.below(2 * 86_400_000))
            }
            let entry = random.pick(usable)
            let arguments = entry.arguments.compactMap { randomArgument($0, alarms: alarms) }
            events.append(ScenarioEvent(time: Self.time(millisecondsSinceMidnight), actor: entry.actor,
                                        verb: entry.verb, arguments: arguments))
        }
        return events
    }

    mutating func randomArgument(_ kind: ScenarioArgumentKind, alarms: [ScenarioAlarm]) -> ScenarioArgument? {
        switch kind {
        case .alarm: return .alarm(random.pick(alarms).name)
        case .optionalAlarm: return alarms.isEmpty || random.chance(1, in: 2) ? nil : .alarm(random.pick(alarms).name)
        case .text: return .text(random.pick(Self.texts))
        case .count, .optionalCount: return .count(random.pick([0, 1, 2, 7, 64, 1_000_000]))
        case .duration: return .durationMs(random.pick([0, 1, 999, 1_500, 90_000, 300_000, 7_200_000, 86_400_000]))
        case .onOff: return .onOff(random.chance(1, in: 2))
        case .timeOfDay: return .timeOfDay(hour: random.below(24), minute: random.below(60))
        case .zone: return .zone(random.pick(["UTC", "Asia/Tokyo", "America/New_York", "Europe/Berlin"]))
        case .signedDuration: return .signedDurationMs(random.pick([1, 999, -1_500, 90_000, -7_200_000, 86_400_000]))
        }
    }

    static func time(_ millisecondsSinceMidnight: Int64) -> ScenarioTime {
        let day: Int64 = 86_400_000
        let withinDay = Int(millisecondsSinceMidnight % day)
        return ScenarioTime(
            dayOffset: Int(millisecondsSinceMidnight / day),
            hour: withinDay / 3_600_000, minute: withinDay / 60_000 % 60,
            second: withinDay / 1_000 % 60, millisecond: withinDay % 1_000)
    }
}

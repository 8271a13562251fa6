import AlarmBridge
import SimKernel
import Simulation

/// A failing run reduced to a small scenario that still fails the same way.
public struct ShrinkResult: Sendable {
    /// The invariant the original run violated first; the shrunk scenario violates it first too.
    public var invariant: String
    /// Timed events of the faithful export (the whole plan) and of the shrunk scenario.
    public var originalEvents: Int
    public var shrunkEvents: Int
    public var originalAlarms: Int
    public var shrunkAlarms: Int
    /// `param` lines of the export and of the shrunk scenario.
    public var originalParameters: Int
    public var shrunkParameters: Int
    /// Candidate scenarios run (the budget counts these; the original run is not counted).
    public var candidateRuns: Int
    /// The shrunk scenario, with its comment header, `defect` lines and `expect violation`.
    public var scenario: ScenarioFile
    /// `ScenarioPrinter.print(scenario)`: the file to commit.
    public var text: String
    /// False when the file has no timed event: the export had none, so nothing was reduced
    /// (candidates with no event left are never accepted).
    public var isShrunk: Bool { shrunkEvents > 0 }
}

/// Shrinks a failing run to a minimal `.scenario` file that fails the same invariant first.
///
/// 1. The run's setup is exported faithfully (`ScenarioExport`): the exported scenario uses the
///    setup's seed, `param sim.first-launch scripted`, and a `param` for every non-default
///    field, including the fuzz switches `sim.reactive-user`, `sim.interleaving-death-rate` and
///    `sim.request-failure-rate`, so `ScenarioRunner.run` replays the same run. If the export
///    does not fail with the original first violation's invariant, there is nothing to shrink
///    toward and `shrink` returns nil.
/// 2. Explicit reactions: the original run records what its hidden actors did
///    (`RunResult.reactiveActions`: the reactive user's stops, app visits, completions, snoozes,
///    walks, bursts; interleaving deaths), each at the instant it was due. The export with those
///    merged into the plan and `reactiveUser` / `interleavingDeaths` off is the first candidate;
///    if it fails the same way, shrinking starts from it, so the file needs no hidden actor.
///    Otherwise the switches stay on (and the switch pass below still tries them off).
///    `sim.request-failure-rate` is never made explicit: its failures hit one request among
///    several issued in the same millisecond, which no timed line can pick.
/// 3. Passes, each candidate verified by running it (`ScenarioRunner.run`) and accepted only
///    when its first violation is the same bug (`ShrinkTarget`: the same invariant, the same
///    roots named, the same message shape, so the same ring kind and clause), every alarm it
///    names was saved by the app in that run (`RunResult.savedAlarmIDs`), and at least one
///    timed event is left:
///    - cut: drop events after the violation's wall time and set `sim.duration-ms` to the
///      violation's virtual time rounded up to the next whole minute (runs get shorter, too);
///    - switches: turn the fuzz switches off (reactive user, interleaving deaths, request
///      failures) — with the reactive user on, the user's reactions stay implicit;
///    - ddmin over the timed events (chunks first, down to single events);
///    - drop alarms, with every event that names them;
///    - simplify alarms: default sounds, no countdown, no skip dates, title = name, no
///      challenge, policy 3, once instead of weekly, fewer weekdays;
///    - drop `param` lines one at a time (back to the runner's default);
///    - replace the scripted first launch by the runner's synthesized one;
///    - snap event times to the whole minute, else the whole second.
///    With defects on, a candidate is accepted only if the same file with its `defect` lines
///    removed breaks no invariant (the defect is still what fails it); the export itself must
///    pass this check too, or there is nothing to shrink.
///    The passes repeat until a round changes nothing or `budget` candidate runs are spent.
/// 4. Deterministic: no wall clock, no hash order, candidates in a fixed order; the same input
///    gives the same file, byte for byte.
public enum Shrinker {
    /// Shrinks fuzz seed `seed` on `platform` with `defects` switched on.
    ///
    /// - Parameter budget: the most candidate runs (each a full simulated run up to the cut).
    /// - Returns: nil when the seed does not fail, or when its export does not reproduce the
    ///   first violation's invariant.
    public static func shrink(platform: PlatformFlavor, seed: UInt64, defects: [KnownDefect], budget: Int = 2000) -> ShrinkResult? {
        let (setup, parameters) = Simulator.runSetup(RunOptions(platform: platform, seed: seed))
        let applicable = defects.filter { $0.platforms.contains(platform) }.sorted()
        let command = (["alarmsim", "shrink", "--platform", platform.rawValue, "--seed", String(seed)]
            + applicable.flatMap { ["--defect", $0.rawValue] }).joined(separator: " ")
        return shrink(setup: setup, parameters: parameters, defects: applicable, budget: budget, origin: command)
    }

    /// Shrinks the run of an explicit setup (e.g. one drawn with another fault profile).
    ///
    /// - Parameters:
    ///   - setup: the device setup; its `seed` drives the remaining randomness and becomes the file's seed.
    ///   - parameters: the setup's printed parameters (only passed through to the original run).
    ///   - origin: one line naming where the setup came from, for the file's comment header.
    ///   - bridge: the bridge under test (issue 19); every candidate runs it. The built-in one by default.
    public static func shrink(setup: DeviceSetup, parameters: [RunParameter], defects: [KnownDefect], budget: Int = 2000,
                              origin: String? = nil, bridge: BridgeFactory = .builtIn) -> ShrinkResult? {
        let applicable = defects.filter { $0.platforms.contains(setup.platform) }.sorted()
        let original = Simulator.run(setup: setup, parameters: parameters,
                                     options: RunOptions(platform: setup.platform, seed: setup.seed, defects: applicable, bridge: bridge))
        guard let first = original.firstViolation,
              let exported = try? ScenarioExport.scenario(from: setup, defects: applicable, invariant: first.invariant) else {
            return nil
        }
        var search = Search(target: ShrinkTarget(first, alarmNames: setup.alarms.map(\.id)), budget: budget, bridge: bridge)
        guard let violation = search.violation(exported) else { return nil }
        var current = exported
        search.accepted(violation)
        // Explicit reactions: the hidden actors' actions as timed lines, their switches off.
        if !original.reactiveActions.isEmpty, let explicit = explicitSetup(setup, original.reactiveActions),
           let file = try? ScenarioExport.scenario(from: explicit, defects: applicable, invariant: first.invariant) {
            _ = search.attempt(file, into: &current)
        }
        search.run(&current)

        let origin = origin ?? "a \(setup.platform.rawValue) setup with seed \(setup.seed)"
        let rules = first.rules.isEmpty ? "" : " (\(first.rules.joined(separator: ", ")))"
        current.comments = [
            "Shrunk from \(origin):",
            "\(exported.events.count) → \(current.events.count) events, \(exported.alarms.count) → \(current.alarms.count) alarms, \(search.runs) candidate runs.",
            "Fails invariant \(first.invariant)\(rules) first, like the original run.",
        ]
        current.path = ""
        let text = ScenarioPrinter.print(current)
        return ShrinkResult(invariant: first.invariant, originalEvents: exported.events.count, shrunkEvents: current.events.count,
                            originalAlarms: exported.alarms.count, shrunkAlarms: current.alarms.count,
                            originalParameters: exported.parameters.count, shrunkParameters: current.parameters.count,
                            candidateRuns: search.runs, scenario: current, text: text)
    }

    /// `setup` with the reactive user and interleaving deaths off and what they did (`reactive`,
    /// from `RunResult.reactiveActions`) merged into the plan as explicit actions (ties: the
    /// setup's own actions first). Actions without a scenario line (an
    /// abandon naming the wrong alarm) are left out; the candidate run decides whether the
    /// result still fails. nil when nothing was recorded.
    static func explicitSetup(_ setup: DeviceSetup, _ reactive: [TimedAction]) -> DeviceSetup? {
        // A double tap's second tap is recorded on its own: the first becomes a single tap.
        let expressible = reactive.map { timed -> TimedAction in
            guard case .userSnooze(let delayMs, true) = timed.action else { return timed }
            return TimedAction(wallMs: timed.wallMs, action: .userSnooze(delayMs: delayMs, doubleTap: false))
        }.filter { ScenarioExport.event(for: $0.action) != nil }
        guard !expressible.isEmpty else { return nil }
        var explicit = setup
        explicit.reactiveUser = false
        explicit.interleavingDeathRate = nil
        explicit.workoutLossRate = nil
        explicit.walkForceQuitRate = nil
        explicit.snoozeClockChangeRate = nil
        explicit.triggerClockSetBackRate = nil
        let merged = setup.plan.enumerated().map { ($0.element, 0, $0.offset) }
            + expressible.enumerated().map { ($0.element, 1, $0.offset) }
        explicit.plan = merged.sorted { ($0.0.wallMs, $0.1, $0.2) < ($1.0.wallMs, $1.1, $1.2) }.map(\.0)
        return explicit
    }

    /// The keys of the fuzz-only switches, tried first by the parameter pass.
    static let switchKeys = ["sim.reactive-user", "sim.interleaving-death-rate", "sim.request-failure-rate",
                             "sim.workout-loss-rate", "sim.walk-force-quit-rate", "sim.snooze-clock-change-rate",
                             "sim.trigger-clock-set-back-rate", "sim.death-mid-close-rate"]

    /// One shrink search: the target invariant, the budget, and the last accepted violation.
    struct Search {
        /// The original run's first violation as invariant, subject and message shape.
        let target: ShrinkTarget
        let budget: Int
        private(set) var runs = 0
        /// The first violation of the latest accepted candidate (where the cut pass cuts).
        private(set) var lastViolation: Violation?
        /// The bridge every candidate runs (issue 19).
        let bridge: BridgeFactory

        init(target: ShrinkTarget, budget: Int, bridge: BridgeFactory = .builtIn) {
            self.target = target
            self.budget = budget
            self.bridge = bridge
        }

        var invariant: String { target.invariant }

        var exhausted: Bool { runs >= budget }

        /// Runs `scenario`; counts one run against the budget (the correct-bridge check is free).
        /// The candidate's first violation when it has the target invariant (and, with defects on,
        /// the correct bridge runs it clean). The candidate runs as
        /// its printed text parses back, so only a file that can be written and read again is
        /// ever accepted.
        mutating func violation(_ scenario: ScenarioFile) -> Violation? {
            runs += 1
            let text = ScenarioPrinter.print(scenario)
            guard var parsed = try? ScenarioParser.parse(text, file: scenario.path, knownDefects: KnownDefect.allCases.map(\.rawValue),
                                                         knownInvariants: InvariantCatalog.all.map(\.id)),
                  (try? ScenarioRunner.validate(parsed, source: text)) != nil else { return nil }
            parsed.path = scenario.path
            let outcome = ScenarioRunner.run(parsed, bridge: bridge)
            guard let first = outcome.result.firstViolation,
                  ShrinkTarget(first, alarmNames: parsed.alarms.map(\.name)) == target else { return nil }
            // The same bug needs the alarm it names: one the app never saved (a scripted first
            // launch cut away) fails on every bridge and shows nothing of this one.
            let saved = Set(outcome.result.savedAlarmIDs)
            guard target.alarmNames.allSatisfy(saved.contains) else { return nil }
            // Teeth: with defects on, the candidate must need them. The same file on the correct
            // bridge must break no invariant, or the shrink could end in a scenario that shows no
            // bug of the defect (e.g. an alarm the app never saved, never silent on any bridge).
            if !parsed.defects.isEmpty {
                var correct = parsed
                correct.defects = []
                if ScenarioRunner.run(correct, bridge: bridge).result.firstViolation != nil { return nil }
            }
            return first
        }

        mutating func accepted(_ violation: Violation) { lastViolation = violation }

        /// Whether `candidate` still fails; when it does, it becomes `current`.
        mutating func attempt(_ candidate: ScenarioFile, into current: inout ScenarioFile) -> Bool {
            // A file with no timed event left is no shrink of a run (issue 16): never accepted.
            guard !exhausted, candidate != current, !candidate.events.isEmpty, let found = violation(candidate) else { return false }
            lastViolation = found
            current = candidate
            return true
        }

        /// The passes, repeated to a fixed point or until the budget is spent.
        mutating func run(_ current: inout ScenarioFile) {
            var changed = true
            while changed && !exhausted {
                changed = false
                changed = cut(&current) || changed
                changed = dropParameters(&current, keys: Shrinker.switchKeys) || changed
                changed = ddminEvents(&current) || changed
                changed = dropAlarms(&current) || changed
                changed = simplifyAlarms(&current) || changed
                changed = dropParameters(&current, keys: nil) || changed
                changed = synthesizedFirstLaunch(&current) || changed
                changed = snapTimes(&current) || changed
            }
            _ = cut(&current)
            // The cut owns `sim.duration-ms` during the rounds (dropping it there would undo the
            // cut each round); a last try without it, for one line less.
            if let index = current.parameters.firstIndex(where: { $0.key == "sim.duration-ms" }) {
                var candidate = current
                candidate.parameters.remove(at: index)
                _ = attempt(candidate, into: &current)
            }
        }

        // MARK: Passes

        /// Drops the events after the violation and ends the run at the next whole minute after it.
        mutating func cut(_ current: inout ScenarioFile) -> Bool {
            guard let violation = lastViolation, let frame = Frame(current) else { return false }
            var changed = false
            let kept = current.events.filter { frame.wallMs($0.time) <= violation.wallMs }
            if kept.count < current.events.count {
                var candidate = current
                candidate.events = kept
                changed = attempt(candidate, into: &current) || changed
            }
            guard let violation = lastViolation else { return changed }
            let virtualMs = max(violation.trueMs - frame.startWallMs, 0)
            let durationMs = (virtualMs / 60_000 + 1) * 60_000
            // The runner's default run: until 10 min after the last event.
            let lastEventMs = current.events.last.map { frame.wallMs($0.time) - frame.startWallMs } ?? 0
            let present = current.parameters.last { $0.key == "sim.duration-ms" }.flatMap { Int64($0.value) }
            if durationMs < present ?? (max(lastEventMs, 0) + 600_000) {
                var candidate = current
                candidate.parameters.removeAll { $0.key == "sim.duration-ms" }
                candidate.parameters.append(ScenarioParameter(key: "sim.duration-ms", value: String(durationMs)))
                candidate.parameters = Shrinker.ordered(candidate.parameters)
                changed = attempt(candidate, into: &current) || changed
            }
            return changed
        }

        /// Delta debugging (ddmin) over the timed events: removes chunks of n, doubling n down to
        /// single events, keeping every removal that still fails.
        mutating func ddminEvents(_ current: inout ScenarioFile) -> Bool {
            var changed = false
            var granularity = 2
            while current.events.count >= 1 && !exhausted {
                let events = current.events
                let count = events.count
                granularity = min(granularity, count)
                let chunk = (count + granularity - 1) / granularity
                var removedOne = false
                var start = 0
                while start < count && !exhausted {
                    var candidate = current
                    candidate.events = Array(events[..<start]) + Array(events[min(start + chunk, count)...])
                    if attempt(candidate, into: &current) {
                        removedOne = true
                        changed = true
                        break
                    }
                    start += chunk
                }
                if removedOne {
                    granularity = max(granularity - 1, 2)
                } else if granularity < count {
                    granularity = min(granularity * 2, count)
                } else {
                    break
                }
            }
            return changed
        }

        /// Drops each alarm with the events that name it.
        mutating func dropAlarms(_ current: inout ScenarioFile) -> Bool {
            var changed = false
            var index = 0
            while index < current.alarms.count && !exhausted {
                let name = current.alarms[index].name
                var candidate = current
                candidate.alarms.remove(at: index)
                candidate.events.removeAll { $0.arguments.contains(.alarm(name)) }
                if attempt(candidate, into: &current) { changed = true } else { index += 1 }
            }
            return changed
        }

        /// Simplifies each alarm one attribute at a time, toward the file format's defaults.
        mutating func simplifyAlarms(_ current: inout ScenarioFile) -> Bool {
            var changed = false
            for index in current.alarms.indices {
                var simplifications: [(inout ScenarioAlarm) -> Void] = [
                    { $0.sounds = nil }, { $0.countdownMs = nil }, { $0.skipDates = [] }, { $0.title = $0.name },
                    { $0.challenge = .none }, { $0.policy = .v3 }, { $0.repeats = .once },
                ]
                if case .weekly(let days) = current.alarms[index].repeats, days.count > 1 {
                    for day in days { simplifications.append { alarm in
                        guard case .weekly(let now) = alarm.repeats, now.count > 1 else { return }
                        alarm.repeats = .weekly(now.filter { $0 != day })
                    } }
                }
                for simplify in simplifications where !exhausted {
                    var candidate = current
                    simplify(&candidate.alarms[index])
                    if candidate.alarms[index].skipDates.isEmpty == false, case .once = candidate.alarms[index].repeats { continue }
                    changed = attempt(candidate, into: &current) || changed
                }
            }
            return changed
        }

        /// Drops `param` lines (only those of `keys`, when given) one at a time.
        mutating func dropParameters(_ current: inout ScenarioFile, keys: [String]?) -> Bool {
            var changed = false
            var index = 0
            while index < current.parameters.count && !exhausted {
                let key = current.parameters[index].key
                guard keys.map({ $0.contains(key) }) ?? !["sim.first-launch", "sim.duration-ms"].contains(key) else { index += 1; continue }
                var candidate = current
                candidate.parameters.remove(at: index)
                if attempt(candidate, into: &current) { changed = true } else { index += 1 }
            }
            return changed
        }

        /// Replaces a scripted first launch (open the app, save the alarms, leave, within the first
        /// minute) by the runner's synthesized one.
        mutating func synthesizedFirstLaunch(_ current: inout ScenarioFile) -> Bool {
            guard current.parameters.contains(where: { $0.key == "sim.first-launch" && $0.value == "scripted" }),
                  !current.parameters.contains(where: { $0.key == "app.legacy-install" }), let frame = Frame(current) else { return false }
            var candidate = current
            candidate.parameters.removeAll { $0.key == "sim.first-launch" }
            var sawOpen = false
            while let event = candidate.events.first {
                guard frame.wallMs(event.time) <= frame.startWallMs + 60_000 else { break }
                let isPrefix: Bool
                switch (event.actor, event.verb) {
                case ("user", "open-app"): isPrefix = !sawOpen; sawOpen = true
                case ("user", "edit-title"):
                    isPrefix = candidate.alarms.contains { event.arguments == [.alarm($0.name), .text($0.title)] }
                case ("user", "leave-app"): isPrefix = true
                default: isPrefix = false
                }
                guard isPrefix else { break }
                candidate.events.removeFirst()
                if event.verb == "leave-app" { break }
            }
            return attempt(candidate, into: &current)
        }

        /// Snaps each event's time down to the whole minute, else the whole second, keeping the
        /// file order by instant (never before the previous event or the start) and the time's UTC
        /// offset: a time in the second pass of a repeated hour stays in that pass, and a snapped
        /// time must still name an instant (`ScenarioTime.orderKey`, as the parser orders).
        mutating func snapTimes(_ current: inout ScenarioFile) -> Bool {
            guard let frame = Frame(current) else { return false }
            var changed = false
            let startTime = ScenarioTime(hour: current.start.hour, minute: current.start.minute, second: current.start.second)
            for index in current.events.indices where !exhausted {
                let time = current.events[index].time
                let previous = index > 0 ? current.events[index - 1].time : startTime
                guard let previousKey = previous.orderKey(start: frame.start, calendar: frame.calendar),
                      let startKey = startTime.orderKey(start: frame.start, calendar: frame.calendar) else { continue }
                let floor = max(previousKey, startKey)
                func isInOrder(_ snapped: ScenarioTime) -> Bool {
                    guard let key = snapped.orderKey(start: frame.start, calendar: frame.calendar) else { return false }
                    return !(key < floor)
                }
                for snapped in [ScenarioTime(dayOffset: time.dayOffset, hour: time.hour, minute: time.minute,
                                             utcOffsetMinutes: time.utcOffsetMinutes),
                                ScenarioTime(dayOffset: time.dayOffset, hour: time.hour, minute: time.minute, second: time.second,
                                             utcOffsetMinutes: time.utcOffsetMinutes)]
                    where snapped != time && isInOrder(snapped) {
                    var candidate = current
                    candidate.events[index].time = snapped
                    if attempt(candidate, into: &current) { changed = true; break }
                }
            }
            return changed
        }
    }

    /// `param` lines in a fixed order: the export's own keys first, then `parameterKeys` order.
    static func ordered(_ parameters: [ScenarioParameter]) -> [ScenarioParameter] {
        let leading = ["sim.start-ms", "sim.first-launch", "sim.duration-ms", "app.legacy-install"]
        func rank(_ key: String) -> Int {
            if let index = leading.firstIndex(of: key) { return index }
            return leading.count + (ScenarioRunner.parameterKeys.firstIndex(of: key) ?? ScenarioRunner.parameterKeys.count)
        }
        return parameters.enumerated().sorted { (rank($0.element.key), $0.offset) < (rank($1.element.key), $1.offset) }.map(\.element)
    }

    /// Maps a scenario's event times to device wall ms, as `ScenarioRunner.run` does.
    struct Frame {
        let start: ScenarioStart
        let calendar: WallCalendar
        let startWallMs: Int64

        init?(_ scenario: ScenarioFile) {
            guard let calendar = WallCalendar(zoneIdentifier: scenario.start.zoneIdentifier),
                  let second = calendar.instant(year: scenario.start.date.year, month: scenario.start.date.month,
                                                day: scenario.start.date.day, hour: scenario.start.hour,
                                                minute: scenario.start.minute, second: scenario.start.second) else { return nil }
            self.start = scenario.start
            self.calendar = calendar
            self.startWallMs = second + (Int64(scenario.parameters.last { $0.key == "sim.start-ms" }?.value ?? "0") ?? 0)
        }

        func wallMs(_ time: ScenarioTime) -> Int64 {
            ScenarioRunner.instant(of: time, start: start, calendar: calendar)
        }
    }
}

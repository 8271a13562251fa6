import AlarmBridge
import AndroidModel
import IOSModel
import SimKernel
import Simulation

/// The result of running one scenario file.
public struct ScenarioOutcome: Sendable {
    /// True when every `expect` line held.
    public var passed: Bool
    /// One line per unmet expectation: "file:line: expected …, got …".
    public var failures: [String]
    /// Informational lines: timed expectations the run never reached because it stopped at the
    /// violation the file expects, and the named exemptions the run counted.
    public var notes: [String]
    public var result: RunResult
}

/// Maps a parsed scenario onto the simulator and checks its expectations.
///
/// At `start` the app is a fresh install: the user opens it, every declared alarm is saved
/// through the direct save (one per 500 ms), and the app goes to the background 3 s after
/// `start`. Then the timed lines run. There is no reactive user and no random fault: only the
/// file's own lines act; `seed` drives what randomness remains (daemon latencies).
public enum ScenarioRunner {
    /// Parameters a scenario may set with `param KEY VALUE`.
    public static let parameterKeys = ["ios.capacity", "ios.schedule-latency-max-ms", "ios.coalesce-updates",
                                       "ios.authorization", "ios.authorization-answer", "ios.usage-description",
                                       "ios.stale-not-determined", "ios.hold-updates-while-locked", "ios.dense-late-delay-max-ms", "ios.read-lag-max-ms",
                                       "ios.background-execution-ms", "ios.intents-after-force-quit",
                                       "ios.dst-gap", "ios.dst-overlap", "ios.custom-sound-fails", "ios.silent-mode-silences",
                                       "ios.jumped-over-relative", "ios.schedule-always-fails",
                                       "ios.workout-recovery", "ios.motion-authorized", "ios.health-access",
                                       "ios.walk-collection-never-confirms", "ios.alarmkit", "ios.background-task-identifier",
                                       "android.api-level", "android.swipe-force-stops", "android.update-clears-alarms",
                                       "android.oem-kills-ringing-ms", "android.focus-loss-silences", "android.seeded-tie-order",
                                       "android.full-screen-intent", "android.standby-bucket", "android.doze-maintenance-ms", "android.manifest", "android.target-sdk", "android.credential-stored-sounds", "bridge.min-snooze-lead-ms", "bridge.clock-threshold-ms", "bridge.g-pub-ms",
                                       "bridge.imminent-ms", "bridge.h-ctx-ms", "bridge.d-session-ms", "js.heartbeat-ms", "sim.t-op-ms", "sim.duration-ms",
                                       "app.js-cache-stale", "bridge.w-step-ms", "android.step-report-latency-ms", "app.legacy-install",
                                       "bridge.h-skip-ms", "bridge.n-skip",
                                       // Every field the fuzz generator draws (so a failing seed exports faithfully: Shrinker).
                                       "ios.workout-session-latency-ms", "ios.workout-collection-latency-ms", "ios.pedometer-history-lag-ms",
                                       "android.locked-boot-broadcast-delay-ms", "android.fresh-install", "android.doze-idle-periods-ms",
                                       "android.oem-delivery-delay-max-ms", "android.alarm-volume", "android.fgs-window-ms",
                                       "android.battery-usage", "android.battery-saver",
                                       "net.kill-switch-failure-rate", "net.kill-switch-timeout-ms", "js.stall-one-in",
                                       "sim.reactive-user", "sim.interleaving-death-rate", "sim.request-failure-rate", "sim.foreground-repair-failures",
                                       "sim.workout-loss-rate", "sim.walk-force-quit-rate", "sim.snooze-clock-change-rate",
                                       "sim.trigger-clock-set-back-rate", "sim.death-mid-close-rate", "sim.accepted-request-drop-rate",
                                       "sim.first-launch", "sim.start-ms", "sim.liveness", "sim.max-events", "sim.max-virtual-days",
                                       "liveness.registration-bound-ms", "liveness.audible-bound-ms", "liveness.user-return-ms",
                                       "liveness.user-stay-ms", "liveness.first-unlock-ms"]

    /// Checks what the parser cannot know: `param` keys and values, and faults that exist on one
    /// platform only.
    /// - Throws: `ScenarioError` at the offending line and column (the CLI exits 65).
    /// - Parameter source: the file's text, to point a defect error at its line (1:1 without it).
    public static func validate(_ scenario: ScenarioFile, source: String? = nil) throws(ScenarioError) {
        let platform: PlatformFlavor = scenario.platform == .ios ? .ios : .android
        for name in scenario.defects {
            guard let defect = KnownDefect(rawValue: name), !defect.platforms.contains(platform) else { continue }
            let lines = sourceLines(source)
            let index = lines.firstIndex { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).prefix(2) == ["defect", Substring(name)] }
            let line = index.map { $0 + 1 } ?? 1
            var column = 1
            if let index, let found = scalarColumn(of: name, in: lines[index]) {
                column = found
            }
            throw ScenarioError(file: scenario.path, line: line, column: column,
                                message: "defect \(name) does not apply to \(platform.rawValue) (it applies to \(defect.platforms.map(\.rawValue).joined(separator: ", ")))")
        }
        var probe = DeviceSetup(platform: scenario.platform == .ios ? .ios : .android, zoneIdentifier: "UTC",
                                startWallMs: 0, durationMs: 0, alarms: [], plan: [], seed: 0)
        for parameter in scenario.parameters {
            if let problem = apply(parameter, to: &probe) {
                let column = problem.hasPrefix("bad value") ? parameter.valueColumn : parameter.column
                throw ScenarioError(file: scenario.path, line: parameter.line, column: column, message: problem)
            }
        }
        // Free-text arguments with a closed vocabulary are checked here, not at run time.
        for event in scenario.events {
            guard event.arguments.count > 1, case .text(let text) = event.arguments[1] else { continue }
            var problem: String?
            switch (event.actor, event.verb) {
            case ("user", "edit-weekdays"):
                let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                let known = Weekday.allCases.map(\.description)
                if let bad = names.first(where: { !known.contains($0) }) {
                    problem = "\"\(bad)\" is not a weekday: write comma-separated sun…sat without spaces, e.g. \"mon,wed\""
                } else if Set(names).count != names.count {
                    problem = "weekday repeated in \"\(text)\""
                }
            case ("user", "edit-sounds"), ("user", "edit-policy"), ("user", "edit-challenge"), ("user", "edit-countdown"):
                if editorEdit(event.verb, text) == nil {
                    let values = ["edit-sounds": "none or \"MODE: a,b | c\"", "edit-policy": "3, 2 or legacy",
                                  "edit-challenge": "none, voice, math or walk", "edit-countdown": "off or a duration such as 5m"]
                    problem = "bad value \"\(text)\" for user \(event.verb): \(values[event.verb] ?? "")"
                }
            case ("expect", "save"):
                let outcomes = ["saved", "deleted", "delete-unconfirmed"] + SaveFailureReason.allCases.map(\.rawValue)
                if !outcomes.contains(text) { problem = "unknown save outcome \"\(text)\": one of \(outcomes.joined(separator: ", "))" }
            default:
                break
            }
            if let problem {
                var column = 1
                let lines = sourceLines(source)
                if event.line >= 1, event.line <= lines.count, let found = scalarColumn(of: "\"", in: lines[event.line - 1]) {
                    column = found
                }
                throw ScenarioError(file: scenario.path, line: event.line, column: column, message: problem)
            }
        }
        for event in scenario.events where event.actor == "fault" || event.actor == "device" || event.actor == "user" {
            let androidOnly = ["revoke-exact-permission", "grant-exact-permission", "doze", "charging", "force-stop",
                               "audio-focus-loss", "phone-call", "audio-focus-regained", "playback-failure",
                               "volume-key", "lower-alarm-volume", "start-wake-up-check"]
            let iosOnly = ["capacity", "coalesce-updates", "os-removes-alarm", "silent-mode", "workout-lost",
                           "wrong-instant-alert", "ghost-alert", "os-update"]
            if scenario.platform == .ios && androidOnly.contains(event.verb)
                || scenario.platform == .android && iosOnly.contains(event.verb) {
                var column = 1
                let lines = sourceLines(source)
                if event.line >= 1, event.line <= lines.count, let found = scalarColumn(of: " " + event.verb, in: lines[event.line - 1]) {
                    column = found + 1
                }
                throw ScenarioError(file: scenario.path, line: event.line, column: column,
                                    message: "\(event.actor) \(event.verb) does not exist on \(scenario.platform.rawValue)")
            }
        }
    }

    /// Runs a scenario and judges its expectations.
    ///
    /// - Parameter continuationSeed: `run --continue-seeds`: after the file's last timed line the
    ///   run continues for `Continuation.defaultDurationMs` with the seed's random behaviour
    ///   (`Continuation.extend`, swarm profile). The file's timed expectations are still checked;
    ///   its whole-run expectations are not (a continuation asks whether any invariant breaks).
    /// The source's lines as the parser counts them (`\n`, `\r\n` and `\r` end a line), so a
    /// validation error's line is the parser's (a CRLF file's `defect` line once pointed at 1:1).
    static func sourceLines(_ source: String?) -> [String] {
        ScenarioParser.splitLines(source ?? "").map { scalars in
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            return String(view)
        }
    }

    /// The 1-based column, in Unicode scalars like the parser's, where `needle` first occurs in
    /// `line`, compared scalar by scalar (a combining mark after a quote does not hide it).
    static func scalarColumn(of needle: String, in line: String) -> Int? {
        let haystack = Array(line.unicodeScalars), pattern = Array(needle.unicodeScalars)
        guard !pattern.isEmpty, haystack.count >= pattern.count else { return nil }
        for start in 0...(haystack.count - pattern.count) where Array(haystack[start..<(start + pattern.count)]) == pattern {
            return start + 1
        }
        return nil
    }

    /// Runs one parsed (and validated) scenario: the synthesized first launch, the file's timed
    /// lines, its `param` and `defect` lines, then judges its `expect` lines.
    /// - Parameters:
    ///   - keepFullTrace: keep every trace event (reports, `explain`) instead of the fuzz ring.
    ///   - continuationSeed: `run --continue-seeds`: after the file's last line, the seed's random
    ///     world carries on (``Continuation``); its `expect violation` / `expect no violations`
    ///     verdict is not judged (the continuation is the fuzz campaign's).
    ///   - bridge: the bridge under test (issue 19); the built-in ``BridgeCore`` by default.
    ///     The file's `defect` lines switch the built-in bridge's known defects; another bridge
    ///     receives them in its ``BridgeConfiguration`` and may ignore them.
    /// - Returns: whether it passed, its failures as `file:line: message`, notes (exemptions
    ///   applied, expectations after a violation the file asks for) and the run's result.
    public static func run(_ scenario: ScenarioFile, keepFullTrace: Bool = false, continuationSeed: UInt64? = nil,
                           bridge: BridgeFactory = .builtIn) -> ScenarioOutcome {
        var failures: [String] = []
        let platform: PlatformFlavor = scenario.platform == .ios ? .ios : .android
        let (calendar, startWallMs) = startInstant(scenario)
        var alarms = scenario.alarms.map { logicalAlarm($0, calendar: calendar, after: startWallMs) }
        let legacy = legacyInstall(scenario, alarms: alarms, platform: platform, calendar: calendar, startWallMs: startWallMs)
        if let legacy { alarms = legacy.alarms }
        let (plan, lastWallMs) = timedPlan(scenario, alarms: alarms, afterUpdate: legacy != nil, calendar: calendar,
                                           startWallMs: startWallMs, failures: &failures)
        var setup = DeviceSetup(platform: platform, zoneIdentifier: scenario.start.zoneIdentifier, startWallMs: startWallMs,
                                durationMs: lastWallMs - startWallMs + 600_000, alarms: alarms, plan: plan, seed: scenario.seed)
        applyParameters(scenario, to: &setup, failures: &failures)
        setup.legacyInstall = legacy
        let defects = scenario.defects.compactMap(KnownDefect.init(rawValue:))
        var parameters = [RunParameter("scenario", scenario.path), RunParameter("zone", setup.zoneIdentifier),
                          RunParameter("start-wall-ms", String(startWallMs))]
        if let continuationSeed {
            let extended = Continuation.extend(setup, fromWallMs: max(lastWallMs, startWallMs + 3_000), seed: continuationSeed)
            setup = extended.0
            parameters += extended.1
        }
        if setup.liveness.enabled {
            parameters += setup.liveness.parameters(boundaryWallMs: startWallMs + setup.durationMs)
        }
        let limits = Self.runLimits(scenario, setup: setup)
        let options = RunOptions(platform: platform, seed: scenario.seed, defects: defects, keepFullTrace: keepFullTrace,
                                 limits: limits, bridge: bridge)
        let result = Simulator.run(setup: setup, parameters: parameters, options: options)
        failures += result.scenarioFailures.map { "\(scenario.path):\($0)" }  // "line: message"
        if continuationSeed == nil { failures += judge(scenario, result) }
        var notes = uncheckedExpectations(scenario, plan: plan, endWallMs: startWallMs + result.virtualDurationMs,
                                          result: result, failures: &failures)
        notes += result.exemptions.map { "exemption \($0.name): \($0.value)" }
        return ScenarioOutcome(passed: failures.isEmpty, failures: failures, notes: notes, result: result)
    }

    /// The file's calendar and its start instant (virtual ms), with `param sim.start-ms N`'s
    /// milliseconds (a fuzz seed starts at any ms; Shrinker).
    static func startInstant(_ scenario: ScenarioFile) -> (WallCalendar, Int64) {
        guard let calendar = WallCalendar(zoneIdentifier: scenario.start.zoneIdentifier),
              let startSecondMs = calendar.instant(year: scenario.start.date.year, month: scenario.start.date.month,
                                                 day: scenario.start.date.day, hour: scenario.start.hour,
                                                 minute: scenario.start.minute, second: scenario.start.second) else {
            preconditionFailure("the parser validated the zone and date")
        }
        return (calendar, startSecondMs + (Int64(scenario.parameters.last { $0.key == "sim.start-ms" }?.value ?? "0") ?? 0))
    }

    /// `param app.legacy-install`: the run starts right after an update from an older version
    /// (BOOT-9..11, AND-4): its document and rings, generated from the declared alarms with
    /// every legacy kind, are in place, and the first launch migrates instead of saving.
    static func legacyInstall(_ scenario: ScenarioFile, alarms: [LogicalAlarm], platform: PlatformFlavor,
                              calendar: WallCalendar, startWallMs: Int64) -> LegacyInstall? {
        let legacyStore = scenario.parameters.last { $0.key == "app.legacy-install" }?.value ?? "off"
        guard legacyStore != "off" else { return nil }
        var rng = RandomStreams(seed: scenario.seed).stream("setup.legacy-install")
        // `swarm`: drawn exactly as the fuzz generator draws it for this seed (the same stream,
        // only some legacy kinds), so an exported fuzz seed keeps its legacy state.
        let swarm = legacyStore == "swarm"
        var generated = LegacyInstall.generate(alarms: alarms, platform: platform, calendar: calendar, nowWallMs: startWallMs,
                                               everyKind: !swarm, rng: &rng)
        if !swarm { generated.credentialProtected = platform == .android && legacyStore == "credential-protected" }
        return generated
    }

    /// The run's plan: the synthesized first launch (unless `sim.first-launch scripted`, or the
    /// run starts after an update), then the file's timed lines; and the last line's instant.
    static func timedPlan(_ scenario: ScenarioFile, alarms: [LogicalAlarm], afterUpdate: Bool, calendar: WallCalendar,
                          startWallMs: Int64, failures: inout [String]) -> ([TimedAction], Int64) {
        var plan: [TimedAction] = []
        let scripted = scenario.parameters.last { $0.key == "sim.first-launch" }?.value == "scripted"
        if !afterUpdate && !scripted {  // after an update the alarms are saved already; the file says when the app first runs
            plan.append(TimedAction(wallMs: startWallMs, action: .userOpenApp))
            for (index, alarm) in alarms.enumerated() {
                plan.append(TimedAction(wallMs: startWallMs + 500 + Int64(index) * 500,
                                        action: .userEditTitle(alarmID: alarm.id, title: alarm.title)))
            }
            plan.append(TimedAction(wallMs: startWallMs + 3_000, action: .userLeaveApp))
        }
        var lastWallMs = startWallMs
        for event in scenario.events {
            let wallMs = instant(of: event.time, start: scenario.start, calendar: calendar)
            lastWallMs = max(lastWallMs, wallMs)
            if (event.actor, event.verb) == ("user", "lock") || (event.actor, event.verb) == ("device", "boot-complete") {
                continue  // accepted, no effect yet: boot broadcasts come from the model; lock state is not modelled
            }
            if let action = action(for: event, calendar: calendar) {
                plan.append(TimedAction(wallMs: wallMs, action: action))
            } else {
                failures.append("\(scenario.path):\(event.line): \(event.actor) \(event.verb) is not modelled yet")
            }
        }
        return (plan, lastWallMs)
    }

    /// Timed expectations after the run's end were never checked: that is expected after the
    /// violation a file asks for (a note), and a failure otherwise (say, a too short sim.duration-ms).
    static func uncheckedExpectations(_ scenario: ScenarioFile, plan: [TimedAction], endWallMs: Int64, result: RunResult,
                                      failures: inout [String]) -> [String] {
        var notes: [String] = []
        for timed in plan where timed.wallMs > endWallMs {
            let line: Int
            switch timed.action {
            case .expectAlerting(_, let expectLine), .expectSilent(_, let expectLine), .expectLockScreenGrant(_, let expectLine): line = expectLine
            default: continue
            }
            let text = "\(scenario.path):\(line): not checked: the run ended before it"
            if let first = result.firstViolation { notes.append(text + " (stopped at the violation \(first.invariant))") }
            else { failures.append(text) }
        }
        return notes
    }

    /// The events a run of a scenario may process unless `param sim.max-events` says otherwise:
    /// about 20 s of work on a slow machine.
    public static let defaultMaxEvents = 500_000
    /// The most events a scenario may ask for with `param sim.max-events` (minutes of work).
    public static let maxEventsCeiling = RunLimits.scenarioEventsCeiling
    /// The virtual days a run of a scenario may cover unless `param sim.max-virtual-days` says
    /// otherwise: a month, like `sim.duration-ms`'s ceiling, plus the liveness phase.
    public static let defaultMaxVirtualDays = 31
    /// The most virtual days a scenario may ask for with `param sim.max-virtual-days` (ten years).
    public static let maxVirtualDaysCeiling = RunLimits.scenarioVirtualDaysCeiling

    /// The run's limits: the file's own span of virtual time (long scenarios, `at +30d …`, get the
    /// time they ask for) up to `param sim.max-virtual-days` (default ``defaultMaxVirtualDays``),
    /// and events up to `param sim.max-events` (default ``defaultMaxEvents``). Both bound the
    /// run's work, so a valid file with `at +1000d` ends in seconds with a `run-limit` failure
    /// that names the limit and the line that raises it, instead of running for minutes or hours
    /// (a run's cost per event grows with its history: issue 20).
    static func runLimits(_ scenario: ScenarioFile, setup: DeviceSetup) -> RunLimits {
        let askedEvents = scenario.parameters.last { $0.key == "sim.max-events" }.flatMap { Int($0.value) }
        let askedDays = scenario.parameters.last { $0.key == "sim.max-virtual-days" }.flatMap { Int64($0.value) }
        let spanEvents = 200_000 + 50 * scenario.events.count + Int(setup.durationMs / 1_000)
        let spanMs = setup.durationMs + 3_600_000 + (setup.liveness.enabled ? setup.liveness.windowMaxMs : 0)
        let dayCapMs = (askedDays ?? Int64(Self.defaultMaxVirtualDays)) * 86_400_000
            + (askedDays == nil && setup.liveness.enabled ? setup.liveness.windowMaxMs + 3_600_000 : 0)
        var limits = RunLimits(maxEvents: askedEvents ?? min(spanEvents, Self.defaultMaxEvents),
                               maxVirtualTimeMs: askedDays == nil ? min(spanMs, dayCapMs) : dayCapMs)
        limits.origin = .scenario
        return limits
    }

    static func judge(_ scenario: ScenarioFile, _ result: RunResult) -> [String] {
        let found = result.violations.map(\.invariant)
        var failures: [String] = []
        var expectsSomething = false
        for expectation in scenario.expectations {
            switch expectation {
            case .violation(let name, let line):
                expectsSomething = true
                if !found.contains(name) {
                    failures.append("\(scenario.path):\(line): expected violation \(name), got \(found.isEmpty ? "none" : found.joined(separator: ", "))")
                }
            case .noViolations(let line):
                expectsSomething = true
                if let first = result.firstViolation {
                    failures.append("\(scenario.path):\(line): expected no violations, got \(first.invariant): \(first.message)")
                }
            }
        }
        if !expectsSomething, let first = result.firstViolation {
            failures.append("\(scenario.path): unexpected violation \(first.invariant): \(first.message)")
        }
        return failures
    }

    static func logicalAlarm(_ alarm: ScenarioAlarm, calendar: WallCalendar, after startWallMs: Int64) -> LogicalAlarm {
        let repeats: AlarmRepeat
        switch alarm.repeats {
        case .once:
            repeats = .once(fireWallMs: calendar.nextFire(hour: alarm.hour, minute: alarm.minute, weekday: nil, after: startWallMs))
        case .weekly(let days):
            repeats = .weekly(days.map(weekday).sorted())
        }
        let policy: InactivityPolicy = alarm.policy == .v3 ? .v3 : (alarm.policy == .v2 ? .v2 : .legacy)
        let challenge: ChallengeKind
        switch alarm.challenge {
        case .none: challenge = .none
        case .voice: challenge = .voice
        case .math: challenge = .math
        case .walk: challenge = .walk
        }
        return LogicalAlarm(id: alarm.name, hour: alarm.hour, minute: alarm.minute, repeats: repeats,
                            title: alarm.title, policy: policy, challenge: challenge, sounds: soundSettings(alarm.sounds),
                            countdown: alarm.countdownMs.map { CountdownDuration(preAlertMs: nil, postAlertMs: $0) },  // ID-4, ID-5
                            skipDates: alarm.skipDates.compactMap { AlarmBridge.LocalDate($0) })  // REC-4
    }

    static func weekday(_ day: ScenarioWeekday) -> Weekday {
        switch day {
        case .sun: return .sunday
        case .mon: return .monday
        case .tue: return .tuesday
        case .wed: return .wednesday
        case .thu: return .thursday
        case .fri: return .friday
        case .sat: return .saturday
        }
    }

    /// The instant of an `at` time (`ScenarioTime.instantMs`): a plain wall time's earlier instant
    /// on a fall-back night, exactly `local − offset` for a time with a UTC offset.
    static func instant(of time: ScenarioTime, start: ScenarioStart, calendar: WallCalendar) -> Int64 {
        guard let instantMs = time.instantMs(start: start, calendar: calendar) else {
            preconditionFailure("\(ScenarioPrinter.format(time)) names no instant in \(calendar.zoneIdentifier); the parser checks offsets")
        }
        return instantMs
    }

    /// The plan action of a timed line, or nil when its arguments do not fit the verb (the parser
    /// checks them against ``ScenarioVocabulary`` first, so nil here is an internal mismatch).
    static func action(for event: ScenarioEvent, calendar: WallCalendar) -> PlanAction? {
        let arguments = EventArguments(values: event.arguments)
        switch event.actor {
        case "user": return userAction(event.verb, arguments) ?? userEditAction(event.verb, arguments)
        case "device": return deviceAction(event.verb, arguments)
        case "fault": return faultAction(event.verb, arguments)
        case "app": return appAction(event.verb, arguments)
        case "expect": return expectation(event.verb, arguments, line: event.line)
        default: return nil
        }
    }

    /// Typed access to a timed line's arguments by position; nil when absent or of another kind.
    struct EventArguments {
        var values: [ScenarioArgument]
        func alarm(_ index: Int) -> String? {
            guard index < values.count, case .alarm(let name) = values[index] else { return nil }
            return name
        }
        func onOff(_ index: Int) -> Bool? {
            guard index < values.count, case .onOff(let on) = values[index] else { return nil }
            return on
        }
        /// A count argument; 1 when absent (`fault schedule-failure` alone fails one call).
        func count(_ index: Int) -> Int {
            guard index < values.count, case .count(let count) = values[index] else { return 1 }
            return count
        }
        func durationMs(_ index: Int) -> Int64? {
            guard index < values.count, case .durationMs(let ms) = values[index] else { return nil }
            return ms
        }
        func text(_ index: Int) -> String? {
            guard index < values.count, case .text(let text) = values[index] else { return nil }
            return text
        }
        func timeOfDay(_ index: Int) -> (hour: Int, minute: Int)? {
            guard index < values.count, case .timeOfDay(let hour, let minute) = values[index] else { return nil }
            return (hour, minute)
        }
    }

    /// `user …` lines other than the alarm editor's.
    static func userAction(_ verb: String, _ arguments: EventArguments) -> PlanAction? {
        switch verb {
        case "stop": return .userStop(alarmID: arguments.alarm(0))
        case "open-app": return .userOpenApp
        case "leave-app": return .userLeaveApp
        case "complete-challenge": return .userCompleteChallenge
        case "unlock": return .userUnlock
        case "snooze": return arguments.durationMs(0).map { .userSnooze(delayMs: $0, doubleTap: false) }
        case "skip-snooze": return .userSkipSnooze
        case "abandon": return .userAbandon(wrongAlarm: false)
        case "force-quit": return .userForceQuit
        case "control-center": return .userControlCenter
        case "reinstall": return .userReinstall
        case "app-update": return .userAppUpdate
        case "start-walk": return .userStartWalk
        case "walk": return .userWalk(steps: arguments.count(0))
        case "app-switcher": return arguments.durationMs(0).map { .userAppSwitcher(backgroundAfterMs: $0) }
        case "health-access": return arguments.onOff(0).map { .userSetHealthAccess($0) }
        case "mute-burst": return .userMuteBurst
        case "volume-key": return .userVolumeKey
        case "lower-alarm-volume": return .userLowerAlarmVolume
        case "start-wake-up-check": return .userStartWakeUpCheck
        default: return nil
        }
    }

    /// `user …` lines that edit an alarm (API-19), by its name in the first argument.
    static func userEditAction(_ verb: String, _ arguments: EventArguments) -> PlanAction? {
        guard let alarm = arguments.alarm(0) else { return nil }
        switch verb {
        case "edit-title": return arguments.text(1).map { .userEditTitle(alarmID: alarm, title: $0) }
        case "edit-time": return arguments.timeOfDay(1).map { .userEditTime(alarmID: alarm, hour: $0.hour, minute: $0.minute) }
        case "delete-alarm": return .userDeleteAlarm(alarmID: alarm)
        case "edit-weekdays":
            guard let text = arguments.text(1) else { return nil }
            let days = text.split(separator: ",").compactMap { name in Weekday.allCases.first { $0.description == name } }
            return days.isEmpty ? nil : .userEditAlarm(alarmID: alarm, edit: .weekdays(days))
        case "edit-alarm-time":
            return arguments.timeOfDay(1).map { .userEditAlarm(alarmID: alarm, edit: .time(hour: $0.hour, minute: $0.minute)) }
        case "edit-sounds", "edit-policy", "edit-challenge", "edit-countdown":
            guard let text = arguments.text(1), let edit = editorEdit(verb, text) else { return nil }
            return .userEditAlarm(alarmID: alarm, edit: edit)
        case "disable-alarm": return .userEditAlarm(alarmID: alarm, edit: .enabled(false))
        case "enable-alarm": return .userEditAlarm(alarmID: alarm, edit: .enabled(true))
        default: return nil
        }
    }

    /// `device …` lines.
    static func deviceAction(_ verb: String, _ arguments: EventArguments) -> PlanAction? {
        switch verb {
        case "doze": return arguments.onOff(0).map { .deviceDoze($0) }
        case "charging": return arguments.onOff(0).map { .deviceCharging($0) }
        case "time-zone":
            guard let first = arguments.values.first, case .zone(let zone) = first else { return nil }
            return .deviceTimeZone(zone)
        case "set-clock":
            guard let first = arguments.values.first, case .signedDurationMs(let delta) = first else { return nil }
            return .deviceSetClock(deltaMs: delta)
        case "silent-mode": return arguments.onOff(0).map { .deviceSilentMode($0) }
        case "reboot": return .deviceReboot
        default: return nil
        }
    }

    /// `fault …` lines.
    static func faultAction(_ verb: String, _ arguments: EventArguments) -> PlanAction? {
        switch verb {
        case "force-stop": return .faultForceStop
        case "audio-focus-loss": return .faultAudioFocus(.loss)
        case "phone-call": return .faultAudioFocus(.callStarted)
        case "audio-focus-regained": return .faultAudioFocus(.gain)
        case "playback-failure": return .faultPlaybackFailure
        case "os-removes-alarm": return .faultOSRemovesAlarm(alarmID: arguments.alarm(0))
        case "late-delivery": return arguments.durationMs(0).map { .faultLateDelivery(ms: $0) }
        case "wrong-instant-alert": return .faultWrongInstantAlert
        case "ghost-alert": return arguments.durationMs(0).map { .faultGhostAlert(ms: $0) }
        case "os-update": return .faultOSUpdate
        case "damaged-store": return arguments.durationMs(0).map { .faultDamagedStore(ms: $0) }
        case "process-death": return .faultProcessDeath
        case "schedule-failure": return .faultScheduleFailure(count: arguments.count(0))
        case "inventory-read-failure": return .faultInventoryReadFailure(count: arguments.count(0))
        case "capacity": return .faultCapacity(arguments.count(0))
        case "revoke-exact-permission": return .faultRevokeExactPermission
        case "grant-exact-permission": return .faultGrantExactPermission
        case "coalesce-updates": return arguments.onOff(0).map { .faultCoalesceUpdates($0) }
        case "workout-lost": return .faultWorkoutLost
        case "kill-switch-ok": return .faultKillSwitch(.ok)
        case "kill-switch-disabled": return .faultKillSwitch(.disabled)
        case "kill-switch-timeout": return .faultKillSwitch(.timeout)
        case "kill-switch-network-failure": return .faultKillSwitch(.networkFailure)
        case "kill-switch-unreadable": return .faultKillSwitch(.unreadable)
        case "app-state-write-failure": return .faultAppStateWriteFailure(count: arguments.count(0))
        default: return nil
        }
    }

    /// `app …` lines: what the app's JS or its own process does.
    static func appAction(_ verb: String, _ arguments: EventArguments) -> PlanAction? {
        switch verb {
        case "sync-enabled-alarms": return .appSyncEnabledAlarms
        case "launch": return .appLaunch
        case "challenge-interaction": return .appChallengeInteraction
        case "start-burst": return .appStartBurst(alarmID: arguments.alarm(0))
        case "record-audible": return .appRecordAudible(alarmID: arguments.alarm(0))
        case "reset-audible-count": return .appResetAudibleCount
        case "get-scheduled-times": return .appGetScheduledAlarmTimes
        case "cancel-system-alarms": return arguments.alarm(0).map { .appCancelSystemAlarms(alarmID: $0) }
        case "reconcile-step-tracking": return .appReconcileStepTracking
        default: return nil
        }
    }

    /// `expect …` lines, checked at their instant (`line` names the file line in a failure).
    static func expectation(_ verb: String, _ arguments: EventArguments, line: Int) -> PlanAction? {
        switch verb {
        case "registered":
            guard let alarm = arguments.alarm(0), let on = arguments.onOff(1) else { return nil }
            return .expectRegistered(alarmID: alarm, registered: on, line: line)
        case "scheduled-times-rejected": return arguments.onOff(0).map { .expectScheduledTimesRejected($0, line: line) }
        case "sound":
            guard let alarm = arguments.alarm(0), let name = arguments.text(1) else { return nil }
            return .expectSound(alarmID: alarm, sound: name, line: line)
        case "dropped-count": return .expectDroppedCount(arguments.count(0), line: line)
        case "audible-count": return .expectAudibleCount(arguments.count(0), line: line)
        case "burst": return arguments.onOff(0).map { .expectBurst(playing: $0, line: line) }
        case "alerting": return arguments.alarm(0).map { .expectAlerting(alarmID: $0, line: line) }
        case "silent": return arguments.alarm(0).map { .expectSilent(alarmID: $0, line: line) }
        case "save":
            guard let alarm = arguments.alarm(0), let outcome = arguments.text(1) else { return nil }
            return .expectSaveOutcome(alarmID: alarm, outcome: outcome, line: line)
        case "lock-screen-grant": return arguments.onOff(0).map { .expectLockScreenGrant($0, line: line) }
        default: return nil
        }
    }

    /// The editor edit of `user edit-sounds|edit-policy|edit-challenge|edit-countdown ALARM "TEXT"`
    /// (API-19), or nil when TEXT is not one of the verb's values.
    static func editorEdit(_ verb: String, _ text: String) -> AlarmEdit? {
        switch verb {
        case "edit-sounds":
            if text == "none" { return .sounds(nil) }
            return ScenarioSounds(spec: text).map { .sounds(soundSettings($0)) }
        case "edit-policy":
            return ScenarioPolicy(rawValue: text).map { .policy($0 == .v3 ? .v3 : ($0 == .v2 ? .v2 : .legacy)) }
        case "edit-challenge":
            switch ScenarioChallenge(rawValue: text) {
            case .none?: return .challenge(ChallengeKind.none)
            case .voice?: return .challenge(.voice)
            case .math?: return .challenge(.math)
            case .walk?: return .challenge(.walk)
            case nil: return nil
            }
        case "edit-countdown":
            if text == "off" { return .countdown(nil) }
            guard let ms = ScenarioClock.durationMs(text), ms > 0 else { return nil }
            return .countdown(CountdownDuration(preAlertMs: nil, postAlertMs: ms))
        default:
            return nil
        }
    }

    static func applyParameters(_ scenario: ScenarioFile, to setup: inout DeviceSetup, failures: inout [String]) {
        for parameter in scenario.parameters {
            if let problem = apply(parameter, to: &setup) {
                failures.append("\(scenario.path):\(parameter.line):\(parameter.column): \(problem)")
            }
        }
    }

    /// The two-valued `param` keys: key, the word that sets true, the word that sets false, and
    /// the setup field. One table, so every switch parses and reports the same way.
    static var switches: [(key: String, yes: String, no: String, field: WritableKeyPath<DeviceSetup, Bool>)] {
        [
            ("ios.coalesce-updates", "on", "off", \.ios.coalesceUpdates),
            ("ios.authorization-answer", "grant", "deny", \.ios.promptGrants),
            ("ios.usage-description", "present", "missing", \.ios.usageDescriptionPresent),
            ("ios.stale-not-determined", "on", "off", \.ios.staleNotDetermined),
            ("ios.intents-after-force-quit", "on", "off", \.intentsAfterForceQuit),
            ("ios.hold-updates-while-locked", "on", "off", \.ios.holdUpdatesWhileLocked),
            ("ios.custom-sound-fails", "on", "off", \.ios.customSoundFails),
            ("ios.silent-mode-silences", "on", "off", \.ios.silentModeSilencesAlerts),
            ("ios.jumped-over-relative", "fires", "waits", \.ios.jumpedOverRelativeFires),
            ("ios.schedule-always-fails", "on", "off", \.ios.scheduleAlwaysFails),
            ("ios.alarmkit", "available", "unavailable", \.ios.alarmKitAvailable),
            ("ios.background-task-identifier", "declared", "missing", \.ios.workoutTaskIdentifierDeclared),
            ("ios.workout-recovery", "on", "off", \.walk.workout.recoverySupported),
            ("ios.motion-authorized", "on", "off", \.walk.workout.motionAuthorized),
            ("ios.health-access", "granted", "denied", \.walk.healthAccessGranted),
            ("ios.walk-collection-never-confirms", "on", "off", \.walk.collectionNeverConfirms),
            ("android.swipe-force-stops", "on", "off", \.android.swipeFromRecentsForceStops),
            ("android.update-clears-alarms", "on", "off", \.android.updateClearsAlarms),
            ("android.focus-loss-silences", "on", "off", \.android.focusLossSilencesAlarm),
            ("android.seeded-tie-order", "on", "off", \.android.seededEqualTimeOrder),
            ("android.full-screen-intent", "granted", "denied", \.androidFullScreenIntent),
            ("app.js-cache-stale", "on", "off", \.jsCacheStale),
            ("android.fresh-install", "on", "off", \.android.freshInstall),
            ("android.battery-saver", "on", "off", \.android.batterySaver),
            ("sim.reactive-user", "on", "off", \.reactiveUser),
            // Issue 7: the liveness phase after the file's span (heal, then convergence).
            ("sim.liveness", "on", "off", \.liveness.enabled),
        ]
    }

    /// A `never` or `N/D` probability value (0 ≤ N ≤ D, D ≥ 1); `never` is nil (the switch is off).
    /// - Returns: `.some(nil)` for never, `.some(ratio)` for a ratio, nil when malformed.
    static func ratio(_ text: String) -> Ratio?? {
        if text == "never" { return .some(nil) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { UInt64($0) }
        guard parts.count == 2, let numerator = parts[0], let denominator = parts[1], denominator >= 1,
              numerator <= denominator, denominator <= 1_000_000 else { return nil }
        return .some(Ratio(numerator, denominator))
    }

    /// A `param` that sets one whole-number field of the setup: its key, its accepted range
    /// (virtual ms for keys ending `-ms`) and, when the range alone does not explain the value,
    /// a note for the error.
    struct NumberParameter {
        var key: String
        var range: ClosedRange<Int64>
        var field: WritableKeyPath<DeviceSetup, Int64>
    }

    /// The whole-number `param` keys whose value lands in an `Int64` field unchanged.
    static var numberParameters: [NumberParameter] {
        [
            .init(key: "ios.dense-late-delay-max-ms", range: 0...600_000, field: \.ios.denseLateDelayMaxMs),
            .init(key: "ios.schedule-latency-max-ms", range: 20...600_000, field: \.ios.scheduleLatencyMaxMs),
            .init(key: "ios.workout-session-latency-ms", range: 0...600_000, field: \.walk.workout.sessionStartLatencyMs),
            .init(key: "ios.workout-collection-latency-ms", range: 0...600_000, field: \.walk.workout.collectionStartLatencyMs),
            .init(key: "ios.pedometer-history-lag-ms", range: 0...600_000, field: \.walk.workout.historyLagMs),
            .init(key: "android.doze-maintenance-ms", range: 1_000...3_600_000, field: \.android.dozeMaintenanceWindowMs),
            .init(key: "android.step-report-latency-ms", range: 0...60_000, field: \.stepReportLatencyMs),
            .init(key: "android.locked-boot-broadcast-delay-ms", range: 0...600_000, field: \.android.lockedBootBroadcastDelayMs),
            .init(key: "android.oem-delivery-delay-max-ms", range: 0...3_600_000, field: \.android.oemDeliveryDelayMaxMs),
            .init(key: "android.fgs-window-ms", range: 1...600_000, field: \.android.exactAlarmForegroundServiceWindowMs),
            .init(key: "bridge.min-snooze-lead-ms", range: 0...600_000, field: \.minSnoozeLeadMs),
            .init(key: "bridge.clock-threshold-ms", range: 1...3_600_000, field: \.clockChangeThresholdMs),
            .init(key: "bridge.imminent-ms", range: 0...3_600_000, field: \.imminentHorizonMs),
            .init(key: "bridge.h-ctx-ms", range: 1...3_600_000, field: \.contextHeartbeatLifetimeMs),
            .init(key: "bridge.d-session-ms", range: 1...86_400_000, field: \.wakeSessionDeadlineMs),
            .init(key: "bridge.w-step-ms", range: 1_000...3_600_000, field: \.recentStepWindowMs),
            .init(key: "bridge.g-pub-ms", range: 0...3_600_000, field: \.publicationGraceMs),
            .init(key: "bridge.h-skip-ms", range: 60_000...(60 * 86_400_000), field: \.skipHorizonMs),
            .init(key: "js.heartbeat-ms", range: 100...3_600_000, field: \.contextHeartbeatIntervalMs),
            .init(key: "net.kill-switch-timeout-ms", range: 1...600_000, field: \.killSwitchTimeoutMs),
            .init(key: "sim.t-op-ms", range: 1...3_600_000, field: \.transitionBoundMs),
            // Issue 7: the liveness phase's bounds (B_REG, B_AUD) and the healed user's timing.
            .init(key: "liveness.registration-bound-ms", range: 1...86_400_000, field: \.liveness.registrationBoundMs),
            .init(key: "liveness.audible-bound-ms", range: 1...86_400_000, field: \.liveness.audibleBoundMs),
            .init(key: "liveness.user-return-ms", range: 1...86_400_000, field: \.liveness.userReturnDelayMs),
            .init(key: "liveness.user-stay-ms", range: 1...86_400_000, field: \.liveness.userStayMs),
            .init(key: "liveness.first-unlock-ms", range: 1...86_400_000, field: \.liveness.firstUnlockDelayMs),
        ]
    }

    /// The whole-number `param` keys whose value is a count (`Int` field), with a note for the error.
    static var countParameters: [(key: String, range: ClosedRange<Int64>, note: String, field: WritableKeyPath<DeviceSetup, Int>)] {
        [
            ("ios.capacity", 0...10_000, "", \.ios.capacity),
            ("android.api-level", 26...40, "", \.android.apiLevel),
            ("bridge.n-skip", 0...1_000, "", \.skipOccurrenceMax),
            ("js.stall-one-in", 0...1_000, ", 0: never", \.jsStallOneIn),
            ("sim.foreground-repair-failures", 0...10, "", \.foregroundRepairFailures),
        ]
    }

    /// The in-run fault rates of a fuzz run (fault catalog kinds), each a chance per event.
    static var rateParameters: [(key: String, field: WritableKeyPath<DeviceSetup, Ratio?>)] {
        [
            ("sim.request-failure-rate", \.requestFailureRate), ("sim.interleaving-death-rate", \.interleavingDeathRate),
            ("sim.workout-loss-rate", \.workoutLossRate), ("sim.walk-force-quit-rate", \.walkForceQuitRate),
            ("sim.snooze-clock-change-rate", \.snoozeClockChangeRate),
            ("sim.trigger-clock-set-back-rate", \.triggerClockSetBackRate),
            ("sim.death-mid-close-rate", \.deathMidCloseRate),
            ("sim.accepted-request-drop-rate", \.acceptedRequestDropRate),
        ]
    }

    /// Applies one `param` line; returns what is wrong with it, if anything.
    static func apply(_ parameter: ScenarioParameter, to setup: inout DeviceSetup) -> String? {
        guard parameterKeys.contains(parameter.key) else {
            return "unknown parameter '\(parameter.key)'\(Suggestion.hint(for: parameter.key, among: parameterKeys)) (known: \(parameterKeys.joined(separator: ", ")))"
        }
        let platformOf = parameter.key.hasPrefix("ios.") ? PlatformFlavor.ios : (parameter.key.hasPrefix("android.") ? .android : nil)
        if let platformOf, platformOf != setup.platform {
            return "parameter \(parameter.key) does not exist on \(setup.platform.rawValue)"
        }
        // Plain decimal digits only: no sign, no leading zero.
        let digits = parameter.value.allSatisfy(\.isASCII) && parameter.value.allSatisfy(\.isNumber)
            && !(parameter.value.count > 1 && parameter.value.hasPrefix("0"))
        let number = digits ? Int64(parameter.value) : nil
        let bad = "bad value '\(parameter.value)' for \(parameter.key)"
        if let entry = switches.first(where: { $0.key == parameter.key }) {
            guard parameter.value == entry.yes || parameter.value == entry.no else { return bad + " (\(entry.yes) or \(entry.no))" }
            setup[keyPath: entry.field] = parameter.value == entry.yes
            return nil
        }
        if let entry = numberParameters.first(where: { $0.key == parameter.key }) {
            guard let number, entry.range.contains(number) else { return bad + " (\(entry.range.lowerBound)...\(entry.range.upperBound))" }
            setup[keyPath: entry.field] = number
            return nil
        }
        if let entry = countParameters.first(where: { $0.key == parameter.key }) {
            guard let number, entry.range.contains(number) else {
                return bad + " (\(entry.range.lowerBound)...\(entry.range.upperBound)\(entry.note))"
            }
            setup[keyPath: entry.field] = Int(number)
            return nil
        }
        if let entry = rateParameters.first(where: { $0.key == parameter.key }) {
            guard let rate = ratio(parameter.value) else { return bad + " (never or N/D, e.g. 1/25)" }
            setup[keyPath: entry.field] = rate
            return nil
        }
        if parameter.key.hasPrefix("ios.") { return applyIOS(parameter, number: number, bad: bad, to: &setup) }
        if parameter.key.hasPrefix("android.") { return applyAndroid(parameter, number: number, bad: bad, to: &setup) }
        return applyRun(parameter, number: number, bad: bad, to: &setup)
    }

    /// The `ios.*` parameters no table covers.
    static func applyIOS(_ parameter: ScenarioParameter, number: Int64?, bad: String, to setup: inout DeviceSetup) -> String? {
        switch parameter.key {
        case "ios.authorization":
            guard let value = AlarmKitAuthorization(rawValue: parameter.value) else { return bad + " (authorized, not-determined or denied)" }
            setup.ios.authorization = value
        case "ios.background-execution-ms":
            if parameter.value == "unlimited" { setup.backgroundExecutionMs = nil; break }
            guard let number, (1...3_600_000).contains(number) else { return bad + " (1...3600000 or unlimited)" }
            setup.backgroundExecutionMs = number
        case "ios.read-lag-max-ms":
            guard let number, number <= 190 else { return bad + " (0...190: the third SCH-9 read, 200 ms after the first, must see the alarm)" }
            setup.ios.readLagMaxMs = number
        case "ios.dst-gap":
            guard let value = WallCalendar.DSTPolicy.Gap(rawValue: parameter.value) else { return bad + " (next-hour, preserve-minute or skip)" }
            setup.ios.dstPolicy.gap = value
        default:  // ios.dst-overlap
            guard let value = WallCalendar.DSTPolicy.Overlap(rawValue: parameter.value) else { return bad + " (both, first or last)" }
            setup.ios.dstPolicy.overlap = value
        }
        return nil
    }

    /// The `android.*` parameters no table covers.
    static func applyAndroid(_ parameter: ScenarioParameter, number: Int64?, bad: String, to setup: inout DeviceSetup) -> String? {
        switch parameter.key {
        case "android.oem-kills-ringing-ms":
            if parameter.value == "off" { setup.android.oemKillsRingingAfterMs = nil; break }
            guard let number, (1_000...3_600_000).contains(number) else { return bad + " (1000...3600000 or off)" }
            setup.android.oemKillsRingingAfterMs = number
        case "android.standby-bucket":
            guard let bucket = StandbyBucket(rawValue: parameter.value) else {
                return bad + " (" + StandbyBucket.allCases.map(\.rawValue).joined(separator: ", ") + ")"
            }
            setup.androidStandbyBucket = bucket
        case "android.battery-usage":
            guard let usage = AppBatteryUsage(rawValue: parameter.value) else {
                return bad + " (" + AppBatteryUsage.allCases.map(\.rawValue).joined(separator: ", ") + ")"
            }
            setup.android.batteryUsage = usage
        case "android.manifest":
            return applyManifest(parameter.value, bad: bad, to: &setup)
        case "android.credential-stored-sounds":
            // Issue 18: sounds kept in credential-encrypted storage; `none`: every sound readable.
            if parameter.value == "none" { setup.android.credentialStoredSounds = []; break }
            let names = parameter.value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard names.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else { return bad + " (none or comma-separated sound names)" }
            setup.android.credentialStoredSounds = names
        case "android.target-sdk":
            // Issue 18: the app's targetSdkVersion; `device`: the device's API level.
            if parameter.value == "device" { setup.android.targetSdk = nil; break }
            guard let number, (26...40).contains(number) else { return bad + " (26...40 or device)" }
            setup.android.targetSdk = Int(number)
        case "android.doze-idle-periods-ms":
            let periods = parameter.value.split(separator: ",", omittingEmptySubsequences: false).map { Int64($0) }
            guard !periods.isEmpty, periods.allSatisfy({ $0 != nil && (60_000...86_400_000).contains($0!) }) else {
                return bad + " (comma-separated idle periods, each 60000...86400000)"
            }
            setup.android.dozeIdlePeriodsMs = periods.map { $0! }
        default:  // android.alarm-volume
            let parts = parameter.value.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let index = parts[0], let maximum = parts[1], (1...100).contains(maximum),
                  (setup.android.alarmVolumeMinIndex...maximum).contains(index) else {
                return bad + " (INDEX/MAX, e.g. 5/7: MIN...MAX, MAX 1...100)"
            }
            setup.android.alarmVolumeIndex = index
            setup.android.alarmVolumeMaxIndex = maximum
        }
        return nil
    }

    /// `android.manifest` (AND-1): the bridge's required manifest, or it with one entry missing.
    static func applyManifest(_ value: String, bad: String, to setup: inout DeviceSetup) -> String? {
        var declared = BridgeCore.requiredAndroidManifest
        func dropReceiver(_ actions: String...) { declared.receivers.removeAll { actions.contains($0.action) } }
        switch value {
        case "usual": break
        case "schedule-exact-only":
            setup.android.manifest = .scheduleExactOnly
            return nil
        case "no-exact-permission":
            declared.permissions.removeAll { [AndroidAppManifest.scheduleExactAlarm, AndroidAppManifest.useExactAlarm].contains($0.name) }
        case "no-boot-receiver": dropReceiver(AndroidAppManifest.bootCompleted, AndroidAppManifest.lockedBootCompleted)
        case "not-direct-boot-aware":
            declared.receivers = declared.receivers.map { AndroidAppManifest.Receiver($0.action, directBootAware: false) }
        case "no-package-replaced-receiver": dropReceiver(AndroidAppManifest.myPackageReplaced)
        case "no-time-receivers": dropReceiver(AndroidAppManifest.timeSet, AndroidAppManifest.timezoneChanged)
        case "no-exact-permission-receiver": dropReceiver(AndroidAppManifest.exactAlarmPermissionChanged)
        case "low-importance-channel": declared.alarmChannelImportance = .default
        case "allow-backup": declared.allowBackup = true
        default:
            return bad + " (usual, schedule-exact-only, no-exact-permission, no-boot-receiver, not-direct-boot-aware, no-package-replaced-receiver, no-time-receivers, no-exact-permission-receiver, low-importance-channel or allow-backup)"
        }
        setup.android.manifest = AndroidManifestDeclarations(declared: declared)
        return nil
    }

    /// The `app.*`, `net.*` and `sim.*` parameters no table covers; some are only checked here
    /// and read by `run` itself (``runLimits(_:setup:)``, the first-launch prefix, the start).
    static func applyRun(_ parameter: ScenarioParameter, number: Int64?, bad: String, to setup: inout DeviceSetup) -> String? {
        switch parameter.key {
        case "app.legacy-install":
            guard ["off", "on", "credential-protected", "swarm"].contains(parameter.value) else { return bad + " (off, on, credential-protected or swarm)" }
            if parameter.value == "credential-protected" && setup.platform != .android {
                return "parameter app.legacy-install credential-protected exists on android only"
            }
        case "net.kill-switch-failure-rate":
            guard let rate = ratio(parameter.value) else { return bad + " (never or N/D, e.g. 1/4)" }
            setup.killSwitchFailureRate = rate
        case "sim.max-events":
            guard let number, (1...Int64(Self.maxEventsCeiling)).contains(number) else { return bad + " (1...\(Self.maxEventsCeiling))" }
        case "sim.max-virtual-days":
            guard let number, (1...Int64(Self.maxVirtualDaysCeiling)).contains(number) else { return bad + " (1...\(Self.maxVirtualDaysCeiling))" }
        case "sim.first-launch":
            guard ["synthesized", "scripted"].contains(parameter.value) else { return bad + " (synthesized or scripted)" }
        case "sim.start-ms":
            guard let number, number <= 999 else { return bad + " (0...999)" }
        default:  // sim.duration-ms
            guard let number, (1...30 * 86_400_000).contains(number) else { return bad + " (1...2592000000, 30 days)" }
            setup.durationMs = number
        }
        return nil
    }
}

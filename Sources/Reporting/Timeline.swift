import SimKernel

/// The lanes of a run's timeline, derived from its trace events alone (``FailureRun/events``):
/// one lane per alarm root, one for the app lifecycle, one for injected faults, and the
/// violation. ``TimelinePage`` draws it as SVG.
///
/// All instants are **true** virtual time (ms since the Unix epoch), which never jumps; hover
/// text shows the device's wall clock (which a clock fault may move) in the zone then in force.
///
/// How states are read from the trace (names as `component event`):
/// - a ring belongs to the root and has the kind of its `bridge schedule` (`id`, `kind`, `root`);
///   a ring seen first on the platform (a legacy install's) goes to the lane `other rings`;
/// - **scheduled** (or **successor** for kind `successor`, **snoozed** for `one-time-snooze`,
///   **walk fuse** for `walk-fuse`):
///   from `bridge schedule` until the platform fires it (`ios alerting`, `android ringing` /
///   `delivered`), cancels it (`ios|android cancelled`, `ios system-removed`), refuses it
///   (`schedule-failed`, `security-exception`, `illegal-state-exception`) or, on Android, the
///   device shuts down (AlarmManager forgets every alarm);
/// - **alerting**: from `ios alerting` / `android ringing` until `ios alert-ended`, `ios
///   cancelled`, `ios system-removed`, `android ringing-stopped`, `ringing-service-torn-down`,
///   a shutdown or (Android: the ringing service dies with it) the app's process death;
/// - **burst** (an in-app wake-check sound): `platform burst-start` until `burst-stopped`,
///   `burst-replaced` or the process death;
/// - **fired** marks where a ring began alerting (and, on Android, where AlarmManager delivered it);
/// - **silenced** (`bridge stop`), **dismissed** (`user stop`, `user volume-key`) and
///   **cancelled** (`bridge cancel`) are instants on the root's lane;
/// - the lifecycle lane: process running (`app launch` → `app process-death`), foreground
///   (`didBecomeActive` → `willResignActive`), suspended, device off (`device shutdown` →
///   `device boot`) and locked after boot (→ `device first-unlock`);
/// - the fault lane: every fault plan action (``faultActionNames``), `fault *` events and the
///   platform's refusals and removals (``platformFaultEvents``);
/// - the actions lane (``actionMark(_:title:)``): what the user did (upper row: every `plan
///   action` named `user…` that is not a fault — stop, snooze, open-app, leave-app, edit-title,
///   edit-time…) and what the app's JS asked the bridge (lower row: the `bridge input` of an API
///   call that changes something — save, sync, complete, snooze…, ``appCallLabels``); routine
///   polls and heartbeats (``TraceExplainer/isNoise(_:)``) are left out.
public struct Timeline: Sendable {
    /// What a bar shows; `rawValue` is its CSS class and legend name.
    public enum BarKind: String, Sendable, CaseIterable {
        case scheduled, successor, snoozed, walkFuse = "walk-fuse", alerting, burst
        case running, foreground, suspended, deviceOff = "device-off", locked
    }

    /// What an instant marks; `rawValue` is its CSS class.
    public enum MarkKind: String, Sendable, CaseIterable {
        case silenced, dismissed, cancelled, refused, fired
        case launch, death, boot, shutdown, unlock
        case fault
        /// A user's action (actions lane, upper row).
        case userAction = "user-action"
        /// A JS call into the bridge (actions lane, lower row).
        case appCall = "app-call"
    }

    public struct Bar: Sendable {
        public var kind: BarKind
        public var startMs: Int64
        /// Exclusive end; the timeline's end when the state lasted past the run.
        public var endMs: Int64
        /// Hover text: what, when, why it ended.
        public var title: String
        /// Sub-row of the lane (0: rings, 1: alerting; the lifecycle lane uses 0 and 1 too).
        public var row: Int
    }

    public struct Mark: Sendable {
        public var kind: MarkKind
        public var atMs: Int64
        public var title: String
        /// The trace event's index.
        public var eventIndex: Int
        public var row: Int
        /// A short name drawn next to the mark where there is room (`edit-title`, `save`); nil: none.
        public var label: String? = nil
    }

    public enum LaneCategory: String, Sendable {
        case root, otherRings = "other-rings", actions, lifecycle, faults
    }

    public struct Lane: Sendable {
        public var category: LaneCategory
        /// A root ID (`a1.mon`), or the lane's name.
        public var label: String
        public var bars: [Bar] = []
        public var marks: [Mark] = []
    }

    /// The first true instant (the `sim start` event's, or the first event's).
    public var startMs: Int64
    /// The last true instant (the `sim end` event's, or the last event's), at least `startMs + 1`.
    public var endMs: Int64
    /// Root lanes sorted by root ID, then `other rings` (when any), actions, lifecycle and faults.
    public var lanes: [Lane]
    /// The roots the first violation's message names (by root ID, or by the ID of one of its
    /// rings), sorted; empty when it names none (or there is no violation).
    public var violationRoots: [String] = []
    /// The first violation's instant, label and hover text.
    public var violation: (atMs: Int64, label: String, title: String, eventIndex: Int)?

    /// Plan actions that inject a fault (``Simulation/PlanAction/isFault``), by the case name the
    /// trace prints in `plan action action=NAME(…)`.
    public static let faultActionNames: Set<String> = [
        "deviceReboot", "faultProcessDeath", "faultScheduleFailure", "faultInventoryReadFailure", "faultDamagedStore", "faultCapacity",
        "faultRevokeExactPermission", "faultGrantExactPermission", "faultCoalesceUpdates", "deviceTimeZone",
        "deviceSetClock", "deviceSilentMode", "userForceQuit", "userReinstall", "faultOSRemovesAlarm",
        "faultLateDelivery", "deviceDoze", "userAppUpdate", "faultForceStop", "faultAudioFocus",
        "faultPlaybackFailure", "faultKillSwitch", "faultAppStateWriteFailure", "faultWorkoutLost",
        "userSetHealthAccess", "faultWrongInstantAlert", "faultGhostAlert", "faultOSUpdate",
    ]

    /// Platform events that are a refusal, a loss or an injected condition (`component event`).
    public static let platformFaultEvents: Set<String> = [
        "ios schedule-failed", "ios system-removed", "ios late-delivery", "android schedule-failed",
        "android security-exception", "android illegal-state-exception", "android force-stopped",
        "android exact-permission-revoked", "android oem-killed-ringing", "android playback-failed",
        "android ringing-service-torn-down", "android broadcast-no-receiver", "android broadcast-blocked-stopped",
        "android locked-boot-not-delivered", "android audio-focus", "store persist-failed", "app dropped",
        "ios background-task-refused",
    ]

    /// The case name of a printed plan action: `faultCapacity(3)` → `faultCapacity`.
    public static func actionName(_ action: String) -> String {
        String(action.prefix { $0 != "(" })
    }

    /// Derives the timeline of `run` (see the type's documentation for the rules).
    public init(_ run: FailureRun) {
        let events = run.events
        let time = LocalTimeFormat(zoneIdentifier: run.startZone)
        startMs = events.first(where: { $0.component == "sim" && $0.name == "start" })?.trueMs ?? events.first?.trueMs ?? 0
        endMs = max(events.last(where: { $0.component == "sim" && $0.name == "end" })?.trueMs ?? events.last?.trueMs ?? startMs,
                    startMs + 1)
        var builder = TimelineBuilder(time: time, isAndroid: run.header.platform == "android")
        for event in events { builder.consume(event) }
        builder.finish(at: endMs)
        lanes = builder.lanes()
        if let violation = run.violation {
            let rules = violation.rules.isEmpty ? "" : " (\(violation.rules.joined(separator: ", ")))"
            self.violation = (violation.trueMs, violation.invariant,
                              "violation: \(violation.invariant)\(rules)\n\(time.dateTime(violation.wallMs)) — trace event \(violation.eventIndex)\n\(violation.message)",
                              violation.eventIndex)
            violationRoots = Self.roots(namedIn: violation.message, roots: builder.rootLanes.keys.sorted(), ringRoot: builder.ringRoot)
        }
    }
}

/// The state machine behind ``Timeline/init(_:)``: the open states of the run so far, fed one
/// trace event at a time in trace order. Open states are arrays, in the order they opened,
/// because their order reaches the output; the dictionaries are lookups only.
private struct TimelineBuilder {
    typealias Bar = Timeline.Bar
    typealias Mark = Timeline.Mark
    typealias Lane = Timeline.Lane
    typealias BarKind = Timeline.BarKind

    let time: LocalTimeFormat
    let isAndroid: Bool
    var rootLanes: [String: Lane] = [:]  // lookup only; emitted sorted by root ID
    var other = Lane(category: .otherRings, label: "other rings")
    var lifecycle = Lane(category: .lifecycle, label: "app lifecycle")
    var faults = Lane(category: .faults, label: "faults")
    var actions = Lane(category: .actions, label: "user & app actions")
    var ringRoot: [String: String] = [:]  // lookup only
    var ringKind: [String: String] = [:]  // lookup only
    var pending: [(id: String, kind: BarKind, sinceMs: Int64, fire: String, index: Int)] = []
    var alerting: [(id: String, sinceMs: Int64, index: Int)] = []
    var bursts: [(id: String, root: String, sinceMs: Int64)] = []
    var running: (sinceMs: Int64, title: String)?
    var foreground: Int64?
    var suspended: Int64?
    var deviceOff: Int64?
    var locked: Int64?
    /// The device's clock offset and zone over true time, so hover text shows the wall time the
    /// device showed (a clock correction or a time-zone change moves it).
    var clockHistory: [(sinceMs: Int64, offsetMs: Int64)] = [(Int64.min, 0)]
    var zoneHistory: [(sinceMs: Int64, format: LocalTimeFormat)]

    init(time: LocalTimeFormat, isAndroid: Bool) {
        self.time = time
        self.isAndroid = isAndroid
        zoneHistory = [(Int64.min, time)]
    }

    /// Root lanes sorted by root ID, then `other rings` (when any), actions, lifecycle, faults.
    func lanes() -> [Lane] {
        var lanes = rootLanes.keys.sorted().map { rootLanes[$0]! }
        if !other.bars.isEmpty || !other.marks.isEmpty { lanes.append(other) }
        return lanes + [actions, lifecycle, faults]
    }

    /// The device's wall time at true instant `ms`, in the zone then in force.
    func stamp(_ ms: Int64) -> String {
        let offset = clockHistory.last { $0.sinceMs <= ms }?.offsetMs ?? 0
        let format = zoneHistory.last { $0.sinceMs <= ms }?.format ?? time
        return format.dateTime(ms + offset)
    }

    func hover(_ event: TraceEvent) -> String {
        var text = "#\(event.index) \(event.component) \(event.name) — \(stamp(event.trueMs))"
        if event.wallMs != event.trueMs { text += " (device clock, \(event.wallMs - event.trueMs) ms off true time)" }
        for field in event.fields { text += "\n\(field.key): \(field.value)" }
        return text
    }

    func ringName(_ id: String) -> String {
        let kind = ringKind[id].map { "\($0) " } ?? ""
        return "\(kind)ring \(id)"
    }

    mutating func addBar(root: String?, _ bar: Bar) {
        guard let root else { other.bars.append(bar); return }
        rootLanes[root, default: Lane(category: .root, label: root)].bars.append(bar)
    }

    mutating func addMark(root: String?, _ mark: Mark) {
        guard let root else { other.marks.append(mark); return }
        rootLanes[root, default: Lane(category: .root, label: root)].marks.append(mark)
    }

    /// A mark of `kind` for `event` on the lane of ring `id`'s root.
    mutating func markRing(_ id: String?, _ kind: Timeline.MarkKind, _ event: TraceEvent, row: Int) {
        addMark(root: id.flatMap { ringRoot[$0] }, Mark(kind: kind, atMs: event.trueMs, title: hover(event), eventIndex: event.index, row: row))
    }

    mutating func closePending(_ id: String, at ms: Int64, why: String) {
        guard let position = pending.firstIndex(where: { $0.id == id }) else { return }
        let open = pending.remove(at: position)
        let label = switch open.kind {
        case .snoozed: "snooze ring pending"
        case .walkFuse: "walk fuse pending"
        case .successor: "successor (retry) pending"
        default: "scheduled"
        }
        addBar(root: ringRoot[id], Bar(kind: open.kind, startMs: open.sinceMs, endMs: max(ms, open.sinceMs),
                                       title: "\(label): \(ringName(id))\(open.fire)\nfrom \(stamp(open.sinceMs)) (trace event \(open.index))\nuntil \(stamp(ms)): \(why)",
                                       row: 0))
    }

    mutating func closeAlerting(_ id: String, at ms: Int64, why: String) {
        guard let position = alerting.firstIndex(where: { $0.id == id }) else { return }
        let open = alerting.remove(at: position)
        addBar(root: ringRoot[id], Bar(kind: .alerting, startMs: open.sinceMs, endMs: max(ms, open.sinceMs),
                                       title: "alerting: \(ringName(id))\nfrom \(stamp(open.sinceMs)) (trace event \(open.index))\nuntil \(stamp(ms)): \(why)",
                                       row: 1))
    }

    mutating func closeBurst(_ id: String?, at ms: Int64, why: String) {
        for burst in bursts where id == nil || burst.id == id {
            addBar(root: burst.root, Bar(kind: .burst, startMs: burst.sinceMs, endMs: max(ms, burst.sinceMs),
                                         title: "in-app burst \(burst.id)\nfrom \(stamp(burst.sinceMs))\nuntil \(stamp(ms)): \(why)", row: 1))
        }
        bursts.removeAll { id == nil || $0.id == id }
    }

    /// Ends the lifecycle state held at `state` (nil: not open) with a bar.
    mutating func closeLifecycle(_ kind: BarKind, _ state: WritableKeyPath<TimelineBuilder, Int64?>, at ms: Int64, what: String, row: Int) {
        guard let start = self[keyPath: state] else { return }
        lifecycle.bars.append(Bar(kind: kind, startMs: start, endMs: max(ms, start),
                                  title: "\(what)\nfrom \(stamp(start))\nuntil \(stamp(ms))", row: row))
        self[keyPath: state] = nil
    }

    mutating func processEnds(at ms: Int64, why: String) {
        if let open = running {
            lifecycle.bars.append(Bar(kind: .running, startMs: open.sinceMs, endMs: max(ms, open.sinceMs),
                                      title: "\(open.title)\nfrom \(stamp(open.sinceMs))\nuntil \(stamp(ms)): \(why)", row: 0))
            running = nil
        }
        closeLifecycle(.foreground, \.foreground, at: ms, what: "app in the foreground (active)", row: 1)
        closeLifecycle(.suspended, \.suspended, at: ms, what: "process suspended", row: 1)
        closeBurst(nil, at: ms, why: why)
        if isAndroid {
            for open in alerting { closeAlerting(open.id, at: ms, why: "the ringing service died with the process (\(why))") }
        }
    }

    /// One trace event: the clock and zone history, then the ring, lifecycle and device states,
    /// then the fault and action lanes.
    mutating func consume(_ event: TraceEvent) {
        let ms = event.trueMs
        if event.wallMs - ms != clockHistory[clockHistory.count - 1].offsetMs {
            clockHistory.append((ms, event.wallMs - ms))
        }
        if event.component == "device", event.name == "time-zone", let zone = event.field("to") {
            zoneHistory.append((ms, LocalTimeFormat(zoneIdentifier: zone)))
        }
        if !consumeRingEvent(event) && !consumeLifecycleEvent(event) { consumeDeviceEvent(event) }
        let key = "\(event.component) \(event.name)"
        let isFaultAction = key == "plan action" && Timeline.faultActionNames.contains(Timeline.actionName(event.field("action") ?? ""))
        if isFaultAction || event.component == "fault" || Timeline.platformFaultEvents.contains(key)
            || (key == "bridge input" && (event.field("input") ?? "").contains("readFailed")) {
            faults.marks.append(Mark(kind: .fault, atMs: ms, title: hover(event), eventIndex: event.index, row: 0))
        }
        if let mark = Timeline.actionMark(event, title: hover(event)) { actions.marks.append(mark) }
    }

    /// A bridge schedule opens a pending bar of the ring's kind (closing an earlier one).
    mutating func ringScheduled(_ id: String, _ event: TraceEvent) {
        if let root = event.field("root") { ringRoot[id] = root }
        let kindText = event.field("kind") ?? "primary"
        ringKind[id] = kindText
        let kind: BarKind = switch kindText {
        case "one-time-snooze": .snoozed
        case "walk-fuse": .walkFuse
        case "successor": .successor
        default: .scheduled
        }
        closePending(id, at: event.trueMs, why: "scheduled again")
        var fire = ""
        if let schedule = event.field("schedule"), schedule.hasPrefix("fixed("), let fireMs = Int64(schedule.dropFirst(6).dropLast()) {
            fire = " due \(time.short(fireMs))"
        } else if let schedule = event.field("schedule") {
            fire = " \(schedule)"
        }
        pending.append((id, kind, event.trueMs, fire, event.index))
    }

    /// Ring states and marks; false when `event` is not one of them.
    mutating func consumeRingEvent(_ event: TraceEvent) -> Bool {
        let ms = event.trueMs
        let id = event.field("id")
        switch (event.component, event.name) {
        case ("bridge", "schedule"):
            if let id { ringScheduled(id, event) }
        case ("bridge", "cancel"): markRing(id, .cancelled, event, row: 0)
        case ("bridge", "stop"): markRing(id, .silenced, event, row: 1)
        case ("user", "stop"), ("user", "volume-key"): markRing(id, .dismissed, event, row: 1)
        case ("ios", "alerting"), ("android", "ringing"):
            guard let id else { break }
            closePending(id, at: ms, why: event.field("late") == "true" ? "fired (late)" : "fired")
            if !alerting.contains(where: { $0.id == id }) { alerting.append((id, ms, event.index)) }
            markRing(id, .fired, event, row: 1)
        case ("android", "delivered"):
            guard let id else { break }
            closePending(id, at: ms, why: "delivered")
            markRing(id, .fired, event, row: 0)
        case ("ios", "alert-ended"), ("android", "ringing-stopped"), ("android", "ringing-service-torn-down"):
            guard let id else { break }
            closeAlerting(id, at: ms, why: "\(event.component) \(event.name)")
        case ("ios", "cancelled"), ("android", "cancelled"), ("ios", "system-removed"):
            guard let id else { break }
            closePending(id, at: ms, why: "\(event.component) \(event.name)")
            closeAlerting(id, at: ms, why: "\(event.component) \(event.name)")
        case ("ios", "schedule-failed"), ("android", "schedule-failed"), ("android", "security-exception"),
             ("android", "illegal-state-exception"):
            guard let id else { break }
            closePending(id, at: ms, why: "refused: \(event.component) \(event.name) \(event.field("error") ?? "")")
            markRing(id, .refused, event, row: 0)
        case ("platform", "burst-start"):
            guard let id else { break }
            closeBurst(id, at: ms, why: "started again")
            bursts.append((id, event.field("root") ?? "?", ms))
        case ("platform", "burst-stopped"), ("platform", "burst-replaced"):
            closeBurst(id, at: ms, why: "\(event.name)")
        default:
            return false
        }
        return true
    }

    /// The app process's states (running, foreground, suspended); false when `event` is not one.
    mutating func consumeLifecycleEvent(_ event: TraceEvent) -> Bool {
        let ms = event.trueMs
        switch (event.component, event.name) {
        case ("app", "launch"):
            processEnds(at: ms, why: "relaunched")
            running = (ms, "process \(event.field("incarnation") ?? "?") running (launched: \(event.field("reason") ?? "?"))")
            lifecycle.marks.append(Mark(kind: .launch, atMs: ms, title: hover(event), eventIndex: event.index, row: 0))
        case ("app", "process-death"):
            processEnds(at: ms, why: "process death (\(event.field("reason") ?? "?"))")
            lifecycle.marks.append(Mark(kind: .death, atMs: ms, title: hover(event), eventIndex: event.index, row: 0))
        case ("app", "suspended"):
            if suspended == nil { suspended = ms }
        case ("app", "resumed"):
            closeLifecycle(.suspended, \.suspended, at: ms, what: "process suspended", row: 1)
        case ("bridge", "input"):
            switch event.field("input") {
            case "didBecomeActive": if foreground == nil { foreground = ms }
            case "willResignActive": closeLifecycle(.foreground, \.foreground, at: ms, what: "app in the foreground (active)", row: 1)
            default: break
            }
        default:
            return false
        }
        return true
    }

    /// The device's power and lock states (shutdown, boot, first unlock).
    mutating func consumeDeviceEvent(_ event: TraceEvent) {
        let ms = event.trueMs
        switch (event.component, event.name) {
        case ("device", "shutdown"):
            for open in alerting { closeAlerting(open.id, at: ms, why: "device shut down") }
            if isAndroid {
                for open in pending { closePending(open.id, at: ms, why: "device shut down: AlarmManager forgets its alarms") }
            }
            processEnds(at: ms, why: "device shut down")
            closeLifecycle(.locked, \.locked, at: ms, what: "locked since boot (before first unlock)", row: 1)
            if deviceOff == nil { deviceOff = ms }
            lifecycle.marks.append(Mark(kind: .shutdown, atMs: ms, title: hover(event), eventIndex: event.index, row: 1))
        case ("device", "boot"):
            closeLifecycle(.deviceOff, \.deviceOff, at: ms, what: "device off (rebooting)", row: 0)
            if locked == nil { locked = ms }
            lifecycle.marks.append(Mark(kind: .boot, atMs: ms, title: hover(event), eventIndex: event.index, row: 1))
        case ("device", "first-unlock"):
            closeLifecycle(.locked, \.locked, at: ms, what: "locked since boot (before first unlock)", row: 1)
            lifecycle.marks.append(Mark(kind: .unlock, atMs: ms, title: hover(event), eventIndex: event.index, row: 1))
        default:
            break
        }
    }

    /// Closes every state still open when the run ended at `end`.
    mutating func finish(at end: Int64) {
        for open in pending { closePending(open.id, at: end, why: "still pending when the run ended") }
        for open in alerting { closeAlerting(open.id, at: end, why: "still alerting when the run ended") }
        closeBurst(nil, at: end, why: "still playing when the run ended")
        processEnds(at: end, why: "the run ended")
        closeLifecycle(.deviceOff, \.deviceOff, at: end, what: "device off", row: 0)
        closeLifecycle(.locked, \.locked, at: end, what: "locked since boot (before first unlock)", row: 1)
    }
}

import AlarmBridge
import Campaign
import SimKernel
import Simulation

/// One replayed run as the per-failure renderers see it (``FailureArtifacts``, ``TimelinePage``,
/// ``FailureReport``, ``TraceExplainer``): the run's identity, parameters, violations, repro line
/// and its kept trace events, oldest first.
///
/// A plain value with a public initializer, so a test can hand the renderers any text (a hostile
/// alarm title, say) without running the simulator.
public struct FailureRun: Sendable {
    /// The trace header (platform, seed, defects, parameters, zone data, counts, hash).
    public var header: TraceHeader
    /// Violations in the order found; the run stops at the first.
    public var violations: [Violation]
    /// The command line that replays the run, e.g. `alarmsim replay --platform ios --seed 1`.
    public var reproLine: String
    /// The kept trace events, oldest first; renderers expect the full trace (`keepFullTrace`).
    public var events: [TraceEvent]
    /// Exemption counts by name, sorted by name.
    public var exemptions: [RunParameter]
    /// Virtual time the run covered, in milliseconds.
    public var virtualDurationMs: Int64
    /// The shrunk scenario's text, when the caller has one (fuzz with shrinking).
    public var shrunkScenario: String?
    /// Where that shrunk scenario was written (`Reports/shrunk/ios-1-never-silent.scenario`), if it was.
    public var shrunkPath: String?
    /// The same file relative to the directory `report.md` is written into (a campaign's
    /// `failures/ios-1/` links `../../shrunk/ios-1-never-silent.scenario`), for its link.
    public var shrunkLink: String?

    public init(header: TraceHeader, violations: [Violation], reproLine: String, events: [TraceEvent],
                exemptions: [RunParameter] = [], virtualDurationMs: Int64 = 0, shrunkScenario: String? = nil,
                shrunkPath: String? = nil) {
        self.shrunkPath = shrunkPath
        self.header = header
        self.violations = violations
        self.reproLine = reproLine
        self.events = events
        self.exemptions = exemptions
        self.virtualDurationMs = virtualDurationMs
        self.shrunkScenario = shrunkScenario
    }

    /// The run `result`, replayable with `reproLine` (default: the fuzz repro line of its seed).
    public init(_ result: RunResult, reproLine: String? = nil, shrunkScenario: String? = nil) {
        self.init(header: TraceHeader(result), violations: result.violations,
                  reproLine: reproLine ?? Campaign.reproLine(platform: result.platform, seed: result.seed, defects: result.defects,
                                                             faults: result.faults, liveness: result.liveness),
                  events: result.trace.events, exemptions: result.exemptions,
                  virtualDurationMs: result.virtualDurationMs, shrunkScenario: shrunkScenario)
    }

    /// The first violation, if any.
    public var violation: Violation? { violations.first }

    /// The zone the run started in: the `sim start` event's `zone`, else the `zone` parameter, else UTC.
    public var startZone: String {
        if let start = events.first(where: { $0.component == "sim" && $0.name == "start" }), let zone = start.field("zone") {
            return zone
        }
        return header.parameters.first { $0.name == "zone" }?.value ?? "UTC"
    }
}

extension TraceEvent {
    /// The value of the field `key`, if the event has one.
    public func field(_ key: String) -> String? {
        fields.first { $0.key == key }?.value
    }
}

/// Local wall time as people read it: `2026-12-21 05:09:00.000 +01:00` in a named zone.
///
/// Built on ``WallCalendar`` (the toolchain's zone data, as the run itself), so a report shows
/// the times the simulated device showed.
public struct LocalTimeFormat: Sendable {
    public let calendar: WallCalendar

    /// The format for the IANA zone `zoneIdentifier`; an unknown zone falls back to UTC.
    public init(zoneIdentifier: String) {
        calendar = WallCalendar(zoneIdentifier: zoneIdentifier) ?? WallCalendar(zoneIdentifier: "UTC")!
    }

    /// `2026-12-21 05:09:00.123 +01:00` for `wallMs` (ms since the Unix epoch).
    public func dateTime(_ wallMs: Int64, milliseconds: Bool = true) -> String {
        let local = calendar.local(wallMs)
        var text = "\(local.year)-\(Self.two(local.month))-\(Self.two(local.day)) \(Self.two(local.hour)):\(Self.two(local.minute)):\(Self.two(local.second))"
        if milliseconds { text += "." + Self.three(Int(((wallMs % 1000) + 1000) % 1000)) }
        return text + " " + offset(wallMs)
    }

    /// `Mon 21 Dec 05:09` (axis ticks, fire times).
    public func short(_ wallMs: Int64) -> String {
        let local = calendar.local(wallMs)
        return "\(Self.weekdayNames[local.weekday.rawValue - 1]) \(local.day) \(Self.monthNames[local.month - 1]) \(Self.two(local.hour)):\(Self.two(local.minute))"
    }

    /// `05:09` or `05:09:07` (with seconds).
    public func clock(_ wallMs: Int64, seconds: Bool = false) -> String {
        let local = calendar.local(wallMs)
        return "\(Self.two(local.hour)):\(Self.two(local.minute))" + (seconds ? ":\(Self.two(local.second))" : "")
    }

    /// `+01:00`, the zone's UTC offset at `wallMs`.
    public func offset(_ wallMs: Int64) -> String {
        let minutes = calendar.offsetMs(at: wallMs) / 60_000
        let sign = minutes < 0 ? "-" : "+"
        return "\(sign)\(Self.two(Int(abs(minutes) / 60))):\(Self.two(Int(abs(minutes) % 60)))"
    }

    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    static func three(_ value: Int) -> String { value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)" }
}

/// Text made safe for HTML and XML: `&`, `<`, `>`, `"` and `'` as character references, and
/// control characters other than tab and newline (not allowed in XML 1.0) as U+FFFD.
public enum HTMLText {
    public static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\t", "\n": escaped.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    escaped += "\u{FFFD}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }
}

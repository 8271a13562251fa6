import AlarmBridge
import SimKernel
import Simulation

/// What the first line of a JSON Lines trace says about the run.
public struct TraceHeader: Sendable, Equatable {
    /// The value of the `"header"` key, naming the format and its version.
    public static let formatName = "alarmsim-trace/1"

    public var platform: String
    public var seed: UInt64
    public var defects: [String]
    /// Every parameter the seed drew, in the simulator's order.
    public var parameters: [RunParameter]
    /// The toolchain's time-zone data version (named zones come from it; DESIGN.md).
    public var zoneData: String
    /// Events the run loop processed (``RunResult/eventCount``).
    public var eventsProcessed: Int
    /// Trace records of the whole run, kept or not (the hash covers all of them).
    public var traceEventCount: Int
    /// FNV-1a 64 of every event's canonical line, as 16 hex digits.
    public var traceHashHex: String

    public init(platform: String, seed: UInt64, defects: [String], parameters: [RunParameter],
                zoneData: String, eventsProcessed: Int, traceEventCount: Int, traceHashHex: String) {
        self.platform = platform
        self.seed = seed
        self.defects = defects
        self.parameters = parameters
        self.zoneData = zoneData
        self.eventsProcessed = eventsProcessed
        self.traceEventCount = traceEventCount
        self.traceHashHex = traceHashHex
    }

    /// The header of `result`'s trace.
    public init(_ result: RunResult) {
        self.init(platform: result.platform.rawValue, seed: result.seed, defects: result.defects.map(\.rawValue),
                  parameters: result.parameters, zoneData: WallCalendar.zoneDataVersion,
                  eventsProcessed: result.eventCount, traceEventCount: result.trace.count,
                  traceHashHex: result.traceHashHex)
    }
}

/// A run's trace as JSON Lines (one JSON object per line, RFC 8259 / jsonlines.org): a header
/// line, then ``TraceEvent/jsonLine`` of every kept event, oldest first.
///
/// Written by hand rather than with `JSONEncoder`, so key order and number formatting are
/// fixed by this file and the bytes are the same on every machine.
public enum TraceWriter {
    /// The whole trace file for `result`, ending with a newline.
    ///
    /// - Returns: The header line (`header`, `platform`, `seed`, `defects`, `parameters` in the
    ///   simulator's order, `zoneData`, `eventsProcessed`, `traceEvents` (all
    ///   recorded), `eventsKept` (written below), `traceHash`), then one
    ///   line per kept event. Run with `keepFullTrace: true` to keep them all.
    public static func jsonLines(_ result: RunResult) -> String {
        jsonLines(header: TraceHeader(result), events: result.trace.events)
    }

    /// The trace file for a header and events, ending with a newline.
    public static func jsonLines(header: TraceHeader, events: [TraceEvent]) -> String {
        var text = headerLine(header, eventsKept: events.count)
        text += "\n"
        for event in events {
            text += event.jsonLine
            text += "\n"
        }
        return text
    }

    /// The header as one JSON object, no newline.
    public static func headerLine(_ header: TraceHeader, eventsKept: Int) -> String {
        var json = "{\"header\":" + JSONText.quoted(TraceHeader.formatName)
        json += ",\"platform\":" + JSONText.quoted(header.platform)
        json += ",\"seed\":\(header.seed)"
        json += ",\"defects\":[" + header.defects.map(JSONText.quoted).joined(separator: ",") + "]"
        json += ",\"parameters\":{"
        json += header.parameters.map { JSONText.quoted($0.name) + ":" + JSONText.quoted($0.value) }
            .joined(separator: ",")
        json += "}"
        json += ",\"zoneData\":" + JSONText.quoted(header.zoneData)
        json += ",\"eventsProcessed\":\(header.eventsProcessed)"
        json += ",\"traceEvents\":\(header.traceEventCount)"
        json += ",\"eventsKept\":\(eventsKept)"
        json += ",\"traceHash\":" + JSONText.quoted(header.traceHashHex)
        json += "}"
        return json
    }
}

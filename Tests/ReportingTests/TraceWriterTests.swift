import AlarmBridge
import Foundation
import Reporting
import SimKernel
import Simulation
import Testing

@Suite("TraceWriter")
struct TraceWriterTests {
    private func sampleTrace() -> Trace {
        var trace = Trace(keepLast: nil)
        trace.record(component: "bridge", name: "launch", fields: [],
                     trueMs: 1_772_430_000_000, wallMs: 1_772_430_000_000, monotonicMs: 0)
        trace.record(component: "ios.daemon", name: "schedule",
                     fields: [TraceField("id", "a1"), TraceField("title", "Wake \"up\"\\\n\t\u{0}é\u{2028}")],
                     trueMs: 1_772_430_000_010, wallMs: 1_772_429_999_000, monotonicMs: 10)
        trace.record(component: "user", name: "stop", fields: [TraceField("", "")],
                     trueMs: 1_772_430_001_000, wallMs: 1_772_430_000_000, monotonicMs: 1_000)
        return trace
    }

    private func sampleHeader(_ trace: Trace) -> TraceHeader {
        TraceHeader(platform: "ios", seed: 4711, defects: ["title-in-ring-id"],
                    parameters: [RunParameter("zone", "Europe/Berlin"), RunParameter("capacity", "64"),
                                 RunParameter("odd \"name\"", "line\nbreak")],
                    zoneData: "2025b", eventsProcessed: 2, traceEventCount: trace.count, traceHashHex: trace.hashHex)
    }

    @Test("every line of a trace file is one valid JSON object: the header, then one per event")
    func everyLineIsJSON() throws {
        let trace = sampleTrace()
        let text = TraceWriter.jsonLines(header: sampleHeader(trace), events: trace.events)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 + trace.events.count)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            #expect(object is [String: Any], "not an object: \(line)")
        }
        let event = try #require(try JSONSerialization.jsonObject(with: Data(lines[2].utf8)) as? [String: Any])
        let fields = try #require(event["fields"] as? [String: String])
        #expect(fields["title"] == "Wake \"up\"\\\n\t\u{0}é\u{2028}", "strings survive escaping")
    }

    @Test("the header carries the run's identity, its parameters in order, the zone data and the trace hash")
    func headerContents() throws {
        let trace = sampleTrace()
        let header = sampleHeader(trace)
        let line = TraceWriter.headerLine(header, eventsKept: 3)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["header"] as? String == TraceHeader.formatName)
        #expect(object["platform"] as? String == "ios")
        #expect(object["seed"] as? Int == 4711)
        #expect(object["defects"] as? [String] == ["title-in-ring-id"])
        #expect(object["zoneData"] as? String == "2025b")
        #expect(object["eventsProcessed"] as? Int == 2)
        #expect(object["traceEvents"] as? Int == 3)
        #expect(object["eventsKept"] as? Int == 3)
        #expect(object["traceHash"] as? String == trace.hashHex)
        let parameters = try #require(object["parameters"] as? [String: String])
        #expect(parameters == ["zone": "Europe/Berlin", "capacity": "64", "odd \"name\"": "line\nbreak"])
        // JSON objects are unordered once parsed; the text keeps the simulator's order.
        let zone = try #require(line.range(of: "\"zone\""))
        let capacity = try #require(line.range(of: "\"capacity\""))
        #expect(zone.lowerBound < capacity.lowerBound)
        #expect(line.hasPrefix("{\"header\":"))
    }

    @Test("a seed above 2^63 is written as its exact decimal digits")
    func largeSeed() {
        let header = TraceHeader(platform: "android", seed: UInt64.max, defects: [], parameters: [],
                                 zoneData: "x", eventsProcessed: 0, traceEventCount: 0, traceHashHex: "0000000000000000")
        #expect(TraceWriter.headerLine(header, eventsKept: 0).contains("\"seed\":18446744073709551615,"))
    }

    @Test("event lines are the kernel's own jsonLine, so the file and the hash describe the same events")
    func eventLinesAreKernelLines() {
        let trace = sampleTrace()
        let lines = TraceWriter.jsonLines(header: sampleHeader(trace), events: trace.events).split(separator: "\n")
        #expect(lines.dropFirst().map(String.init) == trace.events.map(\.jsonLine))
    }
}

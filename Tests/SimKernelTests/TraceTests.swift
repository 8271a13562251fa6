import SimKernel
import Testing

@Suite("Trace")
struct TraceTests {
    private static func recordSample(_ index: Int, into trace: inout Trace) {
        trace.record(
            component: index % 2 == 0 ? "bridge" : "ios.daemon", name: "step",
            fields: [TraceField("n", String(index))],
            trueMs: Int64(index) * 1_000, wallMs: Int64(index) * 1_000 + 7, monotonicMs: Int64(index) * 1_000)
    }

    @Test("canonicalLine lists the clock readings, component, name and fields separated by spaces")
    func canonicalLineShape() {
        let event = TraceEvent(
            index: 3, trueMs: 1_000, wallMs: 1_250, monotonicMs: 40, component: "bridge", name: "alarmFired",
            fields: [TraceField("id", "a1"), TraceField("snooze", "2")])
        #expect(event.canonicalLine == "3 1000 1250 40 bridge alarmFired id=a1 snooze=2")
    }

    @Test("canonicalLine escapes spaces, '=', '%', and line breaks so the line stays unambiguous")
    func canonicalLineEscaping() {
        let event = TraceEvent(
            index: 0, trueMs: 0, wallMs: -5, monotonicMs: 0, component: "ios daemon", name: "a=b",
            fields: [TraceField("k v", "x=y 50%\n\u{2028}\t"), TraceField("", ""), TraceField("café", "ünï")])
        #expect(event.canonicalLine
                == "0 0 -5 0 ios%20daemon a%3Db k%20v=x%3Dy%2050%25%0A%E2%80%A8%09 = café=ünï")
        #expect(!event.canonicalLine.contains("\n"))
    }

    @Test("jsonLine has keys in fixed order and field keys in emission order")
    func jsonLineShape() {
        let event = TraceEvent(
            index: 1, trueMs: 10, wallMs: 11, monotonicMs: -2, component: "bridge", name: "scheduled",
            fields: [TraceField("z", "1"), TraceField("a", "2")])
        #expect(event.jsonLine == #"{"index":1,"trueMs":10,"wallMs":11,"monotonicMs":-2,"component":"bridge","event":"scheduled","fields":{"z":"1","a":"2"}}"#)
        let empty = TraceEvent(index: 0, trueMs: 0, wallMs: 0, monotonicMs: 0, component: "c", name: "n", fields: [])
        #expect(empty.jsonLine.hasSuffix(#""fields":{}}"#))
    }

    @Test("jsonLine escapes quotes, backslashes and control characters per RFC 8259")
    func jsonEscaping() {
        let event = TraceEvent(
            index: 0, trueMs: 0, wallMs: 0, monotonicMs: 0, component: "say \"hi\"", name: #"back\slash"#,
            fields: [TraceField("line\nbreak", "tab\t nul\u{0} esc\u{1B} del\u{7F} é / \u{2028}")])
        let expected = #"{"index":0,"trueMs":0,"wallMs":0,"monotonicMs":0,"component":"say \"hi\"","event":"back\\slash","fields":{"line\u000abreak":"tab\u0009 nul\u0000 esc\u001b del"# + "\u{7F} é / \u{2028}\"}}"
        #expect(event.jsonLine == expected)
        #expect(!event.jsonLine.contains("\n"))
    }

    @Test("a counting-only trace counts records and skips, keeps and hashes nothing")
    func countingOnly() {
        var trace = Trace.countingOnly()
        #expect(!trace.isRecording)
        for index in 0..<5 { Self.recordSample(index, into: &trace) }
        trace.skip()
        #expect(trace.count == 6)
        #expect(trace.events.isEmpty)
        #expect(trace.hash == FNV1a.offsetBasis)
        #expect(Trace(keepLast: nil).isRecording && Trace(keepLast: 3).isRecording)
    }

    @Test("the trace hash is FNV-1a 64 over every canonical line plus a newline")
    func hashDefinition() {
        var trace = Trace(keepLast: nil)
        #expect(trace.hash == FNV1a.offsetBasis)
        trace.record(component: "bridge", name: "alarmFired", fields: [TraceField("id", "a")],
                     trueMs: 1_000, wallMs: 1_000, monotonicMs: 0)
        trace.record(component: "ios.daemon", name: "deliver x", fields: [TraceField("key", "v=w")],
                     trueMs: 2_000, wallMs: 2_000, monotonicMs: 1_000)
        let text = trace.events.map { $0.canonicalLine + "\n" }.joined()
        #expect(trace.hash == FNV1a.hash(text))
        // Snapshot on purpose: trace hashes are compared across processes and machines.
        // Computed with python3 over the literal lines below.
        #expect(text == "0 1000 1000 0 bridge alarmFired id=a\n1 2000 2000 1000 ios.daemon deliver%20x key=v%3Dw\n")
        #expect(trace.hashHex == "c99a0f9e7dcb1d4e")
    }

    @Test("the trace hash depends on the order of events")
    func hashIsOrderSensitive() {
        var forward = Trace(keepLast: nil)
        var backward = Trace(keepLast: nil)
        for (component, name) in [("a", "x"), ("b", "y")] {
            forward.record(component: component, name: name, fields: [], trueMs: 0, wallMs: 0, monotonicMs: 0)
        }
        for (component, name) in [("b", "y"), ("a", "x")] {
            backward.record(component: component, name: name, fields: [], trueMs: 0, wallMs: 0, monotonicMs: 0)
        }
        #expect(forward.hash != backward.hash)
        #expect(forward.count == 2)
    }

    @Test("keepLast keeps the last n events, oldest first, while the hash covers all of them",
          arguments: [1, 3, 7, 10, 25])
    func keepLastRing(keepLast: Int) {
        var ring = Trace(keepLast: keepLast)
        var full = Trace(keepLast: nil)
        for index in 0..<20 {
            Self.recordSample(index, into: &ring)
            Self.recordSample(index, into: &full)
            #expect(ring.hash == full.hash)
            #expect(ring.events.map(\.index) == Array(max(0, index + 1 - keepLast)...index))
        }
        #expect(ring.count == 20)
        #expect(full.events.count == 20)
        #expect(ring.events == Array(full.events.suffix(keepLast)))
        #expect(ring.hashHex == full.hashHex)
        #expect(ring.keepLast == keepLast)
    }

    @Test("hashHex is 16 lowercase hex digits, zero-padded")
    func hashHexFormat() {
        var trace = Trace(keepLast: nil)
        #expect(trace.hashHex == "cbf29ce484222325")
        // Find, deterministically, an event whose hash has a leading zero nibble.
        var attempt = 0
        while trace.hash >> 60 != 0 {
            trace = Trace(keepLast: nil)
            trace.record(component: "pad", name: String(attempt), fields: [], trueMs: 0, wallMs: 0, monotonicMs: 0)
            attempt += 1
        }
        #expect(trace.hashHex.count == 16)
        #expect(trace.hashHex.hasPrefix("0"))
        #expect(trace.hashHex.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(UInt64(trace.hashHex, radix: 16) == trace.hash)
    }
}

@testable import AlarmBridge
import Foundation  // Tests only: JSONEncoder/JSONDecoder check the row's persisted form.
import Testing

@Suite("CopyOnWrite: value semantics with one shared box")
struct CopyOnWriteTests {
    @Test("a copy shares the box until one side changes; a change never shows through the other copy")
    func valueSemantics() {
        var original = CopyOnWrite([1, 2, 3])
        var copy = original
        #expect(copy.sharesStorage(with: original))
        copy.value.append(4)
        #expect(!copy.sharesStorage(with: original))
        #expect(original.value == [1, 2, 3] && copy.value == [1, 2, 3, 4])
        original.value[0] = 9  // unique now: changed in place
        #expect(original.value == [9, 2, 3] && copy.value == [1, 2, 3, 4])
    }

    @Test("a document copied, then changed, leaves the copy as it was and compares unequal")
    func documentCopies() {
        var document = BridgeDocument()
        let before = document
        #expect(before == document)
        document.serial = 7
        document.audibleAlarmIDs = ["a1"]
        #expect(before.serial == 0 && before.audibleAlarmIDs == nil)
        #expect(before != document)
    }

    static func row() -> RingRow {
        RingRow(id: AlarmUUID(string: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!, schedule: .fixed(wallMs: 1_800_000_000_000),
                fireWallMs: 1_800_000_000_000,
                metadata: RingMetadata(rootID: "a1.mon", alarmID: "a1", kind: .primary, token: nil, title: "Wake"),
                fingerprint: "0123456789abcdef", publishedAtMs: 1_799_999_000_000, confirmed: true, delivered: false,
                soundName: "bell")
    }

    @Test("a registry row copied, then changed, leaves the copy as it was; equal rows compare equal in separate boxes")
    func rowCopies() {
        var row = Self.row()
        let before = row
        row.delivered = true
        row.metadata.title = "Up"
        row.inexact = true
        #expect(!before.delivered && before.metadata.title == "Wake" && before.inexact == nil)
        #expect(before != row)
        #expect(before == Self.row())  // another box, the same fields
    }

    @Test("a boxed row keeps its JSON form: the fields in order, nil optionals left out, and it reads back equal")
    func rowJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var row = Self.row()
        row.dayEndedByDisable = true
        let text = String(decoding: try encoder.encode(row), as: UTF8.self)
        #expect(text == #"{"confirmed":true,"dayEndedByDisable":true,"delivered":false,"fingerprint":"0123456789abcdef","fireWallMs":1800000000000,"id":"6ba7b810-9dad-11d1-80b4-00c04fd430c8","metadata":{"alarmID":"a1","kind":"primary","rootID":"a1.mon","title":"Wake"},"publishedAtMs":1799999000000,"schedule":{"fixed":{"wallMs":1800000000000}},"soundName":"bell"}"#)
        #expect(try JSONDecoder().decode(RingRow.self, from: Data(text.utf8)) == row)
    }

    @Test("a fingerprint is the first 16 hex digits of the SHA-1 of its text (ID-4)", arguments: [
        (BridgeCore.FingerprintInput(title: ExactText("Wake"), soundName: nil, countdown: false, countdownLeftSeconds: nil), "title=Wake"),
        (BridgeCore.FingerprintInput(title: ExactText("Wake"), soundName: ExactText("bell"), countdown: false, countdownLeftSeconds: nil), "title=Wake|sound=bell"),
        (BridgeCore.FingerprintInput(title: ExactText("Wake"), soundName: ExactText("bell"), countdown: true, countdownLeftSeconds: nil), "title=Wake|sound=bell|countdown"),
        (BridgeCore.FingerprintInput(title: ExactText("Wake"), soundName: nil, countdown: true, countdownLeftSeconds: 90), "title=Wake|countdown=90"),
        // Equal as Swift strings, two texts byte for byte: each its own fingerprint, whichever the memo saw first.
        (BridgeCore.FingerprintInput(title: ExactText("Caf\u{E9}"), soundName: nil, countdown: false, countdownLeftSeconds: nil), "title=Caf\u{E9}"),
        (BridgeCore.FingerprintInput(title: ExactText("Cafe\u{301}"), soundName: nil, countdown: false, countdownLeftSeconds: nil), "title=Cafe\u{301}"),
    ])
    func fingerprintText(input: BridgeCore.FingerprintInput, text: String) {
        #expect(input.text == text)
        let core = BridgeCore(configuration: BridgeConfiguration(flavor: .ios, calendar: WallCalendar(zoneIdentifier: "UTC")!))
        let request = RingRequest(id: AlarmUUID(string: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!, schedule: .fixed(wallMs: 100_000),
                                  fireWallMs: 100_000,
                                  metadata: RingMetadata(rootID: "a1", alarmID: "a1", kind: .primary, token: nil, title: input.title.text),
                                  countdown: input.countdown ? CountdownDuration(preAlertMs: nil, postAlertMs: 60_000) : nil,
                                  soundName: input.soundName?.text)
        if input.countdownLeftSeconds == nil {
            #expect(core.fingerprint(request, now: BridgeInstants(wallMs: 0, monotonicMs: 0)) == String(SHA1.hexDigest(text).prefix(16)))
        }
    }
}

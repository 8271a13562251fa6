import AlarmBridge
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
}

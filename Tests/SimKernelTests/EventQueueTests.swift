import SimKernel
import Testing

@Suite("EventQueue")
struct EventQueueTests {
    @Test("an empty queue has nothing to peek or pop")
    func emptyQueue() {
        var queue = EventQueue<String>()
        #expect(queue.isEmpty)
        #expect(queue.count == 0)
        #expect(queue.peekNext() == nil)
        #expect(queue.popNext() == nil)
        #expect(queue.pendingInOrder.isEmpty)
    }

    @Test("schedule stamps sequences 0, 1, 2, … and never reuses them")
    func sequencesAreStamped() {
        var queue = EventQueue<String>()
        #expect(queue.schedule("a", at: 10) == 0)
        #expect(queue.schedule("b", at: 5) == 1)
        _ = queue.removeNext()
        #expect(queue.schedule("c", at: 1) == 2)
    }

    @Test("events due at the same instant pop first-in first-out")
    func fifoAtEqualTimes() {
        var queue = EventQueue<Int>()
        for payload in 0..<50 {
            queue.schedule(payload, at: payload % 2 == 0 ? 100 : 200)
        }
        queue.schedule(-1, at: 50)
        var popped: [Int] = []
        while let event = queue.popNext() {
            popped.append(event.payload)
        }
        let evens = Array(stride(from: 0, to: 50, by: 2))
        let odds = Array(stride(from: 1, to: 50, by: 2))
        #expect(popped == [-1] + evens + odds)
    }

    @Test("peekNext shows what popNext and removeNext return")
    func peekMatchesPop() {
        var queue = EventQueue<String>()
        queue.schedule("late", at: 30)
        queue.schedule("early", at: 10)
        queue.schedule("middle", at: 20)
        #expect(queue.peekNext()?.payload == "early")
        #expect(queue.removeNext() == ScheduledEvent(dueMs: 10, sequence: 1, payload: "early"))
        #expect(queue.peekNext()?.payload == "middle")
        #expect(queue.popNext()?.payload == "middle")
        #expect(queue.count == 1)
    }

    @Test("random schedules and pops agree with a sorted-array model", arguments: Array(UInt64(0)..<40))
    func matchesSortedArrayModel(seed: UInt64) {
        var generator = Xoshiro256StarStar(seed: seed)
        var queue = EventQueue<UInt64>()
        var model: [ScheduledEvent<UInt64>] = []  // Kept sorted by (dueMs, sequence).
        for step in 0..<600 {
            // Narrow time range so equal due times, and therefore the FIFO tie-break, are common.
            if generator.chance(Ratio(3, 5)) {
                let dueMs = generator.int(in: 0...40)
                let payload = generator.next()
                let sequence = queue.schedule(payload, at: dueMs)
                let event = ScheduledEvent(dueMs: dueMs, sequence: sequence, payload: payload)
                let insertAt = model.firstIndex { event.firesBefore($0) } ?? model.endIndex
                model.insert(event, at: insertAt)
            } else {
                #expect(queue.popNext() == (model.isEmpty ? nil : model.removeFirst()), "seed \(seed) step \(step)")
            }
            #expect(queue.count == model.count)
            #expect(queue.peekNext() == model.first)
        }
        #expect(queue.pendingInOrder == model)
        while let expected = model.first {
            model.removeFirst()
            #expect(queue.removeNext() == expected)
        }
        #expect(queue.isEmpty)
    }

    @Test("removeAll(where:) drops matching events and keeps the rest in (due, sequence) order",
          arguments: Array(UInt64(0)..<20))
    func removeAllKeepsOrder(seed: UInt64) {
        var generator = Xoshiro256StarStar(seed: seed)
        var queue = EventQueue<Int>()
        for payload in 0..<200 {
            queue.schedule(payload, at: generator.int(in: 0...25))
        }
        let before = queue.pendingInOrder
        queue.removeAll { $0 % 3 == 0 }
        let expected = before.filter { $0.payload % 3 != 0 }
        #expect(queue.pendingInOrder == expected)
        var popped: [ScheduledEvent<Int>] = []
        while let event = queue.popNext() {
            popped.append(event)
        }
        #expect(popped == expected)
    }

    @Test("removeAll(where:) handles removing nothing and everything")
    func removeAllEdges() {
        var queue = EventQueue<Int>()
        for payload in 0..<10 {
            queue.schedule(payload, at: Int64(10 - payload))
        }
        queue.removeAll { _ in false }
        #expect(queue.count == 10)
        #expect(queue.peekNext()?.payload == 9)
        queue.removeAll { _ in true }
        #expect(queue.isEmpty)
        #expect(queue.schedule(42, at: 0) == 10)
    }

    @Test("firesBefore orders by due time, then by sequence")
    func firesBefore() {
        let early = ScheduledEvent(dueMs: 5, sequence: 9, payload: "x")
        let late = ScheduledEvent(dueMs: 6, sequence: 0, payload: "x")
        let earlySibling = ScheduledEvent(dueMs: 5, sequence: 10, payload: "x")
        #expect(early.firesBefore(late))
        #expect(!late.firesBefore(early))
        #expect(early.firesBefore(earlySibling))
        #expect(!early.firesBefore(early))
    }
}

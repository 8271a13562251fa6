/// An event waiting in an ``EventQueue``.
public struct ScheduledEvent<Payload> {
    /// When the event is due, in virtual milliseconds (the run's true-time scale).
    public let dueMs: Int64
    /// The queue-wide stamp given at scheduling (0, 1, 2, …); breaks ties between equal `dueMs`.
    public let sequence: UInt64
    /// What happens when the event fires.
    public let payload: Payload

    /// Creates a scheduled event; normally only ``EventQueue/schedule(_:at:)`` does this.
    public init(dueMs: Int64, sequence: UInt64, payload: Payload) {
        self.dueMs = dueMs
        self.sequence = sequence
        self.payload = payload
    }

    /// Whether `self` fires before `other`: earlier `dueMs`, then earlier `sequence`.
    ///
    /// Deliberately not `Comparable`: `==` would then have to ignore the payload to agree with
    /// `<`, which would surprise anyone comparing events for equality.
    @inlinable
    public func firesBefore(_ other: ScheduledEvent<Payload>) -> Bool {
        (dueMs, sequence) < (other.dueMs, other.sequence)
    }
}

extension ScheduledEvent: Sendable where Payload: Sendable {}
extension ScheduledEvent: Equatable where Payload: Equatable {}

/// The simulation's pending events, ordered strictly by `(dueMs, sequence)`.
///
/// A binary min-heap stored in an array (as in swift-collections' `HeapModule`). Because
/// `sequence` is stamped at scheduling, events due at the same instant fire first-in
/// first-out, so the order never depends on heap layout and a run is reproducible.
///
/// The queue does not know the current time; clamping a deadline in the past to "now" is
/// the run loop's job.
public struct EventQueue<Payload> {
    /// The heap: `_storage[i]` fires no later than `_storage[2i+1]` and `_storage[2i+2]`.
    @usableFromInline
    internal var _storage: [ScheduledEvent<Payload>] = []
    /// The sequence the next scheduled event will receive.
    @usableFromInline
    internal var _nextSequence: UInt64 = 0

    /// Creates an empty queue whose first event will be stamped sequence 0.
    public init() {}

    /// The number of pending events.
    @inlinable
    public var count: Int { _storage.count }

    /// Whether no events are pending.
    @inlinable
    public var isEmpty: Bool { _storage.isEmpty }

    /// Adds `payload` to fire at `dueMs`.
    ///
    /// - Parameter payload: What happens when the event fires.
    /// - Parameter dueMs: When it is due, in virtual milliseconds.
    /// - Returns: The sequence stamped on the event: 0 for the queue's first event, then 1, 2, …
    ///   (never reused, even after pops), usable as the event's identity.
    /// - Complexity: O(log n).
    @discardableResult
    @inlinable
    public mutating func schedule(_ payload: Payload, at dueMs: Int64) -> UInt64 {
        let sequence = _nextSequence
        _nextSequence += 1
        _storage.append(ScheduledEvent(dueMs: dueMs, sequence: sequence, payload: payload))
        siftUp(from: _storage.count - 1)
        _checkInvariants()
        return sequence
    }

    /// The event that would fire next, without removing it.
    ///
    /// - Returns: The pending event with the smallest `(dueMs, sequence)`, or `nil` when empty.
    /// - Complexity: O(1).
    @inlinable
    public func peekNext() -> ScheduledEvent<Payload>? {
        _storage.first
    }

    /// The `dueMs` of the event that would fire next (``peekNext()``'s), read in place: no copy
    /// of its payload. nil when empty.
    /// - Complexity: O(1).
    @inlinable
    public var nextDueMs: Int64? {
        _storage.isEmpty ? nil : _storage.withUnsafeBufferPointer { $0[0].dueMs }
    }

    /// Removes and returns the event that fires next.
    ///
    /// - Returns: The pending event with the smallest `(dueMs, sequence)`, or `nil` when empty.
    /// - Complexity: O(log n).
    @inlinable
    public mutating func popNext() -> ScheduledEvent<Payload>? {
        guard !_storage.isEmpty else { return nil }
        return removeNext()
    }

    /// Removes and returns the event that fires next; traps when the queue is empty.
    ///
    /// - Returns: The pending event with the smallest `(dueMs, sequence)`.
    /// - Complexity: O(log n).
    @inlinable
    public mutating func removeNext() -> ScheduledEvent<Payload> {
        precondition(!_storage.isEmpty, "EventQueue.removeNext() called on an empty queue")
        let lastIndex = _storage.count - 1
        _storage.withUnsafeMutableBufferPointer { $0.swapAt(0, lastIndex) }  // moved, not copied
        let next = _storage.removeLast()
        if !_storage.isEmpty {
            siftDown(from: 0)
        }
        _checkInvariants()
        return next
    }

    /// Removes every pending event whose payload satisfies `shouldRemove`.
    ///
    /// The remaining events keep their `dueMs` and `sequence`, so they still fire in the
    /// same relative order.
    ///
    /// - Parameter shouldRemove: Called once per pending event, in unspecified order; must be
    ///   a pure function of the payload.
    /// - Complexity: O(n): one filtering pass, then Floyd's bottom-up heap construction.
    @inlinable
    public mutating func removeAll(where shouldRemove: (Payload) -> Bool) {
        _storage.removeAll { shouldRemove($0.payload) }
        heapify()
        _checkInvariants()
    }

    /// The pending events in firing order; a sorted copy, for inspection and reports.
    ///
    /// - Complexity: O(n log n).
    public var pendingInOrder: [ScheduledEvent<Payload>] {
        _storage.sorted { $0.firesBefore($1) }
    }

    // MARK: - Heap maintenance
    //
    // Inlinable (with the operations above), so a client module's queue is specialised for its
    // payload type: unspecialised generic code copies every payload through value witnesses.

    // Sifting works on the array's buffer: keys are read in place and events are swapped by
    // moving their memory. An array's subscript and `swapAt` copied each whole event, retaining
    // its payload, at every level of the heap (issue 20).

    @inlinable
    internal static func fires(_ events: UnsafeMutableBufferPointer<ScheduledEvent<Payload>>, _ index: Int,
                               before other: Int) -> Bool {
        (events[index].dueMs, events[index].sequence) < (events[other].dueMs, events[other].sequence)
    }

    @inlinable
    internal mutating func siftUp(from startIndex: Int) {
        _storage.withUnsafeMutableBufferPointer { events in
            var child = startIndex
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.fires(events, child, before: parent) else { return }
                events.swapAt(child, parent)
                child = parent
            }
        }
    }

    @inlinable
    internal mutating func siftDown(from startIndex: Int) {
        _storage.withUnsafeMutableBufferPointer { events in
            let count = events.count
            var parent = startIndex
            while true {
                let left = 2 * parent + 1
                guard left < count else { return }
                let right = left + 1
                var earliest = left
                if right < count && Self.fires(events, right, before: left) {
                    earliest = right
                }
                guard Self.fires(events, earliest, before: parent) else { return }
                events.swapAt(parent, earliest)
                parent = earliest
            }
        }
    }

    @inlinable
    internal mutating func heapify() {
        guard _storage.count > 1 else { return }
        for index in stride(from: _storage.count / 2 - 1, through: 0, by: -1) {
            siftDown(from: index)
        }
    }
}

extension EventQueue: Sendable where Payload: Sendable {}

extension EventQueue {
    #if DEBUG
    /// Traps if the heap order or the sequence stamps are inconsistent.
    ///
    /// Called at the end of every mutation in debug builds (as swift-collections' `Heap` does
    /// under its internal-checks flag), so a heap bug fails at the operation that caused it.
    ///
    /// - Complexity: O(n); release builds compile it to nothing.
    @usableFromInline
    internal func _checkInvariants() {
        for index in _storage.indices {
            let event = _storage[index]
            precondition(event.sequence < _nextSequence,
                         "EventQueue invariant: sequence \(event.sequence) was never stamped (next is \(_nextSequence))")
            if index > 0 {
                let parent = (index - 1) / 2
                precondition(!event.firesBefore(_storage[parent]),
                             "EventQueue invariant: element \(index) fires before its parent \(parent)")
            }
        }
        precondition(UInt64(_storage.count) <= _nextSequence,
                     "EventQueue invariant: more pending events than were ever scheduled")
    }
    #else
    @inlinable @inline(__always)
    internal func _checkInvariants() {}
    #endif
}

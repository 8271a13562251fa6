import Synchronization

/// A thread-safe memo of a pure function's answers (issue 20: each piece of work once).
///
/// Holds at most `capacity` entries; when full it is emptied and starts again, so memory stays
/// bounded over a campaign of any length (the 64 MiB per-process budget of issue 8). The memo is
/// never iterated, so its order cannot reach behaviour or output: an answer is the same whether
/// it was computed now or remembered, which keeps every trace hash unchanged.
final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let table: Mutex<[Key: Value]>
    private let capacity: Int

    /// - Parameter capacity: the most entries held at once (> 0).
    init(capacity: Int) {
        precondition(capacity > 0, "a memo holds at least one entry")
        self.capacity = capacity
        self.table = Mutex([:])
    }

    /// The remembered answer for `key`, or `compute()`'s (remembered from now on).
    /// `compute` runs outside the lock, so it may itself use other memos.
    func value(for key: Key, compute: () -> Value) -> Value {
        if let known = table.withLock({ $0[key] }) { return known }
        let fresh = compute()
        table.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = fresh
        }
        return fresh
    }
}

import AlarmBridge

/// Binary search over alarm definitions kept sorted by ID (issue 20: the oracle's configured
/// `alarms` and `jsSaves.pending` were scanned, and re-sorted, at every save, so a first launch
/// that saves N alarms cost N² — 3,000 alarms spent most of their run there).
///
/// "Sorted by ID" is the order `sort { $0.id < $1.id }` gives, with unique IDs; in it a definition
/// is found, replaced and inserted exactly where a scan, a `removeAll` plus `append` plus that
/// sort would put it, so nothing a run prints changes.
extension Array where Element == LogicalAlarm {
    /// True when the IDs strictly increase (`<` on String): the binary searches below apply.
    /// - Complexity: O(n), reading each ID in place.
    var isSortedByUniqueID: Bool {
        withUnsafeBufferPointer { alarms in
            guard alarms.count > 1 else { return true }
            for index in 1..<alarms.count where !(alarms[index - 1].id < alarms[index].id) { return false }
            return true
        }
    }

    /// Where the definition with `id` is (`found`), or where it would be inserted to keep the order.
    /// Requires ``isSortedByUniqueID`` (checked in debug builds).
    /// - Complexity: O(log n).
    func searchSortedByID(_ id: String) -> (index: Int, found: Bool) {
        assert(isSortedByUniqueID, "searchSortedByID needs alarms sorted by unique ID")
        return withUnsafeBufferPointer { alarms in
            var low = 0, high = alarms.count
            while low < high {
                let middle = (low + high) / 2
                if alarms[middle].id < id { low = middle + 1 } else { high = middle }
            }
            return (low, low < alarms.count && alarms[low].id == id)
        }
    }

    /// The definition with `id` in an array sorted by unique ID, or nil: what
    /// `first { $0.id == id }` finds.
    func sortedByIDElement(_ id: String) -> LogicalAlarm? {
        let (index, found) = searchSortedByID(id)
        return found ? self[index] : nil
    }

    /// Puts `definition` in place of the one with its ID, or inserts it where the order wants it:
    /// the array `removeAll { $0.id == definition.id }`, `append(definition)` and a sort by ID give.
    /// - Returns: the definition replaced, nil when none had the ID.
    @discardableResult
    mutating func upsertSortedByID(_ definition: LogicalAlarm) -> LogicalAlarm? {
        let (index, found) = searchSortedByID(definition.id)
        guard found else {
            insert(definition, at: index)
            return nil
        }
        let replaced = self[index]
        self[index] = definition
        return replaced
    }
}

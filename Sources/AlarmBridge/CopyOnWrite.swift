/// A value kept in one shared box, copied only when changed while shared (issue 20): copying a
/// `CopyOnWrite` retains one object, however many fields the value has. The bridge's document
/// and both platform models keep their fields so, because the simulator copies them on every
/// event (the state before a step, the checks' views) and a copy of a struct of many arrays and
/// strings retained each of them. Value semantics are unchanged: a change never shows through
/// another copy.
public struct CopyOnWrite<Value: Sendable>: @unchecked Sendable {  // the box is never changed while shared
    @usableFromInline
    final class Box {
        /// Unchecked at run time (the check was a few per cent of a run): every access comes
        /// through ``CopyOnWrite/value``, whose overlaps Swift rules out for the owning value, and a
        /// shared box is only read (``CopyOnWrite/value``'s `_modify` copies it first).
        @usableFromInline @exclusivity(unchecked) var value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }

    @usableFromInline var box: Box

    @inlinable public init(_ value: Value) { box = Box(value) }

    /// The value, read in place; a change first copies a box another copy still shares.
    @inlinable public var value: Value {
        _read { yield box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }

    /// True when `other` shares this box: the two values are equal without comparing them.
    @inlinable public func sharesStorage(with other: CopyOnWrite) -> Bool { box === other.box }
}

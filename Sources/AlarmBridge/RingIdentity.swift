/// Deterministic ring identities.
///
/// A primary's ID is UUIDv5 (RFC 4122 §4.3) of the project namespace and the name
/// `"<root id>|<fire key>|primary"`: a pure function of the root's stable identity and its fire
/// time truncated to the minute. Title, sound, snooze, countdown and lead time are *not* inputs.
/// - Rule: ID-2, ID-3, ID-4, SCH-1.
public enum RingIdentity {
    /// The namespace of every alarmsim ring ID: UUIDv5(url namespace, "https://alarmsim.invalid/ring").
    public static let namespace = AlarmUUID.v5(namespace: AlarmUUID.urlNamespace, name: "https://alarmsim.invalid/ring")

    /// The primary ring ID of `rootID` at `fireKey`.
    /// - Parameter extraIdentity: only for the `title-in-ring-id` known defect, which reintroduces
    ///   seed 003's bug of hashing a non-identity attribute; nil in correct code.
    public static func primaryID(rootID: String, fireKey: FireKey, extraIdentity: String? = nil) -> AlarmUUID {
        primaryMemo.value(for: PrimaryKey(rootID: ExactText(rootID), fireKey: fireKey, extraIdentity: extraIdentity.map(ExactText.init))) {
            var name = "\(rootID)|\(fireKey)|primary"
            if let extraIdentity { name += "|\(extraIdentity)" }
            return AlarmUUID.v5(namespace: namespace, name: name)
        }
    }

    /// The strings as the UUIDv5 name holds them: byte for byte (``ExactText``).
    private struct PrimaryKey: MixedHashKey, Sendable {
        var rootID: ExactText
        var fireKey: FireKey
        var extraIdentity: ExactText?

        /// Each field's bits mixed in turn (``ExactText/mix(_:)``); equal keys hash equal.
        func mixedHash(seed: UInt64) -> UInt64 {
            var hash = ExactText.bytesHash(rootID.text, seed: seed)
            switch fireKey {
            case .localTime(let hour, let minute): hash = ExactText.mix(hash ^ UInt64(truncatingIfNeeded: hour << 8 | minute))
            case .wallMinute(let minute): hash = ExactText.mix(hash ^ ~UInt64(bitPattern: minute))
            }
            guard let extraIdentity else { return hash }
            return ExactText.mix(hash ^ ExactText.bytesHash(extraIdentity.text, seed: seed))
        }
    }

    /// Primary IDs by their inputs (issue 20): every reconcile derives each root's ID again, and
    /// building the UUIDv5 name (with `FireKey`'s description) cost more than the lookup.
    private static let primaryMemo = BoundedMemo<PrimaryKey, AlarmUUID>(capacity: 16_384)

    /// The next-occurrence seed ID of `rootID` at a concrete fire minute (REC-5): distinct from
    /// the primary ID of the same occurrence, so rolling a seed into the primary (REC-6) never
    /// leaves two rings of one kind under one ID; deterministic (ID-2 style, minute-truncated).
    public static func seedID(rootID: String, wallMinute: Int64) -> AlarmUUID {
        AlarmUUID.v5(namespace: namespace, name: "\(rootID)|minute-\(wallMinute)|seed")
    }

    /// A successor ring ID: unique per (occurrence token, serial). Not a primary, so not bound by ID-2;
    /// deterministic so that traces replay byte for byte.
    public static func successorID(token: String, serial: UInt64) -> AlarmUUID {
        AlarmUUID.v5(namespace: namespace, name: "\(token)|successor|\(serial)")
    }

    /// A fresh occurrence token: never reused, because `serial` is persisted and only grows (ID-7).
    public static func occurrenceToken(rootID: String, startedAtMs: Int64, serial: UInt64) -> String {
        AlarmUUID.v5(namespace: namespace, name: "\(rootID)|\(startedAtMs)|token|\(serial)").description
    }

    /// The Android request code of a ring: a stable 31-bit value derived from its UUID.
    public static func requestCode(of id: AlarmUUID) -> Int32 {
        let value = (UInt32(id.byte(0)) << 24 | UInt32(id.byte(1)) << 16 | UInt32(id.byte(2)) << 8 | UInt32(id.byte(3))) & 0x7fff_ffff
        return Int32(value)
    }
}

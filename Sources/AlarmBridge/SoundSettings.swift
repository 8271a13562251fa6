/// Per-root sound settings and the pure sound-choice rule of the bridge (SND-1..4, SND-8).
///
/// Source: seed 000, "Alarm Sound Order". Sounds are file names in the app bundle (AlarmKit
/// `AlertConfiguration.AlertSound.named`; on Android the ringing service's track). The system
/// default alarm sound is the reserved name ``SoundSettings/systemDefaultSoundName``; a ring whose
/// chosen sound is the system default carries `soundName == nil` in its request.
public struct SoundSettings: Codable, Sendable, Equatable {
    /// How a ring's sound is picked (SND-2, SND-3).
    public enum PlaybackMode: String, Codable, Sendable, Equatable {
        /// SND-2: the first audible ring of an occurrence draws from the lowest group, each later
        /// audible ring moves one group up, then rolls within the highest group.
        case progressive
        /// SND-3: every distinct ring draws from the whole pool.
        case random
    }

    /// SND-4: the system default sound; JS places it in the Momentum group.
    public static let systemDefaultSoundName = "system-default"
    /// The name of the category group that holds the system default (SND-4, SND-10).
    public static let momentumGroupName = "momentum"

    /// SND-1: the flat pool of sounds.
    public var pool: [String]
    /// SND-1: the user's chosen category groups, lowest first; nil in records that predate groups (SND-8).
    public var groups: [[String]]?
    /// SND-1: the playback mode; nil in records that predate modes (SND-8).
    public var mode: PlaybackMode?

    public init(pool: [String], groups: [[String]]? = nil, mode: PlaybackMode? = nil) {
        self.pool = pool
        self.groups = groups
        self.mode = mode
    }

    /// SND-8: a record without a mode reads as progressive.
    public var effectiveMode: PlaybackMode { mode ?? .progressive }

    /// SND-8: a record without groups (or with only empty ones) reads as one flat group: the pool.
    public var effectiveGroups: [[String]] {
        // The usual record (groups, none empty) as it is, without building a filtered copy.
        if let groups = ownGroups { return groups }
        let chosen = (groups ?? []).filter { !$0.isEmpty }
        if !chosen.isEmpty { return chosen }
        return pool.isEmpty ? [] : [pool]
    }

    /// Every sound a ring may play: the pool plus every group member.
    public var allSounds: [String] {
        var names = pool
        for group in effectiveGroups { for name in group where !names.contains(name) { names.append(name) } }
        return names
    }

    /// The index of the first group holding `name`, nil when none does.
    public func groupIndex(of name: String) -> Int? {
        if let groups = ownGroups { return groups.firstIndex { $0.contains(name) } }
        if onlyPoolGroup { return pool.contains(name) ? 0 : nil }
        return effectiveGroups.firstIndex { $0.contains(name) }
    }

    /// `groups` when ``effectiveGroups`` is exactly them (some, none empty); nil otherwise.
    private var ownGroups: [[String]]? {
        guard let groups, !groups.isEmpty, !groups.contains(where: { $0.isEmpty }) else { return nil }
        return groups
    }

    /// True when ``effectiveGroups`` is the pool alone or nothing (SND-8: no group holds a sound):
    /// the choice reads the pool itself, without building `[pool]` (issue 20: every plan draws
    /// each primary's sound).
    private var onlyPoolGroup: Bool {
        (groups ?? []).allSatisfy { $0.isEmpty }
    }

    /// True when `choose(position:salt:)` may pick `name` for a ring at `position`: in progressive
    /// mode a member of that position's group, in random mode a member of the drawn set (SND-2,
    /// SND-3).
    public func mayPlay(_ name: String, atPosition position: Int) -> Bool {
        precondition(position >= 0, "sequence position is a count")
        switch effectiveMode {
        case .progressive:
            let groups = effectiveGroups
            return !groups.isEmpty && groups[min(position, groups.count - 1)].contains(name)
        case .random:
            return (pool.isEmpty ? allSounds : pool).contains(name)
        }
    }

    /// The sound for one distinct ring.
    /// - Parameters:
    ///   - position: the occurrence's sequence position: how many distinct audible rings it has
    ///     had before this one (SND-2, SND-7).
    ///   - salt: the ring's identity; the "random" draw is a pure function of it, so the same ring
    ///     always gets the same sound (SND-6) and runs replay byte for byte.
    /// - Returns: the chosen sound name and its group index (nil in random mode for a sound outside
    ///   every group), or nil when the settings hold no sound (the system default plays).
    /// - Rule: SND-2, SND-3, SND-4, SND-8.
    public func choose(position: Int, salt: String) -> (name: String, group: Int?)? {
        choose(position: position) { Self.draw(salt, below: $0) }
    }

    /// ``choose(position:salt:)`` with the ring's ID as the salt (its `description`), drawn
    /// without formatting the ID (issue 20: remembered by the ID itself).
    public func choose(position: Int, saltID: AlarmUUID) -> (name: String, group: Int?)? {
        choose(position: position) { Self.draw(id: saltID, below: $0) }
    }

    private func choose(position: Int, draw: (Int) -> Int) -> (name: String, group: Int?)? {
        precondition(position >= 0, "sequence position is a count")
        switch effectiveMode {
        case .progressive:
            let own = ownGroups
            if own == nil && onlyPoolGroup {  // the one group is the pool, if it holds any sound
                return pool.isEmpty ? nil : (pool[draw(pool.count)], 0)
            }
            let groups = own ?? effectiveGroups
            guard !groups.isEmpty else { return nil }
            let group = min(position, groups.count - 1)  // SND-2: then roll within the highest
            let members = groups[group]
            return (members[draw(members.count)], group)
        case .random:
            let names = pool.isEmpty ? allSounds : pool  // SND-3: the whole pool
            guard !names.isEmpty else { return nil }
            let name = names[draw(names.count)]
            return (name, groupIndex(of: name))
        }
    }

    /// A deterministic draw in `0..<bound` from a SHA-1 of `salt` (no PRNG in the core: the
    /// bridge is a pure function of its inputs).
    static func draw(_ salt: String, below bound: Int) -> Int {
        precondition(bound > 0, "draw from an empty set")
        return Int(rawDraw(salt) % UInt64(bound))
    }

    /// The first 32 bits of `salt`'s SHA-1.
    static func rawDraw(_ salt: String) -> UInt64 {
        drawMemo.value(for: ExactText(salt)) {
            let digest = SHA1.digest(Array(salt.utf8))
            return UInt64(digest[0]) << 24 | UInt64(digest[1]) << 16 | UInt64(digest[2]) << 8 | UInt64(digest[3])
        }
    }

    /// The first 32 bits of each salt's SHA-1, remembered (issue 20: sound draws repeat every reconcile).
    private static let drawMemo = BoundedMemo<ExactText, UInt64>(capacity: 16_384)  // SHA-1 reads the bytes

    /// ``draw(_:below:)`` of `id.description`, remembered by the ID.
    static func draw(id: AlarmUUID, below bound: Int) -> Int {
        precondition(bound > 0, "draw from an empty set")
        let value = drawByIDMemo.value(for: id) { rawDraw(id.description) }
        return Int(value % UInt64(bound))
    }

    private static let drawByIDMemo = BoundedMemo<AlarmUUID, UInt64>(capacity: 16_384)
}

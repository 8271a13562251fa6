import AlarmBridge
import SimKernel

/// Per-alarm sound settings of a generated seed (SND-1, SND-4, SND-8).
extension SeedGenerator {
    /// The sound names the simulated app bundle ships.
    static let bundledSounds = (1...12).map { "sound-\($0)" }

    /// One alarm's settings: a quarter without custom sounds, a quarter legacy records (a pool
    /// with neither mode nor groups: progressive with one flat group, SND-8), a quarter
    /// progressive with 2–4 disjoint groups, a quarter random. When the last group is Momentum,
    /// JS places the system default in it half of the time (SND-4).
    static func soundSettings(_ rng: inout Xoshiro256StarStar) -> SoundSettings? {
        let kind = rng.uniform(below: 4)
        guard kind > 0 else { return nil }
        var names = bundledSounds
        var groups: [[String]] = []
        for _ in 0..<Int(rng.int(in: 2...4)) {
            var group: [String] = []
            for _ in 0..<Int(rng.int(in: 1...3)) where !names.isEmpty {
                group.append(names.remove(at: Int(rng.uniform(below: UInt64(names.count)))))
            }
            groups.append(group)
        }
        if rng.chance(Ratio(1, 2)) { groups[groups.count - 1].append(SoundSettings.systemDefaultSoundName) }  // SND-4
        let pool = groups.flatMap { $0 }
        switch kind {
        case 1: return SoundSettings(pool: pool)  // legacy record (SND-8)
        case 2: return SoundSettings(pool: pool, groups: groups, mode: .progressive)
        default: return SoundSettings(pool: pool, groups: groups, mode: .random)
        }
    }

    /// One line for the run's parameters, e.g. `progressive a,b|c`.
    static func describe(_ settings: SoundSettings?) -> String {
        guard let settings else { return "none" }
        let mode = settings.mode?.rawValue ?? "legacy"
        let groups = settings.groups ?? [settings.pool]
        return mode + " " + groups.map { $0.joined(separator: ",") }.joined(separator: "|")
    }
}

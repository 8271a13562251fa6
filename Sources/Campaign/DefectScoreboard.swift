import AlarmBridge
import Simulation

/// What `alarmsim defects` runs: one campaign per (known defect, platform it applies to, fault
/// profile), each stopping at its first failing seed.
public struct ScoreboardOptions: Sendable, Equatable {
    /// Platforms to score, in order; a defect is scored on each of these it applies to.
    public var platforms: [PlatformFlavor]
    /// The budget: seeds tried in ascending order until the first failure.
    public var seeds: ClosedRange<UInt64>
    /// The defects to score (every known defect by default), in `KnownDefect` order.
    public var defects: [KnownDefect]
    /// Fault profiles compared side by side; the first is the one whose failing seed is shrunk.
    public var profiles: [FaultProfileName]
    /// Stop a defect's hunt at the first platform (in `platforms` order) where the first profile
    /// found it; the other platforms get no row. For quick checks (the CI test); the report
    /// hunts every platform.
    public var firstPlatformOnly = false

    public init(platforms: [PlatformFlavor] = [.ios, .android], seeds: ClosedRange<UInt64> = 1...2_000,
                defects: [KnownDefect] = KnownDefect.listed, profiles: [FaultProfileName] = [.swarm]) {
        precondition(!platforms.isEmpty && !profiles.isEmpty, "ScoreboardOptions: a platform and a profile are needed")
        self.platforms = platforms
        self.seeds = seeds
        self.defects = Array(Set(defects)).sorted()
        self.profiles = profiles
    }

    /// Budget size: how many seeds one campaign may run.
    public var seedCount: UInt64 { seeds.upperBound - seeds.lowerBound + 1 }
}

/// A fault profile, by name (`swarm`, `uniform`, `none`), as the scoreboard prints it.
public typealias FaultProfileName = FaultProfile

/// The outcome of one defect's campaign under one profile.
public struct DefectHunt: Sendable, Equatable {
    public var profile: FaultProfileName
    /// The first seed of the budget whose run broke an invariant; nil when none did.
    public var firstFailingSeed: UInt64?
    /// Seeds run, the failing one included (the whole budget when nothing failed).
    public var seedsRun: Int
    /// The first failing run's first violation.
    public var violation: Violation?
    /// Whether running the failing seed again gave the same violation and the same trace hash.
    public var replays: Bool
    /// Wall-clock time of this hunt, ms (from the caller's clock; never reaches a run).
    public var wallMs: Int64

    /// Seeds to detect: `seedsRun` when found, nil otherwise.
    public var seedsToDetect: Int? { firstFailingSeed == nil ? nil : seedsRun }
}

/// A shrunk failing run, as the scoreboard reports it.
public struct ShrinkSize: Sendable, Equatable {
    public var eventsBefore: Int
    public var eventsAfter: Int
    /// Where the scenario was written (nil when it was not written).
    public var path: String?
    /// Whether the shrunk scenario, run again, breaks the same invariant.
    public var replaysSameInvariant: Bool

    public init(eventsBefore: Int, eventsAfter: Int, path: String?, replaysSameInvariant: Bool) {
        self.eventsBefore = eventsBefore
        self.eventsAfter = eventsAfter
        self.path = path
        self.replaysSameInvariant = replaysSameInvariant
    }
}

/// One row of the scoreboard: a defect on one platform, hunted under every requested profile.
public struct ScoreboardRow: Sendable, Equatable {
    public var defect: KnownDefect
    public var platform: PlatformFlavor
    /// One per requested profile, in `ScoreboardOptions.profiles` order.
    public var hunts: [DefectHunt]
    /// The first profile's failing seed, shrunk (nil when not found or shrinking is off).
    public var shrunk: ShrinkSize?

    /// The first profile's hunt (the one the row is judged by).
    public var primary: DefectHunt { hunts[0] }
}

/// Every row of one `alarmsim defects` run.
public struct Scoreboard: Sendable, Equatable {
    public var options: ScoreboardOptions
    public var rows: [ScoreboardRow]

    /// The scored defects, in row order.
    public var defects: [KnownDefect] {
        rows.map(\.defect).reduce(into: []) { if $0.last != $1 { $0.append($1) } }
    }

    /// A defect's seeds to detect under `profile`: the fewest over its platforms' rows; nil when
    /// no platform found it within the budget. A defect is found when any platform finds it.
    public func seedsToDetect(_ defect: KnownDefect, _ profile: FaultProfileName) -> Int? {
        rows.filter { $0.defect == defect }.compactMap { row in row.hunts.first { $0.profile == profile }?.seedsToDetect }.min()
    }

    /// Defects `profile` found on at least one platform within the budget.
    public func foundCount(_ profile: FaultProfileName) -> Int {
        defects.filter { seedsToDetect($0, profile) != nil }.count
    }

    /// The median seeds-to-detect under `profile`, over every defect (a defect not found counts
    /// as one more than the budget, so a miss can only raise the median). The lower median for an
    /// even count; nil with no rows.
    public func medianSeedsToDetect(_ profile: FaultProfileName) -> Int? {
        let values = defects.map { seedsToDetect($0, profile) ?? Int(options.seedCount) + 1 }.sorted()
        guard !values.isEmpty else { return nil }
        return values[(values.count - 1) / 2]
    }

    /// True when the first profile found every defect on at least one platform it applies to.
    public var everyDefectFound: Bool {
        defects.allSatisfy { seedsToDetect($0, options.profiles[0]) != nil }
    }
}

/// The known-defect scoreboard: proof that the invariants have teeth, and a measurement of how
/// fast each fault profile finds each field bug (issue 7; FoundationDB and TigerBeetle measure
/// their swarm the same way: seeds to first failure per injected bug).
public enum DefectScoreboard {
    /// Hunts every requested defect on every platform it applies to, under every profile.
    ///
    /// - Parameter options: What to score.
    /// - Parameter elapsedMs: The caller's wall clock, ms, for the wall-time column only.
    /// - Parameter shrink: Shrinks the first profile's failing seed; nil leaves the column empty.
    /// - Parameter progress: Called after each finished row.
    /// - Returns: One row per (defect, applicable platform), defects in `KnownDefect` order, then
    ///   platforms in `options.platforms` order. Apart from the wall times, a pure function of
    ///   `options`.
    public static func run(
        _ options: ScoreboardOptions, elapsedMs: () -> Int64,
        shrink: ((PlatformFlavor, UInt64, KnownDefect, FaultProfileName) -> ShrinkSize?)? = nil,
        progress: (ScoreboardRow) -> Void = { _ in }
    ) -> Scoreboard {
        var rows: [ScoreboardRow] = []
        for defect in options.defects {
            for platform in options.platforms where defect.platforms.contains(platform) {
                var hunts: [DefectHunt] = []
                for profile in options.profiles {
                    hunts.append(hunt(defect, on: platform, profile: profile, seeds: options.seeds, elapsedMs: elapsedMs))
                }
                var row = ScoreboardRow(defect: defect, platform: platform, hunts: hunts, shrunk: nil)
                if let shrink, let seed = row.primary.firstFailingSeed {
                    row.shrunk = shrink(platform, seed, defect, row.primary.profile)
                }
                progress(row)
                rows.append(row)
                if options.firstPlatformOnly && row.primary.firstFailingSeed != nil { break }
            }
        }
        return Scoreboard(options: options, rows: rows)
    }

    /// Runs `seeds` in ascending order with `defect` on until the first violation that the correct
    /// bridge does not also give on that seed, then runs the failing seed again to check that it
    /// replays (same violation, same trace hash).
    public static func hunt(_ defect: KnownDefect, on platform: PlatformFlavor, profile: FaultProfileName,
                            seeds: ClosedRange<UInt64>, elapsedMs: () -> Int64) -> DefectHunt {
        // determinism-ok: wall-clock timing of the hunt, never reaches a run
        let startMs = elapsedMs()
        var seedsRun = 0
        for seed in seeds {
            seedsRun += 1
            let options = runOptions(platform: platform, seed: seed, defect: defect, profile: profile)
            let result = Simulator.run(options)
            guard let violation = result.firstViolation else { continue }
            // Teeth: the seed counts only when the correct bridge does not fail it the same way
            // (a clean-bridge failure is a finding of its own, not this defect's detection).
            var clean = options
            clean.defects = []
            if let cleanViolation = Simulator.run(clean).firstViolation,
               cleanViolation.invariant == violation.invariant && cleanViolation.message == violation.message { continue }
            let replay = Simulator.run(options)
            let replays = replay.firstViolation == violation && replay.traceHashHex == result.traceHashHex
            // determinism-ok: wall-clock timing of the hunt, never reaches a run
            return DefectHunt(profile: profile, firstFailingSeed: seed, seedsRun: seedsRun, violation: violation,
                              replays: replays, wallMs: max(elapsedMs() - startMs, 0))
        }
        // determinism-ok: wall-clock timing of the hunt, never reaches a run
        return DefectHunt(profile: profile, firstFailingSeed: nil, seedsRun: seedsRun, violation: nil,
                          replays: false, wallMs: max(elapsedMs() - startMs, 0))
    }

    /// The run options of one hunted seed.
    public static func runOptions(platform: PlatformFlavor, seed: UInt64, defect: KnownDefect,
                                  profile: FaultProfileName) -> RunOptions {
        var options = RunOptions(platform: platform, seed: seed, defects: [defect])
        options.faults = FaultSelection(profile: profile, forcedOn: defect.huntFaults)
        return options
    }
}

import AlarmBridge
import Simulation

/// What a fuzz campaign runs: every seed of a range on each platform, with known defects on.
public struct FuzzOptions: Sendable, Equatable {
    /// Platforms in the order they run (the CLI uses ios, then android).
    public var platforms: [PlatformFlavor]
    /// Root seeds, each a whole random world; run in ascending order.
    public var seeds: ClosedRange<UInt64>
    /// Known defects the user switched on. Each platform runs only the ones that apply to it
    /// (``KnownDefect/platforms``); see ``Campaign/applicableDefects(_:on:)``.
    public var defects: [KnownDefect]
    /// The fault profile and forced kinds every seed is drawn with (`--profile`, `--faults`).
    public var faults: FaultSelection
    /// Run each seed's liveness phase (issue 7); false with `--no-liveness`.
    public var liveness: Bool
    /// The part of `seeds` this campaign runs (`--shard i/n`); nil for the whole range.
    public var shard: CampaignShard?
    /// A wall-clock budget in seconds for the whole campaign (`--seconds S`), shared equally by
    /// the platforms; nil to run every seed. Applied by the CLI, which stops handing out seeds
    /// when a platform's share is spent; ``Campaign/fuzz(_:progress:)`` ignores it.
    public var budgetSeconds: Int?
    /// The bridge under test (issue 19): the built-in ``BridgeCore`` unless a caller names another.
    public var bridge: BridgeFactory = .builtIn

    /// - Parameter platforms: Must not be empty and must not repeat a platform.
    /// - Parameter defects: Sorted and de-duplicated here, so the order the user named them in
    ///   never reaches a run or a report.
    public init(platforms: [PlatformFlavor], seeds: ClosedRange<UInt64>, defects: [KnownDefect] = [],
                faults: FaultSelection = .swarm, liveness: Bool = true, shard: CampaignShard? = nil,
                budgetSeconds: Int? = nil) {
        self.liveness = liveness
        self.shard = shard
        self.budgetSeconds = budgetSeconds
        precondition(!platforms.isEmpty, "FuzzOptions: at least one platform is needed")
        precondition(Set(platforms.map(\.rawValue)).count == platforms.count,
                     "FuzzOptions: platform listed twice in \(platforms.map(\.rawValue))")
        self.platforms = platforms
        self.seeds = seeds
        self.defects = Array(Set(defects)).sorted()
        self.faults = faults
    }

    /// How many seeds one platform runs.
    public var seedCount: UInt64 { seeds.upperBound - seeds.lowerBound + 1 }

    /// The seeds each platform runs: the shard's block of `seeds`, or all of `seeds`; nil when
    /// the shard's block is empty (fewer seeds than shards).
    public var runRange: ClosedRange<UInt64>? {
        guard let shard else { return seeds }
        return shard.block(of: seeds)
    }
}

/// One seed whose run broke an invariant, with the command line that replays it.
public struct FailingSeed: Sendable, Equatable {
    public var platform: PlatformFlavor
    public var seed: UInt64
    /// The run's first violation (a run stops at its first one).
    public var violation: Violation
    /// `alarmsim replay --platform … --seed … [--defect …]… [--profile …] [--faults …]`, exactly
    /// as a shell takes it.
    public var repro: String
    /// For the pseudo-invariant `crash`: how the worker died (`SIGILL`, `SIGSEGV`, `exit 3`, …).
    public var signal: String?

    public init(platform: PlatformFlavor, seed: UInt64, violation: Violation, repro: String, signal: String? = nil) {
        self.signal = signal
        self.platform = platform
        self.seed = seed
        self.violation = violation
        self.repro = repro
    }
}

/// Totals of one platform's part of a campaign. Integers only: reports never print floats.
public struct PlatformTally: Sendable, Equatable {
    public var platform: PlatformFlavor
    /// The defects this platform actually ran with (the requested ones that apply to it).
    public var defects: [KnownDefect]
    /// Seeds run.
    public var seeds: Int
    /// Seeds that found a violation.
    public var failures: Int
    /// Trace events over all seeds.
    public var events: Int
    /// Exempted gaps summed over all seeds by exemption name, sorted by name; values are
    /// decimal integers.
    public var exemptions: [RunParameter]
    /// Reachability coverage summed over all seeds (CoverageMarks.swift).
    public var coverage: CoverageTally
    /// The seeds that actually ran, as ascending, disjoint, non-adjacent ranges: one range for
    /// a plain campaign, a prefix of it for a time-budgeted or interrupted one, several for a
    /// merge of time-budgeted shards. Empty when no seed ran.
    public var seedsRun: [ClosedRange<UInt64>] = []

    public init(platform: PlatformFlavor, defects: [KnownDefect] = [], seeds: Int = 0, failures: Int = 0,
                events: Int = 0, exemptions: [RunParameter] = [], coverage: CoverageTally = CoverageTally()) {
        self.platform = platform
        self.defects = defects
        self.seeds = seeds
        self.failures = failures
        self.events = events
        self.exemptions = exemptions
        self.coverage = coverage
    }
}

/// One platform's reachability coverage over a campaign: per mark, the hits summed over all
/// seeds and the number of seeds that reached it at least once. Arrays indexed by
/// ``CoverageMark/rawValue``, so no hash order can reach a report.
public struct CoverageTally: Sendable, Equatable {
    /// Hits per mark, summed over seeds.
    public private(set) var hits: [Int]
    /// Seeds that hit each mark at least once.
    public private(set) var seedsReaching: [Int]

    public init() {
        hits = Array(repeating: 0, count: CoverageMark.allCases.count)
        seedsReaching = hits
    }

    /// Adds one run's counts.
    /// - Complexity: O(number of marks).
    public mutating func add(_ run: CoverageCounts) {
        precondition(run.hits.count == hits.count, "CoverageTally.add: \(run.hits.count) marks, expected \(hits.count)")
        for index in hits.indices where run.hits[index] > 0 {
            hits[index] += run.hits[index]
            seedsReaching[index] += 1
        }
    }

    /// Adds one run's hits, indexed by ``CoverageMark/rawValue``.
    /// - Complexity: O(number of marks).
    public mutating func add(hits run: [Int]) {
        precondition(run.count == hits.count, "CoverageTally.add: \(run.count) marks, expected \(hits.count)")
        for index in hits.indices where run[index] > 0 {
            hits[index] += run[index]
            seedsReaching[index] += 1
        }
    }

    /// Adds another campaign's tally (merging shards).
    public mutating func add(_ other: CoverageTally) {
        for index in hits.indices {
            hits[index] += other.hits[index]
            seedsReaching[index] += other.seedsReaching[index]
        }
    }

    /// A tally from stored counts (a summary file), both indexed by ``CoverageMark/rawValue``.
    public init(hits: [Int], seedsReaching: [Int]) {
        precondition(hits.count == CoverageMark.allCases.count && seedsReaching.count == hits.count,
                     "CoverageTally: \(hits.count) and \(seedsReaching.count) counts, expected \(CoverageMark.allCases.count)")
        self.hits = hits
        self.seedsReaching = seedsReaching
    }

    /// The hits of one mark.
    public func hits(_ mark: CoverageMark) -> Int { hits[mark.rawValue] }

    /// The number of seeds that reached one mark.
    public func seedsReaching(_ mark: CoverageMark) -> Int { seedsReaching[mark.rawValue] }
}

/// The outcome of a campaign.
public struct FuzzSummary: Sendable, Equatable {
    public var options: FuzzOptions
    /// One per platform, in the order of `options.platforms`.
    public var tallies: [PlatformTally]
    /// Ordered by platform (in the order of `options.platforms`), then by seed.
    public var failing: [FailingSeed]
    /// True when the campaign was stopped (SIGINT or SIGTERM) before every seed ran; `seedsRun` of each
    /// tally says which did.
    public var interrupted: Bool
    /// The known failures replayed before the seed range (``KnownFailureFile``); nil when the
    /// campaign read no known-failures file, and then every report is what it was before.
    public var known: KnownReplay?

    public init(options: FuzzOptions, tallies: [PlatformTally], failing: [FailingSeed], interrupted: Bool = false,
                known: KnownReplay? = nil) {
        self.interrupted = interrupted
        self.options = options
        self.tallies = tallies
        self.failing = failing
        self.known = known
    }

    /// The number printed as `violations: N`: failing seeds, one violation each, plus the known
    /// failures that still fail and are not among those seeds already (a known seed inside the
    /// range with the campaign's options fails there too, and counts once).
    public var violationCount: Int { failing.count + knownStillFailingOutsideRange.count }

    /// The still-failing known failures whose repro line no failing seed of the range has.
    public var knownStillFailingOutsideRange: [FailingSeed] {
        let repros = failing.map(\.repro)
        return (known?.stillFailing ?? []).filter { !repros.contains($0.repro) }
    }
}

/// Where a campaign is, reported after each platform starts and after each seed.
public struct FuzzProgress: Sendable, Equatable {
    public var platform: PlatformFlavor
    /// Seeds finished on this platform, 0 when the platform starts.
    public var seedsDone: Int
    /// Seeds this platform runs.
    public var seedsTotal: Int
    /// Failing seeds found so far on this platform.
    public var failing: Int

    public init(platform: PlatformFlavor, seedsDone: Int, seedsTotal: Int, failing: Int) {
        self.platform = platform
        self.seedsDone = seedsDone
        self.seedsTotal = seedsTotal
        self.failing = failing
    }

    /// True for the report sent when the platform's last seed finished.
    public var isPlatformFinished: Bool { seedsDone == seedsTotal }
}

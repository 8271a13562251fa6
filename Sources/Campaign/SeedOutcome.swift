import AlarmBridge
import Simulation

/// What one seed's run contributes to a campaign: everything the tally needs and nothing more
/// (no trace). It is the line a worker subprocess sends back for each seed (`alarmsim worker`),
/// and the in-process path builds the same value, so both paths fold identical outcomes.
public struct SeedOutcome: Sendable, Equatable, Codable {
    public var platform: PlatformFlavor
    public var seed: UInt64
    /// Trace events the run processed.
    public var events: Int
    /// Exempted gaps by exemption name, sorted by name; values are decimal counts.
    public var exemptions: [RunParameter]
    /// Hits per reachability mark, indexed by ``CoverageMark/rawValue``.
    public var coverageHits: [Int]
    /// The run's first violation; for a crash, the pseudo-invariant `crash`.
    public var violation: Violation?
    /// The signal that killed the worker running this seed (`SIGILL`, `SIGSEGV`, …), or
    /// `exit N` for a worker that exited on its own; nil for a seed that finished.
    public var signal: String?

    public init(platform: PlatformFlavor, seed: UInt64, events: Int, exemptions: [RunParameter], coverageHits: [Int],
                violation: Violation?, signal: String? = nil) {
        self.platform = platform
        self.seed = seed
        self.events = events
        self.exemptions = exemptions
        self.coverageHits = coverageHits
        self.violation = violation
        self.signal = signal
    }

    /// The outcome of a seed whose worker died while running it: no events, no coverage, and the
    /// pseudo-invariant ``Campaign/crashInvariant`` carrying the signal.
    /// - Parameter signal: `SIGILL`, `SIGTRAP`, `SIGSEGV`, `SIGABRT`, … or `exit N`.
    public static func crash(platform: PlatformFlavor, seed: UInt64, signal: String) -> SeedOutcome {
        let violation = Violation(invariant: Campaign.crashInvariant, rules: [],
                                  message: "the worker running this seed died (\(signal)); the repro line replays it and shows the trap's message",
                                  trueMs: 0, wallMs: 0, eventIndex: 0)
        return SeedOutcome(platform: platform, seed: seed, events: 0, exemptions: [],
                           coverageHits: Array(repeating: 0, count: CoverageMark.allCases.count),
                           violation: violation, signal: signal)
    }
}

/// A part of a sharded campaign: shard `index` (1-based) of `count`. Shards split the seed range
/// into `count` contiguous blocks (see ``block(of:)``).
public struct CampaignShard: Sendable, Equatable, Codable {
    /// 1…`count`.
    public var index: Int
    /// At least 1.
    public var count: Int

    /// The most shards a campaign may be split into.
    public static let countMax = 100_000

    public init(index: Int, count: Int) {
        precondition(count >= 1 && count <= Self.countMax && index >= 1 && index <= count,
                     "CampaignShard: \(index)/\(count) is not a shard (1 ≤ i ≤ n ≤ \(Self.countMax))")
        self.index = index
        self.count = count
    }

    /// This shard's contiguous block of `seeds`: the range is cut at
    /// `lower + ⌊size × k / count⌋` for k = 0…count, so blocks differ in size by at most one
    /// seed and their union, in shard order, is exactly `seeds`.
    ///
    /// Contiguous blocks rather than interleaving so that each shard's seeds are one range a
    /// human can re-run with `--seeds A..B`; seed cost does not depend on the seed's value, so
    /// blocks balance as well as interleaving would.
    /// - Returns: nil when the range has fewer seeds than shards and this block is empty.
    public func block(of seeds: ClosedRange<UInt64>) -> ClosedRange<UInt64>? {
        let size = seeds.upperBound - seeds.lowerBound + 1  // ≤ Campaign.seedCountMax, so × count fits
        // Offsets from the lower bound, so the exclusive end of a block ending at UInt64.max
        // never has to be formed (it overflowed: `--seeds 18446744073709551615 --shard 1/1`).
        let startOffset = size * UInt64(index - 1) / UInt64(count)
        let endOffset = size * UInt64(index) / UInt64(count)
        return startOffset < endOffset ? (seeds.lowerBound + startOffset)...(seeds.lowerBound + (endOffset - 1)) : nil
    }
}

/// Folds seed outcomes, in seed order per platform, into a ``FuzzSummary``. Both campaign paths
/// (in-process and worker subprocesses) feed it, so they produce the same summary.
public struct CampaignTally: Sendable {
    public let options: FuzzOptions
    private var tallies: [PlatformTally]
    private var exemptionTotals: [ExemptionTotals]
    private var failing: [[FailingSeed]]

    public init(options: FuzzOptions) {
        self.options = options
        tallies = options.platforms.map { PlatformTally(platform: $0, defects: Campaign.applicableDefects(options.defects, on: $0)) }
        exemptionTotals = Array(repeating: ExemptionTotals(), count: options.platforms.count)
        failing = Array(repeating: [], count: options.platforms.count)
    }

    /// The tally of `platform` so far.
    public func tally(_ platform: PlatformFlavor) -> PlatformTally {
        tallies[index(platform)]
    }

    /// The seed `platform` runs next: one after the last folded seed, or the first seed of its
    /// range.
    public func nextSeed(_ platform: PlatformFlavor) -> UInt64? {
        guard let last = tallies[index(platform)].seedsRun.last else { return options.runRange?.lowerBound }
        return last.upperBound == UInt64.max ? nil : last.upperBound + 1
    }

    /// Adds one seed's outcome.
    /// - Precondition: `outcome.seed` is the platform's ``nextSeed(_:)``: outcomes arrive in seed order.
    public mutating func add(_ outcome: SeedOutcome) {
        let index = index(outcome.platform)
        precondition(outcome.seed == nextSeed(outcome.platform),
                     "CampaignTally.add: \(outcome.platform.rawValue) seed \(outcome.seed) out of order")
        var tally = tallies[index]
        if let last = tally.seedsRun.last {
            tally.seedsRun[tally.seedsRun.count - 1] = last.lowerBound...outcome.seed
        } else {
            tally.seedsRun = [outcome.seed...outcome.seed]
        }
        tally.seeds += 1
        tally.events += outcome.events
        exemptionTotals[index].add(outcome.exemptions)
        tally.coverage.add(hits: outcome.coverageHits)
        if let violation = outcome.violation {
            tally.failures += 1
            failing[index].append(FailingSeed(
                platform: outcome.platform, seed: outcome.seed, violation: violation,
                repro: Campaign.reproLine(platform: outcome.platform, seed: outcome.seed, defects: tally.defects,
                                          faults: options.faults, liveness: options.liveness, bridge: options.bridge),
                signal: outcome.signal))
        }
        tallies[index] = tally
    }

    /// The summary of every seed added so far.
    /// - Parameter interrupted: Whether the campaign was stopped (SIGINT or SIGTERM) before its end.
    public func summary(interrupted: Bool = false) -> FuzzSummary {
        var finished = tallies
        for index in finished.indices {
            finished[index].exemptions = exemptionTotals[index].sorted
        }
        return FuzzSummary(options: options, tallies: finished, failing: failing.flatMap { $0 }, interrupted: interrupted)
    }

    private func index(_ platform: PlatformFlavor) -> Int {
        guard let index = options.platforms.firstIndex(of: platform) else {
            preconditionFailure("CampaignTally: \(platform.rawValue) is not a platform of this campaign")
        }
        return index
    }
}

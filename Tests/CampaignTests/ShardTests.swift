import AlarmBridge
import Campaign
import Simulation
import Testing

@Suite("Campaign shards and merge")
struct ShardTests {
    @Test("the shards of a range are contiguous, disjoint, differ in size by at most one seed, and their union is the range",
          arguments: [1, 2, 3, 4, 7, 10, 64])
    func shardsPartitionTheRange(_ count: Int) {
        for seeds: ClosedRange<UInt64> in [1...1, 1...5, 1...1000, 17...23, 0...(Campaign.seedCountMax - 1)] {
            let blocks = (1...count).compactMap { CampaignShard(index: $0, count: count).block(of: seeds) }
            #expect(blocks.first?.lowerBound == seeds.lowerBound)
            #expect(blocks.last?.upperBound == seeds.upperBound)
            for (earlier, later) in zip(blocks, blocks.dropFirst()) {
                #expect(earlier.upperBound + 1 == later.lowerBound, "blocks \(earlier) and \(later) of \(seeds) leave a gap or overlap")
            }
            let sizes = blocks.map { $0.upperBound - $0.lowerBound + 1 }
            #expect(sizes.reduce(0, +) == seeds.upperBound - seeds.lowerBound + 1)
            #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
            #expect(blocks.count == min(count, Int(min(seeds.upperBound - seeds.lowerBound + 1, UInt64(count)))))
        }
    }

    @Test("merging every shard's summary gives the unsharded campaign's summary")
    func mergeOfShardsIsTheWhole() throws {
        let whole = FuzzOptions(platforms: [.ios, .android], seeds: 1...5, defects: [.titleInRingID])
        let parts = (1...3).map { index -> (source: String, summary: FuzzSummary) in
            var options = whole
            options.shard = CampaignShard(index: index, count: 3)
            return ("shard-\(index)", Campaign.fuzz(options))
        }
        let expected = Campaign.fuzz(whole)
        #expect(!expected.failing.isEmpty, "the property needs failing seeds to order")
        #expect(try Campaign.merge(parts) == expected)
        #expect(try Campaign.merge(parts.reversed()) == expected, "the order of the files does not matter")
    }

    @Test("merge refuses overlapping seeds, different options and different splits, naming the files")
    func mergeErrors() {
        let options = FuzzOptions(platforms: [.ios], seeds: 1...2)
        var first = options
        first.shard = CampaignShard(index: 1, count: 2)
        let shard = Campaign.fuzz(first)
        #expect(throws: Campaign.MergeError.self) { try Campaign.merge([("a", shard), ("b", shard)]) }
        var otherRange = FuzzOptions(platforms: [.ios], seeds: 1...3)
        otherRange.shard = CampaignShard(index: 2, count: 2)
        do {
            _ = try Campaign.merge([("a.json", shard), ("b.json", Campaign.fuzz(otherRange))])
            Issue.record("different seed ranges merged")
        } catch {
            #expect(error.message.contains("a.json") && error.message.contains("b.json") && error.message.contains("seed ranges"))
        }
        var otherSplit = options
        otherSplit.shard = CampaignShard(index: 3, count: 3)
        #expect(throws: Campaign.MergeError.self) { try Campaign.merge([("a", shard), ("b", Campaign.fuzz(otherSplit))]) }
        #expect(throws: Campaign.MergeError.self) { try Campaign.merge([]) }
    }

    @Test("a tally folds outcomes in seed order: the seeds run are one range and every failure keeps its repro line")
    func tallyFoldsInOrder() {
        let options = FuzzOptions(platforms: [.android], seeds: 10...14, defects: [.testTrap])
        var tally = CampaignTally(options: options)
        for seed in options.seeds {
            tally.add(KnownDefect.testTrapFires(seed: seed)
                ? SeedOutcome.crash(platform: .android, seed: seed, signal: "SIGILL")
                : SeedOutcome(platform: .android, seed: seed, events: 5, exemptions: [RunParameter("force-stop", "1")],
                              coverageHits: Array(repeating: 0, count: CoverageMark.allCases.count), violation: nil))
        }
        let summary = tally.summary()
        #expect(summary.tallies[0].seedsRun == [10...14])
        #expect(summary.tallies[0].seeds == 5 && summary.tallies[0].events == 20)
        #expect(summary.tallies[0].exemptions == [RunParameter("force-stop", "4")])
        #expect(summary.failing.map(\.seed) == [13])
        #expect(summary.failing.first?.signal == "SIGILL")
        #expect(summary.failing.first?.violation.invariant == Campaign.crashInvariant)
        #expect(summary.failing.first?.repro == "alarmsim replay --platform android --seed 13 --defect test-trap")
    }

    @Test("shards of ranges that end at the largest seed cover them exactly, without overflow")
    func shardsReachTheLargestSeed() {
        let top = UInt64.max
        for seeds in [top...top, (top - 5)...top, (top - 1)...top] {
            for count in 1...4 {
                let blocks = (1...count).compactMap { CampaignShard(index: $0, count: count).block(of: seeds) }
                #expect(blocks.first?.lowerBound == seeds.lowerBound && blocks.last?.upperBound == top)
                #expect(blocks.reduce(UInt64(0)) { $0 + UInt64($1.count) } == UInt64(seeds.count))
                #expect(zip(blocks, blocks.dropFirst()).allSatisfy { $0.upperBound + 1 == $1.lowerBound })
            }
        }
    }

    @Test("the test-only trapping defect is not a listed defect")
    func testTrapIsHidden() {
        #expect(!KnownDefect.listed.contains(.testTrap))
        #expect(KnownDefect.listed.count == KnownDefect.allCases.count - 1)
        #expect(ScoreboardOptions().defects.allSatisfy { !$0.isTestOnly })
    }
}

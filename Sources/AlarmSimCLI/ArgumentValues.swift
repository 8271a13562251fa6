import AlarmBridge
import Foundation
import Reporting
import Campaign
import Simulation
import SimKernel

/// Parsers for option values; each error says what was wrong and what to write instead.
enum ArgumentValues {
    /// `ios` or `android`.
    static func platform(_ text: String) throws(UsageError) -> PlatformFlavor {
        guard let platform = PlatformFlavor(rawValue: text) else {
            let what = text == "both" ? "one seed runs on one platform"
                : "unknown platform '\(text)'\(Suggestion.hint(for: text, among: ["ios", "android"]))"
            throw UsageError("\(what); use --platform ios or --platform android")
        }
        return platform
    }

    /// `ios`, `android` or `both` (ios, then android); nil `text` means both.
    static func platforms(_ text: String?) throws(UsageError) -> [PlatformFlavor] {
        guard let text, text != "both" else { return [.ios, .android] }
        guard let platform = PlatformFlavor(rawValue: text) else {
            throw UsageError("unknown platform '\(text)'\(Suggestion.hint(for: text, among: ["ios", "android", "both"])); use --platform ios, android or both")
        }
        return [platform]
    }

    /// A root seed: a decimal integer 0…2^64−1.
    static func seed(_ text: String, option: String = "--seed") throws(UsageError) -> UInt64 {
        guard let seed = decimal(text) else {
            if let tooLarge = tooLargeText(text) { throw UsageError(tooLarge) }
            throw UsageError("'\(text)' is not a seed; \(option) takes a non-negative integer, e.g. \(option) 4711")
        }
        return seed
    }

    /// "'N' is not a seed: it is larger than the largest seed, …" for all-digit text past
    /// UInt64.max; nil for other text.
    static func tooLargeText(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return "'\(text)' is not a seed: it is larger than the largest seed, \(UInt64.max)"
    }

    /// `A..B` (inclusive, A ≤ B) or a single `N`.
    static func seedRange(_ text: String) throws(UsageError) -> ClosedRange<UInt64> {
        let hint = "write --seeds A..B with non-negative integers A ≤ B (e.g. --seeds 1..1000) or a single seed (--seeds 17)"
        let parts = text.split(separator: "..", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1:
            guard let seed = decimal(text) else {
                throw UsageError("invalid --seeds '\(text)': \(tooLargeText(text) ?? "'\(text)' is not a seed"); \(hint)")
            }
            return seed...seed
        case 2:
            for part in parts where decimal(part) == nil {
                let what = part.isEmpty ? "a bound is missing" : tooLargeText(part) ?? "'\(part)' is not a seed"
                throw UsageError("invalid --seeds '\(text)': \(what); \(hint)")
            }
            let first = decimal(parts[0])!, last = decimal(parts[1])!
            guard first <= last else {
                throw UsageError("invalid --seeds '\(text)': the range is empty because \(first) is greater than \(last); write the smaller seed first, e.g. --seeds \(last)..\(first)")
            }
            guard last - first < Campaign.seedCountMax else {
                throw UsageError("invalid --seeds '\(text)': more than \(Campaign.seedCountMax) seeds; split the campaign into smaller ranges")
            }
            return first...last
        default:
            throw UsageError("invalid --seeds '\(text)': \(hint)")
        }
    }

    /// True when the paths name one file: the same device and inode when both exist (hard and
    /// symbolic links included), else the same absolute path after resolving symbolic links.
    /// `-` (standard output) is no file.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        guard a != AtomicFile.standardOutputPath, b != AtomicFile.standardOutputPath else { return false }
        var statA = stat(), statB = stat()
        if stat(a, &statA) == 0, stat(b, &statB) == 0 {
            return statA.st_dev == statB.st_dev && statA.st_ino == statB.st_ino
        }
        func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        return resolved(a) == resolved(b)
    }

    /// A known defect's name, as `alarmsim list defects` prints it.
    static func defect(_ text: String) throws(UsageError) -> KnownDefect {
        guard let defect = KnownDefect(rawValue: text) else {
            let names = KnownDefect.listed.map(\.rawValue).joined(separator: ", ")
            throw UsageError("unknown defect '\(text)'\(Suggestion.hint(for: text, among: KnownDefect.listed.map { $0.rawValue })); the known defects are \(names) (see 'alarmsim list defects')")
        }
        return defect
    }

    static func defects(_ texts: [String]) throws(UsageError) -> [KnownDefect] {
        var defects: [KnownDefect] = []
        for text in texts {
            defects.append(try defect(text))
        }
        return Array(Set(defects)).sorted()
    }

    /// Rejects defects that do not exist on a platform the user named explicitly.
    static func checkDefects(_ defects: [KnownDefect], applyTo platform: PlatformFlavor) throws(UsageError) {
        guard let defect = Campaign.inapplicableDefects(defects, on: platform).first else { return }
        let platforms = defect.platforms.map(\.rawValue)
        throw UsageError("defect '\(defect.rawValue)' does not apply to \(platform.rawValue) (its code path exists only on \(platforms.joined(separator: ", "))); drop --defect \(defect.rawValue) or use --platform \(platforms[0])")
    }

    /// `--profile swarm|uniform|none` and the `--faults a,b,-c` values (repeatable).
    /// An exemption row's name whose scoreboard row has a setup override, or the override's own
    /// text (`kill-switch=disabled from mid-run`).
    static func exemptionSetup(_ text: String) throws(UsageError) -> ExemptionSetup {
        if let setup = ExemptionScoreboard.extraCauses[text]?.setup ?? ExemptionSetup(rawValue: text) { return setup }
        let rows = ExemptionScoreboard.extraCauses.filter { $0.value.setup != nil }.map(\.key).sorted()
        throw UsageError("unknown --setup '\(text)': name an exemption row with a setup override: \(rows.joined(separator: ", "))")
    }

    static func faults(profile: String?, faults: [String]) throws(UsageError) -> FaultSelection {
        do {
            return try FaultSelection.parse(profile: profile, faults: faults)
        } catch {
            throw UsageError(error.message)
        }
    }

    /// Rejects kinds forced on that exist on none of the platforms the user named explicitly.
    static func checkFaults(_ faults: FaultSelection, applyTo platforms: [PlatformFlavor]) throws(UsageError) {
        guard let name = faults.forcedOnInapplicable(to: platforms).first, let kind = FaultCatalog.kind(named: name) else { return }
        let names = kind.platforms.map(\.rawValue)
        throw UsageError("fault '\(name)' does not apply to \(platforms.map(\.rawValue).joined(separator: ", ")) (its model exists only on \(names.joined(separator: ", "))); drop it from --faults or use --platform \(names[0])")
    }

    /// A whole number in `range` for a count-like option (`--jobs`, `--seconds`).
    static func count(_ text: String, option: String, range: ClosedRange<Int>, example: String) throws(UsageError) -> Int {
        guard let value = decimal(text), value >= UInt64(range.lowerBound), value <= UInt64(range.upperBound) else {
            throw UsageError("invalid \(option) '\(text)': give a whole number from \(range.lowerBound) to \(range.upperBound), e.g. \(example)")
        }
        return Int(value)
    }

    /// `I/N`: shard I (1-based) of N.
    static func shard(_ text: String) throws(UsageError) -> CampaignShard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let index = decimal(parts[0]), let count = decimal(parts[1]),
              count >= 1, count <= UInt64(CampaignShard.countMax), index >= 1, index <= count else {
            throw UsageError("invalid --shard '\(text)': write I/N with 1 ≤ I ≤ N ≤ \(CampaignShard.countMax), e.g. --shard 2/4 for the second of four shards")
        }
        return CampaignShard(index: Int(index), count: Int(count))
    }

    /// Digits only (no sign, no spaces), fitting in 64 bits.
    private static func decimal(_ text: String) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return UInt64(text)
    }
}

/// The options that name one seed's run, shared by `replay` and `shrink`: `--platform` and
/// `--seed` (required), `--defect` (repeatable), `--profile`, `--faults`, `--no-liveness` — the
/// words a fuzz repro line prints.
struct SeedRunArguments {
    /// Valued option names (without dashes) the run takes; a command adds its own.
    static let valuedOptions = ["platform", "seed", "defect", "profile", "faults", "setup"]
    /// The help line of `--setup` (replay, explain, shrink).
    static let setupHelp = "  --setup ROW             run under an exemption row's setup override, as `alarmsim exemptions` does (e.g. kill-switch-disabled)"
    static let flagOptions = ["no-liveness"]

    var platform: PlatformFlavor
    var seed: UInt64
    var defects: [KnownDefect]
    var faults: FaultSelection
    /// False with `--no-liveness`: the safety phase only (issue 7).
    var liveness: Bool
    /// `--setup ROW`: the exemption scoreboard row whose setup override the run takes
    /// (``ExemptionSetup``), so that one seed of a row replays alone with the row's `--faults`.
    var setup: ExemptionSetup?

    /// - Parameter purpose: What the seed is for, in the missing-seed message ("to replay").
    /// - Throws: ``UsageError`` for a missing platform or seed, or a malformed value.
    init(_ parsed: ParsedArguments, purpose: String) throws(UsageError) {
        guard let platformText = try parsed.single("platform") else {
            throw UsageError("missing --platform: say which platform the seed ran on, e.g. --platform ios")
        }
        guard let seedText = try parsed.single("seed") else {
            throw UsageError("missing --seed: say which seed \(purpose), e.g. --seed 4711")
        }
        platform = try ArgumentValues.platform(platformText)
        seed = try ArgumentValues.seed(seedText)
        defects = try ArgumentValues.defects(parsed.all("defect"))
        faults = try ArgumentValues.faults(profile: parsed.single("profile"), faults: parsed.all("faults"))
        liveness = !parsed.has("no-liveness")
        setup = try parsed.single("setup").map(ArgumentValues.exemptionSetup)
    }

    /// Rejects defects and forced faults that do not exist on the platform.
    func validate() throws(UsageError) {
        try ArgumentValues.checkDefects(defects, applyTo: platform)
        try ArgumentValues.checkFaults(faults, applyTo: [platform])
    }

    func runOptions(keepFullTrace: Bool = false) -> RunOptions {
        RunOptions(platform: platform, seed: seed, defects: defects, faults: faults, keepFullTrace: keepFullTrace, liveness: liveness)
    }

    /// The seed's run, under the `--setup` row's override when one is named.
    func run(keepFullTrace: Bool = false) -> RunResult {
        ExemptionScoreboard.run(runOptions(keepFullTrace: keepFullTrace), setup)
    }

    /// The seed's world and parameters (for the shrinker), under the `--setup` override.
    func runSetup() -> (DeviceSetup, [RunParameter]) {
        ExemptionScoreboard.runSetup(runOptions(), setup)
    }
}

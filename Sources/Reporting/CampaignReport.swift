import AlarmBridge
import Campaign
import Foundation
import SimKernel
import Simulation

/// The campaign report files `alarmsim fuzz` and `alarmsim merge` write under `--report DIR`:
/// `summary.json` (the stable schema documented in Reports/README.md, read back by `merge`),
/// `summary.md` (for people) and `junit.xml` (for CI). All three are pure functions of the
/// summary: no timing, no host names, so a campaign's files can be diffed.
public enum CampaignReport {
    /// Bumped whenever a field changes meaning or is removed; new optional fields keep it.
    public static let schemaVersion = 1
    public static let summaryJSONName = "summary.json"
    public static let summaryMarkdownName = "summary.md"
    public static let junitName = "junit.xml"
    /// Per-failure artifacts (trace, Markdown, HTML timeline) go to `DIR/failures/PLATFORM-SEED/`;
    /// see ``artifactsDirectory(for:)``.
    public static let failuresDirectoryName = "failures"
    /// The shrunk scenarios of a campaign's failing seeds go to `DIR/shrunk/` (unless
    /// `--shrink-dir` names another directory).
    public static let shrunkDirectoryName = "shrunk"

    /// Where the artifacts of one failing seed live, relative to the report directory:
    /// `failures/ios-17`. The `artifacts` field of a failing seed in `summary.json` holds this
    /// path once the artifacts exist (they are written by the per-failure report, not here).
    public static func artifactsDirectory(for failing: FailingSeed) -> String {
        "\(failuresDirectoryName)/\(failing.platform.rawValue)-\(failing.seed)"
    }

    // MARK: Writing

    /// Writes the three files into `directory` (created with its parents when missing), each
    /// atomically (``AtomicFile``), `summary.json` last.
    /// - Parameter artifacts: Per failing seed (by index in `summary.failing`) the relative
    ///   artifacts path to record, when its artifacts were written; empty for none.
    /// - Parameter shrunk: Per failing seed (same index) its shrunk scenario's path relative to
    ///   `directory` (``shrunkDirectoryName``), linked from all three files; empty for none.
    /// - Throws: ``AtomicFile/WriteError`` naming the path that could not be written.
    public static func write(_ summary: FuzzSummary, to directory: String, artifacts: [Int: String] = [:],
                             shrunk: [Int: String] = [:]) throws(AtomicFile.WriteError) {
        try AtomicFile.prepareDirectory(directory)
        // summary.json is the index (merge reads it; it links the artifacts): written last, so a
        // campaign killed part-way never leaves an index newer than the files beside it.
        let rulebook = RulebookLinks.path(fromDirectory: directory)
        try AtomicFile.write(markdown(summary, artifacts: artifacts, shrunk: shrunk, rulebook: rulebook), to: directory + "/" + summaryMarkdownName)
        try AtomicFile.write(junit(summary, shrunk: shrunk), to: directory + "/" + junitName)
        try AtomicFile.write(json(summary, artifacts: artifacts, shrunk: shrunk), to: directory + "/" + summaryJSONName)
    }

    /// `summary.json`: pretty-printed, keys sorted, ending with a newline.
    public static func json(_ summary: FuzzSummary, artifacts: [Int: String] = [:], shrunk: [Int: String] = [:]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(SummaryDocument(summary, artifacts: artifacts, shrunk: shrunk)) else {
            preconditionFailure("CampaignReport.json: a summary always encodes")
        }
        data.append(UInt8(ascii: "\n"))
        return data
    }

    // MARK: Reading (merge)

    /// Why a summary file cannot be read back; `description` is one line.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Reads a `summary.json` back into a summary.
    /// - Parameter source: The file's path, for messages.
    /// - Throws: ``ReadError`` `PATH: what is wrong` for text that is not JSON, a different
    ///   `schemaVersion`, a missing or mistyped field (named by its key path), an unknown
    ///   platform, defect, profile or coverage mark, or counts that do not add up.
    public static func read(_ data: Data, source: String) throws(ReadError) -> FuzzSummary {
        let document: SummaryDocument
        do {
            let version = try JSONDecoder().decode(VersionProbe.self, from: data)
            guard version.schemaVersion == schemaVersion else {
                throw ReadError(message: "\(source): schemaVersion \(version.schemaVersion) is not \(schemaVersion); this alarmsim reads only version \(schemaVersion) summaries")
            }
            document = try JSONDecoder().decode(SummaryDocument.self, from: data)
        } catch let error as ReadError {
            throw error
        } catch let error as DecodingError {
            throw ReadError(message: "\(source): not a campaign summary: \(describe(error))")
        } catch {
            throw ReadError(message: "\(source): not a campaign summary: \(error)")
        }
        do {
            return try document.summary()
        } catch {
            throw ReadError(message: "\(source): \(error.message)")
        }
    }

    /// A Swift type as the JSON value a person would write: `an object`, `a whole number`, ….
    static func jsonKind(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type, is UInt64.Type, is Int32.Type: return "a whole number"
        case is Double.Type, is Float.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Dictionary") || name.hasPrefix("[String") { return "an object" }
            if name.hasPrefix("Array") || name.hasPrefix("[") { return "an array" }
            return "an object"
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return keys.isEmpty ? "the top level" : String(keys.drop { $0 == "." })
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let detail = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"] as? String
                return "the text is not valid JSON" + (detail.map { " (\($0))" } ?? "")
            }
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "missing field '\(key.stringValue)' in \(path(context))"
        case .typeMismatch(let type, let context):
            return "\(path(context)) is not \(jsonKind(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)) is null, expected \(jsonKind(type))"
        @unknown default:
            return "\(error)"
        }
    }
}

private struct VersionProbe: Decodable {
    var schemaVersion: Int
}

/// A stored error while turning a decoded document into a summary.
struct DocumentError: Error {
    var message: String

    /// - Parameter message: Control characters quoted from the file are made visible.
    init(message: String) {
        self.message = TerminalText.visible(message)
    }
}

/// The `summary.json` schema (Reports/README.md, "Campaign summary"). Field names are the
/// schema; change them only with ``CampaignReport/schemaVersion``.
struct SummaryDocument: Codable {
    struct SeedRange: Codable {
        var first: UInt64
        var last: UInt64
    }

    struct Shard: Codable {
        var index: Int
        var count: Int
    }

    struct Options: Codable {
        var platforms: [String]
        var seeds: SeedRange
        var defects: [String]
        var profile: String
        var faultsOn: [String]
        var faultsOff: [String]
        var liveness: Bool
        var shard: Shard?
        var budgetSeconds: Int?
    }

    struct Count: Codable {
        var name: String
        var count: Int
    }

    struct MarkCount: Codable {
        var mark: String
        var hits: Int
        var seeds: Int
    }

    struct Platform: Codable {
        var platform: String
        var defects: [String]
        var seedsRun: [SeedRange]
        var seeds: Int
        var failures: Int
        var events: Int
        var exemptions: [Count]
        var coverage: [MarkCount]
    }

    struct Failure: Codable {
        var platform: String
        var seed: UInt64
        var invariant: String
        var rules: [String]
        var message: String
        var trueMs: Int64?
        var wallMs: Int64?
        var eventIndex: Int?
        var repro: String
        var signal: String?
        var artifacts: String?
        /// The shrunk scenario, relative to the report directory; absent when none was written.
        var shrunk: String?
        /// The device's zone at the violation (IANA), for its local time; absent in older summaries.
        var zone: String?
    }

    var schemaVersion: Int
    var tool: String
    var options: Options
    var interrupted: Bool
    var platforms: [Platform]
    var failing: [Failure]
    /// The known failures replayed first; absent when no known-failures file was read.
    var knownFailures: Known?
    var violations: Int

    struct Known: Codable {
        var file: String
        var replayed: [String]
        var stillFailing: [Failure]
        var notReplayed: Int
    }

    init(_ summary: FuzzSummary, artifacts: [Int: String], shrunk: [Int: String] = [:]) {
        let options = summary.options
        schemaVersion = CampaignReport.schemaVersion
        tool = "alarmsim"
        self.options = Options(
            platforms: options.platforms.map(\.rawValue), seeds: SeedRange(first: options.seeds.lowerBound, last: options.seeds.upperBound),
            defects: options.defects.map(\.rawValue), profile: options.faults.profile.rawValue,
            faultsOn: options.faults.forcedOn, faultsOff: options.faults.forcedOff, liveness: options.liveness,
            shard: options.shard.map { Shard(index: $0.index, count: $0.count) }, budgetSeconds: options.budgetSeconds)
        interrupted = summary.interrupted
        platforms = summary.tallies.map { tally in
            Platform(platform: tally.platform.rawValue, defects: tally.defects.map(\.rawValue),
                     seedsRun: tally.seedsRun.map { SeedRange(first: $0.lowerBound, last: $0.upperBound) },
                     seeds: tally.seeds, failures: tally.failures, events: tally.events,
                     exemptions: tally.exemptions.map { Count(name: $0.name, count: Int($0.value) ?? 0) },
                     coverage: CoverageMark.allCases.map {
                         MarkCount(mark: $0.name, hits: tally.coverage.hits($0), seeds: tally.coverage.seedsReaching($0))
                     })
        }
        failing = summary.failing.enumerated().map { index, failing in
            Self.failure(failing, artifacts: artifacts[index], shrunk: shrunk[index])
        }
        knownFailures = summary.known.map {
            Known(file: $0.file, replayed: $0.replayed, stillFailing: $0.stillFailing.map { Self.failure($0) }, notReplayed: $0.notReplayed)
        }
        violations = summary.violationCount
    }

    static func failure(_ failing: FailingSeed, artifacts: String? = nil, shrunk: String? = nil) -> Failure {
        let crashed = failing.signal != nil
        return Failure(platform: failing.platform.rawValue, seed: failing.seed, invariant: failing.violation.invariant,
                       rules: failing.violation.rules, message: failing.violation.message,
                       trueMs: crashed ? nil : failing.violation.trueMs, wallMs: crashed ? nil : failing.violation.wallMs,
                       eventIndex: crashed ? nil : failing.violation.eventIndex, repro: failing.repro,
                       signal: failing.signal, artifacts: artifacts, shrunk: shrunk, zone: crashed ? nil : failing.violation.zone)
    }

    func summary() throws(DocumentError) -> FuzzSummary {
        let platformList = try options.platforms.map { (name) throws(DocumentError) in try Self.platform(name, at: "options.platforms") }
        guard !platformList.isEmpty, Set(options.platforms).count == platformList.count else {
            throw DocumentError(message: "options.platforms must name each platform once, got \(options.platforms)")
        }
        guard options.seeds.first <= options.seeds.last else {
            throw DocumentError(message: "options.seeds: first \(options.seeds.first) is greater than last \(options.seeds.last)")
        }
        guard let profile = FaultProfile(rawValue: options.profile) else {
            throw DocumentError(message: "options.profile: unknown fault profile '\(options.profile)'")
        }
        if let shard = options.shard, !(shard.count >= 1 && shard.count <= CampaignShard.countMax && shard.index >= 1 && shard.index <= shard.count) {
            throw DocumentError(message: "options.shard: \(shard.index)/\(shard.count) is not a shard (1 ≤ index ≤ count)")
        }
        let fuzzOptions = FuzzOptions(
            platforms: platformList, seeds: options.seeds.first...options.seeds.last,
            defects: try Self.defects(options.defects, at: "options.defects"),
            faults: FaultSelection(profile: profile, forcedOn: options.faultsOn, forcedOff: options.faultsOff),
            liveness: options.liveness, shard: options.shard.map { CampaignShard(index: $0.index, count: $0.count) },
            budgetSeconds: options.budgetSeconds)
        guard platforms.map(\.platform) == options.platforms else {
            throw DocumentError(message: "platforms lists \(platforms.map(\.platform)), but options.platforms is \(options.platforms)")
        }
        let tallies = try platforms.enumerated().map { (index, platform) throws(DocumentError) in try platform.tally(at: "platforms[\(index)]") }
        for (index, tally) in tallies.enumerated() {
            if let outside = tally.seedsRun.first(where: { $0.lowerBound < options.seeds.first || $0.upperBound > options.seeds.last }) {
                throw DocumentError(message: "platforms[\(index)].seedsRun: \(outside.lowerBound)..\(outside.upperBound) lies outside options.seeds \(options.seeds.first)..\(options.seeds.last)")
            }
        }
        let failingSeeds = try failing.enumerated().map { (index, failure) throws(DocumentError) in try failure.failingSeed(at: "failing[\(index)]") }
        for (index, failure) in failingSeeds.enumerated() {
            guard let tally = tallies.first(where: { $0.platform == failure.platform }),
                  tally.seedsRun.contains(where: { $0.contains(failure.seed) }) else {
                throw DocumentError(message: "failing[\(index)]: \(failure.platform.rawValue) seed \(failure.seed) is not among the seeds that platform ran")
            }
        }
        for tally in tallies where failingSeeds.filter({ $0.platform == tally.platform }).count != tally.failures {
            throw DocumentError(message: "\(tally.platform.rawValue) counts \(tally.failures) failures but failing lists \(failingSeeds.filter { $0.platform == tally.platform }.count)")
        }
        let known = try knownFailures.map { (known) throws(DocumentError) in
            KnownReplay(file: known.file, replayed: known.replayed,
                        stillFailing: try known.stillFailing.enumerated().map { (index, failure) throws(DocumentError) in
                            try failure.failingSeed(at: "knownFailures.stillFailing[\(index)]")
                        }, notReplayed: max(known.notReplayed, 0))
        }
        let summary = FuzzSummary(options: fuzzOptions, tallies: tallies, failing: failingSeeds, interrupted: interrupted, known: known)
        guard violations == summary.violationCount else {
            let knownText = known.map { _ in " and \(summary.knownStillFailingOutsideRange.count) known failures still failing" } ?? ""
            throw DocumentError(message: "violations is \(violations) but failing lists \(failingSeeds.count) seeds\(knownText)")
        }
        return summary
    }

    static func platform(_ name: String, at path: String) throws(DocumentError) -> PlatformFlavor {
        guard let platform = PlatformFlavor(rawValue: name) else {
            throw DocumentError(message: "\(path): unknown platform '\(name)'; expected ios or android")
        }
        return platform
    }

    static func defects(_ names: [String], at path: String) throws(DocumentError) -> [KnownDefect] {
        try names.map { (name) throws(DocumentError) in
            guard let defect = KnownDefect(rawValue: name) else {
                throw DocumentError(message: "\(path): unknown defect '\(name)' (a summary from another alarmsim version?)")
            }
            return defect
        }
    }
}

extension SummaryDocument.Platform {
    func tally(at path: String) throws(DocumentError) -> PlatformTally {
        var hits = Array(repeating: 0, count: CoverageMark.allCases.count)
        var reaching = hits
        for entry in coverage {
            guard let mark = CoverageMark(name: entry.mark) else {
                throw DocumentError(message: "\(path).coverage: unknown mark '\(entry.mark)' (a summary from another alarmsim version?)")
            }
            hits[mark.rawValue] = entry.hits
            reaching[mark.rawValue] = entry.seeds
        }
        try validateCounts(at: path)
        var tally = PlatformTally(platform: try SummaryDocument.platform(platform, at: path + ".platform"),
                                  defects: try SummaryDocument.defects(defects, at: path + ".defects"),
                                  seeds: seeds, failures: failures, events: events,
                                  exemptions: exemptions.map { RunParameter($0.name, String($0.count)) },
                                  coverage: CoverageTally(hits: hits, seedsReaching: reaching))
        var previous: UInt64?
        var counted: UInt64 = 0
        for range in seedsRun {
            guard range.first <= range.last, previous.map({ $0 < range.first }) ?? true else {
                throw DocumentError(message: "\(path).seedsRun: ranges must ascend and not overlap, got \(range.first)..\(range.last) after \(previous.map(String.init) ?? "nothing")")
            }
            previous = range.last
            counted += range.last - range.first + 1
        }
        guard counted == UInt64(max(seeds, 0)) else {
            throw DocumentError(message: "\(path): seeds is \(seeds) but seedsRun covers \(counted) seeds")
        }
        tally.seedsRun = seedsRun.map { $0.first...$0.last }
        return tally
    }
}

extension SummaryDocument.Platform {
    /// Counts a campaign can produce: none negative, failures and reaching seeds at most the seeds
    /// run, a reached mark hit at least once per seed reaching it, exemption names words.
    func validateCounts(at path: String) throws(DocumentError) {
        guard seeds >= 0, events >= 0 else { throw DocumentError(message: "\(path): seeds (\(seeds)) and events (\(events)) cannot be negative") }
        guard (0...seeds).contains(failures) else {
            throw DocumentError(message: "\(path): failures is \(failures), outside 0...\(seeds) (the seeds run)")
        }
        for (index, exemption) in exemptions.enumerated() {
            guard exemption.count >= 0, SummaryDocument.isName(exemption.name) else {
                throw DocumentError(message: "\(path).exemptions[\(index)]: '\(SummaryDocument.shown(exemption.name))' × \(exemption.count) is not an exemption count (a lowercase name, a count ≥ 0)")
            }
        }
        for entry in coverage where entry.hits < 0 || !(0...seeds).contains(entry.seeds) || entry.hits < entry.seeds {
            throw DocumentError(message: "\(path).coverage: mark '\(SummaryDocument.shown(entry.mark))' has \(entry.hits) hits in \(entry.seeds) seeds of \(seeds); hits ≥ seeds reaching ≥ 0, seeds reaching ≤ seeds run")
        }
    }
}

extension SummaryDocument {
    /// An invariant, exemption or mark name: lowercase letters, digits and hyphens, 1–100 of them.
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 100 && text.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// True for text a report may print: no control characters (tab aside).
    static func isPrintable(_ text: String) -> Bool {
        !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
    }

    /// A name as an error message shows it: control characters visible, at most 60 characters.
    static func shown(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined().prefix(60))
    }
}

extension SummaryDocument.Failure {
    func failingSeed(at path: String) throws(DocumentError) -> FailingSeed {
        guard SummaryDocument.isName(invariant) else {
            throw DocumentError(message: "\(path).invariant: '\(SummaryDocument.shown(invariant))' is not an invariant name (alarmsim list invariants)")
        }
        // A failure names a catalog invariant or the campaign's crash (a trapped seed); any other
        // name comes from another alarmsim version or a hand edit, and its report could not
        // explain it.
        guard invariant == Campaign.crashInvariant || InvariantCatalog.info(invariant) != nil else {
            throw DocumentError(message: "\(path).invariant: unknown invariant '\(invariant)' (a summary from another alarmsim version? see alarmsim list invariants)")
        }
        for (field, text) in [("message", message), ("repro", repro)] + rules.map({ ("rules", $0) }) where !SummaryDocument.isPrintable(text) {
            throw DocumentError(message: "\(path).\(field): contains a control character ('\(SummaryDocument.shown(text))')")
        }
        if let eventIndex, eventIndex < 0 { throw DocumentError(message: "\(path).eventIndex: \(eventIndex) is negative") }
        let violation = Violation(invariant: invariant, rules: rules, message: message, trueMs: trueMs ?? 0, wallMs: wallMs ?? 0,
                                  eventIndex: eventIndex ?? 0, zone: zone)
        return FailingSeed(platform: try SummaryDocument.platform(platform, at: path + ".platform"), seed: seed,
                           violation: violation, repro: repro, signal: signal)
    }
}

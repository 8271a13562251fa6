import AlarmBridge
import Campaign
import Foundation
import Simulation

/// `alarmsim worker`: the hidden subcommand a fuzz campaign runs its seeds in (one worker
/// subprocess per job, WorkerPool.swift). Not listed in help: people never type it.
///
/// Line protocol, UTF-8, one line per message:
/// - parent → worker (stdin): `PLATFORM SEED`, e.g. `ios 17`;
/// - worker → parent (stdout): one ``WorkerAnswer`` line (a ``SeedOutcome``) per request, in
///   request order: compact for a clean seed whose exemptions are plain tokens, else JSON
///   (``WorkerAnswer/line(encoder:)``).
///
/// The campaign's options (defects, faults, liveness) are the worker's arguments, so a request
/// is just the seed. End of input ends the worker with status 0. A seed that traps kills the
/// worker; the parent sees its stdout close, reports the seed as `crash` and starts another.
struct WorkerCommand: Command {
    static let name = "worker"
    static let abstract = "(internal) Run seeds named on stdin for a fuzz campaign; one answer line per seed on stdout."
    static let usage = "alarmsim worker [--defect NAME]... [--profile swarm|uniform|none] [--faults A,B,-C] [--no-liveness]"
    static let options = [
        "  --defect NAME, --profile, --faults, --no-liveness   as for 'alarmsim fuzz'",
        "",
        "Reads 'PLATFORM SEED' lines on stdin; answers each with one line (the seed's outcome: compact",
        "'C PLATFORM SEED EVENTS COVERAGE EXEMPTIONS' for a clean seed, else JSON).",
    ]
    static let examples = [
        "echo 'ios 17' | alarmsim worker --defect title-in-ring-id   # what 'fuzz' does for each seed",
    ]

    var defects: [KnownDefect]
    var faults: FaultSelection
    var liveness: Bool

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: ["defect", "profile", "faults"],
                                         allowsPositionals: false, flagOptions: ["no-liveness"])
        defects = try ArgumentValues.defects(parsed.all("defect"))
        faults = try ArgumentValues.faults(profile: parsed.single("profile"), faults: parsed.all("faults"))
        liveness = !parsed.has("no-liveness")
    }

    /// The arguments that start a worker for `options`.
    static func arguments(for options: FuzzOptions) -> [String] {
        var words = [name]
        for defect in options.defects { words += ["--defect", defect.rawValue] }
        words += options.faults.commandLineArguments
        if !options.liveness { words.append("--no-liveness") }
        return words
    }

    /// A request line: `ios 17`.
    static func request(platform: PlatformFlavor, seed: UInt64) -> String {
        "\(platform.rawValue) \(seed)\n"
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        // The options a worker needs from FuzzOptions; the seed range is the parent's business.
        let options = FuzzOptions(platforms: [.ios, .android], seeds: 0...0, defects: defects, faults: faults, liveness: liveness)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        while let line = readLine() {
            let words = line.split(separator: " ")
            guard words.count == 2, let platform = PlatformFlavor(rawValue: String(words[0])), let seed = UInt64(words[1]) else {
                errors.write("error: worker: malformed request '\(line)'; expected 'PLATFORM SEED', e.g. 'ios 17'\n")
                return .dataError
            }
            let outcome = Campaign.outcome(platform: platform, seed: seed, options: options)
            output.write(WorkerAnswer(outcome).line(encoder: encoder) + "\n")
        }
        return .success
    }
}

/// A worker's answer on the wire: a ``SeedOutcome`` whose coverage hits are written sparse, as
/// `COUNT:INDEXxHITS,…` (e.g. `69:17x6,28x1`: 69 marks, mark 17 hit 6 times, mark 28 once, the
/// rest 0). Most of a seed's marks are 0, and the dense array was most of each line's JSON
/// encoding and decoding (issue 20: about 3 % of a campaign's CPU).
struct WorkerAnswer: Codable, Equatable {
    var platform: PlatformFlavor
    var seed: UInt64
    var events: Int
    var exemptions: [RunParameter]
    var coverage: String
    var violation: Violation?
    var signal: String?

    init(_ outcome: SeedOutcome) {
        platform = outcome.platform
        seed = outcome.seed
        events = outcome.events
        exemptions = outcome.exemptions
        let hits = outcome.coverageHits
        coverage = "\(hits.count):" + hits.indices.filter { hits[$0] != 0 }.map { "\($0)x\(hits[$0])" }.joined(separator: ",")
        violation = outcome.violation
        signal = outcome.signal
    }

    /// The outcome this answer carries; nil when its coverage is malformed (a count, then
    /// distinct in-range indices with non-zero hits).
    var outcome: SeedOutcome? {
        guard let colon = coverage.firstIndex(of: ":"), let count = Int(coverage[..<colon]), (0...100_000).contains(count) else { return nil }
        var hits = [Int](repeating: 0, count: count)
        let entries = coverage[coverage.index(after: colon)...]
        for entry in entries.isEmpty ? [] : entries.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = entry.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let value = Int(parts[1]),
                  hits.indices.contains(index), hits[index] == 0, value != 0 else { return nil }
            hits[index] = value
        }
        return SeedOutcome(platform: platform, seed: seed, events: events, exemptions: exemptions, coverageHits: hits,
                           violation: violation, signal: signal)
    }

    /// The answer's line, without its newline. A clean seed (no violation, no signal) whose
    /// exemption names and values are plain tokens (``isToken(_:)``) is written compact:
    /// `C PLATFORM SEED EVENTS COVERAGE EXEMPTIONS`, the exemptions as `name=value;…` or `-` when
    /// none, e.g. `C ios 17 512 69:17x6,28x1 process-death=2;force-quit=1` (issue 20: JSON encoding
    /// and decoding were about 2 % of a campaign's CPU). Anything else is one JSON object.
    func line(encoder: JSONEncoder) -> String {
        if violation == nil, signal == nil, exemptions.allSatisfy({ Self.isToken($0.name) && Self.isToken($0.value) }) {
            let pairs = exemptions.isEmpty ? "-" : exemptions.map { "\($0.name)=\($0.value)" }.joined(separator: ";")
            return "C \(platform.rawValue) \(seed) \(events) \(coverage) \(pairs)"
        }
        guard let data = try? encoder.encode(self) else { preconditionFailure("worker: a SeedOutcome always encodes") }
        return String(decoding: data, as: UTF8.self)
    }

    /// An answer line as ``line(encoder:)`` writes it; nil when it is neither a well-formed
    /// compact line nor a JSON answer (coverage is checked by ``outcome``).
    static func parse(_ line: [UInt8], decoder: JSONDecoder) -> WorkerAnswer? {
        guard line.first == UInt8(ascii: "C") else { return try? decoder.decode(WorkerAnswer.self, from: Data(line)) }
        let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 6, fields[0] == "C", let platform = PlatformFlavor(rawValue: fields[1]),
              let seed = UInt64(fields[2]), let events = Int(fields[3]), events >= 0, !fields[4].isEmpty else { return nil }
        var exemptions: [RunParameter] = []
        if fields[5] != "-" {
            for pair in fields[5].split(separator: ";", omittingEmptySubsequences: false) {
                let parts = pair.split(separator: "=", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 2, isToken(parts[0]), isToken(parts[1]) else { return nil }
                exemptions.append(RunParameter(parts[0], parts[1]))
            }
        }
        return WorkerAnswer(platform: platform, seed: seed, events: events, exemptions: exemptions, coverage: fields[4])
    }

    /// A plain token: non-empty ASCII letters, digits and `.`, `_`, `:`, `+`, `-` (no separator
    /// of the compact line).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
        }
    }

    /// A clean answer read from a compact line.
    private init(platform: PlatformFlavor, seed: UInt64, events: Int, exemptions: [RunParameter], coverage: String) {
        self.platform = platform
        self.seed = seed
        self.events = events
        self.exemptions = exemptions
        self.coverage = coverage
        self.violation = nil
        self.signal = nil
    }
}

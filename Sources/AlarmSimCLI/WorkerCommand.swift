import AlarmBridge
import Campaign
import Foundation
import Simulation

/// `alarmsim worker`: the hidden subcommand a fuzz campaign runs its seeds in (one worker
/// subprocess per job, WorkerPool.swift). Not listed in help: people never type it.
///
/// Line protocol, UTF-8, one line per message:
/// - parent → worker (stdin): `PLATFORM SEED`, e.g. `ios 17`;
/// - worker → parent (stdout): one JSON ``SeedOutcome`` per request, in request order.
///
/// The campaign's options (defects, faults, liveness) are the worker's arguments, so a request
/// is just the seed. End of input ends the worker with status 0. A seed that traps kills the
/// worker; the parent sees its stdout close, reports the seed as `crash` and starts another.
struct WorkerCommand: Command {
    static let name = "worker"
    static let abstract = "(internal) Run seeds named on stdin for a fuzz campaign; one JSON line per seed on stdout."
    static let usage = "alarmsim worker [--defect NAME]... [--profile swarm|uniform|none] [--faults A,B,-C] [--no-liveness]"
    static let options = [
        "  --defect NAME, --profile, --faults, --no-liveness   as for 'alarmsim fuzz'",
        "",
        "Reads 'PLATFORM SEED' lines on stdin; answers each with one JSON line (the seed's outcome).",
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
            guard let data = try? encoder.encode(outcome) else {
                preconditionFailure("worker: a SeedOutcome always encodes")
            }
            output.write(String(decoding: data, as: UTF8.self) + "\n")
        }
        return .success
    }
}

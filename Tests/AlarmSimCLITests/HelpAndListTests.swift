@testable import AlarmSimCLI
import Foundation
import Simulation
import Testing

@Suite("CLI help and list")
struct HelpAndListTests {
    @Test("the README's 'Known defects' section names every defect 'alarmsim list defects' prints")
    func readmeListsEveryDefect() throws {
        let readme = try String(contentsOf: InputFuzzTests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Known defects")).upperBound
        let text = readme[section...]
        let missing = KnownDefect.listed.map(\.rawValue).filter { !text.contains("`\($0)`") }
        #expect(missing.isEmpty, "not in README's Known defects: \(missing)")
    }

    @Test("--help on every subcommand exits 0 and prints its usage with an example line",
          arguments: ["fuzz", "coverage", "replay", "run", "list", "shrink", "defects"])
    func helpForEachCommand(_ command: String) {
        for arguments in [[command, "--help"], [command, "-h"], ["help", command], [command, "--seeds", "5..1", "--help"]] {
            let run = cli(arguments)
            #expect(run.status == .success, "\(arguments)")
            #expect(run.output.contains("USAGE: alarmsim \(command)"), "\(arguments)")
            #expect(run.output.contains("EXAMPLES:\n  alarmsim \(command) "), "\(arguments)")
            #expect(run.errors.isEmpty)
        }
    }

    @Test("top-level help exits 0 and names every subcommand", arguments: [["--help"], ["-h"], ["help"]])
    func topLevelHelp(_ arguments: [String]) {
        let run = cli(arguments)
        #expect(run.status == .success)
        for command in ["fuzz", "coverage", "replay", "run", "list", "shrink", "defects"] {
            #expect(run.output.contains("\n  \(command) "))
        }
    }

    @Test("list defects prints one line per known defect: its name, summary and platforms")
    func listDefects() {
        let run = cli("list", "defects")
        #expect(run.status == .success)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == KnownDefect.listed.count)
        for name in ["resync-while-alerting", "unavailable-read-as-empty", "stop-leaves-recovery-guard", "title-in-ring-id"] {
            let line = lines.first { $0.hasPrefix(name + " ") }
            #expect(line != nil, "no line for \(name)")
            #expect(line?.contains("platforms: ") == true)
        }
        #expect(lines.first { $0.hasPrefix("unavailable-read-as-empty ") }?.contains("[platforms: ios]") == true)
    }

    @Test("list invariants prints one line per catalog invariant: its ID, statement and rules")
    func listInvariants() {
        let run = cli("list", "invariants")
        #expect(run.status == .success)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == InvariantCatalog.all.count)
        for (line, info) in zip(lines, InvariantCatalog.all) {
            #expect(line.hasPrefix(info.id + " "))
            #expect(line.contains(info.statement))
            for rule in info.rules {
                #expect(line.contains(rule))
            }
        }
    }

    @Test("list faults prints one line per catalog fault kind: its name, summary, platforms, rate with unit and rules")
    func listFaults() {
        let run = cli("list", "faults")
        #expect(run.status == .success)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == FaultCatalog.all.count)
        for (line, kind) in zip(lines, FaultCatalog.all) {
            #expect(line.hasPrefix(kind.name + " "))
            #expect(line.contains(kind.summary))
            #expect(line.contains("[platforms: \(kind.platforms.map(\.rawValue).joined(separator: ", "))]"))
            #expect(line.contains("[rate: \(kind.rate) \(kind.unit.rawValue);"))
        }
        #expect(lines.first { $0.hasPrefix("process-death ") }?.contains("per hour of virtual time") == true)
    }

    @Test("list exemptions prints one line per catalog exemption: its name, explanation, what the bridge must still do, rules")
    func listExemptions() {
        let run = cli("list", "exemptions")
        #expect(run.status == .success)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == ExemptionCatalog.all.count)
        for (line, info) in zip(lines, ExemptionCatalog.all) {
            #expect(line.hasPrefix(info.name + " "))
            #expect(line.contains(info.explanation))
            #expect(line.contains("[the bridge must still: \(info.bridgeMustStill)]"))
            #expect(line.contains("[rules: \(info.rules.joined(separator: ", "))]"))
        }
        #expect(lines.first { $0.hasPrefix("mute-switch ") }?.contains("[faults: silent-mode]") == true)
    }

    @Test("fuzz and replay take --profile and repeatable --faults; the default is the swarm profile")
    func faultOptions() throws {
        #expect(try FuzzCommand(arguments: []).faults == .swarm)
        let fuzz = try FuzzCommand(arguments: ["--profile", "uniform", "--faults", "reboot,-doze", "--faults=force-quit"])
        #expect(fuzz.faults == FaultSelection(profile: .uniform, forcedOn: ["force-quit", "reboot"], forcedOff: ["doze"]))
        let replay = try ReplayCommand(arguments: ["--platform", "ios", "--seed", "3", "--profile", "none", "--faults", "reboot"])
        #expect(replay.seedRun.faults == FaultSelection(profile: .none, forcedOn: ["reboot"]))
    }

    @Test("fuzz defaults to both platforms, ios first, and seeds 1..1000")
    func fuzzDefaults() throws {
        let command = try FuzzCommand(arguments: [])
        #expect(command.platforms == [.ios, .android])
        #expect(command.seeds == 1...1000)
        #expect(command.defects.isEmpty)
        #expect(command.liveness)
    }

    @Test("--no-liveness turns the liveness phase off on fuzz and replay, and both helps name it")
    func noLivenessFlag() throws {
        #expect(try FuzzCommand(arguments: ["--no-liveness"]).liveness == false)
        #expect(try ReplayCommand(arguments: ["--platform", "ios", "--seed", "1", "--no-liveness"]).seedRun.liveness == false)
        #expect(try ReplayCommand(arguments: ["--platform", "ios", "--seed", "1"]).seedRun.liveness)
        for command in ["fuzz", "replay"] {
            #expect(cli(command, "--help").output.contains("--no-liveness"))
        }
    }

    @Test("replay prints the liveness phase's boundary and bounds, and 'sim.liveness: off' with --no-liveness")
    func replayPrintsLivenessParameters() {
        let on = cli("replay", "--platform", "android", "--seed", "3")
        for key in ["sim.liveness: on", "liveness.phase-boundary: ", "liveness.registration-bound-ms: ",
                    "liveness.audible-bound-ms: ", "liveness.first-unlock-ms: "] {
            #expect(on.output.contains(key), "\(key)")
        }
        // Values for people: instants in local time, never epoch milliseconds.
        #expect(on.output.range(of: #"\b1[0-9]{12}\b"#, options: .regularExpression) == nil, "\(on.output)")
        #expect(on.output.contains("\nstart: 20"), "an instant loses its unit from the name")
        let off = cli("replay", "--platform", "android", "--seed", "3", "--no-liveness")
        #expect(off.output.contains("sim.liveness: off"))
        #expect(!off.output.contains("liveness.registration-bound-ms"))
    }

    @Test("fuzz --coverage is a flag: off by default, takes no value, and its help says what it prints")
    func fuzzCoverageFlag() throws {
        #expect(try FuzzCommand(arguments: []).printsCoverage == false)
        #expect(try FuzzCommand(arguments: ["--coverage", "--seeds", "1..3"]).printsCoverage)
        #expect(throws: UsageError.self) { try FuzzCommand(arguments: ["--coverage=yes"]) }
        let help = cli("fuzz", "--help").output
        #expect(help.contains("--coverage"))
        #expect(help.contains("UNREACHED"))
    }

    @Test("coverage defaults to the fuzz campaign (both platforms, seeds 1..1000) and Reports/latest/coverage.md")
    func coverageDefaults() throws {
        let command = try CoverageCommand(arguments: [])
        #expect(command.platforms == [.ios, .android])
        #expect(command.seeds == FuzzCommand.defaultSeeds)
        #expect(command.outPath == "Reports/latest/coverage.md", "a README command never dirties the committed tree")
        #expect(command.commandLine == "alarmsim coverage")
        let narrowed = try CoverageCommand(arguments: ["--platform", "ios", "--seeds", "5..9", "--out", "/tmp/c.md"])
        #expect(narrowed.commandLine == "alarmsim coverage --platform ios --seeds 5..9")
        #expect(narrowed.outPath == "/tmp/c.md")
        #expect(throws: UsageError.self) { try CoverageCommand(arguments: ["--defect", "title-in-ring-id"]) }
        #expect(cli("coverage", "--help").output.contains("--out FILE"))
    }

    @Test("--seeds takes A..B, a single N and the --seeds=VALUE form")
    func seedForms() throws {
        #expect(try FuzzCommand(arguments: ["--seeds", "3..9"]).seeds == 3...9)
        #expect(try FuzzCommand(arguments: ["--seeds", "17"]).seeds == 17...17)
        #expect(try FuzzCommand(arguments: ["--seeds=0..0"]).seeds == 0...0)
        #expect(try FuzzCommand(arguments: ["--seeds", "18446744073709551615"]).seeds
                == UInt64.max...UInt64.max)
    }

    @Test("repeated --defect options are sorted and de-duplicated, whatever order the user gave")
    func defectsSorted() throws {
        let command = try FuzzCommand(arguments: [
            "--defect", "title-in-ring-id", "--defect", "resync-while-alerting", "--defect", "title-in-ring-id",
        ])
        #expect(command.defects == [.resyncWhileAlerting, .titleInRingID])
    }

    @Test("with --platform both, a defect that exists on one platform only is accepted")
    func bothPlatformsAcceptsPartialDefect() throws {
        let command = try FuzzCommand(arguments: ["--platform", "both", "--defect", "unavailable-read-as-empty"])
        try command.validate()
        #expect(command.platforms == [.ios, .android])
    }

    @Test("replay parses its required and optional options")
    func replayParses() throws {
        let command = try ReplayCommand(arguments: [
            "--platform", "android", "--seed", "4711", "--defect", "title-in-ring-id", "--trace=out.jsonl",
        ])
        #expect(command.seedRun.platform == .android)
        #expect(command.seedRun.seed == 4711)
        #expect(command.seedRun.defects == [.titleInRingID])
        #expect(command.tracePath == "out.jsonl")
    }
}

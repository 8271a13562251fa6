import AlarmSimCLI
import Testing

/// One wrong command line and words its error message must contain.
struct UsageCase: Codable, Sendable, CustomTestStringConvertible {
    var arguments: [String]
    /// Each must appear in stderr: what was wrong, and what to do.
    var mentions: [String]

    var testDescription: String { "alarmsim " + arguments.joined(separator: " ") }
}

@Suite("CLI usage errors")
struct UsageErrorTests {
    static let cases: [UsageCase] = [
        UsageCase(arguments: ["fuz"], mentions: ["unknown subcommand 'fuz'", "did you mean 'fuzz'?"]),
        UsageCase(arguments: ["--versio"], mentions: ["did you mean '--version'?"]),
        UsageCase(arguments: ["fuzz", "--sed", "1"], mentions: ["unknown option '--sed'", "did you mean '--seeds'?"]),
        UsageCase(arguments: ["--generate-completion-script", "bsh"], mentions: ["'bsh'", "did you mean 'bash'?", "bash|zsh|fish"]),
        // did you mean, for option values and list kinds too
        UsageCase(arguments: ["fuzz", "--platform", "iso"], mentions: ["unknown platform 'iso'", "did you mean 'ios'?"]),
        UsageCase(arguments: ["replay", "--platform", "andriod", "--seed", "1"], mentions: ["did you mean 'android'?"]),
        UsageCase(arguments: ["list", "defect"], mentions: ["cannot list 'defect'", "did you mean 'defects'?"]),
        UsageCase(arguments: ["fuzz", "--defect", "destructive-peak"], mentions: ["unknown defect 'destructive-peak'", "did you mean 'destructive-peek'?"]),
        UsageCase(arguments: ["fuzz", "--faults", "rebot"], mentions: ["unknown fault 'rebot'", "did you mean 'reboot'?"]),
        UsageCase(arguments: ["fuzz", "--profile", "unifrom"], mentions: ["unknown fault profile 'unifrom'", "did you mean 'uniform'?"]),
        UsageCase(arguments: ["defects", "--profiles", "swarn"], mentions: ["unknown profile 'swarn'", "did you mean 'swarm'?"]),
        UsageCase(arguments: ["fmt"], mentions: ["missing scenario file"]),
        UsageCase(arguments: ["import", "j.jsonl", "--out", "j.jsonl"], mentions: ["--out j.jsonl would overwrite the journal j.jsonl"]),
        UsageCase(arguments: ["run", "a.scenario", "--trace", "./a.scenario"], mentions: ["--trace ./a.scenario would overwrite the scenario file a.scenario"]),
        UsageCase(arguments: ["run", "a.scenario", "b.scenario", "--junit", "b.scenario"], mentions: ["--junit b.scenario would overwrite the scenario file b.scenario"]),
        UsageCase(arguments: ["fuzz", "--report", "-"], mentions: ["--report names a directory", "--report Reports/latest"]),
        UsageCase(arguments: ["explain", "--platform", "ios", "--seed", "1", "--report", "-"], mentions: ["--report names a directory"]),
        UsageCase(arguments: ["fmt", "a.scenario", "b.scenario"], mentions: ["exactly one", "--in-place", "--check"]),
        UsageCase(arguments: ["fmt", "--in-place", "--check", "a.scenario"], mentions: ["contradict"]),
        UsageCase(arguments: ["run", "--check", "--continue-seeds", "1..2", "a.scenario"], mentions: ["--check only parses"]),
        UsageCase(arguments: ["frobnicate"], mentions: ["unknown subcommand 'frobnicate'", "fuzz, merge, coverage, defects, shrink, replay, explain, diff, run, fmt, import, bench, exemptions, list"]),
        UsageCase(arguments: ["--seeds", "1..3"], mentions: ["unknown subcommand '--seeds'", "after the subcommand"]),
        UsageCase(arguments: ["fuzz", "--bogus"], mentions: ["unknown option '--bogus'", "--seeds"]),
        UsageCase(arguments: ["fuzz", "-x"], mentions: ["unknown option '-x'"]),
        UsageCase(arguments: ["fuzz", "stray"], mentions: ["unexpected argument 'stray'"]),
        UsageCase(arguments: ["fuzz", "--seeds"], mentions: ["'--seeds' needs a value", "--seeds 1..1000"]),
        UsageCase(arguments: ["fuzz", "--seeds", "--platform", "ios"], mentions: ["'--seeds' needs a value"]),
        UsageCase(arguments: ["fuzz", "--seeds="], mentions: ["'--seeds' needs a value"]),
        UsageCase(arguments: ["fuzz", "--seeds", "5..1"], mentions: ["'5..1'", "empty", "--seeds 1..5"]),
        UsageCase(arguments: ["fuzz", "--seeds", "x..3"], mentions: ["'x' is not a seed", "A..B"]),
        UsageCase(arguments: ["fuzz", "--seeds", "1..y"], mentions: ["'y' is not a seed"]),
        UsageCase(arguments: ["fuzz", "--seeds", "..3"], mentions: ["bound is missing"]),
        UsageCase(arguments: ["fuzz", "--seeds", "1...3"], mentions: ["'1...3'", "A..B"]),
        UsageCase(arguments: ["fuzz", "--seeds", "-4"], mentions: ["'-4' is not a seed"]),
        UsageCase(arguments: ["fuzz", "--seeds", "1..99999999999999999999"], mentions: ["larger than the largest seed, 18446744073709551615"]),
        UsageCase(arguments: ["fuzz", "--seeds", "99999999999999999999"], mentions: ["larger than the largest seed"]),
        UsageCase(arguments: ["fuzz", "--seeds", "1..2", "--seeds", "3..4"], mentions: ["given 2 times", "once"]),
        UsageCase(arguments: ["fuzz", "--platform", "windows"], mentions: ["unknown platform 'windows'", "ios, android or both"]),
        UsageCase(arguments: ["fuzz", "--defect", "gremlins"],
                  mentions: ["unknown defect 'gremlins'", "resync-while-alerting", "alarmsim list defects"]),
        UsageCase(arguments: ["fuzz", "--platform", "android", "--defect", "unavailable-read-as-empty"],
                  mentions: ["'unavailable-read-as-empty' does not apply to android", "--platform ios"]),
        UsageCase(arguments: ["replay", "--seed", "7"], mentions: ["missing --platform", "--platform ios"]),
        UsageCase(arguments: ["replay", "--platform", "ios"], mentions: ["missing --seed", "--seed 4711"]),
        UsageCase(arguments: ["replay", "--platform", "both", "--seed", "7"], mentions: ["one platform", "--platform ios"]),
        UsageCase(arguments: ["replay", "--platform", "ios", "--seed", "seven"], mentions: ["'seven' is not a seed"]),
        UsageCase(arguments: ["replay", "--platform", "ios", "--seed", "18446744073709551616"],
                  mentions: ["'18446744073709551616' is not a seed", "larger than the largest seed, 18446744073709551615"]),
        UsageCase(arguments: ["replay", "--platform", "ios", "--seed", "7", "--defect", "nope"], mentions: ["unknown defect 'nope'"]),
        UsageCase(arguments: ["replay", "--platform", "android", "--seed", "7", "--defect", "unavailable-read-as-empty"],
                  mentions: ["does not apply to android"]),
        UsageCase(arguments: ["replay", "--platform", "ios", "--seed", "7", "--trace"], mentions: ["'--trace' needs a value"]),
        UsageCase(arguments: ["fuzz", "--no-liveness=yes"], mentions: ["'--no-liveness' takes no value"]),
        UsageCase(arguments: ["run"], mentions: ["missing scenario file"]),
        UsageCase(arguments: ["run", "--strict", "a.scenario"], mentions: ["unknown option '--strict'"]),
        UsageCase(arguments: ["list"], mentions: ["missing what to list", "defects", "invariants"]),
        UsageCase(arguments: ["list", "bugs"], mentions: ["cannot list 'bugs'", "defects", "invariants", "faults"]),
        UsageCase(arguments: ["fuzz", "--faults", "gremlins"],
                  mentions: ["unknown fault 'gremlins'", "process-death", "reboot", "alarmsim list faults"]),
        UsageCase(arguments: ["fuzz", "--faults", "reboot,-gremlins"], mentions: ["unknown fault 'gremlins'"]),
        UsageCase(arguments: ["fuzz", "--faults", "reboot,-reboot"], mentions: ["'reboot' is forced both on and off"]),
        UsageCase(arguments: ["fuzz", "--profile", "chaos"], mentions: ["unknown fault profile 'chaos'", "swarm, uniform or none"]),
        UsageCase(arguments: ["fuzz", "--platform", "ios", "--faults", "doze"], mentions: ["'doze' does not apply to ios", "--platform android"]),
        UsageCase(arguments: ["replay", "--platform", "ios", "--seed", "7", "--faults", "nope"], mentions: ["unknown fault 'nope'"]),
        UsageCase(arguments: ["replay", "--platform", "ios", "--seed", "7", "--profile"], mentions: ["'--profile' needs a value"]),
        UsageCase(arguments: ["list", "defects", "invariants"], mentions: ["one thing at a time"]),
        UsageCase(arguments: ["help", "frobnicate"], mentions: ["'frobnicate'", "fuzz, merge, coverage, defects, shrink, replay, explain, diff, run, fmt, import, bench, exemptions, list"]),
        UsageCase(arguments: ["fuzz", "--no-shrink=yes"], mentions: ["'--no-shrink' takes no value"]),
        UsageCase(arguments: ["fuzz", "--no-shrink", "--shrink-dir", "x"], mentions: ["--no-shrink and --shrink-dir", "one of them"]),
        UsageCase(arguments: ["fuzz", "--shrink-dir"], mentions: ["'--shrink-dir' needs a value", "--shrink-dir Reports/shrunk"]),
        UsageCase(arguments: ["shrink", "--seed", "1"], mentions: ["missing --platform", "--platform ios"]),
        UsageCase(arguments: ["shrink", "--platform", "ios"], mentions: ["missing --seed", "--seed 4711"]),
        UsageCase(arguments: ["shrink", "--platform", "both", "--seed", "1"], mentions: ["one platform"]),
        UsageCase(arguments: ["shrink", "--platform", "ios", "--seed", "1", "--budget", "0"], mentions: ["'0' is not a budget", "--budget 2000"]),
        UsageCase(arguments: ["shrink", "--platform", "ios", "--seed", "1", "--budget", "lots"], mentions: ["'lots' is not a budget"]),
        UsageCase(arguments: ["shrink", "--platform", "android", "--seed", "1", "--defect", "unavailable-read-as-empty"],
                  mentions: ["does not apply to android"]),
        UsageCase(arguments: ["shrink", "--platform", "ios", "--seed", "1", "--out"], mentions: ["'--out' needs a value"]),
    ]

    @Test("every malformed command line exits 64 with a message naming the problem and the fix, on stderr only",
          arguments: cases)
    func usageErrorExits64(_ usage: UsageCase) {
        let run = cli(usage.arguments)
        #expect(run.status == .usage)
        #expect(run.status.rawValue == 64)
        #expect(run.output.isEmpty, "usage errors print nothing on stdout")
        for mention in usage.mentions {
            #expect(run.errors.contains(mention), "stderr lacks \"\(mention)\": \(run.errors)")
        }
    }

    @Test("a usage error for a subcommand also prints that subcommand's synopsis and where to get help",
          arguments: ["fuzz", "replay", "run", "list", "shrink"])
    func usageErrorShowsSynopsis(_ command: String) {
        let run = cli([command, "--no-such-option"])
        #expect(run.status == .usage)
        #expect(run.errors.contains("usage: alarmsim \(command)"))
        #expect(run.errors.contains("alarmsim \(command) --help"))
    }
}

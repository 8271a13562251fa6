import AlarmSimCLI
import Foundation
import Testing

/// The conventions of a Swift command line (swift-argument-parser's shape): help, version,
/// completion scripts, suggestions, `run --check` and `fmt`.
@Suite("CLI conventions: help, --version, completion, fmt, run --check")
struct ConventionTests {
    private func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.path + "/alarmsim-fmt-\(UUID().uuidString).scenario"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A scenario written loosely: extra spaces, explicit defaults, a comment on top.
    static let loose = """
        # a loose file
        platform   ios
        start 2026-03-02 06:00:00 Europe/Berlin
        seed 1
        alarm wake 07:00 weekly mon
        at +0d 06:10:00.000 user open-app
        expect no violations

        """

    @Test("bare alarmsim prints the help on stdout and succeeds")
    func bareHelp() {
        let run = cli([])
        #expect(run.status == .success)
        #expect(run.output.contains("SUBCOMMANDS:") && run.output.contains("fmt") && run.output.contains("--version"))
    }

    @Test("--version names the tool's version, the trace format and the zone data")
    func version() {
        let run = cli("--version")
        #expect(run.status == .success)
        #expect(run.output.hasPrefix("alarmsim ") && run.output.contains("alarmsim-trace/1") && run.output.contains("time-zone data"))
    }

    @Test("completion scripts list every subcommand and its options", arguments: ["bash", "zsh", "fish"])
    func completion(shell: String) {
        let run = cli("--generate-completion-script", shell)
        #expect(run.status == .success)
        for word in ["fuzz", "replay", "fmt", "seeds", "platform", "in-place"] {
            #expect(run.output.contains((shell == "fish" ? "" : "--") + word) || ["fuzz", "replay", "fmt"].contains(word) && run.output.contains(word),
                    "\(shell) script lacks \(word)")
        }
    }

    @Test("errors quoting a file's NUL or ESC, or an argument's, print them as visible pictures")
    func controlCharactersInErrors() throws {
        let path = try temporaryFile("platform ios\nstart 2026-03-02 06:55 UTC\nalarm wa\u{0}ke 07:00 once\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = cli("run", path)
        #expect(run.status == .dataError)
        #expect(run.errors.contains("wa\u{2400}ke"), "\(run.errors)")
        let argument = cli("fuzz", "--platform", "\u{1B}[31mios")
        #expect(argument.status == .usage)
        for text in [run.errors, argument.errors] {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }, "\(text)")
        }
    }

    @Test("completion offers option values and list kinds", arguments: ["bash", "zsh", "fish"])
    func completionValues(shell: String) {
        let script = cli("--generate-completion-script", shell).output
        for word in ["ios android both", "swarm uniform none", "destructive-peek", "reboot", "defects invariants faults exemptions"] {
            #expect(script.contains(word), "\(shell) script lacks \(word)")
        }
    }

    @Test("each subcommand's options are listed once")
    func completionOnce() {
        let bash = cli("--generate-completion-script", "bash").output
        #expect(!bash.contains("--help --help"))
        #expect(bash.contains("fuzz) COMPREPLY=($(compgen -W \"--platform --seeds"))
    }

    @Test("the bash script is valid bash")
    func bashSyntax() throws {
        let path = try temporaryFile(cli("--generate-completion-script", "bash").output)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-n", path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("fmt --check reports every file: one it cannot format does not hide the rest")
    func fmtCheckContinues() throws {
        let malformed = try temporaryFile("platform ios\nstart 2026-03-02 06:00 Europe/Berlin\nalarm a1 07:00 onse\nat 06:10 user open-app\n")
        let loose = try temporaryFile(Self.loose)
        defer { for path in [malformed, loose] { try? FileManager.default.removeItem(atPath: path) } }
        let run = cli("fmt", "--check", malformed, loose)
        #expect(run.status == .dataError)
        #expect(run.errors.contains(malformed + ":3:"), "\(run.errors)")
        #expect(run.output.contains("not canonical: \(loose)") && run.output.contains("1 could not be formatted"), "\(run.output)")
    }

    @Test("fmt prints the canonical form, which parses to the same scenario and is a fixed point")
    func fmtPrints() throws {
        let path = try temporaryFile(Self.loose)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = cli("fmt", path)
        #expect(first.status == .success)
        #expect(first.output.contains("platform ios\nstart 2026-03-02 06:00 Europe/Berlin\n"))
        #expect(first.output.contains("\nat 06:10 user open-app\n"))
        #expect(first.output.hasPrefix("# a loose file\n"), "the leading comment is kept")
        #expect(cli("fmt", "--check", path).status == .violations, "the loose file is not canonical")
        #expect(cli("fmt", "--in-place", path).status == .success)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == first.output)
        #expect(cli("fmt", "--check", path).status == .success, "formatting twice changes nothing")
        #expect(cli("run", path).status == .success, "the formatted file still runs")
    }

    @Test("fmt keeps every comment: the top block, lines above a directive, line ends and the file's end; the result is a fixed point and runs")
    func fmtKeepsComments() throws {
        let text = """
            # top
            platform ios
            start 2026-03-02 06:00 Europe/Berlin   # the zone matters
            alarm a1 07:00 once

            # opens Ember
            at 06:10 user open-app
            at 06:20   user  leave-app  # back to sleep
            expect no violations  # why
            # the end

            """
        let path = try temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = cli("fmt", path)
        #expect(first.status == .success, "\(first.errors)")
        #expect(first.output == """
            # top
            platform ios
            start 2026-03-02 06:00 Europe/Berlin  # the zone matters
            seed 1
            alarm a1 07:00 once
            # opens Ember
            at 06:10 user open-app
            at 06:20 user leave-app  # back to sleep
            expect no violations  # why
            # the end

            """, "\(first.output)")
        #expect(cli("fmt", "--in-place", path).status == .success)
        #expect(cli("fmt", "--check", path).status == .success, "formatting twice changes nothing")
        #expect(cli("run", path).status == .success, "the formatted file still runs")
    }

    @Test("every committed scenario is in canonical form (the help's 'fmt --check Scenarios/*/*.scenario' CI example holds)")
    func committedScenariosAreCanonical() throws {
        let root = InputFuzzTests.packageRoot.appendingPathComponent("Scenarios")
        let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        let paths = enumerator.compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".scenario") }.sorted()
        #expect(paths.count > 100)
        let run = cli(["fmt", "--check"] + paths)
        #expect(run.status == .success, "\(run.output.split(separator: "\n").prefix(10).joined(separator: "\n"))\n\(run.errors.prefix(2000))")
    }

    @Test("run --check parses and validates without running; a malformed file still exits 65")
    func runCheck() throws {
        let good = try temporaryFile(Self.loose)
        let bad = try temporaryFile(Self.loose.replacingOccurrences(of: "user open-app", with: "user opn-app"))
        defer { try? FileManager.default.removeItem(atPath: good); try? FileManager.default.removeItem(atPath: bad) }
        let run = cli("run", "--check", good)
        #expect(run.status == .success && run.output.contains("OK \(good)") && !run.output.contains("PASS"))
        let broken = cli("run", "--check", bad)
        #expect(broken.status == .dataError)
        #expect(broken.errors.contains(":6:26: unknown verb 'user opn-app' (did you mean 'open-app'?)"))
    }

    @Test("run --junit writes one test case per scenario file with file= its path; an unmet expectation is a failure")
    func runJUnit() throws {
        let good = try temporaryFile(Self.loose)
        let bad = try temporaryFile(Self.loose.replacingOccurrences(of: "expect no violations", with: "expect violation never-silent"))
        let report = FileManager.default.temporaryDirectory.path + "/alarmsim-junit-\(UUID().uuidString).xml"
        defer { for path in [good, bad, report] { try? FileManager.default.removeItem(atPath: path) } }
        let run = cli("run", good, bad, "--junit", report)
        #expect(run.status == .violations)
        let xml = try String(contentsOfFile: report, encoding: .utf8)
        #expect(xml.contains("tests=\"2\" failures=\"1\""))
        #expect(xml.contains("file=\"\(good)\" time=\"0\"/>"))
        #expect(xml.contains("file=\"\(bad)\" time=\"0\">") && xml.contains("<failure type=\"scenario\" message=\""))
    }

    @Test("fuzz prints each failing seed with its local time and repro the moment it is folded; JUnit names the first one")
    func failLinesAndJUnit() throws {
        let directory = FileManager.default.temporaryDirectory.path + "/alarmsim-fail-lines-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = cli("fuzz", "--platform", "ios", "--seeds", "1..2", "--defect", "title-in-ring-id", "--no-shrink", "--report", directory)
        #expect(run.status == .violations)
        #expect(run.errors.contains("FAIL ios seed 1: stable-ids at 2026-12-16 17:27:12 Europe/Berlin — primary of a1.mon"))
        #expect(run.errors.contains("  repro: alarmsim replay --platform ios --seed 1 --defect title-in-ring-id\n"))
        let junit = try String(contentsOfFile: directory + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("message=\"seed 1: primary of a1.mon"), "the first failing seed's message, not a list of seeds")
        #expect(junit.contains("(and 1 more failing seed)\""))
        #expect(!junit.contains("<testcase classname=\"alarmsim.ios\" name=\"never-silent\"/>"), "every case has a time")
    }
}

import AlarmSimCLI
import Foundation
import Scenario
import Simulation
import Testing

/// Field-bug workflows (issue 8): `alarmsim import` of a bridge journal, `run --continue-seeds`,
/// and `alarmsim diff`.
@Suite("Journal import, continuations and diff")
struct JournalWorkflowTests {
    static let journalPath = "Scenarios/journals/001-resume-sync.jsonl"
    static let scenarioPath = "Scenarios/journals/001-resume-sync.scenario"

    static func packageFile(_ path: String) throws -> String {
        try String(contentsOf: InputFuzzTests.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    static func load(_ text: String, file: String = "t.scenario") throws -> ScenarioFile {
        let scenario = try ScenarioParser.parse(text, file: file, knownDefects: KnownDefect.allCases.map(\.rawValue),
                                                knownInvariants: InvariantCatalog.all.map(\.id))
        try ScenarioRunner.validate(scenario, source: text)
        return scenario
    }

    /// The seed-001 journal up to just before the alarm rings, imported, with the defect switched on.
    static func prefixIntoDefect() throws -> ScenarioFile {
        let journal = try packageFile(journalPath).split(separator: "\n").prefix(6).joined(separator: "\n") + "\n"
        #expect(!journal.contains("\"alert\""), "the prefix ends before the alarm rings")
        let imported = try BridgeJournal.importJournal(journal, file: "prefix.jsonl")
        let text = imported.scenarioText.replacingOccurrences(of: "\nseed 42\n", with: "\nseed 42\ndefect resync-while-alerting\n")
        return try load(text, file: "prefix.scenario")
    }

    @Test("The committed example is what import makes of the committed journal, and it replays clean")
    func exampleJournal() throws {
        let imported = try BridgeJournal.importJournal(try Self.packageFile(Self.journalPath), file: Self.journalPath)
        #expect(imported.scenarioText == (try Self.packageFile(Self.scenarioPath)), "regenerate with: alarmsim import \(Self.journalPath) --out \(Self.scenarioPath)")
        #expect(imported.platform == .ios && imported.expectations == 4 && imported.scheduleComments == 1)
        let scenario = try Self.load(imported.scenarioText)
        let outcome = ScenarioRunner.run(scenario)
        #expect(outcome.passed, "\(outcome.failures)")
        // The journal's alerts were checked: the scenario holds alerting and silent expectations.
        #expect(scenario.events.contains { $0.actor == "expect" && $0.verb == "alerting" })
        // With the seed-001 defect the journal's own prefix breaks hands-off-alerting, as in the field.
        var defective = scenario
        defective.defects = ["resync-while-alerting"]
        #expect(ScenarioRunner.run(defective).result.firstViolation?.invariant == "hands-off-alerting")
    }

    @Test("run checks what the journal recorded: an alert the model does not reproduce fails the scenario")
    func journalExpectationsAreChecked() throws {
        // The journal says the alarm was still ringing at 07:00:40, after the app came to the foreground
        // at 07:00:20; the correct bridge silences it at once (FG-2), so the replay must disagree.
        let journal = try Self.packageFile(Self.journalPath).replacingOccurrences(
            of: "\"t\":1772431224000,\"kind\":\"alert\",\"alarm\":\"wake\",\"state\":\"ended\"",
            with: "\"t\":1772431239000,\"kind\":\"alert\",\"alarm\":\"wake\",\"state\":\"alerting\"")
        #expect(journal != (try Self.packageFile(Self.journalPath)), "the test edits the 07:00:24 alert line")
        let scenario = try Self.load(try BridgeJournal.importJournal(journal, file: "edited.jsonl").scenarioText, file: "edited.scenario")
        let outcome = ScenarioRunner.run(scenario)
        #expect(!outcome.passed)
        #expect(outcome.failures.contains { $0.contains("expected wake alerting") }, "\(outcome.failures)")
    }

    @Test("import maps every journal kind; failed schedule calls arm a fault before the event that led to them")
    func importMapsKinds() throws {
        let imported = try BridgeJournal.importJournal(InputFuzzTests.androidJournal, file: "a.jsonl")
        let lines = imported.scenarioText.split(separator: "\n").map(String.init)
        func index(_ fragment: String) -> Int? { lines.firstIndex { $0.contains(fragment) } }
        #expect(lines.contains("platform android") && lines.contains("start 2026-03-01 21:00 America/New_York"))
        #expect(lines.contains("param sim.start-ms 250") && lines.contains("param android.api-level 34"))
        #expect(lines.contains("param android.swipe-force-stops off"))
        #expect(lines.contains("alarm gym 06:30 weekly mon,wed,fri title \"Gym \\\"early\\\"\" challenge math"))
        let fault = try #require(index("fault schedule-failure 2"))
        let save = try #require(index("user edit-title nap \"Nap\""))
        #expect(fault + 1 == save, "the two failed calls arm one fault line right before the save that made them")
        #expect(index("user edit-alarm-time nap 14:00") == save + 1, "one journal save of two fields: two editor saves")
        #expect(lines[fault].hasPrefix("at 21:00:12 ") && lines[save].hasPrefix("at 21:00:12 "))
        #expect(index("expect save nap \"not-verified\"") != nil)
        #expect(index("at 21:00:15 app get-scheduled-times") != nil && index("at 21:00:17 expect registered gym on") != nil)
        #expect(index("device time-zone Europe/London") != nil && index("device set-clock -10m") != nil)
        #expect(index("user snooze 5m") != nil && index("user stop gym") != nil && index("user disable-alarm gym") != nil)
        #expect(index("fault process-death") != nil && index("expect alerting gym") != nil)
        #expect(imported.scheduleComments == 2 && lines.filter { $0.hasPrefix("# ") && $0.contains("bridge schedule nap") }.count == 2)
        _ = try Self.load(imported.scenarioText)
    }

    @Test("Journal errors are file:line:col at the offending value, exit 65", arguments: [
        ("{\"t\":1,\"kind\":\"lifecycle\",\"event\":\"launch\"}", 1, 1, "the first line must be the journal header"),
        ("HEADER\n{\"t\":1772430900000,\"kind\":\"alarm\",\"alarm\":\"wake\",\"time\":\"7:00\",\"repeat\":\"once\"}", 2, 57, "HH:MM"),
        ("HEADER\n{\"t\":1772430900000,\"kind\":\"nap\"}", 2, 27, "unknown kind \"nap\""),
        ("HEADER\n{\"t\":1772430960000,\"kind\":\"lifecycle\",\"event\":\"lock\"}\n{\"t\":1772430950000,\"kind\":\"lifecycle\",\"event\":\"unlock\"}", 3, 6, "time goes backwards"),
        ("HEADER\n{\"t\":1772430960000,\"kind\":\"lifecycle\",\"event\":\"lock\",}", 2, 54, "expected a quoted key"),
        ("HEADER\n{\"t\":1772430960000,\"kind\":\"action\",\"action\":\"stop\",\"alarm\":\"nap\"}", 2, 60, "unknown alarm \"nap\""),
        ("HEADER\n{\"t\":1772430960000,\"kind\":\"lifecycle\",\"event\":\"time-zone\",\"zone\":\"EST\"}", 2, 66, "unknown time zone"),
        ("HEADER\n{\"t\":1772430960000,\"kind\":\"lifecycle\",\"event\":\"clock-change\",\"delta_ms\":0}", 2, 73, "non-zero"),
    ])
    func journalErrors(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        let header = "{\"journal\":\"alarmsim-bridge-journal\",\"version\":1,\"platform\":\"ios\",\"zone\":\"Europe/Berlin\",\"t\":1772430900000}"
        let journal = text.replacingOccurrences(of: "HEADER", with: header) + "\n"
        let directory = try makeTemporaryDirectory("journal-errors")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("j.jsonl")
        try Data(journal.utf8).write(to: url)
        let run = cli("import", url.path)
        #expect(run.status == .dataError)
        #expect(run.errors.hasPrefix("\(url.path):\(line):\(column): ") && run.errors.contains(message), "\(run.errors)")
    }

    @Test("import: --platform is needed without a header platform and must agree with one; --out writes the file")
    func importPlatformAndOut() throws {
        let directory = try makeTemporaryDirectory("journal-import")
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = directory.appendingPathComponent("j.jsonl")
        try Data((try Self.packageFile(Self.journalPath)).replacingOccurrences(of: "\"platform\":\"ios\",", with: "").utf8).write(to: journal)
        let missing = cli("import", journal.path)
        #expect(missing.status == .dataError && missing.errors.contains(":1:1: ") && missing.errors.contains("--platform"))
        let out = directory.appendingPathComponent("j.scenario")
        let written = cli("import", journal.path, "--platform", "ios", "--out", out.path)
        #expect(written.status == .success && written.output.isEmpty && written.errors.contains("→ \(out.path)"))
        #expect(cli("run", out.path).status == .success)
        let conflict = cli("import", InputFuzzTests.packageRoot.appendingPathComponent(Self.journalPath).path, "--platform", "android")
        #expect(conflict.status == .dataError && conflict.errors.contains("--platform says android"))
        #expect(cli("import", directory.appendingPathComponent("none.jsonl").path).status == .ioError)
        // An --out that cannot be written (under a regular file) is refused before the import
        // (73, EX_CANTCREAT); a missing directory is created.
        #expect(cli("import", journal.path, "--out", out.path + "/dir.scenario", "--platform", "ios").status == .cannotCreate)
        #expect(cli("import", journal.path, "--out", directory.appendingPathComponent("no/such/dir.scenario").path, "--platform", "ios").status == .success)
        #expect(cli("import").status == .usage && cli("import", "a", "b").status == .usage)
        #expect(cli("import", journal.path, "--platform", "both").status == .usage)
    }

    @Test("A continuation replays the prefix exactly and is a pure function of (file, seed)")
    func continuationDeterminism() throws {
        let scenario = try Self.load(try Self.packageFile(Self.scenarioPath), file: Self.scenarioPath)
        let plain = ScenarioRunner.run(scenario, keepFullTrace: true).result
        let fromMs = try #require(Int64(ScenarioRunner.run(scenario, continuationSeed: 1).result.parameters
            .first { $0.name == "continue-from-wall-ms" }?.value ?? ""))
        var hashes: [String] = []
        for seed: UInt64 in 1...4 {
            let first = ScenarioRunner.run(scenario, keepFullTrace: true, continuationSeed: seed).result
            let again = ScenarioRunner.run(scenario, keepFullTrace: true, continuationSeed: seed).result
            #expect(first.traceHashHex == again.traceHashHex && first.eventCount == again.eventCount)
            hashes.append(first.traceHashHex)
            // The scripted prefix runs as written: every event before the continuation point is the plain run's.
            let prefix = plain.trace.events.filter { $0.trueMs < fromMs }
            #expect(Array(first.trace.events.prefix(prefix.count)) == prefix, "seed \(seed) changed the prefix")
            #expect(first.virtualDurationMs > plain.virtualDurationMs, "seed \(seed) continued past the prefix")
        }
        #expect(Set(hashes).count == hashes.count, "different seeds continue differently")
        // Through the CLI: the same lines twice, and a seed's repro line gives that seed's line.
        let path = InputFuzzTests.packageRoot.appendingPathComponent(Self.scenarioPath).path
        let range = cli("run", path, "--continue-seeds", "1..4")
        #expect(range.output == cli("run", path, "--continue-seeds", "1..4").output)
        #expect(range.output.contains("continuations: 4 seeds"))
        let single = cli("run", path, "--continue-seeds", "3..3")
        let seedLine = try #require(single.output.split(separator: "\n").first)
        #expect(range.output.contains(String(seedLine)))
    }

    @Test("A journal that leads into a known defect: some continuation seed finds it, the correct bridge does not")
    func continuationFindsDefect() throws {
        let scenario = try Self.prefixIntoDefect()
        #expect(ScenarioRunner.run(scenario).result.violations.isEmpty, "the prefix alone does not break anything")
        var correct = scenario
        correct.defects = []
        var found: UInt64?
        for seed: UInt64 in 1...20 where found == nil {
            if ScenarioRunner.run(scenario, continuationSeed: seed).result.firstViolation?.invariant == "hands-off-alerting" { found = seed }
        }
        let seed = try #require(found, "no continuation seed in 1..20 found resync-while-alerting")
        #expect(!ScenarioRunner.run(correct, continuationSeed: seed).result.violations.contains { $0.invariant == "hands-off-alerting" })
        // The CLI reports it with a repro line and exit 1.
        let directory = try makeTemporaryDirectory("continue-defect")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("prefix.scenario")
        try Data(ScenarioPrinter.print(scenario).utf8).write(to: url)
        let run = cli("run", url.path, "--continue-seeds", "\(seed)..\(seed)")
        #expect(run.status == .violations)
        #expect(run.output.contains("FAIL \(url.path) seed \(seed): hands-off-alerting"))
        #expect(run.output.contains("  repro: alarmsim run \(url.path) --continue-seeds \(seed)..\(seed)"))
    }

    @Test("run --continue-seeds usage errors")
    func continueUsage() {
        #expect(cli("run", "a.scenario", "b.scenario", "--continue-seeds", "1..2").status == .usage)
        let bad = cli("run", "a.scenario", "--continue-seeds", "5..1")
        #expect(bad.status == .usage && bad.errors.contains("--continue-seeds"))
        #expect(cli("run", "a.scenario", "--continue-seeds", "1..3", "--trace", "t.jsonl").status == .usage)
    }

    @Test("diff: a defect against the correct bridge diverges at the first differing event; identical runs exit 0")
    func diffSeeds() throws {
        let run = cli("diff", "--platform", "ios", "--seed", "1", "--defect", "title-in-ring-id", "--context", "2")
        #expect(run.status == .violations)
        let lines = run.output.split(separator: "\n").map(String.init)
        let at = try #require(lines.firstIndex { $0.hasPrefix("first divergence at trace event ") })
        #expect(lines[at].contains("Europe/Berlin"))
        #expect(lines[at + 3].hasPrefix("< ") && lines[at + 4].hasPrefix("> ") && lines[at + 1].hasPrefix("  "))
        #expect(lines[at + 3] != lines[at + 4])
        #expect(run.output.contains("A: violation stable-ids") && run.output.contains("B: clean"))
        // Text for people: no epoch milliseconds, no Swift type names in the field values.
        #expect(run.output.range(of: #"\b1[0-9]{12}\b"#, options: .regularExpression) == nil, "\(run.output)")
        #expect(!run.output.contains("Optional(") && !run.output.contains("AlarmBridge."))
        // The index is the first event that differs: the runs agree on every event before it.
        let index = try #require(Int(lines[at].split(separator: " ")[5].dropLast()))
        let a = Simulator.run(RunOptions(platform: .ios, seed: 1, defects: [.titleInRingID], keepFullTrace: true)).trace.events
        let b = Simulator.run(RunOptions(platform: .ios, seed: 1, keepFullTrace: true)).trace.events
        #expect(Array(a.prefix(index)) == Array(b.prefix(index)) && a[index] != b[index])
        let path = InputFuzzTests.packageRoot.appendingPathComponent(Self.scenarioPath).path
        let same = cli("diff", path, path)
        #expect(same.status == .success && same.output.contains("identical traces"))
    }

    @Test("diff: usage, unreadable and malformed inputs")
    func diffErrors() throws {
        #expect(cli("diff", "--platform", "ios", "--seed", "1").status == .usage)  // both sides the correct bridge
        #expect(cli("diff", "--platform", "ios", "--seed", "1", "--defect", "title-in-ring-id", "--vs-defect", "title-in-ring-id").status == .usage)
        #expect(cli("diff", "a.scenario").status == .usage)
        #expect(cli("diff", "a.scenario", "b.scenario", "--seed", "3").status == .usage)
        #expect(cli("diff", "--platform", "android", "--seed", "1", "--defect", "unavailable-read-as-empty").status == .usage)
        let directory = try makeTemporaryDirectory("diff-errors")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.scenario")
        try Data("platform ios\nstart 2026-03-02 06:55 Mars/Base\n".utf8).write(to: bad)
        let malformed = cli("diff", bad.path, bad.path)
        #expect(malformed.status == .dataError && malformed.errors.hasPrefix("\(bad.path):2:24: "))
        #expect(cli("diff", bad.path, directory.appendingPathComponent("none.scenario").path).status == .dataError)
        #expect(cli("diff", directory.appendingPathComponent("none.scenario").path, bad.path).status == .ioError)
    }

    @Test("import, diff and run --continue-seeds have --help with examples")
    func help() {
        for command in ["import", "diff"] {
            let run = cli(command, "--help")
            #expect(run.status == .success && run.output.contains("EXAMPLES:") && run.output.contains("alarmsim \(command) "))
        }
        #expect(cli("run", "--help").output.contains("--continue-seeds"))
        #expect(cli("help").output.contains("import") && cli("help").output.contains("diff"))
    }
}

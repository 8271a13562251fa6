import AlarmSimCLI
import Foundation
import Scenario
import Simulation
import Testing

/// Robustness of inputs (issue 8): thousands of deterministically mutated scenario files and
/// bridge journals must each parse, or fail with the parser's `file:line:col` error pointing
/// inside the file — never crash, never hang. A sample goes through the CLI in-process, which
/// must exit 65 with such a message.
@Suite("Input fuzz: scenario parser and journal importer")
struct InputFuzzTests {
    static let defects = KnownDefect.allCases.map(\.rawValue)
    static let invariants = InvariantCatalog.all.map(\.id)
    /// A single parse (and validation) that takes longer than this is a hang.
    static let perFileLimitMs: Int64 = 2_000
    /// A hang guard for one brief scenario run of a mutant (wall ms), not a speed check.
    static let runHangLimitMs: Int64 = 120_000

    /// The package root: three levels up from this file.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Every committed scenario file, in path order.
    static func corpus() throws -> [(path: String, text: String)] {
        let root = Self.packageRoot.appendingPathComponent("Scenarios")
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var paths: [String] = []
        while let next = enumerator?.nextObject() as? String {
            if next.hasSuffix(".scenario") { paths.append(next) }
        }
        return try paths.sorted().map { path in
            (path, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
        }
    }

    /// Lines as the parser counts them (`\n`, `\r\n`, `\r`), each as Unicode scalars.
    static func lines(_ text: String) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = [[]]
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previousWasCR { previousWasCR = false; continue }
            previousWasCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" { lines.append([]) } else { lines[lines.count - 1].append(scalar) }
        }
        return lines
    }

    /// Whether the error points inside `text`: a real line, a column at most one past its end.
    static func inBounds(_ error: ScenarioError, _ text: String, file: String) -> Bool {
        let lines = lines(text)
        guard error.file == file, error.line >= 1, error.line <= lines.count, error.column >= 1 else { return false }
        return error.column <= lines[error.line - 1].count + 1 && !error.message.isEmpty
    }

    static func elapsedMs(_ start: ContinuousClock.Instant) -> Int64 {
        let elapsed = start.duration(to: ContinuousClock.now)  // determinism-ok: a hang check in a test, never reaches a run
        return elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }

    /// Words the scenario mutator substitutes for tokens: the vocabulary, keywords, parameter keys,
    /// and the values parsers get wrong (huge numbers, signs, unicode, quotes, empty strings).
    static let scenarioTokens: [String] = {
        var tokens = ["platform", "start", "seed", "defect", "param", "alarm", "at", "expect", "ios", "android", "once", "weekly",
                      "mon,tue", "mon,mon", "policy", "title", "challenge", "sounds", "skip", "countdown", "violation", "no",
                      "violations", "on", "off", "+1d", "+3660d", "+3661d", "+99999999999999999999d", "+d", "+-1d", "24:00",
                      "23:59:59.999", "07:00:00.5", "7:00", "07:60", "2026-02-30", "2026-13-01", "0000-01-01", "99999-01-01",
                      "Europe/Berlin", "EST", "GMT+5", "Mars/Olympus", "UTC", "99999999999999999999", "18446744073709551616",
                      "-1", "0", "1000001", "720h", "721h", "0ms", "-0s", "+0m", "-1h", "+30m", "5", "\"\"", "\"", "\"\\q\"",
                      "\"a\"b", "#", "\"#\"", "Ünïcödé", "e\u{301}", "\u{1F600}", "\u{200B}", "\u{FEFF}", "\u{2028}", "\t",
                      "1/0", "0/1", "2/1", "never", "3/2", "\"progressive: a,b | c\"", "\"random:\"", "2026-03-03,2026-03-03"]
        tokens += ScenarioVocabulary.verbs.flatMap { [$0.actor, $0.verb] }
        tokens += ScenarioRunner.parameterKeys
        tokens += KnownDefect.allCases.prefix(5).map(\.rawValue) + InvariantCatalog.all.prefix(5).map(\.id)
        return tokens
    }()

    /// One deterministic mutation of `text`.
    static func mutate(_ text: String, _ rng: inout FuzzRNG, tokens: [String]) -> String {
        var lines = text.components(separatedBy: "\n")
        func randomLine() -> Int { rng.below(lines.count) }
        switch rng.below(11) {
        case 0:  // flip one byte to another ASCII byte (invalid UTF-8 is the CLI's job: see below)
            var bytes = Array(text.utf8)
            guard !bytes.isEmpty else { return text }
            bytes[rng.below(bytes.count)] = UInt8(rng.below(0x7F) + 1)
            return String(decoding: bytes, as: UTF8.self)
        case 1: lines.remove(at: randomLine())
        case 2: let index = randomLine(); lines.insert(lines[index], at: index)
        case 3: lines.swapAt(randomLine(), randomLine())
        case 4:  // truncate at a scalar boundary
            let scalars = Array(text.unicodeScalars)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars.prefix(rng.below(scalars.count + 1)))
            return String(view)
        case 5, 6, 7:  // substitute a token
            let index = randomLine()
            var words = lines[index].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            guard !words.isEmpty else { return text }
            words[rng.below(words.count)] = tokens[rng.below(tokens.count)]
            lines[index] = words.joined(separator: " ")
        case 8:  // drop a token (empty values, missing arguments)
            let index = randomLine()
            var words = lines[index].split(separator: " ").map(String.init)
            guard !words.isEmpty else { return text }
            words.remove(at: rng.below(words.count))
            lines[index] = words.joined(separator: " ")
        case 9:  // insert a token
            let index = randomLine()
            var words = lines[index].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            words.insert(tokens[rng.below(tokens.count)], at: rng.below(words.count + 1))
            lines[index] = words.joined(separator: " ")
        default:  // line-end styles and stray separators
            let index = randomLine()
            lines[index] += ["\r", "\r\n", "\t", " # comment", "\u{0}", "\u{85}"][rng.below(6)]
        }
        return lines.joined(separator: "\n")
    }

    /// Parses and validates as `alarmsim run` does.
    static func load(_ text: String, file: String) throws(ScenarioError) -> ScenarioFile {
        let scenario = try ScenarioParser.parse(text, file: file, knownDefects: defects, knownInvariants: invariants)
        try ScenarioRunner.validate(scenario, source: text)
        return scenario
    }

    @Test("3,000 mutated scenario files parse or give an in-bounds file:line:col error; a sample exits 65 through run")
    func scenarioParserFuzz() throws {
        let corpus = try Self.corpus()
        #expect(corpus.count >= 20, "the corpus is the committed scenarios")
        let directory = try makeTemporaryDirectory("parser-fuzz")
        defer { try? FileManager.default.removeItem(at: directory) }
        // ALARMSIM_FUZZ_MUTANTS=N ALARMSIM_FUZZ_SEED=S: a longer hunt (the suite's default is fixed).
        let environment = ProcessInfo.processInfo.environment
        var rng = FuzzRNG(seed: environment["ALARMSIM_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5CE9_A210)
        let mutants = environment["ALARMSIM_FUZZ_MUTANTS"].flatMap(Int.init) ?? 3_000
        var parsed = 0, rejected = 0, ran = 0, cliChecked = 0
        for number in 0..<mutants {
            let (path, original) = corpus[rng.below(corpus.count)]
            var text = original
            for _ in 0...rng.below(3) { text = Self.mutate(text, &rng, tokens: Self.scenarioTokens) }
            let file = "mutant-\(number)-\(path.replacingOccurrences(of: "/", with: "_"))"
            let start = ContinuousClock.now  // determinism-ok: hang check
            do {
                let scenario = try Self.load(text, file: file)
                parsed += 1
                let parseMs = Self.elapsedMs(start)
                #expect(parseMs < Self.perFileLimitMs, "parsing mutant \(number) of \(path) took \(parseMs) ms")
                // Run the cheap valid ones briefly: short spans only, one in five.
                let spanMs = scenario.events.last?.time.millisecondsSinceStartDateMidnight ?? 0
                if number % 5 == 0, spanMs < 3 * 86_400_000, !scenario.parameters.contains(where: { ["sim.duration-ms", "sim.liveness"].contains($0.key) }) {
                    let runStart = ContinuousClock.now  // determinism-ok: a time check
                    let outcome = ScenarioRunner.run(scenario)
                    ran += 1
                    let runMs = Self.elapsedMs(runStart)
                    // The runner's own limits bound the work (a deterministic check); the wall
                    // clock is only a hang guard, loose enough for a loaded 2-core machine that
                    // runs the suite in parallel (a 10 s bound failed there at 24 s, for a run
                    // well inside its event limit).
                    #expect(outcome.result.eventCount <= ScenarioRunner.defaultMaxEvents,
                            "running mutant \(number) of \(path) passed the event limit: \(outcome.result.eventCount) events")
                    #expect(runMs < Self.runHangLimitMs, "running mutant \(number) of \(path) took \(runMs) ms, \(outcome.result.eventCount) events:\n\(text)")
                }
                continue
            } catch {
                rejected += 1
                #expect(Self.inBounds(error, text, file: file), "out of bounds: \(error) for mutant \(number) of \(path)")
                if rejected % 40 == 0 {
                    let url = directory.appendingPathComponent("m\(number).scenario")
                    try Data(text.utf8).write(to: url)
                    let run = cli("run", url.path)
                    #expect(run.status == .dataError, "mutant \(number): \(run.errors)")
                    #expect(run.errors.hasPrefix("\(url.path):\(error.line):\(error.column): "), "mutant \(number): \(run.errors)")
                    cliChecked += 1
                }
            }
            let ms = Self.elapsedMs(start)
            #expect(ms < Self.perFileLimitMs, "mutant \(number) of \(path) took \(ms) ms")
        }
        #expect(parsed > 100 && rejected > 1_000, "the mutations reach both outcomes: \(parsed) parsed, \(rejected) rejected")
        #expect(cliChecked >= 20 && ran >= 10)
        // Invalid UTF-8 never reaches the parser: the CLI names the first bad byte's line and column.
        for number in 0..<10 {
            var bytes = Array(corpus[number].text.utf8)
            let at = rng.below(bytes.count)
            bytes[at] = [0xFF, 0xC3, 0x80, 0xED][number % 4]
            let url = directory.appendingPathComponent("utf8-\(number).scenario")
            try Data(bytes).write(to: url)
            let run = cli("run", url.path)
            #expect(run.status == .dataError && run.errors.hasPrefix(url.path + ":") && run.errors.contains("UTF-8"), "\(run.errors)")
        }
    }

    /// Positions the line-ending and combining-mark mutations got wrong once: validation errors
    /// (a defect of the other platform, a bad editor value) pointed at 1:1 in a CRLF or CR file,
    /// or counted Characters instead of Unicode scalars.
    @Test("Validation errors point at the parser's line and scalar column", arguments: [
        ("platform android\r\nstart 2026-03-02 06:55 Europe/Berlin\r\ndefect unavailable-read-as-empty\r\n", 3, 8),
        ("platform android\rstart 2026-03-02 06:55 Europe/Berlin\rdefect unavailable-read-as-empty\r", 3, 8),
        ("platform ios\r\nstart 2026-03-02 06:55 Europe/Berlin\r\nalarm wake 07:00 once\r\nat 07:01 fault force-stop\r\n", 4, 16),
        ("platform ios\nstart 2026-03-02 06:55 Europe/Berlin\nalarm we 07:00 once\nat 07:01 user edit-weekdays we \"e\u{301}\u{301}\"\n", 4, 32),
        ("platform ios\rstart 2026-03-02 06:55 Europe/Berlin\ralarm wake 07:00 once\rat 07:01 user edit-policy wake \"4\"\r", 4, 32),
    ])
    func validationPositions(_ text: String, _ line: Int, _ column: Int) {
        do {
            _ = try Self.load(text, file: "f.scenario")
            Issue.record("\(text.debugDescription) should not validate")
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(Self.inBounds(error, text, file: "f.scenario"), "\(error)")
        }
    }

    // MARK: - Journals

    /// A journal with every kind, for the importer's fuzz corpus and tests.
    static let androidJournal = """
        {"journal":"alarmsim-bridge-journal","version":1,"platform":"android","zone":"America/New_York","t":1772416800250,"seed":7,"device":"Pixel 8","params":{"android.api-level":34,"android.swipe-force-stops":false}}
        {"t":1772416800250,"kind":"alarm","alarm":"gym","time":"06:30","repeat":"mon,wed,fri","title":"Gym \\"early\\"","challenge":"math"}
        {"t":1772416800250,"kind":"alarm","alarm":"nap","time":"13:30","repeat":"once"}
        {"t":1772416810000,"kind":"lifecycle","event":"foreground"}
        {"t":1772416812000,"kind":"action","action":"save","alarm":"nap","time":"14:00","title":"Nap"}
        {"t":1772416812100,"kind":"schedule","call":"schedule","alarm":"nap","id":"a1","fire":1772476800000,"result":"failed: SecurityException"}
        {"t":1772416812200,"kind":"schedule","call":"schedule","alarm":"nap","id":"a1","fire":1772476800000,"result":"failed: SecurityException"}
        {"t":1772416813000,"kind":"save-result","alarm":"nap","result":"not-verified"}
        {"t":1772416815000,"kind":"scheduled-times","registered":["gym"],"unregistered":[]}
        {"t":1772416820000,"kind":"lifecycle","event":"background"}
        {"t":1772420000000,"kind":"lifecycle","event":"time-zone","zone":"Europe/London"}
        {"t":1772421000000,"kind":"lifecycle","event":"clock-change","delta_ms":-600000}
        {"t":1772422000000,"kind":"lifecycle","event":"reboot"}
        {"t":1772422060000,"kind":"lifecycle","event":"unlock"}
        {"t":1772438000000,"kind":"alert","alarm":"gym","state":"alerting"}
        {"t":1772438010000,"kind":"action","action":"snooze","duration_ms":300000}
        {"t":1772438020000,"kind":"action","action":"stop","alarm":"gym"}
        {"t":1772438030000,"kind":"action","action":"save","alarm":"gym","enabled":false}
        {"t":1772438040000,"kind":"lifecycle","event":"process-death"}
        """

    static let journalTokens = ["{", "}", "[", "]", ",", ":", "\"", "\\", "\\u12", "\\ud800", "\\u0000", "1e400", "-0", "0.5",
                                "99999999999999999999", "-1", "null", "true", "false", "\"\"", "\"kind\"", "\"t\"", "\"alarm\"",
                                "\"lifecycle\"", "\"action\"", "\"schedule\"", "\"save\"", "\"25:00\"", "\"mon,mon\"", "\"Mars/Base\"",
                                "\"\\n\"", "\"é\"", "\"\u{1F600}\"", "{}", "[]", "\"ok\"", "\"failed\"", "9223372036854775807",
                                "-9223372036854775808", "\"version\"", "2"]

    static func mutateJournal(_ text: String, _ rng: inout FuzzRNG) -> String {
        guard rng.below(3) == 0 else { return mutate(text, &rng, tokens: journalTokens) }
        // JSON-aware: replace a value after a colon, or cut an object short.
        var lines = text.components(separatedBy: "\n")
        let index = rng.below(lines.count)
        var line = Array(lines[index].unicodeScalars)
        let colons = line.indices.filter { line[$0] == ":" }
        guard let colon = colons.isEmpty ? nil : colons[rng.below(colons.count)] else { return text }
        var end = colon + 1
        while end < line.count, line[end] != ",", line[end] != "}" { end += 1 }
        line.replaceSubrange((colon + 1)..<end, with: Array(journalTokens[rng.below(journalTokens.count)].unicodeScalars))
        var view = String.UnicodeScalarView()
        view.append(contentsOf: line)
        lines[index] = String(view)
        return lines.joined(separator: "\n")
    }

    @Test("1,500 mutated journals import or give an in-bounds file:line:col error; every import parses and validates")
    func journalImporterFuzz() throws {
        let example = try String(contentsOf: Self.packageRoot.appendingPathComponent("Scenarios/journals/001-resume-sync.jsonl"),
                                 encoding: .utf8)
        let corpus = [example, Self.androidJournal]
        let directory = try makeTemporaryDirectory("journal-fuzz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ProcessInfo.processInfo.environment
        var rng = FuzzRNG(seed: environment["ALARMSIM_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x10_2A_11)
        var imported = 0, rejected = 0, cliChecked = 0
        for number in 0..<(environment["ALARMSIM_FUZZ_MUTANTS"].flatMap(Int.init).map { $0 / 2 } ?? 1_500) {
            var text = corpus[number % 2]
            for _ in 0...rng.below(2) { text = Self.mutateJournal(text, &rng) }
            let file = "journal-\(number).jsonl"
            let start = ContinuousClock.now  // determinism-ok: hang check
            do throws(ScenarioError) {
                let result = try BridgeJournal.importJournal(text, file: file, platform: number % 3 == 0 ? nil : .ios)
                imported += 1
                _ = try Self.load(result.scenarioText, file: "imported.scenario")
            } catch {
                rejected += 1
                #expect(Self.inBounds(error, text, file: file), "out of bounds: \(error) for journal mutant \(number)")
                if rejected % 25 == 0 {
                    let url = directory.appendingPathComponent("j\(number).jsonl")
                    try Data(text.utf8).write(to: url)
                    let run = cli("import", url.path, "--platform", "ios")
                    #expect(run.status == .dataError && run.errors.hasPrefix(url.path + ":"), "journal mutant \(number): \(run.errors)")
                    cliChecked += 1
                }
            }
            #expect(Self.elapsedMs(start) < Self.perFileLimitMs, "journal mutant \(number) hangs")
        }
        #expect(imported > 30 && rejected > 500, "both outcomes: \(imported) imported, \(rejected) rejected")
        #expect(cliChecked >= 10)
    }
}

/// SplitMix64: the fuzz tests' own PRNG, so their mutants never move when the simulator's change.
struct FuzzRNG {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A value in `0..<bound` (bound ≥ 1).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}

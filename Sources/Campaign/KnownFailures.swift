import AlarmBridge
import SimKernel
import Simulation

/// One line of a known-failures file (``KnownFailureFile``): a seed that failed before, named by
/// the words of its repro line, replayed before a campaign's new seeds (issue 19 part 4, in the
/// manner of proptest's `proptest-regressions/` and Hypothesis's example database).
public struct KnownFailure: Sendable, Equatable {
    public var platform: PlatformFlavor
    public var seed: UInt64
    /// Sorted, de-duplicated (as ``Campaign/reproLine(platform:seed:defects:faults:liveness:command:)`` prints them).
    public var defects: [KnownDefect]
    public var faults: FaultSelection
    public var liveness: Bool
    /// The 1-based line of the file it came from.
    public var line: Int

    public init(platform: PlatformFlavor, seed: UInt64, defects: [KnownDefect] = [], faults: FaultSelection = .swarm,
                liveness: Bool = true, line: Int = 0) {
        self.platform = platform
        self.seed = seed
        self.defects = Array(Set(defects)).sorted()
        self.faults = faults
        self.liveness = liveness
        self.line = line
    }

    /// `alarmsim replay --platform ios --seed 17 …`, the canonical form of the line.
    public var repro: String {
        Campaign.reproLine(platform: platform, seed: seed, defects: defects, faults: faults, liveness: liveness)
    }

    /// The options that replay it alone (one platform, one seed).
    public var fuzzOptions: FuzzOptions {
        FuzzOptions(platforms: [platform], seeds: seed...seed, defects: defects, faults: faults, liveness: liveness)
    }

    /// Whether a campaign with `options` replays it: its platform is one of the campaign's and its
    /// defects are exactly those the campaign runs there, so a seed recorded by a defect campaign
    /// never fails a campaign of the correct bridge (and the other way round).
    public func applies(to options: FuzzOptions) -> Bool {
        options.platforms.contains(platform) && Campaign.applicableDefects(options.defects, on: platform) == defects
    }
}

/// What replaying a campaign's known failures found: every line replayed, in file order, and
/// those that still fail. Part of ``FuzzSummary`` only when a known-failures file was read.
public struct KnownReplay: Sendable, Equatable {
    /// The file, as named on the command line (or the default path).
    public var file: String
    /// The repro lines replayed, in file order.
    public var replayed: [String]
    /// The replayed seeds that still fail, in file order (a `crash` among them when a replay trapped).
    public var stillFailing: [FailingSeed]
    /// Lines of the file for other platforms or other defects than the campaign's: not replayed.
    public var notReplayed: Int

    public init(file: String, replayed: [String] = [], stillFailing: [FailingSeed] = [], notReplayed: Int = 0) {
        self.file = file
        self.replayed = replayed
        self.stillFailing = stillFailing
        self.notReplayed = notReplayed
    }

    /// `known failures replayed: 2, still failing: 1` (and the lines not replayed, when any).
    public var line: String {
        var text = "known failures replayed: \(replayed.count), still failing: \(stillFailing.count)"
        if notReplayed > 0 {
            text += " (\(notReplayed) \(notReplayed == 1 ? "line" : "lines") of \(file) for other platforms or defects not replayed)"
        }
        return text
    }
}

/// The known-failures file: one repro line per failing seed, as `alarmsim fuzz` prints it
/// (`alarmsim replay --platform P --seed N [--defect D]… [--profile P] [--faults A,-B] [--no-liveness]`;
/// the leading `alarmsim replay` may be left out); blank lines and `#` comments (a whole line, or
/// from a word starting with `#` to the end of the line) are ignored.
public enum KnownFailureFile {
    /// Next to the committed regression scenarios.
    public static let defaultPath = "Scenarios/regressions/failures.txt"

    /// The comment a new file starts with.
    public static let header = """
        # Known failures: one repro line per failing seed, as 'alarmsim fuzz' prints it. 'alarmsim fuzz'
        # replays the lines for its platforms and defects before its new seeds (--no-replay-known skips
        # them); 'fuzz --record-failures' appends the failing seeds it finds. Remove a line once its fix
        # has landed and its shrunk regression is under Scenarios/regressions/.

        """

    /// A malformed line: `path:line:col: what is wrong`.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var line: Int
        /// 1-based, in characters.
        public var column: Int
        public var message: String
        public var description: String { "\(path):\(line):\(column): \(message)" }
    }

    /// One word of a line and its 1-based column.
    struct Word {
        var text: String
        var column: Int
    }

    /// Parses a whole file.
    /// - Parameter path: For messages.
    /// - Throws: ``ParseError`` at the first malformed line: an unknown word or option, a missing
    ///   or malformed value, a defect or forced fault that does not exist on the line's platform,
    ///   or a line that repeats an earlier one.
    public static func parse(_ text: String, path: String) throws(ParseError) -> [KnownFailure] {
        var failures: [KnownFailure] = []
        var seen: [(repro: String, line: Int)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = self.words(of: line.hasSuffix("\r") ? line.dropLast() : line)
            guard !words.isEmpty else { continue }
            var failure = try parseLine(words, line: index + 1, path: path)
            failure.line = index + 1
            if let earlier = seen.first(where: { $0.repro == failure.repro }) {
                throw ParseError(path: path, line: index + 1, column: words[0].column,
                                 message: "repeats line \(earlier.line) (\(failure.repro)); keep one of them")
            }
            seen.append((failure.repro, index + 1))
            failures.append(failure)
        }
        return failures
    }

    /// The words of a line up to a comment, split at spaces and tabs.
    static func words(of line: Substring) -> [Word] {
        var words: [Word] = []
        var current = ""
        var start = 0
        for (offset, character) in line.enumerated() {
            if character == " " || character == "\t" {
                if !current.isEmpty { words.append(Word(text: current, column: start)) }
                current = ""
                continue
            }
            if current.isEmpty {
                if character == "#" { return words }
                start = offset + 1
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(Word(text: current, column: start)) }
        return words
    }

    static let valuedOptions = ["platform", "seed", "defect", "profile", "faults"]
    static let flagOptions = ["no-liveness"]

    /// One non-empty line.
    static func parseLine(_ words: [Word], line: Int, path: String) throws(ParseError) -> KnownFailure {
        func fail(_ word: Word?, _ message: String) -> ParseError {
            ParseError(path: path, line: line, column: word?.column ?? (words.last.map { $0.column + $0.text.count } ?? 1),
                       message: TerminalText.visible(message))
        }
        var index = 0
        if words[0].text == "alarmsim" {
            guard words.count > 1, words[1].text == "replay" else {
                throw fail(words.count > 1 ? words[1] : nil, "expected 'alarmsim replay' and the seed's options, as the fuzz repro line prints them")
            }
            index = 2
        }
        var values: [(name: String, word: Word, value: Word)] = []
        var liveness = true
        while index < words.count {
            let word = words[index]
            index += 1
            let name = word.text.hasPrefix("--") ? String(word.text.dropFirst(2)) : ""
            if flagOptions.contains(name) {
                guard liveness else { throw fail(word, "--\(name) is given twice; give it once") }
                liveness = false
                continue
            }
            guard valuedOptions.contains(name) else {
                let hint = Suggestion.hint(for: name.isEmpty ? word.text : name, among: valuedOptions + flagOptions, prefix: "--")
                throw fail(word, "unexpected '\(word.text)'\(hint); a line is a repro line: --platform P --seed N [--defect D]… [--profile P] [--faults A,-B] [--no-liveness]")
            }
            guard index < words.count, !words[index].text.hasPrefix("--") else {
                throw fail(index < words.count ? words[index] : nil, "--\(name) needs a value")
            }
            if ["platform", "seed", "profile"].contains(name), let earlier = values.first(where: { $0.name == name }) {
                throw fail(word, "--\(name) is given twice (first at column \(earlier.word.column)); give it once")
            }
            values.append((name, word, words[index]))
            index += 1
        }
        return try failure(values, liveness: liveness, fail: fail)
    }

    /// Turns a line's option values into a ``KnownFailure``.
    private static func failure(_ values: [(name: String, word: Word, value: Word)], liveness: Bool,
                                fail: (Word?, String) -> ParseError) throws(ParseError) -> KnownFailure {
        guard let platformValue = values.first(where: { $0.name == "platform" })?.value else {
            throw fail(nil, "missing --platform: say which platform the seed ran on, e.g. --platform ios")
        }
        guard let platform = PlatformFlavor(rawValue: platformValue.text) else {
            throw fail(platformValue, "unknown platform '\(platformValue.text)'; expected ios or android")
        }
        guard let seedValue = values.first(where: { $0.name == "seed" })?.value else {
            throw fail(nil, "missing --seed: say which seed failed, e.g. --seed 4711")
        }
        guard !seedValue.text.isEmpty, seedValue.text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seed = UInt64(seedValue.text) else {
            throw fail(seedValue, "'\(seedValue.text)' is not a seed: give a decimal integer 0...\(UInt64.max)")
        }
        var defects: [KnownDefect] = []
        for entry in values where entry.name == "defect" {
            guard let defect = KnownDefect(rawValue: entry.value.text) else {
                let hint = Suggestion.hint(for: entry.value.text, among: KnownDefect.allCases.map(\.rawValue))
                throw fail(entry.value, "unknown defect '\(entry.value.text)'\(hint) (see 'alarmsim list defects')")
            }
            guard defect.platforms.contains(platform) else {
                throw fail(entry.value, "defect '\(defect.rawValue)' does not apply to \(platform.rawValue)")
            }
            defects.append(defect)
        }
        let profile = values.first { $0.name == "profile" }
        let faultValues = values.filter { $0.name == "faults" }
        for entry in [profile].compactMap({ $0 }) + faultValues {
            let selection: FaultSelection
            do {
                selection = try FaultSelection.parse(profile: entry.name == "profile" ? entry.value.text : nil,
                                                     faults: entry.name == "faults" ? [entry.value.text] : [])
            } catch {
                throw fail(entry.value, error.message)
            }
            if let name = selection.forcedOnInapplicable(to: [platform]).first {
                throw fail(entry.value, "fault '\(name)' does not apply to \(platform.rawValue)")
            }
        }
        let faults: FaultSelection
        do {
            faults = try FaultSelection.parse(profile: profile?.value.text, faults: faultValues.map(\.value.text))
        } catch {
            throw fail(faultValues.last?.value ?? profile?.value, error.message)
        }
        return KnownFailure(platform: platform, seed: seed, defects: defects, faults: faults, liveness: liveness,
                            line: 0)
    }

    /// The file's new text with `repros` appended (those not in it already, in the given order),
    /// after the ``header`` when the file is new, and the lines added; nil when nothing is new.
    /// - Parameter existing: The file's text, nil when it does not exist.
    /// - Parameter known: The failures parsed from `existing`.
    public static func appending(_ repros: [String], to existing: String?, known: [KnownFailure]) -> (text: String, added: [String])? {
        var present = known.map(\.repro)
        var added: [String] = []
        for repro in repros where !present.contains(repro) {
            present.append(repro)
            added.append(repro)
        }
        guard !added.isEmpty else { return nil }
        var text = existing ?? header
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        return (text + added.joined(separator: "\n") + "\n", added)
    }
}

extension Campaign {
    /// Replays the known failures a campaign with `options` applies to (``KnownFailure/applies(to:)``),
    /// in this process, in file order, each with its own options: what the CLI's `fuzz` does
    /// before its seed range (there in worker subprocesses). Set the result as the summary's
    /// ``FuzzSummary/known``.
    /// - Returns: A pure function of `known` and `options`.
    public static func replay(_ known: [KnownFailure], before options: FuzzOptions, file: String) -> KnownReplay {
        let replayed = known.filter { $0.applies(to: options) }
        var result = KnownReplay(file: file, replayed: replayed.map(\.repro), notReplayed: known.count - replayed.count)
        for failure in replayed {
            let outcome = outcome(platform: failure.platform, seed: failure.seed, options: failure.fuzzOptions)
            guard let violation = outcome.violation else { continue }
            result.stillFailing.append(FailingSeed(platform: failure.platform, seed: failure.seed, violation: violation,
                                                   repro: failure.repro, signal: outcome.signal))
        }
        return result
    }
}

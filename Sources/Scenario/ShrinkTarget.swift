import Simulation

/// What a shrink candidate must still fail with to count as the same bug: the invariant, its
/// subject (the roots the violation names) and the shape of its message (which ring kind, which
/// clause), so a shrink cannot drift to another failure of the same invariant — iOS seed 2287's
/// `never-silent` once shrank to a file in which the app never launched.
///
/// The shape is the message up to its first ": " (where a list of calls or rings begins, which
/// shrinking may shorten) with ring IDs, quoted text, numbers and the named roots replaced by
/// placeholders: "successor ‹ring› armed for ‹root› while no occurrence is live".
struct ShrinkTarget: Equatable {
    var invariant: String
    /// The roots named before the first ": ", in order of mention: an alarm name, optionally
    /// with its weekday suffix (`a1`, `a3.thu`).
    var roots: [String]
    var shape: String

    static let weekdaySuffixes: Set<String> = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// - Parameter alarmNames: the alarm names of the scenario the violation came from; only
    ///   words naming one of them (or one of their weekday roots) count as roots.
    init(_ violation: Violation, alarmNames: [String]) {
        invariant = violation.invariant
        let head = violation.message.components(separatedBy: ": ").first ?? violation.message
        var roots: [String] = []
        shape = Self.shape(of: head, alarmNames: Set(alarmNames), roots: &roots)
        self.roots = roots
    }

    /// The alarm names (without weekday suffix) of `roots`.
    var alarmNames: [String] { roots.map { $0.split(separator: ".").first.map(String.init) ?? $0 } }

    /// `text` with placeholders, collecting the root words it names into `roots`.
    static func shape(of text: String, alarmNames: Set<String>, roots: inout [String]) -> String {
        var output = ""
        var word = ""
        var quoted = false
        func flush() {
            guard !word.isEmpty else { return }
            var core = word
            var trailing = ""
            while let last = core.last, last == "." || last == "," { trailing = String(last) + trailing; core.removeLast() }
            if isRoot(core, alarmNames: alarmNames) {
                roots.append(core)
                output += "‹root›" + trailing
            } else {
                output += placeholders(word)
            }
            word = ""
        }
        for character in text {
            if character == "\"" || character == "“" || character == "”" {
                flush()
                if !quoted { output += "‹text›" }
                quoted.toggle()
                continue
            }
            if quoted { continue }
            if character.isLetter || character.isNumber || character == "." || character == "-" || character == "_" || character == "," {
                word.append(character)
            } else {
                flush()
                output.append(character)
            }
        }
        flush()
        return output
    }

    static func isRoot(_ word: String, alarmNames: Set<String>) -> Bool {
        if alarmNames.contains(word) { return true }
        let parts = word.split(separator: ".", maxSplits: 1).map(String.init)
        return parts.count == 2 && alarmNames.contains(parts[0]) && weekdaySuffixes.contains(parts[1])
    }

    /// A word with its hexadecimal ring IDs replaced by ‹ring› and its digit runs by #.
    static func placeholders(_ word: String) -> String {
        let hexDigits = Set("0123456789abcdef-…")
        if word.count >= 8, word.filter({ $0 == "-" }).count >= 1, word.allSatisfy({ hexDigits.contains($0) }) {
            return "‹ring›"
        }
        var output = ""
        var inDigits = false
        for character in word {
            if character.isNumber {
                if !inDigits { output.append("#") }
                inDigits = true
            } else {
                output.append(character)
                inDigits = false
            }
        }
        return output
    }
}

/// "Did you mean …?" for a mistyped word: the closest candidate by edit distance, as
/// swift-argument-parser and git suggest, or nil when nothing is close.
public enum Suggestion {
    /// The candidate nearest to `word` (Levenshtein distance over characters, case-insensitive),
    /// if that distance is at most a third of the longer word, rounded up (at least 1, at most 3); ties go
    /// to the earlier candidate, so the answer is deterministic.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let target = Array(candidate.lowercased())
            let distance = editDistance(typed, target)
            let bound = min(3, max(1, (max(typed.count, target.count) + 2) / 3))
            if distance <= bound, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// ` (did you mean 'fuzz'?)`, or "" when no candidate is close.
    public static func hint(for word: String, among candidates: [String], prefix: String = "") -> String {
        closest(to: word, among: candidates).map { " (did you mean '\(prefix)\($0)'?)" } ?? ""
    }

    /// Levenshtein distance, two rows of O(|b|) memory.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}


/// "Did you mean …?" for a mistyped word: the closest candidate by edit distance, as
/// swift-argument-parser and git suggest, or nil when nothing is close.
public enum Suggestion {
    /// The candidate nearest to `word` (Levenshtein distance over characters, case-insensitive),
    /// if that distance is at most a third of the longer word, rounded up (at least 1, at most 3),
    /// and the two keep at least two thirds of the shorter word in order (its longest common
    /// subsequence): `sed` is `seeds` with two letters left out, but `nope` shares only `oe` with
    /// `doze`. Ties go to the earlier candidate, so the answer is deterministic.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let target = Array(candidate.lowercased())
            let distance = editDistance(typed, target)
            let bound = min(3, max(1, (max(typed.count, target.count) + 2) / 3))
            guard distance <= bound, distance < (best?.distance ?? .max),
                  3 * commonSubsequenceLength(typed, target) >= 2 * min(typed.count, target.count) else { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// ` (did you mean 'fuzz'?)`, or "" when no candidate is close.
    public static func hint(for word: String, among candidates: [String], prefix: String = "") -> String {
        closest(to: word, among: candidates).map { " (did you mean '\(prefix)\($0)'?)" } ?? ""
    }

    /// The length of the longest common subsequence of `a` and `b` (two rows of O(|b|) memory).
    static func commonSubsequenceLength(_ a: [Character], _ b: [Character]) -> Int {
        var previous = [Int](repeating: 0, count: b.count + 1)
        var current = previous
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : max(previous[j], current[j - 1])
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Optimal-string-alignment distance (Damerau–Levenshtein without repeated edits of one
    /// substring): insertions, deletions, substitutions and swaps of two adjacent characters each
    /// cost 1, so `iso` is one edit from `ios`. Three rows of O(|b|) memory. Published vectors:
    /// kitten→sitting 3, ca→ac 1, ca→abc 3 (OSA; unrestricted Damerau–Levenshtein gives 2).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}


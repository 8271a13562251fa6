import Testing
@testable import SimKernel

/// "Did you mean …?" (issue 17, part 5): the distance against published vectors, and the
/// suggestion rule (close enough, deterministic ties, nothing for a far-off word).
@Suite("Suggestion")
struct SuggestionTests {
    private func distance(_ a: String, _ b: String) -> Int {
        Suggestion.editDistance(Array(a), Array(b))
    }

    @Test("optimal-string-alignment distance matches published vectors")
    func publishedVectors() {
        // Levenshtein's classic vectors (Wikipedia "Levenshtein distance").
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("flaw", "lawn") == 2)
        #expect(distance("", "abc") == 3)
        #expect(distance("abc", "") == 3)
        #expect(distance("same", "same") == 0)
        // Wikipedia "Damerau–Levenshtein distance": OSA counts a swap as one edit, but
        // CA → ABC is 3 under OSA (2 under the unrestricted distance).
        #expect(distance("ca", "ac") == 1)
        #expect(distance("ca", "abc") == 3)
        #expect(distance("iso", "ios") == 1)
    }

    @Test("the distance is symmetric")
    func symmetric() {
        let words = ["", "a", "ios", "iso", "android", "andriod", "reboot", "rebot", "kitten", "sitting"]
        for a in words {
            for b in words {
                #expect(distance(a, b) == distance(b, a), "\(a) \(b)")
            }
        }
    }

    @Test("a close word gets its candidate, a far one none, ties go to the first candidate")
    func closest() {
        #expect(Suggestion.closest(to: "iso", among: ["ios", "android"]) == "ios")
        #expect(Suggestion.closest(to: "andriod", among: ["ios", "android"]) == "android")
        #expect(Suggestion.closest(to: "defect", among: ["defects", "invariants", "faults"]) == "defects")
        #expect(Suggestion.closest(to: "Reboot", among: ["late-reboot", "reboot"]) == "reboot")
        #expect(Suggestion.closest(to: "xyz", among: ["ios", "android"]) == nil)
        #expect(Suggestion.closest(to: "nope", among: ["doze", "reboot"]) == nil, "two letters of four in common are no likeness")
        #expect(Suggestion.closest(to: "sed", among: ["seeds", "seconds"]) == "seeds", "every letter kept, two left out")
        #expect(Suggestion.commonSubsequenceLength(Array("nope"), Array("doze")) == 2)
        #expect(Suggestion.commonSubsequenceLength(Array("AGGTAB"), Array("GXTXAYB")) == 4)  // the textbook vector: GTAB
        #expect(Suggestion.closest(to: "abc", among: ["abd", "abe"]) == "abd")
        #expect(Suggestion.hint(for: "fuz", among: ["fuzz"]) == " (did you mean 'fuzz'?)")
        #expect(Suggestion.hint(for: "xyzw", among: ["fuzz"]) == "")
    }
}

/// Error messages echo user bytes (issue 17): control characters must reach the terminal visible.
@Suite("TerminalText")
struct TerminalTextTests {
    @Test("C0 controls, DEL and C1 become visible; tab, line feed and other text stay")
    func visible() {
        #expect(TerminalText.visible("wa\u{0}ke") == "wa\u{2400}ke")
        #expect(TerminalText.visible("op\u{1B}[31men") == "op\u{241B}[31men")
        #expect(TerminalText.visible("a\u{7F}b\u{85}c") == "a\u{2421}b\u{FFFD}c")
        #expect(TerminalText.visible("tab\there\nnext é ⏰") == "tab\there\nnext é ⏰")
        #expect(TerminalText.visible("\r") == "\u{240D}")
    }

    @Test("a long message is cut, with a note, and a short one kept")
    func bounded() {
        #expect(TerminalText.bounded("short") == "short")
        let long = TerminalText.bounded(String(repeating: "x", count: 3_000_000))
        #expect(long.count < 2_100 && long.hasSuffix("… (cut at 2000 characters)"))
    }
}

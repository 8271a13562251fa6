/// Swift's description of an enum case (`userEditTitle(alarmID: "a1", title: "Wake")`), as the
/// trace keeps it, in words for people (`edit title (alarm ID "a1", title "Wake")`): the case
/// name and each argument label split at their capitals, `nil` as `none`. Quoted text (a title)
/// is left exactly as it is. Used by ``TraceExplainer`` for the `what` of an event.
enum CaseWords {
    /// `text` in words; `dropping` is a leading word the `who` column already says (`user`,
    /// `fault`, `app`).
    static func words(_ text: String, dropping leading: [String] = ["user", "fault", "app"]) -> String {
        let characters = Array(text)
        var out = ""
        var index = 0
        var quoted = false, escaped = false
        while index < characters.count {
            let character = characters[index]
            if quoted {
                out.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { quoted = false }
                index += 1
                continue
            }
            if character == "\"" { quoted = true; out.append(character); index += 1; continue }
            guard character.isLetter, character.isASCII, index == 0 || !isWordCharacter(characters[index - 1]) else {
                out.append(character)
                index += 1
                continue
            }
            var end = index
            while end < characters.count, isWordCharacter(characters[end]) { end += 1 }
            let word = String(characters[index..<end])
            let next = end < characters.count ? characters[end] : nil
            let labelled = next == ":" && end + 1 < characters.count && characters[end + 1] == " "
            if word == "nil" {
                out += "none"
            } else if labelled {
                var parts = split(word)
                // `occurredAtMs: 1797438432609` is an instant, shown later as local time: the
                // unit words go (`occurred at 2026-…`); a duration (`delayMs: 600000`) keeps them.
                if parts.last == "ms", isInstant(characters, from: end + 2) {
                    parts.removeLast()
                    if parts.count > 1, parts.last == "wall" { parts.removeLast() }
                }
                out += parts.joined(separator: " ")
                end += 1  // the colon goes; the space stays
            } else if next == "(" || (index == 0 && end == characters.count) {
                var parts = split(word)
                if index == 0, parts.count > 1, leading.contains(parts[0]) { parts.removeFirst() }
                out += parts.joined(separator: " ") + (next == "(" ? " " : "")
            } else if isCamelCase(word) {
                out += split(word).joined(separator: " ")  // a bare case name: `resumeSync` → `resume sync`
            } else {
                out += word
            }
            index = end
        }
        return out
    }

    /// True when 13 digits (a Unix-epoch millisecond count) start at `start` and end there.
    static func isInstant(_ characters: [Character], from start: Int) -> Bool {
        var end = start
        while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
        return end - start == 13 && (end == characters.count || !isWordCharacter(characters[end]))
    }

    /// `scheduledTimes`, `notFound`: a lowercase start and a capital after a lowercase letter (a
    /// Swift case name); never a hex ring ID, a plain word or an acronym.
    static func isCamelCase(_ word: String) -> Bool {
        guard let first = word.first, first.isLowercase else { return false }
        return zip(word, word.dropFirst()).contains { $0.isLowercase && $1.isUppercase }
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_")
    }

    /// `userEditTitle` → `user edit title`, `alarmID` → `alarm ID`, `UUIDString` → `UUID string`.
    static func split(_ word: String) -> [String] {
        let characters = Array(word)
        var parts: [String] = []
        var current = ""
        for (index, character) in characters.enumerated() {
            let upper = character.isUppercase
            let previousLower = index > 0 && (characters[index - 1].isLowercase || characters[index - 1].isNumber)
            let nextLower = index + 1 < characters.count && characters[index + 1].isLowercase
            let previousUpper = index > 0 && characters[index - 1].isUppercase
            if upper, !current.isEmpty, previousLower || (previousUpper && nextLower) {
                parts.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { parts.append(current) }
        // A capitalised word becomes lowercase; an acronym (two or more capitals) stays.
        return parts.map { part in
            part.count > 1 && part.allSatisfy({ $0.isUppercase || $0.isNumber }) ? part : part.lowercased()
        }
    }
}

import AlarmBridge

/// The `sounds "MODE: a,b | c"` option of an alarm line: a playback mode and the category groups
/// in order, lowest first (SND-1). `legacy` is a stored record that predates modes and groups:
/// only the flat pool survives, read as progressive with one flat group (SND-8). A pure format
/// type: the runner maps it to the bridge's settings.
public struct ScenarioSounds: Sendable, Equatable {
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        case progressive, random, legacy
    }

    public var mode: Mode
    /// Non-empty groups of non-empty sound names, in order.
    public var groups: [[String]]

    public init(mode: Mode, groups: [[String]]) {
        self.mode = mode
        self.groups = groups
    }

    /// Parses `MODE: a,b | c`; nil when it is not of that form.
    public init?(spec: String) {
        let parts = spec.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let mode = Mode(rawValue: parts[0].trimmingSpaces) else { return nil }
        var groups: [[String]] = []
        for group in parts[1].split(separator: "|", omittingEmptySubsequences: false) {
            let names = group.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
            guard !names.isEmpty, !names.contains(where: { $0.isEmpty || $0.contains(" ") }) else { return nil }
            groups.append(names)
        }
        guard !groups.isEmpty else { return nil }
        self.init(mode: mode, groups: groups)
    }

    /// The option's text, as `init(spec:)` reads it.
    public var spec: String {
        mode.rawValue + ": " + groups.map { $0.joined(separator: ",") }.joined(separator: " | ")
    }
}

extension Substring {
    var trimmingSpaces: String {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}



extension ScenarioRunner {
    /// The bridge's settings for an alarm line's `sounds` option (SND-1, SND-8: `legacy` keeps
    /// only the pool, with neither mode nor groups).
    static func soundSettings(_ sounds: ScenarioSounds?) -> SoundSettings? {
        guard let sounds else { return nil }
        let pool = sounds.groups.flatMap { $0 }
        switch sounds.mode {
        case .legacy: return SoundSettings(pool: pool)
        case .progressive: return SoundSettings(pool: pool, groups: sounds.groups, mode: .progressive)
        case .random: return SoundSettings(pool: pool, groups: sounds.groups, mode: .random)
        }
    }
}

import SimKernel

/// The detail window of a ``Timeline``: the stretch of the run that led to the violation.
extension Timeline {
    /// The shortest span the detail covers before its focus (1 min of virtual time).
    public static let detailBeforeMsMin: Int64 = 60_000
    /// The longest span the detail covers before its focus (2 h of virtual time).
    public static let detailBeforeMsMax: Int64 = 2 * 3_600_000
    /// Virtual time the detail covers after its focus (1 min; blank past the run's end).
    public static let detailAfterMs: Int64 = 60_000
    /// How many steps of cause the detail reaches back to (see ``detailWindow()``).
    public static let detailCauseCount = 3
    /// Causes at most this far apart (10 s of virtual time) form one step: a tap and the calls,
    /// schedules and cancels it set off.
    public static let detailStepGapMs: Int64 = 10_000
    /// A pause longer than this (10 min of virtual time) ends the story the detail tells.
    public static let detailQuietGapMs: Int64 = 10 * 60_000

    /// Which stretch of the run the detail view draws.
    public struct DetailWindow: Sendable, Equatable {
        /// The violation's instant (the run's end when there is none), true virtual ms.
        public var focusMs: Int64
        /// Where the rule opened the window: the earliest cause it kept, after the 1 min floor
        /// and the 2 h ceiling (and never before the run's start).
        public var openingMs: Int64
        /// The first instant drawn: `openingMs` less a margin of 5 % of the span (at least 1 s),
        /// so the opening cause is not drawn on the plot's edge; never before the run's start.
        public var fromMs: Int64
        /// The last instant drawn: `focusMs` + ``Timeline/detailAfterMs`` after a violation; after
        /// a clean run's end only the margin (nothing happens past the end).
        public var toMs: Int64
        /// Hover text of the cause at `openingMs` (nil when the floor or ceiling placed it).
        public var openingCause: String?

        /// The span the page names in words: `focusMs - openingMs`.
        public var beforeMs: Int64 { focusMs - openingMs }
    }

    /// The detail window: it covers the events that led to the violation rather than a fixed span.
    ///
    /// The rule: take every instant, at or before the violation, at which something that can lead
    /// to it happened —
    /// - a user's action or a JS call into the bridge (the actions lane),
    /// - an injected fault or platform refusal (the faults lane),
    /// - a launch, process death, shutdown, boot or first unlock (the lifecycle lane's marks),
    /// - a change on a root lane the violation names (``violationRoots``; every root lane when it
    ///   names none): a ring scheduled, fired, silenced, dismissed, cancelled or refused, a state
    ///   (pending, alerting, burst) that began or ended.
    /// Causes at most 10 s apart form one *step* (``detailStepGapMs``). Walking back from the
    /// violation, the window takes the latest step however long before the violation it was (a
    /// cancel hours before a silent alarm), then earlier steps while each follows the next
    /// within 10 min (``detailQuietGapMs``: a longer pause ends the story), up to 3 steps
    /// (``detailCauseCount``); it opens at the earliest cause of the last step taken. The span
    /// before the violation is then kept between 1 min (``detailBeforeMsMin``) and 2 h
    /// (``detailBeforeMsMax``). It ends 1 min after the violation (``detailAfterMs``). Without a
    /// violation the focus is the run's end, and the window ends there plus the margin.
    /// - Complexity: O(*n* log *n*) in the number of bars and marks.
    public func detailWindow() -> DetailWindow {
        let focus = violation?.atMs ?? endMs
        let causes = detailCauses(upTo: focus)
        let earliest = Self.storyStart(causes.map(\.ms)) ?? focus
        let before = min(max(focus - earliest, Self.detailBeforeMsMin), Self.detailBeforeMsMax)
        let opening = max(focus - before, startMs)
        let cause = opening == earliest ? causes.first { $0.ms == earliest }?.title : nil
        let margin = max((focus - opening) / 20, 1_000)
        let window = DetailWindow(focusMs: focus, openingMs: opening, fromMs: max(opening - margin, startMs),
                                  toMs: focus + (violation == nil ? margin : Self.detailAfterMs), openingCause: cause)
        assert(window.fromMs <= window.openingMs && window.openingMs <= window.focusMs && window.focusMs < window.toMs)
        return window
    }

    /// The earliest cause of the last step the story reaches back to (see ``detailWindow()``);
    /// nil when there is no cause.
    public static func storyStart(_ instants: [Int64]) -> Int64? {
        var steps = 0
        var earliest: Int64?
        for ms in instants.sorted(by: >) {
            if let stepStart = earliest {
                if stepStart - ms <= detailStepGapMs {
                    earliest = ms  // the same step
                    continue
                }
                if stepStart - ms > detailQuietGapMs || steps == detailCauseCount { break }
            }
            steps += 1
            earliest = ms
        }
        return earliest
    }

    /// The instants of cause (see ``detailWindow()``) at or before `focus`, with hover text, in
    /// lane order.
    func detailCauses(upTo focus: Int64) -> [(ms: Int64, title: String)] {
        let named = Set(violationRoots)
        var causes: [(ms: Int64, title: String)] = []
        for lane in lanes {
            switch lane.category {
            case .actions, .faults, .lifecycle:
                causes += lane.marks.map { ($0.atMs, $0.title) }
            case .root, .otherRings:
                guard named.isEmpty || named.contains(lane.label) else { continue }
                causes += lane.marks.map { ($0.atMs, $0.title) }
                causes += lane.bars.map { ($0.startMs, $0.title) }
                // A state's end is a cause unless the run's end closed it.
                causes += lane.bars.filter { $0.endMs < endMs }.map { ($0.endMs, $0.title) }
            }
        }
        return causes.filter { $0.ms <= focus }
    }

    /// A span of virtual time in words, to the second: `2 h`, `1 h 5 min`, `3 min 20 s`, `45 s`.
    public static func durationWords(_ ms: Int64) -> String {
        let seconds = max(ms, 0) / 1_000
        let (hours, minutes, rest) = (seconds / 3_600, seconds % 3_600 / 60, seconds % 60)
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) h") }
        if minutes > 0 { parts.append("\(minutes) min") }
        if rest > 0 || parts.isEmpty { parts.append("\(rest) s") }
        return parts.joined(separator: " ")
    }
}

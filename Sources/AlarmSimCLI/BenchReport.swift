import AlarmBridge
import Simulation

/// The figures of one `alarmsim bench` run and their Markdown report (`Reports/benchmarks.md`).
///
/// Every number is an integer or an integer fixed-point ratio (STYLE.md: reports print no floats).
struct BenchReport {
    /// The `--jobs 1` vs `--jobs 2` measurement, or why there is none.
    enum Jobs {
        case measured(seeds: Int, one: BenchMeasurements.ChildRun, two: BenchMeasurements.ChildRun)
        case notMeasured(String)
    }

    /// One memory campaign (a child `alarmsim fuzz`), or why it failed.
    enum Memory {
        case measured(runs: Int, BenchMeasurements.ChildRun)
        case notMeasured(runs: Int, String)

        var runs: Int {
            switch self {
            case .measured(let runs, _), .notMeasured(let runs, _): runs
            }
        }
    }

    /// MET, MISSED or NOT MEASURED, with the reason a miss happened.
    enum Status: Equatable {
        case met
        case missed
        case notMeasured

        var word: String {
            switch self {
            case .met: "MET"
            case .missed: "MISSED"
            case .notMeasured: "NOT MEASURED"
            }
        }
    }

    /// Targets of issue 8.
    static let ratioTarget: Int64 = 5  // full simulation ≤ 5 × the bare queue per event
    static let realTimeTarget: Int64 = 1_000_000  // ≥ 10^6 × real time
    static let speedUpTargetHundredths: Int64 = 180  // --jobs 2 ≥ 1.8 ×
    static let memoryTargetKiB = 65_536  // peak RSS ≤ 64 MiB

    var commandLine: String
    var facts: [(String, String)]
    var queue = BenchMeasurements.QueueFigure(events: 0, pending: 0, wallNs: 0, checksum: 0)
    var simulations: [BenchMeasurements.SimulationFigure] = []
    var jobs: Jobs = .notMeasured("not run")
    var memory: [Memory] = []
    /// `--baseline`: this build against another binary (issue 20), when asked for.
    var baseline: BenchBaseline?
    /// `--scale` (issue 20): CPU per event against alarm count and simulated days, when asked for.
    var scale: BenchScale?
    /// `--baseline-only` / `--scale-only`: the report holds the machine facts and those sections alone.
    var baselineOnly = false

    init(commandLine: String, facts: [(String, String)]) {
        self.commandLine = commandLine
        self.facts = facts
    }

    // MARK: - Figures against targets

    /// One row of the targets table.
    struct Row {
        var measurement: String
        var figure: String
        var target: String
        var status: Status
        /// Why it missed (or was not measured); empty when met.
        var note: String
    }

    /// The simulation figures of both platforms together (the default profile runs both).
    var combined: BenchMeasurements.SimulationFigure? {
        guard let first = simulations.first else { return nil }
        return simulations.dropFirst().reduce(first, +)
    }

    /// The full simulation's cost per event over the bare queue's, in tenths.
    func ratioTenths(_ figure: BenchMeasurements.SimulationFigure) -> Int64 {
        figure.nsPerEvent * 10 / queue.nsPerEvent
    }

    /// The peak memory that counts against the target: the largest `VmHWM` sampled from the
    /// child and its workers; `wait4`'s `ru_maxrss` only when nothing could be sampled.
    ///
    /// `ru_maxrss` is an upper bound, not the child's own peak: `posix_spawn` runs the child in
    /// the spawner's address space until `exec` (vfork-style `CLONE_VM`), and Linux `exec` folds
    /// that address space's high-water mark into the child's `maxrss`, so it reports at least
    /// the spawning process's resident set (this bench process, or a campaign's parent for its
    /// workers).
    static func peakKiB(_ child: BenchMeasurements.ChildRun) -> Int {
        guard child.parentPeakKiB != nil || child.largestWorkerPeakKiB != nil else { return child.maxRSSKiB }
        return max(child.parentPeakKiB ?? 0, child.largestWorkerPeakKiB ?? 0)
    }

    var rows: [Row] {
        var rows: [Row] = []
        for figure in simulations {
            let tenths = ratioTenths(figure)
            let met = tenths <= Self.ratioTarget * 10
            rows.append(Row(
                measurement: "full simulation per event vs bare queue (\(figure.platform.rawValue))",
                figure: "\(Self.grouped(figure.nsPerEvent)) ns vs \(Self.grouped(queue.nsPerEvent)) ns = \(Self.fixed(tenths, scale: 10)) ×",
                target: "≤ \(Self.ratioTarget) ×", status: met ? .met : .missed,
                note: met ? "" : Self.ratioMissReason))
        }
        if let combined {
            let met = combined.timesRealTime >= Self.realTimeTarget
            rows.append(Row(
                measurement: "virtual time per wall second, default profile (both platforms)",
                figure: "\(Self.grouped(combined.timesRealTime)) × real time (\(Self.fixed(combined.milliSeedsPerSecond, scale: 1_000)) seeds/s)",
                target: "≥ 1,000,000 × real time", status: met ? .met : .missed,
                note: met ? "" : Self.realTimeMissReason))
        }
        switch jobs {
        case .measured(_, let one, let two):
            let hundredths = one.wallNs * 100 / max(two.wallNs, 1)
            let met = hundredths >= Self.speedUpTargetHundredths
            rows.append(Row(
                measurement: "`fuzz --jobs 2` speed-up over `--jobs 1`",
                figure: "\(Self.fixed(hundredths, scale: 100)) × (\(Self.grouped(one.wallNs / 1_000_000)) ms → \(Self.grouped(two.wallNs / 1_000_000)) ms)",
                target: "≥ 1.80 ×", status: met ? .met : .missed,
                note: met ? "" : Self.jobsMissReason))
        case .notMeasured(let reason):
            rows.append(Row(measurement: "`fuzz --jobs 2` speed-up over `--jobs 1`", figure: "not measured",
                            target: "≥ 1.80 ×", status: .notMeasured, note: "not measured: \(reason)"))
        }
        if let largest = memory.last {
            let measurement = "peak RSS of a \(Self.grouped(Int64(largest.runs)))-run campaign"
            switch largest {
            case .measured(_, let child):
                let peak = Self.peakKiB(child)
                let met = peak <= Self.memoryTargetKiB
                rows.append(Row(measurement: measurement, figure: Self.kibText(peak),
                                target: "≤ 64 MiB (65,536 KiB)", status: met ? .met : .missed,
                                note: met ? "" : Self.memoryMissReason))
            case .notMeasured(_, let reason):
                rows.append(Row(measurement: measurement, figure: "not measured", target: "≤ 64 MiB (65,536 KiB)",
                                status: .notMeasured, note: "not measured: \(reason)"))
            }
        }
        return rows
    }

    // MARK: - Output

    /// The targets table as plain lines, for stdout.
    func summaryLines() -> [String] {
        let extra = (baseline?.summaryLines() ?? []) + (scale?.summaryLines() ?? [])
        if baselineOnly { return extra }
        return rows.map { "\($0.status.word): \($0.measurement): \($0.figure) (target \($0.target))" } + extra
    }

    /// The whole report.
    func markdown() -> String {
        let extra = (baseline?.markdownLines() ?? []) + (scale.map { [""] + $0.markdown() } ?? [])
        if baselineOnly { return (headerLines() + extra).joined(separator: "\n") + "\n" }
        let lines = targetLines() + detailLines() + parallelLines() + memoryLines() + extra
        return lines.joined(separator: "\n") + "\n"
    }

    /// The title, the machine facts and the targets table with its misses explained.
    func targetLines() -> [String] {
        var lines = headerLines()
        lines += ["", "## Figures against the targets of issue 8", "", "| Measurement | Figure | Target | Status |", "|---|---|---|---|"]
        return lines + targetTableLines()
    }

    /// The title and the machine facts.
    func headerLines() -> [String] {
        var lines = [
            "# Benchmarks",
            "",
            "Generated by `\(commandLine)`; do not edit. Regenerate with",
            "`swift build -c release --product alarmsim && .build/release/alarmsim bench` and the same arguments on",
            "an otherwise idle machine (wall-clock figures vary from run to run by several per cent; the machine is shared).",
            "",
            "## Machine",
            "",
            "| Fact | Value |",
            "|---|---|",
        ]
        lines += facts.map { "| \($0.0) | \(Self.cell($0.1)) |" }
        return lines
    }

    /// The targets table's rows and the misses explained.
    func targetTableLines() -> [String] {
        var lines: [String] = []
        let rows = rows
        lines += rows.map { "| \($0.measurement) | \($0.figure) | \($0.target) | **\($0.status.word)** |" }
        let notes = rows.filter { !$0.note.isEmpty }
        if !notes.isEmpty {
            lines += ["", "### Misses explained", ""]
            var explained: [(measurement: String, note: String)] = []
            for row in notes {
                if let earlier = explained.first(where: { $0.note == row.note }) {
                    lines.append("- **\(row.measurement)**: as for \(earlier.measurement).")
                } else {
                    lines.append("- **\(row.measurement)**: \(row.note)")
                    explained.append((row.measurement, row.note))
                }
            }
        }
        return lines
    }

    /// The bare event queue and the full simulation figures.
    func detailLines() -> [String] {
        var lines: [String] = []
        lines += ["", "## Details", "", "### Bare event queue", ""]
        lines += [
            "`EventQueue<Int>` (binary min-heap ordered by `(dueMs, sequence)`), \(queue.pending) pending events,",
            "\(Self.grouped(Int64(queue.events))) pops each followed by one push at a pseudo-random 1–8,192 ms later:",
            "\(Self.grouped(queue.wallNs / 1_000)) µs in all, **\(Self.grouped(queue.nsPerEvent)) ns per event** (checksum \(queue.checksum)).",
            "",
            "### Full simulation",
            "",
            "In-process `Simulator.run` as `alarmsim fuzz` runs each seed: swarm fault profile, safety and",
            "liveness phases, a counting-only trace (a campaign's seeds build no trace text), every invariant after",
            "every event. Seed setup (drawing the world) is included; one warm-up seed is not. An event is one",
            "pop of the world's queue and everything it causes (bridge step, platform model, oracle, checks).",
            "",
            "| Platform | Seeds | Failing | Events | Virtual time | Wall time | ns/event | × bare queue | Seeds/s | × real time |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        var figures = simulations.map { ($0.platform.rawValue, $0) }
        if let combined, simulations.count > 1 { figures.append(("both (default profile)", combined)) }
        for (name, figure) in figures {
            lines.append("| \(name) | \(figure.seeds) | \(figure.failing) | \(Self.grouped(Int64(figure.events))) | "
                         + "\(Self.grouped(figure.virtualMs / 3_600_000)) h | \(Self.grouped(figure.wallNs / 1_000_000)) ms | "
                         + "\(Self.grouped(figure.nsPerEvent)) | \(Self.fixed(ratioTenths(figure), scale: 10)) | "
                         + "\(Self.fixed(figure.milliSeedsPerSecond, scale: 1_000)) | \(Self.grouped(figure.timesRealTime)) |")
        }
        return lines
    }

    /// The `--jobs 1` against `--jobs 2` campaign.
    func parallelLines() -> [String] {
        var lines: [String] = []
        lines += ["", "### Parallel campaign", ""]
        switch jobs {
        case .measured(let seeds, let one, let two):
            lines += [
                "`alarmsim fuzz --seeds 1..\(seeds)` (both platforms) as a child process, wall time:",
                "",
                "| Command | Wall time | Peak RSS (largest process) | Workers seen |",
                "|---|---|---|---|",
                "| `alarmsim \(one.arguments.joined(separator: " "))` | \(Self.grouped(one.wallNs / 1_000_000)) ms | \(Self.kibText(Self.peakKiB(one))) | \(one.workersSeen) |",
                "| `alarmsim \(two.arguments.joined(separator: " "))` | \(Self.grouped(two.wallNs / 1_000_000)) ms | \(Self.kibText(Self.peakKiB(two))) | \(two.workersSeen) |",
            ]
        case .notMeasured(let reason):
            lines.append("Not measured: \(reason).")
        }
        return lines
    }

    /// The campaign memory at two sizes, and the growth between them.
    func memoryLines() -> [String] {
        var lines: [String] = []
        lines += [
            "",
            "### Memory",
            "",
            "A campaign (`alarmsim fuzz --seeds 1..N/2`, both platforms, no shrinking) in a child process.",
            "Parent and largest worker are the last `VmHWM` (peak resident set) of `/proc/PID/status`,",
            "sampled every 50 ms until the process exits; the larger is the figure set against the target.",
            "`wait4 ru_maxrss` is what `wait4(2)` reports for the child; it is only an upper bound: the",
            "child runs in this bench process's address space until `exec` (`posix_spawn`), and Linux",
            "`exec` folds that address space's high-water mark into the child's `maxrss`. Two sizes, so",
            "growth per run shows.",
            "",
            "| Runs | Wall time | wait4 ru_maxrss | Parent peak | Largest worker peak | Workers seen |",
            "|---|---|---|---|---|---|",
        ]
        for entry in memory {
            switch entry {
            case .measured(let runs, let child):
                lines.append("| \(Self.grouped(Int64(runs))) | \(Self.grouped(child.wallNs / 1_000_000)) ms | \(Self.kibText(child.maxRSSKiB)) | "
                             + "\(child.parentPeakKiB.map(Self.kibText) ?? "not sampled") | "
                             + "\(child.largestWorkerPeakKiB.map(Self.kibText) ?? "no workers") | \(child.workersSeen) |")
            case .notMeasured(let runs, let reason):
                lines.append("| \(Self.grouped(Int64(runs))) | not measured: \(Self.cell(reason)) | | | | |")
            }
        }
        if memory.count == 2, case .measured(let smallRuns, let small) = memory[0], case .measured(let largeRuns, let large) = memory[1],
           largeRuns > smallRuns {
            lines += ["", Self.growthText(smallRuns: smallRuns, small: small, largeRuns: largeRuns, large: large)]
        }
        return lines
    }

    /// The growth of each process's peak between the two campaign sizes, peak against peak of the
    /// same kind of process (the parent with the parent, the largest worker with the largest
    /// worker; `wait4`'s figure when neither was sampled): a parent's peak set against a worker's
    /// showed a difference of processes as growth.
    static func growthText(smallRuns: Int, small: BenchMeasurements.ChildRun, largeRuns: Int, large: BenchMeasurements.ChildRun) -> String {
        let runs = Int64(largeRuns - smallRuns)
        func describe(_ name: String, _ before: Int, _ after: Int) -> String {
            let growth = Int64(after - before)
            return "\(name) \(grouped(growth)) KiB (\(grouped(growth * 1_000 / runs)) KiB per 1,000 runs)"
        }
        func part(_ name: String, _ before: Int?, _ after: Int?) -> String? {
            // Under 1 MiB the sample was taken before the process had started (a run of a few
            // milliseconds may be sampled only then): no peak of this program.
            guard let before, let after, before >= 1_024, after >= 1_024 else { return nil }
            return describe(name, before, after)
        }
        let parts = [part("parent", small.parentPeakKiB, large.parentPeakKiB),
                     part("largest worker", small.largestWorkerPeakKiB, large.largestWorkerPeakKiB)].compactMap { $0 }
        let text = parts.isEmpty ? [describe("wait4 ru_maxrss", small.maxRSSKiB, large.maxRSSKiB)] : parts
        return "Growth from \(grouped(Int64(smallRuns))) to \(grouped(Int64(largeRuns))) runs, each process's peak against "
            + "the same process's: \(text.joined(separator: "; ")). At a few runs a peak is set by start-up, not by the runs."
    }

    // MARK: - Reasons for misses

    static let ratioMissReason = """
        the bare queue moves one heap entry of an `Int`; a simulated event runs a whole bridge step \
        (reconciliation of the desired ring set against the platform inventory, recurrence planning with \
        SHA-1 version-5 ring IDs and ICU time-zone offsets, persistence), the platform model's reaction, \
        the independent oracle and every invariant (about 50 checks, one of which, idempotent-sync, runs a \
        second complete sync on a copy of the bridge); a campaign's seeds build no trace (a counting-only \
        trace). As profiled after issue 20's commits (perf, release build, swarm seeds 1..600), the \
        bridge's own step is about 40 % of the time (reconcile 12–17 %, recurrence planning 5–7 %), \
        idempotent-sync 8–11 %, the other checks after each event about 8 %, seed setup 4 %; retain, \
        release, copies and allocation of value types about a fifth throughout; the queue itself is \
        about 1 %. A few heap operations' worth of time cannot hold the bridge and the checks, which are \
        the product; issue 20's commits cut the work around them (a counting-only trace, copy-on-write \
        documents, rows and platform models, a plan cache, zone offsets from a transition table, reads \
        in place instead of element copies, no run-time exclusivity checks on the world) and leave the \
        bridge's logic as it is.
        """
    static let realTimeMissReason = """
        the seeds' virtual span (about 36 h of safety phase plus the liveness phase) is covered in less \
        wall time than a million-fold speed-up allows; see the per-event cost above.
        """
    static let jobsMissReason = """
        two workers need two free cores; on a shared 2-core machine other processes (see the load average \
        above) take part of them, and the parent's per-seed dispatch and result collection are serial.
        """
    static let memoryMissReason = """
        the largest process kept more than 64 MiB resident; compare the two campaign sizes above: growth \
        with the number of runs means something is kept per seed.
        """

    // MARK: - Number formatting

    /// `1234567` → `1,234,567`.
    static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return value < 0 ? "-" + text : text
    }

    /// An integer fixed-point value: `fixed(1234, scale: 100)` → `12.34`.
    static func fixed(_ value: Int64, scale: Int64) -> String {
        let decimals = String(scale).count - 1
        let whole = grouped(value / scale)
        guard decimals > 0 else { return whole }
        let fraction = String(value.magnitude % UInt64(scale))
        return whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// `12345` KiB → `12,345 KiB (12.0 MiB)`.
    static func kibText(_ kib: Int) -> String {
        "\(grouped(Int64(kib))) KiB (\(fixed(Int64(kib) * 10 / 1_024, scale: 10)) MiB)"
    }

    /// A table cell: no `|` or line break can break the row.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}

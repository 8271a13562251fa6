import AlarmBridge
import Foundation
import Scenario
import Simulation

/// `alarmsim bench --scale` (issue 20): how the cost of a simulated event grows with the number
/// of alarms and with simulated time.
///
/// Each row runs one generated scenario in this process: N daily alarms (`weekly` on all seven
/// days, ring times 41 min apart from 06:00, wrapping after 24:00) on a fresh install, the first launch
/// saving them, and a user who opens the app once at the end of the span. Alarms are left to ring
/// out unattended. CPU is this process's (`CLOCK_PROCESS_CPUTIME_ID`) across the run, in ns.
/// The alarm-count rows run 2 simulated days; the day rows run 10 alarms. A row of at most
/// ``repeatedUpToAlarms`` alarms (tens of ms) runs ``repeats`` times (a day row ``dayRepeats``) and keeps its least CPU: a
/// shared machine's other work only ever adds to a run's CPU, and one run of a small row moved
/// its spread by a fifth from run to run. The repeats are interleaved, one round over every such
/// row at a time: run back to back, a row's repeats all fell in the same busy spell of the
/// machine, and the day rows' spread moved between 1.11 and 1.77 × from one bench to the next.
/// A larger row runs ``largeRepeats`` times, interleaved the same way. Every run of a row
/// simulates the same events.
struct BenchScale {
    /// One measured row.
    struct Row: Equatable {
        var platform: PlatformFlavor
        var alarms: Int
        var days: Int
        var events: Int
        var cpuNs: Int64
        /// A day row (``dayRowAlarms`` alarms, ``dayCounts`` days); the alarm-count row with the
        /// same alarms and days is not one (it is measured apart, and is not in the spread).
        var isDayRow = false

        /// CPU per simulated event, ns.
        var nsPerEvent: Int64 { events > 0 ? cpuNs / Int64(events) : 0 }
    }

    static let alarmCounts = [1, 10, 100, 1_000, 3_000]
    static let quickAlarmCounts = [1, 10, 30]
    static let dayCounts = [1, 2, 4, 7]
    static let quickDayCounts = [1, 2]
    /// Alarms of the day rows.
    static let dayRowAlarms = 10
    /// Days of the alarm-count rows.
    static let alarmRowDays = 2

    var rows: [Row] = []
    /// The smallest alarm count the growth exponent is fitted from: 100 (the issue's range), 10 in quick mode.
    var fitFromAlarms = 100
    /// `--quick`: too few and too small rows to judge the targets by; the figures are shown, not judged.
    var quick = false
    /// Runs of each small row (the least CPU is kept), and the largest alarm count run so.
    static let repeats = 7
    /// Runs of each larger row (seconds each; a single run moved the growth exponent by ±0.05).
    static let largeRepeats = 3
    /// Runs of each day row: 10 to 35 ms of CPU each, the smallest rows, whose spread the target
    /// reads as a ratio of two of them; with seven runs the least of one row still moved by up to
    /// 1.6 × from one bench to the next on the shared machine (issue 20, twenty-fifth session).
    /// All eight take about 0.2 s a round.
    static let dayRepeats = 21
    static let repeatedUpToAlarms = 100

    /// Measures every row on both platforms.
    static func measure(quick: Bool, progress: (String) -> Void) -> BenchScale {
        var scale = BenchScale()
        scale.fitFromAlarms = quick ? 10 : 100
        scale.quick = quick
        _ = run(platform: .ios, alarms: dayRowAlarms, days: 1)  // warm-up: one-time set-up costs stay out of the rows
        // The small day rows first, on both platforms: after the 3,000-alarm runs a small row cost
        // up to a third more per event in the same process (a larger heap), which the spread read
        // as growth over days. The table still lists each platform's alarm rows, then its day rows.
        let platforms = [PlatformFlavor.ios, .android]
        let daySpecs = platforms.flatMap { platform in
            (quick ? quickDayCounts : dayCounts).map { RowSpec(platform: platform, alarms: dayRowAlarms, days: $0) }
        }
        let dayRows = leastOfInterleavedRuns(daySpecs, runs: dayRepeats, progress: progress).map { row -> Row in
            var row = row
            row.isDayRow = true
            return row
        }
        let alarmSpecs = platforms.flatMap { platform in
            (quick ? quickAlarmCounts : alarmCounts).map { RowSpec(platform: platform, alarms: $0, days: alarmRowDays) }
        }
        let smallRows = leastOfInterleavedRuns(alarmSpecs.filter { $0.alarms <= repeatedUpToAlarms }, progress: progress)
        let largeRows = leastOfInterleavedRuns(alarmSpecs.filter { $0.alarms > repeatedUpToAlarms }, runs: largeRepeats,
                                               progress: progress)
        for platform in platforms {
            scale.rows += (smallRows + largeRows).filter { $0.platform == platform }.sorted { $0.alarms < $1.alarms }
            scale.rows += dayRows.filter { $0.platform == platform }
        }
        return scale
    }

    /// What one row runs: a platform, its alarms and its simulated days.
    struct RowSpec: Equatable {
        var platform: PlatformFlavor
        var alarms: Int
        var days: Int

        /// "ios, 10 alarms × 2 days", for progress lines.
        var text: String { "\(platform.rawValue), \(counted(alarms, "alarm")) × \(counted(days, "day"))" }
    }

    /// Each row of `specs` with the least CPU of `runs` runs, in the order of `specs`. The
    /// runs go round by round, every row once a round, so a busy spell of a shared machine slows
    /// one run of many rows rather than every run of one row. Rows whose scenario does not parse
    /// (a bug of this bench) are left out.
    static func leastOfInterleavedRuns(_ specs: [RowSpec], runs: Int = repeats, progress: (String) -> Void) -> [Row] {
        var best = [Row?](repeating: nil, count: specs.count)
        var parses = [Bool](repeating: true, count: specs.count)
        for round in 1...runs {
            for (index, spec) in specs.enumerated() where parses[index] {
                if round == 1 { progress("bench: scale, \(spec.text) (\(runs) runs, interleaved) …") }
                guard let row = run(platform: spec.platform, alarms: spec.alarms, days: spec.days) else {
                    parses[index] = false
                    continue
                }
                if best[index].map({ row.cpuNs < $0.cpuNs }) ?? true { best[index] = row }
            }
        }
        return best.compactMap { $0 }
    }

    /// The scenario text of one row (see the type's comment).
    static func scenarioText(platform: PlatformFlavor, alarms: Int, days: Int) -> String {
        var lines = ["platform \(platform.rawValue)", "start 2026-03-02 05:00 Europe/Berlin", "seed 1"]
        for index in 0..<alarms {
            let minuteOfDay = 360 + (index * 41) % 1_080  // 06:00 … 23:59, 41 min apart (past an occurrence's 30 min), wrapping
            let time = String(format: "%02d:%02d", minuteOfDay / 60, minuteOfDay % 60)
            lines.append("alarm a\(index + 1) \(time) weekly mon,tue,wed,thu,fri,sat,sun")
        }
        lines.append("at +\(days)d 04:30 user open-app")
        lines.append("expect no violations")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs one row; nil when the generated scenario does not parse (a bug of this bench).
    static func run(platform: PlatformFlavor, alarms: Int, days: Int) -> Row? {
        let text = scenarioText(platform: platform, alarms: alarms, days: days)
        guard let scenario = try? ScenarioParser.parse(text, file: "bench-scale.scenario",
                                                       knownDefects: KnownDefect.allCases.map(\.rawValue),
                                                       knownInvariants: InvariantCatalog.all.map(\.id)) else { return nil }
        let before = processCPUNs()
        let outcome = ScenarioRunner.run(scenario)
        let cpu = processCPUNs() - before
        return Row(platform: platform, alarms: alarms, days: days, events: outcome.result.eventCount, cpuNs: cpu)
    }

    /// This process's CPU time so far, ns.
    static func processCPUNs() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// "1 alarm", "3 alarms".
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// The issue-20 targets: growth exponent ≤ 1.15, day rows' spread ≤ 1.20 ×.
    static let exponentTargetHundredths: Int64 = 115
    static let spreadTargetHundredths: Int64 = 120

    /// "MET" / "MISSED" against a target (lower is better), "NOT MEASURED" without a figure.
    static func verdict(_ value: Int64?, target: Int64) -> String {
        guard let value else { return "NOT MEASURED" }
        return value <= target ? "MET" : "MISSED"
    }

    /// ``verdict(_:target:)``, or "NOT JUDGED" for a `--quick` run.
    func judged(_ value: Int64?, target: Int64) -> String {
        quick ? "NOT JUDGED (--quick)" : Self.verdict(value, target: target)
    }

    /// The least-squares slope of log(CPU) against log(alarms) over the alarm-count rows of
    /// `platform` with N ≥ ``fitFromAlarms``, in hundredths; nil with fewer than two rows.
    func growthExponentHundredths(_ platform: PlatformFlavor) -> Int64? {
        let points = rows.filter { $0.platform == platform && $0.days == Self.alarmRowDays && $0.alarms >= fitFromAlarms && $0.cpuNs > 0 }
            .map { (x: log(Double($0.alarms)), y: log(Double($0.cpuNs))) }
        guard points.count >= 2 else { return nil }
        let meanX = points.map(\.x).reduce(0, +) / Double(points.count)
        let meanY = points.map(\.y).reduce(0, +) / Double(points.count)
        let covariance = points.map { ($0.x - meanX) * ($0.y - meanY) }.reduce(0, +)
        let variance = points.map { ($0.x - meanX) * ($0.x - meanX) }.reduce(0, +)
        guard variance > 0 else { return nil }
        return Int64((covariance / variance * 100).rounded())
    }

    /// The largest over the smallest CPU per event of the day rows of `platform`, in hundredths.
    func dayCostSpreadHundredths(_ platform: PlatformFlavor) -> Int64? {
        let costs = rows.filter { $0.platform == platform && $0.isDayRow }.map(\.nsPerEvent)
        guard let low = costs.min(), let high = costs.max(), low > 0, costs.count >= 2 else { return nil }
        return high * 100 / low
    }

    /// One line per platform for stdout.
    func summaryLines() -> [String] {
        [PlatformFlavor.ios, .android].flatMap { platform in
            let exponent = growthExponentHundredths(platform)
            let spread = dayCostSpreadHundredths(platform)
            return ["\(judged(exponent, target: Self.exponentTargetHundredths)): scale \(platform.rawValue): CPU growth exponent in alarm count (N ≥ \(fitFromAlarms)): "
                    + "\(exponent.map { BenchReport.fixed($0, scale: 100) } ?? "not measured") (target ≤ 1.15)",
                    "\(judged(spread, target: Self.spreadTargetHundredths)): scale \(platform.rawValue): CPU per event, largest over smallest day row: "
                    + "\(spread.map { BenchReport.fixed($0, scale: 100) + " ×" } ?? "not measured") (target ≤ 1.20 ×)"]
        }
    }

    /// The Markdown section.
    func markdown() -> [String] {
        var lines = ["## Scale (`--scale`)", "",
                     "One generated scenario per row, in this process: N alarms ringing daily (ring times 41 min apart",
                     "from 06:00, wrapping; an unwarmed run first), a fresh install whose first launch saves them, nobody stopping them, the app opened",
                     "once at the end. CPU is the process's (`CLOCK_PROCESS_CPUTIME_ID`). Alarm rows run \(Self.alarmRowDays) days;",
                     "day rows run \(Self.dayRowAlarms) alarms. A day row runs \(Self.dayRepeats) times, another row of at most \(Self.repeatedUpToAlarms) alarms \(Self.repeats) times (a larger one \(Self.largeRepeats)), and",
                     "keeps its least CPU (other work on a shared machine only adds to a run's CPU); the runs are interleaved,",
                     "one round over all such rows at a time, so a busy spell slows one run of many rows, not every run of one.",
                     "The day rows of both platforms run first, before the large alarm rows grow the process's heap.", ""]
        if quick {
            lines += ["`--quick`: three small alarm counts and two day counts, so the exponent is fitted from N = 10 and 30",
                      "only and the figures are not judged against the targets; run `--scale-only` without `--quick` for that.", ""]
        }
        lines += ["| Platform | Alarms | Days | Events | CPU | CPU per event |", "|---|---|---|---|---|---|"]
        for row in rows {
            lines.append("| \(row.platform.rawValue) | \(BenchReport.grouped(Int64(row.alarms))) | \(row.days) | \(BenchReport.grouped(Int64(row.events))) "
                         + "| \(BenchReport.grouped(row.cpuNs / 1_000_000)) ms | \(BenchReport.grouped(row.nsPerEvent)) ns |")
        }
        lines.append("")
        for platform in [PlatformFlavor.ios, .android] {
            let exponent = growthExponentHundredths(platform)
            let spread = dayCostSpreadHundredths(platform)
            let exponentText = exponent.map { BenchReport.fixed($0, scale: 100) } ?? "not measured (needs two rows with N ≥ \(fitFromAlarms))"
            let spreadText = spread.map { BenchReport.fixed($0, scale: 100) + " ×" } ?? "not measured"
            lines.append("- \(platform.rawValue): CPU growth exponent in alarm count (N ≥ \(fitFromAlarms), least squares on log–log): "
                         + "**\(exponentText)** (target ≤ 1.15: \(judged(exponent, target: Self.exponentTargetHundredths))); "
                         + "CPU per event, largest over smallest of the day rows: **\(spreadText)** "
                         + "(target ≤ 1.20 ×, flat ± 20 %: \(judged(spread, target: Self.spreadTargetHundredths))).")
        }
        lines.append("")
        return lines
    }
}

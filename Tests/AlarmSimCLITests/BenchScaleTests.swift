@testable import AlarmSimCLI
import AlarmBridge
import Foundation
import Testing

/// `alarmsim bench --scale` and the baseline's argument checks (issue 20).
@Suite("alarmsim bench --scale")
struct BenchScaleTests {
    /// Rows whose CPU grows as N^power over the alarm-count rows.
    static func rows(power: Double) -> BenchScale {
        var scale = BenchScale()
        for alarms in BenchScale.alarmCounts {
            let cpu = Int64(1_000_000 * pow(Double(alarms), power))
            scale.rows.append(.init(platform: .ios, alarms: alarms, days: BenchScale.alarmRowDays, events: alarms * 10, cpuNs: cpu))
        }
        return scale
    }

    @Test("the growth exponent is the log–log slope over N ≥ 100, judged against 1.15")
    func growthExponent() {
        #expect(Self.rows(power: 1).growthExponentHundredths(.ios) == 100)
        #expect(Self.rows(power: 2.2).growthExponentHundredths(.ios) == 220)
        #expect(Self.rows(power: 1).growthExponentHundredths(.android) == nil, "no android rows")
        #expect(BenchScale.verdict(100, target: BenchScale.exponentTargetHundredths) == "MET")
        #expect(BenchScale.verdict(220, target: BenchScale.exponentTargetHundredths) == "MISSED")
        #expect(BenchScale.verdict(nil, target: BenchScale.exponentTargetHundredths) == "NOT MEASURED")
        let lines = Self.rows(power: 2.2).summaryLines()
        #expect(lines.contains { $0.hasPrefix("MISSED: scale ios: CPU growth exponent") && $0.contains("2.20") })
    }

    @Test("interleaved runs give each row, in the order asked, the least CPU of its runs and its own events")
    func interleavedRuns() {
        let specs = [BenchScale.RowSpec(platform: .ios, alarms: 1, days: 1), BenchScale.RowSpec(platform: .android, alarms: 3, days: 2),
                     BenchScale.RowSpec(platform: .ios, alarms: 3, days: 1)]
        var lines: [String] = []
        let rows = BenchScale.leastOfInterleavedRuns(specs, runs: 2) { lines.append($0) }
        #expect(rows.map { BenchScale.RowSpec(platform: $0.platform, alarms: $0.alarms, days: $0.days) } == specs)
        #expect(lines.count == specs.count, "one progress line a row, in the first round")
        for (row, spec) in zip(rows, specs) {
            let single = BenchScale.run(platform: spec.platform, alarms: spec.alarms, days: spec.days)
            #expect(single?.events == row.events, "every run of a row simulates the same events")
            #expect(row.cpuNs > 0)
        }
    }

    @Test("a --quick scale run shows its figures without judging them, and says why in the report")
    func quickIsNotJudged() {
        var scale = Self.rows(power: 2.2)
        scale.quick = true
        #expect(scale.summaryLines().allSatisfy { $0.hasPrefix("NOT JUDGED (--quick): scale") })
        let text = scale.markdown().joined(separator: "\n")
        #expect(text.contains("`--quick`: three small alarm counts") && text.contains("not judged against the targets"))
        #expect(!scale.markdown().contains { $0.contains("MISSED") || $0.contains(": MET") })
        scale.quick = false
        #expect(scale.summaryLines().contains { $0.hasPrefix("MISSED: scale ios") })
    }

    @Test("the day rows' spread is the largest CPU per event over the smallest; the alarm-count row of the same size is not a day row")
    func daySpread() {
        var scale = BenchScale()
        // The 10-alarm alarm-count row, run first and colder: outside the spread.
        scale.rows.append(.init(platform: .android, alarms: BenchScale.dayRowAlarms, days: BenchScale.alarmRowDays, events: 1_000, cpuNs: 300_000))
        for (days, ns) in [(1, 100), (2, 110), (4, 130), (7, 120)] {
            scale.rows.append(.init(platform: .android, alarms: BenchScale.dayRowAlarms, days: days, events: 1_000, cpuNs: Int64(ns) * 1_000,
                                    isDayRow: true))
        }
        #expect(scale.dayCostSpreadHundredths(.android) == 130)
        #expect(scale.markdown().contains { $0.contains("**1.30 ×**") && $0.contains("MISSED") })
    }

    @Test("a generated row parses and runs: events happen and CPU is counted")
    func generatedRowRuns() throws {
        let row = try #require(BenchScale.run(platform: .android, alarms: 2, days: 1))
        #expect(row.events > 10)
        #expect(row.cpuNs > 0)
        #expect(BenchScale.scenarioText(platform: .ios, alarms: 3, days: 2).contains("alarm a3 07:22 weekly mon,tue,wed,thu,fri,sat,sun"))
        #expect(BenchScale.counted(1, "alarm") == "1 alarm" && BenchScale.counted(3, "day") == "3 days")
    }

    @Test("a baseline that is not an alarmsim build, or baseline sizes without --baseline, are usage errors")
    func baselineChecks() throws {
        let directory = try makeTemporaryDirectory("bench-baseline-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fake = directory.appendingPathComponent("not-alarmsim").path
        try "#!/bin/sh\nexit 0\n".write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        let notAlarmsim = cli("bench", "--baseline", fake, "--baseline-only", "--out", directory.appendingPathComponent("b.md").path)
        #expect(notAlarmsim.status == .usage)
        #expect(notAlarmsim.errors.contains("does not answer 'fuzz --help' as alarmsim does"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("b.md").path), "nothing written")
        let sizesAlone = cli("bench", "--baseline-seeds", "5")
        #expect(sizesAlone.status == .usage)
        #expect(sizesAlone.errors.contains("give --baseline PATH too"))
    }
}

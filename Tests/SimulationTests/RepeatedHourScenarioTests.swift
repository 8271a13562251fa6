import AlarmBridge
@testable import Scenario
import Simulation
import Testing

/// A wall time a fall-back night repeats: a plain `at` time means its first pass, a time with its
/// UTC offset (`02:04:08.251+01:00`) the pass that offset names; the exporter writes the offset
/// exactly where a plain time would name the wrong instant (android uniform seed 97445, whose
/// plan has actions in both passes of Berlin's 02:00–03:00 on 2026-10-25).
@Suite("Repeated wall times (DST fall-back)")
struct RepeatedHourScenarioTests {
    static let berlin = WallCalendar(zoneIdentifier: "Europe/Berlin")!
    static let start = ScenarioStart(date: LocalDate(year: 2026, month: 10, day: 24), hour: 22, minute: 0, zoneIdentifier: "Europe/Berlin")
    /// 2026-10-25 00:00 UTC, 02:00 CEST: the first pass of the repeated hour begins.
    static let firstPassStartMs: Int64 = 1_792_886_400_000

    static func parse(_ text: String) throws -> ScenarioFile {
        try ScenarioParser.parse(text, file: "repeated-hour.scenario", knownDefects: KnownDefect.allCases.map(\.rawValue),
                                 knownInvariants: InvariantCatalog.all.map(\.id))
    }

    @Test("the runner maps a plain repeated wall time to its first pass and one with +01:00 to its second")
    func runnerResolvesTheSecondPass() throws {
        let scenario = try Self.parse("""
            platform android
            start 2026-10-24 22:00 Europe/Berlin
            at +1d 02:43:43.904 device doze on
            at +1d 02:04:08.251+01:00 user open-app
            at +1d 02:04:08.251+01:00 user leave-app

            """)
        let instants = scenario.events.map { ScenarioRunner.instant(of: $0.time, start: scenario.start, calendar: Self.berlin) }
        let plainSecondPass = ScenarioTime(dayOffset: 1, hour: 2, minute: 4, second: 8, millisecond: 251)
        #expect(instants == [Self.firstPassStartMs + 43 * 60_000 + 43_904,
                             Self.firstPassStartMs + 3_600_000 + 4 * 60_000 + 8_251,
                             Self.firstPassStartMs + 3_600_000 + 4 * 60_000 + 8_251])
        #expect(ScenarioRunner.instant(of: plainSecondPass, start: Self.start, calendar: Self.berlin)
                == Self.firstPassStartMs + 4 * 60_000 + 8_251)
        var firstPass = plainSecondPass
        firstPass.utcOffsetMinutes = 120
        #expect(firstPass.instantMs(start: Self.start, calendar: Self.berlin) == Self.firstPassStartMs + 4 * 60_000 + 8_251)
        firstPass.utcOffsetMinutes = 180
        #expect(firstPass.instantMs(start: Self.start, calendar: Self.berlin) == nil)
        #expect(plainSecondPass.possibleUTCOffsetsMinutes(start: Self.start, calendar: Self.berlin) == [120, 60])
    }

    @Test("the exporter names every instant of a fall-back night so that it parses back to that instant, with an offset only in the second pass")
    func exporterWritesTheOffset() throws {
        // From 23:00 CEST to 04:00 CET in steps that hit every minute's odd seconds and milliseconds.
        var instantMs = Self.firstPassStartMs - 3 * 3_600_000
        while instantMs < Self.firstPassStartMs + 4 * 3_600_000 {
            let time = try #require(ScenarioExport.time(of: instantMs, start: Self.start, calendar: Self.berlin))
            let isSecondPass = (Self.firstPassStartMs + 3_600_000..<Self.firstPassStartMs + 7_200_000).contains(instantMs)
            #expect(time.utcOffsetMinutes == (isSecondPass ? 60 : nil), "\(instantMs): \(ScenarioPrinter.format(time))")
            let text = "platform android\nstart 2026-10-24 22:00 Europe/Berlin\nat \(ScenarioPrinter.format(time)) user lock\n"
            let parsed = try Self.parse(text)
            #expect(parsed.events[0].time == time)
            #expect(ScenarioRunner.instant(of: parsed.events[0].time, start: parsed.start, calendar: Self.berlin) == instantMs)
            instantMs += 97_123
        }
    }

    /// Android uniform seeds whose plans act in both passes of Berlin's repeated hour on
    /// 2026-10-25 (their exports used to move the second pass an hour early: "does not reproduce").
    @Test("an android uniform seed with actions in a fall-back night's second pass exports to a file that parses back to its plan's instants and replays the seed",
          arguments: [UInt64(97445), 70340])
    func secondPassExportReplays(seed: UInt64) throws {
        let (setup, parameters) = SeedGenerator.setup(platform: .android, seed: seed, faults: FaultSelection(profile: .uniform))
        let exported = try ScenarioExport.scenario(from: setup, defects: [])
        #expect(exported.events.contains { $0.time.utcOffsetMinutes != nil }, "the seed's plan reaches the second pass")
        let text = ScenarioPrinter.print(exported)
        var parsed = try Self.parse(text)
        try ScenarioRunner.validate(parsed, source: text)
        parsed.path = exported.path
        #expect(parsed.withoutSourcePositions() == exported.withoutSourcePositions())
        let calendar = try #require(WallCalendar(zoneIdentifier: parsed.start.zoneIdentifier))
        #expect(parsed.events.map { ScenarioRunner.instant(of: $0.time, start: parsed.start, calendar: calendar) } == setup.plan.map(\.wallMs))
        let original = Simulator.run(setup: setup, parameters: parameters,
                                     options: RunOptions(platform: .android, seed: seed, defects: [], faults: FaultSelection(profile: .uniform)))
        let replay = ScenarioRunner.run(parsed)
        #expect(replay.result.traceHashHex == original.traceHashHex)
        #expect(replay.result.firstViolation?.invariant == original.firstViolation?.invariant)
    }
}

import AlarmBridge
import Foundation
import IOSModel
import SimKernel
import Testing

/// Issue 18 part 3: the AlarmKit-like daemon held to Apple's AlarmKit documentation page by page
/// (developer.apple.com/documentation/alarmkit), the WWDC25 session "Wake up to the AlarmKit API"
/// (session 230) and Apple's sample "Scheduling an alarm with AlarmKit". The table
/// `Scenarios/conformance/apple-alarmkit.md` has one row per documented behaviour; these cases
/// cover the rows the older suites (`AlarmKitConformanceTests`, `AlarmKitDeviceChangeTests`,
/// `AlarmKitDaemonTests`) did not, and `tableNamesRealTests` keeps the table honest.
struct AppleAlarmKitDocConformanceTests {
    typealias Driver = AlarmKitConformanceTests.Driver

    @Test("a nil postAlert falls back to the preAlert duration for post-alert countdowns (…/alarm/countdownduration-swift.struct/postalert)")
    func postAlertFallsBackToPreAlert() throws {
        var driver = Driver()
        let id = driver.schedule("timer", .fixed(wallMs: driver.nowWallMs + 600_000),
                                 countdown: CountdownDuration(preAlertMs: 120_000, postAlertMs: nil))
        driver.advance(byMs: 600_000)
        #expect(driver.state(id) == .alerting)
        driver.apply(try driver.daemon.countdown(id, nowWallMs: driver.nowWallMs).get())
        #expect(driver.state(id) == .countdown)
        driver.advance(byMs: 119_000)
        #expect(driver.state(id) == .countdown)
        driver.advance(byMs: 1_000)  // the 120 s preAlert, reused after the alert
        #expect(driver.state(id) == .alerting)
    }

    @Test("stop(id:) of a repeating alarm with a preAlert: it begins counting down again at its next scheduled time (…/alarmmanager/stop(id:))")
    func stopRearmsRepeatingIntoCountdown() {
        var driver = Driver()  // Monday 2026-03-02 06:40 Berlin
        let id = driver.schedule("w", .relative(hour: 7, minute: 0, weekday: .monday),
                                 countdown: CountdownDuration(preAlertMs: 300_000, postAlertMs: nil))
        driver.advance(byMs: 15 * 60_000)  // 06:55: fire − preAlert
        #expect(driver.state(id) == .countdown)
        driver.advance(byMs: 5 * 60_000)  // 07:00
        #expect(driver.state(id) == .alerting)
        driver.apply(driver.daemon.stop(id, nowWallMs: driver.nowWallMs, byUser: true))
        #expect(driver.state(id) == .scheduled)
        let nextMonday = Int64(1_772_431_200_000) + 7 * 86_400_000
        #expect(driver.daemon.alarm(id)?.nextFireWallMs == nextMonday)
        driver.advance(byMs: nextMonday - 300_000 - driver.nowWallMs - 1_000)
        #expect(driver.state(id) == .scheduled)
        driver.advance(byMs: 1_000)  // next Monday 06:55
        #expect(driver.state(id) == .countdown)
    }

    @Test("alarms lists this app's alarms with the state at read time; a stopped one-shot is gone, a stopped repeating one reads scheduled (…/alarmmanager/alarms)")
    func alarmsReadsCurrentStates() throws {
        var driver = Driver()
        let once = driver.schedule("o", .fixed(wallMs: driver.nowWallMs + 60_000))
        let weekly = driver.schedule("w", .relative(hour: 6, minute: 41, weekday: .monday))
        func states() throws -> [AlarmUUID: PlatformAlarm.State] {
            let read = try driver.daemon.readAlarms().get()
            return Dictionary(uniqueKeysWithValues: read.map { ($0.id, $0.state) })
        }
        #expect(try states() == [once: .scheduled, weekly: .scheduled])
        driver.advance(byMs: 60_000)  // 06:41: both alert
        #expect(try states() == [once: .alerting, weekly: .alerting])
        driver.apply(driver.daemon.stop(once, nowWallMs: driver.nowWallMs, byUser: false))
        driver.apply(driver.daemon.stop(weekly, nowWallMs: driver.nowWallMs, byUser: false))
        #expect(try states() == [weekly: .scheduled])
    }

    @Test("cancel(id:) deletes a repeating alarm too and ends its alert in progress (…/alarmmanager/cancel(id:))")
    func cancelEndsAlert() {
        var driver = Driver()
        let id = driver.schedule("a", .relative(hour: 6, minute: 41, weekday: .monday))
        driver.advance(byMs: 60_000)
        #expect(driver.state(id) == .alerting)
        let effects = driver.daemon.cancel(id)
        #expect(effects.contains { if case .alertEnded(id, _) = $0 { return true }; return false })
        #expect(driver.daemon.alarm(id) == nil)  // even though it repeats weekly
    }

    /// Every test named in a MATCH row of the table exists as a function in this test target, so
    /// the table cannot cite a test that was renamed or removed.
    @Test("the Apple AlarmKit conformance table names only tests that exist")
    func tableNamesRealTests() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let table = try String(contentsOf: root.appendingPathComponent("Scenarios/conformance/apple-alarmkit.md"), encoding: .utf8)
        let testsDirectory = root.appendingPathComponent("Tests/IOSModelTests")
        let sources = try FileManager.default.contentsOfDirectory(atPath: testsDirectory.path).sorted()
            .filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: testsDirectory.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
        var matchRows = 0
        for line in table.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 6, cells[3].hasPrefix("MATCH") else { continue }
            matchRows += 1
            let names = cells[4].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            #expect(!names.isEmpty, "MATCH row without a test: \(line)")
            for name in names where !name.contains("/") {
                let function = name.split(separator: ".").last.map(String.init) ?? name
                #expect(sources.contains("func \(function)("), "the table cites \(name), which no test in Tests/IOSModelTests defines")
            }
        }
        #expect(matchRows >= 20)
    }
}

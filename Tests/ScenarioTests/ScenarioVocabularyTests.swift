// The verb table is well-formed, complete, and every verb parses and prints.

import Foundation
import Scenario
import Testing

@Suite("Timed-event vocabulary")
struct ScenarioVocabularyTests {
    @Test("each (actor, verb) appears once and optional arguments come last")
    func wellFormed() {
        let keys = ScenarioVocabulary.verbs.map { "\($0.actor) \($0.verb)" }
        #expect(Set(keys).count == keys.count)
        for entry in ScenarioVocabulary.verbs {
            let firstOptional = entry.arguments.firstIndex(where: \.isOptional) ?? entry.arguments.count
            let trailingAreOptional = entry.arguments[firstOptional...].allSatisfy { $0.isOptional }
            #expect(trailingAreOptional, "\(entry.usage)")
            #expect(!entry.meaning.isEmpty)
        }
    }

    @Test("the table holds the agreed verbs with the agreed arguments")
    func agreedVerbs() {
        let usages = ScenarioVocabulary.verbs.map(\.usage)
        #expect(usages == [
            "user stop [ALARM]", "user open-app", "user leave-app", "user complete-challenge", "user snooze DURATION", "user abandon", "user skip-snooze", "user unlock", "user lock",
            "user force-quit", "user edit-title ALARM \"TEXT\"", "user edit-time ALARM HH:MM", "user delete-alarm ALARM",
            "user edit-weekdays ALARM \"TEXT\"", "user edit-alarm-time ALARM HH:MM", "user edit-sounds ALARM \"TEXT\"",
            "user edit-policy ALARM \"TEXT\"", "user edit-challenge ALARM \"TEXT\"", "user edit-countdown ALARM \"TEXT\"",
            "user disable-alarm ALARM", "user enable-alarm ALARM",
            "user control-center", "user app-update", "user reinstall", "user mute-burst",
            "app sync-enabled-alarms", "app launch", "app challenge-interaction", "app start-burst [ALARM]",
            "app record-audible [ALARM]", "app reset-audible-count", "app get-scheduled-times",
            "device reboot", "device boot-complete", "device time-zone ZONE", "device set-clock ±DURATION",
            "device doze on|off", "device charging on|off", "device silent-mode on|off",
            "fault process-death", "fault schedule-failure [N=1]", "fault inventory-read-failure [N=1]", "fault capacity N",
            "fault revoke-exact-permission", "fault grant-exact-permission", "fault coalesce-updates on|off",
            "fault late-delivery DURATION", "fault wrong-instant-alert", "fault ghost-alert DURATION", "fault os-update",
            "fault damaged-store DURATION", "fault force-stop", "fault audio-focus-loss", "fault phone-call",
            "fault audio-focus-regained", "fault playback-failure", "fault os-removes-alarm [ALARM]",
            "user start-walk", "user walk N", "user app-switcher DURATION", "user health-access on|off", "fault workout-lost",
            "expect alerting ALARM", "expect silent ALARM", "expect save ALARM \"TEXT\"",
            "fault kill-switch-ok", "fault kill-switch-disabled", "fault kill-switch-timeout",
            "fault kill-switch-network-failure", "fault kill-switch-unreadable", "fault app-state-write-failure [N=1]",
            "app cancel-system-alarms ALARM",
            "user volume-key", "user lower-alarm-volume", "user start-wake-up-check",
            "app reconcile-step-tracking", "expect lock-screen-grant on|off",
            "expect sound ALARM \"TEXT\"", "expect registered ALARM on|off", "expect scheduled-times-rejected on|off", "expect dropped-count N", "expect audible-count N", "expect burst on|off",
        ])
        #expect(ScenarioVocabulary.actors == ["user", "app", "device", "fault", "expect"])
    }

    static func sample(_ kind: ScenarioArgumentKind) -> (text: String, value: ScenarioArgument) {
        switch kind {
        case .alarm, .optionalAlarm: return ("wake", .alarm("wake"))
        case .text: return ("\"New \\\"title\\\"\"", .text("New \"title\""))
        case .count, .optionalCount: return ("4", .count(4))
        case .duration: return ("2m", .durationMs(120_000))
        case .onOff: return ("on", .onOff(true))
        case .timeOfDay: return ("06:30", .timeOfDay(hour: 6, minute: 30))
        case .zone: return ("Asia/Tokyo", .zone("Asia/Tokyo"))
        case .signedDuration: return ("-90m", .signedDurationMs(-5_400_000))
        }
    }

    @Test("every verb parses with its full argument list and prints back the same line")
    func everyVerbParses() throws {
        var lines = Fixture.header
        var expected: [[ScenarioArgument]] = []
        for entry in ScenarioVocabulary.verbs {
            let samples = entry.arguments.map(Self.sample)
            lines.append((["at 07:00", entry.actor, entry.verb] + samples.map(\.text)).joined(separator: " "))
            expected.append(samples.map(\.value))
        }
        let scenario = try Fixture.parse(Fixture.text(lines))
        #expect(scenario.events.map(\.arguments) == expected)
        #expect(scenario.events.map { "\($0.actor) \($0.verb)" } == ScenarioVocabulary.verbs.map { "\($0.actor) \($0.verb)" })
        let reprinted = ScenarioPrinter.print(scenario).split(separator: "\n").filter { $0.hasPrefix("at ") }.map(String.init)
        #expect(reprinted == Array(lines.dropFirst(3)))
    }

    @Test("every example in Scenarios/README.md parses and round-trips")
    func readmeExamples() throws {
        let readme = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let blocks = text.components(separatedBy: "```scenario\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count >= 2)
        for (index, block) in blocks.enumerated() {
            let scenario = try Fixture.parse(block, file: "README example \(index + 1)")
            let reparsed = try Fixture.parse(ScenarioPrinter.print(scenario), file: "README example \(index + 1)")
            #expect(reparsed.withoutSourcePositions() == scenario.withoutSourcePositions())
        }
    }

    @Test("every verb is documented in Scenarios/README.md")
    func readmeDocumentsEveryVerb() throws {
        let readme = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        for entry in ScenarioVocabulary.verbs {
            #expect(text.contains("`\(entry.usage)`"), "README lacks `\(entry.usage)`")
        }
    }
}

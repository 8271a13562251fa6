@testable import Reporting
import Testing

/// Event lines in people's words (issue 17): a case description becomes words, quoted user text
/// stays exactly as it was.
@Suite("CaseWords")
struct CaseWordsTests {
    @Test("case names and labels split at capitals; the who-word, nil and colons go; quotes untouched")
    func words() {
        #expect(CaseWords.words(#"userEditTitle(alarmID: "a1", title: "Alarm 1 edit 1")"#) == #"edit title (alarm ID "a1", title "Alarm 1 edit 1")"#)
        #expect(CaseWords.words(#"saved(alarmID: "a1")"#) == #"saved (alarm ID "a1")"#)
        #expect(CaseWords.words("lastAlarmAction(nil)") == "last alarm action (none)")
        #expect(CaseWords.words("faultAppStateWriteFailure(count: 2)") == "app state write failure (count 2)")
        #expect(CaseWords.words("didBecomeActive") == "did become active")
        #expect(CaseWords.words(#"userEditTitle(alarmID: "a1", title: "nil: userStop(x)")"#) == #"edit title (alarm ID "a1", title "nil: userStop(x)")"#)
        #expect(CaseWords.words("cancelCompleted(673e57e2-c2b2-5118-b156-438e63d9c81e, notFound)") == "cancel completed (673e57e2-c2b2-5118-b156-438e63d9c81e, not found)")
    }

    @Test("an instant's label loses its unit words, a duration's keeps them")
    func units() {
        #expect(CaseWords.words("ack(occurredAtMs: 1797438432609)") == "ack (occurred at 1797438432609)")
        #expect(CaseWords.words("row(nextFireWallMs: 1797438432609)") == "row (next fire 1797438432609)")
        #expect(CaseWords.words("userSnooze(delayMs: 600000)") == "snooze (delay ms 600000)")
    }

    @Test("acronyms stay whole")
    func acronyms() {
        #expect(CaseWords.split("alarmID") == ["alarm", "ID"])
        #expect(CaseWords.split("UUIDString") == ["UUID", "string"])
        #expect(CaseWords.split("userEditTitle") == ["user", "edit", "title"])
    }

    @Test("a bare case name splits too (resumeSync, scheduledTimes); hex IDs, plain words and acronyms stay")
    func bareCaseNames() {
        #expect(CaseWords.words("inventoryRead(resumeSync, 6 alarms, 0 alerting)") == "inventory read (resume sync, 6 alarms, 0 alerting)")
        #expect(CaseWords.words("x(scheduledTimes, deadbeef-0a1b, UTC, launch)") == "x (scheduled times, deadbeef-0a1b, UTC, launch)")
    }


    @Test("readable input text: one is singular, an array of plain words loses its quotes, a quoted title keeps them")
    func readableCountsAndArrays() {
        #expect(TraceExplainer.readable("alarmUpdates(1 alarms, 0 alerting)", full: false) == "alarm updates (1 alarm, 0 alerting)")
        #expect(TraceExplainer.readable("alarmUpdates(11 alarms, 1 alerting)", full: false) == "alarm updates (11 alarms, 1 alerting)")
        #expect(TraceExplainer.readable(#"sounds(pool: ["sound-4", "sound-1"], title: "Wake up")"#, full: false)
                == #"sounds (pool [sound-4, sound-1], title "Wake up")"#)
    }

}

import Foundation
@testable import AlarmBridge
import Testing

/// Issue 20: the recurrence plan is cached across instants and across document changes that leave
/// a root's inputs alone (``BridgeCore/PlanCache``). Whatever the cache answers must be the plan
/// computed afresh: across DST nights, a seed entering H_SKIP, a one-shot's instant passing,
/// deliveries that move a root's latest ring time, and a clock set back.
struct PlanCacheTests {
    static let berlin = WallCalendar(zoneIdentifier: "Europe/Berlin")!

    /// Weekly with a skip date (iOS: concrete occurrences and seeds), plain weekly, a one-shot,
    /// and one in the spring-forward gap (02:30 on 2026-03-29).
    static let alarms = [
        LogicalAlarm(id: "skip", hour: 7, minute: 0, repeats: .weekly(Weekday.allCases), title: "Skip",
                     skipDates: [LocalDate(year: 2026, month: 3, day: 31), LocalDate(year: 2026, month: 4, day: 8)]),
        LogicalAlarm(id: "plain", hour: 6, minute: 15, repeats: .weekly([.monday, .thursday]), title: "Plain"),
        LogicalAlarm(id: "once", hour: 9, minute: 40, repeats: .once(fireWallMs: berlin.instant(year: 2026, month: 3, day: 30, hour: 9, minute: 40)!),
                     title: "Once"),
        LogicalAlarm(id: "gap", hour: 2, minute: 30, repeats: .weekly([.sunday]), title: "Gap",
                     skipDates: [LocalDate(year: 2026, month: 4, day: 12)]),
    ]

    /// "2026-3-29 3:05 Europe/Berlin": a wall instant as a reader checks it.
    static func text(_ wallMs: Int64) -> String {
        let local = berlin.local(wallMs)
        return "\(local.year)-\(local.month)-\(local.day) \(local.hour):\(String(format: "%02d", local.minute)) Europe/Berlin"
    }

    /// Every `stepMs` from 2026-03-26 20:00 for `days` days, the cached plan against the fresh one;
    /// each `deliverEvery`-th step the earliest wanted ring is delivered (the document's history
    /// and rows change, the alarms do not), and once the clock is set back by a day.
    func walk(flavor: PlatformFlavor, days: Int = 21, stepMs: Int64 = 37 * 60_000, deliverEvery: Int = 9) {
        var harness = BridgeHarness(flavor: flavor)
        harness.core = BridgeCore(configuration: BridgeConfiguration(flavor: flavor, calendar: Self.berlin))
        harness.now = BridgeInstants(wallMs: Self.berlin.instant(year: 2026, month: 3, day: 26, hour: 20, minute: 0)!, monotonicMs: 3_600_000)
        _ = harness.send(.processStarted(.user))
        for alarm in Self.alarms { _ = harness.send(.api(.saveAlarm(alarm))) }
        _ = harness.send(.didEnterBackground)
        var mismatches: [String] = []
        let steps = Int(Int64(days) * 86_400_000 / stepMs)
        for step in 0..<steps {
            harness.advance(stepMs)
            if step == steps / 2 { harness.now.wallMs -= 86_400_000 }  // a clock set back: an earlier instant
            let cached = harness.core.recurrencePlan(now: harness.now)
            let again = harness.core.recurrencePlan(now: harness.now)
            let fresh = harness.core.uncachedRecurrencePlan(now: harness.now)
            if cached != fresh || again != fresh { mismatches.append(Self.text(harness.now.wallMs)) }
            if step % deliverEvery == 0, let due = fresh.wanted.filter({ $0.fireWallMs <= harness.now.wallMs + stepMs }).first {
                _ = harness.send(.alarmDelivered(due.id))
                _ = harness.send(.ringDismissed(due.id))
                _ = harness.send(.api(.syncEnabledAlarms))
            }
        }
        #expect(mismatches.isEmpty, "cached plan differs from the fresh one at \(mismatches.prefix(5))")
        #expect(steps > 500)
    }

    @Test("Issue 20: iOS's cached recurrence plan is the fresh plan at every instant (DST nights, seeds entering H_SKIP, one-shots passing, deliveries, a clock set back)")
    func iosPlanCacheIsExact() { walk(flavor: .ios) }

    @Test("Issue 20: Android's cached recurrence plan is the fresh plan at every instant")
    func androidPlanCacheIsExact() { walk(flavor: .android) }

    @Test("Issue 20: a copy of the bridge (the idempotent-sync probe's) shares the cache and gets the same plan; a changed alarm is planned afresh")
    func copiesShareAndEditsReplan() throws {
        var harness = BridgeHarness(flavor: .ios)
        _ = harness.send(.processStarted(.user))
        _ = harness.send(.api(.saveAlarm(Self.alarms[0])))
        let copy = harness.core
        #expect(copy.recurrencePlan(now: harness.now) == harness.core.uncachedRecurrencePlan(now: harness.now))
        var edited = Self.alarms[0]
        edited.hour = 8
        _ = harness.send(.api(.saveAlarm(edited)))
        let plan = harness.core.recurrencePlan(now: harness.now)
        #expect(plan == harness.core.uncachedRecurrencePlan(now: harness.now))
        let primary = try #require(plan.wanted.first { $0.metadata.kind == .primary })
        #expect(Self.berlin.local(primary.fireWallMs).hour == 8)
    }
}

/// Issue 20: `BridgeDocument.root(_:)` builds only the roots of alarms whose ID begins the root ID.
struct RootLookupTests {
    @Test("root(_:) finds what a scan of every alarm's roots finds: alarm IDs that look like root IDs, prefixes of one another, and canonically equal Unicode")
    func rootLookupMatchesTheScan() {
        var document = BridgeDocument()
        let ids = ["a1", "a1.mon", "a", "a1.", "caf\u{E9}", "cafe\u{301}.x", "b"]
        document.alarms = ids.enumerated().map { index, id in
            index % 2 == 0 ? LogicalAlarm(id: id, hour: 7, minute: index, repeats: .weekly([.monday, .friday]), title: id)
                : LogicalAlarm(id: id, hour: 8, minute: index, repeats: .once(fireWallMs: 1_800_000_000_000), title: id)
        }
        let wanted = document.alarms.flatMap(\.roots).map(\.id)
            + ["a1.mon.mon", "cafe\u{301}.mon", "caf\u{E9}.x", "a.mon", "x", "", "a1.fri", "b.sun"]
        for rootID in wanted {
            let scanned = document.alarms.lazy.compactMap { alarm in alarm.roots.first { $0.id == rootID } }.first
            #expect(document.root(rootID) == scanned, "root(\(rootID))")
        }
    }
}

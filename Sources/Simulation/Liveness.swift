import AlarmBridge
import AndroidModel
import IOSModel
import SimKernel

/// The liveness phase of a run (issue 7; TigerBeetle VOPR's liveness mode, Coyote's hot
/// states): after the seeded safety phase the faults stop, the world heals, and the bridge must
/// converge within named bounds — candidate invariant 46, `convergence`.
///
/// Every bound is virtual milliseconds, drawn per seed from the stream `setup.liveness` (so
/// other draws keep their values) and printed with the run's parameters.
public struct LivenessSetup: Sendable, Equatable {
    /// Whether the run has a liveness phase at all. Fuzz and replay: `RunOptions.liveness`
    /// (`--no-liveness` turns it off); scenario files: `param sim.liveness on`.
    public var enabled = false
    /// B_REG: within this long after the heal (iOS before its first unlock: after the first
    /// unlock, BOOT-1) and again after the user's return, the platform holds every configured
    /// primary inside the horizon. Varied per seed: 2, 5 or 10 min.
    public var registrationBoundMs: Int64 = 5 * 60_000
    /// B_AUD: an occurrence live after the heal is audible (or presented in the app) within this
    /// long of its start, or — for one already live at the heal — of the user's return. At least
    /// the 30 min snooze maximum (SNZ-3) + a minute. Varied per seed: 35, 45 or 60 min.
    public var audibleBoundMs: Int64 = 45 * 60_000
    /// How long after the heal the user opens the app on an unlocked phone. Varied per seed:
    /// 10 s up to half of B_REG.
    public var userReturnDelayMs: Int64 = 60_000
    /// How long the user stays in the app before leaving it. Varied per seed: 5–60 s.
    public var userStayMs: Int64 = 20_000
    /// A phone rebooted and never unlocked at the heal stays locked this long (the user is
    /// asleep): always longer than B_REG, so a restore that waits for the first unlock misses
    /// the bound (AND-3). Varied per seed: B_REG + 1..30 min.
    public var firstUnlockDelayMs: Int64 = 20 * 60_000

    public init() {}

    /// The longest liveness window this setup can give, virtual ms (the window ends after the
    /// user's return plus the larger bound, plus a minute of slack for the last checks).
    public var windowMaxMs: Int64 {
        max(userReturnDelayMs, firstUnlockDelayMs) + userStayMs + max(registrationBoundMs, audibleBoundMs) + 60_000
    }

    /// Draws the seed's bounds (own stream: every other draw keeps its value).
    static func draw(_ rng: inout Xoshiro256StarStar) -> LivenessSetup {
        var setup = LivenessSetup()
        setup.registrationBoundMs = rng.pick([Int64(2), 5, 10]) * 60_000
        setup.audibleBoundMs = rng.pick([Int64(35), 45, 60]) * 60_000
        setup.userReturnDelayMs = rng.int(in: 10_000...(setup.registrationBoundMs / 2))
        setup.userStayMs = rng.int(in: 5_000...60_000)
        setup.firstUnlockDelayMs = setup.registrationBoundMs + rng.int(in: 60_000...1_800_000)
        precondition(setup.userReturnDelayMs + setup.userStayMs < setup.registrationBoundMs + 60_000,
                     "the user's return must fall well inside B_REG")
        precondition(setup.firstUnlockDelayMs > setup.registrationBoundMs, "the first unlock must come after B_REG")
        return setup
    }

    /// The printed parameters of the phase, in a fixed order. `boundaryWallMs` is the instant
    /// the safety phase ends (the run's start + its duration).
    public func parameters(boundaryWallMs: Int64) -> [RunParameter] {
        guard enabled else { return [RunParameter("sim.liveness", "off")] }
        return [RunParameter("sim.liveness", "on"),
                RunParameter("liveness.phase-boundary-wall-ms", String(boundaryWallMs)),
                RunParameter("liveness.registration-bound-ms", String(registrationBoundMs)),
                RunParameter("liveness.audible-bound-ms", String(audibleBoundMs)),
                RunParameter("liveness.user-return-ms", String(userReturnDelayMs)),
                RunParameter("liveness.user-stay-ms", String(userStayMs)),
                RunParameter("liveness.first-unlock-ms", String(firstUnlockDelayMs)),
                RunParameter("liveness.window-max-ms", String(windowMaxMs))]
    }
}

/// Events of the liveness phase.
enum LivenessEvent: Sendable, Equatable {
    /// The user comes back to the healed phone: unlocks it if needed, opens the app once.
    case userReturns
    /// Convergence: every configured primary is registered (`attempt` counts quiescence waits).
    case registrationCheck(attempt: Int)
    /// Convergence: the occurrence has been audible or presented since `fromMs` (true ms).
    case audibleDeadline(occurrence: Int, fromMs: Int64)
}

/// What an injected fault did to the Android direct-boot restore since the last boot.
struct RestoreFault {
    /// Roots whose primary schedule request failed in the locked phase, in failure order.
    var roots: [String] = []
    /// A read failed, or the process died mid-restore: no root's restore can be known to have run.
    var everyRoot = false
    /// Roots whose occurrence-opening ring was delivered in the locked phase: the delivery
    /// consumed the primary, and the next one follows only at the bridge's next execution once
    /// the alert ended (SCH-22, REC-6). A process death then (an OEM battery killer ending the
    /// ringing process, PLATFORMS.md field) hits that re-arm, and only that root's.
    var deliveredRoots: [String] = []

    func covers(_ rootID: String) -> Bool { everyRoot || roots.contains(rootID) }
}

/// The world's liveness bookkeeping.
struct LivenessState {
    var healed = false
    /// The heal found a rebooted phone not yet unlocked: it stays locked until the user's return.
    var healedLocked = false
    /// True time of the heal, and of the user's return (nil until it happened).
    var healedAtMs: Int64 = .min
    /// Device wall time of the heal (wall ms; no clock fault runs after it).
    var healedAtWallMs: Int64 = .min
    var userReturnedAtMs: Int64?
    /// True time the liveness window ends.
    var endMs: Int64 = .max
    /// A fault hit the Android direct-boot restore since the last boot — by its effect, not its
    /// presence: a primary schedule request of the locked phase failed (those roots only), an
    /// inventory read of the locked phase failed, or the process died with requests in flight
    /// before the first unlock (every root). With no later platform event to relaunch the app
    /// before the first unlock, a restore it interrupted cannot be redone
    /// ([limit], `locked-boot-restore-faulted`); while the process lives the bridge must retry.
    var restoreFault = RestoreFault()
    /// Occurrences (oracle IDs) and the last true instant each was audible or presented.
    var servedAtMs: [Int: Int64] = [:]  // lookup only
    /// Roots and the last true instant one of their configured times arrived.
    var lastDueMs: [String: Int64] = [:]  // lookup only
}

extension PlanAction {
    /// Fault actions of a plan: the liveness phase drops every one due after the heal. User
    /// habits (opening the app, edits, unlocks, snoozes) are not faults and keep running.
    var isFault: Bool {
        switch self {
        case .deviceReboot, .faultProcessDeath, .faultScheduleFailure, .faultInventoryReadFailure, .faultDamagedStore, .faultCapacity,
             .faultRevokeExactPermission, .faultGrantExactPermission, .faultCoalesceUpdates, .deviceTimeZone,
             .deviceSetClock, .deviceSilentMode, .userForceQuit, .userReinstall, .faultOSRemovesAlarm,
             .faultLateDelivery, .deviceDoze, .userAppUpdate, .faultForceStop, .faultAudioFocus,
             .faultPlaybackFailure, .faultKillSwitch, .faultAppStateWriteFailure, .faultWorkoutLost,
             .userSetHealthAccess, .faultWrongInstantAlert, .faultGhostAlert, .faultOSUpdate:
            return true
        default:
            return false
        }
    }
}

extension World {
    // MARK: - Heal

    /// Plan actions the liveness phase drops: every fault (``PlanAction/isFault``), and — on a
    /// phone the heal found rebooted and still locked — the first unlock a reboot of the safety
    /// phase scheduled: the locked boot is that fault's half, and the phase's own locked length
    /// (`firstUnlockDelayMs`, the user is asleep) replaces it. Without this an early unlock ended
    /// the `protected-data-unavailable` exemption while no app process ran to restore anything
    /// before the user's return (ios seed 3591).
    func droppedAfterHeal(_ action: PlanAction) -> Bool {
        guard liveness.healed else { return false }
        if action.isFault { return true }
        return action == .userUnlock && liveness.healedLocked && liveness.userReturnedAtMs == nil
    }

    /// The heal at the end of the safety phase (`setup.durationMs` after the start).
    ///
    /// Model choices (issue 7):
    /// - **Faults stop.** Plan fault actions due later are dropped (``PlanAction/isFault``), and
    ///   so are interleaving process deaths and request failures (`setup.interleavingDeaths`,
    ///   `setup.requestFailureRate`). A fault already injected into the platform is undone:
    ///   pending schedule / read failures cleared, AlarmKit capacity back to the seed's value,
    ///   update coalescing back to the seed's, Silent mode off (a swarm fault, IOS-6), a late
    ///   delivery not yet taken cancelled, doze left, audio focus regained, the exact-alarm
    ///   permission granted again (its broadcast reaches the app, AND-3), the kill switch
    ///   answering "ok" and app-state writes succeeding. Platform *parameters* of the seed (an OEM
    ///   battery killer, a denied AlarmKit authorization, iOS < 26, a seed's small capacity) are
    ///   the device, not faults: they stay, and what they make impossible is an exemption.
    /// - **The user comes back once.** On an unlocked phone the user opens the app
    ///   `userReturnDelayMs` after the heal, stays `userStayMs`, and leaves it — as a real user
    ///   brings an app back (this also ends a force-stop, AND-6, and releases intents held
    ///   after a force-quit). The sleepy user keeps reacting to alerts throughout.
    /// - **A phone rebooted and never unlocked stays locked** for `firstUnlockDelayMs` (always
    ///   longer than B_REG): the user is asleep, and an alarm must ring before the first unlock.
    ///   AND-2 and AND-3 make the Android bridge restore from device-protected storage at
    ///   LOCKED_BOOT_COMPLETED, so its convergence is judged from the heal; on iOS the app's data
    ///   is unreadable before the first unlock and the gate holds (BOOT-1, BOOT-4) while AlarmKit
    ///   keeps what it holds, so iOS registration is judged again from the user's return. The
    ///   user's return is the first unlock, then the app open.
    func heal() {
        liveness.healed = true
        liveness.healedAtMs = nowMs
        liveness.healedAtWallMs = wallMs
        let locked = !protectedDataAvailable
        liveness.healedLocked = locked
        let returnDelay = locked ? setup.liveness.firstUnlockDelayMs : setup.liveness.userReturnDelayMs
        liveness.endMs = nowMs + returnDelay + setup.liveness.userStayMs
            + max(setup.liveness.registrationBoundMs, setup.liveness.audibleBoundMs) + 60_000
        record("sim", "heal", [TraceField("locked", String(locked)), TraceField("end-ms", String(liveness.endMs))])
        lateDeliveryMs = nil
        osUpdateAtNextBoot = false
        storeDamage = StoreDamage()  // BOOT-5's damaged store is a fault: healed
        if var daemon = ios {
            daemon.failNextSchedules = 0
            daemon.failNextReads = 0
            daemon.parameters.capacity = setup.ios.capacity
            daemon.parameters.coalesceUpdates = setup.ios.coalesceUpdates
            daemon.healGhostAlerts()  // issue 18: a ghost alert is a fault; healed it sounds
            ios = daemon
            if daemon.silentMode { setSilentMode(false) }
        }
        if let manager = android {
            android?.failNextSchedules = 0
            android?.failNextReads = 0
            if !manager.canScheduleExactAlarms { onAlarmManager { $0.grantExactAlarmPermission() } }
            setDoze(false)
            if androidSilencedExemption() != nil { audioFocus(.gain) }
        }
        launchState.killSwitchScripted = .ok
        launchState.failNextAppStateWrites = 0
        enqueue(.liveness(.userReturns), afterMs: returnDelay)
        enqueue(.liveness(.registrationCheck(attempt: 0)), afterMs: setup.liveness.registrationBoundMs)
        // Fire times up to the liveness window's end (the safety phase planned up to its own end).
        replanOracleFireTimes(jumpedOver: [])
    }

    /// The user comes back to the healed phone: the first unlock if it is still locked, the app
    /// opened once, then left after `userStayMs`.
    func userReturns() {
        guard deviceUp else {
            enqueue(.liveness(.userReturns), afterMs: 5_000)  // still booting: a moment later
            return
        }
        liveness.userReturnedAtMs = nowMs
        record("user", "returns-after-heal")
        openApp()  // unlocks first (World+Actions.swift)
        enqueue(.plan(.userLeaveApp), afterMs: setup.liveness.userStayMs)
        enqueue(.liveness(.registrationCheck(attempt: 0)), afterMs: setup.liveness.registrationBoundMs)
        if let index = oracle.liveIndex {
            // An occurrence live at the heal may have lost its pressure to a fault; the bridge can
            // restore it only once it runs again, so it is judged from the user's return.
            enqueue(.liveness(.audibleDeadline(occurrence: oracle.occurrences[index].id, fromMs: nowMs)),
                    afterMs: setup.liveness.audibleBoundMs)
        }
    }

    func dispatchLiveness(_ event: LivenessEvent) {
        switch event {
        case .userReturns: userReturns()
        case .registrationCheck(let attempt): checkConvergedRegistration(attempt: attempt)
        case .audibleDeadline(let occurrence, let fromMs): checkConvergedAudible(occurrence, fromMs: fromMs)
        }
    }

    /// After every event of the liveness phase: remember when the live occurrence was audible
    /// (an alert bound to it sounds) or presented (the app is natively in the foreground, FG-2).
    func livenessObserve() {
        guard liveness.healed, let index = oracle.liveIndex else { return }
        let occurrence = oracle.occurrences[index]
        if process.active || audibleRings().contains(where: { oracle.bindings[$0.id] == occurrence.id }) {
            liveness.servedAtMs[occurrence.id] = nowMs
        }
    }

    /// A root's configured time arrived (every one, live, tied or passed over).
    func livenessRootDue(_ rootID: String) {
        liveness.lastDueMs[rootID] = nowMs
    }

    /// An occurrence opened after the heal is judged from its start — unless its deadline (wall
    /// ms) had passed by the heal: the platform delivered it only after its whole life, which lay
    /// before the heal (INACT-22: never live from its deadline on), like an occurrence that
    /// expired before the heal. Android swarm seed 4471: the heal's doze exit released an inexact
    /// primary kept while exact alarms were refused ([limit] AND-1, AND-3), 50 min after its time.
    func livenessOccurrenceOpened(_ occurrence: OracleOccurrence) {
        guard liveness.healed, nowMs + setup.liveness.audibleBoundMs <= liveness.endMs,
              occurrence.deadlineMs > liveness.healedAtWallMs else { return }
        if let floor = livenessFloorExemption(occurrence) {
            countExemption(floor)
            return
        }
        enqueue(.liveness(.audibleDeadline(occurrence: occurrence.id, fromMs: nowMs)), afterMs: setup.liveness.audibleBoundMs)
    }

    /// [limit] AOSP AlarmManagerService MIN_FUTURITY (PLATFORMS.md, floors and limits): a trigger
    /// set less than 5 s ahead is delivered 5 s after its set call, so nothing the healed app
    /// registers sounds before the heal + 5 s. An occurrence opened already past its deadline
    /// (INACT-22: never live from it on) whose deadline fell inside that floor had no instant after
    /// the heal in which any bridge could make it audible: the rest of its life lay before the heal,
    /// as for android swarm seed 4471 (not judged); counted by name. Android uniform seed 83695:
    /// a1's 09:44 primary held inexact while exact alarms were refused ([limit] AND-1, AND-3); the
    /// heal's grant at 10:13:58.7 made it exact at once (AND-3), and AlarmManager delivered it at
    /// 10:14:03.7, after its 10:14 deadline.
    func livenessFloorExemption(_ occurrence: OracleOccurrence) -> String? {
        guard let manager = android, wallMs >= occurrence.deadlineMs,
              occurrence.deadlineMs <= liveness.healedAtWallMs + manager.parameters.minFuturityMs else { return nil }
        return "android-min-futurity"
    }

    // MARK: - convergence (candidate invariant 46)

    /// The occurrence was audible or presented within B_AUD of `fromMs`; else a violation, unless
    /// it closed by something other than expiry (completion, abandonment and the app deleted all
    /// need the user) or a named [limit] exemption holds.
    func checkConvergedAudible(_ occurrenceID: Int, fromMs: Int64) {
        guard !stopped, let occurrence = oracle.occurrences.first(where: { $0.id == occurrenceID }) else { return }
        if let served = liveness.servedAtMs[occurrenceID], served >= fromMs { return }
        if !occurrence.live && occurrence.closeReason != "expired" { return }
        if let occurrenceClosed = occurrence.closedAtMs, occurrenceClosed < fromMs { return }
        if let exemption = convergenceExemption(rootID: occurrence.rootID, fireWallMs: occurrence.startWallMs) {
            countExemption(exemption)
            return
        }
        let state = occurrence.live ? "is still live" : "expired"
        violate("convergence", [], "after the heal the occurrence of \(occurrence.rootID) (ring time \(localTimeText(occurrence.startWallMs))) \(state) but was never audible or presented within \(HumanText.duration(setup.liveness.audibleBoundMs)) (B_AUD)")
    }

    /// Every configured primary inside the horizon is registered with the platform (judged from
    /// the platform model, never the bridge's books), holds the foregroundSuppressed proof, or
    /// is exempt by name. While the bridge still has requests, reads or saves in flight the check
    /// waits for quiescence, at most T_OP.
    func checkConvergedRegistration(attempt: Int) {
        guard !stopped, deviceUp else { return }
        let busy = inventoryReadsOutstanding > 0 || !jsSaves.pending.isEmpty
            || (process.running && !process.suspended && (process.bridge?.hasRequestsInFlight ?? false))
        if busy && Int64(attempt) * 1_000 < setup.transitionBoundMs {
            enqueue(.liveness(.registrationCheck(attempt: attempt + 1)), afterMs: 1_000)
            return
        }
        let owners = oracle.liveIndex.map { oracle.occurrences[$0].tiedRoots } ?? []
        let alertingFamilies = alertingRings().map(\.metadata.alarmID)
        for (rootID, fireWallMs) in expectedPrimaries() where !primaryConverged(rootID: rootID, fireWallMs: fireWallMs) {
            // A root whose configured time arrived within B_REG, or that owns the live
            // occurrence, is in its delivery's transition window: the delivery consumed its
            // primary, and the next one follows at the bridge's next execution once the alert has
            // left the alerting state (SCH-22, REC-6); an OEM battery killer may end that process
            // (PLATFORMS.md field) with nothing to relaunch it. Its audibility is judged instead.
            if owners.contains(rootID) { continue }
            // SCH-22: while any ring of a family is alerting, no sync touches any root of that
            // family; the deferred work runs once the alert has left the alerting state (at the
            // user's return the app comes forward and silences it, FG-2, and that return's check
            // judges the family). Android swarm seed 26263: a zone change at 08:36 with a1.mon's
            // successor alerting left a1.tue registered in the old frame (REC-8), rightly.
            if let family = alarms.first(where: { $0.roots.contains { $0.id == rootID } })?.id,
               alertingFamilies.contains(family) { continue }
            if let due = liveness.lastDueMs[rootID], nowMs - due < setup.liveness.registrationBoundMs { continue }
            // The same window while the platform still holds that delivery back (fault
            // late-delivery): the alert, and with it the next registration, is still to come; a
            // repeating `.relative` primary is itself the next occurrence's registration (ios
            // swarm seed 18661: 09:01 held 178 s, checked 174 s after the ring time).
            if lateOracleFires.contains(where: { $0.rootID == rootID }) { continue }
            if oneShotSpentByInferredDelivery(rootID: rootID) {
                countExemption("os-removed-alarm")
                continue
            }
            if unobservedOneShotMove(rootID: rootID, fireWallMs: fireWallMs) != nil {
                // [limit] zone-change-unobserved, the one-shot it touches (REC-8): the bridge first
                // saw the change after the old-frame instant came, with no ring held to show which
                // came first, so it keeps (and here recorded missed) the old-frame one-shot; the
                // moved time is owed no registration, as `oracleFireTime` owes it no ring (ios
                // uniform seed 29523: 09:16 refused at a death, the zone changed from Sydney to
                // UTC, the next launch came 2 min after 09:16 Sydney).
                countExemption("zone-change-unobserved")
                continue
            }
            if let exemption = convergenceExemption(rootID: rootID, fireWallMs: fireWallMs) {
                countExemption(exemption)
                continue
            }
            let local = calendar.local(fireWallMs)
            violate("convergence", [], "\(HumanText.duration(nowMs - liveness.healedAtMs)) after the heal the platform holds no primary of \(rootID) for its next occurrence \(calendar.localDate(fireWallMs)) \(clockTime(hour: local.hour, minute: local.minute)) (B_REG \(setup.liveness.registrationBoundMs) ms)")
            return
        }
    }

    /// Each enabled alarm's roots with their next configured occurrence inside the horizon: the
    /// one-shot's fire time if still ahead; a weekly root's next occurrence not on a skip date
    /// (REC-4), within 8 days, or within H_SKIP for an alarm with skip dates (CAP-8). In the
    /// alarms' and roots' own order.
    func expectedPrimaries() -> [(rootID: String, fireWallMs: Int64)] {
        var expected: [(rootID: String, fireWallMs: Int64)] = []
        // A primary due within T_OP may already be firing: it is delivered, not pending, and its
        // root's next primary follows that delivery (SCH-1, REC-6), so the root is in its
        // delivery's transition window like a root just due (android seed 14850).
        let after = wallMs + setup.transitionBoundMs
        for alarm in alarms where alarm.enabled {
            let horizonMs = alarm.skipDates.isEmpty ? 8 * 86_400_000 : setup.skipHorizonMs
            for root in alarm.roots {
                if let once = root.onceFireWallMs {
                    if once > after && !alreadyOpened(rootID: root.id, fireWallMs: once) { expected.append((root.id, once)) }
                    continue
                }
                var fire = calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: wallMs)
                var guardCount = 0
                while (root.skipDates.contains(calendar.localDate(fire)) || alreadyOpened(rootID: root.id, fireWallMs: fire))
                        && guardCount < 32 {
                    fire = calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: fire)
                    guardCount += 1
                }
                if fire > after && fire - wallMs <= horizonMs { expected.append((root.id, fire)) }
            }
        }
        return expected
    }

    /// OCC-20: a ring time that already opened an occurrence (or was passed over) comes round
    /// again only because the wall clock was set back over it; it is that closed occurrence, never
    /// a new one (the oracle's `closed-occurrence-redelivered`), so the next primary the root
    /// needs is the one after it (android seed 4093).
    ///
    /// Rule, once per configured day (REC-1, REC-2; `WallCalendar.DSTPolicy.oncePerDay`): the
    /// same holds for an earlier ring time of that root on the same local day — the root was
    /// edited to an earlier time after the day's ring time came, then the clock was set back
    /// over the new time. The day has rung; the bridge's planner moves the next primary past the
    /// latest ring time that came (`BridgeCore.latestRingTimeCome`; android uniform seed 17679).
    func alreadyOpened(rootID: String, fireWallMs: Int64) -> Bool {
        let day = calendar.localDate(fireWallMs)
        func sameDayNotEarlier(_ ringTimeMs: Int64) -> Bool {
            ringTimeMs == fireWallMs || (ringTimeMs > fireWallMs && calendar.localDate(ringTimeMs) == day)
        }
        return oracle.occurrences.contains { !$0.live && $0.tiedRoots.contains(rootID) && sameDayNotEarlier($0.startWallMs) }
            || oracle.passedOver.contains { $0.rootID == rootID && sameDayNotEarlier($0.fireWallMs) }
            || openedByInferenceFromRemoval(rootID: rootID, fireWallMs: fireWallMs)
            || passedOverByInferenceFromRemoval(rootID: rootID, fireWallMs: fireWallMs)
    }

    /// iOS, IOS-5: the bridge's books hold a closed occurrence of `rootID` that began at
    /// `fireWallMs`, the instant of a ring the OS removed before it (`osRemovedFires`): the bridge
    /// read the vanished ring as rung and stopped inside one coalesced update, which it cannot
    /// tell apart, and ran that occurrence (``inferredIncumbent(rootID:fireWallMs:)``). The ring
    /// time has come for it: a clock set back over it brings the closed occurrence again, never a
    /// new one (OCC-20, REC-1; ios uniform seed 3342: an OS update at a reboot removed a1.wed's
    /// concrete 08:27; the 08:30 launch inferred it rang, its occurrence expired, then a 1 h
    /// set-back brought 08:27 again). Only that root and ring time.
    func openedByInferenceFromRemoval(rootID: String, fireWallMs: Int64) -> Bool {
        guard setup.platform == .ios, oracle.osRemovedFires.contains(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }),
              let document = process.document ?? storedDocument else { return false }
        return document.occurrences.contains { $0.rootID == rootID && $0.startedAtMs == fireWallMs && $0.state != .live }
    }

    /// iOS, IOS-5, OCC-3: the same for a ring time the bridge passed over. The OS removed
    /// `rootID`'s ring for `fireWallMs` unheard (`osRemovedFires`), so the oracle gave that day up
    /// (`os-removed-alarm`) and judged no pass-over; the bridge read the vanished ring as rung and
    /// stopped (it cannot tell them apart) inside another root's occurrence of its books, live at
    /// that ring time, and remembered it passed over (`passedOverRingTimes`). A clock set back over
    /// it brings that pass-over again, never a new occurrence (OCC-20, REC-1: once per configured
    /// day), as the oracle's own `passedOver` does (ios uniform seed 96407: an OS update at a
    /// reboot removed a2's 09:36 and a3.tue's 09:38; the 09:54 launch inferred a2 delivered and
    /// passed a3.tue over; a2 expired, and a 1 h set-back brought 09:38 again). RULES.md is silent
    /// on a ring time relived after an inferred pass-over; decided from OCC-20 and the oracle's
    /// reading of an inferred owner (`openedByInferenceFromRemoval`). Only that root and ring time.
    func passedOverByInferenceFromRemoval(rootID: String, fireWallMs: Int64) -> Bool {
        guard setup.platform == .ios, oracle.osRemovedFires.contains(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }),
              let document = process.document ?? storedDocument,
              document.passedOverRingTimes?.contains(PassedOverRingTime(rootID: rootID, ringTimeMs: fireWallMs)) == true else { return false }
        // REC-9: the ring time as first reached, in the corrected frame a record live across a
        // correction keeps its interval in (as the bridge's late pass-over judges it; ios uniform
        // seed 96407 unshrunk: a2 completed at 09:26 after the set-back, its interval 08:36–09:26).
        let reach = oracle.osRemovedFireReaches.first { $0.rootID == rootID && $0.fireWallMs == fireWallMs }
        let reachedWallMs = fireWallMs + (reach.map { (wallMs - nowMs) - $0.wallMinusTrueMs } ?? 0)
        // A live incumbent is `inferredIncumbent`'s pass-over (Oracle.swift); this is one closed since.
        return document.occurrences.contains { record in
            record.rootID != rootID && record.state != .live
                && record.wasLive(at: record.inactivityClockOffsetMs != 0 ? reachedWallMs : fireWallMs)
        }
    }

    /// True when the platform holds a ring that opens `rootID`'s occurrence at `fireWallMs` (a
    /// primary; on iOS also a seed, REC-5), one of its rings is alerting, or the running bridge
    /// holds the foregroundSuppressed proof for that very occurrence instant (SCH-17, SCH-18: a
    /// proof covers one occurrence; one for an earlier ring time or another frame proves nothing
    /// about this one). Around a DST transition the
    /// platform's normalisation may move the instant by up to an hour (REC-2; AlarmKit's gap
    /// and overlap behaviour is a parameter).
    func primaryConverged(rootID: String, fireWallMs: Int64) -> Bool {
        if process.foregroundSuppressed?.contains(where: { $0.rootID == rootID && $0.occurrenceStartedAtMs == fireWallMs }) == true {
            return true
        }
        let nearTransition = calendar.nextTransition(after: fireWallMs - 86_400_000, withinMs: 2 * 86_400_000) != nil
        func matches(_ ringFireWallMs: Int64) -> Bool {
            ringFireWallMs == fireWallMs || (nearTransition && abs(ringFireWallMs - fireWallMs) <= 3_600_000)
        }
        if let daemon = ios {
            return daemon.alarms.contains { alarm in
                alarm.metadata.rootID == rootID && alarm.metadata.kind.opensOccurrence
                    && (alarm.state == .alerting || matches(alarm.nextFireWallMs)
                        || repeatsAfterReLivedTime(alarm, rootID: rootID, fireWallMs: fireWallMs))
            }
        }
        guard let manager = android else { return false }
        if manager.ringing.contains(where: { manager.ringingMetadata($0)?.rootID == rootID }) { return true }
        return manager.pending.contains { $0.metadata.rootID == rootID && $0.metadata.kind == .primary && matches($0.triggerWallMs) }
    }

    /// REC-9, SCH-2: after a clock set back, a repeating `.relative` primary's next fire can be a
    /// ring time of this root that already opened (the re-lived hour: AlarmKit computes the next
    /// match from the earlier clock, and the bridge silences that redelivery, OCC-20); the same
    /// registration then fires at the occurrence expected after it, a week on (ios uniform seed
    /// 4239: an 08:30 completed at the re-lived 07:46, checked before 08:30 came again).
    func repeatsAfterReLivedTime(_ alarm: DaemonAlarm, rootID: String, fireWallMs: Int64) -> Bool {
        guard alarm.state == .scheduled, case .relative(let hour, let minute, let weekday?) = alarm.schedule,
              alreadyOpened(rootID: rootID, fireWallMs: alarm.nextFireWallMs) else { return false }
        return calendar.nextFire(hour: hour, minute: minute, weekday: weekday, after: alarm.nextFireWallMs) == fireWallMs
    }

    /// Why `rootID` may legitimately stay unregistered or silent after the heal ([limit] in
    /// RULES.md, by name), nil when nothing excuses it.
    /// iOS, IOS-5: a one-shot whose pending primary the OS removed, and which the bridge's books
    /// show as rung — an occurrence of the root that began at the removed ring's planned instant
    /// (the vanished ring read as delivered and stopped) — is spent for the bridge, which cannot
    /// tell the removal from a ring stopped inside one coalesced update: it owes no primary for the
    /// one-shot's later time (ios uniform seed 5189: removed before an unseen zone change moved
    /// the one-shot's 08:49 to New York's). Only that root, only with that occurrence on record.
    func oneShotSpentByInferredDelivery(rootID: String) -> Bool {
        guard setup.platform == .ios, let root = alarms.lazy.flatMap(\.roots).first(where: { $0.id == rootID }),
              root.onceFireWallMs != nil, let document = process.document ?? storedDocument else { return false }
        return oracle.osRemovedFires.contains { removed in
            removed.rootID == rootID && document.occurrences.contains { $0.rootID == rootID && $0.startedAtMs == removed.fireWallMs }
                && !oracle.occurrences.contains { $0.startWallMs == removed.fireWallMs && $0.tiedRoots.contains(rootID) }
        }
    }

    /// The named [limit] that excuses `rootID`'s ring for `fireWallMs` (the occurrence's ring time,
    /// or the next configured primary's fire time) in the liveness phase, or nil.
    /// CAP-9 is narrow: only a refusal the platform gave for this very ring time
    /// (``capacityRefusal(rootID:fireWallMs:)``, the daemon's answer, never the bridge's books)
    /// that the dropped count surfaces excuses it. The N_SKIP bound excuses nothing here: it cuts
    /// only seeds, never a configured primary (CAP-8, CAP-5, CAP-7; `BridgeCore.recurrencePlan`),
    /// and convergence judges primaries; before, any dropped entry of the root (a seed of another
    /// week, an entry of the bridge's own making) excused its missing primary.
    func convergenceExemption(rootID: String, fireWallMs: Int64) -> String? {
        if let name = authorizationExemption() { return name }  // iOS: denied, < 26, no usage text, SCH-26
        if let name = manifestExemption() { return name }  // AND-1: the app's declared manifest
        if setup.platform == .ios && !protectedDataAvailable { return "protected-data-unavailable" }  // BOOT-1, BOOT-4
        if let manager = android, manager.forceStopped { return "force-stop" }  // AND-6 until the user opens the app
        if let manager = android, manager.droppedAlarms.contains(where: { $0.metadata.rootID == rootID && droppedUnseen(id: $0.id) }) {
            // Issue 18 [limit]: AlarmManager dropped this root's accepted primary, and while an
            // earlier alarm clock is held, getNextAlarmClock() cannot show it missing.
            return "accepted-request-dropped"
        }
        if let manager = android, !manager.userUnlocked, !process.running, liveness.restoreFault.covers(rootID) {
            // A fault hit this root's direct-boot restore and killed or outlived the process that
            // would retry it; nothing relaunches the app before the first unlock. While the
            // process lives, the bridge must retry ([derived] WALK-18, AND-3), so no exemption then.
            return "locked-boot-restore-faulted"
        }
        let document = process.document ?? storedDocument
        if capacityRefusal(rootID: rootID, fireWallMs: fireWallMs) != nil, (document?.droppedCount ?? 0) > 0,
           document?.dropped?.contains(where: { $0.rootID == rootID && $0.reason == .capacity }) == true {
            return "capacity-dropped-surfaced"  // CAP-9: the platform refused this ring time, and the user is told
        }
        if killSwitchHoldsSync() { return "kill-switch-disabled" }  // BOOT-12: the operator's explicit choice, while in force
        return nil
    }

    /// AND-1: an entry missing from the app's declared manifest makes restore or scheduling
    /// impossible by the app's configuration (scenarios; the fuzz manifest is the usual one).
    func manifestExemption() -> String? {
        guard let manager = android else { return nil }
        let manifest = manager.parameters.manifest
        if !manager.canScheduleExactAlarms { return "manifest-missing-exact-permission" }
        if bootCount > 0 && !manifest.receivesBootCompleted { return "manifest-missing-boot-receiver" }
        if bootCount > 0 && !manager.userUnlocked && !manifest.directBootAware { return "manifest-not-direct-boot-aware" }
        return nil
    }
}

import AlarmBridge
import SimKernel

/// The simulation's own truth of what *should* be (DESIGN.md: "judge with an independent
/// oracle"): which occurrences are live, from configured times, the user's actions and the
/// policy's arithmetic — never from the bridge's books.
struct OracleOccurrence {
    let id: Int
    var rootID: String
    /// Roots due at exactly the same instant as `rootID`: the platform's order among equal
    /// times is unspecified (AOSP dispatch order; AlarmKit's "not deterministic"), so whichever of
    /// them the platform delivers first may own the occurrence. Includes `rootID`.
    var tiedRoots: [String] = []
    /// Policies of the other tied roots: until the tie is settled any of them may own the
    /// occurrence, so the most lenient deadline holds (ios seed 5915).
    var tiedPolicies: [(root: String, policy: InactivityPolicy)] = []
    /// Tied roots whose configured ring time differs from `startWallMs`: a root the platform
    /// delivered late, earlier by its ring time, before any bridge process saw the occurrence
    /// open (see ``World/oracleFireTime(rootID:alarmID:fireWallMs:deliveredLate:)``).
    var tiedStarts: [(root: String, startWallMs: Int64)] = []
    /// Dismissals credited while a tie was unsettled through a tied root's own ring: (root, wall ms,
    /// `lastActivityMs` before it). Once the tie settles on another root, that root's Stop was a
    /// passed-over ring's, which credits nothing (OCC-3, INACT-4; `resolveTie`).
    var tiedCredits: [(root: String, wallMs: Int64, previous: Int64?)] = []
    /// Android: the root whose primary AlarmManager delivered first for this occurrence (AOSP
    /// dispatch order is the order the app is told, OCC-2); a tie formed after that delivery
    /// settles on it (``World/oracleAndroidDelivery(_:)``).
    var firstDeliveredRoot: String?
    var alarmID: String
    /// The owner's configured ring time (wall ms); a tie settled on a root of `tiedStarts` moves it.
    var startWallMs: Int64
    var policy: InactivityPolicy
    var lastActivityMs: Int64?
    var live = true
    var closedAtMs: Int64?
    /// Device wall time of the closure (the frame configured ring times are in).
    var closedAtWallMs: Int64?
    var closeReason = ""
    /// First bridge execution (ready step) at or after closure.
    var firstExecutionAfterCloseMs: Int64?
    /// REC-9: wall-clock corrections since the occurrence began; the deadline moves with them.
    var clockOffsetMs: Int64 = 0
    /// INACT-9: the accepted one-time snooze deadline (wall ms); nil before any (SNZ-4: at most one).
    var snoozeUntilMs: Int64?
    /// True time the oracle opened it.
    var openedAtMs: Int64 = .min
    /// Start of the current pressure gap (never-silent), nil while pressure holds.
    var gapStartMs: Int64?
    /// The exemption the current gap is under, if any.
    var gapExemption: String?

    /// INACT-2, INACT-3, OCC-21, computed independently of the bridge.
    var deadlineMs: Int64 {
        let start = startWallMs + clockOffsetMs
        let bound = start + 20 * 3_600_000
        let policy = tiedPolicies.filter { tiedRoots.contains($0.root) }.map(\.policy)
            .reduce(self.policy) { $1.timeoutMs > $0.timeoutMs ? $1 : $0 }
        switch policy {
        case .legacy: return bound
        case .v2: return min(bound, max(start, lastActivityMs ?? start, snoozeUntilMs ?? start) + 15 * 60_000)
        case .v3: return min(bound, max(start, lastActivityMs ?? start, snoozeUntilMs ?? start) + 30 * 60_000)
        }
    }
}

/// A wall-clock change no running bridge saw (``World/unobservedClockJump``): the ambiguous wall
/// interval, the latest landing, the true time of the change and of the bridge's last reading.
/// A one-shot a time-zone change moved to the next hh:mm of the new frame (REC-8): its old-frame
/// instant (wall ms, and the true ms it would have come at), the moved instant, and the true ms of
/// the change.
struct MovedOneShot {
    let rootID: String
    let oldFireWallMs: Int64
    let newFireWallMs: Int64
    let oldFireTrueMs: Int64
    let changeMs: Int64
}

typealias UnobservedClockJump = (fromWallMs: Int64, untilWallMs: Int64, landingWallMs: Int64, sinceMs: Int64, readingMs: Int64)

struct Oracle {
    var occurrences: [OracleOccurrence] = []
    /// Ring → occurrence it is pressure for (lookup only, never iterated).
    var bindings: [AlarmUUID: Int] = [:]
    /// A dismissal reached a bridge that was not ready: credited when the gate releases.
    var pendingCredit: Int?
    /// The pending dismissals of that occurrence, in order: the root whose occurrence-opening ring
    /// each was of (nil: another ring of the occurrence). While the occurrence is tied, each is
    /// one of the tie's credits at the release, which a settlement on another root reverts; the
    /// owner's own stays (ios swarm seed 72281: a3's and a1.thu's Stops, both held by a force
    /// quit, reached the launch in that order; a3 won the tie, and only a1.thu's is undone).
    var pendingCreditRoots: [String?] = []
    /// (root, ring time) pairs that were due while another occurrence was live (OCC-3).
    var passedOver: [(rootID: String, fireWallMs: Int64)] = []
    /// Roots whose primary failed to register by an injected fault or the capacity limit. Only
    /// asked for membership, never iterated (a set: with thousands of roots refused by the
    /// capacity limit, the list's scans grew as roots², issue 20).
    var primaryFaultRoots: Set<String> = []
    /// Per root, the true instant of its latest failed primary request. Lookup only, never iterated.
    var primaryFailures: [String: Int64] = [:]
    /// SCH-24: the first opening of the app (true ms) since each root's latest primary failure.
    /// Lookup only, never iterated.
    var primaryOpenedSinceFailure: [String: Int64] = [:]
    /// Roots whose primary or seed the OS removed (never cleared): a fixed one vanishes past its
    /// fire time like one delivered inside one coalesced update (IOS-5), even after the bridge
    /// registered the root's next one (ios seed 217 with skip dates).
    var osRemovedRoots: [String] = []
    /// iOS one-shots a forward jump went over while AlarmKit held their `.relative` ring, which
    /// then waits for the next match (`jumpedOverRelativeFires` off; ``World/wallClockChanged``):
    /// the alarm, its jumped-over instant (wall ms) and the true time of the landing (bounded).
    var waitingOneShots: [(alarmID: String, jumpedOverWallMs: Int64, landingMs: Int64)] = []
    /// (root, configured ring time) of every held delivery a boot dropped (iOS; bounded, oldest
    /// first out): the ring vanished past its fire time like one delivered and stopped inside one
    /// coalesced update (IOS-5). A set-back the bridge could not see (after the boot, before any
    /// process of it) moves its boot estimate back over that time, so it may read the ring as
    /// delivered since the boot (ios uniform seeds 34717, 39356).
    var bootDroppedFires: [(rootID: String, fireWallMs: Int64)] = []
    /// (root, planned instant) of every occurrence-opening ring the OS removed while it was still
    /// pending (IOS-5): the bridge that next runs after that instant reads the vanished ring as
    /// delivered and stopped, and may open its occurrence (it errs toward ringing, ios seed 764).
    /// `removedMs`: true time of the removal (a ready bridge step since then saw the ring gone
    /// before its instant, ``World/tieInferableRemovedFire(rootID:fireWallMs:)``).
    var osRemovedFires: [(rootID: String, fireWallMs: Int64, removedMs: Int64)] = []
    /// (root, ring time) of `osRemovedFires` entries whose ring time the wall clock has reached,
    /// with the wall clock's offset from true time at that first reach (bounded, oldest first out):
    /// the instant an occurrence the bridge infers from the vanished ring began (IOS-5, REC-9;
    /// ``World/removedFireReachShiftMs(rootID:fireWallMs:)``).
    var osRemovedFireReaches: [(rootID: String, fireWallMs: Int64, wallMinusTrueMs: Int64)] = []
    /// The last one-time snooze the bridge accepted while the oracle held no occurrence live: the
    /// bridge's own live occurrence it was for (root, ring time) and its deadline in true time
    /// (SNZ-20: a snooze keeps its elapsed length across clock corrections). An occurrence the
    /// oracle opens later for that same ring time (``World/removedFireReachShiftMs(rootID:fireWallMs:)``)
    /// carries it (INACT-9, SNZ-4).
    var unownedSnooze: (rootID: String, startWallMs: Int64, untilTrueMs: Int64)?
    /// Roots whose primary or seed the capacity limit refused, with the refused ring and the
    /// true time (CAP-9). A refusal speaks only for the fire time its ring was requested for
    /// (`capacityRefusal(rootID:fireWallMs:)`), never for the root's other times.
    var capacityRefused: [(rootID: String, ringID: AlarmUUID, atMs: Int64)] = []
    /// (root, fire time) pairs already judged as dropped and surfaced (CAP-9): the same
    /// configured time again, after the wall clock was set back over it, is not a new fire.
    var droppedFires: [(rootID: String, fireWallMs: Int64)] = []

    var liveIndex: Int? { occurrences.lastIndex { $0.live } }
}

extension World {
    /// Oracle events for every configured fire time inside the run.
    ///
    /// Rule, once per configured day (REC-1, REC-2; the same rule as the bridge's planner,
    /// BridgeCore+Recurrence.swift): each configured day is due exactly once, and its ring time is
    /// the day's instant under `WallCalendar.DSTPolicy.oncePerDay` (`calendar`): the first instant
    /// of a time a fall-back night repeats, the next whole hour after a time a spring-forward gap
    /// skips. A second alert of the same day (AlarmKit `ios.dst-overlap both`) is that occurrence
    /// again (OCC-20), never a second one. Where the platform, not the bridge, picks the instant
    /// (``platformDueWallMs(_:relative:)``), only the due instant moves, never the ring time.
    ///
    /// - Parameter source: the definitions to plan (default: the configured `alarms`).
    func scheduleOracleFireTimes(for alarmIDs: [String]? = nil, from source: [LogicalAlarm]? = nil) {
        // The run ends at a true time; in the wall frame now in force (after clock corrections).
        // After the heal: the end of the liveness window.
        let endWallMs = (liveness.healed ? liveness.endMs : setup.startWallMs + setup.durationMs) + clock.wallOffsetMs
        let definitions = source ?? alarms
        for index in planned(alarmIDs, in: definitions, configured: source == nil) {
            let alarm = definitions[index]
            guard alarm.enabled else { continue }
            for root in alarm.roots {
                if let once = root.onceFireWallMs {
                    if once > wallMs && once <= endWallMs {
                        scheduleFireTime(rootID: root.id, alarmID: alarm.id, wallMs: once,
                                         at: at(wallMs: platformDueWallMs(once, relative: true)))  // SCH-2: a one-shot is `.relative`
                    }
                    continue
                }
                var fire = calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: wallMs)
                while fire <= endWallMs {
                    // REC-4 as truth: nothing of a weekly alarm is due on one of its skip dates.
                    if !root.skipDates.contains(calendar.localDate(fire)) {
                        // REC-3: only a weekly root without skip dates is one repeating `.relative` schedule on iOS.
                        let due = platformDueWallMs(fire, relative: root.skipDates.isEmpty)
                        scheduleFireTime(rootID: root.id, alarmID: alarm.id, wallMs: fire, at: at(wallMs: due))
                    }
                    fire = calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: fire)
                }
            }
        }
    }

    /// The indices of `definitions` whose ID is in `alarmIDs` (every index when nil), ascending:
    /// the definitions `scheduleOracleFireTimes` plans, in their order. A save plans one alarm;
    /// finding it by scanning (each definition copied to read its ID) cost a first launch of N
    /// alarms N² copies (issue 20), so the configured alarms, once sorted, are binary-searched.
    func planned(_ alarmIDs: [String]?, in definitions: [LogicalAlarm], configured: Bool) -> [Int] {
        guard let alarmIDs else { return Array(definitions.indices) }
        if configured, configuredAlarmsSortedByID() {
            let found = alarmIDs.compactMap { id -> Int? in
                let (index, found) = definitions.searchSortedByID(id)
                return found ? index : nil
            }
            return Set(found).sorted()  // each alarm once, however often its ID is named
        }
        return definitions.withUnsafeBufferPointer { buffer in buffer.indices.filter { alarmIDs.contains(buffer[$0].id) } }
    }

    /// The instant the platform rings the configured day whose ring time is `fireWallMs` (wall ms).
    /// Android's `setAlarmClock` and AlarmKit's `.fixed` ring exactly at the instant the bridge
    /// planned. AlarmKit's `.relative` (a one-shot, SCH-2; a weekly root without skip dates, REC-3)
    /// resolves a repeated local time itself, undocumented (PLATFORMS.md): under the model's
    /// `ios.dst-overlap last` it rings only the second instant, one overlap length later, so the
    /// day is due there. The ring time stays `fireWallMs` — the bridge dates a `.relative` alert
    /// to the same instant (`occurrenceStart`, `oncePerDay`), so both agree on the deadline.
    func platformDueWallMs(_ fireWallMs: Int64, relative: Bool) -> Int64 {
        guard relative, let daemon = ios, daemon.parameters.dstPolicy.overlap == .last else { return fireWallMs }
        let shift = calendar.offsetMs(at: fireWallMs) - calendar.offsetMs(at: fireWallMs + 3 * 3_600_000)
        guard shift > 0 else { return fireWallMs }
        let first = calendar.local(fireWallMs)
        let second = calendar.local(fireWallMs + shift)
        let repeated = first.day == second.day && first.hour == second.hour && first.minute == second.minute
        return repeated ? fireWallMs + shift : fireWallMs
    }

    func unscheduleOracleFireTimes(alarmID: String) {
        jsSaves.keptPrevious.removeAll { $0.id == alarmID }
        if let queued = queuedFireTimes.removeValue(forKey: alarmID) { cancelledFireTimeSequences.formUnion(queued) }
    }

    /// [limit] `clock-jump-ambiguous-start`: after a wall-clock change that no running process saw
    /// happen (the app was suspended or dead), the bridge learns only that the clock moved since
    /// its last reading, not when — AlarmKit reports no alert time and `NSSystemClockDidChange` /
    /// `TIME_SET` carry none. Whether a ring time inside that window was jumped over (and so began
    /// ringing at the jump, REC-9) or rang at its configured time in the new frame cannot be known,
    /// and RULES.md does not settle the occurrence's deadline. The oracle then takes the bridge's
    /// documented reading (offset = landing − ring time, BridgeCore+Occurrences.swift) for that one
    /// occurrence, and counts it. Bounded to 20 h after the change (OCC-21). After a correction
    /// back the ambiguous ring times reach up to the wall time the clock was set back from, which
    /// can be later than the clock now (the re-lived interval; ios seed 888 of the fault catalog).
    ///
    /// The oracle's own reading may have closed that occurrence as expired before any bridge step
    /// saw the change (a ring jumped over by an unseen forward jump expires from the landing, while
    /// the bridge reads it as reached before the jump; ios uniform seed 6187): the bridge's reading
    /// then reopens it, if the bridge holds it live.
    func adoptAmbiguousStart(_ bridge: any BridgeUnderTest) {
        guard let jump = unobservedClockJump else { return }
        if nowMs - jump.sinceMs > 20 * 3_600_000 { unobservedClockJump = nil; return }
        guard bridge.isAcceptingInputs else { return }
        guard let live = bridge.document?.liveOccurrence else { return demotePassedOverByBridge(bridge, jump: jump) }
        guard live.startedAtMs >= jump.fromWallMs, live.startedAtMs <= max(wallMs, jump.untilWallMs) else { return }
        // The same ring time — or, for a ring time the change jumped over (the oracle starts it at
        // the landing), the bridge's reading of it as reached before the change (ios uniform 6187).
        let matches: (OracleOccurrence) -> Bool = { occurrence in
            occurrence.rootID == live.rootID && (occurrence.startWallMs == live.startedAtMs
                || (occurrence.startWallMs == jump.landingWallMs && occurrence.clockOffsetMs == 0 && live.startedAtMs < jump.landingWallMs))
        }
        let index: Int
        var reopened = false
        let demoted = ambiguousLaterOwner(live, jump: jump, matches: matches)
        if let current = oracle.liveIndex, current != demoted {
            guard matches(oracle.occurrences[current]) else { return }
            index = current
        } else {
            // Expired by the oracle's reading after the bridge's last reading before the change
            // (ios uniform 4418: a 06:19 ring expired at 06:49 while the app was suspended, then a
            // 1 h set-back; the resumed bridge may read 06:19 as reached in the new frame) and
            // before the first ready bridge step after it.
            guard let last = oracle.occurrences.indices.last(where: { $0 != demoted }), matches(oracle.occurrences[last]),
                  oracle.occurrences[last].closeReason == "expired", let closedAt = oracleExpiryInstant(oracle.occurrences[last]),
                  closedAt > jump.readingMs, closedAt < (clockJumpObservedMs ?? .max) else {
                if demoted == nil { adoptAmbiguousOwner(live, jump: jump) }
                return
            }
            if let demoted { demoteToAmbiguousPassOver(demoted) }
            index = last
            reopened = true
            reopenOracleOccurrence(index)
        }
        guard reopened || oracle.occurrences[index].startWallMs != live.startedAtMs
                || oracle.occurrences[index].clockOffsetMs != live.inactivityClockOffsetMs else { return }
        oracle.occurrences[index].startWallMs = live.startedAtMs
        oracle.occurrences[index].clockOffsetMs = live.inactivityClockOffsetMs
        enqueue(.oracleDeadline(occurrence: oracle.occurrences[index].id), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
        countExemption("clock-jump-ambiguous-start")
    }

    /// When (true ms) the oracle's reading expired a closed occurrence: the instant its deadline
    /// passed, which for one opened after its deadline — a late delivery of a missed day
    /// (`missed-day-rung-late`), closed at its opening — lies before that close. REC-9, INACT-22:
    /// what the ambiguous-start window asks is whether the deadline passed before a bridge could
    /// date the change, not when the oracle noticed it (android swarm seed 39822: a +1 h jump
    /// with the app force-stopped passed the one-shot 05:49 at 04:49; the 06:45 launch dated the
    /// jump at its own step, added the day back, and its 06:45:05 delivery opened the occurrence
    /// the oracle closed at once, as expired at 06:19). Nil when it was not closed.
    func oracleExpiryInstant(_ occurrence: OracleOccurrence) -> Int64? {
        guard let closedAt = occurrence.closedAtMs else { return nil }
        guard let closedAtWall = occurrence.closedAtWallMs, occurrence.deadlineMs < closedAtWall else { return closedAt }
        return closedAt - (closedAtWall - occurrence.deadlineMs)
    }

    /// [limit] `clock-jump-ambiguous-start`: the oracle takes the bridge's reading at the end of
    /// the step that made it (`adoptAmbiguousStart`, after the step's commands), but that step's
    /// own commands act on the reading: pressure it arms for the occurrence the reading holds live
    /// is judged with the reading adopted (OCC-6, REC-9, ID-9). Only a ring bound to the bridge's
    /// live occurrence by its token, while the oracle holds nothing live; `adoptAmbiguousStart` at
    /// the step's end then finds it adopted and counts nothing twice. (ios uniform seed 78776: a +1 h
    /// jump while the process was dead; a1.thu rang at 05:34 and the Stop's launch waited at the
    /// gate (damaged store) until 06:39, past the oracle's 06:04 expiry; the released bridge read
    /// the jump as inside the occurrence, held it live and armed the Stop's successor in the same
    /// step, which the oracle judged before it reopened the occurrence.)
    func adoptAmbiguousStartBeforePressure(_ request: RingRequest) {
        guard request.metadata.kind.isOccurrenceBound, oracle.liveIndex == nil, let bridge = process.bridge,
              let live = bridge.document?.liveOccurrence, live.rootID == request.metadata.rootID,
              request.metadata.token == live.token else { return }
        adoptAmbiguousStart(bridge)
        adoptBootHiddenSetBackStart(bridge)
    }

    /// [limit] `clock-jump-ambiguous-start`, two ring times in one window: the oracle's live
    /// occurrence, of another root whose ring time lies inside the ambiguous interval after the
    /// bridge's owner's, opened after the bridge's last reading and seen open by no bridge step.
    /// By the bridge's reading both ring times were jumped over and began at the landing, where the
    /// earlier configured root owns (OCC-2) and this one is a pass-over (OCC-3) (ios uniform seed
    /// 37763: an unseen +1 h jump; a1's 06:52 rang and expired at 07:22 by the oracle's reading, a3's
    /// 07:30 rang; the bridge, resumed at 07:32, dated both at the landing, owned a1, passed a3
    /// over). Its index, or nil. The caller demotes it only when it reopens the bridge's owner.
    func ambiguousLaterOwner(_ live: OccurrenceRecord, jump: UnobservedClockJump,
                             matches: (OracleOccurrence) -> Bool) -> Int? {
        guard let current = oracle.liveIndex else { return nil }
        let occurrence = oracle.occurrences[current]
        guard !matches(occurrence), occurrence.rootID != live.rootID, occurrence.tiedRoots.count == 1,
              occurrence.startWallMs > live.startedAtMs, occurrence.startWallMs >= jump.fromWallMs,
              occurrence.startWallMs <= max(wallMs, jump.untilWallMs), occurrence.openedAtMs > jump.readingMs,
              !bridgeObservedOccurrence(occurrence) else { return nil }
        return current
    }

    /// [limit] `clock-jump-ambiguous-start`, two ring times in one window, the owner already
    /// closed: the bridge's reading of the unseen change dated its earlier root's occurrence so
    /// that it was live at the oracle's live occurrence's ring time, passed that ring time over
    /// (OCC-2, OCC-3, REC-9) and then closed its owner, so it holds nothing live. The oracle's
    /// occurrence — a later root, its ring time inside the ambiguous window, opened after the
    /// bridge's reading and seen open by no bridge step — becomes that pass-over, as
    /// ``ambiguousLaterOwner(_:jump:matches:)`` makes it when the owner is still live (ios uniform
    /// seed 43850: an unseen +90 s jump; a1 07:55 rang and, by the oracle's reading, expired at
    /// 08:10; a2.sat 08:11 rang; the bridge, resumed at 08:15, dated the jump at its own step, so
    /// a1 expired at 08:11:30 with a2.sat passed over).
    func demotePassedOverByBridge(_ bridge: any BridgeUnderTest, jump: UnobservedClockJump) {
        guard let current = oracle.liveIndex, let document = bridge.document else { return }
        let occurrence = oracle.occurrences[current]
        let passedOver = PassedOverRingTime(rootID: occurrence.rootID, ringTimeMs: occurrence.startWallMs)
        guard occurrence.tiedRoots.count == 1, occurrence.startWallMs >= jump.fromWallMs,
              occurrence.startWallMs <= max(wallMs, jump.untilWallMs), occurrence.openedAtMs > jump.readingMs,
              !bridgeObservedOccurrence(occurrence), document.passedOverRingTimes?.contains(passedOver) == true,
              document.occurrences.contains(where: { owner in
                  owner.rootID != occurrence.rootID && owner.startedAtMs >= jump.fromWallMs
                      && owner.startedAtMs < occurrence.startWallMs && owner.wasLive(at: occurrence.startWallMs)
              }) else { return }
        demoteToAmbiguousPassOver(current)
    }

    /// Closes the occurrence at `index` as the pass-over the bridge's reading makes of it
    /// (``ambiguousLaterOwner(_:jump:matches:)``): its rings are bound to nothing, its ring time is
    /// passed over (OCC-3), and the exemption is counted.
    func demoteToAmbiguousPassOver(_ index: Int) {
        let rootID = oracle.occurrences[index].rootID
        demoteToPassOver(index)
        record("oracle", "ambiguous-pass-over", [TraceField("root", rootID)])
        countExemption("clock-jump-ambiguous-start")
    }

    /// Closes the oracle's occurrence at `index` as a pass-over of its ring time (OCC-3): its
    /// alerts are bound to nothing, and the ring time is remembered as passed over.
    func demoteToPassOver(_ index: Int) {
        let occurrence = oracle.occurrences[index]
        oracle.bindings = oracle.bindings.filter { $0.value != occurrence.id }
        oracleClose(index, reason: "passed-over")
        oracle.passedOver.append((occurrence.rootID, occurrence.startWallMs))
        if oracle.passedOver.count > 64 { oracle.passedOver.removeFirst() }
    }

    /// [limit] `clock-jump-ambiguous-start`, for ownership: a ring time inside the ambiguous
    /// interval that the oracle saw passed over (it began at the jump, while another occurrence
    /// was live) may equally have been reached in the old frame after that occurrence's deadline —
    /// the bridge's reading when it holds the root live now (OCC-2, OCC-3, REC-9; ios uniform seed
    /// 8583: a +1 h jump no process saw during a2's snooze alerted a3 at the landing; the bridge,
    /// resuming after a2's deadline, took a3 as the owner). The oracle then opens that one
    /// occurrence with the bridge's reading, and its alert counts as heard (SND-13). Only that
    /// root, only its passed-over ring time, only with no other occurrence live.
    func adoptAmbiguousOwner(_ live: OccurrenceRecord, jump: UnobservedClockJump) {
        guard oracle.liveIndex == nil, live.deadlineMs > wallMs,
              let passed = oracle.passedOver.firstIndex(where: { $0.rootID == live.rootID
                  && ($0.fireWallMs == live.startedAtMs || $0.fireWallMs == jump.landingWallMs) }),
              !oracle.occurrences.contains(where: { $0.startWallMs == live.startedAtMs && $0.tiedRoots.contains(live.rootID) }),
              let alarmID = alarms.first(where: { $0.roots.contains { $0.id == live.rootID } })?.id else { return }
        oracle.passedOver.remove(at: passed)
        oracleOpen(rootID: live.rootID, alarmID: alarmID, startWallMs: live.startedAtMs, clockOffsetMs: live.inactivityClockOffsetMs)
        sound.note(live.rootID, in: \.alertedRoots)
        countExemption("clock-jump-ambiguous-start")
    }

    /// [limit] `clock-jump-ambiguous-start`, the case no bridge can even notice: the clock was set
    /// forward after a boot, before any bridge process of that boot ran. The monotonic clock
    /// restarted at the boot, so a later process has no reading of this boot to compare with and
    /// cannot learn that the clock moved (REC-9 needs a noticed correction). A ring time the jump
    /// passed over began ringing at the landing (the oracle's start), but the bridge can only read
    /// it as its configured time with no offset — an alert observed late, perhaps already past its
    /// deadline (INACT-21; ios seed 6319: a 07:57 one-shot jumped over to 08:54 after a reboot).
    /// The oracle then takes the bridge's reading for that one occurrence of the same root, if the
    /// bridge's ring time lies inside the jumped-over interval, and counts it; an occurrence the
    /// reading puts past its deadline closes as expired. Bounded to 20 h after the change (OCC-21).
    func adoptBootHiddenJumpStart(_ bridge: any BridgeUnderTest) {
        guard let jump = bootHiddenClockJump else { return }
        if nowMs - jump.sinceMs > 20 * 3_600_000 { bootHiddenClockJump = nil; return }
        guard bridge.isAcceptingInputs, let index = oracle.liveIndex, oracle.occurrences[index].startWallMs == jump.toWallMs,
              oracle.occurrences[index].clockOffsetMs == 0,
              let record = bridge.document?.occurrences.last(where: { $0.rootID == oracle.occurrences[index].rootID }),
              record.startedAtMs > jump.fromWallMs, record.startedAtMs < jump.toWallMs else { return }
        bootHiddenClockJump = nil
        var adopted = oracle.occurrences[index]
        adopted.startWallMs = record.startedAtMs
        adopted.clockOffsetMs = record.inactivityClockOffsetMs
        // A dismissal credited after the deadline of that reading found no live occurrence to
        // credit (INACT-22): the bridge's Stop of the late-observed alert extends nothing.
        let activity = adopted.lastActivityMs
        adopted.lastActivityMs = nil
        if let activity, activity < adopted.deadlineMs { adopted.lastActivityMs = activity }
        oracle.occurrences[index] = adopted
        countExemption("clock-jump-ambiguous-start")
        if oracle.occurrences[index].deadlineMs <= wallMs {
            oracleClose(index, reason: "expired")
        } else {
            enqueue(.oracleDeadline(occurrence: oracle.occurrences[index].id), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
        }
    }

    /// [limit] `clock-jump-ambiguous-start`, a set-back no bridge can notice: the clock was set
    /// back after a boot, before any bridge process of that boot ran. The bridge dates the boot from
    /// the wall clock and the restarted monotonic clock (`now.wallMs - now.monotonicMs`), so its
    /// estimate lies the set-back before the true boot, and a ring time in between — one the boot
    /// dropped (AlarmKit drops a one-shot whose time passed; a delivery held back dies with it) —
    /// reads as after the boot: gone from AlarmKit with no Stop seen, so inferred delivered (OCC-5,
    /// IOS-5). Nothing the app can read tells it otherwise (REC-9 needs a noticed correction).
    /// The oracle then takes the bridge's reading for that one occurrence — only a ring time in the
    /// interval the set-back moved the boot estimate over, only while the oracle holds nothing live
    /// and never opened that ring time — and counts it (ios uniform seed 34717: a held 06:36
    /// delivery dropped by a reboot at 06:36:57, a 1 h set-back at 07:56 before any launch; the
    /// 07:26 launch opened 06:36). Bounded to 20 h after the change (OCC-21).
    func adoptBootHiddenSetBackStart(_ bridge: any BridgeUnderTest) {
        guard let setBack = bootHiddenSetBack else { return }
        if nowMs - setBack.sinceMs > 20 * 3_600_000 || lastBootMs > setBack.sinceMs { bootHiddenSetBack = nil; return }
        guard bridge.isAcceptingInputs, oracle.liveIndex == nil, let live = bridge.document?.liveOccurrence,
              live.startedAtMs >= setBack.bootWallMs + setBack.deltaMs, live.startedAtMs < setBack.bootWallMs,
              !alreadyOpened(rootID: live.rootID, fireWallMs: live.startedAtMs),
              let alarmID = alarms.first(where: { $0.roots.contains { $0.id == live.rootID } })?.id else { return }
        oracleOpen(rootID: live.rootID, alarmID: alarmID, startWallMs: live.startedAtMs, clockOffsetMs: live.inactivityClockOffsetMs)
        countExemption("clock-jump-ambiguous-start")
        if let index = oracle.liveIndex, oracle.occurrences[index].deadlineMs <= wallMs { oracleClose(index, reason: "expired") }
    }

    /// [limit] `zone-change-unobserved`, the ring it touches: a concrete skip-date occurrence is an
    /// absolute `.fixed` instant (REC-3, REC-4) that only a running process can re-plan after a
    /// time-zone change (REC-8). When the zone changed with no bridge process ready to see it, the
    /// old-zone instant still rings, in the interval between the change and the first ready step
    /// after it. A ring time of the old zone reached before the change is an occurrence (OCC-2),
    /// and the bridge, reading the delivery later, cannot tell when the zone changed (AlarmKit
    /// reports no alert time): it must treat the sounding ring as the occurrence it was planned
    /// for — open it, keep its pressure, take its Stop (ios seed 8181). The oracle therefore opens
    /// that one occurrence at the ring's planned instant and counts the exemption; the configured
    /// time of the new zone then follows as usual (a pass-over while it is live, OCC-3).
    /// - Parameters:
    ///   - id: the ring that just started alerting; only a `.fixed` primary or seed of a weekly
    ///     root qualifies, whose instant is that root's occurrence in the previous zone and not in
    ///     the zone now in force.
    func oracleOpenStaleZoneRing(_ id: AlarmUUID, _ metadata: RingMetadata) {
        guard !stopped, metadata.kind.opensOccurrence, oracle.liveIndex == nil, let daemon = ios,
              let ring = daemon.alarm(id), case .fixed(let fire) = ring.schedule, let before = calendarBeforeZoneChange,
              let root = configuredWeeklyRoots(metadata).first(where: { $0.id == metadata.rootID }) else { return }
        // The interval the limit touches: the ring's instant came after the change, before any
        // ready bridge step had seen it (the same window as checkRecurrenceAlert's exemption).
        let fireTrueMs = nowMs - (wallMs - fire)
        guard lastZoneChangeMs <= fireTrueMs, lastZoneChangeMs > process.lastReadyStepMs
                || (zoneChangeObservedMs ?? .max) > fireTrueMs else { return }
        guard isScheduledOccurrence(fire, of: root, in: before).0, !isScheduledOccurrence(fire, of: root, in: calendar).0,
              !oracle.occurrences.contains(where: { $0.startWallMs == fire && $0.tiedRoots.contains(root.id) }) else { return }
        countExemption("zone-change-unobserved")
        record("oracle", "stale-zone-ring-opens", [TraceField("root", root.id), TraceField("ring", id.description)])
        oracleOpen(rootID: root.id, alarmID: metadata.alarmID, startWallMs: fire)
    }

    /// [limit] `kill-switch-disabled`, the ring a frozen re-plan left in the old zone (BOOT-12,
    /// REC-8): an explicit "disabled" from the kill switch holds back every sync's scheduler calls
    /// (the operator's forced update; registered alarms stay), so a time-zone change seen while it
    /// holds re-plans nothing, and a primary or seed of a weekly root registered at its old-zone
    /// instant still rings there. The bridge treats the sounding ring as the occurrence it was
    /// planned for — opens it, keeps its pressure, takes its Stop — as for a zone change no
    /// process saw (``oracleOpenStaleZoneRing(_:_:)``, ios seed 8181); RULES.md is silent on what
    /// the switch freezes, so the oracle follows that decision. It opens that one occurrence at the
    /// ring's instant and counts the exemption. Only after the switch disabled scheduling in this
    /// run, only a ring whose instant is its root's occurrence in the zone before the last change
    /// and not in the zone now, reached after that change (android kill-switch-disabled
    /// scoreboard row, seed 197: UTC → Tokyo at 15:48 JST with scheduling disabled; a1.tue's 08:44
    /// UTC primary rang at 17:44 JST, the bridge owned it and armed a successor at its dismissal,
    /// while the oracle held nothing live).
    func oracleOpenFrozenZoneRing(_ id: AlarmUUID, _ metadata: RingMetadata) {
        guard !stopped, killSwitchHoldsSync(), metadata.kind.opensOccurrence, oracle.liveIndex == nil,
              let before = calendarBeforeZoneChange, let fire = registeredInstant(of: id),
              let root = configuredWeeklyRoots(metadata).first(where: { $0.id == metadata.rootID }) else { return }
        let fireTrueMs = nowMs - (wallMs - fire)
        guard lastZoneChangeMs <= fireTrueMs, isScheduledOccurrence(fire, of: root, in: before).0,
              !isScheduledOccurrence(fire, of: root, in: calendar).0,
              !oracle.occurrences.contains(where: { $0.startWallMs == fire && $0.tiedRoots.contains(root.id) }) else { return }
        countExemption("kill-switch-disabled")
        record("oracle", "frozen-zone-ring-opens", [TraceField("root", root.id), TraceField("ring", id.description)])
        oracleOpen(rootID: root.id, alarmID: metadata.alarmID, startWallMs: fire)
    }

    /// The absolute instant (wall ms) a ring that starts alerting now was registered for: an
    /// AlarmKit `.fixed` ring's instant, the trigger AlarmManager delivered it for; nil for an
    /// AlarmKit `.relative` ring (the daemon moves it with the zone itself).
    func registeredInstant(of id: AlarmUUID) -> Int64? {
        if let daemon = ios {
            guard let ring = daemon.alarm(id), case .fixed(let fire) = ring.schedule else { return nil }
            return fire
        }
        return android?.deliveryLog.last(where: { $0.id == id })?.triggerWallMs
    }

    /// [limit] `zone-change-unobserved`, a `.relative` ring's alert (REC-8, IOS-4): AlarmKit moves
    /// a `.relative` ring to the new zone at the change, so an alert of it that the first ready
    /// step after a change no process saw finds sounding began either at the new zone's match (the
    /// change came first) or at the instant planned in the old zone (the change came after that
    /// ring). AlarmKit reports no alert time, and the bridge dates it at the old zone's instant once
    /// that has passed (BridgeCore `occurrenceStart`: erring toward a live occurrence). The
    /// oracle's occurrence of that very alert, opened at the new zone's match and expired before
    /// any bridge could see the change, is then reopened at the bridge's reading (ios uniform seed
    /// 56841: a1.sat's 08:09 rang in Berlin 4 min after an unseen move from São Paulo and expired
    /// at 08:39; at 12:09:14 the bridge dated the still-sounding alert at 08:09 São Paulo, 12:09
    /// Berlin, and armed a successor at the resign edge). Only the root's latest occurrence, only
    /// an alert of that root (bound to no other occurrence) sounding when the step began, only a bridge start that is the root's match
    /// in the old zone, after the oracle's opening and reached before the change was observed.
    func adoptStaleZoneReading(_ bridge: any BridgeUnderTest, alertingBefore: [AlarmUUID]) {
        guard ios != nil, oracle.liveIndex == nil, let before = calendarBeforeZoneChange, bridge.isAcceptingInputs,
              let live = bridge.document?.liveOccurrence, let index = oracle.occurrences.indices.last else { return }
        let occurrence = oracle.occurrences[index]
        guard occurrence.rootID == live.rootID, occurrence.closeReason == "expired", occurrence.tiedRoots.count <= 1,
              let closedAt = occurrence.closedAtMs, lastZoneChangeMs <= occurrence.openedAtMs,
              live.startedAtMs > occurrence.startWallMs, live.startedAtMs <= wallMs,
              closedAt < (zoneChangeObservedMs ?? nowMs), at(wallMs: live.startedAtMs) <= (zoneChangeObservedMs ?? nowMs),
              alertingBefore.contains(where: { id in (oracle.bindings[id] ?? occurrence.id) == occurrence.id
                  && groundTruthMetadata(id).map { $0.rootID == live.rootID && $0.kind.opensOccurrence } == true }),
              let root = alarms.flatMap(\.roots).first(where: { $0.id == live.rootID }),
              isScheduledOccurrence(live.startedAtMs, of: root, in: before).0 else { return }
        reopenOracleOccurrence(index)
        oracle.occurrences[index].startWallMs = live.startedAtMs
        oracle.occurrences[index].clockOffsetMs = live.inactivityClockOffsetMs
        oracle.occurrences[index].lastActivityMs = nil  // no credit before the reading's start (INACT-3)
        enqueue(.oracleDeadline(occurrence: occurrence.id), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
        record("oracle", "stale-zone-alert-reopened", [TraceField("root", live.rootID)])
        countExemption("zone-change-unobserved")
    }

    /// The latest occurrence, when the oracle closed it as `unobservable` (a reboot or an OS
    /// removal ended its alert before any process saw it open) and yet the bridge learned of it:
    /// its Stop is in the unprotected action journal (ACT-1), or the bridge's books hold it live.
    /// Before its deadline it still owns the wake session for ownership (OCC-2); nil otherwise.
    func unobservedIncumbent(rootID: String, fireWallMs: Int64) -> OracleOccurrence? {
        guard let last = oracle.occurrences.last, !last.live, last.closeReason == "unobservable",
              !last.tiedRoots.contains(rootID), last.deadlineMs > fireWallMs else { return nil }
        // (An ended alert's primary is no longer bound: match the entry by root and time.)
        let journaled = unprotectedJournal.contains { entry in
            guard let metadata = requestMetadata[entry.ringID] ?? groundTruthMetadata(entry.ringID) else { return false }
            return last.tiedRoots.contains(metadata.rootID) && entry.occurredAtMs >= last.startWallMs
        }
        let held = (process.document ?? storedDocument)?.liveOccurrence.map {
            last.tiedRoots.contains($0.rootID) && $0.startedAtMs == last.startWallMs
        } ?? false
        return journaled || held ? last : nil
    }

    /// iOS: the root of the occurrence the bridge's books hold live when it began at the very
    /// instant of a ring the OS removed before that instant (`osRemovedFires`), the oracle has no
    /// occurrence there, and the bridge's own deadline for it is still ahead at `fireWallMs`. A ring
    /// removed unheard vanishes exactly like one that rang and was stopped inside one coalesced
    /// update (IOS-5), so the bridge took it as delivered (OCC-5 then arms its successor); nil
    /// otherwise. Only that one instant: an occurrence the bridge opened from nothing is not excused.
    /// The oracle's own occurrence there counts unless it gave it up as `unobservable`: a one-shot
    /// ghost alert no process saw (OpenMinis#115) is such a removal, and the bridge's deadline for
    /// what it inferred is its own (ios swarm seed 1841: a1's 08:31 ghost inferred delivered at
    /// 08:53, snoozed to 09:03:42; a2's 09:03 was its pass-over, while the oracle's a1 would have
    /// expired at 09:01).
    ///
    /// The bridge's deadline moves with every correction it notices (REC-9): one made since the
    /// running process's last ready step in this boot is applied at its next step, so it counts
    /// already (``pendingCorrectionMs``; ios uniform seed 66125: a +1 h jump at 07:22 landed on
    /// a3's jumped-over 07:54 while a1's inferred 07:19 occurrence was live only once corrected).
    func inferredIncumbent(rootID: String, fireWallMs: Int64) -> String? {
        guard setup.platform == .ios, let live = (process.document ?? storedDocument)?.liveOccurrence,
              live.rootID != rootID, live.startedAtMs < fireWallMs, live.deadlineMs + pendingCorrectionMs > fireWallMs,
              oracle.osRemovedFires.contains(where: { $0.rootID == live.rootID && $0.fireWallMs == live.startedAtMs }),
              !oracle.occurrences.contains(where: { $0.startWallMs == live.startedAtMs && $0.tiedRoots.contains(live.rootID)
                  && $0.closeReason != "unobservable" })
        else { return nil }
        return live.rootID
    }

    /// REC-9: the wall-clock correction (ms) made since the running bridge process's last ready
    /// step in this boot, which it applies to its live occurrence at its next step; 0 with no
    /// process, or none that read the clock in this boot (the monotonic clock restarted).
    var pendingCorrectionMs: Int64 {
        guard process.running, process.lastReadyStepMs >= lastBootMs else { return 0 }
        return (wallMs - nowMs) - process.lastReadyWallMinusTrueMs
    }

    /// The same for a delivery held back late (OCC-3: a ring time inside another root's live
    /// occurrence is a pass-over however late it is delivered): the occurrence the bridge inferred
    /// from a ring the OS removed unheard (or a one-shot ghost no process saw), live in its books at
    /// `fireWallMs` and closed since (ios swarm seed 1709 of --faults ghost-alert: a1.fri's 08:36
    /// ghost ended unseen, the launch at 09:03:10 inferred it and owned it until the user closed
    /// it; a2.fri's 09:03, held until 09:04:30, was its pass-over). Only that root and ring time.
    func inferredIncumbentClosedSince(rootID: String, fireWallMs: Int64) -> String? {
        guard setup.platform == .ios, let document = process.document ?? storedDocument,
              let record = document.occurrences.last(where: { $0.rootID != rootID && $0.state != .live && $0.wasLive(at: fireWallMs) }),
              oracle.osRemovedFires.contains(where: { $0.rootID == record.rootID && $0.fireWallMs == record.startedAtMs }),
              !oracle.occurrences.contains(where: { $0.startWallMs == record.startedAtMs && $0.tiedRoots.contains(record.rootID)
                  && $0.closeReason != "unobservable" })
        else { return nil }
        return record.rootID
    }

    /// SCH-10, REC-1: true when `fireWallMs` is a configured time of `rootID` only under a
    /// definition an interrupted save replaced (`jsSaves.keptPrevious`, `interruptedPrevious`),
    /// not under the definition the oracle follows now.
    func isSupersededFireTimeOnly(rootID: String, alarmID: String, fireWallMs: Int64) -> Bool {
        guard let current = alarms.first(where: { $0.id == alarmID }) else { return false }
        if current.roots.contains(where: { $0.id == rootID && isConfiguredFire(fireWallMs, of: $0) }) { return false }
        let previous = (jsSaves.keptPrevious + jsSaves.interruptedPrevious).filter { $0.id == alarmID }
        return previous.contains { $0.roots.contains { $0.id == rootID && isConfiguredFire(fireWallMs, of: $0) } }
    }

    /// SCH-6, SCH-10 with the glossary's "an occurrence begins at its configured ring time once
    /// delivered": a ring time that only the definition an interrupted save persisted has (not one
    /// of the definition it replaced, `keptPrevious`, `interruptedPrevious`), for which no
    /// occurrence-opening ring of the root was ever requested at that instant, while no sync has
    /// run since the interruption (`jsSaves.interrupted`: that sync re-plans the definition). The
    /// process died after writing the definition and before the save's schedule call, and the
    /// platform still held only the replaced definition's rings: nothing could ring this time, so
    /// no occurrence begins and no later launch can restore one (ios uniform and swarm seed 96574:
    /// a legacy a1 edited from 08:50 to 07:19 at 04:17, the process died 1 ms later; the oracle
    /// opened a1.wed at 07:19 and, its life 20 h, wanted pressure from the launch at 08:14).
    /// A fault-silenced day like `primary-unregistered-by-fault`'s; on iOS nothing is owed for it
    /// but where a refusal was seen (`noteMissedOccurrence`). RULES.md is silent on a save cut by
    /// a death; decided from the glossary and SCH-10 (the previous schedule stays untouched).
    func unregisteredByInterruptedSave(rootID: String, alarmID: String, fireWallMs: Int64) -> Bool {
        guard jsSaves.interrupted.contains(alarmID) else { return false }
        let previous = (jsSaves.keptPrevious + jsSaves.interruptedPrevious).filter { $0.id == alarmID }
        guard !previous.isEmpty,
              !previous.contains(where: { $0.roots.contains { $0.id == rootID && isConfiguredFire(fireWallMs, of: $0) } }) else { return false }
        return !requestFires.contains { id, fire in
            fire == fireWallMs && requestMetadata[id].map { $0.rootID == rootID && $0.kind.opensOccurrence } == true
        }
    }

    /// True when `fireWallMs` is one of `root`'s configured ring times in the calendar now in force.
    func isConfiguredFire(_ fireWallMs: Int64, of root: Root) -> Bool {
        if let once = root.onceFireWallMs { return once == fireWallMs }
        return isScheduledOccurrence(fireWallMs, of: root, in: calendar).0
    }

    /// [limit] `zone-change-unobserved`, the one-shot it touches (REC-8): a one-shot means "the
    /// next time the clock shows hh:mm", so a zone change before its instant moves it to the new
    /// frame (`changeTimeZone`). When no ready bridge step saw the change before the old-frame
    /// instant came, the bridge can never tell whether the change came before it (moved) or after
    /// it (due, and passed): AlarmKit reports no time for either, and a ring the platform does
    /// not hold (the capacity limit refused it) shows nothing. The bridge keeps its old-frame
    /// reading (`LogicalAlarm.rebasingOneShot`, ios seed 482), so the moved time is owed nothing
    /// when the platform holds no ring for it and the bridge's books still date the one-shot at the
    /// old instant (ios uniform seed 17881). The moved record, or nil.
    func unobservedOneShotMove(rootID: String, fireWallMs: Int64) -> MovedOneShot? {
        guard let move = movedOneShots.last(where: { $0.rootID == rootID && $0.newFireWallMs == fireWallMs }),
              move.changeMs == lastZoneChangeMs, (zoneChangeObservedMs ?? .max) > move.oldFireTrueMs,
              let stored = (process.document ?? storedDocument)?.alarm(rootID),
              case .once(let bridgeFire) = stored.repeats, bridgeFire == move.oldFireWallMs else { return nil }
        return move
    }

    /// [limit] `zone-change-unobserved`, the new zone's ring time it touches (REC-3, REC-4,
    /// REC-8): a weekly root with skip dates is registered as concrete `.fixed` instants, which a
    /// time-zone change does not move (PLATFORMS.md, `.fixed(Date)`); only a running process can
    /// re-plan them, and iOS wakes no suspended or dead app for a zone change. When the root's
    /// configured time of the new zone comes with no ready bridge step since the change, the
    /// platform can hold no ring for it: it holds the root's plan of the old zone instead, which
    /// still rings as the occurrence it was planned for (`oracleOpenStaleZoneRing`) unless a
    /// bridge sees the change first and re-plans (REC-8). That one ring time is owed nothing (ios
    /// uniform seed 63089: a1.sun 08:27 planned in Berlin; the zone became Tokyo at 08:26:37 Tokyo
    /// with the app suspended, and 08:27 Tokyo came 23 s later, the ring still due 08:27 Berlin).
    /// Only iOS, only while no ready step has seen the change, only a root whose pending `.fixed`
    /// ring is one of its occurrences in the old zone and none in the new one. The ring, or nil.
    func unobservedFixedZoneMove(rootID: String, fireWallMs: Int64) -> AlarmUUID? {
        guard let daemon = ios, let before = calendarBeforeZoneChange, zoneChangeObservedMs == nil,
              lastZoneChangeMs <= nowMs,
              let root = alarms.flatMap(\.roots).first(where: { $0.id == rootID && $0.weekday != nil }),
              isScheduledOccurrence(fireWallMs, of: root, in: calendar).0 else { return nil }
        return daemon.alarms.first { alarm in
            guard alarm.metadata.rootID == rootID, alarm.metadata.kind.opensOccurrence, alarm.state == .scheduled,
                  case .fixed(let fire) = alarm.schedule, fire > wallMs else { return false }
            return isScheduledOccurrence(fire, of: root, in: before).0 && !isScheduledOccurrence(fire, of: root, in: calendar).0
        }?.id
    }

    /// OCC-3 with the glossary's "an occurrence begins at its configured ring time once
    /// delivered": when a root's ring time comes while the platform holds its delivery back and
    /// another root owns the live occurrence (before its deadline), that owner is remembered with
    /// the ring time (`lateFireOwners`). The late delivery is then a pass-over whatever wall-clock
    /// frame it comes in: the comparison of wall instants in `oracleFireTime` mixes frames when
    /// the clock was set back between the ring time and the delivery, and AlarmManager re-frames
    /// a held RTC trigger, delivering it when the new frame reaches the ring time again (REC-9;
    /// android uniform seed 75948: a2.mon's 09:03 held while a1 owned, a 1 h set-back at 09:06,
    /// a1 completed at 08:13 in the new frame, the delivery at the new frame's 09:03 opened a2.mon
    /// for the oracle while the bridge rightly passed it over, as for android uniform 4988).
    func noteOwnerAtReach(rootID: String, fireWallMs: Int64) {
        guard let index = oracle.liveIndex else { return }
        let owner = oracle.occurrences[index]
        guard owner.rootID != rootID, !owner.tiedRoots.contains(rootID), owner.deadlineMs > wallMs else { return }
        // Only a ring time inside the owner's occurrence, after its start: an equal ring time is
        // a tie that delivery order settles, and a tie loser whose delivery the platform still
        // holds is not passed over (ios uniform 10649; android uniform 3098: a2 due with a1.thu
        // at 08:16, held until after a1.thu completed, was taken as passed over).
        guard owner.startWallMs + owner.clockOffsetMs < fireWallMs else { return }
        lateFireOwners.append((rootID, fireWallMs, owner.id))
        if lateFireOwners.count > 32 { lateFireOwners.removeFirst() }
    }

    /// The closed occurrence that was live when `rootID`'s held ring time `fireWallMs` came
    /// (``noteOwnerAtReach(rootID:fireWallMs:)``), if any.
    func ownerAtReach(rootID: String, fireWallMs: Int64) -> OracleOccurrence? {
        guard let owner = lateFireOwners.last(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }) else { return nil }
        return oracle.occurrences.first { $0.id == owner.occurrenceID && !$0.live }
    }

    func countExemption(_ name: String) {
        exemptionCounts[name, default: 0] += 1
        record("oracle", "exemption", [TraceField("name", name)])
    }

    /// A root's configured time arrived (OCC-2, OCC-3 as truth); `deliveredLate` when the
    /// platform held its delivery back and delivers it only now (see `lateOracleFires`).
    /// - Parameter clockOffsetMs: a late delivery's wall-clock corrections since its ring time (REC-9).
    func oracleFireTime(rootID: String, alarmID: String, fireWallMs: Int64, deliveredLate: Bool = false,
                        clockOffsetMs: Int64 = 0) {
        // A delivery held back late was due while the alarm was enabled (the deferral ran then):
        // disabling it since does not undo an occurrence that began at its ring time once
        // delivered (glossary; SCH-21 keeps a ring past its fire time; ios seed 583).
        guard alarms.contains(where: { $0.id == alarmID && ($0.enabled || deliveredLate) }) else { return }
        livenessRootDue(rootID)  // convergence: the delivery's transition window (Liveness.swift)
        guard deviceUp else {
            countExemption("device-restarting")
            // AlarmManager forgets every alarm at a reboot (PLATFORMS.md): the day is missed.
            if android != nil { noteMissedOccurrence(rootID: rootID, fireWallMs: fireWallMs, cause: "the phone was off") }
            return
        }
        noteRemovedFireReached(rootID: rootID, fireWallMs: fireWallMs)
        // (A delivery released from a hold is due now: no other held ring defers it again.)
        if !deliveredLate, let held = lateHeld.first(where: { groundTruthMetadata($0).map { $0.kind.opensOccurrence && $0.rootID == rootID } ?? false }) {
            lateOracleFires.append((held, rootID, alarmID, fireWallMs, 0))
            noteOwnerAtReach(rootID: rootID, fireWallMs: fireWallMs)
            record("oracle", "due-when-delivered-late", [TraceField("root", rootID)])
            return
        }
        if !deliveredLate, deferInexactOracleFire(rootID: rootID, alarmID: alarmID, fireWallMs: fireWallMs) { return }
        if !platformHoldsPrimary(rootID: rootID, fireWallMs: fireWallMs) {
            if liveOccurrenceRelived(rootID: rootID, alarmID: alarmID, fireWallMs: fireWallMs) { return }
            if android != nil, process.lastReadyStepMs < lastBootMs {
                // AND-3: the reboot cleared AlarmManager, and no bridge process has run since the
                // boot to re-arm it (the boot broadcast comes after a platform delay): the restart
                // is not over for the app, as if the ring time came while the phone was off
                // (android seeds 3382, 19967). The `device-restarting` window ends at that run.
                countExemption("device-restarting")
                noteMissedOccurrence(rootID: rootID, fireWallMs: fireWallMs, cause: "the restart had re-armed nothing yet")
                return
            }
            if let name = authorizationExemption() { countExemption(name); return }
            if exactRevocationUnseen() { countExemption("exact-permission-revoked"); return }
            if droppedUnseen(rootID: rootID, fireWallMs: fireWallMs) {
                // Issue 18 [limit]: AlarmManager dropped the accepted primary and no step since
                // could have seen it missing from getNextAlarmClock().
                countExemption("accepted-request-dropped")
                noteMissedOccurrence(rootID: rootID, fireWallMs: fireWallMs, cause: "AlarmManager dropped its accepted request")
                return
            }
            if let manager = android, manager.forceStopped {  // [limit] AND-6
                countExemption("force-stop")
                noteMissedOccurrence(rootID: rootID, fireWallMs: fireWallMs, cause: "the app was force-stopped")
                return
            }
            if isSupersededFireTimeOnly(rootID: rootID, alarmID: alarmID, fireWallMs: fireWallMs) {
                // SCH-10, REC-1: a time of the definition an interrupted save replaced may still
                // ring (its leftover ring stays until a later sync retires it), but nothing is owed
                // for it: the persisted definition stands. Its ring never reached the platform (ios
                // uniform seed 18485: the capacity limit refused the old 05:26, the process died in
                // the retried save of 09:02, and 05:26 was judged as a dropped configured time).
                record("oracle", "superseded-time-unheld", [TraceField("root", rootID)])
                return
            }
            if let move = unobservedOneShotMove(rootID: rootID, fireWallMs: fireWallMs) {
                // [limit] zone-change-unobserved, the one-shot it touches (REC-8): see
                // `unobservedOneShotMove`. The bridge read the one-shot in the old frame.
                countExemption("zone-change-unobserved")
                record("oracle", "one-shot-move-unobserved", [TraceField("root", rootID), TraceField("old", String(move.oldFireWallMs))])
                return
            }
            if let stale = unobservedFixedZoneMove(rootID: rootID, fireWallMs: fireWallMs) {
                // [limit] zone-change-unobserved, the new zone's ring time it touches (REC-3,
                // REC-4, REC-8): see `unobservedFixedZoneMove`. The old-zone ring still rings.
                countExemption("zone-change-unobserved")
                record("oracle", "fixed-zone-move-unobserved", [TraceField("root", rootID), TraceField("ring", stale.description)])
                return
            }
            if oracle.droppedFires.contains(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }) {
                // The wall clock was set back over a fire time already judged dropped and
                // surfaced (CAP-9): the same configured time again is not a new fire (as a
                // closed occurrence is not redelivered, OCC-20; ios uniform seed 8103).
                record("oracle", "dropped-fire-relived", [TraceField("root", rootID)])
                return
            }
            if removedUnseenByOS(rootID: rootID, fireWallMs: fireWallMs) {
                // [limit] os-removed-alarm: the platform held a ring for this very ring time until
                // the OS removed it, and no ready bridge step has run since: that, not an older
                // refusal, is why nothing is registered (ios uniform seed 6474: a capacity refusal
                // of a2.sat's new primary at 05:48 left the legacy ring holding 08:26; an OS update
                // at the 08:16 reboot removed it, and 08:26 was blamed on the refusal, CAP-9).
                countExemption("os-removed-alarm")
                noteMissedOccurrence(rootID: rootID, fireWallMs: fireWallMs, cause: "the OS removed its ring")
                return
            }
            if let refusal = capacityRefusal(rootID: rootID, fireWallMs: fireWallMs),
               checkDroppedSurfaced(rootID: rootID, refusedAtMs: refusal.atMs) {
                countExemption("capacity-dropped-surfaced")  // CAP-9: the dropped count says so
                oracle.droppedFires.append((rootID, fireWallMs))
                if oracle.droppedFires.count > 64 { oracle.droppedFires.removeFirst() }
                return
            }
            if stopped { return }
            if oracle.primaryFaultRoots.contains(rootID), !primaryRetryWasDue(rootID) {
                countExemption("primary-unregistered-by-fault")
                noteMissedOccurrence(rootID: rootID, fireWallMs: fireWallMs, cause: "its registration failed")
                return
            }
            if unregisteredByInterruptedSave(rootID: rootID, alarmID: alarmID, fireWallMs: fireWallMs) {
                countExemption("process-death")
                record("oracle", "interrupted-save-time-unheld", [TraceField("root", rootID)])
                noteMissedOccurrence(rootID: rootID, fireWallMs: fireWallMs, cause: "a process death interrupted the save that set it")
                return
            }
            // BOOT-12: an explicit "disabled" from the kill switch held the sync back (operator's choice).
            if killSwitchHoldsSync() { countExemption("kill-switch-disabled"); return }
        }
        if alreadyOpened(rootID: rootID, fireWallMs: fireWallMs) {
            // OCC-20: the same configured time again (the wall clock was set back over it) is
            // the closed occurrence delivered late, which never becomes live again; so is an
            // earlier time of the same configured day (once per configured day, REC-1, REC-2:
            // android uniform seed 17679, edited from 07:23 to 07:06 after 07:23 rang, then a
            // 1 h set-back re-lived 07:06).
            record("oracle", "closed-occurrence-redelivered", [TraceField("root", rootID)])
            return
        }
        if let index = oracle.liveIndex, oracle.occurrences[index].deadlineMs <= wallMs {
            // INACT-22: from its deadline on no path treats the occurrence as live — not even a
            // root due at that very instant, whichever event the queue runs first (ios seed 1141).
            oracleClose(index, reason: "expired")
        }
        // REC-9: the ring time in the corrected frame the incumbent's interval is kept in (a
        // correction made since it was reached moves it as it moves an occurrence it opens).
        let reachedWallMs = fireWallMs + releasingShiftMs(rootID: rootID, fireWallMs: fireWallMs)
        if deliveredLate, oracle.liveIndex == nil,
           let incumbent = oracle.occurrences.last(where: { !$0.live && $0.rootID != rootID && $0.startWallMs + $0.clockOffsetMs < reachedWallMs
                                                          && reachedWallMs < min($0.closedAtWallMs ?? .min, $0.deadlineMs) })
            ?? ownerAtReach(rootID: rootID, fireWallMs: fireWallMs) {
            // OCC-3 with the glossary's "an occurrence begins at its configured ring time once
            // delivered": a root whose ring time fell inside another root's live occurrence is a
            // pass-over, even when the platform delivers it only after that occurrence closed
            // (the bridge's "pass-over (observed late)"; ios seed 1475 of the fault catalog).
            // INACT-22: the occurrence was live only until its deadline, however late the oracle
            // closed it as expired, so a ring time past that deadline opens its own occurrence
            // (android seed 527: two inexact deliveries batched 43 min apart, the first expired).
            record("oracle", "pass-over", [TraceField("root", rootID), TraceField("owner", incumbent.rootID), TraceField("late", "true")])
            oracle.passedOver.append((rootID, fireWallMs))
            if oracle.passedOver.count > 64 { oracle.passedOver.removeFirst() }
            return
        }
        if deliveredLate, let index = oracle.liveIndex, fireWallMs < oracle.occurrences[index].startWallMs,
           expiredAtDelivery(rootID: rootID, alarmID: alarmID, fireWallMs: fireWallMs) {
            // INACT-21, INACT-22: the late root's own occurrence was past its deadline when the
            // platform delivered it, so it opens nothing and contends for no tie: the delivery
            // checks expiry first and rings nothing, and the live occurrence keeps its owner
            // (android swarm seed 31161: a2.sun 05:43 (v2) held inexact until 06:18, delivered in
            // one batch with a1.sun's 06:18; the tie went to a2.sun, which then expired at once
            // and left a1.sun, live in the bridge, with no occurrence in the oracle).
            record("oracle", "expired-at-delivery", [TraceField("root", rootID), TraceField("owner", oracle.occurrences[index].rootID)])
            oracle.passedOver.append((rootID, fireWallMs))
            if oracle.passedOver.count > 64 { oracle.passedOver.removeFirst() }
            return
        }
        if deliveredLate, let index = oracle.liveIndex, fireWallMs < oracle.occurrences[index].startWallMs,
           !oracle.occurrences[index].tiedRoots.contains(rootID), !bridgeObservedOccurrence(oracle.occurrences[index]) {
            // OCC-2: this root was due first by its ring time, the other first by delivery; no
            // bridge process saw either delivery happen (suspended or dead), so the order the app
            // can see is the order it is told, and either may own: a tie the bridge settles
            // (ios seed 974 of the fault catalog).
            oracle.occurrences[index].tiedRoots.append(rootID)
            oracle.occurrences[index].tiedStarts.append((rootID, fireWallMs))
            if let tied = alarms.first(where: { $0.id == alarmID })?.root(withID: rootID) {
                oracle.occurrences[index].tiedPolicies.append((rootID, tied.policy))
            }
            record("oracle", "tied-root", [TraceField("root", rootID), TraceField("with", oracle.occurrences[index].rootID),
                                           TraceField("late", "true")])
            return
        }
        if deliveredLate, android != nil, let index = oracle.liveIndex, oracle.occurrences[index].startWallMs == fireWallMs,
           !oracle.occurrences[index].tiedRoots.contains(rootID), bridgeObservedOccurrence(oracle.occurrences[index]) {
            // OCC-2, OCC-3: AlarmManager settles an equal-time tie by delivery order (AOSP dispatch),
            // and the bridge saw the other root's delivery open the occurrence; this root's delivery,
            // held back (`fault late-delivery`), comes while that occurrence is live: a pass-over
            // (android seed 2569 of the fault catalog).
            record("oracle", "pass-over", [TraceField("root", rootID), TraceField("owner", oracle.occurrences[index].rootID), TraceField("late", "true")])
            oracle.passedOver.append((rootID, fireWallMs))
            if oracle.passedOver.count > 64 { oracle.passedOver.removeFirst() }
            return
        }
        if !deliveredLate, liveOccurrenceRelived(rootID: rootID, alarmID: alarmID, fireWallMs: fireWallMs) { return }
        if let index = oracle.liveIndex {
            if oracle.occurrences[index].startWallMs == fireWallMs {
                if oracle.occurrences[index].tiedRoots.contains(rootID) { return }  // re-planned, same instant
                oracle.occurrences[index].tiedRoots.append(rootID)
                if let tied = alarms.first(where: { $0.id == alarmID })?.root(withID: rootID) {
                    oracle.occurrences[index].tiedPolicies.append((rootID, tied.policy))
                    enqueue(.oracleDeadline(occurrence: oracle.occurrences[index].id),
                            afterMs: oracle.occurrences[index].deadlineMs - wallMs)
                }
                record("oracle", "tied-root", [TraceField("root", rootID), TraceField("with", oracle.occurrences[index].rootID)])
                // iOS alerts every tied root at once: a tied root's alert that started before this
                // event ran is pressure for the occurrence too (ios seed 3252: the bridge owned the
                // tie with it while the oracle's first root was stopped), as at the opening below.
                for ring in audibleRings() where ring.metadata.kind.opensOccurrence && ring.metadata.rootID == rootID
                    && oracle.bindings[ring.id] == nil {
                    oracleAlertStarted(ring.id, ring.metadata)
                    soundAlertStarted(ring.id, ring.metadata)
                }
                return
            }
            record("oracle", "pass-over", [TraceField("root", rootID), TraceField("owner", oracle.occurrences[index].rootID)])
            oracle.passedOver.append((rootID, fireWallMs))
            if oracle.passedOver.count > 64 { oracle.passedOver.removeFirst() }
            unbindPassedOverAlert(rootID: rootID, fireWallMs: fireWallMs)
            return
        }
        if let incumbent = unobservedIncumbent(rootID: rootID, fireWallMs: fireWallMs) {
            // OCC-2, OCC-3: the oracle gave up on this occurrence (its alert ended with no
            // process to see it) but the bridge learned of it from the Stop the unprotected
            // action journal kept (ACT-1), within its life: it is still the first due root, so
            // this one is a pass-over (ios uniform seeds 3884, 5794).
            record("oracle", "pass-over", [TraceField("root", rootID), TraceField("owner", incumbent.rootID),
                                           TraceField("unobserved", "true")])
            oracle.passedOver.append((rootID, fireWallMs))
            if oracle.passedOver.count > 64 { oracle.passedOver.removeFirst() }
            return
        }
        if let inferred = inferredIncumbent(rootID: rootID, fireWallMs: fireWallMs)
            ?? (deliveredLate ? inferredIncumbentClosedSince(rootID: rootID, fireWallMs: fireWallMs) : nil) {
            // OCC-2, OCC-3, IOS-5: the bridge holds live the occurrence it inferred from a ring the
            // OS removed unheard; until its deadline that occurrence owns the wake session, so this
            // root is a pass-over (ios uniform seed 9623).
            record("oracle", "pass-over", [TraceField("root", rootID), TraceField("owner", inferred), TraceField("inferred", "true")])
            oracle.passedOver.append((rootID, fireWallMs))
            if oracle.passedOver.count > 64 { oracle.passedOver.removeFirst() }
            return
        }
        if let shift = removedFireReachShiftMs(rootID: rootID, fireWallMs: fireWallMs) {
            countExemption("os-removed-alarm")
            record("oracle", "inferred-occurrence-relived", [TraceField("root", rootID), TraceField("offset-ms", String(shift))])
            oracleOpen(rootID: rootID, alarmID: alarmID, startWallMs: fireWallMs, clockOffsetMs: clockOffsetMs + shift)
            carryUnownedSnooze(rootID: rootID, fireWallMs: fireWallMs)
            bindInferredOccurrencePressure(rootID: rootID, fireWallMs: fireWallMs)
            noteRelivedShiftUnseen(rootID: rootID, fireWallMs: fireWallMs, shiftMs: shift)
            return
        }
        oracleOpen(rootID: rootID, alarmID: alarmID, startWallMs: fireWallMs, clockOffsetMs: clockOffsetMs)
        tieInferableRemovedFire(rootID: rootID, fireWallMs: fireWallMs)
    }

    /// Notes the first time the wall clock reaches the ring time of a ring the OS removed before
    /// it (`osRemovedFires`), with the clock's offset from true time then (`osRemovedFireReaches`).
    func noteRemovedFireReached(rootID: String, fireWallMs: Int64) {
        guard setup.platform == .ios, oracle.osRemovedFires.contains(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }),
              !oracle.osRemovedFireReaches.contains(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }) else { return }
        oracle.osRemovedFireReaches.append((rootID, fireWallMs, wallMs - nowMs))
        if oracle.osRemovedFireReaches.count > 64 { oracle.osRemovedFireReaches.removeFirst() }
    }

    /// [limit] `os-removed-alarm`, REC-9, ID-8, IOS-5: `rootID`'s ring time `fireWallMs` comes
    /// again (the wall clock was set back over it) while the bridge's books hold live the
    /// occurrence it inferred there from the ring the OS removed unheard before that time — the
    /// vanished ring reads like one delivered and stopped inside one coalesced update — and the
    /// oracle has no occurrence there (it gave that day up: `removedUnseenByOS`). The same
    /// configured time again is that occurrence (as `liveOccurrenceRelived` judges one of the
    /// oracle's own), which began when the clock first reached the ring time: every correction
    /// since then moves its deadline (REC-9), its start and token stay (ID-8). The oracle opens it
    /// with those corrections as its offset (ms), returned here; nil when this is not that case.
    /// (ios uniform seed 35032: an OS update at a 05:44 reboot removed a1.tue's legacy 06:08
    /// primary; the 06:11 launch inferred the occurrence and re-registered the weekly primary; a
    /// 1 h set-back at 06:11:55 brought 06:08 again, and the oracle opened it with no offset, an
    /// hour later than the bridge's deadline, rightly moved by the correction.)
    func removedFireReachShiftMs(rootID: String, fireWallMs: Int64) -> Int64? {
        guard setup.platform == .ios, oracle.liveIndex == nil,
              let reach = oracle.osRemovedFireReaches.last(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }),
              let live = (process.document ?? storedDocument)?.liveOccurrence,
              live.rootID == rootID, live.startedAtMs == fireWallMs, live.deadlineMs > wallMs,
              !oracle.occurrences.contains(where: { $0.startWallMs == fireWallMs && $0.tiedRoots.contains(rootID)
                  && $0.closeReason != "unobservable" }) else { return nil }
        let shift = (wallMs - nowMs) - reach.wallMinusTrueMs
        return shift == 0 ? nil : shift
    }

    /// INACT-9, SNZ-4, SNZ-20: the relived inferred occurrence just opened for `rootID`'s ring time
    /// `fireWallMs` is the one the bridge held live when it accepted a snooze while the oracle held
    /// nothing (`unownedSnooze`): the snooze is that occurrence's, so it moves the deadline
    /// baseline (rebased by every correction since, as the bridge's is) and a second one is refused
    /// (ios uniform seed 51390: an OS update removed a1.wed's 06:46 ring, the 06:47 launch
    /// inferred the occurrence, a 5 min snooze at 06:47:34, then a 10 min set-back relived 06:46).
    func carryUnownedSnooze(rootID: String, fireWallMs: Int64) {
        guard let snooze = oracle.unownedSnooze, snooze.rootID == rootID, snooze.startWallMs == fireWallMs,
              let index = oracle.liveIndex, oracle.occurrences[index].snoozeUntilMs == nil else { return }
        oracle.unownedSnooze = nil
        oracle.occurrences[index].snoozeUntilMs = snooze.untilTrueMs + (wallMs - nowMs)
        ownUnownedSnoozeWatch(rootID: rootID, occurrenceID: oracle.occurrences[index].id)  // SNZ-20, SNZ-22
        enqueue(.oracleDeadline(occurrence: oracle.occurrences[index].id), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
    }

    /// REC-9, INACT-19, [limit] `clock-jump-ambiguous-start`: the relived inferred occurrence just
    /// opened (live now) carries the corrections made since its ring time was first reached
    /// (`shiftMs`), as one live across them would; the part of them made since the bridge process's
    /// last ready step of this boot is a shift no bridge has seen yet, which a reboot before one
    /// sees it makes unobservable for good (``revertUnseenLiveShift()``: the bridge keeps its
    /// deadline, snooze and activity in wall time). Noted as `setWallClock` notes one for an
    /// occurrence live at the correction (ios uniform seed 82672: a2.wed's 08:37 removed by an OS
    /// update, inferred at the 08:53 launch, snoozed to 09:14:09; a 1 h set-back with the app
    /// suspended relived 08:37, then a reboot; the oracle kept the snooze an hour early in the
    /// new frame, and adopting the bridge's offset at the next launch left it there).
    func noteRelivedShiftUnseen(rootID: String, fireWallMs: Int64, shiftMs: Int64) {
        guard let index = oracle.liveIndex, process.lastReadyStepMs >= lastBootMs,
              let reach = oracle.osRemovedFireReaches.first(where: { $0.rootID == rootID && $0.fireWallMs == fireWallMs }) else { return }
        // A last ready step before the first reach saw none of the corrections since it.
        let reachedAtMs = fireWallMs - reach.wallMinusTrueMs
        let deltaMs = process.lastReadyStepMs < reachedAtMs ? shiftMs : (wallMs - nowMs) - process.lastReadyWallMinusTrueMs
        guard deltaMs != 0 else { return }
        noteUnseenLiveShift(occurrenceID: oracle.occurrences[index].id, deltaMs: deltaMs)
    }

    /// OCC-5, ID-9: the relived inferred occurrence just opened for `rootID`'s ring time
    /// `fireWallMs` is the one the bridge holds live; the pressure the bridge armed for it while
    /// the oracle held nothing (its successor, snooze ring or fuse, bound by its token) is that
    /// occurrence's pressure (ios uniform seed 85956: an OS update removed a1.wed's 05:37, the
    /// 05:45 launch inferred the occurrence and armed its successor, alerting from 05:45:10; a
    /// 1 h set-back relived 05:37 and the oracle judged the occurrence without pressure).
    func bindInferredOccurrencePressure(rootID: String, fireWallMs: Int64) {
        guard let daemon = ios, let index = oracle.liveIndex,
              let live = (process.document ?? storedDocument)?.liveOccurrence,
              live.rootID == rootID, live.startedAtMs == fireWallMs else { return }
        for ring in daemon.alarms where ring.metadata.kind.isOccurrenceBound && ring.metadata.token == live.token
            && oracle.bindings[ring.id] == nil {
            oracle.bindings[ring.id] = oracle.occurrences[index].id
        }
    }

    /// iOS, IOS-2, IOS-5: the OS removed a ring the platform held for `rootID`'s ring time
    /// `fireWallMs` (`osRemovedFires`) and no ready bridge step has run since the removal.
    func removedUnseenByOS(rootID: String, fireWallMs: Int64) -> Bool {
        setup.platform == .ios && oracle.osRemovedFires.contains { removed in
            removed.rootID == rootID && removed.fireWallMs == fireWallMs && process.lastReadyStepMs < removed.removedMs
        }
    }

    /// [limit] `os-removed-alarm`, for ownership (IOS-5, OCC-2, OCC-3): an earlier ring time of
    /// another root whose ring the OS removed unheard before that time, with no ready bridge step
    /// since the ring time, within the life that root's occurrence would have had. The next bridge
    /// step reads the vanished ring exactly like one delivered and stopped inside one coalesced
    /// update, and may take that root as the first due (ios uniform seed 34999: a3's 07:02 removed
    /// at 05:43, a1.thu rang at 07:09; the bridge, resumed at 07:15, owned a3 and passed a1.thu
    /// over). Either may own: a tie the bridge's books settle (`adoptBridgeTieOwner`). Once a
    /// bridge step has run after the ring time, `inferredIncumbent` decides instead.
    func tieInferableRemovedFire(rootID: String, fireWallMs: Int64) {
        guard setup.platform == .ios, let index = oracle.liveIndex, oracle.occurrences[index].rootID == rootID,
              oracle.occurrences[index].startWallMs == fireWallMs else { return }
        for removed in oracle.osRemovedFires where removed.rootID != rootID && removed.fireWallMs < fireWallMs
            && !oracle.occurrences[index].tiedRoots.contains(removed.rootID) {
            // No ready bridge step since the removal: one that ran in between saw the ring gone
            // before its time and knows it never rang (ios uniform seed 4992).
            // An occurrence the oracle gave up there as unobservable (an unseen one-shot ghost
            // alert, OpenMinis#115) is no record of it (ios swarm seeds 1652, 2741 of
            // --faults ghost-alert: a3's 07:50 ghost ended unseen, a1's 07:55 still alerting at
            // the launch, which inferred a3 first and owned it).
            guard process.lastReadyStepMs < removed.removedMs,
                  !oracle.occurrences.contains(where: { $0.startWallMs == removed.fireWallMs && $0.tiedRoots.contains(removed.rootID)
                      && $0.closeReason != "unobservable" }),
                  let alarm = alarms.first(where: { $0.roots.contains { $0.id == removed.rootID } }),
                  let root = alarm.root(withID: removed.rootID),
                  OracleOccurrence(id: 0, rootID: removed.rootID, alarmID: alarm.id, startWallMs: removed.fireWallMs,
                                   policy: root.policy).deadlineMs > fireWallMs else { continue }
            oracle.occurrences[index].tiedRoots.append(removed.rootID)
            oracle.occurrences[index].tiedStarts.append((removed.rootID, removed.fireWallMs))
            oracle.occurrences[index].tiedPolicies.append((removed.rootID, root.policy))
            record("oracle", "tied-root", [TraceField("root", removed.rootID), TraceField("with", rootID), TraceField("os-removed", "true")])
            countExemption("os-removed-alarm")
            enqueue(.oracleDeadline(occurrence: oracle.occurrences[index].id), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
        }
    }

    /// SCH-1, ID-8, REC-9: the wall clock was set back over the ring time that opened the live
    /// occurrence (`fireWallMs`, wall ms, of one of its tied roots): the same configured time
    /// again is that occurrence, whose primary already fired, not a new fire that owes a
    /// registered primary (ios uniform seed 1610 of `clock-set-back-after-trigger`: a one-shot
    /// live since 05:45, a 10 min set-back, and 05:45 judged as a dropped primary). Only while
    /// it is live and before its deadline; a closed one is `alreadyOpened`'s.
    ///
    /// A forward jump that then passes over that time again makes it due at the landing
    /// (`fireWallMs` later than the start): the same configured hour and minute of the same local
    /// day is still that occurrence (REC-1: once per configured day), not another root's pass-over
    /// (OCC-3; ios uniform seed 2265: a1.thu live since 08:31, a 10 min set-back, a 10 min jump
    /// forward over 08:31, and its AlarmKit-recomputed ring judged a pass-over of itself).
    func liveOccurrenceRelived(rootID: String, alarmID: String, fireWallMs: Int64) -> Bool {
        guard let index = oracle.liveIndex, oracle.occurrences[index].tiedRoots.contains(rootID),
              oracle.occurrences[index].deadlineMs > wallMs else { return false }
        let start = oracle.occurrences[index].startWallMs
        if start != fireWallMs {
            guard start < fireWallMs, calendar.localDate(start) == calendar.localDate(fireWallMs),
                  let alarm = alarms.first(where: { $0.id == alarmID }) else { return false }
            let local = calendar.local(start)
            guard local.hour == alarm.hour && local.minute == alarm.minute else { return false }
        }
        record("oracle", "live-occurrence-time-relived", [TraceField("root", rootID)])
        return true
    }

    /// INACT-22: whether an occurrence of `rootID` starting at `fireWallMs` (wall ms) with no
    /// activity is already past its deadline now.
    func expiredAtDelivery(rootID: String, alarmID: String, fireWallMs: Int64) -> Bool {
        let policy = alarms.first { $0.id == alarmID }?.roots.first { $0.id == rootID }?.policy ?? .v3
        return OracleOccurrence(id: 0, rootID: rootID, alarmID: alarmID, startWallMs: fireWallMs, policy: policy).deadlineMs <= wallMs
    }

    /// Opens the live occurrence of `rootID` whose ring time is `startWallMs` (wall ms), binds the
    /// alerts already sounding for it, and schedules its deadline and first gap check.
    /// - Parameter clockOffsetMs: REC-9 corrections it was already live across (ms).
    func oracleOpen(rootID: String, alarmID: String, startWallMs fireWallMs: Int64, clockOffsetMs: Int64 = 0) {
        let root = alarms.first { $0.id == alarmID }?.roots.first { $0.id == rootID }
        var occurrence = OracleOccurrence(id: oracle.occurrences.count + 1, rootID: rootID, alarmID: alarmID,
                                          startWallMs: fireWallMs, policy: root?.policy ?? .v3)
        occurrence.clockOffsetMs = clockOffsetMs
        occurrence.gapStartMs = nowMs
        occurrence.openedAtMs = nowMs
        occurrence.tiedRoots = [rootID]
        oracle.occurrences.append(occurrence)
        record("oracle", "occurrence-live", [TraceField("occurrence", String(occurrence.id)), TraceField("root", rootID)])
        // The platform may have started the alert a moment before this event ran (same instant,
        // queued later after a clock or zone change re-planned the oracle): bind it now.
        // An alert made inaudible by a [limit] (Silent mode, a call) is bound too: it is the
        // occurrence's alert, and only it can make the silencing exemptions apply.
        let audible = audibleRings().map(\.id)
        for ring in alertingRings() where ring.metadata.kind.opensOccurrence && ring.metadata.rootID == rootID {
            oracleAlertStarted(ring.id, ring.metadata)
            // Its sound counts (invariant 34); an iOS muted one is recorded unheard (`noteMutedRing`).
            if audible.contains(ring.id) || ios != nil { soundAlertStarted(ring.id, ring.metadata) }
        }
        enqueue(.oracleDeadline(occurrence: occurrence.id), afterMs: occurrence.deadlineMs - wallMs)
        enqueue(.gapCheck, afterMs: setup.transitionBoundMs + 1)
        livenessOccurrenceOpened(occurrence)  // convergence: audible within B_AUD (Liveness.swift)
    }

    /// The platform just held back the delivery of ring `id`: if the oracle opened (or joined) an
    /// occurrence for its root at this very instant, that root becomes due only when the platform
    /// delivers it (see `lateOracleFires`).
    ///
    /// - Parameter fireWallMs: Android: the held alarm's configured trigger (wall ms). AlarmManager
    ///   may deliver after the oracle opened the occurrence (the 5 s floor of a ring re-armed at
    ///   its own time, android seed 345), so the occurrence it opened is the one of that ring
    ///   time, not one opened this instant. nil (iOS): the fire event is at the fire time.
    func deferOracleFire(forHeld id: AlarmUUID, fireWallMs: Int64? = nil) {
        guard let metadata = groundTruthMetadata(id), metadata.kind.opensOccurrence, let index = oracle.liveIndex,
              oracle.occurrences[index].tiedRoots.contains(metadata.rootID) else { return }
        if let fireWallMs {
            // A held copy of a primary whose delivery the bridge already saw open this
            // occurrence (a re-registration after its ring time) is not its opening delivery.
            // (android uniform seed 306). A tied root's held delivery is still deferred (seed 2569).
            var own = oracle.occurrences[index]
            own.rootID = metadata.rootID
            guard oracle.occurrences[index].startWallMs == fireWallMs, !bridgeObservedOccurrence(own) else { return }
        } else {
            guard oracle.occurrences[index].openedAtMs == nowMs else { return }
        }
        let occurrence = oracle.occurrences[index]
        lateOracleFires.append((id, metadata.rootID, metadata.alarmID, occurrence.startWallMs, occurrence.clockOffsetMs))
        record("oracle", "due-when-delivered-late", [TraceField("root", metadata.rootID)])
        // A root tied only because the OS removed its earlier ring unheard (`tieInferableRemovedFire`)
        // ties with this delivery, not in its place: it goes with it (ios uniform seed 4992).
        let remaining = occurrence.tiedRoots.filter { root in
            root != metadata.rootID && !occurrence.tiedStarts.contains { tie in
                tie.root == root && oracle.osRemovedFires.contains { $0.rootID == root && $0.fireWallMs == tie.startWallMs }
            }
        }
        if remaining.isEmpty {
            oracle.occurrences.remove(at: index)
        } else {
            if occurrence.rootID == metadata.rootID { resolveTie(index, owner: remaining[0]) }
            oracle.occurrences[index].tiedRoots = remaining
        }
    }

    /// The bridge accepted a one-time snooze: judged against the oracle's own record (candidate
    /// invariants 8 and 9), then the occurrence's deadline baseline moves to it (INACT-9).
    func oracleSnoozeAccepted(untilMs: Int64) {
        guard let index = oracle.liveIndex else {
            if let live = process.document?.liveOccurrence {
                oracle.unownedSnooze = (live.rootID, live.startedAtMs, untilMs - (wallMs - nowMs))
            }
            return
        }
        if let earlier = oracle.occurrences[index].snoozeUntilMs {
            violate("snooze-once", [], "a second snooze (until \(wallText(untilMs))) was accepted for the occurrence of \(oracle.occurrences[index].rootID), which already had one until \(wallText(earlier))")
            return
        }
        if let request = snoozeRequests.last(where: { $0.untilMs == untilMs }) {
            let minLead = configuration().minSnoozeLeadMs
            if untilMs < request.atWallMs + minLead || untilMs > request.atWallMs + 30 * 60_000 {
                violate("snooze-window", [], "snooze until \(wallText(untilMs)) accepted for a request at \(wallText(request.atWallMs)): outside [+\(HumanText.duration(minLead)), +30 min]")
                return
            }
        }
        oracle.occurrences[index].snoozeUntilMs = untilMs
        enqueue(.oracleDeadline(occurrence: oracle.occurrences[index].id), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
    }

    /// True when the platform holds an occurrence-opening ring of `rootID` for the ring time
    /// `fireWallMs` (iOS: a primary or seed in AlarmKit; Android: a pending or just-delivered primary).
    /// A ring time a forward clock jump went over is due at the jump (`fireWallMs` is the wall
    /// clock after it) while the platform's ring keeps its own instant: an iOS `.fixed` one (REC-4)
    /// and an Android RTC one alert at the jump with their ring time unchanged, so that instant
    /// (`jumpedOverRingTimes`) holds the day too (ios uniform seed 29247: a skip-date weekly's
    /// `.fixed` 05:20, its save interrupted by a process death, went over by a +1 h jump and
    /// alerted; the oracle, looking for 06:09, excused the day as an interrupted save's time).
    func platformHoldsPrimary(rootID: String, fireWallMs: Int64) -> Bool {
        if platformHoldsPrimary(rootID: rootID, ringWallMs: fireWallMs) { return true }
        guard let ringWallMs = jumpedOverRingTime(rootID: rootID, dueWallMs: fireWallMs) else { return false }
        return platformHoldsPrimary(rootID: rootID, ringWallMs: ringWallMs)
    }

    /// The ring time a forward jump went over for `rootID`, when its fire time is due at
    /// `dueWallMs` because of that jump (World+Device.swift, `replanOracleFireTimes`).
    func jumpedOverRingTime(rootID: String, dueWallMs: Int64) -> Int64? {
        jumpedOverRingTimes.last(where: { $0.rootID == rootID && $0.dueWallMs == dueWallMs })?.ringWallMs
    }

    private func platformHoldsPrimary(rootID: String, ringWallMs fireWallMs: Int64) -> Bool {
        if let daemon = ios {
            // A seed at the fire time holds it too: it opens the occurrence if it fires (REC-5).
            return daemon.alarms.contains { $0.metadata.rootID == rootID && $0.metadata.kind.opensOccurrence && $0.nextFireWallMs == fireWallMs }
        }
        if let held = androidReleasing, held.metadata.rootID == rootID, held.metadata.kind == .primary, held.triggerWallMs == fireWallMs {
            return true  // the held primary AlarmManager is delivering now (it left `pending` with the delivery)
        }
        if deliveredPrimaryThisInstant(rootID: rootID, fireWallMs: fireWallMs) { return true }
        return android?.pending.contains { $0.metadata.rootID == rootID && $0.metadata.kind == .primary && $0.triggerWallMs == fireWallMs } ?? false
    }

    /// Android: AlarmManager delivered the root's primary for `fireWallMs` at this very instant,
    /// before the oracle's fire-time event ran (two events of one instant run in the order they
    /// were queued, and AlarmManager's kernel alarm, re-armed after its previous delivery, may
    /// have been queued before the oracle's fire time). The platform held that primary until its
    /// ring time, so the day is held (OCC-2, glossary: "begins at its configured ring time once
    /// delivered"), and no excuse for an unregistered primary applies to it. Without this the
    /// order of one instant decided the oracle's judgment: with scheduling disabled by the kill
    /// switch (android kill-switch-disabled scoreboard row, seed 122: the 08:51 primary, registered
    /// two days before, delivered first) the day was excused as unregistered under
    /// `kill-switch-disabled`, and the oracle opened no occurrence while the bridge held one live
    /// and armed its successor; other rows' excuses (force-stop, authorization) read it the same way.
    func deliveredPrimaryThisInstant(rootID: String, fireWallMs: Int64) -> Bool {
        guard let manager = android else { return false }
        let elapsedMs = androidNow.elapsedRealtimeMs
        return manager.deliveryLog.contains { delivery in
            guard delivery.deliveredElapsedMs == elapsedMs, delivery.triggerWallMs == fireWallMs,
                  let metadata = requestMetadata[delivery.id] ?? groundTruthMetadata(delivery.id) else { return false }
            return metadata.kind == .primary && metadata.rootID == rootID
        }
    }

    /// INACT-2, INACT-22: the live occurrence expires when the wall clock reaches its deadline.
    /// Deadline events are queued in true time; a set-back that moved no deadline (an unseen
    /// correction after a boot, `clock-jump-ambiguous-start`) makes one arrive before the wall
    /// deadline, so it re-arms for the rest (ios seed 3694: a v3 occurrence never expired after a
    /// 10 min set-back with no process, and the oracle held it live 14 h later).
    func oracleDeadline(_ occurrenceID: Int) {
        guard let index = oracle.occurrences.firstIndex(where: { $0.id == occurrenceID }), oracle.occurrences[index].live else { return }
        let deadline = oracle.occurrences[index].deadlineMs
        if wallMs >= deadline {
            oracleClose(index, reason: "expired")
        } else {
            enqueue(.oracleDeadline(occurrence: occurrenceID), afterMs: deadline - wallMs)
        }
    }

    func oracleClose(_ index: Int, reason: String) {
        oracle.occurrences[index].live = false
        oracle.occurrences[index].closedAtMs = nowMs
        oracle.occurrences[index].closedAtWallMs = wallMs
        oracle.occurrences[index].closeReason = reason
        record("oracle", "occurrence-closed", [TraceField("occurrence", String(oracle.occurrences[index].id)), TraceField("reason", reason)])
        enqueue(.gapCheck, afterMs: setup.transitionBoundMs + 1)
    }

    func oracleCompleted(rootID: String) {
        guard let index = oracle.liveIndex, oracle.occurrences[index].tiedRoots.contains(rootID) else { return }
        oracleClose(index, reason: "completed")
        oracle.occurrences[index].firstExecutionAfterCloseMs = nowMs
    }

    /// OCC-20, OCC-24, IOS-5: the first ready bridge step after an occurrence closed starts its
    /// no-resurrection and receipt windows. On iOS, for an occurrence no bridge step ever recorded
    /// (its alert began and expired unseen), only a step that shows the daemon's inventory
    /// (`showsDaemon`: a read, an `alarmUpdates` set) can learn that its ring sounds: a step
    /// for another input, with AlarmKit holding its updates while the phone is locked, knows of
    /// no occurrence to retire (ios uniform seed 40043: a2.tue alerted at 08:58 and expired at
    /// 09:13 with updates held; a health-access step at 09:55 saw nothing of it).
    func oracleNoteExecution(showsDaemon: Bool = true) {
        for index in oracle.occurrences.indices.reversed() {
            if oracle.occurrences[index].live { continue }
            if oracle.occurrences[index].firstExecutionAfterCloseMs != nil { break }
            if ios != nil && !showsDaemon && !bridgeObservedOccurrence(oracle.occurrences[index]) { continue }
            oracle.occurrences[index].firstExecutionAfterCloseMs = nowMs
        }
    }

    /// OCC-3: a ring time of the owner's own root (another time of an edited alarm, an
    /// interrupted save's leftover) that came while its occurrence was live is a pass-over: its
    /// alert is no pressure of that occurrence, and silencing it retires none (ios swarm seed
    /// 35570: a1.sun's 06:45 primary of an interrupted edit rang during the 06:35 occurrence; the
    /// bridge stopped it as a pass-over before re-arming the successor the user's Stop ended).
    /// The alert may start before or after the oracle's fire-time event of the same instant.
    func unbindPassedOverAlert(rootID: String, fireWallMs: Int64) {
        guard let daemon = ios, let index = oracle.liveIndex else { return }
        let occurrenceID = oracle.occurrences[index].id
        for alarm in daemon.alarms where alarm.metadata.rootID == rootID && alarm.metadata.kind.opensOccurrence
            && alarm.state == .alerting && alarm.nextFireWallMs == fireWallMs && oracle.bindings[alarm.id] == occurrenceID {
            oracle.bindings[alarm.id] = nil
        }
    }

    /// True when `id` is an iOS alert of a ring time the oracle passed over (`unbindPassedOverAlert`).
    func isPassedOverAlert(_ id: AlarmUUID, _ metadata: RingMetadata) -> Bool {
        guard let fire = ios?.alarm(id)?.nextFireWallMs else { return false }
        return oracle.passedOver.contains { $0.rootID == metadata.rootID && $0.fireWallMs == fire }
    }

    func oracleAlertStarted(_ id: AlarmUUID, _ metadata: RingMetadata) {
        guard metadata.kind.opensOccurrence, let index = oracle.liveIndex,
              oracle.occurrences[index].tiedRoots.contains(metadata.rootID), !isPassedOverAlert(id, metadata) else { return }
        oracle.bindings[id] = oracle.occurrences[index].id
        if setup.platform == .android && oracle.occurrences[index].tiedRoots.count > 1 {
            // Android rings only the owner: the first tied root to ring is the platform's choice.
            resolveTie(index, owner: metadata.rootID)
        }
    }

    /// OCC-2, OCC-3: on iOS every tied root alerts and the bridge settles the tie — it keeps one
    /// root as the owner and silences the others as pass-overs (`oracleTiedPassOver`). When those
    /// alerts ended before the bridge acted (the user's Stop on one came first), no audible
    /// silencing settles it, and the oracle kept the most lenient tied policy for good (ios
    /// uniform seed 12001: a2.mon (v3, 06:05, delivered late) and a1.mon (legacy, 06:07) tied;
    /// the bridge owned with a2.mon, expired it at 06:37, and took a3.mon's 07:07 as a new
    /// occurrence the oracle held a pass-over). The bridge's books settle it then: the live
    /// occurrence it opened for one of the tied roots at that root's ring time.
    func adoptBridgeTieOwner(_ bridge: any BridgeUnderTest) {
        guard setup.platform == .ios, let index = oracle.liveIndex, oracle.occurrences[index].tiedRoots.count > 1,
              let live = bridge.document?.liveOccurrence, oracle.occurrences[index].tiedRoots.contains(live.rootID) else { return }
        let occurrence = oracle.occurrences[index]
        let start = occurrence.tiedStarts.first { $0.root == live.rootID }?.startWallMs ?? occurrence.startWallMs
        guard live.startedAtMs == start else { return }
        // The losers' sounding rings are pass-overs now, no pressure of the occurrence: the
        // bridge's silencing of them that follows is no retirement of its pressure (as in
        // `oracleTiedPassOver`; ios uniform seed 20110).
        for loser in occurrence.tiedRoots where loser != live.rootID {
            for (id, _) in tiedOwnerAlerting(loser) where oracle.bindings[id] == occurrence.id { oracle.bindings[id] = nil }
        }
        resolveTie(index, owner: live.rootID)
    }

    /// The tie settled on `owner`: the latest credits, when they were Stops of other tied roots'
    /// rings (pass-overs now, OCC-3), are undone, back to the activity before them (ios uniform
    /// seed 12001: a Stop of a1.mon, which lost the tie to a2.mon, moved a2.mon's deadline).
    func revertPassedOverCredits(_ index: Int, owner: String) {
        var credits = oracle.occurrences[index].tiedCredits
        while let last = credits.last, last.root != owner, oracle.occurrences[index].lastActivityMs == last.wallMs {
            oracle.occurrences[index].lastActivityMs = last.previous
            credits.removeLast()
        }
    }

    /// OCC-3, OCC-20: a tied root that lost the tie was passed over at its own ring time (its
    /// late-delivered start, or the occurrence's), so that ring time, re-lived after a clock set
    /// back, is no new occurrence (`alreadyOpened`), as for any other pass-over. Forgetting it
    /// opened one (ios uniform seed 61669: a3's one-shot 06:31 tied with a1.sat's late 06:29 and
    /// lost; after a 1 h set-back a3 rang at 06:31 again, the bridge silenced it as "pass-over
    /// again", and the oracle held an occurrence of it live with no pressure).
    func notePassedOverTiedRoot(_ index: Int, _ loser: String) {
        let occurrence = oracle.occurrences[index]
        let start = occurrence.tiedStarts.first { $0.root == loser }?.startWallMs ?? occurrence.startWallMs
        guard !oracle.passedOver.contains(where: { $0.rootID == loser && $0.fireWallMs == start }) else { return }
        oracle.passedOver.append((loser, start))
        if oracle.passedOver.count > 64 { oracle.passedOver.removeFirst() }
    }

    /// Whether the platform holds a late delivery of a ring that opens `rootID`'s occurrence.
    func deliveryHeld(_ rootID: String) -> Bool {
        lateHeld.contains { groundTruthMetadata($0).map { $0.kind.opensOccurrence && $0.rootID == rootID } ?? false }
    }

    /// Settles which of several simultaneously due roots owns the occurrence.
    func resolveTie(_ index: Int, owner rootID: String) {
        guard let root = alarms.flatMap(\.roots).first(where: { $0.id == rootID }) else { return }
        // A loser whose delivery the platform still holds (late delivery) has not rung: it begins
        // at its ring time once delivered (glossary; OCC-2), so it is not passed over yet (ios
        // uniform seed 10649: a1 tied with a3 at 09:39, a1's delivery held 115 s; recorded as
        // passed over, its delivery after a3's completion read as a closed occurrence's).
        for loser in oracle.occurrences[index].tiedRoots where loser != rootID && !deliveryHeld(loser) {
            notePassedOverTiedRoot(index, loser)
        }
        oracle.occurrences[index].rootID = rootID
        oracle.occurrences[index].alarmID = root.alarmID
        oracle.occurrences[index].policy = root.policy
        if let start = oracle.occurrences[index].tiedStarts.first(where: { $0.root == rootID })?.startWallMs {
            oracle.occurrences[index].startWallMs = start  // the late-delivered root owns from its ring time
        }
        revertPassedOverCredits(index, owner: rootID)
        oracle.occurrences[index].tiedRoots = [rootID]
        oracle.occurrences[index].tiedPolicies = []
        oracle.occurrences[index].tiedStarts = []
        oracle.occurrences[index].tiedCredits = []
        record("oracle", "tie-resolved", [TraceField("owner", rootID)])
        // SND-13: the owner's primary may have reached alerting before the oracle learned of the
        // tie (iOS alerts every tied root at the same instant): it alerted unsuppressed after all.
        // It opens the occurrence: bind it and feed the sound truth now (SND-2, SND-7).
        for (id, metadata) in tiedOwnerAlerting(rootID) where oracle.bindings[id] == nil {
            oracle.bindings[id] = oracle.occurrences[index].id
            soundAlertStarted(id, metadata)
        }
        enqueue(.oracleDeadline(occurrence: oracle.occurrences[index].id), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
    }

    /// Whether the running bridge has opened (or closed) this occurrence in its own books: it
    /// observed the delivery, so the order it saw is the platform's.
    /// A process that saw the occurrence open and persisted it saw it, even if it died since (an
    /// OEM battery killer, android seeds 1868 and 2569 of the fault catalog): the next process
    /// loads that record, so the order the app can see is settled.
    func bridgeObservedOccurrence(_ occurrence: OracleOccurrence) -> Bool {
        let observed: (BridgeDocument?) -> Bool = { document in
            document?.occurrences.contains { $0.rootID == occurrence.rootID && $0.startedAtMs == occurrence.startWallMs } == true
        }
        return observed(process.document) || observed(storedDocument)
    }

    /// The rings opening an occurrence of `rootID` that are audible on the platform now.
    func tiedOwnerAlerting(_ rootID: String) -> [(AlarmUUID, RingMetadata)] {
        if let daemon = ios {
            return daemon.alarms.filter { $0.metadata.rootID == rootID && $0.metadata.kind.opensOccurrence && daemon.isAudible($0.id) }
                .map { ($0.id, $0.metadata) }
        }
        guard let manager = android else { return [] }
        return manager.ringing.compactMap { id in
            guard let metadata = manager.ringingMetadata(id), metadata.rootID == rootID, metadata.kind.opensOccurrence,
                  manager.isAudible(id) else { return nil }
            return (id, metadata)
        }
    }

    /// iOS alerts every tied root at once; the one silenced as a pass-over is not the owner.
    func oracleTiedPassOver(_ id: AlarmUUID) {
        guard let index = oracle.liveIndex, oracle.occurrences[index].tiedRoots.count > 1,
              let metadata = requestMetadata[id], metadata.kind.opensOccurrence,
              oracle.occurrences[index].tiedRoots.contains(metadata.rootID), isAudible(id) else { return }
        oracle.bindings[id] = nil
        notePassedOverTiedRoot(index, metadata.rootID)
        let remaining = oracle.occurrences[index].tiedRoots.filter { $0 != metadata.rootID }
        if oracle.occurrences[index].rootID == metadata.rootID || remaining.count == 1 {
            resolveTie(index, owner: remaining[0])
        }
        oracle.occurrences[index].tiedRoots = remaining
    }

    func oracleAlertEnded(_ id: AlarmUUID, _ metadata: RingMetadata) {
        if metadata.kind.opensOccurrence { oracle.bindings[id] = nil }  // a re-armed weekly primary is the next occurrence's
    }

    func oracleBind(_ request: RingRequest) {
        requestMetadata[request.id] = request.metadata
        guard request.metadata.kind.isOccurrenceBound, let index = oracle.liveIndex,
              oracle.occurrences[index].tiedRoots.contains(request.metadata.rootID) else { return }
        oracle.bindings[request.id] = oracle.occurrences[index].id
    }

    /// Genuine activity (INACT-4) is credited when the bridge could observe it (candidate invariant 16).
    func oracleCredit(_ id: AlarmUUID, creditNow: Bool) {
        guard let index = oracle.liveIndex else { return }
        let occurrence = oracle.occurrences[index]
        let metadata = requestMetadata[id]
        let bound = oracle.bindings[id] == occurrence.id || (metadata?.kind.opensOccurrence == true && occurrence.tiedRoots.contains(metadata?.rootID ?? ""))
        guard bound else { return }
        if creditNow {
            if occurrence.tiedRoots.count > 1, let metadata, metadata.kind.opensOccurrence {
                oracle.occurrences[index].tiedCredits.append((metadata.rootID, wallMs, occurrence.lastActivityMs))
            }
            oracle.occurrences[index].lastActivityMs = wallMs
            enqueue(.oracleDeadline(occurrence: occurrence.id), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
        } else {
            if oracle.pendingCredit != occurrence.id { oracle.pendingCreditRoots = [] }
            oracle.pendingCredit = occurrence.id
            oracle.pendingCreditRoots.append(metadata?.kind.opensOccurrence == true ? metadata?.rootID : nil)
            if oracle.pendingCreditRoots.count > 16 { oracle.pendingCreditRoots.removeFirst() }
        }
    }

    func oracleGateReleased() {
        if process.active { notePrimaryFailureOpenings() }  // SCH-24: the opening can act now
        if let stepped = walkWorld.stepCreditPending {
            walkWorld.stepCreditPending = nil
            if let index = oracle.liveIndex, oracle.occurrences[index].id == stepped {
                oracle.occurrences[index].lastActivityMs = wallMs
                enqueue(.oracleDeadline(occurrence: stepped), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
            }
        }
        guard let credited = oracle.pendingCredit else { return }
        let roots = oracle.pendingCreditRoots
        oracle.pendingCredit = nil
        oracle.pendingCreditRoots = []
        // Only the occurrence the dismissal was for (ios seed 712: a journalled Stop of an earlier
        // occurrence credits nothing to the one live at the gate's release).
        guard let index = oracle.liveIndex, oracle.occurrences[index].id == credited else {
            return creditUnobservedIncumbent(credited)
        }
        // OCC-3, INACT-4: the tie settled on another root while the credit waited (a release that
        // wrote nothing re-pends it, `keepUnwrittenReleaseCredit`): that root's Stop was a
        // passed-over ring's and credits nothing, as a reverted tied credit (ios uniform seed
        // 51401: a2's late 08:09 primary stopped at 08:12, a1.wed won the tie at the launch read).
        let tied = oracle.occurrences[index].tiedRoots
        let counted = roots.filter { root in root.map { tied.contains($0) } ?? true }
        guard !counted.isEmpty else { return }
        if tied.count > 1 {
            // A Stop of a tied root's ring, credited late: a settlement on another root reverts it
            // like one credited at once (ios uniform seed 9632: the Stop of a3.mon, queued behind a
            // held gate, moved a1.mon's deadline after a1.mon won the tie at the release).
            for root in counted.compactMap({ $0 }) {
                oracle.occurrences[index].tiedCredits.append((root, wallMs, oracle.occurrences[index].lastActivityMs))
                oracle.occurrences[index].lastActivityMs = wallMs
            }
        }
        oracle.occurrences[index].lastActivityMs = wallMs
        enqueue(.oracleDeadline(occurrence: oracle.occurrences[index].id), afterMs: oracle.occurrences[index].deadlineMs - wallMs)
    }

    /// INACT-4, INACT-13, OCC-2: a Stop that reached a process held at its gate is journalled
    /// (ACT-1); when a reboot then ended the alert before any ready process saw the occurrence, the
    /// oracle closed it as `unobservable`, yet the release that replays the journal learns of it
    /// and credits the Stop there, as for a live one. That credit moves the deadline
    /// ``unobservedIncumbent(rootID:fireWallMs:)`` judges ownership by, so a later root due before
    /// it is the pass-over the bridge makes of it (ios uniform seed 47712: a1.sun 07:25 stopped at
    /// 07:29 behind the locked gate, a reboot at 07:39, the 07:46 release credited the Stop and
    /// held a1.sun until 08:16, passing a3.sun's 08:11 over).
    func creditUnobservedIncumbent(_ credited: Int) {
        guard oracle.liveIndex == nil, let index = oracle.occurrences.indices.last,
              oracle.occurrences[index].id == credited, oracle.occurrences[index].closeReason == "unobservable" else { return }
        oracle.occurrences[index].lastActivityMs = wallMs
        record("oracle", "credit-unobservable-incumbent", [TraceField("occurrence", String(credited))])
    }

    /// `primary-unregistered-by-fault` names only the interval in which the bridge could not yet
    /// have retried: a failed primary is re-requested with backoff, at most
    /// `BridgeConfiguration.primaryRetryBoundMs` apart, while the process lives ([derived]
    /// WALK-18, AND-3), and every launch or resume re-plans (SCH-24). True when a process has
    /// been able to run (running, not suspended) for longer than that bound plus T_OP since the
    /// later of the latest failure and its own start or resume: the retry was due, and a primary
    /// still missing then is the bridge's gap, not the fault's. A suspended iOS app runs nothing,
    /// so the exemption lasts until it runs again.
    ///
    /// SCH-24: whenever the app is opened, the bridge registers the missing wanted rings in that
    /// same execution, so an opening of the app after the failure ends the exemption T_OP later,
    /// suspended or not since (before, a suspended iOS app kept it for ever: a bridge that never
    /// asked again passed on iOS). ``notePrimaryFailureOpenings()`` records that opening.
    func primaryRetryWasDue(_ rootID: String) -> Bool {
        if let opened = oracle.primaryOpenedSinceFailure[rootID], nowMs - opened > setup.transitionBoundMs { return true }
        guard let failedAtMs = oracle.primaryFailures[rootID], process.running, !process.suspended else { return false }
        return nowMs - max(failedAtMs, process.upSinceMs) > BridgeConfiguration.primaryRetryBoundMs + setup.transitionBoundMs
    }

    /// `arm-failed-no-predecessor` names only the interval in which the bridge could not yet have
    /// asked again: a refused successor arm is retried on the `armRetry` timer for as long as the
    /// process that saw the refusal lives — `BridgeConfiguration.defaultArmRetryDelayMs` later for
    /// the first `defaultArmRetryMax` refusals in a row, then with the primary retry's backoff
    /// (``BridgeConfiguration/defaultSuccessorRetryDelayMs(afterRefusals:)``; OCC-5, [derived]
    /// WALK-18; issue 16: the best the platform allows after a failed write). True when that
    /// process has been able to run (running, not suspended) for longer than that retry's delay
    /// plus T_OP since the later of the refusal and its own resume: the retry was due, and a gap
    /// then is the bridge's, not the fault's. A later process keeps the exemption as before.
    /// (Before, the exemption ended at the third refusal's 1 s while the bridge had stopped
    /// asking; android uniform seed 34730.)
    func successorRetryWasDue() -> Bool {
        guard let failure = successorArmFailure, failure.incarnation == process.incarnation,
              process.running, !process.suspended else { return false }
        return nowMs - max(failure.atMs, process.upSinceMs) > failure.retryDelayMs + setup.transitionBoundMs
    }

    /// Keeps ``successorArmFailure`` and the refusal count in step with the bridge's
    /// `successorRefusals`: reset by an accepted request (one bound to a closed occurrence resets
    /// nothing here, so the oracle's count is never below the bridge's), raised by a refused
    /// successor.
    func noteRetryBudget(_ id: AlarmUUID, _ kind: RingKind, token: String?, success: Bool) {
        if successorRefusals.incarnation != process.incarnation { successorRefusals = (process.incarnation, 0) }
        if success {
            let closedOccurrence = token != nil && oracle.liveIndex.map { oracle.bindings[id] != oracle.occurrences[$0].id } ?? true
            if !closedOccurrence { successorRefusals.count = 0 }
            if kind == .successor { successorArmFailure = nil }
            return
        }
        switch kind {
        case .successor:
            successorRefusals.count += 1
            let delayMs = BridgeConfiguration.defaultSuccessorRetryDelayMs(afterRefusals: successorRefusals.count)
            successorArmFailure = (nowMs, process.incarnation, delayMs)
        case .walkFuse:
            successorArmFailure = nil  // WALK-18: the fuse's own rule, as before
        default:
            break
        }
    }

    /// SCH-24: the app was opened; every root with a failed primary and no opening since its
    /// failure records this one (``primaryRetryWasDue(_:)``). An opening counts from the moment
    /// the bridge can act on it: a process still held at its launch gate (protected data, a
    /// damaged saved domain, BOOT-5) cannot know what to register, so it is recorded at the
    /// gate's release while the app is still open (ios uniform seed 66270: a1.sun's re-registration
    /// failed twice and the process died; the 02:54 opening found the domain damaged, the gate
    /// held until the app was suspended, and 05:56 was judged the bridge's gap).
    func notePrimaryFailureOpenings() {
        guard process.isAcceptingInputs == true else { return }
        for rootID in oracle.primaryFailures.keys.sorted() where oracle.primaryOpenedSinceFailure[rootID] == nil {
            oracle.primaryOpenedSinceFailure[rootID] = nowMs
        }
    }

    func noteScheduleResult(_ id: AlarmUUID, success: Bool) {
        guard let metadata = requestMetadata[id] else { return }
        noteRetryBudget(id, metadata.kind, token: metadata.token, success: success)
        switch (metadata.kind, success) {
        case (.primary, true):
            oracle.primaryFaultRoots.remove(metadata.rootID)
            oracle.primaryFailures[metadata.rootID] = nil
            oracle.primaryOpenedSinceFailure[metadata.rootID] = nil
        case (.primary, false):
            oracle.primaryOpenedSinceFailure[metadata.rootID] = nil
            oracle.primaryFaultRoots.insert(metadata.rootID)
            oracle.primaryFailures[metadata.rootID] = nowMs
        case (.successor, true): armFailureExempt = false
        case (.successor, false): armFailureExempt = true
        case (.seed, _): break  // REC-7: optional durability; its failure exempts nothing (CAP-9 counts it)
        case (.snooze, _): break  // SNZ-9: a failed snooze leaves the prior pressure; it is no trigger
        case (.walkFuse, let accepted):
            walkFuseRequestCompleted(id)
            armFailureExempt = !accepted  // WALK-18: the predecessor (if any) stays; none: named
        case (.legacyCadence, _), (.legacyForegroundMaintenance, _), (.legacyFusePair, _), (.legacySafetyRelay, _), (.legacyWalkCadence, _):
            break  // BOOT-11: never requested by the current bridge (no-legacy-rings flags one that is)
        }
    }
}

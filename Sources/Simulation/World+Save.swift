import AlarmBridge
import SimKernel

/// An edit the simulated user makes in the app's alarm editor (API-19). Title and time edits
/// have their own plan actions (`userEditTitle`, `userEditTime`).
public enum AlarmEdit: Sendable, Equatable {
    /// A new time of day (a one-shot moves to its next such local time after the edit).
    case time(hour: Int, minute: Int)
    case weekdays([Weekday])
    case sounds(SoundSettings?)
    case policy(InactivityPolicy)
    case challenge(ChallengeKind)
    /// AlarmKit countdown (ID-4, ID-5: only its presence is a fingerprint input).
    case countdown(CountdownDuration?)
    case enabled(Bool)

    func apply(to alarm: inout LogicalAlarm, calendar: WallCalendar, nowWallMs: Int64) {
        switch self {
        case .time(let hour, let minute):
            alarm.hour = hour
            alarm.minute = minute
            if case .once = alarm.repeats {
                alarm.repeats = .once(fireWallMs: calendar.nextFire(hour: hour, minute: minute, weekday: nil, after: nowWallMs))
            }
        case .weekdays(let days):
            guard case .weekly = alarm.repeats, !days.isEmpty else { return }
            alarm.repeats = .weekly(days.sorted())
        case .sounds(let sounds): alarm.sounds = sounds
        case .policy(let policy): alarm.policy = policy
        case .challenge(let challenge): alarm.challenge = challenge
        case .countdown(let countdown): alarm.countdown = countdown
        case .enabled(let enabled): alarm.enabled = enabled
        }
    }
}

/// The app's (JS's) view of its direct saves: the definitions awaiting a reply, and which alarms
/// the bridge has accepted. `World.alarms` is the oracle's "configured" set: it follows only
/// saves that succeeded (or whose persisted definition stands after a process death).
struct JSSaveState {
    /// The latest definition JS saved per alarm and is still waiting on. Sorted by ID.
    var pending: [LogicalAlarm] = []
    /// Alarms the bridge accepted at least once (so a failed save restores, not removes, them).
    /// Looked up only; reported sorted.
    var accepted: Set<String> = []
    /// Alarms whose failed save JS already retried once (cleared by a success).
    var retried: [String] = []
    /// Alarms whose save a process death interrupted: the previous definition's fire times stay
    /// until a later process's sync ran.
    var interrupted: [String] = []
    /// The definitions those interrupted saves replaced: their fire times are re-planned with the
    /// configured ones after a clock or zone change until that sync ran (ios seed 1278).
    var interruptedPrevious: [LogicalAlarm] = []
    /// The definitions those interrupted saves replaced, whose fire times stay queued (and whose
    /// rings may still ring) until `unscheduleOracleFireTimes` drops them (REC-1, SCH-10).
    var keptPrevious: [LogicalAlarm] = []
    /// Definitions a newer save of the same alarm replaced while they awaited their reply (the
    /// bridge answers them `superseded`), newest last, bounded: their primaries whose schedule
    /// was still in flight when the process died land and may ring (`keepSupersededInFlight`).
    var superseded: [LogicalAlarm] = []
    /// Bumped when the app is deleted: retries planned before it do nothing.
    var generation = 0
    /// Replies JS received, for scenario expectations: (alarm, "saved" or the failure reason).
    var outcomes: [(alarmID: String, outcome: String)] = []
}

/// Ground truth the save checkers keep (candidate invariants 30 and 40).
struct SaveTruth {
    /// Per alarm: the verification reads since its latest save: (true ms, the ring IDs read).
    var verificationReads: [(alarmID: String, atMs: Int64, ids: [AlarmUUID])] = []
    /// Per alarm: the daemon's pending primaries of the alarm when its latest save was requested.
    /// Looked up by alarm only, never iterated.
    var before: [String: [AlarmUUID]] = [:]
    /// The schedule each ring was last requested with (lookup only).
    var requestedSchedules: [AlarmUUID: RingSchedule] = [:]
    /// Rings the OS removed by an injected fault (not the bridge's doing).
    var osRemoved: [AlarmUUID] = []
    /// Verification reads the bridge requested and that have not arrived yet, in request order
    /// (reads answer in FIFO order). `stale`: requested before a newer save of the alarm, so the
    /// read belongs to the superseded save and does not count toward the newer one's SCH-9 budget.
    var verifyReadsIssued: [(alarmID: String, incarnation: Int, stale: Bool)] = []
}

extension World {
    // MARK: - The app's editor (API-19)

    /// The user edits an alarm; JS saves the edited definition through the direct save. An edit
    /// builds on the definition JS last saved (a save still verifying included).
    func editAlarm(_ alarmID: String, _ change: (inout LogicalAlarm) -> Void) {
        guard var edited = jsSaves.pending.sortedByIDElement(alarmID) ?? alarms.first(where: { $0.id == alarmID }) else { return }
        change(&edited)
        openApp()
        guard process.running else { return }
        jsSave(edited)
    }

    /// JS calls `saveAlarm` with `definition` and waits for the reply.
    func jsSave(_ definition: LogicalAlarm) {
        noteSaveRequested(definition.id)  // invariant 30's baseline
        if let replaced = jsSaves.pending.upsertSortedByID(definition) {
            jsSaves.superseded.append(replaced)
            if jsSaves.superseded.count > 8 { jsSaves.superseded.removeFirst() }
        }
        step(.api(.saveAlarm(definition)))
    }

    /// A generated edit of a non-identity or schedule attribute. Users do not edit an alarm while
    /// a wake-up is in progress: the generated edit is skipped then.
    func performEdit(_ alarmID: String, _ edit: AlarmEdit) {
        guard let current = jsSaves.pending.sortedByIDElement(alarmID) ?? alarms.first(where: { $0.id == alarmID }) else { return }
        var edited = current
        edit.apply(to: &edited, calendar: calendar, nowWallMs: wallMs)
        if oracle.liveIndex != nil || firesSoon(current) || firesSoon(edited) {
            // The oracle follows a definition once its save succeeded; a ring due within the
            // seconds of a verification would be judged against the previous one.
            record("plan", "ignored", [TraceField("why", "no editing during a wake-up or just before a ring")])
            return
        }
        editAlarm(alarmID) { edit.apply(to: &$0, calendar: calendar, nowWallMs: wallMs) }
    }

    /// True when a root of `alarm` is due within 15 min (or was due within the last minute).
    func firesSoon(_ alarm: LogicalAlarm) -> Bool {
        alarm.roots.contains { root in
            let next = root.onceFireWallMs ?? calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: wallMs - 60_000)
            return next > wallMs - 60_000 && next - wallMs < 15 * 60_000
        }
    }

    /// JS retries a failed save once (the user taps Save again).
    func retrySave(_ definition: LogicalAlarm, generation: Int) {
        let definition = replannedOneShot(definition)
        guard generation == jsSaves.generation, oracle.liveIndex == nil, !firesSoon(definition) else { return }
        guard !jsSaves.pending.searchSortedByID(definition.id).found else { return }
        let wasActive = process.running && process.active
        openApp()
        guard process.running else { return }
        record("app", "save-retry", [TraceField("alarm", definition.id)])
        jsSave(definition)
        if !wasActive { enqueue(.plan(.userLeaveApp), afterMs: 5_000) }  // the user came only to save
    }

    /// REC-8: the user's one-shot means "the next time the clock shows hh:mm". A definition JS
    /// keeps for a retry (or still awaits a reply for) was computed in the zone in force when the
    /// user saved; after a zone change JS saves the editor's hh:mm again, which is the next such
    /// local time now, as `changeTimeZone` re-plans the configured one-shots (ios uniform seed
    /// 15018: a retry after Berlin → UTC kept Berlin's 05:32 instant, 03:32 UTC, while AlarmKit's
    /// `.relative` ring, rightly, rang at 05:32 UTC).
    ///
    /// A kept instant that has passed follows the configured one-shot when the platform moved it
    /// to its next hh:mm and the oracle re-planned it (`replanHeldOneShot`: the held delivery was
    /// dropped, it never rang): the user tapping Save again means that next time, not the
    /// instant the first, failed save computed (ios swarm seed 65753: a2's 07:22 save failed at
    /// 07:19, a +90 s correction re-armed the held `.relative` ring for the next morning; the
    /// retry at 07:27 sent the past 07:22, so the oracle expected nothing while AlarmKit held
    /// tomorrow's 07:22). A passed instant whose delivery may still come stays as saved (ios
    /// swarm seed 1475: a retry 11 s after a held 08:18).
    func replannedOneShot(_ definition: LogicalAlarm) -> LogicalAlarm {
        guard case .once(let fire) = definition.repeats else { return definition }
        if fire <= wallMs, let configured = alarms.first(where: { $0.id == definition.id }),
           case .once(let next) = configured.repeats, next > wallMs,
           configured.hour == definition.hour, configured.minute == definition.minute {
            var copy = definition
            copy.repeats = .once(fireWallMs: next)
            return copy
        }
        guard fire > wallMs else { return definition }
        let local = calendar.local(fire)
        guard local.hour != definition.hour || local.minute != definition.minute else { return definition }
        var copy = definition
        copy.repeats = .once(fireWallMs: calendar.nextFire(hour: definition.hour, minute: definition.minute, weekday: nil, after: wallMs))
        return copy
    }

    // MARK: - Replies

    /// JS received the reply of a save or deletion.
    func jsSaveReplied(_ reply: APIReply) {
        switch reply {
        case .saved(let alarmID):
            jsSaves.outcomes.append((alarmID, "saved"))
            jsSaves.retried.removeAll { $0 == alarmID }
            jsSaves.accepted.insert(alarmID)
            let (index, found) = jsSaves.pending.searchSortedByID(alarmID)
            guard found else { return }
            adoptConfigured(jsSaves.pending.remove(at: index))
        case .saveFailed(let alarmID, let reason):
            jsSaves.outcomes.append((alarmID, reason.rawValue))
            let (index, found) = jsSaves.pending.searchSortedByID(alarmID)
            guard reason != .superseded, found else { return }
            let definition = jsSaves.pending.remove(at: index)
            // SCH-10: a root whose previous primary the platform still holds is not unregistered,
            // although the save's schedule call for it failed.
            for id in saveTruth.before[alarmID] ?? [] where platformHolds(id) {
                if let rootID = requestMetadata[id]?.rootID { oracle.primaryFaultRoots.remove(rootID) }
            }
            // (An alarm an older version saved, a legacy install's, was accepted before this run:
            // the bridge restored its previous definition, so it stays configured.)
            if !jsSaves.accepted.contains(alarmID), alarms.contains(where: { $0.id == alarmID }),
               (process.document ?? storedDocument)?.alarm(alarmID) == nil {
                // SCH-10: the bridge removed the brand-new alarm; it is not configured.
                alarms.removeAll { $0.id == alarmID }
                unscheduleOracleFireTimes(alarmID: alarmID)
            }
            // The app shows the failure; the user tries once more later (not for a missing
            // authorization: that needs Settings, SCH-26).
            if reason != .notAuthorized, !jsSaves.retried.contains(alarmID) {
                jsSaves.retried.append(alarmID)
                enqueue(.plan(.appRetrySave(definition, generation: jsSaves.generation)), afterMs: appRNGSave.int(in: 30_000...600_000))
            }
        case .saveRejected(let alarmID, _):
            jsSaves.outcomes.append((alarmID, "rejected"))
            jsSaves.pending.removeAll { $0.id == alarmID }
        case .alarmDeleted(let alarmID, let confirmed):
            jsSaves.outcomes.append((alarmID, confirmed ? "deleted" : "delete-unconfirmed"))
        default:
            break
        }
        if jsSaves.outcomes.count > 64 { jsSaves.outcomes.removeFirst() }
    }

    /// The oracle's configured set follows a definition the bridge accepted. With
    /// `keepPreviousFireTimes` the previous definition's fire times stay queued (its rings stay in
    /// the platform until a later process's sync retires them).
    func adoptConfigured(_ definition: LogicalAlarm, keepPreviousFireTimes: Bool = false) {
        let old: LogicalAlarm?
        if configuredAlarmsSortedByID() {
            old = alarms.upsertSortedByID(definition)  // issue 20: the same array, in O(log n) finding
        } else {  // the run's initial order (the setup's): sorted from here on
            old = alarms.first { $0.id == definition.id }
            alarms.removeAll { $0.id == definition.id }
            alarms.append(definition)
            alarms.sort { $0.id < $1.id }
        }
        noteConfiguredAlarmsSorted()
        let scheduleChanged = old.map { !Self.sameSchedule($0.roots, definition.roots) || $0.enabled != definition.enabled } ?? true
        if scheduleChanged {
            if !keepPreviousFireTimes { unscheduleOracleFireTimes(alarmID: definition.id) }
            if keepPreviousFireTimes, let old { jsSaves.keptPrevious.append(old) }
            scheduleOracleFireTimes(for: [definition.id])
        }
    }

    /// Whether two root lists schedule the same ring times: root by root, the same ID, local
    /// time, weekday and one-shot instant (what oracle fire times are planned from). Compared
    /// field by field (issue 20: a key string was built per root of both lists at every save);
    /// the ID with `String`'s equality, as the key strings were compared.
    static func sameSchedule(_ old: [Root], _ new: [Root]) -> Bool {
        old.count == new.count && zip(old, new).allSatisfy { old, new in
            old.id == new.id && old.hour == new.hour && old.minute == new.minute && old.weekday == new.weekday
                && old.onceFireWallMs == new.onceFireWallMs
        }
    }

    /// The process died with saves unanswered: the persisted definition stands (JS got no reply).
    func jsSavesProcessDied(_ reason: String) {
        keepSupersededInFlight()
        for definition in jsSaves.pending {
            if let stored = storedDocument?.alarm(definition.id) {
                jsSaves.accepted.insert(definition.id)
                // The previous schedule's rings were not retired (arm before retire): they may
                // still ring until the next process's sync retires them.
                if let previous = alarms.first(where: { $0.id == definition.id }), previous != stored {
                    jsSaves.interruptedPrevious.append(previous)
                }
                adoptConfigured(stored, keepPreviousFireTimes: true)
                if !jsSaves.interrupted.contains(definition.id) { jsSaves.interrupted.append(definition.id) }
            }
        }
        jsSaves.pending = []
        if reason == "app-deleted" {
            jsSaves = JSSaveState(generation: jsSaves.generation + 1)
        }
    }
}

extension World {
    /// SCH-6, SCH-10, OCC-2: a superseded save's primary whose schedule call was still in flight
    /// when the process died lands with no process to cancel it (the bridge cancels such a ring
    /// when its completion arrives), so it rings at its time unless a later process's sync runs
    /// first (SCH-3). Its ring time is kept like an interrupted save's previous definition: one
    /// oracle fire time for that ring, dropped by the sync after the restart
    /// (`noteSaveInput`), and the definition counts for the recurrence check meanwhile (ios swarm
    /// seed 14030: two edits 150 ms apart, the first one's 07:10 landed after the death and rang).
    func keepSupersededInFlight() {
        guard ios != nil, !jsSaves.superseded.isEmpty else { return }
        for event in queue.pendingInOrder {
            guard case .daemon(.completeSchedule(let request)) = event.payload, request.metadata.kind == .primary,
                  request.fireWallMs > wallMs, !isCurrentRingTime(request),
                  let definition = jsSaves.superseded.last(where: { definition in
                      definition.id == request.metadata.alarmID && definition.roots.contains { root in
                          root.id == request.metadata.rootID && isOccurrenceTime(request.fireWallMs, of: root)
                      }
                  }) else { continue }
            if !jsSaves.keptPrevious.contains(definition) { jsSaves.keptPrevious.append(definition) }
            if !jsSaves.interrupted.contains(definition.id) { jsSaves.interrupted.append(definition.id) }
            scheduleFireTime(rootID: request.metadata.rootID, alarmID: definition.id, wallMs: request.fireWallMs,
                             at: at(wallMs: request.fireWallMs))
        }
        jsSaves.superseded = []
    }

    /// True when a definition that stands (the stored, configured or pending one) rings the
    /// request's root at its time anyway: its oracle fire time is queued already.
    func isCurrentRingTime(_ request: RingRequest) -> Bool {
        let alarmID = request.metadata.alarmID
        let standing = [storedDocument?.alarm(alarmID), alarms.first { $0.id == alarmID }, jsSaves.pending.first { $0.id == alarmID }]
        return standing.contains { definition in
            definition?.roots.contains { $0.id == request.metadata.rootID && isOccurrenceTime(request.fireWallMs, of: $0) } ?? false
        }
    }

    /// True when `fireWallMs` is a ring time of `root` now: its one-shot instant, or a local
    /// time at its hour, minute and weekday.
    func isOccurrenceTime(_ fireWallMs: Int64, of root: Root) -> Bool {
        if let once = root.onceFireWallMs { return once == fireWallMs }
        let local = calendar.local(fireWallMs)
        return local.hour == root.hour && local.minute == root.minute && (root.weekday.map { $0 == local.weekday } ?? true)
    }
}

extension JSSaveState {
    init(generation: Int) {
        self.init()
        self.generation = generation
    }
}

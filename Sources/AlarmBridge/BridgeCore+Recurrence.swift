import Synchronization

/// Recurrence and capacity: skip dates as concrete occurrences (REC-3, REC-4), next-occurrence
/// seeds (REC-5..7), the bounded horizon (CAP-8) and the capacity rules of AlarmKit (CAP-1..9).
///
/// Reading of seed 000 ("The native bridge always seeds one valid next scheduled occurrence"),
/// a derived interpretation documented here (RULES.md REC-5 leaves the mechanism open):
/// - A plain weekly iOS root is registered as AlarmKit `.relative(hour:minute:weekday)`, which the
///   daemon re-arms by itself after every alert (SCH-2). That repeating primary IS the root's
///   durable next-occurrence registration, so it gets no separate seed: a `.fixed` seed at an
///   instant the repeating primary also covers would ring twice (SCH-1).
/// - A weekly iOS root with at least one skip date cannot be a repeating schedule, because
///   AlarmKit repeating schedules cannot express exclusion dates (REC-3). It is registered as
///   concrete `.fixed` occurrences (REC-4): the primary is its soonest occurrence not on a skip
///   date (however far: CAP-7), the seed the following one, if it falls within H_SKIP (CAP-8).
///   With H_SKIP = 14 days a weekday root has at most two occurrences in the horizon, so
///   primary + seed are exactly its concrete occurrences. When a delivery shows that an
///   occurrence happened, the bridge syncs (REC-6): the next concrete occurrence becomes the
///   primary and a new seed is added. A seed that fires because no process ran to roll it
///   opens its occurrence like a primary (RingKind.opensOccurrence).
/// - Android: every primary is one fixed `setAlarmClock` instant, re-planned after each delivery
///   and restored on every boot and broadcast (AND-3); the next primary simply skips skip dates
///   and is the root's next-occurrence registration. No seeds and no N_SKIP on Android: both
///   exist because AlarmKit's capacity is small and undocumented (CAP-1).
/// - REC-1, REC-2: every occurrence is computed from the stored local hour and minute
///   (`WallCalendar.nextFire`), never from the previous instant, so a first occurrence
///   normalised by a DST gap moves no later one. The known defect `dst-shifts-weekly-time`
///   breaks exactly this.
/// - Rule, once per configured day (REC-1, REC-2, derived; the simulator's oracle uses the same
///   rule, `World.scheduleOracleFireTimes`): an alarm rings once on each configured day, and the
///   day's ring time is its instant under `WallCalendar.DSTPolicy.oncePerDay` — the first
///   instant of a local time a fall-back night repeats, the next whole hour after one a
///   spring-forward gap skips. Android and iOS `.fixed` registrations ring exactly there, so the
///   repeated hour gets one ring. A `.relative` AlarmKit schedule resolves the night itself
///   (undocumented): whichever instant it alerts, `occurrenceStart` dates the alert to that
///   ring time, and a second alert of the same day is that occurrence again (OCC-20).
extension BridgeCore {
    /// One week of absolute time: only the known defect `dst-shifts-weekly-time` steps by it.
    static let weekMs: Int64 = 7 * 86_400_000

    /// The primaries and seeds the bridge wants now, and the concrete occurrences the N_SKIP
    /// bound cut (CAP-8; counted by CAP-9).
    struct RecurrencePlan: Equatable {
        var wanted: [RingRequest] = []
        var boundDropped: [RingRequest] = []
    }

    /// The last plan a bridge (and its copies) computed, by everything it is a function of: the
    /// document's alarms, rows, occurrence history and passed-over ring times, the configuration
    /// (by revision) and the wall clock (issue 20: every reconcile, repair check and inventory
    /// answer plans, and the idempotent-sync probe's sync plans again on a copy). Never iterated;
    /// locked, as copies may cross threads.
    ///
    /// The wall clock enters a plan only through each root's next ring time (``primaryFire(of:after:)``)
    /// and each seed's horizon test (CAP-8), so the entry keeps those: at a later or earlier instant
    /// with the same key the plan is the same exactly when every root's ring time and every seed's
    /// horizon test come out the same, which ``planHolds(_:floors:now:sameFloors:)`` recomputes (a few calendar
    /// look-ups per root, where planning builds every request). Debug builds also recompute the
    /// whole plan on every hit and assert it is equal.
    final class PlanCache: Sendable {
        struct Key: Equatable {
            var alarms: [LogicalAlarm]
            var rings: [RingRow]
            var occurrences: [OccurrenceRecord]
            var passedOverRingTimes: [PassedOverRingTime]?
            var configuration: UInt64
        }

        /// Per enabled root, in plan order (the document's alarms, each alarm's roots): its part
        /// of the plan, and what of it depends on the instant. Immutable and shared: a plan that
        /// reuses a root's part retains it instead of copying its requests (issue 20).
        final class RootPlan: Sendable {
            let root: Root
            /// BOOT-9: the document holds adopted legacy primaries of this root.
            let adopted: Bool
            let primary: RingRequest?
            /// The seed's ring time (iOS roots registered as concrete occurrences), wall ms,
            /// whether or not within the horizon; nil: none.
            let seedFire: Int64?
            /// The seed, when `seedFire` is within H_SKIP of the instant planned for (CAP-8).
            let seed: RingRequest?

            init(root: Root, adopted: Bool, primary: RingRequest? = nil, seedFire: Int64? = nil, seed: RingRequest? = nil) {
                self.root = root
                self.adopted = adopted
                self.primary = primary
                self.seedFire = seedFire
                self.seed = seed
            }
        }

        /// Immutable, so reading the last entry retains one object rather than copying its arrays.
        final class Entry: Sendable {
            let key: Key
            let plan: RecurrencePlan
            /// The wall instant planned for, ms.
            let nowWallMs: Int64
            let roots: [RootPlan]
            /// Each root's ``BridgeCore/latestRingTimeCome(of:)`` (wall ms), by the index of `roots`:
            /// its primary's ring time is its next after the later of this and the instant.
            let floors: [Int64]
            /// Whether any root had adopted legacy primaries (BOOT-9).
            let anyAdopted: Bool

            init(key: Key, plan: RecurrencePlan, nowWallMs: Int64, roots: [RootPlan], floors: [Int64]) {
                self.key = key
                self.plan = plan
                self.nowWallMs = nowWallMs
                self.roots = roots
                self.floors = floors
                anyAdopted = roots.contains { $0.adopted }
            }
        }

        /// The last entry.
        func entry() -> Entry? {
            last.withLock { $0 }
        }

        static func nextConfigurationRevision() -> UInt64 { configurationRevisions.add(1, ordering: .relaxed).newValue }
        private static let configurationRevisions = Atomic<UInt64>(0)
        private let last = Mutex<Entry?>(nil)

        func remember(_ entry: Entry) {
            last.withLock { $0 = entry }
        }
    }

    /// What a plan of every root looks up per root, gathered in one pass over the document
    /// (issue 20: each root looked its alarm and any adopted legacy row up by a scan of the whole
    /// document, which grew as roots × rows). Dictionaries here are only looked up by key, never
    /// iterated, so no hash order reaches behaviour. Each lookup answers exactly what the scan it
    /// replaces answered: the first alarm with an ID, the adopted rows of a root in row order.
    struct PlanLookups {
        /// The first alarm of the document with each ID (``BridgeDocument/alarm(_:)``).
        var alarms: [String: LogicalAlarm] = [:]
        /// BOOT-9: each root's rows with an adopted legacy primary ID, in the document's row order.
        var adoptedPrimaries: [String: [RingRow]] = [:]
        /// ``BridgeCore/latestRingTimesCome()``.
        var latestCome: [String: Int64] = [:]

        init(_ document: BridgeDocument, latestCome: [String: Int64]) {
            alarms.reserveCapacity(document.alarms.count)
            for alarm in document.alarms where alarms[alarm.id] == nil { alarms[alarm.id] = alarm }
            for row in document.rings where row.adoptedLegacyID == true && row.metadata.kind == .primary {
                adoptedPrimaries[row.metadata.rootID, default: []].append(row)
            }
            self.latestCome = latestCome
        }
    }

    /// The document's ``PlanLookups`` now, for planning several roots' primaries
    /// (``primaryRequest(for:alarmID:now:adoptingLegacy:lookups:)``) with one pass over the
    /// history (issue 20: each root's look-up without them scanned the whole history again).
    func planLookups() -> PlanLookups? {
        document.map { PlanLookups($0, latestCome: latestRingTimesCome()) }
    }

    /// REC-3, REC-4: true for a root that iOS registers as concrete `.fixed` occurrences — a weekly
    /// root with at least one skip date.
    func registersConcreteOccurrences(_ root: Root) -> Bool {
        flavor == .ios && root.weekday != nil && !root.skipDates.isEmpty
    }

    /// The first occurrence of a weekly root strictly after `after` (wall ms), never on a skip date
    /// (REC-4), from the stored hour and minute in the zone in force (REC-1, REC-2); nil for a
    /// one-shot, or when the bounded search (skip dates are finite) finds none.
    /// Known defect `dst-shifts-weekly-time`: after the root's previous occurrence (or after the
    /// first one found), each next one is the previous instant + 7 × 24 h.
    /// - Parameter previousOccurrence: the occurrence `after` follows (a seed follows its primary);
    ///   only the defect reads it.
    func nextConcreteOccurrence(of root: Root, after: Int64, previousOccurrence: Int64? = nil) -> Int64? {
        guard let weekday = root.weekday else { return nil }
        let calendar = configuration.calendar
        var cursor = after
        var previous: Int64? = defects.dstShiftsWeeklyTime
            ? (previousOccurrence ?? document?.occurrences.filter { $0.rootID == root.id }.map(\.startedAtMs).max()) : nil
        for _ in 0..<(1 + root.skipDates.count + 8) {
            let next: Int64
            if let last = previous {
                var candidate = last + Self.weekMs  // the defect: absolute weeks, DST ignored
                while candidate <= cursor { candidate += Self.weekMs }
                next = candidate
            } else {
                next = calendar.nextFire(hour: root.hour, minute: root.minute, weekday: weekday, after: cursor)
            }
            cursor = next
            if defects.dstShiftsWeeklyTime { previous = next }
            if !root.skipDates.isEmpty && root.skipDates.contains(calendar.localDate(next)) { continue }  // REC-4
            return next
        }
        return nil
    }

    /// Every enabled root's primary, plus the seed of each skip-date root (iOS), with the N_SKIP
    /// bound applied to the concrete occurrences: primaries first, then seeds, each soonest first
    /// (CAP-8, CAP-2), so the bound never displaces a primary in favour of a seed.
    func recurrencePlan(now: BridgeInstants) -> RecurrencePlan {
        guard let document else { return RecurrencePlan() }
        let key = PlanCache.Key(alarms: document.alarms, rings: document.rings, occurrences: document.occurrences,
                                passedOverRingTimes: document.passedOverRingTimes, configuration: configurationRevision)
        let last = planCache.entry()
        if let last, last.key == key, planHolds(last, floors: last.floors, now: now) {
            assert(last.plan == uncachedRecurrencePlan(now: now), "the plan cache answered a stale plan")
            return last.plan
        }
        let latestCome = latestRingTimesCome()
        // The same alarms under the same configuration: the rows or the history changed. Each
        // root's primary still depends on them only through its latest ring time come and any
        // adopted legacy rows (BOOT-9), so with none adopted the last plan holds when every ring
        // time and horizon test comes out the same; otherwise a root's part is reused when its own
        // ring time is unchanged (``planRoot``). The known defects that read the instant or the
        // history directly (seed 003's countdown fingerprint, `dst-shifts-weekly-time`) plan anew.
        let reusable = last.flatMap { last in
            last.key.alarms == key.alarms && last.key.configuration == key.configuration
                && !defects.countdownLengthInFingerprint && !defects.dstShiftsWeeklyTime ? last : nil
        }
        if let last = reusable, !last.anyAdopted, !Self.hasAdoptedPrimaries(document) {
            let roots = last.roots
            let floors = roots.indices.map { latestCome[roots[$0].root.id] ?? .min }  // by index: no root copied
            if planHolds(last, floors: floors, now: now, sameFloors: floors == last.floors) {
                assert(last.plan == uncachedRecurrencePlan(now: now), "the plan cache answered a stale plan")
                planCache.remember(PlanCache.Entry(key: key, plan: last.plan, nowWallMs: now.wallMs, roots: last.roots, floors: floors))
                return last.plan
            }
        }
        let (plan, roots, floors) = computeRecurrencePlan(document, now: now, latestCome: latestCome, earlier: reusable?.roots)
        assert(reusable == nil || plan == uncachedRecurrencePlan(now: now), "a root's reused part of the plan is stale")
        planCache.remember(PlanCache.Entry(key: key, plan: plan, nowWallMs: now.wallMs, roots: roots, floors: floors))
        return plan
    }

    /// BOOT-9: whether the document holds an adopted legacy primary. Read through the buffer,
    /// each row's two fields in place: an array's subscript copied every row.
    static func hasAdoptedPrimaries(_ document: BridgeDocument) -> Bool {
        document.rings.withUnsafeBufferPointer { rows in
            rows.indices.contains { rows[$0].adoptedLegacyID == true && rows[$0].metadata.kind == .primary }
        }
    }

    /// ``recurrencePlan(now:)`` computed afresh, every root planned, no cache read or written
    /// (tests hold the cached plan equal to it).
    func uncachedRecurrencePlan(now: BridgeInstants) -> RecurrencePlan {
        guard let document else { return RecurrencePlan() }
        return computeRecurrencePlan(document, now: now, latestCome: latestRingTimesCome(), earlier: nil).plan
    }

    /// True when `entry`'s plan is the plan at `now` too, given each root's latest ring time come
    /// (`floors`; the rest of the key matched): the same instant with the same floors, or every
    /// root's primary ring time and every seed's horizon test unchanged. The known defect
    /// `countdown-length-in-fingerprint` makes an adopted primary's fingerprint read the instant
    /// itself (seed 003): then only the same instant holds.
    private func planHolds(_ entry: PlanCache.Entry, floors: [Int64], now: BridgeInstants, sameFloors: Bool = true) -> Bool {
        if sameFloors && entry.nowWallMs == now.wallMs { return true }
        guard !defects.countdownLengthInFingerprint else { return false }
        let roots = entry.roots
        for index in roots.indices {  // by index, each read in place
            guard ringTimeHolds(roots[index].primary?.fireWallMs, of: roots[index].root, after: max(now.wallMs, floors[index]),
                                plannedAfter: max(entry.nowWallMs, entry.floors[index])) else { return false }
            if let seed = roots[index].seedFire,
               (seed - now.wallMs <= configuration.skipHorizonMs) != (roots[index].seed != nil) { return false }
        }
        return true
    }

    /// Whether `root`'s next ring time after `after` (``primaryFire(of:after:)``) is `planned`,
    /// its next ring time after `plannedAfter` (nil: none was found).
    ///
    /// A root's next ring time after an instant is the first of a fixed set of instants (its ring
    /// times, less skip dates) that lies after it (`WallCalendar.nextFire` walks the days in order,
    /// and each day's instants come before the next day's). So from `plannedAfter` on it stays
    /// `planned` while the instant stays before `planned`, and it is later once the instant reached
    /// it: no calendar look-up is needed (issue 20: one per root per sync). An earlier instant, or a
    /// ring time not found (a bounded search), is looked up again.
    private func ringTimeHolds(_ planned: Int64?, of root: Root, after: Int64, plannedAfter: Int64) -> Bool {
        if let planned, after >= plannedAfter { return after < planned }
        return primaryFire(of: root, after: after)?.fire == planned
    }

    /// ``recurrencePlan(now:)`` computed, with each root's part (``PlanCache``).
    /// - Parameter earlier: the last plan's roots, when it planned the same alarms under the same
    ///   configuration: the same roots, in the same order (the enabled alarms' roots in turn).
    private func computeRecurrencePlan(_ document: BridgeDocument, now: BridgeInstants, latestCome: [String: Int64],
                                       earlier: [PlanCache.RootPlan]?)
        -> (plan: RecurrencePlan, roots: [PlanCache.RootPlan], floors: [Int64]) {
        let lookups = PlanLookups(document, latestCome: latestCome)
        var roots: [PlanCache.RootPlan] = []
        var floors: [Int64] = []
        if let earlier {
            // The same alarms: the same roots in the same order, each of its alarm (`Root.alarmID`),
            // not built again (issue 20: every root's ID is a string built from its alarm's).
            roots.reserveCapacity(earlier.count)
            floors.reserveCapacity(earlier.count)
            for index in earlier.indices {
                let root = earlier[index].root
                floors.append(latestCome[root.id] ?? .min)
                roots.append(planRoot(root, alarmID: root.alarmID, now: now, floor: floors[index], lookups: lookups,
                                      earlier: earlier[index]))
            }
        } else {
            for alarm in document.alarms where alarm.enabled {
                for root in alarm.roots {
                    floors.append(latestCome[root.id] ?? .min)
                    roots.append(planRoot(root, alarmID: alarm.id, now: now, floor: floors[floors.count - 1], lookups: lookups,
                                          earlier: nil))
                }
            }
        }
        var plan = RecurrencePlan()
        var concretePrimaries: [RingRequest] = []
        var seeds: [RingRequest] = []
        for index in roots.indices {
            guard let primary = roots[index].primary else { continue }
            guard registersConcreteOccurrences(roots[index].root) else {
                plan.wanted.append(primary)
                continue
            }
            concretePrimaries.append(primary)
            if let seed = roots[index].seed { seeds.append(seed) }
        }
        // CAP-8, CAP-5, CAP-7: the bound never displaces a configured primary — the one a direct
        // save arms and verifies (CAP-6, SCH-9) — so it cuts seeds only, in the room the concrete
        // primaries leave (cutting primaries made the next sync cancel what a save had armed;
        // ios seeds 9082, 14970, 1929).
        let bound = max(0, configuration.skipOccurrenceMax - concretePrimaries.count)
        let sortedSeeds = seeds.sortedByFireTime()
        plan.wanted += concretePrimaries.sortedByFireTime() + sortedSeeds.prefix(bound)
        // Kept soonest first: its one order-dependent reader, ``desiredRings(now:plan:)``, sorts
        // so (stably, by the same key, so the order is the same), and finds it sorted already
        // (issue 20: every sync and inventory answer sorted the same plan again).
        plan.wanted = plan.wanted.sortedByFireTime()
        plan.boundDropped = Array(sortedSeeds.dropFirst(bound))
        return (plan, roots, floors)
    }

    /// One root's part of the plan: its primary, and the seed of a skip-date root (iOS). A primary
    /// request is a function of the root, its alarm, the configuration, any adopted legacy rows of
    /// the root and its ring time (``primaryFire(of:after:)``); a seed's ring time of the root and
    /// the primary's. So with the same alarm and configuration (the caller's test), no adopted
    /// rows, and the same ring time, the earlier part is the part now.
    /// - Parameter floor: the root's latest ring time come (wall ms; ``latestRingTimeCome(of:)``).
    private func planRoot(_ root: Root, alarmID: String, now: BridgeInstants, floor: Int64, lookups: PlanLookups,
                          earlier: PlanCache.RootPlan?) -> PlanCache.RootPlan {
        let adopted = !lookups.adoptedPrimaries.isEmpty && lookups.adoptedPrimaries[root.id] != nil
        if let earlier, !adopted, !earlier.adopted,
           primaryFire(of: root, after: max(now.wallMs, floor))?.fire == earlier.primary?.fireWallMs {
            // The same primary, and the same seed ring time; only the horizon test may differ.
            let inHorizon = earlier.seedFire.map { $0 - now.wallMs <= configuration.skipHorizonMs } ?? false
            if inHorizon == (earlier.seed != nil) { return earlier }
            let seed = inHorizon ? earlier.seedFire.map { seedRequest(for: root, alarmID: alarmID, fire: $0, lookups: lookups) } : nil
            return PlanCache.RootPlan(root: root, adopted: false, primary: earlier.primary, seedFire: earlier.seedFire, seed: seed)
        }
        let request = primaryRequest(for: root, alarmID: alarmID, now: now, lookups: lookups)
        guard let primary = request, registersConcreteOccurrences(root) else {
            return PlanCache.RootPlan(root: root, adopted: adopted, primary: request)
        }
        let seedFire = self.seedFire(of: root, after: primary.fireWallMs)
        let inHorizon = seedFire.map { $0 - now.wallMs <= configuration.skipHorizonMs } ?? false
        let seed = inHorizon ? seedFire.map { seedRequest(for: root, alarmID: alarmID, fire: $0, lookups: lookups) } : nil
        return PlanCache.RootPlan(root: root, adopted: adopted, primary: primary, seedFire: seedFire, seed: seed)
    }

    /// REC-5, REC-7: the ring time of a skip-date root's seed: its next concrete occurrence after
    /// the primary's (wall ms), whether or not within H_SKIP; nil when the bounded search finds none.
    func seedFire(of root: Root, after primaryFireMs: Int64) -> Int64? {
        nextConcreteOccurrence(of: root, after: primaryFireMs, previousOccurrence: primaryFireMs)
    }

    /// The seed request of a skip-date root at `fire` (``seedFire(of:after:)``), planned when
    /// `fire` falls within H_SKIP from now (CAP-8).
    private func seedRequest(for root: Root, alarmID: String, fire: Int64, lookups: PlanLookups?) -> RingRequest {
        let id = RingIdentity.seedID(rootID: root.id, wallMinute: fire / 60_000)
        let metadata = RingMetadata(rootID: root.id, alarmID: alarmID, kind: .seed, token: nil, title: root.title)
        let alarm = lookups.map { $0.alarms[alarmID] } ?? document?.alarm(alarmID)
        // SND-2: a seed that fires opens its occurrence, so it sounds at position 0 like a primary.
        return RingRequest(id: id, schedule: .fixed(wallMs: fire), fireWallMs: fire, metadata: metadata,
                           countdown: alarm?.countdown,
                           soundName: chooseSound(settings: alarm?.sounds, ringID: id, position: 0))
    }

    /// CAP-2: the order in which a sync registers what is missing — primaries and live-occurrence
    /// rings first, earliest fire time first, seeds only after them. Known defect
    /// `seed-before-primary`: seeds first.
    func orderedForCapacity(_ desired: [RingRequest]) -> [RingRequest] {
        // Without seeds (Android, and iOS with no skip date) either order is `desired` itself
        // (issue 20: the two filters copied every request).
        guard desired.contains(where: { $0.metadata.kind == .seed }) else { return desired }
        let seeds = desired.filter { $0.metadata.kind == .seed }
        let others = desired.filter { $0.metadata.kind != .seed }
        return defects.seedBeforePrimary ? seeds + others : others + seeds
    }

    /// CAP-3, CAP-6: whether this sync may add a new seed — only on iOS, only in the background,
    /// never from a direct editor save, and only when every configured primary is registered
    /// (held by the daemon, its registration confirmed, none in flight). Known defect
    /// `seed-before-primary`: always.
    func admitsNewSeeds(desired: [RingRequest], present: [PlatformAlarm], origin: CommandOrigin) -> Bool {
        if defects.seedBeforePrimary { return true }
        guard flavor == .ios, !appActive, origin != .directSave else { return false }
        return desired.filter { $0.metadata.kind == .primary }.allSatisfy { primary in
            present.contains { $0.id == primary.id } && !inFlight.contains(primary.id)
                && document?.row(primary.id)?.confirmed == true
        }
    }

    /// CAP-3: seeds were withheld because primaries were still being established (scheduled by
    /// this sync or in flight): once nothing is in flight, sync again so the seeds follow in the
    /// same background stint. At most `seedFollowUpMax` follow-ups in a row, so a full daemon
    /// (every retry of a primary refused) never loops; an ordinary sync starts a new round.
    mutating func requestSeedFollowUp(desired: [RingRequest], schedules: [RingRequest], origin: CommandOrigin,
                                      purpose: InventoryPurpose) {
        let establishing = schedules.contains { $0.metadata.kind == .primary }
            || desired.contains { $0.metadata.kind == .primary && inFlight.contains($0.id) }
        guard flavor == .ios, !appActive, origin != .directSave, establishing else { return }
        guard seedFollowUps < Self.seedFollowUpMax else {
            // The bound stops a loop of refused primaries; whether this round's primaries are
            // refused too is not known yet (ios seeds 6060, 10378, 18282).
            seedFollowUpWithheld = purpose
            return
        }
        seedFollowUp = seedFollowUp ?? purpose
    }

    /// CAP-3, SCH-20: a primary landed: the daemon moved towards the state the withheld seeds
    /// wait for, so the follow-up the bound held back starts a new round. Without it the seeds
    /// were left to whichever sync came next, and a settled sync was not a fixed point.
    mutating func primaryLanded(into out: inout [BridgeCommand]) {
        guard let purpose = seedFollowUpWithheld else { return }
        seedFollowUpWithheld = nil
        seedFollowUps = 0
        seedFollowUp = seedFollowUp ?? purpose
        runSeedFollowUpIfSettled(into: &out)
    }

    static let seedFollowUpMax = 3

    /// Called at the start of every reconcile: a sync that is not itself a seed follow-up starts a
    /// new round of follow-ups.
    mutating func beginSeedFollowUpRound(seedsAdmitted: Bool) {
        if !seedFollowUpReadIssued || seedsAdmitted { seedFollowUps = 0 }
        seedFollowUpReadIssued = false
    }

    /// Issues the seed follow-up read once nothing is in flight (CAP-3).
    mutating func runSeedFollowUpIfSettled(into out: inout [BridgeCommand]) {
        guard inFlight.isEmpty, let purpose = seedFollowUp else { return }
        seedFollowUp = nil
        seedFollowUps += 1
        seedFollowUpReadIssued = true
        out.append(.readInventory(purpose))
    }

    /// CAP-9: recomputes the dropped list (never a running total): the concrete occurrences the
    /// N_SKIP bound cuts now, plus wanted primaries and seeds whose registration the capacity
    /// limit refused and that are still wanted and still missing.
    /// SCH-10: a ring of the definition a direct save in progress would replace is still wanted
    /// until that save verifies — a failed save leaves it in force — so its entry stays (ios swarm
    /// seed 37807: a2's 06:42 primary, refused, left the list during a save of 09:50 that the
    /// capacity limit then failed; the sync that re-asked for 06:42 died before the refusal came
    /// back, and a damaged store kept every later process from surfacing it before 06:42).
    /// - Parameter plan: ``recurrencePlan(now:)`` for `now` and the current document, when the
    ///   caller has it (issue 20); nil: computed here.
    mutating func recomputeDropped(desired: [RingRequest], present: [PlatformAlarm], now: BridgeInstants,
                                   plan: RecurrencePlan? = nil) {
        guard let document else { return }
        var dropped: [DroppedRing] = []
        if let kept = document.dropped, !kept.isEmpty {  // the tables only for a list to filter (issue 20)
            let replaced = saves.pending.compactMap(\.previous).flatMap(\.roots).map(\.id)
            let presentIDs = RingIDSet(present.map(\.id)), desiredIDs = RingIDSet(desired.map(\.id))  // issue 20
            dropped = kept.filter { entry in
                entry.reason == .capacity && !presentIDs.contains(entry.id)
                    && (desiredIDs.contains(entry.id) || replaced.contains(entry.rootID))
            }
        }
        dropped += (plan ?? recurrencePlan(now: now)).boundDropped.map {
            DroppedRing(id: $0.id, rootID: $0.metadata.rootID, kind: $0.metadata.kind, fireWallMs: $0.fireWallMs, reason: .skipBound)
        }
        setDropped(dropped)
    }

    /// Stores the dropped list and the user-visible count derived from it (CAP-9).
    mutating func setDropped(_ entries: [DroppedRing]) {
        let sorted = entries.sorted { $0.id < $1.id }
        guard document?.dropped ?? [] != sorted || document?.droppedCount != sorted.count else { return }
        mutate { document in
            document.dropped = sorted.isEmpty ? nil : sorted
            document.droppedCount = sorted.count
        }
    }
}

// MARK: - Capacity (CAP-1, CAP-4, CAP-5, CAP-9) and rolling (REC-6)

extension BridgeCore {
    /// CAP-4, CAP-5: AlarmKit reported its limit (CAP-1) while a primary was being established.
    /// The bridge may cancel only a non-alerting seed whose fire time is later than that primary
    /// (the latest such seed) and retry the primary exactly once; it never cancels another
    /// primary, a live-occurrence ring, a snooze ring or a walk fuse to free capacity. Returns
    /// true when the retry was issued (the failure is then not yet final).
    mutating func handleLimitFailure(_ row: RingRow, error: PlatformError, now: BridgeInstants,
                                     into out: inout [BridgeCommand]) -> Bool {
        let wasRetry = limitRetries.contains(row.id)
        limitRetries.removeAll { $0 == row.id }
        guard error == .maximumLimitReached, flavor == .ios, row.metadata.kind == .primary, !wasRetry,
              let document else { return false }
        // CAP-4 makes room only for a primary the current definition still wants: a superseded
        // save's ring (an older time) is not worth a reclaimed seed (REC-1, SCH-10).
        guard let alarm = document.alarm(row.metadata.alarmID), alarm.enabled,
              let root = alarm.root(withID: row.metadata.rootID),
              primaryRequest(for: root, alarmID: alarm.id, now: now)?.id == row.id else { return false }
        let reclaimable = document.rings.filter { seed in
            seed.metadata.kind == .seed && seed.confirmed && !seed.delivered && !inFlight.contains(seed.id)
                && !alerting.contains(seed.id) && !seed.isPast(at: now.wallMs) && seed.fireWallMs > row.fireWallMs
        }
        guard let seed = reclaimable.max(by: { ($0.fireWallMs, $0.id) < ($1.fireWallMs, $1.id) }) else { return false }
        out.append(.note("CAP-4: limit reached for primary \(row.id): reclaiming later seed \(seed.id), retrying once"))
        out.append(.cancel(seed.id, origin: .lifecycle))
        mutate { $0.removeRow(seed.id) }
        // CAP-9: counted as dropped until the retry registers it (`capacityRegistered`): a process
        // death before the retry's answer must not leave the refusal unsurfaced (ios uniform 4949).
        noteCapacityDropped(row)
        limitRetries.append(row.id)
        let retry = RingRequest(id: row.id, schedule: row.schedule, fireWallMs: row.fireWallMs, metadata: row.metadata,
                                countdown: document.alarm(row.metadata.alarmID)?.countdown, soundName: row.soundName)
        publishAndSchedule([retry], origin: .lifecycle, now: now, into: &out)
        return true
    }

    /// CAP-9: a primary or seed the capacity limit refused for good is counted as dropped until it
    /// registers or is no longer wanted (`recomputeDropped`).
    mutating func noteCapacityDropped(_ row: RingRow) {
        guard row.metadata.kind.opensOccurrence else { return }
        let entry = DroppedRing(id: row.id, rootID: row.metadata.rootID, kind: row.metadata.kind,
                                fireWallMs: row.fireWallMs, reason: .capacity)
        setDropped((document?.dropped ?? []).filter { $0.id != row.id } + [entry])
    }

    /// A registration succeeded: it is no longer dropped, and no retry is outstanding for it.
    mutating func capacityRegistered(_ row: RingRow) {
        limitRetries.removeAll { $0 == row.id }
        if document?.dropped?.contains(where: { $0.id == row.id }) == true {
            setDropped((document?.dropped ?? []).filter { $0.id != row.id })
        }
    }

    /// REC-6: the delivery of a concrete occurrence of a repeating root (iOS fixed skip-date
    /// primary or seed) shows that the occurrence happened: sync, so the next concrete occurrence
    /// becomes the primary and a new seed follows (CAP-3). SCH-22 defers that sync while the
    /// family alerts. Android re-plans after every delivery already (AND-3).
    mutating func rollConcreteOccurrence(_ row: RingRow, into out: inout [BridgeCommand]) {
        guard flavor == .ios, row.metadata.kind.opensOccurrence, case .fixed = row.schedule,
              let root = document?.root(row.metadata.rootID), registersConcreteOccurrences(root) else { return }
        out.append(.note("REC-6: concrete occurrence of \(root.id) delivered: rolling its primary and seed"))
        out.append(.readInventory(.resumeSync))
    }
}

// MARK: - Seeds and missing primaries after backgrounding (CAP-3, SCH-24) and re-planning in a new local frame (REC-8)

extension BridgeCore {
    /// CAP-3: seeds are added only after the app backgrounds; on the background edge, when a
    /// wanted seed has no confirmed registration, sync so it is added in this background stint
    /// (the sync still requires every primary to be registered first).
    ///
    /// SCH-24, REC-5: the same edge, on both platforms, repairs a wanted primary the bridge knows
    /// is missing — its write failed, or the OS removed it, while Ember stayed in the foreground,
    /// where no later open comes to re-register it (ios seeds 4876, 5364, 10891, 18914; android
    /// seeds 5364, 10287, 10567, 15314, 15530). A primary the capacity limit dropped is surfaced
    /// instead (CAP-4, CAP-9) and starts no sync by itself.
    /// - Parameter observedRemoval: an `alarmUpdates` set arrived (IOS-5): a wanted primary it
    ///   lacks is repaired in this execution in the foreground too (SCH-24: "whenever ... the data
    ///   it derives from changes", within SCH-18 and SCH-22, which the sync applies), where the
    ///   background edge may come only after the ring time (ios uniform seed 7051: the OS removed
    ///   a1's primary at 06:58 while the user stayed in Ember from 05:10 to 09:29; its 09:08 never
    ///   rang). Seeds still wait for the background (CAP-3).
    mutating func repairSyncOnBackground(now: BridgeInstants, observedRemoval: Bool = false, into out: inout [BridgeCommand]) {
        guard !appActive || observedRemoval, phase == .ready, let document else { return }
        let seedsWanted = !appActive && flavor == .ios && document.alarms.contains(where: { $0.enabled && !$0.skipDates.isEmpty })
        let dropped = document.dropped ?? []
        let observed = lastObservedRingIDs.map(RingIDSet.init)  // issue 20: one table, not a scan per wanted ring
        let missing = recurrencePlan(now: now).wanted.contains { ring in
            let held = document.row(ring.id)?.confirmed == true && observed?.contains(ring.id) != false
            guard !held, !inFlight.contains(ring.id) else { return false }
            switch ring.metadata.kind {
            case .seed: return seedsWanted
            case .primary: return !dropped.contains { $0.id == ring.id }
            default: return false
            }
        }
        if missing { out.append(.readInventory(.resumeSync)) }
    }

    /// REC-8: after a time-zone change or a clock jump larger than Δ_CLOCK noticed by the running
    /// process, every fixed wall-clock fire time of a concrete skip-date occurrence (primary and
    /// seed) is recomputed in the new local frame and re-registered: a sync does it, since
    /// `recurrencePlan` plans in the calendar now in force (new IDs for moved instants; the old
    /// rings are cancelled as no longer wanted). Plain weekly roots are `.relative` and move with
    /// the zone by themselves; one-shots are re-based in `adoptDeviceZone`.
    mutating func replanConcreteOccurrences(reason: String, into out: inout [BridgeCommand]) {
        guard flavor == .ios, phase == .ready, let document,
              document.alarms.contains(where: { $0.enabled && !$0.skipDates.isEmpty }) else { return }
        out.append(.note("REC-8: \(reason): concrete skip-date occurrences re-planned in the new local frame"))
        out.append(.readInventory(.launchSync))
    }
}

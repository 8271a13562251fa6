/// Reconciliation: an idempotent diff of the desired ring set against the platform inventory
/// (SCH-3, SCH-4, SCH-5, SCH-19..23), with the alerting-family guard of SCH-22.
extension BridgeCore {
    /// The rings the bridge wants to exist now: each enabled root's next primary, the
    /// next-occurrence seeds of skip-date roots (iOS; marked `.seed`, so a direct save can leave
    /// them out, CAP-6), plus the live occurrence's pending successor. Sorted by (fire time, ID).
    /// Deterministic.
    /// - Rule: SCH-1 (one primary per occurrence), SCH-2 (iOS relative schedules), ID-2, REC-4,
    ///   REC-5, CAP-8 (BridgeCore+Recurrence.swift plans primaries and seeds).
    /// - Parameter plan: ``recurrencePlan(now:)`` when the caller already has it for `now` and
    ///   this document; nil: computed here.
    func desiredRings(now: BridgeInstants, plan: RecurrencePlan? = nil) -> [RingRequest] {
        guard let document else { return [] }
        var wanted = (plan ?? recurrencePlan(now: now)).wanted
        // Each list filtered and appended only when it holds any (issue 20: usually neither does).
        let inexact = undeliveredInexactPrimaries(now: now)
        if !inexact.isEmpty { wanted += inexact.filter { due in !wanted.contains { $0.id == due.id } } }
        // SCH-21: one ring per root and ring time (ID-2: the plan's own ID when it wants that time too).
        let reLived = heldPrimariesReachedBeforeSetBack(now: now)
        if !reLived.isEmpty {
            wanted += reLived.filter { due in
                !wanted.contains { $0.id == due.id || ($0.metadata.rootID == due.metadata.rootID && $0.fireWallMs == due.fireWallMs) }
            }
        }
        if let live = document.liveOccurrence {
            // SNZ-11: a snooze ring is repaired at its own deadline, never collapsed to +10 s.
            for pending in [pendingSuccessor(of: live), pendingSnooze(of: live)].compactMap({ $0 })
            where !deliveryInFlight(pending, now: now) {
                wanted.append(RingRequest(id: pending.id, schedule: pending.schedule,
                                          fireWallMs: max(pending.fireWallMs, now.wallMs), metadata: pending.metadata,
                                          soundName: pending.soundName))  // SND-6: the same ring, the same sound
            }
        }
        return wanted.sortedByFireTime()
    }

    /// OCC-7: on Android, a ring this process saw AlarmManager accept that is gone after its fire
    /// time was delivered, and the delivery is on its way to the bridge; re-registering it would
    /// leave a pending copy beside the retry that delivery arms (android seeds 5860, 2143).
    func deliveryInFlight(_ row: RingRow, now: BridgeInstants) -> Bool {
        flavor == .android && row.fireWallMs <= now.wallMs
            && (confirmedInProcess.contains(row.id) || heldInProcess.contains(row.id))
            && lastObservedRingIDs?.contains(row.id) == false  // still held: a late delivery, kept (SCH-21)
    }

    /// The root's next primary ring time strictly after `after` (wall ms), with the schedule it is
    /// registered as and the ID's fire key; nil for a one-shot whose instant is not after `after`,
    /// or a weekly root without an occurrence in the bounded search. Everything of a primary
    /// request that depends on the instant depends on it through this (the plan cache, issue 20).
    /// - Rule: REC-1, REC-2, REC-4 (every occurrence from the stored hour and minute, never on a
    ///   skip date), SCH-2 (plain weekly iOS roots are `.relative`), ID-2 (their key is the local
    ///   time, stable week to week), AND-3 (every Android primary is one fixed instant).
    func primaryFire(of root: Root, after: Int64) -> (fire: Int64, schedule: RingSchedule, fireKey: FireKey)? {
        switch (flavor, root.weekday, root.onceFireWallMs) {
        case (.ios, .some, _) where registersConcreteOccurrences(root), (.android, .some, _):
            // REC-4, REC-1: the next concrete occurrence, never on a skip date, from the stored
            // hour and minute (BridgeCore+Recurrence.swift); Android: every primary is fixed.
            guard let fire = nextConcreteOccurrence(of: root, after: after) else { return nil }
            return (fire, .fixed(wallMs: fire), .wallMinute(fire / 60_000))
        case (.ios, .some(let weekday), _):
            let fire = configuration.calendar.nextFire(hour: root.hour, minute: root.minute, weekday: weekday, after: after)
            return (fire, .relative(hour: root.hour, minute: root.minute, weekday: weekday),
                    .localTime(hour: root.hour, minute: root.minute))  // ID-2: stable week to week
        case (.ios, nil, .some(let once)):
            guard once > after else { return nil }
            return (once, .relative(hour: root.hour, minute: root.minute, weekday: nil), .wallMinute(once / 60_000))
        case (.android, nil, .some(let once)):
            guard once > after else { return nil }
            return (once, .fixed(wallMs: once), .wallMinute(once / 60_000))
        case (_, nil, nil):
            return nil
        }
    }

    /// - Parameter adoptingLegacy: BOOT-9: a primary an older version registered for exactly this
    ///   schedule under another ID, adopted by migration (`RingRow.adoptedLegacyID`), keeps that
    ///   ID while its configuration (fingerprint) is unchanged; false gives the ID-2 identity.
    /// - Parameter lookups: the plan's one-pass lookups when the caller plans every root
    ///   (``PlanLookups``); without them this root's are found by scanning the document.
    func primaryRequest(for root: Root, alarmID: String, now: BridgeInstants, adoptingLegacy: Bool = true,
                        lookups: PlanLookups? = nil) -> RingRequest? {
        let latestCome = lookups.map { $0.latestCome[root.id] ?? .min } ?? latestRingTimeCome(of: root)
        guard let (fire, schedule, fireKey) = primaryFire(of: root, after: max(now.wallMs, latestCome)) else { return nil }
        let alarm = lookups.map { $0.alarms[alarmID] } ?? document?.alarm(alarmID)
        let extra = defects.titleInRingID ? root.title  // known defects (seed 003)
            : defects.idsChangeOnEdit ? alarm.map(Self.everyAttribute) : nil
        let id = RingIdentity.primaryID(rootID: root.id, fireKey: fireKey, extraIdentity: extra)
        let metadata = RingMetadata(rootID: root.id, alarmID: alarmID, kind: .primary, token: nil, title: root.title)
        // SND-2: a primary opens its occurrence, so it sounds at position 0 (the lowest group);
        // the draw is a function of its ID, so a re-sync chooses the same sound (SCH-19).
        let request = RingRequest(id: id, schedule: schedule, fireWallMs: fire, metadata: metadata,
                                  countdown: flavor == .ios ? alarm?.countdown : nil,  // ID-4: fingerprint, never ID; AlarmKit only
                                  soundName: chooseSound(settings: alarm?.sounds, ringID: id, position: 0))
        guard adoptingLegacy else { return request }
        let weeklyOnIOS = root.weekday != nil && flavor == .ios, rootID = root.id  // captured, not `self` (a copy of the bridge)
        let adoptable = { (row: RingRow) in
            row.adoptedLegacyID == true && row.metadata.kind == .primary && row.metadata.rootID == rootID
                && row.schedule == schedule && (weeklyOnIOS || row.fireWallMs == fire)
        }
        let candidate = lookups.map { $0.adoptedPrimaries[root.id]?.first(where: adoptable) } ?? document?.rings.first(where: adoptable)
        guard let adopted = candidate else { return request }
        // SND-6 keeps the adopted ring's sound only while a primary may still play it: a sound
        // edit is a configuration change, so the fingerprints differ and the current ID (with the
        // newly chosen sound) replaces the legacy ring (BOOT-9, SND-1). A primary sounds at
        // position 0 (SND-2): a sound the edit moved to a later progressive group no longer
        // qualifies (ios swarm seed 26790: the legacy a3.wed ring kept sound-5, now in group 1).
        // An adopted ring without a sound plays the system default (SND-4): it qualifies only while
        // the settings hold no sound or the system default is in the first group (ios swarm seed
        // 44027, uniform 44573: a legacy a1 ring registered before any sound was chosen kept the
        // system default after the user chose progressive groups that do not hold it).
        if !adoptedSoundMayPlay(adopted.soundName, alarmID: alarmID) { return request }
        var legacy = request
        legacy.id = adopted.id
        legacy.soundName = adopted.soundName  // SND-6
        return fingerprint(legacy, now: now) == adopted.fingerprint ? legacy : request
    }

    /// SND-2, SND-4, SND-6, BOOT-9: true when an adopted legacy primary that plays `soundName`
    /// (nil: the system default) may keep it as the first ring of an occurrence under the alarm's
    /// current settings: a member of the first progressive group (or of the random pool), or the
    /// system default when the settings hold no sound at all.
    func adoptedSoundMayPlay(_ soundName: String?, alarmID: String) -> Bool {
        let settings = soundSettings(alarmID: alarmID)
        guard let sound = soundName else {
            guard let settings, settings.choose(position: 0, salt: "") != nil else { return true }
            return settings.mayPlay(SoundSettings.systemDefaultSoundName, atPosition: 0)
        }
        return settings?.mayPlay(sound, atPosition: 0) == true
    }

    /// The latest ring time of `root` that already came (wall ms; `.min` when none is known).
    /// After the clock was set back, such a ring time comes round again: an occurrence it opened
    /// is closed (OCC-20), so the next primary is the one after it. So is a ring time that was
    /// passed over (OCC-3: it never becomes owner), which opened no occurrence: its delivered
    /// fixed primary row remembers it (android seed 10378); on iOS, whose `.relative` rows are no
    /// such memory, `passedOverRingTimes` does (ios uniform seed 61669: a one-shot 06:31 that lost
    /// a tie was re-armed for the 06:31 a 1 h set-back brought back, rang unattended, and was
    /// silenced as "pass-over again").
    func latestRingTimeCome(of root: Root) -> Int64 {
        latestRingTimesCome()[root.id] ?? .min
    }

    /// ``latestRingTimeCome(of:)`` of every root at once, by root ID (issue 20: one pass over the
    /// history instead of one per root, which grew as roots × rows). Only looked up by key.
    func latestRingTimesCome() -> [String: Int64] {
        guard let document else { return [:] }
        var latest: [String: Int64] = [:]
        latest.reserveCapacity(document.alarms.count * 7)
        // One hash lookup per note, through the entry in place (issue 20: a read and a write
        // hashed every record of the growing history twice).
        func note(_ rootID: String, _ ms: Int64) {
            { (value: inout Int64) in if ms > value { value = ms } }(&latest[rootID, default: .min])
        }
        for passed in document.passedOverRingTimes ?? [] { note(passed.rootID, passed.ringTimeMs) }
        // By index, each field read in place: a for-in loop copied every record and row (issue
        // 20: the history grows with the days a device runs).
        // Through the buffers, each field read in place: an array's subscript copied the whole
        // record or row first.
        document.occurrences.withUnsafeBufferPointer { occurrences in
            for index in occurrences.indices { note(occurrences[index].rootID, occurrences[index].startedAtMs) }
        }
        document.rings.withUnsafeBufferPointer { rings in
            for index in rings.indices where rings[index].delivered && rings[index].metadata.kind == .primary {
                if case .fixed = rings[index].schedule { note(rings[index].metadata.rootID, rings[index].fireWallMs) }
            }
        }
        return latest
    }

    /// Only for the known defect `ids-change-on-edit`: every configured attribute, as an identity input.
    static func everyAttribute(_ alarm: LogicalAlarm) -> String {
        let sounds = alarm.sounds.map { ($0.groups ?? [$0.pool]).map { $0.joined(separator: ",") }.joined(separator: "|") } ?? "-"
        return "\(alarm.title)|\(sounds)|\(alarm.policy.rawValue)|\(alarm.challenge.rawValue)|\(alarm.countdown?.postAlertMs ?? -1)"
    }

    /// The families (logical alarm IDs) with an alerting member. `alerting` already folds in the
    /// inventory just read (`observe`) minus the rings this very step stopped (pass-over, expiry);
    /// on Android it is the bridge's own ringing service. Unknown alerting rings count too, and
    /// so does a wrong-instant alert (issue 18, forums 820388): not a delivery, but alerting in
    /// the daemon until its same-ID re-registration lands (ios swarm seed 512: a resume sync at
    /// 00:00:25 scheduled another root of the family of a ring alerting since 00:00).
    func alertingFamilies(_ inventory: [PlatformAlarm], nowWallMs: Int64) -> [String] {
        // Nothing alerting, in the bridge's books or the inventory: no family (issue 20: every
        // sync built a set of none).
        if alerting.isEmpty && !inventory.contains(where: { $0.state == .alerting }) { return [] }
        let stillAlerting = inventory.filter { held in
            held.state == .alerting && (alerting.contains(held.id) || document?.row(held.id) == nil
                                        || isWrongInstantDelivery(held.id, atWallMs: nowWallMs))
        }
        let ids = stillAlerting.map(\.id) + alerting
        let families = ids.compactMap { document?.row($0)?.metadata.alarmID }
        return Array(Set(families)).sorted()
    }

    /// Plans and issues one reconciliation pass.
    mutating func reconcile(purpose: InventoryPurpose, inventory: [PlatformAlarm], now: BridgeInstants,
                            into out: inout [BridgeCommand]) {
        guard purpose != .launchGate, purpose != .observe, document != nil else { return }
        if case .directSave(let alarmID) = purpose {
            directSaveRead(alarmID, inventory: inventory, now: now, into: &out)  // API-19, CAP-6 (BridgeCore+Save.swift)
            return
        }
        let origin: CommandOrigin
        var family: String?
        switch purpose {
        case .launchGate, .observe, .verifySave: return
        case .launchSync: origin = .launchSync
        case .resumeSync: origin = .resumeSync
        case .directSave(let alarmID): origin = .directSave; family = alarmID
        case .scheduledTimes:
            // AND-5: on Android every JS inventory request also repairs the stored schedules;
            // on iOS `getScheduledAlarmTimes` only reads (SCH-13).
            guard flavor == .android else { return }
            origin = .launchSync
        }
        // SCH-22: a sync never touches a family with an alerting member. The known defect
        // `resync-while-alerting` (seed 001) drops this guard from the resume sync.
        let guardAlerting = !(defects.resyncWhileAlerting && origin == .resumeSync)
        let busyFamilies = guardAlerting ? alertingFamilies(inventory, nowWallMs: now.wallMs) : []
        migrateIfNeeded(inventory: inventory, now: now, into: &out)  // BOOT-9..11: first launch after an update
        endDisabledAlarmDays(inventory: inventory, now: now, into: &out)  // turned off after its ring time: over
        recordMissedOccurrences(inventory: inventory, now: now, into: &out)  // a silent day is recorded (BridgeCore+Missed.swift)
        var deferred = false
        // SCH-7: a family whose direct save is in progress is left to that save; this sync runs
        // again once it resolved.
        let saving = savingFamilies
        let inScope: (String) -> Bool = { alarmID in (family == nil || family == alarmID) && !saving.contains(alarmID) }
        // One plan for both uses (issue 20): nothing between them changes the bridge.
        let plan = recurrencePlan(now: now)
        let planChanges = documentChanges
        let wanted = desiredRings(now: now, plan: plan)
        if wanted.contains(where: { saving.contains($0.metadata.alarmID) }) { deferred = true }
        var cancels: [AlarmUUID] = []
        var schedules: [RingRequest] = []
        let unsorted = heldPresent(inventory)  // issue 18: less the rings known dropped
        let present = unsorted.isSortedByID() ? unsorted : unsorted.sorted { $0.id < $1.id }  // a sorted read is kept (issue 20)
        // Looked up by ID only, never iterated (issue 20: each was a scan per wanted ring); the
        // first of an ID wins, as the scans they replace found it. `rows` follows every change
        // this sync makes to the document's rows before the last lookup (`adopt`).
        let heldByID = RingsByID(present)
        var rows = RingsByID(document?.rings ?? [])
        let inFlightIDs = RingIDSet(inFlight)
        let desired = wanted.map { request in
            // BOOT-9: an adopted legacy ID lives only as long as the daemon holds it; a primary
            // registered again gets its ID-2 identity.
            guard rows[request.id]?.adoptedLegacyID == true, heldByID[request.id] == nil,
                  !inFlightIDs.contains(request.id), let root = document?.root(request.metadata.rootID),
                  let fresh = primaryRequest(for: root, alarmID: request.metadata.alarmID, now: now, adoptingLegacy: false) else { return request }
            return fresh
        }
        // CAP-2, CAP-3, CAP-6 (BridgeCore+Recurrence.swift): primaries and live rings first, then
        // seeds; a new seed only in the background with every configured primary registered.
        let seedsAdmitted = admitsNewSeeds(desired: desired, present: present, origin: origin)
        beginSeedFollowUpRound(seedsAdmitted: seedsAdmitted)
        var withheldSeeds = false

        for request in orderedForCapacity(desired) where inScope(request.metadata.alarmID) {
            if busyFamilies.contains(request.metadata.alarmID) { deferred = true; continue }
            if inFlightIDs.contains(request.id) {
                // A changed configuration of a ring still in flight: sync again once it lands.
                if let row = rows[request.id], row.fingerprint != fingerprint(request, now: now) {
                    followUpSync = followUpSync ?? purpose
                }
                continue
            }
            guard let held = heldByID[request.id] else {
                if defects.syncTrustsRegistry, let row = rows[request.id], row.confirmed,
                   row.fingerprint == fingerprint(request, now: now) {
                    continue  // known defect: "we scheduled it already" — the registry, not the platform
                }
                if request.metadata.kind == .seed && !seedsAdmitted { withheldSeeds = true; continue }  // CAP-3
                if defects.givesUpOnFailedPrimary && givenUpPrimaries.contains(request.id) { continue }  // known defect
                schedules.append(request)  // SCH-19: add what is missing
                continue
            }
            let row = rows[request.id]
            let stale = row.map { $0.fingerprint != fingerprint(request, now: now) } ?? true
            let repairAlerting = !guardAlerting && held.state == .alerting  // the seed-001 defect's "repair"
            guard stale || repairAlerting else { continue }
            // CAP-3, CAP-6: a seed is (re-)registered only when seeds may be added; a stale one
            // waits for the next background sync.
            if request.metadata.kind == .seed && !seedsAdmitted { withheldSeeds = true; continue }
            if row == nil && !repairAlerting {
                adopt(request, now: now)  // BOOT-9: a live daemon ID we lost the row of is adopted unchanged
                rows.replace(request.id, with: document?.row(request.id))
                continue
            }
            if let row, held.state != .alerting, !row.delivered, row.fireWallMs <= now.wallMs,
               now.wallMs - row.fireWallMs < Self.undeliveredFireProtectionMs {
                // SCH-21: its fire time passed and no delivery was seen yet: the platform may be
                // delivering it late (or about to); replacing it now would cancel that alert.
                deferred = true
                continue
            }
            if held.state != .alerting && request.fireWallMs - now.wallMs < configuration.reRegisterGuardMs {
                deferred = true  // SCH-23: never let a cancel/schedule pair straddle the fire time
                continue
            }
            cancels.append(request.id)  // ID-4: re-register on a fingerprint mismatch only
            schedules.append(request)
        }

        let desiredIDs = RingIDSet(desired.map(\.id))
        for held in present where !desiredIDs.contains(held.id) {
            let row = rows[held.id]
            if let alarmID = row?.metadata.alarmID, !inScope(alarmID) || busyFamilies.contains(alarmID) { continue }
            if row == nil && family != nil { continue }  // a direct save reconciles its own family only
            if held.state == .alerting { continue }  // SCH-3, SCH-21: never cancel an alerting ring
            if let row, row.isPast(at: now.wallMs), !defects.cancelPastFireTime { continue }  // SCH-3: nor one whose fire time passed
            if let row, row.metadata.kind.opensOccurrence, !row.delivered, row.fireWallMs <= now.wallMs,
               now.wallMs - row.fireWallMs < Self.undeliveredFireProtectionMs, !defects.cancelPastFireTime {
                // SCH-3, SCH-21: a repeating ring no longer wanted (an older time of an edited
                // alarm) whose current fire time passed with no delivery seen may be delivering
                // late; cancelling it would silence that occurrence (ios uniform seed 2500).
                // A later sync retires it once its delivery was seen or the window passed.
                continue
            }
            if let row, row.metadata.kind.isOccurrenceBound { continue }  // occurrence-bound: lifecycle paths own it
            cancels.append(held.id)  // SCH-3: unknown or no longer wanted
        }

        if !defects.seedBeforePrimary, schedules.contains(where: { $0.metadata.kind == .primary }),
           schedules.contains(where: { $0.metadata.kind == .seed }) {
            // CAP-3: a primary (re-)registered by this very sync is not registered yet: its seeds
            // wait (a stale held seed stays as it is until then).
            let seeds = schedules.filter { $0.metadata.kind == .seed }.map(\.id)
            schedules.removeAll { seeds.contains($0.id) }
            cancels.removeAll { seeds.contains($0) }
            withheldSeeds = true
        }
        removeStaleRows(present: present, now: now)
        // The plan again only when the document changed since (an adopted ring, a stale row removed).
        recomputeDropped(desired: desired, present: present, now: now,
                         plan: documentChanges == planChanges ? plan : nil)  // CAP-9
        if withheldSeeds { requestSeedFollowUp(desired: desired, schedules: schedules, origin: origin, purpose: purpose) }  // CAP-3
        if !killSwitchFreezesSync(origin: origin, into: &out) {  // BOOT-12: only an explicit "disabled"
            issue(cancels: cancels, schedules: schedules, origin: origin, now: now, into: &out)
        }
        if deferred {
            deferredSync = deferredSync ?? purpose
            out.append(.note("sync deferred: an alerting family, an imminent or undelivered fire, or a save in progress (SCH-22, SCH-23, SCH-21, SCH-7)"))
        }
        if origin == .launchSync, let live = document?.liveOccurrence, !appActive, !hasPressure(live, now: now) {
            // AND-3, OCC-5: a restored live occurrence with no pressure left gets its successor.
            armSuccessor(for: live, now: now, into: &out)
        }
    }

    /// How long after its fire time an undelivered ring is still left alone by a re-registration
    /// (SCH-21): the 20 h occurrence bound (OCC-21); past it, the fire was lost, not late.
    static let undeliveredFireProtectionMs: Int64 = 20 * 3_600_000

    mutating func adopt(_ request: RingRequest, now: BridgeInstants) {
        let print = fingerprint(request, now: now)
        mutate { document in
            document.upsert(RingRow(id: request.id, schedule: request.schedule, fireWallMs: request.fireWallMs,
                                    metadata: request.metadata, fingerprint: print,
                                    publishedAtMs: now.wallMs, confirmed: true, delivered: false, soundName: request.soundName))
        }
    }

    /// SCH-4, SCH-5: future rows without a daemon alarm go after G_PUB; past rows stay.
    mutating func removeStaleRows(present: [PlatformAlarm], now: BridgeInstants) {
        guard let document else { return }
        let presentIDs = RingIDSet(present.map(\.id))  // membership only: order never matters (issue 20)
        // Each row's fields read in place, the cheap tests first (issue 20: `filter` copied every
        // row at every sync).
        var stale: [AlarmUUID] = []
        document.rings.withUnsafeBufferPointer { rows in
            for index in rows.indices where !rows[index].delivered && rows[index].metadata.kind.opensOccurrence  // primaries and seeds (REC-5)
                && now.wallMs - rows[index].publishedAtMs >= configuration.publicationGraceMs
                && !rows[index].isPast(at: now.wallMs) && !presentIDs.contains(rows[index].id) && !inFlight.contains(rows[index].id) {
                stale.append(rows[index].id)
            }
        }
        if !stale.isEmpty {
            let staleIDs = Set(stale)
            mutate { $0.rings.removeAll { staleIDs.contains($0.id) } }
        }
        // BOOT-9: an adopted legacy ID lives only as long as the daemon holds it. A row kept after
        // its ring left the platform (a delivered one stays as evidence) no longer lends its ID to
        // the root's primary, which is then registered under its ID-2 identity for good (ios
        // uniform seed 712: the OS removed a rung legacy ring, the sync registered the ID-2 ID,
        // and re-enabling the alarm re-adopted the legacy ID from the kept row — stable-ids).
        // Rows walked only when one is adopted (issue 20: the loop copied every row at every sync).
        guard self.document?.rings.withUnsafeBufferPointer({ rows in rows.indices.contains { rows[$0].adoptedLegacyID == true } }) == true
        else { return }
        for row in self.document?.rings ?? [] where row.adoptedLegacyID == true && !presentIDs.contains(row.id) && !inFlight.contains(row.id) {
            mutate { $0.upsert(with(row) { $0.adoptedLegacyID = nil }) }
        }
    }

    mutating func issue(cancels: [AlarmUUID], schedules: [RingRequest], origin: CommandOrigin, now: BridgeInstants,
                        into out: inout [BridgeCommand]) {
        for id in cancels {
            out.append(.cancel(id, origin: origin))
            if !schedules.contains(where: { $0.id == id }) { mutate { $0.removeRow(id) } }
        }
        flush(into: &out)
        publishAndSchedule(schedules, origin: origin, now: now, into: &out)
    }
}

/// Elements (registry rows, held rings) by ring ID, answering `first { $0.id == key }`: a binary
/// search when the elements are sorted by ID (the registry and a sorted inventory are; the first
/// of equal IDs is found), else a ``RingIDTable`` of each ID's first element, only looked up,
/// never iterated. Hashing every ID of every sync cost more than the scans it replaced (issue 20).
struct RingsByID<Element: RingIdentified> {
    private let elements: [Element]
    private let table: RingIDTable?
    /// Answers changed since (``replace(_:with:)``), latest last.
    private var replaced: [(id: AlarmUUID, element: Element?)] = []

    init(_ elements: [Element]) {
        self.elements = elements
        table = elements.isSortedByID() ? nil : RingIDTable(count: elements.count) { elements[$0].id }
    }

    subscript(key: AlarmUUID) -> Element? {
        if !replaced.isEmpty, let change = replaced.last(where: { $0.id == key }) { return change.element }
        if let table { return table.firstIndex(of: key) { elements[$0].id }.map { elements[$0] } }
        let index = elements.lowerBound(ofID: key)
        return index < elements.count && elements.withUnsafeBufferPointer({ $0[index].id == key }) ? elements[index] : nil
    }

    /// From now on `key` answers `element` (the sync changed that row).
    mutating func replace(_ key: AlarmUUID, with element: Element?) {
        replaced.append((key, element))
    }
}

/// Membership of ring IDs: a scan of a few, a binary search of many sorted ones (a sorted
/// inventory's), a ``RingIDTable`` of many others (issue 20: hashing every held ID of every sync).
struct RingIDSet {
    private let ids: [AlarmUUID]
    private let sorted: Bool
    private let table: RingIDTable?

    init(_ ids: [AlarmUUID]) {
        self.ids = ids
        if ids.count <= 16 {
            (sorted, table) = (false, nil)
        } else if ids.isSortedByID() {
            (sorted, table) = (true, nil)
        } else {
            (sorted, table) = (false, RingIDTable(count: ids.count) { ids[$0] })
        }
    }

    func contains(_ id: AlarmUUID) -> Bool {
        if let table { return table.firstIndex(of: id) { ids[$0] } != nil }
        guard sorted else { return ids.contains(id) }
        let index = ids.lowerBound(ofID: id)
        return index < ids.count && ids[index] == id
    }
}

/// An open-addressing table from ring IDs to the index of their first occurrence in a list the
/// caller keeps (issue 20: `Set` and `Dictionary` hash each 16-byte ID with SipHash, most of a
/// large sync's membership tests). Slots are probed linearly from ``AlarmUUID/tableHash``; the
/// table is only looked up, never iterated, so its layout cannot reach behaviour or output.
struct RingIDTable {
    /// Index + 1 of the list element in each slot; 0: empty. At most half full.
    private let slots: [Int32]
    private let shift: UInt64

    /// - Parameters:
    ///   - count: the list's length.
    ///   - id: the ID of the list's element at an index.
    init(count: Int, id: (Int) -> AlarmUUID) {
        var bits: UInt64 = 4
        while (1 << bits) < 2 * count { bits += 1 }
        shift = 64 - bits
        var slots = [Int32](repeating: 0, count: 1 << bits)
        let mask = slots.count - 1
        for index in 0..<count {
            let key = id(index)
            var slot = Int(truncatingIfNeeded: key.tableHash >> shift)
            while slots[slot] != 0 {
                if id(Int(slots[slot]) - 1) == key { break }  // the first of equal IDs stays
                slot = (slot + 1) & mask
            }
            if slots[slot] == 0 { slots[slot] = Int32(index + 1) }
        }
        self.slots = slots
    }

    /// The index of `key`'s first element, given the same list's IDs; nil when absent.
    func firstIndex(of key: AlarmUUID, id: (Int) -> AlarmUUID) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: key.tableHash >> shift)
            while slots[slot] != 0 {
                let index = Int(slots[slot]) - 1
                if id(index) == key { return index }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }
}

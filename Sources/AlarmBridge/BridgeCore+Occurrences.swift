/// Occurrence lifecycle: ownership, successors, completion, expiry (OCC, INACT, SND-12).
extension BridgeCore {
    /// Folds an inventory read or an `alarmUpdates` snapshot into what the bridge knows:
    /// newly alerting rings are deliveries; rings that left alerting are alert ends (IOS-7);
    /// a confirmed past ring that vanished without being seen alerting was delivered and stopped
    /// inside one coalesced update (IOS-5, SCH-5).
    /// - Parameter queuedDeliveries: rings whose delivery queued-up launch inputs report (a Stop
    ///   intent for an alert that has already ended); they are ordered with the alerts by due time.
    /// - Parameter mayPredateLandings: the set may be older than a schedule completion this
    ///   process saw (an `alarmUpdates` set, a lagged verification read): a ring confirmed since
    ///   and not listed counts as present (`confirmedUnlisted`).
    /// - Parameter endedDeliveries: rings a set queued behind this read showed alerting that the
    ///   read shows ended (``alertsEndedInQueuedSets(_:read:queuedDeliveries:now:)``): delivered, then
    ///   ended with no Stop.
    mutating func observe(inventory: [PlatformAlarm], queuedDeliveries: [AlarmUUID] = [], endedDeliveries: [AlarmUUID] = [],
                          mayPredateLandings: Bool = false, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let document else { return }
        // Only a set that lists such a ring takes it off the list: a fresh read does not, since a
        // set taken before the landing may still be on its way (ios swarm seed 26570).
        let unlisted = mayPredateLandings ? confirmedUnlisted.filter { id in !inventory.contains { $0.id == id } } : []
        if mayPredateLandings { confirmedUnlisted = unlisted }
        lastObservedRingIDs = inventory.map(\.id)
        if (lastObservationWallMs ?? .min) < now.wallMs {  // views of one instant (a burst, a re-read) are one view
            observedBeforeWallMs = lastObservationWallMs ?? previousProcessReadingWallMs
            observedBeforeThisBoot = lastObservationWallMs != nil || previousProcessReadingThisBoot
            lastObservationWallMs = now.wallMs
        }
        if flavor == .android { noteHeldInProcess(inventory) }
        // A row whose ring the platform holds is confirmed, even if the completion was lost to a
        // process death (the daemon finished the request; SCH-6 published the row first).
        // A same-ID re-registration whose answer was lost is different: the daemon held the ID
        // before, so it may still hold the previous configuration (a refused replacement leaves
        // the old ring as it was). Its fingerprint becomes unknown, so the reconciliation
        // re-registers it (ID-4) instead of trusting a sound the ring may not play (SND-5, SND-6;
        // ios seed 864: a sound edit's replacement refused while the process was dead).
        var landed: [RingRow] = []
        let rings = document.rings  // each row's fields read in place; only a landed row is copied (issue 20)
        for index in rings.indices where !rings[index].confirmed && !inFlight.contains(rings[index].id)
            && inventory.contains(where: { $0.id == rings[index].id }) {
            let row = rings[index]
            mutate { $0.upsert(with(row) { row in
                if row.replacesHeldRing == true { row.fingerprint = Self.unverifiedFingerprint }
                row.confirmed = true
                row.replacesHeldRing = nil
            }) }
            landed.append(row)
        }
        for row in landed where row.metadata.kind == .snooze { adoptLandedSnooze(row, now: now, into: &out) }  // SNZ-7
        for row in landed where row.metadata.kind == .successor { adoptLandedSkipSuccessor(row.id, now: now, into: &out) }  // SNZ-15
        for row in landed where row.metadata.kind == .primary { retireLandedLeftover(row.id, now: now, into: &out) }  // SCH-10
        if landed.contains(where: { $0.metadata.kind == .successor || $0.metadata.kind == .snooze }) {
            retireSpentSnoozeCopy(now: now, into: &out)  // SNZ-13
        }
        rebaseUnrungSnoozeRows(inventory, now: now, into: &out)  // SNZ-20
        guard flavor == .ios else { return }
        noteHeldPastFire(inventory, now: now)  // REC-9
        replanMovedRelativeRows(inventory, delivered: queuedDeliveries, current: !mayPredateLandings, now: now)  // REC-8, IOS-2
        // IOS-5, OCC-20: an alert a set shows that predates this process's own completed stop or
        // cancel of that ring is no new alert (``alertPredatesOwnEnd(_:inventory:now:)``).
        let predating = mayPredateLandings ? inventory.filter { alertPredatesOwnEnd($0.id, inventory: inventory, now: now) }.map(\.id) : []
        for id in predating {
            out.append(.note("ring \(id) alerting in a set older than this process's own stop or cancel of it: no new alert (IOS-5, OCC-20)"))
        }
        if mayPredateLandings { acknowledgeOwnEnds(in: [.alarmUpdates(inventory)]) }
        let nowAlerting = inventory.filter { $0.state == .alerting && !predating.contains($0.id) }.map(\.id).sorted()
        // OCC-2: the first root to become *due* owns the occurrence, whatever order a late
        // observation sees the alerts in (the process may not have run when they started).
        // None without an alert or a delivery to look at (issue 20: every read joined three
        // empty lists).
        let candidates = nowAlerting.isEmpty && queuedDeliveries.isEmpty && endedDeliveries.isEmpty ? []
            : nowAlerting.filter { !alerting.contains($0) }
                + queuedDeliveries.filter { !nowAlerting.contains($0) && document.row($0)?.delivered == false }
                + endedDeliveries
        let newlyAlerting = candidates.map { id -> (Int64, AlarmUUID) in
            guard let row = document.row(id) else { return (Int64.max, id) }
            return (row.metadata.kind.opensOccurrence ? occurrenceStart(of: row, now: now) : row.fireWallMs, id)
        }.sorted { $0 < $1 }.map(\.1)
        // SCH-9 and the rest: see `present` below. Only since the current boot (FG-10, below).
        // Built in one buffer, in the same order (issue 20: three joins per read).
        var present = inventory.map(\.id)
        for save in saves.pending where save.phase == .verifying { present += save.expected }
        if !unlisted.isEmpty { present += unlisted }
        let listed = recentlyListedIDs(now: now)
        if !listed.isEmpty { present += listed }
        var vanished = vanishedPastRings(present: present, now: now).filter { !endedDeliveries.contains($0) }
        // OCC-2: a vanished past ring inferred delivered (below) that was due before a root newly
        // seen alerting was due first, and owns (ios swarm seed 2360 of fault ghost-alert: a1.wed's
        // 05:57 ended unheard and vanished, a3's 05:58 still alerting; read together at 06:00,
        // a3 took the occurrence and a1.wed was a pass-over).
        let firstAlertingDue = newlyAlerting.compactMap { id -> Int64? in
            guard nowAlerting.contains(id) || endedDeliveries.contains(id), let row = document.row(id),
                  row.metadata.kind.opensOccurrence else { return nil }
            return occurrenceStart(of: row, now: now)
        }.min()
        if let firstAlertingDue {
            let earlier = vanished.filter { id in
                document.row(id).map { $0.metadata.kind.opensOccurrence && occurrenceStart(of: $0, now: now) < firstAlertingDue } ?? false
            }
            for id in earlier { inferDelivery(id, now: now, into: &out) }
            vanished.removeAll { earlier.contains($0) }
        }
        for id in newlyAlerting {
            // Issue 18: an alert hours before its `.fixed` instant is no delivery (ID-8).
            let seenAtWallMs = nowAlerting.contains(id) ? now.wallMs : stopTriggerWallMs(id, now: now) ?? now.wallMs
            if isWrongInstantDelivery(id, atWallMs: seenAtWallMs) {
                if nowAlerting.contains(id) { registerAgainAfterWrongInstant(id, stopFirst: true, now: now, into: &out) }
                continue  // a queued Stop of it is handled by its own step
            }
            if endedDeliveries.contains(id) {
                seenDeliveryEnded(id, now: now, into: &out)
                continue
            }
            guard nowAlerting.contains(id) else {
                observeDelivery(id, now: now, into: &out)
                continue
            }
            insertAlerting(id)
            if !observeDelivery(id, now: now, into: &out) { removeAlerting(id) }
        }
        for id in alerting where !nowAlerting.contains(id) {
            if defects.alertEndNeedsStop && !stopArrivals.contains(where: { $0.ringID == id }) {
                removeAlerting(id)  // known defect alert-end-needs-stop (IOS-7, OCC-5; OpenMinis#115)
                out.append(.note("defect alert-end-needs-stop: \(id) left alerting without a Stop: not handed on"))
                continue
            }
            alertEnded(id, now: now, into: &out)
        }
        // SCH-9: a primary a save is still verifying may be missing from a read only because
        // AlarmKit lists a new alarm a moment after its schedule call returned (read-after-write
        // lag): its absence is no evidence that it rang (ios uniform seed 207). The same holds
        // for any ring whose schedule returned less than `listingLagMs` ago, in a read or in an
        // `alarmUpdates` set taken just before the ring was added (ios uniform seeds 9815, 29671:
        // a successor missing 1–40 ms after it landed was taken as removed by the OS and
        // requested again; the retry was refused and a second successor armed beside it), and
        // for a ring no set has listed since it landed (`confirmedUnlisted`, ios swarm seed 26570).
        for id in vanished { inferDelivery(id, now: now, into: &out) }
        for id in vanishedWeeklyPrimaries(present: present, now: now) { inferDelivery(id, now: now, into: &out) }
        restoreRemovedPressure(present: present, now: now, into: &out)
        if !unlisted.isEmpty, awaitingObservation == nil,
           document.rings.contains(where: { unlisted.contains($0.id) && ($0.metadata.kind == .snooze || $0.metadata.kind == .successor) }) {
            out.append(.readInventory(.observe))  // IOS-5, FG-6: a fresh read decides whether the OS removed it
        }
    }

    /// IOS-5: notes a stop or cancel of this process that completed ok (`endedUnacknowledged`).
    mutating func noteOwnEndCompleted(_ input: BridgeInput) {
        guard flavor == .ios else { return }
        switch input {
        case .stopCompleted(let id, .success), .cancelCompleted(let id, .success):
            endedUnacknowledged.removeAll { $0 == id }
            endedUnacknowledged.append(id)
            if endedUnacknowledged.count > Self.endedUnacknowledgedMax { endedUnacknowledged.removeFirst() }
        default:
            break
        }
    }

    /// IOS-5: the `alarmUpdates` sets among `inputs` (in order) that show a ring of
    /// `endedUnacknowledged` not alerting, or not at all, reflect this process's stop or cancel of
    /// it: later sets are no longer older than that stop.
    mutating func acknowledgeOwnEnds(in inputs: [BridgeInput]) {
        for input in inputs {
            guard case .alarmUpdates(let set) = input else { continue }
            endedUnacknowledged.removeAll { id in !set.contains { $0.id == id && $0.state == .alerting } }
        }
    }

    /// IOS-5, OCC-20, REC-8, IOS-2: true when `inventory`, an `alarmUpdates` set, shows ring `id`
    /// alerting only because it was taken before this process's own stop or cancel of that ring
    /// completed: the daemon yields a set for every change, in order, and none since that stop or
    /// cancel has shown the ring not alerting or absent (`endedUnacknowledged`), the bridge does
    /// not hold it alerting, and its row is a registration not yet delivered whose planned time
    /// is still ahead in the frame the stop was made in (a zone or clock change clears the list):
    /// that registration cannot be the alert. The alert the set shows is the one the stop ended;
    /// read as new, it would open a second occurrence of a ring time already closed, dated at the
    /// registration's next match. RULES.md is silent on the age of a set; decided from IOS-5 (each
    /// set is the whole list at its moment) and OCC-20. Ios uniform seed 35386: a1.sat's 08:04
    /// Tokyo rang while the process was suspended and expired at 08:34 unseen; after a move to
    /// São Paulo the resume at 23:42 stopped it (expiry), cancelled it and registered it again (the
    /// same ID, next Saturday); the burst's set from before the stop then showed it alerting, the
    /// bridge opened an occurrence for it and armed a successor at leave-app.
    func alertPredatesOwnEnd(_ id: AlarmUUID, inventory: [PlatformAlarm], now: BridgeInstants) -> Bool {
        guard flavor == .ios, endedUnacknowledged.contains(id), !alerting.contains(id),
              inventory.contains(where: { $0.id == id && $0.state == .alerting }),
              let row = document?.row(id) else { return false }
        return !row.delivered && row.fireWallMs > now.wallMs
    }

    /// IOS-5, SCH-5: the confirmed, undelivered rows past their time that a view of the daemon
    /// (`present`: the set, plus rings it may predate) no longer holds: delivered and stopped
    /// unseen (``inferDelivery(_:now:into:)``), in due order (OCC-2: the first due owns; ties in
    /// registry order). In registry order, a later ring listed first took the occurrence (ios
    /// swarm seed 1868 of --faults ghost-alert: a3.mon's 05:14 and a2's 05:15 both ended as
    /// ghosts unseen, and a2 owned).
    ///
    /// Only since the current boot: a one-shot due before it may have been dropped while the
    /// phone was off, and a clock-only guess may never open an occurrence (FG-10).
    /// SNZ-13: a spent snooze ring whose delivery and stop arrived in one coalesced update is
    /// retired like any other ring (its row is delivered, its latch stays spent).
    /// A ring time already recorded missed (`missedRingIDs`: no ring was delivered, API-20) was
    /// judged: a set-back seen since moves the boot estimate back over it, but never makes it
    /// delivered (OCC-20; ios uniform seed 34717: a held 06:36 dropped by a boot, recorded
    /// missed, then a 1 h set-back opened an occurrence for it 12 h later).
    func vanishedPastRings(present: [AlarmUUID], now: BridgeInstants) -> [AlarmUUID] {
        guard let document else { return [] }
        let bootWallMs = now.wallMs - now.monotonicMs
        let judgedMissed = document.missedRingIDs ?? []
        var presentIDs: RingIDSet?  // issue 20: built only when a row gets that far (see vanishedWeeklyPrimaries)
        // Each row's fields read in place; only a vanished row's fire time and ID are kept, in
        // the rows' order (issue 20: the filter copied every row after every observation).
        let rings = document.rings
        var vanished: [(fireWallMs: Int64, offset: Int, id: AlarmUUID)] = []
        for index in rings.indices {
            guard rings[index].confirmed && !rings[index].delivered && rings[index].isPast(at: now.wallMs)
                    && rings[index].fireWallMs >= bootWallMs else { continue }
            if presentIDs == nil { presentIDs = RingIDSet(present) }
            let id = rings[index].id
            guard presentIDs?.contains(id) == false && !judgedMissed.contains(id) else { continue }
            vanished.append((rings[index].fireWallMs, vanished.count, id))
        }
        return vanished.sorted { ($0.fireWallMs, $0.offset) < ($1.fireWallMs, $1.offset) }.map(\.id)
    }

    /// IOS-5, OCC-5, OCC-11: weekly `.relative` primaries AlarmKit no longer lists whose latest
    /// ring time came after this process's previous view of the daemon (and in this boot, after
    /// the row was published), with no occurrence of the root at that ring time. AlarmKit keeps a
    /// weekly ring listed after it alerts, so it was removed (IOS-2: the OS may remove an alarm
    /// with no app call), before its ring time or after: either way nothing completed that ring
    /// time's occurrence (a completion goes through the bridge), so it is unfinished and is
    /// inferred delivered like a vanished `.fixed` ring (``inferDelivery(_:now:into:)``): it opens
    /// (or, past its deadline, is journalled as missed, INACT-21) and its successor is armed.
    /// RULES.md is silent on a vanished repeating ring; decided from OCC-5 and OCC-11 (an
    /// occurrence ends only by its challenge or expiry) and IOS-5. Ios uniform seed 7051: the OS
    /// removed a1.sat's weekly 09:08 primary at 06:58 while the process was suspended; the
    /// launch at 09:28 re-added it for next week and left the day's occurrence silent.
    func vanishedWeeklyPrimaries(present: [AlarmUUID], now: BridgeInstants) -> [AlarmUUID] {
        guard flavor == .ios, let document, let previousView = observedBeforeWallMs else { return [] }
        let bootWallMs = now.wallMs - now.monotonicMs
        // Issue 20: each row read in place, the field tests before the membership ones, and the
        // present IDs looked up through one ``RingIDSet`` (a scan of them per row grew as n²).
        var presentIDs: RingIDSet?
        var vanished: [AlarmUUID] = []
        let rings = document.rings
        for index in rings.indices where rings[index].metadata.kind == .primary && rings[index].confirmed {
            guard case .relative(let hour, let minute, .some(let weekday)) = rings[index].schedule, !inFlight.contains(rings[index].id) else { continue }
            if presentIDs == nil { presentIDs = RingIDSet(present) }
            let row = rings[index]
            guard presentIDs?.contains(row.id) == false else { continue }
            let ringTime = configuration.calendar.latestFire(hour: hour, minute: minute, weekday: weekday, atOrBefore: now.wallMs)
            guard ringTime > previousView && ringTime >= bootWallMs && ringTime > row.publishedAtMs,
                  !document.occurrences.contains(where: { $0.rootID == row.metadata.rootID && $0.startedAtMs == ringTime }) else { continue }
            vanished.append(row.id)
        }
        return vanished
    }

    /// IOS-5, SCH-5: a vanished past ring was delivered and stopped unseen. SND-7, SND-13: a
    /// delivery only inferred from a vanished ring was never seen alerting (the OS may have
    /// removed it unheard): it neither advances the sound sequence nor enters the audible record.
    mutating func inferDelivery(_ id: AlarmUUID, now: BridgeInstants, into out: inout [BridgeCommand]) {
        deliveryOnlyInferred = true
        observeDelivery(id, now: now, into: &out)
        deliveryOnlyInferred = false
        if defects.alertEndNeedsStop && !stopArrivals.contains(where: { $0.ringID == id }) { return }  // known defect
        alertEnded(id, now: now, into: &out)
    }

    /// IOS-7, OCC-5: a ring a queued set showed alerting has ended with no Stop (a ghost alert,
    /// OpenMinis#115): a delivery, then handed on like any observed alert end. SND-7, SND-13: an
    /// alert that ended with no Stop, seen only in a set the read superseded, may have played
    /// nothing (a ghost has no sound): like a delivery inferred from a vanished ring, it neither
    /// advances the sound sequence nor enters the audible record (ios swarm seed 2533 of
    /// --faults ghost-alert: a1.sun's ghost counted as heard, its successor played group 1).
    mutating func seenDeliveryEnded(_ id: AlarmUUID, now: BridgeInstants, into out: inout [BridgeCommand]) {
        deliveryOnlyInferred = true
        observeDelivery(id, now: now, into: &out)
        deliveryOnlyInferred = false
        if defects.alertEndNeedsStop && !stopArrivals.contains(where: { $0.ringID == id }) {
            out.append(.note("defect alert-end-needs-stop: \(id) left alerting without a Stop: not handed on"))
            return
        }
        alertEnded(id, now: now, into: &out)
    }

    /// IOS-5, IOS-14, FG-6: a pending snooze ring or successor of the live occurrence that a
    /// delivered set no longer holds, before its fire time and with no cancel of ours, was removed
    /// by the OS (PLATFORMS.md: "the OS can remove an alarm without an app call"). Its row would
    /// otherwise keep counting as the pressure (OCC-7 reuse, SNZ-10) while nothing is armed, so the
    /// same ring is requested again, as the reconciliation repairs it: a snooze ring at its own
    /// deadline (SNZ-11), a successor at its own due time. While Ember is active a successor is
    /// held back (FG-6): its row goes, and the next trigger arms one afresh (FG-3).
    ///
    /// The started walk's committed fuse is the occurrence's pressure in the same way (FG-5,
    /// WALK-15, WALK-18: the daemon-owned fuse is the loud OS-durable pressure): removed by the OS
    /// before its deadline, it is requested again at that deadline, the same ID, so the rotation
    /// bookkeeping is unchanged (ios swarm seed 81684: the fuse due 06:12:19 removed at 06:12:13
    /// while the process ran in the background; the update that showed it gone re-armed nothing
    /// and the occurrence had no pressure). While Ember is active no fuse is kept (WALK-5): its
    /// row goes with it.
    mutating func restoreRemovedPressure(present: [AlarmUUID], now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, let rings = document?.rings else { return }
        let fuseID = walkRecord(for: live)?.fuseID
        let removed = rings.filter { row in
            (row.metadata.kind == .snooze || row.metadata.kind == .successor || (row.metadata.kind == .walkFuse && row.id == fuseID))
                && row.metadata.token == live.token
                && row.confirmed && !row.delivered && !row.isPast(at: now.wallMs)
                && !present.contains(row.id) && !inFlight.contains(row.id)
        }
        var requests: [RingRequest] = []
        for row in removed {
            out.append(.note("pressure ring \(row.id) removed by the OS: requested again (IOS-5, FG-6)"))
            if appActive && row.metadata.kind == .walkFuse {
                mutate { $0.removeRow(row.id) }
                updateWalk { $0.fuseID = nil }
                continue
            }
            if appActive && row.metadata.kind == .successor {
                mutate { $0.removeRow(row.id) }
                continue
            }
            // SNZ-20, SNZ-21, SNZ-22: a ring the last set-back left at its old-frame time (it was
            // due before the correction, so `applyClockCorrection` re-armed it not) reads up to the
            // set-back's size ahead, yet its time came before the correction: it is requested again
            // at once, never at that stale reading (ios uniform seed 63635: a snooze ring due 08:09
            // removed by the OS at 07:45; a 1 h set-back at 07:57; the launch at 07:34 of the new
            // frame asked for it again at 08:09, 35 min out, after the snooze had ended).
            let stale = dueBeforeLastSetBack(row)
            let fire = stale ? now.wallMs : max(row.fireWallMs, now.wallMs)
            requests.append(RingRequest(id: row.id, schedule: stale ? .fixed(wallMs: fire) : row.schedule, fireWallMs: fire,
                                        metadata: row.metadata, soundName: row.soundName))  // SND-6: same ring, same sound
        }
        publishAndSchedule(requests, origin: .lifecycle, now: now, into: &out)
    }

    /// REC-9, SNZ-20: true when `row` still holds an instant of the frame before the last
    /// backward correction this process noticed: its time was at or before that frame's "now"
    /// (`lastBackwardJump.fromWallMs`), so the correction did not rebase it, and nothing has
    /// requested it since in the corrected frame (`publishedSinceBackwardJump`).
    func dueBeforeLastSetBack(_ row: RingRow) -> Bool {
        guard let back = lastBackwardJump, !publishedSinceBackwardJump.contains(row.id), !row.repeatsInDaemon else { return false }
        return row.fireWallMs <= back.fromWallMs && row.fireWallMs > back.toWallMs
    }

    /// REC-8, IOS-2, SCH-5: AlarmKit moves a `.relative` ring when the zone changes (at the change,
    /// which the app learns of only later) and keeps a jumped-over one waiting for its next match
    /// (`jumpedOverRelativeFires` off). A row planned before the zone was adopted, or whose instant
    /// a forward jump passed over, while the daemon still holds the ring pending, is therefore
    /// re-planned to the ring's next local time; it is not past its fire time. Without this the
    /// stale instant made the ring look past (SCH-5, SCH-21), so an edit or sync left it armed for
    /// a time no longer configured (ios seeds 2078, 6588, 3214). A one-shot whose primary it is
    /// follows (REC-8: "the next time the clock shows hh:mm"). A ring whose delivery a queued
    /// input reports (a Stop) rang at its old instant and a weekly one re-armed for next week: its
    /// row is the evidence of that ring time and stays (ios seed 1604).
    /// A one-shot `.relative` ring (`repeats: .never`) still pending with its instant passed was
    /// jumped over anywhere after the last reading before the correction (no step ran at the jump:
    /// the process was suspended or dead), unless its delivery may merely be held late
    /// (`lateDeliverySlackMs`; ios uniform seed 20087) (ios seed 15089: a 1 h jump
    /// at 07:11 over a legacy 07:23, seen at 09:38, left the ring armed for the next 07:23 after the
    /// user moved the alarm to 07:55). A weekly one that rang is pending again, so it keeps the
    /// narrow window.
    ///
    /// `current` is false for an `alarmUpdates` set, which may be one the daemon yielded while
    /// the app was suspended: a one-shot it lists pending may have rung since, so only a fresh
    /// read is evidence that it still waits past its instant (ios swarm seed 35386: a 09:05
    /// one-shot alerting since 09:05, seen at 14:17 first in a set from 08:04, was re-planned for
    /// the next morning and then opened a live occurrence dated tomorrow).
    mutating func replanMovedRelativeRows(_ inventory: [PlatformAlarm], delivered: [AlarmUUID], current: Bool, now: BridgeInstants) {
        guard let document else { return }
        let adopted = document.zoneAdoptedAtMs ?? .min
        let jump = lastForwardJump
        let rings = document.rings  // each row's fields read in place; only a candidate is copied (issue 20)
        for index in rings.indices where !rings[index].delivered && rings[index].confirmed && !delivered.contains(rings[index].id) {
            guard case .relative(let hour, let minute, let weekday) = rings[index].schedule,
                  inventory.contains(where: { $0.id == rings[index].id && $0.state == .scheduled }) else { continue }
            let row = rings[index]
            let plannedInOldZone = row.publishedAtMs < adopted
            let jumpedOver = jump.map { jump in
                // SCH-21, IOS-2: a one-shot the jump passed over is, on a device where AlarmKit
                // fires jumped-over `.relative` rings, due at the landing, and its delivery may be
                // held late (`lateDeliverySlackMs`) while the daemon still lists it pending: only
                // once that slack has passed since the landing is it known to wait for its next
                // match (ios swarm seed 95831: a 10 min jump at 09:36:54 over a 09:40 one-shot
                // whose delivery was held 130 s; the clock-change sync at the landing re-planned it
                // for the next day and cancelled the ring AlarmKit was about to deliver). A weekly
                // ring keeps its ID when re-planned, so nothing is cancelled for it.
                let landingSettled = weekday != nil || now.wallMs >= jump.toWallMs + Self.lateDeliverySlackMs
                let narrow = row.fireWallMs > jump.fromWallMs && row.fireWallMs <= jump.toWallMs && landingSettled
                // A late-measured jump's window reaches back to the last reading before it, short
                // of the instants whose delivery AlarmKit may still hold (ios uniform seed 20087).
                let late = weekday == nil && lastForwardJumpReadingWallMs.map { reading in
                    row.fireWallMs > reading && row.fireWallMs <= jump.fromWallMs - Self.lateDeliverySlackMs
                } == true
                return (narrow || late) && row.fireWallMs <= now.wallMs
            } ?? false
            // IOS-2, REC-8: a one-shot still listed pending longer past its instant than any held
            // delivery (`lateDeliverySlackMs`) was passed over by a forward jump no process could
            // measure (a reboot since: the monotonic clock restarted) and waits for its next
            // match; the daemon's inventory is the evidence (ios uniform seed 54100: a +1 h jump
            // at 06:18 over a 07:10 one-shot, then a reboot; the launch at 08:00 kept the ring as
            // past, an edit to 08:04 never retired it, and it rang at 07:10 the next morning).
            // A jump this bridge measured decides alone (`jumpedOver`): a ring time before it is
            // a delivery AlarmKit holds late, not a passed-over one (ios uniform seed 20087).
            let waitingUnmeasured = current && jump == nil && weekday == nil && row.metadata.kind == .primary
                && row.fireWallMs <= now.wallMs - Self.lateDeliverySlackMs
            guard plannedInOldZone || jumpedOver || waitingUnmeasured else { continue }
            var next = configuration.calendar.nextFire(hour: hour, minute: minute, weekday: weekday, after: now.wallMs)
            // SCH-21: AlarmKit moved the ring at the change, before this step, to the change's next
            // match: a match since the row was planned and less than `lateDeliverySlackMs` ago may be
            // that instant, its delivery held late; the ring is past its fire time, not a future
            // one to re-plan (ios uniform seed 49799: a one-shot 08:33 planned in Berlin, the zone
            // became Sydney at 08:30, the launch at 08:33:53 re-planned it for the next day and its
            // sync cancelled the ring AlarmKit was about to deliver).
            let latest = configuration.calendar.latestFire(hour: hour, minute: minute, weekday: weekday, atOrBefore: now.wallMs)
            if plannedInOldZone, !jumpedOver, latest > row.publishedAtMs, now.wallMs - latest < Self.lateDeliverySlackMs {
                next = latest
            }
            guard next != row.fireWallMs else { continue }
            noteReplannedRelativeRow(row)
            mutate { document in
                document.upsert(with(row) { $0.fireWallMs = next; $0.publishedAtMs = now.wallMs })
                guard weekday == nil, row.metadata.kind == .primary,
                      let index = document.alarms.firstIndex(where: { $0.id == row.metadata.alarmID }),
                      case .once = document.alarms[index].repeats,
                      document.alarms[index].hour == hour, document.alarms[index].minute == minute else { return }
                document.alarms[index].repeats = .once(fireWallMs: next)
            }
        }
    }

    /// Records the delivery of a ring. Returns true when the ring belongs to the live owner
    /// (and so may sound); pass-overs and rings of closed occurrences are silenced (OCC-3, OCC-24).
    @discardableResult
    mutating func observeDelivery(_ id: AlarmUUID, now: BridgeInstants, into out: inout [BridgeCommand]) -> Bool {
        guard let row = document?.row(id) ?? rebuildUnmigratedPrimaryRow(id, now: now) else {  // BOOT-9
            if let cancelled = document?.cancelledInFlight?.first(where: { $0.id == id }) {
                silenceLandedAfterCancel(cancelled, into: &out)
                return false
            }
            out.append(.note("delivery of unknown ring \(id): left alone"))
            return false
        }
        if !row.delivered {
            mutate { $0.upsert(with(row) { $0.delivered = true }) }
            rollConcreteOccurrence(row, into: &out)  // REC-6
            retireReAddedCopy(row, into: &out)
        }
        switch row.metadata.kind {
        case .primary, .seed:  // a seed that fired opens its occurrence (REC-5)
            let owner = deliverPrimary(row, now: now, into: &out)
            if owner && flavor == .ios {
                noteAudibleRing(row)  // SND-7, SND-13 (Android: when it rings)
                resoundPendingRings(now: now, into: &out)  // SND-2
            }
            return owner
        case .successor, .snooze, .walkFuse, .legacyCadence, .legacyForegroundMaintenance, .legacyFusePair,
             .legacySafetyRelay, .legacyWalkCadence:
            // BOOT-10: a legacy ring migration kept (an alert already sounding, the one cadence
            // ring of a live occurrence) is that occurrence's pressure; any other is retired.
            if let token = row.metadata.token, document?.occurrence(token: token)?.state == .live {
                if row.metadata.kind == .walkFuse { walkFuseDelivered(row) }
                if flavor == .ios {
                    noteAudibleRing(row)  // SND-7, SND-13, SNZ-17 (Android: when it rings)
                    resoundPendingRings(now: now, into: &out)  // SND-2
                }
                return true
            }
            retire(row, reason: "successor of a closed occurrence", into: &out)  // OCC-20, AND-14
            return false
        }
    }

    /// IOS-11, FG-1, FG-2, OCC-24: a ring this bridge cancelled while its schedule call was in
    /// flight (`cancelledInFlight`), whose schedule landed after the cancel and which now alerts,
    /// seen by a later process (the one that cancelled died before the schedule's answer, which
    /// would have cancelled it again). It is still this bridge's ring, of the kind and occurrence
    /// its row names, not a stranger's (SCH-3): while Ember is active it is silenced like any
    /// ordinary wake ring (FG-1, FG-2), and once its occurrence has closed it is retired (OCC-24).
    /// Otherwise it sounds for its live occurrence, whose pressure it is, and its Stop counts
    /// (``pendingStopTriggerWallMs(for:now:)``; ios swarm seed 11765). Ios swarm seed 55069: a
    /// snooze confirmed at the background edge cancelled the successor armed there, still in
    /// flight; the process died, the successor landed and rang, and the next launch, in the
    /// foreground, left it alerting as an unknown ring.
    mutating func silenceLandedAfterCancel(_ row: RingRow, into out: inout [BridgeCommand]) {
        let live = row.metadata.token.flatMap { document?.occurrence(token: $0) }?.state == .live
        guard appActive || !live else {
            out.append(.note("ring \(row.id) cancelled in flight by an earlier process sounds for its live occurrence"))
            return
        }
        out.append(.note("ring \(row.id) landed after an earlier process's cancel: stopped (\(appActive ? "FG-2" : "OCC-24"))"))
        out.append(.stop(row.id, origin: appActive ? .foreground : .retire))
    }

    /// REC-9: how far (ms) a ring time that began ringing around the last clock correction lies
    /// from the instant it was reached, in the corrected frame the records are kept in: 0 when no
    /// correction touched it.
    /// - A ring time the clock jumped over began ringing at the jump, not at its configured time.
    /// - A ring that began before a forward jump and is observed only after it (a suspended
    ///   process) was live across the correction: it moves with the clock (ios seed 1384).
    /// - The same for a clock set back, where the bridge can know it: a ring time at or before its
    ///   last reading in the old frame, or one the new frame has not reached yet, was reached in the
    ///   old frame (ios seeds 6387, 7197). A ring time in between may have rung in either frame: no
    ///   offset, the later deadline (the oracle's clock-jump-ambiguous-start window; ios seed 3163).
    /// - Android, a set-back TIME_SET dated: a ring time in the re-lived interval delivered once
    ///   the new frame reached it rings in the new frame — AMS re-frames a held RTC trigger
    ///   (`reevaluateRtcAlarms`), and a ring registered after the correction was never due in the
    ///   old one — so no offset, even when a process read the clock past it in the old frame
    ///   (android uniform seeds 15730: a held 06:44 delivery, then a 10 min set-back at 06:45;
    ///   11530). Only one still behind the new clock, or delivered before the new frame reached
    ///   it, was reached in the old frame (android swarm seed 5370).
    ///   A ring this process requested after it noticed the set-back (`ringID` in
    ///   `publishedSinceBackwardJump`) exists only in the new frame: no offset (ios uniform seed
    ///   11530: an edit 27 min after a seen 1 h set-back armed a concrete 05:51, dated an hour
    ///   early at its Stop and expired at once).
    ///   A ring a view before the set-back listed still scheduled past its fire time (a delivery
    ///   held late, `heldAtBackwardJump`) began alerting after that view, which may be after the
    ///   correction: AlarmKit re-arms a held `.fixed` ring the set-back moved back into the future,
    ///   and it rings at its time in the new frame. No offset, the later deadline (ios uniform seed
    ///   42696: a held 05:31 seen pending at 05:31:23, a 1 h set-back, the ring alerting at 05:31
    ///   in the new frame was dated in the old one and expired at its opening).
    func clockOffset(forStart startedAt: Int64, ringID: AlarmUUID? = nil, now: BridgeInstants) -> Int64 {
        if let jump = lastForwardJump, startedAt > jump.fromWallMs, startedAt <= jump.toWallMs {
            return jump.toWallMs - startedAt
        }
        if let jump = lastForwardJump, startedAt <= jump.fromWallMs, now.wallMs >= jump.toWallMs {
            return jump.toWallMs - jump.fromWallMs
        }
        let reachedBefore = lastBackwardJumpDated ? lastBackwardJump?.toWallMs : lastBackwardJump?.lastReadingWallMs
        // A ring seen held past its fire time before the set-back began alerting after that view,
        // before or after the correction: either frame, unless the new frame has not reached it.
        let seenHeld = ringID.map(heldAtBackwardJump.contains) ?? false
        let unregistered = registeredPastRingTime(ringID, startedAt: startedAt)
        // An undated set-back an earlier process noticed: only the rings it listed were registered
        // at the correction (``recordDatedSetBack(_:now:)``; android uniform seed 35966).
        let listed = !undatedSetBackRestored || (ringID.map(reLivedRingIDs.contains) ?? false)
        if let back = lastBackwardJump, let reachedBefore, listed, !(ringID.map(publishedSinceBackwardJump.contains) ?? false),
           (startedAt <= reachedBefore && !seenHeld && !unregistered) || startedAt > now.wallMs,
           startedAt <= back.fromWallMs, back.toWallMs - startedAt < 20 * 3_600_000 {  // OCC-21
            return back.toWallMs - back.fromWallMs
        }
        return 0
    }

    /// REC-9, SCH-2, INACT-3: whether the ring `ringID` was registered after `startedAt` for a
    /// later instant (its row's publication and planned fire both after that ring time). AlarmKit
    /// rings a `.relative` schedule at the first match after its registration and a `.fixed` one
    /// at its instant, so that registration was never due at `startedAt` before a set-back, even
    /// when the bridge read the clock past that ring time in the old frame: an alert of it at that
    /// ring time began in the new frame, with no offset (ios uniform seed 72224: a1.wed's primary,
    /// refused for capacity, was registered again 2 ms after its 08:13 ring time, for next week; a
    /// 1 h set-back at 08:47 re-armed it for 08:13 in the new frame, and its alert was dated in the
    /// old one: the legacy occurrence's deadline an hour early).
    func registeredPastRingTime(_ ringID: AlarmUUID?, startedAt: Int64) -> Bool {
        guard let row = ringID.flatMap({ document?.row($0) }) else { return false }
        return row.publishedAtMs > startedAt && row.fireWallMs > startedAt
    }

    mutating func deliverPrimary(_ row: RingRow, now: BridgeInstants, into out: inout [BridgeCommand]) -> Bool {
        let startedAt = occurrenceStart(of: row, now: now)
        expireIfDue(now: now, into: &out)  // INACT-21: an expired incumbent passes nothing over
        if let live = document?.liveOccurrence {
            if live.rootID == row.metadata.rootID && live.startedAtMs == startedAt { return true }
            // OCC-3: a different root due while an occurrence is live is a silent pass-over.
            out.append(.note("pass-over: \(row.metadata.rootID) while \(live.rootID) owns the occurrence"))
            if defects.passOverLeftAlerting && flavor == .ios {
                out.append(.note("defect pass-over-left-alerting: \(row.id) left to AlarmKit"))  // known defect (OCC-3)
            } else {
                silence(row.id, origin: .lifecycle, into: &out)
            }
            if flavor == .android { queuePassOver(row, ringTimeMs: startedAt, owner: live, now: now) }  // AND-15
            notePassedOver(row, ringTimeMs: startedAt)
            if defects.passOverCountedAudible { recordAudible(rootID: row.metadata.rootID) }  // known defect (SND-13)
            return false
        }
        // REC-9, OCC-3: the instant this ring time was reached, in the frame of each record: the
        // occurrence live across the last correction keeps its interval in the corrected frame (a
        // ring time reached in the old frame of a set-back is an hour "earlier" there: android
        // uniform seed 4988); one closed before the correction is all in the old frame, where the
        // ring time is itself (ios uniform seed 6459: an 08:05 after a 07:20 completion, then an
        // unseen 1 h set-back, is no pass-over).
        var reachedAt = startedAt + clockOffset(forStart: startedAt, ringID: row.id, now: now)
        // Only a ring registered at the correction was due in the old frame: one published since
        // is due at its time in the new frame (android uniform seed 11530).
        if lastBackwardJumpDated, let back = lastBackwardJump, startedAt <= back.fromWallMs, startedAt > back.toWallMs,
           reLivedRingIDs.contains(row.id), !publishedSinceBackwardJump.contains(row.id) {
            reachedAt = startedAt + (back.toWallMs - back.fromWallMs)  // due in the old frame (TIME_SET)
        }
        // A record placed in the corrected frame (live across the correction, or opened late with
        // its offset: `inactivityClockOffsetMs`) is compared in that frame (android swarm seed
        // 10378: a1's 05:56 and a2.tue's 06:22 held by forced app standby across a 10 min
        // set-back at 06:25; a1's interval moved to the new frame, a2.tue's ring time did not,
        // and the pass-over was missed).
        let acrossToken = correctionLiveToken
        if let incumbent = document?.occurrences.last(where: { record in
            let corrected = record.token == acrossToken || record.inactivityClockOffsetMs != 0
            // The root's own occurrence counts too, unless it is this very ring time (OCC-20, below):
            // a leftover ring of the definition an interrupted save replaced opened the day, and the
            // new ring time came while it was live, as the live path judges it (ios uniform seed
            // 22407: a1.fri edited from 08:06 to 08:18, the process died in the save; both rang,
            // and the launch at 08:22, after 08:06's occurrence expired, opened 08:18 as a new one).
            let ownRingTime = record.rootID == row.metadata.rootID && record.startedAtMs == startedAt
            return !ownRingTime && record.wasLive(at: corrected ? reachedAt : startedAt)
        }) {
            // OCC-3: this root became due while another occurrence was live — observed only now
            // (a suspended or dead process), after that occurrence closed. Still a pass-over.
            out.append(.note("pass-over (observed late): \(row.metadata.rootID) was due while \(incumbent.rootID) owned the occurrence"))
            silence(row.id, origin: .lifecycle, into: &out)
            notePassedOver(row, ringTimeMs: startedAt)
            return false
        }
        if document?.passedOverRingTimes?.contains(PassedOverRingTime(rootID: row.metadata.rootID, ringTimeMs: startedAt)) == true {
            // OCC-3, OCC-20: a set-back clock brought a passed-over ring time back (AlarmKit alerts
            // the `.relative` ring again): that time delivered again, never an owner (ios seed 8418).
            out.append(.note("pass-over again: \(row.metadata.rootID)'s ring time was passed over before"))
            silence(row.id, origin: .lifecycle, into: &out)
            return false
        }
        if document?.occurrences.contains(where: { $0.rootID == row.metadata.rootID && $0.startedAtMs == startedAt }) == true {
            retire(row, reason: "primary of a closed occurrence", into: &out)  // OCC-20
            return false
        }
        // OCC-2, ID-6: the first due root becomes owner; a new persisted token (OCC-16).
        let policy = document?.root(row.metadata.rootID)?.policy ?? .v3
        let offset = clockOffset(forStart: startedAt, ringID: row.id, now: now)
        mutate { document in
            document.serial += 1
            let token = RingIdentity.occurrenceToken(rootID: row.metadata.rootID, startedAtMs: startedAt, serial: document.serial)
            var record = OccurrenceRecord(token: token, rootID: row.metadata.rootID, startedAtMs: startedAt,
                                          policy: policy, lastActivityMs: nil, state: .live, closedAtMs: nil)
            record.inactivityClockOffsetMs = offset
            document.update(record)
        }
        settleOneShot(row, ringTimeMs: startedAt)
        // INACT-21: a delivery observed late may already be past its deadline: it opens, is
        // journalled as a miss, and closes at once instead of ringing on.
        expireIfDue(now: now, into: &out)
        guard document?.hasLiveOccurrence == true else { return false }
        armExpiryTimer(now: now, into: &out)
        return true
    }

    /// Issue 18 (Apple developer forums thread 820388, FB22327481: a `.fixed` 07:30 alarm
    /// sometimes fires at 00:00 with the clock correct). RULES.md is silent on an alert before
    /// its time; decided from ID-8 (an occurrence starts at the configured ring time that opened
    /// it; seed 000, "getActiveWakeOccurrence reports the policy version"), OCC-2 (a root becomes
    /// the owner when it becomes *due*) and IOS-2 (the daemon is the authority on whether a ring
    /// exists). What the bridge can observe: the `.fixed` instant it asked for (its row) and the
    /// time the alert was seen (or its Stop reached the app). An alert seen more than
    /// ``wrongInstantLeadMs`` before that instant is not the ring time's delivery: nothing is
    /// opened, credited, expired, snoozed or handed on from it, the row stays undelivered, and
    /// the same ring (ID, instant, sound) is registered again, which ends the early alert (a
    /// same-ID schedule replaces it) or restores the one-shot its Stop deleted, so the real ring
    /// time still rings. A clock set back while an alert sounds also puts its instant ahead of
    /// the clock, by the set-back (REC-9): the bound is above any manual correction the
    /// simulated field makes (1 h each).
    /// Known defect `wrong-instant-taken-as-start`: the bridge that takes it as the delivery.
    public static let wrongInstantLeadMs: Int64 = 3 * 3_600_000

    /// True when ring `id`, seen alerting (or stopped) at `atWallMs`, alerted at a wrong instant.
    /// The lead is measured in the frame the alert may have begun in: a forward correction seen
    /// since the previous view of the daemon (`lastForwardJump`) may have come after the alert
    /// began, and then the alert was that much further ahead of its instant (REC-9; ios uniform
    /// seed 25069: an alert at 00:00 for 09:01, a +1 h jump at 03:45, seen at 06:40 — 2 h 20 min
    /// ahead on the clock now, 3 h 20 min when it began).
    func isWrongInstantDelivery(_ id: AlarmUUID, atWallMs: Int64) -> Bool {
        guard flavor == .ios, !defects.wrongInstantTakenAsStart, let row = document?.row(id), !row.delivered,
              case .fixed(let wallMs) = row.schedule else { return false }
        var leadMs = wallMs - atWallMs
        if let jump = lastForwardJump, (observedBeforeWallMs ?? .min) < jump.toWallMs, atWallMs >= jump.toWallMs {
            leadMs += jump.toWallMs - jump.fromWallMs
        }
        if leadMs > Self.wrongInstantLeadMs { return true }
        let rawLeadMs = wallMs - atWallMs  // the instant still ahead on the clock now
        // Judged so already in this process, and the instant is still ahead: the same alert (its
        // re-registration in flight leaves the row unconfirmed until it lands).
        if wrongInstantRings.contains(id), rawLeadMs > 0 { return true }
        // REC-9, ID-8: with no set-back noticed since a reading of this boot that came before the
        // alert began, nothing moved the clock back over the instant: an alert seen before it
        // began before it, however short the lead. Only a primary or seed whose row is the ring
        // AlarmKit holds (confirmed, no replacement of a held ring pending), in its own zone.
        // (ios swarm seed 63723: a1.wed's `.fixed` 08:57 alerted at 00:00, first seen at 06:06,
        // 2 h 51 min ahead, by a process launched in the same boot: taken as due, passed over and
        // its concrete day rolled, and 08:57 never rang.)
        guard row.metadata.kind.opensOccurrence, row.confirmed, row.replacesHeldRing != true, !isPlannedInEarlierZone(row),
              rawLeadMs > configuration.clockChangeThresholdMs, let view = viewBeforeAlert(seenAtWallMs: atWallMs) else { return false }
        return lastBackwardJump.map { $0.lastReadingWallMs < view } ?? true
    }

    /// The wall ms of this boot's latest reading before an alert seen at `atWallMs` began (a
    /// view of this process, or the previous process's last reading of this boot), or nil.
    func viewBeforeAlert(seenAtWallMs atWallMs: Int64) -> Int64? {
        if let last = lastObservationWallMs, last < atWallMs { return last }  // a Stop's step, before its view
        return observedBeforeThisBoot ? observedBeforeWallMs : nil
    }

    /// Registers ring `id` again for its own instant after a wrong-instant alert (see
    /// ``wrongInstantLeadMs``); once per alert: a request in flight is the answer.
    /// - Parameter stopFirst: the alert still sounds: it is stopped first (AlarmKit deletes the
    ///   one-shot), so it ends even when the new request fails (ios swarm seed 1373: a refused
    ///   re-registration left it alerting in the foreground, FG-1).
    mutating func registerAgainAfterWrongInstant(_ id: AlarmUUID, stopFirst: Bool = false, now: BridgeInstants,
                                                 into out: inout [BridgeCommand]) {
        guard let row = document?.row(id), !inFlight.contains(id) else { return }
        if !wrongInstantRings.contains(id) {
            wrongInstantRings.append(id)
            if wrongInstantRings.count > 16 { wrongInstantRings.removeFirst() }
        }
        if stopFirst { silence(id, origin: .lifecycle, into: &out) }
        // REC-8: only while the instant is still the root's local ring time; after a zone change
        // the launch sync registers the re-planned occurrence instead (ios seed 579: a2.wed's
        // 08:29 Berlin, alerted early, read after a move to Tokyo, was registered again for 15:29).
        let local = configuration.calendar.local(row.fireWallMs)
        guard let root = document?.root(row.metadata.rootID), local.hour == root.hour, local.minute == root.minute else {
            out.append(.note("ring \(id) alerted before its instant, which is no longer its root's local ring time: stopped, left to the sync (REC-8)"))
            return
        }
        out.append(.note("ring \(id) alerted \((row.fireWallMs - now.wallMs) / 60_000) min before its instant: not its delivery; registered again for its time (ID-8, IOS-2; forums 820388)"))
        let request = RingRequest(id: row.id, schedule: row.schedule, fireWallMs: row.fireWallMs, metadata: row.metadata,
                                  countdown: document?.alarm(row.metadata.alarmID)?.countdown, soundName: row.soundName)
        publishAndSchedule([request], origin: .lifecycle, now: now, into: &out)
    }

    /// iOS, OCC-3: remembers a passed-over ring time (`passedOverRingTimes`), and a one-shot
    /// passed over is spent at it (REC-8, `settleOneShot`): its one ring time came, and a row
    /// re-planned before the delivery was seen must not re-arm it for the next day (ios uniform
    /// seed 6153: a ring time inside an unseen jump's window, still listed as scheduled, read as
    /// jumped over).
    mutating func notePassedOver(_ row: RingRow, ringTimeMs: Int64) {
        guard flavor == .ios else { return }
        settleOneShot(row, ringTimeMs: ringTimeMs)
        rememberPassedOver(rootID: row.metadata.rootID, ringTimeMs: ringTimeMs)
    }

    /// Appends `(rootID, ringTimeMs)` to `passedOverRingTimes` (bounded, oldest dropped first).
    mutating func rememberPassedOver(rootID: String, ringTimeMs: Int64) {
        mutate { document in
            var times = (document.passedOverRingTimes ?? []).filter { $0.rootID != rootID || $0.ringTimeMs != ringTimeMs }
            times.append(PassedOverRingTime(rootID: rootID, ringTimeMs: ringTimeMs))
            if times.count > Self.passedOverRingTimesMax { times.removeFirst(times.count - Self.passedOverRingTimesMax) }
            document.passedOverRingTimes = times
        }
    }

    /// The bound of `passedOverRingTimes` (oldest dropped first).
    static let passedOverRingTimesMax = 16

    /// REC-8: a one-shot rings once. When its primary's delivery opens an occurrence, the one-shot
    /// is spent at that ring time, whatever instant the bridge had planned for it: AlarmKit moved
    /// the `.relative` ring when the zone changed, before the app learnt of the change and
    /// re-planned the one-shot after the ring (ios seed 2770 re-armed it for the next morning).
    mutating func settleOneShot(_ row: RingRow, ringTimeMs: Int64) {
        guard row.metadata.kind == .primary, case .relative(let hour, let minute, nil) = row.schedule,
              let index = document?.alarms.firstIndex(where: { $0.id == row.metadata.alarmID }),
              let alarm = document?.alarms[index], case .once(let fire) = alarm.repeats, fire > ringTimeMs,
              alarm.hour == hour, alarm.minute == minute else { return }
        mutate { $0.alarms[index].repeats = .once(fireWallMs: ringTimeMs) }
    }

    /// The configured ring time of the occurrence a primary delivery opens (ID-8).
    func occurrenceStart(of row: RingRow, now: BridgeInstants) -> Int64 {
        switch row.schedule {
        case .fixed(let wallMs):
            return wallMs
        case .relative(let hour, let minute, let weekday):
            // The latest match in the zone in force now — or the instant the ring was registered
            // for, when that is later: an alert that began before a time-zone change belongs to
            // the old zone's ring time (REC-8), not to a week-old match in the new zone.
            // A row planned in a previous zone is evidence only for a time before the change
            // (after it, the platform had moved the alarm to the new zone: ios seed 508).
            // After a clock set back (REC-9) an alert may have begun at a ring time the new frame
            // has not reached yet: the old frame had (ios seed 7197, read as last week's match).
            let reached = max(now.wallMs, lastBackwardJump?.fromWallMs ?? .min)
            var latest = configuration.calendar.latestFire(hour: hour, minute: minute, weekday: weekday, atOrBefore: reached)
            // The re-planned case is judged before `matchAfterUnseenSetBack`, which reads the
            // re-plan's own publication as the ring's registration and would date the alert at
            // the next match, in the future (ios swarm seed 141: a3's 08:52 Sydney alert, seen
            // after a move to UTC behind an `alarmUpdates` set that re-planned it for 08:52 UTC
            // the next day, opened an occurrence live until the next morning).
            let plannedAt = replannedRelativeRows.last(where: { $0.id == row.id })?.fromWallMs
            if let before = matchBeforeZoneChange(row, hour: hour, minute: minute, weekday: weekday, latest: latest, now: now) {
                return before
            }
            if let unseen = matchAfterUnseenSetBack(row, hour: hour, minute: minute, weekday: weekday, latest: latest, now: now),
               !(row.fireWallMs > now.wallMs && plannedAt.map { $0 <= now.wallMs && $0 > latest } == true) {
                latest = unseen
            }
            let adopted = document?.zoneAdoptedAtMs ?? .min
            let rowInForce = row.publishedAtMs >= adopted || row.fireWallMs <= adopted
            if row.fireWallMs > now.wallMs, let planned = plannedAt, planned <= now.wallMs, planned > latest {
                // REC-8, IOS-5: re-planned as moved by the zone change on a set AlarmKit took before
                // the ring fired (updates held while suspended arrive in a burst), the ring alerts
                // now: AlarmKit never moves an alerting alarm, so it rang at its planned instant,
                // not at a match in the new zone hours before (ios swarm seed 39636: 09:56 Tokyo
                // rang, the zone became São Paulo 28 s later; read at 21:57 as 09:56 São Paulo,
                // the occurrence expired at its opening).
                return planned
            }
            guard row.fireWallMs <= reached && rowInForce else { return latest }
            // REC-8, OCC-21, INACT-22: a one-shot `.relative` ring (`repeats: .never`) rings once, at
            // the first match after its registration — its row's instant — unless a clock jump
            // passed over it (AlarmKit may then wait for the next match; a process that saw it
            // pending after such a jump re-planned the row, `replanMovedRelativeRows`) or a zone
            // change moved it (the instant is then no match of the current zone: ios seed 6612).
            // With neither, and no view of the platform since that instant (a process that saw the
            // ring still pending after it knows it was held or jumped over, unseen: ios uniform seed
            // 7538, a boot-hidden forward jump over a waiting one-shot that rang the next morning),
            // an alert still sounding a day later is that one ring, not today's match (ios uniform
            // seeds 34717, 39356: a legacy one-shot alerting for 25 h with no process was dated at
            // the second morning and kept live past its 20 h bound).
            if weekday == nil && lastForwardJump == nil && (observedBeforeWallMs ?? .min) < row.fireWallMs
                && configuration.calendar.latestFire(hour: hour, minute: minute, weekday: nil, atOrBefore: row.fireWallMs) == row.fireWallMs {
                return row.fireWallMs
            }
            return max(latest, row.fireWallMs)
        }
    }

    /// REC-8, IOS-5, ID-8, OCC-20: a `.relative` weekly ring registered before the zone change the
    /// bridge adopted last, whose planned instant is still ahead and whose latest match in the new
    /// zone lies before its registration, cannot have begun in the new zone: it alerted before the
    /// change, at the latest match in the previous zone (AlarmKit moves a pending `.relative` ring
    /// with the zone, never an alerting one). The ring time is that match, within the 20 h bound
    /// (OCC-21). Matches of the new zone are no evidence of a set-back here: the zone, not the
    /// clock, moved them (`matchAfterUnseenSetBack` would date the alert at a match still ahead).
    /// RULES.md is silent on dating an alert seen only after a zone change; decided from REC-8
    /// (local times re-planned only in a new frame a process saw) and IOS-2 (the daemon rang what
    /// it held). Ios uniform seed 42727: a1.tue's `.relative(06:49 tue)` rang again at 06:49
    /// Berlin after a 1 h set-back brought that passed-over (or completed) ring time back, the
    /// zone became São Paulo at 06:54, and the resume dated the alert 06:49 São Paulo, hours
    /// ahead: it opened a1.tue's occurrence, which then passed over a2.tue's new 06:18 São Paulo.
    func matchBeforeZoneChange(_ row: RingRow, hour: Int, minute: Int, weekday: Weekday?, latest: Int64,
                               now: BridgeInstants) -> Int64? {
        guard weekday != nil, let document, let adopted = document.zoneAdoptedAtMs, row.publishedAtMs < adopted,
              row.fireWallMs > now.wallMs, latest < row.publishedAtMs,
              let previous = previousZoneCalendar() else { return nil }
        let before = previous.latestFire(hour: hour, minute: minute, weekday: weekday, atOrBefore: min(adopted, now.wallMs))
        guard before > latest, now.wallMs - before < 20 * 3_600_000 else { return nil }
        return before
    }

    /// REC-8: the calendar of the zone the bridge held before it adopted the current one
    /// (`previousZoneIdentifier`), or nil when there is none or it is the zone in force.
    func previousZoneCalendar() -> WallCalendar? {
        guard let previousID = document?.previousZoneIdentifier, previousID != configuration.calendar.zoneIdentifier else { return nil }
        return WallCalendar(zoneIdentifier: previousID, dstPolicy: configuration.calendar.dstPolicy)
    }

    /// REC-9, ID-8: a `.relative` ring alerting at a local time whose latest match in the current
    /// frame lies before the last reading an earlier process persisted, while that process held
    /// the ring pending and undelivered, cannot have begun at that match; when the next match
    /// after that reading is still ahead of the clock (and within the 20 h bound, OCC-21), the
    /// clock was set back after the ring began, unseen by any process (a reboot restarts the
    /// monotonic clock): the ring time is that next match (ios uniform seed 10296: a Thursday
    /// 05:10 alert after a reboot and an unseen 1 h set-back was dated a week back and expired).
    /// A delivery merely held late dates itself in the frame (its next match is a day or more away),
    /// and so does a ring gone unseen (IOS-5 reads it as rung and stopped): only an alert now
    /// sounding is evidence of the set-back (ios uniform seed 5189: an OS-removed one-shot).
    /// Only the alert being observed counts: the bridge's `alerting` holds it during its delivery,
    /// and a Stop intent that reached this process in this boot (`stopArrivals`) was tapped on
    /// the alert while it sounded (INACT-4, OCC-5): the same evidence (ios uniform seed 70486: a
    /// 07:05 one-shot rang after a reboot with no process, the clock was set back 10 min, and the
    /// Stop at 06:55:39 launched the app; read as the day before's 07:05, the occurrence expired
    /// at its Stop and no successor was armed). A Stop journalled by an earlier process is not:
    /// its alert may have ended long ago.
    /// A ring rings at a match after its registration (`publishedAtMs`), never before: that
    /// instant bounds it the same way, also for a row whose answer was lost with its process (not
    /// confirmed: the reading then proves nothing, the registration still does; the same seed
    /// with the only earlier process dead 0.4 s after registering the ring).
    func matchAfterUnseenSetBack(_ row: RingRow, hour: Int, minute: Int, weekday: Weekday?, latest: Int64,
                                 now: BridgeInstants) -> Int64? {
        let stoppedNow = stopArrivals.contains { $0.ringID == row.id && $0.bootCount == now.bootCount && $0.monotonicMs != nil }
        guard previousProcessReadingWallMs != nil, alerting.contains(row.id) || stoppedNow, !row.delivered else { return nil }
        let heldAtReading = row.confirmed ? previousProcessReadingWallMs ?? .min : .min
        let reading = max(heldAtReading, row.publishedAtMs)
        guard latest < reading - Self.lateDeliverySlackMs else { return nil }
        // Its planned instant (in the zone it was planned in) explains the alert, held late past the
        // reading (ios uniform seed 20482: a late 06:16 Sydney alert seen after a move to São Paulo).
        if row.fireWallMs > reading - Self.lateDeliverySlackMs && row.fireWallMs <= now.wallMs { return nil }
        let next = configuration.calendar.nextFire(hour: hour, minute: minute, weekday: weekday, after: reading)
        guard next > now.wallMs, next - now.wallMs < 20 * 3_600_000 else { return nil }
        return next
    }

    /// REC-9: remembers the rings `inventory` lists still scheduled and undelivered at or after
    /// their fire time (`heldPastFireSeen`; a delivery the phone holds late, PLATFORMS.md).
    mutating func noteHeldPastFire(_ inventory: [PlatformAlarm], now: BridgeInstants) {
        let rings = document?.rings ?? []  // fields read in place (issue 20)
        for alarm in inventory where alarm.state == .scheduled {
            guard let index = document?.rowIndex(alarm.id), !rings[index].delivered, rings[index].fireWallMs <= now.wallMs else { continue }
            heldPastFireSeen.removeAll { $0 == alarm.id }
            heldPastFireSeen.append(alarm.id)
        }
        if heldPastFireSeen.count > Self.heldPastFireSeenMax {
            heldPastFireSeen.removeFirst(heldPastFireSeen.count - Self.heldPastFireSeenMax)
        }
    }

    /// REC-8: remembers the instant a `.relative` row was planned for before
    /// ``replanMovedRelativeRows(_:delivered:now:)`` moved it to the new zone (bounded).
    mutating func noteReplannedRelativeRow(_ row: RingRow) {
        replannedRelativeRows.removeAll { $0.id == row.id }
        replannedRelativeRows.append((row.id, row.fireWallMs))
        if replannedRelativeRows.count > Self.replannedRelativeRowsMax { replannedRelativeRows.removeFirst() }
    }

    /// True when `row` is pressure of the live occurrence `live`.
    func isBound(_ row: RingRow, to live: OccurrenceRecord) -> Bool {
        switch row.metadata.kind {
        case .successor, .snooze, .walkFuse, .legacyCadence, .legacyForegroundMaintenance, .legacyFusePair,
             .legacySafetyRelay, .legacyWalkCadence:
            return row.metadata.token == live.token
        case .primary: return row.metadata.rootID == live.rootID
        // REC-7: a seed is never pressure for the current occurrence; only the seed that opened it
        // (it fired before the bridge could roll it) belongs to it.
        case .seed: return row.metadata.rootID == live.rootID && row.fireWallMs == live.startedAtMs
        }
    }

    /// INACT-4, INACT-6: an explicit dismissal credits genuine activity, only after validating
    /// that the ring belongs to the live occurrence.
    /// - Parameter known: the ring's row as it was when the Stop reached the app, for a row the
    ///   bridge has dropped since (``creditStopOfRetiredRing(_:rows:now:into:)``).
    mutating func credit(_ id: AlarmUUID, known: RingRow? = nil, now: BridgeInstants, into out: inout [BridgeCommand]) {
        if defects.dismissalRevivesExpired, document?.hasLiveOccurrence != true, let row = document?.row(id),
           let token = row.metadata.token ?? document?.occurrences.last(where: { $0.rootID == row.metadata.rootID })?.token,
           let closed = document?.occurrence(token: token), closed.state == .expired {
            // Known defect (issue 5): the dismissal of a ring of an expired occurrence revives it.
            out.append(.note("defect dismissal-revives-expired: \(closed.rootID) live again"))
            mutate { $0.update(with(closed) { $0.state = .live; $0.closedAtMs = nil; $0.lastActivityMs = now.wallMs }) }
            armExpiryTimer(now: now, into: &out)
            return
        }
        guard let live = document?.liveOccurrence, let row = document?.row(id) ?? known ?? landedAfterCancel(id, of: live),
              isBound(row, to: live) else { return }
        // INACT-4, OCC-11: a primary row is bound by its root alone, so a Stop that reached the app
        // before the live occurrence began is the Stop of an earlier occurrence of that root (a
        // locked-boot launch replays it only after that occurrence expired and a newer one, from
        // another time of the same root, opened): it is no activity of this one (ios uniform seed
        // 19714: the 06:24 Stop of 06:20 credited the 06:47 occurrence at 06:50).
        let began = live.startedAtMs + live.inactivityClockOffsetMs
        if let trigger = stopTriggerWallMs(id, now: now), trigger < began, began <= now.wallMs {
            out.append(.note("INACT-4: Stop of \(id) came before the live occurrence began: not credited"))
            return
        }
        // INACT-6: Android credits only a dismissal of a ring whose captured occurrence is the
        // live one and that is still ringing (its lifecycle valid).
        if flavor == .android, !androidDismissalIsValid(id, live: live) {
            out.append(.note("INACT-6: dismissal of \(id) not credited (captured occurrence or lifecycle invalid)"))
            return
        }
        if let arrival = stopArrivals.first(where: { $0.ringID == id }), arrival.monotonicMs == nil,
           (live.lastActivityMs ?? .min) >= arrival.wallMs {
            // ACT-6: a Stop replayed from the journal whose credit an earlier process already wrote
            // (it died before it cleared the journal) credits nothing twice (fault death-mid-close,
            // ios seed 161: the replay credited it again, 5 s after the launch that had).
            out.append(.note("INACT-4: journalled Stop of \(id) already credited: not again (ACT-6)"))
            return
        }
        if let at = journalledReadyStopWallMs(id, now: now) {
            // INACT-3, INACT-13, ACT-1: a Stop a ready process journalled and then died before its
            // credit was written is activity at its own instant, never at this recovery (fault
            // death-mid-close, ios seeds 113, 479: the next launch credited it at the launch).
            mutate { $0.update(with(live) { $0.lastActivityMs = max($0.lastActivityMs ?? .min, at) }) }
        } else {
            mutate { $0.update(with(live) { $0.lastActivityMs = now.wallMs }) }
        }
        armExpiryTimer(now: now, into: &out)
    }

    /// INACT-4, IOS-11: the row of `id` when it is a ring this bridge cancelled while its schedule
    /// was in flight (`cancelledInFlight`), bound to `live` by its token: it landed after the
    /// cancel and sounded for the live occurrence, whose pressure it is
    /// (``silenceLandedAfterCancel(_:into:)``), so its Stop is an explicit dismissal of that
    /// occurrence's ring — genuine activity, as its Stop is that occurrence's successor trigger
    /// (``pendingStopTriggerWallMs(for:now:)``). Ios uniform seed 84019: the successor armed at a
    /// locked-boot release was cancelled in flight when the challenge rendered; the process died,
    /// the successor landed and rang, and the Stop that launched the next process armed a new
    /// successor but credited nothing: the deadline stayed 5.7 s short.
    func landedAfterCancel(_ id: AlarmUUID, of live: OccurrenceRecord) -> RingRow? {
        document?.cancelledInFlight?.first { $0.id == id && $0.metadata.token == live.token }
    }

    /// INACT-4, ACT-1, IOS-11: a Stop that reached the app before the observation it waited for
    /// (a launch, a look-first read) is the user's explicit dismissal of the ring as it was then.
    /// When that observation dropped the ring's row before the Stop is replayed — an earlier
    /// process's skip completed on its behalf retires the snooze ring (SNZ-15,
    /// `adoptLandedSkipSuccessor`), a landed snooze cancels the successors (SNZ-7) — the Stop still
    /// came first, and the ring it dismissed sounded for the live occurrence whose token it carries:
    /// genuine activity, credited with the row the Stop found. Only occurrence-bound rings, bound
    /// by their token (a primary is bound by its root alone, OCC-11). Ios swarm seed 12648: a skip
    /// at 05:21 whose process died before the snooze ring's retirement; the snooze ring rang at
    /// 05:45 and was stopped at 05:49; the launch the Stop woke adopted the skip's landed successor,
    /// retired the snooze ring's row, and then found the Stop's ring unknown: the deadline stayed at
    /// the snooze baseline, 3 min 30 s short.
    mutating func creditStopOfRetiredRing(_ input: BridgeInput, rows: [RingRow], now: BridgeInstants,
                                          into out: inout [BridgeCommand]) {
        guard flavor == .ios, case .stopIntent(let id) = input, document?.row(id) == nil,
              let row = rows.first(where: { $0.id == id }), row.metadata.kind.isOccurrenceBound,
              let live = document?.liveOccurrence, row.metadata.token == live.token else { return }
        out.append(.note("INACT-4: Stop of \(id) reached the app before its ring was retired: credited"))
        credit(id, known: row, now: now, into: &out)
    }

    /// The wall instant of a Stop of `id` replayed from the native journal that a ready bridge of
    /// an earlier process wrote (`journalStopBeforeLooking`); nil for any other Stop (one that
    /// reached this process, or one journalled behind the launch gate, credited as validated now).
    func journalledReadyStopWallMs(_ id: AlarmUUID, now: BridgeInstants) -> Int64? {
        guard let arrival = stopArrivals.first(where: { $0.ringID == id }), arrival.monotonicMs == nil,
              journal.contains(where: { $0.ringID == id && $0.action == "stop" && $0.occurredAtMs == arrival.wallMs
                                        && $0.journalledReady == true }) else { return nil }
        return min(arrival.wallMs, now.wallMs)
    }

    /// OCC-5, IOS-7, SND-12: the owner's alert left alerting without Ember open → one successor.
    mutating func alertEnded(_ id: AlarmUUID, now: BridgeInstants, into out: inout [BridgeCommand]) {
        removeAlerting(id)
        guard let live = document?.liveOccurrence, let row = document?.row(id), isBound(row, to: live) else { return }
        // FG-6: retries are held back while the app is active or the challenge is rendered.
        if appActive || challengeVisible { return }
        if replayedStopHandedOn(id, live: live) {
            out.append(.note("journalled Stop of \(id) already handed on to a successor by an earlier process (ACT-6, OCC-7)"))
            return
        }
        // OCC-6: a Stop's successor is due 10 s after the Stop reached the app, also when the
        // bridge sees the alert end only in the read it made before acting on it (IOS-2).
        armSuccessor(for: live, now: now, triggerWallMs: stopTriggerWallMs(id, now: now), into: &out)
        retireSpentSnoozeCopy(now: now, into: &out)  // SNZ-13: a reused successor is accepted already
    }

    /// ACT-6, OCC-6, OCC-7: a Stop of `id` replayed from the native journal (an earlier process
    /// died before it cleared the journal) whose successor that process already armed — a
    /// successor row of `live` due no earlier than 10 s after the Stop — has no second effect: a
    /// new successor timed from its old instant would be due at once, and a newer Stop would reuse
    /// it (fault death-mid-close, ios seed 13: the Stop of the successor that rang was handed a
    /// successor due at once). Later alert ends have triggers of their own.
    func replayedStopHandedOn(_ id: AlarmUUID, live: OccurrenceRecord) -> Bool {
        guard let arrival = stopArrivals.first(where: { $0.ringID == id }), arrival.monotonicMs == nil else { return false }
        return document?.rings.contains { row in
            row.metadata.kind == .successor && row.metadata.token == live.token && row.id != id
                && row.fireWallMs >= arrival.wallMs + configuration.successorDelayMs
        } == true
    }

    /// True when the live occurrence has a ring alerting, pending or in flight. A ring this bridge
    /// stopped in the foreground (FG-2) is no pressure although `alarmUpdates` may not yet show the
    /// stop: it will not sound again, so a refused successor must still be retried once the app has
    /// left (OCC-5, FG-3; ios uniform seed 249: the armRetry found the stopped primary "alerting").
    func hasPressure(_ live: OccurrenceRecord, now: BridgeInstants) -> Bool {
        guard let document else { return false }
        return document.rings.contains { row in
            guard isBound(row, to: live) else { return false }
            if alerting.contains(row.id) { return !stoppedAlerts.contains(row.id) }
            // A pending primary is the root's *next* occurrence, never pressure for this one (REC-7).
            return row.metadata.kind.isOccurrenceBound && !row.delivered && (row.confirmed || inFlight.contains(row.id))
        }
    }

    /// The pending (armed, not yet delivered) successor of an occurrence, if any.
    func pendingSuccessor(of live: OccurrenceRecord) -> RingRow? {
        document?.rings.firstPending(.successor, token: live.token)
    }

    /// OCC-6, OCC-7: arms at most one owner-scoped successor due 10 s after the trigger; a
    /// concurrent trigger reuses the one already armed. The row is published before the
    /// platform call (SCH-6). IOS-15: the pressure is always an AlarmKit ring, never a notification
    /// whose interruption level could silently drop to `.active` (IOS-13).
    /// SNZ-12: before a snooze is accepted and after its ring was consumed, this is the ordinary
    /// rearm. INACT-12: the policy version never changes the 10 s delay.
    /// - Parameter triggerWallMs: when the trigger happened (wall ms, this frame); `now` when nil.
    ///   A trigger more than 10 s ago arms a successor due now.
    mutating func armSuccessor(for live: OccurrenceRecord, now: BridgeInstants, triggerWallMs: Int64? = nil,
                               into out: inout [BridgeCommand]) {
        if stepHoldBlocksArm(live, into: &out) { return }  // known defect step-suppression-drops-retry only
        // SNZ-10, SNZ-21: a confirmed snooze ring holds the pressure, also while a same-ID
        // replacement (a rebase after a clock correction) is in flight: the daemon keeps the ring
        // it holds until the replacement lands (ios seed 4796: a Stop during the rebase armed a
        // successor beside it).
        if let snooze = pendingSnooze(of: live), snooze.confirmed || resounded.contains(where: { $0.id == snooze.id && $0.confirmed }) {
            out.append(.note("snooze ring \(snooze.id) holds the pressure (SNZ-10)"))
            return
        }
        if walkOwnsPressure(live) {
            out.append(.note("the walk fuse holds the pressure: no ordinary successor (WALK-20)"))
            return
        }
        if let pending = pendingSuccessor(of: live) {
            out.append(.note("successor \(pending.id) reused (OCC-7)"))
            return
        }
        // OCC-6: a successor armed while a Stop of this occurrence waits to be acted on (the
        // launch reconcile's repair after the replayed Stop, too) is the Stop's.
        let trigger = triggerWallMs ?? pendingStopTriggerWallMs(for: live, now: now) ?? now.wallMs
        let fireWallMs = max(trigger + configuration.successorDelayMs, now.wallMs)
        guard let request = newOccurrenceRing(.successor, for: live, fireWallMs: fireWallMs) else { return }
        publishAndSchedule([request], origin: .lifecycle, now: now, into: &out)
        retireReAddedCopies(of: live, kinds: [.successor, .snooze], keeping: request.id, into: &out)
    }

    /// OCC-7, OCC-8, SNZ-7, SNZ-10: a delivered successor or snooze ring of `live` that a sync
    /// added back at or after its ring time may still have that copy pending on Android
    /// (``retireReAddedCopyAtClose(_:origin:into:)``: the delivery the bridge saw may have been
    /// the original registration's, on its way when the sync re-added it). New pressure replaces
    /// it: the new ring is armed first, then the copy is cancelled, so the occurrence never holds
    /// two (a cancel that finds nothing is harmless); the delivered row stays, as at any delivery.
    /// - Parameters:
    ///   - kinds: the ring kinds the new pressure replaces (a successor replaces a successor's or
    ///     a consumed snooze ring's copy; a confirmed snooze ring or a rendered challenge, OCC-9,
    ///     replaces a successor's).
    ///   - id: the ring just armed, never cancelled here; nil when nothing new was armed.
    /// Android uniform seeds 2645 and 2090: under "Restricted" battery usage, AlarmManager released
    /// a successor held for hours the instant the user opened Ember, the launch sync added it back
    /// before the delivery arrived, and resigning active armed a second successor beside the
    /// copy. Android uniform seed 17881: the same with the snooze ring's copy, delivered as a
    /// killed process relaunched; leaving the app armed FG-3's successor beside the copy.
    mutating func retireReAddedCopies(of live: OccurrenceRecord, kinds: [RingKind], keeping id: AlarmUUID?,
                                      into out: inout [BridgeCommand]) {
        guard flavor == .android else { return }
        let copies = (document?.rings ?? []).filter {
            $0.id != id && $0.delivered && kinds.contains($0.metadata.kind) && $0.metadata.token == live.token
                && $0.publishedAtMs >= $0.fireWallMs && !reAddedCopiesCancelled.contains($0.id)
        }
        for row in copies {
            reAddedCopiesCancelled.append(row.id)
            if reAddedCopiesCancelled.count > Self.heldInProcessMax { reAddedCopiesCancelled.removeFirst() }
            out.append(.note("\(row.metadata.kind.rawValue) \(row.id) was added back after its ring time: new pressure replaces any pending copy (OCC-7)"))
            out.append(.cancel(row.id, origin: .lifecycle))
        }
    }

    /// A new ring bound to `live` (successor or snooze ring, ID-9): a fresh serial-based ID, the
    /// owner's metadata, a fixed fire instant. nil when the owner's root is unknown.
    mutating func newOccurrenceRing(_ kind: RingKind, for live: OccurrenceRecord, fireWallMs: Int64) -> RingRequest? {
        guard let root = document?.root(live.rootID) ?? rootFromRows(live.rootID) else { return nil }
        var id = AlarmUUID(bytes: Array(repeating: 0, count: 16))
        mutate { document in
            document.serial += 1
            id = RingIdentity.successorID(token: live.token, serial: document.serial)
        }
        let metadata = RingMetadata(rootID: live.rootID, alarmID: root.alarmID, kind: kind, token: live.token, title: root.title)
        // SND-2, SND-3: the ring sounds at the occurrence's current position (SND-7: arming never
        // advances it; only its audible delivery will).
        let position = sequencePosition(of: document?.occurrence(token: live.token) ?? live)
        let request = withSound(RingRequest(id: id, schedule: .fixed(wallMs: fireWallMs), fireWallMs: fireWallMs, metadata: metadata),
                                position: position)
        advanceOnArmDefect(id, token: live.token)
        return request
    }

    /// A root known only from registry rows (its alarm was deleted while an occurrence lives).
    func rootFromRows(_ rootID: String) -> Root? {
        guard let row = document?.rings.first(where: { $0.metadata.rootID == rootID }) else {
            // ID-1: the root ID names its alarm ("<alarm>" or "<alarm>.<weekday>"): a live
            // occurrence whose root an edit or deletion removed keeps its pressure (API-18).
            guard document?.occurrences.contains(where: { $0.rootID == rootID && $0.state == .live }) == true else { return nil }
            let alarmID = rootID.split(separator: ".").first.map(String.init) ?? rootID
            return Root(id: rootID, alarmID: alarmID, hour: 0, minute: 0, weekday: nil, onceFireWallMs: nil, policy: .v3, title: "")
        }
        return Root(id: rootID, alarmID: row.metadata.alarmID, hour: 0, minute: 0, weekday: nil,
                    onceFireWallMs: nil, policy: .v3, title: row.metadata.title)
    }

    /// SCH-6: publish every row atomically (one persist), then issue the platform calls.
    mutating func publishAndSchedule(_ requests: [RingRequest], origin: CommandOrigin, now: BridgeInstants,
                                     into out: inout [BridgeCommand]) {
        guard !requests.isEmpty else { return }
        let prints = requests.map { fingerprint($0, now: now) }
        mutate { document in
            for (request, print) in zip(requests, prints) {
                // ID-4: a row that overwrites a differently configured ring the daemon holds (or
                // may hold) records it, so a lost answer is not read as the new configuration.
                let replaces = document.row(request.id).map { old in
                    old.fingerprint != print && (old.confirmed || old.replacesHeldRing == true)
                } ?? false
                var row = RingRow(id: request.id, schedule: request.schedule, fireWallMs: request.fireWallMs,
                                  metadata: request.metadata, fingerprint: print,
                                  publishedAtMs: now.wallMs, confirmed: false, delivered: false,
                                  soundName: request.soundName)  // SND-5: the choice is persisted
                row.replacesHeldRing = replaces ? true : nil
                row.inexact = request.precision == .allowWhileIdle ? true : nil
                document.upsert(row)
                // A new request supersedes a refusal of the same ring still ahead: an answer to it
                // lost with its process leaves that ring time unknowable (IOS-5, IOS-11; ios
                // uniform seed 8726). A refused ring time already come stays evidence.
                document.refusedRows?.removeAll { $0.id == request.id && $0.fireWallMs > now.wallMs }
            }
        }
        // REC-9, INACT-3: requested in the new frame — except an Android add-back of a day whose
        // ring time had already come (AND-1, AND-3): that day began at its ring time in the frame
        // it was reached in, so a held delivery of it still opens with the correction as offset
        // (android uniform seed 35966 with the legacy add-back of 49170: the 21:05 launch added
        // 07:52 back just before AlarmManager released the held delivery, and dated it 1 h off).
        let newFrame = requests.filter { flavor != .android || $0.fireWallMs > now.wallMs }.map(\.id)
        dropRegisteredAgain(newFrame)
        if lastBackwardJump != nil {
            publishedSinceBackwardJump.append(contentsOf: newFrame)
            if publishedSinceBackwardJump.count > Self.publishedSinceBackwardJumpMax {
                publishedSinceBackwardJump.removeFirst(publishedSinceBackwardJump.count - Self.publishedSinceBackwardJumpMax)
            }
        }
        flush(into: &out)
        for request in requests {
            if !inFlight.contains(request.id) { inFlight.append(request.id) }
            out.append(.schedule(request, origin: origin))
        }
    }

    /// ID-4, ID-5: what a ring looks or sounds like, not which alarm it is: title, sound and
    /// whether a countdown is present — never the countdown's length, nor anything else that drifts
    /// as the fire time approaches, so recomputing it later for an unchanged ring gives the same value.
    /// The sound and countdown are part of it only when present, so rows written before they
    /// existed keep their fingerprints.
    /// - Parameter now: only for the known defect `countdown-length-in-fingerprint` (seed 003),
    ///   which hashes the countdown time left until the fire time.
    /// ID-4: the fingerprint of a row whose ring's configuration is unknown (a same-ID
    /// re-registration whose answer was lost); no configuration hashes to it, so a sync
    /// re-registers the ring.
    static let unverifiedFingerprint = "unverified"

    func fingerprint(_ request: RingRequest, now: BridgeInstants) -> String {
        let countdownLeft = request.countdown != nil && defects.countdownLengthInFingerprint
            ? max(0, request.fireWallMs - now.wallMs) / 1000 : nil  // seed 003's drifting value
        let input = FingerprintInput(title: ExactText(request.metadata.title), soundName: request.soundName.map(ExactText.init),
                                     countdown: request.countdown != nil, countdownLeftSeconds: countdownLeft)
        return Self.fingerprintMemo.value(for: input) { String(SHA1.hexDigest(input.text).prefix(16)) }
    }

    /// What a fingerprint hashes (ID-4): the title, the sound when present, and whether the ring
    /// has a countdown (with the known defect, the seconds left until its fire time).
    struct FingerprintInput: MixedHashKey, Sendable {
        /// The title and the sound as their exact bytes, as the text hashes them (``ExactText``).
        var title: ExactText
        var soundName: ExactText?
        var countdown: Bool
        var countdownLeftSeconds: Int64?

        /// Each field's bits mixed in turn (``ExactText/mix(_:)``); equal inputs hash equal.
        func mixedHash(seed: UInt64) -> UInt64 {
            var hash = ExactText.bytesHash(title.text, seed: seed)
            if let soundName { hash = ExactText.mix(hash ^ ExactText.bytesHash(soundName.text, seed: seed)) }
            hash = ExactText.mix(hash ^ (countdown ? 1 : 2))
            if let countdownLeftSeconds { hash = ExactText.mix(hash ^ UInt64(bitPattern: countdownLeftSeconds)) }
            return hash
        }

        /// The hashed text: `title=…`, then `|sound=…` and `|countdown` (`|countdown=N`) when present.
        var text: String {
            var text = "title=\(title.text)"
            if let soundName { text += "|sound=\(soundName.text)" }
            if countdown {
                text += "|countdown"
                if let countdownLeftSeconds { text += "=\(countdownLeftSeconds)" }
            }
            return text
        }
    }

    /// Fingerprints by their input, the text built only for a new one (issue 20: every reconcile
    /// fingerprints every wanted ring again).
    private static let fingerprintMemo = BoundedMemo<FingerprintInput, String>(capacity: 16_384)

    /// SCH-9: rings whose schedule call returned ok less than `listingLagMs` ago: AlarmKit may
    /// not list them yet, so a read's lack of them proves nothing (iOS only).
    mutating func recentlyListedIDs(now: BridgeInstants) -> [AlarmUUID] {
        recentlyConfirmed.removeAll { now.monotonicMs - $0.monotonicMs >= configuration.listingLagMs || $0.monotonicMs > now.monotonicMs }
        return recentlyConfirmed.map(\.id)
    }

    /// Records an iOS ring whose schedule call returned ok now (``recentlyConfirmed``).
    mutating func noteRecentlyConfirmed(_ id: AlarmUUID, now: BridgeInstants) {
        guard flavor == .ios else { return }
        recentlyConfirmed.removeAll { $0.id == id }
        recentlyConfirmed.append((id, now.monotonicMs))
        if recentlyConfirmed.count > Self.recentlyConfirmedMax { recentlyConfirmed.removeFirst() }
    }

    mutating func scheduleCompleted(_ id: AlarmUUID, result: Result<Int64, PlatformError>, now: BridgeInstants,
                                    into out: inout [BridgeCommand]) {
        inFlight.removeAll { $0 == id }
        if case .success = result { successorRefusals = 0 }  // the platform takes requests again (OCC-5)
        if case .success = result { noteRecentlyConfirmed(id, now: now) }  // SCH-9
        if case .success = result { degradedRetries.removeAll { $0 == id } }
        if inFlight.isEmpty, let purpose = followUpSync {
            followUpSync = nil
            out.append(.readInventory(purpose))
        }
        runSeedFollowUpIfSettled(into: &out)  // CAP-3
        guard let row = document?.row(id) else {
            if case .success = result, let wanted = desiredRings(now: now).first(where: { $0.id == id }) {
                // A late success for the very ring the schedule wants now — a request of an earlier
                // process, or a sibling of a request that failed and took the row (ios seed 5103):
                // keep it (SCH-19), never cancel a wanted primary as an orphan.
                out.append(.note("ring \(id) landed after its row was dropped: adopted"))
                let print = fingerprint(wanted, now: now)
                mutate { document in
                    document.upsert(RingRow(id: wanted.id, schedule: wanted.schedule, fireWallMs: wanted.fireWallMs,
                                            metadata: wanted.metadata, fingerprint: print,
                                            publishedAtMs: now.wallMs, confirmed: true, delivered: false))
                }
                return
            }
            if case .success = result, let previous = saves.pending.lazy.compactMap({ $0.previousRows.first { $0.id == id } }).first {
                // SCH-10, arm before retire: a primary of the schedule a pending save replaces (a
                // request of an earlier process) landed after its row was dropped: it is the
                // previous schedule's ring, kept until the save resolves, which retires it or
                // keeps it (ios swarm seed 29845: an old 08:38 primary cancelled mid-save).
                out.append(.note("ring \(id) of the previous schedule landed while a save verifies: kept (SCH-10)"))
                mutate { $0.upsert(with(previous) { $0.confirmed = true }) }
                return
            }
            if case .success = result {
                // Cancelled while its schedule was in flight: the cancel found nothing and the
                // schedule landed afterwards. Retire the orphan now (OCC-25).
                out.append(.note("ring \(id) landed after its cancel: cancelling again"))
                out.append(.cancel(id, origin: .retire))
            }
            return
        }
        if let index = resounded.firstIndex(where: { $0.id == id }) {
            resoundCompleted(resounded.remove(at: index), row: row, result: result, now: now, into: &out)
            settleResoundedRotation(id, now: now, into: &out)  // WALK-15, WALK-16
            return
        }
        switch result {
        case .success:
            if !confirmedInProcess.contains(id) { confirmedInProcess.append(id) }
            if confirmedInProcess.count > 64 { confirmedInProcess.removeFirst() }
            if flavor == .ios, !confirmedUnlisted.contains(id) { confirmedUnlisted.append(id) }
            if confirmedUnlisted.count > 64 { confirmedUnlisted.removeFirst() }
            mutate { $0.upsert(with(row) { row in
                row.confirmed = true
                row.replacesHeldRing = nil
            }) }
            capacityRegistered(row)  // CAP-4, CAP-9
            if document?.refusedRows?.contains(where: { $0.id == id }) == true {
                // It landed after all — for the refused ring time only when it can still ring it: a
                // `.relative` schedule rings at the first match after its registration, so one that
                // lands after the refused ring time leaves that day unrung, and the refused row stays
                // its evidence (ios uniform seed 19069: a3.mon's re-registration, refused at 00:00,
                // landed again at 06:00:00.017 for next Monday, and the silent 06:00 went unrecorded).
                mutate { $0.refusedRows?.removeAll { $0.id == id && !Self.landedPastRingTime(row, refused: $0, now: now) } }
            }
            if row.metadata.kind == .primary { primaryLanded(into: &out) }  // CAP-3
            withdrawFailedReAddRecord(row, into: &out)  // [derived] WALK-18, AND-3: the retry landed
            if let token = row.metadata.token, document?.occurrence(token: token)?.state != .live {
                // Its occurrence closed while the request was in flight: retire it now (OCC-25).
                retire(row, reason: "armed after its occurrence closed", into: &out)
                if row.metadata.kind == .snooze { out.append(.reply(.snoozeRejected(reason: "occurrence closed"))) }
                return
            }
            armRetries = 0
            if row.metadata.kind == .primary { primaryRetries = 0 }
            if row.metadata.kind == .snooze { snoozeConfirmed(row, now: now, into: &out) }
            if row.metadata.kind == .successor { skipHandoffConfirmed(row, now: now, into: &out) }
            if row.metadata.kind == .successor { walkTakeoverConfirmed(row, now: now, into: &out) }  // WALK-21
            if row.metadata.kind == .walkFuse { walkFuseConfirmed(row, now: now, into: &out) }  // WALK-15
            if row.metadata.kind == .successor || row.metadata.kind == .snooze { retireSpentSnoozeCopy(now: now, into: &out) }  // SNZ-13
            resoundLandedRing(id, now: now, into: &out)  // SND-2, SND-7
        case .failure(let error):
            if degradeRefusedExact(row, error: error, now: now, into: &out) { return }  // AND-1, AND-3
            if handleLimitFailure(row, error: error, now: now, into: &out) { return }  // CAP-4: one retry
            let reAddRecorded = recordFailedReAdd(row, error: error, now: now, into: &out)  // a day added back that cannot ring is recorded
            if let previous = saves.pending.lazy.compactMap({ $0.heldRow(id) }).first, previous.confirmed {
                // SCH-10: a direct save's same-ID replacement failed: the daemon still holds the
                // ring as last registered (the previous row, or a superseded save's write that
                // landed), so that row stands — even if the process dies before the save resolves
                // (a lost row would leave an alerting ring unknown, FG-2).
                mutate { $0.upsert(previous) }
            } else if reAddRecorded {
                // OCC-2, [derived] AND-1, AND-3: the original inexact alarm may still be on its way
                // to this process (a cold start at the screen-on that ended doze reads it gone), so
                // its row stays to recognise that delivery; it is not added back again (android
                // swarm seed 3749: the delivery came 13 ms after the failed re-add).
                out.append(.note("primary \(id) added back after its ring time failed: its row waits for the original's delivery"))
            } else {
                mutate { $0.removeRow(id) }
                noteRefusedRow(row, error: error)  // the evidence of a ring time with nothing registered
            }
            if error == .maximumLimitReached { noteCapacityDropped(row) }  // CAP-9: surfaced, not silent
            out.append(.note("schedule of \(row.metadata.kind.rawValue) \(id) failed: \(error.rawValue)"))
            if row.metadata.kind == .snooze, let request = snoozeRequestsInFlight.firstIndex(of: id) {
                snoozeRequestsInFlight.remove(at: request)
                // SNZ-9: prior pressure untouched; SNZ-5: the latch stays spent.
                out.append(.reply(.snoozeRejected(reason: "arm failed: \(error.rawValue)")))
            }
            if row.metadata.kind == .snooze { rearmAfterFailedSnooze(now: now, into: &out) }
            if row.metadata.kind == .successor, let skip = pendingSkip, skip.successorID == id {
                pendingSkip = nil  // SNZ-16: the snooze ring stays armed
                out.append(.reply(.skipRejected(reason: "handoff arm failed: \(error.rawValue)")))
            }
            if row.metadata.kind == .walkFuse { walkFuseFailed(row, now: now, into: &out) }  // WALK-18
            if row.metadata.kind == .successor, defects.givesUpOnFailedSuccessor {
                out.append(.note("defect gives-up-on-failed-successor: no retry of the failed successor"))
            } else if row.metadata.kind == .successor {
                // OCC-5, [derived] WALK-18: asked again while the process lives, with backoff
                // once the quick retries were refused too (android uniform seed 34730).
                if armRetries < configuration.armRetryMax { armRetries += 1 }
                successorRefusals += 1
                out.append(.setTimer(.armRetry, delayMs: configuration.successorRetryDelayMs(afterRefusals: successorRefusals)))
            }
            if row.metadata.kind == .primary, !saves.pending.contains(where: { $0.touched.contains(id) }) {
                schedulePrimaryRetry(id, after: error, into: &out)
            }
        }
    }

    /// SNZ-9, FG-6, SNZ-12: a failed snooze arm leaves the prior pressure as it was; where there
    /// was none — the arm was re-sent by a launch in the background after the process that
    /// accepted it died, so the launch counted it as the pressure — the backgrounded occurrence
    /// gets the ordinary rearm instead of nothing (ios seed 5173).
    mutating func rearmAfterFailedSnooze(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, !appActive, !hasPressure(live, now: now) else { return }
        armSuccessor(for: live, now: now, into: &out)
    }

    /// A failure a later request may not meet: not a limit (the capacity limit, CAP-4; a missing
    /// authorization or exact-alarm permission, SCH-26, AND-1).
    func isRetryable(_ error: PlatformError) -> Bool {
        switch error {
        case .maximumLimitReached, .notAuthorized, .securityException, .illegalStateException: return false
        case .writeFailed, .notFound, .invalidState, .readFailed: return true
        }
    }

    /// A failed primary is requested again by a re-planning sync after a backoff (2 s, doubling
    /// to 5 min) while the process lives: a failed write is no reason to leave a morning silent
    /// ([derived] WALK-18, AND-3). The capacity limit has its own single retry (CAP-4, CAP-9) and
    /// a missing authorization or exact-alarm permission waits for its grant (SCH-26, AND-1,
    /// AND-3); a direct save's failure is JS's to retry (SCH-10, API-19).
    mutating func schedulePrimaryRetry(_ id: AlarmUUID, after error: PlatformError, into out: inout [BridgeCommand]) {
        guard isRetryable(error) else { return }
        if defects.givesUpOnFailedPrimary {
            // Known defect: no timer retry, and no sync of this process requests it again (a
            // resume's re-plan included, SCH-24), as its description says.
            out.append(.note("defect gives-up-on-failed-primary: \(id) is never requested again by this process"))
            if !givenUpPrimaries.contains(id) { givenUpPrimaries.append(id) }
            if givenUpPrimaries.count > 64 { givenUpPrimaries.removeFirst() }
            return
        }
        guard !primaryRetryPending else { return }
        primaryRetries += 1
        let delayMs = BridgeConfiguration.backoffDelayMs(baseMs: configuration.primaryRetryDelayMs, failures: primaryRetries,
                                                         quickRetries: 1, boundMs: configuration.primaryRetryDelayMsMax)
        primaryRetryPending = true
        out.append(.setTimer(.primaryRetry, delayMs: delayMs))
    }

    /// Stops an alerting ring (iOS `stop(id:)`, Android ringing service) or cancels a pending one.
    mutating func silence(_ id: AlarmUUID, origin: CommandOrigin, into out: inout [BridgeCommand]) {
        if flavor == .ios || alerting.contains(id) {
            out.append(.stop(id, origin: origin))
        }
        removeAlerting(id)
    }

    /// OCC-24: ends a ring that belongs to a closed occurrence.
    mutating func retire(_ row: RingRow, reason: String, into out: inout [BridgeCommand]) {
        out.append(.note("retire \(row.id): \(reason)"))
        if alerting.contains(row.id) || (flavor == .ios && row.delivered) {
            out.append(.stop(row.id, origin: .retire))
            removeAlerting(row.id)
        } else if row.metadata.kind.isOccurrenceBound {
            out.append(.cancel(row.id, origin: .retire))
            mutate { $0.removeRow(row.id) }
        }
    }

    /// OCC-9: removes the occurrence's pending successors, and cancels a delivered successor's
    /// copy a sync may have added back (``retireReAddedCopies(of:kinds:keeping:into:)``).
    mutating func cancelPendingSuccessors(of occurrence: OccurrenceRecord, origin: CommandOrigin, now: BridgeInstants,
                                          into out: inout [BridgeCommand]) {
        retireReAddedCopies(of: occurrence, kinds: [.successor], keeping: nil, into: &out)
        guard let document else { return }
        for row in document.rings
        where row.metadata.kind == .successor && row.metadata.token == occurrence.token && !row.delivered {
            out.append(.cancel(row.id, origin: origin))
            let racing = inFlight.contains(row.id)
            mutate { document in
                document.removeRow(row.id)
                if racing { document.noteCancelledInFlight(row) }  // IOS-11: it may land after the cancel
            }
        }
    }

    /// OCC-12, OCC-13: completes exactly the live (root, token); anything else is rejected whole.
    mutating func completeChallenge(rootID: String, token: String, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, live.rootID == rootID, live.token == token else {
            out.append(.note("completion rejected: \(rootID) is not the live owner"))
            out.append(.reply(.completed(rootID: rootID, accepted: false)))
            return
        }
        close(live, as: .completed, now: now, into: &out)
        if defects.completionScopedToFamily, let alarmID = document?.root(rootID)?.alarmID {
            // Known defect (issue 5): the whole logical alarm is treated as done for now.
            for row in document?.rings ?? [] where row.metadata.alarmID == alarmID && row.metadata.kind == .primary
                && !alerting.contains(row.id) && !row.delivered {
                out.append(.cancel(row.id, origin: .completion))
            }
        }
        out.append(.reply(.completed(rootID: rootID, accepted: true)))
    }

    /// INACT-16, INACT-21: expiry writes the miss receipt durably before silencing anything.
    mutating func expireIfDue(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence, now.wallMs >= live.deadlineMs else { return }
        mutate { document in
            document.missReceipts.append(MissReceipt(token: live.token, rootID: live.rootID, reason: MissReceipt.inactivityReason,
                                                     expiredAtMs: live.deadlineMs, policy: live.policy,
                                                     inactivityClockOffsetMs: live.inactivityClockOffsetMs))
        }
        close(live, as: .expired, now: now, into: &out)
    }

    /// Closes an occurrence: persists the new state first, then stops its alerts and retires every
    /// ring bound to it (OCC-25). The next scheduled occurrence and other roots are untouched.
    /// OCC-15: only the retries of this session go; INACT-24: an expiry stops any ringing of it,
    /// exactly as completion and cancellation do.
    mutating func close(_ occurrence: OccurrenceRecord, as state: OccurrenceState, now: BridgeInstants,
                        into out: inout [BridgeCommand]) {
        mutate { $0.update(with(occurrence) { $0.state = state; $0.closedAtMs = now.wallMs }) }
        flush(into: &out)
        let origin: CommandOrigin
        switch state {
        case .completed: origin = .completion
        case .expired: origin = .expiry
        case .abandoned, .retired, .live: origin = .retire  // OCC-18: abandonment retires, no receipt
        }
        endWalk(of: occurrence, now: now, into: &out)
        guard let document else { return }
        for row in document.rings where isBound(row, to: occurrence) {
            if row.metadata.kind.isOccurrenceBound && !row.delivered {
                // Not yet seen delivered: pending, held late by the phone, or sounding unseen.
                // cancel(id:) deletes from any state (…/alarmmanager/cancel(id:)).
                if defects.stopLeavesRecoveryGuard {
                    out.append(.note("defect stop-leaves-recovery-guard: successor \(row.id) left armed"))
                    continue
                }
                if retrySurvivesClosureDefect(state) {
                    out.append(.note("defect retry-survives-closure: retry \(row.id) left armed"))
                    continue
                }
                out.append(.cancel(row.id, origin: origin))
                removeAlerting(row.id)
                mutate { $0.removeRow(row.id) }
                continue
            }
            retireReAddedCopyAtClose(row, origin: origin, into: &out)  // AND-13, OCC-25
            // iOS: what the bridge believes is only as fresh as the last `alarmUpdates`, which the
            // phone may hold while locked (forums 825427). So every ring of the occurrence that
            // could be sounding gets a stop; one that is not throws harmlessly (stop(id:) docs).
            if alerting.contains(row.id) && row.metadata.kind.isOccurrenceBound && retrySurvivesClosureDefect(state) {
                out.append(.note("defect retry-survives-closure: retry \(row.id) left ringing"))
                continue
            }
            if !alerting.contains(row.id) && mayAlertForLaterRingTime(row, than: occurrence, now: now) {
                // INACT-17, OCC-16: not stopped blind; the read below tells (an alert of its own
                // occurrence is then retired as a closed one's, OCC-24).
                out.append(.note("primary \(row.id) of \(row.metadata.rootID) may be alerting for a later ring time: read first"))
                if awaitingObservation == nil { out.append(.readInventory(.observe)) }
                continue
            }
            if alerting.contains(row.id) || (flavor == .ios && (row.metadata.kind == .primary || row.delivered)) {
                out.append(.stop(row.id, origin: origin))
                removeAlerting(row.id)
            }
        }
        runDeferredSyncIfClear(into: &out)
    }

    /// INACT-17, OCC-16, REC-8: a repeating `.relative` primary (AlarmKit re-arms it after each
    /// ring) whose schedule has matched again since `occurrence` began — in the zone in force now,
    /// a zone change can bring the same weekday's hour and minute round again hours later — may
    /// be alerting for that later ring time, a fresh occurrence, not for the closing one. Closure
    /// must not stop it blind: the expiry a launch notices first (INACT-21) would silence the new
    /// morning before any read showed it (ios swarm seed 54747: a1.thu 05:07 São Paulo expired
    /// unseen; the zone became New York and 05:07 New York rang; the launch's expiry stopped it;
    /// ios uniform seed 57537: the 09:23 occurrence expired unseen, the alarm edited to 09:41 rang).
    func mayAlertForLaterRingTime(_ row: RingRow, than occurrence: OccurrenceRecord, now: BridgeInstants) -> Bool {
        guard flavor == .ios, row.metadata.kind == .primary, row.repeatsInDaemon,
              case .relative(let hour, let minute, let weekday) = row.schedule else { return false }
        let latest = configuration.calendar.latestFire(hour: hour, minute: minute, weekday: weekday, atOrBefore: now.wallMs)
        return latest > occurrence.startedAtMs && latest <= now.wallMs
    }

    mutating func armExpiryTimer(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard let live = document?.liveOccurrence else { return }
        out.append(.setTimer(.expiryCheck, delayMs: max(0, live.deadlineMs - now.wallMs)))
    }

    mutating func runDeferredSyncIfClear(into out: inout [BridgeCommand]) {
        guard let purpose = deferredSync, alerting.isEmpty else { return }
        deferredSync = nil
        out.append(.readInventory(purpose))  // SCH-22: deferred work runs after the alert ended
    }
}

/// A modified copy of a value.
@inline(__always)
func with<T>(_ value: T, _ change: (inout T) -> Void) -> T {
    var copy = value
    change(&copy)
    return copy
}

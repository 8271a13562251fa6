import AlarmBridge
import AndroidModel
import SimKernel

/// Turns a seed's ``SeedFaults`` into device parameters and timed plan actions.
///
/// Every kind draws from its own plan stream `fault.<name>.plan` only (one `chance(rate)` per
/// unit first, then the details of each hit), so switching a kind on or off, or changing its
/// rate, moves no other kind's actions (FaultCatalogTests checks this plan by plan).
struct FaultPlanner {
    let faults: SeedFaults
    let streams: RandomStreams
    let setup: DeviceSetup
    let calendar: WallCalendar

    var start: Int64 { setup.startWallMs }

    /// The kind's plan stream.
    func planStream(_ kind: FaultKind) -> Xoshiro256StarStar {
        streams.stream("fault." + kind.name + ".plan")
    }

    /// A per-seed kind: its plan stream after a hit (for the details), or nil when the kind is
    /// off or the seed's draw missed.
    func seedHit(_ kind: FaultKind) -> Xoshiro256StarStar? {
        assert(kind.unit == .perSeed, "\(kind.name) is not counted per seed")
        guard let rate = faults.rate(kind) else { return nil }
        var rng = planStream(kind)
        return rng.chance(rate) ? rng : nil
    }

    /// A per-hour kind: one draw for each whole or partial hour of the run; a hit is an instant
    /// drawn uniformly inside that hour, at least `notBeforeMs` virtual ms after the start.
    func hourlyInstants(_ kind: FaultKind, notBeforeMs: Int64) -> (instants: [Int64], rng: Xoshiro256StarStar) {
        assert(kind.unit == .perHour, "\(kind.name) is not counted per hour")
        var rng = planStream(kind)
        guard let rate = faults.rate(kind) else { return ([], rng) }
        var instants: [Int64] = []
        var hourStart: Int64 = 0
        while hourStart < setup.durationMs {  // bounded: durationMs / 1 h draws
            let hourEnd = min(hourStart + 3_600_000, setup.durationMs)
            if rng.chance(rate) {
                let offset = rng.int(in: hourStart...(hourEnd - 1))
                if offset >= notBeforeMs { instants.append(start + offset) }
            }
            hourStart = hourEnd
        }
        return (instants, rng)
    }

    /// The next fire time of an alarm after `afterMs` (device wall ms).
    func nextFire(_ alarm: LogicalAlarm, after afterMs: Int64) -> Int64 {
        calendar.nextFire(hour: alarm.hour, minute: alarm.minute, weekday: nil, after: afterMs)
    }

    // MARK: - Parameters

    /// Kinds that are device or platform parameters for the whole run, and the in-run rates.
    func applyParameters(to setup: inout DeviceSetup) {
        setup.interleavingDeathRate = faults.rate(FaultCatalog.processDeathInterleaving)
        setup.requestFailureRate = faults.rate(FaultCatalog.scheduleRequestFailure)
        setup.killSwitchFailureRate = faults.rate(FaultCatalog.killSwitchNetworkFailure)  // BOOT-12
        setup.workoutLossRate = faults.rate(FaultCatalog.workoutLoss)  // WALK-23
        setup.walkForceQuitRate = faults.rate(FaultCatalog.walkForceQuit)  // WALK-25
        setup.snoozeClockChangeRate = faults.rate(FaultCatalog.clockChangeDuringSnooze)  // SNZ-20
        setup.triggerClockSetBackRate = faults.rate(FaultCatalog.clockSetBackAfterTrigger)  // SNZ-22
        setup.deathMidCloseRate = faults.rate(FaultCatalog.deathMidClose)  // OCC-5..7, IOS-11
        setup.acceptedRequestDropRate = faults.rate(FaultCatalog.acceptedRequestDropped)  // issue 18
        switch setup.platform {
        case .ios:
            setup.ios.coalesceUpdates = seedHit(FaultCatalog.coalesceUpdates) != nil  // IOS-5
            setup.ios.holdUpdatesWhileLocked = seedHit(FaultCatalog.heldUpdatesWhileLocked) != nil
            setup.ios.denseLateDelayMaxMs = seedHit(FaultCatalog.denseLateDelivery) != nil ? 240_000 : 0  // forums 825427
            setup.ios.scheduleAlwaysFails = seedHit(FaultCatalog.scheduleAlwaysFails) != nil  // SCH-26
            setup.ios.customSoundFails = seedHit(FaultCatalog.playbackFailure) != nil  // SND-9, forums 802620
            if var rng = seedHit(FaultCatalog.readAfterWriteLag) { setup.ios.readLagMaxMs = rng.pick([Int64(120), 180]) }  // SCH-9
        case .android:
            if var rng = seedHit(FaultCatalog.oemKiller) { setup.android.oemKillsRingingAfterMs = rng.int(in: 10_000...300_000) }
            if var rng = seedHit(FaultCatalog.oemDeliveryDelay) { setup.android.oemDeliveryDelayMaxMs = rng.int(in: 60_000...900_000) }
            if var rng = seedHit(FaultCatalog.foregroundRepairFailure) { setup.foregroundRepairFailures = Int(rng.int(in: 1...3)) }  // AND-5
            if var rng = seedHit(FaultCatalog.credentialStoredSound) {  // SND-9, issue 18
                var names = SeedGenerator.bundledSounds.filter { _ in rng.chance(Ratio(1, 2)) }
                if names.isEmpty { names = [rng.pick(SeedGenerator.bundledSounds)] }
                setup.android.credentialStoredSounds = names
            }
        }
    }

    // MARK: - Plan

    /// Every timed fault action of the seed, tagged with its kind, in catalog order of kinds.
    func plan() -> [TaggedAction] {
        var plan: [TaggedAction] = []
        func add(_ kind: FaultKind, _ actions: [TimedAction]) {
            plan += actions.map { TaggedAction(kind: kind.name, action: $0) }
        }
        add(FaultCatalog.processDeath, hourlyInstants(FaultCatalog.processDeath, notBeforeMs: 60_000).instants
            .map { TimedAction(wallMs: $0, action: .faultProcessDeath) })
        add(FaultCatalog.forceQuit, forceQuit())
        add(FaultCatalog.appUpdate, once(FaultCatalog.appUpdate, .userAppUpdate))
        add(FaultCatalog.reinstall, reinstall())
        if var rng = seedHit(FaultCatalog.appStateWriteFailure) {
            add(FaultCatalog.appStateWriteFailure, [TimedAction(wallMs: start + 500, action: .faultAppStateWriteFailure(count: Int(rng.int(in: 1...2))))])
        }
        add(FaultCatalog.reboot, reboots())
        if var rng = seedHit(FaultCatalog.lateReboot) {
            // No unlock planned: the phone is still in direct boot when the liveness phase heals
            // it, unless the user happens to open the app meanwhile.
            add(FaultCatalog.lateReboot, [TimedAction(wallMs: start + setup.durationMs - rng.int(in: 300_000...14_400_000), action: .deviceReboot)])
        }
        add(FaultCatalog.clockJumpForward, clockJump(FaultCatalog.clockJumpForward, sign: 1))
        add(FaultCatalog.clockJumpBack, clockJump(FaultCatalog.clockJumpBack, sign: -1))
        add(FaultCatalog.timeZoneChange, timeZoneChange())
        add(FaultCatalog.doze, hourlyInstants(FaultCatalog.doze, notBeforeMs: 600_000).instants
            .map { TimedAction(wallMs: $0, action: .deviceDoze(true)) })
        add(FaultCatalog.charging, window(FaultCatalog.charging, at: 0...7_200_000, lasting: 3_600_000...36_000_000,
                                          on: .deviceCharging(true), off: .deviceCharging(false)))
        add(FaultCatalog.silentMode, window(FaultCatalog.silentMode, at: 0...setup.durationMs, lasting: 600_000...14_400_000,
                                            on: .deviceSilentMode(true), off: .deviceSilentMode(false)))
        add(FaultCatalog.exactPermissionRevoke, window(FaultCatalog.exactPermissionRevoke, at: 60_000...setup.durationMs,
                                                       lasting: 300_000...43_200_000, on: .faultRevokeExactPermission,
                                                       off: .faultGrantExactPermission))
        add(FaultCatalog.forceStop, once(FaultCatalog.forceStop, .faultForceStop))
        let failures = hourlyInstants(FaultCatalog.scheduleFailure, notBeforeMs: 0)
        var failureRNG = failures.rng
        add(FaultCatalog.scheduleFailure, failures.instants.map {
            TimedAction(wallMs: $0, action: .faultScheduleFailure(count: Int(failureRNG.int(in: 1...3))))
        })
        add(FaultCatalog.capacitySqueeze, capacitySqueeze())
        add(FaultCatalog.lateDelivery, lateDeliveries())
        add(FaultCatalog.osRemovesAlarm, hourlyInstants(FaultCatalog.osRemovesAlarm, notBeforeMs: 60_000).instants
            .map { TimedAction(wallMs: $0, action: .faultOSRemovesAlarm(alarmID: nil)) })
        add(FaultCatalog.wrongInstantAlert, wrongInstantAlerts())
        add(FaultCatalog.ghostAlert, ghostAlerts())
        add(FaultCatalog.osUpdateClearsAlarms, osUpdates(at: plan))
        add(FaultCatalog.inventoryReadFailure, hourlyInstants(FaultCatalog.inventoryReadFailure, notBeforeMs: 0).instants
            .map { TimedAction(wallMs: $0, action: .faultInventoryReadFailure(count: 1)) })
        if setup.platform == .ios, var rng = seedHit(FaultCatalog.damagedStore) {  // BOOT-5
            add(FaultCatalog.damagedStore, [TimedAction(wallMs: start + rng.int(in: 60_000...setup.durationMs),
                                                        action: .faultDamagedStore(ms: rng.int(in: 2_000...60_000)))])
        }
        add(FaultCatalog.audioFocusLoss, audioFocusLoss())
        if setup.platform == .android, var rng = seedHit(FaultCatalog.playbackFailure), !setup.alarms.isEmpty {
            // The Android player fails 2 s into a ring (SND-9); iOS's custom-sound failure is a parameter.
            let target = rng.pick(setup.alarms)
            add(FaultCatalog.playbackFailure, [TimedAction(wallMs: nextFire(target, after: start + 60_000) + 2_000, action: .faultPlaybackFailure)])
        }
        if var rng = seedHit(FaultCatalog.healthAccessRevoked) {
            add(FaultCatalog.healthAccessRevoked, [TimedAction(wallMs: start + rng.int(in: 60_000...setup.durationMs), action: .userSetHealthAccess(false))])
        }
        return plan
    }

    /// A per-seed kind that happens once at a random instant after the first minute.
    func once(_ kind: FaultKind, _ action: PlanAction) -> [TimedAction] {
        guard var rng = seedHit(kind) else { return [] }
        return [TimedAction(wallMs: start + rng.int(in: 60_000...setup.durationMs), action: action)]
    }

    /// A per-seed kind that switches a condition on at an offset from the start and off again.
    func window(_ kind: FaultKind, at offsets: ClosedRange<Int64>, lasting: ClosedRange<Int64>,
                on: PlanAction, off: PlanAction) -> [TimedAction] {
        guard var rng = seedHit(kind) else { return [] }
        let at = start + rng.int(in: offsets)
        return [TimedAction(wallMs: at, action: on), TimedAction(wallMs: at + rng.int(in: lasting), action: off)]
    }

    /// Reboots, often shortly before an alarm so the alert rings before first unlock (seed 004);
    /// the first unlock follows 55–105 s after, or with `locked-boot-length` up to an hour
    /// (BOOT-1, BOOT-2). The unlock belongs to the reboot; `locked-boot-length` only moves it.
    func reboots() -> [TimedAction] {
        guard var rng = seedHit(FaultCatalog.reboot) else { return [] }
        let lockedRate = faults.rate(FaultCatalog.lockedBootLength)
        var locked = planStream(FaultCatalog.lockedBootLength)
        var plan: [TimedAction] = []
        for _ in 0..<Int(rng.int(in: 1...2)) {
            let anchor = setup.alarms.isEmpty || rng.chance(Ratio(1, 2))
                ? start + rng.int(in: 60_000...setup.durationMs)
                : nextFire(setup.alarms[0], after: start) - rng.int(in: 60_000...1_800_000)
            var unlockAfterMs = 45_000 + rng.int(in: 10_000...60_000)
            if let lockedRate {
                // Both draws every reboot, so the hit pattern never shifts the lengths.
                let hit = locked.chance(lockedRate)
                let lengthMs = locked.int(in: 10_000...3_600_000)
                if hit { unlockAfterMs = 45_000 + lengthMs }
            }
            plan.append(TimedAction(wallMs: anchor, action: .deviceReboot))
            plan.append(TimedAction(wallMs: anchor + unlockAfterMs, action: .userUnlock))
        }
        return plan
    }

    /// The user swipes the app away in the app switcher, sometimes mid-challenge ([limit]).
    func forceQuit() -> [TimedAction] {
        guard var rng = seedHit(FaultCatalog.forceQuit) else { return [] }
        var plan: [TimedAction] = []
        for _ in 0..<Int(rng.int(in: 1...2)) {
            let anchor = setup.alarms.isEmpty || rng.chance(Ratio(1, 2))
                ? start + rng.int(in: 60_000...setup.durationMs)
                : nextFire(setup.alarms[0], after: start) + rng.int(in: 5_000...600_000)
            plan.append(TimedAction(wallMs: anchor, action: .userOpenApp))
            plan.append(TimedAction(wallMs: anchor + rng.int(in: 2_000...60_000), action: .userForceQuit))
        }
        return plan
    }

    /// IOS-10: delete and reinstall while the first alarm's wake-up is unfinished, then open the
    /// fresh install, which finds the surviving Keychain receipt.
    func reinstall() -> [TimedAction] {
        guard var rng = seedHit(FaultCatalog.reinstall), let target = setup.alarms.first else { return [] }
        let at = nextFire(target, after: start + 60_000) + rng.int(in: 20_000...600_000)
        let back = at + rng.int(in: 30_000...1_800_000)
        return [TimedAction(wallMs: at, action: .userReinstall), TimedAction(wallMs: back, action: .userOpenApp),
                TimedAction(wallMs: back + rng.int(in: 5_000...60_000), action: .userLeaveApp)]
    }

    /// A manual wall-clock correction (REC-8, REC-9, SNZ-20).
    func clockJump(_ kind: FaultKind, sign: Int64) -> [TimedAction] {
        guard var rng = seedHit(kind) else { return [] }
        let delta = sign * rng.pick([Int64(90_000), 600_000, 3_600_000])
        return [TimedAction(wallMs: start + rng.int(in: 60_000...setup.durationMs), action: .deviceSetClock(deltaMs: delta))]
    }

    /// The device lands in another zone. REC-8 [limit]: iOS tells only a running process of a
    /// zone change, and AlarmKit leaves `.fixed` instants where they were, so concrete skip-date
    /// occurrences are re-planned when the app next runs: the traveller opens the app on arrival
    /// (a phone left untouched after landing is a scenario, not a swarm fault).
    func timeZoneChange() -> [TimedAction] {
        guard var rng = seedHit(FaultCatalog.timeZoneChange) else { return [] }
        let others = SeedGenerator.zones.filter { $0 != setup.zoneIdentifier }
        let landing = start + rng.int(in: 60_000...setup.durationMs)
        var plan = [TimedAction(wallMs: landing, action: .deviceTimeZone(rng.pick(others)))]
        if setup.platform == .ios && setup.alarms.contains(where: { !$0.skipDates.isEmpty }) {
            let open = landing + rng.int(in: 5_000...120_000)
            plan.append(TimedAction(wallMs: open, action: .userOpenApp))
            plan.append(TimedAction(wallMs: open + rng.int(in: 5_000...60_000), action: .userLeaveApp))
        }
        return plan
    }

    /// AlarmKit's capacity drops for a while, then returns to the seed's capacity (CAP-1).
    func capacitySqueeze() -> [TimedAction] {
        guard var rng = seedHit(FaultCatalog.capacitySqueeze) else { return [] }
        let at = start + rng.int(in: 0...setup.durationMs)
        return [TimedAction(wallMs: at, action: .faultCapacity(Int(rng.int(in: 1...4)))),
                TimedAction(wallMs: at + rng.int(in: 600_000...7_200_000), action: .faultCapacity(setup.ios.capacity))]
    }

    /// Per alarm: its next delivery is late, the fault set just before its time so the held
    /// delivery is that alarm's. The user, awake before a ring that is late, sometimes opens the
    /// app while its delivery is pending: the resume sync meets a ring past its fire time
    /// (SCH-3, SCH-21).
    func lateDeliveries() -> [TimedAction] {
        guard let rate = faults.rate(FaultCatalog.lateDelivery) else { return [] }
        var rng = planStream(FaultCatalog.lateDelivery)
        var plan: [TimedAction] = []
        for alarm in setup.alarms where rng.chance(rate) {
            let at = nextFire(alarm, after: start + 60_000) - 30_000
            plan.append(TimedAction(wallMs: at, action: .faultLateDelivery(ms: rng.int(in: 20_000...240_000))))
            if rng.chance(Ratio(1, 2)) {
                let open = at + 30_000 + rng.int(in: 3_000...15_000)
                plan.append(TimedAction(wallMs: open, action: .userOpenApp))
                plan.append(TimedAction(wallMs: open + 20_000, action: .userLeaveApp))
            }
        }
        return plan
    }

    /// Issue 18 (forums 820388): 1–2 local midnights of the run, at each of which AlarmKit
    /// alerts the soonest `.fixed` ring due 4–24 h later (none due then: nothing happens).
    func wrongInstantAlerts() -> [TimedAction] {
        guard var rng = seedHit(FaultCatalog.wrongInstantAlert) else { return [] }
        return (0..<Int(rng.int(in: 1...2))).map { _ in
            let after = start + rng.int(in: 0...setup.durationMs)
            return TimedAction(wallMs: calendar.nextFire(hour: 0, minute: 0, weekday: nil, after: after), action: .faultWrongInstantAlert)
        }
    }

    /// Issue 18 (OpenMinis#115): per alarm, the next alert to begin after 30 s before its next
    /// time is a ghost lasting 1–5 min.
    func ghostAlerts() -> [TimedAction] {
        guard let rate = faults.rate(FaultCatalog.ghostAlert) else { return [] }
        var rng = planStream(FaultCatalog.ghostAlert)
        return setup.alarms.compactMap { alarm in
            guard rng.chance(rate) else { return nil }
            return TimedAction(wallMs: nextFire(alarm, after: start + 60_000) - 30_000, action: .faultGhostAlert(ms: rng.int(in: 60_000...300_000)))
        }
    }

    /// Issue 18 (forums 809398): each restart already planned (`reboot`, `late-reboot`) draws
    /// once whether it installs an OS update that empties AlarmKit's inventory; the fault is
    /// set 1 ms before the restart.
    func osUpdates(at plan: [TaggedAction]) -> [TimedAction] {
        guard let rate = faults.rate(FaultCatalog.osUpdateClearsAlarms) else { return [] }
        var rng = planStream(FaultCatalog.osUpdateClearsAlarms)
        return plan.compactMap { tagged in
            guard case .deviceReboot = tagged.action.action, rng.chance(rate) else { return nil }
            return TimedAction(wallMs: tagged.action.wallMs - 1, action: .faultOSUpdate)
        }
    }

    /// A call or another app's audio while an alarm rings, and focus back later.
    func audioFocusLoss() -> [TimedAction] {
        guard var rng = seedHit(FaultCatalog.audioFocusLoss), !setup.alarms.isEmpty else { return [] }
        let target = rng.pick(setup.alarms)
        let at = nextFire(target, after: start + 60_000) + rng.int(in: 1_000...120_000)
        let change: AudioFocusChange = rng.chance(Ratio(1, 2)) ? .callStarted : .loss
        return [TimedAction(wallMs: at, action: .faultAudioFocus(change)),
                TimedAction(wallMs: at + rng.int(in: 30_000...300_000), action: .faultAudioFocus(.gain))]
    }
}

import AlarmBridge
import AndroidModel
import SimKernel

/// Derives a whole world from one seed. Every draw goes through a named sub-stream, so changing
/// one part of the generator does not reshuffle the others (DESIGN.md, "Determinism").
public enum SeedGenerator {
    static let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "UTC", "America/Sao_Paulo"]
    /// The zones of `zones` that observe DST (tzdata 2026): the DST-start share picks from these.
    static let dstZones = ["Europe/Berlin", "America/New_York", "Australia/Sydney"]

    /// The seed's device setup and its printed parameters, in a fixed order.
    ///
    /// - Parameter faults: The fault profile and forced kinds (`--profile`, `--faults`); the
    ///   default is the swarm profile. Each kind draws from its own streams (FaultCatalog.swift),
    ///   so the selection changes only what the kinds it switches inject.
    /// - Parameter describing: false to leave the parameters empty (a campaign's seeds, which
    ///   never print them: issue 20); the setup is the same either way.
    public static func setup(platform: PlatformFlavor, seed: UInt64, faults: FaultSelection = .swarm,
                             describing: Bool = true) -> (DeviceSetup, [RunParameter]) {
        let generated = generate(platform: platform, seed: seed, selection: faults, describing: describing)
        return (generated.setup, generated.parameters)
    }

    /// A seed's world with its fault draws and its plan tagged by the fault kind that put each
    /// action there (nil: the sleepy user and the app), for tests of stream stability.
    struct Generated {
        var setup: DeviceSetup
        var parameters: [RunParameter]
        var faults: SeedFaults
        var taggedPlan: [TaggedAction]
    }

    static func generate(platform: PlatformFlavor, seed: UInt64, selection: FaultSelection, describing: Bool = true) -> Generated {
        let streams = RandomStreams(seed: seed)
        let start = drawStart(platform: platform, selection: selection, streams: streams)
        let calendar = start.calendar
        let alarms = drawAlarms(platform: platform, calendar: calendar, startWallMs: start.wallMs, streams: streams)
        var setup = DeviceSetup(platform: platform, zoneIdentifier: start.zone, startWallMs: start.wallMs,
                                durationMs: 36 * 3_600_000, alarms: alarms, plan: [], seed: seed)
        setup.walk = drawWalkSetup(platform: platform, streams: streams)
        drawDevice(&setup, streams: streams)
        drawAndroidDevice(&setup, streams: streams)
        drawAndroidPower(&setup, streams: streams)
        drawBridgeConstants(&setup, streams: streams)

        // The seed's faults: every kind's switch and rate from its own stream (FaultCatalog.swift).
        let exactAppOpGoverns = setup.android.exactAlarmAppOpGoverns
        let faults = SeedFaults.draw(selection: selection, platform: platform, streams: streams) { kind in
            switch kind.name {
            // AND-1: the app-op governs (API 31/32, or 33+ for an app declaring only
            // SCHEDULE_EXACT_ALARM, targeting 31+), issue 18.
            case FaultCatalog.exactPermissionRevoke.name: return exactAppOpGoverns
            case FaultCatalog.healthAccessRevoked.name, FaultCatalog.workoutLoss.name, FaultCatalog.walkForceQuit.name:
                return alarms.contains(where: \.challenge.isWalk)
            default: return true
            }
        }
        assert(faults.isOn(FaultCatalog.dstNightStart) == start.dstOn, "dst-night-start decided twice alike")
        let planner = FaultPlanner(faults: faults, streams: streams, setup: setup, calendar: calendar)
        planner.applyParameters(to: &setup)
        // BOOT-9..11, AND-4 (fault kind legacy-install): the run starts right after an update from
        // an older version, from the state it left.
        if planner.seedHit(FaultCatalog.legacyInstall) != nil {
            // The state itself from its own stream, apart from the hit draw, so a scenario
            // (`param app.legacy-install swarm`) rebuilds it exactly without knowing the rate.
            var legacyRNG = streams.stream("setup.legacy-install")
            let legacy = LegacyInstall.generate(alarms: alarms, platform: platform, calendar: calendar, nowWallMs: start.wallMs,
                                                everyKind: false, rng: &legacyRNG)
            setup.legacyInstall = legacy
            setup.alarms = legacy.alarms  // INACT-25: unmarked schedules keep the legacy lifetime
        }
        let taggedPlan = AmbientPlan.generate(setup: setup, faults: faults, calendar: calendar, streams: streams)
        setup.plan = taggedPlan.map(\.action)
        // Issue 7: the liveness phase's bounds (own stream; `Simulator` switches the phase on).
        var livenessRNG = streams.stream("setup.liveness")
        setup.liveness = LivenessSetup.draw(&livenessRNG)
        let walkAlarms = alarms.filter(\.challenge.isWalk).map(\.id)
        let parameters = describing ? describeParameters(setup, walkAlarms: walkAlarms, selection: selection, faults: faults) : []
        return Generated(setup: setup, parameters: parameters, faults: faults, taggedPlan: taggedPlan)
    }

    /// The seed's zone, calendar and start instant (virtual ms), and whether the dst-night-start
    /// kind is on for it.
    struct Start {
        var zone: String
        var calendar: WallCalendar
        var wallMs: Int64
        var dstOn: Bool
    }

    /// The local evening the run starts (21:00–23:00 on a day of 2026), from `setup.world`.
    static func drawStart(platform: PlatformFlavor, selection: FaultSelection, streams: RandomStreams) -> Start {
        var world = streams.stream("setup.world")
        var zone = world.pick(zones)
        var calendar = WallCalendar(zoneIdentifier: zone)!
        let dayOfYear = Int(world.int(in: 0...364))
        let base = calendar.instant(year: 2026, month: 1, day: 1, hour: 21, minute: 0)! + Int64(dayOfYear) * 86_400_000
        var startWallMs = base + world.int(in: 0...7_200_000)
        // REC-1, REC-2 (fault kind dst-night-start): a share of seeds starts shortly before a DST
        // transition in a DST zone, so weekly occurrences are planned across DST nights. Decided
        // before the rest of the world, which it moves; its own streams keep other draws stable.
        let dstRate = SeedFaults.decide(FaultCatalog.dstNightStart, selection: selection, platform: platform, streams: streams,
                                        applicable: true)
        var dstRNG = streams.stream("fault.dst-night-start.plan")
        if let dstRate, dstRNG.chance(dstRate) {
            zone = dstRNG.pick(dstZones)
            calendar = WallCalendar(zoneIdentifier: zone)!
            let yearStart = calendar.instant(year: 2026, month: 1, day: 1, hour: 0, minute: 0)!
            let transitions = [calendar.nextTransition(after: yearStart, withinMs: 366 * 86_400_000)].compactMap { $0 }
                + [calendar.nextTransition(after: yearStart + 183 * 86_400_000, withinMs: 183 * 86_400_000)].compactMap { $0 }
            if let transition = transitions.isEmpty ? nil : dstRNG.pick(transitions) {
                // The local evening (21:00–23:00, like the other seeds) 1 to 6 days before it, so a
                // one-shot drawn below is still the next morning's.
                let day = calendar.localDate(transition - dstRNG.int(in: 1...6) * 86_400_000)
                startWallMs = calendar.instant(year: day.year, month: day.month, day: day.day, hour: 21, minute: 0)!
                    + dstRNG.int(in: 0...7_200_000)
            }
        }
        return Start(zone: zone, calendar: calendar, wallMs: startWallMs, dstOn: dstRate != nil)
    }

    /// One to three alarms (`setup.alarms`), with their walk challenge, skip dates, sounds and
    /// countdown each from its own stream, so one part's draws never move another's.
    static func drawAlarms(platform: PlatformFlavor, calendar: WallCalendar, startWallMs: Int64,
                           streams: RandomStreams) -> [LogicalAlarm] {
        var alarmRNG = streams.stream("setup.alarms")
        var alarms: [LogicalAlarm] = []
        for number in 1...Int(alarmRNG.int(in: 1...3)) {
            let hour = Int(alarmRNG.int(in: 5...9))
            let minute = Int(alarmRNG.int(in: 0...59))
            let policyRoll = alarmRNG.uniform(below: 10)
            let policy: InactivityPolicy = policyRoll < 7 ? .v3 : (policyRoll < 9 ? .v2 : .legacy)
            let repeats: AlarmRepeat
            if alarmRNG.chance(Ratio(7, 10)) {
                var days = Weekday.allCases.filter { _ in alarmRNG.chance(Ratio(1, 2)) }
                if days.isEmpty { days = [alarmRNG.pick(Weekday.allCases)] }
                repeats = .weekly(days)
            } else {
                repeats = .once(fireWallMs: calendar.nextFire(hour: hour, minute: minute, weekday: nil, after: startWallMs + 600_000))
            }
            alarms.append(LogicalAlarm(id: "a\(number)", hour: hour, minute: minute, repeats: repeats,
                                       title: "Alarm \(number)", policy: policy))
        }
        // iOS walk alarms (WALK-*): walk is iOS-only, so Android seeds draw nothing here.
        if platform == .ios {
            var challengeRNG = streams.stream("setup.challenge")
            for index in alarms.indices where challengeRNG.chance(Ratio(2, 5)) { alarms[index].challenge = .walk }
        }
        drawSkipDates(&alarms, platform: platform, calendar: calendar, startWallMs: startWallMs, streams: streams)
        // SND-1, SND-8: sound settings from their own stream, so the other draws keep their values.
        var soundRNG = streams.stream("setup.sounds")
        for index in alarms.indices { alarms[index].sounds = Self.soundSettings(&soundRNG) }
        // ID-4, ID-5: a third of the alarms carry an alert countdown (AlarmKit postAlert), its own stream.
        var countdownRNG = streams.stream("setup.countdown")
        for index in alarms.indices where countdownRNG.chance(Ratio(1, 3)) {
            alarms[index].countdown = CountdownDuration(preAlertMs: nil, postAlertMs: countdownRNG.pick([Int64(300_000), 540_000, 600_000]))
        }
        return alarms
    }

    /// REC-4: skip dates on a share of weekly alarms (`setup.skip-dates`): dates of the alarm's
    /// own weekdays within the next two weeks, so they matter.
    static func drawSkipDates(_ alarms: inout [LogicalAlarm], platform: PlatformFlavor, calendar: WallCalendar,
                              startWallMs: Int64, streams: RandomStreams) {
        var skipRNG = streams.stream("setup.skip-dates")
        let skipShare = platform == .ios ? Ratio(1, 2) : Ratio(1, 3)
        for index in alarms.indices where skipRNG.chance(skipShare) {
            guard case .weekly(let days) = alarms[index].repeats else { continue }
            var candidates: [LocalDate] = []
            var cursor = startWallMs
            for _ in 0..<(days.count * 2) {
                let fire = days.map { calendar.nextFire(hour: alarms[index].hour, minute: alarms[index].minute, weekday: $0, after: cursor) }.min()!
                candidates.append(calendar.localDate(fire))
                cursor = fire
            }
            let count = Int(skipRNG.int(in: 1...3))
            alarms[index].skipDates = Array(Set((0..<count).map { _ in skipRNG.pick(candidates) })).sorted()
        }
    }

    /// The HealthKit workout and pedometer behaviour of an iOS seed (`setup.walk`); Android seeds
    /// draw nothing.
    static func drawWalkSetup(platform: PlatformFlavor, streams: RandomStreams) -> WalkSetup {
        var walkSetup = WalkSetup()
        guard platform == .ios else { return walkSetup }
        var healthRNG = streams.stream("setup.walk")
        walkSetup.workout.sessionStartLatencyMs = healthRNG.int(in: 100...1_500)
        walkSetup.workout.collectionStartLatencyMs = healthRNG.int(in: 100...1_500)
        walkSetup.workout.recoverySupported = healthRNG.chance(Ratio(2, 3))
        walkSetup.workout.motionAuthorized = healthRNG.chance(Ratio(9, 10))
        walkSetup.workout.historyLagMs = healthRNG.pick([Int64(500), 2_000, 5_000])
        walkSetup.collectionNeverConfirms = healthRNG.chance(Ratio(1, 10))
        return walkSetup
    }

    /// Platform facts both flavours carry (`setup.platform`, `setup.authorization`,
    /// `setup.ios-lifecycle`, `setup.ios-device`, `setup.ios-version`).
    static func drawDevice(_ setup: inout DeviceSetup, streams: RandomStreams) {
        var platformRNG = streams.stream("setup.platform")
        setup.ios.scheduleLatencyMaxMs = platformRNG.pick([100, 300, 800, 2_000])
        setup.ios.capacity = platformRNG.chance(Ratio(3, 10)) ? Int(platformRNG.int(in: 2...12)) : 64
        setup.android.apiLevel = platformRNG.pick([31, 32, 33, 34, 35])
        setup.android.lockedBootBroadcastDelayMs = platformRNG.int(in: 1_000...8_000)
        setup.publicationGraceMs = platformRNG.int(in: 1_000...10_000)
        var authorizationRNG = streams.stream("setup.authorization")
        let authorizationRoll = authorizationRNG.uniform(below: 100)
        setup.ios.authorization = authorizationRoll < 90 ? .authorized : .notDetermined
        setup.ios.promptGrants = authorizationRoll < 98
        setup.ios.staleNotDetermined = authorizationRNG.chance(Ratio(1, 20))
        var lifecycleRNG = streams.stream("setup.ios-lifecycle")
        let budgets: [Int64?] = [nil, 5_000, 10_000, 30_000, 180_000]
        setup.backgroundExecutionMs = lifecycleRNG.pick(budgets)
        setup.intentsAfterForceQuit = lifecycleRNG.chance(Ratio(1, 2))
        var deviceRNG = streams.stream("setup.ios-device")
        setup.ios.dstPolicy = WallCalendar.DSTPolicy(gap: deviceRNG.pick(WallCalendar.DSTPolicy.Gap.allCases),
                                                     overlap: deviceRNG.pick(WallCalendar.DSTPolicy.Overlap.allCases))
        setup.ios.silentModeSilencesAlerts = deviceRNG.chance(Ratio(1, 20))
        setup.ios.jumpedOverRelativeFires = deviceRNG.chance(Ratio(1, 2))
        // SCH-26: now and then an iPhone below iOS 26 (no AlarmKit). Own stream.
        var versionRNG = streams.stream("setup.ios-version")
        setup.ios.alarmKitAvailable = !versionRNG.chance(Ratio(1, 100))
    }

    /// The AlarmManager-side device (`setup.android-device`): install, doze periods, OEM habits,
    /// alarm volume, standby bucket, full-screen-intent permission.
    static func drawAndroidDevice(_ setup: inout DeviceSetup, streams: RandomStreams) {
        var androidRNG = streams.stream("setup.android-device")
        setup.android.manifest = .usual  // AND-1: SCHEDULE_EXACT_ALARM ≤ 32 + USE_EXACT_ALARM
        setup.android.freshInstall = androidRNG.chance(Ratio(1, 2))
        let firstIdle = androidRNG.int(in: 900_000...3_600_000)
        setup.android.dozeIdlePeriodsMs = (0..<4).map { min(firstIdle << Int64($0), 21_600_000) }
        setup.android.dozeMaintenanceWindowMs = androidRNG.int(in: 30_000...600_000)
        setup.android.seededEqualTimeOrder = androidRNG.chance(Ratio(1, 2))
        setup.android.swipeFromRecentsForceStops = androidRNG.chance(Ratio(1, 4))
        setup.android.updateClearsAlarms = androidRNG.chance(Ratio(1, 10))
        setup.android.alarmVolumeMaxIndex = Int(androidRNG.int(in: 7...15))
        setup.android.alarmVolumeIndex = Int(androidRNG.int(in: 1...Int64(setup.android.alarmVolumeMaxIndex)))
        setup.android.focusLossSilencesAlarm = androidRNG.chance(Ratio(1, 4))
        setup.android.exactAlarmForegroundServiceWindowMs = androidRNG.int(in: 5_000...10_000)
        let bucketRoll = androidRNG.uniform(below: 20)
        setup.androidStandbyBucket = bucketRoll < 12 ? .active : bucketRoll < 16 ? .workingSet : bucketRoll < 18 ? .frequent : bucketRoll < 19 ? .rare : .restricted
        setup.androidFullScreenIntent = androidRNG.chance(Ratio(3, 4))
        drawAndroidManifest(&setup, streams: streams)
    }

    /// Issue 18 (flutter_local_notifications#1526, #2248): the app's declared manifest and target
    /// SDK (`setup.android-manifest`, its own stream, so the other draws keep their values). Half
    /// the seeds declare what the bridge requires (AND-1: SCHEDULE_EXACT_ALARM up to 32 plus
    /// USE_EXACT_ALARM); the other half declare only SCHEDULE_EXACT_ALARM, as many plugins' apps
    /// do, so on API 33+ the app-op governs: the user may revoke it and, on API 34+, a fresh
    /// install starts denied (PLATFORMS.md "API 34 default"). The target SDK is the device's level
    /// in half the seeds, else 30 (no exact-alarm permission needed), 33, 34 or 35.
    static func drawAndroidManifest(_ setup: inout DeviceSetup, streams: RandomStreams) {
        var manifestRNG = streams.stream("setup.android-manifest")
        if manifestRNG.chance(Ratio(1, 2)) { setup.android.manifest = .scheduleExactOnly }
        setup.android.targetSdk = manifestRNG.chance(Ratio(1, 2)) ? nil : manifestRNG.pick([30, 33, 34, 35])
    }

    /// Issue 18 part 2 (`setup.android-power`, its own stream so no other draw moves): the app's
    /// battery usage — Unrestricted (user power allowlist) in 3 of 20 seeds, on the system
    /// allowlist in 1, "Restricted" (forced app standby) in 1, else Optimized — and Battery Saver on
    /// from the start in 1 of 5 (it rests while the plan charges the phone).
    static func drawAndroidPower(_ setup: inout DeviceSetup, streams: RandomStreams) {
        var powerRNG = streams.stream("setup.android-power")
        let usageRoll = powerRNG.uniform(below: 20)
        setup.android.batteryUsage = usageRoll < 3 ? .unrestricted : usageRoll < 4 ? .systemAllowlisted : usageRoll < 5 ? .restricted : .optimized
        setup.android.batterySaver = powerRNG.chance(Ratio(1, 5))
    }

    /// The bridge's and the JS side's tunable constants, each group from its own stream.
    static func drawBridgeConstants(_ setup: inout DeviceSetup, streams: RandomStreams) {
        setup.transitionBoundMs = 5_000
        var constants = streams.stream("setup.bridge-constants")
        setup.minSnoozeLeadMs = constants.int(in: 2_000...10_000)
        setup.clockChangeThresholdMs = constants.pick([Int64(1_000), 5_000, 30_000, 60_000])
        var foreground = streams.stream("setup.foreground-constants")
        setup.imminentHorizonMs = foreground.pick([Int64(5_000), 15_000, 30_000, 120_000])
        setup.contextHeartbeatLifetimeMs = foreground.pick([Int64(10_000), 15_000, 30_000, 60_000])
        setup.wakeSessionDeadlineMs = foreground.pick([Int64(5 * 60_000), 30 * 60_000, 2 * 3_600_000])
        setup.contextHeartbeatIntervalMs = foreground.pick([Int64(2_000), 5_000, 8_000])
        setup.jsStallOneIn = foreground.pick([0, 4, 10])
        setup.reactiveUser = true
        // BOOT-12: the kill-switch request's timeout is the app's choice (own stream); network
        // failures of the check are the fault kind kill-switch-network-failure.
        var network = streams.stream("setup.kill-switch")
        setup.killSwitchTimeoutMs = network.pick([Int64(5_000), 10_000, 30_000, 60_000])
        var jsCache = streams.stream("setup.js-cache")
        setup.jsCacheStale = jsCache.chance(Ratio(1, 3))
        // CAP-8: H_SKIP and N_SKIP vary per seed (own stream); a small N_SKIP binds, so the
        // dropped count (CAP-9) is exercised.
        var skipConstants = streams.stream("setup.skip-constants")
        setup.skipHorizonMs = skipConstants.pick([Int64(7), 10, 14, 14]) * 86_400_000
        setup.skipOccurrenceMax = skipConstants.chance(Ratio(1, 4)) ? Int(skipConstants.int(in: 1...6)) : 30
        var stepConstants = streams.stream("setup.android-steps")  // its own stream: other draws keep their values
        setup.recentStepWindowMs = stepConstants.int(in: 15_000...180_000)
        setup.stepReportLatencyMs = stepConstants.int(in: 0...10_000)
    }

    /// The seed's printed parameters (`replay`, reports), in a fixed order.
    static func describeParameters(_ setup: DeviceSetup, walkAlarms: [String], selection: FaultSelection,
                                   faults: SeedFaults) -> [RunParameter] {
        var parameters: [RunParameter] = [
            RunParameter("zone", setup.zoneIdentifier),
            RunParameter("zone-data", WallCalendar.zoneDataVersion),
            RunParameter("start-wall-ms", String(setup.startWallMs)),
            RunParameter("duration-ms", String(setup.durationMs)),
        ]
        if let legacy = setup.legacyInstall {
            parameters.append(RunParameter("legacy-install", "\(legacy.rings.count) rings, \(legacy.document.rings.count) rows"
                + (legacy.credentialProtected ? ", credential-protected" : "")))
        }
        for alarm in setup.alarms {
            let repeats: String
            switch alarm.repeats {
            case .once(let fire): repeats = "once at \(fire)"
            case .weekly(let days): repeats = "weekly " + days.map(\.description).joined(separator: ",")
            }
            let skips = alarm.skipDates.isEmpty ? "" : " skip " + alarm.skipDates.map(\.description).joined(separator: ",")
            parameters.append(RunParameter("alarm.\(alarm.id)", "\(clockTime(hour: alarm.hour, minute: alarm.minute)) \(repeats)\(skips) policy \(alarm.policy.rawValue)"))
            parameters.append(RunParameter("sounds.\(alarm.id)", Self.describe(alarm.sounds)))
        }
        switch setup.platform {
        case .ios: parameters += iosParameters(setup, walkAlarms: walkAlarms)
        case .android: parameters += androidParameters(setup)
        }
        parameters += [
            RunParameter("bridge.g-pub-ms", String(setup.publicationGraceMs)),
            RunParameter("bridge.h-skip-ms", String(setup.skipHorizonMs)),
            RunParameter("bridge.n-skip", String(setup.skipOccurrenceMax)),
            RunParameter("bridge.min-snooze-lead-ms", String(setup.minSnoozeLeadMs)),
            RunParameter("bridge.clock-threshold-ms", String(setup.clockChangeThresholdMs)),
            RunParameter("bridge.imminent-ms", String(setup.imminentHorizonMs)),
            RunParameter("bridge.h-ctx-ms", String(setup.contextHeartbeatLifetimeMs)),
            RunParameter("bridge.d-session-ms", String(setup.wakeSessionDeadlineMs)),
            RunParameter("js.heartbeat-ms", String(setup.contextHeartbeatIntervalMs)),
            RunParameter("js.stall-one-in", String(setup.jsStallOneIn)),
            RunParameter("sim.t-op-ms", String(setup.transitionBoundMs)),
            RunParameter("net.kill-switch-failure-rate", setup.killSwitchFailureRate.map { "\($0)" } ?? "never"),
            RunParameter("net.kill-switch-timeout-ms", String(setup.killSwitchTimeoutMs)),
            RunParameter("app.js-cache-stale", String(setup.jsCacheStale)),
            RunParameter("fault-profile", selection.description),
            RunParameter("faults", faults.description),
            RunParameter("plan-actions", String(setup.plan.count)),
        ]
        return parameters
    }

    /// The AlarmKit-side parameters of an iOS seed, in print order.
    static func iosParameters(_ setup: DeviceSetup, walkAlarms: [String]) -> [RunParameter] {
        let ios = setup.ios, workout = setup.walk.workout
        let prompt = ios.authorization == .notDetermined ? (ios.promptGrants ? " (prompt: grant)" : " (prompt: deny)") : ""
        return [
            RunParameter("ios.schedule-latency-max-ms", String(ios.scheduleLatencyMaxMs)),
            RunParameter("ios.capacity", String(ios.capacity)),
            RunParameter("ios.coalesce-updates", String(ios.coalesceUpdates)),
            RunParameter("ios.authorization", ios.authorization.rawValue + prompt),
            RunParameter("ios.stale-not-determined", String(ios.staleNotDetermined)),
            RunParameter("ios.dense-late-delay-max-ms", String(ios.denseLateDelayMaxMs)),
            RunParameter("ios.read-lag-max-ms", String(ios.readLagMaxMs)),
            RunParameter("ios.hold-updates-while-locked", String(ios.holdUpdatesWhileLocked)),
            RunParameter("ios.background-execution-ms", setup.backgroundExecutionMs.map(String.init) ?? "unlimited"),
            RunParameter("ios.intents-after-force-quit", String(setup.intentsAfterForceQuit)),
            RunParameter("ios.dst-policy", ios.dstPolicy.description),
            RunParameter("ios.custom-sound-fails", String(ios.customSoundFails)),
            RunParameter("ios.silent-mode-silences", String(ios.silentModeSilencesAlerts)),
            RunParameter("ios.jumped-over-relative", ios.jumpedOverRelativeFires ? "fires" : "waits"),
            RunParameter("ios.schedule-always-fails", String(ios.scheduleAlwaysFails)),
            RunParameter("ios.alarmkit", ios.alarmKitAvailable ? "available" : "unavailable"),
            RunParameter("ios.walk-alarms", walkAlarms.isEmpty ? "none" : walkAlarms.joined(separator: ",")),
            RunParameter("ios.workout-latency-ms", "\(workout.sessionStartLatencyMs)+\(workout.collectionStartLatencyMs)"),
            RunParameter("ios.workout-recovery", String(workout.recoverySupported)),
            RunParameter("ios.motion-authorized", String(workout.motionAuthorized)),
            RunParameter("ios.pedometer-history-lag-ms", String(workout.historyLagMs)),
            RunParameter("ios.walk-collection-confirms", String(!setup.walk.collectionNeverConfirms)),
        ]
    }

    /// The AlarmManager-side parameters of an Android seed, in print order.
    static func androidParameters(_ setup: DeviceSetup) -> [RunParameter] {
        let android = setup.android
        return [
            RunParameter("android.api-level", String(android.apiLevel)),
            RunParameter("android.locked-boot-broadcast-delay-ms", String(android.lockedBootBroadcastDelayMs)),
            RunParameter("android.fresh-install", String(android.freshInstall)),
            RunParameter("android.manifest", android.manifest == .scheduleExactOnly ? "schedule-exact-only" : android.manifest == .usual ? "usual" : "custom"),
            RunParameter("android.target-sdk", android.targetSdk.map(String.init) ?? "device"),
            RunParameter("android.credential-stored-sounds", android.credentialStoredSounds.isEmpty ? "none" : android.credentialStoredSounds.joined(separator: ",")),
            RunParameter("android.doze-idle-periods-ms", android.dozeIdlePeriodsMs.map(String.init).joined(separator: ",")),
            RunParameter("android.doze-maintenance-ms", String(android.dozeMaintenanceWindowMs)),
            RunParameter("android.seeded-tie-order", String(android.seededEqualTimeOrder)),
            RunParameter("android.swipe-force-stops", String(android.swipeFromRecentsForceStops)),
            RunParameter("android.update-clears-alarms", String(android.updateClearsAlarms)),
            RunParameter("android.oem-kills-ringing-ms", android.oemKillsRingingAfterMs.map(String.init) ?? "off"),
            RunParameter("android.oem-delivery-delay-max-ms", String(android.oemDeliveryDelayMaxMs)),
            RunParameter("sim.foreground-repair-failures", String(setup.foregroundRepairFailures)),
            RunParameter("android.alarm-volume", "\(android.alarmVolumeIndex)/\(android.alarmVolumeMaxIndex)"),
            RunParameter("android.focus-loss-silences", String(android.focusLossSilencesAlarm)),
            RunParameter("android.fgs-window-ms", String(android.exactAlarmForegroundServiceWindowMs)),
            RunParameter("android.standby-bucket", setup.androidStandbyBucket.rawValue),
            RunParameter("android.battery-usage", android.batteryUsage.rawValue),
            RunParameter("android.battery-saver", android.batterySaver ? "on" : "off"),
            RunParameter("android.full-screen-intent", setup.androidFullScreenIntent ? "granted" : "denied"),
            RunParameter("android.step-report-latency-ms", String(setup.stepReportLatencyMs)),
            RunParameter("bridge.w-step-ms", String(setup.recentStepWindowMs)),
        ]
    }
}

/// A plan action and the fault kind that put it there (nil: the sleepy user or the app).
struct TaggedAction: Equatable {
    var kind: String?
    var action: TimedAction
}

/// The sleepy user's ambient behaviour and the seed's faults, as a timed plan.
enum AmbientPlan {
    /// The whole plan, sorted by time (ties keep generation order), each action tagged with its
    /// fault kind. The user's part draws from `plan.*` streams, each fault kind from its own.
    /// - Parameter firstLaunch: false for a continuation (`run --continue-seeds`): the app is
    ///   installed already, so no first launch is planned at `setup.startWallMs`.
    static func generate(setup: DeviceSetup, faults: SeedFaults, calendar: WallCalendar,
                         streams: RandomStreams, firstLaunch: Bool = true) -> [TaggedAction] {
        var plan: [TimedAction] = []
        let start = setup.startWallMs
        let end = start + setup.durationMs
        // First launch of a fresh install: open the app, save every alarm, leave. After an update
        // from a legacy install the alarms are saved already: the first launch migrates them.
        if firstLaunch {
            plan.append(TimedAction(wallMs: start + 1_000, action: .userOpenApp))
            for (index, alarm) in setup.alarms.enumerated() where setup.legacyInstall == nil {
                plan.append(TimedAction(wallMs: start + 3_000 + Int64(index) * 2_000, action: .userEditTitle(alarmID: alarm.id, title: alarm.title)))
            }
            plan.append(TimedAction(wallMs: start + 20_000, action: .userLeaveApp))
        }

        var user = streams.stream("plan.user")
        var glances = streams.stream("plan.control-center")
        var hour = start + 3_600_000
        var edits = 0
        while hour < end {
            if user.chance(Ratio(1, 3)) {
                let at = hour + user.int(in: 0...3_599_000)
                let roll = user.uniform(below: 100)
                if roll < 60 {
                    plan.append(TimedAction(wallMs: at, action: .userOpenApp))
                    if user.chance(Ratio(1, 2)) { plan.append(TimedAction(wallMs: at + user.int(in: 200...3_000), action: .appSyncEnabledAlarms)) }
                    if glances.chance(Ratio(1, 3)) { plan.append(TimedAction(wallMs: at + glances.int(in: 1_000...4_000), action: .userControlCenter)) }
                    plan.append(TimedAction(wallMs: at + user.int(in: 5_000...120_000), action: .userLeaveApp))
                } else if roll < 85, let alarm = setup.alarms.first {
                    edits += 1
                    let target = user.pick(setup.alarms)
                    _ = alarm
                    plan.append(contentsOf: titleEdit(target, number: edits, at: at))
                } else {
                    plan.append(TimedAction(wallMs: at, action: .appSyncEnabledAlarms))
                }
            }
            hour += 3_600_000
        }
        // Title edits timed near a fire time: the seed-003 window.
        for alarm in setup.alarms where user.chance(Ratio(1, 2)) {
            let fire = calendar.nextFire(hour: alarm.hour, minute: alarm.minute, weekday: nil, after: start + 60_000)
            edits += 1
            plan.append(contentsOf: titleEdit(alarm, number: edits, at: fire - user.int(in: 1_000...240_000)))
        }

        var tagged = plan.map { TaggedAction(kind: nil, action: $0) }
        let planner = FaultPlanner(faults: faults, streams: streams, setup: setup, calendar: calendar)
        tagged += planner.plan()
        tagged += editorPlan(setup: setup, streams: streams).map { TaggedAction(kind: nil, action: $0) }
        // Stable order: by time, then by generation order (the sort is stable).
        return tagged.enumerated().sorted { ($0.element.action.wallMs, $0.offset) < ($1.element.action.wallMs, $1.offset) }.map(\.element)
    }

    /// API-19: the user edits alarms in the editor (time, weekdays, sounds, policy, challenge,
    /// countdown, enabled), sometimes saving again while the previous save still verifies.
    /// Own stream: the draws above keep their values.
    static func editorPlan(setup: DeviceSetup, streams: RandomStreams) -> [TimedAction] {
        var rng = streams.stream("plan.edits")
        guard !setup.alarms.isEmpty else { return [] }
        var plan: [TimedAction] = []
        for number in 0..<Int(rng.int(in: 0...4)) {
            let target = rng.pick(setup.alarms)
            let at = setup.startWallMs + rng.int(in: 120_000...setup.durationMs)
            var edits: [AlarmEdit] = []
            switch rng.uniform(below: 8) {
            case 0, 1:
                edits.append(.time(hour: Int(rng.int(in: 5...9)), minute: Int(rng.int(in: 0...59))))
            case 2:
                let days = Weekday.allCases.filter { _ in rng.chance(Ratio(1, 2)) }
                edits.append(.weekdays(days.isEmpty ? [rng.pick(Weekday.allCases)] : days))
            case 3:
                edits.append(.sounds(SeedGenerator.soundSettings(&rng)))
            case 4:
                edits.append(.policy(rng.chance(Ratio(1, 2)) ? .v3 : .v2))
            case 5:
                if !target.challenge.isWalk { edits.append(.challenge(rng.pick([ChallengeKind.none, .voice, .math]))) }
            case 6:
                edits.append(.countdown(rng.chance(Ratio(1, 3)) ? nil : CountdownDuration(preAlertMs: nil, postAlertMs: rng.pick([Int64(300_000), 540_000]))))
            default:
                edits.append(.enabled(false))
            }
            plan.append(TimedAction(wallMs: at, action: .userOpenApp))
            for edit in edits { plan.append(TimedAction(wallMs: at + 1_500, action: .userEditAlarm(alarmID: target.id, edit: edit))) }
            if rng.chance(Ratio(1, 3)) {
                // Saved again while the first save still verifies.
                let again = at + 1_500 + rng.int(in: 20...400)
                plan.append(TimedAction(wallMs: again, action: rng.chance(Ratio(1, 2))
                    ? .userEditTitle(alarmID: target.id, title: "\(target.title) again \(number)")
                    : .userEditAlarm(alarmID: target.id, edit: .time(hour: Int(rng.int(in: 5...9)), minute: Int(rng.int(in: 0...59))))))
            }
            if edits == [.enabled(false)] {
                let back = at + rng.int(in: 600_000...7_200_000)
                plan.append(TimedAction(wallMs: back, action: .userEditAlarm(alarmID: target.id, edit: .enabled(true))))
                plan.append(TimedAction(wallMs: back + 8_000, action: .userLeaveApp))
            }
            plan.append(TimedAction(wallMs: at + 8_000, action: .userLeaveApp))
        }
        return plan
    }

    static func titleEdit(_ alarm: LogicalAlarm, number: Int, at: Int64) -> [TimedAction] {
        [TimedAction(wallMs: at, action: .userOpenApp),
         TimedAction(wallMs: at + 1_500, action: .userEditTitle(alarmID: alarm.id, title: "\(alarm.title) edit \(number)")),
         TimedAction(wallMs: at + 6_000, action: .userLeaveApp)]
    }
}

import AlarmBridge
import SimKernel

/// `alarmsim run FILE --continue-seeds A..B`: a scripted prefix (a scenario, an imported bridge
/// journal) continued with the fuzzer's seeded random behaviour.
///
/// The continuation is a pure function of (the prefix's setup, the continuation seed, the fault
/// selection): the sleepy user's ambient plan and the editor's edits (`plan.*` streams), the
/// swarm profile's fault kinds (`fault.<name>` and `fault.<name>.plan` streams) planned over
/// `durationMs` from `fromWallMs`, and the reactive user and in-run fault rates switched on from
/// that instant only (`DeviceSetup.randomBehaviourFromMs`), so the prefix runs as written.
public enum Continuation {
    /// How long a continuation runs after its prefix: the fuzz safety phase's 36 h, virtual ms.
    public static let defaultDurationMs: Int64 = 36 * 3_600_000

    /// Fault kinds a continuation never draws: they reshape the world before it starts
    /// (`dst-night-start`, `legacy-install`) or are device properties from the first instant,
    /// which would change the scripted prefix (`held-updates-while-locked`, `dense-late-delivery`,
    /// `schedule-always-fails`, `oem-killer`, `oem-delivery-delay`, and on iOS the custom-sound
    /// `playback-failure`). `coalesce-updates` starts at the continuation point instead.
    public static let excludedKinds: [String] = [
        FaultCatalog.dstNightStart.name, FaultCatalog.legacyInstall.name, FaultCatalog.heldUpdatesWhileLocked.name,
        FaultCatalog.denseLateDelivery.name, FaultCatalog.scheduleAlwaysFails.name, FaultCatalog.oemKiller.name,
        FaultCatalog.oemDeliveryDelay.name,
    ]

    /// The prefix's setup extended by one continuation.
    ///
    /// - Parameter prefix: The scripted run's setup (plan, alarms, parameters), as `ScenarioRunner` builds it.
    /// - Parameter fromWallMs: Where the continuation starts (the prefix's last timed line), Unix-epoch ms;
    ///   true and wall time agree there only if the prefix set no clock, which the plan's frame assumes.
    /// - Parameter seed: The continuation seed.
    /// - Parameter faults: The fault profile and forced kinds (default: the swarm profile).
    /// - Parameter durationMs: The continuation's span after `fromWallMs`, virtual ms.
    /// - Returns: The extended setup (its plan is the prefix's plus the continuation's, its
    ///   duration reaches `fromWallMs + durationMs`) and the parameters to print: the
    ///   continuation's seed, start, profile, faults and planned actions.
    public static func extend(_ prefix: DeviceSetup, fromWallMs: Int64, seed: UInt64, faults selection: FaultSelection = .swarm,
                              durationMs: Int64 = defaultDurationMs) -> (DeviceSetup, [RunParameter]) {
        let streams = RandomStreams(seed: seed)
        let platform = prefix.platform
        let calendar = WallCalendar(zoneIdentifier: prefix.zoneIdentifier)!
        // The planners see a world that starts at the continuation point.
        var frame = prefix
        frame.startWallMs = fromWallMs
        frame.durationMs = durationMs
        frame.legacyInstall = nil
        let alarms = prefix.alarms
        let faults = SeedFaults.draw(selection: selection, platform: platform, streams: streams) { kind in
            if excludedKinds.contains(kind.name) { return false }
            switch kind.name {
            case FaultCatalog.playbackFailure.name: return platform == .android
            case FaultCatalog.exactPermissionRevoke.name: return prefix.android.exactAlarmAppOpGoverns  // AND-1
            case FaultCatalog.healthAccessRevoked.name, FaultCatalog.workoutLoss.name, FaultCatalog.walkForceQuit.name:
                return alarms.contains(where: \.challenge.isWalk)
            default: return true
            }
        }
        // A few kinds anchor on the next fire time and may land before the frame's start (a reboot
        // shortly before the alarm): they happen at the continuation point instead, never in the prefix.
        var plan = AmbientPlan.generate(setup: frame, faults: faults, calendar: calendar, streams: streams, firstLaunch: false)
            .map { TimedAction(wallMs: max($0.action.wallMs, fromWallMs), action: $0.action.action) }
        if platform == .ios, faults.isOn(FaultCatalog.coalesceUpdates) {
            plan.insert(TimedAction(wallMs: fromWallMs, action: .faultCoalesceUpdates(true)), at: 0)
        }
        var setup = prefix
        setup.plan = prefix.plan + plan
        setup.durationMs = max(prefix.durationMs, fromWallMs - prefix.startWallMs + durationMs)
        setup.reactiveUser = true
        setup.randomBehaviourFromMs = fromWallMs
        setup.interleavingDeathRate = faults.rate(FaultCatalog.processDeathInterleaving)
        setup.requestFailureRate = faults.rate(FaultCatalog.scheduleRequestFailure)
        setup.killSwitchFailureRate = faults.rate(FaultCatalog.killSwitchNetworkFailure)  // BOOT-12
        setup.workoutLossRate = faults.rate(FaultCatalog.workoutLoss)  // WALK-23
        setup.walkForceQuitRate = faults.rate(FaultCatalog.walkForceQuit)  // WALK-25
        setup.snoozeClockChangeRate = faults.rate(FaultCatalog.clockChangeDuringSnooze)  // SNZ-20
        setup.triggerClockSetBackRate = faults.rate(FaultCatalog.clockSetBackAfterTrigger)  // SNZ-22
        setup.deathMidCloseRate = faults.rate(FaultCatalog.deathMidClose)  // OCC-5..7, IOS-11
        setup.acceptedRequestDropRate = faults.rate(FaultCatalog.acceptedRequestDropped)  // issue 18
        let parameters = [
            RunParameter("continue-seed", String(seed)),
            RunParameter("continue-from-wall-ms", String(fromWallMs)),
            RunParameter("continue-duration-ms", String(durationMs)),
            RunParameter("fault-profile", selection.description),
            RunParameter("faults", faults.description),
            RunParameter("continue-plan-actions", String(plan.count)),
        ]
        return (setup, parameters)
    }
}

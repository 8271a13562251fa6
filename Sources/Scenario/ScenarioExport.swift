import AlarmBridge
import AndroidModel
import IOSModel
import SimKernel
import Simulation

/// Faithful export of a `DeviceSetup` (a fuzz seed's, or any other) to a `ScenarioFile`.
///
/// The exported scenario replays the same run: `ScenarioRunner.run` builds back an equal setup.
/// How each part maps:
/// - `start` is the setup's start instant in its zone, to the whole second; `param sim.start-ms`
///   carries the remaining milliseconds (fuzz seeds start at any millisecond).
/// - `param sim.first-launch scripted` turns off the runner's synthesized first launch: the
///   plan's own first launch (open the app, save each alarm, leave) is written as timed lines.
/// - Every setup field whose value differs from the runner's default becomes a `param` line,
///   including the fuzz-only switches `sim.reactive-user`, `sim.interleaving-death-rate`, `sim.workout-loss-rate`, `sim.walk-force-quit-rate`, `sim.snooze-clock-change-rate`, `sim.trigger-clock-set-back-rate`, `sim.death-mid-close-rate` and
///   `sim.request-failure-rate`, and `sim.duration-ms` always (virtual ms).
/// - A legacy install becomes `param app.legacy-install swarm` with the alarms the generator
///   was given (`LegacyInstall.configuredAlarms`): the runner regenerates the same state from
///   the seed's `setup.legacy-install` stream.
/// - Each `TimedAction` becomes one `at` line at the local wall time of its device wall ms in the
///   start zone (`+Nd HH:MM:SS.mmm`); an instant in the second pass of an hour a fall-back night
///   repeats carries its UTC offset (`+1d 02:04:08.251+01:00`), which a plain time cannot name.
/// - The seed is the setup's seed, so the World's named streams draw the same values.
public enum ScenarioExport {
    /// What cannot be exported.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The scenario that replays `setup`.
    ///
    /// - Parameters:
    ///   - setup: the device setup (its `seed` becomes the file's seed).
    ///   - defects: known defects to reintroduce (those that do not apply to the platform are left out).
    ///   - invariant: when given, the file ends with `expect violation INVARIANT`.
    /// - Throws: `Failure` when an alarm or plan action has no scenario form (an action only the
    ///   World itself schedules, an alarm that is disabled, a one-shot not at its next local time).
    public static func scenario(from setup: DeviceSetup, defects: [KnownDefect], invariant: String? = nil) throws(Failure) -> ScenarioFile {
        guard let calendar = WallCalendar(zoneIdentifier: setup.zoneIdentifier) else {
            throw Failure(description: "unknown zone \(setup.zoneIdentifier)")
        }
        let local = calendar.local(setup.startWallMs)
        let startSecondMs = calendar.instant(year: local.year, month: local.month, day: local.day, hour: local.hour,
                                             minute: local.minute, second: local.second) ?? setup.startWallMs
        let start = ScenarioStart(date: LocalDate(year: local.year, month: local.month, day: local.day), hour: local.hour,
                                  minute: local.minute, second: local.second, zoneIdentifier: setup.zoneIdentifier)
        let platform: ScenarioPlatform = setup.platform == .ios ? .ios : .android

        var parameters: [ScenarioParameter] = []
        if setup.startWallMs != startSecondMs { parameters.append(ScenarioParameter(key: "sim.start-ms", value: String(setup.startWallMs - startSecondMs))) }
        parameters.append(ScenarioParameter(key: "sim.first-launch", value: "scripted"))
        parameters.append(ScenarioParameter(key: "sim.duration-ms", value: String(setup.durationMs)))
        if setup.legacyInstall != nil { parameters.append(ScenarioParameter(key: "app.legacy-install", value: "swarm")) }
        let defaults = DeviceSetup(platform: setup.platform, zoneIdentifier: "UTC", startWallMs: 0, durationMs: 0, alarms: [],
                                   plan: [], seed: 0)
        for key in ScenarioRunner.parameterKeys {
            guard let value = parameterValue(key, setup), value != parameterValue(key, defaults) else { continue }
            parameters.append(ScenarioParameter(key: key, value: value))
        }

        var alarms: [ScenarioAlarm] = []
        for alarm in setup.legacyInstall?.configuredAlarms ?? setup.alarms {
            alarms.append(try scenarioAlarm(alarm, calendar: calendar, startWallMs: setup.startWallMs))
        }
        var events: [ScenarioEvent] = []
        for timed in setup.plan {
            guard let (actor, verb, arguments) = event(for: timed.action) else {
                throw Failure(description: "plan action \(timed.action) has no scenario verb")
            }
            guard let time = time(of: timed.wallMs, start: start, calendar: calendar) else {
                throw Failure(description: "plan action \(timed.action) at \(timed.wallMs) ms has no scenario time (before the start date, or a UTC offset that is not whole minutes)")
            }
            events.append(ScenarioEvent(time: time, actor: actor, verb: verb, arguments: arguments))
        }
        return ScenarioFile(platform: platform, start: start, seed: setup.seed,
                            defects: defects.filter { $0.platforms.contains(setup.platform) }.sorted().map(\.rawValue),
                            parameters: parameters, alarms: alarms, events: events,
                            expectations: invariant.map { [.violation($0, line: 0)] } ?? [])
    }

    /// The local wall time of device wall ms `wallMs` in the start zone, as a scenario time that
    /// the runner maps back to exactly `wallMs` (with its UTC offset in the second pass of a
    /// repeated hour: `ScenarioTime.naming`); nil when no scenario time names it.
    static func time(of wallMs: Int64, start: ScenarioStart, calendar: WallCalendar) -> ScenarioTime? {
        ScenarioTime.naming(instantMs: wallMs, start: start, calendar: calendar)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func civilDays(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func scenarioAlarm(_ alarm: LogicalAlarm, calendar: WallCalendar, startWallMs: Int64) throws(Failure) -> ScenarioAlarm {
        guard alarm.enabled else { throw Failure(description: "alarm \(alarm.id) is disabled at the start") }
        let repeats: ScenarioRepeat
        switch alarm.repeats {
        case .once(let fireWallMs):
            guard fireWallMs == calendar.nextFire(hour: alarm.hour, minute: alarm.minute, weekday: nil, after: startWallMs) else {
                throw Failure(description: "one-shot alarm \(alarm.id) is not at its next local \(alarm.hour):\(alarm.minute)")
            }
            repeats = .once
        case .weekly(let days):
            repeats = .weekly(days.map(scenarioWeekday))
        }
        let policy: ScenarioPolicy = alarm.policy == .v3 ? .v3 : (alarm.policy == .v2 ? .v2 : .legacy)
        var result = ScenarioAlarm(name: alarm.id, hour: alarm.hour, minute: alarm.minute, repeats: repeats, policy: policy,
                                   title: alarm.title, challenge: scenarioChallenge(alarm.challenge))
        result.sounds = alarm.sounds.map(scenarioSounds)
        result.skipDates = alarm.skipDates.map(\.description)
        if let countdown = alarm.countdown {
            guard countdown.preAlertMs == nil, let post = countdown.postAlertMs, post > 0 else {
                throw Failure(description: "alarm \(alarm.id) has a countdown a scenario cannot write")
            }
            result.countdownMs = post
        }
        return result
    }

    static func scenarioWeekday(_ day: Weekday) -> ScenarioWeekday {
        ScenarioWeekday(rawValue: day.description)!
    }

    static func scenarioChallenge(_ challenge: ChallengeKind) -> ScenarioChallenge {
        switch challenge {
        case .none: return .none
        case .voice: return .voice
        case .math: return .math
        case .walk: return .walk
        }
    }

    static func scenarioSounds(_ sounds: SoundSettings) -> ScenarioSounds {
        guard let mode = sounds.mode else { return ScenarioSounds(mode: .legacy, groups: [sounds.pool]) }
        return ScenarioSounds(mode: mode == .progressive ? .progressive : .random, groups: sounds.groups ?? [sounds.pool])
    }

    /// The scenario line (actor, verb, arguments) of a plan action, or nil when it has none.
    static func event(for action: PlanAction) -> (String, String, [ScenarioArgument])? {
        switch action {
        case .userStop(let alarmID): return ("user", "stop", alarmID.map { [.alarm($0)] } ?? [])
        case .userOpenApp: return ("user", "open-app", [])
        case .userLeaveApp: return ("user", "leave-app", [])
        case .userCompleteChallenge: return ("user", "complete-challenge", [])
        case .userUnlock: return ("user", "unlock", [])
        case .userForceQuit: return ("user", "force-quit", [])
        case .userEditTitle(let alarmID, let title): return ("user", "edit-title", [.alarm(alarmID), .text(title)])
        case .userEditTime(let alarmID, let hour, let minute): return ("user", "edit-time", [.alarm(alarmID), .timeOfDay(hour: hour, minute: minute)])
        case .userDeleteAlarm(let alarmID): return ("user", "delete-alarm", [.alarm(alarmID)])
        case .userEditAlarm(let alarmID, let edit): return editEvent(alarmID, edit)
        case .userSnooze(let delayMs, let doubleTap):
            guard !doubleTap, delayMs >= 0 else { return nil }
            return ("user", "snooze", [.durationMs(delayMs)])
        case .userSkipSnooze: return ("user", "skip-snooze", [])
        case .userAbandon(let wrongAlarm): return wrongAlarm ? nil : ("user", "abandon", [])
        case .appSyncEnabledAlarms: return ("app", "sync-enabled-alarms", [])
        case .appLaunch: return ("app", "launch", [])
        case .deviceReboot: return ("device", "reboot", [])
        case .faultProcessDeath: return ("fault", "process-death", [])
        case .faultScheduleFailure(let count): return ("fault", "schedule-failure", [.count(count)])
        case .faultInventoryReadFailure(let count): return ("fault", "inventory-read-failure", [.count(count)])
        case .faultCapacity(let count): return ("fault", "capacity", [.count(count)])
        case .faultRevokeExactPermission: return ("fault", "revoke-exact-permission", [])
        case .faultGrantExactPermission: return ("fault", "grant-exact-permission", [])
        case .faultCoalesceUpdates(let on): return ("fault", "coalesce-updates", [.onOff(on)])
        case .deviceTimeZone(let zone): return ("device", "time-zone", [.zone(zone)])
        case .deviceSetClock(let deltaMs): return deltaMs == 0 ? nil : ("device", "set-clock", [.signedDurationMs(deltaMs)])
        case .deviceSilentMode(let on): return ("device", "silent-mode", [.onOff(on)])
        case .userControlCenter: return ("user", "control-center", [])
        case .userReinstall: return ("user", "reinstall", [])
        case .faultOSRemovesAlarm(let alarmID): return ("fault", "os-removes-alarm", alarmID.map { [.alarm($0)] } ?? [])
        case .faultLateDelivery(let ms): return ms < 0 ? nil : ("fault", "late-delivery", [.durationMs(ms)])
        case .faultWrongInstantAlert: return ("fault", "wrong-instant-alert", [])
        case .faultGhostAlert(let ms): return ms < 0 ? nil : ("fault", "ghost-alert", [.durationMs(ms)])
        case .faultOSUpdate: return ("fault", "os-update", [])
        case .faultDamagedStore(let ms): return ms < 0 ? nil : ("fault", "damaged-store", [.durationMs(ms)])
        case .deviceDoze(let on): return ("device", "doze", [.onOff(on)])
        case .deviceCharging(let on): return ("device", "charging", [.onOff(on)])
        case .userAppUpdate: return ("user", "app-update", [])
        case .faultForceStop: return ("fault", "force-stop", [])
        case .faultAudioFocus(let change): return audioFocusEvent(change)
        case .faultPlaybackFailure: return ("fault", "playback-failure", [])
        case .faultKillSwitch(let response): return ("fault", killSwitchVerb(response), [])
        case .faultAppStateWriteFailure(let count): return ("fault", "app-state-write-failure", [.count(count)])
        case .appCancelSystemAlarms(let alarmID): return ("app", "cancel-system-alarms", [.alarm(alarmID)])
        case .userStartWalk: return ("user", "start-walk", [])
        case .userWalk(let steps): return ("user", "walk", [.count(steps)])
        case .userAppSwitcher(let ms): return ms < 0 ? nil : ("user", "app-switcher", [.durationMs(ms)])
        case .faultWorkoutLost: return ("fault", "workout-lost", [])
        case .userSetHealthAccess(let on): return ("user", "health-access", [.onOff(on)])
        case .userVolumeKey: return ("user", "volume-key", [])
        case .userLowerAlarmVolume: return ("user", "lower-alarm-volume", [])
        case .userStartWakeUpCheck: return ("user", "start-wake-up-check", [])
        case .appReconcileStepTracking: return ("app", "reconcile-step-tracking", [])
        case .appChallengeInteraction: return ("app", "challenge-interaction", [])
        case .appStartBurst(let alarmID): return ("app", "start-burst", alarmID.map { [.alarm($0)] } ?? [])
        case .userMuteBurst: return ("user", "mute-burst", [])
        case .appRecordAudible(let alarmID): return ("app", "record-audible", alarmID.map { [.alarm($0)] } ?? [])
        case .appResetAudibleCount: return ("app", "reset-audible-count", [])
        case .appGetScheduledAlarmTimes: return ("app", "get-scheduled-times", [])
        case .appRetrySave, .appShowChallenge, .appContextHeartbeat, .appPeekAction, .appActionWork, .appReadMissReceipts,
             .appAcknowledgeMissReceipt,
             .expectAlerting, .expectSilent, .expectSaveOutcome, .expectLockScreenGrant, .expectSound,
             .expectAudibleCount, .expectRegistered, .expectScheduledTimesRejected, .expectDroppedCount, .expectBurst:
            return nil  // scheduled by the World itself, or checks: no plan of a setup needs them as lines
        }
    }

    /// The `user edit-…` line of an alarm-editor edit (API-19), or nil when no line expresses it.
    static func editEvent(_ alarmID: String, _ edit: AlarmEdit) -> (String, String, [ScenarioArgument])? {
        switch edit {
        case .time(let hour, let minute): return ("user", "edit-alarm-time", [.alarm(alarmID), .timeOfDay(hour: hour, minute: minute)])
        case .weekdays(let days):
            guard !days.isEmpty else { return nil }
            return ("user", "edit-weekdays", [.alarm(alarmID), .text(days.map(\.description).joined(separator: ","))])
        case .sounds(let sounds):
            return ("user", "edit-sounds", [.alarm(alarmID), .text(sounds.map { scenarioSounds($0).spec } ?? "none")])
        case .policy(let policy):
            return ("user", "edit-policy", [.alarm(alarmID), .text(policy == .v3 ? "3" : (policy == .v2 ? "2" : "legacy"))])
        case .challenge(let challenge): return ("user", "edit-challenge", [.alarm(alarmID), .text(scenarioChallenge(challenge).rawValue)])
        case .countdown(let countdown):
            guard let countdown else { return ("user", "edit-countdown", [.alarm(alarmID), .text("off")]) }
            guard countdown.preAlertMs == nil, let post = countdown.postAlertMs, post > 0 else { return nil }
            return ("user", "edit-countdown", [.alarm(alarmID), .text(ScenarioPrinter.formatDuration(post))])
        case .enabled(let on): return ("user", on ? "enable-alarm" : "disable-alarm", [.alarm(alarmID)])
        }
    }

    /// The `fault …` line of an audio-focus change; transient losses have none.
    static func audioFocusEvent(_ change: AudioFocusChange) -> (String, String, [ScenarioArgument])? {
        switch change {
        case .loss: return ("fault", "audio-focus-loss", [])
        case .callStarted: return ("fault", "phone-call", [])
        case .gain: return ("fault", "audio-focus-regained", [])
        case .lossTransient, .lossTransientCanDuck: return nil
        }
    }

    /// The `fault kill-switch-…` verb of a kill-switch response (BOOT-12).
    static func killSwitchVerb(_ response: KillSwitchResponse) -> String {
        switch response {
        case .ok: "kill-switch-ok"
        case .disabled: "kill-switch-disabled"
        case .timeout: "kill-switch-timeout"
        case .networkFailure: "kill-switch-network-failure"
        case .unreadable: "kill-switch-unreadable"
        }
    }

    /// The `param` value that sets `key` to what `setup` holds, as `ScenarioRunner.apply` reads it;
    /// nil for keys of the other platform and keys the export writes itself.
    static func parameterValue(_ key: String, _ setup: DeviceSetup) -> String? {
        if key.hasPrefix("ios.") && setup.platform != .ios || key.hasPrefix("android.") && setup.platform != .android { return nil }
        if let entry = ScenarioRunner.switches.first(where: { $0.key == key }) {
            return setup[keyPath: entry.field] ? entry.yes : entry.no
        }
        func rate(_ ratio: Ratio?) -> String { ratio.map { "\($0.numerator)/\($0.denominator)" } ?? "never" }
        switch key {
        case "ios.capacity": return String(setup.ios.capacity)
        case "ios.schedule-latency-max-ms": return String(setup.ios.scheduleLatencyMaxMs)
        case "ios.authorization": return setup.ios.authorization.rawValue
        case "ios.dense-late-delay-max-ms": return String(setup.ios.denseLateDelayMaxMs)
        case "ios.read-lag-max-ms": return String(setup.ios.readLagMaxMs)
        case "ios.background-execution-ms": return setup.backgroundExecutionMs.map(String.init) ?? "unlimited"
        case "ios.dst-gap": return setup.ios.dstPolicy.gap.rawValue
        case "ios.dst-overlap": return setup.ios.dstPolicy.overlap.rawValue
        case "ios.workout-session-latency-ms": return String(setup.walk.workout.sessionStartLatencyMs)
        case "ios.workout-collection-latency-ms": return String(setup.walk.workout.collectionStartLatencyMs)
        case "ios.pedometer-history-lag-ms": return String(setup.walk.workout.historyLagMs)
        case "android.api-level": return String(setup.android.apiLevel)
        case "android.target-sdk": return setup.android.targetSdk.map(String.init) ?? "device"
        case "android.credential-stored-sounds":
            return setup.android.credentialStoredSounds.isEmpty ? "none" : setup.android.credentialStoredSounds.joined(separator: ",")
        // Issue 18: the swarm draws the usual manifest or SCHEDULE_EXACT_ALARM alone.
        case "android.manifest":
            return setup.android.manifest == .usual ? "usual" : setup.android.manifest == .scheduleExactOnly ? "schedule-exact-only" : nil
        case "android.oem-kills-ringing-ms": return setup.android.oemKillsRingingAfterMs.map(String.init) ?? "off"
        case "android.standby-bucket": return setup.androidStandbyBucket.rawValue
        case "android.battery-usage": return setup.android.batteryUsage.rawValue
        case "android.doze-maintenance-ms": return String(setup.android.dozeMaintenanceWindowMs)
        case "android.step-report-latency-ms": return String(setup.stepReportLatencyMs)
        case "android.locked-boot-broadcast-delay-ms": return String(setup.android.lockedBootBroadcastDelayMs)
        case "android.doze-idle-periods-ms": return setup.android.dozeIdlePeriodsMs.map(String.init).joined(separator: ",")
        case "android.oem-delivery-delay-max-ms": return String(setup.android.oemDeliveryDelayMaxMs)
        case "android.alarm-volume": return "\(setup.android.alarmVolumeIndex)/\(setup.android.alarmVolumeMaxIndex)"
        case "android.fgs-window-ms": return String(setup.android.exactAlarmForegroundServiceWindowMs)
        case "bridge.min-snooze-lead-ms": return String(setup.minSnoozeLeadMs)
        case "bridge.clock-threshold-ms": return String(setup.clockChangeThresholdMs)
        case "bridge.g-pub-ms": return String(setup.publicationGraceMs)
        case "bridge.imminent-ms": return String(setup.imminentHorizonMs)
        case "bridge.h-ctx-ms": return String(setup.contextHeartbeatLifetimeMs)
        case "bridge.d-session-ms": return String(setup.wakeSessionDeadlineMs)
        case "bridge.w-step-ms": return String(setup.recentStepWindowMs)
        case "bridge.h-skip-ms": return String(setup.skipHorizonMs)
        case "bridge.n-skip": return String(setup.skipOccurrenceMax)
        case "js.heartbeat-ms": return String(setup.contextHeartbeatIntervalMs)
        case "js.stall-one-in": return String(setup.jsStallOneIn)
        case "sim.t-op-ms": return String(setup.transitionBoundMs)
        case "sim.foreground-repair-failures": return String(setup.foregroundRepairFailures)
        case "net.kill-switch-failure-rate": return rate(setup.killSwitchFailureRate)
        case "net.kill-switch-timeout-ms": return String(setup.killSwitchTimeoutMs)
        case "sim.request-failure-rate": return rate(setup.requestFailureRate)
        case "liveness.registration-bound-ms": return setup.liveness.enabled ? String(setup.liveness.registrationBoundMs) : nil
        case "liveness.audible-bound-ms": return setup.liveness.enabled ? String(setup.liveness.audibleBoundMs) : nil
        case "liveness.user-return-ms": return setup.liveness.enabled ? String(setup.liveness.userReturnDelayMs) : nil
        case "liveness.user-stay-ms": return setup.liveness.enabled ? String(setup.liveness.userStayMs) : nil
        case "liveness.first-unlock-ms": return setup.liveness.enabled ? String(setup.liveness.firstUnlockDelayMs) : nil
        case "sim.interleaving-death-rate": return rate(setup.interleavingDeathRate)
        case "sim.workout-loss-rate": return rate(setup.workoutLossRate)
        case "sim.walk-force-quit-rate": return rate(setup.walkForceQuitRate)
        case "sim.snooze-clock-change-rate": return rate(setup.snoozeClockChangeRate)
        case "sim.trigger-clock-set-back-rate": return rate(setup.triggerClockSetBackRate)
        case "sim.death-mid-close-rate": return rate(setup.deathMidCloseRate)
        case "sim.accepted-request-drop-rate": return rate(setup.acceptedRequestDropRate)
        default:
            // app.legacy-install,
            // sim.duration-ms, sim.first-launch, sim.start-ms: written by `scenario(from:)`.
            return nil
        }
    }
}

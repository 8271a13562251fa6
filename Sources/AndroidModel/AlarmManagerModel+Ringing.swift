import AlarmBridge
import SimKernel

/// How the ringing notification shows.
public enum RingPresentation: String, Sendable, Equatable {
    /// The full-screen intent launched the alarm activity.
    case fullScreen = "full-screen"
    /// USE_FULL_SCREEN_INTENT denied (34+): a heads-up notification only (fsi-limits).
    case headsUp = "heads-up"
    /// Collapsed into the notification shade (heads-up timed out, or a low-importance channel).
    case shade = "notification-shade"
}

/// What the ringing service's player is doing.
public enum RingAudio: String, Sendable, Equatable {
    case playing
    /// Another app took transient focus with ducking: the system lowers the alarm.
    case ducked
    /// A call is active: the alarm is heard only as the in-call tone (field: AlarmClock#198).
    case inCallTone = "in-call-tone"
    /// Focus lost and the alarm silenced (`focusLossSilencesAlarm`).
    case silencedByFocusLoss = "silenced-focus-loss"
    /// MediaPlayer reported an error: no sound although the service runs.
    case failed
}

/// The notification channels an alarm app posts to.
public enum NotificationChannelKind: String, Sendable, Equatable {
    /// IMPORTANCE_HIGH alarm channel: full-screen intent and heads-up allowed.
    case alarmHighImportance = "alarm-high"
    /// IMPORTANCE_LOW burst channel: no peeking, no full-screen intent (shade only).
    case burstLowImportance = "burst-low"
}

/// Audio-focus changes the ringing service can suffer.
public enum AudioFocusChange: String, Sendable, Equatable, CaseIterable {
    case lossTransient = "loss-transient"
    case lossTransientCanDuck = "loss-transient-can-duck"
    case loss
    /// An incoming or ongoing call (telephony takes focus; playback becomes the in-call tone).
    case callStarted = "call-started"
    case gain
}

/// One ring of the app's ringing foreground service.
public struct RingingStatus: Sendable, Equatable {
    public var id: AlarmUUID
    public var metadata: RingMetadata
    public var presentation: RingPresentation
    public var audio: RingAudio
    public var channel: NotificationChannelKind
    public var startedElapsedMs: Int64
    /// Started within the exact-alarm foreground-service window (FGS docs: exact alarms exempt
    /// background starts); false: a real device would have thrown ForegroundServiceStartNotAllowedException.
    public var startedFromExactAlarm: Bool
    /// Bumped per ring, so stale heads-up timeouts do nothing.
    var token: UInt64
    /// SNZ-18: started with the one-shot suppression exemption extra (a delivered one-time snooze
    /// ring); the service, its notification and the alarm activity carry it.
    public var suppressionExemptOnce = false
    /// The sound the service was started with (the ring's persisted choice, SND-5); nil: the
    /// system default. The service never changes it on its own (SND-11).
    public var soundName: String? = nil
    /// True once the service fell back to the system alarm sound after a player failure (SND-9).
    public var playingSystemFallback = false
    /// When (elapsed ms) the player failed and nothing replaced it yet; nil while it plays.
    public var failedElapsedMs: Int64? = nil

    /// Sound reaches the user: playing or ducked, at a non-zero alarm volume.
    public func isAudible(volumeIndex: Int) -> Bool { (audio == .playing || audio == .ducked) && volumeIndex > 0 }
}

/// The app's ringing foreground service: started from an exact alarm's delivery, it shows the
/// alarm notification (full-screen, heads-up or shade) and plays on STREAM_ALARM.
extension AlarmManagerModel {
    /// The status of a running ring.
    public func ringingStatus(_ id: AlarmUUID) -> RingingStatus? { ringingStatuses.first { $0.id == id } }

    /// Whether the ring is heard now (the service runs, the player plays, volume > 0).
    public func isAudible(_ id: AlarmUUID) -> Bool {
        ringingStatus(id)?.isAudible(volumeIndex: parameters.alarmVolumeIndex) ?? false
    }

    /// Whether an app in the background may start a foreground service now for `id`: within
    /// `exactAlarmForegroundServiceWindowMs` of an exact alarm's delivery (FGS docs: background
    /// start restrictions, 12+; exemptions include exact alarms).
    public func mayStartForegroundService(for id: AlarmUUID, nowElapsedMs: Int64) -> Bool {
        // The background-start restriction applies to apps targeting 31+ only (FGS docs); AOSP
        // AlarmManagerServiceTest `inexactAllowWhileIdleBinderCallWhenChangeDisabled`.
        if parameters.effectiveTargetSdk < 31 { return true }
        // FGS docs' exemptions: an app exempt from battery optimisation may start one from the background.
        if parameters.batteryUsage.onPowerAllowlist { return true }
        guard let delivery = deliveryLog.last(where: { $0.id == id }) else { return false }
        return delivery.method.isExact && nowElapsedMs - delivery.deliveredElapsedMs <= parameters.exactAlarmForegroundServiceWindowMs
    }

    /// Starts the ringing service for a delivered ring (first-cut call; the model's clock).
    /// - Parameter soundName: the sound the app's ringing service plays, read from the ring's
    ///   persisted record (nil: the system default alarm sound).
    public mutating func startRinging(_ id: AlarmUUID, metadata: RingMetadata, soundName: String? = nil) -> [AlarmManagerEffect] {
        guard !ringingStatuses.contains(where: { $0.id == id }) else { return [] }
        ringingToken += 1
        let presentation: RingPresentation
        switch parameters.ringingChannel {
        case .burstLowImportance: presentation = .shade
        case .alarmHighImportance where parameters.manifest.alarmChannelImportance != .high:
            presentation = .shade  // AND-8: below IMPORTANCE_HIGH no heads-up and no full-screen intent
        case .alarmHighImportance: presentation = fullScreenIntentPermitted ? .fullScreen : .headsUp
        }
        let status = RingingStatus(id: id, metadata: metadata, presentation: presentation, audio: .playing,
                                   channel: parameters.ringingChannel, startedElapsedMs: now.elapsedRealtimeMs,
                                   startedFromExactAlarm: mayStartForegroundService(for: id, nowElapsedMs: now.elapsedRealtimeMs),
                                   token: ringingToken, soundName: soundName)
        ringingStatuses.append(status)
        var effects: [AlarmManagerEffect] = [.alertStarted(id, metadata), .trace("ringing", [TraceField("id", id.description)])]
        if let chosen = systemSoundAtStart.firstIndex(of: id) {
            systemSoundAtStart.remove(at: chosen)
            ringingStatuses[ringingStatuses.count - 1].playingSystemFallback = true  // SND-9: never opened
        } else {
            effects += openSoundBeforeUnlock(id, soundName: soundName)
        }
        if presentation != .fullScreen {
            effects.append(.trace("ringing-presentation", [TraceField("id", id.description), TraceField("shown", presentation.rawValue)]))
        }
        if presentation == .headsUp {
            effects.append(.later(.headsUpCollapse(id, token: ringingToken), afterMs: parameters.headsUpDurationMs))
        }
        if let killAfter = parameters.oemKillsRingingAfterMs {
            effects.append(.later(.oemKillRinging(token: ringingToken), afterMs: killAfter))
        }
        return effects
    }

    /// A sound kept in credential-encrypted storage cannot be opened before the first unlock after
    /// a boot (`credentialStoredSounds`): the player stays silent and reports no error (the
    /// exception of `setDataSource` on an unreadable file never reaches an error listener;
    /// BlackyHawky/Clock#322, GrapheneOS#6622). Only the ringing service's own fallback to the
    /// system alarm sound (`playSystemSound`) makes the ring audible.
    mutating func openSoundBeforeUnlock(_ id: AlarmUUID, soundName: String?) -> [AlarmManagerEffect] {
        guard !userUnlocked, let soundName, parameters.credentialStoredSounds.contains(soundName),
              let index = ringingStatuses.firstIndex(where: { $0.id == id }) else { return [] }
        ringingStatuses[index].audio = .failed
        ringingStatuses[index].failedElapsedMs = now.elapsedRealtimeMs
        return [.trace("sound-unreadable-before-unlock", [TraceField("id", id.description), TraceField("sound", soundName)])]
    }

    /// Starts the ringing service at `now`.
    public mutating func startRinging(_ id: AlarmUUID, metadata: RingMetadata, soundName: String? = nil, now: AndroidInstant) -> [AlarmManagerEffect] {
        observe(now) + startRinging(id, metadata: metadata, soundName: soundName)
    }

    /// USE_FULL_SCREEN_INTENT is effective: install-time below 34; on 34+ the user may revoke it
    /// (source.android.com/docs/core/permissions/fsi-limits).
    var fullScreenIntentPermitted: Bool {
        guard parameters.manifest.declaresUseFullScreenIntent else { return false }
        return parameters.apiLevel < 34 || fullScreenIntentAllowed
    }

    /// The user grants or revokes USE_FULL_SCREEN_INTENT (34+: Settings → special app access).
    /// Rings already showing keep their presentation.
    public mutating func setFullScreenIntentPermission(_ granted: Bool) -> [AlarmManagerEffect] {
        fullScreenIntentAllowed = granted
        return [.trace("full-screen-intent", [TraceField("granted", String(granted)), TraceField("effective", String(fullScreenIntentPermitted))])]
    }

    public mutating func stopRinging(_ id: AlarmUUID) -> [AlarmManagerEffect] {
        guard let index = ringingStatuses.firstIndex(where: { $0.id == id }) else {
            return [.toApp(.stopCompleted(id, .failure(.notFound)), launch: nil)]
        }
        let metadata = ringingStatuses.remove(at: index).metadata
        return [.alertEnded(id, metadata), .toApp(.stopCompleted(id, .success(0)), launch: nil),
                .trace("ringing-stopped", [TraceField("id", id.description)])]
    }

    /// The app process died: its ringing service goes with it.
    public mutating func processDied() -> [AlarmManagerEffect] {
        let effects = ringingStatuses.map { AlarmManagerEffect.alertEnded($0.id, $0.metadata) }
        ringingStatuses = []
        systemSoundAtStart = []
        lockScreen.mainActivityShowWhenLocked = false  // the activity's window flag dies with it
        guard appActive || parameters.appStartModeDisabled else { return effects }
        return effects + uidWentIdle()  // the uid goes with its last process
    }

    /// The system tears the ringing service down (stopService from outside, FGS timeout, low
    /// memory): the ring ends without a stop completion; the process lives on.
    public mutating func ringingServiceTornDown(_ id: AlarmUUID) -> [AlarmManagerEffect] {
        guard let index = ringingStatuses.firstIndex(where: { $0.id == id }) else { return [] }
        let metadata = ringingStatuses.remove(at: index).metadata
        return [.alertEnded(id, metadata), .trace("ringing-service-torn-down", [TraceField("id", id.description)])]
    }

    /// An audio-focus change reaches every ring (AudioManager focus; 12+ fades out only media/game
    /// usages, so an alarm keeps sounding unless `focusLossSilencesAlarm`; a call leaves only the
    /// in-call tone; ducking lowers it).
    public mutating func audioFocusChanged(_ change: AudioFocusChange) -> [AlarmManagerEffect] {
        for index in ringingStatuses.indices where ringingStatuses[index].audio != .failed {
            switch change {
            case .lossTransientCanDuck: ringingStatuses[index].audio = .ducked
            case .lossTransient, .loss:
                ringingStatuses[index].audio = parameters.focusLossSilencesAlarm ? .silencedByFocusLoss : .playing
            case .callStarted: ringingStatuses[index].audio = .inCallTone
            case .gain: ringingStatuses[index].audio = .playing
            }
        }
        return [.trace("audio-focus", [TraceField("change", change.rawValue)])]
    }

    /// MediaPlayer fails for this ring (bad URI, decoder error): the service runs, silent, and
    /// its error callback (`MediaPlayer.OnErrorListener`) reaches the app's ringing service.
    public mutating func playbackFailed(_ id: AlarmUUID) -> [AlarmManagerEffect] {
        guard let index = ringingStatuses.firstIndex(where: { $0.id == id }) else { return [] }
        ringingStatuses[index].audio = .failed
        ringingStatuses[index].failedElapsedMs = now.elapsedRealtimeMs
        return [.trace("playback-failed", [TraceField("id", id.description)]), .toApp(.playbackFailed(id), launch: nil)]
    }

    /// The ringing service starts the system default alarm sound for a ring whose player failed
    /// (`RingtoneManager.getDefaultUri(TYPE_ALARM)`); the ring is audible again.
    /// For a ring the service is about to start (no status yet), the choice is kept for its start:
    /// the service opens the system sound instead of the ring's own (issue 18: a sound in
    /// credential-encrypted storage before the first unlock).
    public mutating func playSystemSound(_ id: AlarmUUID) -> [AlarmManagerEffect] {
        if !ringingStatuses.contains(where: { $0.id == id }) {
            if !systemSoundAtStart.contains(id) { systemSoundAtStart.append(id) }
            return [.trace("system-sound-at-start", [TraceField("id", id.description)])]
        }
        guard let index = ringingStatuses.firstIndex(where: { $0.id == id }), ringingStatuses[index].audio == .failed else { return [] }
        ringingStatuses[index].audio = .playing
        ringingStatuses[index].playingSystemFallback = true
        ringingStatuses[index].failedElapsedMs = nil
        return [.trace("system-sound", [TraceField("id", id.description)])]
    }

    /// A hardware volume key while STREAM_ALARM plays: one step, within [min, max] (AudioService;
    /// the alarm stream cannot reach 0 since Android 9 with the default minimum of 1).
    public mutating func volumeKey(up: Bool) -> [AlarmManagerEffect] {
        setAlarmVolume(parameters.alarmVolumeIndex + (up ? 1 : -1))
    }

    /// The user sets the alarm volume index (Settings or volume panel); clamped to the stream's range.
    public mutating func setAlarmVolume(_ index: Int) -> [AlarmManagerEffect] {
        parameters.alarmVolumeIndex = min(max(index, parameters.alarmVolumeMinIndex), parameters.alarmVolumeMaxIndex)
        return [.trace("alarm-volume", [TraceField("index", String(parameters.alarmVolumeIndex))])]
    }

    mutating func collapseHeadsUp(_ id: AlarmUUID, token: UInt64) -> [AlarmManagerEffect] {
        guard let index = ringingStatuses.firstIndex(where: { $0.id == id && $0.token == token }),
              ringingStatuses[index].presentation == .headsUp else { return [] }
        ringingStatuses[index].presentation = .shade
        return [.trace("ringing-presentation", [TraceField("id", id.description), TraceField("shown", RingPresentation.shade.rawValue)])]
    }

    mutating func oemKillRinging(token: UInt64) -> [AlarmManagerEffect] {
        guard ringingStatuses.contains(where: { $0.token == token }) else { return [] }
        return processDied() + [.processKilled(.oemBatteryKiller), .trace("oem-killed-ringing", [])]
    }
}

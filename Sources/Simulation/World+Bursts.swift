import AlarmBridge
import SimKernel

/// The platform's in-app burst playback and the app's (JS) burst and audible-count behaviour.
///
/// Platform model (both platforms): a burst goes through the native alarm lifecycle (seed 000,
/// "Foreground wake-check bursts use the same native alarm lifecycle"); its playback begins after
/// a start latency (undocumented: drawn per burst, 50–1500 ms) or, with a small chance, never
/// (iOS: the audio session is interrupted; Android: the ringing service is refused), and lasts
/// until the user dismisses or mutes it, the app stops it, or the process dies. On Android a
/// burst posted to a high-importance channel would take the screen over the wake-up check
/// (AND-9); the model traces that. Not modelled: the burst's notification UI beyond that trace.
struct BurstPlayback {
    var request: BurstRequest
    var playing: Bool
}

extension World {
    /// `startBurst`: the platform starts the burst's playback path.
    func platformStartBurst(_ request: BurstRequest) {
        if let old = burst { record("platform", "burst-replaced", [TraceField("id", old.request.id.description)]) }
        burst = BurstPlayback(request: request, playing: false)
        record("platform", "burst-start", [TraceField("id", request.id.description), TraceField("root", request.rootID),
                                           TraceField("sound", request.soundName ?? SoundSettings.systemDefaultSoundName)])
        if android != nil && !request.lowImportanceChannel {
            record("android", "burst-full-screen-over-challenge", [TraceField("id", request.id.description)])  // AND-9 broken
        }
        if burstRNG.chance(Ratio(1, 12)) {
            record("platform", "burst-playback-never-begins", [TraceField("id", request.id.description)])
            return
        }
        enqueue(.burstPlaybackBegins(request.id), afterMs: burstRNG.int(in: 50...1_500))
    }

    func burstPlaybackBegins(_ id: AlarmUUID) {
        guard process.running, var playback = burst, playback.request.id == id, !playback.playing else { return }
        playback.playing = true
        burst = playback
        sound.note(playback.request.rootID, in: \.burstRoots)  // FG-17 truth
        record("platform", "burst-playing", [TraceField("id", id.description)])
        deliver(.burstPlaybackBegan(id), launch: nil)
        if setup.reactiveUser && randomBehaviourActs {
            enqueueReactive(.userMuteBurst, afterMs: burstRNG.int(in: 2_000...20_000))
        }
    }

    /// `stopBurst`, or the process died: the burst ends without a user action.
    func platformStopBurst(_ id: AlarmUUID?) {
        guard let playback = burst, id == nil || playback.request.id == id else { return }
        burst = nil
        record("platform", "burst-stopped", [TraceField("id", playback.request.id.description)])
    }

    /// The user mutes or dismisses the burst now playing (FG-18: JS may then start the next).
    func userMuteBurst() {
        guard let playback = burst, process.running else { return }
        burst = nil
        record("user", "mute-burst", [TraceField("id", playback.request.id.description)])
        deliver(.burstEnded(playback.request.id), launch: nil)
        if setup.reactiveUser && randomBehaviourActs && burstRNG.chance(Ratio(2, 3)) {
            enqueueReactive(.appStartBurst(alarmID: nil), afterMs: 10_000)  // FG-18: the next 10 s in-app retry
        }
    }

    /// The root JS names for an alarm: the live occurrence's root when it is of that alarm.
    func jsRootID(alarmID: String?) -> String? {
        let live = process.document?.liveOccurrence
        guard let alarmID else { return live?.rootID }
        if let live, process.document?.root(live.rootID)?.alarmID == alarmID { return live.rootID }
        return alarms.first { $0.id == alarmID }?.roots.first?.id
    }

    /// The sound/burst plan actions.
    func performSoundAction(_ action: PlanAction) {
        switch action {
        case .appChallengeInteraction:
            guard process.running, process.active, process.challengeShown else { return }
            step(.api(.recordChallengeInteraction))
        case .appStartBurst(let alarmID):
            guard process.running, process.active, process.challengeShown, let rootID = jsRootID(alarmID: alarmID) else { return }
            step(.api(.startForegroundAlarmSound(alarmID: rootID, title: "Wake-up check", body: "Still there?")))
        case .userMuteBurst:
            userMuteBurst()
        case .appRecordAudible(let alarmID):
            guard process.running, process.isAcceptingInputs == true, let rootID = jsRootID(alarmID: alarmID) else { return }
            sound.note(rootID, in: \.jsRecordedRoots)  // SND-14 truth: JS's own claim
            step(.api(.recordAudibleAlarm(alarmID: rootID)))
        case .appResetAudibleCount:
            guard process.running, process.isAcceptingInputs == true else { return }
            step(.api(.resetAudibleAlarmCount))
        case .expectSound(let alarmID, let name, let line):
            let rings = audibleRings().filter { $0.metadata.alarmID == alarmID }
            let played = rings.compactMap { playedSound($0.id) }
            if !played.contains(where: { $0.description == name || $0.chosenName == name }) {
                scenarioFailures.append("\(line): expected \(alarmID) to sound \(name), but it plays \(played.isEmpty ? "nothing" : played.map(\.description).joined(separator: ", "))")
            }
        case .expectAudibleCount(let count, let line):
            let recorded = process.document?.audibleAlarmIDs ?? storedDocument?.audibleAlarmIDs ?? []
            if recorded.count != count {
                scenarioFailures.append("\(line): expected \(count) audible alarm IDs, but the bridge records \(recorded.count) (\(recorded.joined(separator: ",")))")
            }
        case .expectBurst(let playing, let line):
            let now = burst?.playing ?? false
            if now != playing {
                scenarioFailures.append("\(line): expected \(playing ? "a burst playing" : "no burst playing"), but \(now ? "one plays" : "none plays")")
            }
        default:
            preconditionFailure("not a sound action: \(action)")
        }
    }

    /// JS rendered the challenge (fuzz only): it may record the alarm it was opened from (SND-14),
    /// reset the count, interact with the challenge or stall (FG-14, FG-15), and start bursts.
    func jsChallengeShown() {
        guard setup.reactiveUser, randomBehaviourActs, let live = process.document?.liveOccurrence else { return }
        if burstRNG.chance(Ratio(1, 4)) { enqueueReactive(.appResetAudibleCount, afterMs: 50) }
        let openedFromRing = audibleRings().contains { $0.metadata.rootID == live.rootID }
        if openedFromRing && burstRNG.chance(Ratio(1, 2)) {
            enqueueReactive(.appRecordAudible(alarmID: nil), afterMs: 100)  // SND-14
        }
        if burstRNG.chance(Ratio(1, 3)) {
            record("app", "js-stalls")  // no interaction: the native watchdog fires at 45 s (FG-15)
        } else {
            var at: Int64 = 0
            for _ in 0..<Int(burstRNG.int(in: 1...6)) {
                at += burstRNG.int(in: 5_000...40_000)
                enqueueReactive(.appChallengeInteraction, afterMs: at)
            }
        }
        if burstRNG.chance(Ratio(1, 2)) {
            enqueueReactive(.appStartBurst(alarmID: nil), afterMs: burstRNG.int(in: 10_000...40_000))
        }
    }
}

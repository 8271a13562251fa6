import AlarmBridge
import AndroidModel
import IOSModel
import SimKernel

/// What a ring plays, as the platform model says (never the bridge's books).
enum PlayedSound: Equatable, CustomStringConvertible {
    case custom(String)
    /// No custom sound configured: the system default alarm sound.
    case systemDefault
    /// The custom sound failed and the system tone plays instead (SND-9).
    case systemFallback(String)
    /// The service runs but nothing plays (Android player failure not yet replaced).
    case silent

    var description: String {
        switch self {
        case .custom(let name): return name
        case .systemDefault: return SoundSettings.systemDefaultSoundName
        case .systemFallback(let name): return "system-fallback(\(name))"
        case .silent: return "silent"
        }
    }

    /// The name the sequence check compares: the chosen sound (a fallback's chosen one too).
    var chosenName: String? {
        switch self {
        case .custom(let name), .systemFallback(let name): return name
        case .systemDefault: return SoundSettings.systemDefaultSoundName
        case .silent: return nil
        }
    }
}

/// The simulation's truth about sounds and the audible record (invariants 33, 34, 45, 47).
struct SoundTruth {
    /// Per oracle occurrence: its distinct rings that reached alerting, with what each played
    /// first, in order (lookup by occurrence ID only; never iterated for behaviour).
    var ringsByOccurrence: [Int: [(id: AlarmUUID, sound: PlayedSound)]] = [:]
    /// Occurrences in which a system fallback sounded: the group check is suspended there (RULES 34).
    var fallbackOccurrences: [Int] = []
    /// iOS: rings that began alerting inaudible under the ring/silent switch ([limit] IOS-6), with
    /// their occurrence, until heard (bounded, most recent last).
    var mutedRings: [(id: AlarmUUID, occurrenceID: Int)] = []
    /// Rings some bridge process believed alerting at some point (bounded, most recent last).
    var believedRings: [AlarmUUID] = []
    /// Root IDs of rings that reached alerting unsuppressed (SND-13), in order.
    var alertedRoots: [String] = []
    /// Root IDs of bursts whose native playback began (FG-17).
    var burstRoots: [String] = []
    /// Root IDs JS recorded through `recordAudibleAlarm` (SND-14).
    var jsRecordedRoots: [String] = []

    mutating func note(_ root: String, in list: WritableKeyPath<SoundTruth, [String]>) {
        if !self[keyPath: list].contains(root) { self[keyPath: list].append(root) }
    }
}

extension World {
    /// What ring `id` plays now, from the platform model.
    func playedSound(_ id: AlarmUUID) -> PlayedSound? {
        if let daemon = ios {
            switch daemon.soundPlayed(id) {
            case .systemDefault?: return .systemDefault
            case .custom(let name)?: return .custom(name)
            case .systemFallback(let name)?: return .systemFallback(name)
            case nil: return nil
            }
        }
        guard let status = android?.ringingStatus(id) else { return nil }
        if status.audio == .failed { return .silent }
        if status.playingSystemFallback { return .systemFallback(status.soundName ?? SoundSettings.systemDefaultSoundName) }
        return status.soundName.map { .custom($0) } ?? .systemDefault
    }

    /// The user's sound settings for an alarm, as saved (truth, not the bridge's copy).
    func soundSettings(alarmID: String) -> SoundSettings? {
        alarms.first { $0.id == alarmID }?.sounds
    }

    /// A ring reached alerting on the platform: feed the audible truth and judge its sound
    /// (invariants 33 and 34). Runs after the oracle bound the ring.
    func soundAlertStarted(_ id: AlarmUUID, _ metadata: RingMetadata) {
        let occurrenceID = oracle.bindings[id]
        // SND-13: a pass-over is a primary the oracle did not bind while another occurrence lives.
        if occurrenceID != nil || oracle.liveIndex == nil { sound.note(metadata.rootID, in: \.alertedRoots) }
        guard let played = playedSound(id) else { return }
        if !checkNeverSilentBySoundChoice(id, metadata, played) { return }
        guard let occurrenceID, let occurrence = oracle.occurrences.first(where: { $0.id == occurrenceID }) else { return }
        if noteMutedRing(id, occurrenceID: occurrenceID) { return }
        var rings = sound.ringsByOccurrence[occurrenceID] ?? []
        defer { sound.ringsByOccurrence[occurrenceID] = rings }
        if let earlier = rings.first(where: { $0.id == id }) {
            // SND-6: a re-delivery of the same ring plays the sound already chosen for it.
            if earlier.sound.chosenName != played.chosenName {
                violate("sound-sequence", [], "ring \(id) of \(metadata.rootID) re-delivered with \(played), first played \(earlier.sound) (SND-6)")
            }
            return
        }
        // k: earlier distinct audible rings of this occurrence; a primary of a root that lost a
        // tie (silenced as a pass-over) is not one of them.
        // A primary opens its occurrence: it is the first ring, even when a tied root's primary
        // alerted at the same instant (that one is silenced as a pass-over, OCC-3).
        let counted = metadata.kind.opensOccurrence ? [] : rings.filter { ring in
            guard let earlier = requestMetadata[ring.id] else { return true }
            return !earlier.kind.opensOccurrence || occurrence.tiedRoots.contains(earlier.rootID)
        }
        let k = counted.count
        rings.append((id, played))
        if mutedRingBelieved(occurrenceID: occurrenceID, heard: rings.map(\.id)) { return }
        if counted.contains(where: { !sound.believedRings.contains($0.id) }) {
            // An earlier ring sounded while no bridge process could see it (updates held while
            // locked, a suspended or dead process, a fuse rotated away unobserved): the bridge
            // cannot know to advance, and the seed does not say how such a ring moves the
            // position. The group check is suspended for the occurrence, as after a fallback.
            if !sound.fallbackOccurrences.contains(occurrenceID) {
                sound.fallbackOccurrences.append(occurrenceID)
                countExemption("sound-sequence-unobserved-ring")
            }
            return
        }
        if case .systemFallback = played {
            if !sound.fallbackOccurrences.contains(occurrenceID) { sound.fallbackOccurrences.append(occurrenceID) }
            return
        }
        guard !sound.fallbackOccurrences.contains(occurrenceID), let name = played.chosenName else { return }
        // The configured definition judges the ring, unless a definition it was registered under
        // still stands for it (an interrupted save's previous one) and that one's order holds.
        let standing = [soundSettings(alarmID: metadata.alarmID)] + previousSoundSettings(of: id, alarmID: metadata.alarmID)
        let misplaced = standing.map { progressiveMisplacement(name, position: k, settings: $0) }
        guard !misplaced.contains(where: { $0 == nil }), let wrong = misplaced.first ?? nil else { return }
        violate("sound-sequence", [], "\(metadata.kind.rawValue) ring \(id) of \(metadata.rootID) plays \(name) from group \(wrong.actual.map(String.init) ?? "none") as audible ring \(k + 1) of its occurrence; progressive order wants group \(wrong.expected) (SND-2, SND-7)")
    }

    /// SND-2: nil when `name`, as audible ring `position` + 1 (0-based) of its occurrence, keeps the
    /// progressive order of `settings` (or no order applies: no settings, random mode, no groups);
    /// else the group it came from (nil: none) and the group the order wants.
    func progressiveMisplacement(_ name: String, position: Int, settings: SoundSettings?) -> (actual: Int?, expected: Int)? {
        guard let settings, settings.effectiveMode == .progressive else { return nil }
        let groups = settings.effectiveGroups
        guard !groups.isEmpty else { return nil }
        let expected = min(position, groups.count - 1)
        let actual = settings.groupIndex(of: name)
        return actual == expected ? nil : (actual, expected)
    }

    /// SCH-10, SND-5, SND-6: the sound settings of the definitions a save that a process death
    /// interrupted replaced (`jsSaves.interruptedPrevious`, `keptPrevious`), for a primary the
    /// platform held when that save was requested (`saveTruth.before`). Until a later process's
    /// sync runs, such a ring stays as it was registered — the previous definition's sound — when
    /// the save's replacement never landed (ios swarm seed 57525: a sound edit's same-ID
    /// re-registration failed after the process died; ios uniform seed 65580: an adopted legacy
    /// primary with the system default stayed beside the edit's new primary). The oracle follows
    /// the persisted definition, so it judged that ring against sounds it was never given.
    func previousSoundSettings(of id: AlarmUUID, alarmID: String) -> [SoundSettings?] {
        guard jsSaves.interrupted.contains(alarmID),
              saveTruth.before[alarmID]?.contains(id) == true else { return [] }
        return (jsSaves.interruptedPrevious + jsSaves.keptPrevious).filter { $0.id == alarmID }.map(\.sounds)
    }

    /// Invariant 33 at the start of an alert: the ring plays a sound of its alarm's pool or the
    /// system sound. Returns false after a violation.
    func checkNeverSilentBySoundChoice(_ id: AlarmUUID, _ metadata: RingMetadata, _ played: PlayedSound) -> Bool {
        switch played {
        case .systemDefault, .systemFallback: return true
        case .silent:
            violate("never-silent-by-sound-choice", [], "ring \(id) of \(metadata.rootID) started with no sound")
            return false
        case .custom(let name):
            // The saved definition, one JS is saving now, or the bridge's persisted one (a save
            // that a process death left unanswered): a ring registered for any of them may sound.
            // So may a ring of a definition an interrupted save replaced, while its rings stay
            // (SCH-10, `keptPrevious`; ios uniform seed 21411: a save refused for capacity kept
            // the previous 07:25 rings, JS's retry published the new definition, without sounds,
            // and the process died; the old ring rang with the old definition's sound).
            let previous = (jsSaves.keptPrevious + jsSaves.interruptedPrevious).filter { $0.id == metadata.alarmID }
            let candidates = [soundSettings(alarmID: metadata.alarmID), jsSaves.pending.first { $0.id == metadata.alarmID }?.sounds,
                              (process.document ?? storedDocument)?.alarm(metadata.alarmID)?.sounds]
                + previous.map(\.sounds)
            guard candidates.contains(where: { $0?.allSounds.contains(name) == true }) else {
                violate("never-silent-by-sound-choice", [], "ring \(id) of \(metadata.rootID) plays \(name), which is not a sound of its alarm")
                return false
            }
            return true
        }
    }

    /// Invariant 33 over time (Android): a ring whose player failed is back on the system sound
    /// within T_OP while the app process runs (SND-9).
    func checkFailedPlaybackReplaced() {
        guard let manager = android, process.running else { return }
        for id in manager.ringing {
            guard let status = manager.ringingStatus(id), let failedAt = status.failedElapsedMs,
                  clock.monotonicMs - failedAt > setup.transitionBoundMs else { continue }
            violate("never-silent-by-sound-choice", [], "ring \(id) of \(status.metadata.rootID) has been silent \(HumanText.duration(clock.monotonicMs - failedAt)) since its player failed: no system-sound fallback (SND-9)")
            return
        }
    }

    /// Invariant 45 (Android keeps ringing), as the ringing service receives a stop: only a
    /// dismissal, detected interruption, completion, cancellation, challenge handling, expiry,
    /// pass-over or foreground silencing may stop an audible wake ring — never elapsed time
    /// alone, i.e. a step driven by nothing but a timer other than the expiry check.
    func checkAndroidStop(_ id: AlarmUUID) {
        guard let manager = android, manager.isAudible(id), let input = stepInput else { return }
        guard case .timerFired(let timer) = input, timer != .expiryCheck else { return }
        let rootID = manager.ringingStatus(id)?.metadata.rootID ?? "?"
        violate("android-keeps-ringing", [], "ring \(id) of \(rootID) was stopped by the bridge on a \(timer.rawValue) timer after \(HumanText.duration(clock.monotonicMs - (manager.ringingStatus(id)?.startedElapsedMs ?? 0))) of ringing: elapsed time alone never stops it (SND-11)")
    }

    /// Invariant 47 after every bridge step: each recorded audible ID reached alerting
    /// unsuppressed, was a burst whose playback began, or was recorded by JS.
    func checkHonestAudibleRecord() {
        guard !stopped, let recorded = process.document?.audibleAlarmIDs else { return }
        for rootID in recorded where !sound.alertedRoots.contains(rootID) && !sound.burstRoots.contains(rootID)
            && !sound.jsRecordedRoots.contains(rootID) {
            violate("honest-audible-record", [], "\(rootID) is recorded as audible but never alerted unsuppressed, never had a burst play, and JS never recorded it (SND-13)")
            return
        }
    }
}

extension World {
    /// SND-7, invariant 34: an iOS alert that begins inaudible under the ring/silent switch is an
    /// unheard ring: it neither advances the position nor is judged, until the switch goes back
    /// while it still alerts (``setSilentMode(_:)`` judges it then, ios seed 8390). Before, such a
    /// ring counted when the alert's event bound it and not when the opening did (ios swarm seed
    /// 58938: a muted successor judged as audible ring 1, the muted primary before it uncounted).
    /// - Returns: true when the ring is muted now (recorded in `mutedRings`).
    func noteMutedRing(_ id: AlarmUUID, occurrenceID: Int) -> Bool {
        guard let daemon = ios, daemon.alarm(id)?.state == .alerting, !daemon.isAudible(id) else { return false }
        if !sound.mutedRings.contains(where: { $0.id == id }) {
            sound.mutedRings.append((id, occurrenceID))
            if sound.mutedRings.count > 64 { sound.mutedRings.removeFirst() }
        }
        return true
    }

    /// [limit] `sound-sequence-muted-ring` (IOS-6): an earlier ring of the occurrence alerted
    /// muted and was never heard, yet a bridge process saw it alerting. AlarmKit does not report
    /// the switch, so the bridge rightly counted it as audible (SND-7 cannot be honoured): the
    /// group check is suspended for the occurrence, as after a fallback. A muted ring no bridge
    /// saw suspends nothing: the bridge did not advance for it either (ios swarm seed 58938).
    /// - Parameter heard: the occurrence's rings already heard (a ring unmuted later is heard).
    func mutedRingBelieved(occurrenceID: Int, heard: [AlarmUUID]) -> Bool {
        guard sound.mutedRings.contains(where: { muted in
            muted.occurrenceID == occurrenceID && !heard.contains(muted.id) && sound.believedRings.contains(muted.id)
        }) else { return false }
        if !sound.fallbackOccurrences.contains(occurrenceID) {
            sound.fallbackOccurrences.append(occurrenceID)
            countExemption("sound-sequence-muted-ring")
        }
        return true
    }

    /// Keeps the rings a bridge process has seen alerting (sound-sequence's observability).
    func noteBelievedAlerting() {
        guard let believed = process.believedAlerting else { return }
        for id in believed where !sound.believedRings.contains(id) {
            sound.believedRings.append(id)
            if sound.believedRings.count > 256 { sound.believedRings.removeFirst() }
        }
    }
}

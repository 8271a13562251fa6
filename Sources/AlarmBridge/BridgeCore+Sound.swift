/// Sound order and audible counting (SND-1..14, SNZ-17, API-5, API-6).
///
/// The bridge chooses each ring's sound when it creates the ring request: on iOS the sound is part
/// of the AlarmKit alert configuration, fixed at `schedule(id:configuration:)` (PLATFORMS.md), and
/// on Android the ringing service reads it from the persisted ring record. The choice is persisted
/// with the ring's row (SND-5), so a re-registration or re-delivery of the same ring plays the same
/// sound (SND-6). The sequence position of an occurrence is the count of its distinct rings that
/// became audible (`OccurrenceRecord.audibleRingIDs`, persisted: SND-5); it advances only when the
/// bridge observes one of its rings alerting for the live owner (SND-7), never on arming,
/// cancelling, a failed schedule or a choice alone.
extension BridgeCore {
    /// The sound settings of a root's logical alarm (SND-1), nil when it has none.
    func soundSettings(alarmID: String) -> SoundSettings? {
        document?.alarm(alarmID)?.sounds
    }

    /// SND-5: the live occurrence's sequence position: how many distinct rings of it were audible.
    func sequencePosition(of occurrence: OccurrenceRecord) -> Int {
        occurrence.audibleRingIDs?.count ?? 0
    }

    /// The sound for a new ring (SND-2, SND-3, SND-4): nil for the system default.
    /// - Parameter position: the sequence position the ring will sound at (0 for a primary: it is
    ///   the first ring of the occurrence it opens).
    func chooseSound(alarmID: String, ringID: AlarmUUID, position: Int) -> String? {
        chooseSound(settings: soundSettings(alarmID: alarmID), ringID: ringID, position: position)
    }

    /// ``chooseSound(alarmID:ringID:position:)`` with the alarm's settings already looked up.
    func chooseSound(settings: SoundSettings?, ringID: AlarmUUID, position: Int) -> String? {
        guard let settings, let choice = settings.choose(position: position, saltID: ringID) else { return nil }
        // SND-4: the system default is a Momentum member; it plays as "no custom sound".
        return choice.name == SoundSettings.systemDefaultSoundName ? nil : choice.name
    }

    /// The request with its sound: a ring the bridge already published keeps the sound chosen
    /// for it (SND-6: re-registration, repair and clock rebase replay the same sound).
    func withSound(_ request: RingRequest, position: Int) -> RingRequest {
        var request = request
        if let row = document?.row(request.id), request.metadata.kind.isOccurrenceBound {
            request.soundName = row.soundName
        } else {
            request.soundName = chooseSound(alarmID: request.metadata.alarmID, ringID: request.id, position: position)
        }
        return request
    }

    /// SND-7 (and SND-13, SNZ-17): a ring of the live owner was observed alerting: the sequence
    /// advances once per distinct ring (a re-delivery does not advance it, SND-6), and the root is
    /// recorded as audible. Called only for deliveries the bridge lets sound: pass-overs and rings
    /// of closed occurrences are silenced and never get here (SND-13: "without being suppressed").
    /// A snooze ring counts like any other (SNZ-17: audible wake evidence even while Ember is active).
    /// SND-10: a ring whose custom sound failed and fell back to the system sound still alerted,
    /// so it counts as an audible ring (of the Momentum group) here too.
    mutating func noteAudibleRing(_ row: RingRow) {
        guard !deliveryOnlyInferred else { return }
        guard let live = document?.liveOccurrence, isBound(row, to: live) else { return }
        if !(live.audibleRingIDs ?? []).contains(row.id) {
            mutate { $0.update(with(live) { $0.audibleRingIDs = ($0.audibleRingIDs ?? []) + [row.id] }) }
        }
        recordAudible(rootID: row.metadata.rootID)
    }

    /// SND-2, SND-7 on iOS: AlarmKit fixes a ring's sound when it is scheduled, so a pending ring
    /// of the live occurrence chose its sound for the position in force when it was armed. Once
    /// another ring of the occurrence is heard the position advances, and a ring still pending
    /// would sound one group too low (ios seed 4900: a walk fuse armed while a successor was
    /// pending). Each such ring is re-registered under the same ID and fire time with the sound
    /// of the new position (a replacement: refused, the old ring stays, see `resoundCompleted`).
    /// A ring already heard keeps its sound (SND-6); a ring in flight is left to its answer
    /// (``resoundLandedRing(_:now:into:)``).
    /// SND-6, SCH-23: a ring due within G_PUB (the bound the bridge allows a request in flight,
    /// SCH-4) keeps its sound: the same-ID replacement could land after the ring began alerting,
    /// and AlarmKit would end that alert and deliver the ring again with the other sound (ios
    /// uniform seed 53265: a fuse resounded 201 ms before its fire time alerted with sound-8,
    /// then again with sound-10 when the replacement landed 83 ms later).
    /// - Parameter only: restricts the pass to one ring (nil: every pending ring of the occurrence).
    mutating func resoundPendingRings(only: AlarmUUID? = nil, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard flavor == .ios, let live = document?.liveOccurrence, let rings = document?.rings else { return }
        let position = sequencePosition(of: live)
        // WALK-5, WALK-9: no walk fuse is kept while Ember is natively active — the activation
        // (already seen, or queued behind the launch read) cancels it — so it is not re-registered
        // for a sound it will never play (ios uniform seed 6060: a fuse a force-quit left beside its
        // rotation's replacement was re-registered at a foreground launch).
        let foreground = activeOrActivating
        var requests: [RingRequest] = []
        for row in rings where (only == nil || row.id == only) && row.metadata.kind.isOccurrenceBound && row.metadata.token == live.token
            && row.confirmed && !row.delivered && row.fireWallMs - now.wallMs >= configuration.publicationGraceMs && !inFlight.contains(row.id)
            && !(live.audibleRingIDs ?? []).contains(row.id) && !(foreground && row.metadata.kind == .walkFuse) {
            let sound = chooseSound(alarmID: row.metadata.alarmID, ringID: row.id, position: position)
            guard sound != row.soundName else { continue }
            out.append(.note("ring \(row.id) re-registered with the sound of sequence position \(position) (SND-2, SND-7)"))
            resounded.append(row)
            requests.append(RingRequest(id: row.id, schedule: row.schedule, fireWallMs: row.fireWallMs,
                                        metadata: row.metadata, soundName: sound))
        }
        publishAndSchedule(requests, origin: .lifecycle, now: now, into: &out)
    }

    /// SND-2, SND-7 on iOS: a ring of the live occurrence landed. If another ring of the
    /// occurrence was heard while its request was in flight, it chose the sound of a position that
    /// has passed, and `resoundPendingRings` skipped it then (in flight): it is re-registered now
    /// (ios uniform seed 41169: a walk fuse armed for a step 0.5 s after the previous fuse began
    /// alerting, before the bridge saw that alert, sounded one group too low). A walk fuse that a
    /// follow-up rotation already in flight replaces is left to it (WALK-16, WALK-17: one fuse
    /// request per root per step; the replacement draws the sound of the current position).
    mutating func resoundLandedRing(_ id: AlarmUUID, now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard flavor == .ios, let row = document?.row(id), row.metadata.kind.isOccurrenceBound else { return }
        if row.metadata.kind == .walkFuse, inFlight.contains(where: { other in
            other != id && document?.row(other).map { $0.metadata.kind == .walkFuse && $0.metadata.rootID == row.metadata.rootID } == true
        }) { return }
        resoundPendingRings(only: id, now: now, into: &out)
    }

    /// The daemon's answer to a re-registration of `resoundPendingRings`: accepted, the ring plays
    /// the new sound; refused, the daemon still holds the ring as it was, so its previous row
    /// stands (the ring stays the pressure it was; SND-9 still falls back if its sound fails).
    mutating func resoundCompleted(_ previous: RingRow, row: RingRow, result: Result<Int64, PlatformError>,
                                   now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard case .success = result else {
            if case .failure(let error) = result, degradeRefusedReRegistration(previous, row: row, error: error, now: now, into: &out) {
                android.repairsInFlight.removeAll { $0 == row.id }  // kept as an inexact alarm instead (AND-1)
                return
            }
            if case .failure(let error) = result { repairRefused(row.id, error: error, into: &out) }  // issue 18
            out.append(.note("re-registration of \(row.id) refused: the platform keeps the previous ring (SND-6, SNZ-21)"))
            mutate { $0.upsert(previous) }
            let successor = previous.metadata.kind == .successor
            if previous.metadata.kind == .snooze || successor, previous.fireWallMs != row.fireWallMs,
               armRetries < configuration.armRetryMax || successor {
                // SNZ-20: a refused rebase leaves the snooze ring at its old time — late after a
                // set-back — so it is asked again while the process lives (android seed 1115 of
                // `--faults clock-change-during-snooze`: two refused writes left it 69 min away).
                // A successor's likewise (REC-9, OCC-5; ios swarm seed 1834: a refused rebase
                // after a seen 90 s set-back left it 90 s out, and nothing asked again), and, as
                // any refused successor arm, with backoff past the quick retries (android uniform
                // seed 34730, ``BridgeConfiguration/successorRetryDelayMs(afterRefusals:)``).
                if armRetries < configuration.armRetryMax { armRetries += 1 }
                if successor { successorRefusals += 1 }
                snoozeRebaseRetry = row
                if flavor == .android, row.metadata.kind == .snooze { mutate { $0.snoozeRebaseOwed = row } }  // outlives the process (9523)
                let delayMs = successor ? configuration.successorRetryDelayMs(afterRefusals: successorRefusals) : configuration.armRetryDelayMs
                out.append(.setTimer(.armRetry, delayMs: delayMs))
            }
            return
        }
        if snoozeRebaseRetry?.id == row.id { snoozeRebaseRetry = nil }
        if document?.snoozeRebaseOwed?.id == row.id { mutate { $0.snoozeRebaseOwed = nil } }
        if !confirmedInProcess.contains(row.id) { confirmedInProcess.append(row.id) }
        if confirmedInProcess.count > 64 { confirmedInProcess.removeFirst() }
        mutate { $0.upsert(with(row) { row in
            row.confirmed = true
            row.replacesHeldRing = nil
        }) }
        if let token = row.metadata.token, document?.occurrence(token: token)?.state != .live {
            retire(row, reason: "re-registered after its occurrence closed", into: &out)  // OCC-25
        }
    }

    /// SND-13, FG-17, SND-14: adds a root ID to the audible record (once).
    mutating func recordAudible(rootID: String) {
        guard !(document?.audibleAlarmIDs ?? []).contains(rootID) else { return }
        mutate { $0.audibleAlarmIDs = ($0.audibleAlarmIDs ?? []) + [rootID] }
    }

    /// Known defect `unheard-ring-advances-sequence` (SND-7): the position advances at arm time.
    mutating func advanceOnArmDefect(_ ringID: AlarmUUID, token: String) {
        guard defects.unheardRingAdvancesSequence, let occurrence = document?.occurrence(token: token),
              !(occurrence.audibleRingIDs ?? []).contains(ringID) else { return }
        mutate { $0.update(with(occurrence) { $0.audibleRingIDs = ($0.audibleRingIDs ?? []) + [ringID] }) }
    }

    /// The audible-counting API (API-5, API-6, SND-14).
    mutating func handleAudibleAPI(_ call: APICall, into out: inout [BridgeCommand]) {
        switch call {
        case .getAudibleAlarmCount:
            out.append(.reply(.audibleAlarmCount(document?.audibleAlarmIDs?.count ?? 0)))
        case .getAudibleAlarmIds:
            out.append(.reply(.audibleAlarmIDs(document?.audibleAlarmIDs ?? [])))
        case .recordAudibleAlarm(let alarmID):
            // SND-14: JS records the alarm the app was opened from; ID-10: only root IDs.
            let known = document?.hasRoot(alarmID) == true || document?.rings.contains { $0.metadata.rootID == alarmID } == true
            if known { recordAudible(rootID: alarmID) }
            out.append(.reply(.audibleAlarmRecorded(known)))
        case .resetAudibleAlarmCount:
            if document?.audibleAlarmIDs?.isEmpty == false { mutate { $0.audibleAlarmIDs = [] } }
            out.append(.reply(.audibleAlarmCountReset))
        default:
            preconditionFailure("not an audible-counting call: \(call)")
        }
    }

    /// SND-9: a player failure falls back to the system alarm sound on the same ring, so sequencing
    /// never makes an alarm silent; the ring keeps its place in the sequence (SND-10).
    mutating func playbackFailed(_ id: AlarmUUID, into out: inout [BridgeCommand]) {
        if defects.noSystemSoundFallback {
            out.append(.note("defect no-system-sound-fallback: player failure of \(id) ignored"))
            return
        }
        if alerting.contains(id) { out.append(.playSystemSound(id)) }
    }

    /// SND-11: Android keeps an unattended wake ring sounding, with its sound, until a dismissal,
    /// detected interruption, completion, cancellation, challenge handling or expiry (SND-12); no
    /// elapsed-time stop exists. Only the known defect `android-ring-stops-after-30s` arms one.
    mutating func ringingStarted(_ id: AlarmUUID, into out: inout [BridgeCommand]) {
        if defects.androidRingStopsAfter30s { out.append(.setTimer(.ringTimeout, delayMs: 30_000)) }
    }

    /// Known defect `android-ring-stops-after-30s`: the old cap stops every ring after 30 s and
    /// treats it as an alert end (arming the next attempt).
    mutating func ringTimeoutFired(now: BridgeInstants, into out: inout [BridgeCommand]) {
        guard defects.androidRingStopsAfter30s, flavor == .android else { return }
        for id in alerting {
            out.append(.note("defect android-ring-stops-after-30s: \(id) stopped after 30 s"))
            out.append(.stop(id, origin: .lifecycle))
            alertEnded(id, now: now, into: &out)
        }
    }
}

import AlarmBridge
import SimKernel

/// The oracle's memory for clauses of the candidate invariants that a single event cannot judge
/// (issue 16, part 3): when each Stop reached the app, and when each snooze was accepted.
struct ClauseWatch {
    /// A Stop intent that reached a bridge process (true ms) while `occurrenceID` was live, not
    /// yet acted on by a ready bridge (it may wait for the look-first read, IOS-2, or for the
    /// store, ACT-1). Newest last, bounded.
    var stopArrivals: [(ringID: AlarmUUID, rootID: String, occurrenceID: Int, trueMs: Int64)] = []
}

extension World {
    /// A local wall instant for a message: `07:00:10.000 Europe/Berlin`.
    func wallText(_ wallMs: Int64) -> String {
        let local = calendar.local(wallMs)
        let millis = ((wallMs % 1_000) + 1_000) % 1_000
        let seconds = (local.second < 10 ? "0" : "") + String(local.second)
        let ms = (millis < 10 ? "00" : millis < 100 ? "0" : "") + String(millis)
        return "\(clockTime(hour: local.hour, minute: local.minute)):\(seconds).\(ms) \(calendar.zoneIdentifier)"
    }

    // MARK: one-successor-per-occurrence: the successor's fire time (OCC-5, OCC-6)

    /// A Stop intent reached the process (before the bridge looked at the daemon or read its
    /// store): its instant is the trigger of the successor it arms (OCC-6).
    func noteStopArrival(_ input: BridgeInput) {
        guard case .stopIntent(let id) = input, let index = oracle.liveIndex,
              let rootID = requestMetadata[id]?.rootID ?? groundTruthMetadata(id)?.rootID,
              oracle.occurrences[index].tiedRoots.contains(rootID),
              !clauses.stopArrivals.contains(where: { $0.ringID == id }) else { return }
        clauses.stopArrivals.append((id, rootID, oracle.occurrences[index].id, nowMs))
        if clauses.stopArrivals.count > 16 { clauses.stopArrivals.removeFirst() }
    }

    /// After a step: a bridge accepting inputs (`accepting`: the current bridge's
    /// ``BridgeUnderTest/isAcceptingInputs``) has acted on every Stop that reached it.
    func noteStopsHandled(accepting: Bool) {
        if accepting { clauses.stopArrivals = [] }
    }

    /// Candidate invariant 4 (OCC-5, OCC-6, OCC-7): a successor armed while a Stop of the live
    /// occurrence waits to be acted on is due 10 s after that Stop reached the app — or at once,
    /// when that instant has passed — measured in true time, so a clock correction in between
    /// changes nothing. Never 10 s after the bridge got round to it. A re-registration of a ring
    /// already requested (a rebase, SNZ-20) is not a new successor.
    func checkSuccessorFireTime(_ request: RingRequest, origin: CommandOrigin) {
        guard request.metadata.kind == .successor, origin == .lifecycle, !stopped, requestFires[request.id] == nil,
              let index = oracle.liveIndex else { return }
        let occurrence = oracle.occurrences[index]
        guard occurrence.tiedRoots.contains(request.metadata.rootID),
              let stop = clauses.stopArrivals.first(where: { $0.occurrenceID == occurrence.id }) else { return }
        clauses.stopArrivals.removeAll { $0.occurrenceID == occurrence.id }
        let dueTrueMs = max(stop.trueMs + configuration().successorDelayMs, nowMs)
        let expectedWallMs = wallMs + (dueTrueMs - nowMs)
        guard request.fireWallMs != expectedWallMs else { return }
        violate("one-successor-per-occurrence", [],
                "the successor \(request.id) of the occurrence of \(occurrence.rootID) is due at \(wallText(request.fireWallMs)), \(request.fireWallMs - expectedWallMs) ms off 10 s after the Stop of \(stop.ringID) reached the app (due \(wallText(expectedWallMs)))")
    }
}

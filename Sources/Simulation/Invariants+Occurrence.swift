import AlarmBridge
import IOSModel
import SimKernel

/// Occurrence and launch invariants (RULES.md candidate invariants 12, 17, 18, 22, 35, 38, 39,
/// 42). The judgements are pure functions (``OccurrenceChecks``) so a test can show each one
/// fires; the `World` extension feeds them ground truth: the platform model, the Keychain
/// model, the oracle, the app's own state and what the bridge persisted or handed to JS.
enum OccurrenceChecks {
    /// What never changes about an occurrence once it exists (ID-6, ID-8, INACT-1).
    struct Identity: Sendable, Equatable {
        var rootID: String
        var startedAtMs: Int64
        var policy: InactivityPolicy
    }

    /// Invariant 12, `single-owner` (OCC-1, OCC-2): at most one live occurrence exists.
    /// - Returns: a violation message, or nil.
    static func singleOwner(_ document: BridgeDocument) -> String? {
        let live = document.occurrences.filter { $0.state == .live }
        guard live.count > 1 else { return nil }
        return "the bridge persisted \(live.count) live occurrences at once: \(live.map { "\($0.rootID) (\($0.token))" }.joined(separator: ", "))"
    }

    /// Invariant 17, `occurrence-identity` (ID-6, ID-8, INACT-1, INACT-8, REC-9): root, ring time
    /// and policy of a token never change; a new occurrence's policy is its schedule's marker.
    /// - Parameters:
    ///   - known: the identity first seen for this token, nil when the token is new.
    ///   - configuredPolicy: the policy of the root as the user configured it, when known.
    ///   - localTime: writes a wall instant for the message (the world's `localTimeText`).
    static func identity(of record: OccurrenceRecord, known: Identity?, configuredPolicy: InactivityPolicy?,
                         localTime: (Int64) -> String = { "\($0)" }) -> String? {
        let now = Identity(rootID: record.rootID, startedAtMs: record.startedAtMs, policy: record.policy)
        if let known, known != now {
            return "occurrence \(record.token) changed identity from \(known.rootID) at \(localTime(known.startedAtMs)) policy \(known.policy.rawValue) to \(now.rootID) at \(localTime(now.startedAtMs)) policy \(now.policy.rawValue)"
        }
        if known == nil, let configuredPolicy, configuredPolicy != record.policy {
            return "occurrence \(record.token) of \(record.rootID) began with policy \(record.policy.rawValue), but its schedule carries \(configuredPolicy.rawValue)"
        }
        return nil
    }

    /// Invariant 18, `bounded-life` (OCC-21, INACT-2, INACT-22): after a bridge step no occurrence
    /// is live 20 h after its start, nor at or after its effective expiry.
    static func boundedLife(_ record: OccurrenceRecord, wallMs: Int64, localTime: (Int64) -> String = { "\($0)" }) -> String? {
        let start = record.startedAtMs + record.inactivityClockOffsetMs
        if wallMs >= start + InactivityPolicy.legacy.timeoutMs {
            return "occurrence of \(record.rootID) (ring time \(localTime(record.startedAtMs))) is still live \(HumanText.duration(wallMs - start)) after it began (bound 20 h)"
        }
        if wallMs >= record.deadlineMs {
            return "occurrence of \(record.rootID) is still live \(HumanText.duration(wallMs - record.deadlineMs)) after its effective expiry, at the end of a bridge step"
        }
        return nil
    }

    /// Invariant 22, `completion-scope` (OCC-12, OCC-13, OCC-19): one write flips at most one
    /// (root, token) to completed, and only the one JS asked to complete.
    static func completionScope(before: BridgeDocument?, after: BridgeDocument, requested: (rootID: String, token: String)?) -> String? {
        // Each token's first record before the write, looked up by key only (issue 20: was a scan
        // of the whole history per completed record).
        // Built only once a completed record needs it.
        var stateBefore: [String: OccurrenceState]?
        let flipped = after.occurrences.filter { record in
            guard record.state == .completed else { return false }
            guard let before else { return true }
            if stateBefore == nil {
                var table: [String: OccurrenceState] = [:]
                for record in before.occurrences where table[record.token] == nil { table[record.token] = record.state }
                stateBefore = table
            }
            return stateBefore?[record.token].map { $0 != .completed } ?? true
        }
        guard !flipped.isEmpty else { return nil }
        if flipped.count > 1 {
            return "one write completed \(flipped.count) occurrences: \(flipped.map(\.rootID).joined(separator: ", "))"
        }
        guard let requested, flipped[0].rootID == requested.rootID, flipped[0].token == requested.token else {
            return "occurrence \(flipped[0].token) of \(flipped[0].rootID) was completed, but JS asked for \(requested.map { "\($0.rootID) (\($0.token))" } ?? "no completion")"
        }
        return nil
    }

    /// Invariant 42, `root-ids-outward` (ID-10, API-1, API-9): an alarm ID handed to JS is a root
    /// ID the user's alarms had, never a physical ring UUID.
    /// - Parameter knownRootIDs: every root ID the user's alarms ever had, sorted ascending.
    static func rootIDOutward(_ id: String, knownRootIDs: [String]) -> String? {
        if AlarmUUID(string: id) != nil { return "the bridge handed JS the physical ring UUID \(id) instead of a root ID" }
        if !sortedContains(knownRootIDs, id) { return "the bridge handed JS \"\(id)\", which is no root ID of the user's alarms" }
        return nil
    }

    /// Whether `lhs` and `rhs` are one array storage (hence equal): a copy not written to since.
    static func sameStorage<Element>(_ lhs: [Element], _ rhs: [Element]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard !lhs.isEmpty else { return true }
        return lhs.withUnsafeBufferPointer { left in rhs.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress } }
    }

    /// Whether the ascending `sorted` holds `id`, by binary search (issue 20: the root IDs ever
    /// known were scanned on every reply).
    static func sortedContains(_ sorted: [String], _ id: String) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == id
    }

    /// Invariant 35, `launch-gate` (BOOT-5, BOOT-6): a release with no saved domain while the
    /// daemon holds alarms is wrong.
    static func gateRelease(savedDomainExists: Bool, daemonAlarmCount: Int) -> String? {
        guard !savedDomainExists, daemonAlarmCount > 0 else { return nil }
        return "the launch gate released with no saved alarm domain while the daemon holds \(daemonAlarmCount) alarm(s) (BOOT-5)"
    }

    /// Invariant 38, `receipt-lifecycle` (IOS-10): a receipt that survived a reinstall is deleted
    /// only once its failed wake day is in the app's state.
    static func survivorDeletion(token: String, survivors: [WakeReceipt], failedWakeDays: [FailedWakeDay]) -> String? {
        guard survivors.contains(where: { $0.token == token }), !failedWakeDays.contains(where: { $0.token == token }) else { return nil }
        return "the surviving receipt \(token) was deleted before its failed wake day was written (IOS-10)"
    }

    /// Invariant 39, `fail-open` (BOOT-12): scheduling is disabled only by an explicit, readable
    /// "disabled" delivered to the same process.
    static func failOpen(declared: RemoteSchedulingState, lastAnswer: KillSwitchResponse?) -> String? {
        guard declared == .disabledByKillSwitch, lastAnswer != .disabled else { return nil }
        return "scheduling was disabled after the kill-switch check answered \(lastAnswer?.rawValue ?? "nothing")"
    }
}

extension World {
    /// After-event part of the occurrence and launch invariants.
    func checkOccurrenceInvariants() {
        guard !stopped else { return }
        checkBoundedLife()
        checkReceiptsOfClosedOccurrences()
        checkGateLiveness()
    }

    /// Invariant 18 after each ready bridge step.
    func checkBoundedLife() {
        guard process.running, process.lastReadyStepMs == nowMs, let live = process.document?.liveOccurrence,
              let message = OccurrenceChecks.boundedLife(live, wallMs: wallMs, localTime: localTimeText) else { return }
        violate("bounded-life", [], message)
    }

    /// Invariants 12, 17 and 22 on every durable write of the bridge document.
    func checkPersistedOccurrences(_ document: BridgeDocument) {
        guard !stopped else { return }
        // The same occurrence records as the last write checked here, and as the last write
        // (the same storage, so the same values): every check below would answer as it did
        // then, when it passed (issue 20: the history was walked on every write).
        if let checked = launchState.lastCheckedOccurrences, OccurrenceChecks.sameStorage(document.occurrences, checked),
           let persisted = launchState.lastPersisted, OccurrenceChecks.sameStorage(persisted.occurrences, checked) {
            launchState.lastPersisted = document
            return
        }
        if let message = OccurrenceChecks.singleOwner(document) {
            violate("single-owner", [], message)
            return
        }
        // Each root's configured policy, the first root of an ID winning as before; looked up by key
        // only (issue 20: was a flatMap and a scan per occurrence), and built only when a record
        // is new: a known record's identity check does not read it.
        var policies: [String: InactivityPolicy]?
        let checked = launchState.lastCheckedOccurrences ?? []
        for (index, record) in document.occurrences.enumerated() {
            // The record this check saw at this place last time, unchanged: its token's identity
            // was then found equal or recorded, and neither changes since, so it passes again.
            if index < checked.count && checked[index] == record { continue }
            let known = launchState.identities[record.token]
            var configured: InactivityPolicy?
            if known == nil {
                if policies == nil { policies = configuredPolicies() }
                configured = policies?[record.rootID]
            }
            if let message = OccurrenceChecks.identity(of: record, known: known, configuredPolicy: configured, localTime: localTimeText) {
                violate("occurrence-identity", [], message)
                return
            }
            if known == nil {
                launchState.identities[record.token] = .init(rootID: record.rootID, startedAtMs: record.startedAtMs, policy: record.policy)
            }
        }
        if let message = OccurrenceChecks.completionScope(before: launchState.lastPersisted, after: document,
                                                           requested: launchState.completionRequested) {
            violate("completion-scope", [], message)
            return
        }
        launchState.lastPersisted = document
        launchState.lastCheckedOccurrences = document.occurrences
    }

    /// Each root's configured inactivity policy by root ID, the first root of an ID winning.
    /// Built again only after `alarms` changed (``LaunchWorldState/configuredPoliciesMemo``).
    func configuredPolicies() -> [String: InactivityPolicy] {
        if let memo = launchState.configuredPoliciesMemo, memo.alarmsChanges == alarmsChanges { return memo.policies }
        var policies: [String: InactivityPolicy] = [:]
        for alarm in alarms {
            for root in alarm.roots where policies[root.id] == nil { policies[root.id] = root.policy }
        }
        launchState.configuredPoliciesMemo = (alarmsChanges, policies)
        return policies
    }

    /// Invariant 42 on every reply that carries alarm IDs.
    func checkRootIDsOutward(_ reply: APIReply) {
        guard !stopped else { return }
        let ids: [String]
        switch reply {
        case .completed(let rootID, _): ids = [rootID]
        case .lastAlarmAction(let action): ids = action.map { [$0.alarmID] } ?? []
        case .activeWakeOccurrence(let live): ids = live.map { [$0.rootID] } ?? []
        case .systemAlarmsCancelled(let alarmIDs, _): ids = alarmIDs
        case .abandonedWakeOccurrences(let receipts): ids = receipts.map(\.rootID)
        default: return
        }
        // The sorted union as before, sorted once, and only when the alarms changed since the
        // last fold (issue 20: was a scan and a sort per root, on every reply).
        if launchState.knownRootIDsAtChange != alarmsChanges {
            launchState.knownRootIDsAtChange = alarmsChanges
            var known = Set(launchState.knownRootIDs)
            var added = false
            for alarm in alarms {
                for root in alarm.roots where known.insert(root.id).inserted {
                    launchState.knownRootIDs.append(root.id)
                    added = true
                }
            }
            if added { launchState.knownRootIDs.sort() }
        }
        for id in ids {
            if let message = OccurrenceChecks.rootIDOutward(id, knownRootIDs: launchState.knownRootIDs) {
                violate("root-ids-outward", [], message)
                return
            }
        }
    }

    // MARK: launch gate (invariant 35)

    /// At a gate state change: BOOT-5 at release, BOOT-4 noted (reported T_OP later, so that a
    /// decision it led to, `unreadable-is-not-empty`, is reported first), IOS-10 at release.
    func checkLaunchGateRelease(_ state: LaunchGateState) {
        guard state == .released, !stopped, let daemon = ios else { return }
        if !protectedDataAvailable && launchState.releasedWhileUnavailableAtMs == nil {
            launchState.releasedWhileUnavailableAtMs = nowMs
        }
        if let message = OccurrenceChecks.gateRelease(savedDomainExists: storedDocument != nil, daemonAlarmCount: daemon.alarms.count) {
            violate("launch-gate", [], message)
            return
        }
        if storeDamaged, !daemon.alarms.isEmpty {
            violate("launch-gate", [], "the launch gate released while the saved alarm domain could not be read (a damaged store) and AlarmKit holds \(daemon.alarms.count) alarm(s) (BOOT-5)")
            return
        }
        let held = keychainReceipts
        for survivor in launchState.survivorsAtReinstall where held.contains(survivor)
            && !launchState.failedWakeDays.contains(where: { $0.token == survivor.token }) {
            violate("receipt-lifecycle", [], "startup was released while the surviving receipt \(survivor.token) had no failed wake day (IOS-10)")
            return
        }
    }

    /// BOOT-7: a held gate whose conditions cleared releases within one re-check (1 s) plus the
    /// store and inventory reads; BOOT-4's deferred report.
    func checkGateLiveness() {
        if let releasedAt = launchState.releasedWhileUnavailableAtMs, nowMs - releasedAt > setup.transitionBoundMs {
            violate("launch-gate", [], "the launch gate released \(HumanText.duration(nowMs - releasedAt)) ago while protected data was unavailable (BOOT-4)")
            return
        }
        guard let daemon = ios, process.running, !process.suspended, case .gated = process.phase else {  // the cache: no copy of the bridge
            launchState.gateClearSinceMs = nil
            return
        }
        let receiptsSettled = launchState.survivorsAtReinstall.allSatisfy { survivor in
            launchState.failedWakeDays.contains { $0.token == survivor.token } || !keychainReceipts.contains(survivor)
        }
        // BOOT-5: a damaged domain is not readable (BOOT-2: nor, with no daemon alarm, empty).
        let clear = protectedDataAvailable && !storeDamaged && (storedDocument != nil || daemon.alarms.isEmpty) && receiptsSettled
        guard clear else {
            launchState.gateClearSinceMs = nil
            return
        }
        // A failed inventory read restarts the clock (see `dispatch`): the gate cannot know yet.
        let since = launchState.gateClearSinceMs ?? nowMs
        launchState.gateClearSinceMs = since
        let boundMs = configuration().gateRecheckMs + 500
        if nowMs - since > boundMs {
            violate("launch-gate", [], "the launch gate still holds \(HumanText.duration(nowMs - since)) after its conditions cleared (BOOT-7: re-check every 1 s)")
        } else {
            enqueue(.gapCheck, afterMs: boundMs + 1)
        }
    }

    // MARK: receipts (invariant 38)

    /// The oracle occurrence a receipt stands for: same root (or a root tied with it), same ring time.
    func oracleOccurrence(of receipt: WakeReceipt) -> OracleOccurrence? {
        oracle.occurrences.last { ($0.rootID == receipt.rootID || $0.tiedRoots.contains(receipt.rootID)) && $0.startWallMs == receipt.startedAtMs }
    }

    /// IOS-9: a receipt of a completed, abandoned or expired occurrence is gone within T_OP of the
    /// bridge's first execution after the closure.
    func checkReceiptsOfClosedOccurrences() {
        guard ios != nil, !keychain.items.isEmpty else { return }
        for receipt in keychainReceipts {
            guard let occurrence = oracleOccurrence(of: receipt), !occurrence.live,
                  ["completed", "expired", "abandoned"].contains(occurrence.closeReason),
                  let first = occurrence.firstExecutionAfterCloseMs, nowMs > first + setup.transitionBoundMs else { continue }
            violate("receipt-lifecycle", [], "the receipt \(receipt.token) of the \(occurrence.closeReason) occurrence of \(occurrence.rootID) is still in the Keychain \(HumanText.duration(nowMs - first)) after the bridge ran (IOS-9)")
            return
        }
    }

    /// IOS-9, IOS-10 at a deletion: no survivor goes before its failed wake day is written, and no
    /// receipt of an occurrence that is still unfinished goes while its schedule stands.
    func checkReceiptDeletion(token: String) {
        guard !stopped, let receipt = keychainReceipts.first(where: { $0.token == token }) else { return }
        if let message = OccurrenceChecks.survivorDeletion(token: token, survivors: launchState.survivorsAtReinstall,
                                                           failedWakeDays: launchState.failedWakeDays) {
            violate("receipt-lifecycle", [], message)
            return
        }
        guard let index = oracle.liveIndex, let occurrence = oracleOccurrence(of: receipt), occurrence.id == oracle.occurrences[index].id,
              occurrence.tiedRoots.count <= 1, alarms.flatMap(\.roots).contains(where: { $0.id == receipt.rootID }),
              wallMs < occurrence.deadlineMs - setup.transitionBoundMs else { return }
        violate("receipt-lifecycle", [], "the receipt \(token) of the unfinished occurrence of \(receipt.rootID) was deleted while its schedule stands (IOS-9)")
    }

    // MARK: kill switch (invariant 39)

    /// BOOT-12: the `kill-switch-disabled` exemption's interval. The operator's explicit
    /// "disabled" holds the sync's scheduler calls back only while a process has it in force (or,
    /// with no process running, while the last one had it), and for T_OP after scheduling is
    /// enabled again: the bridge then catches up at once (`killSwitchChecked` reads for a launch
    /// sync; a new process starts enabled). Before, any "disabled" anywhere in the run excused
    /// every missing primary to its end, so a bridge that never caught up passed.
    func killSwitchHoldsSync() -> Bool {
        guard launchState.killSwitchEverDisabled else { return false }
        let disabled = process.bridge.map(\.remoteSchedulingDisabled) ?? launchState.killSwitchDisabledDeclared
        if disabled { return true }
        guard let since = launchState.killSwitchReenabledAtMs else { return false }
        return nowMs - since <= setup.transitionBoundMs
    }

    /// A process declared scheduling enabled, or a new one started with it enabled.
    func noteKillSwitchHoldEnded() {
        guard launchState.killSwitchDisabledDeclared else { return }
        launchState.killSwitchDisabledDeclared = false
        launchState.killSwitchReenabledAtMs = nowMs
    }

    func checkFailOpen(_ declared: RemoteSchedulingState) {
        guard !stopped else { return }
        let answer = launchState.lastKillSwitchAnswer.flatMap { $0.incarnation == process.incarnation ? $0.response : nil }
        if declared == .disabledByKillSwitch {
            launchState.killSwitchEverDisabled = true
            launchState.killSwitchDisabledDeclared = true
        } else {
            noteKillSwitchHoldEnded()
        }
        if let message = OccurrenceChecks.failOpen(declared: declared, lastAnswer: answer) {
            violate("fail-open", [], message)
        }
    }
}

/// What the never-silent judgement accepts as pressure on iOS (IOS-15): an AlarmKit alarm sounds
/// through Silent mode and Focus; a notification's sound follows the switch, and its requested
/// interruption level may silently drop to `.active` without the entitlement (IOS-13). The bridge
/// therefore never relies on a notification for pressure, and the checker never counts one.
enum IOSPressure {
    enum Source: Sendable, Equatable {
        case alarmKitAlarm
        case notification(requested: NotificationInterruptionLevel, entitlements: NotificationEntitlements)
    }

    /// True when `source` counts as pressure for never-silent (IOS-15).
    static func counts(_ source: Source) -> Bool {
        switch source {
        case .alarmKitAlarm: return true
        case .notification: return false
        }
    }
}

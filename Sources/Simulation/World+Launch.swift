import AlarmBridge
import IOSModel
import SimKernel

/// Events of the launch path on the world's queue.
enum LaunchWorldEvent: Sendable {
    /// The app-state write of a failed wake day lands (or fails) and its completion reaches the
    /// process that asked (IOS-10).
    case appStateWriteLands(FailedWakeDay, succeeds: Bool, incarnation: Int)
    /// The kill-switch request answers, times out or fails (BOOT-12).
    case killSwitchAnswer(KillSwitchResponse, incarnation: Int)
}

/// World state of the launch path: the app's own state store, the kill-switch server and
/// network, and what the launch checkers remember.
struct LaunchWorldState {
    /// The app's state (its container): failed wake days recorded from surviving receipts
    /// (IOS-10). A reinstall starts it empty.
    var failedWakeDays: [FailedWakeDay] = []
    /// `fault app-state-write-failure N`: the next N app-state writes fail.
    var failNextAppStateWrites = 0
    /// Keychain receipts that survived the last reinstall: ground truth for `receipt-lifecycle`.
    var survivorsAtReinstall: [WakeReceipt] = []
    /// `fault kill-switch-…`: the answer every later check gets; nil: the seed's network profile.
    var killSwitchScripted: KillSwitchResponse?
    /// The answer last delivered to a process, and the process it went to.
    var lastKillSwitchAnswer: (response: KillSwitchResponse, incarnation: Int)?
    /// A bridge declared scheduling disabled by the kill switch at some point of the run: primaries
    /// it then did not register are the operator's choice (exemption `kill-switch-disabled`).
    var killSwitchEverDisabled = false
    /// The last bridge process to declare a state declared scheduling disabled, and no process
    /// has started or re-enabled since (``World/killSwitchHoldsSync()``).
    var killSwitchDisabledDeclared = false
    /// When (true ms) the last disabled hold ended: a process re-enabled scheduling, or a new
    /// process started with scheduling enabled.
    var killSwitchReenabledAtMs: Int64?
    /// Per-check network failures of the fuzz (own stream: other draws keep their values).
    var networkRNG: Xoshiro256StarStar
    /// First-seen identity of every occurrence token in the stored document (invariant 17).
    /// Lookup only, never iterated.
    var identities: [String: OccurrenceChecks.Identity] = [:]
    /// The document as last persisted, for per-write diffs (invariants 12, 17, 22).
    var lastPersisted: BridgeDocument?
    /// The occurrence records of the last write whose invariants 12, 17 and 22 were checked.
    var lastCheckedOccurrences: [OccurrenceRecord]?
    /// ``World/configuredPolicies()`` as last built, with the `alarmsChanges` it was built at
    /// (issue 20: it was rebuilt, every root of every alarm, for each new occurrence record).
    var configuredPoliciesMemo: (alarmsChanges: UInt64, policies: [String: InactivityPolicy])?
    /// The (root, token) JS asked to complete in the step now running, if any (invariant 22).
    var completionRequested: (rootID: String, token: String)?
    /// Every root ID the user's alarms ever had, sorted (invariant 42).
    var knownRootIDs: [String] = []
    /// ``World/alarmsChanges`` when `alarms` was last folded into `knownRootIDs`.
    var knownRootIDsAtChange: UInt64?
    /// Since when (true ms) a held launch gate's conditions have been clear (invariant 35).
    var gateClearSinceMs: Int64?
    /// When (true ms) an iOS gate released while protected data was unavailable (invariant 35).
    var releasedWhileUnavailableAtMs: Int64?

    init(streams: RandomStreams) {
        networkRNG = streams.stream("net.kill-switch")
    }
}

extension World {
    /// Executes the launch-path commands of the bridge (receipts, app state, kill switch).
    func executeLaunch(_ command: BridgeCommand) {
        switch command {
        case .readReceipts:
            let result = readKeychainReceipts()
            record("keychain", "read", [TraceField("result", (try? result.get()).map { "\($0.count) receipts" } ?? "unavailable")])
            enqueue(.toProcess(.receiptsRead(result), incarnation: process.incarnation), afterMs: 3)
        case .writeReceipt(let receipt):
            var succeeded = true
            do {
                try keychain.write(WakeReceipt.key(token: receipt.token), receipt.keychainValue,
                                   accessibility: .afterFirstUnlockThisDeviceOnly,
                                   unlockedSinceBoot: protectedDataAvailable, unlockedNow: process.active)
            } catch {
                succeeded = false
            }
            record("keychain", succeeded ? "write" : "write-failed", [TraceField("token", receipt.token)])
            enqueue(.toProcess(.receiptWritten(token: receipt.token, succeeded: succeeded), incarnation: process.incarnation), afterMs: 2)
        case .deleteReceipt(let token):
            checkReceiptDeletion(token: token)
            keychain.delete(WakeReceipt.key(token: token))
            record("keychain", "delete", [TraceField("token", token)])
        case .writeFailedWakeDay(let day):
            var succeeds = protectedDataAvailable
            if launchState.failNextAppStateWrites > 0 {
                launchState.failNextAppStateWrites -= 1
                succeeds = false
            }
            enqueue(.launch(.appStateWriteLands(day, succeeds: succeeds, incarnation: process.incarnation)), afterMs: 10)
        case .checkKillSwitch:
            let response = drawKillSwitchResponse()
            let latencyMs: Int64
            switch response {
            case .ok, .disabled, .unreadable: latencyMs = 300
            case .networkFailure: latencyMs = 50
            case .timeout: latencyMs = setup.killSwitchTimeoutMs
            }
            enqueue(.launch(.killSwitchAnswer(response, incarnation: process.incarnation)), afterMs: latencyMs)
        case .remoteScheduling(let state):
            record("bridge", "remote-scheduling", [TraceField("state", state.rawValue)])
            checkFailOpen(state)
        default:
            preconditionFailure("executeLaunch got a command of another section: \(command)")
        }
    }

    func dispatchLaunch(_ event: LaunchWorldEvent) {
        switch event {
        case .appStateWriteLands(let day, let succeeds, let incarnation):
            // A write still in flight when its process died is lost with it.
            guard process.running, process.incarnation == incarnation else { return }
            if succeeds && !launchState.failedWakeDays.contains(where: { $0.token == day.token }) {
                launchState.failedWakeDays.append(day)
            }
            record("app-state", succeeds ? "failed-wake-day" : "write-failed", [TraceField("token", day.token)])
            step(.failedWakeDayWritten(token: day.token, succeeded: succeeds))
        case .killSwitchAnswer(let response, let incarnation):
            guard process.running, process.incarnation == incarnation else { return }
            launchState.lastKillSwitchAnswer = (response, incarnation)
            record("network", "kill-switch", [TraceField("response", response.rawValue)])
            step(.killSwitchChecked(response))
        }
    }

    /// The server's answer (scripted), or the seed's network: with `killSwitchFailureRate` a check
    /// times out, fails or gets an unreadable body; the server itself always says ok in the fuzz.
    func drawKillSwitchResponse() -> KillSwitchResponse {
        if let scripted = launchState.killSwitchScripted { return scripted }
        guard let rate = setup.killSwitchFailureRate, randomBehaviourActs, launchState.networkRNG.chance(rate) else { return .ok }
        return launchState.networkRNG.pick([KillSwitchResponse.timeout, .networkFailure, .unreadable])
    }

    /// Every wake receipt in the Keychain; unavailable before the first unlock (the receipts'
    /// class is `afterFirstUnlockThisDeviceOnly`: `errSecInteractionNotAllowed`).
    func readKeychainReceipts() -> Result<[WakeReceipt], StoreReadError> {
        var receipts: [WakeReceipt] = []
        for item in keychain.items where item.key.hasPrefix(WakeReceipt.keyPrefix) {
            guard let value = try? keychain.read(item.key, unlockedSinceBoot: protectedDataAvailable, unlockedNow: process.active),
                  let receipt = WakeReceipt(key: item.key, value: value) else { return .failure(.unavailable) }
            receipts.append(receipt)
        }
        return .success(receipts)
    }

    /// Called by `reinstall()`: the app's state goes with its container; the receipts that survive
    /// are remembered as the ground truth of IOS-10.
    func launchNoteReinstall() {
        launchState.failedWakeDays = []
        launchState.survivorsAtReinstall = keychainReceipts
        record("keychain", "survived-reinstall", [TraceField("receipts", String(launchState.survivorsAtReinstall.count))])
    }
}

extension World {
    /// Plan actions of the launch path.
    func performLaunch(_ action: PlanAction) {
        switch action {
        case .faultKillSwitch(let response):
            launchState.killSwitchScripted = response
        case .faultAppStateWriteFailure(let count):
            launchState.failNextAppStateWrites += count
        case .appCancelSystemAlarms(let alarmID):
            guard process.running, !process.suspended, let alarm = alarms.first(where: { $0.id == alarmID }) else { return }
            // JS forgets the alarm and asks the bridge to retire every root of it (API-18).
            alarms.removeAll { $0.id == alarmID }
            unscheduleOracleFireTimes(alarmID: alarmID)
            step(.api(.cancelSystemAlarms(alarmIDs: alarm.roots.map(\.id))))
        default:
            preconditionFailure("performLaunch got an action of another section: \(action)")
        }
    }
}

extension World {
    /// BOOT-3: right after a process starts, JS reports what it cached in its own unprotected
    /// storage. The cache is written when the user leaves the app with alarms configured — except
    /// on seeds whose JS never refreshes it after onboarding (`jsCacheStale`), so after a reboot
    /// it may say "no alarms" while the daemon holds several. A gate that believed it would treat
    /// an unreadable store as a fresh install.
    func jsReportsCachedPreferences() {
        guard process.running else { return }
        let cached = setup.jsCacheStale ? false : !alarms.isEmpty
        enqueue(.toProcess(.api(.reportCachedPreferences(alarmsConfigured: cached)), incarnation: process.incarnation), afterMs: 5)
    }
}

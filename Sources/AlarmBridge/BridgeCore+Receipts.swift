/// Keychain wake receipts (IOS-9, IOS-10), the remote kill switch (BOOT-12), `cancelSystemAlarms`
/// (API-18) and the abandoned-occurrence journal (API-20).
///
/// Process-local state lives in ``LaunchLedger`` (one stored property of the core); the Keychain
/// and the app-state store are ports reached through commands whose completions come back as
/// inputs, like every other request of the sans-I/O core.

/// Process-local bookkeeping of the launch path. It dies with the process.
public struct LaunchLedger: Sendable, Equatable {
    public enum ReceiptReadState: Sendable, Equatable {
        /// Not asked yet (Android never asks: the Keychain is iOS only).
        case notRequested
        /// `readReceipts` issued, no answer yet.
        case pending
        /// The read failed (`errSecInteractionNotAllowed` before first unlock): unknown, not empty (BOOT-2).
        case failed
        /// The receipts as the Keychain holds them (this process's writes and deletes folded in).
        case loaded
    }
    public var receiptReadState = ReceiptReadState.notRequested
    /// Receipts known to exist in the Keychain, sorted by token.
    public var receipts: [WakeReceipt] = []
    /// Tokens whose `writeReceipt` has not completed yet.
    public var receiptWritesInFlight: [String] = []
    /// Surviving receipts of occurrences the loaded store does not know (a reinstall, IOS-10):
    /// each becomes a failed wake day before its receipt is deleted.
    public var survivors: [WakeReceipt] = []
    /// Survivor tokens whose failed-wake-day write has not completed yet.
    public var failedDayWritesInFlight: [String] = []
    /// The document whose release waits for the survivors' app-state writes (IOS-10).
    public var heldDocument: BridgeDocument?
    /// BOOT-12: the check is made once per process, after the gate released.
    public var killSwitchRequested = false
    public var remoteScheduling = RemoteSchedulingState.enabled
    /// API-18: pending `cancelSystemAlarms` calls: the root IDs asked for and the rings whose
    /// cancellation the platform has not confirmed yet.
    public var systemCancels: [(rootIDs: [String], rings: [AlarmUUID], confirmed: Bool)] = []
    /// What JS reported from its cache at startup (BOOT-3: never read by the gate); nil before.
    public var jsCachedAlarmsConfigured: Bool?

    public init() {}

    public static func == (lhs: LaunchLedger, rhs: LaunchLedger) -> Bool {
        lhs.receiptReadState == rhs.receiptReadState && lhs.receipts == rhs.receipts
            && lhs.receiptWritesInFlight == rhs.receiptWritesInFlight && lhs.survivors == rhs.survivors
            && lhs.failedDayWritesInFlight == rhs.failedDayWritesInFlight && lhs.heldDocument == rhs.heldDocument
            && lhs.killSwitchRequested == rhs.killSwitchRequested && lhs.remoteScheduling == rhs.remoteScheduling
            && lhs.jsCachedAlarmsConfigured == rhs.jsCachedAlarmsConfigured
            && lhs.systemCancels.map(\.rootIDs) == rhs.systemCancels.map(\.rootIDs)
            && lhs.systemCancels.map(\.rings) == rhs.systemCancels.map(\.rings)
    }
}

extension BridgeCore {
    /// Inputs of the launch path, in any phase. Returns true when the input was consumed;
    /// false lets the usual handling go on (the input is only observed here).
    mutating func handleLaunchInput(_ input: BridgeInput, now: BridgeInstants, into out: inout [BridgeCommand]) -> Bool {
        switch input {
        case .processStarted:
            if flavor == .ios {
                // IOS-10: the receipts are read with the store, so a fresh install knows of a
                // surviving receipt before it releases startup.
                launch.receiptReadState = .pending
                out.append(.readReceipts)
            }
            return false
        case .protectedDataAvailable, .didBecomeActive:
            rereadReceiptsIfFailed(into: &out)
            return false
        case .receiptsRead(let result):
            receiptsRead(result, now: now, into: &out)
            return true
        case .receiptWritten(let token, let succeeded):
            launch.receiptWritesInFlight.removeAll { $0 == token }
            if succeeded, let live = document?.occurrence(token: token) {
                insertReceipt(WakeReceipt(token: live.token, rootID: live.rootID, startedAtMs: live.startedAtMs))
            } else if !succeeded {
                out.append(.note("Keychain receipt write for \(token) failed: retried on the next step"))
            }
            return true
        case .failedWakeDayWritten(let token, let succeeded):
            failedWakeDayWritten(token: token, succeeded: succeeded, now: now, into: &out)
            return true
        case .timerFired(.gateRecheck) where launch.heldDocument != nil:
            writeFailedWakeDays(now: now, into: &out)  // IOS-10: retry a failed app-state write
            return true
        case .killSwitchChecked(let response):
            killSwitchChecked(response, into: &out)
            return true
        case .cancelCompleted(let id, let result):
            systemCancelCompleted(id, result: result, into: &out)
            return false
        case .api(.reportCachedPreferences(let alarmsConfigured)):
            jsCachedPreferencesReported(alarmsConfigured: alarmsConfigured, now: now, into: &out)
            return true
        case .storeLoaded(.failure) where defects.gateTrustsJSCache && launch.jsCachedAlarmsConfigured == false && phase != .ready:
            // Known defect (BOOT-3): "JS says there are no alarms" releases an unreadable store as empty.
            out.append(.note("defect gate-trusts-js-cache: unreadable store released as a fresh install"))
            becomeReady(BridgeDocument(), now: now, into: &out)
            return true
        default:
            return false
        }
    }

    mutating func rereadReceiptsIfFailed(into out: inout [BridgeCommand]) {
        guard flavor == .ios, launch.receiptReadState == .failed else { return }
        launch.receiptReadState = .pending
        out.append(.readReceipts)
    }

    mutating func insertReceipt(_ receipt: WakeReceipt) {
        launch.receipts.removeAll { $0.token == receipt.token }
        launch.receipts.append(receipt)
        launch.receipts.sort { $0.token < $1.token }
    }

    // MARK: - Receipts (IOS-9, IOS-10)

    /// IOS-10: the Keychain answered. Receipts of occurrences the store does not know survived a
    /// reinstall; each is recorded as a failed wake day before startup is released.
    mutating func receiptsRead(_ result: Result<[WakeReceipt], StoreReadError>, now: BridgeInstants,
                               into out: inout [BridgeCommand]) {
        switch result {
        case .failure:
            // BOOT-2: unreadable is not empty. Startup is not held for it (the store itself is
            // readable only after the same first unlock); it is read again at the next chance.
            launch.receiptReadState = .failed
            out.append(.note("Keychain receipts unreadable: read again after unlock"))
            if let held = launch.heldDocument {
                launch.heldDocument = nil
                becomeReady(held, now: now, into: &out)
            }
        case .success(let receipts):
            launch.receiptReadState = .loaded
            for receipt in receipts { insertReceipt(receipt) }
            if let held = launch.heldDocument {
                launch.heldDocument = nil
                becomeReady(held, now: now, into: &out)  // runs the release check again
            } else if phase == .ready, let document {
                adoptSurvivors(known: document, now: now, into: &out)
            }
        }
    }

    /// Called by `becomeReady` before it releases startup. Returns false while the release must
    /// wait: for the receipts read, or for the failed-wake-day writes of surviving receipts (IOS-10).
    mutating func receiptsPermitRelease(_ loaded: BridgeDocument, now: BridgeInstants, into out: inout [BridgeCommand]) -> Bool {
        guard flavor == .ios else { return true }
        switch launch.receiptReadState {
        case .pending:
            launch.heldDocument = loaded
            return false
        case .notRequested, .failed:
            return true
        case .loaded:
            adoptSurvivors(known: loaded, now: now, into: &out)
            guard launch.survivors.isEmpty else {
                launch.heldDocument = loaded
                return false
            }
            return true
        }
    }

    /// Receipts whose token `known` does not record are survivors of a reinstall: write each one's
    /// failed wake day (once), and delete its receipt only after that write succeeded.
    mutating func adoptSurvivors(known: BridgeDocument, now: BridgeInstants, into out: inout [BridgeCommand]) {
        for receipt in launch.receipts where known.occurrence(token: receipt.token) == nil
            && !launch.survivors.contains(where: { $0.token == receipt.token }) {
            launch.survivors.append(receipt)
        }
        writeFailedWakeDays(now: now, into: &out)
    }

    mutating func writeFailedWakeDays(now: BridgeInstants, into out: inout [BridgeCommand]) {
        for survivor in launch.survivors where !launch.failedDayWritesInFlight.contains(survivor.token) {
            launch.failedDayWritesInFlight.append(survivor.token)
            out.append(.writeFailedWakeDay(FailedWakeDay(token: survivor.token, rootID: survivor.rootID,
                                                         startedAtMs: survivor.startedAtMs, recordedAtMs: now.wallMs)))
            if defects.receiptDeletedBeforeWrite {
                // Known defect (IOS-10): the receipt goes before the app-state write is known to have
                // succeeded; a failed or interrupted write loses the failed wake day for good.
                out.append(.note("defect receipt-deleted-before-write: receipt \(survivor.token) deleted early"))
                out.append(.deleteReceipt(token: survivor.token))
                launch.receipts.removeAll { $0.token == survivor.token }
            }
        }
    }

    mutating func failedWakeDayWritten(token: String, succeeded: Bool, now: BridgeInstants, into out: inout [BridgeCommand]) {
        launch.failedDayWritesInFlight.removeAll { $0 == token }
        guard succeeded else {
            // IOS-10: the receipt stays; the write is tried again at the next gate re-check.
            out.append(.note("failed wake day \(token) not written: receipt kept"))
            out.append(.setTimer(.gateRecheck, delayMs: configuration.gateRecheckMs))
            return
        }
        launch.survivors.removeAll { $0.token == token }
        if launch.receipts.contains(where: { $0.token == token }) {
            out.append(.deleteReceipt(token: token))  // IOS-10: only now that the write succeeded
            launch.receipts.removeAll { $0.token == token }
        }
        if launch.survivors.isEmpty, let held = launch.heldDocument {
            launch.heldDocument = nil
            becomeReady(held, now: now, into: &out)
        }
    }

    /// After every step of a ready iOS bridge: the live occurrence has a receipt (IOS-9), and every
    /// receipt of a closed occurrence, or of a root retired from the schedule, is deleted.
    mutating func reconcileReceipts(into out: inout [BridgeCommand]) {
        guard flavor == .ios, phase == .ready, launch.receiptReadState == .loaded, let document else { return }
        // Whether a root still exists is asked once per root ID here, and after the cheap tests
        // (issue 20: this runs after every step, and the live occurrence's root was looked up
        // twice; the tests are pure, so their order changes no answer).
        var rootExists: (rootID: String, exists: Bool)?
        func hasRoot(_ rootID: String) -> Bool {
            if let known = rootExists, known.rootID == rootID { return known.exists }
            let exists = document.hasRoot(rootID)
            rootExists = (rootID, exists)
            return exists
        }
        if let live = document.liveOccurrence,
           !launch.receipts.contains(where: { $0.token == live.token }), !launch.receiptWritesInFlight.contains(live.token),
           hasRoot(live.rootID) {
            launch.receiptWritesInFlight.append(live.token)
            out.append(.writeReceipt(WakeReceipt(token: live.token, rootID: live.rootID, startedAtMs: live.startedAtMs)))
        }
        for receipt in launch.receipts where !launch.survivors.contains(where: { $0.token == receipt.token }) {
            guard let occurrence = document.occurrence(token: receipt.token) else { continue }  // a survivor's
            if occurrence.state == .live && hasRoot(occurrence.rootID) { continue }
            // IOS-9: completion, abandonment, expiry or retirement of the schedule ends the receipt.
            out.append(.deleteReceipt(token: receipt.token))
            launch.receipts.removeAll { $0.token == receipt.token }
        }
    }

    /// BOOT-3: the gate decides from native facts only — protected-data availability, whether
    /// the saved domain exists and reads, whether the daemon holds alarms. JS's cached preferences
    /// are kept for diagnostics and never consulted by the gate.
    mutating func jsCachedPreferencesReported(alarmsConfigured: Bool, now: BridgeInstants, into out: inout [BridgeCommand]) {
        launch.jsCachedAlarmsConfigured = alarmsConfigured
        guard defects.gateTrustsJSCache, !alarmsConfigured, case .gated(.waitingForUnlock) = phase else { return }
        // Known defect (BOOT-3): "JS says there are no alarms" releases an unreadable store as empty.
        out.append(.note("defect gate-trusts-js-cache: unreadable store released as a fresh install"))
        becomeReady(BridgeDocument(), now: now, into: &out)
    }

    /// The per-step hook of the launch path: receipts (IOS-9) and the one kill-switch check of a
    /// process (BOOT-12).
    mutating func launchHousekeeping(into out: inout [BridgeCommand]) {
        guard phase == .ready else { return }
        reconcileReceipts(into: &out)
        if !launch.killSwitchRequested {
            launch.killSwitchRequested = true
            out.append(.checkKillSwitch)
        }
    }
}

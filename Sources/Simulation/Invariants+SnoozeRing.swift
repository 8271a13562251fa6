import AlarmBridge
import SimKernel

/// An accepted one-time snooze as the oracle follows it to its ring (SNZ-20, SNZ-21).
struct SnoozeWatch {
    var rootID: String
    /// The oracle's occurrence; nil while the snooze is the bridge's alone (accepted for the
    /// occurrence it inferred while the oracle held nothing, `Oracle.unownedSnooze`).
    var occurrenceID: Int?
    /// True ms of the acceptance, and when its ring is due in true time: the remaining duration
    /// at acceptance, which clock corrections preserve (SNZ-20).
    var acceptedAtMs: Int64
    var dueAtMs: Int64
    var bootCount: Int
    /// True ms of a wall-clock change no ready bridge step has run since (nil: none, or seen).
    var unseenCorrectionAtMs: Int64?
    /// The boot that correction happened in: a bridge of a later boot can never see it (the
    /// monotonic anchor restarts with the boot, REC-9), so it stays unseen for good.
    var unseenCorrectionBootCount: Int?
    /// True ms until which a late ring is excused because the ring came due before any ready
    /// bridge step saw the correction: the first step that sees it gets T_OP to rebase (SNZ-20).
    var unseenExcuseUntilMs: Int64?
    /// SNZ-21: true ms of the latest refused re-registration of the watched snooze ring, and how
    /// many there were (the bridge asks again `armRetryMax` times, `armRetryDelayMs` apart).
    var rearmRefusedAtMs: Int64?
    /// True ms of the latest schedule request for a snooze ring while watched (a rebase).
    var lastRequestAtMs: Int64?
    var rearmRefusals = 0
    /// Why a late ring is the platform's doing, not the bridge's, once one applied ([limit]
    /// removals, a refused re-arm that SNZ-21 answers by keeping the existing ring).
    var platformExcuse: String?
}

/// Candidate invariant 9's "after any clock change" half (`snooze-window`, SNZ-20, SNZ-21):
/// judged at the snooze ring's actual alert, not only at its acceptance.
extension World {
    /// The bridge accepted a snooze until `untilMs` (wall ms): its ring is due that far ahead in true time.
    ///
    /// A snooze accepted while the oracle held nothing (`unownedSnooze`) is watched unowned: its
    /// clock corrections are followed, and the occurrence the oracle opens for it later
    /// (`carryUnownedSnooze`) takes the watch over (``ownUnownedSnoozeWatch(rootID:occurrenceID:)``).
    func watchSnooze(untilMs: Int64) {
        guard !stopped else { return }
        let dueAtMs = nowMs + max(0, untilMs - wallMs)
        guard let index = oracle.liveIndex else {
            guard let unowned = oracle.unownedSnooze, unowned.untilTrueMs == untilMs - (wallMs - nowMs) else { return }
            snoozeWatch = SnoozeWatch(rootID: unowned.rootID, occurrenceID: nil, acceptedAtMs: nowMs, dueAtMs: dueAtMs, bootCount: bootCount)
            return
        }
        let occurrence = oracle.occurrences[index]
        snoozeWatch = SnoozeWatch(rootID: occurrence.rootID, occurrenceID: occurrence.id, acceptedAtMs: nowMs,
                                  dueAtMs: dueAtMs, bootCount: bootCount)
    }

    /// SNZ-20, SNZ-22, [limit] `snooze-clock-change-unseen`: the occurrence `occurrenceID` the
    /// oracle just opened carries the unowned snooze (`carryUnownedSnooze`), so the watch that
    /// followed it is that occurrence's, with every correction no ready step has seen since its
    /// acceptance (ios uniform seed 85956: an OS update removed a1.wed's 05:37; the 05:45 launch
    /// inferred the occurrence, a 30 min snooze at 05:45:47, then a 1 h set-back with the app
    /// suspended relived 05:37: the snooze ring lay 38 min ahead, and only a step can rebase it).
    func ownUnownedSnoozeWatch(rootID: String, occurrenceID: Int) {
        guard let watch = snoozeWatch, watch.occurrenceID == nil, watch.rootID == rootID else { return }
        snoozeWatch?.occurrenceID = occurrenceID
    }

    /// The wall clock moved: until a ready bridge step runs, nothing can have rebased the snooze ring.
    func noteSnoozeClockChange() {
        guard snoozeWatch != nil, snoozeWatch?.unseenCorrectionAtMs == nil else { return }
        snoozeWatch?.unseenCorrectionAtMs = nowMs
        snoozeWatch?.unseenCorrectionBootCount = bootCount
    }

    /// After a bridge step: a ready, running bridge has seen every correction so far (REC-8:
    /// it compares wall and monotonic clocks at every step) — of its own boot only: one a restart
    /// hid before any ready step ran stays unseen, and the snooze ring keeps its wall time, the
    /// bridge's reading (ios swarm seed 29610: a 1 h set-back during a 20 min snooze, then a
    /// reboot; the launch after it held the 07:22 ring, 37 min ahead of the set-back clock).
    func noteSnoozeCorrectionSeen(phase: BridgePhase) {
        guard snoozeWatch?.unseenCorrectionAtMs != nil, snoozeWatch?.unseenCorrectionBootCount == bootCount,
              phase == .ready, !process.suspended else { return }
        snoozeWatch?.unseenCorrectionAtMs = nil
        if let due = snoozeWatch?.dueAtMs, nowMs > due { snoozeWatch?.unseenExcuseUntilMs = nowMs + setup.transitionBoundMs }
        cover(.snoozeClockCorrected)  // SNZ-20: this step had to rebase the snooze ring
    }

    /// A delivery the platform held back (the late-delivery fault, AlarmKit's dense late delay).
    func noteHeldRing(_ id: AlarmUUID) {
        guard !heldRings.contains(id) else { return }
        heldRings.append(id)
        if heldRings.count > 64 { heldRings.removeFirst() }
    }

    /// SNZ-21: a rebased snooze ring the platform refused leaves the existing one in place.
    func noteSnoozeRearmRefused(_ id: AlarmUUID) {
        guard snoozeWatch != nil, requestMetadata[id]?.kind == .snooze else { return }
        snoozeWatch?.rearmRefusedAtMs = nowMs
        snoozeWatch?.rearmRefusals += 1
        guard snoozeWatch?.platformExcuse == nil else { return }
        snoozeWatch?.platformExcuse = "snooze-rearm-refused"
    }

    /// [limit] faults that take alarms off the platform (or kill the process that would rebase):
    /// a snooze ring the bridge restores afterwards may come late.
    func noteSnoozePlatformFault(_ name: String) {
        guard snoozeWatch != nil, snoozeWatch?.platformExcuse == nil,
              ["os-removed-alarm", "exact-permission-revoked", "force-stop", "app-update", "device-restarting"].contains(name) else { return }
        snoozeWatch?.platformExcuse = name
    }

    /// Scheduling tolerance of a snooze ring: 1 s (virtual ms).
    static let snoozeRingToleranceMs: Int64 = 1_000

    /// Candidate invariant 9 after a clock change: the snooze ring alerts no later than its
    /// accepted remaining duration after the acceptance, in true time — SNZ-20 rebases it with
    /// every correction, and SNZ-21 lets a failure err only earlier — so never more than 30 min
    /// after it. Excused by name only where no bridge could have rebased it: a reboot since (no
    /// monotonic anchor), a correction no ready bridge step ran after, a delivery the platform
    /// held back, or a platform removal or refusal (``noteSnoozePlatformFault(_:)``).
    func checkSnoozeRingTime(_ id: AlarmUUID, _ metadata: RingMetadata) {
        guard metadata.kind == .snooze, let watch = snoozeWatch, watch.rootID == metadata.rootID else { return }
        snoozeWatch = nil
        guard watch.occurrenceID != nil else { return }  // unowned: the oracle judges no occurrence's snooze
        let lateMs = nowMs - watch.dueAtMs
        guard !stopped, lateMs > Self.snoozeRingToleranceMs else { return }
        if let excuse = snoozeExcuse(watch, id: id) { countExemption(excuse); return }
        violate("snooze-window", [], "the snooze ring \(id) of \(metadata.rootID) alerted at \(wallText(wallMs)), \(lateMs / 1_000) s after its deadline and \((nowMs - watch.acceptedAtMs) / 60_000) min after the snooze was accepted: the clock change did not keep its remaining duration")
    }

    /// [limit] `snooze-clock-change-unseen` for never-silent: a clock set back while no ready
    /// bridge step ran pushes the occurrence's pending snooze ring beyond its 30-minute bound,
    /// and until a step sees the correction nothing can rebase it (iOS suspends the app; SNZ-20).
    /// Narrow: only the watched snooze's occurrence, only while its ring is still pending, and
    /// only until the first ready step, which must rebase it (the gap check starts there).
    ///
    /// [limit] `snooze-rearm-refused`: the platform refused the rebase, so the existing ring stays
    /// (SNZ-21) beyond the bound; the bridge asks again `armRetryMax` times, `armRetryDelayMs`
    /// apart, and each refusal excuses the gap for one retry delay plus T_OP, no more.
    func unseenSnoozeCorrectionExemption(_ occurrence: OracleOccurrence) -> String? {
        guard let watch = snoozeWatch, watch.occurrenceID == occurrence.id else { return nil }
        let retryWindowMs = BridgeConfiguration.defaultArmRetryDelayMs + setup.transitionBoundMs
        let refused = watch.rearmRefusedAtMs.map { nowMs - $0 <= retryWindowMs } == true
            && watch.rearmRefusals <= BridgeConfiguration.defaultArmRetryMax + 1
        guard watch.unseenCorrectionAtMs != nil || refused else { return nil }
        let pendingSnooze: Bool
        if let daemon = ios {
            pendingSnooze = daemon.alarms.contains { $0.state == .scheduled && $0.metadata.kind == .snooze && oracle.bindings[$0.id] == occurrence.id }
        } else {
            pendingSnooze = android?.pending.contains { $0.metadata.kind == .snooze && oracle.bindings[$0.id] == occurrence.id } ?? false
        }
        guard pendingSnooze else { return nil }
        return watch.unseenCorrectionAtMs != nil ? "snooze-clock-change-unseen" : "snooze-rearm-refused"
    }

    func snoozeExcuse(_ watch: SnoozeWatch, id: AlarmUUID) -> String? {
        if watch.bootCount != bootCount { return "snooze-across-reboot" }  // SNZ-21: no monotonic anchor
        if watch.unseenCorrectionAtMs != nil { return "snooze-clock-change-unseen" }  // REC-8: no process noticed it
        if let until = watch.unseenExcuseUntilMs, nowMs <= until { return "snooze-clock-change-unseen" }  // due before it was seen
        if heldRings.contains(id) { return "late-delivery" }
        // [limit] AND-1, AND-3: exact alarms were refused, so the bridge could keep the snooze
        // ring only as an inexact allow-while-idle alarm, which AMS delivers within its window.
        if inexactWhileRefused.contains(id) { return "exact-permission-revoked" }
        // [limit] AOSP AlarmManagerService MIN_FUTURITY: a trigger less than 5 s ahead of its set
        // call is delivered 5 s after it, so a rebase made just before the snooze was due rings up
        // to that much late (android uniform seed 3591: a set-back 2 s before the deadline).
        if let manager = android, let requested = watch.lastRequestAtMs,
           nowMs <= requested + manager.parameters.minFuturityMs + Self.snoozeRingToleranceMs { return "android-min-futurity" }
        // [platform] AlarmKit's `schedule(id:configuration:)` is async (PLATFORMS.md, schedule):
        // a rebase asked for before the deadline whose request lands after it alerts at its
        // landing, up to the daemon's schedule latency late (ios swarm seed 63375: a 10 min
        // set-back no process saw; the first step rebased the snooze ring 127 ms before its
        // deadline, and the request landed 1.3 s later).
        if let daemon = ios, let requested = watch.lastRequestAtMs, requested <= watch.dueAtMs,
           nowMs <= requested + daemon.parameters.scheduleLatencyMaxMs + Self.snoozeRingToleranceMs { return "ios-schedule-latency" }
        return watch.platformExcuse
    }
}

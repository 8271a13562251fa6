import AlarmBridge
import SimKernel

/// An accepted one-time snooze as the oracle follows it to its ring (SNZ-20, SNZ-21).
struct SnoozeWatch {
    var rootID: String
    var occurrenceID: Int
    /// True ms of the acceptance, and when its ring is due in true time: the remaining duration
    /// at acceptance, which clock corrections preserve (SNZ-20).
    var acceptedAtMs: Int64
    var dueAtMs: Int64
    var bootCount: Int
    /// True ms of a wall-clock change no ready bridge step has run since (nil: none, or seen).
    var unseenCorrectionAtMs: Int64?
    /// Why a late ring is the platform's doing, not the bridge's, once one applied ([limit]
    /// removals, a refused re-arm that SNZ-21 answers by keeping the existing ring).
    var platformExcuse: String?
}

/// Candidate invariant 9's "after any clock change" half (`snooze-window`, SNZ-20, SNZ-21):
/// judged at the snooze ring's actual alert, not only at its acceptance.
extension World {
    /// The bridge accepted a snooze until `untilMs` (wall ms): its ring is due that far ahead in true time.
    func watchSnooze(untilMs: Int64) {
        guard !stopped, let index = oracle.liveIndex else { return }
        let occurrence = oracle.occurrences[index]
        snoozeWatch = SnoozeWatch(rootID: occurrence.rootID, occurrenceID: occurrence.id, acceptedAtMs: nowMs,
                                  dueAtMs: nowMs + max(0, untilMs - wallMs), bootCount: bootCount)
    }

    /// The wall clock moved: until a ready bridge step runs, nothing can have rebased the snooze ring.
    func noteSnoozeClockChange() {
        guard snoozeWatch != nil, snoozeWatch?.unseenCorrectionAtMs == nil else { return }
        snoozeWatch?.unseenCorrectionAtMs = nowMs
    }

    /// After a bridge step: a ready, running bridge has seen every correction so far (REC-8:
    /// it compares wall and monotonic clocks at every step).
    func noteSnoozeCorrectionSeen(_ bridge: BridgeCore) {
        guard snoozeWatch?.unseenCorrectionAtMs != nil, bridge.phase == .ready, !process.suspended else { return }
        snoozeWatch?.unseenCorrectionAtMs = nil
    }

    /// A delivery the platform held back (the late-delivery fault, AlarmKit's dense late delay).
    func noteHeldRing(_ id: AlarmUUID) {
        guard !heldRings.contains(id) else { return }
        heldRings.append(id)
        if heldRings.count > 64 { heldRings.removeFirst() }
    }

    /// SNZ-21: a rebased snooze ring the platform refused leaves the existing one in place.
    func noteSnoozeRearmRefused(_ id: AlarmUUID) {
        guard snoozeWatch != nil, requestMetadata[id]?.kind == .snooze, snoozeWatch?.platformExcuse == nil else { return }
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
        let lateMs = nowMs - watch.dueAtMs
        guard !stopped, lateMs > Self.snoozeRingToleranceMs else { return }
        if let excuse = snoozeExcuse(watch, id: id) { countExemption(excuse); return }
        violate("snooze-window", [], "the snooze ring \(id) of \(metadata.rootID) alerted at \(wallText(wallMs)), \(lateMs / 1_000) s after its deadline and \((nowMs - watch.acceptedAtMs) / 60_000) min after the snooze was accepted: the clock change did not keep its remaining duration")
    }

    func snoozeExcuse(_ watch: SnoozeWatch, id: AlarmUUID) -> String? {
        if watch.bootCount != bootCount { return "snooze-across-reboot" }  // SNZ-21: no monotonic anchor
        if watch.unseenCorrectionAtMs != nil { return "snooze-clock-change-unseen" }  // REC-8: no process noticed it
        if heldRings.contains(id) { return "late-delivery" }
        // [limit] AND-1, AND-3: exact alarms were refused, so the bridge could keep the snooze
        // ring only as an inexact allow-while-idle alarm, which AMS delivers within its window.
        if inexactWhileRefused.contains(id) { return "exact-permission-revoked" }
        return watch.platformExcuse
    }
}

import AlarmBridge
import SimKernel

/// Delivery: policy deferrals (doze, quotas, standby buckets, OEM delay), the kernel alarm and
/// the batch that runs when it fires.
extension AlarmManagerModel {
    /// The earliest elapsed time `alarm` may be delivered and the end of its window, given the
    /// device's state now (AMS `Alarm.getWhenElapsed` = the latest of its policy times;
    /// `getMaxWhenElapsed` = max(requested window end, that)).
    public func deliveryBounds(_ alarm: PendingAlarm) -> (whenElapsedMs: Int64, maxWhenElapsedMs: Int64) {
        deliveryBounds(alarm.deliveryTerms)
    }

    /// ``deliveryBounds(_:)`` from the alarm's ``DeliveryTerms``.
    func deliveryBounds(_ alarm: DeliveryTerms) -> (whenElapsedMs: Int64, maxWhenElapsedMs: Int64) {
        var when = alarm.whenElapsedMs + alarm.oemDelayMs
        when = max(when, deviceIdleEarliest(alarm))
        when = max(when, standbyEarliest(alarm))
        when = max(when, batterySaverEarliest(alarm))
        when = max(when, backgroundRestrictionEarliest(alarm))
        if let held = alarm.heldUntilElapsedMs { when = max(when, held) }
        return (when, max(alarm.whenElapsedMs + alarm.windowLengthMs + alarm.oemDelayMs, when))
    }

    /// The end of `alarm`'s delivery window as wall ms in the current wall frame
    /// (``deliveryBounds(_:)``'s `maxWhenElapsedMs`): the latest instant AMS may deliver it,
    /// given the device's state now.
    public func latestDeliveryWallMs(_ alarm: PendingAlarm) -> Int64 {
        deliveryBounds(alarm).maxWhenElapsedMs + wallMinusElapsedMs
    }

    /// AMS `adjustDeliveryTimeBasedOnDeviceIdle`: in doze idle, alarm clocks (FLAG_WAKE_FROM_IDLE)
    /// run on time; allow-while-idle alarms run within their quota (72 exact / 7 compat per rolling
    /// hour), else at min(the time the quota frees, the end of idle); every other alarm waits for
    /// the end of idle (the next maintenance window).
    func deviceIdleEarliest(_ alarm: DeliveryTerms) -> Int64 {
        // FLAG_WAKE_FROM_IDLE and FLAG_ALLOW_WHILE_IDLE_UNRESTRICTED: unrestricted (AOSP
        // AlarmManagerServiceTest `allowWhileIdleUnrestricted`).
        guard case .idle(let untilElapsedMs, _) = doze, alarm.method != .setAlarmClock, !alarm.allowWhileIdleUnrestricted else { return .min }
        let quota: Int, window: Int64, history: [Int64]
        if allowWhileIdleExact(alarm) {
            (quota, window, history) = (parameters.allowWhileIdleQuota, parameters.allowWhileIdleWindowMs, allowWhileIdleHistory)
        } else if allowWhileIdleCompat(alarm) {
            (quota, window, history) = (parameters.allowWhileIdleCompatQuota, parameters.allowWhileIdleCompatWindowMs,
                                        allowWhileIdleCompatHistory)
        } else {
            return untilElapsedMs
        }
        guard let freed = Self.quotaFreesAt(history, quota: quota, windowMs: window, nowElapsedMs: now.elapsedRealtimeMs) else {
            return .min
        }
        return min(freed, untilElapsedMs)
    }

    /// AMS `adjustDeliveryTimeBasedOnBucketLocked`: non-exempt alarms of an app over its bucket's
    /// quota wait until the `quota`-th last wakeup leaves the window; quota 0 defers a year;
    /// restricted: 1 per 24 h; no limit while charging (`mAppStandbyParole`).
    func standbyEarliest(_ alarm: DeliveryTerms) -> Int64 {
        guard !exemptFromStandby(alarm), !charging else { return .min }
        let nowElapsed = now.elapsedRealtimeMs
        guard let quota = parameters.standbyQuotas.quota(standbyBucket) else {
            return Self.quotaFreesAt(standbyHistory, quota: parameters.restrictedQuota, windowMs: parameters.restrictedWindowMs,
                                     nowElapsedMs: nowElapsed) ?? .min
        }
        if quota <= 0 { return nowElapsed + 31_536_000_000 }
        return Self.quotaFreesAt(standbyHistory, quota: quota, windowMs: parameters.standbyWindowMs, nowElapsedMs: nowElapsed) ?? .min
    }

    /// Battery Saver is acting: switched on and the device not charging (AppStateTracker
    /// `isForceAllAppsStandbyEnabled`; BatterySaverStateMachine turns it off when plugged in).
    public var batterySaverActive: Bool { batterySaverOn && !charging }

    /// AMS `adjustDeliveryTimeBasedOnBatterySaver`: with Battery Saver acting, an app that is not
    /// active and not on the power allowlist (AppStateTracker `areAlarmsRestrictedByBatterySaver`)
    /// has its ordinary alarms held indefinitely (INDEFINITE_DELAY, a year) and its allow-while-idle
    /// ones limited by the doze quotas (72 exact / 7 compat per rolling hour) with no idle end to
    /// cap them; alarm clocks (`isExemptFromBatterySaver`) and FLAG_ALLOW_WHILE_IDLE_UNRESTRICTED
    /// alarms run on time. AOSP AlarmManagerServiceTest `batterySaverThrottling`,
    /// `allowWhileIdleAlarmsInBatterySaver`, `allowWhileIdleCompatAlarmsInBatterySaver`.
    func batterySaverEarliest(_ alarm: DeliveryTerms) -> Int64 {
        guard batterySaverActive, alarm.method != .setAlarmClock, !alarm.allowWhileIdleUnrestricted,
              !appActive, !parameters.batteryUsage.onPowerAllowlist else { return .min }
        let quota: Int, window: Int64, history: [Int64]
        if allowWhileIdleExact(alarm) {
            (quota, window, history) = (parameters.allowWhileIdleQuota, parameters.allowWhileIdleWindowMs, allowWhileIdleHistory)
        } else if allowWhileIdleCompat(alarm) {
            (quota, window, history) = (parameters.allowWhileIdleCompatQuota, parameters.allowWhileIdleCompatWindowMs,
                                        allowWhileIdleCompatHistory)
        } else {
            return now.elapsedRealtimeMs + Self.indefiniteDelayMs
        }
        return Self.quotaFreesAt(history, quota: quota, windowMs: window, nowElapsedMs: now.elapsedRealtimeMs) ?? .min
    }

    /// Whether forced app standby ("Restricted") holds `alarm` now: the app's uid is idle and the
    /// alarm is not an alarm clock (``backgroundRestrictionEarliest(_:)``). Such an alarm is sent the
    /// moment the uid becomes active.
    public func isHeldByBackgroundRestriction(_ alarm: PendingAlarm) -> Bool {
        backgroundRestrictionEarliest(alarm.deliveryTerms) != .min
    }

    /// AMS `INDEFINITE_DELAY`: 365 days, ms.
    static let indefiniteDelayMs: Int64 = 31_536_000_000

    /// Forced app standby ("Restricted" battery usage): while the app's uid is not active, AMS moves
    /// each due alarm but an alarm clock to `mPendingBackgroundAlarms` and sends it when the app is
    /// unblocked (`isBackgroundRestricted`, `unblockAlarmsForUid` → `sendPendingBackgroundAlarmsLocked`);
    /// here it stays pending, due no earlier than a year on, until the uid is active or the setting
    /// changes. AOSP AlarmManagerServiceTest `testAlarmRestrictedByFAS`.
    func backgroundRestrictionEarliest(_ alarm: DeliveryTerms) -> Int64 {
        guard parameters.batteryUsage == .restricted, !appActive, alarm.method != .setAlarmClock else { return .min }
        return now.elapsedRealtimeMs + Self.indefiniteDelayMs
    }

    /// When a rolling-window quota admits one more event: nil if it admits one now, else the time
    /// the `quota`-th most recent event leaves the window (AppWakeupHistory `getNthLastWakeupForPackage`).
    static func quotaFreesAt(_ history: [Int64], quota: Int, windowMs: Int64, nowElapsedMs: Int64) -> Int64? {
        let inWindow = history.filter { $0 > nowElapsedMs - windowMs }
        guard inWindow.count >= quota else { return nil }
        guard quota > 0 else { return nowElapsedMs + 31_536_000_000 }
        return inWindow[inWindow.count - quota] + windowMs
    }

    /// AMS `LazyAlarmStore.getNextWakeupDeliveryTime`: walking alarms by earliest delivery, the
    /// device wakes at the smallest window end among those that can share one wakeup, so inexact
    /// alarms batch and nothing is delivered early.
    ///
    /// That walk's answer is the smallest window end of all: each alarm's window ends no earlier
    /// than it opens (``deliveryBounds(_:)``), so every alarm the walk reaches before the one with
    /// the smallest end opens no later than that end, which bounds the running minimum from below,
    /// and the walk reaches it. So it is computed in one pass, without the sort (issue 20: the
    /// walk sorted every pending alarm at every re-arm).
    func nextDeliveryElapsed(wakeupOnly: Bool) -> Int64? {
        pending.withUnsafeBufferPointer { alarms in  // each alarm read in place: an array's subscript copied it
            var next: Int64?
            for index in alarms.indices where !wakeupOnly || alarms[index].type.isWakeup {
                // The terms from the fields in place (``DeliveryTerms/init(of:)``).
                let end = deliveryBounds(DeliveryTerms(of: alarms[index])).maxWhenElapsedMs
                next = min(next ?? end, end)
            }
            return next
        }
    }

    /// `fault late-delivery` on Android: the wakeup alarm that would be delivered first now is held
    /// back `ms` (setAlarmClock included), and the kernel alarm re-armed for its new time. AMS
    /// itself never defers an alarm clock (PLATFORMS.md: setAlarmClock row), but its delivery is
    /// a broadcast: AMS sends the PendingIntent through the serial ordered-broadcast queue
    /// (`BroadcastQueue`, a receiver may hold it up to its 10 s / 60 s timeout), a cold process
    /// start comes first, and OEM battery managers hold alarm broadcasts, alarm clocks included
    /// (PLATFORMS.md field row: alarm#365, #439; dontkillmyapp.com). The delivery log keeps the
    /// nominal due time, so the delivery counts as late (AND-19, INACT-3).
    ///
    /// - Parameter ms: The hold, virtual ms from now.
    /// - Returns: The held alarm, or nil when no wakeup alarm is due now (the hold waits).
    public mutating func holdNextDue(forMs ms: Int64) -> AlarmUUID? {
        guard poweredOn else { return nil }
        let nowElapsed = now.elapsedRealtimeMs
        let due = pending.filter { $0.type.isWakeup && $0.heldUntilElapsedMs == nil && deliveryBounds($0).whenElapsedMs <= nowElapsed }
            .sorted { ($0.whenElapsedMs, $0.tieBreak) < ($1.whenElapsedMs, $1.tieBreak) }
        guard let first = due.first, let index = pending.firstIndex(where: { $0.requestCode == first.requestCode }) else { return nil }
        pending[index].heldUntilElapsedMs = nowElapsed + ms
        return first.id
    }

    /// The next instant the model must run: a wakeup delivery, a doze step, or (screen on) any delivery.
    func nextKernelAlarmElapsed() -> Int64? {
        // The least of the candidates, kept as they come (issue 20: an array of them was built
        // at every re-arm).
        var next: Int64?
        func consider(_ candidate: Int64) { next = min(next ?? candidate, candidate) }
        if let wakeup = nextDeliveryElapsed(wakeupOnly: true) { consider(wakeup) }
        if screenOn, let any = nextDeliveryElapsed(wakeupOnly: false) { consider(any) }
        switch doze {
        case .inactive: break
        case .idle(let until, _), .maintenance(let until, _): consider(until)
        }
        return next.map { max($0, now.elapsedRealtimeMs) }
    }

    /// Sets the kernel alarm to the next instant the model must run (AMS `rescheduleKernelAlarmsLocked`).
    mutating func rearmKernelAlarm() -> [AlarmManagerEffect] {
        guard poweredOn, let next = nextKernelAlarmElapsed() else {
            kernelAlarmElapsedMs = nil
            return []
        }
        guard next != kernelAlarmElapsedMs else { return [] }
        kernelAlarmToken += 1
        kernelAlarmElapsedMs = next
        return [.later(.wakeup(token: kernelAlarmToken, atElapsedMs: next), afterMs: next - now.elapsedRealtimeMs)]
    }

    /// Runs a timed event at `now` (the host's clocks).
    public mutating func handle(_ event: AlarmManagerEvent, now: AndroidInstant) -> [AlarmManagerEffect] {
        var effects = observe(now)
        effects += handle(event)
        return effects
    }

    /// Runs a timed event. Without `observe(_:)` from the host, the event's own due time moves the
    /// model's clock.
    public mutating func handle(_ event: AlarmManagerEvent) -> [AlarmManagerEffect] {
        switch event {
        case .fire:
            guard poweredOn else { return [] }
            return runKernelAlarm()
        case .wakeup(let token, let atElapsedMs):
            guard poweredOn, token == kernelAlarmToken else { return [] }
            if atElapsedMs > now.elapsedRealtimeMs {
                now = AndroidInstant(elapsedRealtimeMs: atElapsedMs, wallMs: atElapsedMs + wallMinusElapsedMs)
            }
            kernelAlarmElapsedMs = nil
            return runKernelAlarm()
        case .lockedBootBroadcast:
            return lockedBootCompleted()
        case .headsUpCollapse(let id, let token):
            return collapseHeadsUp(id, token: token)
        case .oemKillRinging(let token):
            return oemKillRinging(token: token)
        }
    }

    /// The kernel alarm fired: step doze, deliver what is due, re-arm.
    mutating func runKernelAlarm() -> [AlarmManagerEffect] {
        var effects: [AlarmManagerEffect] = []
        let flushFromDoze = stepDoze(&effects)
        effects += deliverDue(flushNonWakeup: screenOn || flushFromDoze)
        effects += rearmKernelAlarm()
        return effects
    }

    /// Delivers every alarm due now. Non-wakeup alarms go only with a wakeup delivery, a doze
    /// maintenance wakeup or while the screen is on; otherwise they are held (AMS
    /// `checkAllowNonWakeupDelayLocked`, `mPendingNonWakeupAlarms`).
    ///
    /// Order: by requested time, then the tie-break (set order, or a seeded draw: AMS leaves equal
    /// times unspecified). The batch is fixed before the first delivery (AMS `triggerAlarmsLocked`
    /// removes every alarm whose policy time has come, then `deliverAlarmsLocked` sends them all):
    /// two alarms due together with one quota slot left are both delivered, and the quota
    /// histories count the batch once (AMS `AppWakeupHistory.recordAlarmForPackage` keeps one
    /// entry per elapsed ms). Quotas apply again from the next batch.
    mutating func deliverDue(flushNonWakeup: Bool) -> [AlarmManagerEffect] {
        let nowElapsed = now.elapsedRealtimeMs
        // Each alarm's terms read in place; only a due one is copied (issue 20: `filter` copied
        // every pending alarm, metadata and all, at every screen or activity change).
        var due: [PendingAlarm] = pending.withUnsafeBufferPointer { alarms in
            var due: [PendingAlarm] = []
            for index in alarms.indices {
                if deliveryBounds(DeliveryTerms(of: alarms[index])).whenElapsedMs <= nowElapsed { due.append(alarms[index]) }
            }
            return due
        }
        guard !due.isEmpty else { return [] }
        if !flushNonWakeup && !due.contains(where: { $0.type.isWakeup }) { return [] }
        due.sort { ($0.whenElapsedMs, $0.tieBreak) < ($1.whenElapsedMs, $1.tieBreak) }
        var effects: [AlarmManagerEffect] = []
        for candidate in due {
            guard let alarm = alarm(requestCode: candidate.requestCode), alarm.generation == candidate.generation else { continue }
            effects += deliver(alarm)
        }
        return effects
    }

    /// One delivery: the broadcast, the quota histories, the next occurrence of a repeating alarm
    /// (AMS `triggerAlarmsLocked`: count = 1 + missed intervals; the next trigger keeps the phase).
    mutating func deliver(_ alarm: PendingAlarm) -> [AlarmManagerEffect] {
        let nowElapsed = now.elapsedRealtimeMs
        pending.removeAll { $0.requestCode == alarm.requestCode }
        changeCounter += 1
        if alarm.intentCancelled {
            // AMS `deliverLocked`: `send` throws CanceledException; a repeating alarm is removed
            // too (`removeImpl`), nothing is recorded (AOSP `alarmCountOnExceptionWhileSendingPi`).
            return [.trace("send-cancelled-pending-intent", [TraceField("id", alarm.id.description)])]
        }
        var count = 1
        if alarm.intervalMs > 0 {
            count += Int((nowElapsed - alarm.whenElapsedMs) / alarm.intervalMs)
            let delta = Int64(count) * alarm.intervalMs
            var next = alarm
            next.heldUntilElapsedMs = nil
            next.whenElapsedMs = alarm.whenElapsedMs + delta
            next.requestedTriggerMs = alarm.requestedTriggerMs + delta
            next.triggerWallMs = alarm.triggerWallMs + delta
            next.windowLengthMs = Self.maxTriggerTime(nowElapsedMs: nowElapsed, triggerElapsedMs: next.whenElapsedMs,
                                                      intervalMs: alarm.intervalMs) - next.whenElapsedMs
            next.generation = changeCounter
            if !parameters.seededEqualTimeOrder { next.tieBreak = changeCounter }
            pending.append(next)
            pending.sort { $0.requestCode < $1.requestCode }
        }
        record(alarm, nowElapsed: nowElapsed)
        deliveryLog.append(AlarmDelivery(id: alarm.id, requestCode: alarm.requestCode, method: alarm.method, type: alarm.type,
                                         deliveredElapsedMs: nowElapsed, dueElapsedMs: alarm.whenElapsedMs, count: count,
                                         triggerWallMs: alarm.triggerWallMs))
        if deliveryLog.count > Self.deliveryLogLimit { deliveryLog.removeFirst(deliveryLog.count - Self.deliveryLogLimit) }
        var effects: [AlarmManagerEffect] = [.toApp(.alarmDelivered(alarm.id), launch: .broadcast)]
        if count > 1 { effects.append(.broadcast(.alarmCount(alarm.id, count: count), launch: nil)) }
        effects.append(traceEffect("delivered", [TraceField("id", alarm.id.description)] + (count > 1 ? [TraceField("count", String(count))] : [])))
        return effects
    }

    /// Counts a delivery against the quotas that govern it; histories keep 24 h.
    ///
    /// AMS `DeliveryTracker.deliverLocked`: every non-exempt delivery counts for the standby bucket,
    /// wakeup or not (the history's name notwithstanding); allow-while-idle deliveries count only
    /// while the device is in doze idle (`mPendingIdleUntil != null`) or Battery Saver acts
    /// (`isForceAllAppsStandbyEnabled`); `AppWakeupHistory.recordAlarmForPackage` adds an instant only if it is later than
    /// the last one, so a batch delivered at one elapsed ms counts once.
    mutating func record(_ alarm: PendingAlarm, nowElapsed: Int64) {
        if !exemptFromStandby(alarm) { Self.recordOnce(&standbyHistory, nowElapsed) }
        var dozeIdle = false
        if case .idle = doze { dozeIdle = true }
        if dozeIdle || batterySaverActive {
            if allowWhileIdleExact(alarm) { Self.recordOnce(&allowWhileIdleHistory, nowElapsed) }
            if allowWhileIdleCompat(alarm) { Self.recordOnce(&allowWhileIdleCompatHistory, nowElapsed) }
        }
        let horizon = nowElapsed - max(parameters.restrictedWindowMs, parameters.standbyWindowMs)
        standbyHistory.removeAll { $0 <= horizon }
        let idleHorizon = nowElapsed - parameters.allowWhileIdleWindowMs
        let compatHorizon = nowElapsed - parameters.allowWhileIdleCompatWindowMs
        allowWhileIdleHistory.removeAll { $0 <= idleHorizon }
        allowWhileIdleCompatHistory.removeAll { $0 <= compatHorizon }
    }

    /// AMS `AppWakeupHistory.recordAlarmForPackage`: appends `nowElapsed` unless the last entry is
    /// already at or after it (one entry per delivery batch).
    static func recordOnce(_ history: inout [Int64], _ nowElapsed: Int64) {
        if let last = history.last, last >= nowElapsed { return }
        history.append(nowElapsed)
    }
}

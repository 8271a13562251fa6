import AlarmBridge

/// A first-draft alarm bridge, written the way a team writes its first version: it works on the
/// happy path (save an alarm, it rings, Stop silences it) and has the habits that seeds/000..004
/// report from the field. It is here to be caught: Examples/Tests runs it through alarmsim.
///
/// Its habits, each a believable shortcut, not a strawman:
/// - every resume, boot, save and Stop *reschedules everything*: cancel every ring it knows,
///   schedule each enabled alarm's next ring again (even one that is alerting right now);
/// - a store it cannot read (before first unlock) is read as *empty*, and it starts fresh;
/// - a refused schedule request is retried *once*, then forgotten;
/// - a save is read back from the platform once its rings were accepted, and reported saved
///   whatever the read showed;
/// - ring IDs are derived from the alarm's *title* and time (easy to debug in logs);
/// - Stop ends the alarm: there is no wake occurrence, no successor ring, no snooze, no
///   challenge, no pass-over handling when two alarms fall due together.
public struct NaiveBridge: BridgeUnderTest {
    /// The platform it runs on (from the configuration).
    let flavor: PlatformFlavor
    /// The device zone, re-read from the clock on every step.
    var calendar: WallCalendar
    /// Its state, persisted whole after every change (the store's vocabulary).
    public private(set) var document: BridgeDocument?
    /// Alarms saved by JS with the rings the platform has not accepted yet.
    var savesAwaitingRings: [(alarmID: String, rings: [AlarmUUID])] = []
    /// Ring IDs already retried once.
    var retried: [AlarmUUID] = []
    /// Rings it started (Android) or saw alerting (iOS).
    public private(set) var believedAlerting: [AlarmUUID] = []

    /// A new process: empty memory.
    ///
    /// - Parameter configuration: Only the platform and the zone are used.
    public init(configuration: BridgeConfiguration) {
        flavor = configuration.flavor
        calendar = configuration.calendar
    }

    /// Loading until the store read came back, then ready.
    public var phase: BridgePhase { document == nil ? .loading : .ready }

    /// One step; see the type's comment for its habits.
    ///
    /// - Parameter input: The platform callback, completion or JS call.
    /// - Parameter now: Virtual wall and monotonic ms and the device zone.
    /// - Returns: Its requests, in order.
    public mutating func handle(_ input: BridgeInput, at now: BridgeInstants) -> [BridgeCommand] {
        if let zone = now.zoneIdentifier, zone != calendar.zoneIdentifier, let current = WallCalendar(zoneIdentifier: zone) {
            calendar = current
        }
        switch input {
        case .processStarted:
            return [.loadStore]
        case .storeLoaded(let result):
            // "No store yet" and "store not readable yet" look the same here: start fresh.
            document = (try? result.get()).flatMap { $0 } ?? BridgeDocument()
            return rescheduleEverything(now: now)
        case .didBecomeActive, .bootCompleted, .packageReplaced, .clockChanged, .exactAlarmPermissionGranted:
            return document == nil ? [] : rescheduleEverything(now: now)
        case .api(let call):
            return handleAPI(call, now: now)
        case .scheduleCompleted(let id, .failure):
            return retryOnce(id)
        case .scheduleCompleted(let id, .success):
            return ringAccepted(id)
        case .inventoryRead(.verifySave(let alarmID), _):
            return [.reply(.saved(alarmID: alarmID))]
        case .alarmUpdates(let alarms):
            believedAlerting = alarms.filter { $0.state == .alerting }.map(\.id).sorted()
            return []
        case .alarmDelivered(let id):
            believedAlerting.append(id)
            return [.startRinging(id)]
        case .stopIntent(let id), .ringDismissed(let id):
            believedAlerting.removeAll { $0 == id }
            return [.stop(id, origin: .lifecycle)] + (document == nil ? [] : rescheduleEverything(now: now))
        default:
            return []
        }
    }

    /// The JS API: saves and deletes reschedule everything; a few queries get simple answers.
    mutating func handleAPI(_ call: APICall, now: BridgeInstants) -> [BridgeCommand] {
        switch call {
        case .saveAlarm(let alarm):
            var current = document ?? BridgeDocument()
            current.alarms.removeAll { $0.id == alarm.id }
            current.alarms.append(alarm)
            document = current
            // Once the platform accepted its ring, read the list back before telling JS it is saved.
            let commands = rescheduleEverything(now: now)
            guard document?.rings.contains(where: { $0.metadata.alarmID == alarm.id }) == true else {
                return commands + [.readInventory(.verifySave(alarmID: alarm.id))]
            }
            let rings = document?.rings.filter { $0.metadata.alarmID == alarm.id }.map(\.id) ?? []
            savesAwaitingRings.removeAll { $0.alarmID == alarm.id }
            savesAwaitingRings.append((alarm.id, rings))
            return commands
        case .deleteAlarm(let id):
            document?.alarms.removeAll { $0.id == id }
            return rescheduleEverything(now: now)
        case .syncEnabledAlarms:
            return rescheduleEverything(now: now)
        case .completeChallenge(let rootID, _):
            return [.reply(.completed(rootID: rootID, accepted: true))]
        case .getActiveWakeOccurrence:
            return [.reply(.activeWakeOccurrence(nil))]
        case .getAlertingAlarmIds:
            return [.reply(.alertingAlarmIDs([]))]
        default:
            return []
        }
    }

    /// Cancel every ring it knows, schedule every enabled alarm's next ring, persist.
    mutating func rescheduleEverything(now: BridgeInstants) -> [BridgeCommand] {
        var current = document ?? BridgeDocument()
        var commands: [BridgeCommand] = current.rings.map { .cancel($0.id, origin: .resumeSync) }
        current.rings = []
        for alarm in current.alarms where alarm.enabled {
            for root in alarm.roots {
                guard let row = nextRing(root, now: now) else { continue }
                current.rings.append(row)
                commands.append(.schedule(request(row), origin: .resumeSync))
            }
        }
        retried = []
        document = current
        commands.append(.persist(current))
        return commands
    }

    /// A root's next ring: its one-shot instant if still ahead, else the next local hour:minute.
    func nextRing(_ root: Root, now: BridgeInstants) -> RingRow? {
        let fire: Int64
        if let once = root.onceFireWallMs {
            guard once > now.wallMs else { return nil }
            fire = once
        } else {
            fire = calendar.nextFire(hour: root.hour, minute: root.minute, weekday: root.weekday, after: now.wallMs)
        }
        // The title makes IDs readable in logs.
        let id = AlarmUUID.v5(namespace: RingIdentity.namespace, name: "\(root.title)|\(root.hour):\(root.minute)|\(root.weekday.map { "\($0)" } ?? "once")")
        let metadata = RingMetadata(rootID: root.id, alarmID: root.alarmID, kind: .primary, token: nil, title: root.title)
        return RingRow(id: id, schedule: .fixed(wallMs: fire), fireWallMs: fire, metadata: metadata, fingerprint: root.title,
                       publishedAtMs: now.wallMs, confirmed: false, delivered: false)
    }

    /// The schedule request of a row.
    func request(_ row: RingRow) -> RingRequest {
        RingRequest(id: row.id, schedule: row.schedule, fireWallMs: row.fireWallMs, metadata: row.metadata)
    }

    /// A ring the platform accepted: once a saved alarm's rings all are, read the list back.
    mutating func ringAccepted(_ id: AlarmUUID) -> [BridgeCommand] {
        var commands: [BridgeCommand] = []
        for index in savesAwaitingRings.indices { savesAwaitingRings[index].rings.removeAll { $0 == id } }
        for save in savesAwaitingRings where save.rings.isEmpty {
            commands.append(.readInventory(.verifySave(alarmID: save.alarmID)))
        }
        savesAwaitingRings.removeAll { $0.rings.isEmpty }
        return commands
    }

    /// A refused request is asked again once.
    mutating func retryOnce(_ id: AlarmUUID) -> [BridgeCommand] {
        guard !retried.contains(id), let row = document?.rings.first(where: { $0.id == id }) else { return [] }
        retried.append(id)
        return [.schedule(request(row), origin: .resumeSync)]
    }
}

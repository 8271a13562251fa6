/// The port the simulator drives: any alarm bridge written in the sans-I/O style of
/// ``BridgeCore`` (DESIGN.md, "The bridge is sans-I/O"). ``BridgeCore`` is the built-in
/// conformer; a team with a bridge of its own conforms its type and hands it to the harness
/// (`Simulation.BridgeFactory`, the `AlarmSimHarness` library).
///
/// The vocabulary is the bridge's own: ``BridgeInput`` in, ``BridgeCommand`` out, the store as
/// ``BridgeDocument`` values (`persist` / `storeLoaded`). The simulator never reads a conformer's
/// private state; the oracle judges from the platform model (what is really pending, alerting,
/// audible) and from the store bytes the world holds. Only the properties below reach the
/// harness, each for a named reason. All but ``handle(_:at:)``, ``document`` and
/// ``init(configuration:)`` have defaults for a bridge that cannot answer; each property names
/// the checks that read it and what they do under the default (most get weaker; where the
/// bridge's own claim is the excuse, e.g. ``foregroundSuppressed``, no claim means no excuse).
///
/// A conformer must have value semantics (a struct of values, like ``BridgeCore``): the world
/// copies it for the `idempotent-sync` probe (SCH-20), which runs the same sync again on the copy
/// and compares the requests; a class would be mutated by the probe.
public protocol BridgeUnderTest: Sendable {
    /// A bridge as a new process creates it: empty memory. The configuration carries the
    /// platform, the seed's constants and the built-in bridge's known-defect switches (a foreign
    /// bridge may ignore what it has no use for).
    ///
    /// - Parameter configuration: Per-run constants; durations in virtual milliseconds.
    init(configuration: BridgeConfiguration)

    /// One synchronous step: the bridge takes one platform or app input at `now` and returns the
    /// requests it makes, in order. A request that takes time on a phone completes later as its
    /// own input. Process death discards the value; only what it persisted survives.
    ///
    /// - Parameter input: The platform callback, completion, intent or JS API call.
    /// - Parameter now: The instants the bridge may read (virtual wall and monotonic ms, zone,
    ///   boot count).
    /// - Returns: Commands for the platform model, executed in order.
    mutating func handle(_ input: BridgeInput, at now: BridgeInstants) -> [BridgeCommand]

    /// The bridge's state in its persistence vocabulary, as its public API would answer it (nil
    /// before the store was read). The harness reads it for two things only:
    /// - the app model (the JS layer) asks it what `getActiveWakeOccurrence()` (API-11) and the
    ///   audible-alarm record (API-5) would answer, to pick the root it completes, snoozes or
    ///   walks for;
    /// - checks that judge the bridge's *own* record against the platform, e.g.
    ///   `honest-audible-record` and `action-journal` (ACT-3, ACT-4), and the oracle's adoption of
    ///   the bridge's reading where RULES.md leaves an instant ambiguous (REC-9 `[limit]`).
    ///   Where the bridge holds no document, those fall back to the persisted store.
    var document: BridgeDocument? { get }

    /// Where the launch is (BOOT-4, BOOT-5): `.ready` once the store is read and the gate
    /// released. The world counts a ready step as one that saw the platform (the oracle's
    /// "first execution after", REC-9 clock readings, the `idempotent-sync` probe SCH-20, the
    /// pass-over and missed-day notes OCC-3, API-20), and `launch-gate` judges a `.gated` bridge
    /// against the store and the daemon (BOOT-4). Default: `.ready` — then those clocks start at
    /// the first step and `launch-gate` never applies.
    var phase: BridgePhase { get }

    /// True once the bridge acts on inputs as they come (ready, launch inventory observed). The
    /// app model sends its JS calls only then; the reaction windows of
    /// `one-successor-per-occurrence` (a Stop acted on, OCC-6), the walk checks (WALK-*) and
    /// `foreground-silence` (FG-1), and the oracle's credit of a dismissal that waited for the
    /// gate (INACT-6), start from it. Default: `phase == .ready`.
    var isAcceptingInputs: Bool { get }

    /// True while a schedule request awaits its completion: `convergence` (liveness) waits for
    /// it, the `idempotent-sync` probe (SCH-20) waits for it, and a death mid-restore is charged
    /// to every root while it holds (AND-3). Default: false — no such grace.
    var hasRequestsInFlight: Bool { get }

    /// True while a sync is deferred or awaits a follow-up (SCH-22, SCH-23): the
    /// `idempotent-sync` probe (SCH-20) and the interrupted-save check (API-19) wait for it.
    /// Default: false.
    var hasPendingSyncWork: Bool { get }

    /// Exact primaries the bridge deliberately consumed while the app stayed in the foreground
    /// (FG-2, SCH-17). `convergence` accepts exactly these (root, occurrence) as registered, and
    /// `registered-means-present` demands they die with a clock or zone change (SCH-18).
    /// Default: none — a bridge that suppresses without saying so is judged unregistered.
    var foregroundSuppressed: [ForegroundSuppressedProof] { get }

    /// Rings the bridge believes are alerting (iOS: from `alarmUpdates`; Android: its ringing
    /// service): `foreground-silence` (FG-1) dates its window from the bridge's observation, and
    /// the sound checks note what it believed (SND-*). Default: none (windows then start at the
    /// platform's alert).
    var believedAlerting: [AlarmUUID] { get }

    /// The native lifecycle's view of the challenge being rendered: `no-stale-suppression`
    /// (FG-13) checks it against what JS really shows. Default: false (never stale).
    var challengeScreenVisible: Bool { get }

    /// True while the remote kill switch disabled scheduling (BOOT-12): `fail-open` holds the
    /// bridge to its declaration. Default: false (scheduling never disabled).
    var remoteSchedulingDisabled: Bool { get }

    /// True while the loaded document was written by an older version and is not yet migrated
    /// (BOOT-9): `legacy-migration` judges the commands of each step that began with an older
    /// document and ended with this false (the step that migrated it). Default: false — then every
    /// step while the bridge holds an older document is judged as a migration step (stricter: a
    /// bridge that never migrates is held to BOOT-9/BOOT-10 on each of them).
    var needsMigration: Bool { get }
}

/// Where a bridge's launch is (``BridgeUnderTest/phase``): the built-in bridge's phases.
public typealias BridgePhase = BridgeCore.Phase

/// The defaults for a bridge that cannot answer; each property's comment says which checks
/// then weaken.
extension BridgeUnderTest {
    /// `.ready`: the bridge never holds a launch gate.
    public var phase: BridgePhase { .ready }
    /// Ready means accepting.
    public var isAcceptingInputs: Bool { phase == .ready }
    /// Never waiting for a completion.
    public var hasRequestsInFlight: Bool { false }
    /// No deferred sync.
    public var hasPendingSyncWork: Bool { false }
    /// No foreground-suppression proofs.
    public var foregroundSuppressed: [ForegroundSuppressedProof] { [] }
    /// Believes nothing is alerting.
    public var believedAlerting: [AlarmUUID] { [] }
    /// No challenge screen.
    public var challengeScreenVisible: Bool { false }
    /// No kill switch.
    public var remoteSchedulingDisabled: Bool { false }
    /// Never migrating.
    public var needsMigration: Bool { false }
}

/// The built-in bridge: every property is its own (BridgeCore.swift and its extensions).
extension BridgeCore: BridgeUnderTest {}

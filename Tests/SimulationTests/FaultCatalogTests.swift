import AlarmBridge
@testable import Simulation
import SimKernel
import Testing

/// The fault catalog, the profiles and the per-kind streams (issue 7).
@Suite("Fault catalog and profiles")
struct FaultCatalogTests {
    static let seeds: [UInt64] = [1, 2, 3, 7, 42, 99]
    static let platforms: [PlatformFlavorName] = [.ios, .android]

    /// Plan actions that only a fault puts there (user-level ones such as opening the app are
    /// also made by the sleepy user, so the tags decide those).
    static func isFaultAction(_ action: PlanAction) -> Bool {
        switch action {
        case .deviceReboot, .faultProcessDeath, .faultScheduleFailure, .faultInventoryReadFailure, .faultCapacity,
             .faultRevokeExactPermission, .faultGrantExactPermission, .faultCoalesceUpdates, .deviceTimeZone,
             .deviceSetClock, .deviceSilentMode, .userReinstall, .faultOSRemovesAlarm, .faultLateDelivery, .deviceDoze,
             .deviceCharging, .userAppUpdate, .faultForceStop, .faultAudioFocus, .faultPlaybackFailure, .faultKillSwitch,
             .faultAppStateWriteFailure, .faultWorkoutLost, .userSetHealthAccess, .userForceQuit, .userUnlock,
             .faultWrongInstantAlert, .faultGhostAlert, .faultOSUpdate:
            return true
        default:
            return false
        }
    }

    @Test("catalog names are unique, kebab-case, and every kind has a summary, platforms, rules and a rate")
    func catalogShape() {
        let names = FaultCatalog.all.map(\.name)
        #expect(Set(names).count == names.count)
        for kind in FaultCatalog.all {
            #expect(FaultKind.isKebabCase(kind.name), "\(kind.name)")
            #expect(!kind.summary.isEmpty && !kind.summary.contains("\n"), "\(kind.name)")
            #expect(!kind.platforms.isEmpty && !kind.rules.isEmpty, "\(kind.name)")
            #expect(kind.rate.numerator > 0, "\(kind.name): a kind switched on must be able to happen")
            #expect(FaultCatalog.kind(named: kind.name) == kind)
            for other in kind.modifies { #expect(FaultCatalog.kind(named: other) != nil, "\(kind.name) modifies \(other)") }
        }
        #expect(!FaultKind.isKebabCase("Reboot") && !FaultKind.isKebabCase("a--b") && !FaultKind.isKebabCase("-a"))
    }

    @Test("the none profile plans no fault action and its runs count no fault exemption", arguments: platforms)
    func noneProfile(platform: PlatformFlavorName) {
        let none = FaultSelection(profile: .none)
        let faultExemptions = Set(FaultCatalog.all.flatMap(\.exemptions))
        for seed in Self.seeds {
            let generated = SeedGenerator.generate(platform: platform.flavor, seed: seed, selection: none)
            #expect(generated.faults.on.isEmpty)
            #expect(generated.taggedPlan.allSatisfy { $0.kind == nil })
            #expect(!generated.taggedPlan.contains { Self.isFaultAction($0.action.action) }, "seed \(seed)")
            #expect(generated.setup.interleavingDeathRate == nil && generated.setup.requestFailureRate == nil)
            #expect(generated.setup.killSwitchFailureRate == nil && generated.setup.legacyInstall == nil)
            #expect(generated.parameters.contains(RunParameter("faults", "none")))
            let result = Simulator.run(RunOptions(platform: platform.flavor, seed: seed, faults: none))
            #expect(result.firstViolation == nil, "seed \(seed): \(result.firstViolation?.message ?? "")")
            let counted = result.exemptions.map(\.name).filter { faultExemptions.contains($0) }
            #expect(counted.isEmpty, "seed \(seed): \(counted)")
        }
    }

    @Test("the uniform profile turns every applicable kind on at its catalog rate", arguments: platforms)
    func uniformProfile(platform: PlatformFlavorName) {
        for seed in Self.seeds {
            let generated = SeedGenerator.generate(platform: platform.flavor, seed: seed, selection: FaultSelection(profile: .uniform))
            let hasWalk = generated.setup.alarms.contains(where: \.challenge.isWalk)
            for kind in FaultCatalog.all where kind.platforms.contains(platform.flavor) {
                var applicable = true
                // AND-1, issue 18: wherever the SCHEDULE_EXACT_ALARM app-op governs (31/32, or 33+
                // for a manifest declaring only it, an app targeting 31+).
                if kind == FaultCatalog.exactPermissionRevoke { applicable = generated.setup.android.exactAlarmAppOpGoverns }
                if kind.forcedOnly { applicable = false }  // on only when forced (--faults)
                if [FaultCatalog.healthAccessRevoked, FaultCatalog.workoutLoss, FaultCatalog.walkForceQuit].contains(kind) {
                    applicable = hasWalk
                }
                #expect(generated.faults.rate(kind) == (applicable ? kind.rate : nil), "seed \(seed) \(kind.name)")
            }
            for kind in FaultCatalog.all where !kind.platforms.contains(platform.flavor) {
                #expect(!generated.faults.isOn(kind))
            }
        }
    }

    @Test("--faults -x removes every action of kind x from the plan, and +x forces x on", arguments: platforms)
    func forcedOffRemovesActions(platform: PlatformFlavorName) throws {
        let kinds = FaultCatalog.all.filter { $0.platforms.contains(platform.flavor) }
        for seed in Self.seeds {
            let uniform = SeedGenerator.generate(platform: platform.flavor, seed: seed, selection: FaultSelection(profile: .uniform))
            for kind in kinds {
                let off = try FaultSelection.parse(profile: "uniform", faults: ["-" + kind.name])
                let generated = SeedGenerator.generate(platform: platform.flavor, seed: seed, selection: off)
                #expect(!generated.faults.isOn(kind))
                #expect(!generated.taggedPlan.contains { $0.kind == kind.name }, "seed \(seed) \(kind.name)")
                #expect(generated.parameters.contains(RunParameter("fault-profile", "uniform -\(kind.name)")))
                let on = try FaultSelection.parse(profile: "none", faults: [kind.name])
                let forced = SeedGenerator.generate(platform: platform.flavor, seed: seed, selection: on)
                // A forced-only kind is off under uniform and on when forced; every other kind is
                // forced exactly as uniform draws it.
                #expect(forced.faults.isOn(kind) == (uniform.faults.isOn(kind) || kind.forcedOnly), "seed \(seed) \(kind.name)")
                #expect(forced.faults.on.count == (forced.faults.isOn(kind) ? 1 : 0))
            }
        }
    }

    @Test("stream stability: forcing one kind off leaves every other kind's plan actions identical",
          arguments: platforms)
    func streamStability(platform: PlatformFlavorName) throws {
        let kinds = FaultCatalog.all.filter { $0.platforms.contains(platform.flavor) && !$0.reshapesWorld }
        for profile in [FaultProfile.swarm, .uniform] {
            for seed in Self.seeds {
                let base = SeedGenerator.generate(platform: platform.flavor, seed: seed, selection: FaultSelection(profile: profile))
                for kind in kinds {
                    let selection = try FaultSelection.parse(profile: profile.rawValue, faults: ["-" + kind.name])
                    let without = SeedGenerator.generate(platform: platform.flavor, seed: seed, selection: selection)
                    let untouched = { (tagged: TaggedAction) in tagged.kind != kind.name && !kind.modifies.contains(tagged.kind ?? "") }
                    // Every other kind's actions, and the user's, stay byte-identical and in order.
                    #expect(base.taggedPlan.filter(untouched) == without.taggedPlan.filter(untouched), "\(profile) seed \(seed) -\(kind.name)")
                    // Every other kind keeps its switch and its rate.
                    #expect(base.faults.on.filter { $0.kind != kind }.map(\.rate) == without.faults.on.map(\.rate))
                    #expect(base.faults.on.filter { $0.kind != kind }.map(\.kind.name) == without.faults.on.map(\.kind.name))
                }
            }
        }
    }

    @Test("swarm rates stay within half to twice the catalog rate, and each seed prints its effective profile")
    func swarmRates() {
        for seed in UInt64(1)...40 {
            for platform in Self.platforms {
                let generated = SeedGenerator.generate(platform: platform.flavor, seed: seed, selection: .swarm)
                for (kind, rate) in generated.faults.on {
                    #expect([kind.swarmRate(0), kind.swarmRate(1), kind.swarmRate(2)].contains(rate))
                }
                #expect(generated.parameters.contains(RunParameter("fault-profile", "swarm")))
                #expect(generated.parameters.contains(RunParameter("faults", generated.faults.description)))
            }
        }
    }

    @Test("a run with a forced-on kind replays byte for byte")
    func forcedRunDeterministic() throws {
        let selection = try FaultSelection.parse(profile: "none", faults: ["reboot,locked-boot-length"])
        let a = Simulator.run(RunOptions(platform: .ios, seed: 5, faults: selection))
        let b = Simulator.run(RunOptions(platform: .ios, seed: 5, faults: selection))
        #expect(a.traceHashHex == b.traceHashHex)
        #expect(a.faults == selection)
    }

    @Test("the selection parser: profiles, lists, repeats and the default's empty command line")
    func parser() throws {
        #expect(try FaultSelection.parse(profile: nil, faults: []) == .swarm)
        #expect(FaultSelection.swarm.commandLineArguments.isEmpty)
        let selection = try FaultSelection.parse(profile: "uniform", faults: ["reboot,-doze", "force-quit", "reboot"])
        #expect(selection.forcedOn == ["force-quit", "reboot"])
        #expect(selection.forcedOff == ["doze"])
        #expect(selection.commandLineArguments == ["--profile", "uniform", "--faults", "force-quit,reboot,-doze"])
        #expect(try FaultSelection.parse(profile: "swarm", faults: ["-reboot"]).commandLineArguments == ["--faults", "-reboot"])
        #expect(throws: FaultSelectionError.self) { try FaultSelection.parse(profile: "chaos", faults: []) }
        #expect(throws: FaultSelectionError.self) { try FaultSelection.parse(profile: nil, faults: ["gremlins"]) }
        #expect(throws: FaultSelectionError.self) { try FaultSelection.parse(profile: nil, faults: ["reboot,"]) }
        #expect(throws: FaultSelectionError.self) { try FaultSelection.parse(profile: nil, faults: ["reboot,-reboot"]) }
    }
}

import AlarmBridge
@testable import Simulation
import SimKernel
import Testing

/// The legacy install's document is built directly (issue 20); it must be exactly what the older
/// version's JSON — no policy marker on its legacy schedules — decodes to with the current types
/// (INACT-2, INACT-25, BOOT-10).
@Suite("Legacy install document")
struct LegacyInstallTests {
    @Test("the directly built document equals the JSON round trip of what the older version wrote",
          arguments: [PlatformFlavor.ios, .android])
    func directDocumentMatchesRoundTrip(platform: PlatformFlavor) {
        var installs = 0
        for seed in UInt64(1)...400 {
            let generated = SeedGenerator.generate(platform: platform, seed: seed, selection: FaultSelection(profile: .uniform))
            guard let install = generated.setup.legacyInstall else { continue }
            installs += 1
            let unmarked = install.alarms.filter { $0.policy == .legacy }.map(\.id)
            let roundTrip = LegacyInstall.decodeAsWritten(install.document, unmarked: unmarked)
            #expect(roundTrip == install.document, "seed \(seed): the legacy document differs from its JSON round trip")
        }
        #expect(installs > 20, "uniform draws a legacy install in a fair share of seeds")
    }
}

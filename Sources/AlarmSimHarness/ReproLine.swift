import AlarmBridge
import Simulation

/// Parses the repro lines the harness and the CLI print (``Harness/reproLine(_:)``).
enum ReproLine {
    /// The run options a repro line names, for `bridge`.
    ///
    /// - Throws: ``HarnessError`` naming the word that was wrong.
    static func parse(_ line: String, bridge: BridgeFactory) throws(HarnessError) -> RunOptions {
        var words = line.split(separator: " ").map(String.init)[...]
        guard words.popFirst() == "alarmsim", words.popFirst() == "replay" else {
            throw HarnessError("a repro line starts with 'alarmsim replay': \(line)")
        }
        var platform: PlatformFlavor?, seed: UInt64?, defects: [KnownDefect] = [], liveness = true
        var profile: String?, faults: [String] = [], bridgeName = BridgeFactory.builtIn.name
        while let word = words.popFirst() {
            if word == "--no-liveness" { liveness = false; continue }
            guard let value = words.popFirst() else { throw HarnessError("\(word) needs a value in: \(line)") }
            switch word {
            case "--bridge": bridgeName = value
            case "--platform": platform = PlatformFlavor(rawValue: value)
            case "--seed": seed = UInt64(value)
            case "--profile": profile = value
            case "--faults": faults.append(value)
            case "--defect":
                guard let defect = KnownDefect(rawValue: value) else { throw HarnessError("unknown defect \(value) in: \(line)") }
                defects.append(defect)
            default: throw HarnessError("unknown option \(word) in: \(line)")
            }
        }
        guard bridgeName == bridge.name else {
            throw HarnessError("the line replays bridge \(bridgeName), but \(bridge.name) was given")
        }
        guard let platform, let seed else { throw HarnessError("a repro line names --platform ios|android and --seed N: \(line)") }
        let selection: FaultSelection
        do { selection = try FaultSelection.parse(profile: profile, faults: faults) } catch { throw HarnessError(error.message) }
        return RunOptions(platform: platform, seed: seed, defects: defects, faults: selection, liveness: liveness, bridge: bridge)
    }
}

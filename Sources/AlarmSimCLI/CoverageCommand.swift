import AlarmBridge
import Campaign
import Reporting
import Simulation

/// `alarmsim coverage`: runs the default campaign and writes the reachability coverage report
/// (`Reports/coverage.md`), failing when a listed mark was never reached.
struct CoverageCommand: Command {
    static let name = "coverage"
    static let abstract = "Run the default campaign and write which rule-relevant states it reached (default Reports/latest/coverage.md; the committed one: --out Reports/coverage.md)."
    static let usage = "alarmsim coverage [--platform ios|android|both] [--seeds A..B] [--out FILE]"
    static let options = [
        "  --platform ios|android|both  platforms to run, ios first (default: both)",
        "  --seeds A..B|N               root seeds, inclusive (default: 1..1000, as fuzz)",
        "  --out FILE                   the Markdown report to write atomically (default: \(defaultOutPath))",
        "  -h, --help                   show this help",
        "",
        "Runs the fuzz campaign with no defect, writes the report, and prints the fuzz summary and the",
        "coverage table on stdout (progress on stderr). A mark is a reachability probe of",
        "Sources/Simulation/CoverageMarks.swift; 'listed' marks must be reached on each of their platforms.",
        "Exit status: 0 every listed mark reached and no violation, 1 a listed mark unreached or a violation,",
        "64 usage error, 73 the report cannot be written, 74 a write failed.",
    ]
    static let examples = [
        "alarmsim coverage                                              # both platforms, seeds 1..1000",
        "alarmsim coverage --platform android --seeds 1..200 --out /tmp/coverage.md",
    ]

    static let defaultOutPath = "Reports/latest/coverage.md"  // the committed Reports/coverage.md: --out

    var platforms: [PlatformFlavor]
    var seeds: ClosedRange<UInt64>
    var outPath: String
    var outputFiles: [String] { [outPath] }

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, command: Self.name, valuedOptions: ["platform", "seeds", "out"],
                                         allowsPositionals: false)
        platforms = try ArgumentValues.platforms(try parsed.single("platform"))
        seeds = try parsed.single("seeds").map { (text) throws(UsageError) in try ArgumentValues.seedRange(text) }
            ?? FuzzCommand.defaultSeeds
        outPath = try parsed.single("out") ?? Self.defaultOutPath
    }

    /// The command line that regenerates the report, as written into its header.
    var commandLine: String {
        var words = ["alarmsim", "coverage"]
        if platforms.count == 1 { words += ["--platform", platforms[0].rawValue] }
        if seeds != FuzzCommand.defaultSeeds { words += ["--seeds", "\(seeds.lowerBound)..\(seeds.upperBound)"] }
        return words.joined(separator: " ")
    }

    func run(output: inout some TextOutputStream, errors: inout some TextOutputStream,
             environment: CLIEnvironment) -> ExitStatus {
        let options = FuzzOptions(platforms: platforms, seeds: seeds)
        var meter = ProgressMeter(errorsIsTerminal: environment.errorsIsTerminal, elapsedMs: environment.elapsedMs)
        let summary = Campaign.fuzz(options) { progress in
            meter.report(progress, to: &errors)
        }
        output.write(SummaryFormatter.text(summary))
        output.write("\n" + CoverageReport.text(summary))
        do {
            try AtomicFile.write(CoverageReport.markdown(summary, command: commandLine), to: outPath)
        } catch {
            errors.write("error: \(error); \(error.hint)\n")
            return .ioError
        }
        errors.write("coverage: report written to \(outPath)\n")
        for (platform, mark) in Campaign.unreachedListedMarks(summary) {
            errors.write("UNREACHED \(platform.rawValue) \(mark.name) (\(mark.info.rules.joined(separator: ", "))): "
                         + "a generator gap; reach it, or leave it out of the check with a stated reason (Sources/Simulation/CoverageMarks.swift)\n")
        }
        let clean = summary.violationCount == 0 && CoverageReport.unreachedCount(summary) == 0
        return clean ? .success : .violations
    }
}

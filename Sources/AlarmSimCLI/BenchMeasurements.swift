#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import AlarmBridge
import Foundation
import SimKernel
import Simulation

/// The measurements of `alarmsim bench`. Every figure is wall-clock or memory, read from the
/// machine: nothing here feeds a simulation run, and the runs it times are the ordinary
/// deterministic ones. Figures are integers (ns, ms, KiB, counts), never floats.
enum BenchMeasurements {
    /// Nanoseconds elapsed since an arbitrary origin, from the monotonic clock.
    static func nowNs() -> Int64 {
        // determinism-ok: benchmark timing only, never reaches a run
        let reading = ContinuousClock.now - referenceInstant  // determinism-ok: benchmark timing and machine facts, never reach a run
        return reading.components.seconds * 1_000_000_000 + reading.components.attoseconds / 1_000_000_000
    }

    // determinism-ok: benchmark timing origin only
    private static let referenceInstant = ContinuousClock.now  // determinism-ok: benchmark timing and machine facts, never reach a run

    // MARK: - Bare event queue

    /// The bare queue's cost: `events` pops, each followed by one push, on a queue holding
    /// `pending` events (about what a simulated device holds), payload an `Int`.
    struct QueueFigure {
        var events: Int
        var pending: Int
        var wallNs: Int64
        /// A value computed from every popped event, so the optimiser cannot drop the loop.
        var checksum: UInt64
        /// Nanoseconds per event (one pop plus one push), rounded down; at least 1.
        var nsPerEvent: Int64 { max(wallNs / Int64(max(events, 1)), 1) }
    }

    /// Times `events` pop+push pairs on an ``EventQueue`` of `pending` events whose due times
    /// advance by pseudo-random steps of 1…8,192 ms (SplitMix64, fixed seed), like a run's mix of
    /// near and far deadlines.
    static func measureQueue(events: Int, pending: Int = 64) -> QueueFigure {
        precondition(events > 0 && pending > 0, "measureQueue: events and pending must be positive")
        var random = SplitMix64(seed: 0x5EED_0B0E)
        var queue = EventQueue<Int>()
        for index in 0..<pending {
            queue.schedule(index, at: Int64(random.next() & 0x1FFF))
        }
        var checksum: UInt64 = 0
        let startNs = nowNs()
        for _ in 0..<events {
            let next = queue.removeNext()
            checksum &+= next.sequence ^ UInt64(truncatingIfNeeded: next.payload)
            queue.schedule(next.payload &+ 1, at: next.dueMs + 1 + Int64(random.next() & 0x1FFF))
        }
        let wallNs = nowNs() - startNs
        return QueueFigure(events: events, pending: pending, wallNs: wallNs, checksum: checksum)
    }

    // MARK: - Full simulation

    /// One platform's in-process simulation cost over a seed range, as `alarmsim fuzz` runs it
    /// (swarm profile, liveness phase, fuzz-mode trace ring, every invariant after every event).
    struct SimulationFigure {
        var platform: PlatformFlavor
        var seeds: Int
        /// Events the runs processed (popped from the world's queue), summed.
        var events: Int
        /// Virtual time the runs covered, summed, in virtual milliseconds.
        var virtualMs: Int64
        var wallNs: Int64
        /// Seeds that broke an invariant (none expected without defects).
        var failing: Int

        var nsPerEvent: Int64 { max(wallNs / Int64(max(events, 1)), 1) }
        /// Seeds per wall second, in thousandths.
        var milliSeedsPerSecond: Int64 { Int64(seeds) * 1_000_000_000_000 / max(wallNs, 1) }
        /// Virtual milliseconds per wall millisecond ("× real time"), rounded down.
        var timesRealTime: Int64 { virtualMs * 1_000_000 / max(wallNs, 1) }

        static func + (lhs: Self, rhs: Self) -> Self {
            SimulationFigure(platform: lhs.platform, seeds: lhs.seeds + rhs.seeds, events: lhs.events + rhs.events,
                             virtualMs: lhs.virtualMs + rhs.virtualMs, wallNs: lhs.wallNs + rhs.wallNs,
                             failing: lhs.failing + rhs.failing)
        }
    }

    /// Runs seeds `1...seeds` on `platform` in this process, after one warm-up seed (seed 0, not
    /// counted), and times them together.
    static func measureSimulation(platform: PlatformFlavor, seeds: Int) -> SimulationFigure {
        precondition(seeds > 0, "measureSimulation: at least one seed")
        _ = Simulator.run(campaignRunOptions(platform: platform, seed: 0))
        var figure = SimulationFigure(platform: platform, seeds: seeds, events: 0, virtualMs: 0, wallNs: 0, failing: 0)
        let startNs = nowNs()
        for seed in 1...UInt64(seeds) {
            let result = Simulator.run(campaignRunOptions(platform: platform, seed: seed))
            figure.events += result.eventCount
            figure.virtualMs += result.virtualDurationMs
            if result.firstViolation != nil { figure.failing += 1 }
        }
        figure.wallNs = nowNs() - startNs
        return figure
    }

    /// A seed run as a campaign runs it (``Campaign/outcome(platform:seed:options:)``): default
    /// faults and liveness, counting-only trace.
    static func campaignRunOptions(platform: PlatformFlavor, seed: UInt64) -> RunOptions {
        var options = RunOptions(platform: platform, seed: seed)
        options.recordsTrace = false
        return options
    }

    // MARK: - Subprocesses

    /// How a child `alarmsim` ended and what it cost.
    struct ChildRun {
        var arguments: [String]
        /// The exit status, or nil when a signal ended it.
        var exitStatus: Int32?
        /// The signal that ended it, if any.
        var signal: Int32?
        var wallNs: Int64
        /// User plus system CPU time of the child and of every descendant it waited for (its
        /// workers), from `wait4(2)`'s `rusage` (Linux: `RUSAGE_BOTH` at reaping), in ns.
        var cpuNs: Int64 = 0
        /// `ru_maxrss` of `wait4(2)` for the child, in KiB (Linux): the largest of the child and
        /// of every descendant it waited for (its workers).
        var maxRSSKiB: Int
        /// The child's own peak RSS (`VmHWM` of `/proc/PID/status`), last read before it exited.
        var parentPeakKiB: Int?
        /// The largest peak RSS seen among the child's own children (its workers), if any.
        var largestWorkerPeakKiB: Int?
        /// Distinct child processes (workers) seen while sampling.
        var workersSeen: Int
        /// The first line of the child's stderr, for a failure's reason.
        var firstErrorLine: String?

        /// Whether it exited with status 0 or 1 (clean, or violations found).
        var completed: Bool { exitStatus == 0 || exitStatus == 1 }

        /// Why it did not complete, in words.
        var failureReason: String {
            if let signal { return "`alarmsim \(arguments.joined(separator: " "))` died of signal \(signal)" }
            let detail = firstErrorLine.map { ": \($0)" } ?? ""
            return "`alarmsim \(arguments.joined(separator: " "))` exited with status \(exitStatus ?? -1)\(detail)"
        }
    }

    /// Why a child could not be started.
    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `binary arguments…` with stdout discarded and stderr kept in a temporary file,
    /// sampling its and its children's peak RSS every 50 ms until it exits.
    ///
    /// - Throws: ``SpawnError`` when `posix_spawn` fails (the binary is missing, say).
    /// - Parameter stdoutPath: a file for the child's stdout (created or truncated, mode 0600);
    ///   nil sends it to /dev/null.
    static func runChild(binary: String, arguments: [String], stdoutPath: String? = nil) throws(SpawnError) -> ChildRun {
        let errorsPath = FileManager.default.temporaryDirectory.path + "/alarmsim-bench-\(getpid())-stderr.txt"
        defer { unlink(errorsPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdoutPath {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let words = [binary] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        argv.append(nil)
        defer { for word in argv { free(word) } }
        var pid: pid_t = 0
        let startNs = nowNs()
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw SpawnError(description: "cannot start \(binary): \(String(cString: strerror(spawned)))")
        }
        var run = ChildRun(arguments: arguments, exitStatus: nil, signal: nil, wallNs: 0, maxRSSKiB: 0,
                           parentPeakKiB: nil, largestWorkerPeakKiB: nil, workersSeen: 0, firstErrorLine: nil)
        var workerPeaks: [(pid: Int32, peakKiB: Int)] = []
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid { break }
            if waited < 0 && errno != EINTR {
                throw SpawnError(description: "wait4 for \(binary) failed: \(String(cString: strerror(errno)))")
            }
            if let peak = peakKiB(of: pid) { run.parentPeakKiB = peak }
            for worker in children(of: pid) {
                guard let peak = peakKiB(of: worker) else { continue }
                if let index = workerPeaks.firstIndex(where: { $0.pid == worker }) {
                    workerPeaks[index].peakKiB = max(workerPeaks[index].peakKiB, peak)
                } else {
                    workerPeaks.append((worker, peak))
                }
            }
            usleep(50_000)
        }
        run.wallNs = nowNs() - startNs
        let termination = status & 0x7F
        if termination == 0 {
            run.exitStatus = (status >> 8) & 0xFF
        } else {
            run.signal = termination
        }
        run.maxRSSKiB = Int(usage.ru_maxrss)
        run.cpuNs = Self.nanoseconds(usage.ru_utime) + Self.nanoseconds(usage.ru_stime)
        run.workersSeen = workerPeaks.count
        run.largestWorkerPeakKiB = workerPeaks.map(\.peakKiB).max()
        if let errorsText = try? String(contentsOfFile: errorsPath, encoding: .utf8) {
            run.firstErrorLine = errorsText.split(separator: "\n").first.map(String.init)
        }
        return run
    }

    /// A `timeval` in ns.
    static func nanoseconds(_ time: timeval) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_usec) * 1_000
    }

    /// Runs `binary arguments…` and returns its stdout (for `fuzz --help`), or nil when it
    /// cannot be started or does not exit with status 0.
    static func output(of binary: String, _ arguments: [String]) -> String? {
        output(of: binary, arguments, acceptingStatus: [0])
    }

    /// Runs `binary arguments…` and returns its stdout, or nil when it cannot be started or
    /// does not exit with one of `statuses`.
    static func output(of binary: String, _ arguments: [String], acceptingStatus statuses: Set<Int32>) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, statuses.contains(process.terminationStatus) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `VmHWM` (peak resident set) of a live process, in KiB; nil once it is gone.
    static func peakKiB(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// The live children of `pid` (Linux `/proc/PID/task/PID/children`), in the kernel's order.
    static func children(of pid: pid_t) -> [pid_t] {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else { return [] }
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The path of the running executable (`/proc/self/exe`), or `argv[0]` where that is missing.
    static func currentExecutable() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return CommandLine.arguments.first ?? "alarmsim"
    }

    // MARK: - Machine facts

    /// Facts about the machine and the build, one `(name, value)` per line of the report.
    static func machineFacts() -> [(String, String)] {
        var facts: [(String, String)] = []
        facts.append(("cores", "\(ProcessInfo.processInfo.activeProcessorCount) active of \(ProcessInfo.processInfo.processorCount)"))  // determinism-ok: benchmark timing and machine facts, never reach a run
        facts.append(("OS", operatingSystem()))
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let machine = withUnsafeBytes(of: names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        facts.append(("kernel", "\(kernel) \(machine)"))
        facts.append(("memory", "\(ProcessInfo.processInfo.physicalMemory / 1_048_576) MiB"))  // determinism-ok: benchmark timing and machine facts, never reach a run
        facts.append(("compiler", compilerVersion))
        facts.append(("build", buildConfiguration))
        return facts
    }

    static var buildConfiguration: String {
        #if DEBUG
        return "debug (figures are not comparable with a release build)"
        #else
        return "release"
        #endif
    }

    static var compilerVersion: String {
        #if compiler(>=6.4)
        return "Swift 6.4 or later"
        #elseif compiler(>=6.3)
        return "Swift 6.3"
        #elseif compiler(>=6.2)
        return "Swift 6.2"
        #elseif compiler(>=6.1)
        return "Swift 6.1"
        #else
        return "Swift 6.0"
        #endif
    }

    private static func operatingSystem() -> String {
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
            for line in release.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
                return String(line.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return ProcessInfo.processInfo.operatingSystemVersionString  // determinism-ok: benchmark timing and machine facts, never reach a run
    }
}

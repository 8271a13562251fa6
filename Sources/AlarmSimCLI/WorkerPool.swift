#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import AlarmBridge
import Campaign
import Foundation
import Reporting
import Simulation

/// Set by the SIGINT / SIGTERM handler to the signal's number, read by the campaign loop. A
/// signal handler can reach nothing but a global, so this is the one piece of global mutable
/// state in the tool; it never reaches a run (it only stops handing out seeds).
nonisolated(unsafe) private var interruptRequested: sig_atomic_t = 0

/// SIGINT and SIGTERM handling for a campaign: the first Ctrl-C — or the SIGTERM that `timeout`,
/// a CI runner's cancellation or `kill` sends — asks the campaign to stop cleanly
/// (``isRequested``) and write its partial summary; the handler is installed only by the real
/// binary's worker path.
enum Interrupt {
    static let signals = [SIGINT, SIGTERM]

    /// Installs the handler (and ignores SIGPIPE, so writing to a worker that just died is an
    /// error value, not the death of the campaign).
    static func install() {
        signal(SIGPIPE, SIG_IGN)
        // A parent (a test runner, a CI agent) may have started us with the signals blocked; a
        // blocked signal would never reach the handler.
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals {
            signal(number) { received in interruptRequested = received }
            sigaddset(&set, number)
        }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Gives the signals their default action back (after the campaign: Ctrl-C during the shrink
    /// that follows ends the process at once, as usual).
    static func uninstall() {
        for number in signals { signal(number, SIG_DFL) }
    }

    static var isRequested: Bool { interruptRequested != 0 }

    /// The exit status of a campaign the signal stopped: 130 for SIGINT, 143 for SIGTERM.
    static var status: ExitStatus { interruptRequested == SIGTERM ? .terminated : .interrupted }
}

/// Worker subprocesses of the running `alarmsim` (`alarmsim worker …`, WorkerCommand.swift),
/// each with a pipe for requests and one for answers, and at most one seed in flight.
///
/// One thread drives everything with `poll(2)`: hand a seed to every idle worker, wait for
/// answers, fold what arrived. A worker whose stdout closes before it answered has died
/// (a trap, a crash, `exit`): its seed becomes a `crash` outcome with the signal's name and a
/// fresh worker takes its place. Workers run in their own process group, so a terminal's
/// Ctrl-C reaches only the parent, which then stops them itself.
final class WorkerPool {
    private struct Worker {
        var pid: pid_t
        /// The parent's end of the worker's stdin.
        var requests: Int32
        /// The parent's end of the worker's stdout.
        var answers: Int32
        var buffer: [UInt8] = []
        var job: (platform: PlatformFlavor, seed: UInt64)?
    }

    /// A worker could not be started.
    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    private let executable: String
    private let arguments: [String]
    private var workers: [Worker] = []
    private let decoder = JSONDecoder()
    /// Workers started in total, including replacements (for tests and messages).
    private(set) var started = 0

    /// Starts `count` workers of `executable` with `arguments` (the word `worker` first).
    /// - Throws: ``StartError`` when a pipe or `posix_spawn` fails.
    init(executable: String, arguments: [String], count: Int) throws(StartError) {
        precondition(count >= 1, "WorkerPool: at least one worker")
        self.executable = executable
        self.arguments = arguments
        for _ in 0..<count {
            workers.append(try spawn())
        }
    }

    deinit {
        shutDown(forcibly: true)
    }

    /// Runs the seeds of `range` on `platform` from its first seed upward, handing the next
    /// seed out while `handOut()` says so, and passes each outcome to `fold` in seed order.
    ///
    /// - Parameter handOut: Asked before each seed is handed out; false stops the campaign
    ///   here (time budget spent). Seeds already handed out still finish.
    /// - Parameter interrupted: Polled while waiting; true kills the busy workers and drops
    ///   their seeds (and any later outcome), so the folded seeds stay a contiguous prefix.
    /// - Returns: false when interrupted.
    /// - Throws: ``StartError`` when a replacement worker cannot be started.
    func run(platform: PlatformFlavor, range: ClosedRange<UInt64>, handOut: () -> Bool, interrupted: () -> Bool,
             fold: (SeedOutcome) -> Void) throws(StartError) -> Bool {
        var next: UInt64? = range.lowerBound
        var nextToFold = range.lowerBound
        // Outcomes that arrived ahead of a slower seed, by seed; looked up by key, never iterated.
        var arrived: [UInt64: SeedOutcome] = [:]
        var handingOut = true
        while true {
            if interrupted() {
                shutDown(forcibly: true)
                workers = []
                return false
            }
            for index in workers.indices where workers[index].job == nil && handingOut {
                guard let seed = next, handOut() else {
                    handingOut = false
                    break
                }
                send(platform: platform, seed: seed, to: index)
                next = seed < range.upperBound ? seed + 1 : nil
            }
            while let outcome = arrived.removeValue(forKey: nextToFold) {
                fold(outcome)
                nextToFold &+= 1
            }
            guard workers.contains(where: { $0.job != nil }) else { return true }
            for outcome in try await_(timeoutMs: 100) {
                arrived[outcome.seed] = outcome
            }
        }
    }

    /// Closes every worker's stdin (a worker then exits on its own) or kills it, and reaps it.
    func shutDown(forcibly: Bool) {
        for worker in workers {
            close(worker.requests)
            if forcibly { _ = kill(worker.pid, SIGKILL) }
            close(worker.answers)
            var status: Int32 = 0
            while waitpid(worker.pid, &status, 0) < 0 && errno == EINTR {}
        }
        workers = []
    }

    private func send(platform: PlatformFlavor, seed: UInt64, to index: Int) {
        workers[index].job = (platform, seed)
        let bytes = Array(WorkerCommand.request(platform: platform, seed: seed).utf8)
        // A failed write means the worker died; its stdout closes too, and `await_` reports it.
        bytes.withUnsafeBytes { _ = Descriptor.writeAll($0, to: workers[index].requests) }
    }

    /// Waits up to `timeoutMs` for answers; returns the outcomes that arrived (crash outcomes
    /// for workers that died, which are replaced).
    private func await_(timeoutMs: Int32) throws(StartError) -> [SeedOutcome] {
        var descriptors = workers.map { pollfd(fd: $0.answers, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeoutMs)
        guard ready > 0 else { return [] }  // timeout, or EINTR (a signal: the caller checks)
        var outcomes: [SeedOutcome] = []
        for index in descriptors.indices where descriptors[index].revents != 0 {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = read(workers[index].answers, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count > 0 {
                workers[index].buffer += chunk[0..<count]
                while let newline = workers[index].buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(workers[index].buffer[..<newline])
                    workers[index].buffer.removeSubrange(...newline)
                    outcomes.append(try answer(line, from: index))
                }
                continue
            }
            // End of file (or a read error): the worker is gone.
            if let outcome = try replace(index) { outcomes.append(outcome) }
        }
        return outcomes
    }

    /// Decodes an answer; a worker that answers nonsense is killed and its seed is a crash.
    private func answer(_ line: [UInt8], from index: Int) throws(StartError) -> SeedOutcome {
        guard let job = workers[index].job else {
            _ = kill(workers[index].pid, SIGKILL)
            return try replace(index, reason: "an answer nobody asked for") ?? SeedOutcome.crash(platform: .ios, seed: 0, signal: "protocol error")
        }
        guard let outcome = WorkerAnswer.parse(line, decoder: decoder)?.outcome, outcome.seed == job.seed,
              outcome.platform == job.platform else {
            _ = kill(workers[index].pid, SIGKILL)
            return try replace(index, reason: "protocol error: an unreadable answer") ?? SeedOutcome.crash(platform: job.platform, seed: job.seed, signal: "protocol error")
        }
        workers[index].job = nil
        return outcome
    }

    /// Reaps a dead worker, starts its replacement in the same slot, and returns the crash
    /// outcome of the seed it was running (nil when it was idle).
    private func replace(_ index: Int, reason: String? = nil) throws(StartError) -> SeedOutcome? {
        let dead = workers[index]
        close(dead.requests)
        close(dead.answers)
        var status: Int32 = 0
        while waitpid(dead.pid, &status, 0) < 0 && errno == EINTR {}
        workers[index] = try spawn()
        guard let job = dead.job else { return nil }
        return SeedOutcome.crash(platform: job.platform, seed: job.seed, signal: reason ?? Self.describe(status: status))
    }

    /// `SIGILL`, `SIGSEGV`, … for a signal; `exit N` for an exit status (the `WIFSIGNALED`
    /// macros are not visible from Swift, so the wait status is decoded by hand).
    static func describe(status: Int32) -> String {
        let signal = status & 0x7f
        guard signal != 0 else { return "exit \((status >> 8) & 0xff)" }
        return signalName(signal)
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [(Int32, String)] = [
            (SIGHUP, "SIGHUP"), (SIGINT, "SIGINT"), (SIGQUIT, "SIGQUIT"), (SIGILL, "SIGILL"), (SIGTRAP, "SIGTRAP"),
            (SIGABRT, "SIGABRT"), (SIGBUS, "SIGBUS"), (SIGFPE, "SIGFPE"), (SIGKILL, "SIGKILL"), (SIGSEGV, "SIGSEGV"),
            (SIGPIPE, "SIGPIPE"), (SIGTERM, "SIGTERM"), (SIGSYS, "SIGSYS"),
        ]
        return names.first { $0.0 == signal }?.1 ?? "signal \(signal)"
    }

    /// Starts one worker: its stdin and stdout are fresh pipes (close-on-exec on the parent's
    /// ends, so no worker holds another's pipe open), stderr is shared, it runs in its own
    /// process group with SIGINT and SIGPIPE at their defaults, and the Swift runtime's
    /// backtracer off (a trapping seed should die at once, not symbolicate for seconds).
    private func spawn() throws(StartError) -> Worker {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0 else { throw StartError(description: "cannot create a pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&output) == 0 else {
            close(input[0]); close(input[1])
            throw StartError(description: "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        // One thread spawns, so setting close-on-exec right after pipe(2) races with no other spawn.
        for descriptor in input + output {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment = ProcessInfo.processInfo.environment  // determinism-ok: passed on to the worker, never read by a run
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let envp = environment.keys.sorted().map { strdup("\($0)=\(environment[$0]!)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(input[0])
        close(output[1])
        guard result == 0 else {
            close(input[1]); close(output[0])
            throw StartError(description: "cannot start the worker \(executable): \(String(cString: strerror(result)))")
        }
        started += 1
        return Worker(pid: pid, requests: input[1], answers: output[0])
    }
}

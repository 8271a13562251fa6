import AlarmBridge
import Campaign
import Reporting
import Simulation

/// Runs a fuzz campaign's seeds, in worker subprocesses when the CLI is the real binary
/// (``CLIEnvironment/executablePath``) or in this process otherwise (tests), applies the time
/// budget and SIGINT, drives the progress meter, and folds every outcome in seed order with
/// ``CampaignTally``, so the summary does not depend on the path or the number of jobs.
struct CampaignRunner {
    let options: FuzzOptions
    let jobs: Int
    let environment: CLIEnvironment

    /// Why a campaign could not run at all.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// - Returns: The summary; `interrupted` when SIGINT stopped it (workers path only).
    /// - Throws: ``Failure`` when a worker subprocess cannot be started.
    func run(errors: inout some TextOutputStream) throws(Failure) -> FuzzSummary {
        var tally = CampaignTally(options: options)
        guard let range = options.runRange else { return tally.summary() }  // an empty shard
        let seedsTotal = Int(range.upperBound - range.lowerBound) + 1
        var meter = ProgressMeter(errorsIsTerminal: environment.errorsIsTerminal, elapsedMs: environment.elapsedMs,
                                  campaignSeeds: seedsTotal * options.platforms.count)
        var pool: WorkerPool?
        if let executable = environment.executablePath {
            Interrupt.install()
            do {
                pool = try WorkerPool(executable: executable, arguments: WorkerCommand.arguments(for: options), count: jobs)
            } catch {
                throw Failure(description: error.description)
            }
        }
        var interrupted = false
        // determinism-ok: wall-clock timing of the campaign, never reaches a run
        meter.deadlineMs = options.budgetSeconds.map { environment.elapsedMs() + Int64($0) * 1_000 }
        for platform in options.platforms {
            // determinism-ok: the time budget decides how many seeds run; the summary names them
            let deadlineMs = options.budgetSeconds.map { environment.elapsedMs() + Int64($0) * 1_000 / Int64(options.platforms.count) }
            meter.report(FuzzProgress(platform: platform, seedsDone: 0, seedsTotal: seedsTotal, failing: 0), to: &errors)
            let handOut = { deadlineMs.map { environment.elapsedMs() < $0 } ?? true }  // determinism-ok: as above
            func fold(_ outcome: SeedOutcome) {
                tally.add(outcome)
                if outcome.violation != nil { meter.failed(outcome, options: options, to: &errors) }
                let sofar = tally.tally(platform)
                meter.report(FuzzProgress(platform: platform, seedsDone: sofar.seeds, seedsTotal: seedsTotal, failing: sofar.failures),
                             to: &errors)
            }
            if let pool {
                do {
                    interrupted = !(try pool.run(platform: platform, range: range, handOut: handOut,
                                                 interrupted: { Interrupt.isRequested }, fold: fold))
                } catch {
                    throw Failure(description: error.description)
                }
            } else {
                var seed: UInt64? = range.lowerBound
                while let current = seed, handOut() {
                    fold(Campaign.outcome(platform: platform, seed: current, options: options))
                    seed = current < range.upperBound ? current + 1 : nil
                }
            }
            let sofar = tally.tally(platform)
            meter.finish(FuzzProgress(platform: platform, seedsDone: sofar.seeds, seedsTotal: seedsTotal, failing: sofar.failures),
                         to: &errors)
            if interrupted { break }
        }
        if let pool {
            pool.shutDown(forcibly: false)
            // A stopped campaign keeps the handler while it writes its partial report: `timeout`
            // signals the child and then its whole process group, so the same SIGTERM can come
            // twice, and the default action would kill the process mid-write (no summary.json,
            // a stray temporary file). The report is short and written once; then the process
            // exits with 130/143. A campaign that ran to its end gives Ctrl-C back at once.
            if !interrupted { Interrupt.uninstall() }
        }
        return tally.summary(interrupted: interrupted)
    }
}

extension CampaignRunner {
    /// Replays known failures (``KnownFailureFile``) before the campaign's seeds, each with its
    /// own options, in file order: in a worker subprocess of its own when the CLI is the real
    /// binary (a known `crash` traps only that worker, reported as `crash` again), in this
    /// process otherwise. Prints a `FAIL known …` line per seed that still fails.
    /// - Returns: What the summary reports (``KnownReplay``).
    /// - Throws: ``Failure`` when a worker subprocess cannot be started.
    func replay(_ known: [KnownFailure], file: String, errors: inout some TextOutputStream) throws(Failure) -> KnownReplay {
        let replayed = known.filter { $0.applies(to: options) }
        var result = KnownReplay(file: file, replayed: replayed.map(\.repro), notReplayed: known.count - replayed.count)
        if !replayed.isEmpty {
            errors.write("known failures: replaying \(replayed.count) from \(file) before the seed range\n")
        }
        for failure in replayed {
            let outcome = try outcome(of: failure)
            guard let violation = outcome.violation else { continue }
            let seed = FailingSeed(platform: failure.platform, seed: failure.seed, violation: violation, repro: failure.repro,
                                   signal: outcome.signal)
            result.stillFailing.append(seed)
            errors.write(SummaryFormatter.failLines(seed, prefix: "FAIL known").joined(separator: "\n") + "\n")
        }
        return result
    }

    /// One known failure's run (see ``replay(_:file:errors:)``).
    private func outcome(of failure: KnownFailure) throws(Failure) -> SeedOutcome {
        let options = failure.fuzzOptions
        guard let executable = environment.executablePath else {
            return Campaign.outcome(platform: failure.platform, seed: failure.seed, options: options)
        }
        var folded: SeedOutcome?
        do {
            let pool = try WorkerPool(executable: executable, arguments: WorkerCommand.arguments(for: options), count: 1)
            _ = try pool.run(platform: failure.platform, range: failure.seed...failure.seed, handOut: { true },
                             interrupted: { false }, fold: { folded = $0 })
            pool.shutDown(forcibly: false)
        } catch {
            throw Failure(description: error.description)
        }
        guard let folded else { throw Failure(description: "the worker replaying \(failure.repro) gave no outcome") }
        return folded
    }
}

import ArgumentParser
import Foundation
import MigrationEngine

#if canImport(Glibc)
    import Glibc
#endif

/// `migration-bench migrate`: migrates a store in place, safely.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a store in place to a version of its model, safely.",
        discussion: """
            The store's write-ahead log is checkpointed first; every step runs on working stores beside it \
            (<store>.migrating-<pid>-<n>); the result replaces the store in one atomic rename, with its sidecar \
            files handled. If the migration fails, is interrupted or the process is killed, the store is left \
            complete at its old version (or, after the rename, complete at the new one). Ctrl-C cancels cleanly. \
            One migration of a store runs at a time (a lock on <store>.migration-lock, removed at the end): \
            another one waits --wait seconds, then exits 1. A store another process keeps busy is retried for \
            --busy-timeout seconds, then refused. JSON lists the steps done with their kind and seconds.
            """)

    @OptionGroup var options: ChainOptions

    @Option(name: .long, help: "Where heavyweight passes keep destination objects: in-memory or streaming.")
    var storage: StorageMode = .streaming

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds to wait for another migration of the same store to end (0: fail at once).", valueName: "seconds"))
    var wait: Double = 0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds to retry a store another process keeps busy before failing.", valueName: "seconds"))
    var busyTimeout: Double = 5

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Option(name: .long, help: .hidden)
    var pauseAt: String?

    func validate() throws {
        for (name, value) in [("--wait", wait), ("--busy-timeout", busyTimeout)]
        where !value.isFinite || value < 0 || value > 86_400 {
            throw ValidationError("\(name) must be a number of seconds from 0 to 86400, not \(value)")
        }
    }

    func run() throws {
        try reportingInputErrors {
            var migrator = try options.migrator()
            migrator.options.storage = storage
            migrator.lockWait = wait
            migrator.busyTimeout = busyTimeout
            if let pauseAt {
                migrator.onEvent = { event in
                    guard event.description == pauseAt else { return }
                    // For crash tests: say where we are, then wait to be killed.
                    printError("paused at \(event)")
                    while true { sleep(60) }
                }
            }
            let interrupted = InterruptFlag()
            // A second interruption ends the command at once: its working stores go with it.
            let store = options.store
            Interruption.onForcedEnd { StoreMigrator.removeWorkingFiles(ofStoreAt: store) }
            let bar = ProgressBar(label: "migrate")
            let outcome = try migrator.migrateStore(
                at: options.store, to: options.to,
                progress: { update in
                    bar.update(fraction: update.fractionCompleted, detail: update.localizedAdditionalDescription)
                },
                shouldCancel: { interrupted.isSet })
            bar.finish()
            if json {
                try printJSON(
                    StepsJSON(
                        from: outcome.plan.from, to: outcome.plan.to,
                        steps: outcome.steps.map {
                            StepJSON(
                                from: $0.step.from, to: $0.step.to, kind: $0.step.kind.rawValue, seconds: $0.seconds)
                        }))
                return
            }
            guard !outcome.steps.isEmpty else {
                print("\(options.store) is at \(outcome.plan.from): no migration needed")
                return
            }
            print("\(options.store): \(outcome.plan.from) → \(outcome.plan.to)")
            for step in outcome.steps {
                print(
                    String(
                        format: "  %@ → %@: %@, %.3f s, %@ objects", step.step.from, step.step.to,
                        step.step.kind.rawValue, step.seconds, ProgressBar.grouped(step.objects)))
            }
        }
    }

    private struct StepsJSON: Encodable {
        let from: String
        let to: String
        let steps: [StepJSON]
    }

    private struct StepJSON: Encodable {
        let from: String
        let to: String
        let kind: String
        let seconds: Double
    }
}

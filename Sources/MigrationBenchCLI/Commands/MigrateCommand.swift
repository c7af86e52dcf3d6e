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
            (<store>.migrating-<n>); the result replaces the store in one atomic rename, with its sidecar files \
            handled. If the migration fails, is interrupted or the process is killed, the store is left complete \
            at its old version (or, after the rename, complete at the new one). Ctrl-C cancels cleanly. JSON \
            lists the steps done with their kind and seconds.
            """)

    @OptionGroup var options: ChainOptions

    @Option(name: .long, help: "Where heavyweight passes keep destination objects: in-memory or streaming.")
    var storage: StorageMode = .streaming

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Option(name: .long, help: .hidden)
    var pauseAt: String?

    func run() throws {
        try reportingInputErrors {
            var migrator = try options.migrator()
            migrator.options.storage = storage
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
            Interruption.onForcedEnd {
                let folder = URL(fileURLWithPath: store).deletingLastPathComponent()
                let prefix = URL(fileURLWithPath: store).lastPathComponent + ".migrating-"
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                where name.hasPrefix(prefix) {
                    try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
                }
            }
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

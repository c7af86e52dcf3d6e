import ArgumentParser

/// `migration-bench`: test and profile Core Data–style store migrations.
@main
struct MigrationBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migration-bench",
        abstract: "Generate, inspect and measure Core Data–style SQLite stores and their migrations.",
        discussion: """
            Exit codes: 0 all good, 1 usage or input error, 2 integrity failure, 3 budget or baseline regression.
            """,
        subcommands: [
            RunCommand.self,
            ListCommand.self,
            ValidateCommand.self,
            CompareCommand.self,
            ProfileCommand.self,
            ModelsCommand.self,
            GenerateCommand.self,
            InspectCommand.self,
            PlanCommand.self,
            MigrateCommand.self,
            VerifyCommand.self,
            BenchmarkCommand.self,
            RunCellCommand.self,
        ]
    )

    /// Takes SIGINT and SIGTERM over (see ``Interruption``), then runs the command.
    static func main() {
        Interruption.install()
        main(nil)
    }
}

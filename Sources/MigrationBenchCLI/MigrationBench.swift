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
            CheckCommand.self,
            ProfileCommand.self,
            ModelsCommand.self,
            MappingsCommand.self,
            GenerateCommand.self,
            InspectCommand.self,
            PlanCommand.self,
            MigrateCommand.self,
            VerifyCommand.self,
            BenchmarkCommand.self,
            RunCellCommand.self,
        ]
    )
}

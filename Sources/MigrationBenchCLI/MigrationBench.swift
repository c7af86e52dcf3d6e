import ArgumentParser
import Foundation

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
            MergeCommand.self,
            CheckCommand.self,
            ProfileCommand.self,
            ModelsCommand.self,
            MappingsCommand.self,
            GenerateCommand.self,
            InspectCommand.self,
            ShapeCommand.self,
            PlanCommand.self,
            MigrateCommand.self,
            VerifyCommand.self,
            BenchmarkCommand.self,
            RunCellCommand.self,
        ]
    )

    /// Parses and runs the command. A usage error (an unknown option, a bad or missing value, a failed
    /// `validate()`) is one line on standard error and exit code 1, as the README documents, not the
    /// argument parser's 64 with the whole usage text. SIGINT and SIGTERM are taken over first (see
    /// ``Interruption``).
    static func main() {
        Interruption.install()
        do {
            var command = try parseAsRoot(joiningNegativeValues(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            printError("error: \(oneLine("\(message(for: error)) (see --help)"))")
            exit(withError: ExitCode.inputError)
        }
    }

    /// `--size -5` as `--size=-5`: the argument parser takes a value that starts with a dash for an option and
    /// would say the value is missing; joined, the value reaches the option and its own check.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--"), argument.count > 2, !argument.contains("="), index + 1 < arguments.count,
                isNegativeNumber(arguments[index + 1])
            {
                result.append("\(argument)=\(arguments[index + 1])")
                index += 2
            } else {
                result.append(argument)
                index += 1
            }
        }
        return result
    }

    private static func isNegativeNumber(_ text: String) -> Bool {
        text.count > 1 && text.hasPrefix("-") && text.dropFirst().first.map(\.isNumber) == true
    }
}

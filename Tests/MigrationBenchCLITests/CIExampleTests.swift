import ArgumentParser
import Foundation
import Testing
import Yams

@testable import MigrationBenchCLI

/// The CI configurations of Examples/ci/ (shown in the README): valid YAML, and every `migration-bench` command
/// line in them accepted by the argument parser, as the built executable would parse it.
@Suite("CI examples")
struct CIExampleTests {
    static let folder = Executable.packageRoot.appendingPathComponent("Examples/ci")

    /// The shell lines of a parsed configuration: every `run:` (GitHub) and `script:` or `before_script:` entry
    /// (GitLab), split into lines, with `\` continuations joined.
    static func shellLines(_ node: Any, key: String? = nil) -> [String] {
        switch node {
        case let map as [AnyHashable: Any]:
            return map.map { ("\($0.key.base)", $0.value) }.sorted { $0.0 < $1.0 }.flatMap {
                shellLines($0.1, key: $0.0)
            }
        case let list as [Any]:
            return list.flatMap { shellLines($0, key: key) }
        case let text as String where ["run", "script", "before_script"].contains(key):
            return text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n").map(String.init)
        default:
            return []
        }
    }

    /// The arguments after `migration-bench` on `line`, up to the end of its command, with the CI's own
    /// variables given example values; nil when the line runs no `migration-bench`.
    static func arguments(_ line: String) -> [String]? {
        let expanded = line.replacingOccurrences(of: "${{ matrix.shard }}", with: "2")
            .replacingOccurrences(of: "$CI_NODE_INDEX", with: "2")
        var words: [String] = []
        var word = ""
        var quote: Character?
        for character in expanded {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        guard let start = words.firstIndex(where: { $0 == "migration-bench" || $0.hasSuffix("/migration-bench") })
        else { return nil }
        return Array(words[(start + 1)...].prefix { !["||", "&&", ";", "|", ">", ">>"].contains($0) })
    }

    @Test(arguments: ["github-actions.yml", "gitlab-ci.yml"])
    func everyCommandLineParses(file: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
        let configuration = try #require(try Yams.load(yaml: text), "\(file) is empty")
        let commands = Self.shellLines(configuration).compactMap(Self.arguments)
        #expect(commands.map { $0.first }.contains("run"), "\(file) runs no shard")
        #expect(commands.map { $0.first }.contains("merge"), "\(file) merges nothing")
        for arguments in commands {
            #expect(throws: Never.self, "\(file): migration-bench \(arguments.joined(separator: " "))") {
                _ = try MigrationBench.parseAsRoot(arguments)
            }
        }
    }

    /// The check above can fail: a misspelt option is refused.
    @Test func aMisspeltOptionIsRefused() throws {
        let arguments = try #require(Self.arguments(".build/release/migration-bench run --shards 1/4 || true"))
        #expect(arguments == ["run", "--shards", "1/4"])
        #expect(throws: (any Error).self) { _ = try MigrationBench.parseAsRoot(arguments) }
    }

    /// The README shows each file as it is.
    @Test(arguments: ["github-actions.yml", "gitlab-ci.yml"])
    func theReadmeShowsTheFile(file: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
        let readme = try String(
            contentsOf: Executable.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```yaml\n" + text + "```\n"), "README.md does not show Examples/ci/\(file) as it is")
    }
}

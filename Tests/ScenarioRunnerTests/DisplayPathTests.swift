import Foundation
import Testing

@testable import ScenarioRunner

/// Reports name files as the file system resolves them: no `..`, relative to the working directory when under it.
@Suite("Paths in reports")
struct DisplayPathTests {
    @Test func aPathThroughAnotherFolderIsShownAsTheFileItNames() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("display-path-\(UUID())")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Scenarios"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("mapping.yaml")
        try Data("name: x\n".utf8).write(to: file)
        let resolvedFolder = try #require(realpath(folder.path, nil))
        defer { free(resolvedFolder) }
        // Outside the working directory: absolute, with the `..` resolved.
        #expect(
            DisplayPath.of(folder.path + "/Scenarios/../mapping.yaml")
                == String(cString: resolvedFolder) + "/mapping.yaml")
    }

    @Test func aPathUnderTheWorkingDirectoryIsShownRelativeToIt() throws {
        let here = FileManager.default.currentDirectoryPath
        let name = "display-path-\(UUID()).yaml"
        try Data("name: x\n".utf8).write(to: URL(fileURLWithPath: here).appendingPathComponent(name))
        defer { try? FileManager.default.removeItem(atPath: here + "/" + name) }
        #expect(DisplayPath.of(here + "/./" + name) == name)
        #expect(DisplayPath.of(name) == name)
    }

    @Test func aMissingFileIsShownAsGiven() {
        #expect(DisplayPath.of("Scenarios/../no-such-file.yaml") == "Scenarios/../no-such-file.yaml")
    }
}

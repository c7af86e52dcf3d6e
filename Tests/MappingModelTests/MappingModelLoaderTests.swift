import Foundation
import MappingModel
import ObjectModel
import TestFixtures
import Testing

/// Mapping files: a valid file loads and validates against the fixture model; every kind of mistake is refused
/// with the file and line.
struct MappingModelLoaderTests {
    static func fixtureVersions() throws -> (ModelVersion, ModelVersion) {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        return (
            try history.requireVersion("CoreDataMigration_Example"),
            try history.requireVersion("CoreDataMigration_Example 2")
        )
    }

    /// The v1 → v2 mapping of the fixture model; `replacing` edits its text.
    static func v1ToV2(_ v1: ModelVersion, _ v2: ModelVersion, replacing edits: [(String, String)] = []) -> String {
        var text = """
            # CoreDataMigration_Example v1 → v2: fill hexColor from color.
            name: V1toV2
            sourceVersion: CoreDataMigration_Example
            destinationVersion: CoreDataMigration_Example 2
            entityMappings:
              - name: PostToPost
                kind: transform
                source: Post
                destination: Post
                sourceHash: \(v1.versionHashes["Post"]!.hex)
                destinationHash: \(v2.versionHashes["Post"]!.hex)
                filter: "$source.postID != nil"
                attributes:
                  hexColor: coalesce($source.color, '#000000')
                  date: $source.date
                  postID:
                    expression: $source.postID
                    userInfo: { note: kept }
                userInfo: { note: "colour names become hex codes" }

            """
        for (old, new) in edits { text = text.replacingOccurrences(of: old, with: new) }
        return text
    }

    @Test func aValidFileLoadsAndValidates() throws {
        let (v1, v2) = try Self.fixtureVersions()
        try withTemporaryFolder { folder in
            let path = try write(Self.v1ToV2(v1, v2), to: "v1-v2.yaml", in: folder)
            let model = try MappingModelLoader.load(path: path)
            #expect(model.name == "V1toV2" && model.file == path)
            #expect(model.sourceVersion == "CoreDataMigration_Example")
            let mapping = try #require(model.entityMappings.first)
            #expect(mapping.kind == .transform && mapping.sourceEntity == "Post" && mapping.destinationEntity == "Post")
            #expect(mapping.sourceEntityVersionHash == v1.versionHashes["Post"])
            #expect(mapping.sourceFilter == "$source.postID != nil")
            #expect(mapping.attributeMappings.map(\.name) == ["hexColor", "date", "postID"])
            #expect(mapping.attributeMappings[2].userInfo == ["note": "kept"])
            #expect(mapping.userInfo == ["note": "colour names become hex codes"])

            let compiled = try model.validated(source: v1, destination: v2, policies: [])
            let post = try #require(compiled.entityMapping(named: "PostToPost"))
            #expect(post.sourceFilter?.type == .boolean)
            #expect(post.attribute(named: "hexColor")?.expression?.type == .string)
            #expect(post.attributes.count == 3)
        }
    }

    @Test func jsonFilesLoadToo() throws {
        let json = """
            {
            \t"entityMappings": [
            \t\t{ "kind": "copy", "source": "Post", "destination": "Post" }
            \t]
            }
            """
        try withTemporaryFolder { folder in
            let model = try MappingModelLoader.load(path: try write(json, to: "Same.json", in: folder))
            #expect(model.name == "Same")
            #expect(model.entityMappings.first?.name == "PostToPost")
        }
    }

    static let refusals: [(String, String, MappingError.Code, Int)] = [
        ("    kind: transform\n", "    kind: transform\n    colour: red\n", .malformedFile, 8),
        ("entityMappings:", "entityMapping:", .malformedFile, 5),
        ("    kind: transform\n", "", .malformedFile, 6),
        ("kind: transform", "kind: transmogrify", .malformedFile, 7),
        ("    kind: transform\n", "    kind: add\n", .invalidKind, 7),
        ("    source: Post\n", "    source: Post\n    source: Post\n", .malformedFile, 8),
        ("expression: $source.postID", "expression: [1]", .malformedFile, 17),
        ("    sourceHash: ", "    sourceHash: 00", .malformedFile, 10),
        ("filter: \"$source.postID != nil\"", "filter: [1]", .malformedFile, 12),
        ("expression: $source.postID", "expresion: $source.postID", .malformedFile, 17),
    ]

    @Test(arguments: refusals)
    func malformedFilesAreRefusedWithFileAndLine(old: String, new: String, code: MappingError.Code, line: Int) throws {
        let (v1, v2) = try Self.fixtureVersions()
        let text = Self.v1ToV2(v1, v2, replacing: [(old, new)])
        #expect(text != Self.v1ToV2(v1, v2), "the edit \(old) must apply")
        #expect {
            _ = try MappingModelLoader.load(text: text, file: "maps/v1-v2.yaml")
        } throws: { error in
            guard let error = error as? MappingError else { return false }
            #expect(error.code == code && error.file == "maps/v1-v2.yaml" && error.line == line, "\(error)")
            #expect(error.description.hasPrefix("maps/v1-v2.yaml:\(line): "))
            return true
        }
    }

    static let mismatches: [(String, String, MappingError.Code, Int, String?, String?)] = [
        ("sourceHash: ", "ZERO", .versionHashMismatch, 10, "PostToPost", nil),
        ("destinationHash: ", "ZERO", .versionHashMismatch, 11, "PostToPost", nil),
        ("    source: Post\n", "    source: Poster\n", .unknownEntity, 8, "PostToPost", nil),
        ("    destination: Post\n", "    destination: Pots\n", .unknownEntity, 9, "PostToPost", nil),
        ("hexColor: coalesce", "hexColour: coalesce", .unknownProperty, 14, "PostToPost", "hexColour"),
        ("$source.color,", "$source.colour,", .unknownKey, 14, "PostToPost", "hexColor"),
        ("$source.postID != nil", "$destination.postID != nil", .unknownVariable, 12, "PostToPost", "filter"),
        ("destinationVersion: CoreDataMigration_Example 2", "destinationVersion: V9", .versionMismatch, 4, nil, nil),
        ("    kind: transform\n", "    kind: transform\n    policy: Colours\n", .unknownPolicy, 8, "PostToPost", nil),
    ]

    @Test(arguments: mismatches)
    func mappingsThatDoNotFitTheModelsAreRefusedBeforeAnythingRuns(
        old: String,
        new: String,
        code: MappingError.Code,
        line: Int,
        mapping: String?,
        property: String?
    ) throws {
        let (v1, v2) = try Self.fixtureVersions()
        var edits = [(old, new)]
        if new == "ZERO" {
            let hex = (old.hasPrefix("source") ? v1 : v2).versionHashes["Post"]!.hex
            edits = [(old + hex, old + String(repeating: "0", count: 64))]
        }
        let model = try MappingModelLoader.load(text: Self.v1ToV2(v1, v2, replacing: edits), file: "v1-v2.yaml")
        #expect {
            _ = try model.validated(source: v1, destination: v2, policies: ["Other"])
        } throws: { error in
            guard let error = error as? MappingError else { return false }
            #expect(error.code == code, "\(error)")
            #expect(error.file == "v1-v2.yaml" && error.line == line, "\(error)")
            #expect(error.mapping == mapping && error.property == property, "\(error)")
            return true
        }
    }

    /// A copy mapping leaves a destination attribute the source lacks without an expression, as Xcode compiles
    /// it (xcmappingmodel.md §6): nil or its default, refused only by the destination's validation when the
    /// step runs.
    @Test func aCopyMappingLeavesWhatTheSourceLacksWithoutAnExpression() throws {
        let (v1, v2) = try Self.fixtureVersions()
        let edits = [
            ("    kind: transform\n", "    kind: copy\n"),
            ("hexColor: coalesce($source.color, '#000000')", "hexColor:"),
        ]
        let model = try MappingModelLoader.load(text: Self.v1ToV2(v1, v2, replacing: edits), file: "v1-v2.yaml")
        let compiled = try model.validated(source: v1, destination: v2)
        let post = try #require(compiled.entityMappings.first)
        #expect(post.attributes.first { $0.mapping.name == "hexColor" }?.expression == nil)
        #expect(post.attributes.first { $0.mapping.name == "date" }?.mapping.valueExpression == "$source.date")
    }

    @Test func unreadableAndEmptyFilesAreRefused() throws {
        #expect(throws: MappingError.self) { _ = try MappingModelLoader.load(path: "/no/such/mapping.yaml") }
        #expect(throws: MappingError.self) { _ = try MappingModelLoader.load(text: "", file: "empty.yaml") }
        #expect(throws: MappingError.self) { _ = try MappingModelLoader.load(text: "a: [", file: "bad.yaml") }
    }
}

import Foundation
import ObjectModel
import TestFixtures
import Testing

@testable import MappingModel

/// Xcode mapping models read from the real files Xcode wrote: every fixture `.xcmappingmodel` and `.cdm`, their
/// expressions, kinds and policies, the versions their embedded models identify, and malformed files.
struct XcodeMappingReaderTests {
    static let root = Fixtures.root.path

    /// Every fixture mapping model, the bundle it belongs to, and the versions its hashes must identify.
    static let files: [(mapping: String, bundle: String, source: String, destination: String, mappings: Int)] = [
        (
            "Mappings/Migration1to2.xcmappingmodel", "CoreDataMigration_Example.xcdatamodeld",
            "CoreDataMigration_Example", "CoreDataMigration_Example 2", 1
        ),
        (
            "Mappings/Migration2to3.xcmappingmodel", "CoreDataMigration_Example.xcdatamodeld",
            "CoreDataMigration_Example 2", "CoreDataMigration_Example 3", 2
        ),
        (
            "coredataplus/SampleModel/MappingModels/V2toV3.xcmappingmodel",
            "coredataplus/SampleModel/SampleModel.xcdatamodeld", "SampleModel2", "SampleModel3", 5
        ),
        (
            "coredataplus/SampleModel/Fixtures/V2toV3.cdm", "coredataplus/SampleModel/SampleModel.xcdatamodeld",
            "SampleModel2", "SampleModel3", 5
        ),
        (
            "coredatavsrealm/v1 to v2 migration/v1_to_v2.xcmappingmodel",
            "coredatavsrealm/LibraryDataModel.xcdatamodeld", "LibraryDataModel", "LibraryDataModel v2", 2
        ),
        (
            "corestore-evolution/Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel",
            "corestore-evolution/Advanced.EvolutionDemo.V1.xcdatamodeld", "Advanced.EvolutionDemo.V1",
            "Advanced.EvolutionDemo.V2", 1
        ),
        (
            "corestore-evolution/Advanced.EvolutionDemo.V1.FromV2.xcmappingmodel",
            "corestore-evolution/Advanced.EvolutionDemo.V1.xcdatamodeld", "Advanced.EvolutionDemo.V2",
            "Advanced.EvolutionDemo.V1", 1
        ),
    ]

    @Test(arguments: files)
    func everyFixtureReadsAndItsHashesIdentifyItsVersions(
        file: (mapping: String, bundle: String, source: String, destination: String, mappings: Int)
    ) throws {
        let model = try MappingModelLoader.load(path: "\(Self.root)/\(file.mapping)")
        let history = try ModelLoader.load(path: "\(Self.root)/\(file.bundle)")
        #expect(model.entityMappings.count == file.mappings)
        let identified = try model.identifyingVersions(in: history)
        #expect(identified.sourceVersion == file.source && identified.destinationVersion == file.destination)
        // Every expression, decoded or generated, compiles against the versions the hashes found.
        _ = try identified.validated(
            source: try history.requireVersion(file.source), destination: try history.requireVersion(file.destination))
    }

    /// The worked example of the format note (§7.3) and the policy class names stripped of their module.
    @Test func expressionsKindsAndPoliciesAreXcodes() throws {
        let oneToTwo = try MappingModelLoader.load(path: "\(Self.root)/Mappings/Migration1to2.xcmappingmodel")
        let post = try #require(oneToTwo.entityMapping(named: "PostToPost"))
        #expect(post.kind == .transform)
        #expect(post.attributeMappings.map(\.name) == ["date", "hexColor", "postID"])
        #expect(post.attributeMappings.map(\.valueExpression) == ["$source.date", "$source.color", "$source.postID"])

        let twoToThree = try MappingModelLoader.load(path: "\(Self.root)/Mappings/Migration2to3.xcmappingmodel")
        #expect(twoToThree.entityMappings.map(\.name) == ["Color", "PostToPost"], "mappingnumber order")
        #expect(twoToThree.entityMappings.map(\.kind) == [.add, .custom])
        #expect(twoToThree.entityMappings[1].policy == "Post2ToPost3MigrationPolicy")

        let realm = try MappingModelLoader.load(
            path: "\(Self.root)/coredatavsrealm/v1 to v2 migration/v1_to_v2.xcmappingmodel")
        let user = try #require(realm.entityMapping(named: "UserToUser"))
        #expect(user.policy == "CustomMigration")
        #expect(
            user.attributeMappings.first { $0.name == "bonusPoints" }?.valueExpression
                == #"FUNCTION($entityPolicy, "toInt16WithValue:", $source.bonusPoints)"#)
        #expect(
            user.relationshipMappings.first?.valueExpression
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books)"#
        )
    }

    /// Xcode's own compiled `.cdm` is the oracle: the `.xcmappingmodel` beside it reads to the same entity
    /// mappings — order, names, kinds, policies (`REPLACE_AT_RUNTIME.` and the module stripped), both entity
    /// hashes and every value expression, the generated defaults included.
    @Test func theXcmappingmodelReadsAsItsCompiledCdm() throws {
        let folder = "\(Self.root)/coredataplus/SampleModel"
        let source = try MappingModelLoader.load(path: "\(folder)/MappingModels/V2toV3.xcmappingmodel")
        let compiled = try MappingModelLoader.load(path: "\(folder)/Fixtures/V2toV3.cdm")
        #expect(source.entityMappings == compiled.entityMappings)
        #expect(compiled.entityMappings.map(\.kind) == [.custom, .custom, .copy, .custom, .add])
        #expect(compiled.entityMappings.allSatisfy { $0.sourceEntity == nil || $0.sourceEntityVersionHash != nil })
    }

    /// An entity mapping with neither a source nor a destination entity, named or not, is the undefined mapping
    /// Xcode compiles and Core Data skips (xcmappingmodel.md §5, rule 1; rileytestut/Delta's Delta4ToDelta5
    /// `Mapping`): read without it, and the rest validates.
    @Test func anEntityMappingWithNeitherEntityIsSkipped() throws {
        let original = try String(
            contentsOfFile: "\(Self.root)/Mappings/Migration2to3.xcmappingmodel/xcmapping.xml", encoding: .utf8)
        let text = original.replacingOccurrences(
            of: #"<attribute name="destinationname" type="string">Color</attribute>"#,
            with: #"<attribute name="name" type="string">Mapping</attribute>"#)
        #expect(text != original, "the edit must apply")
        let history = try ModelLoader.load(path: "\(Self.root)/CoreDataMigration_Example.xcdatamodeld")
        try withTemporaryFolder { folder in
            _ = try write(text, to: "Undefined.xcmappingmodel/xcmapping.xml", in: folder)
            let model = try MappingModelLoader.load(
                path: folder.appendingPathComponent("Undefined.xcmappingmodel").path)
            #expect(model.entityMappings.map(\.name) == ["PostToPost"])
            let identified = try model.identifyingVersions(in: history)
            _ = try identified.validated(
                source: try history.requireVersion("CoreDataMigration_Example 2"),
                destination: try history.requireVersion("CoreDataMigration_Example 3"))
        }
    }

    /// The versions are found by hash, not by the recorded path: renamed versions are still found.
    @Test func versionsAreFoundByHashNotByName() throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let renamed = try ModelHistory(
            versions: try history.versions.enumerated().map { index, version throws(ModelError) in
                try ModelVersion(name: "Release \(index + 1)", entities: version.entities)
            })
        let model = try MappingModelLoader.load(path: "\(Self.root)/Mappings/Migration1to2.xcmappingmodel")
        let identified = try model.identifyingVersions(in: renamed)
        #expect(identified.sourceVersion == "Release 1" && identified.destinationVersion == "Release 2")
    }

    /// A version edited after the mapping was made: stale, naming the version and the entity that differs.
    @Test func aMappingWhoseVersionWasEditedIsStale() throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let edited = try history.versions.map { version in
            guard version.name == "CoreDataMigration_Example 2" else { return version }
            var entities = version.entities
            let post = try #require(entities.firstIndex { $0.name == "Post" })
            entities[post].attributes.append(Attribute(name: "isFavorite", type: .boolean, isOptional: true))
            return try ModelVersion(name: version.name, entities: entities)
        }
        let model = try MappingModelLoader.load(path: "\(Self.root)/Mappings/Migration1to2.xcmappingmodel")
        let match = model.versionMatch(in: try ModelHistory(versions: edited))
        #expect(match.isStale && match.source.version == "CoreDataMigration_Example")
        #expect(match.destination.named == "CoreDataMigration_Example 2")
        #expect(match.destination.differingEntities == ["Post"])
        #expect {
            _ = try model.identifyingVersions(in: try ModelHistory(versions: edited))
        } throws: { error in
            let text = "\(error)"
            return (error as? MappingError)?.code == .staleMapping && text.contains("'CoreDataMigration_Example 2'")
                && text.contains("entities that differ: Post") && text.hasPrefix("\(Self.root)/Mappings/")
        }
    }

    /// Beside an Xcode bundle, the mapping models in its folder tree are found by hash (the other apps'
    /// fixtures there match nothing and are left out); one whose version was edited since is skipped and told.
    @Test func mappingModelsBesideTheBundleAreFoundByHash() throws {
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path)
        var told: [MappingError] = []
        let found = try MappingModelLoader.load(
            paths: [], for: history, modelPath: Fixtures.modelBundle.path, stale: { told.append($0) })
        #expect(found.map(\.name) == ["Migration1to2", "Migration2to3"])
        #expect(found.map(\.sourceVersion) == ["CoreDataMigration_Example", "CoreDataMigration_Example 2"])
        #expect(told.isEmpty)

        let edited = try ModelHistory(
            versions: try history.versions.map { version in
                guard version.name == "CoreDataMigration_Example 3" else { return version }
                var entities = version.entities
                let color = try #require(entities.firstIndex { $0.name == "Color" })
                entities[color].attributes.append(Attribute(name: "alpha", type: .double, isOptional: true))
                return try ModelVersion(name: version.name, entities: entities)
            }, source: history.source)
        let left = try MappingModelLoader.load(
            paths: [], for: edited, modelPath: Fixtures.modelBundle.path, stale: { told.append($0) })
        #expect(left.map(\.name) == ["Migration1to2"])
        #expect(told.count == 1 && told.first?.code == .staleMapping)
        #expect(told.first.map { "\($0)".contains("Migration2to3") && "\($0)".contains("differ: Color") } == true)
    }

    /// Edits of Migration2to3's xcmapping.xml, and what the one-line error must name.
    static let malformations: [(old: String, new: String, names: String)] = [
        (
            #"idrefs="z102 z107""#, #"idrefs="z102 z999""#,
            "object z104 (XDDEVMAPPINGMODEL): field 'entitymappings' lists z999"
        ),
        (
            #"type="int16">2</attribute>"#, #"type="int16">two</attribute>"#,
            "object z107 (XDDEVENTITYMAPPING): field 'mappingnumber'"
        ),
        (#"<object type="XDDEVMAPPINGMODEL""#, #"<object type="XDDEVOTHER""#, "0 XDDEVMAPPINGMODEL objects"),
        (
            #"name="sourcemodeldata" type="binary">YnBsaXN0MDDUAAE"#,
            #"name="sourcemodeldata" type="binary">AAAAAAAAAAAAAAE"#,
            "field 'sourcemodeldata': not a binary property list"
        ),
        (
            #"name="sourcemodeldata" type="binary">YnBsaXN0MDDUAAE"#,
            #"name="sourcemodeldata" type="binary">YnBsaXN0MDDUAA!"#, "field 'sourcemodeldata' is not base64"
        ),
        (
            #"<attribute name="name" type="string">post</attribute>"#, "",
            "object z103 (XDDEVRELATIONSHIPMAPPING): field 'name'"
        ),
        ("</database>", "", "malformed XML"),
    ]

    @Test(arguments: malformations)
    func aMalformedFileIsOneLineNamingTheFileAndObject(edit: (old: String, new: String, names: String)) throws {
        let original = try String(
            contentsOfFile: "\(Self.root)/Mappings/Migration2to3.xcmappingmodel/xcmapping.xml", encoding: .utf8)
        let text = original.replacingOccurrences(of: edit.old, with: edit.new)
        #expect(text != original, "the edit must apply")
        try withTemporaryFolder { folder in
            let file = try write(text, to: "Broken.xcmappingmodel/xcmapping.xml", in: folder)
            #expect {
                _ = try MappingModelLoader.load(path: folder.appendingPathComponent("Broken.xcmappingmodel").path)
            } throws: { error in
                let line = "\(error)"
                return line.hasPrefix(file) && line.contains(edit.names) && !line.contains("\n")
            }
        }
    }

    @Test(arguments: [10, 400, 2000])
    func aTruncatedCdmIsOneLineNamingTheFile(length: Int) throws {
        let bytes = try Data(
            contentsOf: Fixtures.coreDataPlus.appendingPathComponent("SampleModel/Fixtures/V2toV3.cdm"))
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("Cut.cdm").path
            try bytes.prefix(length).write(to: URL(fileURLWithPath: path))
            #expect {
                _ = try MappingModelLoader.load(path: path)
            } throws: { error in
                (error as? MappingError)?.code == .malformedFile && "\(error)".hasPrefix(path + ": ")
            }
        }
    }
}

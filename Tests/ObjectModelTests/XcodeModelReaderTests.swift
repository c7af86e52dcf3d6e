import Foundation
import ObjectModel
import TestFixtures
import Testing

@Suite struct XcodeModelReaderTests {
    static let versionNames = [
        "CoreDataMigration_Example", "CoreDataMigration_Example 2", "CoreDataMigration_Example 3",
        "CoreDataMigration_Example 4",
    ]

    /// The hashes Core Data wrote into the fixture stores' `Z_METADATA` (`NSStoreModelVersionHashes`).
    static let coreDataHashes: [String: [String: String]] = [
        "CoreDataMigration_Example": [
            "Post": "b9f1d1b43446f1ad118ca4a03e226e05f98c899c98b524c13f02f6514ded5e80"
        ],
        "CoreDataMigration_Example 2": [
            "Post": "7f16507467bee1d37b8c01282a8ca9a7e141344fbde06ac7280211d49731fb12"
        ],
        "CoreDataMigration_Example 3": [
            "Color": "c42610dacb82dfd67d8281d49d82916bd02493cb4cc897db9ca097fe7c9cb9e7",
            "Post": "8a55fd4ce6c31444313d4c97e0247ac5d3ed2528c484daeb70b4e481d36e2345",
        ],
        "CoreDataMigration_Example 4": [
            "Color": "c42610dacb82dfd67d8281d49d82916bd02493cb4cc897db9ca097fe7c9cb9e7",
            "Post": "d81901642c2396baa3d6f7548e957afb0e4bf63471ceeb709312aa1dbda395b5",
        ],
    ]

    static func loadBundle() throws -> ModelHistory {
        try ModelLoader.load(path: Fixtures.modelBundle.path)
    }

    @Test func loadsFourVersionsInOrder() throws {
        let history = try Self.loadBundle()
        #expect(history.versions.map(\.name) == Self.versionNames)
        #expect(history.currentVersionName == "CoreDataMigration_Example 4")
        #expect(history.source == Fixtures.modelBundle.path)
    }

    @Test(arguments: versionNames)
    func versionHashesEqualCoreData(version: String) throws {
        let loaded = try Self.loadBundle().requireVersion(version)
        let expected = try #require(Self.coreDataHashes[version])
        #expect(loaded.versionHashes.mapValues(\.hex) == expected)
    }

    @Test func firstVersionHasOnePostEntity() throws {
        let version = try Self.loadBundle().requireVersion("CoreDataMigration_Example")
        #expect(version.entities.map(\.name) == ["Post"])
        let post = try #require(version.entity(named: "Post"))
        #expect(post.parent == nil && !post.isAbstract && post.relationships.isEmpty)
        #expect(
            post.attributes == [
                Attribute(name: "color", type: .string, isOptional: true),
                Attribute(name: "date", type: .date, isOptional: true),
                Attribute(name: "postID", type: .string, isOptional: true),
            ])
        #expect(version.warnings.isEmpty)
    }

    @Test func secondVersionRenamesColorToHexColor() throws {
        let version = try Self.loadBundle().requireVersion("CoreDataMigration_Example 2")
        #expect(version.attributes(of: "Post").map(\.name) == ["date", "hexColor", "postID"])
        #expect(version.attribute("hexColor", of: "Post")?.renamingIdentifier == nil)
    }

    @Test func thirdVersionRelatesPostAndColor() throws {
        let version = try Self.loadBundle().requireVersion("CoreDataMigration_Example 3")
        #expect(version.entities.map(\.name) == ["Color", "Post"])
        #expect(version.attributes(of: "Color").map(\.name) == ["colorID", "hex"])
        #expect(
            version.relationship("post", of: "Color")
                == Relationship(name: "post", destination: "Post", inverse: "color", isOptional: true, maxCount: 1))
        let color = try #require(version.relationship("color", of: "Post"))
        #expect(color == Relationship(name: "color", destination: "Color", inverse: "post", isOptional: false))
        #expect(color.minCount == 0 && color.maxCount == 1 && !color.isToMany && color.deleteRule == .nullify)
        #expect(version.inverse(of: color)?.name == "post")
    }

    @Test func fourthVersionAddsHideWithDefault() throws {
        let version = try Self.loadBundle().requireVersion("CoreDataMigration_Example 4")
        #expect(
            version.attribute("hide", of: "Post")
                == Attribute(name: "hide", type: .boolean, isOptional: true, defaultValue: .boolean(false)))
        #expect(version.attributes(of: "Post").map(\.name) == ["date", "hide", "postID"])
        #expect(version.warnings.isEmpty)
    }

    @Test func readsASingleVersionFolder() throws {
        let folder = Fixtures.modelBundle.appendingPathComponent("CoreDataMigration_Example 3.xcdatamodel")
        let history = try ModelLoader.load(path: folder.path)
        #expect(history.versions.map(\.name) == ["CoreDataMigration_Example 3"])
        #expect(history.currentVersion == (try Self.loadBundle().requireVersion("CoreDataMigration_Example 3")))
    }

    @Test func explicitOrderOrdersEveryVersion() throws {
        let order = [
            "CoreDataMigration_Example", "CoreDataMigration_Example 3", "CoreDataMigration_Example 2",
            "CoreDataMigration_Example 4",
        ]
        let history = try ModelLoader.load(path: Fixtures.modelBundle.path, order: order)
        #expect(history.versions.map(\.name) == order)
        // An order that leaves versions out was taken as a selection, and the versions vanished: refused.
        let error = #expect(throws: ModelError.self) {
            try ModelLoader.load(
                path: Fixtures.modelBundle.path, order: ["CoreDataMigration_Example 2", "CoreDataMigration_Example 3"])
        }
        let message = "leaves out 'CoreDataMigration_Example', 'CoreDataMigration_Example 4'"
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test func currentVersionCanBeOverridden() throws {
        let history = try ModelLoader.load(
            path: Fixtures.modelBundle.path, currentVersion: "CoreDataMigration_Example 2")
        #expect(history.currentVersionName == "CoreDataMigration_Example 2")
        #expect(history.versions.count == 4)
    }

    @Test func naturalVersionOrderComparesNumbersByValue() {
        let names = ["Model 10", "Model 2", "Model", "Model 1", "App 1.10", "App 1.9", "Model 02b"]
        #expect(
            ModelLoader.naturalVersionOrder(names) == [
                "App 1.9", "App 1.10", "Model", "Model 1", "Model 2", "Model 02b", "Model 10",
            ])
    }

    @Test func readsEveryElementOfTheFormat() throws {
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" userDefinedModelVersionIdentifier="v7">
                <entity name="Item" isAbstract="YES" elementID="OldItem" versionHashModifier="m1">
                    <attribute name="created" attributeType="Date" defaultDateTimeInterval="86400"/>
                    <attribute name="cache" optional="YES" transient="YES"/>
                    <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                    <attribute name="count" attributeType="Integer 32" defaultValueString="NO" indexed="YES"/>
                    <attribute name="kept" optional="YES" attributeType="String" preserveAfterDeletion="YES">
                        <userInfo><entry key="note" value="kept"/></userInfo>
                    </attribute>
                    <relationship name="tags" toMany="YES" ordered="YES" minCount="1" maxCount="5" deletionRule="Cascade" destinationEntity="Tag" inverseName="items" inverseEntity="Tag" elementID="labels"/>
                    <fetchedProperty name="recent" optional="YES"><fetchRequest name="f" entity="Tag"/></fetchedProperty>
                    <fetchIndex name="byCount"><fetchIndexElement property="count" type="Binary" order="ascending"/></fetchIndex>
                    <compoundIndexes><compoundIndex><index value="count"/><index value="created"/></compoundIndex></compoundIndexes>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="count"/><constraint value="kept"/></uniquenessConstraint></uniquenessConstraints>
                    <userInfo><entry key="owner" value="me"/></userInfo>
                </entity>
                <entity name="Note" parentEntity="Item"/>
                <entity name="Tag">
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
                </entity>
                <fetchRequest name="all" entity="Tag"/>
                <configuration name="Cloud"><memberEntity name="Tag"/></configuration>
                <elements><element name="Tag" positionX="0" positionY="0" width="128" height="44"/></elements>
            </model>
            """
        try withTemporaryFolder { folder in
            let file = try write(contents, to: "M.xcdatamodeld/M.xcdatamodel/contents", in: folder)
            let version = try ModelLoader.load(path: folder.appendingPathComponent("M.xcdatamodeld").path)
                .currentVersion
            #expect(version.versionIdentifiers == ["v7"])
            let item = try #require(version.entity(named: "Item"))
            #expect(item.isAbstract && item.renamingIdentifier == "OldItem" && item.versionHashModifier == "m1")
            #expect(item.userInfo == ["owner": "me"])
            #expect(item.uniquenessConstraints == [["count", "kept"]])
            #expect(item.indexes.map(\.properties) == [["count"], ["count", "created"]])
            #expect(
                item.indexes.map(\.name) == ["byCount", "count_created"], "a compound index is named by its properties")
            #expect(item.attributes.map(\.name) == ["created", "cache", "blob", "count", "kept"])
            #expect(item.attributes[0].defaultValue == .date(86400) && !item.attributes[0].isOptional)
            #expect(item.attributes[1].type == .undefined && item.attributes[1].isTransient)
            #expect(item.attributes[2].allowsExternalBinaryDataStorage)
            #expect(item.attributes[3].defaultValue == .integer(0) && item.attributes[3].isIndexed)
            #expect(item.attributes[4].preserveAfterDeletion && item.attributes[4].userInfo == ["note": "kept"])
            #expect(
                item.relationships == [
                    Relationship(
                        name: "tags", destination: "Tag", inverse: "items", isToMany: true, isOrdered: true,
                        isOptional: false, minCount: 1, maxCount: 5, deleteRule: .cascade, renamingIdentifier: "labels")
                ])
            #expect(version.relationship("items", of: "Tag")?.deleteRule == .noAction)
            #expect(version.relationship("items", of: "Tag")?.maxCount == 0)
            #expect(version.ancestors(of: "Note") == ["Item"])
            // The Integer 32 default written as NO is accepted, with a warning that names file, line and property.
            #expect(version.warnings.count == 1)
            #expect(version.warnings.first?.contains("\(file):7:") == true)
            #expect(version.warnings.first?.contains("property 'count'") == true)
        }
    }
}

import Foundation
import ObjectModel
import TestFixtures
import Testing

@Suite struct ModelFileReaderTests {
    static let libraryYAML = """
        # Library model, two versions.
        currentVersion: V2          # optional; default: the last version
        versions:
          - name: V1
            entities:
              - name: Author
                attributes:
                  - { name: name, type: String }
                  - { name: born, type: Date, optional: true }
                relationships:
                  - { name: books, destination: Book, inverse: author, toMany: true, deleteRule: Cascade }
              - name: Book
                attributes:
                  - { name: title, type: String, default: "Untitled" }
                  - { name: pages, type: Integer 32, optional: true }
                relationships:
                  - { name: author, destination: Author, inverse: books }
          - name: V2
            versionIdentifiers: [second]
            entities:
              - name: Item
                abstract: true
                attributes: [{ name: created, type: Date, default: "2001-01-02T00:00:00Z" }]
              - name: Author
                userInfo: { owner: "library team" }
                attributes:
                  - { name: name, type: string }
                  - { name: id, type: UUID, default: 6BA7B810-9DAD-11D1-80B4-00C04FD430C8 }
                relationships:
                  - name: books
                    destination: Book
                    inverse: author
                    toMany: true
                    ordered: true
                    minCount: 0
                    maxCount: 100
                    deleteRule: No Action
              - name: Book
                parent: Item
                renamingIdentifier: Book
                versionHashModifier: reshaped
                uniquenessConstraints: [[isbn], [fullTitle, edition]]
                indexes: [{ name: byTitle, properties: [fullTitle] }]
                attributes:
                  - { name: fullTitle, type: String, renamingIdentifier: title, userInfo: { source: "V1 title" } }
                  - { name: isbn, type: String, indexed: true }
                  - { name: edition, type: integer16, default: 1 }
                  - { name: price, type: Decimal, optional: true, default: "9.99" }
                  - { name: rating, type: Double, default: 2.5 }
                  - { name: inPrint, type: bool, default: yes }
                  - { name: cover, type: Binary, optional: true, default: "AAEC", allowsExternalBinaryDataStorage: true }
                  - { name: link, type: URI, optional: true, preserveAfterDeletion: true }
                  - { name: scratch, transient: true }
                relationships:
                  - { name: author, destination: Author, inverse: books, optional: false }
                  - { name: related, destination: Book, toMany: true, versionHashModifier: "2" }
        """

    /// The same model as JSON, written by hand with tabs and without spaces after colons.
    static let libraryJSON = """
        {"currentVersion":"V2","versions":[
        \t{"name":"V1","entities":[
        \t\t{"name":"Author","attributes":[{"name":"name","type":"String"},{"name":"born","type":"Date","optional":true}],
        \t\t "relationships":[{"name":"books","destination":"Book","inverse":"author","toMany":true,"deleteRule":"Cascade"}]},
        \t\t{"name":"Book","attributes":[{"name":"title","type":"String","default":"Untitled"},
        \t\t\t{"name":"pages","type":"Integer 32","optional":true}],
        \t\t "relationships":[{"name":"author","destination":"Author","inverse":"books"}]}]},
        \t{"name":"V2","versionIdentifiers":["second"],"entities":[
        \t\t{"name":"Item","abstract":true,"attributes":[{"name":"created","type":"Date","default":"2001-01-02T00:00:00Z"}]},
        \t\t{"name":"Author","userInfo":{"owner":"library team"},
        \t\t "attributes":[{"name":"name","type":"string"},{"name":"id","type":"UUID","default":"6BA7B810-9DAD-11D1-80B4-00C04FD430C8"}],
        \t\t "relationships":[{"name":"books","destination":"Book","inverse":"author","toMany":true,"ordered":true,
        \t\t\t"minCount":0,"maxCount":100,"deleteRule":"No Action"}]},
        \t\t{"name":"Book","parent":"Item","renamingIdentifier":"Book","versionHashModifier":"reshaped",
        \t\t "uniquenessConstraints":[["isbn"],["fullTitle","edition"]],"indexes":[{"name":"byTitle","properties":["fullTitle"]}],
        \t\t "attributes":[
        \t\t\t{"name":"fullTitle","type":"String","renamingIdentifier":"title","userInfo":{"source":"V1 title"}},
        \t\t\t{"name":"isbn","type":"String","indexed":true},
        \t\t\t{"name":"edition","type":"integer16","default":1},
        \t\t\t{"name":"price","type":"Decimal","optional":true,"default":"9.99"},
        \t\t\t{"name":"rating","type":"Double","default":2.5},
        \t\t\t{"name":"inPrint","type":"bool","default":true},
        \t\t\t{"name":"cover","type":"Binary","optional":true,"default":"AAEC","allowsExternalBinaryDataStorage":true},
        \t\t\t{"name":"link","type":"URI","optional":true,"preserveAfterDeletion":true},
        \t\t\t{"name":"scratch","transient":true}],
        \t\t "relationships":[{"name":"author","destination":"Author","inverse":"books","optional":false},
        \t\t\t{"name":"related","destination":"Book","toMany":true,"versionHashModifier":"2"}]}]}]}
        """

    static func load(_ text: String, as name: String) throws -> ModelHistory {
        try withTemporaryFolder { folder in
            try ModelLoader.load(path: write(text, to: name, in: folder))
        }
    }

    @Test func readsTheLibraryModel() throws {
        let history = try Self.load(Self.libraryYAML, as: "library.yaml")
        #expect(history.versions.map(\.name) == ["V1", "V2"])
        #expect(history.currentVersionName == "V2")
        let v1 = try history.requireVersion("V1")
        #expect(v1.attribute("title", of: "Book")?.defaultValue == .string("Untitled"))
        #expect(v1.relationship("books", of: "Author")?.deleteRule == .cascade)
        #expect(v1.relationship("author", of: "Book")?.maxCount == 1)
        let v2 = try history.requireVersion("V2")
        #expect(v2.versionIdentifiers == ["second"])
        let book = try #require(v2.entity(named: "Book"))
        #expect(book.parent == "Item" && book.renamingIdentifier == "Book" && book.versionHashModifier == "reshaped")
        #expect(book.uniquenessConstraints == [["isbn"], ["fullTitle", "edition"]])
        #expect(book.indexes == [Index(name: "byTitle", properties: ["fullTitle"])])
        #expect(v2.entity(named: "Item")?.isAbstract == true)
        #expect(v2.entity(named: "Author")?.userInfo == ["owner": "library team"])
        #expect(v2.attributes(of: "Book").map(\.name).first == "created")
        #expect(v2.attribute("created", of: "Item")?.defaultValue == .date(86400))
        #expect(
            v2.attribute("id", of: "Author")?.defaultValue
                == .uuid(UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!))
        #expect(
            v2.attribute("edition", of: "Book")
                == Attribute(name: "edition", type: .integer16, defaultValue: .integer(1)))
        #expect(v2.attribute("price", of: "Book")?.defaultValue == .decimal("9.99"))
        #expect(v2.attribute("rating", of: "Book")?.defaultValue == .double(2.5))
        #expect(v2.attribute("inPrint", of: "Book")?.defaultValue == .boolean(true))
        #expect(v2.attribute("cover", of: "Book")?.defaultValue == .binary([0, 1, 2]))
        #expect(v2.attribute("cover", of: "Book")?.allowsExternalBinaryDataStorage == true)
        #expect(v2.attribute("link", of: "Book")?.preserveAfterDeletion == true)
        #expect(v2.attribute("scratch", of: "Book")?.type == .undefined)
        #expect(v2.attribute("fullTitle", of: "Book")?.renamingIdentifier == "title")
        #expect(v2.attribute("fullTitle", of: "Book")?.userInfo == ["source": "V1 title"])
        #expect(v2.attribute("isbn", of: "Book")?.isIndexed == true)
        let books = try #require(v2.relationship("books", of: "Author"))
        #expect(books.isOrdered && books.maxCount == 100 && books.deleteRule == .noAction)
        #expect(v2.relationship("author", of: "Book")?.isOptional == false)
        #expect(v2.relationship("related", of: "Book")?.versionHashModifier == "2")
    }

    @Test func jsonAndYAMLLoadIdentically() throws {
        let yaml = try Self.load(Self.libraryYAML, as: "library.yaml")
        let json = try Self.load(Self.libraryJSON, as: "library.json")
        #expect(json.versions == yaml.versions)
        #expect(json.versions.map(\.versionHashes) == yaml.versions.map(\.versionHashes))
        #expect(json.versions.map(\.versionIdentifiers) == yaml.versions.map(\.versionIdentifiers))
        #expect(json.currentVersionName == yaml.currentVersionName)
    }

    @Test func readsASingleVersionFile() throws {
        let text = """
            name: Only
            entities:
              - name: Note
                attributes: [{ name: text, type: String }]
            """
        let history = try Self.load(text, as: "note.yml")
        #expect(history.versions.map(\.name) == ["Only"])
        #expect(history.currentVersion.attributes(of: "Note").map(\.type) == [.string])
    }

    @Test func orderAndCurrentVersionOverrideTheFile() throws {
        try withTemporaryFolder { folder in
            let path = try write(Self.libraryYAML, to: "library.yaml", in: folder)
            let reversed = try ModelLoader.load(path: path, currentVersion: "V1", order: ["V2", "V1"])
            #expect(reversed.versions.map(\.name) == ["V2", "V1"])
            #expect(reversed.currentVersionName == "V1")
            // An order that leaves a version out is refused: the version would vanish from the history.
            #expect(throws: ModelError.self) { try ModelLoader.load(path: path, order: ["V1"]) }
        }
    }

    @Test func coercedDefaultsBecomeWarningsWithTheirLine() throws {
        let text = """
            name: V1
            entities:
              - name: Counter
                attributes:
                  - { name: value, type: Integer 32, default: NO }
            """
        let version = try Self.load(text, as: "counter.yaml").currentVersion
        #expect(version.attribute("value", of: "Counter")?.defaultValue == .integer(0))
        #expect(version.warnings.count == 1)
        #expect(
            version.warnings.first?.contains("counter.yaml:5: version 'V1', entity 'Counter', property 'value'") == true
        )
    }

    @Test func xcodeBundleRoundTripsThroughYAML() throws {
        let bundle = try ModelLoader.load(path: Fixtures.modelBundle.path)
        let text = ModelWriter.yamlText(of: bundle)
        let reread = try Self.load(text, as: "converted.yaml")
        #expect(reread.versions == bundle.versions)
        #expect(reread.versions.map(\.versionHashes) == bundle.versions.map(\.versionHashes))
        #expect(reread.currentVersionName == bundle.currentVersionName)
        #expect(text.contains("  - name: CoreDataMigration_Example 4\n"))
        #expect(text.contains("- { name: hide, type: Boolean, optional: true, default: false }"))
    }

    @Test func libraryModelRoundTripsThroughYAML() throws {
        let library = try Self.load(Self.libraryYAML, as: "library.yaml")
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("written.yaml").path
            try ModelWriter.write(library, toPath: path)
            let reread = try ModelLoader.load(path: path)
            #expect(reread.versions == library.versions)
            #expect(reread.versions.map(\.versionHashes) == library.versions.map(\.versionHashes))
            #expect(reread.versions.map(\.versionIdentifiers) == library.versions.map(\.versionIdentifiers))
            #expect(reread.currentVersionName == library.currentVersionName)
        }
    }

    @Test func writerQuotesNamesThatYAMLWouldMisread() throws {
        let entity = Entity(
            name: "Note",
            attributes: [
                Attribute(name: "text", type: .string, defaultValue: .string("yes: \"quoted\"\n\ttab # not a comment")),
                Attribute(name: "flag", type: .string, isOptional: true, defaultValue: .string("null")),
            ],
            userInfo: ["on": "off", "key: with colon": "[x]"])
        let history = try ModelHistory(versions: [try ModelVersion(name: "1.0 ünïcode", entities: [entity])])
        let reread = try Self.load(ModelWriter.yamlText(of: history), as: "quoted.yaml")
        #expect(reread.versions == history.versions)
    }
}

import Foundation
import ObjectModel
import TestFixtures
import Testing

/// One broken model: the files to write, what to load, and what the error must say.
struct BrokenModel: Sendable, CustomTestStringConvertible {
    var label: String
    /// Relative path → text. A text of `nil` writes an empty file (for binary `elements`/`layout`).
    var files: [String: String]
    /// The relative path to load.
    var load: String
    var currentVersion: String? = nil
    var order: [String]? = nil
    var code: ModelError.Code
    /// Texts the description must contain: file and line, entity, property, the name at fault.
    var mentions: [String]

    var testDescription: String { label }
}

/// Wraps an entity's XML lines into a version `contents` file; the first entity line is line 3.
func contents(_ lines: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" userDefinedModelVersionIdentifier="">
    \(lines)
    </model>
    """
}

let bookAndAuthor = """
    <entity name="Author">
        <attribute name="name" attributeType="String"/>
        <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author"/>
    </entity>
    """

let brokenModels: [BrokenModel] = [
    BrokenModel(
        label: "broken XML",
        files: [
            "M.xcdatamodeld/V1.xcdatamodel/contents": contents(
                """
                <entity name="Post">
                    <attribute name="title" attributeType="String">
                </entity>
                """)
        ],
        load: "M.xcdatamodeld", code: .malformedFile,
        mentions: ["M.xcdatamodeld/V1.xcdatamodel/contents:5:", "entity 'Post'", "property 'title'", "malformed XML"]),
    BrokenModel(
        label: "unknown destination entity",
        files: [
            "M.xcdatamodeld/V1.xcdatamodel/contents": contents(
                """
                <entity name="Book">
                    <attribute name="title" attributeType="String"/>
                    <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Writer"/>
                </entity>
                """)
        ],
        load: "M.xcdatamodeld", code: .unknownEntity,
        mentions: ["V1.xcdatamodel/contents:5:", "version 'V1'", "entity 'Book'", "property 'author'", "'Writer'"]),
    BrokenModel(
        label: "inverse mismatch",
        files: [
            "M.xcdatamodeld/V1.xcdatamodel/contents": contents(
                bookAndAuthor + """

                    <entity name="Book">
                        <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="writtenBooks"/>
                    </entity>
                    """)
        ],
        load: "M.xcdatamodeld", code: .inverseMismatch,
        mentions: ["V1.xcdatamodel/contents:5:", "entity 'Author'", "property 'books'", "'writtenBooks'"]),
    BrokenModel(
        label: "duplicate entity names",
        files: [
            "M.xcdatamodeld/V1.xcdatamodel/contents": contents(
                """
                <entity name="Post"><attribute name="title" attributeType="String"/></entity>
                <entity name="Post"><attribute name="body" attributeType="String"/></entity>
                """)
        ],
        load: "M.xcdatamodeld", code: .duplicateName,
        mentions: ["V1.xcdatamodel/contents:4:", "entity 'Post'", "two entities are named 'Post'"]),
    BrokenModel(
        label: "duplicate property names",
        files: [
            "M.xcdatamodeld/V1.xcdatamodel/contents": contents(
                """
                <entity name="Post">
                    <attribute name="title" attributeType="String"/>
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """)
        ],
        load: "M.xcdatamodeld", code: .duplicateName,
        mentions: ["V1.xcdatamodel/contents:5:", "entity 'Post'", "property 'title'", "declared twice"]),
    BrokenModel(
        label: "inheritance cycle",
        files: [
            "M.xcdatamodeld/V1.xcdatamodel/contents": contents(
                """
                <entity name="A" parentEntity="B"/>
                <entity name="B" parentEntity="A"/>
                """)
        ],
        load: "M.xcdatamodeld", code: .inheritanceCycle,
        mentions: ["V1.xcdatamodel/contents:3:", "entity 'A'", "A → B → A"]),
    BrokenModel(
        label: "unknown attribute type",
        files: [
            "M.xcdatamodeld/V1.xcdatamodel/contents": contents(
                """
                <entity name="Book">
                    <attribute name="pages" attributeType="Integer 31"/>
                </entity>
                """)
        ],
        load: "M.xcdatamodeld", code: .unknownAttributeType,
        mentions: ["V1.xcdatamodel/contents:4:", "entity 'Book'", "property 'pages'", "'Integer 31'", "Integer 16"]),
    BrokenModel(
        label: "legacy binary bundle",
        files: ["M.xcdatamodeld/Old.xcdatamodel/elements": "", "M.xcdatamodeld/Old.xcdatamodel/layout": ""],
        load: "M.xcdatamodeld", code: .legacyBinaryBundle,
        mentions: ["M.xcdatamodeld/Old.xcdatamodel", "version 'Old'", "Xcode 3 binary model", "re-save"]),
    BrokenModel(
        label: "missing path",
        files: [:], load: "Nowhere.xcdatamodeld", code: .unreadableFile,
        mentions: ["Nowhere.xcdatamodeld", "no such file"]),
    BrokenModel(
        label: "empty bundle",
        files: ["M.xcdatamodeld/.xccurrentversion": "<plist version=\"1.0\"><dict/></plist>"],
        load: "M.xcdatamodeld", code: .emptyModel,
        mentions: ["M.xcdatamodeld", "no .xcdatamodel version folders"]),
    BrokenModel(
        label: "unknown current version in .xccurrentversion",
        files: [
            "M.xcdatamodeld/V1.xcdatamodel/contents": contents("<entity name=\"A\"/>"),
            "M.xcdatamodeld/.xccurrentversion": """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>V9.xcdatamodel</string></dict></plist>
            """,
        ],
        load: "M.xcdatamodeld", code: .unknownVersion,
        mentions: ["M.xcdatamodeld/.xccurrentversion", "'V9'", "V1"]),
    BrokenModel(
        label: "unknown current version requested",
        files: ["M.xcdatamodeld/V1.xcdatamodel/contents": contents("<entity name=\"A\"/>")],
        load: "M.xcdatamodeld", currentVersion: "V7", code: .unknownVersion,
        mentions: ["M.xcdatamodeld", "'V7'", "V1"]),
    BrokenModel(
        label: "unknown version in the order",
        files: ["M.xcdatamodeld/V1.xcdatamodel/contents": contents("<entity name=\"A\"/>")],
        load: "M.xcdatamodeld", order: ["V1", "V3"], code: .unknownVersion,
        mentions: ["M.xcdatamodeld", "'V3'", "V1"]),
    BrokenModel(
        label: "YAML with an unknown key",
        files: [
            "m.yaml": """
            versions:
              - name: V1
                entities:
                  - name: Book
                    attributes:
                      - { name: pages, type: Integer 32, optinal: true }
            """
        ],
        load: "m.yaml", code: .malformedFile,
        mentions: ["m.yaml:6:", "version 'V1'", "entity 'Book'", "property 'pages'", "unknown key 'optinal'"]),
    BrokenModel(
        label: "YAML with a wrong type",
        files: [
            "m.yaml": """
            versions:
              - name: V1
                entities:
                  - name: Book
                    attributes:
                      - name: pages
                        type: Integer 32
                        optional: maybe
            """
        ],
        load: "m.yaml", code: .malformedFile,
        mentions: ["m.yaml:8:", "entity 'Book'", "property 'pages'", "'optional' must be true or false"]),
    BrokenModel(
        label: "YAML with an unknown attribute type",
        files: [
            "models/library.yaml": """
            versions:
              - name: V1
                entities:
                  - name: Book
                    attributes:
                      - { name: title, type: String }
                      - { name: pages, type: Integer 31 }
            """
        ],
        load: "models/library.yaml", code: .unknownAttributeType,
        mentions: [
            "models/library.yaml:7: version 'V1', entity 'Book', property 'pages': unknown attribute type 'Integer 31'"
        ]),
    BrokenModel(
        label: "YAML with an inverse mismatch",
        files: [
            "m.yaml": """
            name: V1
            entities:
              - name: Author
                relationships:
                  - { name: books, destination: Book, inverse: author, toMany: true }
              - name: Book
                relationships:
                  - { name: author, destination: Author, inverse: writers }
            """
        ],
        load: "m.yaml", code: .inverseMismatch,
        mentions: ["m.yaml:5:", "entity 'Author'", "property 'books'"]),
    BrokenModel(
        label: "YAML default that does not fit its type",
        files: [
            "m.yaml": """
            name: V1
            entities:
              - name: Book
                attributes:
                  - { name: pages, type: Integer 16, default: 70000 }
            """
        ],
        load: "m.yaml", code: .invalidDefaultValue,
        mentions: ["m.yaml:5:", "entity 'Book'", "property 'pages'", "70000"]),
    BrokenModel(
        label: "YAML syntax error",
        files: ["m.yaml": "name: V1\nentities:\n  - name: Book\n   attributes: [\n"],
        load: "m.yaml", code: .malformedFile, mentions: ["m.yaml:", "not valid YAML"]),
    BrokenModel(
        label: "JSON syntax error",
        files: ["m.json": "{\"name\": \"V1\",\n \"entities\": [\n {\"name\": \"Book\",, }]}"],
        load: "m.json", code: .malformedFile, mentions: ["m.json:3:", "not valid YAML"]),
    BrokenModel(
        label: "processing instruction without data (crashed XMLParser)",
        files: ["M.xcdatamodeld/V1.xcdatamodel/contents": contents("<!-- <?skipped?> -->\n<?junk?>\n" + bookAndAuthor)],
        load: "M.xcdatamodeld", code: .malformedFile,
        mentions: ["M.xcdatamodeld/V1.xcdatamodel/contents:4:", "processing instruction without data"]),
]

@Suite struct MalformedModelTests {
    @Test(arguments: brokenModels)
    func reportsWhereAndWhat(_ model: BrokenModel) throws {
        try withTemporaryFolder { folder in
            for (path, text) in model.files {
                try write(text, to: path, in: folder)
            }
            let path = folder.appendingPathComponent(model.load).path
            do throws(ModelError) {
                let history = try ModelLoader.load(path: path, currentVersion: model.currentVersion, order: model.order)
                Issue.record("expected \(model.code), loaded \(history.versions.map(\.name))")
            } catch {
                #expect(error.code == model.code, "\(error)")
                #expect(error.description.contains(folder.path), "\(error)")
                for mention in model.mentions {
                    #expect(error.description.contains(mention), "\(error) does not mention \(mention)")
                }
            }
        }
    }

    @Test func neverCrashesOnTruncatedXML() throws {
        let full = contents(bookAndAuthor)
        try withTemporaryFolder { folder in
            for length in stride(from: 0, to: full.utf8.count, by: 7) {
                let text = String(decoding: full.utf8.prefix(length), as: UTF8.self)
                try write(text, to: "M.xcdatamodeld/V1.xcdatamodel/contents", in: folder)
                #expect(throws: ModelError.self) {
                    try ModelLoader.load(path: folder.appendingPathComponent("M.xcdatamodeld").path)
                }
            }
        }
    }
}

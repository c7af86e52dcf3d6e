import DataGeneration
import Foundation
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

@Suite("Attribute values")
struct AttributeValueTests {
    /// The stored attributes of the catalogue's concrete entities, as (entity, attribute).
    static func storedAttributes(of version: ModelVersion) -> [(entity: String, attribute: Attribute)] {
        version.entities.filter { !$0.isAbstract }.flatMap { entity in
            version.attributes(of: entity.name).filter { !$0.isTransient }.map { (entity.name, $0) }
        }
    }

    @Test(arguments: [0.0, 1.0])
    func nullRatiosApplyToOptionalAttributesOnly(nullRatio: Double) throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, Dataset(nullRatio: nullRatio), size: 200, in: folder)
            for (entity, attribute) in Self.storedAttributes(of: version) {
                let nulls = try store.values(of: attribute.name, of: entity).filter(\.isNull).count
                let expected = attribute.isOptional && nullRatio == 1 ? 200 : 0
                #expect(nulls == expected, "\(entity).\(attribute.name): \(nulls) nil values")
            }
        }
    }

    @Test func anAttributesOwnNullRatioWins() throws {
        let version = try SampleModels.catalogue()
        let dataset = Dataset(attributes: ["Book.rating": AttributeFill(nullRatio: 0.5)], nullRatio: 0)
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, dataset, size: 2000, in: folder)
            let nulls = try store.values(of: "rating", of: "Book").filter(\.isNull).count
            #expect((800...1200).contains(nulls))
            #expect(try store.values(of: "pages", of: "Book").allSatisfy { !$0.isNull })
        }
    }

    @Test(arguments: [IntRange(5, 7), IntRange(0, 0), IntRange(30, 30)])
    func stringLengthsStayInTheirRange(length: IntRange) throws {
        let version = try SampleModels.catalogue()
        let dataset = Dataset(attributes: ["Item.title": AttributeFill(length: length)], stringLength: length)
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, dataset, size: 200, in: folder)
            for (entity, property) in [("Book", "title"), ("Film", "title"), ("Shelf", "label"), ("Tag", "name")] {
                let lengths = try store.values(of: property, of: entity).map { try #require($0.string).count }
                #expect(lengths.count == 200)
                #expect(lengths.allSatisfy { (length.min...length.max).contains($0) }, "\(entity).\(property)")
            }
        }
    }

    @Test(arguments: [IntRange(0, 3), IntRange(16, 16), IntRange(100, 200)])
    func binaryLengthsStayInTheirRange(length: IntRange) throws {
        let version = try SampleModels.catalogue()
        let dataset = Dataset(binaryLength: length, nullRatio: 0)
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, dataset, size: 200, in: folder)
            for property in ["cover", "extra"] {
                let lengths = try store.values(of: property, of: "Book").map { try #require($0.bytes).count }
                #expect(lengths.allSatisfy { (length.min...length.max).contains($0) }, "Book.\(property)")
            }
        }
    }

    @Test(arguments: ["title", "pages", "rating", "added", "price", "cover", "link", "identifier"])
    func distinctLimitsTheValues(attribute: String) throws {
        let version = try SampleModels.catalogue()
        let dataset = Dataset(attributes: ["Book.\(attribute)": AttributeFill(distinct: 3)], nullRatio: 0)
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, dataset, size: 300, in: folder)
            let values = Set(try store.values(of: attribute, of: "Book"))
            #expect((1...3).contains(values.count), "\(values.count) different values of Book.\(attribute)")
            // Films share Item.title's column but not the Book-only setting.
            if attribute == "title" {
                #expect(Set(try store.values(of: "title", of: "Film")).count > 3)
            }
        }
    }

    @Test func everyTypeReadsBack() throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, Dataset(seed: 5, nullRatio: 0.2), size: 500, in: folder)
            var types: Set<AttributeType> = []
            for (entity, attribute) in Self.storedAttributes(of: version) {
                for value in try store.values(of: attribute.name, of: entity) where !value.isNull {
                    #expect(
                        AttributeValue(sqlite: value, as: attribute.type) != nil,
                        "\(entity).\(attribute.name) (\(attribute.type)): \(value)")
                }
                types.insert(attribute.type)
            }
            #expect(types == Set(AttributeType.allCases).subtracting([.objectID, .undefined]))
        }
    }

    @Test func valuesHaveTheirTypesShape() throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, Dataset(seed: 5, nullRatio: 0), size: 2000, in: folder)
            let uuids = try store.values(of: "identifier", of: "Book")
            #expect(uuids.allSatisfy { $0.bytes?.count == 16 })
            let booleans = try store.values(of: "inPrint", of: "Book")
            #expect(Set(booleans) == [.integer(0), .integer(1)])
            let pages = try store.values(of: "pages", of: "Book")
            #expect(pages.allSatisfy { $0.int64.map { Int64(Int16.min)...Int64(Int16.max) ~= $0 } == true })
            for (entity, property) in [("Book", "copies"), ("Book", "words"), ("Film", "minutes")] {
                #expect(try store.values(of: property, of: entity).allSatisfy { $0.int64 != nil }, "\(property)")
            }
            for (entity, property) in [("Book", "rating"), ("Book", "weight")] {
                #expect(try store.values(of: property, of: entity).allSatisfy { $0.double != nil }, "\(property)")
            }
            // Dates are seconds since 2001, stored as reals (a TIMESTAMP column keeps a whole number as an integer).
            for value in try store.values(of: "added", of: "Item") {
                switch value {
                case .real: break
                case .integer(let seconds): #expect(Double(seconds) == Double(seconds).rounded())
                default: Issue.record("Item.added is \(value)")
                }
            }
            let links = try store.values(of: "link", of: "Book").compactMap(\.string)
            #expect(links.allSatisfy { URL(string: $0) != nil })
            let isbns = try store.values(of: "isbn", of: "Book")
            #expect(Set(isbns).count == 2000, "Book.isbn is unique")
        }
    }

    /// Integer attributes spread over their range rather than piling on one value.
    @Test(arguments: [("Book", "pages"), ("Book", "copies"), ("Film", "minutes")])
    func integersAreSpread(entity: String, property: String) throws {
        let version = try SampleModels.catalogue()
        try SampleModels.withTemporaryFolder { folder in
            let store = try GeneratedStore(version, Dataset(seed: 5, nullRatio: 0), size: 1000, in: folder)
            let values = try store.values(of: property, of: entity).compactMap(\.int64)
            let mostCommon = [Int64: Int]().tallying(values).values.max() ?? 0
            #expect(mostCommon < 50, "one value of \(entity).\(property) occurs \(mostCommon) times")
        }
    }
}

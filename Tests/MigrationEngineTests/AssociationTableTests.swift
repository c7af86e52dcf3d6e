import MappingModel
import Testing

@testable import MigrationEngine

@Suite("Association tables")
struct AssociationTableTests {
    static func object(_ key: Int64, entity: Int32 = 2) -> ObjectID {
        ObjectID(side: .destination, entity: entity, primaryKey: key)
    }

    @Test func identityAssociationsAnswerBothWays() throws {
        let table = AssociationTable(mapping: "AToA", sourceEntity: 1, destinationEntity: 2)
        for key in [1, 2, 5, 1000] as [Int64] { try table.associate(source: key, destination: Self.object(key)) }
        #expect(table.destinations(ofSource: 5) == [Self.object(5)])
        #expect(table.destinations(ofSource: 3).isEmpty)
        #expect(table.source(ofDestination: 1000) == 1000)
        #expect(table.source(ofDestination: 999) == nil)
        #expect(table.footprint < 1024, "one bit an object")
    }

    /// The first association that is not the identity turns the table dense, keeping every earlier one.
    @Test(arguments: ["other key", "other entity", "second destination"])
    func breakingThePatternKeepsEverything(change: String) throws {
        let table = AssociationTable(mapping: "AToA", sourceEntity: 1, destinationEntity: 2)
        for key in 1...100 as ClosedRange<Int64> { try table.associate(source: key, destination: Self.object(key)) }
        let extra: (Int64, ObjectID) =
            switch change {
            case "other key": (101, Self.object(500))
            case "other entity": (101, Self.object(101, entity: 3))
            default: (7, Self.object(600))
            }
        try table.associate(source: extra.0, destination: extra.1)
        for key in 1...100 as ClosedRange<Int64> where key != extra.0 {
            #expect(table.destinations(ofSource: key) == [Self.object(key)])
            #expect(table.source(ofDestination: key) == key)
        }
        #expect(table.destinations(ofSource: extra.0).last == extra.1)
        #expect(table.source(ofDestination: extra.1.primaryKey) == extra.0)
        #expect(table.count == 101)
    }

    /// A damaged store's key that no association table can index is an error naming the mapping, not a trap or
    /// an allocation of terabytes.
    @Test(arguments: [(-5, 1), (0, 1), (1 << 40, 1), (3, -1), (3, Int64.max)] as [(Int64, Int64)])
    func keysOutOfRangeAreRefused(source: Int64, destination: Int64) {
        let table = AssociationTable(mapping: "AToA", sourceEntity: 1, destinationEntity: 2)
        let error = #expect(throws: MigrationError.self) {
            try table.associate(source: source, destination: Self.object(destination))
        }
        #expect(error?.message.contains("entity mapping 'AToA'") == true)
        #expect(table.count == 0)
    }
}

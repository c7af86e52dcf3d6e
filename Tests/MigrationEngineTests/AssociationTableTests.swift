import MappingModel
import Testing

@testable import MigrationEngine

@Suite("Association tables")
struct AssociationTableTests {
    static func object(_ key: Int64, entity: Int32 = 2) -> ObjectID {
        ObjectID(side: .destination, entity: entity, primaryKey: key)
    }

    @Test func identityAssociationsAnswerBothWays() {
        let table = AssociationTable(mapping: "AToA", sourceEntity: 1, destinationEntity: 2)
        for key in [1, 2, 5, 1000] as [Int64] { table.associate(source: key, destination: Self.object(key)) }
        #expect(table.destinations(ofSource: 5) == [Self.object(5)])
        #expect(table.destinations(ofSource: 3).isEmpty)
        #expect(table.source(ofDestination: 1000) == 1000)
        #expect(table.source(ofDestination: 999) == nil)
        #expect(table.footprint < 1024, "one bit an object")
    }

    /// The first association that is not the identity turns the table dense, keeping every earlier one.
    @Test(arguments: ["other key", "other entity", "second destination"])
    func breakingThePatternKeepsEverything(change: String) {
        let table = AssociationTable(mapping: "AToA", sourceEntity: 1, destinationEntity: 2)
        for key in 1...100 as ClosedRange<Int64> { table.associate(source: key, destination: Self.object(key)) }
        let extra: (Int64, ObjectID) =
            switch change {
            case "other key": (101, Self.object(500))
            case "other entity": (101, Self.object(101, entity: 3))
            default: (7, Self.object(600))
            }
        table.associate(source: extra.0, destination: extra.1)
        for key in 1...100 as ClosedRange<Int64> where key != extra.0 {
            #expect(table.destinations(ofSource: key) == [Self.object(key)])
            #expect(table.source(ofDestination: key) == key)
        }
        #expect(table.destinations(ofSource: extra.0).last == extra.1)
        #expect(table.source(ofDestination: extra.1.primaryKey) == extra.0)
        #expect(table.count == 101)
    }
}

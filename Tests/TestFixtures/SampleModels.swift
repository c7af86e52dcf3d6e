public import Foundation
public import ObjectModel

/// Models built in code for tests: small, but with every feature the store layer and generator handle.
public enum SampleModels {
    /// A catalogue with inheritance (abstract `Item` → `Book`, `Film`), every attribute type, a one-to-one,
    /// an ordered one-to-many with min/max counts, a many-to-many, a to-one without inverse, a uniqueness
    /// constraint and an index.
    public static func catalogue() throws -> ModelVersion {
        try ModelVersion(
            name: "Catalogue",
            entities: [
                Entity(
                    name: "Item", isAbstract: true,
                    attributes: [
                        Attribute(name: "title", type: .string),
                        Attribute(name: "added", type: .date, isOptional: true),
                    ],
                    relationships: [
                        Relationship(name: "shelf", destination: "Shelf", inverse: "items", isOptional: false),
                        Relationship(name: "tags", destination: "Tag", inverse: "items", isToMany: true),
                    ]),
                Entity(
                    name: "Book", parent: "Item",
                    attributes: [
                        Attribute(name: "isbn", type: .string),
                        Attribute(name: "pages", type: .integer16, isOptional: true),
                        Attribute(name: "copies", type: .integer32),
                        Attribute(name: "words", type: .integer64, isOptional: true),
                        Attribute(name: "price", type: .decimal, isOptional: true),
                        Attribute(name: "rating", type: .double, isOptional: true),
                        Attribute(name: "weight", type: .float, isOptional: true),
                        Attribute(name: "inPrint", type: .boolean),
                        Attribute(name: "cover", type: .binary, isOptional: true),
                        Attribute(name: "identifier", type: .uuid),
                        Attribute(name: "link", type: .uri, isOptional: true),
                        Attribute(name: "extra", type: .transformable, isOptional: true),
                        Attribute(name: "cached", type: .string, isOptional: true, isTransient: true),
                    ],
                    relationships: [
                        Relationship(name: "barcode", destination: "Barcode", inverse: "book"),
                        Relationship(
                            name: "chapters", destination: "Chapter", inverse: "book", isToMany: true, isOrdered: true,
                            minCount: 1, maxCount: 6),
                    ],
                    uniquenessConstraints: [["isbn"]],
                    indexes: [Index(name: "byTitle", properties: ["title"])]),
                Entity(
                    name: "Film", parent: "Item",
                    attributes: [Attribute(name: "minutes", type: .integer32, isOptional: true)]),
                Entity(
                    name: "Shelf",
                    attributes: [Attribute(name: "label", type: .string)],
                    relationships: [
                        Relationship(name: "items", destination: "Item", inverse: "shelf", isToMany: true),
                        Relationship(name: "neighbour", destination: "Shelf"),
                    ]),
                Entity(
                    name: "Tag",
                    attributes: [Attribute(name: "name", type: .string)],
                    relationships: [Relationship(name: "items", destination: "Item", inverse: "tags", isToMany: true)]),
                Entity(
                    name: "Barcode",
                    attributes: [Attribute(name: "code", type: .string)],
                    relationships: [Relationship(name: "book", destination: "Book", inverse: "barcode")]),
                Entity(
                    name: "Chapter",
                    attributes: [Attribute(name: "heading", type: .string)],
                    relationships: [
                        Relationship(name: "book", destination: "Book", inverse: "chapters", isOptional: false)
                    ]),
            ])
    }

    /// Lists of songs: `List.songs` (ordered) ↔ `Song.lists`, many-to-many, the latter ordered when `listsOrdered`.
    public static func playlists(listsOrdered: Bool) throws -> ModelVersion {
        try ModelVersion(
            name: "V1",
            entities: [
                Entity(
                    name: "List", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [
                        Relationship(
                            name: "songs", destination: "Song", inverse: "lists", isToMany: true, isOrdered: true)
                    ]),
                Entity(
                    name: "Song", attributes: [Attribute(name: "title", type: .string)],
                    relationships: [
                        Relationship(
                            name: "lists", destination: "List", inverse: "songs", isToMany: true,
                            isOrdered: listsOrdered)
                    ]),
            ])
    }

    /// A fresh temporary folder for `body`, removed afterwards, also when `body` throws.
    public static func withTemporaryFolder<R>(_ body: (URL) throws -> R) throws -> R {
        try TestFixtures.withTemporaryFolder(body)
    }
}

import DataGeneration
import Foundation
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

/// `shape`: a store's shape read without its data, and stores generated from it that look like it.
@Suite("Store shapes")
struct StoreShapeTests {
    /// Every fixture store (as in ../shared/fixtures) with its model bundle.
    static let stores = Fixtures.allStores

    /// Shape → generate → shape on every real store, at its own size and at ten times it: the counts are the
    /// store's (times ten), nil shares within 2 points, p10/p50/p90 of numbers and lengths within 10 % (or 2
    /// units) of the real store's exact ones, fan-outs within a Kolmogorov–Smirnov distance of 0.1. The store's
    /// folder is left byte for byte as it was, -wal included.
    @Test(arguments: stores.map(\.store.lastPathComponent))
    func roundTripKeepsTheShape(file: String) throws {
        let (store, bundle) = try #require(Self.stores.first { $0.store.lastPathComponent == file })
        let history = try ModelLoader.load(path: bundle.path)
        try Fixtures.withStoreCopy(at: store) { url in
            let folder = url.deletingLastPathComponent()
            let before = try Self.fileHashes(in: folder)
            let real = try StoreShape.read(path: url.path, history: history)
            #expect(try Self.fileHashes(in: folder) == before, "shape changed the store's folder")
            #expect(real.totalObjects > 0)
            // Through the file, as a user would: what is written is what generates.
            let datasetFile = folder.appendingPathComponent("shape.yaml").path
            try Data(real.dataset().shapeFileText(header: []).utf8).write(to: URL(fileURLWithPath: datasetFile))
            let dataset = try Dataset.load(path: datasetFile)
            for scale in [1, 10] {
                let generated = folder.appendingPathComponent("generated-\(scale).sqlite").path
                _ = try StoreGenerator(version: real.version, dataset: dataset, size: real.totalObjects * scale)
                    .generate(at: generated)
                let copy = try StoreShape.read(path: generated, history: history)
                try Self.expectFaithful(copy, to: real, scale: scale)
            }
        }
    }

    /// A store generated from the catalogue model (inheritance, every attribute type, a one-to-one, an ordered
    /// one-to-many with min/max counts, a many-to-many), reshaped with skewed values, round-trips too.
    @Test func catalogueRoundTripKeepsTheShape() throws {
        let version = try SampleModels.catalogue()
        let history = try ModelHistory(versions: [version])
        try withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("source.sqlite").path
            let skewed = Dataset(
                seed: 5, objects: ["Book": 0.3, "Film": 0.2, "Shelf": 0.02, "Tag": 0.1, "Barcode": 0.2, "Chapter": 1],
                relationships: ["Item.tags": RelationshipFill(count: IntRange(0, 12))],
                attributes: ["Item.title": AttributeFill(nullRatio: 0, length: IntRange(1, 300))])
            _ = try StoreGenerator(version: version, dataset: skewed, size: 3000).generate(at: source)
            let real = try StoreShape.read(path: source, history: history)
            for scale in [1, 10] {
                let generated = folder.appendingPathComponent("generated-\(scale).sqlite").path
                _ = try StoreGenerator(version: version, dataset: real.dataset(), size: real.totalObjects * scale)
                    .generate(at: generated)
                try Self.expectFaithful(try StoreShape.read(path: generated, history: history), to: real, scale: scale)
            }
        }
    }

    /// The order of an ordered to-many: the catalogue's Book.chapters listed in key order (1), newest first (0),
    /// shuffled (about 0.5) or with some neighbours swapped; the shape says the share of consecutive chapters whose
    /// keys ascend, and stores generated from it, at the store's size and ten times it, list theirs within 0.05.
    @Test(
        arguments: [
            ("key order", nil, 1.0),
            ("newest first", "-Z_FOK_BOOK", 0.0),
            ("shuffled", "abs(random() % 1000000)", nil),
            ("some swapped", "Z_FOK_BOOK + 1.5 * (Z_PK % 5 = 0)", nil),
            ("mostly newest first", "-Z_FOK_BOOK + 1.5 * (Z_PK % 3 = 0)", nil),
        ] as [(String, String?, Double?)])
    func orderedListsKeepTheirOrder(_ name: String, reorder: String?, expected: Double?) throws {
        let version = try SampleModels.catalogue()
        let history = try ModelHistory(versions: [version])
        try withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("source.sqlite").path
            let dataset = Dataset(
                seed: 9, objects: ["Book": 0.2, "Chapter": 1.2],
                relationships: ["Book.chapters": RelationshipFill(count: IntRange(1, 6))])
            _ = try StoreGenerator(version: version, dataset: dataset, size: 2000).generate(at: source)
            let column = try #require(
                try Connection(path: source, mode: .readOnly).scalar(
                    "SELECT name FROM pragma_table_info('ZCHAPTER') WHERE name LIKE 'Z!_FOK!_%' ESCAPE '!'")?.string)
            #expect(column == "Z_FOK_BOOK")
            if let reorder {
                try Connection(path: source, mode: .readWrite).execute("UPDATE ZCHAPTER SET Z_FOK_BOOK = \(reorder)")
            }
            let real = try StoreShape.read(path: source, history: history)
            #expect(real.dataset().relationships["Book.chapters"]?.shape?.inKeyOrder != nil)
            try Self.expectOrderFollowed("Book.chapters", of: real, expected: expected, in: folder, name: name)
        }
    }

    /// The measured order of `key`'s lists (exactly `expected` when given) is kept, within 0.05, by stores
    /// generated from the shape at its size and ten times it, in `folder`.
    static func expectOrderFollowed(
        _ key: String, of real: StoreShape, expected: Double?, in folder: URL, name: String
    ) throws {
        let measured = try #require(real.inKeyOrder[key])
        if let expected { #expect(abs(measured - expected) < 1e-9, "\(name): \(measured)") }
        let history = try ModelHistory(versions: [real.version])
        for scale in [1, 10] {
            let generated = folder.appendingPathComponent("generated-\(scale).sqlite").path
            _ = try StoreGenerator(version: real.version, dataset: real.dataset(), size: real.totalObjects * scale)
                .generate(at: generated)
            let copy = try #require(try StoreShape.read(path: generated, history: history).inKeyOrder[key])
            #expect(abs(copy - measured) <= 0.05, "\(name) at \(scale)x: \(copy) for \(measured)")
        }
    }

    /// Where in key order a many-to-many's edges are held, on both sides: the catalogue's Item.tags with the first
    /// 20 tags popular and the later items holding fewer. The shape tells it (`byKey`), and stores generated from
    /// it, at the store's size and ten times it, hold their edges along the keys within a Kolmogorov–Smirnov
    /// distance of 0.1 on both sides; generated without `byKey` (the counts on shuffled objects) they do not.
    @Test func edgesCrowdedOnSomeKeysStaySo() throws {
        let version = try SampleModels.catalogue()
        let history = try ModelHistory(versions: [version])
        try withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("source.sqlite").path
            let dataset = Dataset(
                seed: 3, objects: ["Book": 0.3, "Film": 0.2, "Tag": 0.1],
                relationships: ["Item.tags": RelationshipFill(count: IntRange(0, 12))])
            _ = try StoreGenerator(version: version, dataset: dataset, size: 3000).generate(at: source)
            let join = try #require(
                try Store.open(at: source, version: version).layout.joinTable(for: "tags", of: "Item"))
            let item = join.sourceColumn(forRelationship: "tags", of: "Item")
            let tag = join.targetColumn(forRelationship: "tags", of: "Item")
            try Connection(path: source, mode: .readWrite).execute(
                """
                DELETE FROM \(join.name) WHERE \(tag) % 7 != 0 AND \(tag) > (SELECT MIN(Z_PK) + 20 FROM ZTAG);
                DELETE FROM \(join.name) WHERE \(item) % 3 != 0 AND \(item) > (SELECT AVG(Z_PK) FROM ZITEM);
                """)
            let real = try StoreShape.read(path: source, history: history)
            let tagSide = try #require(real.countsInKeyOrder["Tag.items"])
            #expect(Self.keyPositionDistance(tagSide, Array(repeating: 1, count: tagSide.count)) > 0.2, "crowded")
            var plain = real.dataset()
            for key in ["Item.tags", "Tag.items"] {
                #expect(plain.relationships[key]?.shape?.byKey != nil, "\(key) byKey")
                plain.relationships[key]?.shape?.byKey = nil
            }
            for scale in [1, 10] {
                let generated = folder.appendingPathComponent("generated-\(scale).sqlite").path
                _ = try StoreGenerator(version: version, dataset: real.dataset(), size: real.totalObjects * scale)
                    .generate(at: generated)
                try Self.expectFaithful(try StoreShape.read(path: generated, history: history), to: real, scale: scale)
            }
            let shuffled = folder.appendingPathComponent("shuffled.sqlite").path
            _ = try StoreGenerator(version: version, dataset: plain, size: real.totalObjects).generate(at: shuffled)
            let copy = try #require(try StoreShape.read(path: shuffled, history: history).countsInKeyOrder["Tag.items"])
            #expect(
                Self.keyPositionDistance(tagSide, copy) > 0.1, "without byKey the tags' popularity is not along keys")
        }
    }

    /// An ordered many-to-many's order is read from its join table's order column, list by list: with each list
    /// ordered by its songs' keys the share is 1, by their keys reversed 0.
    @Test func anOrderedManyToManysOrderIsMeasured() throws {
        let version = try SampleModels.playlists(listsOrdered: false)
        let history = try ModelHistory(versions: [version])
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("lists.sqlite").path
            let dataset = Dataset(seed: 4, relationships: ["List.songs": RelationshipFill(count: IntRange(2, 9))])
            _ = try StoreGenerator(version: version, dataset: dataset, size: 300).generate(at: path)
            let join = try #require(
                try Store.open(at: path, version: version).layout.joinTable(for: "songs", of: "List"))
            let order = try #require(join.orderColumn(forRelationship: "songs", of: "List"))
            let song = join.targetColumn(forRelationship: "songs", of: "List")
            let connection = try Connection(path: path, mode: .readWrite)
            for (value, expected) in [(song, 1.0), ("-" + song, 0.0)] {
                try connection.execute("UPDATE \(join.name) SET \(order) = \(value)")
                let shape = try StoreShape.read(path: path, history: history)
                #expect(shape.inKeyOrder["List.songs"] == expected, "\(value)")
                #expect(shape.inKeyOrder["Song.lists"] == nil)
                #expect(shape.dataset().relationships["List.songs"]?.shape?.inKeyOrder == expected)
            }
        }
    }

    /// An ordered many-to-many's order is followed: List.songs listed by its songs' keys (1), reversed (0),
    /// shuffled or partly swapped; stores generated from the shape, at its size and ten times it, list theirs
    /// within 0.05 of the measured share.
    @Test(
        arguments: [
            ("key order", "KEY", 1.0), ("reversed", "-KEY", 0.0), ("shuffled", "abs(random() % 1000000)", nil),
            ("some swapped", "KEY + 1.5 * (KEY % 4 = 0)", nil),
        ] as [(String, String, Double?)])
    func orderedManyToManyListsKeepTheirOrder(_ name: String, reorder: String, expected: Double?) throws {
        try withTemporaryFolder { folder in
            let real = try Self.reorderedPlaylists(in: folder, songsOrder: reorder, listsOrder: nil)
            try Self.expectOrderFollowed("List.songs", of: real, expected: expected, in: folder, name: name)
        }
    }

    /// A many-to-many ordered on both sides keeps both orders: List.songs and Song.lists each listed by their
    /// members' keys, reversed, shuffled or partly swapped (the two independently); stores generated from the
    /// shape, at its size and ten times it, list both sides within 0.05 of the measured shares.
    @Test(
        arguments: [
            ("key order, reversed", "KEY", "-KEY"), ("reversed, shuffled", "-KEY", "abs(random() % 1000000)"),
            ("some swapped, mostly reversed", "KEY + 1.5 * (KEY % 4 = 0)", "-KEY + 1.5 * (KEY % 5 = 0)"),
            ("shuffled, some swapped", "abs(random() % 1000000)", "KEY + 1.5 * (KEY % 3 = 0)"),
        ] as [(String, String, String)])
    func bothOrderedSidesKeepTheirOrder(_ name: String, songsOrder: String, listsOrder: String) throws {
        try withTemporaryFolder { folder in
            let real = try Self.reorderedPlaylists(in: folder, songsOrder: songsOrder, listsOrder: listsOrder)
            for key in ["List.songs", "Song.lists"] {
                let generated = folder.appendingPathComponent(key)
                try FileManager.default.createDirectory(at: generated, withIntermediateDirectories: false)
                try Self.expectOrderFollowed(key, of: real, expected: nil, in: generated, name: "\(name) \(key)")
            }
        }
    }

    /// The shape of a store of 2,000 lists and songs whose List.songs order column is set to `songsOrder` (KEY:
    /// the song's key) and, when given, Song.lists ordered too with its order column set to `listsOrder` (KEY:
    /// the list's key).
    static func reorderedPlaylists(in folder: URL, songsOrder: String, listsOrder: String?) throws -> StoreShape {
        let version = try SampleModels.playlists(listsOrdered: listsOrder != nil)
        let path = folder.appendingPathComponent("lists.sqlite").path
        let dataset = Dataset(
            seed: 6, objects: ["List": 0.2, "Song": 0.8],
            relationships: ["List.songs": RelationshipFill(count: IntRange(2, 12))])
        _ = try StoreGenerator(version: version, dataset: dataset, size: 2000).generate(at: path)
        let join = try #require(try Store.open(at: path, version: version).layout.joinTable(for: "songs", of: "List"))
        let song = join.targetColumn(forRelationship: "songs", of: "List")
        var sets = [
            "\(try #require(join.orderColumn(forRelationship: "songs", of: "List"))) = "
                + songsOrder.replacingOccurrences(of: "KEY", with: song)
        ]
        if let listsOrder {
            let list = join.sourceColumn(forRelationship: "songs", of: "List")
            sets.append(
                "\(try #require(join.orderColumn(forRelationship: "lists", of: "Song"))) = "
                    + listsOrder.replacingOccurrences(of: "KEY", with: list))
        }
        try Connection(path: path, mode: .readWrite).execute(
            "UPDATE \(join.name) SET \(sets.joined(separator: ", "))")
        return try StoreShape.read(path: path, history: ModelHistory(versions: [version]))
    }

    /// No stored value leaves: a store seeded with marker strings, binary values and numbers of many digits
    /// gives a dataset (YAML and JSON) in which none of them appears, and in which no number equals a stored
    /// number that has more than two significant digits.
    @Test func shapeHoldsNoStoredValue() throws {
        let version = try SampleModels.catalogue()
        let history = try ModelHistory(versions: [version])
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("private.sqlite").path
            _ = try StoreGenerator(version: version, dataset: Dataset(seed: 3), size: 400).generate(at: path)
            let connection = try Connection(path: path, mode: .readWrite)
            let layout = try StoreLayout(version: version)
            let book = layout.table(for: "Book")
            func column(_ property: String, _ entity: String = "Book") throws -> String {
                quoted(try #require(layout.table(for: entity).column(for: property, of: entity, version: version)).name)
            }
            let marker = "SECRETMARKER"
            try connection.execute(
                """
                UPDATE \(quoted(book.name)) SET \(try column("title")) = '\(marker)-title-' || Z_PK,
                \(try column("isbn")) = '\(marker)-isbn-' || Z_PK,
                \(try column("words")) = 987654321 + Z_PK * 7,
                \(try column("copies")) = 31337 + Z_PK,
                \(try column("rating")) = 3.14159265 * Z_PK,
                \(try column("added")) = 654321987.125 + Z_PK,
                \(try column("price")) = 12345.67 + Z_PK,
                \(try column("cover")) = CAST('\(marker)-cover' AS BLOB)
                WHERE Z_ENT = \(layout.entityNumbers["Book"]!)
                """)
            try connection.execute(
                "UPDATE \(quoted(layout.table(for: "Tag").name)) SET \(try column("name", "Tag")) = '\(marker)-tag'")
            // Every number stored, to compare with every number written.
            var stored = Set<Double>()
            for name in ["words", "copies", "rating", "added", "price", "pages", "weight"] {
                for row in try connection.rows("SELECT \(try column(name)) FROM \(quoted(book.name))") {
                    if case .integer(let value) = row[0] { stored.insert(Double(value)) }
                    if case .real(let value) = row[0] { stored.insert(value) }
                }
            }
            let shape = try StoreShape.read(path: path, history: history)
            for text in [shape.dataset().shapeFileText(header: []), try shape.dataset().shapeFileJSON()] {
                #expect(!text.contains(marker))
                for fragment in ["987654", "31337", "3.14159", "654321987", "12345.67"] {
                    #expect(!text.contains(fragment), "\(fragment) leaked")
                }
                let numbers = text.split { !"0123456789.e+-".contains($0) }.compactMap { Double($0) }
                #expect(!numbers.isEmpty)
                for number in numbers where stored.contains(number) {
                    #expect(Self.significantDigits(number) <= 2, "\(number) is a stored value")
                }
            }
        }
    }

    /// A store that fits no version of the model is refused with one line naming it.
    @Test func refusesAStoreTheModelDoesNotFit() throws {
        let history = try ModelLoader.load(
            path: Fixtures.coreDataPlus.appendingPathComponent("SampleModel3/SampleModel3.xcdatamodeld").path)
        try Fixtures.withStoreCopy("CoreDataMigration_Example_1.sqlite") { url in
            let error = #expect(throws: GenerationError.self) { try StoreShape.read(path: url.path, history: history) }
            #expect(error?.message.contains(url.path) == true)
            #expect(error?.message.contains("fits no version") == true)
            #expect(error?.message.contains("\n") == false)
        }
    }

    // MARK: - Checks

    static func expectFaithful(_ copy: StoreShape, to real: StoreShape, scale: Int) throws {
        for (entity, count) in real.objects {
            #expect(copy.objects[entity] == count * scale, "objects of \(entity)")
        }
        for (key, measure) in real.attributes where measure.objects > 0 {
            let other = try #require(copy.attributes[key], "\(key) missing")
            #expect(abs(other.nullRatio - measure.nullRatio) <= 0.02, "\(key) nil share")
            for (name, mine, theirs) in [
                ("numbers", measure.numbers, other.numbers), ("lengths", measure.lengths, other.lengths),
            ] {
                guard let mine, !mine.isEmpty else { continue }
                let theirs = try #require(theirs, "\(key) \(name) missing")
                for level in [0.1, 0.5, 0.9] {
                    let (expected, actual) = (
                        Quantiles.quantile(mine, at: level), Quantiles.quantile(theirs, at: level)
                    )
                    #expect(
                        abs(actual - expected) <= max(0.1 * abs(expected), 2),
                        "\(key) \(name) p\(Int(level * 100)): \(actual) for \(expected) (scale \(scale))")
                }
            }
        }
        for (key, fill) in real.fills {
            #expect(abs((copy.fills[key] ?? -1) - fill) <= 0.02, "\(key) fill")
        }
        let copyFanOuts = copy.fanOuts  // sorted anew on each access
        for (key, counts) in real.fanOuts where !counts.isEmpty {
            let other = try #require(copyFanOuts[key], "\(key) fan-out missing")
            let distance = kolmogorovSmirnov(counts, other)
            #expect(distance <= 0.1, "\(key) fan-out: KS distance \(distance) (scale \(scale))")
        }
        for (key, counts) in real.countsInKeyOrder where counts.reduce(0, +) > 0 {
            let other = try #require(copy.countsInKeyOrder[key], "\(key) counts missing")
            let distance = keyPositionDistance(counts, other)
            #expect(distance <= 0.1, "\(key) edges by key: KS distance \(distance) (scale \(scale))")
        }
    }

    /// The Kolmogorov–Smirnov distance between where two stores' edges are held along the keys: the n objects in
    /// key order share the line from 0 to 1, a slot of 1/n each, and an object's edges are spread evenly over its
    /// slot (as ``FanOutShape/byKey`` measures them), from each object's count in key order.
    static func keyPositionDistance(_ first: [Int], _ second: [Int]) -> Double {
        let (firstEdges, secondEdges) = (Double(first.reduce(0, +)), Double(second.reduce(0, +)))
        guard firstEdges > 0, secondEdges > 0 else { return firstEdges == secondEdges ? 0 : 1 }
        func share(_ counts: [Int], _ edges: Double) -> (Double) -> Double {
            var cumulative = [0.0]
            for count in counts { cumulative.append(cumulative.last! + Double(count)) }
            return { x in
                let place = x * Double(counts.count)
                let whole = min(Int(place.rounded(.down)), counts.count)
                let partial = whole < counts.count ? (place - Double(whole)) * Double(counts[whole]) : 0
                return (cumulative[whole] + partial) / edges
            }
        }
        let (f, g) = (share(first, firstEdges), share(second, secondEdges))
        let firstPoints: [Double] = (0...first.count).map { Double($0) / Double(first.count) }
        let secondPoints: [Double] = (0...second.count).map { Double($0) / Double(second.count) }
        var distance = 0.0
        for x in firstPoints + secondPoints { distance = max(distance, abs(f(x) - g(x))) }
        return distance
    }

    /// The largest difference between the two samples' distribution functions (both sorted).
    static func kolmogorovSmirnov(_ first: [Int], _ second: [Int]) -> Double {
        guard !first.isEmpty, !second.isEmpty else { return first.isEmpty == second.isEmpty ? 0 : 1 }
        var (i, j, distance) = (0, 0, 0.0)
        while i < first.count && j < second.count {
            let value = min(first[i], second[j])
            while i < first.count && first[i] == value { i += 1 }
            while j < second.count && second[j] == value { j += 1 }
            distance = max(distance, abs(Double(i) / Double(first.count) - Double(j) / Double(second.count)))
        }
        return distance
    }

    static func significantDigits(_ value: Double) -> Int {
        var digits = String(format: "%.15g", abs(value)).filter(\.isNumber)
        while digits.hasPrefix("0") { digits.removeFirst() }
        while digits.hasSuffix("0") { digits.removeLast() }
        return digits.count
    }

    static func fileHashes(in folder: URL) throws -> [String: Data] {
        var hashes: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            hashes[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return hashes
    }
}

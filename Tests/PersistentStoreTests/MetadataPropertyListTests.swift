import Foundation
import ObjectModel
import PersistentStore
import SQLiteDatabase
import TestFixtures
import Testing

/// Our binary property list reader and writer against the metadata Core Data wrote into every fixture store, with
/// Foundation's `PropertyListSerialization` as the second reader.
struct MetadataPropertyListTests {
    /// `Z_METADATA.Z_PLIST` of a fixture store (read from a copy, its `-wal` folded in there).
    static func plist(of store: URL) throws -> [UInt8] {
        try Fixtures.withStoreCopy(at: store) { copy in
            let connection = try Connection(path: copy.path, mode: .readOnly)
            return try #require(try connection.scalar("SELECT Z_PLIST FROM Z_METADATA")?.bytes)
        }
    }

    @Test(arguments: Fixtures.allStores.map(\.store))
    func coreDataMetadataIsWrittenBackByteForByte(store: URL) throws {
        let bytes = try Self.plist(of: store)
        #expect(BinaryPropertyList.encode(try BinaryPropertyList.parse(bytes)) == bytes)
    }

    @Test(arguments: Fixtures.allStores.map(\.store))
    func coreDataMetadataReadsAsFoundationReadsIt(store: URL) throws {
        let bytes = try Self.plist(of: store)
        let foundation = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        let ours = try BinaryPropertyList.parse(bytes)
        #expect(Self.sorted(ours) == Self.value(foundation))
        let metadata = try StoreMetadata(plist: bytes, uuid: "x")
        let dictionary = try #require(foundation as? [String: Any])
        #expect(metadata.storeType == dictionary["NSStoreType"] as? String)
        #expect(metadata.versionIdentifiers == dictionary["NSStoreModelVersionIdentifiers"] as? [String])
        #expect(metadata.frameworkVersion == (dictionary["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue)
        let hashes = try #require(dictionary["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(metadata.versionHashes.mapValues(\.bytes) == hashes.mapValues { Array($0) })
    }

    /// Every kind of value, counts past the one-nibble limit and more than 255 objects (two-byte references):
    /// read back the same by us and by Foundation.
    @Test func everyKindRoundTrips() throws {
        var many = PropertyListDictionary()
        for index in 0..<300 { many["key \(index)"] = .integer(Int64(index) * 1_000_003) }
        let value = PropertyListValue.dictionary([
            "ascii": .string("SQLite"), "unicode": .string("Zoë → 東京"), "empty": .string(""),
            "long": .string(String(repeating: "x", count: 300)),
            "numbers": .array([
                .integer(0), .integer(255), .integer(256), .integer(70_000), .integer(1 << 40),
                .integer(-1), .integer(.min), .integer(.max),
            ]),
            "reals": .array([.real(0.5), .real(-1e300)]), "date": .date(-978_307_200),
            "flags": .array([.boolean(true), .boolean(false), .boolean(true)]),
            "data": .data(Array(0..<40)), "shared": .array([.string("SQLite"), .data(Array(0..<40))]),
            "many": .dictionary(many),
        ])
        let bytes = BinaryPropertyList.encode(value)
        #expect(try BinaryPropertyList.parse(bytes) == value)
        #expect(try BinaryPropertyList.parseMetadata(bytes) == value)
        let foundation = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        #expect(Self.value(foundation) == Self.sorted(value))
    }

    /// What this project writes for a new store is read by Foundation as the same metadata.
    @Test func newStoreMetadataReadsInFoundation() throws {
        let version = try ModelVersion(
            name: "V1", entities: [Entity(name: "Post", attributes: [Attribute(name: "title", type: .string)])])
        let metadata = StoreMetadata(version: version, uuid: "F00")
        let bytes = try metadata.plist()
        let dictionary = try #require(
            try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) as? [String: Any])
        #expect(dictionary["NSStoreType"] as? String == "SQLite")
        // Core Data keeps the UUID in Z_METADATA.Z_UUID only: no fixture store's Z_PLIST holds NSStoreUUID.
        #expect(dictionary["NSStoreUUID"] == nil)
        #expect(dictionary["MigrationBenchModelVersionName"] as? String == "V1")
        #expect(
            (dictionary["NSStoreModelVersionHashes"] as? [String: Data])?["Post"].map(Array.init)
                == version.versionHashes["Post"]?.bytes)
        #expect(try StoreMetadata(plist: bytes, uuid: "F00") == metadata)
    }

    /// The metadata of a real store, written again by us, holds Core Data's keys in the order Core Data wrote
    /// them, with the same values, but for what we cannot or do not write: the checksum of the compiled model
    /// (framework 1344), and the hashes' digest, which framework 847 did not write yet.
    @Test(arguments: Fixtures.allStores.map(\.store))
    func metadataIsWrittenWithCoreDataKeysInItsOrder(store: URL) throws {
        let bytes = try Self.plist(of: store)
        let written = try StoreMetadata(plist: bytes, uuid: "x").plist()
        guard case .dictionary(let real) = try BinaryPropertyList.parse(bytes),
            case .dictionary(let ours) = try BinaryPropertyList.parse(written)
        else {
            Issue.record("the metadata is not a dictionary")
            return
        }
        let keys = ours.keys.filter { real[$0] != nil || $0 != "NSStoreModelVersionHashesDigest" }
        #expect(keys == real.keys.filter { $0 != "NSStoreModelVersionChecksumKey" })
        for key in keys where key != "NSStoreModelVersionHashes" { #expect(ours[key] == real[key], "\(key)") }
        let hashes = "NSStoreModelVersionHashes"
        #expect(Self.sorted(ours[hashes] ?? .null) == Self.sorted(real[hashes] ?? .null))
    }

    /// `value` with every dictionary's keys sorted, to compare with Foundation's unordered dictionaries.
    static func sorted(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .array(let items): return .array(items.map(sorted))
        case .dictionary(let dictionary):
            var result = PropertyListDictionary()
            for (key, item) in dictionary.sorted(by: { $0.0 < $1.0 }) { result[key] = sorted(item) }
            return .dictionary(result)
        default: return value
        }
    }

    /// A value Foundation read, as a ``PropertyListValue`` with sorted keys.
    static func value(_ object: Any) -> PropertyListValue? {
        switch object {
        case let text as String: return .string(text)
        case let data as Data: return .data(Array(data))
        case let date as Date: return .date(date.timeIntervalSinceReferenceDate)
        case let items as [Any]:
            let values = items.compactMap(value)
            return values.count == items.count ? .array(values) : nil
        case let dictionary as [String: Any]:
            var result = PropertyListDictionary()
            for key in dictionary.keys.sorted() {
                guard let item = dictionary[key].flatMap(value) else { return nil }
                result[key] = item
            }
            return .dictionary(result)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return .boolean(number.boolValue)
            case "d", "f": return .real(number.doubleValue)
            default: return .integer(number.int64Value)
            }
        default: return nil
        }
    }
}

import Foundation
import ObjectModel
import PersistentStore
import Testing

/// Inputs that crashed the metadata reader under libFuzzer (`scripts/fuzz metadata`), and its other refusals:
/// each is an error now, and sound metadata still reads.
@Suite("Metadata reader regressions")
struct MetadataFuzzRegressionTests {
    /// Core Data metadata with its top dictionary turned into a set: Foundation crashed bridging it.
    static let crashes = [
        "YnBsaXN0MDDDAQIDBAUGBwkKCxARXxAeTlNTdG9yZU1vZGVsVmVyc2lvbklkZW50aWZpZXJzW05TU3RvcmVUeXBlXxASX05TQXV0b1ZhY3V1bUxldmVsXxAZTlNTdG9yZU1vZGVsVmVyc2lvbkhhc2hlc18QHU5TUGVyc2lzdGVuY2VGcmFtZXdya29WZXJzaW9uXxAgTlNTdG9yZU1vZGVsVmVyc2lvbkhhc2hlc1ZlcnNpb26hCFBWU1FMaXRlUTLSDA0OD1VDb2xvclRQb3N0TxAgxCYQ2suC39Z9AQAAAAgAFQA2AEIAV5fbnKCX/nycuedPECCKVf1M5sMURDE9TJfgJHrF0+0lKMSE2utwtOSB024jRRH//xADAAgAFQA2AEIAVwBzAJMAtgC4ALkAwADCAMcAzQDSAPUBGAEbAAAAAAAAAgEAAAAAAAAAEgAAAAAAAAAAAAAAAAAAAR0=",
        "YnBsaXN0MDDGAQIDBAUGBwkKCw4PXxAeTlNTdG9yZU1vZGVsVmVyc2lvbklkZW50aWZpZXJzW05TU3RvcmVUeXBlXxASX05TQXV0b1ZhY3V1bUxldmVsXxAZTlNTdG9yZU1vZGVsVmVyc2lvbkhhc2hlc18QHU5TUGVyc2lzdGVuY2VGcmFtZXdvcmtWZXJzaW9uXxAgTlNTdG9yZU1vZGVsVmVyc2lvbkhhc2hlc1ZlcnNpb26hCFBWU1FMaXRlUTLRDA1UUG9zdE8QILnx0bQ0RvGtEYykoD4ibgX5jImcmLUkwT8C9lFN7V6AEQNPEAMIFTZCV3OTtri5wMLFyu3wAAAAAAAAAQEAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAPI=",
    ]

    @Test(arguments: crashes.indices)
    func crashingInputIsRefused(index: Int) throws {
        let bytes = try #require(Data(base64Encoded: Self.crashes[index]))
        let error = #expect(throws: StoreError.self) { try StoreMetadata(plist: [UInt8](bytes), uuid: "x") }
        #expect(error?.code == .unreadableMetadata)
        #expect(error?.message.contains("a set") == true || error?.message.contains("kind") == true)
    }

    /// Damage to the structure of sound metadata: each is refused with a reason, never a crash.
    @Test(arguments: [
        (0, "not a binary property list"), (-26, "trailer"), (-25, "trailer"), (-9, "trailer"), (-1, "trailer"),
    ])
    func damagedStructureIsRefused(offsetFromEnd: Int, says: String) throws {
        var bytes = try StoreMetadata(version: try Self.version()).plist()
        let index = offsetFromEnd < 0 ? bytes.count + offsetFromEnd : offsetFromEnd
        bytes[index] = 0xFF
        let error = #expect(throws: StoreError.self) { try StoreMetadata(plist: bytes, uuid: "x") }
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
    }

    /// A dictionary that contains itself, and one keyed by a number.
    @Test func cyclesAndNonStringKeysAreRefused() throws {
        // bplist00, object 0 = { object 1: object 0 } with object 1 the string "k"; then { 7: "k" }.
        let cycle: [UInt8] =
            Array("bplist00".utf8) + [0xD1, 0x01, 0x00, 0x51, 0x6B] + [8, 11]
            + [0, 0, 0, 0, 0, 0, 1, 1] + Self.be(2) + Self.be(0) + Self.be(13)
        #expect(throws: StoreError.self) { try StoreMetadata(plist: cycle, uuid: "x") }
        let numberKey: [UInt8] =
            Array("bplist00".utf8) + [0xD1, 0x01, 0x02, 0x10, 0x07, 0x51, 0x6B] + [8, 11, 13]
            + [0, 0, 0, 0, 0, 0, 1, 1] + Self.be(3) + Self.be(0) + Self.be(15)
        let error = #expect(throws: StoreError.self) { try StoreMetadata(plist: numberKey, uuid: "x") }
        #expect(error?.message.contains("key is not a string") == true, "\(error?.message ?? "")")
    }

    @Test func soundMetadataReads() throws {
        let version = try Self.version()
        let metadata = try StoreMetadata(plist: try StoreMetadata(version: version).plist(), uuid: "x")
        #expect(metadata.isCompatible(with: version))
    }

    static func version() throws -> ModelVersion {
        try ModelVersion(
            name: "V1", entities: [Entity(name: "Post", attributes: [Attribute(name: "title", type: .string)])])
    }

    static func be(_ value: UInt64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}

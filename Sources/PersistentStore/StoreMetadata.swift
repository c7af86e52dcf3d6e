public import Foundation
public import ObjectModel

/// The metadata dictionary of a store (`Z_METADATA.Z_PLIST`), read without a model.
///
/// Like Core Data's `metadataForPersistentStore(ofType:at:)`: the entity version hashes tell which
/// model version a store is at.
public struct StoreMetadata: Sendable, Hashable {
    /// `NSStoreType`, `SQLite` for every store this project reads.
    public var storeType: String
    /// The store's UUID (`Z_METADATA.Z_UUID`).
    public var uuid: String
    /// `NSStoreModelVersionHashes`: each entity's 32-byte version hash.
    public var versionHashes: [String: VersionHash]
    /// `NSStoreModelVersionIdentifiers`.
    public var versionIdentifiers: [String]
    /// `NSPersistenceFrameworkVersion`, present in stores written by Core Data.
    public var frameworkVersion: Int?
    /// The name of the model version this project wrote the store at, if this project wrote it.
    public var modelVersionName: String?

    /// The key under which this project records the model version's name.
    static let modelVersionNameKey = "MigrationBenchModelVersionName"

    /// Metadata for a new store at `version`.
    public init(version: ModelVersion, uuid: String = UUID().uuidString) {
        self.storeType = "SQLite"
        self.uuid = uuid
        self.versionHashes = version.versionHashes
        self.versionIdentifiers = version.versionIdentifiers.isEmpty ? [""] : version.versionIdentifiers
        self.frameworkVersion = nil
        self.modelVersionName = version.name
    }

    /// Decodes the binary property list of `Z_PLIST`.
    public init(plist: [UInt8], uuid: String) throws(StoreError) {
        if let problem = BinaryPropertyList.problem(in: plist) {
            throw StoreError(.unreadableMetadata, "Z_METADATA.Z_PLIST is damaged: \(problem)")
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(plist), options: [], format: nil)
        } catch {
            throw StoreError(
                .unreadableMetadata, "Z_METADATA.Z_PLIST is not a property list (\(InputLimits.describe(error)))")
        }
        guard let dictionary = object as? [String: Any] else {
            throw StoreError(.unreadableMetadata, "Z_METADATA.Z_PLIST is not a dictionary")
        }
        guard let hashes = dictionary["NSStoreModelVersionHashes"] as? [String: Any] else {
            throw StoreError(.unreadableMetadata, "the metadata has no NSStoreModelVersionHashes")
        }
        var versionHashes: [String: VersionHash] = [:]
        for (entity, value) in hashes {
            guard let data = value as? Data, let hash = VersionHash(bytes: Array(data)) else {
                throw StoreError(.unreadableMetadata, "the version hash of '\(entity)' is not 32 bytes", entity: entity)
            }
            versionHashes[entity] = hash
        }
        self.storeType = dictionary["NSStoreType"] as? String ?? "SQLite"
        self.uuid = (dictionary["NSStoreUUID"] as? String) ?? uuid
        self.versionHashes = versionHashes
        self.versionIdentifiers = dictionary["NSStoreModelVersionIdentifiers"] as? [String] ?? []
        self.frameworkVersion = (dictionary["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue
        self.modelVersionName = dictionary[Self.modelVersionNameKey] as? String
    }

    /// Encodes the metadata as Core Data does: a binary property list.
    ///
    /// Encoded through `PropertyListEncoder` rather than from a `[String: Any]`: a Swift dictionary's order
    /// changes from one instance to the next, and with it the bytes, so the same store would not be
    /// written the same way twice.
    public func plist() throws(StoreError) -> [UInt8] {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        do {
            return Array(try encoder.encode(EncodedMetadata(self)))
        } catch {
            throw StoreError(.unreadableMetadata, "the metadata could not be encoded: \(error)")
        }
    }

    /// Whether a store with this metadata can be opened with `version`: the hashes are equal, entity by entity.
    public func isCompatible(with version: ModelVersion) -> Bool {
        versionHashes == version.versionHashes
    }

    /// The entities whose hashes differ from `version`'s, or that only one side has, in order of name.
    public func mismatchedEntities(against version: ModelVersion) -> [String] {
        let names = Set(versionHashes.keys).union(version.versionHashes.keys)
        return names.filter { versionHashes[$0] != version.versionHashes[$0] }.sorted()
    }
}

/// The metadata dictionary's keys and values, as Core Data names them.
private struct EncodedMetadata: Encodable {
    let metadata: StoreMetadata

    init(_ metadata: StoreMetadata) {
        self.metadata = metadata
    }

    enum CodingKeys: String, CodingKey {
        case NSStoreType, NSStoreUUID, NSStoreModelVersionHashes, NSStoreModelVersionHashesVersion
        case NSStoreModelVersionHashesDigest, NSStoreModelVersionIdentifiers, NSPersistenceFrameworkVersion
        case modelVersionName = "MigrationBenchModelVersionName"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(metadata.storeType, forKey: .NSStoreType)
        try container.encode(metadata.uuid, forKey: .NSStoreUUID)
        try container.encode(metadata.versionHashes.mapValues { Data($0.bytes) }, forKey: .NSStoreModelVersionHashes)
        try container.encode(3, forKey: .NSStoreModelVersionHashesVersion)
        try container.encode(ModelVersion.digest(of: metadata.versionHashes), forKey: .NSStoreModelVersionHashesDigest)
        try container.encode(metadata.versionIdentifiers, forKey: .NSStoreModelVersionIdentifiers)
        try container.encodeIfPresent(metadata.frameworkVersion, forKey: .NSPersistenceFrameworkVersion)
        try container.encodeIfPresent(metadata.modelVersionName, forKey: .modelVersionName)
    }
}

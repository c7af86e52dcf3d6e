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
    /// `_NSAutoVacuumLevel`: the store file's `PRAGMA auto_vacuum`. Core Data creates every store with 2
    /// (incremental) and writes "2" (every fixture store); what it writes for a store at 0 is not known, so a level
    /// of 0 or nil writes no key.
    public var autoVacuumLevel: Int?

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
        self.autoVacuumLevel = 2
    }

    /// Decodes the binary property list of `Z_PLIST`; `uuid` is `Z_METADATA.Z_UUID`, where Core Data keeps the
    /// store's UUID (its `Z_PLIST` holds no `NSStoreUUID`).
    public init(plist: [UInt8], uuid: String) throws(StoreError) {
        let object: PropertyListValue
        do {
            object = try BinaryPropertyList.parseMetadata(plist)
        } catch {
            throw StoreError(.unreadableMetadata, "Z_METADATA.Z_PLIST is damaged: \(error.message)")
        }
        guard case .dictionary(let dictionary) = object else {
            throw StoreError(.unreadableMetadata, "Z_METADATA.Z_PLIST is not a dictionary")
        }
        guard case .dictionary(let hashes)? = dictionary["NSStoreModelVersionHashes"] else {
            throw StoreError(.unreadableMetadata, "the metadata has no NSStoreModelVersionHashes")
        }
        var versionHashes: [String: VersionHash] = [:]
        for (entity, value) in hashes {
            guard case .data(let bytes) = value, let hash = VersionHash(bytes: bytes) else {
                throw StoreError(.unreadableMetadata, "the version hash of '\(entity)' is not 32 bytes", entity: entity)
            }
            versionHashes[entity] = hash
        }
        self.storeType = Self.string(dictionary["NSStoreType"]) ?? "SQLite"
        self.uuid = uuid
        self.versionHashes = versionHashes
        if case .array(let items)? = dictionary["NSStoreModelVersionIdentifiers"] {
            let texts = items.compactMap(Self.string)
            self.versionIdentifiers = texts.count == items.count ? texts : []
        } else {
            self.versionIdentifiers = []
        }
        switch dictionary["NSPersistenceFrameworkVersion"] {
        case .integer(let number)?: self.frameworkVersion = Int(clamping: number)
        case .real(let number)? where number.isFinite && abs(number) < 0x1p62: self.frameworkVersion = Int(number)
        case .boolean(let flag)?: self.frameworkVersion = flag ? 1 : 0
        default: self.frameworkVersion = nil
        }
        self.modelVersionName = Self.string(dictionary[Self.modelVersionNameKey])
        self.autoVacuumLevel = Self.string(dictionary["_NSAutoVacuumLevel"]).flatMap { Int($0) }
    }

    /// The text of a string value, else nil.
    private static func string(_ value: PropertyListValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        return text
    }

    /// Encodes the metadata as Core Data does: a binary property list, laid out as Core Foundation lays it
    /// out, with the keys Core Data writes in the order its stores hold them (every fixture store, framework
    /// versions 847 to 1344, has them in this order, a subset where it has fewer) and the hashes in order of
    /// entity name, so that the same store is written the same way twice. The UUID is not among them: Core Data
    /// keeps it in `Z_METADATA.Z_UUID` only. This project's own key, the model version's name, comes last, as an
    /// app's keys may.
    public func plist() throws(StoreError) -> [UInt8] {
        var hashes = PropertyListDictionary()
        for entity in versionHashes.keys.sorted() { hashes[entity] = .data(versionHashes[entity]?.bytes ?? []) }
        var dictionary: PropertyListDictionary = [
            "NSStoreModelVersionIdentifiers": .array(versionIdentifiers.map { .string($0) }),
            "NSStoreType": .string(storeType),
            "_NSAutoVacuumLevel": .string(String(autoVacuumLevel ?? 0)),
            "NSStoreModelVersionHashesDigest": .string(ModelVersion.digest(of: versionHashes)),
            "NSStoreModelVersionHashes": .dictionary(hashes),
        ]
        if (autoVacuumLevel ?? 0) == 0 { dictionary["_NSAutoVacuumLevel"] = nil }
        dictionary["NSPersistenceFrameworkVersion"] = frameworkVersion.map { .integer(Int64($0)) }
        dictionary["NSStoreModelVersionHashesVersion"] = .integer(3)
        dictionary[Self.modelVersionNameKey] = modelVersionName.map { .string($0) }
        return BinaryPropertyList.encode(.dictionary(dictionary))
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

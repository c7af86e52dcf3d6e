extension ModelVersion {
    /// Core Data's `NSStoreModelVersionHashesDigest` of any set of entity hashes, such as a store's.
    public static func digest(of hashes: [String: VersionHash]) -> String {
        VersionHashing.digest(of: hashes)
    }
}

extension ModelVersion {
    /// The version hash of every stored property of `entity`, own and inherited, by name (transient ones are
    /// not hashed); Xcode's mapping compiler compares them to tell a copy mapping from a transform.
    package func propertyVersionHashes(of entity: String) -> [String: VersionHash] {
        var hashes: [String: VersionHash] = [:]
        for attribute in storedAttributes(of: entity) {
            hashes[attribute.name] = VersionHash(bytes: VersionHashing.hash(of: attribute))
        }
        for relationship in relationships(of: entity) where !relationship.isTransient {
            hashes[relationship.name] = VersionHash(bytes: VersionHashing.hash(of: relationship, in: entity))
        }
        return hashes
    }
}

extension ModelVersion {
    /// Core Data's `NSStoreModelVersionHashesDigest` of any set of entity hashes, such as a store's.
    public static func digest(of hashes: [String: VersionHash]) -> String {
        VersionHashing.digest(of: hashes)
    }
}

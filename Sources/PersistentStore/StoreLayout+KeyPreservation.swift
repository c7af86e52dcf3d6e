extension StoreLayout {
    /// One entity mapping as the key-preservation rule sees it: the destination entity it makes objects of, and
    /// the source entity whose objects it maps one by one (nil when a custom policy makes its objects, or it has
    /// no source entity).
    package struct KeyFeed: Sendable {
        /// The destination entity.
        package let destinationEntity: String
        /// The source entity, when the mapping makes one object per source object by itself.
        package let sourceEntity: String?

        /// A feed of `destinationEntity` from `sourceEntity`.
        package init(destinationEntity: String, sourceEntity: String?) {
            self.destinationEntity = destinationEntity
            self.sourceEntity = sourceEntity
        }
    }

    /// The tables of this (destination) layout whose objects keep their source objects' primary keys, with the
    /// source table of each: those fed from one source table only, by mappings without a custom policy, and
    /// from no source entity twice (two mappings of one source object into one table would give it the same
    /// key twice). The engine keeps those keys (foreign keys then copy straight across, associations cost one
    /// bit an object); the verifier checks such tables object by object. Core Data leaves keys to the store.
    package func tablesKeepingSourceKeys(fedBy feeds: [KeyFeed], source: StoreLayout) -> [String: String] {
        var feeders: [String: Set<String>] = [:]
        var mappingsPerSource: [String: Int] = [:]
        var unsafe: Set<String> = []
        for feed in feeds {
            let table = table(for: feed.destinationEntity).name
            guard let sourceEntity = feed.sourceEntity else {
                unsafe.insert(table)
                continue
            }
            feeders[table, default: []].insert(source.table(for: sourceEntity).name)
            mappingsPerSource["\(table)/\(sourceEntity)", default: 0] += 1
            if mappingsPerSource["\(table)/\(sourceEntity)"]! > 1 { unsafe.insert(table) }
        }
        var result: [String: String] = [:]
        for (table, sources) in feeders where sources.count == 1 && !unsafe.contains(table) {
            result[table] = sources.first
        }
        return result
    }
}

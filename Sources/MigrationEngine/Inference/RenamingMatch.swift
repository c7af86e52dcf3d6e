/// Core Data's pairing of source and destination elements: a source and a destination element correspond
/// when they share a renaming identifier, an unset one being the element's name. The versions between do
/// not matter, so a property renamed twice with the same identifier matches from any version.
struct RenamingMatch<Element> {
    /// Destination element name → its source counterpart.
    private(set) var sources: [String: Element] = [:]
    /// Identifiers that two source elements share.
    private(set) var duplicateSourceKeys: [String] = []
    /// Identifiers that two destination elements share.
    private(set) var duplicateDestinationKeys: [String] = []

    /// Pairs `destination` with `source` by `key`, each element named by `name`.
    init(source: [Element], destination: [Element], key: (Element) -> String, name: (Element) -> String) {
        var byKey: [String: Element] = [:]
        for element in source where byKey.updateValue(element, forKey: key(element)) != nil {
            duplicateSourceKeys.append(key(element))
        }
        var seen: Set<String> = []
        for element in destination {
            if !seen.insert(key(element)).inserted { duplicateDestinationKeys.append(key(element)) }
            sources[name(element)] = byKey[key(element)]
        }
    }
}

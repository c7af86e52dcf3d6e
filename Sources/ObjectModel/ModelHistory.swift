/// The ordered versions of one model, oldest first, and which one is current.
public struct ModelHistory: Sendable, Hashable {
    /// The versions, oldest first.
    public let versions: [ModelVersion]
    /// The name of the current version: the one new stores are created at, and the default target.
    public let currentVersionName: String
    /// Where the model was read from, when it came from a file.
    public let source: String?

    /// Creates a history; the current version defaults to the last one.
    ///
    /// - Throws: ``ModelError`` when there are no versions, two share a name, or `currentVersion` is unknown.
    public init(versions: [ModelVersion], currentVersion: String? = nil, source: String? = nil) throws(ModelError) {
        guard let last = versions.last else {
            throw ModelError(.emptyModel, "the model has no versions", file: source)
        }
        var names: Set<String> = []
        for version in versions where !names.insert(version.name).inserted {
            throw ModelError(.duplicateName, "two versions are named '\(version.name)'", file: source)
        }
        let current = currentVersion ?? last.name
        guard names.contains(current) else {
            throw ModelError(
                .unknownVersion,
                "current version '\(current)' is not one of: \(versions.map(\.name).joined(separator: ", "))",
                file: source)
        }
        self.versions = versions
        self.currentVersionName = current
        self.source = source
    }

    /// The current version.
    public var currentVersion: ModelVersion { versions.first { $0.name == currentVersionName }! }

    /// The version named `name`.
    public func version(named name: String) -> ModelVersion? {
        versions.first { $0.name == name }
    }

    /// The version named `name`, or an error that lists the known names.
    public func requireVersion(_ name: String) throws(ModelError) -> ModelVersion {
        guard let version = version(named: name) else {
            throw ModelError(
                .unknownVersion,
                "no version '\(name)'; the model has: \(versions.map(\.name).joined(separator: ", "))",
                file: source)
        }
        return version
    }

    /// The oldest version whose entity hashes equal `hashes` exactly, as Core Data decides compatibility.
    ///
    /// Versions with equal hashes can differ in renaming identifiers; the oldest is the one a store made with
    /// any of them was written under, and the one whose identifiers keep its data on the way forward (see
    /// the format note lightweight.md, (g)).
    public func version(matching hashes: [String: VersionHash]) -> ModelVersion? {
        versions.first { $0.versionHashes == hashes }
    }

    /// The version whose entity hashes equal `hashes`: the one named `name` when its hashes are those (a store's
    /// metadata may name any of several hash-identical versions, which Core Data cannot tell apart), else the
    /// oldest.
    public func version(matching hashes: [String: VersionHash], named name: String?) -> ModelVersion? {
        if let name, let named = version(named: name), named.versionHashes == hashes { return named }
        return version(matching: hashes)
    }

    /// The versions whose entity hashes equal those of `version`, itself included, oldest first: one version to
    /// Core Data, which migrates nothing between them.
    public func identicalVersions(to version: ModelVersion) -> [ModelVersion] {
        versions.filter { $0.versionHashes == version.versionHashes }
    }

    /// Whether the versions named `first` and `second` have identical entity hashes.
    public func areIdentical(_ first: String, _ second: String) -> Bool {
        guard let one = version(named: first), let other = version(named: second) else { return false }
        return one.versionHashes == other.versionHashes
    }

    /// The position of the version named `name`, oldest first.
    public func index(of name: String) -> Int? {
        versions.firstIndex { $0.name == name }
    }
}

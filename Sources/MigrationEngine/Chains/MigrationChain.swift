/// The versions a store may pass through on its way to the newest one, as CoreStore's `MigrationChain`.
///
/// A chain is linear (`V1 → V2 → V3`) or tree-shaped: several roots whose paths join and lead to one leaf
/// (`V1 → V2 → V4` and `V3 → V4`). Every version has at most one successor, so the path from any version is
/// unambiguous. Invalid chains are thrown errors naming the versions, never assertions.
///
/// ```swift
/// let chain = try MigrationChain(paths: [["V1", "V2", "V4"], ["V3", "V4"]])
/// try chain.path(from: "V1", to: "V4")   // ["V1", "V2", "V4"]
/// ```
public struct MigrationChain: Sendable, Hashable {
    /// Each version's successor.
    public let successors: [String: String]
    /// The versions, in the order they were first named.
    public let versions: [String]

    /// A linear chain: each version migrates to the next.
    ///
    /// - Throws: ``MigrationError/Code/chain`` when a version appears twice.
    public init(_ versions: [String]) throws(MigrationError) {
        try self.init(paths: [versions])
    }

    /// A tree-shaped chain from several linear paths, each oldest first, that share their later versions.
    ///
    /// - Throws: ``MigrationError/Code/chain`` when a path names a version twice, when a version is given two
    ///   different successors, or when the successors form a loop.
    public init(paths: [[String]]) throws(MigrationError) {
        var successors: [String: String] = [:]
        var versions: [String] = []
        for path in paths {
            guard !path.isEmpty else { throw .emptyChainPath }
            var seen: Set<String> = []
            for version in path {
                guard seen.insert(version).inserted else {
                    throw .chainRepeats(version, path: path)
                }
                if !versions.contains(version) { versions.append(version) }
            }
            for (from, to) in zip(path, path.dropFirst()) {
                if let existing = successors[from], existing != to {
                    throw .chainIsAmbiguous(from, successors: existing, to)
                }
                successors[from] = to
            }
        }
        for start in versions {
            var walked = [start]
            var current = start
            while let next = successors[current] {
                walked.append(next)
                if next == start {
                    throw .chainLoops(walked)
                }
                current = next
                if walked.count > versions.count { break }
            }
        }
        self.successors = successors
        self.versions = versions
    }

    /// Whether the chain names `version`.
    public func contains(_ version: String) -> Bool { versions.contains(version) }

    /// Whether following successors from `start` reaches `end`.
    public func leads(from start: String, to end: String) -> Bool {
        var current = start
        while let next = successors[current] {
            if next == end { return true }
            current = next
        }
        return false
    }

    /// The versions from `source` to `destination`, both included; just `[source]` when they are equal.
    ///
    /// - Throws: ``MigrationError/Code/chain`` when either version is not in the chain, when `destination`
    ///   comes before `source` (a backwards step), or when no path leads from one to the other.
    public func path(from source: String, to destination: String) throws(MigrationError) -> [String] {
        for version in [source, destination] where !contains(version) {
            throw .notInChain(version, versions: versions)
        }
        var path = [source]
        var current = source
        while current != destination {
            guard let next = successors[current] else {
                if leads(from: destination, to: source) {
                    throw .backwardStep(from: source, to: destination)
                }
                throw .noPath(from: source, to: destination)
            }
            path.append(next)
            current = next
        }
        return path
    }
}

extension MigrationError {
    static let emptyChainPath = MigrationError(.chain, "a migration chain's path names no version")

    static func chainRepeats(_ version: String, path: [String]) -> MigrationError {
        MigrationError(.chain, "version '\(version)' appears twice in the chain \(path.joined(separator: " → "))")
    }

    static func chainIsAmbiguous(_ version: String, successors first: String, _ second: String) -> MigrationError {
        MigrationError(
            .chain, "version '\(version)' has two successors, '\(first)' and '\(second)': the chain is ambiguous")
    }

    static func chainLoops(_ walked: [String]) -> MigrationError {
        MigrationError(.chain, "the chain loops: \(walked.joined(separator: " → "))")
    }

    static func notInChain(_ version: String, versions: [String]) -> MigrationError {
        MigrationError(
            .chain, "version '\(version)' is not in the migration chain (\(versions.joined(separator: ", ")))")
    }

    static func backwardStep(from source: String, to destination: String) -> MigrationError {
        MigrationError(
            .chain, "'\(destination)' comes before '\(source)' in the chain: migrations never go backwards")
    }

    static func noPath(from source: String, to destination: String) -> MigrationError {
        MigrationError(.chain, "no path in the migration chain leads from '\(source)' to '\(destination)'")
    }
}

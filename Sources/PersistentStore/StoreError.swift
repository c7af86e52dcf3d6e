public import SQLiteDatabase

/// Why a store could not be created, opened or read.
///
/// The description names the store file, and the entity or version when the problem is in one.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: String, Sendable, Hashable {
        case notAStore
        case unreadableMetadata
        case incompatibleModel
        case unsupportedModel
        case alreadyExists
        case sqlite
    }

    /// What kind of problem this is.
    public var code: Code
    /// What is wrong, in words.
    public var message: String
    /// The store file.
    public var path: String?
    /// The entity, when the problem is in one.
    public var entity: String?
    /// The SQLite error underneath, if any.
    public var underlying: SQLiteError?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, path: String? = nil, entity: String? = nil, underlying: SQLiteError? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.entity = entity
        self.underlying = underlying
    }

    /// Wraps an SQLite error met while working on the store at `path`.
    public init(_ error: SQLiteError, path: String) {
        self.init(.sqlite, error.message, path: path, underlying: error)
    }

    /// The error in one line: the store file, the entity, and what is wrong.
    public var description: String {
        var parts: [String] = []
        if let path { parts.append(path) }
        if let entity { parts.append("entity '\(entity)'") }
        let detail = underlying.map { code == .sqlite ? $0.description : "\(message) (\($0.description))" } ?? message
        // SQLite reports a full disk this way when the first thing that needs room is the `-shm` file.
        let hint = underlying?.code == .ioErrorShmSize ? " (the disk is probably full)" : ""
        return (parts + [detail + hint]).joined(separator: ": ")
    }
}

extension StoreError {
    func at(_ path: String) -> StoreError {
        var copy = self
        if copy.path == nil { copy.path = path }
        return copy
    }
}

/// Runs `body`, turning any SQLite error into a ``StoreError`` that names `path`.
func storeOperation<R>(_ path: String, _ body: () throws -> R) throws(StoreError) -> R {
    do {
        return try body()
    } catch let error as StoreError {
        throw error.at(path)
    } catch let error as SQLiteError {
        throw StoreError(error, path: path)
    } catch {
        throw StoreError(.sqlite, "\(error)", path: path)
    }
}

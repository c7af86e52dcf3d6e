import CSQLite

/// A set of positive integer keys, one bit each, that SQL functions can test and fill at the speed of C:
/// ``Connection/registerInsertion(_:into:)`` and ``Connection/registerMembership(_:of:)`` make functions that
/// touch only this bitmap's memory, with no Swift reference counting per call, for statements that call them
/// once per row over millions of rows.
///
/// Its storage is plain memory behind one pointer, handed to SQLite as the functions' user data; the bitmap
/// must outlive every statement that calls them (remove the functions before dropping it).
public final class KeyBitmap {
    /// The words, the key count, and the calls' tallies, where the C callbacks reach them.
    fileprivate struct Storage {
        var words: UnsafeMutablePointer<UInt64>?
        var wordCount = 0
        var count = 0
        var hits = 0
        var limit: Int64
        var rejected: Int64?
    }

    fileprivate let storage: UnsafeMutablePointer<Storage>

    /// An empty set of keys in 1…`limit`.
    public init(limit: Int64) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage(limit: limit))
    }

    deinit {
        storage.pointee.words?.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The number of keys.
    public var count: Int { storage.pointee.count }

    /// The largest key allowed.
    public var limit: Int64 { storage.pointee.limit }

    /// How many membership calls found their key, since the last ``resetHits()``.
    public var hits: Int { storage.pointee.hits }

    /// The key an insertion function refused (outside 1…``limit``, or given twice), if any.
    public var rejectedKey: Int64? { storage.pointee.rejected }

    /// Sets ``hits`` to zero.
    public func resetHits() { storage.pointee.hits = 0 }

    /// Bytes held.
    public var footprint: Int { storage.pointee.wordCount * 8 }

    /// Makes room for keys up to `key` at once.
    public func reserve(upTo key: Int64) {
        KeyBitmap.grow(storage, toHold: min(key, storage.pointee.limit))
    }

    /// Whether `key` is in the set.
    public func contains(_ key: Int64) -> Bool { KeyBitmap.contains(storage, key) }

    /// Adds `key` (in 1…``limit``); false when it was there already.
    @discardableResult
    public func insert(_ key: Int64) -> Bool {
        precondition(key >= 1 && key <= limit, "key \(key) outside 1…\(limit)")
        return KeyBitmap.insert(storage, key)
    }

    /// Every key, in ascending order.
    public func forEach(_ body: (Int64) throws -> Void) rethrows {
        guard let words = storage.pointee.words else { return }
        for word in 0..<storage.pointee.wordCount where words[word] != 0 {
            var bits = words[word]
            while bits != 0 {
                try body(Int64(word * 64 + bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
    }

    fileprivate static func contains(_ storage: UnsafeMutablePointer<Storage>, _ key: Int64) -> Bool {
        let word = Int(truncatingIfNeeded: key >> 6)
        guard key > 0, word < storage.pointee.wordCount, let words = storage.pointee.words else { return false }
        return words[word] & (1 << UInt64(key & 63)) != 0
    }

    fileprivate static func insert(_ storage: UnsafeMutablePointer<Storage>, _ key: Int64) -> Bool {
        let word = Int(key >> 6)
        if word >= storage.pointee.wordCount { grow(storage, toHold: key) }
        let bit: UInt64 = 1 << UInt64(key & 63)
        let words = storage.pointee.words!
        guard words[word] & bit == 0 else { return false }
        words[word] |= bit
        storage.pointee.count += 1
        return true
    }

    /// Grows the words to hold `key`, at least doubling, so that filling keys in order stays amortised O(1).
    fileprivate static func grow(_ storage: UnsafeMutablePointer<Storage>, toHold key: Int64) {
        let needed = Int(key >> 6) + 1
        let old = storage.pointee.wordCount
        guard needed > old else { return }
        let count = max(needed, old * 2)
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
        if let previous = storage.pointee.words {
            words.update(from: previous, count: old)
            previous.deallocate()
        }
        (words + old).initialize(repeating: 0, count: count - old)
        storage.pointee.words = words
        storage.pointee.wordCount = count
    }
}

extension Connection {
    /// Registers `name(key)`: adds `key` to `bitmap` and returns it; fails the statement when `key` is outside
    /// 1…``KeyBitmap/limit`` or in the bitmap already. Replaces an earlier function of that name.
    public func registerInsertion(_ name: String, into bitmap: KeyBitmap) throws(SQLiteError) {
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, UnsafeMutableRawPointer(bitmap.storage),
            { context, _, arguments in
                let storage = sqlite3_user_data(context)!.assumingMemoryBound(to: KeyBitmap.Storage.self)
                let key = sqlite3_value_int64(arguments![0])
                guard key >= 1, key <= storage.pointee.limit else {
                    storage.pointee.rejected = key
                    return sqlite3_result_error(
                        context, "primary key (Z_PK) \(key) is outside 1…\(storage.pointee.limit)", -1)
                }
                guard KeyBitmap.insert(storage, key) else {
                    storage.pointee.rejected = key
                    return sqlite3_result_error(context, "primary key (Z_PK) \(key) was given twice", -1)
                }
                sqlite3_result_int64(context, key)
            }, nil, nil, nil)
        try check(code, sql: "function \(name)")
    }

    /// Registers `name(key)`: `key` when it is an integer in `bitmap` (counting a hit, see ``KeyBitmap/hits``),
    /// else NULL.
    /// Replaces an earlier function of that name.
    public func registerMembership(_ name: String, of bitmap: KeyBitmap) throws(SQLiteError) {
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, UnsafeMutableRawPointer(bitmap.storage),
            { context, _, arguments in
                let storage = sqlite3_user_data(context)!.assumingMemoryBound(to: KeyBitmap.Storage.self)
                let argument = arguments![0]
                let key = sqlite3_value_int64(argument)
                // Only an integer is a key, as a stored value is read elsewhere (text "12" is not object 12).
                guard sqlite3_value_type(argument) == SQLITE_INTEGER, KeyBitmap.contains(storage, key) else {
                    return sqlite3_result_null(context)
                }
                storage.pointee.hits += 1
                sqlite3_result_int64(context, key)
            }, nil, nil, nil)
        try check(code, sql: "function \(name)")
    }
}

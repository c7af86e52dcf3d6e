import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What can be told about a store's `-wal` file from the bytes of its header, without SQLite, which would
/// apply any log it finds beside a database, even one copied from another database.
///
/// SQLite's WAL header (sqlite.org/fileformat2.html §4.1) is 32 big-endian bytes: a magic number whose last bit
/// says the byte order of the checksums, the format version, the page size, a checkpoint sequence number, two
/// salts, and a checksum of the first 24 bytes. The `-shm` index, when there is one, keeps a copy of the salts
/// of the log it indexes.
package enum WriteAheadLog {
    /// Why the `-wal` beside the store at `path` cannot be that store's own log, or nil when it can be (or there
    /// is none, or it holds no header, which SQLite ignores).
    package static func foreignLogProblem(storeAt path: String) -> String? {
        let log = path + "-wal"
        guard let header = read(log, count: 32), header.count == 32 else { return nil }
        let magic = word(header, 0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683 else {
            return "\(log) is not a write-ahead log (magic number \(hex(magic)))"
        }
        let checksum = checksum(header.prefix(24), bigEndian: magic & 1 == 1)
        guard checksum == (word(header, 24), word(header, 28)) else {
            return "\(log) has a damaged header (its checksum does not match)"
        }
        if let database = read(path, count: 100), database.count == 100 {
            let raw = Int(database[16]) << 8 | Int(database[17])
            let pageSize = raw == 1 ? 65536 : raw
            // Bytes 18 and 19 are 1 in rollback-journal mode, 2 in WAL mode; switching away from WAL folds the
            // log in first, so a store in rollback mode never has frames of its own.
            if database[18] == 1 && holdsFrames(storeAt: path) {
                return "\(log) holds frames, but the store is in rollback-journal mode and keeps no write-ahead "
                    + "log: it belongs to another database"
            }
            if Int(word(header, 8)) != pageSize {
                return "\(log) is written in pages of \(word(header, 8)) bytes, the store's are \(pageSize) bytes: "
                    + "it belongs to another database"
            }
        }
        // The -shm index header: isInit at byte 12, the salts of the log it indexes at bytes 32–39.
        let index = read(path + "-shm", count: 48)
        if let index, index.count == 48, index[12] == 1 {
            if index[32..<40].elementsEqual(header[16..<24]) == false {
                return "\(log) has other salts than the log its -shm indexes: it belongs to another database"
            }
            return nil
        }
        // No -shm ties the log to the store. SQLite applies any log whose frames are consistent among
        // themselves, so one copied from another database with pages of the same size is applied all the same.
        // A log that writes page 1 (the schema, the free list, the database's size) is checked once applied;
        // one that holds only data pages changes rows without a trace, and nothing tells it from the store's own.
        let pageSize = Int(word(header, 8))
        if let pages = committedPages(log, header: header, pageSize: pageSize), !pages.isEmpty, !pages.contains(1) {
            return
                "\(log) holds only data pages (\(pages.count) of them, never page 1) and there is no -shm index to tie "
                + "it to the store: it cannot be told from another database's log; open the store once with its app, "
                + "which folds the log in, or remove the -wal if it is not the store's"
        }
        return nil
    }

    /// The pages written by the log's committed frames: those whose salts are the header's, up to the last
    /// frame that ends a transaction (SQLite ignores the rest); nil when the log cannot be read.
    private static func committedPages(_ log: String, header: Data, pageSize: Int) -> Set<UInt32>? {
        guard pageSize >= 512, let handle = FileHandle(forReadingAtPath: log) else { return nil }
        defer { try? handle.close() }
        var offset: UInt64 = 32
        var pending: Set<UInt32> = []
        var committed: Set<UInt32> = []
        let salts = header[header.startIndex + 16..<header.startIndex + 24]
        while true {
            guard (try? handle.seek(toOffset: offset)) != nil, let frame = try? handle.read(upToCount: 24),
                frame.count == 24, frame[frame.startIndex + 8..<frame.startIndex + 16].elementsEqual(salts)
            else { break }
            pending.insert(word(frame, 0))
            if word(frame, 4) != 0 {
                committed.formUnion(pending)
                pending = []
            }
            offset += UInt64(24 + pageSize)
        }
        return committed
    }

    /// True when the store at `path` has a `-wal` longer than its header: frames that opening it would apply.
    package static func holdsFrames(storeAt path: String) -> Bool {
        (FileStamp.size(of: path + "-wal") ?? 0) > 32
    }

    /// SQLite's WAL checksum over 32-bit words taken two at a time (wal.c, walChecksumBytes).
    private static func checksum(_ bytes: Data, bigEndian: Bool) -> (UInt32, UInt32) {
        let bytes = [UInt8](bytes)
        var (first, second): (UInt32, UInt32) = (0, 0)
        for offset in stride(from: 0, to: bytes.count, by: 8) {
            let words = [0, 4].map { index -> UInt32 in
                let slice = bytes[(offset + index)..<(offset + index + 4)].map(UInt32.init)
                return bigEndian
                    ? slice[0] << 24 | slice[1] << 16 | slice[2] << 8 | slice[3]
                    : slice[3] << 24 | slice[2] << 16 | slice[1] << 8 | slice[0]
            }
            first = first &+ words[0] &+ second
            second = second &+ words[1] &+ first
        }
        return (first, second)
    }

    private static func word(_ data: Data, _ offset: Int) -> UInt32 {
        let start = data.startIndex + offset
        return data[start..<(start + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }

    private static func read(_ path: String, count: Int) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: count)
    }
}

extension WriteAheadLog {
    /// Runs `body`, which only reads the stores at `paths`, and then removes what reading a store in WAL mode
    /// made beside it: an empty `-wal` and its `-shm` index, each only when it was not there before, so that a
    /// store that is only read keeps its folder as it was. A `-wal` that holds frames is never removed (it
    /// carries rows). `body` must have closed its connections to the stores when it returns.
    package static func leavingNoSidecars<T>(of paths: [String], _ body: () throws -> T) rethrows -> T {
        // stat and unlink, not FileManager: removing a file that is not there makes FileManager build an error
        // object, some 1.1 M instructions a migration step spent here.
        let present = Set(
            paths.flatMap { path in ["-wal", "-shm"].map { path + $0 } }.filter { FileStamp.size(of: $0) != nil })
        defer {
            for path in paths {
                let log = path + "-wal"
                if !present.contains(log), FileStamp.size(of: log) == 0 { unlink(log) }
                if !present.contains(path + "-shm") { unlink(path + "-shm") }
            }
        }
        return try body()
    }
}

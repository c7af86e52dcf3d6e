import CSQLite

/// The VFS behind ``FaultInjection``: each file it opens is SQLite's own, preceded by a header that holds our
/// methods and whether the file is watched (sqlite.org/c3ref/vfs.html: "szOsFile is the size of the subclassed
/// sqlite3_file structure used by this VFS").
enum FaultVFS {
    private struct Header {
        var base: sqlite3_file
        var watched: Int32
    }

    private static let headerSize = (MemoryLayout<Header>.size + 15) & ~15
    /// The default VFS when the first fault test ran; every call ends there. Read-only.
    nonisolated(unsafe) static let inner: UnsafeMutablePointer<sqlite3_vfs> = sqlite3_vfs_find(nil)!

    /// Our VFS: the inner one's, with a larger file, our `xOpen` and our name. Never deallocated; SQLite links it
    /// into its list under its own mutex.
    nonisolated(unsafe) static let vfs: UnsafeMutablePointer<sqlite3_vfs> = {
        let pointer = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        var copy = inner.pointee
        copy.szOsFile = Int32(headerSize) + inner.pointee.szOsFile
        copy.pNext = nil
        let name = Array("migration-bench-faults".utf8CString)
        let stored = UnsafeMutablePointer<CChar>.allocate(capacity: name.count)
        stored.initialize(from: name, count: name.count)
        copy.zName = UnsafePointer(stored)
        copy.xOpen = { _, name, file, flags, outFlags in
            let real = FaultVFS.real(file!)
            let result = FaultVFS.inner.pointee.xOpen(FaultVFS.inner, name, real, flags, outFlags)
            let header = UnsafeMutableRawPointer(file!).assumingMemoryBound(to: Header.self)
            guard result == SQLITE_OK else {
                header.pointee.base.pMethods = nil
                return result
            }
            header.pointee.base.pMethods = UnsafePointer(FaultVFS.methods)
            header.pointee.watched = name.map { FaultInjection.watches(String(cString: $0)) ? 1 : 0 } ?? 0
            return SQLITE_OK
        }
        pointer.initialize(to: copy)
        return pointer
    }()

    private static func real(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file) + headerSize).assumingMemoryBound(to: sqlite3_file.self)
    }

    private static func realMethods(_ file: UnsafeMutablePointer<sqlite3_file>?) -> sqlite3_io_methods {
        real(file!).pointee.pMethods.pointee
    }

    private static func fails(_ file: UnsafeMutablePointer<sqlite3_file>?, _ operation: String, write: Bool) -> Bool {
        let header = UnsafeMutableRawPointer(file!).assumingMemoryBound(to: Header.self)
        return header.pointee.watched == 1 && FaultInjection.shouldFail(operation, "sqlite file", isWrite: write)
    }

    // Written once, read-only afterwards.
    nonisolated(unsafe) private static let methods: UnsafeMutablePointer<sqlite3_io_methods> = {
        var methods = sqlite3_io_methods()
        methods.iVersion = 3
        methods.xClose = { file in
            let result = realMethods(file).xClose(real(file!))
            file!.pointee.pMethods = nil
            return result
        }
        methods.xRead = { file, buffer, amount, offset in realMethods(file).xRead(real(file!), buffer, amount, offset) }
        methods.xWrite = { file, buffer, amount, offset in
            if fails(file, "write", write: true) { return FaultInjection.failureCode.write }
            return realMethods(file).xWrite(real(file!), buffer, amount, offset)
        }
        methods.xTruncate = { file, size in
            if fails(file, "truncate", write: true) {
                return FaultInjection.failureCode.other == SQLITE_FULL
                    ? SQLITE_FULL : ResultCode.ioErrorTruncate.rawValue
            }
            return realMethods(file).xTruncate(real(file!), size)
        }
        methods.xSync = { file, flags in
            if fails(file, "sync", write: false) { return FaultInjection.failureCode.other }
            return realMethods(file).xSync(real(file!), flags)
        }
        methods.xFileSize = { file, size in realMethods(file).xFileSize(real(file!), size) }
        methods.xLock = { file, lock in realMethods(file).xLock(real(file!), lock) }
        methods.xUnlock = { file, lock in realMethods(file).xUnlock(real(file!), lock) }
        methods.xCheckReservedLock = { file, out in realMethods(file).xCheckReservedLock(real(file!), out) }
        methods.xFileControl = { file, operation, argument in
            realMethods(file).xFileControl(real(file!), operation, argument)
        }
        methods.xSectorSize = { file in realMethods(file).xSectorSize(real(file!)) }
        methods.xDeviceCharacteristics = { file in realMethods(file).xDeviceCharacteristics(real(file!)) }
        methods.xShmMap = { file, region, size, extend, out in
            realMethods(file).xShmMap(real(file!), region, size, extend, out)
        }
        methods.xShmLock = { file, offset, count, flags in realMethods(file).xShmLock(real(file!), offset, count, flags)
        }
        methods.xShmBarrier = { file in realMethods(file).xShmBarrier(real(file!)) }
        methods.xShmUnmap = { file, delete in realMethods(file).xShmUnmap(real(file!), delete) }
        methods.xFetch = { file, offset, amount, out in realMethods(file).xFetch(real(file!), offset, amount, out) }
        methods.xUnfetch = { file, offset, page in realMethods(file).xUnfetch(real(file!), offset, page) }
        let pointer = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        pointer.initialize(to: methods)
        return pointer
    }()
}

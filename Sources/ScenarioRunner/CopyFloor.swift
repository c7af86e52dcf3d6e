import Foundation
import Instrumentation
import PersistentStore
import SQLiteDatabase

/// The floor: what a perfect engine could not beat for the same store — every row of every table copied
/// into an empty copy of the schema with `INSERT … SELECT`, in one transaction, with the pragmas the engine
/// uses for a fresh store, then the indexes built — and the copy made durable as the step's store is: its data
/// synced, then its folder. A migration must not lose the store (DESIGN §4, safe replacement: a crash leaves
/// the old store or the new one, complete), so the step syncs the new store before renaming it over the old one
/// and the folder after; a copy that skipped both would be one a crash could lose, not the same work done faster.
enum CopyFloor {
    /// Seconds to copy the store at `source` into a new database at `destination` (removed afterwards).
    static func copySeconds(of source: String, into destination: String) throws -> Double {
        defer { Store.remove(at: destination) }
        let clock = ContinuousClock()
        let start = clock.now
        let connection = try Connection(path: destination, mode: .readWriteCreate)
        try Store.setFreshStorePragmas(connection)
        try connection.attach(readOnly: source, as: "source")
        let objects = try connection.rows(
            "SELECT type, name, sql FROM source.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'")
        try connection.transaction {
            for object in objects where object[0].string == "table" {
                try connection.execute(object[2].string ?? "")
                let name = quoted(object[1].string ?? "")
                try connection.execute("INSERT INTO main.\(name) SELECT * FROM source.\(name)")
            }
            for object in objects where object[0].string == "index" { try connection.execute(object[2].string ?? "") }
        }
        try FileSync.sync(destination)
        try FileSync.sync(FileSync.folder(of: destination), directory: true)
        return (clock.now - start).seconds
    }
}

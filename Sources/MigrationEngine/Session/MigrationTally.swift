/// What the migration counts for its report, shared by the parts of the session that make objects and edges.
final class MigrationTally {
    /// Destination objects created.
    var objectsCreated = 0
    /// Relationship edges written (a one-to-one counts once per side).
    var edgesWritten = 0
    /// The entity mappings whose stage 1 ran as ``BulkInstanceCreation``.
    var mappingsRunInSQL: Set<String> = []
}

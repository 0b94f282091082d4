/// The permanent IDs one save gave its new objects, looked up by their temporary IDs.
///
/// A save knows the ID of each new row by its position among the inserts, and writes rows in that
/// order. A lookup by temporary ID is needed only when a saved value refers to a new object (a
/// relationship), so the table keeps the inserts and their IDs side by side and builds its map on the
/// first lookup of a temporary ID: a save whose values refer to no new object never hashes the IDs.
///
/// A table is used only on the thread that made it (a save's, or the row cache's while it indexes a
/// save's new rows under its lock).
final class PermanentIDTable {
    /// Runs of inserts, each with the IDs they have after the save, position by position.
    private var segments: [(inserts: [StoreSaveChanges.Insert], ids: [NSManagedObjectID])] = []
    /// Permanent IDs by temporary ID, once a lookup needed them.
    private var map: ObjectIDMap<NSManagedObjectID>?

    /// A table that maps no ID.
    init() {}

    /// A table of the IDs `ids` that the inserts `inserts` have after a save (the same position in both).
    init(inserts: [StoreSaveChanges.Insert], ids: [NSManagedObjectID]) {
        precondition(inserts.count == ids.count, "a save's IDs out of step with its inserts")
        segments = [(inserts, ids)]
    }

    /// The permanent ID the save gave the object with temporary ID `id`; `nil` for an ID the save did
    /// not replace (every permanent ID among them).
    subscript(id: NSManagedObjectID) -> NSManagedObjectID? {
        guard id.isTemporaryID, !segments.isEmpty else { return nil }
        return builtMap()[id]
    }

    /// Adds the IDs of another store's share of the same save.
    func merge(_ other: PermanentIDTable) {
        segments += other.segments
        map = nil
    }

    private func builtMap() -> ObjectIDMap<NSManagedObjectID> {
        if let map { return map }
        var built = ObjectIDMap<NSManagedObjectID>()
        for (inserts, ids) in segments {
            built.reserveCapacity(temporary: inserts.count)
            for (insert, id) in zip(inserts, ids) where insert.objectID !== id {
                built[insert.objectID] = id
            }
        }
        map = built
        return built
    }
}

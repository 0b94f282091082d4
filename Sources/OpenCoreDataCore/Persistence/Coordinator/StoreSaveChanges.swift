/// The changes of one save, as a context hands them to its coordinator.
struct StoreSaveChanges {
    /// A new object: its ID (temporary, or permanent when obtained beforehand), its attribute and to-one
    /// values (a missing key means `nil`) and the contents of its to-many relationships.
    struct Insert {
        let objectID: NSManagedObjectID
        /// Never changed: a `var` only so that `holdsValuesAlone()` can take it in place.
        private(set) var values: PropertyValues
        let toMany: [String: [NSManagedObjectID]]

        init(objectID: NSManagedObjectID, values: PropertyValues, toMany: [String: [NSManagedObjectID]]) {
            self.objectID = objectID
            self.values = values
            self.toMany = toMany
        }

        /// Whether no other value shares this insert's values: the object that saved them no longer
        /// holds them. `false` for an insert with no values.
        @inline(__always)
        mutating func holdsValuesAlone() -> Bool {
            values.slots.holdsBufferAlone()
        }

        /// An insert whose values are given by name, kept in the layout of the object's entity.
        init(objectID: NSManagedObjectID, values: [String: Any], toMany: [String: [NSManagedObjectID]]) {
            self.init(objectID: objectID, values: PropertyValues(entity: objectID.entity, values), toMany: toMany)
        }
    }

    /// A changed object: the version (`Z_OPT`) the context read, the changed attribute and to-one values
    /// (`nil` clears), and the full new contents of each changed to-many relationship.
    struct Update {
        let objectID: NSManagedObjectID
        let expectedVersion: Int64
        let changedValues: [String: Any?]
        let toMany: [String: [NSManagedObjectID]]
    }

    /// A deleted object and the version (`Z_OPT`) the context read.
    struct Delete {
        let objectID: NSManagedObjectID
        let expectedVersion: Int64
    }

    var inserted: [Insert] = []
    var updated: [Update] = []
    var deleted: [Delete] = []
    /// A child context's transient values for its parent (to-one as an object ID or `nil`, to-many as
    /// object IDs), by object ID: all set ones of inserted objects, the changed ones of updated objects.
    /// Stores never see them.
    var transientValues: [NSManagedObjectID: [String: Any?]] = [:]
    /// The stores new objects were assigned to (`NSManagedObjectContext.assign(_:to:)`), by temporary ID;
    /// other new objects go to the first store that holds their entity.
    var assignedStores: [NSManagedObjectID: NSPersistentStore] = [:]
    /// Unchanged objects whose rows must still have the version the context read
    /// (`NSManagedObjectContext.detectConflicts(for:)`); checked like updates, never written.
    var versionChecks: [Delete] = []

    /// Whether some insert or update sets the contents of a to-many relationship.
    var writesToMany: Bool {
        inserted.contains { !$0.toMany.isEmpty } || updated.contains { !$0.toMany.isEmpty }
    }

    /// Whether there is nothing to write.
    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty
    }
}

/// What a save produced: the ID each inserted object has now, and the new version (`Z_OPT`) of each
/// written row.
struct StoreSaveResult {
    /// The ID each insert of the save has now, in the order of the save's ``StoreSaveChanges/inserted``:
    /// the permanent ID it got, or its own ID when it had a permanent one (or when the writer keeps
    /// temporary IDs, as a parent context does). Those who walk the inserts read it by position instead
    /// of looking every temporary ID up.
    let insertedIDs: [NSManagedObjectID]
    /// The permanent IDs by temporary ID, for values that refer to new objects.
    let permanentIDs: PermanentIDTable
    /// The version every inserted row has now (a store writes new rows with `Z_OPT` 1); `nil` when
    /// ``versions`` gives the inserts' versions one by one.
    let insertedVersion: Int64?
    /// The new versions of updated rows (and of inserted ones when ``insertedVersion`` is `nil`), by
    /// permanent ID.
    let versions: ObjectIDMap<Int64>
    /// The values a store gave derived attributes itself while writing (the derived-attribute triggers of
    /// an Apple-written SQLite store), in the order it gave them: the saved objects take these values.
    var derivedValues: [StoreDerivedValue] = []

    /// The version of the row of the insert that now has the ID `id`.
    func version(ofInserted id: NSManagedObjectID) -> Int64? {
        insertedVersion ?? versions[id]
    }

    /// The result of a save that wrote nothing.
    static var empty: StoreSaveResult {
        StoreSaveResult(insertedIDs: [], permanentIDs: PermanentIDTable(), insertedVersion: nil, versions: ObjectIDMap())
    }
}

/// The rows a save could not write because another writer changed or deleted them since the context
/// read them (optimistic locking on `Z_OPT`). Nothing of the save was written.
struct StoreSaveConflicts: Error {
    /// One object whose row changed under the context.
    struct Conflict {
        let objectID: NSManagedObjectID
        /// The version the context read.
        let expectedVersion: Int64
        /// The row now in the store; `nil` when the row was deleted.
        let storeRow: StoreRow?
    }

    let conflicts: [Conflict]
}

/// A derived attribute's value as a store computed it while writing a save.
struct StoreDerivedValue {
    /// The object whose attribute the store changed.
    let objectID: NSManagedObjectID
    /// The derived attribute's name.
    let name: String
    /// Its value now, in canonical form (`nil` for none).
    let value: Any?
}

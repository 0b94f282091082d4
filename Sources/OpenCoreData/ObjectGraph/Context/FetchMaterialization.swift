/// Turning a fetch's rows into the context's objects, in bulk.
extension NSManagedObjectContext {
    /// The objects registered for fetched rows, in order: the registered object of each row's ID, or a
    /// new one (a fault, or filled from the row). The class of each entity is looked up once per run
    /// of rows of that entity, not once per row. New faults keep their rows when the rows came from the
    /// coordinator's row cache at `rowGeneration` (see `registeredObject(for:asFault:refresh:type:rowGeneration:)`).
    func _registeredObjects(for rows: [StoreRow], asFault: Bool, refresh: Bool, rowGeneration: UInt64? = nil) -> [NSManagedObject] {
        // No rows, no array made: an array made with no capacity is the standard library's one shared
        // empty storage, and its initializer writes that storage's count, a data race with any other
        // thread doing the same (ThreadSanitizer reports it).
        if rows.isEmpty { return [] }
        var registration = FetchRegistration(self, count: rows.count)
        // Each row is read where it lies (iterating would copy it out first, retaining its ID and
        // values and releasing them after).
        return [NSManagedObject](unsafeUninitializedCapacity: rows.count) { objects, initialized in
            rows.forEachInPlace { index, row in
                (objects.baseAddress.unsafelyUnwrapped + index).initialize(
                    to: registration.object(at: row, asFault: asFault, refresh: refresh, rowGeneration: rowGeneration))
                initialized = index + 1
            }
        }
    }

    /// `_registeredObjects(for:asFault:refresh:rowGeneration:)` for rows the caller no longer needs: each
    /// row is let go right after its object is made, while it is still in the processor's cache, instead
    /// of all of them in a pass of their own afterwards.
    func _registeredObjects(consuming rows: consuming [StoreRow], asFault: Bool, refresh: Bool,
                            rowGeneration: UInt64? = nil) -> [NSManagedObject] {
        var remaining = consume rows
        let count = remaining.count
        // No rows, no array made (see `_registeredObjects(for:asFault:refresh:rowGeneration:)`).
        if count == 0 { return [] }
        var registration = FetchRegistration(self, count: count)
        guard asFault, registration.contextWasEmpty else {
            // Objects filled from their rows (new ones, or registered ones a fetch refreshes) are awoken
            // in the rows' order: the rows are reversed in place (they move, nothing is retained) so that
            // taking the last each time gives that order.
            remaining.reverse()
            var objects: [NSManagedObject] = []
            objects.reserveCapacity(count)
            while let row = remaining.popLast() {
                objects.append(registration.object(for: row, asFault: asFault, refresh: refresh, rowGeneration: rowGeneration))
            }
            return objects
        }
        // Only new faults (the context had no objects): they run no code of the object's own but its
        // initializer, and nothing is refreshed. The rows are taken from the last, each object put at
        // its row's place, without a pass to reverse the rows first.
        return [NSManagedObject](unsafeUninitializedCapacity: count) { buffer, initialized in
            var index = count
            while let row = remaining.popLast() {
                index -= 1
                (buffer.baseAddress.unsafelyUnwrapped + index).initialize(
                    to: registration.object(for: row, asFault: true, refresh: refresh, rowGeneration: rowGeneration))
            }
            initialized = count
        }
    }
}

/// The objects of one fetch's rows, registered one row at a time.
private struct FetchRegistration {
    let context: NSManagedObjectContext
    /// The class of the last entity: rows come in runs of one entity.
    private var classes = EntityRunMemo<NSManagedObject.Type>()
    /// Whether the context held no object when the fetch began: then every row's object is new, and
    /// registering it needs no lookup first.
    let contextWasEmpty: Bool

    init(_ context: NSManagedObjectContext, count: Int) {
        self.context = context
        contextWasEmpty = context.registry.isEmpty
        // A first fetch makes room for every row's object at once instead of growing (and rehashing) the
        // registry step by step. Later fetches often return objects already registered, so reserving
        // count + rows there would double the table for nothing.
        if contextWasEmpty { context.registry.reserveCapacity(count) }
    }

    /// The registered object of one row.
    @inline(__always)
    mutating func object(for row: StoreRow, asFault: Bool, refresh: Bool, rowGeneration: UInt64?) -> NSManagedObject {
        withUnsafePointer(to: row) { object(at: $0, asFault: asFault, refresh: refresh, rowGeneration: rowGeneration) }
    }

    /// The registered object of the row at `row`, read in place.
    @inline(__always)
    mutating func object(at row: UnsafePointer<StoreRow>, asFault: Bool, refresh: Bool, rowGeneration: UInt64?) -> NSManagedObject {
        let type = classes.value(for: row.pointee.objectID.entity, ManagedObjectClasses.objectClass(for:))
        if contextWasEmpty {
            return context.registeredNewObject(at: row, asFault: asFault, refresh: refresh, type: type, rowGeneration: rowGeneration)
        }
        return context.registeredObject(for: row.pointee, asFault: asFault, refresh: refresh, type: type, rowGeneration: rowGeneration)
    }
}

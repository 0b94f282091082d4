/// Turning a fetch's rows into the context's objects, in bulk.
extension NSManagedObjectContext {
    /// The objects registered for fetched rows, in order: the registered object of each row's ID, or a
    /// new one (a fault, or filled from the row). The class of each entity is looked up once per run
    /// of rows of that entity, not once per row. New faults keep their rows when the rows came from the
    /// coordinator's row cache at `rowGeneration` (see `registeredObject(for:asFault:refresh:type:rowGeneration:)`).
    func _registeredObjects(for rows: [StoreRow], asFault: Bool, refresh: Bool, rowGeneration: UInt64? = nil) -> [NSManagedObject] {
        var registration = FetchRegistration(self, count: rows.count)
        for row in rows {
            registration.register(row, asFault: asFault, refresh: refresh, rowGeneration: rowGeneration)
        }
        return registration.objects
    }

    /// `_registeredObjects(for:asFault:refresh:rowGeneration:)` for rows the caller no longer needs: each
    /// row is let go right after its object is made, while it is still in the processor's cache, instead
    /// of all of them in a pass of their own afterwards.
    func _registeredObjects(consuming rows: consuming [StoreRow], asFault: Bool, refresh: Bool,
                            rowGeneration: UInt64? = nil) -> [NSManagedObject] {
        var remaining = consume rows
        var registration = FetchRegistration(self, count: remaining.count)
        // Reversed in place (the rows move, nothing is retained), so that taking the last each time
        // gives the rows in order.
        remaining.reverse()
        while let row = remaining.popLast() {
            registration.register(row, asFault: asFault, refresh: refresh, rowGeneration: rowGeneration)
        }
        return registration.objects
    }
}

/// The objects of one fetch's rows, registered one row at a time.
private struct FetchRegistration {
    let context: NSManagedObjectContext
    private(set) var objects: [NSManagedObject] = []
    /// The class of the last entity: rows come in runs of one entity.
    private var classes = EntityRunMemo<NSManagedObject.Type>()

    init(_ context: NSManagedObjectContext, count: Int) {
        self.context = context
        objects.reserveCapacity(count)
        // A first fetch makes room for every row's object at once instead of growing (and rehashing) the
        // registry step by step. Later fetches often return objects already registered, so reserving
        // count + rows there would double the table for nothing.
        if context.registry.isEmpty { context.registry.reserveCapacity(count) }
    }

    mutating func register(_ row: StoreRow, asFault: Bool, refresh: Bool, rowGeneration: UInt64?) {
        let type = classes.value(for: row.objectID.entity, ManagedObjectClasses.objectClass(for:))
        objects.append(context.registeredObject(for: row, asFault: asFault, refresh: refresh, type: type,
                                                rowGeneration: rowGeneration))
    }
}

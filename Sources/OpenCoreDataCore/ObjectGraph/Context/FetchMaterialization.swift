import COpenCoreDataRuntime

/// Turning a fetch's rows into the context's objects, in bulk.
extension NSManagedObjectContext {
    /// The objects registered for fetched rows, in order: the registered object of each row's ID, or a
    /// new one (a fault, or filled from the row). The class of each entity is looked up once per run
    /// of rows of that entity, not once per row. New faults keep their rows when the rows came from the
    /// coordinator's row cache at `rowGeneration` (see `registeredObject(for:asFault:refresh:type:rowGeneration:)`).
    ///
    /// `rowsNameEachObjectOnce` tells that no two rows have the same ID (the rows of one store): a first
    /// fetch of faults may then register its objects without indexing them (see
    /// `DeferredRegistration.swift`). Returns, with the objects, the class every one of them is an
    /// instance of, when the registration knows it (`nil` otherwise; see ``UniformObjectClass``).
    func _registeredObjects(
        for rows: [StoreRow], asFault: Bool, refresh: Bool, rowGeneration: UInt64? = nil,
        rowsNameEachObjectOnce: Bool = false
    ) -> RegisteredObjects {
        // No rows, no array made: an array made with no capacity is the standard library's one shared
        // empty storage, and its initializer writes that storage's count, a data race with any other
        // thread doing the same (ThreadSanitizer reports it).
        if rows.isEmpty { return ([], nil) }
        var registration = FetchRegistration(
            self, count: rows.count, asFault: asFault, rowGeneration: rowGeneration,
            rowsNameEachObjectOnce: rowsNameEachObjectOnce)
        // Each row is read where it lies (iterating would copy it out first, retaining its ID and
        // values and releasing them after).
        let count = rows.count
        var objects = [NSManagedObject](unsafeUninitializedCapacity: count) { objects, initialized in
            rows.forEachInPlace { index, row in
                if index &+ FetchRegistration.prefetchDistance < count {
                    FetchRegistration.prefetch(row + FetchRegistration.prefetchDistance)
                }
                (objects.baseAddress.unsafelyAssumedValue + index).initialize(
                    to: registration.object(at: row, asFault: asFault, refresh: refresh, rowGeneration: rowGeneration))
                initialized = index + 1
            }
        }
        let commonClass = registration.finish(&objects, refresh: refresh)
        return (objects, commonClass)
    }

    /// `_registeredObjects(for:asFault:refresh:rowGeneration:rowsNameEachObjectOnce:)` for rows the caller
    /// no longer needs: each row is let go right after its object is made, while it is still in the
    /// processor's cache, instead of all of them in a pass of their own afterwards.
    func _registeredObjects(
        consuming rows: consuming [StoreRow], asFault: Bool, refresh: Bool,
        rowGeneration: UInt64? = nil, rowsNameEachObjectOnce: Bool = false
    ) -> RegisteredObjects {
        var remaining = consume rows
        let count = remaining.count
        // No rows, no array made (see `_registeredObjects(for:asFault:refresh:rowGeneration:rowsNameEachObjectOnce:)`).
        if count == 0 { return ([], nil) }
        var registration = FetchRegistration(
            self, count: count, asFault: asFault, rowGeneration: rowGeneration,
            rowsNameEachObjectOnce: rowsNameEachObjectOnce)
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
            return (objects, registration.commonClass)
        }
        // Only new faults (the context had no objects): they run no code of the object's own but its
        // initializer, and nothing is refreshed. The rows are taken from the last, each object put at
        // its row's place, without a pass to reverse the rows first.
        var objects = [NSManagedObject](unsafeUninitializedCapacity: count) { buffer, initialized in
            var index = count
            while let row = remaining.popLast() {
                index -= 1
                if index >= FetchRegistration.prefetchDistance {
                    remaining.withUnsafeBufferPointer { rows in
                        FetchRegistration.prefetch(rows.baseAddress.unsafelyAssumedValue + (index &- FetchRegistration.prefetchDistance))
                    }
                }
                (buffer.baseAddress.unsafelyAssumedValue + index).initialize(
                    to: registration.object(for: row, asFault: true, refresh: refresh, rowGeneration: rowGeneration))
            }
            initialized = count
        }
        let commonClass = registration.finish(&objects, refresh: refresh)
        return (objects, commonClass)
    }

    /// A fetch's registered objects, and the class every one of them is an instance of when known.
    typealias RegisteredObjects = (objects: [NSManagedObject], commonClass: NSManagedObject.Type?)
}

/// The objects of one fetch's rows, registered one row at a time.
private struct FetchRegistration {
    let context: NSManagedObjectContext
    /// The class of the last entity: rows come in runs of one entity.
    private var classes = EntityRunMemo<NSManagedObject.Type>()
    /// Whether the context held no object when the fetch began: then every row's object is new, and
    /// registering it needs no lookup first.
    let contextWasEmpty: Bool
    /// Whether the new objects are faults registered without indexing them, once all are made (see
    /// `DeferredRegistration.swift`): the context held no object, the objects keep their rows, and the
    /// rows name each object once.
    private let registersWithoutIndex: Bool
    /// The registry's count of changes before the first object was made.
    private let registryChangesBefore: UInt64
    /// The class of each object returned so far, recorded as it is made.
    private var returnedClasses = UniformObjectClass()

    init(_ context: NSManagedObjectContext, count: Int, asFault: Bool, rowGeneration: UInt64?, rowsNameEachObjectOnce: Bool) {
        self.context = context
        contextWasEmpty = context.registry.isEmpty
        registersWithoutIndex = RuntimeTechniques.deferredRegistration && contextWasEmpty && asFault && rowGeneration != nil && rowsNameEachObjectOnce
        // A first fetch makes room for every row's object at once instead of growing (and rehashing) the
        // registry step by step. Later fetches often return objects already registered, so reserving
        // count + rows there would double the table for nothing.
        if contextWasEmpty, !registersWithoutIndex { context.registry.reserveCapacity(count) }
        registryChangesBefore = context._registryChanges
    }

    /// How many rows ahead of the one being registered `prefetch(_:)` is asked for.
    static var prefetchDistance: Int { ObjectPassPrefetch.distance }

    /// Starts loading the reference counts of a row's ID and values into the processor's caches.
    ///
    /// The rows were decoded before the first object was made, so for a large fetch they have left the
    /// caches by then; making each row's object retains both, and waiting for each load in turn was a
    /// large part of registering the objects.
    @inline(__always)
    static func prefetch(_ row: UnsafePointer<StoreRow>) {
        StoreRow.prefetch(row)
    }

    /// The class every object returned so far is an instance of; `nil` when they have several.
    var commonClass: NSManagedObject.Type? { returnedClasses.commonClass }

    /// Registers the objects made, when they were made without registering them, and returns the class
    /// every one of them is an instance of. Registering may put objects registered meanwhile in the place
    /// of some of them, whose classes were not recorded: the class is then unknown (`nil`).
    mutating func finish(_ objects: inout [NSManagedObject], refresh: Bool) -> NSManagedObject.Type? {
        if registersWithoutIndex,
            !context._registerWithoutIndex(&objects, registryChangesBefore: registryChangesBefore, refresh: refresh)
        {
            returnedClasses.forget()
        }
        return commonClass
    }

    /// The registered object of one row.
    @inline(__always)
    mutating func object(for row: StoreRow, asFault: Bool, refresh: Bool, rowGeneration: UInt64?) -> NSManagedObject {
        withUnsafePointer(to: row) { object(at: $0, asFault: asFault, refresh: refresh, rowGeneration: rowGeneration) }
    }

    /// The registered object of the row at `row`, read in place; its class is recorded.
    @inline(__always)
    mutating func object(at row: UnsafePointer<StoreRow>, asFault: Bool, refresh: Bool, rowGeneration: UInt64?) -> NSManagedObject {
        let object = madeObject(at: row, asFault: asFault, refresh: refresh, rowGeneration: rowGeneration)
        returnedClasses.record(object)
        return object
    }

    @inline(__always)
    private mutating func madeObject(
        at row: UnsafePointer<StoreRow>, asFault: Bool, refresh: Bool,
        rowGeneration: UInt64?
    ) -> NSManagedObject {
        let type = classes.value(for: row.pointee.entity, ManagedObjectClasses.objectClass(for:))
        if registersWithoutIndex {
            return context.unregisteredNewFault(at: row, type: type, rowGeneration: rowGeneration.unsafelyAssumedValue)
        }
        if contextWasEmpty {
            return context.registeredNewObject(at: row, asFault: asFault, refresh: refresh, type: type, rowGeneration: rowGeneration)
        }
        return context.registeredObject(for: row.pointee, asFault: asFault, refresh: refresh, type: type, rowGeneration: rowGeneration)
    }
}

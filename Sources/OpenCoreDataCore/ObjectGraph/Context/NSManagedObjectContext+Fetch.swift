extension NSManagedObjectContext {
    /// Returns the objects a fetch request selects, of the request's result type: managed objects,
    /// object IDs (`.managedObjectIDResultType`), the count as one `NSNumber` (`.countResultType`), or
    /// dictionaries of property values (`.dictionaryResultType`).
    ///
    /// With `includesPendingChanges` (the default), objects inserted, changed and deleted in the context
    /// and not yet saved are taken into account: the predicate and sort descriptors are evaluated in
    /// memory for them.
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        _checkQueue("fetch(_:)")
        if _needsQueryGenerationScope { return try _readingQueryGeneration { try fetch(request) } }
        _releaseUnreferencedObjects()
        if let type = T.self as? NSManagedObject.Type { ManagedObjectClasses.remember(type) }
        let coordinator = try requireObjectSource()
        let entity = try coordinator._entity(of: request)
        let resolved = resolvedCopy(of: request, entity: entity)
        let results: [Any]
        if let root = coordinator as? NSPersistentStoreCoordinator,
            let fromStores = try _fetchThroughIncrementalStores(resolved, entity: entity, coordinator: root)
        {
            return try fromStores.map { result in
                guard let typed = result as? T else { throw Self._resultTypeError(result, T.self, entity) }
                return typed
            }
        }
        switch request.resultType {
        case .managedObjectIDResultType:
            results = try fetchIDs(resolved, entity: entity, coordinator: coordinator)
        case .countResultType:
            results = [NSNumber(value: try count(resolved, entity: entity, coordinator: coordinator))]
        case .dictionaryResultType:
            results = try fetchDictionaries(resolved, entity: entity, coordinator: try requireCoordinator())
        default:
            let (objects, commonClass) = try fetchObjects(resolved, entity: entity, coordinator: coordinator)
            if let typed: [T] = Self.objects(objects, as: T.self, commonClass: commonClass) { return typed }
            results = objects
        }
        return results.map { result in
            guard let typed = result as? T else {
                preconditionFailure(
                    "A fetch of entity \(entity.name ?? "?") returned \(type(of: result)), which is not \(T.self): make the request's result type match its entity's class."
                )
            }
            return typed
        }
    }

    /// Returns the number of objects a fetch request would return.
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        _checkQueue("count(for:)")
        if _needsQueryGenerationScope { return try _readingQueryGeneration { try count(for: request) } }
        let coordinator = try requireObjectSource()
        let entity = try coordinator._entity(of: request)
        let resolved = resolvedCopy(of: request, entity: entity)
        if let root = coordinator as? NSPersistentStoreCoordinator,
            root._stores(for: entity, request: resolved).contains(where: { $0 is NSIncrementalStore })
        {
            resolved.resultType = .countResultType
            let counted = try _fetchThroughIncrementalStores(resolved, entity: entity, coordinator: root)
            return (counted?.first as? NSNumber)?.intValue ?? 0
        }
        return try count(resolved, entity: entity, coordinator: coordinator)
    }

    // MARK: Implementation

    /// The objects as `[T]` when `T` is a managed object class they all are instances of, checking each
    /// class once instead of casting every object; `nil` otherwise (the caller casts one by one).
    /// `commonClass`, when known, is the class of every object: the objects are not read then.
    private static func objects<T>(
        _ objects: [NSManagedObject], as type: T.Type,
        commonClass: NSManagedObject.Type?
    ) -> [T]? {
        // A class: one reference, laid out as an `NSManagedObject` reference is (a class-bound
        // existential with a protocol is not: it has a witness table beside the reference).
        guard RuntimeTechniques.typedResultsCast, T.self is NSManagedObject.Type,
            MemoryLayout<T>.size == MemoryLayout<NSManagedObject>.size
        else { return nil }
        if let commonClass {
            // A path that changes the list without forgetting its recorded class would make the cast
            // below unsound: debug builds (the test suite's) check every object.
            assert(
                objects.allSatisfy { ObjectIdentifier(Swift.type(of: $0)) == ObjectIdentifier(commonClass) },
                "a fetch recorded \(commonClass) as the class of every object, and one is not")
            guard commonClass is T.Type else { return nil }
            InternalChecks.check(objects.allSatisfy { $0 is T }, "a fetch's objects cast as [\(T.self)] are not all \(T.self)")
            return unsafeBitCast(objects, to: [T].self)
        }
        var checkedClass: ObjectIdentifier?
        for object in objects {
            let objectClass = ObjectIdentifier(Swift.type(of: object))
            if objectClass != checkedClass {
                guard object is T else { return nil }
                checkedClass = objectClass
            }
        }
        // Every element is a reference to an instance of the class `T`, and an array of class references
        // is laid out the same whatever the class: the array is taken as it is, as the standard library
        // does for arrays of classes on Apple's platforms, instead of copied one reference at a time.
        return unsafeBitCast(objects, to: [T].self)
    }

    /// The context's persistent store coordinator, or an error when the context has none.
    package func requireCoordinator() throws -> NSPersistentStoreCoordinator {
        guard let coordinator = _coordinator else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSCoreDataError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The managed object context\(name.map { " \"\($0)\"" } ?? "") has no persistent store coordinator."
                ])
        }
        return coordinator
    }

    /// The error for a result a store returned that is not of the fetch's result class.
    private static func _resultTypeError(_ result: Any, _ type: Any.Type, _ entity: NSEntityDescription) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "A fetch of entity \(entity.name ?? "?") returned \(Swift.type(of: result)), which is not \(type): make the request's result type match its entity's class."
            ])
    }

    /// A copy of the request with its entity set to the coordinator's entity.
    private func resolvedCopy<T>(of request: NSFetchRequest<T>, entity: NSEntityDescription) -> NSFetchRequest<T> {
        guard let copy = Self.copy(of: request) else { return request }
        copy._isImmutableTemplate = false
        copy._entity = entity
        copy._entityName = entity.name
        return copy
    }

    /// A copy of the request, made directly when it is an `NSFetchRequest` itself (Foundation's `copy()`
    /// first casts the request to `NSCopying`, which on this platform looks the conformance up through
    /// the generic class's superclasses on every call), through `copy()` for a subclass.
    private static func copy<T>(of request: NSFetchRequest<T>) -> NSFetchRequest<T>? {
        if type(of: request) == NSFetchRequest<T>.self { return request._retyped(as: T.self) }
        return request.copy() as? NSFetchRequest<T>
    }

    /// A copy of the request without limit and offset.
    func unlimitedCopy<T>(of request: NSFetchRequest<T>) -> NSFetchRequest<T> {
        guard let copy = Self.copy(of: request) else { return request }
        copy._fetchLimit = 0
        copy._fetchOffset = 0
        return copy
    }

    /// The objects a request selects, and the class every one of them is an instance of when the fetch
    /// registered them all from its rows and knows it (`nil` otherwise: the caller checks each object).
    private func fetchObjects<T>(
        _ request: NSFetchRequest<T>, entity: NSEntityDescription,
        coordinator: any ContextObjectSource
    ) throws
        -> (objects: [NSManagedObject], commonClass: NSManagedObject.Type?)
    {
        let pending = try pendingObjects(matching: request, entity: entity)
        let storeRequest = pending.isEmpty ? request : unlimitedCopy(of: request)
        var objects: [NSManagedObject]
        if request.fetchBatchSize > 0, pending.isEmpty {
            // The rows' identities, without an ID made for each (a million results would keep a million).
            let identities =
                try (coordinator as? NSPersistentStoreCoordinator)?.fetchObjectIdentities(request)
                ?? coordinator.fetchObjectIDs(request).map(ObjectIdentity.id)
            return (
                batchedObjects(
                    identities, batchSize: request.fetchBatchSize,
                    entity: entity, affectedStores: request._affectedStores), nil
            )
        }
        var commonClass: NSManagedObject.Type?
        if request.includesPropertyValues {
            // Rows straight from the coordinator are its cached rows: new faults may fire from them.
            let rows: [StoreRow]
            var rowGeneration: UInt64?
            var cacheKeepsArray = false
            var distinct = false
            if let coordinator = coordinator as? NSPersistentStoreCoordinator {
                (rows, rowGeneration, cacheKeepsArray, distinct) = try coordinator._fetchCachedRows(storeRequest)
            } else {
                rows = try coordinator.fetchRows(storeRequest)
            }
            let prefetches = request.relationshipKeyPathsForPrefetching?.isEmpty == false
            // Rows the cache keeps as an array are read in place: taking them out would copy the array.
            if prefetches || cacheKeepsArray {
                (objects, commonClass) = _registeredObjects(
                    for: rows, asFault: request.returnsObjectsAsFaults,
                    refresh: request.shouldRefreshRefetchedObjects,
                    rowGeneration: rowGeneration, rowsNameEachObjectOnce: distinct)
                if prefetches {
                    try _prefetchRelationships(of: objects, rows: rows, for: request)
                }
            } else {
                (objects, commonClass) = _registeredObjects(
                    consuming: consume rows, asFault: request.returnsObjectsAsFaults,
                    refresh: request.shouldRefreshRefetchedObjects,
                    rowGeneration: rowGeneration, rowsNameEachObjectOnce: distinct)
            }
        } else {
            // Not recorded: the class stays unknown.
            objects = try coordinator.fetchObjectIDs(storeRequest).map { object(with: $0) }
        }
        if pending.isEmpty { return (objects, commonClass) }
        return (merge(objects, with: pending, request: request), nil)
    }

    private func fetchIDs<T>(
        _ request: NSFetchRequest<T>, entity: NSEntityDescription,
        coordinator: any ContextObjectSource
    ) throws -> [NSManagedObjectID] {
        let pending = try pendingObjects(matching: request, entity: entity)
        if pending.isEmpty { return try coordinator.fetchObjectIDs(request) }
        let objects = try coordinator.fetchObjectIDs(unlimitedCopy(of: request)).map { object(with: $0) }
        return merge(objects, with: pending, request: request).map(\.objectID)
    }

    private func count<T>(
        _ request: NSFetchRequest<T>, entity: NSEntityDescription,
        coordinator: any ContextObjectSource
    ) throws -> Int {
        let pending = try pendingObjects(matching: request, entity: entity)
        if pending.isEmpty { return try coordinator.count(request) }
        let objects = try coordinator.fetchObjectIDs(unlimitedCopy(of: request)).map { object(with: $0) }
        return merge(objects, with: pending, request: request).count
    }

    /// The inserted, changed and deleted objects of the request's entity (and its subentities when the
    /// request includes them), when the request includes pending changes. When there are any, the
    /// request's predicate and sort descriptors will be evaluated on them: a key path naming no property
    /// throws here (``FetchRequestKeyPaths``) instead of stopping the program there.
    func pendingObjects<T>(matching request: NSFetchRequest<T>, entity: NSEntityDescription) throws -> [NSManagedObject] {
        guard request.includesPendingChanges else { return [] }
        let candidates = Array(_inserted.values) + Array(_updated.values) + Array(_deleted.values)
        let pending = candidates.filter { object in
            request.includesSubentities ? object.entity.isKindOf(entity: entity) : object.entity === entity
        }
        if !pending.isEmpty { try FetchRequestKeyPaths.check(request, entity: entity) }
        return pending
    }

    /// Store results corrected by the context's pending changes: deleted objects removed, changed
    /// objects re-evaluated, inserted objects added; then sorted and windowed in memory.
    func merge<T>(
        _ storeObjects: [NSManagedObject], with pending: [NSManagedObject],
        request: NSFetchRequest<T>
    ) -> [NSManagedObject] {
        let pendingIDs = Set(pending.map(ObjectIdentifier.init))
        let predicate = request.predicate
        func matches(_ object: NSManagedObject) -> Bool {
            !object._isDeleted && (predicate?.evaluate(with: object) ?? true)
        }
        var seen = Set<ObjectIdentifier>()
        var result: [NSManagedObject] = []
        for object in storeObjects where seen.insert(ObjectIdentifier(object)).inserted {
            if pendingIDs.contains(ObjectIdentifier(object)) {
                if matches(object) { result.append(object) }
            } else if !object._isDeleted {
                result.append(object)
            }
        }
        for object in pending where !seen.contains(ObjectIdentifier(object)) && matches(object) {
            seen.insert(ObjectIdentifier(object))
            result.append(object)
        }
        if let descriptors = request.sortDescriptors, !descriptors.isEmpty {
            result = result.sortedArray(using: descriptors)
        }
        let start = min(max(request.fetchOffset, 0), result.count)
        var window = Array(result[start...])
        if request.fetchLimit > 0 { window = Array(window.prefix(request.fetchLimit)) }
        return window
    }
}

/// Running batch requests: each request is turned into its store-level operation, which the coordinator
/// hands to the SQLite stores that hold the entity.

extension NSBatchUpdateRequest: BatchRequest {
    func run(on coordinator: NSPersistentStoreCoordinator) throws -> NSPersistentStoreResult {
        let entity = try BatchExecution.entity(named: _entityName, given: _entity, in: coordinator)
        _entity = entity
        let attributes = entity.attributesByName
        var values: [(attribute: NSAttributeDescription, value: BatchUpdateValue)] = []
        for (key, value) in propertiesToUpdate ?? [:] {
            let name = (key.base as? String) ?? (key.base as? NSPropertyDescription)?.name ?? "\(key)"
            guard let attribute = attributes[name] else {
                let kind =
                    entity.relationshipsByName[name] != nil ? "a relationship; batch updates set attributes only" : "not a property of the entity"
                throw BatchExecution.error(
                    NSPersistentStoreUnsupportedRequestTypeError,
                    "The batch update of \(entity.name ?? "") sets \"\(name)\", which is \(kind).")
            }
            values.append((attribute, (value as? NSExpression).map(BatchUpdateValue.expression) ?? .constant(value)))
        }
        values.sort { $0.attribute.name < $1.attribute.name }
        let operation = BatchUpdateOperation(
            entity: entity, predicate: predicate, includesSubentities: includesSubentities,
            values: values, reportsObjectIDs: resultType == .updatedObjectIDsResultType)
        let (count, ids) = try coordinator.batchUpdate(operation, affectedStores: BatchExecution.stores(_affectedStores))
        switch resultType {
        case .statusOnlyResultType: return NSBatchUpdateResult(result: true, resultType: resultType)
        case .updatedObjectsCountResultType: return NSBatchUpdateResult(result: count, resultType: resultType)
        case .updatedObjectIDsResultType: return NSBatchUpdateResult(result: ids ?? [], resultType: resultType)
        }
    }
}

extension NSBatchDeleteRequest: BatchRequest {
    func run(on coordinator: NSPersistentStoreCoordinator) throws -> NSPersistentStoreResult {
        let entity: NSEntityDescription
        if let ids = _objectIDs {
            guard let first = ids.first else {
                return NSBatchDeleteResult(
                    result: resultType == .resultTypeStatusOnly ? true : (resultType == .resultTypeCount ? 0 : [NSManagedObjectID]()),
                    resultType: resultType)
            }
            let names = Set(ids.map { $0.entity.name ?? "" })
            guard names.count == 1 else {
                throw BatchExecution.error(
                    NSCoreDataError,
                    "A batch delete from object IDs needs IDs of one entity; these are of \(names.sorted().joined(separator: ", ")).")
            }
            entity = try BatchExecution.entity(named: first.entity.name ?? "", given: nil, in: coordinator)
        } else {
            entity = try BatchExecution.entity(
                named: _fetchRequest.entityName ?? _fetchRequest.entity?.name ?? "",
                given: nil, in: coordinator)
        }
        let operation = BatchDeleteOperation(entity: entity, fetchRequest: _objectIDs == nil ? _fetchRequest : nil, objectIDs: _objectIDs)
        let outcome = try coordinator.batchDelete(operation, affectedStores: BatchExecution.stores(_affectedStores))
        switch resultType {
        case .resultTypeStatusOnly: return NSBatchDeleteResult(result: true, resultType: resultType)
        case .resultTypeCount: return NSBatchDeleteResult(result: outcome.requested.count, resultType: resultType)
        case .resultTypeObjectIDs: return NSBatchDeleteResult(result: outcome.deleted, resultType: resultType)
        }
    }
}

extension NSBatchInsertRequest: BatchRequest {
    func run(on coordinator: NSPersistentStoreCoordinator) throws -> NSPersistentStoreResult {
        let entity = try BatchExecution.entity(named: _entityName, given: _entity, in: coordinator)
        _entity = entity
        var rows = objectsToInsert ?? []
        if let dictionaryHandler {
            while true {
                let dictionary = NSMutableDictionary()
                if dictionaryHandler(dictionary) { break }
                var row: [String: Any] = [:]
                for (key, value) in dictionary {
                    guard let name = key as? String else {
                        throw BatchExecution.error(
                            NSManagedObjectValidationError,
                            "Object \(rows.count) of the batch insert has the key \(key), which is not a string.")
                    }
                    row[name] = value
                }
                rows.append(row)
            }
        }
        if let managedObjectHandler {
            let objectClass = ManagedObjectClasses.objectClass(for: entity)
            let names = entity.attributesByName.values.filter { !$0.isTransient && !($0 is NSDerivedAttributeDescription) }.map(\.name)
            while true {
                let object = objectClass.init(entity: entity, insertInto: nil)
                if managedObjectHandler(object) { break }
                var row: [String: Any] = [:]
                for name in names {
                    if let value = object.value(forKey: name) { row[name] = value }
                }
                rows.append(row)
            }
        }
        let ids = try coordinator.batchInsert(
            BatchInsertOperation(entity: entity, rows: rows),
            affectedStores: BatchExecution.stores(_affectedStores))
        switch resultType {
        case .statusOnly: return NSBatchInsertResult(result: true, resultType: resultType)
        case .count: return NSBatchInsertResult(result: ids.count, resultType: resultType)
        case .objectIDs: return NSBatchInsertResult(result: ids, resultType: resultType)
        }
    }
}

/// A batch request: it runs on a coordinator, whether a context or the coordinator executes it.
protocol BatchRequest: ContextExecutableRequest, CoordinatorExecutableRequest {
    /// Runs the request against the coordinator's SQLite stores.
    func run(on coordinator: NSPersistentStoreCoordinator) throws -> NSPersistentStoreResult
}

extension BatchRequest {
    func execute(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        // A store with history tracking records the context as the writer.
        try HistoryAuthor.$current.withValue(context._historyAuthor) { try run(on: BatchExecution.coordinator(of: context)) }
    }

    func execute(in coordinator: NSPersistentStoreCoordinator, context: NSManagedObjectContext) throws -> Any {
        try run(on: coordinator)
    }
}

/// What the three batch requests share.
enum BatchExecution {
    /// The coordinator a context's batch requests go to.
    static func coordinator(of context: NSManagedObjectContext) throws -> NSPersistentStoreCoordinator {
        guard let coordinator = context.persistentStoreCoordinator else {
            throw error(NSPersistentStoreSaveError, "The context has no persistent store coordinator to run the batch request.")
        }
        return coordinator
    }

    /// The coordinator's entity for a request.
    static func entity(named name: String, given: NSEntityDescription?, in coordinator: NSPersistentStoreCoordinator) throws -> NSEntityDescription {
        let wanted = given?.name ?? name
        guard let entity = coordinator.managedObjectModel.entitiesByName[wanted] else {
            throw error(
                NSPersistentStoreUnsupportedRequestTypeError,
                "The batch request names the entity \"\(wanted)\", which is not in the coordinator's model.")
        }
        return entity
    }

    /// The request's affected stores, `nil` for all.
    static func stores(_ affected: [AnyObject]?) -> [NSPersistentStore]? {
        affected?.compactMap { $0 as? NSPersistentStore }
    }

    static func error(_ code: Int, _ message: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: message])
    }
}

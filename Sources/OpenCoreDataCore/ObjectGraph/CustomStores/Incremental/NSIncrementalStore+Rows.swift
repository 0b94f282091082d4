import Foundation

/// How the coordinator's store hooks reach an incremental store's API: opening through
/// `loadMetadata()`, rows from nodes, relationships, fetches made for the coordinator's own paths (a
/// child context's parent, prefetching), and permanent IDs.
extension NSIncrementalStore {
    func _openStore(model: NSManagedObjectModel) throws {
        _model = model
        try loadMetadata()
        guard let metadata, let uuid = metadata[NSStoreUUIDKey] as? String, !uuid.isEmpty,
            metadata[NSStoreTypeKey] is String
        else {
            throw _badResult("set no metadata with NSStoreTypeKey and NSStoreUUIDKey in loadMetadata().")
        }
        if metadata[NSStoreModelVersionHashesKey] != nil {
            let configuration = configurationName == "PF_DEFAULT_CONFIGURATION_NAME" ? nil : configurationName
            guard model.isConfiguration(withName: configuration, compatibleWithStoreMetadata: metadata) else {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSPersistentStoreIncompatibleVersionHashError,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "The model used to open the store at \(url?.path ?? "(no location)") is incompatible with the one used to create it.",
                        NSAffectedStoresErrorKey: [self],
                    ])
            }
        }
    }

    func _loadStoreMetadata() throws -> [String: Any] {
        try loadMetadata()
        return metadata ?? [:]
    }

    func _closeStore() {
        _registrationLock.withLock { _registered = [:] }
    }

    /// The context to hand the subclass: the one asking, when it uses this store's coordinator; otherwise a
    /// new private context of the coordinator.
    var _requestingContext: NSManagedObjectContext {
        if let context = StoreRequestor.context, context.persistentStoreCoordinator === persistentStoreCoordinator {
            return context
        }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    func _storeRows<Result>(_ request: NSFetchRequest<Result>) throws -> [StoreRow] {
        let context = _requestingContext
        return try _fetchIDs(request, context: context).compactMap { try _row(for: $0, context: context) }
    }

    func _storeObjectIDs<Result>(_ request: NSFetchRequest<Result>) throws -> [NSManagedObjectID] {
        try _fetchIDs(request, context: _requestingContext)
    }

    func _storeCount<Result>(_ request: NSFetchRequest<Result>) throws -> Int {
        let copy = _copy(of: request, resultType: .countResultType)
        return try _count(from: execute(copy, with: _requestingContext))
    }

    func _storeRow(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try _row(for: objectID, context: _requestingContext)
    }

    func _storeRelatedObjectIDs(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        let value = try newValue(forRelationship: relationship, forObjectWith: objectID, with: _requestingContext)
        return try _destinationIDs(value, of: relationship)
    }

    func _storePermanentIDs(for temporaryIDs: [NSManagedObjectID]) throws -> [NSManagedObjectID] {
        let context = _requestingContext
        let objects = try temporaryIDs.map { id in
            guard let object = context.registeredObject(for: id) else {
                throw _badResult("cannot give a permanent ID to \(id.uriRepresentation().absoluteString): no context holds the object.")
            }
            return object
        }
        let ids = try obtainPermanentIDs(for: objects)
        guard ids.count == objects.count else {
            throw _badResult("returned \(ids.count) IDs from obtainPermanentIDs(for:) for \(objects.count) objects.")
        }
        for (object, id) in zip(objects, ids) {
            guard !id.isTemporaryID, id.storeIdentifier == identifier, NSManagedObjectID.sameEntity(id.entity, object.entity) else {
                throw _badResult(
                    "returned \(id.uriRepresentation().absoluteString) from obtainPermanentIDs(for:) for a new \(object.entity.name ?? "object"): an ID must be permanent, of the object's entity, and made by this store with newObjectID(for:referenceObject:)."
                )
            }
        }
        return ids
    }

    // MARK: Conversions

    /// A copy of a fetch request with another result type, as the subclass receives every fetch
    /// request: an `NSFetchRequest<NSFetchRequestResult>`, which `execute(_:with:)` can cast to.
    func _copy<Result>(of request: NSFetchRequest<Result>, resultType: NSFetchRequestResultType) -> NSFetchRequest<NSFetchRequestResult> {
        let copy = request._retyped(as: NSFetchRequestResult.self)
        copy.resultType = resultType
        return copy
    }

    /// The IDs the subclass returns for a request asked as an ID request.
    private func _fetchIDs<Result>(_ request: NSFetchRequest<Result>, context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        let result = try execute(_copy(of: request, resultType: .managedObjectIDResultType), with: context)
        return try _elements(of: result, what: "an object ID fetch").map { element in
            if let id = element as? NSManagedObjectID { return id }
            if let object = element as? NSManagedObject { return object.objectID }
            throw _badResult("returned \(Swift.type(of: element)) from execute(_:with:) for an object ID fetch; expected NSManagedObjectID.")
        }
    }

    /// The elements of an array the subclass returned.
    func _elements(of result: Any, what: String) throws -> [Any] {
        if let array = result as? [Any] { return array }
        if let array = result as? NSArray { return array.map { $0 } }
        throw _badResult("returned \(Swift.type(of: result)) from execute(_:with:) for \(what); expected an array.")
    }

    /// The count in the result of a count request: an array with one number.
    func _count(from result: Any) throws -> Int {
        let elements = try _elements(of: result, what: "a count fetch")
        guard elements.count == 1, let count = Self._integer(elements[0]), count >= 0 else {
            throw _badResult("returned \(elements.count) values from execute(_:with:) for a count fetch; expected one NSNumber.")
        }
        return count
    }

    private static func _integer(_ value: Any) -> Int? {
        if let value = value as? Int { return value }
        if let number = value as? NSNumber { return number.intValue }
        return nil
    }

    /// The row of an object, from the node the subclass returns; a thrown error means the object is
    /// not in the store.
    func _row(for objectID: NSManagedObjectID, context: NSManagedObjectContext) throws -> StoreRow? {
        guard !objectID.isTemporaryID else { return nil }
        let node = try newValuesForObject(with: objectID, with: context)
        return try _row(from: node, for: objectID, context: context)
    }

    /// A node's values as a row: attributes in canonical form, to-one relationships as IDs (asked for
    /// when the node left them out).
    func _row(from node: NSIncrementalStoreNode, for objectID: NSManagedObjectID, context: NSManagedObjectContext) throws -> StoreRow {
        guard node.objectID == objectID else {
            throw _badResult(
                "returned a node for \(node.objectID.uriRepresentation().absoluteString) when asked for \(objectID.uriRepresentation().absoluteString)."
            )
        }
        let entity = objectID.entity
        var values: [String: Any] = [:]
        for attribute in entity.attributesByName.values where !attribute.isTransient {
            guard let raw = node.value(for: attribute), !(raw is NSNull) else { continue }
            guard let value = ManagedValueCoercion.canonical(raw, for: attribute.attributeType) else {
                throw _badResult(
                    "returned \(Swift.type(of: raw)) for the attribute \(attribute.name) of \(entity.name ?? "an object"), which is not a value of its type."
                )
            }
            values[attribute.name] = value
        }
        for relationship in entity.relationshipsByName.values where !relationship.isToMany && !relationship.isTransient {
            var raw = node.value(for: relationship)
            if raw == nil { raw = try newValue(forRelationship: relationship, forObjectWith: objectID, with: context) }
            guard let raw, !(raw is NSNull) else { continue }
            values[relationship.name] = try _destinationID(raw, of: relationship)
        }
        guard node.version <= UInt64(Int64.max) else {
            throw _badResult("returned the version \(node.version) for \(objectID.uriRepresentation().absoluteString), larger than Core Data keeps.")
        }
        return StoreRow(objectID: objectID, version: Int64(node.version), values: values)
    }

    /// A destination the subclass named: an ID (or object) of the relationship's destination entity.
    private func _destinationID(_ value: Any, of relationship: NSRelationshipDescription) throws -> NSManagedObjectID {
        let id: NSManagedObjectID
        if let value = value as? NSManagedObjectID {
            id = value
        } else if let object = value as? NSManagedObject {
            id = object.objectID
        } else {
            throw _badResult("returned \(Swift.type(of: value)) for the relationship \(relationship.name); expected NSManagedObjectID.")
        }
        if let destination = relationship.destinationEntity, !id.entity.isKindOf(entity: destination) {
            throw _badResult(
                "returned an object of \(id.entity.name ?? "?") for the relationship \(relationship.name), whose destination is \(destination.name ?? "?")."
            )
        }
        return id
    }

    /// The destinations of a to-many (or to-one) relationship the subclass returned.
    func _destinationIDs(_ value: Any, of relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] {
        if value is NSNull { return [] }
        let elements: [Any]
        if let ids = value as? [NSManagedObjectID] {
            elements = ids
        } else if let ids = value as? Set<NSManagedObjectID> {
            elements = Array(ids)
        } else if let set = value as? NSOrderedSet {
            elements = set.array
        } else if let set = value as? NSSet {
            elements = set.allObjects
        } else if let set = value as? Set<AnyHashable> {
            elements = Array(set)
        } else if let array = value as? [Any] {
            elements = array
        } else if !relationship.isToMany {
            elements = [value]
        } else {
            throw _badResult(
                "returned \(Swift.type(of: value)) for the to-many relationship \(relationship.name); expected a collection of NSManagedObjectID.")
        }
        return try elements.map { try _destinationID($0, of: relationship) }
    }
}

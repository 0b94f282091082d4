extension NSManagedObjectContext {
    /// Loads, throwing the store's error, everything the delete rules of a deleted object read:
    /// - nullify (with an inverse): the destinations, each destination's row when it is a fault, and
    ///   the destination's inverse relationship when it is to-many (the rule removes the object from it);
    /// - cascade: the destinations (returned: they are deleted in turn, and their own rules apply);
    /// - deny: the destinations of a to-many relationship (`validateForDelete()` checks it is empty);
    /// - no action: nothing.
    ///
    /// Firing those faults and relationship faults later, inside the rules, cannot report an error: a
    /// row another program damaged (an unreadable `Z_ENT`, `Z_OPT` or foreign key) would leave its object
    /// without values (`FaultFailures.swift`) and the rules would act on what they could not read. A
    /// related object whose row is gone reads as deleted when ``shouldDeleteInaccessibleFaults`` is `true`
    /// (as firing its fault would); otherwise it fails with `NSManagedObjectReferentialIntegrityError`
    /// (133000), Core Data's error for a fault pointing to an object that does not exist.
    func _loadDeleteRuleDestinations(of object: NSManagedObject) throws -> [NSManagedObject] {
        guard object._context === self, !object._isFault else { return [] }
        var cascaded: [NSManagedObject] = []
        for relationship in object.entity.relationshipsByName.values {
            switch relationship.deleteRule {
            case .nullifyDeleteRule:
                guard let inverse = relationship.inverseRelationship else { continue }
                for destination in try _loadDestinations(of: object, relationship) where destination._context === self {
                    try _loadRelatedFault(destination, through: relationship, of: object)
                    if inverse.isToMany, !destination._isFault { _ = try destination.loadToMany(inverse) }
                }
            case .cascadeDeleteRule:
                for destination in try _loadDestinations(of: object, relationship)
                where destination._context === self && !destination._isDeleted {
                    cascaded.append(destination)
                }
            case .denyDeleteRule:
                if relationship.isToMany { _ = try object.loadToMany(relationship) }
            case .noActionDeleteRule:
                continue
            }
        }
        return cascaded
    }

    /// The destinations of one of a loaded object's relationships, loading a to-many relationship.
    private func _loadDestinations(of object: NSManagedObject, _ relationship: NSRelationshipDescription) throws -> [NSManagedObject] {
        if relationship.isToMany { return try object.loadToMany(relationship) }
        return (object.storage[relationship.name] as? NSManagedObject).map { [$0] } ?? []
    }

    /// Fires a related object's fault, throwing the store's error instead of stopping the process.
    /// A row that is gone makes the object an inaccessible fault (see ``_loadDeleteRuleDestinations(of:)``).
    func _loadRelatedFault(
        _ destination: NSManagedObject, through relationship: NSRelationshipDescription,
        of object: NSManagedObject
    ) throws {
        guard destination._isFault, destination._context === self else { return }
        if let row = try _coordinatorRow(for: destination._objectID, fresh: stalenessInterval >= 0) {
            fulfill(destination, from: row)
        } else if !destination._objectID.isTemporaryID || _links.parent != nil {
            guard shouldDeleteInaccessibleFaults else { throw Self._missingObjectError(destination._objectID, relationship, object) }
            // The context's rule for inaccessible faults: the object reads as deleted, with no values.
            destination.willAccessValue(forKey: nil)
        }
    }

    /// `NSManagedObjectReferentialIntegrityError` for a related object whose row is gone from the store.
    static func _missingObjectError(
        _ objectID: NSManagedObjectID, _ relationship: NSRelationshipDescription?,
        _ owner: NSManagedObject?
    ) -> NSError {
        var message = "No object of entity \(objectID.entity.name ?? "?") with ID \(objectID.uriRepresentation().absoluteString) exists in the store"
        if let relationship, let owner {
            message +=
                " (the destination of relationship \"\(relationship.name)\" of \(owner.entity.name ?? "?") "
                + "\(owner._objectID.uriRepresentation().absoluteString), deleted or nullified by a delete rule)"
        }
        return NSError(
            domain: NSCocoaErrorDomain, code: NSManagedObjectReferentialIntegrityError,
            userInfo: [
                NSLocalizedDescriptionKey: message + ".",
                NSAffectedObjectsErrorKey: [objectID],
            ])
    }
}

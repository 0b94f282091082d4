extension NSManagedObjectContext {
    /// Loads, before a save applies delete rules, every row those rules will read: the deleted objects
    /// that are still faults, and the related objects and relationships of each deleted object whose
    /// rules are still pending — following cascades, whose destinations are deleted in turn.
    ///
    /// The rules fire those faults and relationship faults where no error can be reported; a row the
    /// store fails to read (a damaged row, a missing external data file) would stop the process there.
    /// Loading them first lets `save()` throw the store's error instead, with nothing written and the
    /// context's changes kept. An object whose rules were skipped because something they read could not
    /// be loaded (see ``_loadDeletedObject(_:)``) gets them applied once everything loads.
    ///
    /// The objects load a generation at a time: the deleted objects, then the destinations their cascades
    /// reach, and so on. Each generation's faults and to-many relationships are read in bulk first (see
    /// ``_loadDeleteRuleRelationshipsInBulk(of:)``), so that deleting ten thousand objects with their relationships runs a few
    /// queries, not one per object and relationship.
    func _loadDeletedFaults() throws {
        var generation = _deleted.values.filter { $0._isFault || !$0.preparedForDeletion }
        var seen: Set<ObjectIdentifier> = []
        while !generation.isEmpty {
            let objects = generation.filter { seen.insert(ObjectIdentifier($0)).inserted }
            generation = []
            // The generation's faults fill together where the context reads cached rows from a coordinator
            // (from the row cache, or one fetch per entity hierarchy); the others, and a fault whose row is
            // gone, fire one by one below.
            let faults = objects.filter { $0._isFault && !$0._objectID.isTemporaryID }
            if faults.count > 1, _links.parent == nil, stalenessInterval < 0, let coordinator = _coordinator {
                try _loadRows(of: faults, coordinator: coordinator)
                for fault in faults where !fault._isFault { fault.preparedForDeletion = false }
            }
            var loaded: [NSManagedObject] = []
            for object in objects {
                if object._isFault {
                    guard let row = try _coordinatorRow(for: object._objectID, fresh: stalenessInterval >= 0) else {
                        // A row that is gone: the fault's own rules (an inaccessible fault reads as deleted).
                        if !shouldDeleteInaccessibleFaults, !object._objectID.isTemporaryID || _links.parent != nil {
                            throw Self._missingObjectError(object._objectID, nil, nil)
                        }
                        continue
                    }
                    fulfill(object, from: row)
                    object.preparedForDeletion = false
                }
                if !object.preparedForDeletion { loaded.append(object) }
            }
            try _loadDeleteRuleRelationshipsInBulk(of: loaded)
            for object in loaded {
                generation += try _loadDeleteRuleDestinations(of: object).filter { !seen.contains(ObjectIdentifier($0)) }
            }
        }
    }

    /// Loads in bulk what the delete rules of `objects` read, in one query per relationship (and per
    /// store) where it is not loaded yet: the to-many relationships of cascades, denials and nullified
    /// relationships with an inverse; the rows of the objects a nullify rule changes; and those objects'
    /// inverse to-many relationships. Objects of a context with a parent, and new objects, load theirs one
    /// by one (``_loadDeleteRuleDestinations(of:)`` loads whatever is left).
    private func _loadDeleteRuleRelationshipsInBulk(of objects: [NSManagedObject]) throws {
        guard objects.count > 1, _links.parent == nil, let coordinator = _coordinator else { return }
        let owners = objects.filter { $0._context === self && !$0._isFault && !$0._objectID.isTemporaryID }
        typealias Group = (relationship: NSRelationshipDescription, objects: [NSManagedObjectID: NSManagedObject])
        func loadGroups(_ groups: [ObjectIdentifier: Group]) throws {
            for group in groups.values where group.objects.count > 1 {
                _ = try _loadToMany(group.relationship, of: group.objects, coordinator: coordinator)
            }
        }
        func isNullifiedWithInverse(_ relationship: NSRelationshipDescription) -> Bool {
            relationship.deleteRule == .nullifyDeleteRule && relationship.inverseRelationship != nil
        }
        // The to-many relationships the rules read.
        var toMany: [ObjectIdentifier: Group] = [:]
        for object in owners {
            for relationship in object.entity.relationshipsByName.values
            where relationship.isToMany && object.toMany[relationship.name] == nil
                && (relationship.deleteRule == .cascadeDeleteRule || relationship.deleteRule == .denyDeleteRule
                    || isNullifiedWithInverse(relationship))
            {
                toMany[ObjectIdentifier(relationship), default: (relationship, [:])].objects[object._objectID] = object
            }
        }
        try loadGroups(toMany)
        // Each group's destinations came with their rows (one-to-many relationships of SQLite stores) or
        // are read with the next generation.
        // The objects nullify rules change: their rows, then their inverse to-many relationships.
        func forEachNullified(_ body: (NSManagedObject, NSRelationshipDescription) -> Void) {
            for object in owners {
                for relationship in object.entity.relationshipsByName.values where isNullifiedWithInverse(relationship) {
                    let destinations =
                        relationship.isToMany
                        ? object.toMany[relationship.name] ?? []
                        : (object.storage[relationship.name] as? NSManagedObject).map { [$0] } ?? []
                    for destination in destinations where destination._context === self && !destination._objectID.isTemporaryID {
                        body(destination, relationship)
                    }
                }
            }
        }
        if stalenessInterval < 0 {
            var faults: [NSManagedObject] = []
            var seen = Set<ObjectIdentifier>()
            forEachNullified { destination, _ in
                if destination._isFault, seen.insert(ObjectIdentifier(destination)).inserted { faults.append(destination) }
            }
            if faults.count > 1 { try _loadRows(of: faults, coordinator: coordinator) }
        }
        var inverses: [ObjectIdentifier: Group] = [:]
        forEachNullified { destination, relationship in
            guard let inverse = relationship.inverseRelationship, inverse.isToMany, !destination._isFault,
                destination.toMany[inverse.name] == nil, destination.entity.relationshipsByName[inverse.name] === inverse
            else { return }
            inverses[ObjectIdentifier(inverse), default: (inverse, [:])].objects[destination._objectID] = destination
        }
        try loadGroups(inverses)
    }

    /// Fires a deleted object's fault and loads what its delete rules read; `false` when the store
    /// cannot read one of those rows. The object's rules then wait: a save first calls
    /// ``_loadDeletedFaults()``, which throws the store's error (processing pending changes, as
    /// `rollback()` and `processPendingChanges()` do, cannot report one).
    func _loadDeletedObject(_ object: NSManagedObject) -> Bool {
        do {
            if object._isFault {
                if let row = try _coordinatorRow(for: object._objectID, fresh: stalenessInterval >= 0) {
                    fulfill(object, from: row)
                } else if shouldDeleteInaccessibleFaults || (object._objectID.isTemporaryID && _links.parent == nil) {
                    // A row that is gone: the object reads as deleted, with no values.
                    object.willAccessValue(forKey: nil)
                } else {
                    return false
                }
            }
            _ = try _loadDeleteRuleDestinations(of: object)
            return true
        } catch {
            return false
        }
    }
}

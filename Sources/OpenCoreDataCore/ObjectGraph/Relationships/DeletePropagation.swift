extension NSManagedObjectContext {
    /// Applies the delete rules of the objects deleted since the last event (each was told with
    /// `prepareForDeletion()` when `delete(_:)` was called): for each of its relationships,
    /// - nullify (the default): the destinations no longer refer to it through the inverse relationship;
    /// - cascade: the destinations are deleted too, and their own rules apply in turn (each object once,
    ///   so cycles of cascades end);
    /// - deny: nothing now; saving fails with `NSValidationRelationshipDeniedDeleteError` while the
    ///   relationship still has destinations (see `validateForDelete()`);
    /// - no action: nothing; the destinations keep referring to the deleted object.
    ///
    /// The deleted object keeps its own values, so they can still be read until the context saves.
    /// An object whose row, or a row its rules read, the store cannot read keeps its rules pending: the
    /// next save reports the store's error (see ``_loadDeletedFaults()``).
    func _propagatePendingDeletes() {
        var pending = _deleted.values.filter { !$0.preparedForDeletion }
        var waiting: [NSManagedObject] = []
        while !pending.isEmpty {
            for object in pending where !object.preparedForDeletion {
                object.preparedForDeletion = true
                // The delete rules need the object's values and its destinations: they load first.
                guard _loadDeletedObject(object) else {
                    waiting.append(object)
                    continue
                }
                applyDeleteRules(of: object)
            }
            pending = _deleted.values.filter { !$0.preparedForDeletion }
        }
        for object in waiting { object.preparedForDeletion = false }
    }

    /// Whether an object is an inaccessible fault: its row was gone when it fired, and the context marked
    /// it deleted (``shouldDeleteInaccessibleFaults``). It has no row to update, so no rule changes it.
    private func _isInaccessible(_ object: NSManagedObject) -> Bool {
        object._isDeleted && !object._isFault && _deleted[ObjectIdentifier(object)] == nil
    }

    private func applyDeleteRules(of object: NSManagedObject) {
        guard object._context === self else { return }
        let relationships = object.entity.relationshipsByName.values.sorted { $0.name < $1.name }
        for relationship in relationships {
            switch relationship.deleteRule {
            case .nullifyDeleteRule:
                guard let inverse = relationship.inverseRelationship else { continue }
                for destination in InverseMaintenance.destinations(of: object, relationship)
                where destination._context === self && !_isInaccessible(destination) {
                    InverseMaintenance.remove(object, from: destination, inverse)
                }
            case .cascadeDeleteRule:
                for destination in InverseMaintenance.destinations(of: object, relationship)
                where destination._context === self && !destination._isDeleted {
                    delete(destination)
                }
            case .denyDeleteRule, .noActionDeleteRule:
                continue
            }
        }
    }
}

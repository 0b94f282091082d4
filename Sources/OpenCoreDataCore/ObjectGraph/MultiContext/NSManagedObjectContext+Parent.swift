extension NSManagedObjectContext {
    /// The parent of the context: a child context fetches and faults through its parent, sees the
    /// parent's unsaved changes, and saves into the parent (not to the store); the parent's own save
    /// writes them.
    ///
    /// A context has either a parent or a persistent store coordinator. Set the parent before the
    /// context is used; setting it on a context that already has a coordinator of its own or registered
    /// objects, or making a context its own ancestor, stops the program. A child's
    /// ``persistentStoreCoordinator`` is its root context's coordinator.
    public var parent: NSManagedObjectContext? {
        get { _links.parent }
        set {
            if newValue === _links.parent { return }
            guard let newValue else {
                preconditionFailure("A context's parent cannot be removed once it is set.")
            }
            if _links.parent == nil, _coordinator != nil {
                preconditionFailure("Context already has a coordinator; cannot replace it with a parent.")
            }
            precondition(registry.isEmpty && _inserted.isEmpty, "A context's parent must be set before the context is used.")
            var ancestor: NSManagedObjectContext? = newValue
            while let context = ancestor {
                precondition(context !== self, "A context cannot be its own ancestor.")
                ancestor = context._links.parent
            }
            _links.parent = newValue
            newValue._links.addChild(self)
            _coordinator = newValue.persistentStoreCoordinator
            if let model = _coordinator?.managedObjectModel { ManagedObjectClasses.remember(model) }
        }
    }

    /// Called before the coordinator is set: a child context has its parent's coordinator only.
    func _requireNoParentForCoordinator() {
        if _links.parent != nil {
            preconditionFailure("Context already has a parent; cannot set a persistent store coordinator on it.")
        }
    }

    /// The ID the context knows an object by now: a temporary ID it has since replaced with a permanent
    /// one maps to the permanent ID.
    func _currentID(for objectID: NSManagedObjectID) -> NSManagedObjectID {
        guard objectID.isTemporaryID else { return objectID }
        return _links.retiredTemporaryIDs[objectID] ?? objectID
    }

    /// Records that an object's temporary ID was replaced by a permanent one, and tells the children,
    /// which may know the object by its temporary ID, to use the permanent one too.
    func _retireTemporaryID(_ oldID: NSManagedObjectID, for newID: NSManagedObjectID) {
        // Only children can still know the object by its temporary ID.
        guard oldID.isTemporaryID, !newID.isTemporaryID, _links.hasHadChildren else { return }
        _links.retiredTemporaryIDs[oldID] = newID
        for child in _links.children {
            child.perform {
                if let object = child.registry[oldID] { child.changeID(of: object, to: newID) }
            }
        }
    }

    /// An object's current persistent values as a row, for a child: attributes as values, to-one
    /// relationships as destination IDs. `nil` when the object is deleted (or gone from the store).
    func _rowForChild(of object: NSManagedObject, as objectID: NSManagedObjectID) -> StoreRow? {
        if object._isDeleted { return nil }
        object._fireFaultIfNeeded()
        if object._isDeleted { return nil }
        var values: [String: Any] = [:]
        for property in object.entity._allProperties where !property.isTransient {
            if let relationship = property as? NSRelationshipDescription {
                if !relationship.isToMany, let destination = object.storage[property.name] as? NSManagedObject {
                    values[property.name] = destination.objectID
                }
            } else if let value = object.storage[property.name] {
                values[property.name] = value
            }
        }
        return StoreRow(objectID: objectID, version: object.snapshotVersion, values: values)
    }
}

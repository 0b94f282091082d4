extension NSManagedObject {
    /// Implements `validateValue(_:forKey:)`: the model's checks of the property, then the per-key
    /// validation methods registered for the object's class.
    func _validateValue(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        guard let property = _property(named: key) else {
            preconditionFailure("The entity \(_entity.name ?? "?") is not key value coding-compliant for the key \"\(key)\".")
        }
        try PropertyValidation.validate(value.pointee, property: property, object: self)
        try KeyValidationRegistry.shared.validate(self, key: key, value: value)
    }

    /// The checks of `validateForInsert()` and `validateForUpdate()`: `validateValue(_:forKey:)` for every
    /// property (unloaded to-many relationships of saved objects are not loaded for it).
    func _validateValues() throws {
        var errors: [NSError] = []
        _fireFaultIfNeeded()
        for property in _entity._allProperties {
            if property is NSFetchedPropertyDescription || property is NSDerivedAttributeDescription { continue }
            var value: AnyObject?
            if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
                guard let objects = toMany[relationship.name] ?? (isNewlyInserted ? [] : nil) else { continue }
                value = relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects)
            } else {
                let slot = storage.index(of: property.name).map { storage.slots[$0] } ?? PropertySlot(storage[property.name])
                switch slot {
                case .absent:
                    break
                case .integer(let integer):
                    value = NSNumber(value: integer)
                case .double(let double):
                    value = NSNumber(value: double)
                case .value(let current):
                    // Most stored values are objects already (NSNumber, …): a class cast is enough for them.
                    if type(of: current) is NSObject.Type, let object = current as? NSObject {
                        value = object
                    } else {
                        value = current as AnyObject
                    }
                }
            }
            do {
                try validateValue(&value, forKey: property.name)
            } catch let error as NSError {
                if error.code == NSValidationMultipleErrorsError, let detailed = error.userInfo[NSDetailedErrorsKey] as? [NSError] {
                    errors += detailed
                } else {
                    errors.append(error)
                }
            }
        }
        if errors.count == 1 { throw errors[0] }
        if errors.count > 1 { throw NSManagedObject.multipleErrors(errors) }
    }

    /// The check of `validateForDelete()`.
    func _validateDelete() throws {
        for relationship in _entity.relationshipsByName.values where relationship.deleteRule == .denyDeleteRule {
            let isEmpty: Bool
            if relationship.isToMany {
                isEmpty = objectIDs(forRelationshipNamed: relationship.name).isEmpty
            } else {
                isEmpty = _isFault ? objectIDs(forRelationshipNamed: relationship.name).isEmpty : storage[relationship.name] == nil
            }
            if !isEmpty {
                throw validationError(NSValidationRelationshipDeniedDeleteError, key: relationship.name, value: nil,
                    "\(_entity.name ?? "?") cannot be deleted while \(relationship.name) is not empty (deny delete rule).")
            }
        }
    }

    func validationError(_ code: Int, key: String, value: Any?, _ message: String) -> NSError {
        var userInfo: [String: Any] = [
            NSValidationObjectErrorKey: self,
            NSValidationKeyErrorKey: key,
            NSLocalizedDescriptionKey: "\(message) (entity \(_entity.name ?? "?"))",
        ]
        if let value { userInfo[NSValidationValueErrorKey] = value }
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: userInfo)
    }

    /// One error carrying several validation errors, as Core Data reports them.
    static func multipleErrors(_ errors: [NSError]) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: NSValidationMultipleErrorsError, userInfo: [
            NSDetailedErrorsKey: errors,
            NSLocalizedDescriptionKey: "Multiple validation errors occurred: "
                + errors.map(\.localizedDescription).joined(separator: "; "),
        ])
    }
}

extension NSManagedObject {
    /// The entity's property with the given name, found through the slot table of an immutable model
    /// (a save validates every property of every object it writes).
    @inline(__always)
    func _property(named key: String) -> NSPropertyDescription? {
        if let frozen = _entity._frozen, let index = frozen.slotLayout.index(of: key),
           let property = frozen.propertiesBySlot[index] {
            return property
        }
        return _entity.propertiesByName[key]
    }
}

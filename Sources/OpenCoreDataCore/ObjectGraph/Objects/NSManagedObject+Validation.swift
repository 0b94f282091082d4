extension NSManagedObject {
    /// Implements `validateValue(_:forKey:)`: the model's checks of the property, then the per-key
    /// validation methods registered for the object's class.
    func _validateValue(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        if let frozen = _entity._frozen, let index = frozen.slotLayout.index(of: key),
            let property = frozen.propertiesBySlot[index]
        {
            if !PropertyValidation.passesWithoutChecks(value.pointee, traits: frozen.validationTraitsBySlot[index]) {
                try PropertyValidation.validate(value.pointee, property: property, object: self)
            }
        } else {
            guard let property = _entity.propertiesByName[key] else {
                preconditionFailure("The entity \(_entity.name ?? "?") is not key value coding-compliant for the key \"\(key)\".")
            }
            try PropertyValidation.validate(value.pointee, property: property, object: self)
        }
        try KeyValidationRegistry.shared.validate(self, key: key, value: value)
    }

    /// The checks of `validateForInsert()` and `validateForUpdate()`: `validateValue(_:forKey:)` for every
    /// property (unloaded to-many relationships of saved objects are not loaded for it).
    func _validateValues() throws {
        var errors: [NSError] = []
        _fireFaultIfNeeded()
        // Unretained: the entity keeps its lookups, and the object its entity.
        let checkedBySlot =
            _entity._frozen.map(Unmanaged.passUnretained)?.withBorrowedReference { frozen in
                guard storage.layout === frozen.slotLayout else { return false }
                _validateSlots(with: frozen, errors: &errors)
                return true
            } ?? false
        if !checkedBySlot {
            for property in _entity._allProperties {
                if property is NSFetchedPropertyDescription || property is NSDerivedAttributeDescription { continue }
                if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
                    guard let value = toManyValidationValue(relationship) else { continue }
                    _check(value, forKey: property.name, errors: &errors)
                } else {
                    _check(Self.validationValue(PropertySlot(storage[property.name])), forKey: property.name, errors: &errors)
                }
            }
        }
        try Self.throwValidationErrors(errors)
    }

    /// Validates one value through `validateValue(_:forKey:)`, adding what it throws to `errors`
    /// (``collectValidationError(_:into:)``).
    ///
    /// A method taking the errors `inout`, not a local function capturing them: a captured variable is
    /// boxed, and the runtime checked every access to the box for exclusivity.
    private func _check(_ value: AnyObject?, forKey key: String, errors: inout [NSError]) {
        var value = value
        do {
            try validateValue(&value, forKey: key)
        } catch let error as NSError {
            Self.collectValidationError(error, into: &errors)
        }
    }

    /// The checks of `_validateValues()` for values in the slot layout of an immutable model's entity,
    /// with what each property needs read once. With `NSManagedObject`'s own `validateValue(_:forKey:)`
    /// and no per-key methods, a value that passes without checks would make that call do nothing: it is
    /// neither boxed nor passed to `_check(_:forKey:errors:)`.
    @inline(__always)
    private func _validateSlots(with frozen: FrozenEntityLookups, errors: inout [NSError]) {
        let callsForEveryValue = KeyValidationRegistry.shared.hasRegistrations || _overrides.contains(.validateValue)
        // The traits first: a value that needs no call is passed over without reading its property. Read
        // in place: a copy of the array would be retained for each object validated.
        frozen.validationTraitsBySlot.withUnsafeBufferPointer { traitsBySlot in
            for index in traitsBySlot.indices {
                let traits = traitsBySlot[index]
                switch traits.shape {
                case .skipped:
                    continue
                case .toMany:
                    guard let relationship = frozen.propertiesBySlot[index] as? NSRelationshipDescription,
                        let value = toManyValidationValue(relationship)
                    else { continue }
                    _check(value, forKey: relationship.name, errors: &errors)
                case .toOne, .numberAttribute, .otherAttribute:
                    let slot = storage.slots[index]
                    if !callsForEveryValue && PropertyValidation.passesWithoutChecks(slot, traits: traits) { continue }
                    guard let property = frozen.propertiesBySlot[index] else { continue }
                    _check(Self.validationValue(slot), forKey: property.name, errors: &errors)
                }
            }
        }
    }

    /// A to-many relationship's objects as `validateValue(_:forKey:)` receives them, or `nil` when they
    /// are not loaded (they are not loaded for validation, except for a new object, which has none).
    private func toManyValidationValue(_ relationship: NSRelationshipDescription) -> AnyObject? {
        guard let objects = toMany[relationship.name] ?? (isNewlyInserted ? [] : nil) else { return nil }
        return relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects)
    }

    /// A slot's value as an object, as `validateValue(_:forKey:)` receives it.
    @inline(__always)
    private static func validationValue(_ slot: PropertySlot) -> AnyObject? {
        switch slot {
        case .absent:
            return nil
        case .integer(let integer):
            return NSNumber(value: integer)
        case .double(let double):
            return NSNumber(value: double)
        case .object(let object):
            return object
        case .string, .date, .other:
            return slot.boxed as AnyObject
        }
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
                throw validationError(
                    NSValidationRelationshipDeniedDeleteError, key: relationship.name, value: nil,
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

    /// Adds a validation error to `errors`: the errors a multiple-errors error carries one by one, any
    /// other error as it is.
    static func collectValidationError(_ error: NSError, into errors: inout [NSError]) {
        if error.code == NSValidationMultipleErrorsError, let detailed = error.userInfo[NSDetailedErrorsKey] as? [NSError] {
            errors += detailed
        } else {
            errors.append(error)
        }
    }

    /// Throws collected validation errors as Core Data reports them: one as it is, several as one
    /// ``multipleErrors(_:)``; returns when there are none.
    static func throwValidationErrors(_ errors: [NSError]) throws {
        if errors.count == 1 { throw errors[0] }
        if errors.count > 1 { throw multipleErrors(errors) }
    }

    /// One error carrying several validation errors, as Core Data reports them.
    static func multipleErrors(_ errors: [NSError]) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSValidationMultipleErrorsError,
            userInfo: [
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
            let property = frozen.propertiesBySlot[index]
        {
            return property
        }
        return _entity.propertiesByName[key]
    }
}

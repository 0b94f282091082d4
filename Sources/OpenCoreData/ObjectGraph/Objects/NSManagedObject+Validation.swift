extension NSManagedObject {
    /// The checks of `validateForInsert()` and `validateForUpdate()`.
    func _validateValues() throws {
        var errors: [NSError] = []
        for property in _entity._allProperties where !property.isTransient {
            switch property {
            case let attribute as NSAttributeDescription:
                let value = storage[attribute.name]
                if value == nil {
                    if !attribute.isOptional { errors.append(missingValue(attribute.name)) }
                } else if let value, ManagedValueCoercion.canonical(value, for: attribute.attributeType) == nil {
                    errors.append(validationError(NSManagedObjectValidationError, key: attribute.name, value: value,
                        "The value \(value) of \(attribute.name) is not of the attribute's type."))
                }
            case let relationship as NSRelationshipDescription:
                if relationship.isToMany {
                    guard let objects = toMany[relationship.name] ?? (isNewlyInserted ? [] : nil) else { continue }
                    let minimum = max(relationship.minCount, relationship.isOptional ? 0 : 1)
                    if !(relationship.isOptional && objects.isEmpty), objects.count < minimum {
                        errors.append(validationError(NSValidationRelationshipLacksMinimumCountError, key: relationship.name,
                            value: NSSet(array: objects), "\(relationship.name) has \(objects.count) objects; at least \(minimum) required."))
                    }
                    if relationship.maxCount > 0, objects.count > relationship.maxCount {
                        errors.append(validationError(NSValidationRelationshipExceedsMaximumCountError, key: relationship.name,
                            value: NSSet(array: objects), "\(relationship.name) has \(objects.count) objects; at most \(relationship.maxCount) allowed."))
                    }
                } else if storage[relationship.name] == nil, !relationship.isOptional {
                    errors.append(missingValue(relationship.name))
                }
            default:
                continue
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

    private func missingValue(_ key: String) -> NSError {
        validationError(NSValidationMissingMandatoryPropertyError, key: key, value: nil, "\(key) is a required value.")
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

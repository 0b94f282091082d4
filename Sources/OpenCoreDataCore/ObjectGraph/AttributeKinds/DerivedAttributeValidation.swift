extension NSManagedObjectContext {
    /// Checks, once the save has recomputed derived attributes, that every non-optional derived
    /// attribute of the objects the save writes has a value: as in Apple's Core Data, a required value
    /// that cannot be derived fails the save with `NSValidationMissingMandatoryPropertyError` (1570).
    /// Several missing values give `NSValidationMultipleErrorsError` with each under `NSDetailedErrorsKey`.
    func _validateDerivedAttributes() throws {
        if _coordinator?.managedObjectModel._frozenHasDerivedAttributes == false { return }
        var errors: [NSError] = []
        for object in Array(_inserted.values) + Array(_updated.values) where !object._isDeleted {
            for attribute in object._entity._writeTraits.derivedAttributes where !attribute.isOptional {
                let value = object.storage[attribute.name]
                guard value == nil || EvaluationValues.isNull(value as Any) else { continue }
                let error = object.validationError(
                    NSValidationMissingMandatoryPropertyError, key: attribute.name, value: nil,
                    "\(attribute.name) is a required value.")
                NSManagedObject.collectValidationError(error, into: &errors)
            }
        }
        try NSManagedObject.throwValidationErrors(errors)
    }
}

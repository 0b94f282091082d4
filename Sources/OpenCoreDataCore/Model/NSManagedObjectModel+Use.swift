extension NSManagedObjectModel {
    /// Checks the model's consistency (names, inheritance, destinations and inverses); throws an
    /// `NSError` naming the entity and property at fault. See `ModelValidation` for the checks and the
    /// error code.
    func _validateForUse() throws {
        try ModelValidation.validate(self)
    }

    /// Called by a persistent store coordinator when it starts using the model: checks the model, fixes
    /// its entities' version hashes and makes it immutable. From then on any change to the model, its
    /// entities or their properties stops the program with "Can't modify an immutable model.", and so
    /// does changing one of its fetch request templates (copies stay mutable).
    ///
    /// Calling it again on a model in use does nothing. Throws the `_validateForUse()` error, leaving the
    /// model editable, when the model is inconsistent.
    func _markInUse() throws {
        _useLock.lock()
        defer { _useLock.unlock() }
        if _isImmutable { return }
        try _validateForUse()
        // Superentities first, so each entity's hash can reuse its superentity's fixed hash.
        for entity in _entities.sorted(by: { $0._inheritanceChain.count < $1._inheritanceChain.count }) {
            entity._frozen = FrozenEntityLookups(entity)
        }
        _frozenEntitiesByName = entitiesByName
        _frozenHasDerivedAttributes = _entities.contains { !$0._writeTraits.derivedAttributes.isEmpty }
        _frozenHasUniquenessConstraints = _entities.contains { !UniquenessConstraintCheck.constraints(of: $0).isEmpty }
        for template in _fetchRequestTemplates.values {
            template._isImmutableTemplate = true
        }
        _isImmutable = true
    }
}

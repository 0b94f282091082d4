import Foundation

extension NSManagedObjectContext {
    /// Recomputes the derived attributes of the objects a save writes (inserted and changed objects),
    /// so the store keeps each derived value as its expression gives it at save time: key paths
    /// (`posts.@count`, `author.name`) and functions (`lowercase:(name)`, `now()`, `canonical:(title)`).
    /// Objects whose derived attributes read a value the save changes on a related object are
    /// recomputed (and saved) too.
    func _recomputeDerivedAttributes() {
        // An immutable model without derived attributes: nothing to recompute for any object.
        if _coordinator?.managedObjectModel._frozenHasDerivedAttributes == false { return }
        _recomputeDependentDerivedAttributes()
        for object in Array(_inserted.values) + Array(_updated.values) where !object._isDeleted {
            object._recomputeDerivedAttributes()
        }
    }
}

extension NSManagedObject {
    /// Recomputes this object's derived attributes, recording a change for each value that differs.
    func _recomputeDerivedAttributes() {
        let derived = _entity._writeTraits.derivedAttributes
        guard !derived.isEmpty else { return }
        _fireFaultIfNeeded()
        for attribute in derived {
            guard let expression = attribute.derivationExpression else { continue }
            let raw = EvaluationValues.flatten(expression.expressionValue(with: self, context: nil))
            let value = raw.flatMap { ManagedValueCoercion.canonical($0, for: attribute.attributeType) }
            if PropertyValueEquality.equal(value, storage[attribute.name]) { continue }
            recordChange(forKey: attribute.name)
            storage[attribute.name] = value
            _context?._objectDidChange(self)
        }
    }
}

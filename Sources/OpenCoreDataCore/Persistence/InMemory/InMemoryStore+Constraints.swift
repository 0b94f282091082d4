/// Uniqueness constraints in the in-memory store: the save's objects are checked against the rows
/// under the store's lock, before anything is applied.
extension InMemoryStore {
    /// Call with `_stateLock` held.
    func checkUniquenessConstraints(_ changes: StoreSaveChanges) throws {
        guard _model?._frozenHasUniquenessConstraints != false else { return }
        try UniquenessConstraintCheck.check(
            changes, currentRow: { _state.rows[$0] },
            matching: { entity, names, values in
                _state.rows.values.filter { row in
                    guard row.objectID.entity.isKindOf(entity: entity) else { return false }
                    return zip(names, values).allSatisfy { name, value in
                        guard let stored = row.values[name] else { return false }
                        return PropertyValueEquality.equal(stored, (value as? ObjectIDRepresentable)?.objectIDForStore ?? value)
                    }
                }
            })
    }
}

/// The objects of a save that would break a uniqueness constraint of their entity: they share the
/// constraint's values with a stored row or with each other. Nothing of the save was written.
struct StoreConstraintConflicts: Error {
    /// One set of values of one constraint held by more than one object.
    // @unchecked Sendable: every property is a `let`; the entity belongs to a model that is immutable
    // once in use, and the values are immutable Foundation values and object IDs (as in `StoreRow`).
    struct Conflict: @unchecked Sendable {
        /// The entity that declares the constraint (the save's objects may be of its subentities).
        let entity: NSEntityDescription
        /// The constraint's property names.
        let constraint: [String]
        /// The shared values, by property name (object IDs for to-one relationships).
        let values: [String: Any]
        /// The stored row that already has the values, `nil` when only objects of the save share them.
        let storeRow: StoreRow?
        /// The save's objects that have the values, by the IDs the save named them with.
        let objectIDs: [NSManagedObjectID]
    }

    let conflicts: [Conflict]
}

/// Finds the uniqueness-constraint conflicts of a save before anything is written, inside the store's
/// write transaction (or lock), so that no other writer can slip a duplicate in between.
///
/// Every inserted object, and every updated object that changes a property of a constraint, is checked
/// against the other objects of the save and against the stored rows (through `matching`, which returns
/// the rows of the declaring entity or its subentities holding the given values). Rows deleted by the
/// save, and rows whose update moves them away from the values, do not count. As with SQLite's unique
/// indexes, an object with no value for one of a constraint's properties conflicts with nothing.
enum UniquenessConstraintCheck {
    /// A constraint of an entity or of one of its superentities.
    struct Constraint {
        let entity: NSEntityDescription
        let names: [String]
    }

    /// The constraints that apply to an entity: its own and its superentities'.
    static func constraints(of entity: NSEntityDescription) -> [Constraint] {
        var result: [Constraint] = []
        var current: NSEntityDescription? = entity
        while let next = current {
            for names in next._uniquenessConstraintNames where !names.isEmpty {
                let valid = names.allSatisfy { name in
                    if next.attributesByName[name] != nil { return true }
                    if let relationship = next.relationshipsByName[name] { return !relationship.isToMany }
                    return false
                }
                if valid { result.append(Constraint(entity: next, names: names)) }
            }
            current = next.superentity
        }
        return result
    }

    /// Throws ``StoreConstraintConflicts`` when the save would store duplicates.
    ///
    /// - Parameters:
    ///   - currentRow: the stored row of an updated object (for the constraint values it does not change).
    ///   - matching: the stored rows of an entity (subentities included) whose named properties hold the
    ///     given values.
    static func check(
        _ changes: StoreSaveChanges,
        currentRow: (NSManagedObjectID) throws -> StoreRow?,
        matching: (NSEntityDescription, [String], [Any]) throws -> [StoreRow]
    ) throws {
        let deleted = Set(changes.deleted.map(\.objectID))
        var groups: [GroupKey: (constraint: Constraint, values: [Any], ids: [NSManagedObjectID])] = [:]
        var order: [GroupKey] = []
        var movedAway: [String: Set<NSManagedObjectID>] = [:]

        func add(_ id: NSManagedObjectID, _ constraint: Constraint, _ values: [Any?]) {
            let constraintKey = "\(constraint.entity.name ?? "")|\(constraint.names.joined(separator: ","))"
            var present: [Any] = []
            var hashable: [AnyHashable] = []
            for value in values {
                guard let value, !(value is NSNull), let key = hashableForm(value) else { return }
                present.append(value)
                hashable.append(key)
            }
            let key = GroupKey(constraint: constraintKey, values: hashable)
            if groups[key] == nil {
                groups[key] = (constraint, present, [])
                order.append(key)
            }
            groups[key]?.ids.append(id)
        }

        // The objects of one entity usually come together: its constraints are looked up once per run.
        var memo = EntityRunMemo<[Constraint]>()
        func constraintsOf(_ entity: NSEntityDescription) -> [Constraint] {
            memo.value(for: entity, constraints(of:))
        }

        for insert in changes.inserted {
            for constraint in constraintsOf(insert.objectID.entity) {
                add(insert.objectID, constraint, constraint.names.map { insert.values[$0] })
            }
        }
        for update in changes.updated {
            let constraints = constraintsOf(update.objectID.entity).filter { constraint in
                constraint.names.contains { update.changedValues.keys.contains($0) }
            }
            guard !constraints.isEmpty else { continue }
            let row = try currentRow(update.objectID)
            for constraint in constraints {
                movedAway["\(constraint.entity.name ?? "")|\(constraint.names.joined(separator: ","))", default: []].insert(update.objectID)
                let values = constraint.names.map { name -> Any? in
                    if let changed = update.changedValues[name] { return changed }
                    return row?.values[name]
                }
                add(update.objectID, constraint, values)
            }
        }

        var conflicts: [StoreConstraintConflicts.Conflict] = []
        for key in order {
            guard let group = groups[key] else { continue }
            let constraintKey = "\(group.constraint.entity.name ?? "")|\(group.constraint.names.joined(separator: ","))"
            let ignored = deleted.union(movedAway[constraintKey] ?? []).union(group.ids)
            let rows = try matching(group.constraint.entity, group.constraint.names, group.values)
                .filter { !ignored.contains($0.objectID) }
            guard !rows.isEmpty || group.ids.count > 1 else { continue }
            var values: [String: Any] = [:]
            for (name, value) in zip(group.constraint.names, group.values) { values[name] = value }
            conflicts.append(
                .init(
                    entity: group.constraint.entity, constraint: group.constraint.names, values: values,
                    storeRow: rows.first, objectIDs: group.ids))
        }
        if !conflicts.isEmpty { throw StoreConstraintConflicts(conflicts: conflicts) }
    }

    /// One constraint's values, as a dictionary key.
    struct GroupKey: Hashable {
        let constraint: String
        let values: [AnyHashable]
    }

    /// A value as a dictionary key: object IDs by themselves, other values as they hash (decimal numbers
    /// as their `Decimal`, see ``FoundationHashing``).
    static func hashableForm(_ value: Any) -> AnyHashable? {
        if let representable = value as? ObjectIDRepresentable { return representable.objectIDForStore }
        return FoundationHashing.hashable(value)
    }
}

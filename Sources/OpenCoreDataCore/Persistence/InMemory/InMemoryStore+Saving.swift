/// Saving to the in-memory store: checks every version first, then applies the whole save under the
/// store's lock, so a failed save changes nothing.
extension InMemoryStore {
    func saveChanges(_ changes: StoreSaveChanges) throws -> StoreSaveResult {
        // Layout lookups may throw; do them before touching state.
        var layouts: [String: SQLiteEntityLayout] = [:]
        let all = changes.inserted.map(\.objectID) + changes.updated.map(\.objectID) + changes.deleted.map(\.objectID)
        for id in all where layouts[id.entity.name ?? ""] == nil {
            layouts[id.entity.name ?? ""] = try layout(of: id.entity)
        }
        return try _stateLock.withLock {
            var conflicts: [StoreSaveConflicts.Conflict] = []
            let expected =
                changes.updated.map { ($0.objectID, $0.expectedVersion) } + changes.deleted.map { ($0.objectID, $0.expectedVersion) }
                + changes.versionChecks.map { ($0.objectID, $0.expectedVersion) }
            for (id, version) in expected {
                let row = _state.rows[id]
                if row?.version != version {
                    conflicts.append(.init(objectID: id, expectedVersion: version, storeRow: row))
                }
            }
            if !conflicts.isEmpty { throw StoreSaveConflicts(conflicts: conflicts) }
            try checkUniquenessConstraints(changes)
            // Work on a copy so that an error part-way leaves the state as it was.
            let saved = (_state.rows, _state.orderKeys, _state.joins, _state.maxKeys)
            do {
                return try apply(changes, layouts: layouts)
            } catch {
                (_state.rows, _state.orderKeys, _state.joins, _state.maxKeys) = saved
                throw error
            }
        }
    }

    private func apply(_ changes: StoreSaveChanges, layouts: [String: SQLiteEntityLayout]) throws -> StoreSaveResult {
        func layoutOf(_ id: NSManagedObjectID) -> SQLiteEntityLayout? { layouts[id.entity.name ?? ""] }
        let insertedIDs = changes.inserted.map { insert in
            guard insert.objectID.isTemporaryID, let layout = layoutOf(insert.objectID) else { return insert.objectID }
            let key = allocate(root: layout.rootNumber, count: 1)[0]
            return NSManagedObjectID(entity: insert.objectID.entity, store: self, primaryKey: key)
        }
        let permanentIDs = PermanentIDTable(inserts: changes.inserted, ids: insertedIDs)
        func resolve(_ value: Any, _ context: String) throws -> NSManagedObjectID {
            guard let id = (value as? ObjectIDRepresentable)?.objectIDForStore else {
                throw saveError("\(context) holds \(Swift.type(of: value)), not an object.")
            }
            let permanent = permanentIDs[id] ?? id
            guard !permanent.isTemporaryID, permanent.storeIdentifier == identifier else {
                throw saveError("\(context) refers to \(id.uriRepresentation().absoluteString), which is not saved in this store.")
            }
            return permanent
        }
        func canonical(_ id: NSManagedObjectID, _ values: [String: Any?]) throws -> [String: Any?] {
            var result: [String: Any?] = [:]
            for (key, value) in values {
                if let relationship = id.entity.relationshipsByName[key] {
                    if relationship.isToMany { continue }
                    if let value = value ?? nil, !(value is NSNull) {
                        result[key] = try resolve(value, "The relationship \(key) of \(id.entity.name ?? "")")
                    } else {
                        result[key] = .some(nil)
                    }
                } else if id.entity.attributesByName[key] != nil {
                    result[key] = value
                }
            }
            return result
        }
        var versions = ObjectIDMap<Int64>()
        for (insert, id) in zip(changes.inserted, insertedIDs) {
            let values = try canonical(id, insert.values.dictionary.mapValues { Optional($0) }).compactMapValues { $0 }
            _state.rows[id] = StoreRow(objectID: id, version: 1, values: values)
        }
        for update in changes.updated {
            guard let old = _state.rows[update.objectID] else { continue }
            var values = old.values
            for (key, value) in try canonical(update.objectID, update.changedValues) {
                values[key] = value ?? nil
            }
            _state.rows[update.objectID] = StoreRow(objectID: update.objectID, version: old.version + 1, values: values)
            versions[update.objectID] = old.version + 1
        }
        let explicit = SQLiteStore.explicitToOne(changes, permanentIDs: permanentIDs)
        let toMany =
            zip(changes.inserted, insertedIDs).map { ($1, $0.toMany) }
            + changes.updated.map { ($0.objectID, $0.toMany) }
        for (owner, lists) in toMany {
            guard let layout = layoutOf(owner) else { continue }
            for (name, destinations) in lists.sorted(by: { $0.key < $1.key }) {
                guard let relationship = owner.entity.relationshipsByName[name], relationship.isToMany else {
                    throw saveError("\(owner.entity.name ?? "") has no to-many relationship \(name).")
                }
                let ids = try destinations.map { try resolve($0, "The relationship \(name) of \(owner.entity.name ?? "")") }
                writeToMany(
                    owner, relationship, ids, storage: layout.relationships[name],
                    explicit: explicit[relationship.inverseRelationship?.name ?? ""] ?? [])
            }
        }
        for delete in changes.deleted {
            _state.rows.removeValue(forKey: delete.objectID)
            _state.orderKeys.removeValue(forKey: delete.objectID)
            for (table, pairs) in _state.joins {
                _state.joins[table] = pairs.filter { !$0.ids.values.contains(delete.objectID) }
            }
        }
        return StoreSaveResult(insertedIDs: insertedIDs, permanentIDs: permanentIDs, insertedVersion: 1, versions: versions)
    }

    private func writeToMany(
        _ owner: NSManagedObjectID, _ relationship: NSRelationshipDescription,
        _ destinations: [NSManagedObjectID], storage: SQLiteRelationshipStorage?,
        explicit: Set<NSManagedObjectID>
    ) {
        switch storage {
        case let .inverseForeignKey(_, _, orderColumn)?:
            guard let inverse = relationship.inverseRelationship?.name, let destination = relationship.destinationEntity else { return }
            let wanted = Set(destinations)
            for (id, row) in _state.rows
            where row.objectID.entity.isKindOf(entity: destination)
                && (row.values[inverse] as? NSManagedObjectID) == owner
                && !wanted.contains(id) && !explicit.contains(id)
            {
                var values = row.values
                values[inverse] = nil
                _state.rows[id] = StoreRow(objectID: id, version: row.version, values: values)
                _state.orderKeys[id]?.removeValue(forKey: inverse)
            }
            for (index, id) in destinations.enumerated() {
                guard let row = _state.rows[id] else { continue }
                var values = row.values
                values[inverse] = owner
                _state.rows[id] = StoreRow(objectID: id, version: row.version, values: values)
                if orderColumn != nil {
                    _state.orderKeys[id, default: [:]][inverse] = Int64(index + 1) * SQLiteStore.orderSpacing
                }
            }
        case let .joinTable(table, sourceColumn, destinationColumn, orderColumn)?:
            var pairs = _state.joins[table] ?? []
            let wanted = Set(destinations)
            pairs.removeAll { $0.ids[sourceColumn] == owner && !wanted.contains($0.ids[destinationColumn] ?? owner) }
            for (index, id) in destinations.enumerated() {
                let position = Int64(index + 1) * SQLiteStore.orderSpacing
                if let existing = pairs.firstIndex(where: { $0.ids[sourceColumn] == owner && $0.ids[destinationColumn] == id }) {
                    if let orderColumn { pairs[existing].order[orderColumn] = position }
                } else {
                    var pair = JoinPair(ids: [sourceColumn: owner, destinationColumn: id], order: [:])
                    if let orderColumn { pair.order[orderColumn] = position }
                    pairs.append(pair)
                }
            }
            _state.joins[table] = pairs
        case .foreignKey?, nil:
            return
        }
    }

    private func saveError(_ message: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreSaveError,
            userInfo: [
                NSLocalizedDescriptionKey: "Cannot save to the in-memory store: \(message)",
                NSAffectedStoresErrorKey: [self],
            ])
    }
}

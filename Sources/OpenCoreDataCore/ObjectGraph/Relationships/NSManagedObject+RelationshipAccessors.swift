/// The building blocks of the relationship accessors Xcode generates for Core Data subclasses
/// (`addToPosts(_:)`, `removeFromPosts(_:)`, `insertIntoChapters(_:at:)`, …). Swift on Linux has no
/// `@NSManaged` methods, so a subclass — or `ocd codegen` — writes each accessor as a one-line call of
/// one of these methods:
///
/// ```swift
/// extension Author {
///     func addToBooks(_ value: Book) { managedAdd(value, toKey: "books") }
///     func removeFromBooks(_ value: Book) { managedRemove(value, fromKey: "books") }
///     func addToBooks(_ values: NSSet) { managedAdd(contentsOf: values, toKey: "books") }
///     func removeFromBooks(_ values: NSSet) { managedRemove(contentsOf: values, fromKey: "books") }
/// }
/// ```
///
/// Each call changes the relationship as `mutableSetValue(forKey:)` (or
/// `mutableOrderedSetValue(forKey:)`) does: the context records the change and the inverse
/// relationship is updated at once. A key that is not a to-many relationship stops the program, as
/// does an index out of range.
extension NSManagedObject {
    /// Adds an object to a to-many relationship (at the end of an ordered one) unless it is already there.
    public func managedAdd(_ value: NSManagedObject, toKey key: String) {
        editToMany(key) { objects in
            if !objects.contains(where: { $0 === value }) { objects.append(value) }
        }
    }

    /// Adds the objects of a set, ordered set, array or Swift set to a to-many relationship.
    public func managedAdd(contentsOf values: Any, toKey key: String) {
        let added = managedObjects(in: values, key: key)
        editToMany(key) { objects in
            for value in added where !objects.contains(where: { $0 === value }) { objects.append(value) }
        }
    }

    /// Removes an object from a to-many relationship.
    public func managedRemove(_ value: NSManagedObject, fromKey key: String) {
        editToMany(key) { objects in objects.removeAll { $0 === value } }
    }

    /// Removes the objects of a set, ordered set, array or Swift set from a to-many relationship.
    public func managedRemove(contentsOf values: Any, fromKey key: String) {
        let removed = Set(managedObjects(in: values, key: key).map(ObjectIdentifier.init))
        editToMany(key) { objects in objects.removeAll { removed.contains(ObjectIdentifier($0)) } }
    }

    /// Inserts an object into an ordered to-many relationship at an index (moving it there when it is
    /// already in the relationship).
    public func managedInsert(_ value: NSManagedObject, at index: Int, intoKey key: String) {
        editToMany(key) { objects in
            objects.removeAll { $0 === value }
            Self.requireIndex(index, upTo: objects.count, key: key)
            objects.insert(value, at: index)
        }
    }

    /// Inserts objects into an ordered to-many relationship at the given indexes (the n-th object at
    /// the n-th index, as `NSMutableOrderedSet.insert(_:at:)` does).
    public func managedInsert(contentsOf values: [NSManagedObject], at indexes: NSIndexSet, intoKey key: String) {
        precondition(
            values.count == indexes.count,
            "\(values.count) objects cannot be inserted at \(indexes.count) indexes into \"\(key)\".")
        editToMany(key) { objects in
            let inserted = Set(values.map(ObjectIdentifier.init))
            objects.removeAll { inserted.contains(ObjectIdentifier($0)) }
            for (value, index) in zip(values, indexes.map { $0 }) {
                Self.requireIndex(index, upTo: objects.count, key: key)
                objects.insert(value, at: index)
            }
        }
    }

    /// Removes the object at an index of an ordered to-many relationship.
    public func managedRemove(at index: Int, fromKey key: String) {
        editToMany(key) { objects in
            Self.requireIndex(index, upTo: objects.count - 1, key: key)
            objects.remove(at: index)
        }
    }

    /// Removes the objects at the given indexes of an ordered to-many relationship.
    public func managedRemove(at indexes: NSIndexSet, fromKey key: String) {
        editToMany(key) { objects in
            for index in indexes.reversed() {
                Self.requireIndex(index, upTo: objects.count - 1, key: key)
                objects.remove(at: index)
            }
        }
    }

    /// Replaces the object at an index of an ordered to-many relationship.
    public func managedReplace(at index: Int, with value: NSManagedObject, inKey key: String) {
        editToMany(key) { objects in
            Self.requireIndex(index, upTo: objects.count - 1, key: key)
            guard objects[index] !== value else { return }
            objects[index] = value
            if let duplicate = objects.indices.first(where: { $0 != index && objects[$0] === value }) {
                objects.remove(at: duplicate)
            }
        }
    }

    /// Replaces the objects at the given indexes of an ordered to-many relationship, the n-th index
    /// with the n-th object.
    public func managedReplace(at indexes: NSIndexSet, with values: [NSManagedObject], inKey key: String) {
        precondition(
            values.count == indexes.count,
            "\(indexes.count) objects of \"\(key)\" cannot be replaced with \(values.count) objects.")
        for (index, value) in zip(indexes.map { $0 }, values) {
            managedReplace(at: index, with: value, inKey: key)
        }
    }

    /// Applies an edit to the contents of a to-many relationship and writes the result through
    /// Key-Value Coding (inverse maintained, change recorded).
    private func editToMany(_ key: String, _ edit: (inout [NSManagedObject]) -> Void) {
        guard let relationship = entity.relationshipsByName[key], relationship.isToMany else {
            preconditionFailure("The entity \(entity.name ?? "?") has no to-many relationship named \"\(key)\".")
        }
        willAccessValue(forKey: key)
        var objects = loadedToMany(relationship)
        edit(&objects)
        let checked = ManagedValueCoercion.toManyObjects(NSArray(array: objects), relationship: relationship, object: self)
        writeToMany(checked, for: relationship)
    }

    private func managedObjects(in values: Any, key: String) -> [NSManagedObject] {
        guard let relationship = entity.relationshipsByName[key], relationship.isToMany else {
            preconditionFailure("The entity \(entity.name ?? "?") has no to-many relationship named \"\(key)\".")
        }
        return ManagedValueCoercion.toManyObjects(values, relationship: relationship, object: self)
    }

    /// Stops the program unless `0 <= index <= last`.
    private static func requireIndex(_ index: Int, upTo last: Int, key: String) {
        precondition(index >= 0 && index <= last, "Index \(index) is out of bounds for the relationship \"\(key)\" (valid: 0...\(last)).")
    }
}

/// Keeps the inverse side of a relationship in step when one side changes through Key-Value Coding
/// (`setValue(_:forKey:)`, `@Managed` properties, `mutableSetValue(forKey:)`,
/// `mutableOrderedSetValue(forKey:)` and the generated-style accessors).
///
/// Create it before the change (it captures the destinations the relationship had, and checks that
/// the new destinations belong to the object's context), make the change, then call ``apply()``:
/// every destination removed loses the object on its inverse side, every destination added gains it
/// — leaving its former owner when the inverse is to-one. Primitive setters do not maintain inverses,
/// as on Apple platforms.
struct InverseMaintenance {
    let object: NSManagedObject
    let relationship: NSRelationshipDescription
    let inverse: NSRelationshipDescription?
    let oldDestinations: [NSManagedObject]

    /// Prepares the maintenance of a change of `key` through Key-Value Coding to `value`; `nil` when
    /// `key` is not a relationship.
    init?(_ object: NSManagedObject, key: String, newValue: Any?) {
        guard let relationship = object.entity.relationshipsByName[key] else { return nil }
        let newObjects: [NSManagedObject]
        if relationship.isToMany {
            newObjects = ManagedValueCoercion.toManyObjects(newValue, relationship: relationship, object: object)
        } else {
            newObjects = ManagedValueCoercion.toOneObject(newValue, relationship: relationship, object: object).map { [$0] } ?? []
        }
        self.init(object, relationship: relationship, newObjects: newObjects)
    }

    /// Prepares the maintenance of a change of a to-many relationship to `newObjects`.
    init(_ object: NSManagedObject, relationship: NSRelationshipDescription, newObjects: [NSManagedObject]) {
        Self.requireSameContext(object, relationship, newObjects)
        self.object = object
        self.relationship = relationship
        inverse = relationship.inverseRelationship
        oldDestinations = inverse == nil ? [] : Self.destinations(of: object, relationship)
    }

    /// Updates the inverse side of every destination removed or added by the change.
    func apply() {
        guard let inverse else { return }
        let newDestinations = Self.destinations(of: object, relationship)
        let old = Set(oldDestinations.map(ObjectIdentifier.init))
        let new = Set(newDestinations.map(ObjectIdentifier.init))
        for destination in oldDestinations where !new.contains(ObjectIdentifier(destination)) {
            Self.remove(object, from: destination, inverse)
        }
        for destination in newDestinations where !old.contains(ObjectIdentifier(destination)) {
            if !inverse.isToMany, let formerOwner = Self.toOne(destination, inverse), formerOwner !== object {
                Self.remove(destination, from: formerOwner, relationship)
            }
            Self.add(object, to: destination, inverse)
        }
    }

    // MARK: Primitive edits of one side, with change notifications and change (and undo) recording

    /// The current destinations of a relationship (loading them when needed).
    static func destinations(of object: NSManagedObject, _ relationship: NSRelationshipDescription) -> [NSManagedObject] {
        object.willAccessValue(forKey: relationship.name)
        if relationship.isToMany { return object.loadedToMany(relationship) }
        return (object.storage[relationship.name] as? NSManagedObject).map { [$0] } ?? []
    }

    static func toOne(_ object: NSManagedObject, _ relationship: NSRelationshipDescription) -> NSManagedObject? {
        object.willAccessValue(forKey: relationship.name)
        return object.storage[relationship.name] as? NSManagedObject
    }

    /// Removes `member` from `relationship` of `owner` (clears it when to-one and pointing at `member`).
    static func remove(_ member: NSManagedObject, from owner: NSManagedObject, _ relationship: NSRelationshipDescription) {
        if relationship.isToMany {
            let current = destinations(of: owner, relationship)
            guard current.contains(where: { $0 === member }) else { return }
            owner.willChangeValue(forKey: relationship.name)
            owner.setToMany(current.filter { $0 !== member }, for: relationship)
            owner.didChangeValue(forKey: relationship.name)
        } else if toOne(owner, relationship) === member {
            owner.willChangeValue(forKey: relationship.name)
            owner._setPrimitiveValue(nil, forKey: relationship.name)
            owner.didChangeValue(forKey: relationship.name)
        }
    }

    /// Adds `member` to `relationship` of `owner` (sets it when to-one).
    static func add(_ member: NSManagedObject, to owner: NSManagedObject, _ relationship: NSRelationshipDescription) {
        if relationship.isToMany {
            let current = destinations(of: owner, relationship)
            guard !current.contains(where: { $0 === member }) else { return }
            owner.willChangeValue(forKey: relationship.name)
            owner.setToMany(current + [member], for: relationship)
            owner.didChangeValue(forKey: relationship.name)
        } else if toOne(owner, relationship) !== member {
            owner.willChangeValue(forKey: relationship.name)
            owner._setPrimitiveValue(member, forKey: relationship.name)
            owner.didChangeValue(forKey: relationship.name)
        }
    }

    /// Stops the program when a destination belongs to another context than the object, as Core Data
    /// raises on Apple platforms.
    static func requireSameContext(
        _ object: NSManagedObject, _ relationship: NSRelationshipDescription,
        _ destinations: [NSManagedObject]
    ) {
        guard let context = object._context else { return }
        for destination in destinations {
            if let other = destination._context, other !== context {
                preconditionFailure(
                    "Illegal attempt to establish a relationship '\(relationship.name)' between objects in different contexts "
                        + "(source = \(object.entity.name ?? "?") \(object.objectID.uriRepresentation().absoluteString), "
                        + "destination = \(destination.entity.name ?? "?") \(destination.objectID.uriRepresentation().absoluteString)).")
            }
        }
    }
}

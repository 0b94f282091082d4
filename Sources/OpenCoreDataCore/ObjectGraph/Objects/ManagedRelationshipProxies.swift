extension NSManagedObject {
    /// Returns a mutable set that stands for a to-many relationship: adding and removing objects
    /// changes the relationship (and records the change), reading it reads the relationship's
    /// current contents.
    ///
    /// A key that is not a to-many relationship of the entity stops the program.
    public func mutableSetValue(forKey key: String) -> NSMutableSet {
        ManagedRelationshipSet(object: self, relationship: toManyRelationship(key))
    }

    /// Returns a mutable ordered set that stands for an ordered to-many relationship: changes to it
    /// change the relationship (and are recorded). It starts with the relationship's current contents.
    ///
    /// A key that is not a to-many relationship of the entity stops the program.
    public func mutableOrderedSetValue(forKey key: String) -> NSMutableOrderedSet {
        let relationship = toManyRelationship(key)
        willAccessValue(forKey: key)
        let proxy = ManagedRelationshipOrderedSet(capacity: 0)
        proxy.addObjectsWithoutWriting(loadedToMany(relationship))
        proxy.owner = (self, relationship)
        return proxy
    }

    private func toManyRelationship(_ key: String) -> NSRelationshipDescription {
        guard let relationship = _entity.relationshipsByName[key], relationship.isToMany else {
            preconditionFailure("The entity \(_entity.name ?? "?") has no to-many relationship named \"\(key)\".")
        }
        return relationship
    }

    /// Replaces a to-many relationship's contents with change notifications.
    func writeToMany(_ objects: [NSManagedObject], for relationship: NSRelationshipDescription) {
        let inverse = InverseMaintenance(self, relationship: relationship, newObjects: objects)
        willChangeValue(forKey: relationship.name)
        setToMany(objects, for: relationship)
        didChangeValue(forKey: relationship.name)
        inverse.apply()
    }
}

/// The live mutable set returned by `mutableSetValue(forKey:)`: every read and write goes to the object.
final class ManagedRelationshipSet: NSMutableSet {
    private var owner: (object: NSManagedObject, relationship: NSRelationshipDescription)?

    init(object: NSManagedObject, relationship: NSRelationshipDescription) {
        owner = (object, relationship)
        super.init(capacity: 0)
    }

    required init(capacity numItems: Int) {
        super.init(capacity: numItems)
    }

    required convenience init(arrayLiteral elements: Any...) {
        self.init(capacity: 0)
    }

    required init?(coder: NSCoder) {
        nil
    }

    private var contents: [NSManagedObject] {
        guard let (object, relationship) = owner else { return [] }
        object.willAccessValue(forKey: relationship.name)
        return object.loadedToMany(relationship)
    }

    override var count: Int { contents.count }

    override func member(_ object: Any) -> Any? {
        guard let candidate = object as? NSManagedObject else { return nil }
        return contents.first { $0 === candidate }
    }

    override func objectEnumerator() -> NSEnumerator {
        NSArray(array: contents).objectEnumerator()
    }

    override func add(_ object: Any) {
        guard let (owner, relationship) = owner else { return }
        let added = ManagedValueCoercion.toManyObjects([object], relationship: relationship, object: owner)
        let current = contents
        guard let new = added.first, !current.contains(where: { $0 === new }) else { return }
        owner.writeToMany(current + [new], for: relationship)
    }

    override func remove(_ object: Any) {
        guard let (owner, relationship) = owner, let removed = object as? NSManagedObject else { return }
        let current = contents
        guard current.contains(where: { $0 === removed }) else { return }
        owner.writeToMany(current.filter { $0 !== removed }, for: relationship)
    }
}

/// The mutable ordered set returned by `mutableOrderedSetValue(forKey:)`: it holds the relationship's
/// contents and writes every change through to the object.
final class ManagedRelationshipOrderedSet: NSMutableOrderedSet {
    var owner: (object: NSManagedObject, relationship: NSRelationshipDescription)?

    required override init(capacity numItems: Int) {
        super.init(capacity: numItems)
    }

    required convenience init(arrayLiteral elements: Any...) {
        self.init(capacity: 0)
    }

    required init?(coder: NSCoder) {
        nil
    }

    /// Fills the set without writing to the object.
    func addObjectsWithoutWriting(_ objects: [NSManagedObject]) {
        for object in objects { super.add(object) }
    }

    private func push() {
        guard let (object, relationship) = owner else { return }
        let objects = ManagedValueCoercion.toManyObjects(NSOrderedSet(array: array), relationship: relationship, object: object)
        object.writeToMany(objects, for: relationship)
    }

    override func insert(_ object: Any, at idx: Int) {
        super.insert(object, at: idx)
        push()
    }
    override func removeObject(at idx: Int) {
        super.removeObject(at: idx)
        push()
    }
    override func replaceObject(at idx: Int, with object: Any) {
        super.replaceObject(at: idx, with: object)
        push()
    }
    override func add(_ object: Any) {
        super.add(object)
        push()
    }
    override func addObjects(from array: [Any]) {
        super.addObjects(from: array)
        push()
    }
    override func remove(_ object: Any) {
        super.remove(object)
        push()
    }
    override func removeAllObjects() {
        super.removeAllObjects()
        push()
    }
}

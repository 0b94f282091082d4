/// A description of a Core Data entity: its name, its properties and the class that represents its
/// instances.
///
/// Entities are to managed objects what classes are to instances. An entity may inherit from a
/// superentity; its inherited properties then appear in ``propertiesByName``, ``attributesByName`` and
/// ``relationshipsByName``, while ``properties`` holds only the properties the entity declares itself.
open class NSEntityDescription: NSObject, NSCopying {
    @NonRetaining var _model: NSManagedObjectModel?
    @NonRetaining var _superentity: NSEntityDescription?
    var _name: String?
    var _managedObjectClassName: String?
    var _isAbstract = false
    var _subentities: [NSEntityDescription] = []
    var _properties: [NSPropertyDescription] = []
    var _userInfo: [AnyHashable: Any]?
    var _versionHashModifier: String?
    var _renamingIdentifier: String?
    var _indexes: [NSFetchIndexDescription] = []
    var _uniquenessConstraints: [[Any]] = []
    /// Lookups fixed when the model becomes immutable (see `_freeze()`); `nil` while editable.
    /// `final`: read on every property access, so it must be a direct field read, not a dynamic call
    /// that copies every lookup.
    final var _frozen: FrozenEntityLookups?
    /// The recorder of a probe that names key paths (see `ManagedKeyPathNaming`), set only on the entity
    /// made for that probe. Read on every `@Managed` access (unchecked: written once, right after the
    /// probe's initializer, never during an access).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _keyPathRecorder: ManagedKeyPathRecorder?
    /// The version hash, fixed when the model becomes immutable.
    var _frozenVersionHash: Data? { _frozen?.versionHash }

    /// Creates an entity description with no name and no properties.
    public override init() {
        super.init()
    }

    /// Stops the program if the entity's model is in use by a coordinator.
    func _assertEditable() {
        _model?._assertEditable()
    }

    // MARK: Identity

    /// The name of the entity.
    open var name: String? {
        get { _name }
        set {
            _assertEditable()
            _name = newValue
        }
    }

    /// The name of the class that represents the entity's instances; `"NSManagedObject"` unless set.
    open var managedObjectClassName: String! {
        get { _managedObjectClassName ?? "NSManagedObject" }
        set {
            _assertEditable()
            _managedObjectClassName = newValue
        }
    }

    /// A Boolean value that indicates whether the entity is abstract, that is, has no instances of its own.
    open var isAbstract: Bool {
        get { _isAbstract }
        set {
            _assertEditable()
            _isAbstract = newValue
        }
    }

    /// The managed object model the entity belongs to.
    ///
    /// Accessing this property of an entity that belongs to no model is a programmer error.
    open var managedObjectModel: NSManagedObjectModel {
        guard let model = _model else {
            preconditionFailure("The entity \(_name ?? "(unnamed)") does not belong to a managed object model.")
        }
        return model
    }

    /// A dictionary of arbitrary information about the entity.
    open var userInfo: [AnyHashable: Any]? {
        get { _userInfo }
        set {
            _assertEditable()
            _userInfo = newValue
        }
    }

    // MARK: Inheritance

    /// The entity's direct subentities. Setting them makes the receiver their superentity.
    open var subentities: [NSEntityDescription] {
        get { _subentities }
        set {
            _assertEditable()
            for entity in _subentities where entity._superentity === self {
                entity._superentity = nil
            }
            _subentities = newValue
            for entity in newValue {
                if let previous = entity._superentity, previous !== self {
                    previous._subentities.removeAll { $0 === entity }
                }
                entity._superentity = self
            }
        }
    }

    /// The entity's direct subentities, keyed by name.
    open var subentitiesByName: [String: NSEntityDescription] {
        var result: [String: NSEntityDescription] = [:]
        for entity in _subentities {
            if let name = entity._name, result[name] == nil {
                result[name] = entity
            }
        }
        return result
    }

    /// The entity's superentity, or `nil` if it has none. Set it through the superentity's
    /// ``subentities``.
    open var superentity: NSEntityDescription? {
        _superentity
    }

    /// Returns a Boolean value that indicates whether the receiver is the given entity or one of its
    /// subentities, at any depth.
    open func isKindOf(entity: NSEntityDescription) -> Bool {
        _inheritanceChain.contains { $0 === entity }
    }

    /// The entity and its superentities, the root last.
    var _inheritanceChain: [NSEntityDescription] {
        var chain: [NSEntityDescription] = []
        var current: NSEntityDescription? = self
        while let entity = current, !chain.contains(where: { $0 === entity }) {
            chain.append(entity)
            current = entity._superentity
        }
        return chain
    }

    // MARK: Properties

    /// The properties the entity declares itself: attributes, relationships and fetched properties.
    ///
    /// Setting the properties raises an exception if the entity's model has been used by a coordinator.
    open var properties: [NSPropertyDescription] {
        get { _properties }
        set {
            _assertEditable()
            for property in _properties where property._entity === self {
                property._entity = nil
            }
            _properties = newValue
            for property in newValue {
                property._entity = self
            }
        }
    }

    /// Every property of the entity, inherited ones first (root entity first), the entity's own last.
    var _allProperties: [NSPropertyDescription] {
        if let frozen = _frozen { return frozen.allProperties }
        return _inheritanceChain.reversed().flatMap { $0._properties }
    }

    /// The entity's properties, including inherited ones, keyed by name.
    open var propertiesByName: [String: NSPropertyDescription] {
        _frozen?.propertiesByName ?? _propertiesByName(of: NSPropertyDescription.self)
    }

    /// The entity's attributes, including inherited ones, keyed by name.
    open var attributesByName: [String: NSAttributeDescription] {
        _frozen?.attributesByName ?? _propertiesByName(of: NSAttributeDescription.self)
    }

    /// The entity's relationships, including inherited ones, keyed by name.
    open var relationshipsByName: [String: NSRelationshipDescription] {
        _frozen?.relationshipsByName ?? _propertiesByName(of: NSRelationshipDescription.self)
    }

    /// The properties of one kind along the inheritance chain, keyed by name; a later property of another
    /// kind with the same name removes an earlier one.
    private func _propertiesByName<Kind: NSPropertyDescription>(of kind: Kind.Type) -> [String: Kind] {
        var result: [String: Kind] = [:]
        for property in _allProperties {
            result[property._name] = property as? Kind
        }
        return result
    }

    /// Returns the entity's relationships, including inherited ones, whose destination is the given
    /// entity.
    open func relationships(forDestination entity: NSEntityDescription) -> [NSRelationshipDescription] {
        _allProperties.compactMap { $0 as? NSRelationshipDescription }
            .filter { $0._destinationEntity === entity }
    }

    // MARK: Indexes and constraints

    /// The fetch indexes of the entity.
    open var indexes: [NSFetchIndexDescription] {
        get { _indexes }
        set {
            _assertEditable()
            for index in _indexes where index._entity === self {
                index._entity = nil
            }
            _indexes = newValue
            for index in newValue {
                index._entity = self
            }
        }
    }

    /// The uniqueness constraints of the entity: each element is an array of property names (or
    /// property descriptions) whose values together must be unique.
    open var uniquenessConstraints: [[Any]] {
        get { _uniquenessConstraints }
        set {
            _assertEditable()
            _uniquenessConstraints = newValue
        }
    }

    /// The uniqueness constraints as arrays of property names.
    var _uniquenessConstraintNames: [[String]] {
        _uniquenessConstraints.map { tuple in
            tuple.compactMap { element -> String? in
                if let name = element as? String { return name }
                if let property = element as? NSPropertyDescription { return property._name }
                if let name = element as? NSString { return String(describing: name) }
                return nil
            }
        }
    }

    // MARK: Versioning

    /// A string that changes the entity's version hash without changing its structure, to mark an
    /// incompatible change of meaning.
    open var versionHashModifier: String? {
        get { _versionHashModifier }
        set {
            _assertEditable()
            _versionHashModifier = newValue
        }
    }

    /// A 32-byte hash that identifies the entity's structure for store compatibility: it covers the
    /// name, whether the entity is abstract, the superentity's hash, the hashes of its persistent
    /// properties, its uniqueness constraints and its version hash modifier, but not its class name,
    /// fetched properties, user info or renaming identifier.
    open var versionHash: Data { VersionHashing.hash(of: self) }

    /// The identifier migration uses to recognize the entity under a new name.
    open var renamingIdentifier: String? {
        get { _renamingIdentifier }
        set {
            _assertEditable()
            _renamingIdentifier = newValue
        }
    }

    // MARK: Looking up entities

    /// Returns the entity with the given name in the given model, or `nil` if the model has none.
    ///
    /// Apple's variant takes a managed object context; this one takes the model directly.
    open class func entity(forEntityName entityName: String, in model: NSManagedObjectModel) -> NSEntityDescription? {
        model.entitiesByName[entityName]
    }

    // MARK: NSCopying

    /// Returns a copy of the entity with copies of its own properties; the copy belongs to no model and
    /// keeps the original's superentity and relationship destinations.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = _shallowCopyForModel()
        copy._superentity = _superentity
        return copy
    }

    /// A copy of the entity's own state and properties, with no model, superentity or subentities.
    func _shallowCopyForModel() -> NSEntityDescription {
        let copy = NSEntityDescription()
        copy._name = _name
        copy._managedObjectClassName = _managedObjectClassName
        copy._isAbstract = _isAbstract
        copy._userInfo = _userInfo
        copy._versionHashModifier = _versionHashModifier
        copy._renamingIdentifier = _renamingIdentifier
        copy._uniquenessConstraints = _uniquenessConstraints
        copy.properties = _properties.compactMap { $0.copy() as? NSPropertyDescription }
        var propertyCopies: [ObjectIdentifier: NSPropertyDescription] = [:]
        for (original, duplicate) in zip(_properties, copy._properties) {
            propertyCopies[ObjectIdentifier(original)] = duplicate
        }
        copy.indexes = _indexes.map { $0._copy(mappingProperties: propertyCopies) }
        return copy
    }

    /// Points the copies' superentities, subentities, relationship destinations and inverses at the
    /// copies of the originals they referred to.
    static func _relinkCopies(_ copies: [ObjectIdentifier: NSEntityDescription], originals: [NSEntityDescription]) {
        var relationshipCopies: [ObjectIdentifier: NSRelationshipDescription] = [:]
        for original in originals {
            guard let copy = copies[ObjectIdentifier(original)] else { continue }
            for (property, duplicate) in zip(original._properties, copy._properties) {
                if let relationship = duplicate as? NSRelationshipDescription {
                    relationshipCopies[ObjectIdentifier(property)] = relationship
                }
            }
        }
        for original in originals {
            guard let copy = copies[ObjectIdentifier(original)] else { continue }
            copy._subentities = original._subentities.map { copies[ObjectIdentifier($0)] ?? $0 }
            for sub in copy._subentities { sub._superentity = copy }
            for (property, duplicate) in zip(original._properties, copy._properties) {
                guard let relationship = property as? NSRelationshipDescription,
                    let relationshipCopy = duplicate as? NSRelationshipDescription
                else { continue }
                if let destination = relationship._destinationEntity {
                    relationshipCopy._destinationEntity = copies[ObjectIdentifier(destination)] ?? destination
                }
                if let inverse = relationship._inverseRelationship {
                    relationshipCopy._inverseRelationship = relationshipCopies[ObjectIdentifier(inverse)] ?? inverse
                }
            }
        }
    }
}

/// A description of a property of an entity: the features attributes, relationships and fetched
/// properties have in common.
open class NSPropertyDescription: NSObject, NSCopying {
    @NonRetaining var _entity: NSEntityDescription?
    var _name: String = ""
    var _isOptional = true
    var _isTransient = false
    var _userInfo: [AnyHashable: Any]?
    var _versionHashModifier: String?
    var _renamingIdentifier: String?
    var _validationPredicates: [NSPredicate] = []
    var _validationWarnings: [Any] = []
    var _isIndexed = false
    var _isIndexedBySpotlight = false
    var _isStoredInExternalRecord = false

    /// Creates a property description with an empty name, optional and persistent.
    public override init() {
        super.init()
    }

    /// Stops the program if the property's model is in use by a coordinator.
    func _assertEditable() {
        _entity?._assertEditable()
    }

    /// The entity the property belongs to.
    ///
    /// Accessing this property of a description that belongs to no entity is a programmer error.
    open var entity: NSEntityDescription {
        guard let entity = _entity else {
            preconditionFailure("The property \(_name) does not belong to an entity.")
        }
        return entity
    }

    /// The name of the property.
    open var name: String {
        get { _name }
        set {
            _assertEditable()
            _name = newValue
        }
    }

    /// A Boolean value that indicates whether the property may be `nil` when an object is saved;
    /// `true` unless set.
    open var isOptional: Bool {
        get { _isOptional }
        set {
            _assertEditable()
            _isOptional = newValue
        }
    }

    /// A Boolean value that indicates whether the property exists only in memory and is never saved to a
    /// store.
    open var isTransient: Bool {
        get { _isTransient }
        set {
            _assertEditable()
            _isTransient = newValue
        }
    }

    /// A Boolean value that indicates whether the property's value can only be read; `true` for fetched
    /// properties and derived attributes.
    open var isReadOnly: Bool { false }

    /// A dictionary of arbitrary information about the property.
    open var userInfo: [AnyHashable: Any]? {
        get { _userInfo }
        set {
            _assertEditable()
            _userInfo = newValue
        }
    }

    /// A string that changes the property's version hash without changing its structure.
    open var versionHashModifier: String? {
        get { _versionHashModifier }
        set {
            _assertEditable()
            _versionHashModifier = newValue
        }
    }

    /// The identifier migration uses to recognize the property under a new name.
    open var renamingIdentifier: String? {
        get { _renamingIdentifier }
        set {
            _assertEditable()
            _renamingIdentifier = newValue
        }
    }

    /// The predicates a value of the property must satisfy.
    open var validationPredicates: [NSPredicate] { _validationPredicates }

    /// The error messages or codes reported when the matching validation predicate fails.
    open var validationWarnings: [Any] { _validationWarnings }

    /// Sets the validation predicates and the warnings reported when each fails; both arrays must have
    /// the same number of elements.
    open func setValidationPredicates(
        _ validationPredicates: [NSPredicate]?,
        withValidationWarnings validationWarnings: [String]?
    ) {
        _assertEditable()
        let predicates = validationPredicates ?? []
        let warnings = validationWarnings ?? []
        precondition(
            predicates.count == warnings.count,
            "The validation predicates and warnings of \(_name) must have the same count.")
        _validationPredicates = predicates
        _validationWarnings = warnings
    }

    /// Sets validation predicates with warnings of any kind (strings or error codes), as model files do.
    func _setValidationPredicates(_ predicates: [NSPredicate], warnings: [Any]) {
        _assertEditable()
        _validationPredicates = predicates
        _validationWarnings = warnings
    }

    /// A Boolean value that indicates whether the property is indexed in the store.
    @available(*, deprecated, message: "Use NSEntityDescription.indexes instead")
    open var isIndexed: Bool {
        get { _isIndexed }
        set {
            _assertEditable()
            _isIndexed = newValue
        }
    }

    /// A Boolean value that indicates whether the property is indexed by Spotlight.
    open var isIndexedBySpotlight: Bool {
        get { _isIndexedBySpotlight }
        set {
            _assertEditable()
            _isIndexedBySpotlight = newValue
        }
    }

    /// A Boolean value that indicates whether the property is stored in an external record.
    @available(*, deprecated, message: "Spotlight external records are no longer supported")
    open var isStoredInExternalRecord: Bool {
        get { _isStoredInExternalRecord }
        set {
            _assertEditable()
            _isStoredInExternalRecord = newValue
        }
    }

    /// A 32-byte hash that identifies the property's structure for store compatibility: it covers the
    /// name, the optional, transient and read-only flags, the version hash modifier and, for attributes
    /// and relationships, their structural features, but not default values, validation rules, user
    /// info or renaming identifiers.
    open var versionHash: Data { VersionHashing.hash(of: self) }

    // MARK: NSCopying

    /// Returns a copy of the property that belongs to no entity.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = type(of: self)._makeEmpty()
        _copyState(to: copy)
        return copy
    }

    /// An empty instance of the receiver's class, for copying.
    class func _makeEmpty() -> NSPropertyDescription { NSPropertyDescription() }

    /// Copies the receiver's state into another description of the same class.
    func _copyState(to copy: NSPropertyDescription) {
        copy._name = _name
        copy._isOptional = _isOptional
        copy._isTransient = _isTransient
        copy._userInfo = _userInfo
        copy._versionHashModifier = _versionHashModifier
        copy._renamingIdentifier = _renamingIdentifier
        copy._validationPredicates = _validationPredicates
        copy._validationWarnings = _validationWarnings
        copy._isIndexed = _isIndexed
        copy._isIndexedBySpotlight = _isIndexedBySpotlight
        copy._isStoredInExternalRecord = _isStoredInExternalRecord
    }
}

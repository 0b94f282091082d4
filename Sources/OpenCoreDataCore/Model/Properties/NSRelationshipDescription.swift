/// A description of a relationship of an entity: a property whose value is one or more objects of a
/// destination entity.
open class NSRelationshipDescription: NSPropertyDescription {
    @NonRetaining var _destinationEntity: NSEntityDescription?
    weak var _inverseRelationship: NSRelationshipDescription?
    var _minCount = 0
    var _maxCount = 1
    var _deleteRule: NSDeleteRule = .nullifyDeleteRule
    var _isOrdered = false

    /// Creates a to-one relationship description with no destination and the nullify delete rule.
    public override init() {
        super.init()
    }

    /// The entity of the relationship's destination objects.
    open var destinationEntity: NSEntityDescription? {
        get { _destinationEntity }
        set {
            _assertEditable()
            _destinationEntity = newValue
        }
    }

    /// The relationship that leads back from the destination entity to this relationship's entity.
    open var inverseRelationship: NSRelationshipDescription? {
        get { _inverseRelationship }
        set {
            _assertEditable()
            _inverseRelationship = newValue
        }
    }

    /// The minimum number of destination objects a saved object must have.
    open var minCount: Int {
        get { _minCount }
        set {
            _assertEditable()
            _minCount = newValue
        }
    }

    /// The maximum number of destination objects; 0 means no limit, and 1 makes the relationship to-one.
    open var maxCount: Int {
        get { _maxCount }
        set {
            _assertEditable()
            _maxCount = newValue
        }
    }

    /// A Boolean value that indicates whether the relationship can have more than one destination object.
    open var isToMany: Bool { _maxCount != 1 }

    /// What happens to the destination objects when a source object is deleted; `.nullifyDeleteRule`
    /// unless set.
    open var deleteRule: NSDeleteRule {
        get { _deleteRule }
        set {
            _assertEditable()
            _deleteRule = newValue
        }
    }

    /// A Boolean value that indicates whether a to-many relationship keeps its destination objects in
    /// order.
    open var isOrdered: Bool {
        get { _isOrdered }
        set {
            _assertEditable()
            _isOrdered = newValue
        }
    }

    // MARK: NSCopying

    override class func _makeEmpty() -> NSPropertyDescription { NSRelationshipDescription() }

    override func _copyState(to copy: NSPropertyDescription) {
        super._copyState(to: copy)
        guard let copy = copy as? NSRelationshipDescription else { return }
        copy._destinationEntity = _destinationEntity
        copy._inverseRelationship = _inverseRelationship
        copy._minCount = _minCount
        copy._maxCount = _maxCount
        copy._deleteRule = _deleteRule
        copy._isOrdered = _isOrdered
    }
}

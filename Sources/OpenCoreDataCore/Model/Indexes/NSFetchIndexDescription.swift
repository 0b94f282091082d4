/// A description of an index the store maintains over one or more properties of an entity, to make
/// fetches faster.
open class NSFetchIndexDescription: NSObject, NSCopying {
    var _name: String
    var _elements: [NSFetchIndexElementDescription] = []
    var _partialIndexPredicate: NSPredicate?
    @NonRetaining var _entity: NSEntityDescription?

    /// Creates an index with the given name and elements.
    public init(name: String, elements: [NSFetchIndexElementDescription]?) {
        _name = name
        super.init()
        _attach(elements ?? [])
    }

    private func _attach(_ elements: [NSFetchIndexElementDescription]) {
        for element in _elements where element._indexDescription === self {
            element._indexDescription = nil
        }
        _elements = elements
        for element in elements {
            element._indexDescription = self
        }
    }

    /// Stops the program if the index's model is in use by a coordinator.
    func _assertEditable() {
        _entity?._assertEditable()
    }

    /// The name of the index.
    open var name: String {
        get { _name }
        set {
            _assertEditable()
            _name = newValue
        }
    }

    /// The elements of the index, in order.
    open var elements: [NSFetchIndexElementDescription] {
        get { _elements }
        set {
            _assertEditable()
            _attach(newValue)
        }
    }

    /// The entity the index belongs to.
    open var entity: NSEntityDescription? { _entity }

    /// A predicate that limits the index to the objects that match it.
    open var partialIndexPredicate: NSPredicate? {
        get { _partialIndexPredicate }
        set {
            _assertEditable()
            _partialIndexPredicate = newValue
        }
    }

    /// Returns a copy of the index that belongs to no entity.
    open func copy(with zone: NSZone? = nil) -> Any {
        _copy(mappingProperties: [:])
    }

    /// A copy whose elements' properties are replaced by their counterparts in `properties`.
    func _copy(mappingProperties properties: [ObjectIdentifier: NSPropertyDescription]) -> NSFetchIndexDescription {
        let copy = NSFetchIndexDescription(
            name: _name,
            elements: _elements.map { $0._copy(mappingProperties: properties) })
        copy._partialIndexPredicate = _partialIndexPredicate
        return copy
    }
}

/// A description of one element of a fetch index: a property, its collation and its order.
open class NSFetchIndexElementDescription: NSObject, NSCopying {
    var _property: NSPropertyDescription?
    var _propertyName: String?
    var _collationType: NSFetchIndexElementType
    var _isAscending = true
    weak var _indexDescription: NSFetchIndexDescription?

    /// Creates an index element for the given property with the given collation.
    public init(property: NSPropertyDescription, collationType: NSFetchIndexElementType) {
        _property = property
        _propertyName = property.name
        _collationType = collationType
        super.init()
    }

    /// Creates an index element that names its property; the name is resolved against the entity when
    /// the index is used.
    init(propertyName: String, collationType: NSFetchIndexElementType, isAscending: Bool = true) {
        _propertyName = propertyName
        _collationType = collationType
        _isAscending = isAscending
        super.init()
    }

    /// Stops the program if the element's model is in use by a coordinator.
    func _assertEditable() {
        _indexDescription?._assertEditable()
    }

    /// The property the element indexes, when known.
    open var property: NSPropertyDescription? {
        _property ?? _propertyName.flatMap { name in _indexDescription?._entity?.propertiesByName[name] }
    }

    /// The name of the property the element indexes.
    open var propertyName: String? {
        _property?.name ?? _propertyName
    }

    /// The kind of index structure the element uses.
    open var collationType: NSFetchIndexElementType {
        get { _collationType }
        set {
            _assertEditable()
            _collationType = newValue
        }
    }

    /// A Boolean value that indicates whether the element is indexed in ascending order; `true` unless set.
    open var isAscending: Bool {
        get { _isAscending }
        set {
            _assertEditable()
            _isAscending = newValue
        }
    }

    /// The index the element belongs to.
    open var indexDescription: NSFetchIndexDescription? { _indexDescription }

    /// Returns a copy of the element that belongs to no index.
    open func copy(with zone: NSZone? = nil) -> Any {
        _copy(mappingProperties: [:])
    }

    /// A copy whose property is replaced by its counterpart in `properties` when there is one.
    func _copy(mappingProperties properties: [ObjectIdentifier: NSPropertyDescription]) -> NSFetchIndexElementDescription {
        let copy = NSFetchIndexElementDescription(
            propertyName: _propertyName ?? "", collationType: _collationType,
            isAscending: _isAscending)
        copy._propertyName = _propertyName
        if let property = _property {
            copy._property = properties[ObjectIdentifier(property)] ?? property
        }
        return copy
    }
}

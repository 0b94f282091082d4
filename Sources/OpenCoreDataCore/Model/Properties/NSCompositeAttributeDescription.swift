/// A description of a composite attribute: an attribute whose value is a dictionary of named element
/// values, each described by an attribute (possibly composite itself).
open class NSCompositeAttributeDescription: NSAttributeDescription {
    var _elements: [NSAttributeDescription] = []

    /// Creates a composite attribute description with no elements.
    public override init() {
        super.init()
        _attributeType = .compositeAttributeType
    }

    /// The attributes that make up the composite value.
    open var elements: [NSAttributeDescription] {
        get { _elements }
        set {
            _assertEditable()
            _elements = newValue
        }
    }

    /// Always ``NSAttributeType/compositeAttributeType``.
    open override var attributeType: NSAttributeType {
        get { .compositeAttributeType }
        set {
            precondition(
                newValue == .compositeAttributeType,
                "A composite attribute's type is always compositeAttributeType.")
            _assertEditable()
        }
    }

    override class func _makeEmpty() -> NSPropertyDescription { NSCompositeAttributeDescription() }

    override func _copyState(to copy: NSPropertyDescription) {
        super._copyState(to: copy)
        guard let copy = copy as? NSCompositeAttributeDescription else { return }
        copy._elements = _elements.compactMap { $0.copy() as? NSAttributeDescription }
    }
}

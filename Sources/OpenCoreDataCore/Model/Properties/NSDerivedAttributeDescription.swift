/// A description of a derived attribute: an attribute whose value the store computes from an
/// expression over other properties of the object, such as `count:(pages)` or `title.lowercase`.
open class NSDerivedAttributeDescription: NSAttributeDescription {
    var _derivationExpression: NSExpression?

    /// Creates a derived attribute description with no expression.
    public override init() {
        super.init()
    }

    /// The expression that computes the attribute's value.
    ///
    /// A key path that counts a collection, `pages.@count`, is kept as the function expression
    /// `count:(pages)`, the form Core Data records, prints and hashes.
    open var derivationExpression: NSExpression? {
        get { _derivationExpression }
        set {
            _assertEditable()
            _derivationExpression = newValue.map(DerivationExpressionForm.recorded)
        }
    }

    /// Always `true`: a derived attribute's value can only be read.
    open override var isReadOnly: Bool { true }

    override class func _makeEmpty() -> NSPropertyDescription { NSDerivedAttributeDescription() }

    override func _copyState(to copy: NSPropertyDescription) {
        super._copyState(to: copy)
        guard let copy = copy as? NSDerivedAttributeDescription else { return }
        copy._derivationExpression = _derivationExpression
    }
}

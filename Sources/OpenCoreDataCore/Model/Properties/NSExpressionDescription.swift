/// A description of a value computed by an expression in a fetch, such as `max:(date)`, for use in
/// ``NSFetchRequest/propertiesToFetch`` with dictionary results.
open class NSExpressionDescription: NSPropertyDescription {
    var _expression: NSExpression?
    var _expressionResultType: NSAttributeType = .undefinedAttributeType

    /// Creates an expression description with no expression.
    public override init() {
        super.init()
    }

    /// The expression whose value the fetch returns under the description's name.
    open var expression: NSExpression? {
        get { _expression }
        set {
            _assertEditable()
            _expression = newValue
        }
    }

    /// The type of the expression's value.
    open var expressionResultType: NSAttributeType {
        get { _expressionResultType }
        set {
            _assertEditable()
            _expressionResultType = newValue
        }
    }

    /// The type of the expression's value, as an ``NSAttributeDescription/AttributeType``.
    open var resultType: NSAttributeDescription.AttributeType {
        get { NSAttributeDescription.AttributeType(rawValue: expressionResultType) }
        set { expressionResultType = newValue.rawValue }
    }

    /// Always `true`: an expression's value can only be read.
    open override var isReadOnly: Bool { true }

    override class func _makeEmpty() -> NSPropertyDescription { NSExpressionDescription() }

    override func _copyState(to copy: NSPropertyDescription) {
        super._copyState(to: copy)
        guard let copy = copy as? NSExpressionDescription else { return }
        copy._expression = _expression
        copy._expressionResultType = _expressionResultType
    }
}

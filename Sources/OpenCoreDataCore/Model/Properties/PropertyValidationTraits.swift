/// What the model's checks of one property value depend on, read once from a property of an immutable
/// model: a save validates every property of every object it writes, and these answers would otherwise
/// take several dynamic casts per value.
struct PropertyValidationTraits: Sendable {
    /// Which checks apply to the property's values.
    enum Shape: UInt8, Sendable {
        /// A fetched property or derived attribute: not validated.
        case skipped
        /// A to-many relationship: its counts are checked.
        case toMany
        /// A to-one relationship.
        case toOne
        /// An Integer, Double, Float or Boolean attribute: an exact `NSNumber` is always of its type.
        case numberAttribute
        /// Any other attribute.
        case otherAttribute
    }

    let shape: Shape
    let isOptional: Bool
    /// Whether the property has validation predicates to evaluate.
    let hasPredicates: Bool

    /// The traits of a slot without a property: nothing to validate.
    static let skipped = PropertyValidationTraits(shape: .skipped, isOptional: true, hasPredicates: false)

    private init(shape: Shape, isOptional: Bool, hasPredicates: Bool) {
        self.shape = shape
        self.isOptional = isOptional
        self.hasPredicates = hasPredicates
    }

    init(_ property: NSPropertyDescription) {
        isOptional = property.isOptional
        hasPredicates = !property.validationPredicates.isEmpty
        if property is NSFetchedPropertyDescription || property is NSDerivedAttributeDescription {
            shape = .skipped
        } else if let relationship = property as? NSRelationshipDescription {
            shape = relationship.isToMany ? .toMany : .toOne
        } else if let attribute = property as? NSAttributeDescription, !(attribute is NSCompositeAttributeDescription) {
            switch attribute.attributeType {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
                .doubleAttributeType, .floatAttributeType, .booleanAttributeType:
                shape = .numberAttribute
            default:
                shape = .otherAttribute
            }
        } else {
            shape = .otherAttribute
        }
    }
}

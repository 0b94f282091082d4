/// A description of an attribute of an entity: a property that holds a single value of one of Core
/// Data's types.
open class NSAttributeDescription: NSPropertyDescription {
    var _attributeType: NSAttributeType = .undefinedAttributeType
    var _attributeValueClassName: String?
    var _defaultValue: Any?
    var _valueTransformerName: String?
    var _allowsExternalBinaryDataStorage = false
    var _preservesValueInHistoryOnDeletion = false
    var _allowsCloudEncryption = false
    /// Whether generated code should use a scalar Swift type (`Int64`, `Bool`, …) for the attribute, as
    /// the model file's `usesScalarValueType` says; kept for code generation.
    var _usesScalarValueType = false

    /// Creates an attribute description of undefined type.
    public override init() {
        super.init()
    }

    /// The type of the attribute's value.
    ///
    /// Setting the type raises an exception if the attribute's model has been used by a coordinator.
    open var attributeType: NSAttributeType {
        get { _attributeType }
        set {
            _assertEditable()
            _attributeType = newValue
        }
    }

    /// The type of the attribute's value, as a Swift value.
    open var type: AttributeType {
        get { AttributeType(attributeType) }
        set { attributeType = newValue.rawValue }
    }

    /// The name of the class of the attribute's values; derived from the attribute type unless set
    /// (`"NSString"`, `"NSNumber"`, `"NSDate"`, …).
    open var attributeValueClassName: String? {
        get { _attributeValueClassName ?? Self._defaultValueClassName(for: _attributeType) }
        set {
            _assertEditable()
            _attributeValueClassName = newValue
        }
    }

    /// The class name Core Data uses for values of the given attribute type, or `nil` when the type
    /// names no single class.
    static func _defaultValueClassName(for type: NSAttributeType) -> String? {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
            .doubleAttributeType, .floatAttributeType, .booleanAttributeType:
            return "NSNumber"
        case .decimalAttributeType: return "NSDecimalNumber"
        case .stringAttributeType: return "NSString"
        case .dateAttributeType: return "NSDate"
        case .binaryDataAttributeType: return "NSData"
        case .UUIDAttributeType: return "NSUUID"
        case .URIAttributeType: return "NSURL"
        case .objectIDAttributeType: return "NSManagedObjectID"
        case .undefinedAttributeType, .transformableAttributeType, .compositeAttributeType: return nil
        }
    }

    /// The value a new object gets for this attribute.
    open var defaultValue: Any? {
        get { _defaultValue }
        set {
            _assertEditable()
            _defaultValue = newValue
        }
    }

    /// The name of the value transformer that converts a transformable attribute's value to and from data.
    open var valueTransformerName: String? {
        get { _valueTransformerName }
        set {
            _assertEditable()
            _valueTransformerName = newValue
        }
    }

    /// A Boolean value that indicates whether a binary value may be stored in a file beside the store.
    open var allowsExternalBinaryDataStorage: Bool {
        get { _allowsExternalBinaryDataStorage }
        set {
            _assertEditable()
            _allowsExternalBinaryDataStorage = newValue
        }
    }

    /// A Boolean value that indicates whether persistent history keeps the attribute's value when an
    /// object is deleted.
    open var preservesValueInHistoryOnDeletion: Bool {
        get { _preservesValueInHistoryOnDeletion }
        set {
            _assertEditable()
            _preservesValueInHistoryOnDeletion = newValue
        }
    }

    /// A Boolean value that indicates whether the attribute's value is encrypted in CloudKit.
    open var allowsCloudEncryption: Bool {
        get { _allowsCloudEncryption }
        set {
            _assertEditable()
            _allowsCloudEncryption = newValue
        }
    }

    // MARK: NSCopying

    override class func _makeEmpty() -> NSPropertyDescription { NSAttributeDescription() }

    override func _copyState(to copy: NSPropertyDescription) {
        super._copyState(to: copy)
        guard let copy = copy as? NSAttributeDescription else { return }
        copy._attributeType = _attributeType
        copy._attributeValueClassName = _attributeValueClassName
        copy._defaultValue = _defaultValue
        copy._valueTransformerName = _valueTransformerName
        copy._allowsExternalBinaryDataStorage = _allowsExternalBinaryDataStorage
        copy._preservesValueInHistoryOnDeletion = _preservesValueInHistoryOnDeletion
        copy._allowsCloudEncryption = _allowsCloudEncryption
        copy._usesScalarValueType = _usesScalarValueType
    }
}

extension NSAttributeDescription {
    /// The type of an attribute's value, as a Swift value wrapping an ``NSAttributeType``.
    public struct AttributeType: Hashable, Sendable, RawRepresentable {
        /// The attribute type this value wraps.
        public let rawValue: NSAttributeType

        /// Creates an attribute type from an ``NSAttributeType``.
        public init(rawValue: NSAttributeType) {
            self.rawValue = rawValue
        }

        /// Creates an attribute type from an ``NSAttributeType``.
        public init(_ rawValue: NSAttributeType) {
            self.rawValue = rawValue
        }

        /// An undefined type.
        public static let undefined = AttributeType(.undefinedAttributeType)
        /// A 16-bit signed integer.
        public static let integer16 = AttributeType(.integer16AttributeType)
        /// A 32-bit signed integer.
        public static let integer32 = AttributeType(.integer32AttributeType)
        /// A 64-bit signed integer.
        public static let integer64 = AttributeType(.integer64AttributeType)
        /// A decimal number.
        public static let decimal = AttributeType(.decimalAttributeType)
        /// A double-precision floating-point number.
        public static let double = AttributeType(.doubleAttributeType)
        /// A single-precision floating-point number.
        public static let float = AttributeType(.floatAttributeType)
        /// A string.
        public static let string = AttributeType(.stringAttributeType)
        /// A Boolean value.
        public static let boolean = AttributeType(.booleanAttributeType)
        /// A date.
        public static let date = AttributeType(.dateAttributeType)
        /// Binary data.
        public static let binaryData = AttributeType(.binaryDataAttributeType)
        /// A universally unique identifier.
        public static let uuid = AttributeType(.UUIDAttributeType)
        /// A uniform resource identifier.
        public static let uri = AttributeType(.URIAttributeType)
        /// A value stored through a value transformer.
        public static let transformable = AttributeType(.transformableAttributeType)
        /// A managed object identifier.
        public static let objectID = AttributeType(.objectIDAttributeType)
        /// A composite value.
        public static let composite = AttributeType(.compositeAttributeType)
    }
}

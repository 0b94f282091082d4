import Foundation

/// The `attributeType` names Xcode writes in model files, and the types they stand for.
enum AttributeTypeNames {
    /// Every name Xcode writes, with its attribute type.
    static let typesByName: [String: NSAttributeType] = [
        "Undefined": .undefinedAttributeType,
        "Integer 16": .integer16AttributeType,
        "Integer 32": .integer32AttributeType,
        "Integer 64": .integer64AttributeType,
        "Decimal": .decimalAttributeType,
        "Double": .doubleAttributeType,
        "Float": .floatAttributeType,
        "String": .stringAttributeType,
        "Boolean": .booleanAttributeType,
        "Date": .dateAttributeType,
        "Binary": .binaryDataAttributeType,
        "UUID": .UUIDAttributeType,
        "URI": .URIAttributeType,
        "Transformable": .transformableAttributeType,
        "ObjectID": .objectIDAttributeType,
        "Composite": .compositeAttributeType,
    ]

    /// The name Xcode writes for `type`.
    static func name(of type: NSAttributeType) -> String {
        switch type {
        case .undefinedAttributeType: return "Undefined"
        case .integer16AttributeType: return "Integer 16"
        case .integer32AttributeType: return "Integer 32"
        case .integer64AttributeType: return "Integer 64"
        case .decimalAttributeType: return "Decimal"
        case .doubleAttributeType: return "Double"
        case .floatAttributeType: return "Float"
        case .stringAttributeType: return "String"
        case .booleanAttributeType: return "Boolean"
        case .dateAttributeType: return "Date"
        case .binaryDataAttributeType: return "Binary"
        case .UUIDAttributeType: return "UUID"
        case .URIAttributeType: return "URI"
        case .transformableAttributeType: return "Transformable"
        case .objectIDAttributeType: return "ObjectID"
        case .compositeAttributeType: return "Composite"
        }
    }
}

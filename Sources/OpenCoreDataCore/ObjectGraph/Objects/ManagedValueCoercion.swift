/// Converts values handed to `setValue(_:forKey:)` to the canonical form of the property (the form
/// `value(forKey:)` returns), and stops the program — naming entity, key and value — for a value of
/// the wrong type, as Core Data raises on Apple platforms.
enum ManagedValueCoercion {
    /// The canonical value of an attribute, or `nil`.
    static func attributeValue(_ value: Any?, attribute: NSAttributeDescription, object: NSManagedObject) -> Any? {
        if let value, let converted = commonCanonical(value, for: attribute.attributeType) { return converted }
        guard let value = unwrap(value) else { return nil }
        if let converted = canonical(value, for: attribute.attributeType) { return converted }
        fail(object, attribute.name, desired: NSAttributeDescription._defaultValueClassName(for: attribute.attributeType) ?? "id", value: value)
    }

    /// The canonical value for an attribute type, or `nil` when `value` does not fit it.
    static func canonical(_ value: Any, for type: NSAttributeType) -> Any? {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if Swift.type(of: value) == Bool.self { return nil }
            if let integer = integer(value) { return NSNumber(value: integer) }
            if value is NSDecimalNumber { return nil }
            if let number = value as? NSNumber { return NSNumber(value: number.int64Value) }
            return nil
        case .doubleAttributeType:
            if let double = floating(value) { return NSNumber(value: double) }
            return nil
        case .floatAttributeType:
            if let double = floating(value) { return NSNumber(value: Float(double)) }
            return nil
        case .booleanAttributeType:
            if let bool = value as? Bool { return NSNumber(value: bool) }
            if let number = value as? NSNumber { return NSNumber(value: number.boolValue) }
            return nil
        case .decimalAttributeType:
            if let decimal = value as? NSDecimalNumber { return decimal }
            if let decimal = value as? Decimal { return NSDecimalNumber(decimal: decimal) }
            if let integer = integer(value) { return NSDecimalNumber(value: integer) }
            if let double = floating(value) { return NSDecimalNumber(value: double) }
            return nil
        case .stringAttributeType:
            if let string = value as? String { return string }
            if let string = value as? NSString { return string as String }
            return nil
        case .dateAttributeType:
            return value as? Date
        case .binaryDataAttributeType:
            return data(value)
        case .UUIDAttributeType:
            if let uuid = value as? UUID { return uuid }
            if let uuid = value as? NSUUID { return uuid as UUID }
            return nil
        case .URIAttributeType:
            if let url = value as? URL { return url }
            if let url = value as? NSURL { return url as URL }
            return nil
        case .objectIDAttributeType:
            return value as? NSManagedObjectID
        default:
            // Transformable, undefined (transient) and composite attributes take any value.
            return value
        }
    }

    /// `canonical(value, for: type)` for the Swift values `@Managed` properties and most callers hand
    /// in (64-bit and word-size integers, `Double`, `Bool`, `String`) — the same result, reached by
    /// comparing types instead of trying casts; `nil` for any other value or attribute type.
    private static func commonCanonical(_ value: Any, for type: NSAttributeType) -> Any? {
        let kind = ObjectIdentifier(Swift.type(of: value))
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if kind == ObjectIdentifier(Int64.self), let integer = value as? Int64 { return NSNumber(value: integer) }
            if kind == ObjectIdentifier(Int.self), let integer = value as? Int { return NSNumber(value: Int64(integer)) }
            if kind == ObjectIdentifier(Int32.self), let integer = value as? Int32 { return NSNumber(value: Int64(integer)) }
            if kind == ObjectIdentifier(Int16.self), let integer = value as? Int16 { return NSNumber(value: Int64(integer)) }
        case .doubleAttributeType:
            if kind == ObjectIdentifier(Double.self), let double = value as? Double { return NSNumber(value: double) }
        case .booleanAttributeType:
            if kind == ObjectIdentifier(Bool.self), let bool = value as? Bool { return NSNumber(value: bool) }
        case .stringAttributeType:
            if kind == ObjectIdentifier(String.self), let string = value as? String { return string }
        default:
            break
        }
        return nil
    }

    /// Whether `canonical(value, for: type)` would give a value, answered without building it for the
    /// values change tracking already made canonical (validation asks this for every value it checks).
    static func hasCanonicalForm(_ value: Any, for type: NSAttributeType) -> Bool {
        if type == .binaryDataAttributeType, Swift.type(of: value) is NSData.Type { return true }
        if Swift.type(of: value) is NSNumber.Type {
            switch type {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
                if !(Swift.type(of: value) is NSDecimalNumber.Type) { return true }
            case .doubleAttributeType, .floatAttributeType, .booleanAttributeType:
                return true
            default:
                break
            }
        }
        return canonical(value, for: type) != nil
    }

    /// The destination object of a to-one relationship, or `nil`.
    static func toOneObject(_ value: Any?, relationship: NSRelationshipDescription, object: NSManagedObject) -> NSManagedObject? {
        guard let value = unwrap(value) else { return nil }
        if let destination = value as? NSManagedObject, fits(destination, relationship) { return destination }
        fail(object, relationship.name, desired: relationship.destinationEntity?.name ?? "NSManagedObject", value: value)
    }

    /// The destination objects of a to-many relationship, from an `NSSet`, `NSOrderedSet`, array or Swift set.
    static func toManyObjects(_ value: Any?, relationship: NSRelationshipDescription, object: NSManagedObject) -> [NSManagedObject] {
        guard let value = unwrap(value) else { return [] }
        let elements: [Any]
        if let set = value as? NSSet {
            elements = set.allObjects
        } else if let ordered = value as? NSOrderedSet {
            elements = ordered.array
        } else if let array = value as? NSArray {
            elements = array.map { $0 }
        } else if let collection = value as? any ManagedObjectCollection {
            elements = collection.managedObjects
        } else {
            fail(object, relationship.name, desired: relationship.isOrdered ? "NSOrderedSet" : "NSSet", value: value)
        }
        var seen = Set<ObjectIdentifier>()
        var objects: [NSManagedObject] = []
        for element in elements {
            guard let destination = element as? NSManagedObject, fits(destination, relationship) else {
                fail(object, relationship.name, desired: relationship.destinationEntity?.name ?? "NSManagedObject", value: element)
            }
            if seen.insert(ObjectIdentifier(destination)).inserted { objects.append(destination) }
        }
        return objects
    }

    private static func fits(_ destination: NSManagedObject, _ relationship: NSRelationshipDescription) -> Bool {
        guard let entity = relationship.destinationEntity else { return true }
        return destination.entity.isKindOf(entity: entity) || destination.entity.name == entity.name
    }

    private static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let optional = value as? any ManagedOptional { return unwrap(optional.managedWrapped) }
        if value is NSNull { return nil }
        return value
    }

    private static func integer(_ value: Any) -> Int64? {
        switch value {
        case let v as Int: return Int64(v)
        case let v as Int8: return Int64(v)
        case let v as Int16: return Int64(v)
        case let v as Int32: return Int64(v)
        case let v as Int64: return v
        case let v as UInt: return Int64(exactly: v)
        case let v as UInt8: return Int64(v)
        case let v as UInt16: return Int64(v)
        case let v as UInt32: return Int64(v)
        case let v as UInt64: return Int64(exactly: v)
        default: return nil
        }
    }

    private static func floating(_ value: Any) -> Double? {
        if Swift.type(of: value) == Bool.self { return nil }
        switch value {
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as NSNumber: return v.doubleValue
        default: return integer(value).map(Double.init)
        }
    }

    private static func fail(_ object: NSManagedObject, _ key: String, desired: String, value: Any) -> Never {
        preconditionFailure(
            "Unacceptable type of value for property: entity = \(object.entity.name ?? "?"); "
                + "property = \"\(key)\"; desired type = \(desired); given type = \(type(of: value)); value = \(value).")
    }
}

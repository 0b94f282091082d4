/// An `Optional` seen without its wrapped type.
protocol ManagedOptional {
    /// The wrapped value, or `nil`.
    var managedWrapped: Any? { get }
    /// The type the optional wraps.
    static var managedWrappedType: Any.Type { get }
    /// `nil` of this optional type.
    static var managedNone: Self { get }
}

extension Optional: ManagedOptional {
    var managedWrapped: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
    static var managedWrappedType: Any.Type { Wrapped.self }
    static var managedNone: Self { nil }
}

/// A Swift collection a to-many relationship can be read as.
protocol ManagedObjectCollection {
    /// Builds the collection from the destination objects, or returns `nil` when one has the wrong class.
    static func managedCollection(from objects: [NSManagedObject]) -> Self?
    /// The destination objects of the collection.
    var managedObjects: [Any] { get }
}

extension Set: ManagedObjectCollection {
    static func managedCollection(from objects: [NSManagedObject]) -> Set<Element>? {
        var result = Set<Element>(minimumCapacity: objects.count)
        for object in objects {
            guard let element = object as? Element else { return nil }
            result.insert(element)
        }
        return result
    }
    var managedObjects: [Any] { Array(self) }
}

extension Array: ManagedObjectCollection {
    static func managedCollection(from objects: [NSManagedObject]) -> [Element]? {
        var result: [Element] = []
        result.reserveCapacity(objects.count)
        for object in objects {
            guard let element = object as? Element else { return nil }
            result.append(element)
        }
        return result
    }
    var managedObjects: [Any] { self }
}

/// An optional Swift collection a to-many relationship can be read as (`Set<Destination>?`): always
/// `.some`, as a to-many relationship reads as an empty collection, never `nil`.
protocol ManagedOptionalObjectCollection {
    /// The collection of the destination objects, wrapped; `nil` when one has the wrong class.
    static func managedOptionalCollection(from objects: [NSManagedObject]) -> Self?
}

extension Optional: ManagedOptionalObjectCollection where Wrapped: ManagedObjectCollection {
    static func managedOptionalCollection(from objects: [NSManagedObject]) -> Wrapped?? {
        Wrapped.managedCollection(from: objects).map { .some($0) }
    }
}

/// Converts between canonical property values (what `value(forKey:)` returns) and the Swift types
/// that `@Managed` properties declare.
enum ManagedValueConversion {
    /// Converts a canonical value to `Value`; traps, naming entity, key and type, when it cannot.
    static func swiftValue<Value>(_ value: Any?, as type: Value.Type, object: NSManagedObject, key: String) -> Value {
        if let number = ManagedNumberReading.value(value, as: Value.self) { return number }
        let baseType: Any.Type
        if let optionalType = Value.self as? any ManagedOptional.Type {
            guard let value else {
                guard let none = optionalType.managedNone as? Value else { fail(object, key, Value.self, nil) }
                return none
            }
            baseType = optionalType.managedWrappedType
            if let converted = convert(value, to: baseType), let result = converted as? Value {
                return result
            }
            fail(object, key, Value.self, value)
        }
        baseType = Value.self
        if let converted = convert(value ?? zeroValue(of: baseType) as Any, to: baseType), let result = converted as? Value {
            return result
        }
        fail(object, key, Value.self, value)
    }

    /// Converts a Swift value to the value passed to `setValue(_:forKey:)`: optionals unwrapped,
    /// `Decimal` as `NSDecimalNumber`, Swift collections of objects as `NSSet`.
    static func storedValue<Value>(_ value: Value, object: NSManagedObject, key: String) -> Any? {
        // Neither optional, nor `Decimal`, nor a collection: passed on as it is.
        if isPlainValueType(Value.self) { return value }
        var current: Any = value
        while let optional = current as? any ManagedOptional {
            guard let wrapped = optional.managedWrapped else { return nil }
            current = wrapped
        }
        if let decimal = current as? Decimal { return NSDecimalNumber(decimal: decimal) }
        if !isPlainValueType(type(of: current)), !(current is NSObject), let encodable = current as? any Encodable,
            let composite = object.entity.attributesByName[key] as? NSCompositeAttributeDescription
        {
            // A composite declared as a Swift type: stored as the dictionary of its elements.
            return CompositeValueCoding.dictionary(of: encodable, composite: composite) ?? current
        }
        if let relationship = object.entity.relationshipsByName[key], relationship.isToMany,
            let collection = current as? any ManagedObjectCollection
        {
            let objects = collection.managedObjects
            return relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects)
        }
        return current
    }

    /// Whether values of `type` reach `setValue(_:forKey:)` unchanged: the scalar and Foundation value
    /// types `@Managed` properties declare most.
    private static func isPlainValueType(_ type: Any.Type) -> Bool {
        type == Int64.self || type == Int.self || type == Int32.self || type == Int16.self || type == Double.self
            || type == Bool.self || type == String.self || type == Date.self || type == Float.self || type == Data.self
            || type == UUID.self || type == URL.self || type == Int8.self
    }

    /// The value a non-optional property reads when the stored value is `nil`: zero, `false`, an empty
    /// string, empty data, an empty collection, the reference date (2001-01-01 00:00 UTC), the nil UUID
    /// (all zeros) or `about:blank`. A NULL another program left in a column, or a row deleted under a
    /// fault, must not stop the program where an optional declaration would read `nil`. `nil` (a trap)
    /// for objects and other types, which have no such value.
    private static func zeroValue(of type: Any.Type) -> Any? {
        switch type {
        case is Bool.Type: return false
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
            is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
            return 0
        case is Double.Type, is Float.Type: return 0.0
        case is Decimal.Type: return Decimal(0)
        case is String.Type: return ""
        case is Data.Type: return Data()
        case is NSSet.Type: return NSSet()
        case is NSOrderedSet.Type: return NSOrderedSet()
        case is Date.Type: return Date(timeIntervalSinceReferenceDate: 0)
        case is UUID.Type: return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case is URL.Type: return URL(string: "about:blank")
        default:
            if let collectionType = type as? any ManagedObjectCollection.Type {
                return collectionType.managedCollection(from: [])
            }
            if let decodable = type as? any Decodable.Type {
                // A composite declared as a Swift type: its elements' zero values.
                return CompositePlaceholder.value(of: decodable)
            }
            return nil
        }
    }

    /// Converts one non-nil canonical value to `type`, or returns `nil`.
    private static func convert(_ value: Any, to type: Any.Type) -> Any? {
        if let number = value as? NSNumber, !(number is NSDecimalNumber) || type != Decimal.self {
            switch type {
            case is Int.Type: return number.intValue
            case is Int8.Type: return number.int8Value
            case is Int16.Type: return number.int16Value
            case is Int32.Type: return number.int32Value
            case is Int64.Type: return number.int64Value
            case is UInt.Type: return number.uintValue
            case is UInt8.Type: return number.uint8Value
            case is UInt16.Type: return number.uint16Value
            case is UInt32.Type: return number.uint32Value
            case is UInt64.Type: return number.uint64Value
            case is Double.Type: return number.doubleValue
            case is Float.Type: return number.floatValue
            case is Bool.Type: return number.boolValue
            case is Decimal.Type: return number.decimalValue
            default: break
            }
        }
        if type == Decimal.self, let decimal = value as? NSDecimalNumber { return decimal.decimalValue }
        if let set = value as? NSSet {
            if type is NSSet.Type { return set }
            if let collectionType = type as? any ManagedObjectCollection.Type {
                return collectionType.managedCollection(from: set.allObjects.compactMap { $0 as? NSManagedObject })
            }
        }
        if let ordered = value as? NSOrderedSet {
            if type is NSOrderedSet.Type { return ordered }
            if let collectionType = type as? any ManagedObjectCollection.Type {
                return collectionType.managedCollection(from: ordered.array.compactMap { $0 as? NSManagedObject })
            }
        }
        if type == String.self, let string = value as? NSString { return string as String }
        if let dictionary = value as? [String: Any], let decodable = type as? any Decodable.Type,
            !(type is NSDictionary.Type), !(type is [String: Any].Type)
        {
            // A composite attribute's elements read as the Swift type that declares it.
            return CompositeValueCoding.value(of: dictionary, as: decodable) ?? value
        }
        return value
    }

    private static func fail(_ object: NSManagedObject, _ key: String, _ type: Any.Type, _ value: Any?) -> Never {
        preconditionFailure(
            "Unacceptable type for managed property: entity = \(object.entity.name ?? "?"); "
                + "property = \"\(key)\"; declared type = \(type); value = \(value.map { String(describing: $0) } ?? "nil").")
    }
}

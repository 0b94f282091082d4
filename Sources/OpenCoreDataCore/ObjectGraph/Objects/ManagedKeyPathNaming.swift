/// Names Swift key paths to `@Managed` properties.
///
/// `@Managed` properties are computed, so the Swift runtime cannot name them. Instead the key path is
/// read on a probe: an instance of the root class in no context, whose ``NSManagedObject/managedValue(forKey:)``
/// records each key it is asked for and answers with a placeholder — a further probe for to-one
/// relationships, so that `\Post.author?.name` records `author` then `name`.
enum ManagedKeyPathNaming {
    /// The dotted key path `keyPath` reads, or `nil` when its root is no managed object class or it reads
    /// no managed property.
    static func name(of keyPath: AnyKeyPath) -> String? {
        guard let rootType = type(of: keyPath).rootType as? NSManagedObject.Type else { return nil }
        let recorder = ManagedKeyPathRecorder()
        let probe = recorder.probe(of: rootType)
        _ = probe[keyPath: keyPath]
        return recorder.keys.isEmpty ? nil : recorder.keys.joined(separator: ".")
    }
}

/// Records the keys a probe is asked for. Used on one thread, for the duration of one naming.
final class ManagedKeyPathRecorder {
    /// The keys read so far, in order.
    private(set) var keys: [String] = []

    /// A new probe of `type`, recording into the receiver.
    func probe(of type: NSManagedObject.Type) -> NSManagedObject {
        let entity = NSEntityDescription()
        entity.name = String(describing: type)
        let probe = type.init(entity: entity, insertInto: nil)
        // Set once the probe exists: what its initializer reads is not part of the key path. Only on the
        // entity made here: an initializer that handed its superclass another entity (one of a model,
        // which other objects share) leaves the probe without a recorder, and the key path unnamed.
        if probe._entity === entity { entity._keyPathRecorder = self }
        return probe
    }

    /// Records `key` and returns a placeholder of the property's declared type.
    func record<Value>(_ key: String, as type: Value.Type, object: NSManagedObject) -> Value {
        keys.append(key)
        if let objectType = Value.self as? NSManagedObject.Type, let value = probe(of: objectType) as? Value {
            return value
        }
        if let optionalType = Value.self as? any ManagedOptional.Type {
            if let objectType = optionalType.managedWrappedType as? NSManagedObject.Type,
                let value = Optional(probe(of: objectType)) as Any as? Value
            {
                return value
            }
            if let none = optionalType.managedNone as? Value { return none }
        }
        if let placeholder = (Value.self as? any ManagedKeyPathPlaceholder.Type)?.keyPathPlaceholder as? Value {
            return placeholder
        }
        if Value.self == NSSet.self, let empty = NSSet() as? Value { return empty }
        if Value.self == NSOrderedSet.self, let empty = NSOrderedSet() as? Value { return empty }
        return ManagedValueConversion.swiftValue(nil, as: Value.self, object: object, key: key)
    }
}

/// Types whose non-optional `@Managed` properties have no zero value of their own: a probe answers
/// with this placeholder.
protocol ManagedKeyPathPlaceholder {
    /// Any value of the type; it is never stored.
    static var keyPathPlaceholder: Self { get }
}

extension Date: ManagedKeyPathPlaceholder {
    static var keyPathPlaceholder: Date { Date(timeIntervalSinceReferenceDate: 0) }
}

extension UUID: ManagedKeyPathPlaceholder {
    static var keyPathPlaceholder: UUID { UUID() }
}

extension URL: ManagedKeyPathPlaceholder {
    static var keyPathPlaceholder: URL { URL(fileURLWithPath: "/") }
}

extension Set: ManagedKeyPathPlaceholder {
    static var keyPathPlaceholder: Set<Element> { [] }
}

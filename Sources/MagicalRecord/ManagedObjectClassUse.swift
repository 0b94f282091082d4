import OpenCoreData

/// Makes sure OpenCoreData makes the objects of an entity as the class MagicalRecord was called on.
///
/// OpenCoreData matches an entity's bare class name (`Employee`, as model files often write it) with a
/// class once the program has used the class: asked for its `entity()`, or fetched with a typed request.
/// MagicalRecord's calls take the class but fetch with untyped requests, so the first call on a class
/// whose entity names it asks for its `entity()` once.
enum ManagedObjectClassUse {
    // @unchecked Sendable: `used` is read and written only with `lock` held.
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var used = Set<ObjectIdentifier>()
    }

    private static let registry = Registry()

    /// Marks `type` as used when `entity` names it as its class.
    static func note(_ type: NSManagedObject.Type, for entity: NSEntityDescription) {
        let key = ObjectIdentifier(type)
        guard type != NSManagedObject.self, !registry.lock.withLock({ registry.used.contains(key) }) else { return }
        guard let className = entity.managedObjectClassName, names(of: type).contains(className) else { return }
        _ = type.entity()
        _ = registry.lock.withLock { registry.used.insert(key) }
    }

    /// The names an entity may give `type`: module-qualified, bare, and without the module.
    private static func names(of type: NSManagedObject.Type) -> Set<String> {
        let qualified = String(reflecting: type)
        let components = qualified.split(separator: ".")
        var names: Set<String> = [qualified]
        if let last = components.last { names.insert(String(last)) }
        if components.count > 2 { names.insert(components.dropFirst().joined(separator: ".")) }
        return names
    }
}

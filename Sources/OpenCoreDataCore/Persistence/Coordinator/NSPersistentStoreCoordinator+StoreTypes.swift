/// The registry of store types: the built-in ones and those registered with
/// ``NSPersistentStoreCoordinator/registerStoreClass(_:forStoreType:)``.
extension NSPersistentStoreCoordinator {
    /// The registered store types: each key is a store type's name, each value the
    /// ``NSPersistentStore`` subclass that implements it, wrapped in an `NSValue`.
    ///
    /// The built-in types are ``NSSQLiteStoreType`` and ``NSInMemoryStoreType``. On Linux the `NSValue`
    /// holds the class's address as an unsigned integer (`objCType` `"Q"`): read it with `getValue(_:)`
    /// into a `UInt` and convert it with ``NSPersistentStoreCoordinator/storeClass(of:)``.
    public class var registeredStoreTypes: [String: NSValue] {
        StoreTypeRegistry.shared.types.mapValues { StoreTypeRegistry.value(of: $0) }
    }

    /// Registers a persistent store class under a store type name, or removes the registration when
    /// `storeClass` is `nil`.
    ///
    /// Adding a store of a registered type makes an instance of its class with
    /// `init(persistentStoreCoordinator:configurationName:at:options:)`: subclass `NSIncrementalStore` or
    /// `NSAtomicStore` (a class that subclasses `NSPersistentStore` directly cannot be added, and throws
    /// ``NSPersistentStoreInvalidTypeError``). Registering a built-in type's name replaces its entry in
    /// ``registeredStoreTypes``; stores of that type are still the built-in ones.
    public class func registerStoreClass(_ storeClass: AnyClass?, forStoreType storeType: String) {
        StoreTypeRegistry.shared.register(storeClass, for: storeType)
    }

    /// Registers a persistent store class under a store type, or removes the registration when
    /// `storeClass` is `nil`.
    public class func registerStoreClass(_ storeClass: AnyClass?, type storeType: NSPersistentStore.StoreType) {
        registerStoreClass(storeClass, forStoreType: storeType.rawValue)
    }

    /// The class an entry of ``registeredStoreTypes`` holds, `nil` when the value holds none.
    public class func storeClass(of value: NSValue) -> AnyClass? {
        guard String(cString: value.objCType) == "Q" else { return nil }
        var bits: UInt = 0
        value.getValue(&bits)
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return unsafeBitCast(pointer, to: AnyClass.self)
    }
}

/// The process-wide table of store types and their classes.
// @unchecked Sendable: `_types` is read and written only under `_lock`; classes are immutable values.
final class StoreTypeRegistry: @unchecked Sendable {
    static let shared = StoreTypeRegistry()

    private let _lock = NSLock()
    private var _types: [String: AnyClass] = [
        NSSQLiteStoreType: SQLiteStore.self,
        NSInMemoryStoreType: InMemoryStore.self,
    ]

    /// The registered types and their classes.
    var types: [String: AnyClass] {
        _lock.withLock { _types }
    }

    /// Sets or removes the class of a type.
    func register(_ storeClass: AnyClass?, for storeType: String) {
        _lock.withLock { _types[storeType] = storeClass }
    }

    /// A class wrapped in an `NSValue` (its address, as an unsigned integer).
    static func value(of storeClass: AnyClass) -> NSValue {
        var bits = UInt(bitPattern: unsafeBitCast(storeClass, to: UnsafeRawPointer.self))
        return withUnsafePointer(to: &bits) { NSValue(bytes: $0, objCType: "Q") }
    }
}

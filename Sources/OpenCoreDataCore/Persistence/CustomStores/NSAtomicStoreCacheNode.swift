import Foundation

/// A concrete class that represents one object of an atomic store in memory.
///
/// The node's ``propertyCache`` holds the object's values, keyed by property name: attribute values,
/// another cache node for a to-one relationship, and a set of cache nodes for a to-many relationship
/// (an ordered set or an array for an ordered one). You can subclass `NSAtomicStoreCacheNode`; a
/// subclass that keeps its values elsewhere overrides ``value(forKey:)`` and ``setValue(_:forKey:)``.
// @unchecked Sendable: `_propertyCache` is read and written only while holding `_lock`; the object ID
// is fixed at creation. The dictionary it holds is the store's to change (atomic stores change their
// nodes while saving, under the coordinator's save lock).
open class NSAtomicStoreCacheNode: NSObject, @unchecked Sendable {
    private let _lock = NSLock()
    private let _objectID: NSManagedObjectID
    private var _propertyCache: NSMutableDictionary?
    /// The node's version, for optimistic locking: 1 when added to a store, one more after each save
    /// that changes it (under the coordinator's save lock).
    var _version: Int64 = 1

    /// Returns a cache node for the object with a given object ID.
    public init(objectID moid: NSManagedObjectID) {
        _objectID = moid
        super.init()
    }

    /// The object ID of the object the node represents.
    open var objectID: NSManagedObjectID {
        _objectID
    }

    /// The dictionary of the node's values, keyed by property name; `nil` until a value is set.
    open var propertyCache: NSMutableDictionary? {
        get { _lock.withLock { _propertyCache } }
        set { _lock.withLock { _propertyCache = newValue } }
    }

    /// Returns the value of a property of the node, from ``propertyCache``.
    open func value(forKey key: String) -> Any? {
        _lock.withLock { _propertyCache?[key] }
    }

    /// Sets the value of a property of the node in ``propertyCache`` (creating it when needed); `nil`
    /// removes the value.
    open func setValue(_ value: Any?, forKey key: String) {
        _lock.withLock {
            if _propertyCache == nil { _propertyCache = NSMutableDictionary() }
            if let value { _propertyCache?[key] = value } else { _propertyCache?.removeObject(forKey: key) }
        }
    }
}

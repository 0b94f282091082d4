import Foundation

/// A concrete class that represents one record of an incremental store: an object's stored values and
/// their version.
///
/// Return a node from ``NSIncrementalStore/newValuesForObject(with:with:)``. The values are keyed by
/// property name:
///
/// - For attributes, an immutable value of the attribute's class (`NSNumber`, `String`, `Date`, `Data`
///   and so on). A missing key means `nil`.
/// - For to-one relationships, the ``NSManagedObjectID`` of the destination, or `NSNull` for no
///   destination. A missing key is resolved when needed by calling
///   ``NSIncrementalStore/newValue(forRelationship:forObjectWith:with:)``.
/// - To-many relationships are left out; Core Data asks for them with
///   ``NSIncrementalStore/newValue(forRelationship:forObjectWith:with:)``.
///
/// The version counts the saves of the record and is used for optimistic locking: a new record has
/// version 1, and each save that changes it adds one. You can subclass `NSIncrementalStoreNode`.
// @unchecked Sendable: `_values` and `_version` are read and written only while holding `_lock`; the
// object ID is fixed at creation.
open class NSIncrementalStoreNode: NSObject, @unchecked Sendable {
    private let _lock = NSLock()
    private let _objectID: NSManagedObjectID
    private var _values: [String: Any]
    private var _version: UInt64

    /// Returns a node initialized with an object ID, the values persisted for it, and their version.
    public init(objectID: NSManagedObjectID, withValues values: [String: Any], version: UInt64) {
        _objectID = objectID
        _values = values
        _version = version
        super.init()
    }

    /// Updates the values and version to reflect new data saved to or loaded from the external store.
    ///
    /// The values replace the node's values as a whole.
    open func update(withValues values: [String: Any], version: UInt64) {
        _lock.withLock {
            _values = values
            _version = version
        }
    }

    /// The object ID that identifies the data the node stores.
    open var objectID: NSManagedObjectID {
        _objectID
    }

    /// The version of the data the node stores.
    open var version: UInt64 {
        _lock.withLock { _version }
    }

    /// Returns the value of a property: the stored value, `NSNull` for a to-one relationship with no
    /// destination, or `nil` when the node has no value for the property.
    open func value(for prop: NSPropertyDescription) -> Any? {
        _lock.withLock { _values[prop.name] }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates the objects of rows a context registers: the class's `init(entity:insertInto:)` runs, as for
/// every managed object, but the object takes the row's permanent ID directly instead of a temporary ID,
/// and no default values (its values come from its row).
///
/// The ID waits in a per-thread slot while the initializer runs; `NSManagedObject`'s initializer takes it
/// when the entity matches, so an object a subclass's initializer creates for another purpose is not
/// affected.
enum FetchedObjectConstruction {
    private static let pendingID: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// A new instance of `type` for the permanent ID `objectID`, not yet registered with a context.
    static func make(_ type: NSManagedObject.Type, for objectID: NSManagedObjectID) -> NSManagedObject {
        let key = pendingID
        pthread_setspecific(key, Unmanaged.passUnretained(objectID).toOpaque())
        defer { pthread_setspecific(key, nil) }
        return type.init(entity: objectID.entity, insertInto: nil)
    }

    /// The ID waiting for an object of `entity` on this thread, taken so that no other object gets it.
    @inline(__always)
    static func takeID(for entity: NSEntityDescription) -> NSManagedObjectID? {
        let key = pendingID
        guard let pending = pthread_getspecific(key) else { return nil }
        let objectID = Unmanaged<NSManagedObjectID>.fromOpaque(pending).takeUnretainedValue()
        guard objectID.entity === entity else { return nil }
        pthread_setspecific(key, nil)
        return objectID
    }
}

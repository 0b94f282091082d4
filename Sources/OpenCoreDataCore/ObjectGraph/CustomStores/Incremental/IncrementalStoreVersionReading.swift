import Foundation

/// An incremental store that reads the current versions of many objects at once, for the optimistic
/// locking check before a save.
///
/// Before handing a store an ``NSSaveChangesRequest``, Core Data compares the version of each updated,
/// deleted and locked object with the version the context read. Without this protocol it asks
/// ``NSIncrementalStore/newValuesForObject(with:with:)`` for each object in turn and counts an object
/// whose node cannot be read as deleted. A store that adopts this protocol is asked once for all the
/// versions, and only for the node of an object whose version differs; an error it throws fails the save
/// as it is, never as a merge conflict.
public protocol IncrementalStoreVersionReading: NSIncrementalStore {
    /// Returns the version the store now keeps for each of the objects it still has, keyed by object ID;
    /// an object the store no longer has is left out.
    ///
    /// Throw when the versions cannot be read (the store cannot reach its data, for instance): the save
    /// then fails with your error, and the context keeps its changes.
    func versionsForObjects(with objectIDs: [NSManagedObjectID], with context: NSManagedObjectContext) throws -> [NSManagedObjectID: UInt64]
}

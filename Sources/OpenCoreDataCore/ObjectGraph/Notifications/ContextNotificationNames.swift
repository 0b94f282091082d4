extension NSNotification.Name {
    /// Posted when a context's registered objects change: at `processPendingChanges()` (and so at the
    /// start of every save) when objects were inserted, changed, deleted, refreshed or invalidated.
    ///
    /// The notification's `object` is the context. The `userInfo` holds sets of managed objects under
    /// `NSInsertedObjectsKey`, `NSUpdatedObjectsKey`, `NSDeletedObjectsKey`, `NSRefreshedObjectsKey` and
    /// `NSInvalidatedObjectsKey`, and `NSInvalidatedAllObjectsKey` when the context was reset. It is not
    /// posted when a fetch merely registers objects.
    public static let NSManagedObjectContextObjectsDidChange =
        NSNotification.Name("NSManagedObjectContextObjectsDidChangeNotification")

    /// Posted when a context is about to save. The notification's `object` is the context; it has no
    /// `userInfo`.
    public static let NSManagedObjectContextWillSave = NSNotification.Name("NSManagedObjectContextWillSaveNotification")

    /// Posted after a context saved. The notification's `object` is the context; the `userInfo` holds the
    /// saved objects under `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` and `NSDeletedObjectsKey`, the
    /// context under `NSManagedObjectContext.NotificationKey.sourceContext`, and the context's new query
    /// generation token under `NSManagedObjectContextQueryGenerationKey` when it reads a pinned generation.
    ///
    /// Pass the notification to another context's `mergeChanges(fromContextDidSave:)` to bring it up to date.
    public static let NSManagedObjectContextDidSave = NSNotification.Name("NSManagedObjectContextDidSaveNotification")

    /// Posted after a context saved, with the IDs of the saved objects (`NSInsertedObjectIDsKey`,
    /// `NSUpdatedObjectIDsKey`, `NSDeletedObjectIDsKey`, `NSInvalidatedObjectIDsKey`) instead of the
    /// objects, so observers on any thread may use it.
    public static let NSManagedObjectContextDidSaveObjectIDs =
        NSNotification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")

    /// Posted after a context merged changes from another context's save, with the IDs of the merged
    /// objects (`NSInsertedObjectIDsKey`, `NSUpdatedObjectIDsKey`, `NSDeletedObjectIDsKey`,
    /// `NSRefreshedObjectIDsKey`, `NSInvalidatedObjectIDsKey`).
    public static let NSManagedObjectContextDidMergeChangesObjectIDs =
        NSNotification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")
}

/// The key for the set of inserted objects in a context notification's `userInfo`.
public let NSInsertedObjectsKey = "inserted"
/// The key for the set of updated objects in a context notification's `userInfo`.
public let NSUpdatedObjectsKey = "updated"
/// The key for the set of deleted objects in a context notification's `userInfo`.
public let NSDeletedObjectsKey = "deleted"
/// The key for the set of objects that were refreshed (and not changed in the context) in a context
/// notification's `userInfo`.
public let NSRefreshedObjectsKey = "refreshed"
/// The key for the set of objects that were invalidated in a context notification's `userInfo`.
public let NSInvalidatedObjectsKey = "invalidated"
/// The key present in a context notification's `userInfo` when every object of the context was
/// invalidated (after `reset()`); its value is an array of the IDs of the objects the context held.
public let NSInvalidatedAllObjectsKey = "invalidatedAll"
/// The key for the query generation token a save produced, in a did-save notification's `userInfo`.
public let NSManagedObjectContextQueryGenerationKey = "newQueryGeneration"
/// The key for the set of inserted object IDs in a context notification's `userInfo`.
public let NSInsertedObjectIDsKey = "inserted_objectIDs"
/// The key for the set of updated object IDs in a context notification's `userInfo`.
public let NSUpdatedObjectIDsKey = "updated_objectIDs"
/// The key for the set of deleted object IDs in a context notification's `userInfo`.
public let NSDeletedObjectIDsKey = "deleted_objectIDs"
/// The key for the set of refreshed object IDs in a context notification's `userInfo`.
public let NSRefreshedObjectIDsKey = "refreshed_objectIDs"
/// The key for the set of invalidated object IDs in a context notification's `userInfo`.
public let NSInvalidatedObjectIDsKey = "invalidated_objectIDs"

extension NSManagedObjectContext {
    /// A notification that posts when a context makes changes to its registered objects (the same
    /// notification as `NSManagedObjectContextObjectsDidChange`).
    public static let didChangeObjectsNotification = NSNotification.Name.NSManagedObjectContextObjectsDidChange
    /// A notification that posts when a context is about to save (the same notification as
    /// `NSManagedObjectContextWillSave`).
    public static let willSaveObjectsNotification = NSNotification.Name.NSManagedObjectContextWillSave
    /// A notification that posts after a context saved, with the saved objects (the same notification as
    /// `NSManagedObjectContextDidSave`).
    public static let didSaveObjectsNotification = NSNotification.Name.NSManagedObjectContextDidSave
    /// A notification that posts after a context saved, with the IDs of the saved objects (the same
    /// notification as `NSManagedObjectContextDidSaveObjectIDs`).
    public static let didSaveObjectIDsNotification = NSNotification.Name.NSManagedObjectContextDidSaveObjectIDs
    /// A notification that posts after a context merged changes, with the IDs of the merged objects (the
    /// same notification as `NSManagedObjectContextDidMergeChangesObjectIDs`).
    public static let didMergeChangesObjectIDsNotification = NSNotification.Name.NSManagedObjectContextDidMergeChangesObjectIDs

    /// Keys to the details in the `userInfo` of managed object context notifications.
    public enum NotificationKey: String, Sendable {
        /// The context that posted the notification.
        case sourceContext = "managedObjectContext"
        /// The query generation token a save produced.
        case queryGeneration = "newQueryGeneration"
        /// Present when every object of the context was invalidated.
        case invalidatedAllObjects = "invalidatedAll"
        /// The set of inserted objects.
        case insertedObjects = "inserted"
        /// The set of updated objects.
        case updatedObjects = "updated"
        /// The set of deleted objects.
        case deletedObjects = "deleted"
        /// The set of refreshed objects.
        case refreshedObjects = "refreshed"
        /// The set of invalidated objects.
        case invalidatedObjects = "invalidated"
        /// The set of inserted object IDs.
        case insertedObjectIDs = "inserted_objectIDs"
        /// The set of updated object IDs.
        case updatedObjectIDs = "updated_objectIDs"
        /// The set of deleted object IDs.
        case deletedObjectIDs = "deleted_objectIDs"
        /// The set of refreshed object IDs.
        case refreshedObjectIDs = "refreshed_objectIDs"
        /// The set of invalidated object IDs.
        case invalidatedObjectIDs = "invalidated_objectIDs"
    }
}

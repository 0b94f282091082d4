/// The keys every managed object answers through Key-Value Coding besides its entity's properties, as
/// `NSManagedObject`'s `value(forKey:)` answers them: the object's ID, entity, context and state.
///
/// Checks that read key paths before Key-Value Coding evaluates them (fetches evaluated in memory,
/// migration expressions) accept these names; after one of them, a key path reads something other than
/// the entity's objects. `self` is not among them: it reads the object itself.
enum ManagedObjectBuiltInKeys {
    /// The keys, with the short forms of the state properties (`inserted`, `deleted`, …) that Core Data
    /// also answers.
    static let names: Set<String> = [
        "objectID", "entity", "managedObjectContext", "isInserted", "inserted", "isUpdated", "updated",
        "isDeleted", "deleted", "isFault", "fault", "hasChanges",
    ]
}

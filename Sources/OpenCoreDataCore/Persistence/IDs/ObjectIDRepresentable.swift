/// Anything that stands for a stored object where the store needs its ID, for example a managed object
/// used as a predicate constant (`author == %@`). Managed objects and object IDs adopt it.
protocol ObjectIDRepresentable {
    /// The ID of the object the value stands for.
    var objectIDForStore: NSManagedObjectID { get }
}

extension NSManagedObjectID: ObjectIDRepresentable {
    /// The ID itself.
    var objectIDForStore: NSManagedObjectID { self }
}

/// Object IDs are the results of fetches with `.managedObjectIDResultType`.
extension NSManagedObjectID: NSFetchRequestResult {}

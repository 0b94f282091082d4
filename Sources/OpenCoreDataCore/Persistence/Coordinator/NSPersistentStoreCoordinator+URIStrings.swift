extension NSPersistentStoreCoordinator {
    /// Returns the ID of the object a URI string names, or `nil` when the string is not such a URI or
    /// names no store of the coordinator or no entity of its model.
    ///
    /// The string is the `absoluteString` of a URI that ``NSManagedObjectID/uriRepresentation()``
    /// returned; see ``managedObjectID(forURIRepresentation:)``.
    public func managedObjectID(for string: String) -> NSManagedObjectID? {
        guard let url = URL(string: string) else { return nil }
        return managedObjectID(forURIRepresentation: url)
    }
}

/// What the permanent object IDs of one store share: the store's identifier and a reference to the store
/// that does not keep it alive.
///
/// A store hands the same reference to every ID it makes while its identifier stays the same, so that an
/// ID holds one counted reference where it held two (the store's and its identifier's), and IDs of one
/// store compare their stores by identity before comparing identifiers.
// @unchecked Sendable: both properties are fixed at creation. The store is read through
// `NonRetaining`, whose read asks the Swift runtime's thread-safe conditional retain.
final class ObjectIDStoreReference: @unchecked Sendable {
    /// The store's identifier when the reference was made (the `NSStoreUUIDKey` of its metadata).
    let identifier: String?
    @NonRetaining private var _store: NSPersistentStore?

    init(store: NSPersistentStore, identifier: String?) {
        self.identifier = identifier
        _store = store
    }

    /// The store, or `nil` once it has been released.
    var store: NSPersistentStore? {
        _store
    }

    /// Whether two references name stores with the same identifier: the same reference, or equal
    /// identifiers.
    @inline(__always)
    static func sameIdentifier(_ lhs: ObjectIDStoreReference?, _ rhs: ObjectIDStoreReference?) -> Bool {
        lhs === rhs || lhs?.identifier == rhs?.identifier
    }
}

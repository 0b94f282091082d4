/// Names one object: by its `NSManagedObjectID`, or, for a row a fetch read, by the row's scope and
/// primary key, from which the ID is made when first asked for.
///
/// Identities compare as the IDs they name do: ``ObjectIDMap`` finds the entry of an ID by the identity
/// of the same row, and the other way round.
enum ObjectIdentity {
    /// An object named by an ID that already exists (temporary or permanent).
    case id(NSManagedObjectID)
    /// The row with the given primary key among the permanent IDs of a scope.
    case row(ObjectIDScope, primaryKey: Int64)

    /// The entity of the object.
    var entity: NSEntityDescription {
        @inline(__always) get {
            switch self {
            case .id(let id): id.entity
            case .row(let scope, _): scope.entity
            }
        }
    }

    /// The identifier of the object's store; `nil` for a temporary ID.
    var storeIdentifier: String? {
        switch self {
        case .id(let id): id.storeIdentifier
        case .row(let scope, _): scope.store.identifier
        }
    }

    /// The object's ID: the one named, or a new one made for a row (each read of a row's identity makes
    /// another, equal ID: keep the first where identity matters).
    var objectID: NSManagedObjectID {
        switch self {
        case .id(let id): id
        case .row(let scope, let primaryKey): scope.objectID(primaryKey: primaryKey)
        }
    }
}

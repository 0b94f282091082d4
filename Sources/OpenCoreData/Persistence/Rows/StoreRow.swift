/// One row of a store as the store last saw it: a snapshot of an object's stored values.
// @unchecked Sendable: every property is a `let`; the values are immutable Foundation values
// (NSNumber, String, Date, Data, UUID, URL, NSDecimalNumber, NSManagedObjectID) that are never mutated.
struct StoreRow: @unchecked Sendable {
    /// The object the row stores.
    let objectID: NSManagedObjectID
    /// The row's version, `Z_OPT`: 1 after insert, one more after each update.
    let version: Int64
    /// Attribute name → canonical value; to-one relationship name → destination `NSManagedObjectID`.
    /// A missing key means `nil`. To-many relationships are not included.
    let values: PropertyValues

    /// A row with the given values, kept in the layout of the object's entity.
    init(objectID: NSManagedObjectID, version: Int64, values: PropertyValues) {
        self.objectID = objectID
        self.version = version
        self.values = values
    }

    /// A row with values given by name (property name → canonical value or destination ID).
    init(objectID: NSManagedObjectID, version: Int64, values: [String: Any]) {
        self.init(objectID: objectID, version: version, values: PropertyValues(entity: objectID.entity, values))
    }
}

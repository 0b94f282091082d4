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
    let values: [String: Any]
}

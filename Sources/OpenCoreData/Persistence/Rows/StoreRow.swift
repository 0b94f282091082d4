import COpenCoreDataRuntime

/// One row of a store as the store last saw it: a snapshot of an object's stored values.
// @unchecked Sendable: no property is ever changed (`values` is a `var` only so that
// `holdsValuesAlone()` can take it in place); the values are immutable Foundation values (NSNumber,
// String, Date, Data, UUID, URL, NSDecimalNumber, NSManagedObjectID) that are never mutated.
struct StoreRow: @unchecked Sendable {
    /// The object the row stores.
    let objectID: NSManagedObjectID
    /// The row's version, `Z_OPT`: 1 after insert, one more after each update.
    let version: Int64
    /// Attribute name → canonical value; to-one relationship name → destination `NSManagedObjectID`.
    /// A missing key means `nil`. To-many relationships are not included.
    private(set) var values: PropertyValues

    /// A row with the given values, kept in the layout of the object's entity.
    init(objectID: NSManagedObjectID, version: Int64, values: PropertyValues) {
        self.objectID = objectID
        self.version = version
        self.values = values
    }

    /// Whether no other value shares this row's values: no object holds them as its snapshot or its
    /// current values, and no other copy of the row exists. `false` for a row with no values.
    @inline(__always)
    mutating func holdsValuesAlone() -> Bool {
        values.slots.holdsBufferAlone()
    }

    /// Starts loading the reference counts of the row's ID and values into the processor's caches, for
    /// a pass that retains or releases them soon after (see `ocd_prefetchForWriting`).
    @inline(__always)
    static func prefetch(_ row: UnsafePointer<StoreRow>) {
        ocd_prefetchForWriting(Unmanaged.passUnretained(row.pointee.objectID).toOpaque())
        row.pointee.values.slots.prefetchForCopy()
    }

    /// Removes and returns the last of `rows` (`nil` when there is none), having asked for the ID and
    /// values of the row some rows before it: for passes that take a large fetch's rows last first.
    @inline(__always)
    static func removeLast(prefetchingAheadIn rows: inout [StoreRow]) -> StoreRow? {
        guard !rows.isEmpty else { return nil }
        rows.withUnsafeBufferPointer { rows in
            let ahead = rows.count &- 1 &- ObjectPassPrefetch.distance
            if ahead >= 0 { prefetch(rows.baseAddress.unsafelyUnwrapped + ahead) }
        }
        return rows.removeLast()
    }

    /// A row with values given by name (property name → canonical value or destination ID).
    init(objectID: NSManagedObjectID, version: Int64, values: [String: Any]) {
        self.init(objectID: objectID, version: version, values: PropertyValues(entity: objectID.entity, values))
    }
}

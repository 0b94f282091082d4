import COpenCoreDataRuntime

/// One row of a store as the store last saw it: a snapshot of an object's stored values.
// @unchecked Sendable: no property is ever changed (`values` is a `var` only so that
// `holdsValuesAlone()` can take it in place); the values are immutable Foundation values (NSNumber,
// String, Date, Data, UUID, URL, NSDecimalNumber, NSManagedObjectID) that are never mutated.
struct StoreRow: @unchecked Sendable {
    /// The object the row stores: its ID, or, for a row a fetch read, its scope and primary key.
    let identity: ObjectIdentity
    /// The row's version, `Z_OPT`: 1 after insert, one more after each update.
    let version: Int64
    /// Attribute name → canonical value; to-one relationship name → destination `NSManagedObjectID`.
    /// A missing key means `nil`. To-many relationships are not included.
    private(set) var values: PropertyValues

    /// A row with the given values, kept in the layout of the object's entity.
    init(objectID: NSManagedObjectID, version: Int64, values: PropertyValues) {
        self.init(identity: .id(objectID), version: version, values: values)
    }

    /// A row of the object `identity` names.
    @inline(__always)
    init(identity: ObjectIdentity, version: Int64, values: PropertyValues) {
        self.identity = identity
        self.version = version
        self.values = values
    }

    /// The ID of the object the row stores. A row a fetch read makes a new one on each call: code on a
    /// fetch's path reads ``identity`` instead.
    var objectID: NSManagedObjectID {
        identity.objectID
    }

    /// The identity of the row at `row`, in place.
    @inline(__always)
    static func identity(of row: UnsafePointer<StoreRow>) -> UnsafePointer<ObjectIdentity> {
        UnsafeRawPointer(row).advanced(by: identityOffset).assumingMemoryBound(to: ObjectIdentity.self)
    }

    private static var identityOffset: Int {
        @inline(__always) get { MemoryLayout<StoreRow>.offset(of: \StoreRow.identity).unsafelyAssumedValue }
    }

    /// The entity of the object the row stores.
    var entity: NSEntityDescription {
        @inline(__always) get { identity.entity }
    }

    /// Whether no other value shares this row's values: no object holds them as its snapshot or its
    /// current values, and no other copy of the row exists. `false` for a row with no values.
    @inline(__always)
    mutating func holdsValuesAlone() -> Bool {
        values.slots.holdsBufferAlone()
    }

    /// Starts loading the reference counts of the row's ID (when it has one of its own) and values into
    /// the processor's caches, for a pass that retains or releases them soon after (see
    /// `ocd_prefetchForWriting`). A fetched row's scope is shared by its fetch's rows, and stays cached.
    @inline(__always)
    static func prefetch(_ row: UnsafePointer<StoreRow>) {
        if case .id(let id) = row.pointee.identity { PassPrefetch.forWriting(Unmanaged.passUnretained(id).toOpaque()) }
        row.pointee.values.slots.prefetchForCopy()
    }

    /// Removes and returns the last of `rows` (`nil` when there is none), having asked for the ID and
    /// values of the row some rows before it: for passes that take a large fetch's rows last first.
    @inline(__always)
    static func removeLast(prefetchingAheadIn rows: inout [StoreRow]) -> StoreRow? {
        guard !rows.isEmpty else { return nil }
        rows.withUnsafeBufferPointer { rows in
            let ahead = rows.count &- 1 &- PassPrefetch.distance
            if ahead >= 0 { prefetch(rows.baseAddress.unsafelyAssumedValue + ahead) }
        }
        return rows.removeLast()
    }

    /// A row with values given by name (property name → canonical value or destination ID).
    init(objectID: NSManagedObjectID, version: Int64, values: [String: Any]) {
        self.init(objectID: objectID, version: version, values: PropertyValues(entity: objectID.entity, values))
    }
}

/// A compact, universal identifier for a managed object.
///
/// An object ID names one object in one persistent store. A newly inserted object has a temporary ID
/// until its context saves it or obtains a permanent ID for it; ``isTemporaryID`` tells them apart.
/// Object IDs are immutable and safe to pass between threads and contexts: use
/// ``NSManagedObjectContext/object(with:)`` to get the object an ID names in another context, and
/// ``uriRepresentation()`` with ``NSPersistentStoreCoordinator/managedObjectID(forURIRepresentation:)``
/// to keep a reference across launches.
// @unchecked Sendable: every stored property is a `let` fixed at creation. `entity` belongs to a
// model that is immutable once in use by a coordinator; the store reference is itself Sendable.
public final class NSManagedObjectID: NSObject, NSCopying, @unchecked Sendable {
    /// The entity of the object the ID names.
    public let entity: NSEntityDescription
    /// The store and its identifier, shared by the store's IDs; `nil` for a temporary ID.
    let _storeReference: ObjectIDStoreReference?
    /// A permanent ID's primary key, or a temporary ID's identifier's first half.
    ///
    /// The key and the identifier share two words, told apart by `_storeReference` (every permanent ID
    /// has one, no temporary ID has): two optionals took five words with their tags, and an ID 80 bytes
    /// where it now takes 56 (a 64-byte heap block with the allocator's header, where it took 96).
    /// Fetches and saves make one or two IDs per row.
    private let _keyHigh: UInt64
    /// A temporary ID's identifier's second half; 0 for a permanent ID.
    private let _keyLow: UInt64
    /// The hash, computed once: IDs are dictionary keys of every registry and cache.
    private let _hash: Int

    /// The row's primary key (`Z_PK`) in its store; `nil` for a temporary ID.
    package var primaryKey: Int64? {
        @inline(__always) get { _storeReference == nil ? nil : Int64(bitPattern: _keyHigh) }
    }

    /// The unique part of a temporary ID; `nil` for a permanent ID.
    var temporaryIdentifier: TemporaryObjectIdentifier? {
        @inline(__always) get { _storeReference == nil ? TemporaryObjectIdentifier(high: _keyHigh, low: _keyLow) : nil }
    }

    /// Creates a temporary ID for a new object of `entity`.
    init(temporaryFor entity: NSEntityDescription) {
        self.entity = entity
        _storeReference = nil
        let identifier = TemporaryObjectIdentifiers.next()
        _keyHigh = identifier.high
        _keyLow = identifier.low
        // The identifier's halves, mixed: as unique as the identifier, without hashing its bytes.
        _hash = Int(truncatingIfNeeded: identifier.high ^ (identifier.low &* 0x9E37_79B9_7F4A_7C15))
        super.init()
    }

    /// Creates the permanent ID of the row with primary key `primaryKey` of `entity` in `store`.
    convenience init(entity: NSEntityDescription, store: NSPersistentStore, primaryKey: Int64) {
        self.init(entity: entity, store: store._objectIDReference, primaryKey: primaryKey)
    }

    /// Creates a permanent ID with the store's reference already read (fetches read it once for all
    /// their rows).
    convenience init(entity: NSEntityDescription, store: ObjectIDStoreReference, primaryKey: Int64) {
        self.init(
            entity: entity, store: store, primaryKey: primaryKey,
            hashBase: Self.hashBase(storeIdentifier: store.identifier, entity: entity))
    }

    /// Creates a permanent ID whose ``hashBase(storeIdentifier:entity:)`` the caller computed once for
    /// many IDs of one entity and store.
    init(entity: NSEntityDescription, store: ObjectIDStoreReference, primaryKey: Int64, hashBase: Int) {
        self.entity = entity
        _storeReference = store
        _keyHigh = UInt64(bitPattern: primaryKey)
        _keyLow = 0
        _hash = hashBase ^ Self.mixing(primaryKey)
        super.init()
    }

    /// A primary key's part of a permanent ID's hash: multiplicative mixing spreads consecutive keys
    /// (dictionaries hash the result again).
    @inline(__always)
    private static func mixing(_ primaryKey: Int64) -> Int {
        Int(truncatingIfNeeded: UInt64(bitPattern: primaryKey) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// For a permanent ID with key `primaryKey`: the part of its hash its store and entity give, the same
    /// for every ID of that entity in that store (see ``hashBase(storeIdentifier:entity:)``).
    @inline(__always)
    final func _permanentHashBase(primaryKey: Int64) -> Int {
        _hash ^ Self.mixing(primaryKey)
    }

    /// Whether IDs of the two entities name objects of one entity: the same description, or one of the
    /// same name (IDs made with two copies of a model compare equal).
    @inline(__always)
    static func sameEntity(_ lhs: NSEntityDescription, _ rhs: NSEntityDescription) -> Bool {
        lhs === rhs || lhs.name == rhs.name
    }

    /// The part of a permanent ID's hash that depends on its store and entity, not on its key.
    static func hashBase(storeIdentifier: String?, entity: NSEntityDescription) -> Int {
        var hasher = Hasher()
        hasher.combine(storeIdentifier)
        hasher.combine(entity.name)
        return hasher.finalize()
    }

    /// The persistent store that holds the object, or `nil` for a temporary ID (or when the store has
    /// been removed from its coordinator and released).
    public var persistentStore: NSPersistentStore? {
        _storeReference?.store
    }

    /// The identifier of the ID's store when the ID is permanent, kept so that equality never depends
    /// on the store still being there.
    var storeIdentifier: String? {
        _storeReference?.identifier
    }

    /// A Boolean value that indicates whether the ID is temporary: the object has not been saved yet and
    /// no permanent ID has been obtained for it.
    public var isTemporaryID: Bool {
        _storeReference == nil
    }

    /// A URI that names the object: `x-coredata://<store UUID>/<Entity>/p<primary key>` for a permanent
    /// ID, `x-coredata:///<Entity>/t<UUID>` for a temporary one.
    ///
    /// Pass the URI of a permanent ID to ``NSPersistentStoreCoordinator/managedObjectID(forURIRepresentation:)``
    /// to get the ID back, in this process or a later one.
    public func uriRepresentation() -> URL {
        let entityName = entity.name ?? ""
        var components = URLComponents()
        components.scheme = "x-coredata"
        if let temporaryIdentifier {
            components.host = ""
            components.path = "/\(entityName)/t\(temporaryIdentifier.uuid.uuidString)"
        } else {
            components.host = storeIdentifier ?? ""
            components.path = "/\(entityName)/p\(primaryKey ?? 0)"
        }
        if let url = components.url {
            return url
        }
        // Entity names are identifiers, so URLComponents always succeeds; this spelling is the same URI.
        let text =
            temporaryIdentifier.map { "x-coredata:///\(entityName)/t\($0.uuid.uuidString)" }
            ?? "x-coredata://\(storeIdentifier ?? "")/\(entityName)/p\(primaryKey ?? 0)"
        return URL(string: text) ?? URL(fileURLWithPath: "/")
    }

    /// Returns `true` when `object` is an ID naming the same object: the same temporary ID, or the same
    /// entity, store and primary key.
    public override func isEqual(_ object: Any?) -> Bool {
        // Dictionaries keyed by IDs call this for every probe, through `NSObject`'s `==`: read the other
        // operand in place instead of unwrapping and casting it (several hundred instructions).
        switch BoxedInstance.contents(of: object, orPutInAs: NSManagedObjectID.self) {
        case .none:
            return false
        case .object(let other):
            InternalChecks.check(
                object.map { ($0 as AnyObject) === Unmanaged<AnyObject>.fromOpaque(other).takeUnretainedValue() } ?? false,
                "an Any? read in place is not the object it holds")
            return Unmanaged<NSObject>.fromOpaque(other).withBorrowedReference { other in
                guard let other = other as? NSManagedObjectID else { return false }
                return _names(sameObjectAs: other)
            }
        case .other:
            guard let other = object as? NSManagedObjectID else { return false }
            return _names(sameObjectAs: other)
        }
    }

    /// ``isEqual(_:)`` for another ID: the hash first, then the temporary identifier or the entity, store
    /// and primary key.
    @inline(__always)
    final func _names(sameObjectAs other: NSManagedObjectID) -> Bool {
        if other === self { return true }
        if _hash != other._hash { return false }
        if let temporaryIdentifier {
            return temporaryIdentifier == other.temporaryIdentifier
        }
        return other.temporaryIdentifier == nil && primaryKey == other.primaryKey
            && ObjectIDStoreReference.sameIdentifier(_storeReference, other._storeReference)
            && Self.sameEntity(entity, other.entity)
    }

    /// A hash value consistent with ``isEqual(_:)``.
    public override var hash: Int {
        _hash
    }

    /// Returns the ID itself: object IDs are immutable.
    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// The ID's URI, as text.
    public override var description: String {
        "<NSManagedObjectID \(uriRepresentation().absoluteString)>"
    }
}

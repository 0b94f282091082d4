import Synchronization

/// A base class that implements the behavior a Core Data model object needs.
///
/// A managed object is an instance of an entity of a managed object model, registered with a managed
/// object context. Read and write its properties with Key-Value Coding (``value(forKey:)``,
/// ``setValue(_:forKey:)``) or, in a subclass, through properties declared with the `@Managed` macro.
/// The context tracks every change and writes it to the persistent store when it saves.
///
/// Managed objects are not thread-safe: use an object only on its context's queue, and pass its
/// ``objectID`` to other contexts.
open class NSManagedObject: NSObject, NSFetchRequestResult {
    // The mutable state below is marked `@exclusivity(unchecked)`: it is confined to the context's queue,
    // and every access is a short read or write of one property that calls none of our code able to reach
    // the same property again (the only user code reached during one, an overridden `objectID` or entity
    // accessor read while an event records a relationship's first value, reads the graph and does not
    // change it), so the compiler's static checks are the whole proof. The runtime's dynamic check (about
    // 130 instructions an access) was the largest part of a `@Managed` read and set. The whole suite runs
    // clean with the checks switched back on.

    /// The entity the object is an instance of.
    let _entity: NSEntityDescription
    /// Which of `NSManagedObject`'s hooks the object's class overrides.
    let _overrides: ManagedObjectOverrides
    // The flags below share `_overrides`'s word (stored properties are laid out in declaration order):
    // declared among the references, `_isFault` took a word of its own and the other four another.
    /// Whether the object's values have not been loaded yet.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _isFault = false
    /// Whether the object has been deleted in its context and not yet saved.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _isDeleted = false
    /// Whether `prepareForDeletion()` has run for the current deletion.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var preparedForDeletion = false
    /// Whether the object was inserted into its context and has not been saved yet.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var isNewlyInserted = false
    /// Whether the object was inserted into its context since the context last processed pending
    /// changes: its values at the last event are its entity's default values, not recorded one by one.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _insertedInCurrentEvent = false
    /// The object's ID once there is one, retained: `nil` while the ID of an object made for a fetched
    /// row has not been asked for (`_rowScope` and `_rowKey` name it until then).
    ///
    /// Atomic, because an object's ID may be asked for on any thread, as in Core Data: two threads
    /// asking first at once both make an ID, and the first one stored is the object's.
    private let _madeObjectID: Atomic<Unmanaged<NSManagedObjectID>?>
    /// For an object made for a fetched row: the scope the row named it by. Set before the object is
    /// handed out, never changed after.
    ///
    /// Spelled `Optional` so that it has no implicit initial value: the initializer sets it once, where
    /// giving it a new value would release the `nil` before it.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    private final var _rowScope: Optional<ObjectIDScope>
    /// For an object made for a fetched row: the row's primary key, set with `_rowScope`.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    private final var _rowKey: Int64
    /// The context the object is registered with, held without a reference count.
    ///
    /// A context always knows the objects that refer to it: registering an object sets the reference,
    /// every way an object leaves its context (reset, a saved delete, an undone insert, a merge that
    /// replaces it) clears it, and a context that goes away clears it in every object it still holds
    /// (`NSManagedObjectContext._disconnectObjects()`). So the reference never outlives the context, and
    /// reading it costs a load: a weak reference made every `@Managed` access go through the context's
    /// side table, and every retain of the context take the runtime's slow path.
    #if OCD_PLAIN_SWIFT || OCD_NO_UNRETAINED_CONTEXT
    /// With the technique off (``RuntimeTechniques/unretainedContext``): an ordinary weak reference.
    private weak var _contextWeakReference: NSManagedObjectContext?

    /// The context the object is registered with.
    var _context: NSManagedObjectContext? {
        @inline(__always) get { _contextWeakReference }
        @inline(__always) set { _contextWeakReference = newValue }
    }

    /// Calls `body` with the object's context, if it has one.
    @inline(__always)
    func _withContext(_ body: (NSManagedObjectContext) -> Void) {
        if let context = _contextWeakReference { body(context) }
    }

    /// Whether the object has a context and `body`, called with it, returns `true`.
    @inline(__always)
    func _contextAgrees(_ body: (NSManagedObjectContext) -> Bool) -> Bool {
        guard let context = _contextWeakReference else { return false }
        return body(context)
    }

    /// Whether the object's context (if it has one) checks that it is used on its queue or records
    /// changes for undo: a `@Managed` accessor then takes the general path, which does both.
    var _contextWatchesAccess: Bool {
        @inline(__always) get { _contextWeakReference?._watchesAccess ?? false }
    }

    /// Whether the object refers to the given context.
    @inline(__always)
    func _belongs(to context: NSManagedObjectContext) -> Bool {
        _contextWeakReference === context
    }
    #else
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    private var _contextReference: Unmanaged<NSManagedObjectContext>?
    #if OCD_INTERNAL_CHECKS
    /// A weak reference to the same context, which the internal-checks build compares every read of
    /// `_contextReference` with: the unretained reference must never outlive its context.
    private weak var _contextShadow: NSManagedObjectContext?

    /// Stops the program when the unretained reference names a context that is gone.
    private func _checkContextReference() {
        guard let reference = _contextReference else { return }
        InternalChecks.check(
            _contextShadow.map { Unmanaged.passUnretained($0).toOpaque() == reference.toOpaque() } ?? false,
            "an object of \(entity.name ?? "?") refers to a context that is gone")
    }
    #endif

    /// The context the object is registered with.
    var _context: NSManagedObjectContext? {
        @inline(__always) get {
            #if OCD_INTERNAL_CHECKS
            _checkContextReference()
            #endif
            return _contextReference?.takeUnretainedValue()
        }
        @inline(__always) set {
            _contextReference = newValue.map(Unmanaged.passUnretained)
            #if OCD_INTERNAL_CHECKS
            _contextShadow = newValue
            #endif
        }
    }

    /// Calls `body` with the object's context, if it has one, without retaining the context: the
    /// reference stays valid while the object holds it, and `body` must not release the context's last
    /// owner.
    @inline(__always)
    func _withContext(_ body: (NSManagedObjectContext) -> Void) {
        #if OCD_INTERNAL_CHECKS
        _checkContextReference()
        #endif
        _contextReference?.withBorrowedReference(body)
    }

    /// Whether the object has a context and `body`, called with it as `_withContext(_:)` calls it,
    /// returns `true`.
    @inline(__always)
    func _contextAgrees(_ body: (NSManagedObjectContext) -> Bool) -> Bool {
        #if OCD_INTERNAL_CHECKS
        _checkContextReference()
        #endif
        return _contextReference?.withBorrowedReference(body) ?? false
    }

    /// Whether the object's context (if it has one) checks that it is used on its queue or records
    /// changes for undo: a `@Managed` accessor then takes the general path, which does both.
    var _contextWatchesAccess: Bool {
        @inline(__always) get {
            #if OCD_INTERNAL_CHECKS
            _checkContextReference()
            #endif
            return _contextReference?.withBorrowedReference { $0._watchesAccess } ?? false
        }
    }

    /// Whether the object refers to the given context, without reading the context (which may be
    /// going away).
    @inline(__always)
    func _belongs(to context: NSManagedObjectContext) -> Bool {
        _contextReference?.toOpaque() == Unmanaged.passUnretained(context).toOpaque()
    }
    #endif

    /// Current values of persistent properties: attributes hold canonical values, to-one relationships
    /// hold the destination object. A missing key means `nil` (or, for a to-many relationship, that it
    /// has not been loaded yet: see `toMany`).
    ///
    /// Set by the initializer: a new object starts with its entity's default values, an object made
    /// for a row with none (its row brings them).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var storage: PropertyValues
    /// Loaded to-many relationships: name → destination objects (in order for ordered relationships).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var toMany = [String: [NSManagedObject]]()
    /// The values last read from or written to the store: attributes as canonical values, to-one
    /// relationships as destination object IDs. Empty for an object never saved.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var snapshot = PropertyValues.none
    /// The store's version (`Z_OPT`) of the row the snapshot came from; 0 for an object never saved.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var snapshotVersion: Int64 = 0
    /// For a fault a fetch made from its row: the row cache's generation when the fetch read the row
    /// into `snapshot`, so the fault fires from it while the cache has not changed since. 0 otherwise.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _rowGeneration: UInt64 = 0
    /// Names of persistent properties changed since the last save (or fetch).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var changedKeys = ChangedKeys()
    /// Values as they were at the last `processPendingChanges()`, for properties changed since then.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var valuesAtLastEvent = EventStartValues()
    /// Results of fetched properties read since the object was last refreshed, by property name.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var fetchedPropertyValues = [String: [Any]]()
    /// Set only on the probes that name Swift key paths (`ManagedKeyPathNaming`): reading a property
    /// through ``managedValue(forKey:)`` records its key there instead of reading a value.
    ///
    /// Kept by the probe's entity, which is made for the probe alone: every other object would carry
    /// the word for nothing.
    final var keyPathRecorder: ManagedKeyPathRecorder? {
        @inline(__always) get { _entity._keyPathRecorder }
    }

    /// Initializes a managed object of the given entity and, when a context is given, inserts it into
    /// that context.
    ///
    /// The class of the object must be the entity's managed object class or a superclass of it. An
    /// abstract entity has no instances of its own: passing one stops the program, naming the entity.
    public required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        _overrides = ManagedObjectOverrides.of(Self.self)
        if let identity = FetchedObjectConstruction.takeIdentity(for: entity, of: Self.self) {
            // An object a context creates for a row: its values come from the row. The identity is read
            // where the row keeps it: a copy of it would be retained and released once more.
            switch identity.pointee {
            case .id(let id):
                _madeObjectID = Atomic(.passRetained(id))
                _rowScope = nil
                _rowKey = 0
            case .row(let scope, let primaryKey):
                _madeObjectID = Atomic(nil)
                _rowScope = scope
                _rowKey = primaryKey
            }
            storage = .none
        } else {
            // Only new objects: the stores hold no rows of abstract entities (a store refuses one as
            // damage), and an object for a row is not created by the app's code.
            entity._requireInstantiable()
            _madeObjectID = Atomic(.passRetained(NSManagedObjectID(temporaryFor: entity)))
            _rowScope = nil
            _rowKey = 0
            storage = EntityDefaultValues.values(for: entity)
        }
        // The entity's last use: the object takes the caller's reference instead of a copy of it.
        _entity = entity
        super.init()
        if let context {
            context.insert(self)
        }
    }

    deinit {
        _madeObjectID.load(ordering: .relaxed)?.release()
    }

    /// The object's current ID: temporary until the object is saved or obtains a permanent ID. An object
    /// made for a fetched row makes its ID on the first read.
    final var _objectID: NSManagedObjectID {
        @inline(__always) get {
            if let id = _madeObjectID.load(ordering: .acquiring) { return id.takeUnretainedValue() }
            return _makeObjectID()
        }
        set {
            _madeObjectID.exchange(.passRetained(newValue), ordering: .acquiringAndReleasing)?.release()
        }
    }

    /// Makes and keeps the ID of an object made for a fetched row.
    @inline(never)
    private final func _makeObjectID() -> NSManagedObjectID {
        let made = Unmanaged.passRetained(_rowScope.unsafelyAssumedValue.objectID(primaryKey: _rowKey))
        let (stored, current) = _madeObjectID.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing)
        if stored { return made.takeUnretainedValue() }
        made.release()
        return current.unsafelyAssumedValue.takeUnretainedValue()
    }

    /// The object's identity, without making an ID: the ID when there is one, the fetched row's scope
    /// and primary key otherwise.
    final var _identity: ObjectIdentity {
        @inline(__always) get {
            if let id = _madeObjectID.load(ordering: .acquiring) { return .id(id.takeUnretainedValue()) }
            return .row(_rowScope.unsafelyAssumedValue, primaryKey: _rowKey)
        }
    }

    /// The object's ID if it has been made, without making it.
    final var _objectIDIfMade: NSManagedObjectID? {
        @inline(__always) get { _madeObjectID.load(ordering: .acquiring)?.takeUnretainedValue() }
    }

    /// The object's identity when its ID is permanent (an ID not yet made is), without making an ID;
    /// `nil` for a temporary ID.
    final var _permanentIdentity: ObjectIdentity? {
        @inline(__always) get {
            guard let id = _madeObjectID.load(ordering: .acquiring) else {
                return .row(_rowScope.unsafelyAssumedValue, primaryKey: _rowKey)
            }
            return id.withBorrowedReference(\.isTemporaryID) ? nil : .id(id.takeUnretainedValue())
        }
    }

    /// Gives an object made for a row the row's identity (see `FetchedObjectConstruction`), before the
    /// object is handed out.
    final func _setRowIdentity(_ identity: ObjectIdentity) {
        switch identity {
        case .id(let id):
            _objectID = id
        case .row(let scope, let primaryKey):
            _rowScope = scope
            _rowKey = primaryKey
            _madeObjectID.exchange(nil, ordering: .acquiringAndReleasing)?.release()
        }
    }

    /// Names a Swift key path to properties declared with `@Managed` (`\Item.timestamp` → `"timestamp"`,
    /// `\Post.author?.name` → `"author.name"`), so `NSSortDescriptor(keyPath:ascending:)` and
    /// `NSExpression(forKeyPath:)` work with subclasses as on Apple platforms. Returns `nil` for key paths
    /// that read no managed property.
    open class func kvcKeyPathString(for keyPath: AnyKeyPath) -> String? {
        ManagedKeyPathNaming.name(of: keyPath)
    }

    /// Returns whether `object` is this very object: managed objects are equal only to themselves, as
    /// in Core Data, whose subclasses must not override this method.
    open override func isEqual(_ object: Any?) -> Bool {
        let address = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        // Sets and dictionaries of objects call this on every probe, through `NSObject`'s `==`: read the
        // other operand in place instead of unwrapping or casting it (hundreds of instructions).
        switch BoxedInstance.contents(of: object, orPutInAs: type(of: self)) {
        case .none:
            return false
        case .object(let other):
            InternalChecks.check(
                (other == address) == (object.map { ($0 as AnyObject) === self } ?? false),
                "an Any? read in place gave another answer than unwrapping it")
            return other == address
        case .other:
            guard let object else { return false }
            return (object as AnyObject) === self
        }
    }

    /// A hash value consistent with ``isEqual(_:)``: the object's address.
    open override var hash: Int {
        Int(bitPattern: UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()))
    }

    /// The entity of the object.
    open var entity: NSEntityDescription {
        _entity
    }

    /// The object's ID. It changes from a temporary to a permanent ID when the object is first saved
    /// or when a permanent ID is obtained for it.
    open var objectID: NSManagedObjectID {
        _objectID
    }

    /// The context the object is registered with, or `nil` when it has been removed from its context
    /// (or was never inserted).
    open var managedObjectContext: NSManagedObjectContext? {
        _context
    }

    // MARK: Overridable methods. Swift on Linux cannot override methods declared in extensions, so every
    // method a subclass may override is declared here and implemented in the extension it belongs to.

    /// Called once, when the object is first inserted into a context. Override it to set initial values;
    /// call `super`.
    open func awakeFromInsert() {}

    /// Called when the object's values are loaded from the store (a fetch or a fired fault). Override it
    /// to compute derived state; call `super`.
    open func awakeFromFetch() {}

    /// Called when the object's values are set again from a snapshot — undo or redo, rollback, a refresh that merges changes, a merge policy — named by `flags` (see ObjectGraph/Objects/SnapshotEvents.swift). Override it to recompute derived or transient state; call `super`.
    open func awake(fromSnapshotEvents flags: NSSnapshotEventType) {}

    /// Called when the object is about to be saved. Override it to compute values just before saving.
    open func willSave() {}

    /// Called after the object's changes were saved.
    open func didSave() {}

    /// Called when the object is about to be deleted, before the delete is saved.
    open func prepareForDeletion() {}

    /// Called before the object turns into a fault and loses its values.
    open func willTurnIntoFault() {}

    /// Called after the object has turned into a fault.
    open func didTurnIntoFault() {}

    /// Returns the value of the property with the given name: an attribute's value, a to-one
    /// relationship's destination object, or a to-many relationship's objects as an `NSSet` (an
    /// `NSOrderedSet` for an ordered relationship). Reading a fault loads its values first.
    ///
    /// An unknown key stops the program, naming the entity and the key.
    open func value(forKey key: String) -> Any? {
        _value(forKey: key)
    }

    /// Sets the value of the property with the given name and records the change in the context.
    ///
    /// A value of the wrong type, or an unknown key, stops the program naming the entity, the key and
    /// the value.
    open func setValue(_ value: Any?, forKey key: String) {
        _setValue(value, forKey: key)
    }

    /// Returns the value of a property without invoking `value(forKey:)` overrides or access notifications.
    open func primitiveValue(forKey key: String) -> Any? {
        _primitiveValue(forKey: key)
    }

    /// Sets the value of a property without invoking `setValue(_:forKey:)` overrides or change
    /// notifications; the context still records the change.
    open func setPrimitiveValue(_ value: Any?, forKey key: String) {
        _setPrimitiveValue(value, forKey: key)
    }

    /// Tells the object that the value of a property is about to be read; loads the values of a fault.
    open func willAccessValue(forKey key: String?) {
        _fireFaultIfNeeded()
    }

    /// Tells the object that the value of a property has been read.
    open func didAccessValue(forKey key: String?) {}

    /// Tells the object that the value of a property is about to change; loads the values of a fault.
    open func willChangeValue(forKey key: String) {
        _fireFaultIfNeeded()
    }

    /// Tells the object that the value of a property has changed.
    open func didChangeValue(forKey key: String) {}

    /// Tells the object that a set-valued property is about to change by a mutation of a given kind with
    /// the given objects. It announces the change as ``willChangeValue(forKey:)`` does.
    open func willChangeValue(
        forKey inKey: String, withSetMutation inMutationKind: NSKeyValueSetMutationKind,
        using inObjects: Set<AnyHashable>
    ) {
        willChangeValue(forKey: inKey)
    }

    /// Tells the object that a set-valued property changed by a mutation of a given kind with the given
    /// objects. It announces the change as ``didChangeValue(forKey:)`` does.
    open func didChangeValue(
        forKey inKey: String, withSetMutation inMutationKind: NSKeyValueSetMutationKind,
        using inObjects: Set<AnyHashable>
    ) {
        didChangeValue(forKey: inKey)
    }

    /// Whether the object's context ignores changes to properties the model does not describe when it
    /// tracks changes (`true`, Core Data's default); subclasses may override it.
    open class var contextShouldIgnoreUnmodeledPropertyChanges: Bool {
        true
    }

    /// Checks the object's values before it is first saved; throws the validation error (or
    /// `NSValidationMultipleErrorsError` carrying every error under `NSDetailedErrorsKey`).
    ///
    /// Calls ``validateValue(_:forKey:)`` for every property: values for non-optional properties
    /// (`NSValidationMissingMandatoryPropertyError`), attribute types (`NSManagedObjectValidationError`),
    /// to-many counts, minimums, maximums, patterns and validation predicates, and the per-key methods
    /// registered with `registerValidation(forKey:_:)`. Override it to add checks; call `super`.
    open func validateForInsert() throws {
        try _validateValues()
    }

    /// Checks the object's values before its changes are saved; the same checks as `validateForInsert()`.
    open func validateForUpdate() throws {
        try _validateValues()
    }

    /// Checks that the object may be deleted: a relationship with the deny delete rule must be empty
    /// (`NSValidationRelationshipDeniedDeleteError`).
    open func validateForDelete() throws {
        try _validateDelete()
    }

    /// Checks a value for the property named `key`: the model's rules (optionality, type, minimum and
    /// maximum, validation predicates) and then the methods registered with `registerValidation(forKey:_:)`.
    /// Throws the error of the first failed check; a check may replace the value through the pointer.
    /// Override it to add checks (call `super`); the save's validation calls it for every property.
    open func validateValue(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        try _validateValue(value, forKey: key)
    }

    /// Returns the entity description of the class: the entity of the models in use whose managed object
    /// class is this class.
    ///
    /// Stops the program when no model in use has such an entity (the class must be named by an
    /// entity's `managedObjectClassName` in a model a coordinator uses).
    open class func entity() -> NSEntityDescription {
        ManagedObjectClasses.entity(for: self)
    }

    /// Returns a fetch request for the entity of the class.
    open class func fetchRequest() -> NSFetchRequest<NSFetchRequestResult> {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = entity()
        return request
    }
}

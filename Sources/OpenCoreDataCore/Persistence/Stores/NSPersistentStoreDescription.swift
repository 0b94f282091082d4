/// A description of a persistent store to add to a coordinator: its type, location, configuration and
/// options. ``NSPersistentContainer`` adds the stores its descriptions describe.
///
/// The settings (read-only, timeout, pragmas, migration) are kept in ``options`` under Core Data's
/// option keys, so ``options`` is exactly what the coordinator receives.
open class NSPersistentStoreDescription: NSObject, NSCopying {
    private var _options: [String: NSObject] = [:]

    /// The type of store; ``NSSQLiteStoreType`` unless set.
    open var type: String = NSSQLiteStoreType
    /// The name of the model configuration whose entities the store holds; `nil` for every entity.
    open var configuration: String?
    /// The location of the store.
    open var url: URL?
    /// A Boolean value that indicates whether the store is added on a background queue, the completion
    /// handler running there; `false` unless set.
    open var shouldAddStoreAsynchronously = false

    /// Creates a description of a SQLite store with no location, migrating and inferring mapping models
    /// automatically.
    public override init() {
        super.init()
        _options[NSMigratePersistentStoresAutomaticallyOption] = NSNumber(value: true)
        _options[NSInferMappingModelAutomaticallyOption] = NSNumber(value: true)
    }

    /// Creates a description of a SQLite store at a location.
    public convenience init(url: URL) {
        self.init()
        self.url = url
    }

    /// The options passed when the store is added.
    open var options: [String: NSObject] {
        _options
    }

    /// Sets an option; `nil` removes it.
    open func setOption(_ option: NSObject?, forKey key: String) {
        _options[key] = option
    }

    /// A Boolean value that indicates whether the store is opened read-only; `false` unless set.
    open var isReadOnly: Bool {
        get { PersistentStoreOptions.bool(_options[NSReadOnlyPersistentStoreOption]) ?? false }
        set { _options[NSReadOnlyPersistentStoreOption] = NSNumber(value: newValue) }
    }

    /// How long, in seconds, to wait for a locked store file; 240 unless set.
    open var timeout: TimeInterval {
        get { PersistentStoreOptions.double(_options[NSPersistentStoreTimeoutOption]) ?? 240 }
        set { _options[NSPersistentStoreTimeoutOption] = NSNumber(value: newValue) }
    }

    /// The SQLite pragmas set when the store opens, by name.
    open var sqlitePragmas: [String: NSObject] {
        guard let pragmas = _options[NSSQLitePragmasOption] else { return [:] }
        if let dictionary = pragmas as? [String: NSObject] { return dictionary }
        if let dictionary = pragmas as? NSDictionary {
            var result: [String: NSObject] = [:]
            for (key, value) in dictionary {
                if let key = key as? String, let value = value as? NSObject { result[key] = value }
            }
            return result
        }
        return [:]
    }

    /// Sets a SQLite pragma applied when the store opens; `nil` removes it.
    open func setValue(_ value: NSObject?, forPragmaNamed name: String) {
        var pragmas = sqlitePragmas
        pragmas[name] = value
        _options[NSSQLitePragmasOption] = pragmas as NSDictionary
    }

    /// A Boolean value that indicates whether a store written for an earlier model is migrated when
    /// added; `true` unless set.
    open var shouldMigrateStoreAutomatically: Bool {
        get { PersistentStoreOptions.bool(_options[NSMigratePersistentStoresAutomaticallyOption]) ?? false }
        set { _options[NSMigratePersistentStoresAutomaticallyOption] = NSNumber(value: newValue) }
    }

    /// A Boolean value that indicates whether a mapping model is inferred when migrating; `true` unless
    /// set.
    open var shouldInferMappingModelAutomatically: Bool {
        get { PersistentStoreOptions.bool(_options[NSInferMappingModelAutomaticallyOption]) ?? false }
        set { _options[NSInferMappingModelAutomaticallyOption] = NSNumber(value: newValue) }
    }

    /// The options as the coordinator receives them.
    var _effectiveOptions: [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for (key, value) in _options { result[key] = value }
        return result
    }

    /// Returns a copy of the description.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSPersistentStoreDescription()
        copy.type = type
        copy.configuration = configuration
        copy.url = url
        copy.shouldAddStoreAsynchronously = shouldAddStoreAsynchronously
        copy._options = _options
        return copy
    }

    /// The description's type, location and options, for debugging.
    open override var description: String {
        "<NSPersistentStoreDescription> (type: \(type), url: \(url?.absoluteString ?? "nil"))"
    }
}

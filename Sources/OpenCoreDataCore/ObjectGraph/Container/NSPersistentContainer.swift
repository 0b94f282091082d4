/// A container that sets up a Core Data stack: a managed object model, a persistent store coordinator,
/// its stores and a main-queue view context.
///
/// Create a container with the name of a model, set ``persistentStoreDescriptions`` if the default
/// store (a SQLite file named after the container in ``defaultDirectoryURL()``) doesn't suit, then call
/// ``loadPersistentStores(completionHandler:)`` before using ``viewContext`` or background contexts.
// @unchecked Sendable: the view context is created once under `_lock`; the descriptions are guarded by
// `_lock`; the name, model and coordinator are fixed at creation.
open class NSPersistentContainer: NSObject, @unchecked Sendable {
    private let _lock = NSLock()
    private let _name: String
    private let _model: NSManagedObjectModel
    private let _coordinator: NSPersistentStoreCoordinator
    /// Why the model named by `init(name:)` could not be loaded; reported by `loadPersistentStores`.
    private let _modelLoadError: NSError?
    private var _descriptions: [NSPersistentStoreDescription]
    private var _viewContext: NSManagedObjectContext?

    /// Creates a container for the model named `name`: the `<name>.xcdatamodeld` (or `<name>.xcdatamodel`,
    /// or the compiled `<name>.momd` or `<name>.mom`) found in the main bundle's resources, another loaded
    /// bundle's resources, or the working directory.
    ///
    /// When no model is found, or it cannot be read, the container has an empty model and
    /// ``loadPersistentStores(completionHandler:)`` reports the error for each store description.
    public convenience init(name: String) {
        var loadError: NSError?
        let model: NSManagedObjectModel
        if let url = Self._modelURL(named: name) {
            do {
                model = try NSManagedObjectModel.load(from: url)
            } catch {
                model = NSManagedObjectModel()
                loadError = error as NSError
            }
        } else {
            model = NSManagedObjectModel()
            loadError = NSError(
                domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "No model named \(name) was found: looked for \(name).xcdatamodeld, \(name).xcdatamodel, \(name).momd and \(name).mom in the main bundle's resources, the loaded bundles and the working directory \(FileManager.default.currentDirectoryPath)."
                ])
        }
        self.init(name: name, managedObjectModel: model, modelLoadError: loadError)
    }

    /// Creates a container with a name and a managed object model.
    public convenience init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.init(name: name, managedObjectModel: model, modelLoadError: nil)
    }

    private init(name: String, managedObjectModel model: NSManagedObjectModel, modelLoadError: NSError?) {
        _name = name
        _model = model
        _modelLoadError = modelLoadError
        _coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        _descriptions = [NSPersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite"))]
        super.init()
    }

    /// The directory where the default store is kept.
    ///
    /// On Linux this is the user's data directory (`$XDG_DATA_HOME`, normally `~/.local/share`, which
    /// Foundation reports as the Application Support directory) followed by the process name, so each
    /// program keeps its stores apart. The directory is created when the first store is added.
    open class func defaultDirectoryURL() -> URL {
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
        return base.appendingPathComponent(ProcessInfo.processInfo.processName, isDirectory: true)
    }

    /// The container's name, which names the model and the default store file.
    open var name: String {
        _name
    }

    /// The container's managed object model.
    open var managedObjectModel: NSManagedObjectModel {
        _model
    }

    /// The container's persistent store coordinator.
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator {
        _coordinator
    }

    /// The descriptions of the stores ``loadPersistentStores(completionHandler:)`` adds; one SQLite store
    /// at `defaultDirectoryURL()/<name>.sqlite` unless set.
    open var persistentStoreDescriptions: [NSPersistentStoreDescription] {
        get { _lock.withLock { _descriptions } }
        set { _lock.withLock { _descriptions = newValue } }
    }

    /// The main-queue context of the container, connected to its coordinator. Use it on the main queue.
    open var viewContext: NSManagedObjectContext {
        _lock.withLock {
            if let context = _viewContext { return context }
            let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
            context.persistentStoreCoordinator = _coordinator
            _viewContext = context
            return context
        }
    }

    /// Adds the stores of ``persistentStoreDescriptions`` to the coordinator, calling `block` once per
    /// description with the error, if any. Descriptions that ask for asynchronous addition call `block`
    /// on a background queue.
    open func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) {
        for description in persistentStoreDescriptions {
            if let _modelLoadError {
                block(description, _modelLoadError)
                continue
            }
            _coordinator.addPersistentStore(with: description, completionHandler: block)
        }
    }

    /// Returns a new private-queue context connected to the coordinator.
    open func newBackgroundContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = _coordinator
        return context
    }

    /// Runs a block on a new private-queue context, on that context's queue.
    open func performBackgroundTask(_ block: @escaping (NSManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs a block on a new private-queue context and returns its value; the caller suspends until it
    /// finishes.
    public func performBackgroundTask<T>(_ block: @escaping (NSManagedObjectContext) throws -> T) async rethrows -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }

    /// The model file named `name` in the places ``init(name:)`` searches.
    static func _modelURL(named name: String) -> URL? {
        var directories: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles + Bundle.allFrameworks {
            if let resources = bundle.resourceURL { directories.append(resources) }
            directories.append(bundle.bundleURL)
        }
        directories.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        for directory in directories {
            for suffix in ["xcdatamodeld", "xcdatamodel", "momd", "mom"] {
                let candidate = directory.appendingPathComponent("\(name).\(suffix)")
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }
}

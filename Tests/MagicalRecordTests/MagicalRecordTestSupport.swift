import MagicalRecord
import Testing

/// Every MagicalRecord test: one suite, run one test at a time on the main actor, because MagicalRecord
/// keeps one stack per process. The suites of the other files extend it.
@Suite(.serialized)
@MainActor
struct MagicalRecordTests {}

/// The second seed's employee, in the test bundle's `Staff` model.
final class Employee: NSManagedObject {
    @Managed var name: String?
    @Managed var brithday: Date?
    @Managed var height: Double
    @Managed var employeeID: Int64
    @Managed var hiredOn: Date?
    @Managed var isManager: Bool
    @Managed var department: Department?
}

/// A department of the `Staff` model, matched on import by its `code` (`relatedByAttribute`).
final class Department: NSManagedObject {
    @Managed var name: String?
    @Managed var code: String?
    @Managed var employees: Set<Employee>
}

/// The folder every temporary file of the test process goes in, removed when the process exits.
enum Scratch {
    /// `MagicalRecordTests-<process ID>` in the system's temporary folder, made on first use.
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("MagicalRecordTests-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.root) }
        return url
    }()

    /// A fresh directory inside ``root``.
    static func directory() throws -> URL {
        let url = root.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Setting up and tearing down stacks on SQLite files in temporary folders.
@MainActor
enum StaffStack {
    /// The test bundle's `Staff.xcdatamodeld`.
    static var bundleURL: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Staff.xcdatamodeld", isDirectory: true)
    }

    /// The first version of the `Staff` model (only `Employee`, without `employeeID`).
    static func firstVersion() throws -> NSManagedObjectModel {
        try NSManagedObjectModel.load(from: bundleURL.appendingPathComponent("Staff.xcdatamodel", isDirectory: true))
    }

    /// Sets up a stack with the `Staff` model on a new SQLite file, and returns the file's URL.
    @discardableResult
    static func setUp(autoMigrating: Bool = false) throws -> URL {
        let url = try Scratch.directory().appendingPathComponent("Staff.sqlite")
        // Saves log at the info level; keep the test output to what goes wrong.
        MagicalRecord.setLoggingLevel(.warn)
        MagicalRecord.setDefaultModelNamed("Staff")
        if autoMigrating {
            MagicalRecord.setupCoreDataStackWithAutoMigratingSqliteStore(at: url)
        } else {
            MagicalRecord.setupCoreDataStackWithStore(at: url)
        }
        return url
    }

    /// Tears the stack down and removes the store's folder.
    static func tearDown(_ url: URL?) {
        MagicalRecord.cleanUp()
        #if DEBUG
        MagicalRecord.setLoggingLevel(.debug)
        #else
        MagicalRecord.setLoggingLevel(.error)
        #endif
        if let url { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    }

    /// Writes a store of `model` at `url` holding one `Employee` per name.
    static func writeStore(at url: URL, model: NSManagedObjectModel, names: [String]) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for name in names {
                NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context).setValue(name, forKey: "name")
            }
            try context.save()
        }
        try coordinator.remove(store)
    }

    /// The names of the employees in the store at `url`, read with a coordinator of its own.
    static func namesInStore(at url: URL) throws -> [String] {
        let model = try #require(NSManagedObjectModel.mr_managedObjectModelNamed("Staff"))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        defer { try? coordinator.remove(store) }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Employee")).compactMap { $0.value(forKey: "name") as? String }.sorted()
        }
    }

    /// Creates employees in the default context and saves them to the store.
    static func insertEmployees(_ rows: [(name: String, height: Double)]) {
        let context = NSManagedObjectContext.mr_default()
        for (index, row) in rows.enumerated() {
            let employee = Employee.mr_createEntity(in: context)!
            employee.name = row.name
            employee.height = row.height
            employee.employeeID = Int64(index + 1)
        }
        context.mr_saveToPersistentStoreAndWait()
    }
}

/// Waits for a MagicalRecord completion block, which runs on the main queue.
@MainActor
func awaitCompletion(_ start: (@escaping MRSaveCompletionHandler) -> Void) async -> (Bool, NSError?) {
    await withCheckedContinuation { continuation in
        start { saved, error in continuation.resume(returning: (saved, error)) }
    }
}

/// Collects the names of the notifications posted under `names` while it lives.
// @unchecked Sendable: `posted` is read and written only with `lock` held; `tokens` is set in `init` only.
final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var posted: [String] = []
    private var tokens: [any NSObjectProtocol] = []

    init(_ names: [String]) {
        for name in names {
            tokens.append(
                NotificationCenter.default.addObserver(forName: NSNotification.Name(name), object: nil, queue: nil) { [weak self] _ in
                    guard let self else { return }
                    self.lock.withLock { self.posted.append(name) }
                })
        }
    }

    var names: [String] { lock.withLock { posted } }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}

import OpenCoreData
import Testing

/// A migration manager subclass that records the calls it sees, as apps subclass Apple's to log or
/// adjust a migration.
final class AuditingMigrationManager: NSMigrationManager {
    var calls: [String] = []
    var associations = 0

    override var sourceModel: NSManagedObjectModel {
        super.sourceModel
    }

    override func migrateStore(
        from sourceURL: URL, sourceType sStoreType: String, options sOptions: [AnyHashable: Any]? = nil,
        with mappings: NSMappingModel?, toDestinationURL dURL: URL, destinationType dStoreType: String,
        destinationOptions dOptions: [AnyHashable: Any]? = nil
    ) throws {
        calls.append("migrateStore(from:sourceType:)")
        try super.migrateStore(
            from: sourceURL, sourceType: sStoreType, options: sOptions, with: mappings,
            toDestinationURL: dURL, destinationType: dStoreType, destinationOptions: dOptions)
    }

    override func migrateStore(
        from sourceURL: URL, type sourceType: NSPersistentStore.StoreType,
        options sourceOptions: [AnyHashable: Any]? = nil, mapping: NSMappingModel,
        to destinationURL: URL, type destinationType: NSPersistentStore.StoreType,
        options destinationOptions: [AnyHashable: Any]? = nil
    ) throws {
        calls.append("migrateStore(from:type:)")
        try super.migrateStore(
            from: sourceURL, type: sourceType, options: sourceOptions, mapping: mapping,
            to: destinationURL, type: destinationType, options: destinationOptions)
    }

    override func associate(
        sourceInstance: NSManagedObject, withDestinationInstance destinationInstance: NSManagedObject,
        for entityMapping: NSEntityMapping
    ) {
        associations += 1
        super.associate(sourceInstance: sourceInstance, withDestinationInstance: destinationInstance, for: entityMapping)
    }

    override func cancelMigrationWithError(_ error: any Error) {
        calls.append("cancelMigrationWithError")
        super.cancelMigrationWithError(error)
    }

    override func reset() {
        calls.append("reset")
        super.reset()
    }
}

/// Carries a value to another thread; the tests hand it over before the thread starts and read it
/// back only after waiting on a semaphore the thread signals, so no two threads use it at once.
final class ThreadHandOff<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Holds the migration at its first source instance until the test lets it go on.
final class GatedPolicy: NSEntityMigrationPolicy {
    static let reachedFirstInstance = DispatchSemaphore(value: 0)
    static let mayContinue = DispatchSemaphore(value: 0)

    override func createDestinationInstances(
        forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        if manager.destinationInstances(forEntityMappingName: mapping.name ?? "", sourceInstances: nil).isEmpty {
            Self.reachedFirstInstance.signal()
            _ = Self.mayContinue.wait(timeout: .now() + 30)
        }
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }
}

/// `NSMigrationManager` is open for subclassing as Apple's is, and a migration can be cancelled from
/// another thread while it runs.
@Suite("Migration manager subclassing and cancelling", .serialized)
struct MigrationManagerSubclassingTests {
    @Test("a subclass overrides both migrateStore spellings, associate, reset and cancelMigrationWithError")
    func subclass() throws {
        let directory = TemporaryDirectory()
        let source = try ManagerKit.makeSource(in: directory.url)
        let destination = directory.file("Out.sqlite")
        let manager = AuditingMigrationManager(sourceModel: MigrationKit.libraryV1(), destinationModel: ManagerKit.libraryV2())
        try manager.migrateStore(from: source, type: .sqlite, mapping: ManagerKit.mapping(), to: destination, type: .sqlite)
        #expect(manager.calls == ["migrateStore(from:type:)", "migrateStore(from:sourceType:)", "reset"])
        #expect(manager.associations == 9)
        #expect(manager.sourceModel.entitiesByName["Person"] != nil)
        let context = try ManagerKit.open(destination, ManagerKit.libraryV2())
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 6)

        manager.cancelMigrationWithError(NSError(domain: "Subclass", code: 1))
        #expect(manager.calls.last == "cancelMigrationWithError")
    }

    @Test("cancelMigrationWithError called from another thread while the migration runs ends it with that error")
    func cancelFromAnotherThread() throws {
        let directory = TemporaryDirectory()
        let source = try ManagerKit.makeSource(in: directory.url)
        let destination = directory.file("Out.sqlite")
        NSEntityMigrationPolicy.register(GatedPolicy.self)
        let manager = ThreadHandOff(NSMigrationManager(sourceModel: MigrationKit.libraryV1(), destinationModel: ManagerKit.libraryV2()))
        let outcome = ThreadHandOff<(any Error)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let mapping = ThreadHandOff(ManagerKit.mapping(bookPolicy: "GatedPolicy"))
        let migration = Thread {
            do {
                try manager.value.migrateStore(from: source, type: .sqlite, mapping: mapping.value, to: destination, type: .sqlite)
            } catch {
                outcome.value = error
            }
            finished.signal()
        }
        migration.start()
        #expect(GatedPolicy.reachedFirstInstance.wait(timeout: .now() + 30) == .success)
        let canceller = Thread {
            manager.value.cancelMigrationWithError(NSError(domain: "MigrationCancel", code: 7))
            GatedPolicy.mayContinue.signal()
        }
        canceller.start()
        #expect(finished.wait(timeout: .now() + 60) == .success)
        let error = try #require(outcome.value as NSError?)
        #expect(error.domain == "MigrationCancel")
        #expect(error.code == 7)
        // The migration is over: no migration is taking place, so the progress reads 1.
        #expect(manager.value.migrationProgress == 1)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test("cancellations racing a running migration end it with the error or come too late; never a half-written store")
    func cancellationRace() throws {
        let directory = TemporaryDirectory()
        let source = try ManagerKit.makeSource(in: directory.url)
        var outcomes: [String: Int] = [:]
        for run in 0..<12 {
            let destination = directory.file("Out\(run).sqlite")
            let manager = ThreadHandOff(NSMigrationManager(sourceModel: MigrationKit.libraryV1(), destinationModel: ManagerKit.libraryV2()))
            let outcome = ThreadHandOff<(any Error)?>(nil)
            let finished = DispatchSemaphore(value: 0)
            let cancelled = DispatchSemaphore(value: 0)
            let mapping = ThreadHandOff(ManagerKit.mapping())
            let progressSeen = ThreadHandOff<Float>(0)
            Thread {
                do {
                    try manager.value.migrateStore(from: source, type: .sqlite, mapping: mapping.value, to: destination, type: .sqlite)
                } catch {
                    outcome.value = error
                }
                finished.signal()
            }.start()
            let delay = Double(run % 4) * 0.002
            Thread {
                Thread.sleep(forTimeInterval: delay)
                progressSeen.value = manager.value.migrationProgress
                manager.value.cancelMigrationWithError(NSError(domain: "MigrationCancel", code: run))
                cancelled.signal()
            }.start()
            #expect(finished.wait(timeout: .now() + 60) == .success)
            #expect(cancelled.wait(timeout: .now() + 60) == .success)
            #expect((0...1).contains(progressSeen.value))
            if let error = outcome.value as NSError? {
                #expect(error.domain == "MigrationCancel" && error.code == run)
                #expect(!FileManager.default.fileExists(atPath: destination.path))
                outcomes["cancelled", default: 0] += 1
            } else {
                let context = try ManagerKit.open(destination, ManagerKit.libraryV2())
                #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 6)
                outcomes["finished", default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == 12)
    }
}

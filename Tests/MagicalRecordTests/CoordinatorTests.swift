import MagicalRecord
import Testing

extension MagicalRecordTests {
    /// `NSPersistentStoreCoordinator`'s and `NSPersistentStore`'s MagicalRecord calls, and the options
    /// that create the default model and coordinator on first use.
    @Suite("Coordinators and stores")
    @MainActor
    struct Coordinators {
        @Test("coordinators for the default model with a SQLite store by URL or by name, or an in-memory store; stores added to a coordinator")
        func coordinators() throws {
            let directory = try Scratch.directory()
            defer { StaffStack.tearDown(directory.appendingPathComponent("x")) }
            MagicalRecord.setDefaultModelNamed("Staff")
            let url = directory.appendingPathComponent("nested/folder/Staff.sqlite")
            let byURL = NSPersistentStoreCoordinator.mr_coordinatorWithSqliteStore(at: url)
            #expect(byURL.managedObjectModel === NSManagedObjectModel.mr_default())
            #expect(byURL.persistentStores.first?.url?.standardizedFileURL == url.standardizedFileURL)
            #expect(FileManager.default.fileExists(atPath: url.path))
            let migrating = NSPersistentStoreCoordinator.mr_coordinatorWithAutoMigratingSqliteStore(at: directory.appendingPathComponent("M.sqlite"))
            #expect(migrating.persistentStores.first?.options?[NSInferMappingModelAutomaticallyOption] as? Bool == true)
            let memory = NSPersistentStoreCoordinator.mr_coordinatorWithInMemoryStore()
            #expect(memory.persistentStores.map(\.type) == [NSInMemoryStoreType])
            #expect(memory.mr_addInMemoryStore() != nil)
            #expect(memory.persistentStores.count == 2)
            let other = directory.appendingPathComponent("Other.sqlite")
            let added = memory.mr_addSqliteStoreNamed(other, withOptions: [NSSQLitePragmasOption: ["journal_mode": "DELETE"]])
            #expect(added?.url?.standardizedFileURL == other.standardizedFileURL)
            #expect(memory.mr_addSqliteStoreNamed(42, withOptions: nil) == nil)
            NSPersistentStoreCoordinator.mr_setDefault(memory)
            #expect(NSPersistentStoreCoordinator.mr_default() === memory)
            #expect(NSPersistentStore.mr_default() === memory.persistentStores.first)
            NSPersistentStore.mr_setDefault(added)
            #expect(NSPersistentStore.mr_default() === added)
            let model = NSManagedObjectModel.mr_managedObjectModelNamed("Staff")
            NSManagedObjectModel.mr_setDefault(model)
            #expect(NSManagedObjectModel.mr_default() === model)
        }

        @Test("a named store coordinator puts its file in the program's data folder")
        func namedCoordinator() throws {
            let name = "MagicalRecordTests-\(UUID().uuidString).sqlite"
            let url = try #require(NSPersistentStore.mr_url(forStoreName: name))
            defer {
                MagicalRecord.cleanUp()
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            }
            MagicalRecord.setDefaultModelNamed("Staff")
            let coordinator = NSPersistentStoreCoordinator.mr_coordinator(withSqliteStoreNamed: name)
            #expect(coordinator.persistentStores.first?.url?.standardizedFileURL == url.standardizedFileURL)
            #expect(NSPersistentStoreCoordinator.mr_coordinator(with: coordinator.persistentStores[0]).persistentStores.count == 1)
        }

        @Test("shouldAutoCreateDefaultPersistentStoreCoordinator makes the default coordinator on first use")
        func autoCreatedCoordinator() throws {
            let url = try #require(NSPersistentStore.mr_url(forStoreName: MagicalRecord.defaultStoreName()))
            let existed = FileManager.default.fileExists(atPath: url.path)
            defer {
                MagicalRecord.setShouldAutoCreateDefaultPersistentStoreCoordinator(false)
                MagicalRecord.cleanUp()
                if !existed { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
            }
            MagicalRecord.cleanUp()
            #expect(NSPersistentStoreCoordinator.mr_default() == nil)
            MagicalRecord.setDefaultModelNamed("Staff")
            MagicalRecord.setShouldAutoCreateDefaultPersistentStoreCoordinator(true)
            let coordinator = try #require(NSPersistentStoreCoordinator.mr_default())
            #expect(coordinator.persistentStores.first?.url?.standardizedFileURL == url.standardizedFileURL)
            #expect(NSPersistentStore.mr_default() === coordinator.persistentStores.first)
        }

        @Test(
            "mr_fetchAll(with:) makes a controller for every object (it needs sort descriptors to fetch); mr_observe(onMainThread:) merges a background save on the main queue"
        )
        func fetchAllAndMainThreadObservation() async throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            StaffStack.insertEmployees([("lxz", 1.7), ("Bo", 1.8)])
            // As with Apple's Core Data, a controller needs sort descriptors: the fetch of a request for
            // every object fails, and the error goes to the error handler.
            let errors = ErrorLog()
            let target = NSObject()
            MagicalRecord.setErrorHandlerTarget(target) { errors.record($0) }
            let controller = Employee.mr_fetchAll(with: nil)
            #expect(controller.fetchedObjects == nil)
            #expect(errors.codes.count == 1)
            controller.fetchRequest.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            #expect(Employee.mr_performFetch(controller))
            #expect(controller.fetchedObjects?.count == 2)

            let coordinator = try #require(NSPersistentStoreCoordinator.mr_default())
            let viewer = NSManagedObjectContext.mr_newMainQueue()
            viewer.persistentStoreCoordinator = coordinator
            let writer = NSManagedObjectContext.mr_context(with: coordinator)
            viewer.mr_observe(onMainThread: writer)
            let seen = try #require(Employee.mr_findFirst(byAttribute: "name", withValue: "Bo", in: viewer))
            await Task.detached {
                let written = Employee.mr_findFirst(byAttribute: "name", withValue: "Bo", in: writer)
                writer.performAndWait { written?.height = 1.95 }
                writer.mr_saveOnlySelfAndWait()
            }.value
            #expect(seen.height == 1.95)
        }
    }
}

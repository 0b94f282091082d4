import MagicalRecord
import Testing

extension MagicalRecordTests {
    /// `MagicalRecord.setup…`, `cleanUp()`, the default model, store names and locations.
    @Suite("Stack set-up and clean-up")
    @MainActor
    struct StackSetup {
        @Test("a stack on a SQLite file: a root saving context on a private queue, a main-queue default context as its child")
        func stackShape() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let coordinator = try #require(NSPersistentStoreCoordinator.mr_default())
            #expect(coordinator.persistentStores.count == 1)
            #expect(coordinator.persistentStores.first?.type == NSSQLiteStoreType)
            #expect(coordinator.persistentStores.first?.url?.standardizedFileURL == url.standardizedFileURL)
            #expect(NSPersistentStore.mr_default() === coordinator.persistentStores.first)

            let root = NSManagedObjectContext.mr_rootSaving()
            #expect(root.concurrencyType == .privateQueueConcurrencyType)
            #expect(root.persistentStoreCoordinator === coordinator)
            #expect(root.parent == nil)
            #expect(root.performAndWait { root.mergePolicy as AnyObject } === NSMergeByPropertyObjectTrumpMergePolicy)
            #expect(root.mr_workingName() == "MagicalRecord Root Saving Context")

            let context = NSManagedObjectContext.mr_default()
            #expect(context.concurrencyType == .mainQueueConcurrencyType)
            #expect(context.parent === root)
            #expect(context.mr_workingName() == "MagicalRecord Default Context")

            let status = MagicalRecord.currentStack()
            #expect(status.contains("Current Default Core Data Stack"))
            #expect(status.contains("MagicalRecord Default Context"))
            #expect(status.contains("MagicalRecord Root Saving Context"))
        }

        @Test("set-up returns early while a stack exists; cleanUp() tears it down and posts its notification")
        func setupOnceThenCleanUp() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let coordinator = NSPersistentStoreCoordinator.mr_default()
            let context = NSManagedObjectContext.mr_default()
            MagicalRecord.setupCoreDataStackWithInMemoryStore()
            #expect(NSPersistentStoreCoordinator.mr_default() === coordinator)
            #expect(NSManagedObjectContext.mr_default() === context)

            let log = NotificationLog([kMagicalRecordCleanedUpNotification])
            MagicalRecord.cleanUp()
            #expect(log.names == [kMagicalRecordCleanedUpNotification])
            #expect(NSPersistentStoreCoordinator.mr_default() == nil)
            #expect(NSPersistentStore.mr_default() == nil)
            #expect(MagicalRecord.currentStack().contains("Coordinator:     (null)"))

            MagicalRecord.setDefaultModelNamed("Staff")
            MagicalRecord.setupCoreDataStackWithInMemoryStore()
            #expect(NSPersistentStoreCoordinator.mr_default()?.persistentStores.first?.type == NSInMemoryStoreType)
            #expect(NSManagedObjectContext.mr_default() !== context)
        }

        @Test("an in-memory stack keeps its objects until clean-up")
        func inMemory() throws {
            MagicalRecord.setDefaultModelNamed("Staff")
            MagicalRecord.setupCoreDataStackWithInMemoryStore()
            defer { MagicalRecord.cleanUp() }
            StaffStack.insertEmployees([("lxz", 1.7)])
            #expect(Employee.mr_countOfEntities() == 1)
            #expect(Employee.mr_countOfEntities(with: NSManagedObjectContext.mr_()) == 1)
        }

        @Test("the default store is <program>.sqlite in the program's data folder, NSPersistentContainer's default directory")
        func defaultStoreLocation() throws {
            let program = ProcessInfo.processInfo.processName
            #expect(MagicalRecord.defaultStoreName() == (program.hasSuffix("sqlite") ? program : program + ".sqlite"))
            let folder = NSPersistentContainer.defaultDirectoryURL()
            #expect(NSPersistentStore.mr_applicationStorageDirectory() == folder)
            #expect(NSPersistentStore.mr_url(forStoreName: "Staff.sqlite") == folder.appendingPathComponent("Staff.sqlite"))
            #expect(NSPersistentStore.mr_defaultLocalStoreUrl() == folder.appendingPathComponent("CoreDataStore.sqlite"))

            let expected = folder.appendingPathComponent(MagicalRecord.defaultStoreName())
            let existed = FileManager.default.fileExists(atPath: folder.path)
            defer {
                MagicalRecord.cleanUp()
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: expected.path + suffix) }
                // The folder only if this test made it and nothing else put a file in it since.
                if !existed, (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
                    try? FileManager.default.removeItem(at: folder)
                }
            }
            MagicalRecord.setDefaultModelNamed("Staff")
            MagicalRecord.setupCoreDataStack()
            let store = try #require(NSPersistentStore.mr_default())
            #expect(store.url?.standardizedFileURL == expected.standardizedFileURL)
            #expect(FileManager.default.fileExists(atPath: expected.path))
            #expect(store.options?[NSMigratePersistentStoresAutomaticallyOption] == nil)

            MagicalRecord.cleanUp()
            MagicalRecord.setDefaultModelNamed("Staff")
            MagicalRecord.setupAutoMigratingCoreDataStack()
            let migrating = try #require(NSPersistentStore.mr_default())
            #expect(migrating.url?.standardizedFileURL == expected.standardizedFileURL)
            #expect(migrating.options?[NSMigratePersistentStoresAutomaticallyOption] as? Bool == true)
        }

        @Test("a named store goes in the program's data folder; an auto-migrating one asks for migration, inference and WAL")
        func namedStores() throws {
            let name = "MagicalRecordTests-\(UUID().uuidString).sqlite"
            let url = try #require(NSPersistentStore.mr_url(forStoreName: name))
            defer {
                MagicalRecord.cleanUp()
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            }
            MagicalRecord.setDefaultModelNamed("Staff")
            MagicalRecord.setupCoreDataStack(withStoreNamed: name)
            #expect(NSPersistentStore.mr_default()?.url?.standardizedFileURL == url.standardizedFileURL)
            MagicalRecord.cleanUp()

            MagicalRecord.setDefaultModelNamed("Staff")
            MagicalRecord.setupCoreDataStack(withAutoMigratingSqliteStoreNamed: name)
            let options = try #require(NSPersistentStore.mr_default()?.options)
            #expect(options[NSMigratePersistentStoresAutomaticallyOption] as? Bool == true)
            #expect(options[NSInferMappingModelAutomaticallyOption] as? Bool == true)
            #expect((options[NSSQLitePragmasOption] as? [String: String])?["journal_mode"] == "WAL")
            StaffStack.insertEmployees([("lxz", 1.7)])
            #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
        }

        @Test("with no model set, the default model merges every model of the main bundle and of the resource bundles beside the program")
        func defaultModelFromResourceBundles() throws {
            defer { MagicalRecord.cleanUp() }
            MagicalRecord.cleanUp()
            #expect(MagicalRecord.shouldAutoCreateManagedObjectModel())
            let model = try #require(NSManagedObjectModel.mr_default())
            #expect(Set(model.entitiesByName.keys).isSuperset(of: ["Employee", "Department", "Tag"]))
            #expect(NSManagedObjectModel.mr_default() === model)

            MagicalRecord.setShouldAutoCreateManagedObjectModel(false)
            defer { MagicalRecord.setShouldAutoCreateManagedObjectModel(true) }
            MagicalRecord.cleanUp()
            #expect(NSManagedObjectModel.mr_default() == nil)
        }

        @Test("setDefaultModelNamed(_:) and setDefaultModelFrom(_:) find the Staff model in this target's resource bundle")
        func namedModels() throws {
            defer { MagicalRecord.cleanUp() }
            for name in ["Staff", "Staff.momd", "Staff.xcdatamodeld"] {
                MagicalRecord.setDefaultModelNamed(name)
                #expect(NSManagedObjectModel.mr_default()?.entitiesByName["Department"] != nil, "\(name)")
            }
            MagicalRecord.setDefaultModelNamed("NoSuchModel")
            MagicalRecord.setShouldAutoCreateManagedObjectModel(false)
            defer { MagicalRecord.setShouldAutoCreateManagedObjectModel(true) }
            #expect(NSManagedObjectModel.mr_default() == nil)

            MagicalRecord.setDefaultModelFrom(Employee.self)
            #expect(NSManagedObjectModel.mr_default()?.entitiesByName["Employee"]?.attributesByName["employeeID"] != nil)
        }

        @Test("an auto-migrating stack migrates a store written by the model's earlier version, found after merging")
        func autoMigration() throws {
            let url = try Scratch.directory().appendingPathComponent("Staff.sqlite")
            defer { StaffStack.tearDown(url) }
            try StaffStack.writeStore(at: url, model: StaffStack.firstVersion(), names: ["lxz", "Bo"])
            let merged = try #require(NSManagedObjectModel.mergedModel(from: [Bundle.module]))
            NSManagedObjectModel.mr_setDefaultManagedObjectModel(merged)
            MagicalRecord.setShouldDeleteStoreOnModelMismatch(false)
            defer { MagicalRecord.setShouldDeleteStoreOnModelMismatch(true) }
            MagicalRecord.setupCoreDataStackWithAutoMigratingSqliteStore(at: url)
            #expect(NSPersistentStore.mr_default() != nil)
            let names = (Employee.mr_findAllSorted(by: "name", ascending: true) as? [Employee])?.compactMap(\.name)
            #expect(names == ["Bo", "lxz"])
            let bo = try #require(Employee.mr_findFirst(byAttribute: "name", withValue: "Bo"))
            bo.employeeID = 7
            NSManagedObjectContext.mr_default().mr_saveToPersistentStoreAndWait()
            let reader = NSManagedObjectContext.mr_()
            let stored = Employee.mr_findFirst(byAttribute: "employeeID", withValue: 7, in: reader)
            #expect(reader.performAndWait { stored?.name } == "Bo")
        }
    }
}

import Testing

@testable import MagicalRecord

extension MagicalRecordTests {
    /// MagicalRecord's saves: through the parents to the store or the receiver only, synchronous or with
    /// a completion on the main queue, and `MagicalRecord.save`'s private contexts.
    @Suite("Saves")
    @MainActor
    struct Saves {
        @Test("mr_saveToPersistentStoreAndWait() writes the default context's changes through the root saving context to the file")
        func saveToStoreAndWait() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let employee = try #require(Employee.mr_createEntity())
            employee.name = "lxz"
            NSManagedObjectContext.mr_default().mr_saveToPersistentStoreAndWait()
            #expect(try StaffStack.namesInStore(at: url) == ["lxz"])
            #expect(!NSManagedObjectContext.mr_default().hasChanges)
            #expect(!NSManagedObjectContext.mr_rootSaving().performAndWait { NSManagedObjectContext.mr_rootSaving().hasChanges })
        }

        @Test("mr_saveOnlySelfAndWait() pushes into the parent only; the root's own save writes the file")
        func saveOnlySelf() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            Employee.mr_createEntity()?.name = "Bo"
            NSManagedObjectContext.mr_default().mr_saveOnlySelfAndWait()
            let root = NSManagedObjectContext.mr_rootSaving()
            #expect(root.performAndWait { root.hasChanges })
            #expect(try StaffStack.namesInStore(at: url).isEmpty)
            root.mr_saveOnlySelfAndWait()
            #expect(try StaffStack.namesInStore(at: url) == ["Bo"])
        }

        @Test("mr_saveToPersistentStore(completion:) reports on the main queue once the store is written; no changes reports false")
        func saveWithCompletion() async throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let context = NSManagedObjectContext.mr_default()
            let (unchanged, noError) = await awaitCompletion { context.mr_saveToPersistentStore(completion: $0) }
            #expect(!unchanged && noError == nil)
            Employee.mr_createEntity()?.name = "lxz"
            let (saved, error) = await awaitCompletion { completion in
                context.mr_saveToPersistentStore { saved, error in
                    #expect(MainQueue.isCurrent)
                    completion(saved, error)
                }
            }
            #expect(saved && error == nil)
            #expect(try StaffStack.namesInStore(at: url) == ["lxz"])

            Employee.mr_createEntity()?.name = "Bo"
            let (selfSaved, _) = await awaitCompletion { context.mr_saveOnlySelf(completion: $0) }
            #expect(selfSaved)
            #expect(try StaffStack.namesInStore(at: url) == ["lxz"])
        }

        @Test("mr_save(withOptions:completion:) with each option; a failed save reports its error and leaves the parents unsaved")
        func saveOptions() async throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            #expect(MRSaveOptions.parentContexts.rawValue == 2)
            #expect(MRSaveOptions.synchronously.rawValue == 4)
            #expect(MRSaveOptions.synchronouslyExceptRootContext.rawValue == 8)
            let context = NSManagedObjectContext.mr_default()
            Employee.mr_createEntity()?.name = "a"
            context.mr_save(withOptions: [.parentContexts, .synchronously], completion: nil)
            #expect(try StaffStack.namesInStore(at: url) == ["a"])

            Employee.mr_createEntity()?.name = "b"
            let (saved, _) = await awaitCompletion {
                context.mr_save(withOptions: [.parentContexts, .synchronouslyExceptRootContext], completion: $0)
            }
            #expect(saved)
            #expect(try StaffStack.namesInStore(at: url) == ["a", "b"])

            // A tag without its required label fails validation.
            let errors = ErrorLog()
            let target = NSObject()
            MagicalRecord.setErrorHandlerTarget(target) { errors.record($0) }
            _ = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            let (failed, error) = await awaitCompletion { context.mr_saveToPersistentStore(completion: $0) }
            #expect(!failed)
            #expect(error != nil)
            #expect(errors.codes == [NSValidationMissingMandatoryPropertyError])
            #expect(!NSManagedObjectContext.mr_rootSaving().performAndWait { NSManagedObjectContext.mr_rootSaving().hasChanges })
            context.rollback()
        }

        @Test("MagicalRecord.save(blockAndWait:) saves a private child of the root saving context to the store")
        func saveBlockAndWait() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            var local: NSManagedObjectContext?
            MagicalRecord.save(blockAndWait: { localContext in
                local = localContext
                let employee = Employee.mr_createEntity(in: localContext)
                employee?.name = "lxz"
                employee?.height = 1.7
            })
            #expect(local?.parent === NSManagedObjectContext.mr_rootSaving())
            #expect(local?.concurrencyType == .privateQueueConcurrencyType)
            #expect(try StaffStack.namesInStore(at: url) == ["lxz"])
            #expect(Employee.mr_countOfEntities() == 1)
        }

        @Test("MagicalRecord.save(_:completion:) runs the block on a private queue and completes on the main queue; objects get permanent IDs")
        func saveWithBlock() async throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let ids = IDLog()
            let (saved, error) = await awaitCompletion { completion in
                MagicalRecord.save(
                    { localContext in
                        let employee = Employee.mr_createEntity(in: localContext)!
                        employee.name = "Bo"
                        ids.record(employee)
                    },
                    completion: { saved, error in
                        #expect(MainQueue.isCurrent)
                        completion(saved, error)
                    })
            }
            #expect(saved && error == nil)
            #expect(ids.allPermanent)
            #expect(try StaffStack.namesInStore(at: url) == ["Bo"])
            let found = try #require(Employee.mr_findFirst())
            #expect(found.name == "Bo")

            MagicalRecord.save { localContext in
                found.mr_(in: localContext)?.height = 2.0
            }
            try await Task.sleep(for: .milliseconds(300))
            let reader = NSManagedObjectContext.mr_()
            let stored = Employee.mr_findFirst(in: reader)
            #expect(reader.performAndWait { stored?.height } == 2.0)
            #expect(found.height == 2.0)
        }

        @Test("a context's mr_save(blockAndWait:) and mr_save(_:completion:) save a new child through the receiver")
        func chainSaves() async throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let root = NSManagedObjectContext.mr_rootSaving()
            root.mr_save(blockAndWait: { local in
                #expect(local.parent === root)
                Employee.mr_createEntity(in: local)?.name = "a"
            })
            #expect(try StaffStack.namesInStore(at: url) == ["a"])
            // A child of the default context, from the main queue: it saves into its parent on this thread.
            let context = NSManagedObjectContext.mr_default()
            context.mr_save(blockAndWait: { local in
                #expect(local.parent === context)
                Employee.mr_createEntity(in: local)?.name = "b"
            })
            #expect(try StaffStack.namesInStore(at: url) == ["a", "b"])
            let (saved, _) = await awaitCompletion { completion in
                context.mr_save({ local in Employee.mr_createEntity(in: local)?.name = "c" }, completion: completion)
            }
            #expect(saved)
            #expect(try StaffStack.namesInStore(at: url) == ["a", "b", "c"])
        }
    }
}

/// Whether the objects a block created had permanent IDs after their save.
// @unchecked Sendable: `objects` is read and written only with `lock` held.
final class IDLog: @unchecked Sendable {
    private let lock = NSLock()
    private var objects: [NSManagedObject] = []

    func record(_ object: NSManagedObject) { lock.withLock { objects.append(object) } }

    var allPermanent: Bool { lock.withLock { !objects.isEmpty && objects.allSatisfy { !$0.objectID.isTemporaryID } } }
}

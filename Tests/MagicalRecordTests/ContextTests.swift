import Testing

@testable import MagicalRecord

extension MagicalRecordTests {
    /// `NSManagedObjectContext`'s MagicalRecord contexts, working names, reset and thread contexts.
    @Suite("Contexts")
    @MainActor
    struct Contexts {
        @Test("mr_() and mr_context(withParent:) are private children; mr_context(with:) is on the coordinator; new contexts stand alone")
        func newContexts() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let child = NSManagedObjectContext.mr_()
            #expect(child.concurrencyType == .privateQueueConcurrencyType)
            #expect(child.parent === NSManagedObjectContext.mr_rootSaving())
            let grandchild = NSManagedObjectContext.mr_context(withParent: NSManagedObjectContext.mr_default())
            #expect(grandchild.concurrencyType == .privateQueueConcurrencyType)
            #expect(grandchild.parent === NSManagedObjectContext.mr_default())
            let coordinator = try #require(NSPersistentStoreCoordinator.mr_default())
            let attached = NSManagedObjectContext.mr_context(with: coordinator)
            #expect(attached.parent == nil)
            #expect(attached.persistentStoreCoordinator === coordinator)
            let main = NSManagedObjectContext.mr_newMainQueue()
            #expect(main.concurrencyType == .mainQueueConcurrencyType && main.parent == nil && main.persistentStoreCoordinator == nil)
            let background = NSManagedObjectContext.mr_newPrivateQueue()
            #expect(background.concurrencyType == .privateQueueConcurrencyType && background.parent == nil)
        }

        @Test("working names, descriptions and the parent chain")
        func workingNames() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let context = NSManagedObjectContext.mr_context(withParent: NSManagedObjectContext.mr_default())
            #expect(context.mr_workingName() == "Untitled Context")
            context.mr_setWorkingName("Importer")
            #expect(context.mr_workingName() == "Importer")
            #expect(context.mr_description().contains(": Importer> on the main thread"))
            let chain = context.mr_parentChain().split(separator: "\n").map(String.init)
            #expect(chain.count == 3)
            #expect(chain[0].hasPrefix("- Importer (") && chain[0].hasSuffix("(*)"))
            #expect(chain[1].hasPrefix("- MagicalRecord Default Context ("))
            #expect(chain[2].hasPrefix("- MagicalRecord Root Saving Context ("))
        }

        @Test("mr_resetDefaultContext() resets the default context; mr_deleteObjects(_:) deletes each object")
        func resetAndDeleteObjects() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let context = NSManagedObjectContext.mr_default()
            _ = Employee.mr_createEntity()
            #expect(context.hasChanges)
            NSManagedObjectContext.mr_resetDefaultContext()
            #expect(!context.hasChanges)
            StaffStack.insertEmployees([("a", 1), ("b", 2), ("c", 3)])
            let all = try #require(Employee.mr_findAll())
            context.mr_deleteObjects(all.prefix(2))
            context.mr_saveToPersistentStoreAndWait()
            #expect(Employee.mr_countOfEntities() == 1)
        }

        @Test("calls without a context use the default context on the main thread and a cached child of it on other threads")
        func threadContexts() async throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            StaffStack.insertEmployees([("lxz", 1.7), ("Bo", 1.8)])
            let defaultContext = NSManagedObjectContext.mr_default()
            #expect(NSManagedObjectContext.mr_currentThreadContext() === defaultContext)
            let box = ContextPair()
            // The thread's context reads through the default context on the main queue, which runs while
            // this test waits.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let thread = Thread {
                    box.first = NSManagedObjectContext.mr_currentThreadContext()
                    box.second = NSManagedObjectContext.mr_currentThreadContext()
                    box.count = Employee.mr_countOfEntities()
                    box.tallest = Employee.mr_findFirstOrdered(byAttribute: "height", ascending: false).flatMap { tallest in
                        box.first?.performAndWait { tallest.name }
                    }
                    NSManagedObjectContext.mr_clearNonMainThreadContextsCache()
                    box.third = NSManagedObjectContext.mr_currentThreadContext()
                    continuation.resume()
                }
                thread.start()
            }
            #expect(box.first != nil && box.first === box.second)
            #expect(box.first?.parent === defaultContext)
            #expect(box.first?.concurrencyType == .privateQueueConcurrencyType)
            #expect(box.count == 2)
            #expect(box.tallest == "Bo")
            #expect(box.third != nil && box.third !== box.first)
        }

        @Test("mr_observe(_:) merges another context's saves; mr_stopObserving(_:) stops")
        func observing() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            StaffStack.insertEmployees([("lxz", 1.7)])
            let coordinator = try #require(NSPersistentStoreCoordinator.mr_default())
            let reader = NSManagedObjectContext.mr_context(with: coordinator)
            let writer = NSManagedObjectContext.mr_context(with: coordinator)
            reader.mr_observe(writer)
            let seen = try #require(Employee.mr_findFirst(in: reader))
            let written = try #require(Employee.mr_findFirst(in: writer))
            writer.performAndWait { written.height = 1.9 }
            writer.mr_saveOnlySelfAndWait()
            #expect(reader.performAndWait { seen.height } == 1.9)
            reader.mr_stopObserving(writer)
            writer.performAndWait { written.height = 2.0 }
            writer.mr_saveOnlySelfAndWait()
            #expect(reader.performAndWait { seen.height } == 1.9)
        }
    }
}

/// Contexts a background thread hands back.
// @unchecked Sendable: written by one thread before it resumes a continuation, read after the resumption.
final class ContextPair: @unchecked Sendable {
    var count: UInt = 0
    var tallest: String?
    var first: NSManagedObjectContext?
    var second: NSManagedObjectContext?
    var third: NSManagedObjectContext?
}

import Testing

@testable import OpenCoreDataCore

@Suite("fetchBatchSize: IDs first, rows one batch at a time as results are touched")
struct FetchBatchingTests {
    static let users = 1000

    @Test("a batched fetch reads no row until a result is touched, then exactly that result's batch")
    func rowsLoadedPerBatch() throws {
        let stack = try FetchingModel.stack(users: Self.users)
        let context = try stack.freshContext()
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "User")
            request.fetchBatchSize = 20
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let users = try context.fetch(request)
            #expect(users.count == Self.users)
            #expect(users.allSatisfy { $0.isFault })
            #expect(context.cachedRowCount == 0)

            #expect(users[0].value(forKey: "name") as? String == FetchingModel.name(0))
            #expect(context.cachedRowCount == 20)
            #expect(!users[19].isFault)
            #expect(users[20].isFault)

            // Touching another result of the same batch reads nothing more.
            #expect(users[7].value(forKey: "age") as? Int == FetchingModel.age(7))
            #expect(context.cachedRowCount == 20)

            #expect(users[25].value(forKey: "name") as? String == FetchingModel.name(25))
            #expect(context.cachedRowCount == 40)
            #expect(users[999].value(forKey: "name") as? String == FetchingModel.name(999))
            #expect(context.cachedRowCount == 60)
            #expect(users.filter { !$0.isFault }.count == 60)

            // Every result reads its own values, batch after batch.
            for (i, user) in users.enumerated() {
                #expect(user.value(forKey: "name") as? String == FetchingModel.name(i))
            }
        }
    }

    @Test("scanning a long batched result keeps only the last few batches loaded, however far it goes")
    func scanMemoryIsBoundedByTheBatch() throws {
        let stack = try FetchingModel.stack(users: Self.users)
        let context = try stack.freshContext()
        let window = FetchBatchRegistry.loadedBatchLimit * 20
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "User")
            request.fetchBatchSize = 20
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let users = try context.fetch(request)
            var mostLoaded = 0
            for (i, user) in users.enumerated() {
                #expect(user.value(forKey: "name") as? String == FetchingModel.name(i))
                if i % 20 == 0 {
                    mostLoaded = max(mostLoaded, users.filter { !$0.isFault }.count)
                    #expect(context.cachedRowCount <= window)
                }
            }
            #expect(mostLoaded <= window)
            #expect(users.filter { !$0.isFault }.count <= window)

            // An early result reads its values again, with the rest of its batch.
            #expect(users[0].isFault)
            #expect(users[3].value(forKey: "age") as? Int == FetchingModel.age(3))
            #expect(!users[19].isFault)
            #expect(users[20].isFault)
        }
    }

    @Test("a batched scan makes no ID per result, and its results leave the context, the cache and the batches once dropped")
    func droppedResultsLeaveEverything() throws {
        let stack = try FetchingModel.stack(users: Self.users)
        let context = try stack.freshContext()
        let window = FetchBatchRegistry.loadedBatchLimit * 20
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "User")
            request.fetchBatchSize = 20
            do {
                let users = try context.fetch(request)
                #expect(context._fetchBatches.pendingCount == Self.users)
                var ages = 0
                for user in users {
                    ages += user.value(forKey: "age") as? Int ?? 0
                    #expect(context.cachedRowCount <= window)
                }
                #expect(ages == (0..<Self.users).reduce(0) { $0 + FetchingModel.age($1) })
                // Reading every value made no object ID: a batch is read by primary keys.
                #expect(users.filter { $0._objectIDIfMade != nil }.isEmpty)
                #expect(users.filter { !$0.isFault }.count <= window)
                #expect(context._fetchBatches.pendingCount == Self.users - users.filter { !$0.isFault }.count)
            }
            // Nothing else refers to the results: the context lets go of them, and of their batches and rows.
            context.retainsRegisteredObjects = false
            #expect(context.registeredObjects.isEmpty)
            #expect(context._fetchBatches.pendingCount == 0)
            #expect(context.cachedRowCount == 0)
        }
    }

    @Test("objects with unsaved changes keep them while a batched scan moves past their batch")
    func changedObjectsKeepTheirValues() throws {
        let stack = try FetchingModel.stack(users: 200)
        let context = try stack.freshContext()
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "User")
            request.fetchBatchSize = 10
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let users = try context.fetch(request)
            users[1].setValue("changed", forKey: "name")
            for user in users { _ = user.value(forKey: "name") }
            #expect(!users[1].isFault)
            #expect(users[1].hasChanges)
            #expect(users[1].value(forKey: "name") as? String == "changed")
            #expect(users[0].isFault)
            try context.save()
            let again = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "User"))
                .compactMap { $0.value(forKey: "name") as? String }
            #expect(again.contains("changed"))
            #expect(again.count == 200)
        }
    }

    @Test("a batched fetch keeps the predicate, sort, limit and offset, and subentity objects", arguments: TestStoreKind.allCases)
    func batchedFetchMatchesPlainFetch(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: 200, admins: true)
        let context = stack.context()
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "User")
            request.predicate = NSPredicate(format: "age >= 30 OR age == nil")
            request.sortDescriptors = [NSSortDescriptor(key: "height", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
            request.fetchOffset = 3
            request.fetchLimit = 50
            let plain = try context.fetch(request).map { $0.value(forKey: "name") as? String }
            context.reset()
            request.fetchBatchSize = 7
            let batched = try context.fetch(request)
            #expect(batched.map { $0.value(forKey: "name") as? String } == plain)
            #expect(batched.contains { $0.entity.name == "Admin" })
        }
    }

    @Test("with unsaved changes a batched fetch still includes inserted objects and leaves out deleted ones")
    func pendingChanges() throws {
        let stack = try FetchingModel.stack(users: 50)
        let context = stack.context()
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "User")
            request.fetchBatchSize = 10
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let first = try context.fetch(request)
            context.delete(first[0])
            context.make("User", ["name": "zzz unsaved"])
            let names = try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
            #expect(names.count == 50)
            #expect(names.first == FetchingModel.name(1))
            #expect(names.last == "zzz unsaved")
        }
    }

    @Test("a batch whose rows were deleted by another coordinator turns the touched object into a deleted fault")
    func rowsDeletedMeanwhile() throws {
        let stack = try FetchingModel.stack(users: 30)
        let context = try stack.freshContext()
        let other = stack.context()
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "User")
            request.fetchBatchSize = 10
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let users = try context.fetch(request)
            try other.performAndWait {
                let victim = try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "User")).first {
                    $0.value(forKey: "name") as? String == FetchingModel.name(3)
                }
                other.delete(try #require(victim))
                try other.save()
            }
            #expect(users[2].value(forKey: "name") as? String == FetchingModel.name(2))
            #expect(users[3].value(forKey: "name") == nil)
            #expect(users[3].isDeleted)
        }
    }
}

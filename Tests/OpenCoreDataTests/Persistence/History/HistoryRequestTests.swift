import Foundation
import GRDB
import Testing

@testable import OpenCoreDataCore

/// Reading and deleting persistent history with `NSPersistentHistoryChangeRequest`, tokens, and merging
/// another coordinator's transactions into a context, as Apple's Core Data does them (the semantics of
/// FreeCoreData's Apple-arbitrated history tests).
@Suite("Persistent history: change requests, tokens and merging")
struct HistoryRequestTests {
    @Test("fetchHistory(after:) a date, a token and a transaction: strictly after, in transaction order")
    func fetchAfter() throws {
        let stack = try HistoryKit.Stack()
        try stack.insertNotes(["one"])
        let first = try #require(stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        let second = try stack.insertNotes(["two", "three"])
        let all = try stack.transactions()
        #expect(all.map(\.transactionNumber) == [1, 2])
        #expect(all.map { $0.changes?.count } == [1, 2])
        #expect(all.allSatisfy { $0.storeID == stack.store.identifier })

        let afterToken = try stack.transactions(.fetchHistory(after: first))
        #expect(afterToken.map(\.transactionNumber) == [2])
        #expect(Set(afterToken[0].changes?.map(\.changedObjectID) ?? []) == Set(second))
        #expect(try stack.transactions(.fetchHistory(after: all[0])).map(\.transactionNumber) == [2])
        #expect(try stack.transactions(.fetchHistory(after: all[1])).isEmpty)
        #expect(try stack.transactions(.fetchHistory(after: all[1].timestamp)).isEmpty)
        #expect(try stack.transactions(.fetchHistory(after: all[0].timestamp.addingTimeInterval(-0.000_1))).count == 2)
        #expect(try stack.transactions(.fetchHistory(after: nil as NSPersistentHistoryToken?)).count == 2)
        #expect(try stack.transactions(.fetchHistory(after: nil as NSPersistentHistoryTransaction?)).count == 2)
        // The changes point back to their transaction.
        #expect(all[1].changes?.allSatisfy { $0.transaction === all[1] } == true)
        #expect(all[0].token == first)
    }

    @Test("every result type: status, object IDs, count of transactions, transactions only, changes only, both")
    func resultTypes() throws {
        let stack = try HistoryKit.Stack()
        let ids = try stack.insertNotes(["a", "b"]) + stack.insertNotes(["c"])
        func run(_ type: NSPersistentHistoryResultType) throws -> Any? {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: Date.distantPast)
            #expect(request.resultType == .transactionsAndChanges)
            request.resultType = type
            return try stack.execute(request)
        }
        #expect((try run(.statusOnly) as? NSNumber)?.boolValue == true)
        #expect(try run(.objectIDs) as? [NSManagedObjectID] == ids)
        #expect((try run(.count) as? NSNumber)?.intValue == 2)
        let only = try #require(try run(.transactionsOnly) as? [NSPersistentHistoryTransaction])
        #expect(only.count == 2 && only.allSatisfy { $0.changes == nil })
        let changes = try #require(try run(.changesOnly) as? [NSPersistentHistoryChange])
        #expect(changes.map(\.changedObjectID) == ids)
        #expect(changes.allSatisfy { $0.transaction == nil })
        let both = try #require(try run(.transactionsAndChanges) as? [NSPersistentHistoryTransaction])
        #expect(both.flatMap { $0.changes ?? [] }.map(\.changeID) == [1, 2, 3])
    }

    @Test("fetchHistory(withFetch:) over Transaction: predicates on author, transactionNumber and timestamp; the request is echoed")
    func fetchRequestOverTransactions() throws {
        let stack = try HistoryKit.Stack()
        stack.context.transactionAuthor = "writer-a"
        try stack.insertNotes(["from a"])
        stack.context.transactionAuthor = "writer-b"
        let fromB = try stack.insertNotes(["from b"])

        let entity = try #require(stack.context.performAndWait { NSPersistentHistoryTransaction.entityDescription(with: stack.context) })
        #expect(entity.name == "Transaction")
        #expect(NSPersistentHistoryChange.entityDescription(with: stack.context)?.name == "Change")
        let fetch = NSFetchRequest<NSFetchRequestResult>()
        fetch.entity = entity
        fetch.predicate = NSPredicate(format: "author != %@", "writer-a")
        let request = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: fetch)
        #expect(request.fetchRequest === fetch)
        #expect(request.resultType == .transactionsAndChanges)
        let found = try stack.transactions(request)
        #expect(found.map(\.author) == ["writer-b"])
        #expect(found.first?.changes?.map(\.changedObjectID) == fromB)

        fetch.predicate = NSPredicate(format: "transactionNumber > %@", NSNumber(value: 1))
        #expect(try stack.transactions(.fetchHistory(withFetch: fetch)).map(\.transactionNumber) == [2])
        fetch.predicate = NSPredicate(format: "timestamp < %@", Date.distantPast as NSDate)
        #expect(try stack.transactions(.fetchHistory(withFetch: fetch)).isEmpty)

        // A token and a fetch request together: both apply.
        let combined = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
        let others = try #require(NSPersistentHistoryTransaction.fetchRequest)
        others.predicate = NSPredicate(format: "author == %@", "writer-a")
        combined.fetchRequest = others
        #expect(try stack.transactions(combined).map(\.transactionNumber) == [1])
    }

    @Test("fetchHistory(withFetch:) over Change answers the matching changes in their transactions")
    func fetchRequestOverChanges() throws {
        let stack = try HistoryKit.Stack()
        let ids = try stack.insertNotes(["tracked", "noise"])
        try stack.context.performAndWait {
            try stack.context.existingObject(with: ids[0]).setValue("tracked v2", forKey: "text")
            try stack.context.save()
        }
        let fetch = try #require(NSPersistentHistoryChange.fetchRequest)
        fetch.predicate = NSPredicate(format: "changedObjectID == %@", ids[0])
        let transactions = try stack.transactions(.fetchHistory(withFetch: fetch))
        #expect(transactions.map { $0.changes?.count } == [1, 1])
        #expect(transactions.flatMap { $0.changes ?? [] }.map(\.changeType) == [.insert, .update])

        let changesOnly = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: fetch)
        changesOnly.resultType = .changesOnly
        #expect((try stack.execute(changesOnly) as? [NSPersistentHistoryChange])?.count == 2)

        fetch.predicate = NSPredicate(
            format: "changeType == %d AND transaction.transactionNumber == 1", NSPersistentHistoryChangeType.insert.rawValue)
        #expect(try stack.transactions(.fetchHistory(withFetch: fetch)).flatMap { $0.changes ?? [] }.map(\.changedObjectID) == ids)
    }

    @Test("a history fetch request that sorts, or is of another entity, is refused with an error naming it")
    func refusedFetchRequests() throws {
        let stack = try HistoryKit.Stack()
        try stack.insertNotes(["a"])
        let sorted = try #require(NSPersistentHistoryTransaction.fetchRequest)
        sorted.sortDescriptors = [NSSortDescriptor(key: "timestamp", ascending: false)]
        #expect { try stack.execute(.fetchHistory(withFetch: sorted)) } throws: { error in
            (error as NSError).code == NSPersistentStoreUnsupportedRequestTypeError
                && (error as NSError).localizedDescription.contains("keypath timestamp not found in entity TRANSACTION")
        }
        let other = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
        #expect { try stack.execute(.fetchHistory(withFetch: other)) } throws: { error in
            (error as NSError).code == NSPersistentStoreUnsupportedRequestTypeError
        }
    }

    @Test("deleteHistory(before:) a token keeps the token's own transaction; a token whose transaction is gone has expired (134301)")
    func deleteAndExpiry() throws {
        let stack = try HistoryKit.Stack()
        var tokens: [NSPersistentHistoryToken] = []
        for index in 0..<3 {
            try stack.insertNotes(["n\(index)"])
            tokens.append(try #require(stack.coordinator.currentPersistentHistoryToken(fromStores: nil)))
        }
        let purge = NSPersistentHistoryChangeRequest.deleteHistory(before: tokens[2])
        #expect(purge.resultType == .statusOnly)
        purge.resultType = .transactionsAndChanges
        #expect(purge.resultType == .statusOnly, "a delete keeps its status-only result")
        #expect((try stack.execute(purge) as? NSNumber)?.boolValue == true)
        #expect(try stack.transactions().map(\.transactionNumber) == [3])
        for token in tokens.prefix(2) {
            #expect { try stack.execute(.fetchHistory(after: token)) } throws: { error in
                (error as NSError).domain == NSCocoaErrorDomain && (error as NSError).code == NSPersistentHistoryTokenExpiredError
            }
        }
        #expect(try stack.transactions(.fetchHistory(after: tokens[2])).isEmpty)
        // Deleted numbers are not handed out again; ATRANSACTIONSTRING keeps its strings.
        try stack.insertNotes(["n3"])
        #expect(try stack.transactions().map(\.transactionNumber) == [3, 4])
        let count = NSPersistentHistoryChangeRequest.deleteHistory(before: Date.distantFuture)
        count.resultType = .count
        #expect((try stack.execute(count) as? NSNumber)?.intValue == 2)
        #expect(try stack.rows("SELECT count(*) FROM ACHANGE") == [["0"]])
        #expect(try stack.rows("SELECT count(*) > 0 FROM ATRANSACTIONSTRING") == [["1"]])
        #expect(try StoreProcesses.sqlite(stack.url, "PRAGMA integrity_check") == "ok")
    }

    @Test("tokens: secure-coded and read back equal in another coordinator; tied to their store; nil without history")
    func tokens() throws {
        let stack = try HistoryKit.Stack()
        try stack.insertNotes(["a"])
        let token = try #require(stack.coordinator.currentPersistentHistoryToken(fromStores: [stack.store]))
        #expect(NSPersistentHistoryToken.supportsSecureCoding)
        let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: NSPersistentHistoryToken.self, from: data))
        #expect(decoded == token)
        #expect(decoded.hash == token.hash)
        #expect(token.copy() as AnyObject === token)

        let (otherCoordinator, otherContext) = try stack.second()
        #expect(otherCoordinator.currentPersistentHistoryToken(fromStores: nil) == token)
        try stack.insertNotes(["b"])
        let after = try stack.transactions(.fetchHistory(after: decoded), in: otherContext)
        #expect(after.map(\.transactionNumber) == [2])

        // A token of another store names nothing of this one: its whole history follows it.
        let foreign = NSPersistentHistoryToken(transactionNumbers: [UUID().uuidString: 5])
        #expect(try stack.transactions(.fetchHistory(after: foreign)).count == 2)

        // No token for stores without history.
        let plain = NSPersistentStoreCoordinator(managedObjectModel: HistoryKit.model())
        _ = try plain.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        #expect(plain.currentPersistentHistoryToken(fromStores: nil) == nil)
        #expect(plain.currentPersistentHistoryToken(fromStores: plain.persistentStores) == nil)
    }

    @Test("a store added without the tracking key answers history requests with 134091")
    func untrackedStore() throws {
        let stack = try HistoryKit.Stack(options: nil)
        try stack.insertNotes(["a"])
        #expect { try stack.execute(.fetchHistory(after: Date.distantPast)) } throws: { error in
            (error as NSError).code == NSPersistentStoreUnsupportedRequestTypeError
                && (error as NSError).localizedDescription.contains("No history tracking option detected on store")
        }
    }

    @Test("objectIDNotification() merged into a context of another coordinator: inserts fetchable, updates refreshed, deletes deleted")
    func mergeAnotherCoordinatorsTransaction() throws {
        let stack = try HistoryKit.Stack()
        let ids = try stack.insertNotes(["v1", "doomed"])
        let (_, reader) = try stack.second()
        let token = try #require(stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        let (kept, doomed) = try reader.performAndWait { () -> (NSManagedObject, NSManagedObject) in
            let kept = try reader.existingObject(with: ids[0])
            let doomed = try reader.existingObject(with: ids[1])
            #expect(kept.value(forKey: "text") as? String == "v1")
            _ = doomed.value(forKey: "text")
            return (kept, doomed)
        }
        stack.context.transactionAuthor = "writer"
        let inserted = try stack.context.performAndWait { () -> NSManagedObjectID in
            try stack.context.existingObject(with: ids[0]).setValue("v2", forKey: "text")
            stack.context.delete(try stack.context.existingObject(with: ids[1]))
            let fresh = NSEntityDescription.insertNewObject(forEntityName: "Note", into: stack.context)
            fresh.setValue("fresh", forKey: "text")
            try stack.context.save()
            return fresh.objectID
        }
        try reader.performAndWait {
            #expect(kept.value(forKey: "text") as? String == "v1", "not merged yet")
            let transactions = try stack.transactions(.fetchHistory(after: token), in: reader)
            #expect(transactions.map(\.author) == ["writer"])
            let note = try #require(transactions.first?.objectIDNotification())
            #expect(note.name == .NSManagedObjectContextDidSaveObjectIDs)
            #expect(note.userInfo?[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> == [inserted])
            #expect(note.userInfo?[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID> == [ids[0]])
            #expect(note.userInfo?[NSDeletedObjectIDsKey] as? Set<NSManagedObjectID> == [ids[1]])
            for transaction in transactions { reader.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
            #expect(kept.value(forKey: "text") as? String == "v2")
            #expect(doomed.isDeleted)
            let texts = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).compactMap { $0.value(forKey: "text") as? String }
            #expect(texts.sorted() == ["fresh", "v2"])
        }
    }

    @Test("requests copy, describe themselves as Apple's do, and their factories return the class they are called on")
    func requestBasics() throws {
        let date = Date(timeIntervalSince1970: 100)
        let fetch = NSPersistentHistoryChangeRequest.fetchHistory(after: date)
        #expect(fetch.description == "NSPersistentHistoryChangeRequest : Fetch < \(date) - (null)-(null)> 5")
        #expect(
            NSPersistentHistoryChangeRequest.deleteHistory(before: date).description
                == "NSPersistentHistoryChangeRequest : Delete < \(date) - (null)-(null)> 0")
        let copy = try #require(fetch.copy() as? NSPersistentHistoryChangeRequest)
        #expect(copy !== fetch && copy.resultType == fetch.resultType && copy.description == fetch.description)
        let token = NSPersistentHistoryToken(transactionNumbers: ["A": 1])
        #expect(NSPersistentHistoryChangeRequest.fetchHistory(after: token).token === token)
        #expect(NSPersistentHistoryChangeRequest.fetchHistory(after: date).token == nil)
        #expect(NSPersistentHistoryResult().result == nil)
        #expect(NSPersistentHistoryChangeType.delete.rawValue == 2)
        #expect(NSPersistentHistoryResultType.transactionsAndChanges.rawValue == 5)
    }
}

import OpenCoreData
import Testing

@Suite("NSBatchDeleteRequest")
struct BatchDeleteRequestTests {
    @Test("deleting the results of a fetch request removes exactly those rows and reports the count")
    func fromFetchRequest() throws {
        let stack = try GraphStack.library()
        try stack.saveBooks(6)
        let context = stack.context()
        let result = try context.performAndWait { () -> NSBatchDeleteResult in
            let fetchRequest = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
            fetchRequest.predicate = NSPredicate(format: "price < %d", 4)
            let deleteRequest = NSBatchDeleteRequest(fetchRequest: fetchRequest)
            deleteRequest.resultType = .resultTypeCount
            return try #require(context.execute(deleteRequest) as? NSBatchDeleteResult)
        }
        #expect(result.result as? Int == 4)
        #expect(try stack.values("Book", "title") == ["Book 4", "Book 5"])
    }

    @Test("deleting by object IDs returns their IDs; IDs of several entities are refused")
    func fromObjectIDs() throws {
        let stack = try GraphStack.library()
        let ids = try stack.saveBooks(3)
        let context = stack.context()
        try context.performAndWait {
            let request = NSBatchDeleteRequest(objectIDs: [ids[0], ids[2]])
            request.resultType = .resultTypeObjectIDs
            let result = try #require(context.execute(request) as? NSBatchDeleteResult)
            #expect(Set(try #require(result.result as? [NSManagedObjectID])) == [ids[0], ids[2]])

            let shelf = context.make("Shelf", ["name": "A"])
            try context.save()
            #expect {
                _ = try context.execute(NSBatchDeleteRequest(objectIDs: [ids[1], shelf.objectID]))
            } throws: { error in
                (error as NSError).domain == NSCocoaErrorDomain
            }
        }
        #expect(try stack.values("Book", "title") == ["Book 1"])
    }

    @Test("nullify: books of a deleted shelf stay, with no shelf and Z_OPT one higher")
    func nullifyRule() throws {
        let stack = try GraphStack.library(shelfBooksRule: .nullifyDeleteRule)
        try stack.saveBooks(2, shelf: "Fiction")
        let context = stack.context()
        try context.performAndWait {
            let request = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Shelf"))
            request.resultType = .resultTypeObjectIDs
            let result = try #require(context.execute(request) as? NSBatchDeleteResult)
            #expect((result.result as? [NSManagedObjectID])?.count == 1)
        }
        let rows = try StoreKit.rows(stack.storeURL, "SELECT ZSHELF, Z_OPT FROM ZBOOK ORDER BY Z_PK")
        #expect(rows.map { $0[0] as Int64? } == [nil, nil])
        #expect(rows.map { $0[1] as Int64 } == [2, 2])
        #expect(try stack.values("Shelf", "name") == [])
    }

    @Test("cascade: deleting a shelf deletes its books, and the books' join-table rows with their tags")
    func cascadeRule() throws {
        let stack = try GraphStack.library(shelfBooksRule: .cascadeDeleteRule)
        let ids = try stack.saveBooks(3, shelf: "Fiction")
        try stack.saveBooks(1, entity: "Novel")
        let context = stack.context()
        try context.performAndWait {
            let tag = context.make("Tag", ["name": "classic"])
            for id in ids { context.object(with: id).mutableSetValue(forKey: "tags").add(tag) }
            try context.save()
            let request = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Shelf"))
            request.resultType = .resultTypeObjectIDs
            let result = try #require(context.execute(request) as? NSBatchDeleteResult)
            let deleted = try #require(result.result as? [NSManagedObjectID])
            #expect(Set(deleted).isSuperset(of: ids))
            #expect(deleted.count == 4)
        }
        // Only the novel, which was on no shelf, is left.
        #expect(try stack.values("Book", "title") == ["Book 0"])
        #expect(try stack.values("Tag", "name") == ["classic"])
        let tables = try StoreKit.rows(stack.storeURL, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z_%TAGS'")
        let joinTable: String = try #require(tables.first)[0]
        #expect(try StoreKit.rows(stack.storeURL, "SELECT COUNT(*) FROM \(joinTable)").first.map { $0[0] as Int64 } == 0)
    }

    @Test("deny: a shelf that still holds books is not deleted, and nothing else is either")
    func denyRule() throws {
        let stack = try GraphStack.library(shelfBooksRule: .denyDeleteRule)
        try stack.saveBooks(2, shelf: "Fiction")
        let before = try StoreKit.rows(stack.storeURL, "SELECT Z_PK, Z_OPT, ZSHELF FROM ZBOOK ORDER BY Z_PK").map { "\($0)" }
        let context = stack.context()
        context.performAndWait { () -> Void in
            #expect {
                _ = try context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Shelf")))
            } throws: { error in
                (error as NSError).code == NSValidationRelationshipDeniedDeleteError
            }
        }
        #expect(try stack.values("Shelf", "name") == ["Fiction"])
        #expect(try StoreKit.rows(stack.storeURL, "SELECT Z_PK, Z_OPT, ZSHELF FROM ZBOOK ORDER BY Z_PK").map { "\($0)" } == before)
    }

    @Test("the seed's SUBQUERY predicate deletes users without recent posts")
    func seedSubqueryDelete() throws {
        let stack = try GraphStack(.sqlite, model: BlogModel.make())
        let context = stack.context()
        let thirtyDaysAgo = Date(timeIntervalSinceNow: -30 * 24 * 60 * 60)
        try context.performAndWait {
            let active = context.make("Author", ["name": "active"])
            let idle = context.make("Author", ["name": "idle"])
            context.make("Post", ["title": "new", "created": Date(), "author": active])
            context.make("Post", ["title": "old", "created": Date(timeIntervalSinceNow: -90 * 24 * 60 * 60), "author": idle])
            context.make("Author", ["name": "silent"])
            try context.save()

            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Author")
            fetch.predicate = NSPredicate(format: "SUBQUERY(posts, $post, $post.created > %@).@count == 0", thirtyDaysAgo)
            let batchDelete = NSBatchDeleteRequest(fetchRequest: fetch)
            batchDelete.resultType = .resultTypeCount
            let result = try #require(context.execute(batchDelete) as? NSBatchDeleteResult)
            #expect(result.result as? Int == 2)
            context.refreshAllObjects()
        }
        #expect(try stack.values("Author", "name") == ["active"])
        #expect(try stack.values("Post", "author.name") == ["active", "nil"])
    }

    @Test("externally stored binary values of deleted rows are removed from the store's support folder")
    func externalDataFilesRemoved() throws {
        let stack = try GraphStack.library()
        let ids = try stack.saveBooks(2)
        let folder = stack.directory.url.appendingPathComponent(".Library_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let file = folder.appendingPathComponent(name)
        try Data(repeating: 7, count: 2_000_000).write(to: file)
        let key = ids[0].uriRepresentation().lastPathComponent.dropFirst().description
        try StoreKit.execute(stack.storeURL, "UPDATE ZBOOK SET ZCOVER = ? WHERE Z_PK = ?", [Data([0x02]) + Data(name.utf8), Int64(key) ?? 0])
        let context = stack.context()
        try context.performAndWait {
            _ = try context.execute(NSBatchDeleteRequest(objectIDs: [ids[0]]))
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try stack.values("Book", "title") == ["Book 1"])
    }
}

@Suite("NSBatchDeleteRequest and external binary storage")
struct BatchDeleteExternalStorageTests {
    @Test("a cover saved outside the store through a context is removed with its row by a batch delete")
    func savedExternalValueRemoved() throws {
        let stack = try GraphStack.library()
        let context = stack.context()
        let id = try context.performAndWait {
            let book = context.make("Book", ["title": "Atlas", "cover": Data(repeating: 3, count: 300_000)])
            try context.save()
            return book.objectID
        }
        let folder = stack.directory.url.appendingPathComponent(".Library_SUPPORT/_EXTERNAL_DATA")
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(before.count == 1)
        try context.performAndWait {
            _ = try context.execute(NSBatchDeleteRequest(objectIDs: [id]))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}

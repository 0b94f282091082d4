import OpenCoreData
import Testing

@Suite("NSBatchInsertRequest")
struct BatchInsertRequestTests {
    @Test("inserting dictionaries writes one row each with keys from Z_PRIMARYKEY and defaults filled in")
    func fromDictionaries() throws {
        let stack = try GraphStack.library()
        try stack.saveBooks(2)
        let context = stack.context()
        let ids = try context.performAndWait { () -> [NSManagedObjectID] in
            let request = NSBatchInsertRequest(
                entityName: "Book",
                objects: [
                    ["title": "Dune", "price": 9.5, "isbn": "1"],
                    ["title": "Emma", "pages": 300, "isbn": "2"],
                ])
            request.resultType = .objectIDs
            let result = try #require(context.execute(request) as? NSBatchInsertResult)
            #expect(result.resultType == .objectIDs)
            return try #require(result.result as? [NSManagedObjectID])
        }
        #expect(ids.count == 2)
        #expect(ids.allSatisfy { !$0.isTemporaryID })
        #expect(try stack.values("Book", "title") == ["Book 0", "Book 1", "Dune", "Emma"])
        #expect(try stack.values("Book", "pages", predicate: NSPredicate(format: "isbn IN %@", ["1", "2"])) == ["100", "300"])
        let keys = try StoreKit.rows(stack.storeURL, "SELECT Z_PK FROM ZBOOK ORDER BY Z_PK").map { $0[0] as Int64 }
        #expect(keys == [1, 2, 3, 4])
        let max = try StoreKit.rows(stack.storeURL, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'").first.map { $0[0] as Int64 }
        #expect(max == 4)
        let context2 = stack.context()
        try context2.performAndWait {
            let dune = try context2.existingObject(with: ids[0])
            #expect(dune.value(forKey: "title") as? String == "Dune")
        }
    }

    @Test("a dictionary handler fills one object per call until it returns true")
    func dictionaryHandler() throws {
        let stack = try GraphStack.library()
        let context = stack.context()
        try context.performAndWait {
            var index = 0
            let request = NSBatchInsertRequest(
                entityName: "Book",
                dictionaryHandler: { dictionary in
                    guard index < 50 else { return true }
                    dictionary["title"] = "Generated \(index)"
                    dictionary["price"] = Double(index)
                    index += 1
                    return false
                })
            request.resultType = .count
            let result = try #require(context.execute(request) as? NSBatchInsertResult)
            #expect(result.result as? Int == 50)
        }
        let context2 = stack.context()
        let count = try context2.performAndWait {
            try context2.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book"))
        }
        #expect(count == 50)
    }

    @Test("a managed-object handler sets attributes on an object of the entity's class")
    func managedObjectHandler() throws {
        let stack = try GraphStack.library()
        let context = stack.context()
        try context.performAndWait {
            var index = 0
            let request = NSBatchInsertRequest(
                entityName: "Novel",
                managedObjectHandler: { object in
                    guard index < 3 else { return true }
                    #expect(object.entity.name == "Novel")
                    object.setValue("Novel \(index)", forKey: "title")
                    object.setValue("gothic", forKey: "genre")
                    index += 1
                    return false
                })
            let result = try #require(context.execute(request) as? NSBatchInsertResult)
            #expect(result.result as? Bool == true)
        }
        #expect(try stack.values("Novel", "genre") == ["gothic", "gothic", "gothic"])
        let entities = try StoreKit.rows(stack.storeURL, "SELECT DISTINCT Z_ENT FROM ZBOOK").map { $0[0] as Int64 }
        let novel = try StoreKit.rows(stack.storeURL, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Novel'").map { $0[0] as Int64 }
        #expect(entities == novel)
    }

    @Test("a row matching a stored row on the uniqueness constraint updates it instead of duplicating it")
    func uniquenessConstraintUpserts() throws {
        let stack = try GraphStack.library()
        try stack.saveBooks(2)  // isbn Book-0, Book-1
        let context = stack.context()
        try context.performAndWait {
            let request = NSBatchInsertRequest(
                entityName: "Book",
                objects: [
                    ["title": "Renamed", "isbn": "Book-1", "price": 50.0],
                    ["title": "New", "isbn": "Book-9"],
                ])
            request.resultType = .count
            let result = try #require(context.execute(request) as? NSBatchInsertResult)
            #expect(result.result as? Int == 2)
        }
        #expect(try stack.values("Book", "title") == ["Book 0", "New", "Renamed"])
        #expect(try stack.values("Book", "price", predicate: NSPredicate(format: "isbn == 'Book-1'")) == ["50.0"])
    }

    /// Rows a batch insert must refuse.
    enum BadRows: String, CaseIterable, Sendable {
        case missingMandatory, unknownKey, relationship, wrongType

        var rows: [[String: Any]] {
            switch self {
            case .missingMandatory: [["title": "ok"], ["price": 1.0]]
            case .unknownKey: [["title": "ok", "colour": "red"]]
            case .relationship: [["title": "ok", "shelf": "A"]]
            case .wrongType: [["title": 12]]
            }
        }

        var code: Int {
            self == .missingMandatory ? NSValidationMissingMandatoryPropertyError : NSManagedObjectValidationError
        }
    }

    @Test("bad rows fail the whole request with a precise error, inserting nothing", arguments: BadRows.allCases)
    func badRows(bad: BadRows) throws {
        let rows = bad.rows, code = bad.code
        let stack = try GraphStack.library()
        let context = stack.context()
        context.performAndWait { () -> Void in
            #expect {
                _ = try context.execute(NSBatchInsertRequest(entityName: "Book", objects: rows))
            } throws: { error in
                let error = error as NSError
                return error.domain == NSCocoaErrorDomain && error.code == code && !error.localizedDescription.isEmpty
            }
        }
        #expect(try stack.values("Book", "title") == [])
    }

    @Test("an unknown entity and an in-memory store are refused with 134091")
    func refusals() throws {
        let stack = try GraphStack(.inMemory, model: LibraryModel.make())
        let context = stack.context()
        context.performAndWait { () -> Void in
            for request in [
                NSBatchInsertRequest(entityName: "Book", objects: [["title": "x"]]),
                NSBatchInsertRequest(entityName: "Nope", objects: []),
            ] {
                #expect {
                    _ = try context.execute(request)
                } throws: { error in
                    (error as NSError).code == NSPersistentStoreUnsupportedRequestTypeError
                }
            }
        }
    }
}

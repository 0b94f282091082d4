import OpenCoreData
import Testing

@Suite("NSBatchUpdateRequest")
struct BatchUpdateRequestTests {
    @Test("the seed's batch update sets a constant on the rows a predicate selects and reports the count")
    func constantWithPredicate() throws {
        let stack = try GraphStack.library()
        try stack.saveBooks(5)  // prices 0…4
        let context = stack.context()
        let result = try context.performAndWait { () -> NSBatchUpdateResult in
            let batchUpdate = NSBatchUpdateRequest(entityName: "Book")
            batchUpdate.predicate = NSPredicate(format: "price < 2")
            batchUpdate.propertiesToUpdate = ["price": 9.99]
            batchUpdate.resultType = .updatedObjectsCountResultType
            return try #require(context.execute(batchUpdate) as? NSBatchUpdateResult)
        }
        #expect(result.resultType == .updatedObjectsCountResultType)
        #expect(result.result as? Int == 2)
        #expect(try stack.values("Book", "price") == ["2.0", "3.0", "4.0", "9.99", "9.99"])
    }

    @Test("expressions are evaluated against each row, and each updated row's Z_OPT goes up by one")
    func expressionsAndVersions() throws {
        let stack = try GraphStack.library()
        try stack.saveBooks(3)
        let context = stack.context()
        try context.performAndWait {
            let request = NSBatchUpdateRequest(entityName: "Book")
            request.propertiesToUpdate = ["price": NSExpression(format: "price * 2 + 1"), "pages": NSExpression(format: "pages + 5")]
            _ = try context.execute(request)
        }
        #expect(try stack.values("Book", "price") == ["1.0", "3.0", "5.0"])
        #expect(try stack.values("Book", "pages") == ["105", "105", "105"])
        let versions = try StoreKit.rows(stack.storeURL, "SELECT Z_OPT FROM ZBOOK").map { $0[0] as Int64 }
        #expect(versions == [2, 2, 2])
    }

    @Test("result types: status only gives true, object IDs give the updated objects' IDs")
    func resultTypes() throws {
        let stack = try GraphStack.library()
        let ids = try stack.saveBooks(4)
        let context = stack.context()
        try context.performAndWait {
            let status = NSBatchUpdateRequest(entityName: "Book")
            status.propertiesToUpdate = ["title": "Same"]
            let statusResult = try #require(context.execute(status) as? NSBatchUpdateResult)
            #expect(statusResult.resultType == .statusOnlyResultType)
            #expect(statusResult.result as? Bool == true)

            let byID = NSBatchUpdateRequest(entity: try #require(stack.model.entitiesByName["Book"]))
            byID.predicate = NSPredicate(format: "price >= 2")
            byID.propertiesToUpdate = ["title": "Expensive"]
            byID.resultType = .updatedObjectIDsResultType
            let idResult = try #require(context.execute(byID) as? NSBatchUpdateResult)
            let updated = try #require(idResult.result as? [NSManagedObjectID])
            #expect(Set(updated) == Set(ids[2...]))
        }
    }

    @Test("a context holding an older copy of an updated object gets a merge conflict when it saves it")
    func staleContextConflicts() throws {
        let stack = try GraphStack.library()
        let ids = try stack.saveBooks(1)
        let holder = stack.context()
        let book = holder.performAndWait {
            let book = holder.object(with: ids[0])
            _ = book.value(forKey: "title")
            return book
        }
        let other = stack.context()
        try other.performAndWait {
            let request = NSBatchUpdateRequest(entityName: "Book")
            request.propertiesToUpdate = ["price": 42.0]
            _ = try other.execute(request)
        }
        holder.performAndWait { () -> Void in
            book.setValue("Edited", forKey: "title")
            #expect {
                try holder.save()
            } throws: { error in
                (error as NSError).code == NSManagedObjectMergeError
            }
        }
        #expect(try stack.values("Book", "price") == ["42.0"])
    }

    @Test("includesSubentities = false leaves the rows of subentities alone")
    func subentities() throws {
        let stack = try GraphStack.library()
        try stack.saveBooks(2)
        try stack.saveBooks(2, entity: "Novel")
        let context = stack.context()
        try context.performAndWait {
            let request = NSBatchUpdateRequest(entityName: "Book")
            request.includesSubentities = false
            request.propertiesToUpdate = ["price": -1.0]
            request.resultType = .updatedObjectsCountResultType
            let result = try #require(context.execute(request) as? NSBatchUpdateResult)
            #expect(result.result as? Int == 2)
        }
        #expect(try stack.values("Novel", "price") == ["0.0", "1.0"])
    }

    /// Requests a store must refuse.
    enum BadUpdate: String, CaseIterable, Sendable {
        case unknownKey, relationship, wrongType, nilMandatory, keyPathThroughRelationship

        var values: [String: Any] {
            switch self {
            case .unknownKey: ["nope": 1]
            case .relationship: ["shelf": "x"]
            case .wrongType: ["price": "cheap"]
            case .nilMandatory: ["title": NSNull()]
            case .keyPathThroughRelationship: ["price": NSExpression(format: "shelf.name")]
            }
        }

        var code: Int {
            switch self {
            case .unknownKey, .relationship, .keyPathThroughRelationship: NSPersistentStoreUnsupportedRequestTypeError
            case .wrongType: NSManagedObjectValidationError
            case .nilMandatory: NSValidationMissingMandatoryPropertyError
            }
        }
    }

    @Test("bad requests throw a clear error and change nothing", arguments: BadUpdate.allCases)
    func badRequests(bad: BadUpdate) throws {
        let values = bad.values, code = bad.code
        let stack = try GraphStack.library()
        try stack.saveBooks(2)
        let context = stack.context()
        context.performAndWait { () -> Void in
            let request = NSBatchUpdateRequest(entityName: "Book")
            request.propertiesToUpdate = values
            #expect {
                _ = try context.execute(request)
            } throws: { error in
                let error = error as NSError
                return error.domain == NSCocoaErrorDomain && error.code == code && !error.localizedDescription.isEmpty
            }
        }
        #expect(try stack.values("Book", "price") == ["0.0", "1.0"])
    }

    @Test("an in-memory store refuses batch updates with 134091")
    func inMemoryStoreRefuses() throws {
        let stack = try GraphStack(.inMemory, model: LibraryModel.make())
        let context = stack.context()
        context.performAndWait { () -> Void in
            let request = NSBatchUpdateRequest(entityName: "Book")
            request.propertiesToUpdate = ["price": 1.0]
            #expect {
                _ = try context.execute(request)
            } throws: { error in
                (error as NSError).code == NSPersistentStoreUnsupportedRequestTypeError
            }
        }
    }
}

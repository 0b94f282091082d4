import OpenCoreData
import Testing

@Suite("Dictionary fetches: propertiesToFetch, key paths, relationships, distinct, grouping, having")
struct DictionaryFetchTests {
    static let users = 40

    @Test("propertiesToFetch names and attribute descriptions give one dictionary per row, nil values left out", arguments: TestStoreKind.allCases)
    func namesAndDescriptions(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: Self.users)
        let context = stack.context()
        let request = NSFetchRequest<NSDictionary>(entityName: "User")
        request.resultType = .dictionaryResultType
        let entity = try #require(stack.model.entitiesByName["User"])
        request.propertiesToFetch = ["name", try #require(entity.attributesByName["email"])]
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let rows = try context.performAndWait { try context.fetch(request) }
        #expect(rows.count == Self.users)
        for (i, row) in rows.enumerated() {
            #expect(row["name"] as? String == FetchingModel.name(i))
            #expect(row["email"] as? String == (i % 3 == 0 ? nil : "u\(i)@example.com"))
            #expect(row.count == (i % 3 == 0 ? 1 : 2))
        }
        #expect(context.registeredObjects.isEmpty)
    }

    @Test("a to-one relationship gives the destination's object ID and a key path reads through it", arguments: TestStoreKind.allCases)
    func relationshipsAndKeyPaths(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: Self.users)
        let context = stack.context()
        let request = NSFetchRequest<NSDictionary>(entityName: "Post")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["title", "author", "author.name", "author.age"]
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        let rows = try context.performAndWait { try context.fetch(request) }
        #expect(rows.count == (0..<Self.users).map(FetchingModel.postCount).reduce(0, +))
        try context.performAndWait {
            for row in rows {
                let title = try #require(row["title"] as? String)
                let i = try #require(Int(title.dropFirst().prefix { $0 != "-" }))
                let authorID = try #require(row["author"] as? NSManagedObjectID)
                let author = try context.existingObject(with: authorID)
                #expect(author.value(forKey: "name") as? String == FetchingModel.name(i))
                #expect(authorID.entity.name == "User")
                #expect(row["author.name"] as? String == FetchingModel.name(i))
                #expect((row["author.age"] as? NSNumber)?.intValue == FetchingModel.age(i))
            }
        }
    }

    @Test("returnsDistinctResults gives each combination of values once", arguments: TestStoreKind.allCases)
    func distinct(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: Self.users)
        let context = stack.context()
        let request = NSFetchRequest<NSDictionary>(entityName: "User")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["city"]
        request.returnsDistinctResults = true
        request.sortDescriptors = [NSSortDescriptor(key: "city", ascending: true)]
        let rows = try context.performAndWait { try context.fetch(request) }
        #expect(rows.compactMap { $0["city"] as? String } == FetchingModel.cities.sorted())
    }

    @Test(
        "propertiesToGroupBy with count: and sum: gives one dictionary per group; havingPredicate filters groups by an aggregate's name",
        arguments: TestStoreKind.allCases)
    func groupByAndHaving(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: Self.users)
        let context = stack.context()
        let request = NSFetchRequest<NSDictionary>(entityName: "User")
        request.resultType = .dictionaryResultType
        let count = expressionDescription(
            "count", NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: "name")]), .integer64AttributeType)
        let ages = expressionDescription(
            "ages", NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "age")]), .integer64AttributeType)
        request.propertiesToFetch = ["city", count, ages]
        request.propertiesToGroupBy = ["city"]
        request.sortDescriptors = [NSSortDescriptor(key: "city", ascending: true)]
        let rows = try context.performAndWait { try context.fetch(request) }
        #expect(rows.count == FetchingModel.cities.count)
        for row in rows {
            let city = try #require(row["city"] as? String)
            let members = (0..<Self.users).filter { FetchingModel.city($0) == city }
            #expect((row["count"] as? NSNumber)?.intValue == members.count)
            #expect((row["ages"] as? NSNumber)?.intValue == members.map(FetchingModel.age).reduce(0, +))
        }

        // Paris holds users 0, 4, 8…: the having predicate keeps the groups whose age sum is above it.
        let sums = FetchingModel.cities.map { city in (0..<Self.users).filter { FetchingModel.city($0) == city }.map(FetchingModel.age).reduce(0, +) }
        let threshold = sums.sorted()[1]
        request.havingPredicate = NSPredicate(format: "ages > %d", threshold)
        let kept = try context.performAndWait { try context.fetch(request) }
        let expected = zip(FetchingModel.cities, sums).filter { $0.1 > threshold }.map(\.0).sorted()
        #expect(kept.compactMap { $0["city"] as? String } == expected)

        request.havingPredicate = NSPredicate(format: "$ages > %d", threshold)
        let byVariable = try context.performAndWait { try context.fetch(request) }
        #expect(byVariable.compactMap { $0["city"] as? String } == expected)
    }

    @Test("grouping by a to-one relationship counts each author's posts", arguments: TestStoreKind.allCases)
    func groupByRelationship(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: Self.users)
        let context = stack.context()
        let request = NSFetchRequest<NSDictionary>(entityName: "Post")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["author.name", expressionDescription("n", NSExpression(format: "count:(title)"), .integer32AttributeType)]
        request.propertiesToGroupBy = ["author.name"]
        request.sortDescriptors = [NSSortDescriptor(key: "author.name", ascending: true)]
        let rows = try context.performAndWait { try context.fetch(request) }
        let authors = (0..<Self.users).filter { FetchingModel.postCount($0) > 0 }
        #expect(rows.compactMap { $0["author.name"] as? String } == authors.map(FetchingModel.name))
        #expect(rows.compactMap { ($0["n"] as? NSNumber)?.intValue } == authors.map(FetchingModel.postCount))
    }

    @Test("a fetched property that is neither grouped nor aggregated is refused with 134091", arguments: TestStoreKind.allCases)
    func ungroupedPropertyRefused(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: 4)
        let context = stack.context()
        let request = NSFetchRequest<NSDictionary>(entityName: "User")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["city", "name"]
        request.propertiesToGroupBy = ["city"]
        let error = #expect(throws: NSError.self) { try context.performAndWait { try context.fetch(request) } }
        #expect(error?.code == NSPersistentStoreUnsupportedRequestTypeError)
        #expect(error?.localizedDescription.contains("\"name\"") == true)
    }

    @Test("dictionary results ignore changes pending in the context, as Core Data's do")
    func ignoresPendingChanges() throws {
        let stack = try FetchingModel.stack(users: 8)
        let context = stack.context()
        let request = NSFetchRequest<NSDictionary>(entityName: "User")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name"]
        let rows = try context.performAndWait {
            context.make("User", ["name": "unsaved"])
            return try context.fetch(request)
        }
        #expect(rows.count == 8)
        #expect(!rows.contains { $0["name"] as? String == "unsaved" })
    }

    @Test("results of NSFetchRequest<NSFetchRequestResult> bridge to [[String: Any]] as on Apple platforms")
    func bridgesToSwiftDictionaries() throws {
        let stack = try FetchingModel.stack(users: 8)
        let context = stack.context()
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "User")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "height"]
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let results = try context.performAndWait { try context.fetch(request) }
        let dictionaries = try #require(results as? [[String: Any]])
        #expect(dictionaries.count == 8)
        #expect(dictionaries.first?["name"] as? String == FetchingModel.name(0))
        #expect(dictionaries.first?["height"] as? Double == FetchingModel.height(0))
    }
}

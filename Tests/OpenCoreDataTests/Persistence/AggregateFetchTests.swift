import Testing

@testable import OpenCoreDataCore

@Suite("Aggregates computed by the store: sum:, average:, min:, max:, count:, @sum key paths, posts.@count")
struct AggregateFetchTests {
    static let users = 60

    /// One dictionary fetch of User with the given expression descriptions.
    static func aggregate(
        _ context: NSManagedObjectContext, _ descriptions: [NSExpressionDescription],
        predicate: NSPredicate? = nil, includesSubentities: Bool = true
    ) throws -> NSDictionary {
        let request = NSFetchRequest<NSDictionary>(entityName: "User")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = descriptions
        request.predicate = predicate
        request.includesSubentities = includesSubentities
        let rows = try context.performAndWait { try context.fetch(request) }
        #expect(rows.count == 1)
        return try #require(rows.first)
    }

    @Test("sum:, average:, min:, max: and count: of attributes give the values of the whole table", arguments: TestStoreKind.allCases)
    func functions(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: Self.users)
        let context = stack.context()
        let ages = (0..<Self.users).map(FetchingModel.age)
        let heights = (0..<Self.users).map(FetchingModel.height)
        func function(_ name: String, _ key: String) -> NSExpression {
            NSExpression(forFunction: name, arguments: [NSExpression(forKeyPath: key)])
        }
        let row = try Self.aggregate(
            context,
            [
                expressionDescription("sumAge", function("sum:", "age"), .integer64AttributeType),
                expressionDescription("avgAge", function("average:", "age"), .doubleAttributeType),
                expressionDescription("minHeight", function("min:", "height"), .doubleAttributeType),
                expressionDescription("maxHeight", function("max:", "height"), .doubleAttributeType),
                expressionDescription("count", function("count:", "email"), .integer64AttributeType),
                expressionDescription("firstCreated", function("min:", "createdAt"), .dateAttributeType),
            ])
        #expect((row["sumAge"] as? NSNumber)?.intValue == ages.reduce(0, +))
        let average = try #require((row["avgAge"] as? NSNumber)?.doubleValue)
        #expect(abs(average - Double(ages.reduce(0, +)) / Double(Self.users)) < 1e-9)
        #expect((row["minHeight"] as? NSNumber)?.doubleValue == heights.min())
        #expect((row["maxHeight"] as? NSNumber)?.doubleValue == heights.max())
        #expect((row["count"] as? NSNumber)?.intValue == (0..<Self.users).filter { $0 % 3 != 0 }.count)
        #expect(row["firstCreated"] as? Date == FetchingModel.reference)
        #expect(context.registeredObjects.isEmpty)
    }

    @Test(
        "@sum.height and @count key path expressions aggregate the fetched rows; a predicate and includesSubentities narrow them",
        arguments: TestStoreKind.allCases)
    func keyPathAggregates(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: Self.users, admins: true)
        let context = stack.context()
        let row = try Self.aggregate(
            context,
            [
                expressionDescription("heights", NSExpression(format: "@sum.height"), .doubleAttributeType),
                expressionDescription("n", NSExpression(forKeyPath: "@count"), .integer32AttributeType),
            ], predicate: NSPredicate(format: "city == %@", "Paris"), includesSubentities: false)
        let members = (0..<Self.users).filter { FetchingModel.city($0) == "Paris" && !FetchingModel.isAdmin($0) }
        let expected = members.map(FetchingModel.height).reduce(0, +)
        let heights = try #require((row["heights"] as? NSNumber)?.doubleValue)
        #expect(abs(heights - expected) < 1e-9)
        #expect((row["n"] as? NSNumber)?.intValue == members.count)
    }

    @Test("a sum of no rows is 0 and an average of no rows is missing", arguments: TestStoreKind.allCases)
    func emptyAggregates(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: 5)
        let context = stack.context()
        let row = try Self.aggregate(
            context,
            [
                expressionDescription("sum", NSExpression(format: "sum:(age)"), .integer64AttributeType),
                expressionDescription("avg", NSExpression(format: "average:(age)"), .doubleAttributeType),
            ], predicate: NSPredicate(format: "age > 1000"))
        #expect((row["sum"] as? NSNumber)?.intValue == 0)
        #expect(row["avg"] == nil)
    }

    @Test("posts.@count is a fetched property per user, computed as a subquery", arguments: TestStoreKind.allCases)
    func countOfToMany(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: Self.users)
        let context = stack.context()
        let request = NSFetchRequest<NSDictionary>(entityName: "User")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", expressionDescription("postCount", NSExpression(format: "posts.@count"), .integer32AttributeType)]
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let rows = try context.performAndWait { try context.fetch(request) }
        #expect(rows.compactMap { ($0["postCount"] as? NSNumber)?.intValue } == (0..<Self.users).map(FetchingModel.postCount))
    }

    @Test("managed objects sort by posts.@count, then by name")
    func sortByToManyCount() throws {
        let stack = try FetchingModel.stack(users: Self.users)
        let context = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "User")
        request.sortDescriptors = [NSSortDescriptor(key: "posts.@count", ascending: false), NSSortDescriptor(key: "name", ascending: true)]
        let names = try context.performAndWait { try context.fetch(request).compactMap { $0.value(forKey: "name") as? String } }
        let expected = (0..<Self.users).sorted { a, b in
            FetchingModel.postCount(a) != FetchingModel.postCount(b) ? FetchingModel.postCount(a) > FetchingModel.postCount(b) : a < b
        }.map(FetchingModel.name)
        #expect(names == expected)
    }

    @Test("aggregates run in SQL: no object is registered and no row is read into the row cache")
    func computedByTheStore() throws {
        let stack = try FetchingModel.stack(users: Self.users)
        let context = try stack.freshContext()
        _ = try Self.aggregate(
            context,
            [
                expressionDescription("sum", NSExpression(format: "sum:(height)"), .doubleAttributeType),
                expressionDescription("max", NSExpression(format: "max:(posts.@count)"), .integer64AttributeType),
            ])
        #expect(context.registeredObjects.isEmpty)
        #expect(context.cachedRowCount == 0)
    }
}

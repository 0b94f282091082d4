import Testing

@testable import OpenCoreDataCore

/// The seeds' fetches written in Swift against our API, on thousands of rows: the first seed's
/// CoreDataQueryManager aggregates, the third seed's height/age sums, paging and counting.
@Suite("The seeds' fetches")
struct SeedFetchExamplesTests {
    static let users = 3000

    /// `fetchUserPostCounts`: name, email and posts.@count per user, most posts first.
    static func fetchUserPostCounts(_ context: NSManagedObjectContext) throws -> [NSDictionary] {
        let request = NSFetchRequest<NSDictionary>(entityName: "User")
        let countExpression = NSExpression(format: "posts.@count")
        let countDesc = NSExpressionDescription()
        countDesc.name = "postCount"
        countDesc.expression = countExpression
        countDesc.expressionResultType = .integer32AttributeType
        request.propertiesToFetch = ["name", "email", countDesc]
        request.resultType = .dictionaryResultType
        request.sortDescriptors = [NSSortDescriptor(key: "postCount", ascending: false)]
        return try context.fetch(request)
    }

    /// `averageUserAge`: average:(age) as a decimal.
    static func averageUserAge(_ context: NSManagedObjectContext) throws -> NSNumber? {
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "User")
        let ageExpression = NSExpression(forKeyPath: "age")
        let averageExpression = NSExpression(forFunction: "average:", arguments: [ageExpression])
        let averageDesc = NSExpressionDescription()
        averageDesc.name = "averageAge"
        averageDesc.expression = averageExpression
        averageDesc.expressionResultType = .decimalAttributeType
        request.propertiesToFetch = [averageDesc]
        request.resultType = .dictionaryResultType
        let results = try context.fetch(request) as? [[String: Any]]
        return results?.first?["averageAge"] as? NSNumber
    }

    @Test("fetchUserPostCounts returns every user with its post count, most posts first, without loading objects")
    func userPostCounts() throws {
        let stack = try FetchingModel.stack(users: Self.users)
        let context = try stack.freshContext()
        let results = try context.performAndWait { try Self.fetchUserPostCounts(context) }
        #expect(results.count == Self.users)
        let counts = results.compactMap { ($0["postCount"] as? NSNumber)?.intValue }
        #expect(counts == (0..<Self.users).map(FetchingModel.postCount).sorted(by: >))
        for result in results.prefix(50) {
            let name = try #require(result["name"] as? String)
            let i = try #require(Int(name.dropFirst(4)))
            #expect((result["postCount"] as? NSNumber)?.intValue == FetchingModel.postCount(i))
            #expect(result["email"] as? String == (i % 3 == 0 ? nil : "u\(i)@example.com"))
        }
        // Memory does not grow with the rows: no object is registered and no row is cached.
        #expect(context.registeredObjects.isEmpty)
        #expect(context.cachedRowCount == 0)
    }

    @Test("averageUserAge returns the mean age as a decimal number")
    func averageAge() throws {
        let stack = try FetchingModel.stack(users: Self.users)
        let context = try stack.freshContext()
        let average = try #require(try context.performAndWait { try Self.averageUserAge(context) })
        let expected = Double((0..<Self.users).map(FetchingModel.age).reduce(0, +)) / Double(Self.users)
        #expect(average is NSDecimalNumber)
        #expect(abs(average.doubleValue - expected) < 1e-9)
        #expect(context.registeredObjects.isEmpty)
        #expect(context.cachedRowCount == 0)
    }

    @Test("the third seed's sum: of Student.age as Integer 16 and @sum.height over Users")
    func sums() throws {
        let stack = try FetchingModel.stack(users: Self.users, students: 900)
        let context = try stack.freshContext()
        try context.performAndWait {
            let fetchRequest = NSFetchRequest<NSFetchRequestResult>(entityName: "Student")
            fetchRequest.resultType = .dictionaryResultType
            let descriptionName = "sumOperatin"
            let expressionDes = NSExpressionDescription()
            expressionDes.name = descriptionName
            expressionDes.expressionResultType = .integer16AttributeType
            expressionDes.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "age")])
            fetchRequest.propertiesToFetch = [expressionDes]
            let resultArr = try context.fetch(fetchRequest)
            let number = (resultArr.first as? NSDictionary)?[descriptionName] as? NSNumber
            #expect(number?.intValue == (0..<900).map { 10 + $0 % 9 }.reduce(0, +))

            let heights = NSFetchRequest<NSDictionary>(entityName: "User")
            heights.resultType = .dictionaryResultType
            heights.propertiesToFetch = [expressionDescription("total", NSExpression(format: "@sum.height"), .doubleAttributeType)]
            let total = try #require((try context.fetch(heights).first?["total"] as? NSNumber)?.doubleValue)
            #expect(abs(total - (0..<Self.users).map(FetchingModel.height).reduce(0, +)) < 1e-6)
        }
        #expect(context.registeredObjects.isEmpty)
        #expect(context.cachedRowCount == 0)
    }

    @Test("fetchUsersOrderedByPostCount: dictionaries sorted by the postCount description, then each user fetched by name and email")
    func usersOrderedByPostCount() throws {
        let stack = try FetchingModel.stack(users: Self.users)
        let context = stack.context()
        let users: [NSManagedObject] = try context.performAndWait {
            let results = try Self.fetchUserPostCounts(context)
            var users: [NSManagedObject] = []
            for result in results.prefix(40) {
                let userRequest = NSFetchRequest<NSManagedObject>(entityName: "User")
                userRequest.predicate = NSPredicate(
                    format: "name == %@ AND email == %@",
                    argumentArray: [result["name"] ?? NSNull(), result["email"] ?? NSNull()])
                userRequest.fetchLimit = 1
                if let user = try context.fetch(userRequest).first { users.append(user) }
            }
            return users
        }
        #expect(users.count == 40)
        try context.performAndWait { () throws -> Void in
            for user in users {
                #expect((user.value(forKey: "posts") as? NSSet)?.count == 4)
            }
            let names = users.compactMap { $0.value(forKey: "name") as? String }
            #expect(Set(names).count == 40)
            #expect(names.allSatisfy { name in Int(name.dropFirst(4)).map { FetchingModel.postCount($0) == 4 } ?? false })
        }
    }

    @Test("paging with fetchOffset and fetchLimit walks every post once, in order; countForFetchRequest counts users")
    func paging() throws {
        let stack = try FetchingModel.stack(users: 400)
        let context = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        let pageSize = 100
        var offset = 0
        var titles: [String] = []
        try context.performAndWait {
            while true {
                request.fetchLimit = pageSize
                request.fetchOffset = offset
                let posts = try context.fetch(request)
                #expect(posts.count <= pageSize)
                titles += posts.compactMap { $0.value(forKey: "title") as? String }
                offset += posts.count
                if posts.count < pageSize { break }
            }
        }
        let expected = (0..<400).flatMap { i in (0..<FetchingModel.postCount(i)).map { "p\(i)-\($0)" } }.sorted()
        #expect(titles == expected)
        let count = try context.performAndWait { try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "User")) }
        #expect(count == 400)

        // The third seed: six students from the sixth, by age.
        let students = NSFetchRequest<NSManagedObject>(entityName: "User")
        students.fetchOffset = 6
        students.fetchLimit = 6
        students.sortDescriptors = [NSSortDescriptor(key: "age", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
        let page = try context.performAndWait { try context.fetch(students).compactMap { $0.value(forKey: "name") as? String } }
        let ordered = (0..<400).sorted { FetchingModel.age($0) != FetchingModel.age($1) ? FetchingModel.age($0) < FetchingModel.age($1) : $0 < $1 }
        #expect(page == ordered[6..<12].map(FetchingModel.name))
    }
}

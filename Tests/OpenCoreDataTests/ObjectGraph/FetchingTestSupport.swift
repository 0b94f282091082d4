import Testing

@testable import OpenCoreDataCore

/// The seeds' User/Post model grown for the fetching tests: User(name, email, age, height, city,
/// createdAt, posts) with subentity Admin(level), Post(title, likes, publishedAt, author), and
/// Student(name, age) for the sum seed. Rows follow fixed formulas so tests compute expected values.
enum FetchingModel {
    static let cities = ["Paris", "Tokyo", "Lima", "Oslo"]
    static let reference = Date(timeIntervalSinceReferenceDate: 700_000_000)

    static func make() -> NSManagedObjectModel {
        let user = ModelKit.entity(
            "User",
            [
                ModelKit.attribute("name", .stringAttributeType),
                ModelKit.attribute("email", .stringAttributeType),
                ModelKit.attribute("age", .integer32AttributeType),
                ModelKit.attribute("height", .doubleAttributeType),
                ModelKit.attribute("city", .stringAttributeType),
                ModelKit.attribute("createdAt", .dateAttributeType),
            ])
        let admin = ModelKit.entity("Admin", [ModelKit.attribute("level", .integer16AttributeType)])
        user.subentities = [admin]
        let post = ModelKit.entity(
            "Post",
            [
                ModelKit.attribute("title", .stringAttributeType),
                ModelKit.attribute("likes", .integer64AttributeType),
                ModelKit.attribute("publishedAt", .dateAttributeType),
            ])
        let student = ModelKit.entity(
            "Student",
            [
                ModelKit.attribute("name", .stringAttributeType),
                ModelKit.attribute("age", .integer16AttributeType),
            ])
        for entity in [user, admin, post, student] { entity.managedObjectClassName = "NSManagedObject" }
        let posts = ModelKit.relationship("posts", to: post, toMany: true)
        let author = ModelKit.relationship("author", to: user)
        ModelKit.pair(posts, author)
        user.properties += [posts]
        post.properties += [author]
        let model = NSManagedObjectModel()
        model.entities = [user, admin, post, student]
        return model
    }

    /// User `i`'s values.
    static func name(_ i: Int) -> String { "user" + String(format: "%04d", i) }
    static func age(_ i: Int) -> Int { 20 + i % 40 }
    static func height(_ i: Int) -> Double { 1.5 + Double(i % 50) / 100 }
    static func city(_ i: Int) -> String { cities[i % cities.count] }
    static func isAdmin(_ i: Int) -> Bool { i % 10 == 9 }
    static func postCount(_ i: Int) -> Int { i % 5 }
    static func likes(_ i: Int, _ k: Int) -> Int { (i * 3 + k) % 7 }

    /// Inserts `users` users (with `admins`, every tenth an Admin with only its own attribute `level` set
    /// and no posts) with their posts, and `students` students, and saves.
    static func populate(_ context: NSManagedObjectContext, users: Int, students: Int = 0, admins: Bool = false) throws {
        try context.performAndWait {
            for i in 0..<users {
                let admin = admins && isAdmin(i)
                let user = NSEntityDescription.insertNewObject(forEntityName: admin ? "Admin" : "User", into: context)
                if admin {
                    user.setValue(i % 3, forKey: "level")
                    continue
                }
                user.setValue(name(i), forKey: "name")
                user.setValue(i % 3 == 0 ? nil : "u\(i)@example.com", forKey: "email")
                user.setValue(age(i), forKey: "age")
                user.setValue(height(i), forKey: "height")
                user.setValue(city(i), forKey: "city")
                user.setValue(reference.addingTimeInterval(Double(i) * 86_400), forKey: "createdAt")
                for k in 0..<postCount(i) {
                    let post = NSEntityDescription.insertNewObject(forEntityName: "Post", into: context)
                    post.setValue("p\(i)-\(k)", forKey: "title")
                    post.setValue(likes(i, k), forKey: "likes")
                    post.setValue(k % 2 == 0 ? reference.addingTimeInterval(Double(k) * 3600) : nil, forKey: "publishedAt")
                    post.setValue(user, forKey: "author")
                }
                if i % 500 == 499 { try context.save() }
            }
            for i in 0..<students {
                let student = NSEntityDescription.insertNewObject(forEntityName: "Student", into: context)
                student.setValue("student\(i)", forKey: "name")
                student.setValue(10 + i % 9, forKey: "age")
            }
            try context.save()
            context.reset()
        }
    }

    /// A SQLite (or in-memory) stack with `users` users saved in it.
    static func stack(_ kind: TestStoreKind = .sqlite, users: Int, students: Int = 0, admins: Bool = false) throws -> GraphStack {
        let stack = try GraphStack(kind, model: make())
        try populate(stack.context(), users: users, students: students, admins: admins)
        return stack
    }
}

extension GraphStack {
    /// A context on a new coordinator of the same SQLite file, whose row cache starts empty.
    func freshContext() throws -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = try secondCoordinator()
        return context
    }
}

extension NSManagedObjectContext {
    /// The number of rows its coordinator holds in the row cache: the rows read from the store so far.
    var cachedRowCount: Int { persistentStoreCoordinator?._rowCache.count ?? 0 }
}

/// An expression description, as users build one.
func expressionDescription(
    _ name: String, _ expression: NSExpression,
    _ type: NSAttributeType = .undefinedAttributeType
) -> NSExpressionDescription {
    let description = NSExpressionDescription()
    description.name = name
    description.expression = expression
    description.expressionResultType = type
    return description
}

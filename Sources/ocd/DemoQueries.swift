import OpenCoreData

/// One of the first seed's queries: a fetch request on the User entity, printed with its results.
struct DemoQuery {
    var title: String
    var predicate: NSPredicate?
    var sortDescriptors: [NSSortDescriptor] = []
    var offset = 0
    var limit = 0
    var show: [String] = ["name", "age", "email"]

    func run(in context: NSManagedObjectContext) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: "User")
        request.predicate = predicate
        request.sortDescriptors = sortDescriptors
        request.fetchOffset = offset
        request.fetchLimit = limit
        let clock = ContinuousClock()
        let start = clock.now
        let users = try context.fetch(request)
        let fetched = clock.now - start
        let total = try context.count(for: request)
        print("\(title)\n  predicate: \(predicate?.predicateFormat ?? "(all)")")
        if !sortDescriptors.isEmpty {
            print("  sorted by: " + sortDescriptors.map { "\($0.key ?? "SELF") \($0.ascending ? "asc" : "desc")" }.joined(separator: ", "))
        }
        if offset > 0 || limit > 0 { print("  page: offset \(offset), limit \(limit)") }
        print("  \(users.count) fetched in \(fetched); count(for:) = \(total)")
        for user in users.prefix(3) {
            print("    " + show.map { key in "\(key)=\(user.value(forKey: key).map { "\($0)" } ?? "nil")" }.joined(separator: " "))
        }
        print("")
    }
}

/// The seed's queries (`fetchUserByEmail`, `fetchUsersWithAgeRange`, `searchUsers`, the complex fetch,
/// `fetchActiveUsersWithPosts`, paging).
enum DemoQueries {
    static var all: [DemoQuery] {
        [
            DemoQuery(
                title: "fetchUserByEmail",
                predicate: NSPredicate(format: "email == %@", "user8@example.com"), limit: 1),
            DemoQuery(
                title: "fetchUsersWithAgeRange(25...35)",
                predicate: NSPredicate(format: "age >= %ld AND age <= %ld", 25, 35),
                sortDescriptors: [NSSortDescriptor(key: "age", ascending: true)]),
            DemoQuery(
                title: "searchUsers(\"chloe\")",
                predicate: NSPredicate(format: "name CONTAINS[cd] %@", "chloe"),
                sortDescriptors: [NSSortDescriptor(key: "name", ascending: true)]),
            DemoQuery(
                title: "complex fetch",
                predicate: NSPredicate(format: "posts.@count > 5 AND age > 25")),
            DemoQuery(
                title: "fetchActiveUsersWithPosts",
                predicate: NSPredicate(format: "SUBQUERY(posts, $post, $post.publishedAt != nil).@count > 0"),
                sortDescriptors: [NSSortDescriptor(key: "name", ascending: true)]),
            DemoQuery(
                title: "page 3, newest first (20 per page)",
                sortDescriptors: [NSSortDescriptor(key: "createdAt", ascending: false)],
                offset: 40, limit: 20, show: ["name", "createdAt"]),
            DemoQuery(
                title: "users without an email",
                predicate: NSPredicate(format: "email == nil")),
        ]
    }
}

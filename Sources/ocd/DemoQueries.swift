import OpenCoreData

/// One of the first seed's queries: a predicate, sort descriptors and a page.
struct DemoQuery {
    var title: String
    var predicate: NSPredicate?
    var sortDescriptors: [NSSortDescriptor] = []
    var offset = 0
    var limit = 0
    var show: [String] = ["name", "age", "email"]

    func run(on rows: [[String: Any]]) throws {
        let clock = ContinuousClock()
        var result: [[String: Any]] = []
        let elapsed = clock.measure {
            var matched = predicate.map { p in rows.filter { p.evaluate(with: $0) } } ?? rows
            if !sortDescriptors.isEmpty { matched = matched.sortedArray(using: sortDescriptors) }
            let page = matched.dropFirst(offset)
            result = Array(limit > 0 ? page.prefix(limit) : page)
        }
        let format = predicate?.predicateFormat ?? "(all)"
        print("\(title)\n  predicate: \(format)")
        if !sortDescriptors.isEmpty {
            print("  sorted by: " + sortDescriptors.map { "\($0.key ?? "SELF") \($0.ascending ? "asc" : "desc")" }.joined(separator: ", "))
        }
        print("  \(result.count) result(s) in \(elapsed)")
        for row in result.prefix(3) {
            print("    " + show.map { "\($0)=\(row[$0].map { "\($0)" } ?? "nil")" }.joined(separator: " "))
        }
        print("")
    }
}

enum DemoQueries {
    static var all: [DemoQuery] {
        [
            DemoQuery(title: "fetchUserByEmail",
                      predicate: NSPredicate(format: "email == %@", "user8@example.com"), limit: 1),
            DemoQuery(title: "fetchUsersWithAgeRange(25..<35)",
                      predicate: NSPredicate(format: "age >= %ld AND age <= %ld", 25, 35),
                      sortDescriptors: [NSSortDescriptor(key: "age", ascending: true)]),
            DemoQuery(title: "searchUsers(\"chloe\")",
                      predicate: NSPredicate(format: "name CONTAINS[cd] %@", "chloe")),
            DemoQuery(title: "complex: posts.@count > 5 AND age > 25",
                      predicate: NSPredicate(format: "posts.@count > 5 AND age > 25")),
            DemoQuery(title: "fetchActiveUsersWithPosts",
                      predicate: NSPredicate(format: "SUBQUERY(posts, $post, $post.publishedAt != nil).@count > 0"),
                      sortDescriptors: [NSSortDescriptor(key: "name", ascending: true)]),
            DemoQuery(title: "page 3 of users by creation date, newest first (20 per page)",
                      predicate: nil,
                      sortDescriptors: [NSSortDescriptor(key: "createdAt", ascending: false)],
                      offset: 40, limit: 20, show: ["name", "createdAt"]),
            DemoQuery(title: "users without an email",
                      predicate: NSPredicate(format: "email == nil")),
        ]
    }
}

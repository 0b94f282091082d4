import OpenCoreData

/// The demo's rows: users with posts, inserted as managed objects.
enum DemoData {
    static let firstNames = ["Ann", "Bo", "Chloé", "Dmitri", "Élodie", "Farid", "Grace", "Hiro", "Inés", "Jonas"]
    static let lastNames = ["Smith", "Müller", "Wang", "García", "Okafor", "Rossi", "Kim", "Novak"]

    /// Deletes every post and user, then saves.
    static func deleteAll(in context: NSManagedObjectContext) throws {
        for entityName in ["Post", "User"] {
            let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
            request.includesPropertyValues = false
            for object in try context.fetch(request) { context.delete(object) }
        }
        try context.save()
    }

    /// Inserts `count` users; user `i` has `i % 10` posts, an age between 18 and 67, and an email unless
    /// `i % 7 == 0`. One save.
    static func insert(users count: Int, into context: NSManagedObjectContext) throws -> (users: Int, posts: Int) {
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
        var generator = SplitMix64(seed: 2009)
        var posts = 0
        for i in 0..<count {
            let name = "\(firstNames[i % firstNames.count]) \(lastNames[(i / firstNames.count) % lastNames.count]) \(i)"
            let user = NSEntityDescription.insertNewObject(forEntityName: "User", into: context)
            user.setValue(name, forKey: "name")
            user.setValue(18 + Int(generator.next() % 50), forKey: "age")
            user.setValue(start.addingTimeInterval(Double(i) * 3600), forKey: "createdAt")
            if i % 7 != 0 { user.setValue("user\(i)@example.com", forKey: "email") }
            let userPosts = user.mutableSetValue(forKey: "posts")
            for p in 0..<(i % 10) {
                let post = NSEntityDescription.insertNewObject(forEntityName: "Post", into: context)
                post.setValue("Post \(p) by \(name)", forKey: "title")
                post.setValue("Lorem ipsum \(p)", forKey: "content")
                if p % 3 != 0 { post.setValue(start.addingTimeInterval(Double(i * 100 + p) * 60), forKey: "publishedAt") }
                post.setValue(user, forKey: "author")
                userPosts.add(post)
                posts += 1
            }
        }
        try context.save()
        return (count, posts)
    }
}

/// A small deterministic pseudo-random generator, so every run of the demo writes the same rows.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

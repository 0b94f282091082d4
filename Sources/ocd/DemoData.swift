import OpenCoreData

/// Deterministic sample rows for the demo: users with posts, as key-value dictionaries.
enum DemoData {
    static let firstNames = ["Ann", "Bo", "Chloé", "Dmitri", "Élodie", "Farid", "Grace", "Hiro", "Inés", "Jonas"]
    static let lastNames = ["Smith", "Müller", "Wang", "García", "Okafor", "Rossi", "Kim", "Novak"]

    /// `count` users; user `i` has `i % 10` posts, an age between 18 and 67, and an email unless `i % 7 == 0`.
    static func generate(users count: Int) -> [[String: Any]] {
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
        var generator = SplitMix64(seed: 2009)
        return (0..<count).map { i in
            let name = "\(firstNames[i % firstNames.count]) \(lastNames[(i / firstNames.count) % lastNames.count]) \(i)"
            var user: [String: Any] = [
                "name": name,
                "age": 18 + Int(generator.next() % 50),
                "createdAt": start.addingTimeInterval(Double(i) * 3600),
            ]
            if i % 7 != 0 { user["email"] = "user\(i)@example.com" }
            user["posts"] = (0..<(i % 10)).map { p -> [String: Any] in
                var post: [String: Any] = ["title": "Post \(p) by \(name)", "content": "Lorem ipsum \(p)"]
                if p % 3 != 0 { post["publishedAt"] = start.addingTimeInterval(Double(i * 100 + p) * 60) }
                return post
            }
            return user
        }
    }
}

/// A small deterministic pseudo-random generator, so every run of the demo prints the same rows.
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

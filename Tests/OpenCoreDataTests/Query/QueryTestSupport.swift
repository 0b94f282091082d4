import OpenCoreData

/// A class that adopts `KeyValueCoding` by hand, as `NSManagedObject` and user types do.
final class QueryPerson: KeyValueCoding {
    let name: String
    let age: Int
    let nickname: String?
    let score: Double
    var friends: [QueryPerson]
    let tags: Set<String>
    var boss: QueryPerson?

    init(
        name: String, age: Int, nickname: String? = nil, score: Double = 0, friends: [QueryPerson] = [],
        tags: Set<String> = [], boss: QueryPerson? = nil
    ) {
        self.name = name
        self.age = age
        self.nickname = nickname
        self.score = score
        self.friends = friends
        self.tags = tags
        self.boss = boss
    }

    func value(forKey key: String) -> Any? {
        switch key {
        case "name": return name
        case "age": return age
        case "nickname": return nickname
        case "score": return score
        case "friends": return friends
        case "tags": return tags
        case "boss": return boss
        default: return nil
        }
    }
}

/// Shorthand for building predicates programmatically in tests.
enum Q {
    static func key(_ path: String) -> NSExpression { NSExpression(forKeyPath: path) }
    static func const(_ value: Any?) -> NSExpression { NSExpression(forConstantValue: value) }

    static func compare(
        _ path: String, _ op: NSComparisonPredicate.Operator, _ value: Any?,
        _ options: NSComparisonPredicate.Options = [],
        modifier: NSComparisonPredicate.Modifier = .direct
    ) -> NSComparisonPredicate {
        NSComparisonPredicate(
            leftExpression: key(path), rightExpression: const(value), modifier: modifier,
            type: op, options: options)
    }

    static func values(
        _ lhs: Any?, _ op: NSComparisonPredicate.Operator, _ rhs: Any?,
        _ options: NSComparisonPredicate.Options = []
    ) -> Bool {
        NSComparisonPredicate(
            leftExpression: const(lhs), rightExpression: const(rhs), modifier: .direct,
            type: op, options: options
        ).evaluate(with: nil)
    }
}

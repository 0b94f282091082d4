import OpenCoreData
import Testing

/// A plain Swift value with no Key-Value Coding at all: evaluation reads its stored properties.
private struct Plain {
    let title: String
    let pages: Int
    let subtitle: String?
}

/// A type that answers whole key paths itself.
private final class Flattening: KeyValueCoding {
    func value(forKey key: String) -> Any? { key == "x" ? 1 : nil }
    func value(forKeyPath keyPath: String) -> Any? { keyPath == "a.b.c" ? "flat" : value(forKey: keyPath) }
}

@Suite("Key-value access")
struct KeyValueAccessTests {
    @Test("value(forKeyPath:) walks dotted paths through KeyValueCoding objects")
    func dottedPaths() {
        let boss = QueryPerson(name: "Boss", age: 60)
        let person = QueryPerson(name: "Ann", age: 30, boss: boss)
        #expect(person.value(forKeyPath: "boss.name") as? String == "Boss")
        #expect(person.value(forKeyPath: "boss.boss") == nil)
        #expect(person.value(forKeyPath: "boss.boss.name") == nil)
        #expect(person.value(forKeyPath: "nothing.at.all") == nil)
        #expect(person.value(forKeyPath: "name") as? String == "Ann")
    }

    @Test("a key applied to a to-many value maps over its elements")
    func toManyMapping() {
        let person = QueryPerson(name: "P", age: 1, friends: [QueryPerson(name: "a", age: 2), QueryPerson(name: "b", age: 3)])
        let names = person.value(forKeyPath: "friends.name") as? [Any]
        #expect(names?.compactMap { $0 as? String } == ["a", "b"])
    }

    @Test("collection operators on KeyValueCoding objects")
    func collectionOperators() {
        let person = QueryPerson(
            name: "P", age: 1,
            friends: [
                QueryPerson(name: "a", age: 2, tags: ["x", "y"]), QueryPerson(name: "b", age: 4, tags: ["y"]),
            ])
        #expect(person.value(forKeyPath: "friends.@count") as? Int == 2)
        #expect(person.value(forKeyPath: "friends.@sum.age") as? Int == 6)
        #expect(person.value(forKeyPath: "friends.@avg.age") as? Double == 3)
        #expect(person.value(forKeyPath: "friends.@min.age") as? Int == 2)
        #expect(person.value(forKeyPath: "friends.@max.age") as? Int == 4)
        #expect((person.value(forKeyPath: "friends.@unionOfSets.tags") as? [Any])?.count == 3)
        #expect((person.value(forKeyPath: "friends.@distinctUnionOfSets.tags") as? [Any])?.count == 2)
        #expect((person.value(forKeyPath: "friends.@unionOfArrays.tags") as? [Any])?.count == 3)
        #expect((person.value(forKeyPath: "friends.@distinctUnionOfArrays.tags") as? [Any])?.count == 2)
        #expect(person.value(forKeyPath: "friends.@nonsense.age") == nil)
        #expect(person.value(forKeyPath: "name.@count") == nil)
    }

    @Test("empty collections: @count and @sum are 0, @min and @max nil")
    func emptyCollections() {
        let person = QueryPerson(name: "P", age: 1)
        #expect(person.value(forKeyPath: "friends.@count") as? Int == 0)
        #expect(person.value(forKeyPath: "friends.@sum.age") as? Int == 0)
        #expect(person.value(forKeyPath: "friends.@max.age") == nil)
        #expect(person.value(forKeyPath: "friends.@min.age") == nil)
    }

    @Test("dictionaries of every flavor, NSDictionary and nested dictionaries are read")
    func dictionaries() {
        let swift: [String: Any] = ["a": ["b": 2]]
        let optional: [String: Any?] = ["a": nil, "b": 3]
        let ns = NSDictionary(dictionary: ["a": NSDictionary(dictionary: ["b": 5])])
        let typed: [String: Int] = ["n": 9]
        #expect(Q.key("a.b").expressionValue(with: swift, context: nil) as? Int == 2)
        #expect(Q.key("a").expressionValue(with: optional, context: nil) == nil)
        #expect(Q.key("b").expressionValue(with: optional, context: nil) as? Int == 3)
        #expect(Q.key("a.b").expressionValue(with: ns, context: nil) as? Int == 5)
        #expect(Q.key("n").expressionValue(with: typed, context: nil) as? Int == 9)
        #expect(Q.key("missing.deeper").expressionValue(with: ns, context: nil) == nil)
        #expect(Q.key("a.@count").expressionValue(with: swift, context: nil) as? Int == 1)
        #expect(Q.key("a.@count").expressionValue(with: ns, context: nil) as? Int == 1)
    }

    @Test("stored properties of plain Swift values are read by name")
    func reflection() {
        let book = Plain(title: "Dune", pages: 412, subtitle: nil)
        #expect(Q.key("title").expressionValue(with: book, context: nil) as? String == "Dune")
        #expect(Q.compare("pages", .greaterThan, 400).evaluate(with: book))
        #expect(Q.compare("subtitle", .equalTo, nil).evaluate(with: book))
        #expect(Q.compare("isbn", .equalTo, nil).evaluate(with: book))
    }

    @Test("strings answer length; SELF is the object itself")
    func stringsAndSelf() {
        #expect(Q.key("length").expressionValue(with: "héllo", context: nil) as? Int == 5)
        #expect(Q.compare("self", .equalTo, "x").evaluate(with: "x"))
        #expect(Q.compare("SELF", .greaterThan, 2).evaluate(with: 3))
    }

    @Test("a type's own value(forKeyPath:) is used when it has one")
    func customKeyPathImplementation() {
        #expect(Q.key("a.b.c").expressionValue(with: Flattening(), context: nil) as? String == "flat")
        #expect(Q.key("x").expressionValue(with: Flattening(), context: nil) as? Int == 1)
    }

    @Test("sets map keys to distinct values, NSOrderedSet and NSArray are collections")
    func foundationCollections() {
        let set: Set<AnyHashable> = [["k": 1] as NSDictionary, ["k": 1, "other": 2] as NSDictionary]
        let mapped = Q.key("k").expressionValue(with: set, context: nil) as? [Any]
        #expect(mapped?.count == 1)
        let ordered = NSOrderedSet(array: [["k": 1], ["k": 2]])
        #expect(Q.key("@sum.k").expressionValue(with: ordered, context: nil) as? Int == 3)
        let array = NSArray(array: [["k": 4], ["k": 5]])
        #expect(Q.key("@max.k").expressionValue(with: array, context: nil) as? Int == 5)
    }
}

import OpenCoreData
import Testing

@Suite("Array filtering and sorting")
struct ArrayFilteringTests {
    let people = [
        QueryPerson(name: "Ann", age: 31), QueryPerson(name: "Bob", age: 17),
        QueryPerson(name: "Cid", age: 45),
    ]

    @Test("Array.filtered(using:) keeps the matching elements in order")
    func arrayFiltered() {
        let adults = people.filtered(using: Q.compare("age", .greaterThanOrEqualTo, 18))
        #expect(adults.map(\.name) == ["Ann", "Cid"])
        let numbers = [5, 1, 8, 3].filtered(using: Q.compare("SELF", .greaterThan, 3))
        #expect(numbers == [5, 8])
    }

    @Test("Array.filter(using:) and sort(using:) mutate in place")
    func mutating() {
        var copy = people
        copy.filter(using: Q.compare("name", .contains, "o"))
        #expect(copy.map(\.name) == ["Bob"])
        var all = people
        all.sort(using: [NSSortDescriptor(key: "age", ascending: true)])
        #expect(all.map(\.name) == ["Bob", "Ann", "Cid"])
    }

    @Test("NSArray, NSMutableArray, NSSet and NSOrderedSet filter and sort with our predicates")
    func foundationCollections() {
        let array = NSArray(array: [["n": 3], ["n": 1], ["n": 2]])
        #expect(array.filtered(using: Q.compare("n", .greaterThan, 1)).count == 2)
        let sorted = array.sortedArray(using: [NSSortDescriptor(key: "n", ascending: true)])
        #expect(sorted.compactMap { ($0 as? NSDictionary)?["n"] as? Int } == [1, 2, 3])
        let mutable = NSMutableArray(array: [1, 2, 3, 4])
        mutable.filter(using: Q.compare("SELF", .between, [2, 3]))
        #expect(mutable.count == 2)
        mutable.sort(using: [NSSortDescriptor(key: nil, ascending: false)])
        #expect(mutable.compactMap { $0 as? Int } == [3, 2])
        let set = NSSet(array: ["apple", "banana", "avocado"])
        #expect(set.filtered(using: Q.compare("SELF", .beginsWith, "a")).count == 2)
        #expect(
            set.sortedArray(using: [NSSortDescriptor(key: nil, ascending: true)]).compactMap { $0 as? String }
                == ["apple", "avocado", "banana"])
        let ordered = NSOrderedSet(array: ["x", "yy", "zzz"])
        #expect(ordered.filtered(using: Q.compare("length", .greaterThan, 1)).count == 2)
        let swiftSet: Set<String> = ["a", "bb"]
        #expect(swiftSet.filtered(using: Q.compare("length", .equalTo, 2)) == ["bb"])
    }

    @Test("filtering with a format-string predicate, as Core Data users write it")
    func formatPredicates() {
        let result = people.filtered(using: NSPredicate(format: "age > %@ AND name BEGINSWITH[c] %@", 20, "c"))
        #expect(result.map(\.name) == ["Cid"])
        let dictionaries: [[String: Any]] = [["title": "Harry Potter"], ["title": "Dune"]]
        #expect(dictionaries.filtered(using: NSPredicate(format: "title CONTAINS[cd] %@", "harry")).count == 1)
    }
}

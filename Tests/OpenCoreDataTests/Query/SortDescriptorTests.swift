import OpenCoreData
import Testing

/// A type whose properties are computed, so it names its Swift key paths itself.
private final class Computed: KeyValueCoding {
    private let storage: [String: Any]
    init(_ storage: [String: Any]) { self.storage = storage }
    var rank: Int { storage["rank"] as? Int ?? 0 }

    func value(forKey key: String) -> Any? { storage[key] }

    static func kvcKeyPathString(for keyPath: AnyKeyPath) -> String? {
        keyPath == \Computed.rank ? "rank" : nil
    }
}

@Suite("Sort descriptors")
struct SortDescriptorTests {
    let people = [
        QueryPerson(name: "carl", age: 30, nickname: "C"),
        QueryPerson(name: "Ann", age: 25),
        QueryPerson(name: "bob", age: 30, nickname: "B"),
    ]

    private func names(_ values: [QueryPerson]) -> [String] { values.map(\.name) }

    @Test("key, ascending and selector are kept; the default comparison is compare:")
    func accessors() {
        let descriptor = NSSortDescriptor(key: "age", ascending: false)
        #expect(descriptor.key == "age" && !descriptor.ascending && descriptor.selector == "compare:")
        let reversed = descriptor.reversedSortDescriptor as? NSSortDescriptor
        #expect(reversed?.ascending == true && reversed?.key == "age")
        #expect(
            NSSortDescriptor(key: "name", ascending: true, selector: "localizedStandardCompare:").selector
                == "localizedStandardCompare:")
    }

    @Test("compare(_:to:) orders by the key and reverses when descending")
    func compare() {
        let ascending = NSSortDescriptor(key: "age", ascending: true)
        #expect(ascending.compare(people[1], to: people[0]) == .orderedAscending)
        #expect(ascending.compare(people[0], to: people[2]) == .orderedSame)
        let descending = NSSortDescriptor(key: "age", ascending: false)
        #expect(descending.compare(people[1], to: people[0]) == .orderedDescending)
    }

    @Test("several descriptors sort by the first one that tells elements apart")
    func multipleKeys() {
        let sorted = people.sortedArray(using: [
            NSSortDescriptor(key: "age", ascending: false),
            NSSortDescriptor(key: "name", ascending: true),
        ])
        #expect(names(sorted) == ["bob", "carl", "Ann"])
    }

    @Test("compare: is case-sensitive; caseInsensitiveCompare: and localized comparisons are not")
    func stringSelectors() {
        let plain = people.sortedArray(using: [NSSortDescriptor(key: "name", ascending: true)])
        #expect(names(plain) == ["Ann", "bob", "carl"])
        let strings = ["b", "B", "a", "C"].map { ["s": $0] }
        let sensitive = strings.sortedArray(using: [NSSortDescriptor(key: "s", ascending: true)]).map { $0["s"]! }
        #expect(sensitive == ["B", "C", "a", "b"])
        let insensitive = strings.sortedArray(using: [
            NSSortDescriptor(
                key: "s", ascending: true,
                selector: "caseInsensitiveCompare:")
        ])
        #expect(insensitive.map { $0["s"]!.lowercased() } == ["a", "b", "b", "c"])
        let files = ["file10", "file2", "File1"].map { ["s": $0] }
        let standard = files.sortedArray(using: [
            NSSortDescriptor(
                key: "s", ascending: true,
                selector: "localizedStandardCompare:")
        ])
        #expect(standard.map { $0["s"]! } == ["File1", "file2", "file10"])
        let localized = strings.sortedArray(using: [
            NSSortDescriptor(
                key: "s", ascending: true,
                selector: "localizedCaseInsensitiveCompare:")
        ])
        #expect(localized.map { $0["s"]!.lowercased() } == ["a", "b", "b", "c"])
    }

    @Test("nil sorts first ascending and last descending")
    func nilOrdering() {
        let ascending = people.sortedArray(using: [NSSortDescriptor(key: "nickname", ascending: true)])
        #expect(names(ascending) == ["Ann", "bob", "carl"])
        let descending = people.sortedArray(using: [NSSortDescriptor(key: "nickname", ascending: false)])
        #expect(names(descending) == ["carl", "bob", "Ann"])
    }

    @Test("key paths through to-one relationships")
    func keyPaths() {
        let big = QueryPerson(name: "Big", age: 60), small = QueryPerson(name: "Small", age: 20)
        let staff = [
            QueryPerson(name: "x", age: 1, boss: big), QueryPerson(name: "y", age: 1, boss: small),
            QueryPerson(name: "z", age: 1),
        ]
        let sorted = staff.sortedArray(using: [NSSortDescriptor(key: "boss.age", ascending: true)])
        #expect(names(sorted) == ["z", "y", "x"])
    }

    @Test("a comparator block decides the order")
    func comparator() {
        let byLength = NSSortDescriptor(key: "name", ascending: true) { a, b in
            let x = (a as? String)?.count ?? 0, y = (b as? String)?.count ?? 0
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
        #expect(byLength.selector == nil)
        let sorted = people.sortedArray(using: [byLength])
        #expect(names(sorted) == ["Ann", "bob", "carl"])
        let reversed = byLength.reversedSortDescriptor as? NSSortDescriptor
        #expect(reversed.map { names(people.sortedArray(using: [$0])) } == ["carl", "Ann", "bob"])
        #expect(byLength.comparator("aa", "a") == .orderedDescending)
    }

    @Test("a nil key sorts the objects themselves; mixed numbers sort by value")
    func nilKey() {
        let values: [Any] = [3, 1.5, Int64(2), true]
        let sorted = values.sortedArray(using: [NSSortDescriptor(key: nil, ascending: true)])
        #expect(sorted.map { "\($0)" } == ["true", "1.5", "2", "3"])
    }

    @Test("equal descriptors are equal")
    func equality() {
        #expect(NSSortDescriptor(key: "a", ascending: true).isEqual(NSSortDescriptor(key: "a", ascending: true)))
        #expect(NSSortDescriptor(key: "a", ascending: true).hash == NSSortDescriptor(key: "a", ascending: true).hash)
        #expect(!NSSortDescriptor(key: "a", ascending: true).isEqual(NSSortDescriptor(key: "a", ascending: false)))
        #expect(
            !NSSortDescriptor(key: "a", ascending: true)
                .isEqual(NSSortDescriptor(key: "a", ascending: true, selector: "caseInsensitiveCompare:")))
    }

    @Test("Swift key paths sort through the key path and are named as KVC key paths")
    func swiftKeyPaths() {
        let byAge = NSSortDescriptor(keyPath: \QueryPerson.age, ascending: true)
        #expect(byAge.key == "age")
        #expect(byAge.keyPath == \QueryPerson.age)
        #expect(
            names(people.sortedArray(using: [byAge, NSSortDescriptor(keyPath: \QueryPerson.name, ascending: false)]))
                == ["Ann", "carl", "bob"])
        let byBoss = NSSortDescriptor(keyPath: \QueryPerson.boss?.name, ascending: false)
        #expect(byBoss.key == "boss.name")
        let staff = [QueryPerson(name: "x", age: 1), QueryPerson(name: "y", age: 1, boss: QueryPerson(name: "B", age: 2))]
        #expect(names(staff.sortedArray(using: [byBoss])) == ["y", "x"])
        let reversed = byAge.reversedSortDescriptor as? NSSortDescriptor
        #expect(reversed?.keyPath == \QueryPerson.age && reversed?.ascending == false)
        #expect(byAge.isEqual(NSSortDescriptor(keyPath: \QueryPerson.age, ascending: true)))
        let computed = NSSortDescriptor(keyPath: \Computed.rank, ascending: false)
        #expect(computed.key == "rank")
        let ranks = [Computed(["rank": 1]), Computed(["rank": 3])].sortedArray(using: [computed]).map(\.rank)
        #expect(ranks == [3, 1])
        let byLength = NSSortDescriptor(keyPath: \QueryPerson.name, ascending: true) { a, b in
            let x = (a as? String)?.count ?? 0, y = (b as? String)?.count ?? 0
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
        #expect(names(people.sortedArray(using: [byLength])) == ["Ann", "bob", "carl"])
        #expect(NSExpression(forKeyPath: \QueryPerson.boss?.age).keyPath == "boss.age")
        #expect(NSExpression(forKeyPath: \Computed.rank).keyPath == "rank")
    }
}

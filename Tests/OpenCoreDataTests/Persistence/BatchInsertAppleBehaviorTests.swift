import OpenCoreData
import Testing

/// Batch inserts as Apple's Core Data runs them: an omitted attribute gets the model's default, and a
/// dictionary handler inserts only the dictionaries it filled before it returned `true`.
@Suite("Batch insert defaults and handlers")
struct BatchInsertAppleBehaviorTests {
    @Test("an attribute a dictionary omits is stored with the model's default value")
    func omittedAttributeGetsDefault() throws {
        let stack = try GraphStack(.sqlite)
        let context = stack.context()
        try context.performAndWait {
            let request = NSBatchInsertRequest(entityName: "Post", objects: [["title": "a"], ["title": "b", "views": Int64(7)]])
            _ = try context.execute(request)
        }
        let rows = try StoreKit.rows(stack.storeURL, "SELECT ZTITLE, ZVIEWS, ZPUBLISHED FROM ZPOST ORDER BY ZTITLE")
        #expect(rows.map { $0["ZTITLE"] as String? } == ["a", "b"])
        #expect(rows.map { $0["ZVIEWS"] as Int64? } == [0, 7])
        #expect(rows.map { $0["ZPUBLISHED"] as Int64? } == [0, 0])
        let reader = stack.context()
        let views = try reader.performAndWait {
            try reader.all("Post", sortedBy: "title").map { $0.value(forKey: "views") as? Int64 }
        }
        #expect(views == [0, 7])
    }

    @Test("init(entityName:dictionaryHandler:) inserts only the dictionaries filled before the handler returned true")
    func handlerStops() throws {
        let stack = try GraphStack(.sqlite)
        let context = stack.context()
        var calls = 0
        try context.performAndWait {
            let request = NSBatchInsertRequest(
                entityName: "Post",
                dictionaryHandler: { dictionary in
                    calls += 1
                    // The third call fills the dictionary and returns true: that one is not inserted.
                    dictionary["title"] = "t\(calls)"
                    return calls == 3
                })
            request.resultType = .count
            let result = try #require(context.execute(request) as? NSBatchInsertResult)
            #expect(result.result as? Int == 2)
        }
        let reader = stack.context()
        let titles = try reader.performAndWait { try reader.all("Post", sortedBy: "title").map { $0.value(forKey: "title") as? String } }
        #expect(titles == ["t1", "t2"])
    }
}

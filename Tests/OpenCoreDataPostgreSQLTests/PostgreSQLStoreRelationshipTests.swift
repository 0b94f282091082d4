import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

// Foundation declares these names too; the store speaks OpenCoreData's.
private typealias NSPredicate = OpenCoreData.NSPredicate

/// To-one, to-many and many-to-many relationships kept in PostgreSQL: foreign-key columns, join tables,
/// faults that read them, and changes to them.
@Suite("PostgreSQL store relationships", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLStoreRelationshipTests {
    private func person(_ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first)
    }

    @Test("to-one and to-many faults read the stored relationships")
    func faults() throws {
        let (_, coordinator) = try PostgreSQLTestKit.seeded()
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let ann = try person("Ann", in: context)
            let notes = try #require(ann.value(forKey: "notes") as? Set<NSManagedObject>)
            #expect(notes.compactMap { $0.value(forKey: "text") as? String }.sorted() == ["Ann note 1", "Ann note 2"])
            let first = try #require(notes.first { $0.value(forKey: "rank") as? Int32 == 1 })
            #expect((first.value(forKey: "owner") as? NSManagedObject)?.objectID == ann.objectID)
            let tags = try #require(first.value(forKey: "tags") as? Set<NSManagedObject>)
            #expect(tags.compactMap { $0.value(forKey: "label") as? String } == ["urgent"])
            let urgent = try #require(tags.first)
            #expect((urgent.value(forKey: "notes") as? Set<NSManagedObject>)?.count == 5)
            let emile = try person("Émile", in: context)
            #expect((emile.value(forKey: "notes") as? Set<NSManagedObject>)?.count == 2)
        }
    }

    @Test("changing relationships rewrites keys and join rows, as psql sees them")
    func changes() throws {
        let (url, coordinator) = try PostgreSQLTestKit.seeded()
        let schema = PostgreSQLTestKit.schema(of: url)
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let ann = try person("Ann", in: context)
            let bo = try person("Bo", in: context)
            let notes = try #require(ann.value(forKey: "notes") as? Set<NSManagedObject>)
            let moved = try #require(notes.first { $0.value(forKey: "rank") as? Int32 == 2 })
            moved.setValue(bo, forKey: "owner")
            let later = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            later.setValue("later", forKey: "label")
            moved.setValue(Set([later]), forKey: "tags")
            try context.save()
        }
        #expect(
            try PostgreSQLTestKit.psql(
                "SELECT count(*) FROM \"\(schema)\".\"ZNOTE\" n JOIN \"\(schema)\".\"ZPERSON\" p ON p.\"Z_PK\" = n.\"ZOWNER\" WHERE p.\"ZNAME\" = 'Bo'"
            ) == "3")
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"Z_2TAGS\"") == "6")
        let reader = PostgreSQLTestKit.context(try PostgreSQLTestKit.open(url))
        try reader.performAndWait { () throws -> Void in
            let bo = try person("Bo", in: reader)
            let notes = try #require(bo.value(forKey: "notes") as? Set<NSManagedObject>)
            #expect(notes.compactMap { $0.value(forKey: "text") as? String }.sorted() == ["Ann note 2", "Bo note 1", "Bo note 2"])
            let moved = try #require(notes.first { $0.value(forKey: "text") as? String == "Ann note 2" })
            #expect((moved.value(forKey: "tags") as? Set<NSManagedObject>)?.compactMap { $0.value(forKey: "label") as? String } == ["later"])
        }
    }

    @Test("deleting cascades and removes the join rows")
    func cascadeDelete() throws {
        let (url, coordinator) = try PostgreSQLTestKit.seeded()
        let schema = PostgreSQLTestKit.schema(of: url)
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            context.delete(try person("Cy", in: context))
            try context.save()
        }
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\"") == "4")
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZNOTE\"") == "8")
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"Z_2TAGS\"") == "4")
        let reader = PostgreSQLTestKit.context(try PostgreSQLTestKit.open(url))
        try reader.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Tag")
            let urgent = try #require(try reader.fetch(request).first)
            #expect((urgent.value(forKey: "notes") as? Set<NSManagedObject>)?.count == 4)
        }
    }
}

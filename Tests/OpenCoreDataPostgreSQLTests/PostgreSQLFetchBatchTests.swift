import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

// Foundation declares these names too; the store speaks OpenCoreData's.
private typealias NSPredicate = OpenCoreData.NSPredicate
private typealias NSSortDescriptor = OpenCoreData.NSSortDescriptor

/// `fetchBatchSize` on the PostgreSQL store: the fetch reads the keys of every match and the rows of the
/// first batch; the other objects are faults whose rows are read a batch at a time, when one of them fires.
@Suite("PostgreSQL store batched fetches", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLFetchBatchTests {
    /// A store of 95 people, P00 (age 0) to P94 (age 94), opened afresh by a coordinator whose SQL debug log
    /// the recorder keeps.
    private func store() throws -> (NSPersistentStoreCoordinator, SQLDebugLogRecorder) {
        let url = try PostgreSQLTestKit.newStoreURL()
        let writer = PostgreSQLTestKit.context(try PostgreSQLTestKit.open(url))
        try writer.performAndWait { () throws -> Void in
            for index in 0..<95 {
                let person = NSEntityDescription.insertNewObject(forEntityName: index % 5 == 0 ? "Employee" : "Person", into: writer)
                person.setValue(String(format: "P%02d", index), forKey: "name")
                person.setValue(Int64(index), forKey: "age")
            }
            try writer.save()
        }
        let recorder = SQLDebugLogRecorder()
        PostgreSQLStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PostgreSQLTestKit.model())
        coordinator.sqlDebugLog = recorder.log(level: 1)
        _ = try coordinator.addPersistentStore(type: .postgreSQL, at: url)
        return (coordinator, recorder)
    }

    /// The row counts of the statements that read whole rows (`Z_OPT` among their columns; the keys of a
    /// batched fetch are read without it) since `start`.
    private func rowReads(_ recorder: SQLDebugLogRecorder, since start: Int) -> [Int] {
        let messages = Array(recorder.messages.dropFirst(start))
        var counts: [Int] = []
        for (index, message) in messages.enumerated() where message.hasPrefix("CoreData: sql: SELECT") && message.contains("t0.\"Z_OPT\"") {
            // Its annotation comes before the next statement; a statement without one (a single object's
            // row) counts as -1.
            let following = messages[(index + 1)...].prefix { !$0.hasPrefix("CoreData: sql: ") }
            let annotation = following.first { $0.hasPrefix("CoreData: annotation: total fetch execution time") }
            let count = annotation?.split(separator: " ").dropLast().last.flatMap { Int($0) } ?? -1
            counts.append(count)
        }
        return counts
    }

    @Test("count, order and contents are the unbatched fetch's; rows are read ten at a time, when a batch's fault fires")
    func batches() throws {
        let (coordinator, recorder) = try store()
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "age >= 5")
            request.sortDescriptors = [NSSortDescriptor(key: "age", ascending: false)]
            request.fetchBatchSize = 10
            let start = recorder.messages.count
            let people = try context.fetch(request)
            #expect(people.count == 90)
            #expect(try context.count(for: request) == 90)
            #expect(people.allSatisfy { $0.isFault })
            // The keys of all 90, then the rows of the first batch only.
            #expect(rowReads(recorder, since: start) == [10])
            #expect(
                recorder.messages.dropFirst(start).contains {
                    $0.hasPrefix("CoreData: annotation: total fetch execution time") && $0.hasSuffix("for 90 rows.")
                })

            // The first batch fires from the rows already read.
            let afterFetch = recorder.messages.count
            #expect(people.prefix(10).compactMap { $0.value(forKey: "name") as? String } == (85...94).reversed().map { String(format: "P%02d", $0) })
            #expect(rowReads(recorder, since: afterFetch).isEmpty)

            // One fault of the sixth batch reads its ten rows; the rest of the batch needs no statement, the
            // seventh batch is still unread.
            let beforeSixth = recorder.messages.count
            #expect(people[55].value(forKey: "name") as? String == "P39")
            #expect(rowReads(recorder, since: beforeSixth) == [10])
            let afterSixth = recorder.messages.count
            #expect(people[50..<60].compactMap { $0.value(forKey: "age") as? Int64 } == (35...44).reversed().map(Int64.init))
            #expect(rowReads(recorder, since: afterSixth).isEmpty)
            #expect(people[60].isFault)

            // Reading everything reads the remaining seven batches, never more than ten rows at once, and
            // gives what an unbatched fetch gives, in the same order, subentities included.
            let beforeAll = recorder.messages.count
            let names = people.compactMap { $0.value(forKey: "name") as? String }
            #expect(rowReads(recorder, since: beforeAll) == Array(repeating: 10, count: 7))
            request.fetchBatchSize = 0
            let plain = PostgreSQLTestKit.context(coordinator)
            let expected = try plain.performAndWait { try plain.fetch(request).compactMap { $0.value(forKey: "name") as? String } }
            #expect(names == expected)
            #expect(names.count == 90)
            #expect(people.filter { $0.entity.name == "Employee" }.count == 18)
        }
    }

    @Test("offset and limit window the batched result; a batch of an unsorted fetch is in key order")
    func windowed() throws {
        let (coordinator, recorder) = try store()
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            request.fetchOffset = 7
            request.fetchLimit = 23
            request.fetchBatchSize = 8
            let start = recorder.messages.count
            let people = try context.fetch(request)
            #expect(people.count == 23)
            #expect(people.compactMap { $0.value(forKey: "name") as? String } == (7..<30).map { String(format: "P%02d", $0) })
            #expect(rowReads(recorder, since: start) == [8, 8, 7])

            // Without sort descriptors, in key order; a batch larger than the result reads it whole.
            let unsorted = NSFetchRequest<NSManagedObject>(entityName: "Employee")
            unsorted.fetchBatchSize = 100
            let employees = try context.fetch(unsorted)
            #expect(employees.compactMap { $0.value(forKey: "age") as? Int64 } == stride(from: 0, to: 95, by: 5).map(Int64.init))
        }
    }

    @Test("a predicate finished in memory reads its rows to evaluate them and gives the same answer")
    func inMemoryPredicate() throws {
        let (coordinator, _) = try store()
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            // [d] is finished in memory.
            request.predicate = NSPredicate(format: "name CONTAINS[cd] 'p1'")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
            request.fetchBatchSize = 4
            let people = try context.fetch(request)
            #expect(people.compactMap { $0.value(forKey: "name") as? String } == (10...19).reversed().map { "P\($0)" })
        }
    }

    @Test("a batched fetch with pending changes: inserted objects sorted in, changed objects keep their changes")
    func pendingChanges() throws {
        let (coordinator, _) = try store()
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "age", ascending: true)]
            request.fetchBatchSize = 10
            let first = try context.fetch(request)
            first[0].setValue("changed", forKey: "name")
            let inserted = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            inserted.setValue("new", forKey: "name")
            inserted.setValue(Int64(-1), forKey: "age")
            let second = try context.fetch(request)
            #expect(second.count == 96)
            #expect(second.first === inserted)
            #expect(second[1].value(forKey: "name") as? String == "changed")
            #expect(second.last?.value(forKey: "name") as? String == "P94")
        }
    }
}

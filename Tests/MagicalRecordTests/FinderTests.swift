import MagicalRecord
import Testing

extension MagicalRecordTests {
    /// Requests, finders, counts, aggregates and fetched results controllers.
    @Suite("Finders")
    @MainActor
    struct Finders {
        /// Five employees in two departments, saved.
        static func staff() {
            StaffStack.insertEmployees([("lxz", 1.7), ("Bo", 1.8), ("Ann", 1.6), ("Cy", 1.8), ("Di", 1.5)])
            let engineering = Department.mr_createEntity()!
            engineering.name = "Engineering"
            engineering.code = "ENG"
            let sales = Department.mr_createEntity()!
            sales.name = "Sales"
            sales.code = "SAL"
            for employee in Employee.mr_findAll() as? [Employee] ?? [] {
                employee.department = employee.height >= 1.7 ? engineering : sales
            }
            NSManagedObjectContext.mr_default().mr_saveToPersistentStoreAndWait()
        }

        static func names(_ objects: [NSManagedObject]?) -> [String] {
            (objects as? [Employee])?.compactMap(\.name) ?? []
        }

        @Test("mr_findAll(), mr_findAll(with:), and sorted finds with comma-separated keys and per-key directions")
        func findAll() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            Self.staff()
            #expect(Employee.mr_findAll()?.count == 5)
            #expect(Set(Self.names(Employee.mr_findAll(with: NSPredicate(format: "height >= 1.8")))) == ["Bo", "Cy"])
            #expect(
                Self.names(Employee.mr_findAllSorted(by: "height", ascending: true)) == ["Di", "Ann", "lxz", "Bo", "Cy"]
                    || Self.names(Employee.mr_findAllSorted(by: "height", ascending: true)) == ["Di", "Ann", "lxz", "Cy", "Bo"])
            #expect(Self.names(Employee.mr_findAllSorted(by: "height,name", ascending: false)) == ["Cy", "Bo", "lxz", "Ann", "Di"])
            #expect(Self.names(Employee.mr_findAllSorted(by: "height:NO,name:YES", ascending: false)) == ["Bo", "Cy", "lxz", "Ann", "Di"])
            #expect(Self.names(Employee.mr_findAllSorted(by: "name", ascending: true, with: NSPredicate(format: "height < 1.7"))) == ["Ann", "Di"])
            let local = NSManagedObjectContext.mr_()
            #expect(Employee.mr_findAll(in: local)?.first?.managedObjectContext === local)
            #expect(Employee.mr_findAllSorted(by: "name", ascending: true, in: local)?.count == 5)
            #expect(Employee.mr_findAllSorted(by: "name", ascending: true, with: nil, in: local)?.count == 5)
            #expect(Employee.mr_findAll(with: nil, in: local)?.count == 5)
        }

        @Test("mr_findFirst… variants, mr_findFirstOrCreate(byAttribute:withValue:), mr_find(byAttribute:withValue:…)")
        func findFirst() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            Self.staff()
            #expect(Employee.mr_findFirst() != nil)
            #expect(Employee.mr_findFirst(with: NSPredicate(format: "name == %@", "Bo"))?.height == 1.8)
            #expect(Employee.mr_findFirst(with: NSPredicate(format: "height == 1.8"), sortedBy: "name", ascending: false)?.name == "Cy")
            #expect(Employee.mr_findFirst(byAttribute: "name", withValue: "Ann")?.height == 1.6)
            #expect(Employee.mr_findFirstOrdered(byAttribute: "height", ascending: true)?.name == "Di")
            #expect(Employee.mr_findFirstOrdered(byAttribute: "name", ascending: false)?.name == "lxz")
            #expect(Employee.mr_findFirst(with: NSPredicate(format: "name == %@", "Di"), andRetrieveAttributes: ["name"])?.name == "Di")
            let existing = Employee.mr_findFirstOrCreate(byAttribute: "name", withValue: "Bo")
            #expect(!existing.isInserted)
            let created = Employee.mr_findFirstOrCreate(byAttribute: "name", withValue: "Eve")
            #expect(created.isInserted && created.name == "Eve")
            #expect(Set(Self.names(Employee.mr_find(byAttribute: "height", withValue: 1.8))) == ["Bo", "Cy"])
            #expect(Self.names(Employee.mr_find(byAttribute: "height", withValue: 1.8, andOrderBy: "name", ascending: false)) == ["Cy", "Bo"])
            // Objects hold their context weakly: keep it, and read them on its queue.
            let local = NSManagedObjectContext.mr_()
            let sales = Employee.mr_find(byAttribute: "department.code", withValue: "SAL", andOrderBy: "name", ascending: true, in: local)
            #expect(local.performAndWait { Self.names(sales) } == ["Ann", "Di"])
        }

        @Test("counts and numbers of entities, with and without predicates and contexts; mr_hasAtLeastOneEntity()")
        func counts() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            #expect(!Employee.mr_hasAtLeastOneEntity())
            Self.staff()
            let local = NSManagedObjectContext.mr_()
            #expect(Employee.mr_countOfEntities() == 5)
            #expect(Employee.mr_countOfEntities(with: local) == 5)
            #expect(Employee.mr_countOfEntities(with: NSPredicate(format: "height > 1.65")) == 3)
            #expect(Employee.mr_countOfEntities(with: NSPredicate(format: "height > 1.65"), in: local) == 3)
            #expect(Employee.mr_numberOfEntities() == NSNumber(value: 5))
            #expect(Employee.mr_numberOfEntities(with: local).intValue == 5)
            #expect(Employee.mr_numberOfEntities(with: NSPredicate(format: "name BEGINSWITH 'A'")).intValue == 1)
            #expect(Employee.mr_numberOfEntities(with: NSPredicate(format: "name BEGINSWITH 'A'"), in: local).intValue == 1)
            #expect(Employee.mr_hasAtLeastOneEntity())
            #expect(Department.mr_hasAtLeastOneEntity(in: local))
            _ = Employee.mr_createEntity()
            #expect(Employee.mr_countOfEntities() == 6)
        }

        @Test("requests: mr_requestAll…, mr_requestFirst…, mr_requestAllWhere, sorted requests with the default batch size; mr_execute")
        func requests() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            Self.staff()
            #expect(Employee.mr_createFetchRequest().entity?.name == "Employee")
            #expect(Employee.mr_requestAll().predicate == nil)
            let first = Employee.mr_requestFirst(with: NSPredicate(format: "height > 1.0"))
            #expect(first.fetchLimit == 1)
            #expect(Employee.mr_requestFirst(byAttribute: "name", withValue: "Bo").predicate?.predicateFormat == "name == \"Bo\"")
            let sorted = Employee.mr_requestAllSorted(by: "height,name", ascending: true)
            #expect(sorted.sortDescriptors?.map(\.key) == ["height", "name"])
            #expect(sorted.fetchBatchSize == 20)
            #expect(Employee.mr_requestAllSorted(by: "name", ascending: false, with: NSPredicate(format: "height > 1.7")).predicate != nil)
            let request = Employee.mr_requestAllWhere("height", isEqualTo: 1.8)
            #expect(Set(Self.names(Employee.mr_execute(request))) == ["Bo", "Cy"])
            #expect(Employee.mr_executeFetchRequestAndReturnFirstObject(Employee.mr_requestAllSorted(by: "name", ascending: true))?.name == "Ann")
            Employee.mr_setDefaultBatchSize(5)
            defer { Employee.mr_setDefaultBatchSize(20) }
            #expect(Employee.mr_requestAllSorted(by: "name", ascending: true).fetchBatchSize == 5)
            #expect(Employee.mr_ascendingSortDescriptors(["a", "b"]).map(\.ascending) == [true, true])
            #expect(Employee.mr_descendingSortDescriptors(["a"]).first?.ascending == false)
        }

        @Test("aggregates computed by the store: sum, average, min, max, grouped; min and max values; the object with the minimum")
        func aggregates() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            Self.staff()
            let sum = Employee.mr_aggregateOperation("sum:", onAttribute: "height", with: nil) as? NSNumber
            #expect(abs((sum?.doubleValue ?? 0) - 8.4) < 1e-9)
            let average = Employee.mr_aggregateOperation("average:", onAttribute: "height", with: NSPredicate(format: "height >= 1.8")) as? NSNumber
            #expect(abs((average?.doubleValue ?? 0) - 1.8) < 1e-9)
            #expect(
                (Employee.mr_aggregateOperation("max:", onAttribute: "height", with: nil, in: NSManagedObjectContext.mr_()) as? NSNumber)?.doubleValue
                    == 1.8)
            let grouped = try #require(
                Employee.mr_aggregateOperation("sum:", onAttribute: "height", with: nil, groupBy: "department.code") as? [NSDictionary])
            let sums = Dictionary(
                uniqueKeysWithValues: grouped.compactMap { row -> (String, Double)? in
                    guard let code = row["department.code"] as? String, let sum = row["result"] as? NSNumber else { return nil }
                    return (code, (sum.doubleValue * 10).rounded() / 10)
                })
            #expect(sums == ["ENG": 5.3, "SAL": 3.1])
            let di = try #require(Employee.mr_findFirst(byAttribute: "name", withValue: "Di"))
            #expect((di.mr_minValue(for: "height") as? NSNumber)?.doubleValue == 1.5)
            #expect((di.mr_maxValue(for: "height") as? NSNumber)?.doubleValue == 1.8)
            #expect(di.mr_objectWithMinValue(for: "height") === di)
            let bo = try #require(Employee.mr_findFirst(byAttribute: "name", withValue: "Bo"))
            #expect(bo.mr_objectWithMinValue(for: "height") == nil)
        }

        @Test("mr_fetchAllGrouped(by:with:sortedBy:ascending:) returns a fetched results controller, fetched, in sections")
        func fetchedResultsControllers() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            Self.staff()
            let controller = Employee.mr_fetchAllGrouped(by: "department.name", with: nil, sortedBy: "department.name,name", ascending: true)
            #expect(controller.sections?.map(\.name) == ["Engineering", "Sales"])
            #expect(controller.sections?.map(\.numberOfObjects) == [3, 2])
            #expect((controller.fetchedObjects as? [Employee])?.first?.name == "Bo")
            let tall = Employee.mr_fetchAllGrouped(
                by: nil, with: NSPredicate(format: "height > 1.75"), sortedBy: "name", ascending: false,
                delegate: nil, in: NSManagedObjectContext.mr_default())
            #expect((tall.fetchedObjects as? [Employee])?.compactMap(\.name) == ["Cy", "Bo"])
            let all = Department.mr_fetchAllSorted(by: "code", ascending: false, with: nil, groupBy: nil, delegate: nil)
            #expect((all.fetchedObjects as? [Department])?.compactMap(\.code) == ["SAL", "ENG"])
            let cached = Employee.mr_fetchController(
                Employee.mr_requestAllSorted(by: "name", ascending: true), delegate: nil,
                useFileCache: true, groupedBy: nil, in: NSManagedObjectContext.mr_default())
            #expect(cached.cacheName == "MagicalRecord-Cache-Employee")
            #expect(cached.fetchedObjects == nil)
            #expect(Employee.mr_performFetch(cached))
            #expect(cached.fetchedObjects?.count == 5)
        }
    }
}

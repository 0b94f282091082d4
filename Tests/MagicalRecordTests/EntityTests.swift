import MagicalRecord
import Testing

/// A class whose entity is named otherwise: `Employee`.
final class Worker: NSManagedObject, MagicalRecordNamedEntity {
    static func entityName() -> String { "Employee" }
}

/// A class nested in another type, for the entity without a class of its own.
enum Staffing {
    final class Tag: NSManagedObject {}
}

extension MagicalRecordTests {
    /// Entity names, creating, deleting and truncating, and objects in other contexts.
    @Suite("Entities")
    @MainActor
    struct Entities {
        @Test("mr_entityName() is the class name without its module, or what the class says")
        func entityNames() throws {
            #expect(Employee.mr_entityName() == "Employee")
            #expect(Staffing.Tag.mr_entityName() == "Tag")
            #expect(Worker.mr_entityName() == "Employee")
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            #expect(Employee.mr_entityDescription()?.name == "Employee")
            #expect(Department.mr_entityDescription(in: NSManagedObjectContext.mr_())?.name == "Department")
            #expect(Employee.mr_propertiesNamed(["name", "nothing", "height"])?.map(\.name) == ["name", "height"])
        }

        @Test("mr_createEntity() inserts into the default context, mr_createEntity(in:) into the given one, as the class")
        func create() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let employee = try #require(Employee.mr_createEntity())
            #expect(employee.managedObjectContext === NSManagedObjectContext.mr_default())
            #expect(employee.isInserted)
            let local = NSManagedObjectContext.mr_()
            let other = try #require(Employee.mr_createEntity(in: local))
            #expect(other.managedObjectContext === local)
            let worker = try #require(Worker.mr_createEntity())
            #expect(worker.entity.name == "Employee")
            #expect(Staffing.Tag.mr_createEntity()?.entity.name == "Tag")
            NSManagedObjectContext.mr_default().rollback()
        }

        @Test("mr_deleteEntity() and mr_deleteEntity(in:) delete the object, here or in another context")
        func delete() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            StaffStack.insertEmployees([("a", 1), ("b", 2)])
            let a = try #require(Employee.mr_findFirst(byAttribute: "name", withValue: "a"))
            #expect(a.mr_deleteEntity())
            #expect(a.isDeleted)
            let local = NSManagedObjectContext.mr_()
            let b = try #require(Employee.mr_findFirst(byAttribute: "name", withValue: "b"))
            #expect(b.mr_deleteEntity(in: local))
            local.mr_saveToPersistentStoreAndWait()
            NSManagedObjectContext.mr_default().mr_saveToPersistentStoreAndWait()
            #expect(try StaffStack.namesInStore(at: url).isEmpty)
        }

        @Test("mr_deleteAll(matching:) and mr_truncateAll() delete object by object, with the delete rules")
        func deleteAllAndTruncate() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            StaffStack.insertEmployees([("a", 1.5), ("b", 1.7), ("c", 1.9)])
            let department = try #require(Department.mr_createEntity())
            department.code = "ENG"
            department.employees = Set(try #require(Employee.mr_findAll() as? [Employee]))
            NSManagedObjectContext.mr_default().mr_saveToPersistentStoreAndWait()
            #expect(Employee.mr_deleteAll(matching: NSPredicate(format: "height > %@", 1.6)))
            NSManagedObjectContext.mr_default().mr_saveToPersistentStoreAndWait()
            #expect(department.employees.count == 1)
            #expect(try StaffStack.namesInStore(at: url) == ["a"])
            #expect(Employee.mr_truncateAll())
            NSManagedObjectContext.mr_default().mr_saveToPersistentStoreAndWait()
            #expect(Employee.mr_countOfEntities() == 0)
            #expect(Department.mr_countOfEntities() == 1)
            #expect(department.employees.isEmpty)
        }

        @Test("mr_(in:) finds the same object in another context, making a temporary ID permanent first; mr_inThreadContext()")
        func inContext() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let employee = try #require(Employee.mr_createEntity())
            employee.name = "lxz"
            #expect(employee.objectID.isTemporaryID)
            // A private child of the default context, from the main queue.
            let local = NSManagedObjectContext.mr_context(withParent: NSManagedObjectContext.mr_default())
            let there = try #require(employee.mr_(in: local))
            #expect(!employee.objectID.isTemporaryID)
            #expect(there.managedObjectContext === local)
            #expect(local.performAndWait { there.name } == "lxz")
            #expect(there.mr_inThreadContext() === employee)
            NSManagedObjectContext.mr_default().mr_saveOnlySelfAndWait()
            let fromRoot = NSManagedObjectContext.mr_()
            #expect(fromRoot.performAndWait { employee.mr_(in: fromRoot)?.name } == "lxz")
        }

        @Test("an entity without a class of its own: its objects are deleted and found in other contexts")
        func entityWithoutClass() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let context = NSManagedObjectContext.mr_default()
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue("urgent", forKey: "label")
            context.mr_saveToPersistentStoreAndWait()
            let local = NSManagedObjectContext.mr_()
            let there = try #require(tag.mr_(in: local))
            #expect(local.performAndWait { there.value(forKey: "label") as? String } == "urgent")
            #expect(tag.mr_deleteEntity())
            context.mr_saveToPersistentStoreAndWait()
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Tag")
            #expect(try context.count(for: request) == 0)
        }
    }
}

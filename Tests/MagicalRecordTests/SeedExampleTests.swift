import MagicalRecord
import Testing

extension MagicalRecordTests {
    /// The second seed's MagicalRecord chapter, each snippet in its Swift spelling.
    @Suite("The second seed's MagicalRecord snippets")
    @MainActor
    struct SeedExamples {
        @Test("set-up in one line at launch, clean-up at exit")
        func setupAndCleanUp() throws {
            let url = try Scratch.directory().appendingPathComponent("Staff.sqlite")
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            // application(_:didFinishLaunchingWithOptions:)
            MagicalRecord.setupCoreDataStackWithStore(at: url)
            #expect(NSManagedObjectContext.mr_default().parent === NSManagedObjectContext.mr_rootSaving())
            // applicationWillTerminate(_:)
            MagicalRecord.cleanUp()
            #expect(NSPersistentStoreCoordinator.mr_default() == nil)
        }

        @Test("create: Employee.mr_createEntity(); delete: emp.mr_deleteEntity()")
        func createAndDelete() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            // 创建并插入到上下文中
            let emp = Employee.mr_createEntity()!
            #expect(NSManagedObjectContext.mr_default().insertedObjects.contains(emp))
            // 从上下文中删除当前对象
            emp.mr_deleteEntity()
            #expect(!NSManagedObjectContext.mr_default().insertedObjects.contains(emp))
        }

        @Test("change: create in the default context and mr_saveToPersistentStoreAndWait(); find: mr_findAllSorted(by: \"height\")")
        func changeAndFind() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            // 获取一个上下文对象
            let defaultContext = NSManagedObjectContext.mr_default()
            // 在当前上下文环境中创建一个新的Employee对象
            let emp = Employee.mr_createEntity(in: defaultContext)!
            emp.name = "lxz"
            emp.brithday = Date()
            emp.height = 1.7
            // 保存修改到当前上下文中
            defaultContext.mr_saveToPersistentStoreAndWait()
            #expect(try StaffStack.namesInStore(at: url) == ["lxz"])

            let shorter = Employee.mr_createEntity(in: defaultContext)!
            shorter.name = "Bo"
            shorter.height = 1.6
            defaultContext.mr_saveToPersistentStoreAndWait()
            // 执行查找操作,并设置排序条件
            let empSorted = Employee.mr_findAllSorted(by: "height", ascending: true) as? [Employee]
            #expect(empSorted?.map(\.name) == ["Bo", "lxz"])
        }

        @Test("a custom request: mr_requestAll(with:) with fetchOffset and fetchLimit, then mr_execute(_:)")
        func customRequest() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            StaffStack.insertEmployees(
                (1...25).map { (String(format: "lxz-%02d", $0), 1.5 + Double($0) / 100) }
                    + [("Bo", 1.8)])
            let employeeFilter = NSPredicate(format: "name LIKE %@", "*lxz*")
            let employeeRequest = Employee.mr_requestAll(with: employeeFilter)
            employeeRequest.fetchOffset = 10
            employeeRequest.fetchLimit = 10
            employeeRequest.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let employees = Employee.mr_execute(employeeRequest) as? [Employee]
            #expect(employees?.map(\.name) == (11...20).map { String(format: "lxz-%02d", $0) })
        }
    }
}

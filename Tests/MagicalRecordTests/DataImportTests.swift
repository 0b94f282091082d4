import MagicalRecord
import Testing

/// An employee class that takes part in its import.
final class AuditedEmployee: NSManagedObject, MagicalRecordNamedEntity, MagicalRecordDataImport {
    static func entityName() -> String { "Employee" }

    func shouldImport(_ data: Any) -> Bool {
        (data as? [String: Any])?["skip"] == nil
    }

    func importValue(_ value: Any?, forKey key: String) -> Bool {
        guard key == "height", let height = value as? NSNumber else { return false }
        setValue(height.doubleValue / 100, forKey: "height")  // centimetres in the data
        return true
    }

    func didImport(_ data: Any) {
        setValue(true, forKey: "isManager")
    }
}

extension MagicalRecordTests {
    /// `mr_import(from:)` for dictionaries and arrays, with the model's `mappedKeyName` and
    /// `relatedByAttribute` user-info keys, MagicalRecord's value conversions and its hooks.
    @Suite("Data import")
    @MainActor
    struct DataImport {
        static func date(_ text: String) -> Date {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            return formatter.date(from: text)!
        }

        @Test("a dictionary: mapped keys, converted values, dates in the default and a custom format, a nested related object")
        func importDictionary() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let data: [String: Any] = [
                "employeeID": "42", "full_name": "lxz", "height": "1.7", "isManager": "YES",
                "brithday": "1990-06-01T08:30:00GMT", "hiredOn": "2015-03-02",
                "dept": ["code": "ENG", "name": "Engineering"],
            ]
            let employee = Employee.mr_import(from: data)
            #expect(employee.employeeID == 42)
            #expect(employee.name == "lxz")
            #expect(employee.height == 1.7)
            #expect(employee.isManager)
            #expect(employee.brithday == Self.date("1990-06-01 08:30:00"))
            #expect(employee.hiredOn == Self.date("2015-03-02 00:00:00"))
            #expect(employee.department?.code == "ENG" && employee.department?.name == "Engineering")
            NSManagedObjectContext.mr_default().mr_saveToPersistentStoreAndWait()

            // The same primary key updates the object; the same department code links the department.
            let again = Employee.mr_import(from: ["employeeID": 42, "full_name": "lxz2", "dept": ["code": "ENG"]])
            #expect(again === employee)
            #expect(employee.name == "lxz2")
            #expect(Employee.mr_countOfEntities() == 1)
            #expect(Department.mr_countOfEntities() == 1)
            // A number is seconds since 1970; NSNull clears a relationship.
            _ = Employee.mr_import(from: ["employeeID": 42, "brithday": 0, "dept": NSNull()])
            #expect(employee.brithday == Date(timeIntervalSince1970: 0))
            #expect(employee.department == nil)
        }

        @Test("an array, into a given context; a to-many relationship from an array of primary keys")
        func importArray() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let local = NSManagedObjectContext.mr_()
            let employees = Employee.mr_import(
                from: [
                    ["employeeID": 1, "full_name": "Ann", "height": 1.6],
                    ["employeeID": 2, "full_name": "Bo", "height": 1.8],
                ], in: local)
            #expect(employees.count == 2)
            #expect(employees.allSatisfy { $0.managedObjectContext === local })
            let department = Department.mr_import(from: ["code": "SAL", "name": "Sales", "employees": [1, 2, 3]], in: local)
            let members = local.performAndWait { department.employees.map(\.employeeID).sorted() }
            #expect(members == [1, 2, 3])
            local.mr_saveToPersistentStoreAndWait()
            #expect(Employee.mr_countOfEntities() == 3)
            #expect(Department.mr_findFirst(byAttribute: "code", withValue: "SAL")?.employees.count == 3)
        }

        @Test("mr_importValuesForKeys(with:) and the import hooks: shouldImport, importValue(_:forKey:), didImport")
        func hooks() throws {
            let url = try StaffStack.setUp()
            defer { StaffStack.tearDown(url) }
            let employee = try #require(AuditedEmployee.mr_createEntity())
            #expect(employee.mr_importValuesForKeys(with: ["full_name": "Cy", "height": 180]))
            #expect(employee.value(forKey: "name") as? String == "Cy")
            #expect(employee.value(forKey: "height") as? Double == 1.8)
            #expect(employee.value(forKey: "isManager") as? Bool == true)
            #expect(!employee.mr_importValuesForKeys(with: ["full_name": "Di", "skip": true]))
            #expect(employee.value(forKey: "name") as? String == "Cy")
        }
    }
}

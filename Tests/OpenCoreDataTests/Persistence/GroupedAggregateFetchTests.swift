import OpenCoreData
import Testing

/// Dictionary fetches grouped by an attribute that fetch aggregates over to-many relationships and a
/// to-one relationship, as Apple's Core Data runs them.
@Suite("Grouped aggregates over relationships")
struct GroupedAggregateFetchTests {
    /// Company(city) employees ->> Employee(salary) ⟷ company; Company.ceo -> Employee (no inverse).
    static func model() -> NSManagedObjectModel {
        let company = ModelKit.entity(
            "Company", [ModelKit.attribute("name", .stringAttributeType), ModelKit.attribute("city", .stringAttributeType)])
        let employee = ModelKit.entity("Employee", [ModelKit.attribute("salary", .integer64AttributeType)])
        company.managedObjectClassName = "NSManagedObject"
        employee.managedObjectClassName = "NSManagedObject"
        let employees = ModelKit.relationship("employees", to: employee, toMany: true)
        let employer = ModelKit.relationship("company", to: company)
        ModelKit.pair(employees, employer)
        let ceo = ModelKit.relationship("ceo", to: employee)
        company.properties += [employees, ceo]
        employee.properties += [employer]
        let model = NSManagedObjectModel()
        model.entities = [company, employee]
        return model
    }

    static func describe(_ name: String, _ format: String, _ type: NSAttributeType) -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = name
        description.expression = NSExpression(format: format)
        description.expressionResultType = type
        return description
    }

    @Test("count:(employees) and sum:(employees.salary) per group, and a to-one column holding the object's ID", arguments: TestStoreKind.allCases)
    func aggregates(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: Self.model())
        let context = stack.context()
        let acme = context.make("Company", ["name": "Acme", "city": "Oslo"])
        let bolt = context.make("Company", ["name": "Bolt", "city": "Rome"])
        let salaries: [(NSManagedObject, Int64)] = [(acme, 10), (acme, 20), (acme, 30), (bolt, 5)]
        var staff: [NSManagedObject] = []
        for (company, salary) in salaries {
            staff.append(context.make("Employee", ["salary": salary, "company": company]))
        }
        acme.setValue(staff[0], forKey: "ceo")
        bolt.setValue(staff[3], forKey: "ceo")
        try context.save()

        let reader = stack.context()
        let request = NSFetchRequest<NSDictionary>(entityName: "Company")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [
            "city", "ceo",
            Self.describe("headcount", "count:(employees)", .integer64AttributeType),
            Self.describe("payroll", "sum:(employees.salary)", .integer64AttributeType),
        ]
        request.propertiesToGroupBy = ["city", "ceo"]
        request.sortDescriptors = [NSSortDescriptor(key: "city", ascending: true)]
        let rows = try reader.fetch(request)
        #expect(rows.compactMap { $0["city"] as? String } == ["Oslo", "Rome"])
        #expect(rows.map { ($0["headcount"] as? NSNumber)?.intValue } == [3, 1])
        #expect(rows.map { ($0["payroll"] as? NSNumber)?.intValue } == [60, 5])
        #expect(rows.map { $0["ceo"] as? NSManagedObjectID } == [staff[0].objectID, staff[3].objectID])
    }
}

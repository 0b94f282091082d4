import OpenCoreData
import Testing

/// Xcode project files written into a temporary folder: a model bundle with three versions and
/// mapping models between them, in the formats Xcode writes (`contents`, `xcmapping.xml`).
enum MappingFileKit {
    static func modelXML(employee: String, departmentExtra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Department" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>\(departmentExtra)
                <relationship name="employees" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="\(employee)" inverseName="department" inverseEntity="\(employee)"/>
            </entity>
            <entity name="\(employee)" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="height" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="department" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Department" inverseName="employees" inverseEntity="Department"/>
            </entity>
        </model>
        """
    }

    /// `xcmapping.xml` between two versions; `employeeTo` is the destination employee entity.
    static func mappingXML(
        from: String, to: String, employeeFrom: String, employeeTo: String,
        filter: String? = "$source.height &lt; 100", policy: String? = nil, archivedTitle: Bool = false
    ) -> String {
        let filterLine = filter.map { "\n        <attribute name=\"sourcefilterpredicatestring\" type=\"string\">\($0)</attribute>" } ?? ""
        let policyLine = policy.map { "\n        <attribute name=\"migrationpolicyclassname\" type=\"string\">\($0)</attribute>" } ?? ""
        let titleLine =
            archivedTitle
            ? "<attribute name=\"valueexpressiondata\" type=\"binary\">YnBsaXN0MDDUAQIDBAUGBwpYJHZlcnNpb24=</attribute>"
            : "<attribute name=\"autogenerateexpression\" type=\"bool\">1</attribute>"
        return """
            <?xml version="1.0" standalone="yes"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

            <database>
                <databaseInfo>
                    <version>134481920</version>
                    <UUID>6C0A7D55-3A4B-4C1E-9B43-2F1A0D9E8B10</UUID>
                    <nextObjectID>110</nextObjectID>
                </databaseInfo>
                <object type="XDDEVATTRIBUTEMAPPING" id="z103">
                    <attribute name="name" type="string">name</attribute>
                    <attribute name="autogenerateexpression" type="bool">1</attribute>
                    <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z101"></relationship>
                </object>
                <object type="XDDEVATTRIBUTEMAPPING" id="z104">
                    <attribute name="name" type="string">height</attribute>
                    <attribute name="autogenerateexpression" type="bool">1</attribute>
                    <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z101"></relationship>
                </object>
                <object type="XDDEVRELATIONSHIPMAPPING" id="z105">
                    <attribute name="name" type="string">department</attribute>
                    <attribute name="autogenerateexpression" type="bool">1</attribute>
                    <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z101"></relationship>
                </object>
                <object type="XDDEVENTITYMAPPING" id="z101">
                    <attribute name="sourcename" type="string">\(employeeFrom)</attribute>
                    <attribute name="destinationname" type="string">\(employeeTo)</attribute>\(filterLine)\(policyLine)
                    <attribute name="mappingtypename" type="string">Undefined</attribute>
                    <attribute name="mappingnumber" type="int16">1</attribute>
                    <attribute name="autogenerateexpression" type="bool">1</attribute>
                    <relationship name="mappingmodel" type="1/1" destination="XDDEVMAPPINGMODEL" idrefs="z100"></relationship>
                    <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z103 z104"></relationship>
                    <relationship name="relationshipmappings" type="0/0" destination="XDDEVRELATIONSHIPMAPPING" idrefs="z105"></relationship>
                </object>
                <object type="XDDEVATTRIBUTEMAPPING" id="z106">
                    <attribute name="name" type="string">title</attribute>
                    \(titleLine)
                    <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z102"></relationship>
                </object>
                <object type="XDDEVRELATIONSHIPMAPPING" id="z107">
                    <attribute name="name" type="string">employees</attribute>
                    <attribute name="autogenerateexpression" type="bool">1</attribute>
                    <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z102"></relationship>
                </object>
                <object type="XDDEVENTITYMAPPING" id="z102">
                    <attribute name="sourcename" type="string">Department</attribute>
                    <attribute name="destinationname" type="string">Department</attribute>
                    <attribute name="mappingtypename" type="string">Undefined</attribute>
                    <attribute name="mappingnumber" type="int16">2</attribute>
                    <attribute name="autogenerateexpression" type="bool">1</attribute>
                    <relationship name="mappingmodel" type="1/1" destination="XDDEVMAPPINGMODEL" idrefs="z100"></relationship>
                    <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z106"></relationship>
                    <relationship name="relationshipmappings" type="0/0" destination="XDDEVRELATIONSHIPMAPPING" idrefs="z107"></relationship>
                </object>
                <object type="XDDEVMAPPINGMODEL" id="z100">
                    <attribute name="sourcemodelpath" type="string">Staff/Staff.xcdatamodeld/\(from).xcdatamodel</attribute>
                    <attribute name="destinationmodelpath" type="string">Staff/Staff.xcdatamodeld/\(to).xcdatamodel</attribute>
                    <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z102 z101"></relationship>
                </object>
            </database>
            """
    }

    /// A project folder: Staff.xcdatamodeld with "Staff" (V1), "Staff 2" (V2: Employee → Employee2) and
    /// "Staff 3" (V3: Department.code), and the mapping models Staff1to2 and Staff2to3.
    static func writeProject(in directory: URL, policy: String? = nil) throws {
        let bundle = directory.appendingPathComponent("Staff.xcdatamodeld", isDirectory: true)
        let versions = [
            ("Staff", modelXML(employee: "Employee")), ("Staff 2", modelXML(employee: "Employee2")),
            (
                "Staff 3",
                modelXML(employee: "Employee2", departmentExtra: "\n        <attribute name=\"code\" optional=\"YES\" attributeType=\"String\"/>")
            ),
        ]
        for (name, text) in versions {
            let folder = bundle.appendingPathComponent("\(name).xcdatamodel", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: folder.appendingPathComponent("contents"))
        }
        try write(
            mappingXML(from: "Staff", to: "Staff 2", employeeFrom: "Employee", employeeTo: "Employee2", policy: policy),
            to: directory.appendingPathComponent("Staff1to2.xcmappingmodel"))
        try write(
            mappingXML(from: "Staff 2", to: "Staff 3", employeeFrom: "Employee2", employeeTo: "Employee2", filter: nil),
            to: directory.appendingPathComponent("Staff2to3.xcmappingmodel"))
    }

    static func write(_ text: String, to bundle: URL) throws {
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: bundle.appendingPathComponent("xcmapping.xml"))
    }

    static func version(_ name: String, in directory: URL) throws -> NSManagedObjectModel {
        try NSManagedObjectModel.load(from: directory.appendingPathComponent("Staff.xcdatamodeld/\(name).xcdatamodel"))
    }
}

/// Counts the employees it migrates into the manager's userInfo.
final class StaffCountingPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(
        forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        manager.userInfo = ["count": ((manager.userInfo?["count"] as? Int) ?? 0) + 1]
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }
}

@Suite("Mapping model files: .xcmappingmodel bundles read, found in bundles, and used by NSMigrationManager")
struct MappingModelFileTests {
    @Test("an .xcmappingmodel loads with its entity mappings in Xcode's order, filter predicate, policy and version hashes")
    func loads() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let project = directory.appendingPathComponent("Staff")
        try MappingFileKit.writeProject(in: project, policy: "$(PRODUCT_MODULE_NAME).StaffCountingPolicy")
        let mapping = try #require(NSMappingModel(contentsOf: project.appendingPathComponent("Staff1to2.xcmappingmodel")))
        let names = (mapping.entityMappings ?? []).map { $0.name ?? "?" }
        #expect(names == ["EmployeeToEmployee2", "DepartmentToDepartment"])
        let employees = try #require(mapping.entityMappingsByName["EmployeeToEmployee2"])
        #expect(employees.mappingType == .customEntityMappingType)
        #expect(employees.entityMigrationPolicyClassName == "$(PRODUCT_MODULE_NAME).StaffCountingPolicy")
        #expect(employees.sourceExpression?.description.contains("$source.height < 100") == true)
        #expect((employees.attributeMappings ?? []).map { $0.name ?? "" } == ["name", "height"])
        #expect(employees.attributeMappings?.first?.valueExpression?.description == "$source.name")
        let v1 = try MappingFileKit.version("Staff", in: project)
        let v2 = try MappingFileKit.version("Staff 2", in: project)
        #expect(employees.sourceEntityVersionHash == v1.entitiesByName["Employee"]?.versionHash)
        #expect(employees.destinationEntityVersionHash == v2.entitiesByName["Employee2"]?.versionHash)
        let departments = try #require(mapping.entityMappingsByName["DepartmentToDepartment"])
        #expect(departments.mappingType == .transformEntityMappingType)
        #expect(NSMappingModel(contentsOf: project.appendingPathComponent("Staff1to2.xcmappingmodel/xcmapping.xml"))?.entityMappings.count == 2)
    }

    @Test("NSMigrationManager migrates a store with a mapping model read from a file: filter predicate and policy apply")
    func migratesWithFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let project = directory.appendingPathComponent("Staff")
        try MappingFileKit.writeProject(in: project, policy: "$(PRODUCT_MODULE_NAME).StaffCountingPolicy")
        NSEntityMigrationPolicy.register(StaffCountingPolicy.self)
        let v1 = try MappingFileKit.version("Staff", in: project)
        let v2 = try MappingFileKit.version("Staff 2", in: project)
        let source = directory.appendingPathComponent("Staff.sqlite")
        try MigrationKit.makeStore(v1, at: source) { context in
            let department = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
            department.setValue("R&D", forKey: "title")
            for (name, height) in [("ann", 95.0), ("bob", 180.0), ("cy", 99.0)] {
                let employee = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
                employee.setValue(name, forKey: "name")
                employee.setValue(height, forKey: "height")
                employee.setValue(department, forKey: "department")
            }
        }
        let mapping = try NSMappingModel.load(contentsOf: project.appendingPathComponent("Staff1to2.xcmappingmodel"))
        let destination = directory.appendingPathComponent("Staff2.sqlite")
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(from: source, type: .sqlite, mapping: mapping, to: destination, type: .sqlite)
        #expect(manager.userInfo?["count"] as? Int == 2)
        let context = try ManagerKit.open(destination, v2)
        let employees = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Employee2"))
        #expect(MigrationKit.strings(employees, "name") == ["ann", "cy"])
        let departments = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Department"))
        #expect(departments.count == 1)
        #expect(departments.first?.value(forKey: "title") as? String == "R&D")
        #expect((departments.first?.value(forKey: "employees") as? NSSet)?.count == 2)
    }

    @Test("NSMappingModel(from:forSourceModel:destinationModel:) finds the mapping whose entities and hashes fit, nil when none does")
    func findsInBundles() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let project = directory.appendingPathComponent("Staff")
        try MappingFileKit.writeProject(in: project)
        let bundle = try #require(Bundle(path: directory.path))
        let v1 = try MappingFileKit.version("Staff", in: project)
        let v2 = try MappingFileKit.version("Staff 2", in: project)
        let v3 = try MappingFileKit.version("Staff 3", in: project)
        let first = try #require(NSMappingModel(from: [bundle], forSourceModel: v1, destinationModel: v2))
        #expect(first.entityMappingsByName["EmployeeToEmployee2"] != nil)
        let second = try #require(NSMappingModel(from: [bundle], forSourceModel: v2, destinationModel: v3))
        #expect(second.entityMappingsByName["Employee2ToEmployee2"] != nil)
        #expect(second.entityMappingsByName["DepartmentToDepartment"]?.destinationEntityVersionHash == v3.entitiesByName["Department"]?.versionHash)
        #expect(NSMappingModel(from: [bundle], forSourceModel: v1, destinationModel: v3) == nil)
        #expect(NSMappingModel(from: [bundle], forSourceModel: v2, destinationModel: v1) == nil)
        #expect(NSMappingModel(from: [bundle], forSourceModel: nil, destinationModel: v1) == nil)
    }

    @Test("expressions typed in Xcode's editor, malformed and missing files are refused with 134140 naming the file")
    func refusals() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let archived = directory.appendingPathComponent("Archived.xcmappingmodel")
        try MappingFileKit.write(
            MappingFileKit.mappingXML(
                from: "Staff", to: "Staff 2", employeeFrom: "Employee",
                employeeTo: "Employee2", archivedTitle: true), to: archived)
        let error = #expect(throws: NSError.self) { try NSMappingModel.load(contentsOf: archived) }
        #expect(error?.code == NSMigrationMissingMappingModelError)
        #expect(error?.localizedDescription.contains("DepartmentToDepartment.title") == true)
        #expect(error?.localizedDescription.contains("Archived.xcmappingmodel") == true)
        #expect(NSMappingModel(contentsOf: archived) == nil)

        let broken = directory.appendingPathComponent("Broken.xcmappingmodel")
        try MappingFileKit.write("<database><object type=\"XDDEVMAPPINGMODEL\" id=\"z1\">", to: broken)
        let malformed = #expect(throws: NSError.self) { try NSMappingModel.load(contentsOf: broken) }
        #expect(malformed?.code == NSMigrationMissingMappingModelError)
        #expect(malformed?.localizedDescription.contains("XML") == true)

        let other = directory.appendingPathComponent("Other.xcmappingmodel")
        try MappingFileKit.write("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>", to: other)
        let notMapping = #expect(throws: NSError.self) { try NSMappingModel.load(contentsOf: other) }
        #expect(notMapping?.localizedDescription.contains("<plist>") == true)

        #expect(NSMappingModel(contentsOf: directory.appendingPathComponent("None.xcmappingmodel")) == nil)
        #expect(NSMappingModel(contentsOf: nil) == nil)
    }

    @Test("a mapping file with a processing instruction, or bytes that are not UTF-8, is refused with 134140")
    func hostileText() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let instruction = directory.appendingPathComponent("Instruction.xcmappingmodel")
        try MappingFileKit.write("<?xml version=\"1.0\"?>\n<?pi?>\n<database></database>", to: instruction)
        let refused = #expect(throws: NSError.self) { try NSMappingModel.load(contentsOf: instruction) }
        #expect(refused?.code == NSMigrationMissingMappingModelError)
        #expect(refused?.localizedDescription.contains("processing instruction") == true)
        #expect(refused?.localizedDescription.contains("line 2") == true)

        let bytes = directory.appendingPathComponent("Bytes.xcmappingmodel")
        try FileManager.default.createDirectory(at: bytes, withIntermediateDirectories: true)
        try Data([UInt8]("<?xml version=\"1.0\"?><database><x".utf8) + [0xE2] + [UInt8]("y/></database>".utf8))
            .write(to: bytes.appendingPathComponent("xcmapping.xml"))
        let notText = #expect(throws: NSError.self) { try NSMappingModel.load(contentsOf: bytes) }
        #expect(notText?.code == NSMigrationMissingMappingModelError)
        #expect(notText?.localizedDescription.contains("UTF-8") == true)
    }

    /// `Tests/Fixtures/mappings/CoreDataNotes`: a real Xcode project's mapping model and its two model versions.
    static let notes = Fixtures.root.appendingPathComponent("mappings/CoreDataNotes", isDirectory: true)

    @Test("a real Xcode mapping model (CoreDataNotes) loads: mappings by mappingnumber, an added entity, generated expressions")
    func realFile() throws {
        let mapping = try NSMappingModel.load(contentsOf: Self.notes.appendingPathComponent("MappingModel.xcmappingmodel"))
        let mappings = mapping.entityMappings ?? []
        #expect(mappings.map { $0.name ?? "?" } == ["NoteToNote", "Status"])
        let notes = try #require(mapping.entityMappingsByName["NoteToNote"])
        #expect(notes.mappingType == .transformEntityMappingType)
        #expect(notes.sourceExpression?.description.contains("fetchRequestForSourceEntityNamed:predicateString:") == true)
        #expect((notes.attributeMappings ?? []).map { $0.name ?? "" } == ["creationDate", "title", "descriptionText"])
        #expect(
            (notes.attributeMappings ?? []).map { $0.valueExpression?.description ?? "nil" }
                == ["$source.creationDate", "$source.title", "$source.descriptionText"])
        let relationships = notes.relationshipMappings ?? []
        #expect(relationships.map { $0.name ?? "" } == ["status", "linkToNote"])
        #expect(relationships.first?.valueExpression == nil)
        #expect(relationships.last?.valueExpression?.description.contains("$source.linkToNote") == true)
        let v1 = try NSManagedObjectModel.load(from: Self.notes.appendingPathComponent("CoreDataNotes.xcdatamodeld/CoreDataNotes.xcdatamodel"))
        #expect(notes.sourceEntityVersionHash == v1.entitiesByName["Note"]?.versionHash)
        let status = try #require(mapping.entityMappingsByName["Status"])
        #expect(status.mappingType == .addEntityMappingType)
        #expect(status.sourceEntityName == nil && status.sourceExpression == nil)
        #expect(status.attributeMappings?.first?.valueExpression == nil)
    }

    @Test("a store of the real project's first version migrates with its mapping model, found in its folder")
    func realFileMigrates() throws {
        let v1 = try NSManagedObjectModel.load(from: Self.notes.appendingPathComponent("CoreDataNotes.xcdatamodeld/CoreDataNotes.xcdatamodel"))
        let v2 = try NSManagedObjectModel.load(from: Self.notes.appendingPathComponent("CoreDataNotes.xcdatamodeld/CoreDataNotes 2.xcdatamodel"))
        let bundle = try #require(Bundle(path: Self.notes.path))
        let mapping = try #require(NSMappingModel(from: [bundle], forSourceModel: v1, destinationModel: v2))
        #expect(NSMappingModel(from: [bundle], forSourceModel: v2, destinationModel: v1) == nil)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("Notes.sqlite")
        let date = Date(timeIntervalSinceReferenceDate: 700_000_000)
        try MigrationKit.makeStore(v1, at: source) { context in
            var notes: [NSManagedObject] = []
            for title in ["groceries", "recipes", "todo"] {
                let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
                note.setValue(title, forKey: "title")
                note.setValue("about \(title)", forKey: "descriptionText")
                note.setValue(date, forKey: "creationDate")
                notes.append(note)
            }
            notes[0].setValue(notes[1], forKey: "linkToNote")
        }
        let destination = directory.appendingPathComponent("Notes2.sqlite")
        try NSMigrationManager(sourceModel: v1, destinationModel: v2)
            .migrateStore(from: source, type: .sqlite, mapping: mapping, to: destination, type: .sqlite)
        let context = try ManagerKit.open(destination, v2)
        let notes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
        #expect(MigrationKit.strings(notes, "title") == ["groceries", "recipes", "todo"])
        #expect(MigrationKit.strings(notes, "descriptionText") == ["about groceries", "about recipes", "about todo"])
        #expect(notes.allSatisfy { $0.value(forKey: "creationDate") as? Date == date && $0.value(forKey: "status") == nil })
        let groceries = try #require(notes.first { $0.value(forKey: "title") as? String == "groceries" })
        let linked = try #require(groceries.value(forKey: "linkToNote") as? NSManagedObject)
        #expect(linked.value(forKey: "title") as? String == "recipes")
        #expect((linked.value(forKey: "linkToNote") as? NSManagedObject) === groceries)
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Status")) == 0)
    }

    @Test("a value expression reading a property the source entity lacks fails with 134110 instead of stopping the program")
    func missingSourceProperty() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try PolicyKit.bookStore(in: directory)
        let attributes = [ManagerKit.attribute("title", "$source.title"), ManagerKit.attribute("summary", "$source.blurb")]
        let error = #expect(throws: NSError.self) {
            try NSMigrationManager(sourceModel: PolicyKit.books(1), destinationModel: PolicyKit.books(2))
                .migrateStore(
                    from: source, type: .sqlite, mapping: PolicyKit.bookMapping(policy: nil, attributes: attributes),
                    to: directory.appendingPathComponent("Out.sqlite"), type: .sqlite)
        }
        #expect(error?.code == NSMigrationError)
        #expect(error?.localizedDescription.contains("$source.blurb") == true)
    }
}

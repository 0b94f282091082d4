import OpenCoreData
import Testing

/// A model whose rules come from a model file, as Xcode writes them: Member(name 2…10 chars, code
/// [A-Z]+, age 0…150, score -1…1, born 2010…2020, teams 2…3), Team(title).
enum ValidationModel {
    static func make() throws -> NSManagedObjectModel {
        try ModelFileKit.load(
            """
            <entity name="Member" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="name" attributeType="String" minValueString="2" maxValueString="10"/>
                <attribute name="code" optional="YES" attributeType="String" regularExpressionString="[A-Z]+"/>
                <attribute name="age" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="150" usesScalarValueType="YES"/>
                <attribute name="score" optional="YES" attributeType="Double" minValueString="-1" maxValueString="1" usesScalarValueType="YES"/>
                <attribute name="born" optional="YES" attributeType="Date" minDateTimeInterval="284000400" maxDateTimeInterval="602395200"/>
                <relationship name="teams" optional="YES" toMany="YES" minCount="2" maxCount="3" deletionRule="Nullify" destinationEntity="Team"/>
            </entity>
            <entity name="Team" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
            """)
    }

    /// Member, inserted with values that pass every rule.
    @discardableResult
    static func validMember(_ context: NSManagedObjectContext, name: String = "Ada") -> NSManagedObject {
        context.make(
            "Member",
            [
                "name": name, "code": "AB", "age": 36, "score": 0.5,
                "born": Date(timeIntervalSinceReferenceDate: 400_000_000),
            ])
    }
}

@Suite("Validation: the model's rules at save and on demand, with Core Data's codes and userInfo")
struct ValidationTests {
    /// The code of the error `validateValue(_:forKey:)` throws for `value`, or nil when it passes.
    func code(_ object: NSManagedObject, _ key: String, _ value: Any?) -> Int? {
        var pointer: AnyObject? = value.map { $0 as AnyObject }
        do {
            try object.validateValue(&pointer, forKey: key)
            return nil
        } catch {
            return (error as NSError).code
        }
    }

    @Test("validateValue(_:forKey:) reports each rule with its code", arguments: TestStoreKind.allCases)
    func codesOnDemand(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: try ValidationModel.make())
        let context = stack.context()
        let member = ValidationModel.validMember(context)
        #expect(code(member, "name", nil) == NSValidationMissingMandatoryPropertyError)
        #expect(code(member, "name", "A") == NSValidationStringTooShortError)
        #expect(code(member, "name", "Abcdefghijk") == NSValidationStringTooLongError)
        #expect(code(member, "name", "Grace") == nil)
        #expect(code(member, "code", "abc") == NSValidationStringPatternMatchingError)
        #expect(code(member, "code", "ABC") == nil)
        #expect(code(member, "code", nil) == nil)
        #expect(code(member, "age", NSNumber(value: 151)) == NSValidationNumberTooLargeError)
        #expect(code(member, "age", NSNumber(value: -1)) == NSValidationNumberTooSmallError)
        #expect(code(member, "age", NSNumber(value: 150)) == nil)
        #expect(code(member, "score", NSNumber(value: 1.5)) == NSValidationNumberTooLargeError)
        #expect(code(member, "score", NSNumber(value: -1.01)) == NSValidationNumberTooSmallError)
        #expect(code(member, "born", Date(timeIntervalSinceReferenceDate: 700_000_000)) == NSValidationDateTooLateError)
        #expect(code(member, "born", Date(timeIntervalSinceReferenceDate: 100)) == NSValidationDateTooSoonError)
        #expect(code(member, "born", Date(timeIntervalSinceReferenceDate: .nan)) == NSValidationInvalidDateError)
        #expect(code(member, "born", Date(timeIntervalSinceReferenceDate: 500_000_000)) == nil)
        let teams = (0..<4).map { context.make("Team", ["title": "T\($0)"]) }
        #expect(code(member, "teams", NSSet(array: [teams[0]])) == NSValidationRelationshipLacksMinimumCountError)
        #expect(code(member, "teams", NSSet(array: teams)) == NSValidationRelationshipExceedsMaximumCountError)
        #expect(code(member, "teams", NSSet(array: Array(teams.prefix(2)))) == nil)
        #expect(code(member, "teams", NSSet()) == nil, "an optional to-many relationship may be empty")
    }

    @Test("an error carries the object, the key, the value and the predicate in its userInfo")
    func userInfo() throws {
        let stack = try GraphStack(model: try ValidationModel.make())
        let context = stack.context()
        let member = ValidationModel.validMember(context)
        var value: AnyObject? = "Abcdefghijk" as NSString
        let error = try #require(throws: NSError.self) { try member.validateValue(&value, forKey: "name") }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == 1660)
        #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === member)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
        #expect(error.userInfo[NSValidationValueErrorKey] as? String == "Abcdefghijk")
        #expect(error.userInfo[NSValidationPredicateErrorKey] is NSPredicate)
        #expect(error.localizedDescription.contains("name"))
    }

    @Test(
        "a save with one bad value fails with that error; the store is unchanged and the changes stay",
        arguments: TestStoreKind.allCases)
    func failedInsertSave(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: try ValidationModel.make())
        let context = stack.context()
        let member = ValidationModel.validMember(context)
        member.setValue(NSNumber(value: 200), forKey: "age")
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationNumberTooLargeError)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "age")
        #expect(try stack.context().all("Member").isEmpty)
        #expect(member.isInserted && context.hasChanges)
        #expect((member.value(forKey: "age") as? NSNumber)?.intValue == 200)
        member.setValue(NSNumber(value: 20), forKey: "age")
        try context.save()
        #expect(try stack.context().all("Member").count == 1)
    }

    @Test("several failures are reported together as 1560 with NSDetailedErrorsKey", arguments: TestStoreKind.allCases)
    func multipleErrors(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: try ValidationModel.make())
        let context = stack.context()
        let member = ValidationModel.validMember(context)
        member.setValue(nil, forKey: "name")
        member.setValue("lower", forKey: "code")
        let other = ValidationModel.validMember(context, name: "Bo")
        other.setValue(NSNumber(value: -3), forKey: "age")
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationMultipleErrorsError)
        let detailed = try #require(error.userInfo[NSDetailedErrorsKey] as? [NSError])
        #expect(Set(detailed.map(\.code)) == [1570, 1680, 1620])
        #expect(detailed.first { $0.code == 1620 }?.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === other)
        #expect(try stack.context().all("Member").isEmpty)
    }

    @Test(
        "an update that breaks a rule fails the save and leaves the stored row as it was",
        arguments: TestStoreKind.allCases)
    func failedUpdateSave(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: try ValidationModel.make())
        let context = stack.context()
        ValidationModel.validMember(context)
        try context.save()
        let member = try #require(try context.all("Member").first)
        member.setValue("X", forKey: "name")
        #expect(throws: NSError.self) { try member.validateForUpdate() }
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationStringTooShortError)
        #expect(member.isUpdated && member.changedValues()["name"] as? String == "X")
        let reader = stack.context()
        let stored = try reader.all("Member")
        #expect(stored.map { $0.value(forKey: "name") as? String } == ["Ada"])
    }

    @Test("validateForInsert checks a to-many relationship's counts")
    func relationshipCounts() throws {
        let stack = try GraphStack(model: try ValidationModel.make())
        let context = stack.context()
        let member = ValidationModel.validMember(context)
        try member.validateForInsert()
        member.setValue(NSSet(array: [context.make("Team")]), forKey: "teams")
        let error = try #require(throws: NSError.self) { try member.validateForInsert() }
        #expect(error.code == NSValidationRelationshipLacksMinimumCountError)
        member.setValue(NSSet(array: (0..<4).map { _ in context.make("Team") }), forKey: "teams")
        #expect((try? member.validateForInsert()) == nil)
        member.setValue(NSSet(array: (0..<3).map { _ in context.make("Team") }), forKey: "teams")
        try member.validateForInsert()
        try context.save()
    }

    @Test(
        "validation predicates built in code report their warning as the message, under code 1550",
        arguments: TestStoreKind.allCases)
    func predicateWarnings(_ kind: TestStoreKind) throws {
        let price = ModelKit.attribute("price", .doubleAttributeType)
        price.setValidationPredicates(
            [NSPredicate(format: "SELF > 0"), NSPredicate(format: "SELF < 1000")],
            withValidationWarnings: ["Price must be positive", "Price is too high"])
        let sku = ModelKit.attribute("sku", .stringAttributeType)
        sku.setValidationPredicates([NSPredicate(format: "SELF BEGINSWITH 'SKU-'")], withValidationWarnings: ["Bad SKU"])
        let product = ModelKit.entity("Product", [price, sku])
        product.managedObjectClassName = "NSManagedObject"
        let model = NSManagedObjectModel()
        model.entities = [product]
        let stack = try GraphStack(kind, model: model)
        let context = stack.context()
        let item = context.make("Product", ["price": 5.0, "sku": "SKU-1"])
        try item.validateForInsert()
        item.setValue(-2.0, forKey: "price")
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSManagedObjectValidationError)
        #expect(error.localizedDescription == "Price must be positive")
        #expect((error.userInfo[NSValidationPredicateErrorKey] as? NSPredicate)?.predicateFormat == "SELF > 0")
        item.setValue(5000.0, forKey: "price")
        item.setValue("X", forKey: "sku")
        let both = try #require(throws: NSError.self) { try context.save() }
        let messages = (both.userInfo[NSDetailedErrorsKey] as? [NSError])?.map(\.localizedDescription).sorted()
        #expect(messages == ["Bad SKU", "Price is too high"])
        item.setValue(10.0, forKey: "price")
        item.setValue("SKU-9", forKey: "sku")
        try context.save()
        #expect(try stack.context().all("Product").count == 1)
    }

    @Test("a non-optional transient attribute is validated too")
    func transientMandatory() throws {
        let note = ModelKit.entity("Note", [ModelKit.attribute("scratch", .stringAttributeType, optional: false, transient: true)])
        note.managedObjectClassName = "NSManagedObject"
        let model = NSManagedObjectModel()
        model.entities = [note]
        let stack = try GraphStack(model: model)
        let context = stack.context()
        let object = context.make("Note")
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationMissingMandatoryPropertyError)
        object.setValue("x", forKey: "scratch")
        try context.save()
    }
}

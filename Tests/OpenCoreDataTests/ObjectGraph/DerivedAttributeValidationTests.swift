import OpenCoreData
import Testing

/// A non-optional derived attribute whose value cannot be derived fails the first save with 1570, as in
/// Apple's Core Data.
@Suite("Derived attribute validation")
struct DerivedAttributeValidationTests {
    /// Note(text, required derived `shout = lowercase:(text)`).
    static func model() -> NSManagedObjectModel {
        let note = ModelKit.entity("Note", [ModelKit.attribute("text", .stringAttributeType)])
        note.managedObjectClassName = "NSManagedObject"
        let shout = DerivedModel.derived("shout", .stringAttributeType, NSExpression(format: "lowercase:(text)"))
        shout.isOptional = false
        note.properties += [shout]
        let model = NSManagedObjectModel()
        model.entities = [note]
        return model
    }

    @Test("the first save fails with NSValidationMissingMandatoryPropertyError when the value cannot be derived", arguments: TestStoreKind.allCases)
    func missingDerivedValue(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: Self.model())
        let context = stack.context()
        context.make("Note")
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSValidationMissingMandatoryPropertyError)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "shout")
        #expect(try stack.context().all("Note").isEmpty)
    }

    @Test("a value that can be derived saves")
    func derivedValueSaves() throws {
        let stack = try GraphStack(.sqlite, model: Self.model())
        let context = stack.context()
        context.make("Note", ["text": "HI"])
        try context.save()
        let reader = stack.context()
        #expect(try reader.all("Note").first?.value(forKey: "shout") as? String == "hi")
    }
}

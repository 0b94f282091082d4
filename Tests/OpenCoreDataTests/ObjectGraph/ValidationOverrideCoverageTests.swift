import OpenCoreData
import Testing

/// A Post subclass that records every `validateValue(_:forKey:)` call a save makes.
final class RecordingValidationPost: NSManagedObject {
    nonisolated(unsafe) static var calls: [(key: String, value: AnyObject?)] = []

    override func validateValue(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        Self.calls.append((key, value.pointee))
        try super.validateValue(value, forKey: key)
    }
}

/// Saves skip the model's checks for values that cannot fail them (exact numbers without predicates,
/// absent optional values); an override of `validateValue(_:forKey:)` must still see every property
/// with its value, and values that can fail must still be checked, errors in property order.
@Suite("Validation sees every property", .serialized)
struct ValidationOverrideCoverageTests {
    static func model() -> NSManagedObjectModel {
        let model = BlogModel.make()
        let post = model.entitiesByName["Post"]
        post?.managedObjectClassName = NSStringFromClass(RecordingValidationPost.self)
        // Numbers with validation predicates: views at most 10, published must be true.
        if let views = post?.attributesByName["views"] {
            views.setValidationPredicates([NSPredicate(format: "SELF <= 10")], withValidationWarnings: ["too many views"])
        }
        if let published = post?.attributesByName["published"] {
            published.setValidationPredicates([NSPredicate(format: "SELF == YES")], withValidationWarnings: ["must be published"])
        }
        return model
    }

    @Test("an override of validateValue(_:forKey:) is called for every property of a saved object, with its value")
    func overrideSeesEveryProperty() throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        let author = context.make("Author", ["name": "Ann"])
        let post = context.make("Post", ["title": "T", "views": 3, "published": true, "rating": 2.5, "author": author])
        RecordingValidationPost.calls = []
        try context.save()
        let byKey = Dictionary(RecordingValidationPost.calls.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(byKey.keys) == ["title", "body", "created", "rating", "views", "published", "draft", "author", "tags"])
        #expect(RecordingValidationPost.calls.map(\.key) == ["title", "body", "created", "rating", "views", "published", "draft", "author", "tags"])
        #expect((byKey["views"] as? NSNumber)?.int64Value == 3)
        #expect((byKey["rating"] as? NSNumber)?.doubleValue == 2.5)
        #expect((byKey["published"] as? NSNumber)?.boolValue == true)
        #expect(byKey["title"] as? String == "T")
        #expect(byKey["author"] as? NSManagedObject === author)
        #expect((byKey["tags"] as? NSSet)?.count == 0)
        #expect(byKey["body"].flatMap { $0 } == nil)
        #expect(!post.hasChanges)
    }

    @Test("number predicates, a Boolean predicate and a missing required value fail together, in property order")
    func numberChecksStillRun() throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        let post = context.make("Post", ["views": 11, "published": false])
        #expect(post.value(forKey: "title") == nil)
        do {
            try context.save()
            Issue.record("the save should fail")
        } catch let error as NSError {
            #expect(error.code == NSValidationMultipleErrorsError)
            let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
            #expect(
                details.map(\.code) == [NSValidationMissingMandatoryPropertyError, NSManagedObjectValidationError, NSManagedObjectValidationError])
            #expect(details.map { $0.userInfo[NSValidationKeyErrorKey] as? String } == ["title", "views", "published"])
            #expect(details.map(\.localizedDescription).suffix(2) == ["too many views", "must be published"])
        }
        post.setValue("T", forKey: "title")
        post.setValue(10, forKey: "views")
        post.setValue(true, forKey: "published")
        try context.save()
    }

    @Test("validateValue(_:forKey:) on exact numbers, decimals and Booleans answers as the model's checks do")
    func keyValidation() throws {
        let stack = try GraphStack(model: Self.model())
        let post = stack.context().make("Post", ["title": "T"])
        var ok: AnyObject? = NSNumber(value: 10)
        try post.validateValue(&ok, forKey: "views")
        var large: AnyObject? = NSNumber(value: 11)
        #expect(throws: NSError.self) { try post.validateValue(&large, forKey: "views") }
        var decimal: AnyObject? = NSDecimalNumber(string: "11")
        #expect(throws: NSError.self) { try post.validateValue(&decimal, forKey: "views") }
        var no: AnyObject? = NSNumber(value: false)
        #expect(throws: NSError.self) { try post.validateValue(&no, forKey: "published") }
        var rating: AnyObject? = NSNumber(value: 1.5)
        try post.validateValue(&rating, forKey: "rating")
        var missing: AnyObject? = nil
        #expect(throws: NSError.self) { try post.validateValue(&missing, forKey: "title") }
        var text: AnyObject? = "three" as NSString
        #expect(throws: NSError.self) { try post.validateValue(&text, forKey: "rating") }
    }
}

import OpenCoreData
import Testing

/// Records the keys a save validates through `validateValue(_:forKey:)`.
class OverridingValidationPost: NSManagedObject {
    nonisolated(unsafe) static var keys: [String] = []

    override func validateValue(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        Self.keys.append(key)
        try super.validateValue(value, forKey: key)
    }
}

/// Inherits the override without declaring one.
final class InheritingValidationPost: OverridingValidationPost {}

/// Keeps `NSManagedObject`'s implementation.
class PlainValidationPost: NSManagedObject {}

/// Overrides below a class that does not.
final class LateOverridingValidationPost: PlainValidationPost {
    nonisolated(unsafe) static var keys: [String] = []

    override func validateValue(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        Self.keys.append(key)
        try super.validateValue(value, forKey: key)
    }
}

/// A save passes no value to `validateValue(_:forKey:)` that could not fail, unless the object's class
/// overrides it (directly or through a superclass) or a per-key method is registered: each of those
/// must still see every number attribute.
@Suite("validateValue(_:forKey:) overrides are found", .serialized)
struct ValidateValueOverrideDetectionTests {
    /// A context on a fresh store whose `Post` entity uses `postClass`; the stack keeps the store's folder.
    static func context(postClass: NSManagedObject.Type) throws -> (GraphStack, NSManagedObjectContext) {
        let model = BlogModel.make()
        model.entitiesByName["Post"]?.managedObjectClassName = NSStringFromClass(postClass)
        let stack = try GraphStack(model: model)
        return (stack, stack.context())
    }

    @Test("a subclass that inherits an override has it called for every number attribute")
    func inheritedOverride() throws {
        let (stack, context) = try Self.context(postClass: InheritingValidationPost.self)
        defer { withExtendedLifetime(stack) {} }
        let post = context.make("Post", ["title": "T", "views": 3, "rating": 2.5])
        #expect(post is InheritingValidationPost)
        OverridingValidationPost.keys = []
        try context.save()
        #expect(OverridingValidationPost.keys.contains("views"))
        #expect(OverridingValidationPost.keys.contains("rating"))
        #expect(OverridingValidationPost.keys.contains("title"))
    }

    @Test("an override below a class without one is called for every number attribute")
    func overrideBelowPlainClass() throws {
        let (stack, context) = try Self.context(postClass: LateOverridingValidationPost.self)
        defer { withExtendedLifetime(stack) {} }
        _ = context.make("Post", ["title": "T", "views": 3, "rating": 2.5])
        LateOverridingValidationPost.keys = []
        try context.save()
        #expect(LateOverridingValidationPost.keys.contains("views"))
        #expect(LateOverridingValidationPost.keys.contains("rating"))
    }

    @Test("a registered per-key method sees a number attribute of a class without an override")
    func registeredMethodWithoutOverride() throws {
        let (stack, context) = try Self.context(postClass: PlainValidationPost.self)
        defer { withExtendedLifetime(stack) {} }
        nonisolated(unsafe) var seen: [Int64] = []
        PlainValidationPost.registerValidation(forKey: "views") { _ in
            { value in
                let views = (value.pointee as? NSNumber)?.int64Value ?? -1
                seen.append(views)
                if views > 100 {
                    throw NSError(
                        domain: NSCocoaErrorDomain, code: NSManagedObjectValidationError,
                        userInfo: [NSValidationKeyErrorKey: "views"])
                }
            }
        }
        defer { PlainValidationPost.unregisterValidation(forKey: "views") }
        let post = context.make("Post", ["title": "T", "views": 101])
        #expect(throws: NSError.self) { try context.save() }
        post.setValue(7, forKey: "views")
        try context.save()
        #expect(seen == [101, 7])
    }

    @Test("a class without an override still fails a save for a missing required value")
    func plainClassStillChecked() throws {
        let (stack, context) = try Self.context(postClass: PlainValidationPost.self)
        defer { withExtendedLifetime(stack) {} }
        _ = context.make("Post", ["views": 3])
        do {
            try context.save()
            Issue.record("the save should fail")
        } catch let error as NSError {
            #expect(error.code == NSValidationMissingMandatoryPropertyError)
            #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "title")
        }
    }
}

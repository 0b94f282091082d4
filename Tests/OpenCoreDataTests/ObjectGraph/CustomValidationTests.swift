import OpenCoreData
import Testing

/// The first seed's User with its `validateName:error:` and `validateEmail:error:` methods, written in
/// Swift: per-key methods registered with `registerValidation(forKey:_:)`.
final class ValidatedUser: NSManagedObject {
    var name: String? {
        get { managedValue(forKey: "name") }
        set { setManagedValue(newValue, forKey: "name") }
    }
    var email: String? {
        get { managedValue(forKey: "email") }
        set { setManagedValue(newValue, forKey: "email") }
    }

    func validateName(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>) throws {
        guard let name = value.pointee as? String, !name.isEmpty else {
            throw NSError(domain: "UserValidationError", code: 1001, userInfo: [NSLocalizedDescriptionKey: "Name cannot be empty"])
        }
        if name.count > 50 {
            throw NSError(domain: "UserValidationError", code: 1002, userInfo: [NSLocalizedDescriptionKey: "Name cannot exceed 50 characters"])
        }
    }

    func validateEmail(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>) throws {
        guard let email = value.pointee as? String, !email.isEmpty else { return }
        let emailPredicate = NSPredicate(format: "SELF MATCHES %@", "[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,64}")
        if !emailPredicate.evaluate(with: email) {
            throw NSError(domain: "UserValidationError", code: 1003, userInfo: [NSLocalizedDescriptionKey: "Invalid email format"])
        }
    }
}

/// A subclass that overrides `validateValue(_:forKey:)` itself: trims a nickname and rejects "root".
final class NicknamedUser: NSManagedObject {
    override func validateValue(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        try super.validateValue(value, forKey: key)
        guard key == "nickname", let nickname = value.pointee as? String else { return }
        let trimmed = nickname.trimmingCharacters(in: .whitespaces)
        if trimmed == "root" {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSManagedObjectValidationError,
                userInfo: [
                    NSValidationKeyErrorKey: key, NSLocalizedDescriptionKey: "root is reserved",
                ])
        }
        value.pointee = trimmed as NSString
    }
}

enum CustomValidationModel {
    static func make() -> NSManagedObjectModel {
        let user = ModelKit.entity(
            "ValidatedUser",
            [
                ModelKit.attribute("name", .stringAttributeType),
                ModelKit.attribute("email", .stringAttributeType),
            ])
        let nick = ModelKit.entity("NicknamedUser", [ModelKit.attribute("nickname", .stringAttributeType)])
        let model = NSManagedObjectModel()
        model.entities = [user, nick]
        return model
    }

    static func register() {
        ValidatedUser.registerValidation(forKey: "name", ValidatedUser.validateName)
        ValidatedUser.registerValidation(forKey: "email", ValidatedUser.validateEmail)
    }
}

@Suite("Custom validation: per-key methods and validateValue(_:forKey:) overrides")
struct CustomValidationTests {
    @Test(
        "the seed's validateName and validateEmail reject bad values on demand and at save",
        arguments: TestStoreKind.allCases)
    func seedMethods(_ kind: TestStoreKind) throws {
        CustomValidationModel.register()
        let stack = try GraphStack(kind, model: CustomValidationModel.make())
        let context = stack.context()
        let user = ValidatedUser(context: context)
        user.name = "Lin"
        user.email = "lin@example.com"
        try user.validateForInsert()

        var empty: AnyObject? = "" as NSString
        let emptyError = try #require(throws: NSError.self) { try user.validateValue(&empty, forKey: "name") }
        #expect(emptyError.domain == "UserValidationError" && emptyError.code == 1001)
        var long: AnyObject? = String(repeating: "x", count: 51) as NSString
        #expect(throws: NSError.self) { try user.validateValue(&long, forKey: "name") }

        user.email = "not-an-email"
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.domain == "UserValidationError" && error.code == 1003)
        #expect(error.localizedDescription == "Invalid email format")
        #expect(try stack.context().all("ValidatedUser").isEmpty)

        user.name = nil
        let both = try #require(throws: NSError.self) { try context.save() }
        #expect(both.code == NSValidationMultipleErrorsError)
        #expect(Set((both.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []).map(\.code)) == [1001, 1003])

        user.name = "Lin"
        user.email = "lin@example.com"
        try context.save()
        #expect(try stack.context().all("ValidatedUser").count == 1)
    }

    @Test("an overriding validateValue(_:forKey:) can reject a value and replace it through the pointer")
    func overridingHook() throws {
        let stack = try GraphStack(model: CustomValidationModel.make())
        let context = stack.context()
        let user = NicknamedUser(context: context)
        var padded: AnyObject? = "  neo  " as NSString
        try user.validateValue(&padded, forKey: "nickname")
        #expect(padded as? String == "neo")
        user.setValue("root", forKey: "nickname")
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.localizedDescription == "root is reserved")
        user.setValue("trinity", forKey: "nickname")
        try context.save()
    }

    @Test("unregistering a per-key method stops it from running")
    func unregister() throws {
        final class Tagged: NSManagedObject {
            func validateTag(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>) throws {
                throw NSError(domain: "Tagged", code: 1)
            }
        }
        let entity = ModelKit.entity("Tagged", [ModelKit.attribute("tag", .stringAttributeType)])
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let stack = try GraphStack(model: model)
        let context = stack.context()
        let object = Tagged(entity: try #require(model.entitiesByName["Tagged"]), insertInto: context)
        Tagged.registerValidation(forKey: "tag", Tagged.validateTag)
        var value: AnyObject? = "a" as NSString
        #expect(throws: NSError.self) { try object.validateValue(&value, forKey: "tag") }
        Tagged.unregisterValidation(forKey: "tag")
        try object.validateValue(&value, forKey: "tag")
    }
}

import OpenCoreData
import Testing

/// A color that is no `NSCoding` object: only a value transformer can store it.
struct SwatchColor: Equatable {
    var red: UInt8
    var green: UInt8
    var blue: UInt8
}

/// Stores a ``SwatchColor`` as three bytes.
final class SwatchColorTransformer: ValueTransformer {
    static let name = NSValueTransformerName("TransformableAttributeTests.SwatchColor")

    override class func transformedValueClass() -> AnyClass { NSData.self }
    override class func allowsReverseTransformation() -> Bool { true }

    override func transformedValue(_ value: Any?) -> Any? {
        guard let color = value as? SwatchColor else { return nil }
        return Data([color.red, color.green, color.blue])
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, data.count == 3 else { return nil }
        let bytes = Array(data)
        return SwatchColor(red: bytes[0], green: bytes[1], blue: bytes[2])
    }
}

/// Stores strings reversed, and cannot read them back.
final class OneWayTransformer: ValueTransformer {
    static let name = NSValueTransformerName("TransformableAttributeTests.OneWay")
    override class func allowsReverseTransformation() -> Bool { false }
    override func transformedValue(_ value: Any?) -> Any? { (value as? String).map { Data($0.utf8.reversed()) } }
}

/// An `NSCoding` class another program archived: the archives the tests make with it are renamed to name
/// a class this program does not have.
final class ArchivedMarker: NSObject, NSCoding {
    let number: Int
    init(number: Int) { self.number = number }
    func encode(with coder: NSCoder) { coder.encode(number, forKey: "number") }
    required init?(coder: NSCoder) { number = coder.decodeInteger(forKey: "number") }
}

/// `NSCoding` classes nested in another type, which Foundation's keyed archiver cannot name on Linux.
enum NestedCoding {
    final class Marker: NSObject, NSCoding {
        func encode(with coder: NSCoder) {}
        override init() {}
        required init?(coder: NSCoder) {}
    }
}

@Suite("Transformable attributes")
struct TransformableAttributeTests {
    static func model() -> NSManagedObjectModel {
        func transformable(_ name: String, _ transformer: String?) -> NSAttributeDescription {
            let attribute = ModelKit.attribute(name, .transformableAttributeType)
            attribute.valueTransformerName = transformer
            return attribute
        }
        let swatch = ModelKit.entity(
            "Swatch",
            [
                ModelKit.attribute("name", .stringAttributeType),
                transformable("color", SwatchColorTransformer.name.rawValue),
                transformable("settings", nil),
                transformable("tags", NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue),
                transformable("lost", "TransformableAttributeTests.NeverRegistered"),
                transformable("oneWay", OneWayTransformer.name.rawValue),
            ])
        let model = NSManagedObjectModel()
        model.entities = [swatch]
        return model
    }

    static func register() {
        ValueTransformer.setValueTransformer(SwatchColorTransformer(), forName: SwatchColorTransformer.name)
        ValueTransformer.setValueTransformer(OneWayTransformer(), forName: OneWayTransformer.name)
    }

    /// Expects the context's save to fail with `NSPersistentStoreSaveError`, its message mentioning every
    /// part, and the context to keep its changes.
    static func expectSaveFails(
        _ context: NSManagedObjectContext, mentioning parts: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: NSError.self, sourceLocation: sourceLocation) { try context.save() }
        #expect(error?.code == NSPersistentStoreSaveError, sourceLocation: sourceLocation)
        let message = error?.localizedDescription ?? ""
        for part in parts { #expect(message.contains(part), "\(message)", sourceLocation: sourceLocation) }
        #expect(context.hasChanges, sourceLocation: sourceLocation)
    }

    /// Fetches the only swatch's values through a new coordinator on the same file.
    static func reread(_ stack: GraphStack, _ key: String) throws -> Any? {
        let context = stack.context(try stack.secondCoordinator())
        let swatches = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Swatch"))
        #expect(swatches.count == 1)
        return try #require(swatches.first).value(forKey: key)
    }

    @Test("a value goes through the transformer named by valueTransformerName into SQLite and back")
    func customTransformer() throws {
        Self.register()
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        context.make("Swatch", ["name": "teal", "color": SwatchColor(red: 0, green: 128, blue: 128)])
        try context.save()
        #expect(try Self.reread(stack, "color") as? SwatchColor == SwatchColor(red: 0, green: 128, blue: 128))
        #expect(try Self.reread(stack, "name") as? String == "teal")
    }

    @Test("without a transformer name, Data is kept and strings, numbers, arrays and dictionaries are archived")
    func defaultStorage() throws {
        let stack = try GraphStack(model: Self.model())
        let bytes = Data([0, 1, 2, 255])
        let values: [Any] = [bytes, "text", 42, 2.5, ["a", "b"], ["k": 1, "j": "v"] as [String: Any]]
        let context = stack.context()
        for (index, value) in values.enumerated() { context.make("Swatch", ["name": "\(index)", "settings": value]) }
        try context.save()
        let other = stack.context(try stack.secondCoordinator())
        for (index, value) in values.enumerated() {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Swatch")
            request.predicate = NSPredicate(format: "name == %@", "\(index)")
            let stored = try #require(try other.fetch(request).first).value(forKey: "settings")
            switch value {
            case let data as Data: #expect(stored as? Data == data)
            case let text as String: #expect(stored as? String == text)
            case let number as Int: #expect(stored as? Int == number)
            case let number as Double: #expect(stored as? Double == number)
            case let list as [String]: #expect(stored as? [String] == list)
            default:
                let dictionary = try #require(stored as? [String: Any])
                #expect(dictionary["k"] as? Int == 1 && dictionary["j"] as? String == "v")
            }
        }
    }

    @Test("NSSecureUnarchiveFromData stores an array of strings and reads it back")
    func secureUnarchiveName() throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        context.make("Swatch", ["tags": ["warm", "bright"]])
        try context.save()
        #expect(try Self.reread(stack, "tags") as? [String] == ["warm", "bright"])
    }

    @Test("a transformer name that is not registered fails the save with an error naming it")
    func unregisteredTransformer() throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        context.make("Swatch", ["lost": "anything"])
        #expect {
            try context.save()
        } throws: { error in
            let error = error as NSError
            let message = error.localizedDescription
            return error.domain == NSCocoaErrorDomain && error.code == NSPersistentStoreSaveError
                && message.contains("Swatch.lost") && message.contains("TransformableAttributeTests.NeverRegistered")
        }
        #expect(context.hasChanges)
    }

    @Test("a value the default storage cannot archive fails the save with an error naming the attribute")
    func unarchivableDefault() throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        context.make("Swatch", ["settings": SwatchColor(red: 1, green: 2, blue: 3)])
        #expect {
            try context.save()
        } throws: { error in
            let error = error as NSError
            return error.code == NSPersistentStoreSaveError && error.localizedDescription.contains("Swatch.settings")
        }
    }

    @Test("a transformer that returns no data fails the save; one that cannot reverse fails the read")
    func transformerFailures() throws {
        Self.register()
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        let wrong = context.make("Swatch", ["color": "not a color"])
        #expect {
            try context.save()
        } throws: { error in
            let error = error as NSError
            return error.code == NSPersistentStoreSaveError && error.localizedDescription.contains("Swatch.color")
                && error.localizedDescription.contains(SwatchColorTransformer.name.rawValue)
        }
        context.delete(wrong)
        context.make("Swatch", ["oneWay": "forward"])
        try context.save()
        let other = stack.context(try stack.secondCoordinator())
        let request = NSFetchRequest<NSManagedObject>(entityName: "Swatch")
        request.returnsObjectsAsFaults = false
        #expect {
            _ = try other.fetch(request)
        } throws: { error in
            let error = error as NSError
            return error.domain == NSCocoaErrorDomain && error.localizedDescription.contains("Swatch.oneWay")
        }
    }

    @Test("a keyed archive naming a class this program does not have reads as its bytes, and a save keeps them")
    func archiveOfAnotherProgram() throws {
        let archive = try NSKeyedArchiver.archivedData(withRootObject: ArchivedMarker(number: 7), requiringSecureCoding: false)
        // The same archive, its class renamed wherever it is named (same length: the archive's offsets stay
        // right; the archiver may name it twice, as the class and in its list of classes).
        var bytes = [UInt8](archive)
        let name = Array("ArchivedMarker".utf8)
        let places = bytes.indices.filter { bytes[$0...].starts(with: name) }
        #expect(!places.isEmpty)
        for at in places { bytes[at + name.count - 1] = UInt8(ascii: "z") }
        let foreign = Data(bytes)
        #expect(foreign != archive)
        // The archive as written reads back as its object: only the unknown class makes it bytes.
        let knownStack = try GraphStack(model: Self.model())
        let knownWriter = knownStack.context()
        knownWriter.make("Swatch", ["name": "known", "settings": archive])
        try knownWriter.save()
        #expect((try Self.reread(knownStack, "settings") as? ArchivedMarker)?.number == 7)

        let stack = try GraphStack(model: Self.model())
        let writer = stack.context()
        writer.make("Swatch", ["name": "foreign", "settings": foreign])
        try writer.save()
        #expect(try Self.reread(stack, "settings") as? Data == foreign)

        // Edited and saved where the value reads as bytes, the row keeps them.
        let editor = stack.context(try stack.secondCoordinator())
        let swatch = try #require(try editor.fetch(NSFetchRequest<NSManagedObject>(entityName: "Swatch")).first)
        swatch.setValue("renamed", forKey: "name")
        try editor.save()
        #expect(try Self.reread(stack, "settings") as? Data == foreign)
    }

    @Test("an archive holding a binary property list set reads as its bytes, or as nil through NSSecureUnarchiveFromData")
    func archiveWithSet() throws {
        let stack = try GraphStack(model: Self.model())
        let writer = stack.context()
        writer.make("Swatch", ["name": "set", "settings": PropertyListKit.setInDictionary, "tags": ["kept"]])
        try writer.save()
        #expect(try Self.reread(stack, "settings") as? Data == PropertyListKit.setInDictionary)
        // The secure transformer's column, overwritten by another program: the value reads as nil, as for
        // any data that is not an archive of allowed classes, and the row's other values read as they are.
        try RobustnessKit.execute("UPDATE ZSWATCH SET ZTAGS = x'\(PropertyListKit.setInDictionaryHex)'", on: stack.storeURL)
        #expect(try Self.reread(stack, "tags") == nil)
        #expect(try Self.reread(stack, "name") as? String == "set")
    }

    @Test("an NSCoding value of a class nested in another type fails the save with an error naming the class")
    func nestedCodingClass() throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        context.make("Swatch", ["settings": NestedCoding.Marker()])
        Self.expectSaveFails(context, mentioning: ["Swatch.settings", "NestedCoding.Marker", "top level"])
        // Inside an ordered set (no NSSet), as inside an array, a set or a dictionary.
        let ordered = stack.context()
        ordered.make("Swatch", ["settings": NSOrderedSet(array: ["a", NestedCoding.Marker()])])
        Self.expectSaveFails(ordered, mentioning: ["Swatch.settings", "NestedCoding.Marker", "top level"])
    }

    @Test("a decimal number inside an archived value fails the save with an error naming it; a Decimal alone is stored")
    func decimalInArchive() throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        context.make("Swatch", ["settings": ["price": Decimal(string: "9.99")!] as [String: Any]])
        Self.expectSaveFails(context, mentioning: ["Swatch.settings", "NSDecimalNumber", "cannot hash"])
        // Through NSSecureUnarchiveFromData, as Xcode names it for new transformable attributes.
        let secure = stack.context()
        secure.make("Swatch", ["tags": [NSDecimalNumber(string: "2")]])
        Self.expectSaveFails(secure, mentioning: ["Swatch.tags", "NSDecimalNumber", "cannot hash"])

        let writer = stack.context()
        writer.make("Swatch", ["settings": Decimal(string: "9.99")!])
        try writer.save()
        #expect(try Self.reread(stack, "settings") as? Decimal == Decimal(string: "9.99"))
    }
}

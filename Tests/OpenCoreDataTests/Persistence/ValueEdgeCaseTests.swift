import OpenCoreData
import Testing

/// Measure(name, double, float, decimal, blob, photo: external binary data).
enum EdgeModel {
    static func make() -> NSManagedObjectModel {
        let photo = ModelKit.attribute("photo", .binaryDataAttributeType)
        photo.allowsExternalBinaryDataStorage = true
        let measure = ModelKit.entity(
            "Measure",
            [
                ModelKit.attribute("name", .stringAttributeType),
                ModelKit.attribute("double", .doubleAttributeType),
                ModelKit.attribute("float", .floatAttributeType),
                ModelKit.attribute("decimal", .decimalAttributeType),
                ModelKit.attribute("blob", .binaryDataAttributeType),
                photo,
            ])
        measure.managedObjectClassName = "NSManagedObject"
        let model = NSManagedObjectModel()
        model.entities = [measure]
        return model
    }

    /// A new context on a new coordinator (SQLite) or on the stack's coordinator (in-memory).
    static func reader(_ stack: GraphStack, _ kind: TestStoreKind) throws -> NSManagedObjectContext {
        kind == .sqlite ? stack.context(try stack.secondCoordinator()) : stack.context()
    }

    /// The named measure as `context` reads it.
    static func reread(_ context: NSManagedObjectContext, _ name: String) throws -> NSManagedObject? {
        try context.all("Measure", predicate: NSPredicate(format: "name == %@", name)).first
    }
}

@Suite("Edge values: infinities, NaN, NUL characters, every Unicode plane, huge blobs")
struct ValueEdgeCaseTests {
    @Test("infinities round-trip in Double and Float attributes", arguments: TestStoreKind.allCases)
    func infinities(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: EdgeModel.make())
        let context = stack.context()
        context.make("Measure", ["name": "up", "double": Double.infinity, "float": Float.infinity])
        context.make("Measure", ["name": "down", "double": -Double.infinity, "float": -Float.infinity])
        try context.save()
        let upReader = try EdgeModel.reader(stack, kind)
        let up = try #require(try EdgeModel.reread(upReader, "up"))
        #expect((up.value(forKey: "double") as? NSNumber)?.doubleValue == .infinity)
        #expect((up.value(forKey: "float") as? NSNumber)?.floatValue == .infinity)
        let downReader = try EdgeModel.reader(stack, kind)
        let down = try #require(try EdgeModel.reread(downReader, "down"))
        #expect((down.value(forKey: "double") as? NSNumber)?.doubleValue == -.infinity)
        let sorted = NSFetchRequest<NSManagedObject>(entityName: "Measure")
        sorted.sortDescriptors = [NSSortDescriptor(key: "double", ascending: true)]
        let sorter = stack.context()
        #expect(try sorter.fetch(sorted).map { $0.value(forKey: "name") as? String } == ["down", "up"])
    }

    @Test("NaN fails a SQLite save with an error naming the attribute; the store keeps its rows")
    func nanInSQLite() throws {
        let stack = try GraphStack(model: EdgeModel.make())
        let context = stack.context()
        context.make("Measure", ["name": "fine", "double": 1.5])
        try context.save()
        for (key, value) in [("double", Double.nan as Any), ("float", Float.nan as Any), ("decimal", NSDecimalNumber.notANumber as Any)] {
            let bad = context.make("Measure", ["name": "bad", key: value])
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.localizedDescription.contains("Measure.\(key)"))
            #expect(error.localizedDescription.contains("NaN"))
            context.delete(bad)
        }
        let reader = stack.context()
        let rows = try reader.all("Measure")
        #expect(rows.map { $0.value(forKey: "name") as? String } == ["fine"])
        #expect((rows.first?.value(forKey: "double") as? NSNumber)?.doubleValue == 1.5)
    }

    @Test("NaN is kept by the in-memory store")
    func nanInMemory() throws {
        let stack = try GraphStack(.inMemory, model: EdgeModel.make())
        let context = stack.context()
        context.make("Measure", ["name": "nan", "double": Double.nan])
        try context.save()
        let storedReader = try EdgeModel.reader(stack, .inMemory)
        let stored = try #require(try EdgeModel.reread(storedReader, "nan"))
        #expect((stored.value(forKey: "double") as? NSNumber)?.doubleValue.isNaN == true)
    }

    @Test(
        "a string with a NUL character fails a SQLite save precisely and round-trips in memory",
        arguments: TestStoreKind.allCases)
    func nulCharacters(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: EdgeModel.make())
        let context = stack.context()
        context.make("Measure", ["name": "a\u{0}b"])
        if kind == .sqlite {
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.localizedDescription.contains("Measure.name"))
            #expect(error.localizedDescription.contains("NUL"))
            #expect(try stack.context().all("Measure").isEmpty)
        } else {
            try context.save()
            let reader = stack.context()
            let stored = try #require(try reader.all("Measure").first)
            #expect(stored.value(forKey: "name") as? String == "a\u{0}b")
        }
    }

    @Test("characters of every Unicode plane round-trip and compare", arguments: TestStoreKind.allCases)
    func unicodePlanes(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: EdgeModel.make())
        let context = stack.context()
        // BMP (with a combining mark and the last scalar before the surrogates), SMP emoji, SIP ideograph,
        // TIP, plane 14 tag, and the private-use planes 15 and 16.
        let text = "Zoë ä\u{D7FF}\u{FFFD} 😀𝄞 𠀀𪛖 \u{30000} \u{E0041} \u{F0000}\u{10FFFD}"
        context.make("Measure", ["name": text])
        context.make("Measure", ["name": "plain"])
        try context.save()
        let storedReader = try EdgeModel.reader(stack, kind)
        let stored = try #require(try EdgeModel.reread(storedReader, text))
        #expect(stored.value(forKey: "name") as? String == text)
        let byPrefix = try stack.context().all("Measure", predicate: NSPredicate(format: "name BEGINSWITH %@", "Zoë"))
        #expect(byPrefix.count == 1)
    }

    @Test("a 64 MiB blob round-trips, inline and as external data", arguments: TestStoreKind.allCases)
    func hugeBlob(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: EdgeModel.make())
        var huge = Data(count: 64 * 1024 * 1024)
        huge[0] = 1
        huge[huge.count - 1] = 0xFF
        huge[huge.count / 2] = 0x7F
        let context = stack.context()
        context.make("Measure", ["name": "huge", "blob": huge, "photo": huge])
        try context.save()
        let storedReader = try EdgeModel.reader(stack, kind)
        let stored = try #require(try EdgeModel.reread(storedReader, "huge"))
        #expect((stored.value(forKey: "blob") as? Data) == huge)
        #expect((stored.value(forKey: "photo") as? Data) == huge)
    }
}

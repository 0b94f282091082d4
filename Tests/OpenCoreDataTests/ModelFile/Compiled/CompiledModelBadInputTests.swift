import Foundation
import GRDB
import Testing

@testable import OpenCoreDataCore

/// Damaged compiled models and model caches give a thrown error — `NSFileReadCorruptFileError` (259)
/// naming the store for a cache, `NSCoreDataError` (134060) naming the file for a `.mom` — never a crash.
@Suite("Compiled model bad input")
struct CompiledModelBadInputTests {
    /// A copy of the SampleModel_V1 store whose cache holds `content`.
    static func store(withCache content: Data, in directory: URL) throws -> URL {
        let fixture = try #require(CompiledFixtures.cachedStores.first { $0.file == "SampleModel_V1.sqlite" })
        let url = try fixture.copy(into: directory)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "UPDATE Z_MODELCACHE SET Z_CONTENT = ?", arguments: [content]) }
        try queue.close()
        return url
    }

    /// The error loading the cache of a store holding `content` gives, and the one loading `archive` as a
    /// `.mom` gives.
    static func errors(cache content: Data, mom archive: Data?) throws -> (store: NSError, model: NSError?) {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try store(withCache: content, in: directory)
        #expect(NSManagedObjectModel(cachedInStoreAt: url) == nil)
        let storeError = try #require(Self.error { try NSManagedObjectModel.load(cachedInStoreAt: url) })
        var modelError: NSError?
        if let archive {
            let mom = directory.appendingPathComponent("Bad.mom")
            try archive.write(to: mom)
            #expect(NSManagedObjectModel(contentsOf: mom) == nil)
            modelError = Self.error { try NSManagedObjectModel.load(from: mom) }
        }
        return (storeError, modelError)
    }

    static func error(_ body: () throws -> Any) -> NSError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as NSError
        }
    }

    /// Checks both errors and that they say `reason`.
    static func expectRefused(archive: Data, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (store, model) = try errors(cache: RawDeflate.deflate(archive), mom: archive)
        #expect(store.domain == NSCocoaErrorDomain && store.code == NSFileReadCorruptFileError, "\(store)", sourceLocation: sourceLocation)
        #expect(store.localizedDescription.contains(reason), "\(store.localizedDescription)", sourceLocation: sourceLocation)
        #expect(store.userInfo[NSFilePathErrorKey] as? String != nil, sourceLocation: sourceLocation)
        #expect(model?.code == 134060, "\(String(describing: model))", sourceLocation: sourceLocation)
        #expect(
            model?.localizedDescription.contains(reason) == true, "\(String(describing: model?.localizedDescription))",
            sourceLocation: sourceLocation)
    }

    /// Apple's cache of the SampleModel_V1 store, inflated.
    static func appleArchive() throws -> Data {
        let fixture = try #require(CompiledFixtures.cachedStores.first { $0.file == "SampleModel_V1.sqlite" })
        return try RawDeflate.inflate(try CompiledFixtures.cacheAndHashes(of: fixture).cache)
    }

    @Test("a truncated cache, bytes that are not DEFLATE and a DEFLATE stream of text are refused")
    func damagedCompression() throws {
        let blob = RawDeflate.deflate(try Self.appleArchive())
        let truncated = try Self.errors(cache: blob.prefix(blob.count / 2), mom: nil).store
        #expect(truncated.code == NSFileReadCorruptFileError)
        #expect(truncated.localizedDescription.contains("truncated"))
        let garbage = try Self.errors(cache: Data((0..<64).map { UInt8(($0 * 37 + 11) % 256) | 0x07 }), mom: nil).store
        #expect(garbage.code == NSFileReadCorruptFileError)
        try Self.expectRefused(archive: Data("just some text, no property list".utf8), "not a binary property list")
        let bomb = RawDeflate.deflate(Data(count: 1 << 20))
        #expect(throws: RawDeflate.Failure.tooLarge(limit: 1000)) { try RawDeflate.inflate(bomb, limit: 1000) }
    }

    @Test("a truncated archive and one whose trailer claims a huge object count are refused")
    func damagedPropertyList() throws {
        let archive = try Self.appleArchive()
        try Self.expectRefused(archive: archive.prefix(archive.count - 10), "not a binary property list")
        var huge = archive
        let trailer = huge.count - 32
        for index in 0..<8 { huge[trailer + 8 + index] = index == 0 ? 0x00 : 0xFF }
        try Self.expectRefused(archive: huge, "not a binary property list")
    }

    /// An archive built object by object; `build` returns the root's place.
    static func archive(_ build: (KeyedArchiveWriter) -> Int) -> Data {
        let writer = KeyedArchiveWriter()
        return writer.archive(root: build(writer))
    }

    /// A minimal model archive of one entity, whose fields `change` may edit.
    static func modelArchive(
        entity change: (KeyedArchiveWriter, Int, inout [(String, KeyedArchiveWriter.ArchiveValue)]) -> Void = { _, _, _ in },
        model extra: [(String, KeyedArchiveWriter.ArchiveValue)] = []
    ) -> Data {
        archive { writer in
            let model = writer.reserve(), entity = writer.reserve()
            var fields: [(String, KeyedArchiveWriter.ArchiveValue)] = [
                ("NSEntityName", writer.string("Thing")), ("NSManagedObjectModel", .uid(model)),
            ]
            change(writer, entity, &fields)
            writer.fill(entity, classes: ["NSEntityDescription", "NSObject"], fields: fields)
            let table = writer.instance(
                classes: ["NSMutableDictionary", "NSDictionary", "NSObject"],
                fields: [
                    ("NS.keys", .array([writer.string("Thing")])), ("NS.objects", .array([.uid(entity)])),
                ])
            writer.fill(model, classes: ["NSManagedObjectModel", "NSObject"], fields: [("NSEntities", table)] + extra)
            return model
        }
    }

    @Test("an archive of the wrong classes is refused, naming the class")
    func wrongClasses() throws {
        let array = Self.archive { writer in
            let uid = writer.reserve()
            writer.fill(uid, classes: ["NSArray", "NSObject"], fields: [("NS.objects", .array([]))])
            return uid
        }
        try Self.expectRefused(archive: array, "an archived NSArray, not NSManagedObjectModel")
        let stringEntity = Self.archive { writer in
            let model = writer.reserve()
            let table = writer.instance(
                classes: ["NSMutableDictionary", "NSDictionary", "NSObject"],
                fields: [
                    ("NS.keys", .array([writer.string("Thing")])), ("NS.objects", .array([writer.string("not an entity")])),
                ])
            writer.fill(model, classes: ["NSManagedObjectModel", "NSObject"], fields: [("NSEntities", table)])
            return model
        }
        try Self.expectRefused(archive: stringEntity, "plain value where an object was expected")
        let attributeAsProperty = Self.modelArchive { writer, _, fields in
            let bogus = writer.instance(classes: ["NSURLSessionTask", "NSObject"], fields: [])
            fields.append(
                (
                    "NSProperties",
                    writer.instance(
                        classes: ["NSMutableDictionary", "NSDictionary", "NSObject"],
                        fields: [
                            ("NS.keys", .array([writer.string("p")])), ("NS.objects", .array([bogus])),
                        ])
                ))
        }
        try Self.expectRefused(archive: attributeAsProperty, "an archived NSURLSessionTask")
        let unknownType = Self.modelArchive { writer, entity, fields in
            let attribute = writer.instance(
                classes: ["NSAttributeDescription", "NSPropertyDescription", "NSObject"],
                fields: [
                    ("NSPropertyName", writer.string("p")), ("NSEntity", .uid(entity)), ("NSAttributeType", .integer(12_345)),
                ])
            fields.append(
                (
                    "NSProperties",
                    writer.instance(
                        classes: ["NSMutableDictionary", "NSDictionary", "NSObject"],
                        fields: [
                            ("NS.keys", .array([writer.string("p")])), ("NS.objects", .array([attribute])),
                        ])
                ))
        }
        try Self.expectRefused(archive: unknownType, "unknown attribute type 12345")
    }

    @Test("cycles are refused: an entity that is its own superentity, a predicate or a value that contains itself")
    func cycles() throws {
        let ownParent = Self.modelArchive { _, entity, fields in fields.append(("NSSuperentity", .uid(entity))) }
        try Self.expectRefused(archive: ownParent, "form a cycle")
        let selfContaining = Self.modelArchive { writer, _, fields in
            let list = writer.reserve()
            writer.fill(list, classes: ["NSArray", "NSObject"], fields: [("NS.objects", .array([.uid(list)]))])
            fields.append(
                (
                    "NSUserInfo",
                    writer.instance(
                        classes: ["NSDictionary", "NSObject"],
                        fields: [
                            ("NS.keys", .array([writer.string("loop")])), ("NS.objects", .array([.uid(list)])),
                        ])
                ))
        }
        try Self.expectRefused(archive: selfContaining, "contains itself")
        let predicateLoop = Self.modelArchive { writer, entity, fields in
            let predicate = writer.reserve()
            writer.fill(
                predicate, classes: ["NSCompoundPredicate", "NSPredicate", "NSObject"],
                fields: [
                    ("NSCompoundPredicateType", .integer(1)),
                    ("NSSubpredicates", writer.instance(classes: ["NSArray", "NSObject"], fields: [("NS.objects", .array([.uid(predicate)]))])),
                ])
            let attribute = writer.instance(
                classes: ["NSAttributeDescription", "NSPropertyDescription", "NSObject"],
                fields: [
                    ("NSPropertyName", writer.string("p")), ("NSEntity", .uid(entity)), ("NSAttributeType", .integer(700)),
                    (
                        "NSValidationPredicates",
                        writer.instance(classes: ["NSArray", "NSObject"], fields: [("NS.objects", .array([.uid(predicate)]))])
                    ),
                    (
                        "NSValidationWarnings",
                        writer.instance(classes: ["NSArray", "NSObject"], fields: [("NS.objects", .array([writer.string("w")]))])
                    ),
                ])
            fields.append(
                (
                    "NSProperties",
                    writer.instance(
                        classes: ["NSMutableDictionary", "NSDictionary", "NSObject"],
                        fields: [
                            ("NS.keys", .array([writer.string("p")])), ("NS.objects", .array([attribute])),
                        ])
                ))
        }
        try Self.expectRefused(archive: predicateLoop, "contains itself")
    }

    @Test("impossible counts and references are refused")
    func impossibleValues() throws {
        let dangling = Self.modelArchive { _, _, fields in fields.append(("NSSuperentity", .uid(9_999))) }
        try Self.expectRefused(archive: dangling, "which it does not hold")
        let hugeCount = Self.modelArchive { writer, entity, fields in
            let destination = writer.instance(
                classes: ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"],
                fields: [
                    ("NSPropertyName", writer.string("r")), ("NSEntity", .uid(entity)), ("NSDestinationEntity", .uid(entity)),
                    ("NSMaxCount", .integer(1 << 40)),
                ])
            fields.append(
                (
                    "NSProperties",
                    writer.instance(
                        classes: ["NSMutableDictionary", "NSDictionary", "NSObject"],
                        fields: [
                            ("NS.keys", .array([writer.string("r")])), ("NS.objects", .array([destination])),
                        ])
                ))
        }
        try Self.expectRefused(archive: hugeCount, "NSMaxCount is 1099511627776")
        let mismatched = Self.modelArchive { writer, _, fields in
            fields.append(
                (
                    "NSProperties",
                    writer.instance(
                        classes: ["NSMutableDictionary", "NSDictionary", "NSObject"],
                        fields: [
                            ("NS.keys", .array([writer.string("a"), writer.string("b")])), ("NS.objects", .array([])),
                        ])
                ))
        }
        try Self.expectRefused(archive: mismatched, "as many keys as values")
        let deep = Self.modelArchive { writer, entity, fields in
            var expression = writer.instance(classes: ["NSSelfExpression", "NSExpression", "NSObject"], fields: [("NSExpressionType", .integer(1))])
            for _ in 0..<2_000 {
                expression = writer.instance(
                    classes: ["NSFunctionExpression", "NSExpression", "NSObject"],
                    fields: [
                        ("NSExpressionType", .integer(4)), ("NSSelectorName", writer.string("uppercase:")), ("NSOperand", expression),
                    ])
            }
            let derived = writer.instance(
                classes: ["NSDerivedAttributeDescription", "NSAttributeDescription", "NSPropertyDescription", "NSObject"],
                fields: [
                    ("NSPropertyName", writer.string("d")), ("NSEntity", .uid(entity)), ("NSAttributeType", .integer(700)),
                    ("NSDerivationExpression", expression),
                ])
            fields.append(
                (
                    "NSProperties",
                    writer.instance(
                        classes: ["NSMutableDictionary", "NSDictionary", "NSObject"],
                        fields: [
                            ("NS.keys", .array([writer.string("d")])), ("NS.objects", .array([derived])),
                        ])
                ))
        }
        try Self.expectRefused(archive: deep, "too deeply")
    }

    @Test("every byte of Apple's archive changed in turn gives a model or an error, never a crash", .tags(.fuzz))
    func mutatedArchives() throws {
        let archive = try Self.appleArchive()
        var refused = 0, read = 0
        for position in stride(from: 0, to: archive.count, by: 3) {
            for value: UInt8 in [0x00, 0xFF, archive[position] ^ 0x01] {
                var mutated = archive
                mutated[position] = value
                do {
                    _ = try CompiledModelDecoder.decode(mutated)
                    read += 1
                } catch {
                    refused += 1
                }
            }
        }
        #expect(refused > 0)
        #expect(read > 0)
    }
}

import GRDB
import OpenCoreData
import Testing

/// Damaged copies of the Apple-written fixture stores and a probe that reads everything in a store
/// through the public API, for the bad-input robustness tests.
enum RobustnessKit {
    /// An Apple-written store of `Tests/Fixtures/stores` and the model version that wrote it.
    struct StoreFixture: Sendable, CustomTestStringConvertible {
        let folder: String
        let file: String
        let modelVersion: String

        var testDescription: String { file }

        var source: URL { Fixtures.stores.appendingPathComponent(folder) }
        var modelURL: URL { source.appendingPathComponent(modelVersion) }

        /// Copies the store (and its `-wal` and `-shm`) into `directory`; returns the copy's URL.
        func copy(into directory: URL) throws -> URL {
            let target = directory.appendingPathComponent(file)
            for suffix in ["", "-wal", "-shm"] {
                let from = source.appendingPathComponent(file + suffix)
                guard FileManager.default.fileExists(atPath: from.path) else { continue }
                try FileManager.default.copyItem(at: from, to: URL(fileURLWithPath: target.path + suffix))
            }
            return target
        }
    }

    static let sampleModel = StoreFixture(
        folder: "alemar11__CoreDataPlus__SampleModel_V1", file: "SampleModel_V1.sqlite",
        modelVersion: "SampleModel.xcdatamodeld/SampleModel.xcdatamodel")
    static let migrationExample = StoreFixture(
        folder: "wibosco__CoreDataMigrationRevised-Example__CoreDataMigration_Example_3",
        file: "CoreDataMigration_Example_3.sqlite",
        modelVersion: "CoreDataMigration_Example.xcdatamodeld/CoreDataMigration_Example 3.xcdatamodel")
    static let bookmarks = StoreFixture(
        folder: "duckduckgo__BrowserServicesKit__Bookmarks_V5", file: "Bookmarks_V5.sqlite",
        modelVersion: "BookmarksModel.xcdatamodeld/BookmarksModel 5.xcdatamodel")
    static let stores = [sampleModel, migrationExample, bookmarks]

    /// The Foundation and Core Data codes a damaged store, model or argument may fail with.
    static let allowedCodes: Set<Int> = Set<Int>([
        NSFileReadUnknownError, NSFileReadNoSuchFileError, NSFileReadCorruptFileError, NSFileReadNoPermissionError,
        NSFormattingError, NSPersistentStoreInvalidTypeError, NSPersistentStoreTypeMismatchError,
        NSPersistentStoreIncompatibleSchemaError, NSCoreDataError, NSPersistentStoreOperationError,
        NSPersistentStoreOpenError, NSPersistentStoreIncompatibleVersionHashError, NSMigrationError,
        NSMigrationMissingSourceModelError, NSMigrationMissingMappingModelError, NSMigrationManagerSourceStoreError,
        NSMigrationManagerDestinationStoreError, NSEntityMigrationPolicyError, NSSQLiteError,
        NSManagedObjectReferentialIntegrityError, NSValidationMultipleErrorsError, NSValidationMissingMandatoryPropertyError,
        NSManagedObjectConstraintMergeError, NSManagedObjectMergeError, NSManagedObjectConstraintValidationError,
    ]).union(stride(from: NSManagedObjectValidationError, through: NSValidationInvalidURIError, by: 10))

    /// Records that `error` is a well-formed Core Data or Foundation error; returns it as an `NSError`.
    @discardableResult
    static func expectCocoaError(
        _ error: any Error, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> NSError {
        let error = error as NSError
        #expect(error.domain == NSCocoaErrorDomain, "\(what): \(error)", sourceLocation: sourceLocation)
        #expect(
            allowedCodes.contains(error.code), "\(what): unexpected code \(error.code): \(error.localizedDescription)",
            sourceLocation: sourceLocation)
        #expect(!error.localizedDescription.isEmpty, "\(what)", sourceLocation: sourceLocation)
        return error
    }

    /// Opens the store at `url` and reads every object of every entity: counts, object IDs, dictionaries,
    /// fully materialized objects with their relationships prefetched, and each related object through
    /// `existingObject(with:)`. Returns how many objects were read.
    @discardableResult
    static func readEverything(at url: URL, model: NSManagedObjectModel, readOnly: Bool = true) throws -> Int {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        var options: [AnyHashable: Any] = [
            NSMigratePersistentStoresAutomaticallyOption: false,
            NSInferMappingModelAutomaticallyOption: false,
        ]
        if readOnly { options[NSReadOnlyPersistentStoreOption] = true }
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        defer { try? coordinator.remove(store) }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            var objects = 0
            for entity in model.entities {
                guard let name = entity.name else { continue }
                let attributes = entity.attributesByName.filter { !$0.value.isTransient }.map(\.key).sorted()
                let relationships = entity.relationshipsByName.keys.sorted()
                _ = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: name))

                let ids = NSFetchRequest<NSManagedObjectID>(entityName: name)
                ids.resultType = .managedObjectIDResultType
                _ = try context.fetch(ids)

                if !attributes.isEmpty {
                    let dictionaries = NSFetchRequest<NSDictionary>(entityName: name)
                    dictionaries.resultType = .dictionaryResultType
                    dictionaries.propertiesToFetch = attributes
                    _ = try context.fetch(dictionaries)
                }

                let request = NSFetchRequest<NSManagedObject>(entityName: name)
                request.returnsObjectsAsFaults = false
                request.relationshipKeyPathsForPrefetching = relationships
                for object in try context.fetch(request) {
                    objects += 1
                    for key in attributes { _ = object.value(forKey: key) }
                    var related: [NSManagedObjectID] = []
                    for key in relationships {
                        switch object.value(forKey: key) {
                        case let one as NSManagedObject: related.append(one.objectID)
                        case let many as Set<NSManagedObject>: related += many.map(\.objectID)
                        case let many as NSOrderedSet: related += many.compactMap { ($0 as? NSManagedObject)?.objectID }
                        case let many as NSSet: related += many.compactMap { ($0 as? NSManagedObject)?.objectID }
                        default: break
                        }
                    }
                    for id in related {
                        let destination = try context.existingObject(with: id)
                        for key in destination.entity.attributesByName.keys { _ = destination.value(forKey: key) }
                    }
                }
            }
            return objects
        }
    }

    /// Opens the store at `url` read-write and, for every concrete entity, changes the string attributes of
    /// one object and inserts a new one, then saves. Returns whether the save succeeded. (Deleting objects
    /// whose related rows are damaged still traps while the delete rules load the relationship: see
    /// Docs/Robustness.md.)
    @discardableResult
    static func writeSomething(at url: URL, model: NSManagedObjectModel) throws -> Bool {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(
            type: .sqlite, at: url,
            options: [
                NSMigratePersistentStoresAutomaticallyOption: false, NSInferMappingModelAutomaticallyOption: false,
            ])
        defer { try? coordinator.remove(store) }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            for entity in model.entities where !entity.isAbstract {
                guard let name = entity.name else { continue }
                let strings = entity.attributesByName.values.filter { $0.attributeType == .stringAttributeType && !$0.isTransient }
                let request = NSFetchRequest<NSManagedObjectID>(entityName: name)
                request.resultType = .managedObjectIDResultType
                request.fetchLimit = 1
                let ids = try context.fetch(request)
                if let first = ids.first {
                    let object = try context.existingObject(with: first)
                    for attribute in strings { object.setValue("changed", forKey: attribute.name) }
                }
                let inserted = NSEntityDescription.insertNewObject(forEntityName: name, into: context)
                for attribute in strings { inserted.setValue("new \(attribute.name)", forKey: attribute.name) }
            }
            do {
                try context.save()
                return true
            } catch {
                expectCocoaError(error, "saving into \(url.lastPathComponent)")
                context.rollback()
                return false
            }
        }
    }

    /// Runs SQL on a store through a connection of its own, closed before returning.
    static func execute(_ sql: String, on url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
        try queue.close()
    }

    /// The bytes of a store: the file and its `-wal` when that holds anything. (A read-only connection
    /// to a store in WAL mode creates an empty `-wal` and a `-shm` index, as SQLite does for any reader;
    /// neither holds data.)
    static func storeBytes(_ url: URL) -> [String: Data] {
        var result = ["": FileManager.default.contents(atPath: url.path) ?? Data()]
        if let wal = FileManager.default.contents(atPath: url.path + "-wal"), !wal.isEmpty { result["-wal"] = wal }
        return result
    }

    /// A small deterministic generator (SplitMix64), so each damaged file is the same on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

extension RobustnessKit {
    /// What one run of `ocd` did.
    struct CommandResult {
        let exited: Bool
        let status: Int32
        let output: String
        let error: String
    }

    /// Runs the `ocd` executable SwiftPM built beside the tests with `arguments`.
    static func ocd(_ arguments: [String]) throws -> CommandResult {
        let result = try StoreProcesses.ocd(arguments)
        return CommandResult(exited: result.exited, status: result.status, output: result.output, error: result.error)
    }

    /// Each XML attribute of a model file's text: the range of its value and its name.
    static func xmlAttributes(in text: String) -> [(name: String, value: Range<String.Index>)] {
        var result: [(String, Range<String.Index>)] = []
        var index = text.startIndex
        while let equals = text[index...].range(of: "=\"") {
            var nameStart = equals.lowerBound
            while nameStart > text.startIndex, text[text.index(before: nameStart)].isLetter {
                nameStart = text.index(before: nameStart)
            }
            guard let close = text[equals.upperBound...].firstIndex(of: "\"") else { break }
            result.append((String(text[nameStart..<equals.lowerBound]), equals.upperBound..<close))
            index = text.index(after: close)
        }
        return result
    }
}

/// Binary property lists that Foundation's reader cannot be given on Linux.
enum PropertyListKit {
    /// `{"k": {"a"}}`: a dictionary holding a set, the one object kind that crashes Foundation's reader.
    static let setInDictionaryHex =
        "62706C6973743030D10102516BC1035161080B0D0F00000000000001010000000000000004"
        + "00000000000000000000000000000011"

    /// The same dictionary with an array where the set is (`{"k": ["a"]}`), which Foundation reads.
    static let arrayInDictionaryHex =
        "62706C6973743030D10102516BA1035161080B0D0F00000000000001010000000000000004"
        + "00000000000000000000000000000011"

    static var setInDictionary: Data { Data(hex: setInDictionaryHex) }
    static var arrayInDictionary: Data { Data(hex: arrayInDictionaryHex) }
}

/// Keyed archives written byte by byte, as a damaged file or another program can hold them: one object of
/// the class named `className` with the given fields, as its archive's root.
enum KeyedArchiveKit {
    /// A value of a field: an integer, an inline string, or a reference to an archived object by its
    /// position in `$objects` (0 is `$null`, 1 the root, 2 its class).
    enum Field {
        case integer(Int64)
        case string(String)
        case reference(UInt8)
        /// An array of references, as a collection's `NS.objects`.
        case references([UInt8])
    }

    static func archive(className: String, fields: [(String, Field)]) -> Data {
        var writer = Writer()
        let null = writer.string("$null")
        let classDescription = writer.dictionary([
            (writer.string("$classname"), writer.string(className)),
            (writer.string("$classes"), writer.array([writer.string(className), writer.string("NSObject")])),
        ])
        var rootFields = [(writer.string("$class"), writer.uid(2))]
        for (key, value) in fields {
            let encoded =
                switch value {
                case .integer(let number): writer.integer(number)
                case .string(let text): writer.string(text)
                case .reference(let index): writer.uid(index)
                case .references(let indexes): writer.array(indexes.map { writer.uid($0) })
                }
            rootFields.append((writer.string(key), encoded))
        }
        let root = writer.dictionary(rootFields)
        let objects = writer.array([null, root, classDescription])
        let top = writer.dictionary([
            (writer.string("$archiver"), writer.string("NSKeyedArchiver")),
            (writer.string("$version"), writer.integer(100000)),
            (writer.string("$top"), writer.dictionary([(writer.string("root"), writer.uid(1))])),
            (writer.string("$objects"), objects),
        ])
        return writer.finish(top: top)
    }

    /// Writes objects one after another (arrays and dictionaries of at most 14 elements, strings of at most
    /// 255 ASCII characters, under 256 objects).
    private struct Writer {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []

        private mutating func add(_ object: [UInt8]) -> UInt8 {
            offsets.append(bytes.count)
            bytes += object
            return UInt8(offsets.count - 1)
        }

        mutating func string(_ text: String) -> UInt8 {
            let count = text.utf8.count
            // 15 characters or more: the count follows the marker as a one-byte integer object.
            return add((count < 15 ? [0x50 | UInt8(count)] : [0x5F, 0x10, UInt8(count)]) + Array(text.utf8))
        }
        mutating func integer(_ value: Int64) -> UInt8 {
            add([0x13] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> (8 * UInt64($0))) })
        }
        mutating func uid(_ index: UInt8) -> UInt8 { add([0x80, index]) }
        mutating func array(_ elements: [UInt8]) -> UInt8 { add([0xA0 | UInt8(elements.count)] + elements) }
        mutating func dictionary(_ pairs: [(UInt8, UInt8)]) -> UInt8 {
            add([0xD0 | UInt8(pairs.count)] + pairs.map(\.0) + pairs.map(\.1))
        }

        mutating func finish(top: UInt8) -> Data {
            let table = bytes.count
            for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
            bytes += [0, 0, 0, 0, 0, 0, 2, 1]
            for value in [offsets.count, Int(top), table] {
                bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(value) >> (8 * UInt64($0))) }
            }
            return Data(bytes)
        }
    }
}

extension RobustnessKit {
    /// A private-queue context on a new coordinator of `model` with the SQLite store at `url`.
    static func context(model: NSManagedObjectModel, url: URL) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The one object of `entity` whose `key` is `value`, fetched with its values.
    static func fetchLoaded(_ context: NSManagedObjectContext, _ entity: String, _ key: String, _ value: String) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = NSPredicate(format: "%K == %@", key, value)
        request.returnsObjectsAsFaults = false
        return try #require(try context.fetch(request).first)
    }

    /// Writes a SQLite store of `model` at `url` with the objects `fill` makes in one context, saves it
    /// and closes it, so that another connection can then change the file.
    static func writeStore(model: NSManagedObjectModel, url: URL, _ fill: (NSManagedObjectContext) -> Void) throws {
        let context = try context(model: model, url: url)
        try context.performAndWait {
            fill(context)
            try context.save()
        }
        let coordinator = try #require(context.persistentStoreCoordinator)
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }
}

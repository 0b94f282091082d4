import GRDB
import Testing

@testable import OpenCoreDataCore

/// Lightweight migration of a binary attribute whose *Allows External Storage* changes between model
/// versions: every value reads back identical, the column holds the form the new model reads, and the
/// files no row references any more are removed.
@Suite("Lightweight migration: external storage turned on or off", .serialized)
struct LightweightMigrationExternalStorageTests {
    /// Above the external-storage threshold (kept in a file when external storage is on).
    static let large = [PhotoModel.bytes(300 * 1024, seed: 7), PhotoModel.bytes(150 * 1024, seed: 11)]
    /// Below it (kept inline).
    static let small = [PhotoModel.bytes(1000, seed: 3), Data([0x01, 0x02, 0x00])]

    /// Photo(name, image) with the given external storage setting, plus `caption` in later versions.
    static func model(external: Bool, version: Int) -> NSManagedObjectModel {
        let image = ModelKit.attribute("image", .binaryDataAttributeType)
        image.allowsExternalBinaryDataStorage = external
        var properties = [ModelKit.attribute("name", .stringAttributeType), image]
        if version >= 1 { properties.append(ModelKit.attribute("caption", .stringAttributeType)) }
        return MigrationKit.model([ModelKit.entity("Photo", properties)])
    }

    /// The values stored under each name: every large and small value, and one photo without an image.
    static var values: [String: Data?] {
        var values: [String: Data?] = ["none": nil]
        for (index, data) in large.enumerated() { values["large \(index)"] = data }
        for (index, data) in small.enumerated() { values["small \(index)"] = data }
        return values
    }

    static func makeStore(_ model: NSManagedObjectModel, in directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("Photos.sqlite")
        try MigrationKit.makeStore(model, at: url) { context in
            for (name, data) in values { context.make("Photo", ["name": name, "image": data]) }
        }
        return url
    }

    static func externalFiles(_ url: URL) -> Set<String> {
        let folder = ExternalBinaryStorage(storeURL: url).directory
        return Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    }

    /// The raw bytes of the image column by photo name.
    static func columnBytes(_ url: URL) throws -> [String: Data] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            var result: [String: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT ZNAME, ZIMAGE FROM ZPHOTO WHERE ZIMAGE IS NOT NULL") {
                let name: String = row[0]
                let bytes: Data = row[1]
                result[name] = bytes
            }
            return result
        }
    }

    /// Opens the store with `model` (migrating it) and checks every value reads back as stored.
    static func expectValues(
        _ url: URL, _ model: NSManagedObjectModel, sources: [NSManagedObjectModel],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> NSManagedObjectContext {
        let context = try MigrationKit.open(model, at: url, sources: sources)
        try context.performAndWait {
            let photos = try context.all("Photo")
            #expect(photos.count == values.count, sourceLocation: sourceLocation)
            for photo in photos {
                let name = try #require(photo.value(forKey: "name") as? String, sourceLocation: sourceLocation)
                let expected = values[name] ?? nil
                #expect(photo.value(forKey: "image") as? Data == expected, "\(name)", sourceLocation: sourceLocation)
            }
        }
        return context
    }

    @Test("external storage turned off: values in files and inline values read back identical, stored untagged in the file; the files are removed")
    func externalTurnedOff() throws {
        let directory = TemporaryDirectory()
        let source = Self.model(external: true, version: 0)
        let url = try Self.makeStore(source, in: directory)
        #expect(Self.externalFiles(url).count == Self.large.count)

        let destination = Self.model(external: false, version: 1)
        let context = try Self.expectValues(url, destination, sources: [source])
        #expect(Self.externalFiles(url).isEmpty, "no row references the files any more")
        let columns = try Self.columnBytes(url)
        for (name, data) in Self.values { #expect(columns[name] == data, "\(name) is stored as its plain bytes") }

        // The migrated store takes new values as the new model stores them: in the file, untagged.
        try context.performAndWait {
            context.make("Photo", ["name": "new", "image": Self.large[0]])
            try context.save()
        }
        #expect(try Self.columnBytes(url)["new"] == Self.large[0])
        #expect(Self.externalFiles(url).isEmpty)
    }

    @Test("external storage turned on: values read back identical and are stored with their inline tag")
    func externalTurnedOn() throws {
        let directory = TemporaryDirectory()
        let source = Self.model(external: false, version: 0)
        let url = try Self.makeStore(source, in: directory)
        #expect(Self.externalFiles(url).isEmpty)

        let destination = Self.model(external: true, version: 1)
        let context = try Self.expectValues(url, destination, sources: [source])
        let columns = try Self.columnBytes(url)
        for (name, data) in Self.values {
            #expect(columns[name] == data.map { Data([0x01]) + $0 }, "\(name) is tagged inline")
        }
        // A large value saved afterwards goes to a file, as the new model asks.
        try context.performAndWait {
            context.make("Photo", ["name": "new", "image": Self.large[1]])
            try context.save()
        }
        #expect(Self.externalFiles(url).count == 1)
        #expect(try Self.columnBytes(url)["new"]?.first == 0x02)
    }

    @Test("on, off and on again in a chain of lightweight steps: every value reads back identical, no file is left")
    func chainOfChanges() throws {
        let directory = TemporaryDirectory()
        let third = Self.model(external: true, version: 1)
        third.entitiesByName["Photo"]?.properties.append(ModelKit.attribute("note", .stringAttributeType))
        let versions = [Self.model(external: true, version: 0), Self.model(external: false, version: 1), third]
        let url = try Self.makeStore(versions[0], in: directory)
        let steps = try (1..<versions.count).flatMap { index in
            try ProgressiveMigration.steps(
                from: versions[index - 1], to: versions[index], through: [versions[index - 1], versions[index]],
                name: { _ in nil }, sources: ProgressiveMigration.MappingSources())
        }
        #expect(steps.count == 2)
        try ProgressiveMigration(storeURL: url, steps: steps).run()
        _ = try Self.expectValues(url, third, sources: [], options: nil)
        #expect(Self.externalFiles(url).isEmpty, "the values went into the file in the second version and stay inline")
    }

    @Test("external storage turned off with a value's file missing: the migration fails with 134110 and changes nothing")
    func missingFileFailsTheMigration() throws {
        let directory = TemporaryDirectory()
        let source = Self.model(external: true, version: 0)
        let url = try Self.makeStore(source, in: directory)
        let files = Self.externalFiles(url).sorted()
        let missing = try #require(files.first)
        try FileManager.default.removeItem(at: ExternalBinaryStorage(storeURL: url).file(missing))
        let before = try Data(contentsOf: url)

        let error = try #require(throws: NSError.self) {
            _ = try MigrationKit.open(Self.model(external: false, version: 1), at: url, sources: [source])
        }
        #expect(error.code == NSMigrationError)
        #expect(error.localizedDescription.contains(missing), "\(error.localizedDescription)")
        #expect(error.localizedDescription.contains("Photo.image"), "\(error.localizedDescription)")
        #expect(try Data(contentsOf: url) == before)
        #expect(Self.externalFiles(url) == Set(files.dropFirst()))
    }
}

extension LightweightMigrationExternalStorageTests {
    /// Opens an already migrated store without migration options and checks its values.
    static func expectValues(
        _ url: URL, _ model: NSManagedObjectModel, sources: [NSManagedObjectModel],
        options: [AnyHashable: Any]?
    ) throws -> NSManagedObjectContext {
        let context = try MigrationKit.open(model, at: url, sources: sources, options: options)
        try context.performAndWait {
            for photo in try context.all("Photo") {
                let name = try #require(photo.value(forKey: "name") as? String)
                #expect(photo.value(forKey: "image") as? Data == (Self.values[name] ?? nil), "\(name)")
            }
        }
        return context
    }
}

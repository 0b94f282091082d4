import GRDB
import Testing

@testable import OpenCoreDataCore

/// Versions of a small library model, and helpers to fill a store with one version and open it with
/// another, shared by the migration tests.
enum MigrationKit {
    /// Library V1: Person(name!, nickname, age) ->> books ⟷ Book(title, price, owner) <<->> Tag(label).
    static func libraryV1() -> NSManagedObjectModel {
        let person = ModelKit.entity(
            "Person",
            [
                ModelKit.attribute("name", .stringAttributeType, optional: false),
                ModelKit.attribute("nickname", .stringAttributeType),
                ModelKit.attribute("age", .integer16AttributeType),
            ])
        let book = ModelKit.entity(
            "Book",
            [
                ModelKit.attribute("title", .stringAttributeType),
                ModelKit.attribute("price", .doubleAttributeType),
            ])
        let tag = ModelKit.entity("Tag", [ModelKit.attribute("label", .stringAttributeType)])
        relate(person, "books", toMany: true, book, "owner", toMany: false)
        relate(book, "tags", toMany: true, tag, "books", toMany: true)
        return model([person, book, tag])
    }

    /// Makes a relationship pair between two entities.
    static func relate(
        _ a: NSEntityDescription, _ aName: String, toMany aToMany: Bool, ordered aOrdered: Bool = false,
        _ b: NSEntityDescription, _ bName: String, toMany bToMany: Bool, ordered bOrdered: Bool = false
    ) {
        let forward = ModelKit.relationship(aName, to: b, toMany: aToMany)
        forward.isOrdered = aOrdered
        let backward = ModelKit.relationship(bName, to: a, toMany: bToMany)
        backward.isOrdered = bOrdered
        ModelKit.pair(forward, backward)
        a.properties += [forward]
        b.properties += [backward]
    }

    /// A model with the entities (managed by `NSManagedObject`).
    static func model(_ entities: [NSEntityDescription]) -> NSManagedObjectModel {
        for entity in entities { entity.managedObjectClassName = "NSManagedObject" }
        let model = NSManagedObjectModel()
        model.entities = entities
        return model
    }

    /// Creates a store with `model` at `url`, fills it through a context, saves, and closes it.
    static func makeStore(
        _ model: NSManagedObjectModel, at url: URL,
        fill: (NSManagedObjectContext) throws -> Void
    ) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try fill(context)
        try context.save()
        try coordinator.remove(store)
    }

    /// The options that ask for lightweight migration.
    static var lightweight: [AnyHashable: Any] {
        [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true]
    }

    /// Opens the store at `url` with `model`, registering `sources` as migration sources, and returns
    /// a context on it.
    static func open(
        _ model: NSManagedObjectModel, at url: URL, sources: [NSManagedObjectModel],
        options: [AnyHashable: Any]? = lightweight
    ) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        coordinator.migrationSourceModels = sources
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// How the file's structure differs from a store freshly created with `model` (empty when equal).
    static func differences(_ url: URL, _ model: NSManagedObjectModel) throws -> [String] {
        try SQLiteSchema(model: model).differences(inStoreAt: url).map(\.description)
    }

    /// The string values of a key of objects, sorted.
    static func strings(_ objects: [NSManagedObject], _ key: String) -> [String] {
        objects.map { ($0.value(forKey: key) as? String) ?? "nil" }.sorted()
    }
}

/// An `.xcdatamodeld` bundle written into a temporary directory, and the `ocd` tool built beside the
/// tests, for the migration tests that run `ocd migrate` in a child process.
enum MigrationBundleKit {
    /// Catalog V1: Group(title) ->> items ⟷ Item(name, value, group).
    static let v1 = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Group" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="group" inverseEntity="Item"/>
            </entity>
            <entity name="Item" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="value" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <relationship name="group" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Group" inverseName="items" inverseEntity="Group"/>
            </entity>
        </model>
        """

    /// Catalog V2: Item.name renamed label (renaming identifier), a new note attribute, items ordered,
    /// value indexed, a new Tag entity.
    static let v2 = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Group" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="group" inverseEntity="Item"/>
            </entity>
            <entity name="Item" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="label" optional="YES" attributeType="String" elementID="name"/>
                <attribute name="note" optional="YES" attributeType="String"/>
                <attribute name="value" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <relationship name="group" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Group" inverseName="items" inverseEntity="Group"/>
                <fetchIndex name="byValue">
                    <fetchIndexElement property="value" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            <entity name="Tag" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="label" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    /// Writes `Catalog.xcdatamodeld` with versions "Catalog" (V1) and "Catalog 2" (V2, current).
    static func writeBundle(in directory: URL) throws -> URL {
        try writeVersionedBundle(named: "Catalog", versions: [("Catalog", v1), ("Catalog 2", v2)], in: directory)
    }

    /// Writes `<name>.xcdatamodeld` in `directory` with one `.xcdatamodel` per version (its `contents`
    /// text), the last one marked current in `.xccurrentversion`.
    static func writeVersionedBundle(
        named name: String, versions: [(name: String, contents: String)],
        in directory: URL
    ) throws -> URL {
        let bundle = directory.appendingPathComponent("\(name).xcdatamodeld", isDirectory: true)
        for version in versions {
            let folder = bundle.appendingPathComponent("\(version.name).xcdatamodel", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(version.contents.utf8).write(to: folder.appendingPathComponent("contents"))
        }
        let current = (versions.last?.name ?? name) + ".xcdatamodel"
        let marker = try PropertyListSerialization.data(
            fromPropertyList: ["_XCCurrentVersionName": current],
            format: .xml, options: 0)
        try marker.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return bundle
    }

    /// A V1 store with `groups` groups and `items` items (each in a group), filled with SQL for speed.
    static func fillStore(at url: URL, bundle: URL, groups: Int, items: Int) throws {
        let model = try NSManagedObjectModel.load(from: bundle.appendingPathComponent("Catalog.xcdatamodel"))
        try MigrationKit.makeStore(model, at: url) { _ in }
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in
            let groupEntity = try Int.fetchOne(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Group'") ?? 0
            let itemEntity = try Int.fetchOne(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'") ?? 0
            for index in 1...groups {
                try db.execute(
                    sql: "INSERT INTO ZGROUP (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (?, ?, 1, ?)",
                    arguments: [index, groupEntity, "group \(index)"])
            }
            let statement = try db.makeStatement(sql: "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZVALUE, ZGROUP) VALUES (?, ?, 1, ?, ?, ?)")
            for index in 1...items {
                try statement.execute(arguments: [index, itemEntity, "item \(index)", index * 7, index % groups + 1])
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [groups, groupEntity])
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [items, itemEntity])
        }
    }

    /// The `ocd` executable SwiftPM built beside the test bundle.
    static func ocdExecutable() throws -> URL {
        var candidates: [URL] = []
        let testBinary = URL(fileURLWithPath: CommandLine.arguments.first ?? "").standardizedFileURL
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("ocd"))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(Fixtures.packageRoot.appendingPathComponent(".build/debug/ocd"))
        return try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "the ocd tool was not found beside the tests (\(candidates.map(\.path)))")
    }

    /// Starts `ocd` with arguments, its output going to pipes; its progress bar is drawn all the same
    /// (`OCD_PROGRESS=always`), for the tests to see.
    static func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = try ocdExecutable()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["OCD_PROGRESS"] = "always"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
    }

    /// Runs `ocd` to the end, returning its exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let (process, output, errors) = try start(arguments)
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

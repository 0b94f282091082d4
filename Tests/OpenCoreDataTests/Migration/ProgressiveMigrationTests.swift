import GRDB
import Testing

@testable import OpenCoreDataCore

/// A three-version `.xcdatamodeld` bundle whose V1 → V3 mapping cannot be inferred (V2 renames the
/// relationship Book.author to writer, V3 reuses the name author for a String attribute) while each
/// step can: V1 → V2 runs in place, V2 → V3 (Person.books becomes ordered) copies the tables.
enum ProgressiveBundleKit {
    static let header = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        """

    static let v1 =
        header + """
                <entity name="Book" representedClassName="NSManagedObject" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                    <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="books" inverseEntity="Person"/>
                </entity>
                <entity name="Person" representedClassName="NSManagedObject" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
                </entity>
            </model>
            """

    static let v2 =
        header + """
                <entity name="Book" representedClassName="NSManagedObject" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="subtitle" optional="YES" attributeType="String"/>
                    <relationship name="writer" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="books" inverseEntity="Person" elementID="author"/>
                </entity>
                <entity name="Person" representedClassName="NSManagedObject" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="writer" inverseEntity="Book"/>
                </entity>
            </model>
            """

    static let v3 =
        header + """
                <entity name="Book" representedClassName="NSManagedObject" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="subtitle" optional="YES" attributeType="String"/>
                    <attribute name="author" optional="YES" attributeType="String"/>
                    <relationship name="writer" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="books" inverseEntity="Person" elementID="author"/>
                </entity>
                <entity name="Person" representedClassName="NSManagedObject" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="books" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="writer" inverseEntity="Book"/>
                </entity>
            </model>
            """

    /// Writes `Library.xcdatamodeld` with "Library", "Library 2" and "Library 3" (current).
    static func writeBundle(in directory: URL) throws -> URL {
        try MigrationBundleKit.writeVersionedBundle(
            named: "Library",
            versions: [("Library", v1), ("Library 2", v2), ("Library 3", v3)],
            in: directory)
    }

    /// A V1 store with `people` people and `books` books (book i written by person i % people), filled with SQL.
    static func fillStore(at url: URL, bundle: URL, people: Int, books: Int) throws {
        let model = try NSManagedObjectModel.load(from: bundle.appendingPathComponent("Library.xcdatamodel"))
        try MigrationKit.makeStore(model, at: url) { _ in }
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in
            let personEntity = try Int.fetchOne(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'") ?? 0
            let bookEntity = try Int.fetchOne(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'") ?? 0
            for index in 1...people {
                try db.execute(
                    sql: "INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)",
                    arguments: [index, personEntity, "person \(index)"])
            }
            let statement = try db.makeStatement(sql: "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZPAGES, ZAUTHOR) VALUES (?, ?, 1, ?, ?, ?)")
            for index in 1...books {
                try statement.execute(arguments: [index, bookEntity, "book \(index)", index * 3, index % people + 1])
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [people, personEntity])
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [books, bookEntity])
        }
    }
}

extension ProgressiveBundleKit {
    /// The bundle's three versions and the planned V1 → V2 → V3 steps, where step `onStep` uses the
    /// inferred mapping with the policy class `bookPolicy` on its Book mapping (so it runs through
    /// `NSMigrationManager`).
    static func steps(in bundle: URL, bookPolicy: String, onStep position: Int) throws
        -> (versions: [NSManagedObjectModel], steps: [ProgressiveMigration.Step])
    {
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundle).map { try $0.loadModel() }
        let custom = try NSMappingModel.inferredMappingModel(
            forSourceModel: versions[position],
            destinationModel: versions[position + 1])
        let books = try #require(custom.entityMappings?.first { $0.destinationEntityName == "Book" })
        books.entityMigrationPolicyClassName = bookPolicy
        var sources = ProgressiveMigration.MappingSources()
        sources.lookup = { source, destination in
            source === versions[position] && destination === versions[position + 1] ? custom : nil
        }
        let names = ["Library", "Library 2", "Library 3"]
        let steps = try ProgressiveMigration.steps(
            from: versions[0], to: versions[2], through: versions,
            name: { model in
                versions.firstIndex { $0 === model }.map { names[$0] }
            }, sources: sources)
        return (versions, steps)
    }
}

/// Progressive migration: a store two versions behind, whose direct mapping cannot be inferred, is
/// migrated V1 → V2 → V3 at store open or by hand, with progress reported, and a process killed
/// mid-chain leaves the store at V1 or V3 with all its rows.
@Suite("Progressive migration", .serialized)
struct ProgressiveMigrationTests {
    @Test("the direct V1 → V3 mapping cannot be inferred; adding the store migrates through V2 and reports progress")
    func atStoreOpen() throws {
        let directory = TemporaryDirectory()
        let bundle = try ProgressiveBundleKit.writeBundle(in: directory.url)
        let url = directory.file("Library.sqlite")
        try ProgressiveBundleKit.fillStore(at: url, bundle: bundle, people: 5, books: 40)
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundle).map { try $0.loadModel() }
        #expect(throws: NSError.self) {
            _ = try NSMappingModel.inferredMappingModel(forSourceModel: versions[0], destinationModel: versions[2])
        }
        do {
            _ = try NSMappingModel.inferredMappingModel(forSourceModel: versions[0], destinationModel: versions[2])
        } catch let error as NSError {
            #expect(error.code == NSInferredMappingModelError)
        }

        let model = try NSManagedObjectModel.load(from: bundle)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let recorder = SQLDebugLogRecorder()
        coordinator.sqlDebugLog = recorder.log(level: 1)
        let progress = Progress(totalUnitCount: 1)
        var options = MigrationKit.lightweight
        options[OCDMigrationProgressOptionKey] = progress
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        #expect(progress.totalUnitCount == 200)
        #expect(progress.completedUnitCount == 200)
        #expect(progress.fractionCompleted == 1)
        // Step 1 ran in place (the foreign key renamed), step 2 copied the tables (books became ordered).
        #expect(recorder.statements.contains { $0.contains("RENAME COLUMN ZAUTHOR") }, "\(recorder.statements)")
        #expect(recorder.statements.contains { $0.contains(SQLiteLightweightMigration.oldPrefix) })
        #expect(try MigrationKit.differences(url, versions[2]) == [])

        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let books = try context.all("Book", sortedBy: "title")
        #expect(books.count == 40)
        for book in books {
            let title = try #require(book.value(forKey: "title") as? String)
            let index = try #require(Int(title.dropFirst("book ".count)))
            #expect((book.value(forKey: "pages") as? NSNumber)?.intValue == index * 3)
            #expect(book.value(forKey: "author") == nil)
            let writer = try #require(book.value(forKey: "writer") as? NSManagedObject)
            #expect(writer.value(forKey: "name") as? String == "person \(index % 5 + 1)")
        }
        let people = try context.all("Person")
        #expect(people.allSatisfy { ($0.value(forKey: "books") as? NSOrderedSet)?.count == 8 })
    }

    @Test("ProgressiveMigration plans the steps by version name and runs them with a progress handler, as the seed's manager does by hand")
    func byHand() throws {
        let directory = TemporaryDirectory()
        let bundle = try ProgressiveBundleKit.writeBundle(in: directory.url)
        let url = directory.file("Library.sqlite")
        try ProgressiveBundleKit.fillStore(at: url, bundle: bundle, people: 3, books: 12)

        let migration = try ProgressiveMigration(storeAt: url, modelBundle: bundle)
        #expect(migration.steps.map(\.sourceName) == ["Library", "Library 2"])
        #expect(migration.steps.map(\.destinationName) == ["Library 2", "Library 3"])
        #expect(migration.steps.map(\.runsInPlace) == [true, false])
        #expect(migration.steps.last?.copyReason?.contains("ordered") == true)

        // To V2 only: one direct step.
        let toV2 = try ProgressiveMigration(storeAt: url, modelBundle: bundle, to: "Library 2")
        #expect(toV2.steps.count == 1)

        var fractions: [Double] = []
        try migration.run { fraction, _ in fractions.append(fraction) }
        #expect(fractions.last == 1)
        #expect(fractions == fractions.sorted())
        #expect(fractions.contains { $0 > 0.4 && $0 <= 0.5 })
        let v3 = try NSManagedObjectModel.load(from: bundle.appendingPathComponent("Library 3.xcdatamodel"))
        #expect(try MigrationKit.differences(url, v3) == [])
        let context = try MigrationKit.open(v3, at: url, sources: [], options: nil)
        #expect(try context.all("Book").count == 12)
        #expect(try ProgressiveMigration(storeAt: url, modelBundle: bundle).steps.isEmpty)
    }

    @Test("a step whose mapping model needs a custom policy runs through NSMigrationManager and a file swap; the next step runs in the store")
    func managerStep() throws {
        let directory = TemporaryDirectory()
        let bundle = try ProgressiveBundleKit.writeBundle(in: directory.url)
        let url = directory.file("Library.sqlite")
        try ProgressiveBundleKit.fillStore(at: url, bundle: bundle, people: 3, books: 9)
        NSEntityMigrationPolicy.register(ProgressiveTitlePolicy.self)
        let (versions, steps) = try ProgressiveBundleKit.steps(in: bundle, bookPolicy: "ProgressiveTitlePolicy", onStep: 0)
        #expect(steps.map(\.usesMigrationManager) == [true, false])
        #expect(steps.map(\.isInferred) == [false, true])
        var fractions: [Double] = []
        try ProgressiveMigration(storeURL: url, steps: steps).run(
            progress: nil, handler: { fraction, _ in fractions.append(fraction) },
            defersCleanup: false, sqlDebugLog: nil, configuration: nil)
        #expect(fractions.last == 1)
        #expect(try MigrationKit.differences(url, versions[2]) == [])
        #expect(!FileManager.default.fileExists(atPath: directory.file(".Library.sqlite.migrating").path))
        let context = try MigrationKit.open(versions[2], at: url, sources: [], options: nil)
        let migrated = try context.all("Book", sortedBy: "pages")
        #expect(migrated.count == 9)
        #expect(migrated.allSatisfy { ($0.value(forKey: "title") as? String)?.hasPrefix("BOOK ") == true })
        #expect(migrated.allSatisfy { ($0.value(forKey: "writer") as? NSManagedObject) != nil })
    }

    @Test("without any path the store is left unchanged and the direct mapping's error is thrown")
    func noPath() throws {
        let directory = TemporaryDirectory()
        let bundle = try ProgressiveBundleKit.writeBundle(in: directory.url)
        let url = directory.file("Library.sqlite")
        try ProgressiveBundleKit.fillStore(at: url, bundle: bundle, people: 2, books: 4)
        // Remove the middle version: no step leads from V1 to V3.
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("Library 2.xcdatamodel"))
        let model = try NSManagedObjectModel.load(from: bundle)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        do {
            try coordinator.addPersistentStore(type: .sqlite, at: url, options: MigrationKit.lightweight)
            Issue.record("the store was added")
        } catch let error as NSError {
            #expect(error.code == NSInferredMappingModelError)
        }
        let v1 = try NSManagedObjectModel.load(from: bundle.appendingPathComponent("Library.xcdatamodel"))
        #expect(try MigrationKit.differences(url, v1) == [])
    }

    @Test("ocd migrate shows every step (in place or copying) and a dry run changes nothing")
    func command() throws {
        let directory = TemporaryDirectory()
        let bundle = try ProgressiveBundleKit.writeBundle(in: directory.url)
        let url = directory.file("Library.sqlite")
        try ProgressiveBundleKit.fillStore(at: url, bundle: bundle, people: 2, books: 6)
        let (dryStatus, dryOutput, dryErrors) = try MigrationBundleKit.run(["migrate", url.path, "--model", bundle.path, "--dry-run"])
        #expect(dryStatus == 0, "\(dryErrors)")
        #expect(dryOutput.contains("Step 1 of 2: \"Library\" → \"Library 2\" (in place"), "\(dryOutput)")
        #expect(dryOutput.contains("Step 2 of 2: \"Library 2\" → \"Library 3\" (copying tables"), "\(dryOutput)")
        let v1 = try NSManagedObjectModel.load(from: bundle.appendingPathComponent("Library.xcdatamodel"))
        #expect(try MigrationKit.differences(url, v1) == [])

        let (status, output, errors) = try MigrationBundleKit.run(["migrate", url.path, "--model", bundle.path])
        #expect(status == 0, "\(errors)")
        #expect(output.contains("is at version \"Library 3\""), "\(output)")
        #expect(errors.contains("100%"))
        let v3 = try NSManagedObjectModel.load(from: bundle.appendingPathComponent("Library 3.xcdatamodel"))
        #expect(try MigrationKit.differences(url, v3) == [])
    }

    @Test("killing ocd migrate mid-chain leaves the store at V1 or V3, never V2, with every row")
    func killed() throws {
        let people = 40
        let books = 40_000
        let directory = TemporaryDirectory()
        let bundle = try ProgressiveBundleKit.writeBundle(in: directory.url)
        let pristine = directory.file("Pristine.sqlite")
        try ProgressiveBundleKit.fillStore(at: pristine, bundle: bundle, people: people, books: books)
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundle).map { try $0.loadModel() }

        let timing = directory.file("Timing.sqlite")
        try FileManager.default.copyItem(at: pristine, to: timing)
        let started = Date()
        let (status, _, errors) = try MigrationBundleKit.run(["migrate", timing.path, "--model", bundle.path])
        #expect(status == 0, "\(errors)")
        let duration = max(Date().timeIntervalSince(started), 0.05)

        var outcomes: [String: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        for run in 0..<8 {
            let store = directory.file("Run\(run).sqlite")
            try FileManager.default.copyItem(at: pristine, to: store)
            let (process, _, _) = try MigrationBundleKit.start(["migrate", store.path, "--model", bundle.path])
            Thread.sleep(forTimeInterval: Double.random(in: 0...(duration * 1.1), using: &generator))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()

            let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store)
            let matching = versions.indices.filter { versions[$0].isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }
            #expect(matching == [0] || matching == [2], "run \(run): the store matches versions \(matching)")
            let version = matching.first ?? 0
            outcomes["V\(version + 1)", default: 0] += 1
            #expect(try MigrationKit.differences(store, versions[version]) == [])
            #expect(try StoreKit.rows(store, "PRAGMA integrity_check").first?[0] as String? == "ok")
            #expect(try StoreKit.rows(store, "SELECT count(*) FROM ZBOOK").first?[0] as Int? == books)
            let column = version == 0 ? "ZAUTHOR" : "ZWRITER"
            #expect(try StoreKit.rows(store, "SELECT count(*) FROM ZBOOK WHERE \(column) IS NOT NULL").first?[0] as Int? == books)
            #expect(try StoreKit.rows(store, "SELECT count(*) FROM ZPERSON").first?[0] as Int? == people)
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
        }
        print("ProgressiveMigrationTests: killed runs ended at \(outcomes)")
    }
}

/// Upper-cases the titles of the books it migrates.
final class ProgressiveTitlePolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(
        forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        for destination in manager.destinationInstances(forEntityMappingName: mapping.name ?? "", sourceInstances: [sInstance]) {
            destination.setValue(((sInstance.value(forKey: "title") as? String) ?? "").uppercased(), forKey: "title")
        }
    }
}

/// Fails every migration it takes part in.
final class ProgressiveFailingPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(
        forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        throw NSError(domain: "ProgressiveFailingPolicy", code: 7)
    }
}

extension ProgressiveMigrationTests {
    @Test("when a later step of a chain fails in NSMigrationManager, the store stays at V1 with every row, not at V2")
    func failingManagerStepLeavesTheOriginalVersion() throws {
        let directory = TemporaryDirectory()
        let bundle = try ProgressiveBundleKit.writeBundle(in: directory.url)
        let url = directory.file("Library.sqlite")
        try ProgressiveBundleKit.fillStore(at: url, bundle: bundle, people: 3, books: 9)
        NSEntityMigrationPolicy.register(ProgressiveFailingPolicy.self)
        let (versions, steps) = try ProgressiveBundleKit.steps(in: bundle, bookPolicy: "ProgressiveFailingPolicy", onStep: 1)
        #expect(steps.map(\.usesMigrationManager) == [false, true])
        #expect(throws: NSError.self) {
            try ProgressiveMigration(storeURL: url, steps: steps).run(
                progress: nil, handler: nil, defersCleanup: false,
                sqlDebugLog: nil, configuration: nil)
        }
        #expect(try MigrationKit.differences(url, versions[0]) == [])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(".Library.sqlite") }
        #expect(leftovers.isEmpty)
        let context = try MigrationKit.open(versions[0], at: url, sources: [], options: nil)
        #expect(try context.all("Book").count == 9)
        #expect(try context.all("Person").count == 3)
    }
}

/// Keeps Apple's default behaviour; naming it makes a mapping run through `NSMigrationManager`.
final class ProgressivePassThroughPolicy: NSEntityMigrationPolicy {}

extension ProgressiveMigrationTests {
    /// Photo(name, image: external binary data) in V1; V2 adds `caption`, V3 adds `note`.
    static func photoVersions() -> [NSManagedObjectModel] {
        (0..<3).map { version in
            let image = ModelKit.attribute("image", .binaryDataAttributeType)
            image.allowsExternalBinaryDataStorage = true
            var properties = [ModelKit.attribute("name", .stringAttributeType), image]
            if version >= 1 { properties.append(ModelKit.attribute("caption", .stringAttributeType)) }
            if version >= 2 { properties.append(ModelKit.attribute("note", .stringAttributeType)) }
            return MigrationKit.model([ModelKit.entity("Photo", properties)])
        }
    }

    @Test("externally stored values survive migrations that run through NSMigrationManager, alone or in a chain")
    func externalDataSurvivesManagerMigrations() throws {
        NSEntityMigrationPolicy.register(ProgressivePassThroughPolicy.self)
        let big = PhotoModel.bytes(300 * 1024, seed: 9)
        let versions = Self.photoVersions()
        for chain in [false, true] {
            let directory = TemporaryDirectory()
            let url = directory.file("Photos.sqlite")
            try MigrationKit.makeStore(versions[0], at: url) { context in
                let photo = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: context)
                photo.setValue("big", forKey: "name")
                photo.setValue(big, forKey: "image")
            }
            let last = chain ? 2 : 1
            let custom = try NSMappingModel.inferredMappingModel(forSourceModel: versions[last - 1], destinationModel: versions[last])
            try #require(custom.entityMappings?.first).entityMigrationPolicyClassName = "ProgressivePassThroughPolicy"
            var sources = ProgressiveMigration.MappingSources()
            sources.lookup = { source, destination in
                source === versions[last - 1] && destination === versions[last] ? custom : nil
            }
            // One planned step per version pair (V1 → V3 could be inferred directly; the chain is the point).
            let steps = try (1...last).flatMap { index in
                try ProgressiveMigration.steps(
                    from: versions[index - 1], to: versions[index],
                    through: [versions[index - 1], versions[index]],
                    name: { model in versions.firstIndex { $0 === model }.map { "V\($0 + 1)" } },
                    sources: sources)
            }
            #expect(steps.map(\.usesMigrationManager) == (chain ? [false, true] : [true]))
            try ProgressiveMigration(storeURL: url, steps: steps).run()
            let context = try MigrationKit.open(versions[last], at: url, sources: [], options: nil)
            let photo = try #require(try context.all("Photo").first)
            #expect(photo.value(forKey: "image") as? Data == big)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix("..") }
            #expect(leftovers.isEmpty)
        }
    }
}

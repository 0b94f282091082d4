import GRDB
import Testing

@testable import OpenCoreDataCore

/// Real model histories: for every multi-version bundle under `Tests/Fixtures/models`, a store created
/// with an older version and filled with generated rows migrates to the current version without
/// losing a row, wherever Apple's rules make the step a lightweight one (the mapping can be inferred
/// and no new required attribute lacks a default value).
@Suite("Fixture model histories migrate")
struct FixtureHistoryMigrationTests {
    static let rowsPerEntity = 12

    /// The multi-version bundles.
    static func bundles() throws -> [URL] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.models.path).sorted()
        return names.filter { $0.hasSuffix(".xcdatamodeld") }.map { Fixtures.models.appendingPathComponent($0) }
            .filter { ((try? NSManagedObjectModel.versions(inBundleAt: $0).count) ?? 0) > 1 }
    }

    /// Up to three older versions of a bundle: the oldest, one from the middle, and the one before the
    /// current (keeping the run short).
    static func olderVersions(_ versions: [NSManagedObjectModel.BundleVersion]) -> [NSManagedObjectModel.BundleVersion] {
        let older = versions.filter { !$0.isCurrent }
        guard older.count > 3 else { return older }
        return [older[0], older[older.count / 2], older[older.count - 1]]
    }

    @Test("older versions of real bundles migrate to the current version with every row")
    func histories() throws {
        let directory = TemporaryDirectory()
        var migrated: [String] = []
        var notLightweight: [String] = []
        for bundle in try Self.bundles() {
            let versions = try NSManagedObjectModel.versions(inBundleAt: bundle)
            guard let currentVersion = versions.first(where: \.isCurrent) else { continue }
            guard let current = try? currentVersion.loadModel() else { continue }
            guard (try? SQLiteSchema(model: current)) != nil else { continue }
            for version in Self.olderVersions(versions) {
                let label = "\(bundle.lastPathComponent): \(version.name) → \(currentVersion.name)"
                guard let source = try? version.loadModel(), source.versionChecksum != current.versionChecksum,
                    let layout = try? SQLiteSchema(model: source)
                else { continue }
                let url = directory.file("\(migrated.count + notLightweight.count).sqlite")
                let counts = try fill(url, model: source, layout: layout)
                do {
                    _ = try MigrationKit.open(current, at: url, sources: [source])
                } catch let error as NSError
                    where error.code == NSInferredMappingModelError
                    || (error.code == NSMigrationError && error.localizedDescription.contains("required attribute"))
                    || error.code == NSMigrationConstraintViolationError
                {
                    // Apple's rules make this step a heavyweight one; the store must be untouched.
                    #expect(
                        source.isConfiguration(
                            withName: nil,
                            compatibleWithStoreMetadata:
                                try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)), "\(label)")
                    notLightweight.append(label)
                    continue
                }
                #expect(try MigrationKit.differences(url, current) == [], "\(label)")
                try expectRows(url, counts: counts, source: source, current: current, label: label)
                migrated.append(label)
            }
        }
        print("FixtureHistoryMigrationTests: \(migrated.count) steps migrated, \(notLightweight.count) not lightweight: \(notLightweight)")
        #expect(migrated.count >= 10)
        #expect(notLightweight.count < migrated.count)
    }

    /// Creates a store for `model` and inserts generated rows for every concrete entity; returns the
    /// number of rows per entity name.
    func fill(_ url: URL, model: NSManagedObjectModel, layout: SQLiteSchema) throws -> [String: Int] {
        try MigrationKit.makeStore(model, at: url) { _ in }
        var counts: [String: Int] = [:]
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in
            var nextKey: [String: Int] = [:]
            for entity in layout.entities {
                guard model.entitiesByName[entity.name]?.isAbstract == false else { continue }
                let table = try #require(layout.table(named: entity.table))
                var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
                var types: [SQLiteColumnType] = []
                for column in entity.attributeColumns.values.sorted() {
                    columns.append(column)
                    types.append(try #require(table.column(named: column)).type)
                }
                let placeholders = columns.map { _ in "?" }.joined(separator: ", ")
                let statement = try db.makeStatement(sql: "INSERT INTO \(entity.table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))")
                for _ in 0..<Self.rowsPerEntity {
                    let key = (nextKey[entity.table] ?? 0) + 1
                    nextKey[entity.table] = key
                    var values: [DatabaseValueConvertible?] = [key, entity.number, 1]
                    for type in types { values.append(Self.value(type, key)) }
                    try statement.execute(arguments: StatementArguments(values))
                }
                counts[entity.name] = Self.rowsPerEntity
            }
            for entity in layout.entities where entity.number == entity.rootNumber {
                try db.execute(
                    sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?",
                    arguments: [nextKey[entity.table] ?? 0, entity.number])
            }
        }
        return counts
    }

    /// A generated value for a column type.
    static func value(_ type: SQLiteColumnType, _ row: Int) -> DatabaseValueConvertible? {
        switch type {
        case .integer: return row
        case .float, .decimal: return Double(row) * 1.5
        case .timestamp: return 700_000_000.0 + Double(row)
        case .varchar: return "value \(row)"
        case .blob: return Data([UInt8(row), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
        }
    }

    /// Every row of each source entity is a row of the entity it maps to.
    func expectRows(
        _ url: URL, counts: [String: Int], source: NSManagedObjectModel, current: NSManagedObjectModel,
        label: String
    ) throws {
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: current)
        let layout = try SQLiteSchema(model: current)
        for entityMapping in mapping.entityMappings
        where entityMapping.mappingType == .copyEntityMappingType
            || entityMapping.mappingType == .transformEntityMappingType
        {
            guard let sourceName = entityMapping.sourceEntityName, let expected = counts[sourceName],
                let name = entityMapping.destinationEntityName, let entity = layout.entity(named: name)
            else { continue }
            let found = try StoreKit.rows(url, "SELECT count(*) FROM \(entity.table) WHERE Z_ENT = ?", [entity.number]).first?[0] as Int?
            #expect(found == expected, "\(label): \(sourceName) → \(name)")
        }
    }
}

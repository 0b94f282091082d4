import Foundation
import GRDBSQLite
import OpenCoreData

/// The models of the migration workload. V1: entity `Person` with Integer 64 attributes `a` and
/// `oldName`. V2: `a`, `newName` (renaming identifier `oldName`) and a new optional `added`.
public enum PersonModels {
    static func attribute(_ name: String, optional: Bool = false, renamedFrom old: String? = nil) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = .integer64AttributeType
        attribute.isOptional = optional
        if !optional { attribute.defaultValue = 0 }
        attribute.renamingIdentifier = old
        return attribute
    }

    static func model(_ properties: [NSAttributeDescription]) -> NSManagedObjectModel {
        let entity = NSEntityDescription()
        entity.name = "Person"
        entity.managedObjectClassName = "NSManagedObject"
        entity.properties = properties
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    /// The model the fixture is written with.
    public static let v1 = model([attribute("a"), attribute("oldName")])
    /// The model the workload migrates to.
    public static let v2 = model([attribute("a"), attribute("newName", renamedFrom: "oldName"), attribute("added", optional: true)])

    /// A V1 file of `rows` people (row `r`: `a` = r, `oldName` = 2r).
    public static func fixture(rows: Int) throws -> StoreFixture {
        try StoreFixture(
            fileName: "People.sqlite", model: v1, entity: "Person", rows: rows,
            columns: [("a", { Int64($0) }), ("oldName", { 2 * Int64($0) })])
    }

    public static func aSum(rows: Int) -> Int64 { Int64(rows) * Int64(rows - 1) / 2 }
    public static func oldNameSum(rows: Int) -> Int64 { 2 * aSum(rows: rows) }
}

/// OpenCoreData: `addPersistentStore` with V2 and `NSMigratePersistentStoresAutomaticallyOption` +
/// `NSInferMappingModelAutomaticallyOption` (V1 registered as a source model): inferred lightweight
/// migration in place. Returns 0.
public struct OpenCoreDataMigration: Contender {
    public static let name = "OpenCoreData lightweight"
    let url: URL
    let coordinator: NSPersistentStoreCoordinator

    public init(url: URL) throws {
        self.url = url
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: PersonModels.v2)
        coordinator.migrationSourceModels = [PersonModels.v1]
    }

    public func run() throws -> Int64 {
        var options = ItemModel.storeOptions
        options[NSMigratePersistentStoresAutomaticallyOption] = true
        options[NSInferMappingModelAutomaticallyOption] = true
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        try coordinator.remove(store)
        return 0
    }
}

/// Raw SQLite, by hand, in one transaction: `ALTER TABLE ZPERSON ADD COLUMN ZADDED INTEGER`,
/// `ALTER TABLE ZPERSON RENAME COLUMN ZOLDNAME TO ZNEWNAME`, and `Z_METADATA` rewritten with V2's
/// metadata (taken, before the measurement, from an empty V2 store). Returns 0.
public final class RawSQLiteMigration: Contender {
    public static let name = "raw SQLite ALTER TABLE"
    let connection: RawConnection
    let metadata: Data
    let keep: ScratchDirectory

    public init(url: URL) throws {
        keep = try ScratchDirectory("ocd-bench-v2")
        let empty = keep.file("Empty.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PersonModels.v2)
        try coordinator.addPersistentStore(type: .sqlite, at: empty, options: nil)
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        let source = try RawConnection(url: empty)
        let statement = try source.prepare("SELECT Z_PLIST FROM Z_METADATA")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let bytes = sqlite3_column_blob(statement, 0) else {
            throw WorkloadError("no metadata in \(empty.path)")
        }
        metadata = Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, 0)))
        connection = try RawConnection(url: url)
    }

    public func run() throws -> Int64 {
        try connection.execute("BEGIN IMMEDIATE")
        try connection.execute("ALTER TABLE ZPERSON ADD COLUMN ZADDED INTEGER")
        try connection.execute("ALTER TABLE ZPERSON RENAME COLUMN ZOLDNAME TO ZNEWNAME")
        let sql = "UPDATE Z_METADATA SET Z_PLIST = ?"
        let update = try connection.prepare(sql)
        defer { sqlite3_finalize(update) }
        let bound = metadata.withUnsafeBytes { buffer in
            sqlite3_bind_blob(update, 1, buffer.baseAddress, Int32(buffer.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        guard bound == SQLITE_OK, sqlite3_step(update) == SQLITE_DONE else { throw connection.error(sql) }
        try connection.execute("COMMIT")
        return 0
    }
}

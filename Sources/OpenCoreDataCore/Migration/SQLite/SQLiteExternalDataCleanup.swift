import GRDB

/// Removing the externally stored values a migrated store no longer references.
///
/// A migration through ``NSMigrationManager`` writes every large value anew into the migrated file's
/// folder; those files join the store's folder before the migrated file replaces the store, so the
/// old store's files stay behind. Once the migrated file has replaced the store, the files no row
/// references are removed. A crash before that leaves unreferenced files, never a missing one.
enum SQLiteExternalDataCleanup {
    /// Removes the files of the external-data folder of the store at `url` that no row of the store
    /// references, reading the store with the layout of `model` (the named configuration's entities
    /// only, when given), and returns their names. Removes nothing when the store cannot be read.
    @discardableResult
    static func removeUnreferencedFiles(ofStoreAt url: URL, model: NSManagedObjectModel, configuration: String?) -> [String] {
        let directory = ExternalBinaryStorage(storeURL: url).directory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path), !names.isEmpty,
            let referenced = try? references(inStoreAt: url, model: model, configuration: configuration)
        else { return [] }
        var removed: [String] = []
        for name in names where !referenced.contains(name) && !name.hasPrefix(".") {
            if (try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))) != nil {
                removed.append(name)
            }
        }
        return removed.sorted()
    }

    /// The references held by the columns of every binary data and transformable attribute. Columns of
    /// attributes that do not allow external storage (any more) are read too: a value written while the
    /// attribute allowed it may still name a file, and a file is kept whenever any column names it.
    static func references(inStoreAt url: URL, model: NSManagedObjectModel, configuration: String?) throws -> Set<String> {
        let schema = try SQLiteSchema(model: model, configurationName: configuration)
        var columnsByTable: [String: Set<String>] = [:]
        for layout in schema.entities {
            guard let entity = model.entitiesByName[layout.name] else { continue }
            for (name, column) in layout.attributeColumns {
                guard let attribute = entity.propertiesByName[name] as? NSAttributeDescription,
                    attribute.attributeType == .binaryDataAttributeType || attribute.attributeType == .transformableAttributeType
                else { continue }
                columnsByTable[layout.table, default: []].insert(column)
            }
        }
        guard !columnsByTable.isEmpty else { return [] }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "OpenCoreData.SQLiteStore(external data cleanup)"
        let queue = try SQLiteStoreFileAccess.run(url) { try DatabaseQueue(path: url.path, configuration: configuration) }
        defer { try? queue.close() }
        return try SQLiteStoreFileAccess.run(url) {
            try queue.read { db in
                var references: Set<String> = []
                for (table, columns) in columnsByTable {
                    for column in columns.sorted() {
                        let sql = "SELECT \(column) FROM \(table) WHERE substr(\(column), 1, 1) = x'02'"
                        for bytes in try Data.fetchAll(db, sql: sql) {
                            if let reference = ExternalBinaryStorage.reference(in: bytes) { references.insert(reference) }
                        }
                    }
                }
                return references
            }
        }
    }
}

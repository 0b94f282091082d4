import GRDB

/// Rewrites, inside a lightweight migration's transaction, the values of binary and transformable
/// attributes whose `allowsExternalBinaryDataStorage` differs between the source and destination
/// models, so that every value reads back as it was:
/// - external storage turned on: each stored value gets its inline tag (`0x01` + the bytes);
/// - external storage turned off: inline values lose their tag, and values kept in files are read
///   into the column (the files, then referenced by no row, are removed after the migration commits:
///   ``SQLiteExternalDataCleanup``).
///
/// A value in a file that is missing fails the migration with `NSMigrationError` (134110) naming the
/// entity, attribute and file; the transaction rolls back and the store is unchanged.
struct SQLiteExternalStorageChange {
    let plan: SQLiteMigrationPlan
    let storage: ExternalBinaryStorage

    init(plan: SQLiteMigrationPlan, storeURL: URL) {
        self.plan = plan
        storage = ExternalBinaryStorage(storeURL: storeURL)
    }

    /// One attribute column to rewrite, in the rows of one destination entity.
    struct Change {
        let entityName: String
        let attributeName: String
        let table: String
        let column: String
        let entityNumber: Int
        /// Whether the destination keeps values with a tag (external storage turned on).
        let tagsValues: Bool
    }

    /// The columns whose values change form.
    var changes: [Change] {
        var changes: [Change] = []
        for entity in plan.entities {
            for (name, column) in entity.destinationLayout.attributeColumns.sorted(by: { $0.key < $1.key }) {
                guard let attribute = entity.destination.attributesByName[name],
                    let sourceName = entity.attributes[name],
                    let sourceAttribute = entity.source.attributesByName[sourceName]
                else { continue }
                let tagsValues = ExternalBinaryStorage.applies(to: attribute)
                guard tagsValues != ExternalBinaryStorage.applies(to: sourceAttribute),
                    isBinary(attribute), isBinary(sourceAttribute)
                else { continue }
                changes.append(
                    Change(
                        entityName: entity.destinationLayout.name, attributeName: name,
                        table: entity.destinationLayout.table, column: column,
                        entityNumber: entity.destinationLayout.number, tagsValues: tagsValues))
            }
        }
        return changes
    }

    /// Rewrites the values of every changed column of the destination tables.
    func convert(_ db: Database) throws {
        for change in changes {
            let select = "SELECT Z_PK, \(change.column) FROM \(change.table) WHERE Z_ENT = ? AND \(change.column) IS NOT NULL"
            let update = try db.makeStatement(sql: "UPDATE \(change.table) SET \(change.column) = ? WHERE Z_PK = ?")
            for row in try Row.fetchAll(db, sql: select, arguments: [change.entityNumber]) {
                let key: Int64 = try row.requiredStoredInteger(atIndex: 0)
                let stored: DatabaseValue = row[1]
                let bytes: Data
                switch stored.storage {
                case .blob(let data): bytes = data
                case .string(let text): bytes = Data(text.utf8)
                default: continue
                }
                let converted = try change.tagsValues ? Data([ExternalBinaryStorage.inlineTag]) + bytes : value(of: bytes, change)
                try update.execute(arguments: [converted, key])
            }
        }
    }

    /// The value bytes a tagged column holds (the file's contents for a reference).
    private func value(of bytes: Data, _ change: Change) throws -> Data {
        do {
            return try storage.valueBytes(from: bytes)
        } catch let failure as TransformableStorage.Failure {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The value of \(change.entityName).\(change.attributeName) cannot be stored in the "
                        + "store file now that the attribute does not allow external storage: \(failure.message)."
                ])
        }
    }

    private func isBinary(_ attribute: NSAttributeDescription) -> Bool {
        attribute.attributeType == .binaryDataAttributeType || attribute.attributeType == .transformableAttributeType
    }
}

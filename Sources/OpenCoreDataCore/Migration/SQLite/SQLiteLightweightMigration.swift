import GRDB

/// Migrates a SQLite store file in place from a source model to a destination model, inside ONE
/// transaction: the old tables are renamed aside, the destination layout is created, rows are copied
/// entity by entity (keeping their primary keys), relationships are carried over whatever their new
/// storage, `Z_PRIMARYKEY` and `Z_METADATA` are rewritten, and the old tables are dropped. Before
/// committing, the file's structure is compared with the destination layout; any difference rolls the
/// whole migration back. A crash at any point leaves the store at the old version (SQLite's journal
/// undoes the unfinished transaction) or at the new one. Persistent history stays, its changes renamed
/// for the new model (``SQLiteHistoryCarryOver``).
struct SQLiteLightweightMigration {
    /// The prefix of the old tables while the migration runs.
    static let oldPrefix = "_OCDOLD_"

    let url: URL
    let plan: SQLiteMigrationPlan
    let destinationConfiguration: String?
    /// Called with the fraction done and what is being done.
    var progress: ((Double, String) -> Void)?
    /// Whether dropping the old tables and building non-unique indexes waits for
    /// `finishDeferredLightweightMigration()` (``NSPersistentStoreDeferredLightweightMigrationOptionKey``).
    var defersCleanup = false
    /// The log the migration's statements are written to (the store's SQL debug log).
    var sqlDebugLog: SQLDebugLog?

    /// Runs the migration and returns the store's new metadata.
    ///
    /// - Throws: ``NSMigrationManagerSourceStoreError`` (134150) when the file is not laid out for the
    ///   source model; ``NSMigrationError`` (134110) naming the entity and attribute when a required
    ///   attribute would be left without a value, and naming the SQLite failure otherwise;
    ///   ``NSMigrationConstraintViolationError`` (134111) when rows break a new uniqueness constraint.
    ///   The file is unchanged whenever an error is thrown.
    @discardableResult
    func run() throws -> SQLiteStoreMetadata {
        try Self.run([self])
    }

    /// Runs several migrations of one file one after the other inside ONE transaction (the steps of a
    /// progressive migration), and returns the store's final metadata. A failure of any step rolls
    /// every step back; a crash leaves the file at the first step's source version or at the last
    /// step's destination.
    @discardableResult
    static func run(_ steps: [SQLiteLightweightMigration]) throws -> SQLiteStoreMetadata {
        guard let first = steps.first else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationError,
                userInfo: [
                    NSLocalizedDescriptionKey: "A migration needs at least one step."
                ])
        }
        let url = first.url
        var configuration = Configuration()
        configuration.label = "OpenCoreData.SQLiteStore(migrate)"
        configuration.busyMode = .timeout(240)
        // Rows a migration writes may fire the file's derived-attribute triggers, which call these.
        configuration.prepareDatabase { db in SQLiteDerivedAttributeTriggers.register(in: db, reports: nil) }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
        } catch let error as DatabaseError {
            throw SQLiteStoreFileAccess.sqliteError(error, url)
        }
        defer { try? queue.close() }
        var metadata: SQLiteStoreMetadata?
        do {
            try queue.writeWithoutTransaction { db in
                first.sqlDebugLog?.trace(db)
                try db.inTransaction(.immediate) {
                    // Another process (or coordinator) that opened the store with the same model may have
                    // migrated it while this one waited for the write lock.
                    if let done = try steps.last?.alreadyMigrated(db) {
                        metadata = done
                        return .commit
                    }
                    for step in steps { metadata = try step.migrate(db) }
                    return .commit
                }
            }
        } catch let error as NSError where error.domain == NSCocoaErrorDomain {
            throw error
        } catch let damage as SQLiteDamagedValue {
            throw first.migrationError(NSMigrationError, "the store file is damaged: \(damage.message)", underlying: nil)
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_CONSTRAINT {
                throw first.migrationError(
                    NSMigrationConstraintViolationError,
                    "rows of the store break a uniqueness constraint of the new model (\(error.message ?? "constraint failed"))", underlying: error)
            }
            throw first.migrationError(NSMigrationError, "SQLite failed: \(error.message ?? error.description)", underlying: error)
        }
        try? queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        guard let metadata else { throw first.migrationError(NSMigrationError, "the migration did not finish", underlying: nil) }
        if let last = steps.last {
            // Values moved into the file (external storage turned off), and removed attributes and
            // entities, leave files no row references.
            SQLiteExternalDataCleanup.removeUnreferencedFiles(
                ofStoreAt: url, model: last.plan.destinationModel,
                configuration: last.destinationConfiguration)
        }
        return metadata
    }

    /// The store's metadata when it is already at this step's destination model, else nil.
    func alreadyMigrated(_ db: Database) throws -> SQLiteStoreMetadata? {
        let current = try SQLiteStoreMetadata.read(from: db, storeURL: url)
        let compatible = plan.destinationModel.isConfiguration(
            withName: destinationConfiguration,
            compatibleWithStoreMetadata: current.dictionary)
        return compatible ? current : nil
    }

    /// An error of the migration, naming the file.
    func migrationError(_ code: Int, _ reason: String, underlying: Error?) -> NSError {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: "Migrating the store at \(url.path) failed: \(reason). The store was left unchanged.",
            NSFilePathErrorKey: url.path,
            NSURLErrorKey: url,
        ]
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
    }

    /// The whole migration, inside the caller's transaction: in place with `ALTER TABLE` when the
    /// plan allows it and the linked SQLite can, else by copying the tables.
    func migrate(_ db: Database) throws -> SQLiteStoreMetadata {
        let source = plan.sourceSchema
        let oldMetadata = try SQLiteStoreMetadata.read(from: db, storeURL: url)
        try SQLiteDeferredMigration.dropLeftovers(db)
        if PersistentStoreOptions.bool(oldMetadata.plist[NSPersistentStoreDeferredLightweightMigrationOptionKey]) == true {
            try SQLiteDeferredMigration.dropLeftoverColumns(db, schema: source)
        }
        let differences = try source.differences(in: db)
        guard differences.areCompatible else {
            throw migrationError(
                NSMigrationManagerSourceStoreError,
                "the file is not laid out for the source model (\(differences.prefix(5).map(\.description).joined(separator: "; ")))",
                underlying: nil)
        }
        progress?(0.02, "Preparing")
        let triggers = try SQLiteDerivedAttributeTriggerCarryOver.detach(db, plan: plan)
        // Keyed by the source model's entity names, found by entity number: a store renamed by an
        // earlier migration keeps the entity's old name in Z_NAME, as Apple's Core Data does.
        var oldMax: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000") {
            let number = Int(try row.storedInteger(atIndex: 0) ?? 0)
            let recorded = String.fromDatabaseValue(row[1] as DatabaseValue)
            let name = plan.sourceSchema.entities.first { $0.number == number }?.name ?? recorded
            if let name { oldMax[name] = try row.storedInteger(atIndex: 2) ?? 0 }
        }
        if case let .success(alterations) = inPlacePlan(sqliteVersion: try Self.sqliteVersion(db)) {
            var metadata: SQLiteStoreMetadata?
            do {
                try db.inSavepoint {
                    try alter(db, alterations)
                    metadata = try finish(db, oldMetadata: oldMetadata, oldMax: oldMax, offsets: [:], oldTables: [], triggers: triggers)
                    return .commit
                }
            } catch let error as DatabaseError where error.resultCode != .SQLITE_CONSTRAINT {
                sqlDebugLog?.write(
                    .annotation, "CoreData: annotation: in-place migration failed (\(error.message ?? error.description)); copying the tables instead"
                )
                metadata = nil
            } catch let error as NSError where error.domain == NSCocoaErrorDomain && error.code == NSMigrationError {
                sqlDebugLog?.write(
                    .annotation, "CoreData: annotation: in-place migration failed (\(error.localizedDescription)); copying the tables instead")
                metadata = nil
            }
            if let metadata { return metadata }
        }
        return try copyTables(db, oldMetadata: oldMetadata, oldMax: oldMax, triggers: triggers)
    }

    /// The migration by copying every table: the old tables are renamed aside, the new layout
    /// created, rows and relationships copied, the old tables dropped.
    private func copyTables(
        _ db: Database, oldMetadata: SQLiteStoreMetadata, oldMax: [String: Int64],
        triggers: SQLiteDerivedAttributeTriggerCarryOver
    ) throws -> SQLiteStoreMetadata {
        let source = plan.sourceSchema
        let destination = plan.destinationSchema
        let oldTables = source.tables.map(\.name)
        let indexNames = try String.fetchAll(
            db,
            sql: """
                SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
                AND tbl_name IN (\(oldTables.map { _ in "?" }.joined(separator: ", ")))
                """, arguments: StatementArguments(databaseValues: oldTables))
        for name in indexNames { try db.execute(sql: "DROP INDEX \(quoted(name))") }
        for table in oldTables { try db.execute(sql: "ALTER TABLE \(table) RENAME TO \(Self.oldPrefix)\(table)") }
        let offsets = try primaryKeyOffsets(db, oldMax: oldMax)
        for table in destination.tables { try db.execute(sql: table.createStatement) }

        var direct: Set<String> = []
        for (position, entity) in plan.entities.enumerated() {
            progress?(
                0.05 + 0.6 * Double(position) / Double(max(plan.entities.count, 1)),
                "Copying \(entity.destinationLayout.name)")
            try copyRows(db, entity, offsets: offsets, direct: &direct)
        }
        progress?(0.7, "Carrying relationships over")
        try SQLiteMigrationRelationships(plan: plan, offsets: offsets, direct: direct, oldPrefix: Self.oldPrefix)
            .carryOver(db)
        progress?(0.85, "Building indexes")
        for index in destination.indexes where index.isUnique || !defersCleanup { try db.execute(sql: index.createStatement) }
        return try finish(db, oldMetadata: oldMetadata, oldMax: oldMax, offsets: offsets, oldTables: oldTables, triggers: triggers)
    }

    /// The end of both paths: `Z_PRIMARYKEY` and `Z_METADATA` rewritten, the old tables dropped
    /// (unless cleanup is deferred), and the file's structure compared with the destination layout.
    private func finish(
        _ db: Database, oldMetadata: SQLiteStoreMetadata, oldMax: [String: Int64],
        offsets: [String: Int64], oldTables: [String], triggers: SQLiteDerivedAttributeTriggerCarryOver
    ) throws -> SQLiteStoreMetadata {
        let destination = plan.destinationSchema
        try SQLiteExternalStorageChange(plan: plan, storeURL: url).convert(db)
        try rewritePrimaryKeys(db, oldMax: oldMax, offsets: offsets)
        if try SQLiteHistoryCarryOver.hasHistory(db) {
            try SQLiteHistoryCarryOver(plan: plan, offsets: offsets).rewrite(db)
        }
        if !defersCleanup {
            for table in oldTables { try db.execute(sql: "DROP TABLE \(Self.oldPrefix)\(table)") }
        }
        let refused = try triggers.reattach(db)
        for name in triggers.dropped + refused {
            sqlDebugLog?.write(
                .annotation, "CoreData: annotation: derived-attribute trigger \(name) dropped: its attribute's derivation is now computed when saving"
            )
        }
        var metadata = newMetadata(replacing: oldMetadata)
        if defersCleanup {
            metadata.plist[NSPersistentStoreDeferredLightweightMigrationOptionKey] = true
        } else {
            metadata.plist.removeValue(forKey: NSPersistentStoreDeferredLightweightMigrationOptionKey)
        }
        try metadata.write(to: db)
        try SQLiteModelCache.write(plan.destinationModel, to: db)
        let remaining = try destination.differences(in: db).filter { difference in
            guard defersCleanup else { return true }
            if case let .extraTable(name) = difference, name.hasPrefix(Self.oldPrefix) { return false }
            if case .extraColumn = difference { return false }
            return !difference.isTolerated
        }
        guard remaining.isEmpty else {
            throw migrationError(
                NSMigrationError,
                "the migrated file would not match the new model (\(remaining.prefix(5).map(\.description).joined(separator: "; ")))",
                underlying: nil)
        }
        progress?(1, "Done")
        return metadata
    }

    /// The new metadata: the destination model's keys, the store's UUID and the user's own keys.
    private func newMetadata(replacing old: SQLiteStoreMetadata) -> SQLiteStoreMetadata {
        let modelKeys: Set<String> = [
            NSStoreModelVersionHashesKey, NSStoreModelVersionIdentifiersKey,
            NSStoreModelVersionChecksumKey, _NSStoreModelVersionHashesDigestKey,
            _NSStoreModelVersionHashesVersionKey,
        ]
        let user = old.plist.filter { !modelKeys.contains($0.key) }
        return SQLiteStoreMetadata(
            newStoreFor: plan.destinationModel, configurationName: destinationConfiguration,
            uuid: old.uuid, userMetadata: user)
    }

    /// The amount added to the primary keys of each old entity table. All zero unless rows of two old
    /// tables land in one new table (a change of hierarchy); then each old table gets its own range.
    private func primaryKeyOffsets(_ db: Database, oldMax: [String: Int64]) throws -> [String: Int64] {
        var feeders: [String: Set<String>] = [:]
        for entity in plan.entities {
            feeders[entity.destinationLayout.table, default: []].insert(entity.sourceLayout.table)
        }
        var offsets: [String: Int64] = [:]
        let entityTables = plan.sourceSchema.entities.filter { $0.number == $0.rootNumber }
        for layout in entityTables { offsets[layout.table] = 0 }
        guard feeders.values.contains(where: { $0.count > 1 }) else { return offsets }
        var next: Int64 = 0
        for layout in entityTables.sorted(by: { $0.table < $1.table }) {
            offsets[layout.table] = next
            let highest = try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM \(Self.oldPrefix)\(layout.table)") ?? 0
            next += max(highest, oldMax[layout.name] ?? 0)
        }
        return offsets
    }

    /// Copies the rows of one source entity into the new table as rows of the destination entity:
    /// attribute values (new required attributes get their default), and to-one foreign keys whose
    /// storage did not change.
    private func copyRows(
        _ db: Database, _ entity: SQLiteMigrationPlan.EntityPlan, offsets: [String: Int64],
        direct: inout Set<String>
    ) throws {
        let destination = entity.destinationLayout
        let source = entity.sourceLayout
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var values = ["o.Z_PK + \(offsets[source.table] ?? 0)", "\(destination.number)", "o.Z_OPT"]
        var arguments: [DatabaseValue] = []
        var mandatory: [(String, String)] = []
        for (path, column) in destination.attributeColumns.sorted(by: { $0.key < $1.key }) {
            let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
            let attribute = entity.destination.attributesByName[parts[0]]
            let isPlain = parts.count == 1
            let defaultValue = isPlain ? attribute?.defaultValue : nil
            var sourceColumn: String?
            if let sourceName = entity.attributes[parts[0]] {
                let sourcePath = isPlain ? sourceName : sourceName + "." + parts[1]
                sourceColumn = source.attributeColumns[sourcePath]
            }
            let encoded = defaultValue.map {
                SQLiteValueEncoding.databaseValue(for: $0, attributeType: attribute?.attributeType ?? .undefinedAttributeType)
            }
            switch (sourceColumn, encoded) {
            case let (sourceColumn?, encoded?) where attribute?.isOptional == false:
                columns.append(column)
                values.append("COALESCE(o.\(sourceColumn), ?)")
                arguments.append(encoded)
            case let (sourceColumn?, _):
                columns.append(column)
                values.append("o.\(sourceColumn)")
            case let (nil, encoded?):
                columns.append(column)
                values.append("?")
                arguments.append(encoded)
            case (nil, nil):
                break
            }
            if isPlain, attribute?.isOptional == false, encoded == nil {
                let sourceAttribute = entity.attributes[parts[0]].flatMap { entity.source.attributesByName[$0] }
                if sourceAttribute?.isOptional != false { mandatory.append((parts[0], column)) }
            }
        }
        for (name, storage) in destination.relationships.sorted(by: { $0.key < $1.key }) {
            guard case let .foreignKey(column, _, orderColumn) = storage,
                let sourceName = entity.relationships[name],
                case let .foreignKey(sourceColumn, _, sourceOrder)? = source.relationships[sourceName],
                orderColumn == nil || sourceOrder != nil,
                let target = entity.source.relationshipsByName[sourceName]?.destinationEntity?.name,
                let targetTable = plan.sourceSchema.entity(named: target)?.table
            else { continue }
            columns.append(column)
            values.append("o.\(sourceColumn) + \(offsets[targetTable] ?? 0)")
            if let orderColumn, let sourceOrder {
                columns.append(orderColumn)
                values.append("o.\(sourceOrder)")
            }
            let declaring = entity.destination.relationshipsByName[name]?.entity.name ?? destination.name
            direct.insert("\(declaring).\(name)#\(destination.number)")
        }
        try db.execute(
            sql: """
                INSERT INTO \(destination.table) (\(columns.joined(separator: ", ")))
                SELECT \(values.joined(separator: ", ")) FROM \(Self.oldPrefix)\(source.table) AS o WHERE o.Z_ENT = \(source.number)
                """, arguments: StatementArguments(databaseValues: arguments))
        for (attribute, column) in mandatory {
            let missing =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM \(destination.table) WHERE Z_ENT = ? AND \(column) IS NULL",
                    arguments: [destination.number]) ?? 0
            if missing > 0 {
                throw migrationError(
                    NSMigrationError,
                    "\(missing) \(destination.name) object(s) would have no value for the required attribute \(attribute), which has no default value",
                    underlying: nil)
            }
        }
    }

    /// Rewrites `Z_PRIMARYKEY` for the new model: each root keeps the highest key handed out. The rows
    /// numbered 16000 and above (persistent history's) stay as they are.
    private func rewritePrimaryKeys(_ db: Database, oldMax: [String: Int64], offsets: [String: Int64]) throws {
        // The names the store recorded, by the source model's entity names (found by entity number).
        var oldPrimaryKeyNames: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") {
            let number = Int(try row.storedInteger(atIndex: 0) ?? 0)
            if let recorded = String.fromDatabaseValue(row[1] as DatabaseValue),
                let name = plan.sourceSchema.entities.first(where: { $0.number == number })?.name
            {
                oldPrimaryKeyNames[name] = recorded
            }
        }
        try db.execute(sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        for layout in plan.destinationSchema.entities {
            var highest: Int64 = 0
            if layout.number == layout.rootNumber {
                highest = try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM \(layout.table)") ?? 0
                for entity in plan.entities where entity.destinationLayout.table == layout.table {
                    let sourceRoot = plan.sourceSchema.entities.first { $0.number == entity.sourceLayout.rootNumber }
                    let recorded = sourceRoot.flatMap { oldMax[$0.name] } ?? 0
                    highest = max(highest, recorded + (offsets[entity.sourceLayout.table] ?? 0))
                }
            } else if let entity = plan.entitiesByDestination[layout.name] {
                highest = oldMax[entity.sourceLayout.name] ?? 0
            }
            // An entity keeps the name the store recorded for it, as in Apple's stores: one renamed through
            // its renaming identifier, in this migration or an earlier one, keeps its old name.
            var recordedName = layout.name
            if let entity = plan.entitiesByDestination[layout.name] {
                recordedName = oldPrimaryKeyNames[entity.sourceLayout.name] ?? entity.sourceLayout.name
            }
            try db.execute(
                sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                arguments: [layout.number, recordedName, layout.superNumber, highest])
        }
    }

    /// An identifier in double quotes.
    func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

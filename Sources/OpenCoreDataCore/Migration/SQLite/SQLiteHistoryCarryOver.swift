import GRDB

/// Carries a store's persistent history across a migration: the history tables and their rows stay,
/// and each change is rewritten to name its object as the migrated store does.
///
/// A change names its object by entity number (`ZENTITY`) and primary key (`ZENTITYPK`), its updated
/// properties by their place in the entity's property list (`ZCOLUMNS`) and its tombstone by the place
/// of each preserved attribute (`ZTOMBSTONE<n>`, ``SQLiteHistoryLayout``). A migration can change all
/// four: entities are renumbered when entities are added or removed, keys move when rows of two tables
/// meet in one, and property lists change with added, removed and renamed properties. So every change
/// is mapped from the source model's numbering to the destination's:
/// - its entity through the mapping of its entity (a change of an entity the destination lacks gets
///   `ZENTITY` 0, which names no entity: it is kept, and a history read leaves it out);
/// - its key through `key` (a migration manager's new keys) or the table's key offset;
/// - its updated properties and tombstone values by property name, renamed as the mapping renames.
///
/// The migration's own writes are not recorded: it writes through SQL statements of its own connection
/// (or a migration manager's destination store, opened without history tracking), so no transaction
/// stands for them.
struct SQLiteHistoryCarryOver {
    /// Where one source entity's changes go.
    struct EntityMap {
        /// The destination entity's number.
        var destination: Int64
        /// What is added to the entity's primary keys.
        var keyOffset: Int64 = 0
        /// Source property name → destination property name, for the properties that carry over.
        var properties: [String: String]
    }

    let source: SQLiteHistoryLayout
    let destination: SQLiteHistoryLayout
    /// The maps by source entity number.
    let entities: [Int64: EntityMap]
    /// The destination entity and key of a source object, when the migration gave it new ones (a
    /// migration manager); `nil` keeps the entity map's.
    var key: ((_ entity: Int64, _ key: Int64) -> (entity: Int64, key: Int64)?)? = nil

    /// Whether the file has the history tables.
    static func hasHistory(_ db: Database) throws -> Bool {
        try SQLiteHistorySchema.state(in: db).hasTables
    }

    /// The carry-over of a lightweight migration's plan: entities by the plan's entity plans, keys by
    /// the tables' offsets, properties by the plan's attribute and relationship sources.
    init(plan: SQLiteMigrationPlan, offsets: [String: Int64]) {
        source = SQLiteHistoryLayout(schema: plan.sourceSchema, model: plan.sourceModel)
        destination = SQLiteHistoryLayout(schema: plan.destinationSchema, model: plan.destinationModel)
        var entities: [Int64: EntityMap] = [:]
        for entity in plan.entities {
            var properties: [String: String] = [:]
            for (to, from) in entity.attributes { properties[from] = to }
            for (to, from) in entity.relationships { properties[from] = to }
            entities[Int64(entity.sourceLayout.number)] = EntityMap(
                destination: Int64(entity.destinationLayout.number), keyOffset: offsets[entity.sourceLayout.table] ?? 0,
                properties: properties)
        }
        self.entities = entities
    }

    /// The carry-over of a migration manager's run: entities by the mapping's entity mappings,
    /// properties by its property mappings (a property mapping that copies `$source.<name>`), keys by
    /// `key`.
    init(
        source: (schema: SQLiteSchema, model: NSManagedObjectModel), destination: (schema: SQLiteSchema, model: NSManagedObjectModel),
        mapping: NSMappingModel, key: @escaping (_ entity: Int64, _ key: Int64) -> (entity: Int64, key: Int64)?
    ) {
        self.source = SQLiteHistoryLayout(schema: source.schema, model: source.model)
        self.destination = SQLiteHistoryLayout(schema: destination.schema, model: destination.model)
        var entities: [Int64: EntityMap] = [:]
        for entityMapping in mapping.entityMappings ?? [] {
            guard let from = entityMapping.sourceEntityName, let to = entityMapping.destinationEntityName,
                let sourceLayout = source.schema.entity(named: from), let destinationLayout = destination.schema.entity(named: to),
                entities[Int64(sourceLayout.number)] == nil
            else { continue }
            var properties: [String: String] = [:]
            for propertyMapping in (entityMapping.attributeMappings ?? []) + (entityMapping.relationshipMappings ?? []) {
                if let name = propertyMapping.name, let copied = propertyMapping.sourcePropertyName { properties[copied] = name }
            }
            entities[Int64(sourceLayout.number)] = EntityMap(destination: Int64(destinationLayout.number), properties: properties)
        }
        self.entities = entities
        self.key = key
    }

    /// Rewrites the changes of `ACHANGE` in `db` from the source numbering to the destination's, inside
    /// the caller's transaction, first adding the tombstone columns the destination model needs. Rows
    /// that the migration leaves as they were are not written.
    func rewrite(_ db: Database) throws {
        let columns = try SQLiteHistorySchema.create(tombstones: destination.tombstoneCount, in: db)
        let selected = ["Z_PK", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZCOLUMNS"] + columns
        let assignments = (["ZENTITY", "ZENTITYPK", "ZCOLUMNS"] + columns).map { "\($0) = ?" }.joined(separator: ", ")
        let update = try db.makeStatement(sql: "UPDATE ACHANGE SET \(assignments) WHERE Z_PK = ?")
        // Read first, write afterwards: SQLite does not promise what a cursor sees of rows updated under it.
        var updates: [[DatabaseValue]] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT \(selected.joined(separator: ", ")) FROM ACHANGE ORDER BY Z_PK")
        while let row = try rows.next() {
            let old = Array(row.databaseValues)
            guard let new = rewritten(old, tombstoneColumns: columns.count), new != Array(old[2...]) else { continue }
            updates.append(new + [old[0]])
        }
        for values in updates { try update.execute(arguments: StatementArguments(values)) }
    }

    /// The new `ZENTITY`, `ZENTITYPK`, `ZCOLUMNS` and tombstone values of a change row (`Z_PK`,
    /// `ZCHANGETYPE`, `ZENTITY`, `ZENTITYPK`, `ZCOLUMNS`, tombstones), or `nil` for a row this
    /// carry-over cannot read (damaged values are left as they are).
    private func rewritten(_ row: [DatabaseValue], tombstoneColumns count: Int) -> [DatabaseValue]? {
        guard let number = Int64.fromDatabaseValue(row[2]), let key = Int64.fromDatabaseValue(row[3]) else { return nil }
        var tombstone = Array(row[5...])
        while tombstone.count < count { tombstone.append(.null) }
        guard let map = entities[number] else {
            // An entity the destination does not have: its changes name no entity any more.
            return [Int64(0).databaseValue, row[3], row[4]] + tombstone
        }
        var entity = map.destination
        var newKey = key + map.keyOffset
        if let moved = self.key?(number, key) {
            entity = moved.entity
            newKey = moved.key
        }
        var columns = row[4]
        if let bitmap = Data.fromDatabaseValue(row[4]), let names = source.properties(entity: number, bitmap: bitmap) {
            columns = destination.bitmap(entity: entity, names: names.compactMap { map.properties[$0.name] })?.databaseValue ?? .null
        }
        let from = source.entities[number]?.tombstones.map(\.attribute.name) ?? []
        let to = destination.entities[entity]?.tombstones.map(\.attribute.name) ?? []
        if from != to || entity != number {
            var byName: [String: DatabaseValue] = [:]
            for (index, name) in from.enumerated() where index < tombstone.count {
                if let renamed = map.properties[name] { byName[renamed] = tombstone[index] }
            }
            var moved = [DatabaseValue](repeating: .null, count: tombstone.count)
            for (index, name) in to.enumerated() where index < moved.count { moved[index] = byName[name] ?? .null }
            tombstone = moved
        }
        return [entity.databaseValue, newKey.databaseValue, columns] + tombstone
    }
}

extension SQLiteHistoryCarryOver {
    /// Copies the history tables of the store at `url` into `migrated`, the new file a migration manager
    /// wrote from it (which replaces the store's content afterwards), with each change renamed for the
    /// new file: objects by the manager's associations of source and destination instances, entities and
    /// properties by the mapping. Nothing is done for a store without history tables.
    static func copy(from url: URL, into migrated: URL, manager: NSMigrationManager, mapping: NSMappingModel) throws {
        let reader = try SQLiteStoreFileAccess.openForReading(url)
        let found = try reader.read { try Self.hasHistory($0) }
        try reader.close()
        guard found else { return }
        let sourceSchema = try SQLiteSchema(model: manager.sourceModel, configurationName: manager._sourceConfiguration)
        let destinationSchema = try SQLiteSchema(model: manager.destinationModel, configurationName: manager._destinationConfiguration)
        // Source entity number and key → destination entity number and key, from the objects the
        // manager made (permanent since its save).
        var moved: [HistoryObjectKey: (entity: Int64, key: Int64)] = [:]
        for (sourceID, destinations) in manager._associations.destinationsBySource {
            guard let sourceKey = sourceID.primaryKey, let from = sourceID.entity.name.flatMap(sourceSchema.entity(named:)),
                let destinationID = destinations.first?.objectID, let destinationKey = destinationID.primaryKey,
                let to = destinationID.entity.name.flatMap(destinationSchema.entity(named:))
            else { continue }
            moved[HistoryObjectKey(entity: Int64(from.number), key: sourceKey)] = (Int64(to.number), destinationKey)
        }
        let carryOver = SQLiteHistoryCarryOver(
            source: (sourceSchema, manager.sourceModel),
            destination: (destinationSchema, manager.destinationModel),
            mapping: mapping
        ) { moved[HistoryObjectKey(entity: $0, key: $1)] }
        let queue = try SQLiteStoreFileAccess.openForWriting(migrated, label: "OpenCoreData.SQLiteStore(migrate history)")
        defer { try? queue.close() }
        try queue.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try db.execute(sql: "ATTACH DATABASE ? AS old", arguments: [url.path])
                let old = try SQLiteHistorySchema.state(in: db, schema: "old")
                try SQLiteHistorySchema.create(tombstones: old.tombstoneColumns.count, in: db)
                let changeColumns =
                    (["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"]
                    + old.tombstoneColumns).joined(separator: ", ")
                let transactionColumns =
                    "Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP, "
                    + "ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZQUERYGEN"
                for (table, columns) in [
                    (SQLiteHistorySchema.stringTable, "Z_PK, Z_ENT, Z_OPT, ZNAME"),
                    (SQLiteHistorySchema.transactionTable, transactionColumns),
                    (SQLiteHistorySchema.changeTable, changeColumns),
                ] {
                    try db.execute(sql: "INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM old.\(table)")
                }
                try db.execute(
                    sql: """
                        UPDATE main.Z_PRIMARYKEY SET Z_MAX = (SELECT o.Z_MAX FROM old.Z_PRIMARYKEY AS o WHERE o.Z_ENT = main.Z_PRIMARYKEY.Z_ENT)
                        WHERE Z_ENT IN (16001, 16002, 16003) AND EXISTS (SELECT 1 FROM old.Z_PRIMARYKEY AS o WHERE o.Z_ENT = main.Z_PRIMARYKEY.Z_ENT)
                        """)
                try carryOver.rewrite(db)
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE old")
        }
    }
}

/// A row of a store named by entity number and primary key.
struct HistoryObjectKey: Hashable {
    var entity: Int64
    var key: Int64
}

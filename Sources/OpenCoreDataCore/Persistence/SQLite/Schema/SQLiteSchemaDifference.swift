import GRDB

/// One way a store file's structure differs from the layout a model implies.
enum SQLiteSchemaDifference: Hashable, Sendable, CustomStringConvertible {
    /// The model implies a table the file lacks.
    case missingTable(String)
    /// The file has a table the model does not imply.
    case extraTable(String)
    /// The model implies a column (with this declared type) the table lacks.
    case missingColumn(table: String, column: String, type: String)
    /// The table has a column the model does not imply.
    case extraColumn(table: String, column: String)
    /// The column is declared with another type.
    case columnType(table: String, column: String, expected: String, found: String)
    /// The table's primary key is made of other columns.
    case primaryKey(table: String, expected: [String], found: [String])
    /// The model implies an index the file lacks.
    case missingIndex(String, isUnique: Bool)
    /// The file has an index the model does not imply.
    case extraIndex(String, isUnique: Bool)
    /// The index exists but covers other columns, another table or another uniqueness.
    case indexDefinition(name: String, expected: String, found: String, isUnique: Bool)
    /// The model has an entity `Z_PRIMARYKEY` does not list.
    case missingEntity(name: String, number: Int)
    /// `Z_PRIMARYKEY` lists an entity the model lacks.
    case extraEntity(name: String, number: Int)
    /// The entity has another number in the file.
    case entityNumber(name: String, expected: Int, found: Int)
    /// The entity has another superentity number in the file.
    case superentityNumber(name: String, expected: Int, found: Int)

    /// A sentence naming the difference precisely.
    var description: String {
        switch self {
        case let .missingTable(name): return "missing table \(name)"
        case let .extraTable(name): return "unexpected table \(name)"
        case let .missingColumn(table, column, type): return "missing column \(table).\(column) \(type)"
        case let .extraColumn(table, column): return "unexpected column \(table).\(column)"
        case let .columnType(table, column, expected, found):
            return "column \(table).\(column) is declared \(found), the model implies \(expected)"
        case let .primaryKey(table, expected, found):
            return "table \(table) has primary key (\(found.joined(separator: ", "))), the model implies (\(expected.joined(separator: ", ")))"
        case let .missingIndex(name, _): return "missing index \(name)"
        case let .extraIndex(name, _): return "unexpected index \(name)"
        case let .indexDefinition(name, expected, found, _):
            return "index \(name) is \(found), the model implies \(expected)"
        case let .missingEntity(name, number): return "Z_PRIMARYKEY lacks entity \(name) (\(number))"
        case let .extraEntity(name, number): return "Z_PRIMARYKEY lists entity \(name) (\(number)), which the model lacks"
        case let .entityNumber(name, expected, found):
            return "entity \(name) has number \(found), the model implies \(expected)"
        case let .superentityNumber(name, expected, found):
            return "entity \(name) has superentity number \(found), the model implies \(expected)"
        }
    }

    /// Whether the difference leaves the store usable with the model: a non-unique index that is
    /// missing, extra or defined otherwise changes only the speed of queries, not what rows hold.
    /// Apple-written stores do carry such leftovers: the Bookmarks fixture has an index
    /// `Z_BookmarkEntity_isPendingDeletion` that no version of its model declares. Every other
    /// difference, a unique index included (it enforces a uniqueness constraint), is incompatible.
    var isTolerated: Bool {
        switch self {
        case let .missingIndex(_, isUnique), let .extraIndex(_, isUnique), let .indexDefinition(_, _, _, isUnique):
            return !isUnique
        default:
            return false
        }
    }
}

extension Array where Element == SQLiteSchemaDifference {
    /// Whether a store with these differences from a model's layout can be used with the model: every
    /// difference is tolerated (see ``SQLiteSchemaDifference/isTolerated``).
    var areCompatible: Bool { allSatisfy(\.isTolerated) }
}

extension SQLiteSchemaSnapshot {
    /// The differences between this (a file's) structure and the `expected` one, sorted by description.
    /// An absent `Z_MODELCACHE` table is not a difference: stores written before Core Data kept a model
    /// cache lack it.
    func differences(from expected: SQLiteSchemaSnapshot) -> [SQLiteSchemaDifference] {
        var result: [SQLiteSchemaDifference] = []
        for (name, table) in expected.tables {
            guard let found = tables[name] else {
                if name != SQLiteBookkeepingTables.modelCacheTable { result.append(.missingTable(name)) }
                continue
            }
            for (column, type) in table.columns {
                if let foundType = found.columns[column] {
                    if foundType != type { result.append(.columnType(table: name, column: column, expected: type, found: foundType)) }
                } else {
                    result.append(.missingColumn(table: name, column: column, type: type))
                }
            }
            for column in found.columns.keys where table.columns[column] == nil {
                result.append(.extraColumn(table: name, column: column))
            }
            if found.primaryKey != table.primaryKey {
                result.append(.primaryKey(table: name, expected: table.primaryKey, found: found.primaryKey))
            }
        }
        for name in tables.keys where expected.tables[name] == nil {
            result.append(.extraTable(name))
        }
        for (name, index) in expected.indexes {
            guard let found = indexes[name] else {
                result.append(.missingIndex(name, isUnique: index.isUnique))
                continue
            }
            if found != index {
                result.append(
                    .indexDefinition(
                        name: name, expected: index.description, found: found.description,
                        isUnique: index.isUnique || found.isUnique))
            }
        }
        for (name, index) in indexes where expected.indexes[name] == nil {
            result.append(.extraIndex(name, isUnique: index.isUnique))
        }
        // An entity renamed by a migration keeps its old name in Z_PRIMARYKEY, as in Apple's Core Data:
        // a row of the entity's number under a name the model does not have is that entity.
        var renamed: Set<String> = []
        for (name, entity) in expected.entities {
            var found = entities[name]
            if found == nil,
                let (oldName, row) = entities.first(where: { !$0.key.isEmpty && $0.value.number == entity.number && expected.entities[$0.key] == nil }
                )
            {
                found = row
                renamed.insert(oldName)
            }
            guard let found else {
                result.append(.missingEntity(name: name, number: entity.number))
                continue
            }
            if found.number != entity.number {
                result.append(.entityNumber(name: name, expected: entity.number, found: found.number))
            }
            if found.superNumber != entity.superNumber {
                result.append(.superentityNumber(name: name, expected: entity.superNumber, found: found.superNumber))
            }
        }
        for (name, entity) in entities where expected.entities[name] == nil && !renamed.contains(name) {
            result.append(.extraEntity(name: name, number: entity.number))
        }
        return result.sorted { $0.description < $1.description }
    }
}

extension SQLiteSchema {
    /// How the structure of an open database differs from this layout; empty when the file has exactly
    /// the tables, columns (by name and declared type), indexes and entity numbers the model implies.
    func differences(in db: Database) throws -> [SQLiteSchemaDifference] {
        try SQLiteSchemaSnapshot(reading: db).differences(from: SQLiteSchemaSnapshot(expected: self))
    }

    /// How the structure of the store file at `url` differs from this layout, reading the file without
    /// changing it.
    ///
    /// - Throws: an `NSError` naming the file when it cannot be read as a SQLite database.
    func differences(inStoreAt url: URL) throws -> [SQLiteSchemaDifference] {
        let queue = try SQLiteStoreFileAccess.openForReading(url)
        return try SQLiteStoreFileAccess.run(url) {
            try queue.read { db in try differences(in: db) }
        }
    }
}

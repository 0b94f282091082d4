import Foundation
import OpenCoreData

/// Core Data's layout in PostgreSQL terms, worked out from the model: entity numbers (`Z_ENT`), a table
/// per root entity (`Z` and the upper-cased name) holding every entity of its hierarchy, a column per
/// attribute and per to-one relationship, and a join table per many-to-many relationship.
struct PostgreSQLSchema: Sendable {
    /// Where one attribute or relationship lives.
    struct Column: Sendable {
        var name: String
        var type: String
    }

    /// A join table of a to-many relationship whose inverse is to-many (or that has no inverse): one row per
    /// link, the source's key in `sourceColumn`, the destination's in `destinationColumn`.
    struct JoinTable: Sendable {
        var name: String
        var sourceColumn: String
        var destinationColumn: String
        /// Whether `sourceColumn` holds the relationship's own source (false when the table is read from
        /// the inverse's side).
        var forward: Bool
        /// The entities whose keys `sourceColumn` and `destinationColumn` hold.
        var sourceEntity: String
        var destinationEntity: String
    }

    let schema: String
    /// Entity numbers by entity name, from 1, in name order.
    let entityNumbers: [String: Int]
    /// The root entity of each entity.
    let roots: [String: String]
    /// Each root entity's table.
    let tables: [String: String]
    /// Each entity's columns by property name (attributes and to-one relationships, its superentities'
    /// included).
    let columns: [String: [String: Column]]
    /// Each table's columns, in order, without `Z_PK`, `Z_ENT` and `Z_OPT`.
    let tableColumns: [String: [Column]]
    /// Join tables by "entity.relationship", for both sides of a many-to-many relationship.
    let joinTables: [String: JoinTable]
    /// Every join table, once.
    let allJoinTables: [JoinTable]
    /// Entity names by entity number.
    let entityNames: [Int: String]
    /// Each table's to-one key columns, which get an index.
    let foreignKeys: [String: [String]]

    init(model: NSManagedObjectModel, schema: String) throws {
        self.schema = schema
        let entities = model.entities.sorted { ($0.name ?? "") < ($1.name ?? "") }
        var numbers: [String: Int] = [:]
        for (index, entity) in entities.enumerated() { numbers[entity.name ?? ""] = index + 1 }
        entityNumbers = numbers
        entityNames = Dictionary(uniqueKeysWithValues: numbers.map { ($0.value, $0.key) })
        var roots: [String: String] = [:]
        for entity in entities {
            var root = entity
            while let parent = root.superentity { root = parent }
            roots[entity.name ?? ""] = root.name ?? ""
        }
        self.roots = roots
        var tables: [String: String] = [:]
        for entity in entities where entity.superentity == nil {
            tables[entity.name ?? ""] = "Z" + (entity.name ?? "").uppercased()
        }
        self.tables = tables

        // Columns: each table holds the properties of every entity of its hierarchy, superentities first; a
        // name already used in the table gets the entity number after it.
        var columns: [String: [String: Column]] = [:]
        var tableColumns: [String: [Column]] = [:]
        var foreignKeys: [String: [String]] = [:]
        var taken: [String: Set<String>] = [:]
        func depth(_ entity: NSEntityDescription) -> Int { entity.superentity.map { depth($0) + 1 } ?? 0 }
        for entity in entities.sorted(by: { (depth($0), $0.name ?? "") < (depth($1), $1.name ?? "") }) {
            let name = entity.name ?? ""
            let table = tables[roots[name] ?? ""] ?? ""
            var own = entity.superentity.flatMap { columns[$0.name ?? ""] } ?? [:]
            for property in entity.properties.sorted(by: { $0.name < $1.name }) where own[property.name] == nil {
                let type: String
                if let attribute = property as? NSAttributeDescription {
                    if attribute.isTransient { continue }
                    type = try Self.columnType(of: attribute)
                } else if let relationship = property as? NSRelationshipDescription, !relationship.isToMany {
                    type = "bigint"
                } else {
                    continue
                }
                var column = "Z" + property.name.uppercased()
                if taken[table]?.contains(column) == true { column += String(numbers[name] ?? 0) }
                taken[table, default: []].insert(column)
                own[property.name] = Column(name: column, type: type)
                tableColumns[table, default: []].append(Column(name: column, type: type))
                if property is NSRelationshipDescription {
                    foreignKeys[table, default: []].append(column)
                    // The destination's entity number, kept beside its key.
                    let entityColumn = Column(name: column + "_ENT", type: "integer")
                    own[property.name + "#entity"] = entityColumn
                    tableColumns[table, default: []].append(entityColumn)
                }
            }
            columns[name] = own
        }
        self.foreignKeys = foreignKeys
        self.columns = columns
        self.tableColumns = tableColumns

        var joins: [String: JoinTable] = [:]
        var all: [JoinTable] = []
        for entity in entities {
            let name = entity.name ?? ""
            for relationship in entity.relationshipsByName.values.sorted(by: { $0.name < $1.name })
            where relationship.isToMany && relationship.entity === entity {
                if relationship.isOrdered {
                    // Kept without its order, it would come back changed: refused until order columns exist.
                    throw NSError(
                        domain: NSCocoaErrorDomain, code: NSPersistentStoreIncompatibleSchemaError,
                        userInfo: [
                            NSLocalizedDescriptionKey:
                                "The PostgreSQL store cannot keep the ordered relationship \(name).\(relationship.name) yet."
                        ])
                }
                let key = name + "." + relationship.name
                guard joins[key] == nil else { continue }
                let inverse = relationship.inverseRelationship
                if let inverse, !inverse.isToMany { continue }
                let destination = relationship.destinationEntity?.name ?? ""
                let sourceNumber = numbers[name] ?? 0
                let destinationNumber = numbers[destination] ?? 0
                var table = JoinTable(
                    name: "Z_\(sourceNumber)\(relationship.name.uppercased())",
                    sourceColumn: "Z_\(sourceNumber)\((inverse?.name ?? name).uppercased())",
                    destinationColumn: "Z_\(destinationNumber)\(relationship.name.uppercased())",
                    forward: true, sourceEntity: name, destinationEntity: destination)
                if table.sourceColumn == table.destinationColumn { table.destinationColumn += "_DESTINATION" }
                joins[key] = table
                all.append(table)
                if let inverse, inverse !== relationship, let inverseOwner = inverse.entity.name {
                    var reversed = table
                    swap(&reversed.sourceColumn, &reversed.destinationColumn)
                    swap(&reversed.sourceEntity, &reversed.destinationEntity)
                    reversed.forward = false
                    joins[inverseOwner + "." + inverse.name] = reversed
                }
            }
        }
        joinTables = joins
        allJoinTables = all
    }

    /// The PostgreSQL type of an attribute's column; throws for types the store cannot keep.
    static func columnType(of attribute: NSAttributeDescription) throws -> String {
        switch attribute.attributeType {
        case .integer16AttributeType: return "smallint"
        case .integer32AttributeType: return "integer"
        case .integer64AttributeType: return "bigint"
        case .doubleAttributeType: return "double precision"
        case .floatAttributeType: return "real"
        case .decimalAttributeType: return "numeric"
        case .stringAttributeType, .URIAttributeType: return "text"
        case .booleanAttributeType: return "boolean"
        // Seconds since 2001-01-01 UTC, as Core Data keeps dates: no precision is lost.
        case .dateAttributeType: return "double precision"
        case .binaryDataAttributeType: return "bytea"
        case .UUIDAttributeType: return "uuid"
        default:
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreIncompatibleSchemaError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The PostgreSQL store cannot keep the attribute \(attribute.entity.name ?? "").\(attribute.name) of type \(attribute.attributeType.rawValue)."
                ])
        }
    }

    /// The join table of an entity's relationship (declared by it or a superentity), or nil when the
    /// relationship has none.
    func joinTable(_ relationship: String, of entity: NSEntityDescription) -> JoinTable? {
        var current: NSEntityDescription? = entity
        while let next = current {
            if let join = joinTables[(next.name ?? "") + "." + relationship] { return join }
            current = next.superentity
        }
        return nil
    }

    /// A quoted, schema-qualified name.
    func qualified(_ table: String) -> String { "\(Self.quote(schema)).\(Self.quote(table))" }

    /// A quoted identifier.
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The entity's table, quoted and qualified.
    func table(of entity: NSEntityDescription) -> String {
        qualified(tables[roots[entity.name ?? ""] ?? ""] ?? "")
    }

    /// The names of the entity and its subentities, deepest included.
    static func hierarchy(of entity: NSEntityDescription) -> [NSEntityDescription] {
        var all = [entity]
        var pending = entity.subentities
        while let next = pending.popLast() {
            all.append(next)
            pending += next.subentities
        }
        return all
    }

    /// The statements that create the layout (in a new transaction holding the schema's lock).
    func creationStatements() -> [String] {
        var statements = ["CREATE SCHEMA IF NOT EXISTS \(Self.quote(schema))"]
        for table in tables.values.sorted() {
            var definitions = ["\"Z_PK\" bigint PRIMARY KEY", "\"Z_ENT\" integer NOT NULL", "\"Z_OPT\" integer NOT NULL"]
            for column in tableColumns[table] ?? [] { definitions.append("\(Self.quote(column.name)) \(column.type)") }
            statements.append("CREATE TABLE \(qualified(table)) (\(definitions.joined(separator: ", ")))")
            statements.append("CREATE INDEX ON \(qualified(table)) (\"Z_ENT\")")
            for column in foreignKeys[table] ?? [] {
                statements.append("CREATE INDEX ON \(qualified(table)) (\(Self.quote(column)))")
            }
        }
        for join in allJoinTables {
            statements.append(
                "CREATE TABLE \(qualified(join.name)) (\(Self.quote(join.sourceColumn)) bigint NOT NULL, \(Self.quote(join.destinationColumn)) bigint NOT NULL, PRIMARY KEY (\(Self.quote(join.sourceColumn)), \(Self.quote(join.destinationColumn))))"
            )
            statements.append("CREATE INDEX ON \(qualified(join.name)) (\(Self.quote(join.destinationColumn)))")
        }
        statements.append(
            "CREATE TABLE \(qualified("Z_PRIMARYKEY")) (\"Z_ENT\" integer PRIMARY KEY, \"Z_NAME\" text NOT NULL, \"Z_SUPER\" integer NOT NULL, \"Z_MAX\" bigint NOT NULL)"
        )
        statements.append(
            "CREATE TABLE \(qualified("Z_METADATA")) (\"Z_VERSION\" integer PRIMARY KEY, \"Z_UUID\" text NOT NULL, \"Z_PLIST\" bytea NOT NULL)")
        return statements
    }
}

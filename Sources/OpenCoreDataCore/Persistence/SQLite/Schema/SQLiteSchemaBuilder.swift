/// Computes a `SQLiteSchema`: entity numbers, entity tables and their columns. Relationships stored
/// outside the source row and indexes are added by the extensions in the neighbouring files.
struct SQLiteSchemaBuilder {
    /// The entities being laid out, in entity-number order.
    var ordered: [NSEntityDescription] = []
    /// Entity number by entity identity.
    var numbers: [ObjectIdentifier: Int] = [:]
    /// The entities being laid out, by identity (to test membership).
    var members: Set<ObjectIdentifier> = []
    /// The columns of each entity table, by root entity number, in the order they were named.
    var tableColumns: [Int: [SQLiteColumn]] = [:]
    /// Names used in each entity table, by root entity number.
    var usedNames: [Int: Set<String>] = [:]
    /// Attribute columns each entity declares itself (path → column), by entity number.
    var ownAttributeColumns: [Int: [String: String]] = [:]
    /// The storage of the relationships each entity declares itself, by entity number.
    var ownRelationships: [Int: [String: SQLiteRelationshipStorage]] = [:]
    /// The join tables, by name.
    var joinTables: [String: SQLiteTable] = [:]
    /// The indexes computed so far.
    var indexes: [SQLiteIndex] = []

    /// Numbers the entities of the configuration: root entities sorted by name, each followed by its
    /// subentities sorted by name, recursively (a pre-order walk), from 1.
    ///
    /// Verified against Apple-written stores: CoreDataPlus (Car 1, SportCar 2, ExpensiveSportCar 3,
    /// Person 4), the Bear dump in STORE-FORMAT.md §3 (SFNoteFile 7 followed by its subentities 8–10
    /// before SFNoteFileServerData 11), and the single-level stores here.
    init(model: NSManagedObjectModel, configurationName: String?) throws {
        guard let entities = model.entities(forConfigurationName: configurationName) else {
            throw _sqliteSchemaError("the model has no configuration named \"\(configurationName ?? "")\"")
        }
        for entity in entities {
            guard entity.name?.isEmpty == false else {
                throw _sqliteSchemaError("an entity has no name")
            }
            members.insert(ObjectIdentifier(entity))
        }
        let roots = entities.filter { entity in
            entity.superentity.map { !members.contains(ObjectIdentifier($0)) } ?? true
        }
        var stack = Self.sortedByName(roots).reversed().map { $0 }
        while let entity = stack.popLast() {
            ordered.append(entity)
            numbers[ObjectIdentifier(entity)] = ordered.count
            let children = entity.subentities.filter { members.contains(ObjectIdentifier($0)) }
            stack.append(contentsOf: Self.sortedByName(children).reversed())
        }
    }

    /// Entities sorted by name, byte-wise (Core Data's order for the names seen in real stores).
    static func sortedByName(_ entities: [NSEntityDescription]) -> [NSEntityDescription] {
        entities.sorted { Array(($0.name ?? "").utf8).lexicographicallyPrecedes(Array(($1.name ?? "").utf8)) }
    }

    /// The entity number of a member entity.
    func number(of entity: NSEntityDescription) -> Int {
        numbers[ObjectIdentifier(entity)] ?? 0
    }

    /// The root of a member entity's inheritance tree within the configuration.
    func root(of entity: NSEntityDescription) -> NSEntityDescription {
        var current = entity
        while let parent = current.superentity, members.contains(ObjectIdentifier(parent)) {
            current = parent
        }
        return current
    }

    /// The name of the table of a member entity's inheritance tree: `Z` + the root's name upper-cased.
    func tableName(of entity: NSEntityDescription) -> String {
        "Z" + (root(of: entity).name ?? "").uppercased()
    }

    /// Whether a member entity has subentities in the configuration.
    func hasSubentities(_ entity: NSEntityDescription) -> Bool {
        entity.subentities.contains { members.contains(ObjectIdentifier($0)) }
    }

    /// The name of an entity (entities being laid out always have one).
    static func name(_ entity: NSEntityDescription) -> String { entity.name ?? "" }

    /// Builds the whole layout.
    mutating func build() throws {
        for entity in ordered where root(of: entity) === entity {
            let rootNumber = number(of: entity)
            tableColumns[rootNumber] = [
                SQLiteColumn(name: "Z_PK", type: .integer, role: .primaryKey),
                SQLiteColumn(name: "Z_ENT", type: .integer, role: .entityNumber),
                SQLiteColumn(name: "Z_OPT", type: .integer, role: .optimisticLock),
            ]
            usedNames[rootNumber] = ["Z_PK", "Z_ENT", "Z_OPT"]
        }
        for entity in ordered {
            try addColumns(of: entity)
        }
        for entity in ordered {
            try addToManyStorage(of: entity)
        }
        try addIndexes()
    }

    /// Adds the columns of the attributes and to-one relationships an entity declares itself to its
    /// tree's table. Attributes come first, by name, then relationships, by name.
    mutating func addColumns(of entity: NSEntityDescription) throws {
        let entityName = Self.name(entity)
        let entityNumber = number(of: entity)
        let rootNumber = number(of: root(of: entity))
        let own = entity.properties.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        var attributeColumns: [String: String] = [:]
        var relationships: [String: SQLiteRelationshipStorage] = [:]
        for property in own where !property.isTransient {
            if let attribute = property as? NSAttributeDescription {
                for (path, base, type) in Self.storedElements(of: attribute, path: attribute.name) {
                    let suffix = freeSuffix(for: [base], in: rootNumber)
                    let column = SQLiteColumn(
                        name: base + suffix, type: type,
                        role: .attribute(entity: entityName, path: path))
                    append(column, to: rootNumber)
                    attributeColumns[path] = column.name
                }
            }
        }
        for property in own where !property.isTransient {
            guard let relationship = property as? NSRelationshipDescription, !relationship.isToMany else { continue }
            guard let destination = relationship.destinationEntity,
                members.contains(ObjectIdentifier(destination))
            else {
                throw _sqliteSchemaError(
                    "the destination of relationship \"\(relationship.name)\" of entity \"\(entityName)\" is not in the configuration")
            }
            let upper = relationship.name.uppercased()
            let foreignKey = "Z" + upper
            let entityColumn = hasSubentities(destination) ? "Z\(number(of: destination))_" + upper : nil
            let inverse = relationship.inverseRelationship
            let orderColumn = (inverse?.isToMany == true && inverse?.isOrdered == true) ? "Z_FOK_" + upper : nil
            let suffix = freeSuffix(for: [foreignKey, entityColumn, orderColumn].compactMap { $0 }, in: rootNumber)
            append(
                SQLiteColumn(
                    name: foreignKey + suffix, type: .integer,
                    role: .foreignKey(entity: entityName, relationship: relationship.name)), to: rootNumber)
            if let entityColumn {
                append(
                    SQLiteColumn(
                        name: entityColumn + suffix, type: .integer,
                        role: .foreignEntity(entity: entityName, relationship: relationship.name)), to: rootNumber)
            }
            if let orderColumn {
                append(
                    SQLiteColumn(
                        name: orderColumn + suffix, type: .integer,
                        role: .orderKey(entity: entityName, relationship: relationship.name)), to: rootNumber)
            }
            relationships[relationship.name] = .foreignKey(
                column: foreignKey + suffix,
                entityColumn: entityColumn.map { $0 + suffix },
                orderColumn: orderColumn.map { $0 + suffix })
        }
        ownAttributeColumns[entityNumber] = attributeColumns
        ownRelationships[entityNumber] = relationships
    }

    /// The stored columns of an attribute as (path, column base name, type): one for a plain attribute,
    /// one per element (recursively) for a composite attribute, none for an undefined one.
    ///
    /// Composite elements are named `Z<COMPOSITE>_<ELEMENT>`: OpenCoreData's choice, no Apple-written
    /// store with a composite attribute was available.
    static func storedElements(of attribute: NSAttributeDescription, path: String) -> [(String, String, SQLiteColumnType)] {
        if let composite = attribute as? NSCompositeAttributeDescription {
            return composite.elements.flatMap { element in
                storedElements(of: element, path: path + "." + element.name)
            }
        }
        guard let type = SQLiteColumnType.forAttributeType(attribute.attributeType) else { return [] }
        let base = "Z" + path.split(separator: ".").map { $0.uppercased() }.joined(separator: "_")
        return [(path, base, type)]
    }

    /// The collision suffix for a property's columns: "" when every base name is free in the table,
    /// otherwise the smallest number that frees them all (`ZHEIGHT1`, `Z6_FOLDER1`). The entity that
    /// comes first in entity-number order keeps the bare name (Bear `ZHEIGHT`/`ZHEIGHT1`; the order
    /// is inferred).
    func freeSuffix(for bases: [String], in rootNumber: Int) -> String {
        let used = usedNames[rootNumber] ?? []
        var counter = 0
        while true {
            let suffix = counter == 0 ? "" : String(counter)
            if bases.allSatisfy({ !used.contains($0 + suffix) }) { return suffix }
            counter += 1
        }
    }

    /// Appends a column to an entity table.
    mutating func append(_ column: SQLiteColumn, to rootNumber: Int) {
        tableColumns[rootNumber, default: []].append(column)
        usedNames[rootNumber, default: []].insert(column.name)
    }

    /// The entity tables, in root-number order, columns grouped by declared type as Core Data groups
    /// them (INTEGER, FLOAT, TIMESTAMP, DECIMAL, VARCHAR, BLOB; `Z_PK`, `Z_ENT`, `Z_OPT` first).
    func tables() -> [SQLiteTable] {
        var result: [SQLiteTable] = []
        for entity in ordered where root(of: entity) === entity {
            let columns = tableColumns[number(of: entity)] ?? []
            let fixed = Array(columns.prefix(3))
            let rest = columns.dropFirst(3).enumerated().sorted { lhs, rhs in
                (lhs.element.type.groupRank, lhs.offset) < (rhs.element.type.groupRank, rhs.offset)
            }.map(\.element)
            result.append(SQLiteTable(name: tableName(of: entity), columns: fixed + rest, compositePrimaryKey: []))
        }
        return result + joinTables.keys.sorted().compactMap { joinTables[$0] }
    }

    /// The layout of each entity, inherited attributes and relationships included.
    func layouts() -> [SQLiteEntityLayout] {
        ordered.map { entity in
            var attributes: [String: String] = [:]
            var relationships: [String: SQLiteRelationshipStorage] = [:]
            var chain: [NSEntityDescription] = []
            var current: NSEntityDescription? = entity
            while let next = current, members.contains(ObjectIdentifier(next)) {
                chain.append(next)
                current = next.superentity
            }
            for ancestor in chain.reversed() {
                attributes.merge(ownAttributeColumns[number(of: ancestor)] ?? [:]) { _, new in new }
                relationships.merge(ownRelationships[number(of: ancestor)] ?? [:]) { _, new in new }
            }
            var descendants: [Int] = []
            var stack = [entity]
            while let next = stack.popLast() {
                descendants.append(number(of: next))
                stack.append(contentsOf: next.subentities.filter { members.contains(ObjectIdentifier($0)) })
            }
            let superNumber = entity.superentity.map { members.contains(ObjectIdentifier($0)) ? number(of: $0) : 0 } ?? 0
            return SQLiteEntityLayout(
                name: Self.name(entity), number: number(of: entity), superNumber: superNumber,
                rootNumber: number(of: root(of: entity)), table: tableName(of: entity),
                numbersIncludingSubentities: descendants.sorted(),
                attributeColumns: attributes, relationships: relationships)
        }
    }
}

import GRDB

/// What a lightweight migration does to a SQLite store when it can run in place with `ALTER TABLE`,
/// without copying rows: tables renamed, created and dropped, columns renamed (`RENAME COLUMN`),
/// added (`ADD COLUMN`, then filled with their default value) and dropped (`DROP COLUMN`), entity
/// numbers rewritten, indexes created and dropped.
///
/// The plan exists only when every row keeps its table and primary key and every kept value keeps
/// its column type: no change of hierarchy, of column type, of relationship storage (to-one ↔
/// to-many), no relationship becoming ordered, no attribute becoming required. Anything else is
/// left to the copy-tables migration, and ``SQLiteAlterTablePlan/make(_:)`` says why.
struct SQLiteAlterTablePlan {
    /// A column the destination layout has and the source layout had under another name or not at all.
    struct ColumnChanges {
        /// Source column → destination column, for kept columns whose name changes.
        var renamed: [(from: String, to: String)] = []
        /// New columns, created empty.
        var added: [SQLiteColumn] = []
        /// Source columns no destination column comes from.
        var dropped: [String] = []
    }

    /// A default value written into a new column for the rows of some entities.
    struct DefaultFill {
        let table: String
        let column: String
        let value: DatabaseValue
        let entityNumbers: [Int]
    }

    /// Source table → destination table, for kept tables (renamed or not).
    var keptTables: [(source: String, destination: String)] = []
    /// Source tables whose rows go nowhere.
    var droppedTables: [String] = []
    /// Destination tables that have no source and are created empty.
    var createdTables: [SQLiteTable] = []
    /// Column changes by destination table.
    var columns: [String: ColumnChanges] = [:]
    /// Default values of new columns.
    var defaults: [DefaultFill] = []
    /// Source entity number → destination entity number, where they differ.
    var renumbered: [Int: Int] = [:]
    /// Destination tables holding rows whose entity number changes.
    var renumberedTables: [String] = []
    /// `(table, column)` of foreign-key entity columns (`Z…_ENT`) whose values follow `renumbered`.
    var entityColumns: [(table: String, column: String)] = []

    /// Whether `ALTER TABLE … RENAME COLUMN` (SQLite 3.25) is needed.
    var renamesColumns: Bool { columns.values.contains { !$0.renamed.isEmpty } }
    /// Whether `ALTER TABLE … DROP COLUMN` (SQLite 3.35) is needed.
    var dropsColumns: Bool { columns.values.contains { !$0.dropped.isEmpty } }

    /// Why a migration cannot run in place.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// The in-place plan for a migration plan, or the reason the rows must be copied.
    static func make(_ plan: SQLiteMigrationPlan) -> Result<SQLiteAlterTablePlan, Refusal> {
        var builder = Builder(plan: plan)
        do {
            try builder.build()
            return .success(builder.result)
        } catch let refusal as Refusal {
            return .failure(refusal)
        } catch {
            return .failure(Refusal(description: "\(error)"))
        }
    }

    /// Computes the plan, throwing a ``Refusal`` at the first change that needs copying.
    private struct Builder {
        let plan: SQLiteMigrationPlan
        var result = SQLiteAlterTablePlan()
        /// Destination table → source table.
        var sourceTable: [String: String] = [:]
        /// Source table → destination table.
        var destinationTable: [String: String] = [:]
        /// Destination table → destination column → source column (`nil`: a new column).
        var sourceColumn: [String: [String: String?]] = [:]

        init(plan: SQLiteMigrationPlan) { self.plan = plan }

        mutating func build() throws {
            let source = plan.sourceSchema
            let destination = plan.destinationSchema
            var numbers: [Int: Int] = [:]
            for entity in plan.entities {
                try pair(entity.sourceLayout.table, entity.destinationLayout.table)
                if let other = numbers[entity.sourceLayout.number], other != entity.destinationLayout.number {
                    throw Refusal(description: "the rows of \(entity.sourceLayout.name) go to two entities")
                }
                numbers[entity.sourceLayout.number] = entity.destinationLayout.number
                if entity.sourceLayout.number != entity.destinationLayout.number {
                    result.renumbered[entity.sourceLayout.number] = entity.destinationLayout.number
                }
            }
            let mappedSources = Set(plan.entities.map(\.sourceLayout.name))
            for layout in source.entities where destinationTable[layout.table] != nil && !mappedSources.contains(layout.name) {
                throw Refusal(description: "the rows of \(layout.name) are removed from \(layout.table)")
            }
            for entity in plan.entities {
                try attributes(of: entity)
                try relationships(of: entity)
            }
            for layout in destination.entities where plan.entitiesByDestination[layout.name] == nil {
                newEntity(layout)
            }
            let renumberedSources = Set(result.renumbered.keys)
            for (destinationName, sourceName) in sourceTable.sorted(by: { $0.key < $1.key }) {
                let isEntityTable = source.entities.contains { $0.table == sourceName }
                if isEntityTable, source.entities.contains(where: { $0.table == sourceName && renumberedSources.contains($0.number) }) {
                    result.renumberedTables.append(destinationName)
                }
                result.keptTables.append((sourceName, destinationName))
            }
            for table in destination.tables {
                guard let sourceName = sourceTable[table.name] else {
                    result.createdTables.append(table)
                    continue
                }
                guard let old = source.table(named: sourceName) else {
                    throw Refusal(description: "the source table \(sourceName) is not in the source layout")
                }
                try columns(of: table, from: old)
            }
            for table in source.tables where destinationTable[table.name] == nil {
                result.droppedTables.append(table.name)
            }
        }

        /// Records that the rows of a source table stay, in a destination table.
        mutating func pair(_ source: String, _ destination: String) throws {
            if let other = sourceTable[destination], other != source {
                throw Refusal(description: "the rows of \(other) and \(source) land in one table \(destination)")
            }
            if let other = destinationTable[source], other != destination {
                throw Refusal(description: "the rows of \(source) are split between \(other) and \(destination)")
            }
            sourceTable[destination] = source
            destinationTable[source] = destination
        }

        /// Records where a destination column's values come from.
        mutating func claim(_ table: String, _ column: String, from old: String?) throws {
            if let existing = sourceColumn[table]?[column], existing != old {
                throw Refusal(description: "the column \(table).\(column) would come from two places")
            }
            sourceColumn[table, default: [:]][column] = .some(old)
        }

        /// Marks the columns of an entity that has no rows yet as new, where no other entity of its
        /// table brings them.
        mutating func newEntity(_ layout: SQLiteEntityLayout) {
            func claimNew(_ table: String, _ column: String) {
                if sourceColumn[table]?[column] == nil { sourceColumn[table, default: [:]][column] = .some(nil) }
            }
            for column in layout.attributeColumns.values { claimNew(layout.table, column) }
            for storage in layout.relationships.values {
                switch storage {
                case let .foreignKey(column, entityColumn, order):
                    for name in [column, entityColumn, order].compactMap({ $0 }) { claimNew(layout.table, name) }
                case let .joinTable(table, sourceColumn, destinationColumn, order):
                    for name in [sourceColumn, destinationColumn, order].compactMap({ $0 }) { claimNew(table, name) }
                case .inverseForeignKey:
                    break
                }
            }
        }

        mutating func attributes(of entity: SQLiteMigrationPlan.EntityPlan) throws {
            let layout = entity.destinationLayout
            for (path, column) in layout.attributeColumns.sorted(by: { $0.key < $1.key }) {
                let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
                let isPlain = parts.count == 1
                let attribute = entity.destination.attributesByName[parts[0]]
                if let sourceName = entity.attributes[parts[0]],
                    let old = entity.sourceLayout.attributeColumns[isPlain ? sourceName : sourceName + "." + parts[1]]
                {
                    let sourceAttribute = entity.source.attributesByName[sourceName]
                    if isPlain, attribute?.isOptional == false, sourceAttribute?.isOptional != false {
                        throw Refusal(description: "\(layout.name).\(path) becomes required")
                    }
                    try claim(layout.table, column, from: old)
                    continue
                }
                let value = isPlain ? attribute?.defaultValue : nil
                if isPlain, attribute?.isOptional == false, value == nil {
                    throw Refusal(description: "the new required attribute \(layout.name).\(path) has no default value")
                }
                try claim(layout.table, column, from: nil)
                if let value {
                    let encoded = SQLiteValueEncoding.databaseValue(for: value, attributeType: attribute?.attributeType ?? .undefinedAttributeType)
                    result.defaults.append(DefaultFill(table: layout.table, column: column, value: encoded, entityNumbers: [layout.number]))
                }
            }
        }

        mutating func relationships(of entity: SQLiteMigrationPlan.EntityPlan) throws {
            let layout = entity.destinationLayout
            for (name, storage) in layout.relationships.sorted(by: { $0.key < $1.key }) {
                guard let relationship = entity.destination.relationshipsByName[name] else { continue }
                let oldName = entity.relationships[name]
                let old = oldName.flatMap { entity.source.relationshipsByName[$0] }
                let oldStorage = oldName.flatMap { entity.sourceLayout.relationships[$0] }
                if let old, let target = relationship.destinationEntity?.name, let oldTarget = old.destinationEntity?.name {
                    guard let targetTable = plan.destinationSchema.entity(named: target)?.table,
                        let oldTargetTable = plan.sourceSchema.entity(named: oldTarget)?.table,
                        destinationTable[oldTargetTable] == targetTable
                    else {
                        throw Refusal(description: "the relationship \(layout.name).\(name) leads to rows of another table")
                    }
                }
                switch (storage, oldStorage) {
                case let (.foreignKey(column, entityColumn, order), nil):
                    try claim(layout.table, column, from: nil)
                    if let entityColumn { try claim(layout.table, entityColumn, from: nil) }
                    if let order { try claim(layout.table, order, from: nil) }
                case let (.foreignKey(column, entityColumn, order), .foreignKey(oldColumn, oldEntityColumn, oldOrder)?):
                    try claim(layout.table, column, from: oldColumn)
                    switch (entityColumn, oldEntityColumn) {
                    case let (entityColumn?, oldEntityColumn?):
                        try claim(layout.table, entityColumn, from: oldEntityColumn)
                        if !result.entityColumns.contains(where: { $0 == (layout.table, entityColumn) }) {
                            result.entityColumns.append((layout.table, entityColumn))
                        }
                    case (nil, _): break
                    case (_?, nil): throw Refusal(description: "\(layout.name).\(name) now records the entity of its destination")
                    }
                    switch (order, oldOrder) {
                    case let (order?, oldOrder?): try claim(layout.table, order, from: oldOrder)
                    case (nil, _): break
                    case (_?, nil): throw Refusal(description: "the inverse of \(layout.name).\(name) becomes ordered")
                    }
                case (.inverseForeignKey, nil):
                    break
                case let (.inverseForeignKey(_, _, order), .inverseForeignKey(_, _, oldOrder)?):
                    if order != nil && oldOrder == nil {
                        throw Refusal(description: "\(layout.name).\(name) becomes ordered")
                    }
                case let (.joinTable(table, sourceColumn, destinationColumn, order), nil):
                    if let inverse = relationship.inverseRelationship, let owner = inverse.entity.name,
                        plan.entitiesByDestination[owner]?.relationships[inverse.name] != nil
                    {
                        throw Refusal(description: "\(layout.name).\(name) is stored in a new join table filled from \(owner).\(inverse.name)")
                    }
                    try claim(table, sourceColumn, from: nil)
                    try claim(table, destinationColumn, from: nil)
                    if let order { try claim(table, order, from: nil) }
                case let (
                    .joinTable(table, sourceColumn, destinationColumn, order),
                    .joinTable(oldTable, oldSourceColumn, oldDestinationColumn, oldOrder)?
                ):
                    try pair(oldTable, table)
                    try claim(table, sourceColumn, from: oldSourceColumn)
                    try claim(table, destinationColumn, from: oldDestinationColumn)
                    switch (order, oldOrder) {
                    case let (order?, oldOrder?): try claim(table, order, from: oldOrder)
                    case (nil, _): break
                    case (_?, nil): throw Refusal(description: "\(layout.name).\(name) becomes ordered")
                    }
                default:
                    throw Refusal(description: "\(layout.name).\(name) changes storage (to-one, to-many or many-to-many)")
                }
            }
        }

        /// The column changes of one kept table.
        mutating func columns(of table: SQLiteTable, from old: SQLiteTable) throws {
            let fixed: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            var changes = ColumnChanges()
            var used: Set<String> = []
            let claims = sourceColumn[table.name] ?? [:]
            for column in table.columns {
                if table.compositePrimaryKey.isEmpty, fixed.contains(column.name) {
                    guard old.column(named: column.name) != nil else {
                        throw Refusal(description: "the source table \(old.name) lacks \(column.name)")
                    }
                    used.insert(column.name)
                    continue
                }
                guard let claimed = claims[column.name] else {
                    throw Refusal(description: "nothing says where \(table.name).\(column.name) comes from")
                }
                guard let oldName = claimed else {
                    changes.added.append(column)
                    continue
                }
                guard let oldColumn = old.column(named: oldName) else {
                    throw Refusal(description: "the source table \(old.name) lacks \(oldName)")
                }
                guard oldColumn.type == column.type else {
                    throw Refusal(description: "\(table.name).\(column.name) changes type from \(oldColumn.type.rawValue) to \(column.type.rawValue)")
                }
                guard used.insert(oldName).inserted else {
                    throw Refusal(description: "\(old.name).\(oldName) would feed two columns")
                }
                if oldName != column.name { changes.renamed.append((oldName, column.name)) }
            }
            changes.dropped = old.columns.map(\.name).filter { !used.contains($0) }
            if !changes.renamed.isEmpty || !changes.added.isEmpty || !changes.dropped.isEmpty {
                result.columns[table.name] = changes
            }
            if table.compositePrimaryKey.count != old.compositePrimaryKey.count {
                throw Refusal(description: "the primary key of \(table.name) changes")
            }
        }
    }
}

import GRDB
import GRDBSQLite

/// The `INSERT` of one entity within one save: every column the entity's attributes and to-one
/// relationships are stored in, in a fixed order, with one prepared statement reused for every new
/// row of the entity.
///
/// A class: a save uses one plan for every row of its entity, and copying six references per row
/// cost more than binding a number column.
///
/// A value the object does not have is bound as NULL, which is what leaving its column out of the
/// statement stores (Core Data's tables declare no column defaults). Values are converted exactly as
/// ``RowWriter/assignments(for:layout:values:)`` converts them for updates.
final class SQLiteInsertPlan {
    /// How the value of one property reaches its columns.
    enum Item {
        /// A plain attribute stored in one column.
        case attribute(NSAttributeDescription, external: Bool)
        /// A composite attribute or a to-one relationship: converted by the general column assignment,
        /// which gives `columnCount` values.
        case general(columnCount: Int)
    }

    let entity: NSEntityDescription
    let layout: SQLiteEntityLayout
    /// Property names with how each is written, in column order, and the slot of each in `slotLayout`.
    let items: [(name: String, item: Item, slot: Int?)]
    /// The slot layout the slots of `items` refer to: the entity's.
    let slotLayout: PropertySlotLayout
    /// For each item, in order: its slot when it is a plain attribute kept in the database as it is
    /// (not externally), so that a number or an absent value is bound straight from the slot; -1
    /// otherwise. Read instead of `items` on that path: an item's tuple holds references.
    private let directSlots: [Int]
    /// The `INSERT` statement's text.
    let sql: String
    /// The prepared statement (cached by the connection: the text of an entity's `INSERT` never changes).
    let statement: Statement

    /// The plan of an entity: the columns a `nil` value of each property gives are the columns of the
    /// property, so every property's columns are found by converting `nil`.
    init(entity: NSEntityDescription, writer: RowWriter) throws {
        let store = writer.store
        let layout = try store.layout(of: entity)
        var items: [(name: String, item: Item, slot: Int?)] = []
        let slotLayout = entity._slotLayout
        var columns: [String] = []
        let attributes = store.attributes(of: entity)
        let names = Set(attributes.keys).union(store.relationships(of: entity).filter { !$0.value.isToMany }.keys).sorted()
        for name in names {
            let assigned = try writer.assignments(for: entity, layout: layout, values: [name: nil])
            guard !assigned.isEmpty else { continue }
            columns += assigned.map(\.0)
            if let attribute = attributes[name], !(attribute is NSCompositeAttributeDescription), assigned.count == 1 {
                items.append((name, .attribute(attribute, external: ExternalBinaryStorage.applies(to: attribute)), slotLayout.index(of: name)))
            } else {
                items.append((name, .general(columnCount: assigned.count), slotLayout.index(of: name)))
            }
        }
        // Every new row of the entity has its entity number and version 1: written into the statement,
        // they are not bound for each row.
        let columnList = (["Z_PK", "Z_ENT", "Z_OPT"] + columns).joined(separator: ", ")
        let values = (["?", String(layout.number), "1"] + Array(repeating: "?", count: columns.count)).joined(separator: ", ")
        let sql = "INSERT INTO \(layout.table) (\(columnList)) VALUES (\(values))"
        self.entity = entity
        self.layout = layout
        self.items = items
        self.slotLayout = slotLayout
        directSlots = items.map { item in
            guard let slot = item.slot, case .attribute(_, external: false) = item.item else { return -1 }
            return slot
        }
        self.sql = sql
        statement = try writer.db.cachedStatement(sql: sql)
    }

    /// Inserts one row: binds its primary key and values and runs the statement. Integers and doubles
    /// kept unboxed in their slots are bound as they are.
    func insert(primaryKey: Int64, values: PropertyValues, writer: RowWriter) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_bind_int64(handle, 1, primaryKey)
        var index: Int32 = 2
        let bySlot = values.layout === slotLayout
        for position in directSlots.indices {
            let direct = directSlots[position]
            if bySlot, direct >= 0 {
                switch values.slots[direct] {
                case .integer(let integer):
                    sqlite3_bind_int64(handle, index, integer)
                    index += 1
                    continue
                case .double(let double) where !double.isNaN:
                    sqlite3_bind_double(handle, index, double)
                    index += 1
                    continue
                case .absent:
                    sqlite3_bind_null(handle, index)
                    index += 1
                    continue
                default:
                    break
                }
            }
            let (name, item, slot) = items[position]
            let value = bySlot ? slot.flatMap { values.slots[$0].boxed } : values[name]
            switch item {
            case let .attribute(attribute, external):
                let databaseValue: DatabaseValue
                if let value {
                    databaseValue = try writer.columnValue(value, attribute: attribute, external: external, path: name)
                } else {
                    databaseValue = .null
                }
                _ = databaseValue.bind(to: handle, at: index)
                index += 1
            case let .general(columnCount):
                let assigned = try writer.assignments(for: entity, layout: layout, values: [name: value])
                guard assigned.count == columnCount else {
                    throw writer.saveError("The value of \(entity.name ?? "").\(name) does not fit its \(columnCount) columns.")
                }
                for (_, databaseValue) in assigned {
                    _ = databaseValue.bind(to: handle, at: index)
                    index += 1
                }
            }
        }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(writer.db.sqliteConnection))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
        }
    }
}

extension RowWriter {
    /// The column value of one attribute's non-nil value, checked as `assignments` checks it.
    func columnValue(_ value: Any, attribute: NSAttributeDescription, external: Bool, path: String) throws -> DatabaseValue {
        try rejectUnstorable(value, attribute: attribute, path: path)
        do {
            if external { return try externallyStorableValue(value, attribute: attribute) }
            return try SQLiteStoreValues.databaseValue(for: value, attribute: attribute)
        } catch let error as TransformableStorage.Failure {
            throw saveError(error.message)
        }
    }
}

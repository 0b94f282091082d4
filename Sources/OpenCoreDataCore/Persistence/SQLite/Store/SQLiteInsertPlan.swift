import GRDB
import GRDBSQLite

/// The `INSERT` of one entity within one save: every column the entity's attributes and to-one
/// relationships are stored in, in a fixed order, with prepared statements reused for every new row of
/// the entity.
///
/// New rows are inserted up to ``rowsPerStatement`` at a time, by one statement with that many rows in
/// its `VALUES` clause: SQLite's work of starting and ending a statement (resetting it, opening and
/// closing the table's cursor, its memory, the connection's mutex) is then paid once for those rows
/// instead of once for each. A run of fewer rows takes the largest statement that fits in it, down to the
/// statement of one row.
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
    /// The columns after `Z_PK` in the `INSERT`'s column list: `Z_ENT`, `Z_OPT` and the entity's.
    private let columnsAfterKey: String
    /// A row's values after its primary key in the `VALUES` clause: the entity number and version 1,
    /// written in, and a parameter for each column.
    private let valuesAfterKey: String
    /// The most rows one statement inserts: ``maximumRowsPerStatement``, or fewer when the
    /// connection allows fewer bound parameters in one statement.
    let rowsPerStatement: Int
    /// The row counts there are statements for, largest first: ``rowsPerStatement``, then the powers of
    /// four below it, down to one.
    private let rowCounts: [Int]
    /// The prepared statement of each count in `rowCounts`, position by position, prepared when first
    /// used (and cached by the connection: the text of an entity's `INSERT` never changes).
    private var statements: [Statement?]
    /// The `INSERT` of ``rowsPerStatement`` rows without their primary keys, which SQLite then assigns
    /// (see ``SQLiteTableKeys``); prepared when first used.
    private var statementAssigningKeys: Statement?

    /// The most rows a plan inserts with one statement. Sixty-four rows take most of what inserting in
    /// one statement saves (measured: 10 rows save about four fifths of 64's, 200 rows little more) and
    /// keep a statement's text a few kilobytes long.
    static let maximumRowsPerStatement = 64

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
        columnsAfterKey = (["Z_ENT", "Z_OPT"] + columns).joined(separator: ", ")
        valuesAfterKey = ([String(layout.number), "1"] + Array(repeating: "?", count: columns.count)).joined(separator: ", ")
        // Bound for each row: its primary key and one value per column.
        let parametersPerRow = 1 + columns.count
        let parameterLimit = Int(sqlite3_limit(writer.db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        rowsPerStatement = max(1, min(Self.maximumRowsPerStatement, parameterLimit / parametersPerRow))
        var rowCounts = [rowsPerStatement]
        var power = 1
        while power * 4 < rowsPerStatement { power *= 4 }
        while power >= 1 {
            if power < rowsPerStatement { rowCounts.append(power) }
            power /= 4
        }
        self.rowCounts = rowCounts
        statements = Array(repeating: nil, count: rowCounts.count)
        self.entity = entity
        self.layout = layout
        self.items = items
        self.slotLayout = slotLayout
        directSlots = items.map { item in
            guard let slot = item.slot, case .attribute(_, external: false) = item.item else { return -1 }
            return slot
        }
    }

    /// The text of the statement inserting `rows` rows, with their primary keys or leaving them to SQLite.
    private func sql(rows: Int, withKeys: Bool) -> String {
        let columns = withKeys ? "Z_PK, " + columnsAfterKey : columnsAfterKey
        let row = withKeys ? "(?, \(valuesAfterKey))" : "(\(valuesAfterKey))"
        return "INSERT INTO \(layout.table) (\(columns)) VALUES " + repeatElement(row, count: rows).joined(separator: ", ")
    }

    /// The largest statement inserting at most `rows` rows (at least one), with the number it inserts.
    private func statement(forAtMost rows: Int, writer: RowWriter) throws -> (rows: Int, statement: Statement) {
        // `rowCounts` ends with 1: a count that fits is always found.
        let position = rowCounts.firstIndex { $0 <= rows } ?? rowCounts.count - 1
        if let statement = statements[position] { return (rowCounts[position], statement) }
        let statement = try writer.db.cachedStatement(sql: sql(rows: rowCounts[position], withKeys: true))
        statements[position] = statement
        return (rowCounts[position], statement)
    }

    /// Inserts new rows of the entity, in order: each the primary key `row.key` and the values of
    /// `inserts[row.position]`. Integers and doubles kept unboxed in their slots are bound as they are.
    ///
    /// `tableKeys` is what the save knows of the keys of the entity's table, read when a statement of
    /// ``rowsPerStatement`` rows is first about to run: a full statement whose keys follow the table's
    /// largest key one by one is inserted without them, and SQLite assigns the same keys.
    func insert(
        _ rows: UnsafeBufferPointer<(position: Int, key: Int64)>, of inserts: [StoreSaveChanges.Insert],
        tableKeys: inout SQLiteTableKeys?, writer: RowWriter
    ) throws {
        var next = 0
        while next < rows.count {
            if rows.count - next >= rowsPerStatement, rowsPerStatement > 1 {
                if tableKeys == nil { tableKeys = try SQLiteTableKeys(table: layout.table, db: writer.db) }
                let chunk = rows[next..<(next + rowsPerStatement)]
                if tableKeys!.keysAreRowIDs, tableKeys!.keysFollow(chunk) {
                    try insertAssigningKeys(chunk, of: inserts, tableKeys: &tableKeys!, writer: writer)
                    next += rowsPerStatement
                    continue
                }
            }
            let (count, statement) = try statement(forAtMost: rows.count - next, writer: writer)
            let chunk = rows[next..<(next + count)]
            try execute(statement, binding: chunk, withKeys: true, of: inserts, writer: writer)
            if tableKeys != nil {
                for row in chunk where row.key > tableKeys!.maximum { tableKeys!.maximum = row.key }
            }
            next += count
        }
    }

    /// Inserts a full statement of rows without their keys, which SQLite assigns: one more than the
    /// table's largest for each row. Checks that the last row got the key it was allocated (a trigger
    /// inserting into the table would shift them), and once a table that the rowid is the key.
    private func insertAssigningKeys(
        _ rows: UnsafeBufferPointer<(position: Int, key: Int64)>.SubSequence,
        of inserts: [StoreSaveChanges.Insert], tableKeys: inout SQLiteTableKeys,
        writer: RowWriter
    ) throws {
        let statement: Statement
        if let prepared = statementAssigningKeys {
            statement = prepared
        } else {
            statement = try writer.db.cachedStatement(sql: sql(rows: rowsPerStatement, withKeys: false))
            statementAssigningKeys = statement
        }
        try execute(statement, binding: rows, withKeys: false, of: inserts, writer: writer)
        let last = rows[rows.endIndex - 1].key
        if sqlite3_last_insert_rowid(writer.db.sqliteConnection) != last {
            throw writer.saveError(
                "New rows of \(layout.table) did not get the primary keys allocated for them "
                    + "(another insert into the table ran meanwhile, from a trigger?).")
        }
        if !tableKeys.checkedAssignedKey {
            let stored = try Int64.fetchOne(writer.db, sql: "SELECT Z_PK FROM \(layout.table) WHERE rowid = ?", arguments: [last])
            guard stored == last else {
                throw writer.saveError("The table \(layout.table) does not keep Z_PK as its rowid.")
            }
            tableKeys.checkedAssignedKey = true
        }
        tableKeys.maximum = last
    }

    /// Binds `rows` (with their keys or without) to `statement`, which inserts that many, and runs it.
    private func execute(
        _ statement: Statement, binding rows: UnsafeBufferPointer<(position: Int, key: Int64)>.SubSequence,
        withKeys: Bool, of inserts: [StoreSaveChanges.Insert], writer: RowWriter
    ) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        var index: Int32 = 1
        // The inserts' buffer, read directly for the whole pass.
        try inserts.withUnsafeBufferPointer { inserts in
            for offset in rows.indices {
                // The values of the row a few ahead, which left the caches since they were set.
                let ahead = offset &+ PassPrefetch.distance
                if ahead < rows.endIndex { inserts[rows[ahead].position].values.slots.prefetchForReading() }
                let row = rows[offset]
                if withKeys {
                    sqlite3_bind_int64(handle, index, row.key)
                    index += 1
                }
                index = try bind(inserts[row.position].values, to: handle, at: index, writer: writer)
            }
        }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(writer.db.sqliteConnection))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }

    /// Binds one row's column values from `index` on; returns the index after them.
    ///
    /// The values are borrowed, not copied.
    @inline(__always)
    private func bind(_ values: borrowing PropertyValues, to handle: OpaquePointer, at index: Int32, writer: RowWriter) throws -> Int32 {
        var index = index
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
        return index
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

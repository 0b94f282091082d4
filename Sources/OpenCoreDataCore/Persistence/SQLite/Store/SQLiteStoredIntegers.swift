import GRDB

/// A value in one of a store's integer bookkeeping columns — `Z_PK`, `Z_ENT`, `Z_OPT`, a to-one foreign
/// key or its entity column, a join-table key, `Z_PRIMARYKEY`'s numbers — that is not an integer: the
/// store file is damaged.
///
/// Reads throw it from inside a database access; ``SQLiteStoreFileAccess/run(_:_:)`` turns it into an
/// `NSFileReadCorruptFileError` naming the file, the column and the value.
struct SQLiteDamagedValue: Error {
    /// The column, as the statement named it.
    let column: String
    /// The value found there.
    let value: DatabaseValue

    /// What is wrong, for the error message.
    var message: String {
        let found: String
        switch value.storage {
        case .null: found = "NULL"
        case .int64(let v): found = "the integer \(v)"
        case .double(let v): found = "the number \(v)"
        case .string(let s): found = "the text '\(s.count > 40 ? String(s.prefix(40)) + "…" : s)'"
        case .blob(let data): found = "a \(data.count)-byte blob"
        }
        return "its column \(column) holds \(found) where Core Data keeps an integer"
    }

    /// The integer a bookkeeping column holds: `nil` for NULL; an INTEGER, or a REAL with an integral
    /// value in range, as its value; anything else is damage.
    static func integer(_ value: DatabaseValue, column: @autoclosure () -> String) throws -> Int64? {
        switch value.storage {
        case .null:
            return nil
        case .int64(let v):
            return v
        case .double(let v) where v.rounded(.towardZero) == v && v.magnitude < 9.2e18:
            return Int64(v)
        default:
            throw SQLiteDamagedValue(column: column(), value: value)
        }
    }
}

extension Row {
    /// The integer in the bookkeeping column at `index`, `nil` for NULL.
    ///
    /// - Throws: ``SQLiteDamagedValue`` when the column holds anything but an integer.
    func storedInteger(atIndex index: Int) throws -> Int64? {
        try SQLiteDamagedValue.integer(self[index] as DatabaseValue, column: self.columnName(at: index))
    }

    /// The integer in the bookkeeping column at `index`, which may not be NULL.
    ///
    /// - Throws: ``SQLiteDamagedValue`` when the column holds NULL or anything but an integer.
    func requiredStoredInteger(atIndex index: Int) throws -> Int64 {
        guard let value = try storedInteger(atIndex: index) else {
            throw SQLiteDamagedValue(column: columnName(at: index), value: .null)
        }
        return value
    }

    /// The integer in the bookkeeping column named `column`, `nil` for NULL or a column the row lacks.
    ///
    /// - Throws: ``SQLiteDamagedValue`` when the column holds anything but an integer.
    func storedInteger(_ column: String) throws -> Int64? {
        guard let value = self[column] as DatabaseValue? else { return nil }
        return try SQLiteDamagedValue.integer(value, column: column)
    }

    /// The name of the column at `index`, for messages.
    private func columnName(at index: Int) -> String {
        let names = Array(columnNames)
        return names.indices.contains(index) ? names[index] : "#\(index)"
    }
}

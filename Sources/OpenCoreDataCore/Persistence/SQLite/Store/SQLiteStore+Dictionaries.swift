import GRDB

/// Dictionary fetches run by SQLite: one statement, one dictionary per result row.
extension SQLiteStore {
    /// The dictionaries a `.dictionaryResultType` request selects, computed in SQL; `nil` values are left
    /// out of each dictionary, as Core Data leaves them out.
    func fetchStoreDictionaries<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [[String: Any]] {
        guard let compiler = _compiler else { throw _unsupported("fetching before opening") }
        let query: SQLiteDictionaryQuery
        if request.entity === entity {
            query = try compiler.compileDictionaries(request)
        } else {
            guard let copy = request.copy() as? NSFetchRequest<Result> else { throw _unsupported("copying the request") }
            copy._entity = entity
            copy._entityName = entity.name
            query = try compiler.compileDictionaries(copy)
        }
        return try read { db in
            let statement = try db.cachedStatement(sql: query.sql)
            let cursor = try Row.fetchCursor(statement, arguments: query.arguments)
            var results: [[String: Any]] = []
            while let row = try cursor.next() {
                results.append(try dictionary(from: row, columns: query.columns))
            }
            return results
        }
    }

    /// One result row as a dictionary.
    private func dictionary(from row: Row, columns: [SQLiteDictionaryQuery.Column]) throws -> [String: Any] {
        var result: [String: Any] = [:]
        for column in columns {
            let dbValue: DatabaseValue = row[column.index]
            switch column.kind {
            case .attribute(let attribute):
                if let value = try readValue(from: dbValue, attribute: attribute, coordinator: persistentStoreCoordinator) {
                    result[column.key] = value
                }
            case .objectID(let destination, let hasEntityColumn):
                guard let key = try SQLiteDamagedValue.integer(dbValue, column: column.key) else { continue }
                var target = destination
                let entityValue: DatabaseValue = hasEntityColumn ? row[column.index + 1] : .null
                if let number = try SQLiteDamagedValue.integer(entityValue, column: column.key + " (entity)") {
                    target = try entity(number: number)
                }
                result[column.key] = NSManagedObjectID(entity: target, store: self, primaryKey: key)
            case .expression(let type):
                if let value = Self.expressionValue(dbValue, type: type) { result[column.key] = value }
            }
        }
        return result
    }

    /// A computed value converted to an expression description's result type; SQLite's own value
    /// (a number, string or data) for `.undefinedAttributeType`.
    static func expressionValue(_ value: DatabaseValue, type: NSAttributeType) -> Any? {
        switch value.storage {
        case .null:
            return nil
        case .int64(let integer):
            switch type {
            case .doubleAttributeType: return NSNumber(value: Double(integer))
            case .floatAttributeType: return NSNumber(value: Float(integer))
            case .decimalAttributeType: return NSDecimalNumber(value: integer)
            case .undefinedAttributeType: return NSNumber(value: integer)
            default: return SQLiteValueEncoding.value(from: value, attributeType: type) ?? NSNumber(value: integer)
            }
        case .double(let double):
            switch type {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
                guard double.isFinite, abs(double) < 9.2e18 else { return NSNumber(value: double) }
                return SQLiteValueEncoding.value(from: Int64(double.rounded(.towardZero)).databaseValue, attributeType: type)
            case .decimalAttributeType:
                return NSDecimalNumber(string: "\(double)")
            case .undefinedAttributeType:
                return NSNumber(value: double)
            default:
                return SQLiteValueEncoding.value(from: value, attributeType: type) ?? NSNumber(value: double)
            }
        case .string(let string):
            if type == .undefinedAttributeType { return string }
            return SQLiteValueEncoding.value(from: value, attributeType: type) ?? string
        case .blob(let data):
            if type == .undefinedAttributeType { return data }
            return SQLiteValueEncoding.value(from: value, attributeType: type) ?? data
        }
    }
}

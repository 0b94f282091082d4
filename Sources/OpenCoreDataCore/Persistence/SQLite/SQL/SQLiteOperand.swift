import GRDB

/// The kind of value an SQL operand holds, to bind constants compared with it and to refuse comparisons
/// in-memory evaluation would answer differently (a number with a string, a date with a number…).
enum SQLiteValueCategory: Equatable {
    case number, string, date, data, uuid, url, objectURI

    /// The category of the values of an attribute type, `nil` for types without stored values.
    init?(attributeType: NSAttributeType) {
        switch attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
            .decimalAttributeType, .doubleAttributeType, .floatAttributeType:
            self = .number
        case .stringAttributeType: self = .string
        case .dateAttributeType: self = .date
        case .binaryDataAttributeType, .transformableAttributeType: self = .data
        case .UUIDAttributeType: self = .uuid
        case .URIAttributeType: self = .url
        case .objectIDAttributeType: self = .objectURI
        case .undefinedAttributeType, .compositeAttributeType: return nil
        }
    }

    /// The category of a constant value and its encoding for comparison with values of that category,
    /// or `nil` when the value has no SQL form.
    static func encode(_ value: Any) -> (SQLiteValueCategory, DatabaseValue)? {
        if let number = NumericValue(flattened: value) {
            switch number {
            case .integer(let v): return (.number, v.databaseValue)
            case .unsigned(let v): return (.number, Double(v).databaseValue)
            case .double(let v): return (.number, v.databaseValue)
            case .decimal(let v):
                return (
                    .number,
                    SQLiteValueEncoding.databaseValue(
                        for: NSDecimalNumber(decimal: v),
                        attributeType: .decimalAttributeType)
                )
            }
        }
        if let string = ValueComparison.string(value) { return (.string, string.databaseValue) }
        if let date = value as? Date { return (.date, date.timeIntervalSinceReferenceDate.databaseValue) }
        if let uuid = value as? UUID { return (.uuid, SQLiteValueEncoding.uuidBytes(uuid).databaseValue) }
        if let url = value as? URL { return (.url, url.absoluteString.databaseValue) }
        if let data = value as? Data { return (.data, data.databaseValue) }
        return nil
    }
}

/// An operand of a compiled comparison.
enum SQLiteOperand {
    /// A scalar SQL expression; `category` is known for columns and for most computed values.
    case scalar(SQLFragment, category: SQLiteValueCategory?)
    /// An object: an expression giving its `Z_PK` (NULL for no object), of the given declared entity.
    case object(SQLFragment, entity: NSEntityDescription)
    /// A constant, bound once the other side tells how.
    case constant(Any?)
    /// The elements of a to-many relationship or of a `SUBQUERY`.
    case collection(SQLiteCollection)
}

/// The rows of a to-many relationship (optionally filtered by a `SUBQUERY` predicate), as a correlated
/// subquery, and the key path read from each of them.
struct SQLiteCollection {
    /// The scope of the destination rows.
    let scope: SQLiteQueryScope
    /// The table (and join table) the rows come from, before the scope's own joins.
    let source: String
    /// The condition tying the rows to their owner.
    let correlation: String
    /// The `SUBQUERY` predicate, if any.
    var filter: SQLFragment?
    /// The owner's key when the owner is reached through a to-one relationship and may be missing
    /// (`author.posts`): a collection operator then gives NULL, as it gives `nil` in memory, not 0.
    var optionalOwner: String? = nil
    /// The key path components read from each row (empty: the rows themselves).
    let rest: [String]
    /// The expression as written, for error messages.
    let description: String
    /// The column holding the rows' positions when the relationship is ordered (`Z_FOK_…`, qualified by
    /// its table's alias); `nil` for an unordered relationship.
    var order: String? = nil

    /// `SELECT <select> FROM … WHERE <correlation> AND <filter> AND <condition>`, in parentheses.
    func select(_ select: String, where condition: SQLFragment? = nil) -> SQLFragment {
        var conditions = [SQLFragment(correlation)]
        if let filter { conditions.append(filter.parenthesized) }
        if let condition { conditions.append(condition.parenthesized) }
        let from = ([source] + scope.joins).joined(separator: " ")
        return "(SELECT \(select) FROM \(from) WHERE " + SQLFragment.joined(conditions, separator: " AND ") + ")"
    }

    /// `SELECT <select>` of the row at `position` of an ordered relationship: 0 the first, -1 the last;
    /// NULL when there is no such row. `nil` for an unordered relationship.
    func select(_ select: String, at position: Int64) -> SQLFragment? {
        guard let order else { return nil }
        var conditions = [SQLFragment(correlation)]
        if let filter { conditions.append(filter.parenthesized) }
        let from = ([source] + scope.joins).joined(separator: " ")
        let direction = position < 0 ? "DESC" : "ASC"
        let offset = position < 0 ? -(position + 1) : position
        return "(SELECT \(select) FROM \(from) WHERE " + SQLFragment.joined(conditions, separator: " AND ")
            + " ORDER BY \(order) \(direction), \(scope.alias).Z_PK \(direction) LIMIT 1 OFFSET \(offset))"
    }
}

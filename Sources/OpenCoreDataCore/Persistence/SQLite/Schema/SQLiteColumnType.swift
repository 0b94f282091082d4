/// The declared SQL type of a column in a Core Data SQLite store.
///
/// Core Data declares each attribute column with a type name chosen by the attribute type
/// (STORE-FORMAT.md §4). The raw value is the text that appears in `CREATE TABLE`.
enum SQLiteColumnType: String, Sendable, Hashable, CaseIterable {
    /// Integers, Booleans, primary keys, entity numbers, foreign keys and order keys.
    case integer = "INTEGER"
    /// Double and Float attributes.
    case float = "FLOAT"
    /// Date attributes: seconds since 2001-01-01 00:00:00 UTC.
    case timestamp = "TIMESTAMP"
    /// Decimal attributes.
    case decimal = "DECIMAL"
    /// String and URI attributes (and, in OpenCoreData, object ID attributes).
    case varchar = "VARCHAR"
    /// Binary, Transformable and UUID attributes.
    case blob = "BLOB"

    /// The declared type of the column that stores an attribute of the given type, or `nil` when
    /// attributes of that type have no column of their own.
    ///
    /// - Verified against Apple-written stores: Integer 16/64 and Boolean `INTEGER`, Date `TIMESTAMP`,
    ///   String `VARCHAR`, UUID `BLOB` (CoreDataPlus `ZPERSON.ZID`), Transformable `BLOB`
    ///   (CoreDataPlus `ZCAR.ZCOLOR`), Binary `BLOB` (Recipes).
    /// - From public schema dumps, not fixtures here: Double/Float `FLOAT`, Decimal `DECIMAL`,
    ///   URI `VARCHAR`.
    /// - OpenCoreData's choice (no public source shows it): Object ID attributes are stored as their
    ///   URI representation in a `VARCHAR` column. Composite attributes have no column of their own:
    ///   each element gets one (see `SQLiteSchemaBuilder`). Undefined attributes can only be transient.
    static func forAttributeType(_ type: NSAttributeType) -> SQLiteColumnType? {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType:
            return .integer
        case .doubleAttributeType, .floatAttributeType:
            return .float
        case .dateAttributeType:
            return .timestamp
        case .decimalAttributeType:
            return .decimal
        case .stringAttributeType, .URIAttributeType, .objectIDAttributeType:
            return .varchar
        case .binaryDataAttributeType, .transformableAttributeType, .UUIDAttributeType:
            return .blob
        case .undefinedAttributeType, .compositeAttributeType:
            return nil
        }
    }

    /// The position of the type's group of columns in a `CREATE TABLE` statement: Core Data lists
    /// INTEGER columns first, then TIMESTAMP, FLOAT, VARCHAR and BLOB (the Apple-written stores here and
    /// a published Mixed In Key schema: `… ZWAVEFORM INTEGER, ZANALYSISDATE TIMESTAMP, ZENERGY FLOAT, …
    /// ZALBUM VARCHAR, … ZBEATS BLOB`). DECIMAL sits after TIMESTAMP and before VARCHAR in a published
    /// finance schema; its place relative to FLOAT is a guess. The order is cosmetic: readers address
    /// columns by name.
    var groupRank: Int {
        switch self {
        case .integer: return 0
        case .timestamp: return 1
        case .float: return 2
        case .decimal: return 3
        case .varchar: return 4
        case .blob: return 5
        }
    }
}

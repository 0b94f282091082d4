import GRDB

/// How attribute values are stored in the columns of a Core Data SQLite store, and read back.
///
/// Shared by the store's writes and reads and by the fetch compiler's bound values, so that a value
/// bound in a predicate compares with the stored values exactly as stored values compare with each
/// other:
/// - Integer 16/32/64 → INTEGER; Boolean → INTEGER 0/1 (STORE-FORMAT.md §4, §9).
/// - Double, Float → REAL.
/// - Date → REAL seconds since 2001-01-01 00:00:00 UTC (`timeIntervalSinceReferenceDate`).
/// - String → TEXT; URI → TEXT, the URL's absolute string.
/// - UUID → a 16-byte BLOB of the UUID's bytes in order.
/// - Binary Data and Transformable → BLOB of the bytes (a Transformable attribute's value must already
///   be transformed to `Data` by the caller, which knows the attribute's value transformer).
/// - Object ID attributes → TEXT, the ID's URI representation (the column is `VARCHAR`).
/// - Decimal → the `DECIMAL` column has SQLite's numeric affinity, so whatever is written is kept as an
///   INTEGER or a REAL (SQLite itself converts a numeric text to a number in such a column). The store
///   writes an integral decimal that fits 64 bits as INTEGER (exact) and any other as REAL, which keeps
///   15–17 significant digits — Core Data's SQLite store likewise keeps decimals as numbers, so that
///   predicates and sorts compare them numerically in SQL. Reading turns INTEGER, REAL and numeric TEXT
///   back into an `NSDecimalNumber` (a REAL through its shortest decimal spelling, so 0.1 reads as 0.1).
///
/// Values are read back as the canonical Foundation values of `value(forKey:)`: `NSNumber` for
/// integers, Booleans, Double and Float, `NSDecimalNumber`, `String`, `Date`, `Data`, `UUID`, `URL`.
enum SQLiteValueEncoding {
    /// The seconds between the Unix epoch and Core Data's reference date, 2001-01-01 00:00:00 UTC.
    static let referenceDateOffset: Double = 978_307_200

    /// The database value that stores `value` in a column of an attribute of `attributeType`.
    /// `nil` and `NSNull` become NULL; a value that is not of the attribute's type becomes NULL too (the
    /// store validates values before it writes them).
    static func databaseValue(for value: Any?, attributeType: NSAttributeType) -> DatabaseValue {
        guard let value = EvaluationValues.flatten(value) else { return .null }
        switch attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType:
            return integerValue(value)
        case .doubleAttributeType, .floatAttributeType:
            return NumericValue(flattened: value).map { $0.doubleValue.databaseValue } ?? .null
        case .decimalAttributeType:
            return NumericValue(flattened: value).map(decimalStorage) ?? .null
        case .dateAttributeType:
            if let date = value as? Date { return date.timeIntervalSinceReferenceDate.databaseValue }
            return .null
        case .stringAttributeType:
            if let string = value as? String { return string.databaseValue }
            return .null
        case .URIAttributeType:
            if let url = value as? URL { return url.absoluteString.databaseValue }
            if let string = value as? String { return string.databaseValue }
            return .null
        case .UUIDAttributeType:
            if let uuid = value as? UUID { return uuidBytes(uuid).databaseValue }
            return .null
        case .binaryDataAttributeType, .transformableAttributeType:
            if let data = value as? Data { return data.databaseValue }
            return .null
        case .objectIDAttributeType:
            return objectIDAttributeValue(value)
        case .undefinedAttributeType, .compositeAttributeType:
            return .null
        }
    }

    /// The attribute value a database value of a column of an attribute of `attributeType` holds, or
    /// `nil` for NULL and for a stored value that cannot be read as the attribute's type.
    static func value(from databaseValue: DatabaseValue, attributeType: NSAttributeType) -> Any? {
        let storage = databaseValue.storage
        if case .null = storage { return nil }
        switch attributeType {
        case .integer16AttributeType:
            return integer(storage).map { NSNumber(value: Int16(truncatingIfNeeded: $0)) }
        case .integer32AttributeType:
            return integer(storage).map { NSNumber(value: Int32(truncatingIfNeeded: $0)) }
        case .integer64AttributeType:
            return integer(storage).map { NSNumber(value: $0) }
        case .booleanAttributeType:
            return integer(storage).map { NSNumber(value: $0 != 0) }
        case .doubleAttributeType:
            return double(storage).map { NSNumber(value: $0) }
        case .floatAttributeType:
            return double(storage).map { NSNumber(value: Float($0)) }
        case .decimalAttributeType:
            return decimal(storage).map { NSDecimalNumber(decimal: $0) }
        case .dateAttributeType:
            return double(storage).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .stringAttributeType:
            return text(storage)
        case .URIAttributeType:
            return text(storage).flatMap { URL(string: $0) }
        case .UUIDAttributeType:
            if case .blob(let data) = storage, data.count == 16 { return uuid(from: data) }
            if case .string(let string) = storage { return UUID(uuidString: string) }
            return nil
        case .binaryDataAttributeType, .transformableAttributeType:
            if case .blob(let data) = storage { return data }
            if case .string(let string) = storage { return Data(string.utf8) }
            return nil
        case .objectIDAttributeType:
            return text(storage).flatMap { URL(string: $0) }
        case .undefinedAttributeType, .compositeAttributeType:
            return nil
        }
    }

    /// The 16 bytes of a UUID, in order.
    static func uuidBytes(_ uuid: UUID) -> Data {
        withUnsafeBytes(of: uuid.uuid) { Data($0) }
    }

    /// The UUID whose 16 bytes are `data`.
    static func uuid(from data: Data) -> UUID {
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { buffer in
            buffer.copyBytes(from: data.prefix(16))
        }
        return UUID(uuid: raw)
    }

    // MARK: - Numbers

    private static func integerValue(_ value: Any) -> DatabaseValue {
        guard let number = NumericValue(flattened: value) else { return .null }
        switch number {
        case .integer(let v): return v.databaseValue
        case .unsigned(let v): return Double(v).databaseValue
        case .double(let v):
            return v.rounded(.towardZero).magnitude < 9.2e18 ? Int64(v.rounded(.towardZero)).databaseValue : v.databaseValue
        case .decimal(let v): return decimalStorage(.decimal(v))
        }
    }

    /// A decimal's storage: INTEGER when it is integral and fits 64 bits, REAL otherwise.
    private static func decimalStorage(_ number: NumericValue) -> DatabaseValue {
        switch number {
        case .integer(let v): return v.databaseValue
        case .unsigned(let v): return Double(v).databaseValue
        case .double(let v): return v.databaseValue
        case .decimal(let v):
            var rounded = Decimal(), source = v
            NSDecimalRound(&rounded, &source, 0, .plain)
            if rounded == v, v.magnitude < Decimal(Int64.max),
                let integral = Int64(NSDecimalNumber(decimal: v).stringValue)
            {
                return integral.databaseValue
            }
            return NSDecimalNumber(decimal: v).doubleValue.databaseValue
        }
    }

    /// The integer of an integer or Boolean column: another storage class reads as SQLite reads it
    /// (``SQLiteIntegerReading``), so that a fetch's objects, which take their numbers from SQLite, and
    /// every other read of the column agree.
    private static func integer(_ storage: DatabaseValue.Storage) -> Int64? {
        switch storage {
        case .int64(let v): return v
        case .double(let v): return SQLiteIntegerReading.integer(v)
        case .string(let s): return SQLiteIntegerReading.leadingInteger(s.utf8)
        case .blob(let data): return SQLiteIntegerReading.leadingInteger(data)
        case .null: return nil
        }
    }

    private static func double(_ storage: DatabaseValue.Storage) -> Double? {
        switch storage {
        case .int64(let v): return Double(v)
        case .double(let v): return v
        case .string(let s): return Double(s)
        default: return nil
        }
    }

    private static func decimal(_ storage: DatabaseValue.Storage) -> Decimal? {
        switch storage {
        case .int64(let v): return Decimal(v)
        case .double(let v): return v.isFinite ? Decimal(string: "\(v)") : nil
        case .string(let s): return Decimal(string: s)
        default: return nil
        }
    }

    private static func text(_ storage: DatabaseValue.Storage) -> String? {
        switch storage {
        case .string(let s): return s
        case .blob(let data): return String(data: data, encoding: .utf8)
        case .int64(let v): return String(v)
        case .double(let v): return String(v)
        case .null: return nil
        }
    }

    /// An object ID attribute's value: the URI of an object ID (any value with a `uriRepresentation()`
    /// reaches the store as a `URL`) or a URL/string already in URI form.
    private static func objectIDAttributeValue(_ value: Any) -> DatabaseValue {
        if let url = value as? URL { return url.absoluteString.databaseValue }
        if let string = value as? String { return string.databaseValue }
        return .null
    }
}

import Foundation
import OpenCoreData
import PostgresNIO

/// Attribute values to PostgreSQL parameters and back, one PostgreSQL type per attribute type
/// (`PostgreSQLSchema.columnType(of:)`).
enum PostgreSQLValues {
    /// Appends an attribute's value (nil or `NSNull` for none) as the next parameter; throws when the value
    /// is not of the attribute's type.
    static func bind(_ value: Any?, as type: NSAttributeType, to binds: inout PostgresBindings) throws {
        guard let value, !(value is NSNull) else {
            binds.appendNull()
            return
        }
        switch type {
        case .integer16AttributeType:
            guard let number = integer(value), let small = Int16(exactly: number) else { throw mismatch(value, type) }
            binds.append(small)
        case .integer32AttributeType:
            guard let number = integer(value), let int = Int32(exactly: number) else { throw mismatch(value, type) }
            binds.append(int)
        case .integer64AttributeType:
            guard let number = integer(value) else { throw mismatch(value, type) }
            binds.append(number)
        case .doubleAttributeType:
            guard let number = double(value) else { throw mismatch(value, type) }
            binds.append(number)
        case .floatAttributeType:
            guard let number = double(value) else { throw mismatch(value, type) }
            binds.append(Float(number))
        case .decimalAttributeType:
            // Sent as text and cast by the statement (`$n::numeric`).
            if let decimal = value as? Decimal {
                binds.append(NSDecimalNumber(decimal: decimal).description(withLocale: Locale(identifier: "en_US_POSIX")))
            } else if let decimal = value as? NSDecimalNumber {
                binds.append(decimal.description(withLocale: Locale(identifier: "en_US_POSIX")))
            } else if let number = double(value) {
                binds.append(String(number))
            } else {
                throw mismatch(value, type)
            }
        case .stringAttributeType:
            guard let string = value as? String ?? (value as? NSString).map({ String(describing: $0) }) else { throw mismatch(value, type) }
            binds.append(string)
        case .URIAttributeType:
            guard let url = value as? URL else { throw mismatch(value, type) }
            binds.append(url.absoluteString)
        case .booleanAttributeType:
            if let bool = value as? Bool {
                binds.append(bool)
            } else if let number = integer(value) {
                binds.append(number != 0)
            } else {
                throw mismatch(value, type)
            }
        case .dateAttributeType:
            guard let date = value as? Date ?? (value as? NSDate).map({ Date(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate) })
            else {
                throw mismatch(value, type)
            }
            binds.append(date.timeIntervalSinceReferenceDate)
        case .binaryDataAttributeType:
            guard let data = value as? Data ?? (value as? NSData).map({ Data(referencing: $0) }) else { throw mismatch(value, type) }
            binds.append(ByteBuffer(bytes: data))
        case .UUIDAttributeType:
            guard let uuid = value as? UUID ?? (value as? NSUUID).flatMap({ UUID(uuidString: $0.uuidString) }) else {
                throw mismatch(value, type)
            }
            binds.append(uuid)
        default:
            throw mismatch(value, type)
        }
    }

    /// How a statement reads a parameter of the type: decimals arrive as text.
    static func placeholder(_ index: Int, as type: NSAttributeType) -> String {
        type == .decimalAttributeType ? "$\(index)::numeric" : "$\(index)"
    }

    /// How a statement selects a column of the type: decimals leave as text.
    static func selection(_ column: String, as type: NSAttributeType) -> String {
        type == .decimalAttributeType ? "\(column)::text" : column
    }

    /// A cell's value as Core Data keeps the attribute type (nil for SQL NULL).
    static func value(of cell: PostgresCell, as type: NSAttributeType) throws -> Any? {
        guard cell.bytes != nil else { return nil }
        switch type {
        case .integer16AttributeType: return try cell.decode(Int16.self)
        case .integer32AttributeType: return try cell.decode(Int32.self)
        case .integer64AttributeType: return try cell.decode(Int64.self)
        case .doubleAttributeType: return try cell.decode(Double.self)
        case .floatAttributeType: return try cell.decode(Float.self)
        case .decimalAttributeType:
            let text = try cell.decode(String.self)
            return NSDecimalNumber(string: text, locale: Locale(identifier: "en_US_POSIX"))
        case .stringAttributeType: return try cell.decode(String.self)
        case .URIAttributeType: return URL(string: try cell.decode(String.self))
        case .booleanAttributeType: return try cell.decode(Bool.self)
        case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: try cell.decode(Double.self))
        case .binaryDataAttributeType:
            let buffer = try cell.decode(ByteBuffer.self)
            return Data(buffer.readableBytesView)
        case .UUIDAttributeType: return try cell.decode(UUID.self)
        default: return nil
        }
    }

    /// A whole number from any of Swift's and Foundation's integer representations.
    static func integer(_ value: Any) -> Int64? {
        switch value {
        case let value as Int: return Int64(value)
        case let value as Int64: return value
        case let value as Int32: return Int64(value)
        case let value as Int16: return Int64(value)
        case let value as Int8: return Int64(value)
        case let value as UInt: return Int64(exactly: value)
        case let value as UInt64: return Int64(exactly: value)
        case let value as UInt32: return Int64(value)
        case let value as UInt16: return Int64(value)
        case let value as Bool: return value ? 1 : 0
        case let value as Double: return Int64(exactly: value)
        case let value as Float: return Int64(exactly: value)
        case let value as NSNumber: return value.int64Value
        default: return nil
        }
    }

    /// A floating-point number from any of Swift's and Foundation's number representations.
    static func double(_ value: Any) -> Double? {
        switch value {
        case let value as Double: return value
        case let value as Float: return Double(value)
        case let value as Decimal: return NSDecimalNumber(decimal: value).doubleValue
        case let value as NSNumber: return value.doubleValue
        default: return integer(value).map(Double.init)
        }
    }

    private static func mismatch(_ value: Any, _ type: NSAttributeType) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
            userInfo: [
                NSLocalizedDescriptionKey: "The PostgreSQL store cannot keep a \(Swift.type(of: value)) in an attribute of type \(type.rawValue)."
            ])
    }
}

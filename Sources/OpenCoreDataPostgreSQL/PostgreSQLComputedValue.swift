import Foundation
import OpenCoreData
import PostgresNIO

/// A value PostgreSQL computed for a dictionary fetch (an aggregate, or a column read as an expression),
/// converted to an expression description's result type by the rules the SQLite store follows, so that
/// both stores give the same dictionaries: whole numbers become an integer `NSNumber` of the result's
/// width, floating-point numbers are truncated toward zero for integer types, dates come from seconds
/// since 2001, and `.undefinedAttributeType` keeps the computed number or text as it is.
enum PostgreSQLComputedValue {
    case integer(Int64)
    case double(Double)
    case decimal(String)
    case text(String)

    /// How a computed column is selected and read.
    enum Kind {
        case integer, double, decimalText, text

        /// The kind a column of an attribute type is read as.
        init(attributeType: NSAttributeType) {
            switch attributeType {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType: self = .integer
            case .doubleAttributeType, .floatAttributeType, .dateAttributeType: self = .double
            case .decimalAttributeType: self = .decimalText
            default: self = .text
            }
        }

        /// The cast that makes a column of the kind's PostgreSQL type.
        var cast: String {
            switch self {
            case .integer: return "::bigint"
            case .double: return "::double precision"
            case .decimalText: return "::text"
            case .text: return ""
            }
        }
    }

    /// Reads a cell selected with the kind's cast; nil for SQL NULL.
    static func read(_ cell: PostgresCell, as kind: Kind) throws -> Self? {
        guard cell.bytes != nil else { return nil }
        switch kind {
        case .integer: return .integer(try cell.decode(Int64.self))
        case .double: return .double(try cell.decode(Double.self))
        case .decimalText: return .decimal(try cell.decode(String.self))
        case .text: return .text(try cell.decode(String.self))
        }
    }

    /// The value as a dictionary fetch returns it for an expression of the result type.
    func converted(to type: NSAttributeType) -> Any? {
        switch self {
        case .integer(let integer):
            switch type {
            case .doubleAttributeType: return NSNumber(value: Double(integer))
            case .floatAttributeType: return NSNumber(value: Float(integer))
            case .decimalAttributeType: return NSDecimalNumber(value: integer)
            case .integer16AttributeType: return NSNumber(value: Int16(truncatingIfNeeded: integer))
            case .integer32AttributeType: return NSNumber(value: Int32(truncatingIfNeeded: integer))
            case .booleanAttributeType: return NSNumber(value: integer != 0)
            case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: Double(integer))
            default: return NSNumber(value: integer)
            }
        case .double(let double):
            switch type {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
                guard double.isFinite, abs(double) < 9.2e18 else { return NSNumber(value: double) }
                return Self.integer(Int64(double.rounded(.towardZero))).converted(to: type)
            case .decimalAttributeType: return NSDecimalNumber(string: "\(double)")
            case .floatAttributeType: return NSNumber(value: Float(double))
            case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: double)
            case .booleanAttributeType: return NSNumber(value: double != 0)
            default: return NSNumber(value: double)
            }
        case .decimal(let text):
            let decimal = NSDecimalNumber(string: text, locale: Locale(identifier: "en_US_POSIX"))
            switch type {
            case .decimalAttributeType, .undefinedAttributeType: return decimal
            default: return Self.double(decimal.doubleValue).converted(to: type)
            }
        case .text(let text):
            switch type {
            case .decimalAttributeType: return NSDecimalNumber(string: text, locale: Locale(identifier: "en_US_POSIX"))
            case .URIAttributeType: return URL(string: text)
            default: return text
            }
        }
    }
}

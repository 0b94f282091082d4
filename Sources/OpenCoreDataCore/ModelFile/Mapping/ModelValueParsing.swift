import Foundation

/// Turns the value strings of a model file (`defaultValueString`, `minValueString`, …) into values of an
/// attribute's type.
enum ModelValueParsing {
    /// Why a string could not be read as a value of the wanted type.
    struct Failure: Error {
        var reason: String
    }

    /// The value `text` denotes for an attribute of `type`, as Core Data stores a default value: `NSNumber`
    /// for integers, floating-point numbers and Booleans, `NSDecimalNumber`, `String`, `Date`, `UUID`, `URL`.
    /// Returns `nil` for types that take no default from the model editor (binary data, transformable,
    /// object ID, composite, undefined).
    /// An empty string is a default only for strings; for other types it means no default.
    static func value(_ text: String, for type: NSAttributeType, dateInterval: String?) throws -> Any? {
        if type != .stringAttributeType, dateInterval == nil, text.trimmingCharacters(in: .whitespaces).isEmpty {
            return nil
        }
        switch type {
        case .integer16AttributeType:
            return NSNumber(value: try integer(text, in: Int64(Int16.min)...Int64(Int16.max), bits: 16).int16)
        case .integer32AttributeType:
            return NSNumber(value: try integer(text, in: Int64(Int32.min)...Int64(Int32.max), bits: 32).int32)
        case .integer64AttributeType:
            return NSNumber(value: try integer(text, in: Int64.min...Int64.max, bits: 64).int64)
        case .decimalAttributeType:
            return try decimal(text)
        case .doubleAttributeType:
            return NSNumber(value: try double(text))
        case .floatAttributeType:
            return NSNumber(value: Float(try double(text)))
        case .booleanAttributeType:
            return NSNumber(value: try boolean(text))
        case .stringAttributeType:
            return text
        case .dateAttributeType:
            return try date(text, interval: dateInterval)
        case .UUIDAttributeType:
            guard let uuid = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) else {
                throw Failure(reason: "'\(text)' is not a UUID")
            }
            return uuid
        case .URIAttributeType:
            guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)) else {
                throw Failure(reason: "'\(text)' is not a URI")
            }
            return url
        case .binaryDataAttributeType, .transformableAttributeType, .objectIDAttributeType,
            .compositeAttributeType, .undefinedAttributeType:
            return nil
        }
    }

    /// A whole number written as an integer, as a decimal with no fractional part (`0.0`), or as Xcode's
    /// Boolean spelling `YES`/`NO` (1/0; real model files hold `defaultValueString="NO"` on integer
    /// attributes).
    static func integer(_ text: String, in range: ClosedRange<Int64>, bits: Int) throws -> (int16: Int16, int32: Int32, int64: Int64) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let value: Int64
        if trimmed == "YES" || trimmed == "NO" {
            value = trimmed == "YES" ? 1 : 0
        } else if let exact = Int64(trimmed) {
            value = exact
        } else if let real = Double(trimmed), real.rounded() == real, real >= -9.2e18, real <= 9.2e18 {
            value = Int64(real)
        } else {
            throw Failure(reason: "'\(text)' is not an integer")
        }
        guard range.contains(value) else {
            throw Failure(reason: "\(value) does not fit a \(bits)-bit integer")
        }
        return (Int16(truncatingIfNeeded: value), Int32(truncatingIfNeeded: value), value)
    }

    /// A floating-point number.
    static func double(_ text: String) throws -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
            throw Failure(reason: "'\(text)' is not a number")
        }
        return value
    }

    /// A decimal number.
    static func decimal(_ text: String) throws -> NSDecimalNumber {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard Double(trimmed) != nil, let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) else {
            throw Failure(reason: "'\(text)' is not a decimal number")
        }
        return NSDecimalNumber(decimal: value)
    }

    /// Xcode's Boolean spelling: `YES`/`NO` (also `true`/`false`, `1`/`0`).
    static func boolean(_ text: String) throws -> Bool {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "yes", "true", "1": return true
        case "no", "false", "0": return false
        default: throw Failure(reason: "'\(text)' is not YES or NO")
        }
    }

    /// A date: `interval` (Xcode's `…DateTimeInterval` attribute, seconds since 1 January 2001 UTC) when
    /// present, else `text` in one of the forms the model editor shows (`2013-04-23 12:00:00 +0000`,
    /// `2010-01-01 01:00:00`, `2020-02-03 04:00`, `2020-02-03`; read as UTC when no zone is written).
    static func date(_ text: String, interval: String?) throws -> Date {
        if let interval {
            guard let seconds = Double(interval.trimmingCharacters(in: .whitespaces)) else {
                throw Failure(reason: "'\(interval)' is not a number of seconds since 2001")
            }
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) {
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        for format in ["yyyy-MM-dd HH:mm:ss Z", "yyyy-MM-dd HH:mm:ss ZZZZZ", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        throw Failure(reason: "'\(text)' is not a date")
    }
}

import Foundation

/// How constant values read and print in format text.
///
/// Strings print double-quoted with escapes, numbers as numbers (Booleans as `1` and `0`), `nil` as
/// `nil`, collections as `{…}`, and dates as `CAST(<seconds since 1 January 2001>, "NSDate")`, as Apple
/// prints them. UUIDs, URLs and data print as `CAST("…", "NSUUID")`, `CAST("…", "NSURL")` and
/// `CAST("<base64>", "NSData")`, which the parser reads back into the same constants.
enum PredicateFormatConstants {
    /// The constant a `CAST` of a literal stands for, or `nil` when the cast is evaluated at run time.
    static func foldCast(_ value: NSExpression, to type: String) -> NSExpression? {
        guard value.expressionType == .constantValue else { return nil }
        let constant = value.constantValue
        switch type {
        case "NSDate":
            switch constant {
            case let seconds as Int: return NSExpression(forConstantValue: Date(timeIntervalSinceReferenceDate: Double(seconds)))
            case let seconds as Double: return NSExpression(forConstantValue: Date(timeIntervalSinceReferenceDate: seconds))
            default: return nil
            }
        case "NSUUID":
            guard let text = constant as? String, let uuid = UUID(uuidString: text) else { return nil }
            return NSExpression(forConstantValue: uuid)
        case "NSURL":
            guard let text = constant as? String, let url = URL(string: text) else { return nil }
            return NSExpression(forConstantValue: url)
        case "NSData":
            guard let text = constant as? String, let data = Data(base64Encoded: text) else { return nil }
            return NSExpression(forConstantValue: data)
        default:
            return nil
        }
    }

    /// The format text of a constant value.
    static func format(_ value: Any?) -> String {
        guard let value = PredicateFormatArguments.flatten(value) else { return "nil" }
        switch value {
        case is NSNull: return "nil"
        case let bool as Bool: return bool ? "1" : "0"
        case let string as String: return quote(string)
        case let string as Substring: return quote(String(string))
        case let number as Int: return String(number)
        case let number as Int8: return String(number)
        case let number as Int16: return String(number)
        case let number as Int32: return String(number)
        case let number as Int64: return String(number)
        case let number as UInt: return String(number)
        case let number as UInt8: return String(number)
        case let number as UInt16: return String(number)
        case let number as UInt32: return String(number)
        case let number as UInt64: return String(number)
        case let number as Double: return format(double: number)
        case let number as Float: return format(double: Double(number))
        case let number as Decimal: return "\(number)"
        case let date as Date: return "CAST(\(format(seconds: date.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case let uuid as UUID: return "CAST(\(quote(uuid.uuidString)), \"NSUUID\")"
        case let url as URL: return "CAST(\(quote(url.absoluteString)), \"NSURL\")"
        case let data as Data: return "CAST(\(quote(data.base64EncodedString())), \"NSData\")"
        case let number as NSNumber: return format(number: number)
        case let string as NSString: return quote(string as String)
        case let expression as NSExpression: return PredicateFormatPrinter.format(expression)
        default: break
        }
        if let elements = elements(of: value) {
            return "{" + elements.map { format($0) }.joined(separator: ", ") + "}"
        }
        return String(describing: value)
    }

    /// The elements of an array or set constant, in order where the collection has one.
    private static func elements(of value: Any) -> [Any?]? {
        switch value {
        case let array as NSArray: return array.map { $0 }
        case let set as NSOrderedSet: return set.array.map { $0 }
        case let set as NSSet: return set.allObjects.map { $0 }
        default: break
        }
        if value is [AnyHashable: Any] || value is NSDictionary { return nil }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .collection?, .set?: return mirror.children.map { $0.value }
        default: return nil
        }
    }

    private static func format(number: NSNumber) -> String {
        let type = String(cString: number.objCType)
        switch type {
        case "f", "d": return format(double: number.doubleValue)
        case "c", "B": return number.boolValue ? "1" : "0"
        default: return number.stringValue
        }
    }

    /// A floating-point number: integral values print without a fraction (`10`), others in the shortest
    /// form that reads back to the same value.
    static func format(double value: Double) -> String {
        if value.isNaN { return "CAST(\"nan\", \"NSNumber\")" }
        if value.isInfinite { return value < 0 ? "-CAST(\"inf\", \"NSNumber\")" : "CAST(\"inf\", \"NSNumber\")" }
        if value == value.rounded(), abs(value) < 1e15 {
            if value == 0, value.sign == .minus { return "-0.0" }
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// Seconds since the reference date, with six decimals as Apple prints them, or more when six would
    /// not read back to the same value.
    static func format(seconds: Double) -> String {
        guard seconds.isFinite else { return format(double: seconds) }
        let fixed = String(format: "%.6f", seconds)
        if Double(fixed) == seconds { return fixed }
        return "\(seconds)"
    }

    /// A string literal in double quotes, with `"`, `\` and control characters escaped.
    static func quote(_ string: String) -> String {
        var result = "\""
        let scalars = Array(string.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "%":
                // `%%` reads as one `%`, so a `%` followed by another one is doubled.
                result += index + 1 < scalars.count && scalars[index + 1] == "%" ? "%%" : "%"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u" + String(format: "%04X", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

import OpenCoreData

/// The `userInfo` key of an attribute whose import reads dates in a custom format.
public let kMagicalRecordImportCustomDateFormatKey = "dateFormat"
/// The date format imports use unless an attribute names another: `yyyy-MM-dd'T'HH:mm:ssz`.
public let kMagicalRecordImportDefaultDateFormatString = "yyyy-MM-dd'T'HH:mm:ssz"
/// The `dateFormat` value that reads numbers as milliseconds since 1970 (other numbers are seconds).
public let kMagicalRecordImportUnixTimeString = "UnixTime"
/// The `userInfo` key naming the key (or key path) an attribute is imported from.
public let kMagicalRecordImportAttributeKeyMapKey = "mappedKeyName"
/// The `userInfo` key naming the class an attribute's value is made into (`…Color` only).
public let kMagicalRecordImportAttributeValueClassNameKey = "attributeValueClassName"
/// The `userInfo` key naming the key (or key path) a relationship is imported from.
public let kMagicalRecordImportRelationshipMapKey = "mappedKeyName"
/// The `userInfo` key of an entity or relationship naming the attribute objects are matched by.
public let kMagicalRecordImportRelationshipLinkedByKey = "relatedByAttribute"
/// The `userInfo` key of a relationship naming the type of its data.
public let kMagicalRecordImportRelationshipTypeKey = "type"
/// The `userInfo` key of an attribute that takes its default value when the data lacks it.
public let kMagicalRecordImportAttributeUseDefaultValueWhenNotPresent = "useDefaultValueWhenNotPresent"

/// The value conversions of MagicalRecord's data import.
enum MagicalImport {
    /// The name of the attribute objects of `entityName` are matched by, unless the model names one:
    /// the entity name with its first letter lowercased, followed by `ID` (`Employee` → `employeeID`).
    static func primaryKeyName(from entityName: String) -> String {
        guard let first = entityName.first else { return "ID" }
        return first.lowercased() + entityName.dropFirst() + "ID"
    }

    /// Reads `value` as a date in `format`, in UTC with the `en_US_POSIX` locale, then with the current
    /// locale (MagicalRecord 2.3's reading) when that fails.
    static func date(from value: String, format: String) -> Date? {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = format
        if let date = formatter.date(from: value) { return date }
        formatter.locale = Locale.current
        return formatter.date(from: value)
    }

    /// Reads a number as a date: seconds since 1970, or milliseconds when `milliseconds` is `true`.
    static func date(from value: Double, milliseconds: Bool) -> Date {
        Date(timeIntervalSince1970: milliseconds ? value / 1000 : value)
    }

    /// Reads text as a number as `-[NSString doubleValue]` does: the leading number, 0 when there is none.
    static func double(from text: String) -> Double {
        let scanner = Scanner(string: text)
        return scanner.scanDouble() ?? 0
    }

    /// Reads text as a Boolean as `-[NSString boolValue]` does: `Y`, `y`, `T`, `t` or a nonzero digit
    /// after optional spaces and zeros means `true`.
    static func boolValue(of text: String) -> Bool {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if let sign = rest.first, sign == "+" || sign == "-" { rest = rest.dropFirst() }
        rest = rest.drop { $0 == "0" }
        guard let first = rest.first else { return false }
        return "YyTt123456789".contains(first)
    }

    /// The number in `value` (an `NSNumber`, a Swift number or a `Bool`), if it is one.
    static func number(_ value: Any) -> NSNumber? {
        switch value {
        case let number as NSNumber: return number
        case let value as Int: return NSNumber(value: value)
        case let value as Int64: return NSNumber(value: value)
        case let value as Int32: return NSNumber(value: value)
        case let value as Int16: return NSNumber(value: value)
        case let value as UInt: return NSNumber(value: value)
        case let value as Double: return NSNumber(value: value)
        case let value as Float: return NSNumber(value: value)
        case let value as Bool: return NSNumber(value: value)
        default: return nil
        }
    }

    /// The value at the dotted key path `keyPath` of `data` (dictionaries inside dictionaries).
    static func value(atKeyPath keyPath: String, in data: Any) -> Any? {
        var current: Any? = data
        for key in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case let dictionary as [String: Any]: current = dictionary[String(key)]
            case let dictionary as NSDictionary: current = dictionary[String(key)]
            case let object as NSManagedObject: current = object.value(forKey: String(key))
            default: return nil
            }
        }
        return current
    }

    /// The key path of `data` an attribute is imported from: its `mappedKeyName` (or its name), then
    /// `mappedKeyName.1` … `mappedKeyName.9` in turn while the data has no value there; `nil` when none
    /// has a value.
    static func lookupKey(for attribute: NSAttributeDescription, in data: Any) -> String? {
        let info = attribute.userInfo ?? [:]
        var key = (info[kMagicalRecordImportAttributeKeyMapKey] as? String) ?? attribute.name
        if value(atKeyPath: key, in: data) != nil { return key }
        for failover in 1..<10 {
            guard let next = info["\(kMagicalRecordImportAttributeKeyMapKey).\(failover)"] as? String else { return nil }
            key = next
            if value(atKeyPath: key, in: data) != nil { return key }
        }
        return nil
    }

    /// The value of `attribute` read from `data` at `keyPath`, converted to the attribute's type as
    /// MagicalRecord converts it: text and numbers to dates, text to numbers and Booleans, anything to
    /// text; `NSNull` to `nil`.
    static func value(for attribute: NSAttributeDescription, atKeyPath keyPath: String, in data: Any) -> Any? {
        guard let raw = value(atKeyPath: keyPath, in: data), !(raw is NSNull) else { return nil }
        let info = attribute.userInfo ?? [:]
        switch attribute.attributeType {
        case .dateAttributeType:
            if raw is Date { return raw }
            let format = info[kMagicalRecordImportCustomDateFormatKey] as? String
            if let number = number(raw) {
                return date(from: number.doubleValue, milliseconds: format == kMagicalRecordImportUnixTimeString)
            }
            return date(from: "\(raw)", format: format ?? kMagicalRecordImportDefaultDateFormatString)
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            let number = number(raw) ?? NSNumber(value: double(from: "\(raw)"))
            return NSNumber(value: number.int64Value)
        case .doubleAttributeType, .floatAttributeType:
            return NSNumber(value: (number(raw) ?? NSNumber(value: double(from: "\(raw)"))).doubleValue)
        case .decimalAttributeType:
            return (number(raw) ?? NSNumber(value: double(from: "\(raw)"))).decimalValue
        case .booleanAttributeType:
            return NSNumber(value: number(raw)?.boolValue ?? boolValue(of: "\(raw)"))
        case .stringAttributeType:
            return raw is String ? raw : "\(raw)"
        default:
            return raw
        }
    }
}

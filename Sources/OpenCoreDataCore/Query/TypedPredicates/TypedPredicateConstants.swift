import Foundation

/// The constants a converted predicate may hold: the values a store can compare, and sequences of them.
enum TypedPredicateConstants {
    static func storable(_ value: Any) throws -> Any? {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return nil }
            return try storable(wrapped)
        }
        switch value {
        case is String, is Bool, is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16,
            is UInt32, is UInt64, is Double, is Float, is Decimal, is Date, is UUID, is Data, is URL:
            return value
        case let result as ComparisonResult:
            return result.rawValue
        case let character as Character:
            return String(character)
        case let substring as Substring:
            return String(substring)
        case let regex as PredicateExpressions.PredicateRegex:
            return regex.stringRepresentation
        case let range as any TypedPredicateRangeValue:
            // `lo...hi` is the pair `BETWEEN` takes; other ranges have no constant form.
            let bounds = range.predicateBounds
            guard let lower = bounds.lower, let upper = bounds.upper, bounds.includesUpper else { break }
            return [try storable(lower), try storable(upper)].map { $0 ?? NSNull() }
        default:
            if mirror.displayStyle == .collection || mirror.displayStyle == .set {
                return try mirror.children.map { try storable($0.value) ?? NSNull() }
            }
        }
        throw TypedPredicateConversionError.unsupportedConstant(String(describing: type(of: value)))
    }
}

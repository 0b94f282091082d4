/// Apple's rules for comparing the values predicates meet: numbers of every kind compare by value, `nil`
/// equals only `nil` and is ordered with nothing, strings compare by Unicode canonical equivalence with
/// optional case and diacritic folding, and dates, data, UUIDs and URLs compare as their types do.
enum ValueComparison {
    typealias Options = NSComparisonPredicate.Options

    /// Whether two values are equal under predicate rules.
    static func isEqual(_ lhs: Any?, _ rhs: Any?, options: Options) -> Bool {
        let a = EvaluationValues.flatten(lhs), b = EvaluationValues.flatten(rhs)
        guard let a, let b else { return a == nil && b == nil }
        if let x = NumericValue(flattened: a), let y = NumericValue(flattened: b) {
            return NumericValue.compare(x, y) == .orderedSame
        }
        if let x = string(a), let y = string(b) { return StringFolding.compare(x, y, options: options) == .orderedSame }
        if let x = a as? Date, let y = b as? Date { return x == y }
        if let x = a as? Data, let y = b as? Data { return x == y }
        if let x = a as? UUID, let y = b as? UUID { return x == y }
        if let x = a as? URL, let y = b as? URL { return x == y }
        if let x = EvaluationValues.elements(of: a), let y = EvaluationValues.elements(of: b) {
            return collectionsEqual(
                x, y, unordered: EvaluationValues.isUnordered(a) || EvaluationValues.isUnordered(b),
                options: options)
        }
        if let x = a as? NSObject, let y = b as? NSObject { return x.isEqual(y) }
        if type(of: a) is AnyClass, type(of: b) is AnyClass, (a as AnyObject) === (b as AnyObject) { return true }
        if let x = a as? AnyHashable, let y = b as? AnyHashable { return x == y }
        return false
    }

    /// Orders two values under predicate rules, or returns `nil` when they cannot be ordered (either is
    /// `nil`, or their types differ or have no order).
    static func compare(_ lhs: Any?, _ rhs: Any?, options: Options) -> ComparisonResult? {
        guard let a = EvaluationValues.flatten(lhs), let b = EvaluationValues.flatten(rhs) else { return nil }
        if let x = NumericValue(flattened: a), let y = NumericValue(flattened: b) { return NumericValue.compare(x, y) }
        if let x = string(a), let y = string(b) { return StringFolding.compare(x, y, options: options) }
        if let x = a as? Date, let y = b as? Date { return order(x, y) }
        if let x = a as? UUID, let y = b as? UUID { return order(x.uuidString, y.uuidString) }
        if let x = a as? URL, let y = b as? URL { return order(x.absoluteString, y.absoluteString) }
        if let x = a as? Data, let y = b as? Data {
            return x.lexicographicallyPrecedes(y)
                ? .orderedAscending
                : (y.lexicographicallyPrecedes(x) ? .orderedDescending : .orderedSame)
        }
        return nil
    }

    /// The value as a Swift string, when it is a string.
    static func string(_ value: Any) -> String? {
        let kind = type(of: value)
        if kind == String.self { return value as? String }
        if kind is NSString.Type { return (value as? NSString).map { $0 as String } }
        if kind == Substring.self { return (value as? Substring).map(String.init) }
        if kind == Character.self { return (value as? Character).map(String.init) }
        return nil
    }

    private static func collectionsEqual(_ x: [Any], _ y: [Any], unordered: Bool, options: Options) -> Bool {
        guard x.count == y.count else { return false }
        if !unordered {
            return zip(x, y).allSatisfy { isEqual($0, $1, options: options) }
        }
        var remaining = y
        for element in x {
            guard let index = remaining.firstIndex(where: { isEqual(element, $0, options: options) }) else { return false }
            remaining.remove(at: index)
        }
        return true
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }
}

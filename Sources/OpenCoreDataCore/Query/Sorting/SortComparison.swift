/// The comparisons sort descriptors apply to values.
package enum SortComparison {
    /// The selector names a sort descriptor understands.
    static let knownSelectors: Set<String> = [
        "compare:", "caseInsensitiveCompare:", "localizedCompare:", "localizedCaseInsensitiveCompare:",
        "localizedStandardCompare:",
    ]

    /// A value prepared for repeated comparison: numbers and strings are recognized once.
    package enum SortKey {
        case missing
        case number(NumericValue)
        case string(String)
        case other(Any)

        init(_ value: Any?) {
            guard let value = EvaluationValues.flatten(value) else {
                self = .missing
                return
            }
            if let number = NumericValue(flattened: value) {
                self = .number(number)
            } else if let string = ValueComparison.string(value) {
                self = .string(string)
            } else {
                self = .other(value)
            }
        }
    }

    /// Orders two values with the named comparison. `nil` sorts before every value; values that cannot
    /// be ordered against each other (different types) are ordered by type name, so sorting stays
    /// consistent.
    static func compareValues(_ lhs: Any?, _ rhs: Any?, selector: String) -> ComparisonResult {
        compareKeys(SortKey(lhs), SortKey(rhs), selector: selector)
    }

    /// Orders two prepared values with the named comparison.
    static func compareKeys(_ lhs: SortKey, _ rhs: SortKey, selector: String) -> ComparisonResult {
        switch (lhs, rhs) {
        case (.missing, .missing): return .orderedSame
        case (.missing, _): return .orderedAscending
        case (_, .missing): return .orderedDescending
        case let (.number(x), .number(y)): return NumericValue.sortOrder(x, y)
        case let (.string(x), .string(y)): return compareStrings(x, y, selector: selector)
        default: break
        }
        let a = value(of: lhs), b = value(of: rhs)
        if let order = ValueComparison.compare(a, b, options: []) { return order }
        let x = String(describing: type(of: a)), y = String(describing: type(of: b))
        return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
    }

    private static func value(of key: SortKey) -> Any {
        switch key {
        case .missing: return NSNull()
        case .number(let number): return number.anyValue
        case .string(let string): return string
        case .other(let value): return value
        }
    }

    private static func compareStrings(_ x: String, _ y: String, selector: String) -> ComparisonResult {
        switch selector {
        case "caseInsensitiveCompare:":
            return x.compare(y, options: .caseInsensitive)
        case "localizedCompare:":
            return x.compare(y, options: [], range: nil, locale: Locale.current)
        case "localizedCaseInsensitiveCompare:":
            return x.compare(y, options: .caseInsensitive, range: nil, locale: Locale.current)
        case "localizedStandardCompare:":
            return x.compare(y, options: [.caseInsensitive, .numeric], range: nil, locale: Locale.current)
        default:
            return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
        }
    }

    /// Orders two objects by a list of sort descriptors: the first descriptor that tells them apart wins.
    static func compare(_ lhs: Any, _ rhs: Any, by descriptors: [NSSortDescriptor]) -> ComparisonResult {
        for descriptor in descriptors {
            let order = descriptor.compare(lhs, to: rhs)
            if order != .orderedSame { return order }
        }
        return .orderedSame
    }

    /// Sorts elements by a list of sort descriptors, reading each element's values once; equal elements
    /// keep their order.
    static func sorted<Element>(_ elements: [Element], by descriptors: [NSSortDescriptor]) -> [Element] {
        guard !descriptors.isEmpty, elements.count > 1 else { return elements }
        let keys: [[NSSortDescriptor.PreparedValue]] = elements.map { element in
            descriptors.map { $0.preparedValue(of: element) }
        }
        let order = elements.indices.sorted { i, j in
            for (d, descriptor) in descriptors.enumerated() {
                let result = descriptor.comparePrepared(keys[i][d], keys[j][d])
                if result != .orderedSame { return result == .orderedAscending }
            }
            return i < j
        }
        return order.map { elements[$0] }
    }
}

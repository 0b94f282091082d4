/// The comparisons sort descriptors apply to values.
enum SortComparison {
    /// The selector names a sort descriptor understands.
    static let knownSelectors: Set<String> = [
        "compare:", "caseInsensitiveCompare:", "localizedCompare:", "localizedCaseInsensitiveCompare:",
        "localizedStandardCompare:",
    ]

    /// Orders two values with the named comparison. `nil` sorts before every value; values that cannot
    /// be ordered against each other (different types) are ordered by type name, so sorting stays
    /// consistent.
    static func compareValues(_ lhs: Any?, _ rhs: Any?, selector: String) -> ComparisonResult {
        let a = EvaluationValues.flatten(lhs), b = EvaluationValues.flatten(rhs)
        switch (a, b) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        default: break
        }
        guard let a, let b else { return .orderedSame }
        if let x = ValueComparison.string(a), let y = ValueComparison.string(b) {
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
                return StringFolding.compare(x, y, options: [])
            }
        }
        if let order = ValueComparison.compare(a, b, options: []) { return order }
        let x = String(describing: type(of: a)), y = String(describing: type(of: b))
        return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
    }

    /// Orders two objects by a list of sort descriptors: the first descriptor that tells them apart wins.
    static func compare(_ lhs: Any, _ rhs: Any, by descriptors: [NSSortDescriptor]) -> ComparisonResult {
        for descriptor in descriptors {
            let order = descriptor.compare(lhs, to: rhs)
            if order != .orderedSame { return order }
        }
        return .orderedSame
    }
}

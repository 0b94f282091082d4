/// The comparisons a `.customSelector` comparison predicate can name on Linux, where no Objective-C
/// message can be sent: the comparison methods of Foundation's value types.
enum CustomSelectorComparison {
    private static let known: Set<String> = [
        "isEqual:", "isEqualToString:", "isEqualToDate:", "isEqualToNumber:", "isEqualToData:",
        "compare:", "caseInsensitiveCompare:", "localizedCompare:", "localizedCaseInsensitiveCompare:",
        "localizedStandardCompare:", "hasPrefix:", "hasSuffix:", "containsString:",
        "localizedCaseInsensitiveContainsString:", "localizedStandardContainsString:",
    ]

    /// Whether the selector name is one evaluation understands.
    static func isKnown(_ selector: String) -> Bool { known.contains(selector) }

    /// Calls the named method of `lhs` with `rhs`; `compare:`-style methods are true when the values are
    /// ordered the same.
    static func evaluate(_ selector: String, _ lhs: Any?, _ rhs: Any?) -> Bool {
        let folded: NSComparisonPredicate.Options = [.caseInsensitive, .diacriticInsensitive]
        switch selector {
        case "isEqual:", "isEqualToString:", "isEqualToDate:", "isEqualToNumber:", "isEqualToData:":
            return ValueComparison.isEqual(lhs, rhs, options: [])
        case "compare:":
            return ValueComparison.compare(lhs, rhs, options: []) == .orderedSame
        case "caseInsensitiveCompare:", "localizedCaseInsensitiveCompare:":
            return ValueComparison.compare(lhs, rhs, options: .caseInsensitive) == .orderedSame
        case "localizedCompare:", "localizedStandardCompare:":
            return SortComparison.compareValues(lhs, rhs, selector: selector) == .orderedSame
        default:
            guard let a = lhs.flatMap({ EvaluationValues.flatten($0) }).flatMap(ValueComparison.string),
                let b = rhs.flatMap({ EvaluationValues.flatten($0) }).flatMap(ValueComparison.string)
            else { return false }
            switch selector {
            case "hasPrefix:": return StringFolding.begins(a, with: b, options: [])
            case "hasSuffix:": return StringFolding.ends(a, with: b, options: [])
            case "containsString:": return StringFolding.contains(a, b, options: [])
            case "localizedCaseInsensitiveContainsString:": return StringFolding.contains(a, b, options: .caseInsensitive)
            default: return StringFolding.contains(a, b, options: folded)
            }
        }
    }
}

/// A predicate that compares the results of two expressions.
open class NSComparisonPredicate: NSPredicate, @unchecked Sendable {
    // @unchecked Sendable: immutable after initialization, like every predicate.

    /// The comparison a comparison predicate performs.
    public enum Operator: UInt, Sendable {
        /// The left value is less than the right value.
        case lessThan = 0
        /// The left value is less than or equal to the right value.
        case lessThanOrEqualTo = 1
        /// The left value is greater than the right value.
        case greaterThan = 2
        /// The left value is greater than or equal to the right value.
        case greaterThanOrEqualTo = 3
        /// The left value equals the right value.
        case equalTo = 4
        /// The left value does not equal the right value.
        case notEqualTo = 5
        /// The left string matches the regular expression (ICU syntax) on the right, over its whole length.
        case matches = 6
        /// The left string matches the pattern on the right, where `*` matches any run of characters and
        /// `?` matches one character.
        case like = 7
        /// The left string begins with the right string.
        case beginsWith = 8
        /// The left string ends with the right string.
        case endsWith = 9
        /// The left value is an element of the right collection, or a substring of the right string.
        case `in` = 10
        /// The comparison is performed by a named method of the left value.
        case customSelector = 11
        /// The left collection contains the right value, or the left string contains the right string.
        case contains = 99
        /// The left value lies between the two values of the right collection, inclusively.
        case between = 100
    }

    /// How a comparison predicate applies to a collection on its left side.
    public enum Modifier: UInt, Sendable {
        /// The left value is compared as it is.
        case direct = 0
        /// The predicate is true when the comparison holds for every element of the left collection.
        case all = 1
        /// The predicate is true when the comparison holds for at least one element of the left collection.
        case any = 2
    }

    /// Options that change how strings are compared.
    public struct Options: OptionSet, Sendable, Hashable {
        /// The raw bits of the options.
        public let rawValue: UInt

        /// Creates options from their raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Compare strings without regard to case (`[c]`).
        public static let caseInsensitive = Options(rawValue: 0x01)
        /// Compare strings without regard to diacritical marks (`[d]`).
        public static let diacriticInsensitive = Options(rawValue: 0x02)
        /// Strings are already normalized, so the comparison may skip case and diacritic folding (`[n]`).
        public static let normalized = Options(rawValue: 0x04)
    }

    /// The expression on the left of the operator.
    public let leftExpression: NSExpression
    /// The expression on the right of the operator.
    public let rightExpression: NSExpression
    /// How the predicate applies to a collection on its left side.
    public let comparisonPredicateModifier: Modifier
    /// The comparison the predicate performs.
    public let predicateOperatorType: Operator
    /// The string comparison options of the predicate.
    public let options: Options
    /// The name of the method performing a `.customSelector` comparison (for example `"isEqual:"`), or
    /// `nil` for the other operators.
    ///
    /// On Apple platforms this is an Objective-C `Selector`; Linux has no selectors, so the method is
    /// named by its selector string.
    public let customSelector: String?

    /// Creates a predicate that compares two expressions with the given operator, modifier and options.
    public init(
        leftExpression lhs: NSExpression, rightExpression rhs: NSExpression,
        modifier: Modifier, type: Operator, options: Options = []
    ) {
        precondition(
            type != .customSelector,
            "Use init(leftExpression:rightExpression:customSelector:) for a custom selector comparison")
        leftExpression = lhs
        rightExpression = rhs
        comparisonPredicateModifier = modifier
        predicateOperatorType = type
        self.options = options
        customSelector = nil
        super.init(subclassBase: ())
    }

    /// Creates a predicate that compares two expressions by calling a named method of the left value.
    ///
    /// Linux has no Objective-C selectors: the method is given by its selector name. The names understood
    /// are those of the comparisons Foundation types offer: `"isEqual:"`, `"isEqualToString:"`,
    /// `"compare:"`, `"caseInsensitiveCompare:"`, `"localizedCompare:"`,
    /// `"localizedCaseInsensitiveCompare:"`, `"localizedStandardCompare:"`, `"hasPrefix:"`,
    /// `"hasSuffix:"`, `"containsString:"`, `"isEqualToDate:"`, `"isEqualToNumber:"`; the `compare:`-style
    /// methods are true when the values are ordered the same.
    public init(leftExpression lhs: NSExpression, rightExpression rhs: NSExpression, customSelector selector: String) {
        precondition(
            CustomSelectorComparison.isKnown(selector),
            "Unknown custom selector \"\(selector)\" for a comparison predicate")
        leftExpression = lhs
        rightExpression = rhs
        comparisonPredicateModifier = .direct
        predicateOperatorType = .customSelector
        options = []
        customSelector = selector
        super.init(subclassBase: ())
    }

    /// Builds the same comparison over different expressions.
    private func with(left: NSExpression, right: NSExpression) -> NSComparisonPredicate {
        if let customSelector {
            return NSComparisonPredicate(leftExpression: left, rightExpression: right, customSelector: customSelector)
        }
        return NSComparisonPredicate(
            leftExpression: left, rightExpression: right,
            modifier: comparisonPredicateModifier, type: predicateOperatorType,
            options: options)
    }

    override func evaluate(_ object: Any?, in scope: EvaluationScope) -> Bool {
        ComparisonEvaluation.evaluate(self, object: object, scope: scope)
    }

    override func substituting(_ variables: [String: Any], bound: Set<String>) -> NSPredicate {
        with(
            left: leftExpression.substituting(variables, bound: bound),
            right: rightExpression.substituting(variables, bound: bound))
    }

    override func isStructurallyEqual(to other: NSPredicate) -> Bool {
        guard let other = other as? NSComparisonPredicate else { return false }
        return predicateOperatorType == other.predicateOperatorType
            && comparisonPredicateModifier == other.comparisonPredicateModifier
            && options == other.options && customSelector == other.customSelector
            && leftExpression.isEqual(other.leftExpression) && rightExpression.isEqual(other.rightExpression)
    }

    override func hashStructure(into hasher: inout Hasher) {
        hasher.combine(predicateOperatorType)
        hasher.combine(comparisonPredicateModifier)
        hasher.combine(options.rawValue)
        hasher.combine(leftExpression.hash)
        hasher.combine(rightExpression.hash)
    }
}

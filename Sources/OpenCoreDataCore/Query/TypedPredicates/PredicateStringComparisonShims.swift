import Foundation

// Foundation on Linux lacks the builders `#Predicate` expands `localizedStandardContains(_:)`,
// `caseInsensitiveCompare(_:)` and `localizedCompare(_:)` into. These declare them, with Apple's node
// names, so predicates written for Apple platforms compile and evaluate here. Apple platforms have
// their own, so the shims exist only where Darwin's Foundation does not.
#if !canImport(Darwin)
extension PredicateExpressions {
    /// A predicate expression that tests whether a string contains another, ignoring case and
    /// diacritics, as `localizedStandardContains(_:)` does.
    public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>:
        PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        public typealias Output = Bool

        /// The string searched.
        public let root: Root
        /// The string searched for.
        public let other: Other

        /// Creates an expression that tests whether `root` contains `other`.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// Evaluates both strings and compares them as `localizedStandardContains(_:)` does.
        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            try root.evaluate(bindings).localizedStandardContains(try other.evaluate(bindings))
        }
    }

    /// A predicate expression that compares two strings ignoring case, as `caseInsensitiveCompare(_:)`
    /// does.
    public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Compared: PredicateExpression>:
        PredicateExpression
    where Root.Output: StringProtocol, Compared.Output: StringProtocol {
        public typealias Output = ComparisonResult

        /// The string compared.
        public let root: Root
        /// The string it is compared with.
        public let compared: Compared

        /// Creates an expression that compares `root` with `compared`, ignoring case.
        public init(root: Root, compared: Compared) {
            self.root = root
            self.compared = compared
        }

        /// Evaluates both strings and compares them as `caseInsensitiveCompare(_:)` does.
        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            try root.evaluate(bindings).caseInsensitiveCompare(try compared.evaluate(bindings))
        }
    }

    /// A predicate expression that compares two strings as `localizedCompare(_:)` does.
    public struct StringLocalizedCompare<Root: PredicateExpression, Compared: PredicateExpression>:
        PredicateExpression
    where Root.Output: StringProtocol, Compared.Output: StringProtocol {
        public typealias Output = ComparisonResult

        /// The string compared.
        public let root: Root
        /// The string it is compared with.
        public let compared: Compared

        /// Creates an expression that compares `root` with `compared` in the current locale.
        public init(root: Root, compared: Compared) {
            self.root = root
            self.compared = compared
        }

        /// Evaluates both strings and compares them as `localizedCompare(_:)` does.
        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            try root.evaluate(bindings).localizedCompare(try compared.evaluate(bindings))
        }
    }

    /// Builds the expression `#Predicate` makes of `localizedStandardContains(_:)`.
    public static func build_localizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>(
        _ root: Root, _ other: Other
    )
        -> StringLocalizedStandardContains<Root, Other>
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        StringLocalizedStandardContains(root: root, other: other)
    }

    /// Builds the expression `#Predicate` makes of `caseInsensitiveCompare(_:)`.
    public static func build_caseInsensitiveCompare<Root: PredicateExpression, Compared: PredicateExpression>(
        _ root: Root, _ compared: Compared
    )
        -> StringCaseInsensitiveCompare<Root, Compared>
    where Root.Output: StringProtocol, Compared.Output: StringProtocol {
        StringCaseInsensitiveCompare(root: root, compared: compared)
    }

    /// Builds the expression `#Predicate` makes of `localizedCompare(_:)`.
    public static func build_localizedCompare<Root: PredicateExpression, Compared: PredicateExpression>(
        _ root: Root, _ compared: Compared
    )
        -> StringLocalizedCompare<Root, Compared>
    where Root.Output: StringProtocol, Compared.Output: StringProtocol {
        StringLocalizedCompare(root: root, compared: compared)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Compared: Sendable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: Codable where Root: Codable, Compared: Codable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Compared: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedCompare: Sendable where Root: Sendable, Compared: Sendable {}
extension PredicateExpressions.StringLocalizedCompare: Codable where Root: Codable, Compared: Codable {}
extension PredicateExpressions.StringLocalizedCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Compared: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedStandardContains: TypedPredicateNode {
    /// `CONTAINS[cd]`: OpenCoreData's predicates have no locale option, Apple's print `CONTAINS[cdl]`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        try conversion.comparison(root, other, .contains, options: [.caseInsensitive, .diacriticInsensitive])
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: TypedPredicateNode {
    /// `TERNARY(a ==[c] b, 0, TERNARY(a <[c] b, -1, 1))`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        try conversion.comparisonResult(root, compared, options: .caseInsensitive)
    }
}

extension PredicateExpressions.StringLocalizedCompare: TypedPredicateNode {
    /// `TERNARY(a == b, 0, TERNARY(a < b, -1, 1))`: OpenCoreData's predicates have no locale option (Apple's
    /// print `==[l]`), and compare strings as `localizedCompare(_:)` orders them only in sort descriptors.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        try conversion.comparisonResult(root, compared, options: [])
    }
}
#endif

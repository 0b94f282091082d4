/// A predicate that combines other predicates with `AND`, `OR` or `NOT`.
open class NSCompoundPredicate: NSPredicate, @unchecked Sendable {
    // @unchecked Sendable: immutable after initialization, like every predicate.

    /// The logical operation a compound predicate applies to its subpredicates.
    public enum LogicalType: UInt, Sendable {
        /// The predicate is true when its single subpredicate is false.
        case not = 0
        /// The predicate is true when every subpredicate is true (and when there are none).
        case and = 1
        /// The predicate is true when at least one subpredicate is true (false when there are none).
        case or = 2
    }

    /// The logical operation of the predicate.
    public let compoundPredicateType: LogicalType

    private let predicates: [NSPredicate]

    /// The predicates combined by the receiver, in order.
    open var subpredicates: [Any] { predicates }

    /// Creates a predicate that combines the given subpredicates with the given logical operation.
    ///
    /// A `.not` predicate negates its first subpredicate.
    public init(type: LogicalType, subpredicates: [NSPredicate]) {
        precondition(
            type != .not || subpredicates.count == 1,
            "A NOT compound predicate takes exactly one subpredicate, not \(subpredicates.count)")
        compoundPredicateType = type
        predicates = subpredicates
        super.init(subclassBase: ())
    }

    /// Creates a predicate that is true when every one of the given predicates is true.
    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    /// Creates a predicate that is true when at least one of the given predicates is true.
    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    /// Creates a predicate that is true when the given predicate is false.
    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }

    /// The subpredicates with their static type.
    var typedSubpredicates: [NSPredicate] { predicates }

    override func evaluate(_ object: Any?, in scope: EvaluationScope) -> Bool {
        switch compoundPredicateType {
        case .and: return predicates.allSatisfy { $0.evaluate(object, in: scope) }
        case .or: return predicates.contains { $0.evaluate(object, in: scope) }
        case .not: return !(predicates.first?.evaluate(object, in: scope) ?? false)
        }
    }

    override func substituting(_ variables: [String: Any], bound: Set<String>) -> NSPredicate {
        NSCompoundPredicate(
            type: compoundPredicateType,
            subpredicates: predicates.map { $0.substituting(variables, bound: bound) })
    }

    override func isStructurallyEqual(to other: NSPredicate) -> Bool {
        guard let other = other as? NSCompoundPredicate else { return false }
        return compoundPredicateType == other.compoundPredicateType && predicates == other.predicates
    }

    override func hashStructure(into hasher: inout Hasher) {
        hasher.combine(compoundPredicateType)
        for predicate in predicates { predicate.hashStructure(into: &hasher) }
    }
}

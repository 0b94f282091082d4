/// A definition of logical conditions that constrain a search, either for a fetch or for in-memory
/// filtering.
///
/// Create predicates from format strings (`NSPredicate(format: "age > %@", 30)`), programmatically as
/// ``NSComparisonPredicate`` and ``NSCompoundPredicate`` instances, from a constant value, or from a block.
/// As on Apple platforms, `NSPredicate(format:)` returns an instance of the subclass the text describes,
/// so `NSPredicate(format: "a == 1") as? NSComparisonPredicate` succeeds.
///
/// Predicates are immutable once created and may be shared between threads.
open class NSPredicate: NSObject, NSCopying, PredicateFormatInitializable, @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let` set at initialization and never mutated; the
    // values held (constants, blocks) are only read during evaluation.

    /// What a plain `NSPredicate` (not a subclass) tests.
    enum Base {
        case value(Bool)
        case block((Any?, [String: Any]?) -> Bool)
        case subclass
    }

    let base: Base

    /// Creates a predicate that always evaluates to the given value (`TRUEPREDICATE` or `FALSEPREDICATE`).
    public init(value: Bool) {
        base = .value(value)
        super.init()
    }

    /// Creates a predicate that evaluates the given block with the evaluated object and the substitution
    /// variables.
    ///
    /// Block predicates evaluate only in memory; a persistent store cannot translate them to a query.
    public init(block: @escaping (Any?, [String: Any]?) -> Bool) {
        base = .block(block)
        super.init()
    }

    /// Initializer for the subclasses, which define their own tests.
    init(subclassBase: Void) {
        base = .subclass
        super.init()
    }

    /// The predicate's format string, in Apple's canonical form.
    open var predicateFormat: String {
        switch base {
        case .value(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .block: return "BLOCKPREDICATE(\(PredicateAddress.describe(self)))"
        case .subclass: return PredicateFormatPrinter.format(self)
        }
    }

    /// A textual description of the predicate: its format string.
    open override var description: String { predicateFormat }

    /// Returns whether the given object satisfies the predicate.
    open func evaluate(with object: Any?) -> Bool {
        evaluate(object, in: EvaluationScope(variables: [:], context: nil))
    }

    /// Returns whether the given object satisfies the predicate after the predicate's variables are
    /// replaced by the values in the given dictionary.
    open func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        evaluate(object, in: EvaluationScope(variables: bindings ?? [:], context: nil))
    }

    /// Returns a copy of the predicate in which each `$VARIABLE` found in the given dictionary is replaced
    /// by a constant expression holding its value.
    ///
    /// Variables bound inside the predicate (the iteration variable of a `SUBQUERY`) are left alone.
    public func withSubstitutionVariables(_ variables: [String: Any]) -> Self {
        let substituted = substituting(variables, bound: [])
        guard let result = substituted as? Self else {
            preconditionFailure("Substitution changed the class of the predicate \(predicateFormat)")
        }
        return result
    }

    /// Forces a predicate that was securely decoded to allow evaluation.
    ///
    /// Predicates created in this process may always be evaluated; the method exists for source
    /// compatibility with Apple platforms.
    open func allowEvaluation() {}

    /// Returns the predicate itself: predicates are immutable, so a copy is the same object.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Returns whether the given object is a predicate with the same structure.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPredicate, type(of: other) == type(of: self) else { return false }
        if other === self { return true }
        return isStructurallyEqual(to: other)
    }

    /// A hash value consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        hashStructure(into: &hasher)
        return hasher.finalize()
    }

    // MARK: Overridden by subclasses

    /// Evaluates the predicate on `object`, reading variables from `scope`.
    func evaluate(_ object: Any?, in scope: EvaluationScope) -> Bool {
        switch base {
        case .value(let value): return value
        case .block(let block): return block(object, scope.variablesForBlock)
        case .subclass: preconditionFailure("\(type(of: self)) must override evaluate(_:in:)")
        }
    }

    /// Returns a predicate in which free `$VARIABLE`s present in `variables` become constants.
    func substituting(_ variables: [String: Any], bound: Set<String>) -> NSPredicate { self }

    /// Compares the structure of two predicates of the same class.
    func isStructurallyEqual(to other: NSPredicate) -> Bool {
        switch (base, other.base) {
        case let (.value(a), .value(b)): return a == b
        default: return false
        }
    }

    /// Feeds the structure of the predicate to a hasher.
    func hashStructure(into hasher: inout Hasher) {
        switch base {
        case .value(let value): hasher.combine(value)
        case .block: hasher.combine(ObjectIdentifier(self))
        case .subclass: break
        }
    }
}

/// Formats object addresses as Apple prints them in `BLOCKPREDICATE(0x…)`.
enum PredicateAddress {
    /// The hexadecimal address of an object.
    static func describe(_ object: AnyObject) -> String {
        "0x" + String(UInt(bitPattern: ObjectIdentifier(object).hashValue), radix: 16)
    }
}

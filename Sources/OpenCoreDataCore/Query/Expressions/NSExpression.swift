/// An expression that a predicate evaluates: a constant, the evaluated object, a variable, a key path,
/// a function, a set operation, a subquery, an aggregate, a conditional or a block.
///
/// Expressions are immutable once created and may be shared between threads.
open class NSExpression: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: `storage` is a `let` set at initialization and never mutated; the constants
    // and blocks it holds are only read during evaluation.

    /// The kinds of expression.
    public enum ExpressionType: UInt, Sendable {
        /// An expression that always returns the same value.
        case constantValue = 0
        /// An expression that returns the object being evaluated (`SELF`).
        case evaluatedObject = 1
        /// An expression that returns the value of a variable (`$NAME`).
        case variable = 2
        /// An expression that returns the value of a key path of the evaluated object.
        case keyPath = 3
        /// An expression that returns the result of a function.
        case function = 4
        /// An expression that returns the union of two collections.
        case unionSet = 5
        /// An expression that returns the intersection of two collections.
        case intersectSet = 6
        /// An expression that returns the elements of one collection that are not in another.
        case minusSet = 7
        /// An expression that returns the elements of a collection that satisfy a predicate.
        case subquery = 13
        /// An expression that returns the values of a list of expressions.
        case aggregate = 14
        /// An expression that matches any key of the evaluated object (`ANYKEY`).
        case anyKey = 15
        /// An expression that returns the result of a block.
        case block = 19
        /// An expression that returns one of two expressions' values depending on a predicate.
        case conditional = 20
        /// Core Data's expression that returns the result of a fetch request executed in a context
        /// (`NSFetchRequestExpression`, whose type Core Data names `NSFetchRequestExpressionType`).
        case fetchRequest = 50
    }

    /// The contents of an expression of each kind.
    enum Storage {
        case constant(Any?)
        case evaluatedObject
        case variable(String)
        /// A key path read from `operand` (the evaluated object, or a variable inside a subquery).
        case keyPath(String, operand: NSExpression)
        /// A built-in function (`sum:`, `now`, …) applied to its arguments.
        case function(String, arguments: [NSExpression])
        /// `FUNCTION(receiver, 'selector:', args…)`.
        case method(receiver: NSExpression, selector: String, arguments: [NSExpression])
        case unionSet(NSExpression, NSExpression)
        case intersectSet(NSExpression, NSExpression)
        case minusSet(NSExpression, NSExpression)
        case subquery(NSExpression, variable: String, predicate: NSPredicate)
        case aggregate([NSExpression])
        case anyKey
        case block((Any?, [Any], NSMutableDictionary?) -> Any, arguments: [NSExpression]?)
        case conditional(NSPredicate, NSExpression, NSExpression)
    }

    let storage: Storage

    init(storage: Storage) {
        self.storage = storage
        super.init()
    }

    /// The kind of the expression.
    open var expressionType: ExpressionType {
        switch storage {
        case .constant: return .constantValue
        case .evaluatedObject: return .evaluatedObject
        case .variable: return .variable
        case .keyPath: return .keyPath
        case .function(let name, _) where name == FetchExpression.functionName: return .fetchRequest
        case .function, .method: return .function
        case .unionSet: return .unionSet
        case .intersectSet: return .intersectSet
        case .minusSet: return .minusSet
        case .subquery: return .subquery
        case .aggregate: return .aggregate
        case .anyKey: return .anyKey
        case .block: return .block
        case .conditional: return .conditional
        }
    }

    // MARK: Creating expressions

    /// Creates an expression that always returns the given value.
    public convenience init(forConstantValue obj: Any?) {
        self.init(storage: .constant(obj))
    }

    /// Returns an expression that returns the object being evaluated (`SELF`).
    open class func expressionForEvaluatedObject() -> NSExpression {
        NSExpression(storage: .evaluatedObject)
    }

    /// Creates an expression that returns the value of the named variable (`$string`), taken from the
    /// substitution variables or the evaluation context.
    public convenience init(forVariable string: String) {
        self.init(storage: .variable(string))
    }

    /// Creates an expression that returns the value of the given key path of the evaluated object.
    ///
    /// The key path may contain dots and collection operators such as `@count` and `@sum.price`.
    public convenience init(forKeyPath keyPath: String) {
        self.init(storage: .keyPath(keyPath, operand: NSExpression(storage: .evaluatedObject)))
    }

    /// Creates an expression that returns the value of the property a Swift key path reads, named as a
    /// Key-Value Coding key path (`\Item.owner?.name` → `"owner.name"`).
    ///
    /// Key paths made of stored properties are named from their description; for others the root type
    /// must name them through ``KeyValueCoding/kvcKeyPathString(for:)``. A key path that cannot be named
    /// is a programmer error and traps.
    public convenience init<Root, Value>(forKeyPath keyPath: KeyPath<Root, Value>) {
        guard let name = KeyPathNames.string(for: keyPath) else {
            preconditionFailure(
                "Cannot name the key path \(keyPath.debugDescription) as a Key-Value Coding key "
                    + "path; have \(Root.self) implement KeyValueCoding.kvcKeyPathString(for:)")
        }
        self.init(forKeyPath: name)
    }

    /// Creates an expression that reads a key path from the value of another expression (as `$x.name`
    /// reads `name` from the variable `x`).
    convenience init(forKeyPath keyPath: String, operand: NSExpression) {
        self.init(storage: .keyPath(keyPath, operand: operand))
    }

    /// Creates an expression that applies one of the built-in functions to the given argument
    /// expressions.
    ///
    /// `name` is the function's name as Apple spells it, with its colons: the statistics `"sum:"`,
    /// `"count:"`, `"min:"`, `"max:"`, `"average:"`, `"median:"`, `"mode:"` (an array of the most frequent
    /// values) and `"stddev:"` (population standard deviation), which take a collection or a list of
    /// values; the arithmetic `"add:to:"`, `"from:subtract:"`, `"multiply:by:"`, `"divide:by:"`,
    /// `"modulus:by:"`, `"sqrt:"`, `"log:"`, `"ln:"`, `"raise:toPower:"`, `"exp:"`, `"ceiling:"`, `"abs:"`,
    /// `"trunc:"`, `"floor:"`; the bitwise `"bitwiseAnd:with:"`, `"bitwiseOr:with:"`, `"bitwiseXor:with:"`,
    /// `"leftshift:by:"`, `"rightshift:by:"`, `"onesComplement:"`; the strings `"uppercase:"`,
    /// `"lowercase:"`, `"canonical:"`; and `"random"`, `"randomn:"`, `"now"`, `"noindex:"`, `"distinct:"`,
    /// `"castObject:toType:"` and `"objectFrom:withIndex:"` (subscripts). An unknown name, a wrong number of
    /// arguments, or an argument that is not an `NSExpression` is a programmer error and traps.
    public convenience init(forFunction name: String, arguments parameters: [Any]) {
        let expressions = NSExpression.expressions(parameters, for: name)
        guard let arity = ExpressionFunctions.arity(of: name) else {
            preconditionFailure("Unknown function \"\(name)\" for an NSExpression")
        }
        precondition(
            arity == expressions.count || (arity == -1 && !expressions.isEmpty),
            "The function \"\(name)\" takes \(arity == -1 ? "one or more" : String(arity)) "
                + "arguments, not \(expressions.count)")
        self.init(storage: .function(name, arguments: expressions))
    }

    /// Creates an expression that calls a named method of the value of `target` with the given arguments
    /// (`FUNCTION(target, 'selector:', args…)`).
    ///
    /// Linux has no Objective-C selectors: the methods that can be called are `"valueForKey:"` and
    /// `"valueForKeyPath:"`, the built-in functions (`"uppercase:"`… with the target as first argument),
    /// the string methods `"stringByAppendingString:"`, `"uppercaseString"`, `"lowercaseString"` and
    /// `"length"`, and argument-less selectors named like a key (`"name"`), which read that key. Other
    /// selectors evaluate to `nil`.
    public convenience init(forFunction target: NSExpression, selectorName name: String, arguments parameters: [Any]?) {
        let expressions = NSExpression.expressions(parameters ?? [], for: name)
        self.init(storage: .method(receiver: target, selector: name, arguments: expressions))
    }

    /// Creates an expression that returns the values of the given expressions, as an array.
    ///
    /// `subexpressions` holds `NSExpression`s; anything else is a programmer error and traps.
    public convenience init(forAggregate subexpressions: [Any]) {
        self.init(storage: .aggregate(NSExpression.expressions(subexpressions, for: "an aggregate")))
    }

    /// Creates an expression that returns the union of the collections returned by two expressions.
    public convenience init(forUnionSet left: NSExpression, with right: NSExpression) {
        self.init(storage: .unionSet(left, right))
    }

    /// Creates an expression that returns the elements common to the collections returned by two
    /// expressions.
    public convenience init(forIntersectSet left: NSExpression, with right: NSExpression) {
        self.init(storage: .intersectSet(left, right))
    }

    /// Creates an expression that returns the elements of the left collection that are not in the right
    /// one.
    public convenience init(forMinusSet left: NSExpression, with right: NSExpression) {
        self.init(storage: .minusSet(left, right))
    }

    /// Creates an expression that returns the elements of a collection for which a predicate is true;
    /// inside the predicate, `$variable` is the element being tested.
    public convenience init(
        forSubquery expression: NSExpression, usingIteratorVariable variable: String,
        predicate: NSPredicate
    ) {
        self.init(storage: .subquery(expression, variable: variable, predicate: predicate))
    }

    /// Returns an expression that matches any key of the evaluated object (`ANYKEY`).
    open class func expressionForAnyKey() -> NSExpression {
        NSExpression(storage: .anyKey)
    }

    /// Creates an expression that returns the result of a block, called with the evaluated object, the
    /// values of the argument expressions and the evaluation context.
    ///
    /// Block expressions evaluate only in memory; a persistent store cannot translate them to a query.
    public convenience init(block: @escaping (Any?, [Any], NSMutableDictionary?) -> Any, arguments: [NSExpression]?) {
        self.init(storage: .block(block, arguments: arguments))
    }

    /// Creates an expression that returns the value of `trueExpression` when the predicate is true for the
    /// evaluated object and the value of `falseExpression` otherwise (`TERNARY(predicate, a, b)`).
    public convenience init(
        forConditional predicate: NSPredicate, trueExpression: NSExpression,
        falseExpression: NSExpression
    ) {
        self.init(storage: .conditional(predicate, trueExpression, falseExpression))
    }

    /// Creates an expression by substituting the given arguments into a format string and parsing the
    /// result.
    ///
    /// On Linux, `String` is not `CVarArg`, so the arguments are `Any?`. Malformed text is a programmer
    /// error and traps with a message quoting the text and the offset; use
    /// ``init(validatingFormat:argumentArray:)`` for text from users.
    public convenience init(format expressionFormat: String, _ args: Any?...) {
        self.init(copying: NSExpression.parseOrTrap(expressionFormat, arguments: args))
    }

    /// Creates an expression by substituting the values in an array into a format string and parsing the
    /// result.
    ///
    /// Malformed text is a programmer error and traps with a message quoting the text and the offset; use
    /// ``init(validatingFormat:argumentArray:)`` for text from users.
    public convenience init(format expressionFormat: String, argumentArray arguments: [Any]) {
        self.init(copying: NSExpression.parseOrTrap(expressionFormat, arguments: arguments.map { Optional($0) }))
    }

    /// Creates an expression from a format string, throwing an error instead of trapping when the text is
    /// malformed.
    ///
    /// The error is an `NSError` in `NSCocoaErrorDomain` with code `NSFormattingError` whose message names
    /// what was expected and the character offset. This initializer is an OpenCoreData addition for text
    /// that comes from users or files.
    public convenience init(validatingFormat expressionFormat: String, argumentArray arguments: [Any]? = nil) throws {
        let parsed = try PredicateFormatParser.parseExpression(
            expressionFormat,
            arguments: (arguments ?? []).map { Optional($0) })
        self.init(copying: parsed)
    }

    private convenience init(copying other: NSExpression) {
        self.init(storage: other.storage)
    }

    private static func parseOrTrap(_ format: String, arguments: [Any?]) -> NSExpression {
        do {
            return try PredicateFormatParser.parseExpression(format, arguments: arguments)
        } catch {
            let message = (error as NSError).localizedDescription
            preconditionFailure(
                message.contains(format)
                    ? message
                    : "Unable to parse the format string \"\(format)\": \(message)")
        }
    }

    private static func expressions(_ values: [Any], for name: String) -> [NSExpression] {
        values.map { value in
            guard let expression = value as? NSExpression else {
                preconditionFailure("The arguments of \(name) must be NSExpressions, not \(type(of: value))")
            }
            return expression
        }
    }

    // MARK: Evaluating

    /// Returns the value of the expression for the given object; variables are read from `context`, which
    /// evaluation may also use to store intermediate values.
    open func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        evaluate(object, in: EvaluationScope(variables: [:], context: context))
    }

    /// Forces an expression that was securely decoded to allow evaluation.
    ///
    /// Expressions created in this process may always be evaluated; the method exists for source
    /// compatibility with Apple platforms.
    open func allowEvaluation() {}

    /// Returns the expression itself: expressions are immutable, so a copy is the same object.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// The expression's format string, in Apple's canonical form.
    open override var description: String { PredicateFormatPrinter.format(self) }

    /// Returns whether the given object is an expression with the same structure.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSExpression else { return false }
        return other === self || ExpressionEquality.isEqual(self, other)
    }

    /// A hash value consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        ExpressionEquality.hash(self, into: &hasher)
        return hasher.finalize()
    }
}

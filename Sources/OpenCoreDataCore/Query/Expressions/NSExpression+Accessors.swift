extension NSExpression {
    private func misuse(_ accessor: String) -> Never {
        preconditionFailure("\(accessor) is not defined for an NSExpression of type \(expressionType): \(self)")
    }

    /// The constant value of a constant-value expression.
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var constantValue: Any? {
        if case .constant(let value) = storage { return value }
        misuse("constantValue")
    }

    /// The key path of a key-path expression.
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var keyPath: String {
        if case .keyPath(let path, _) = storage { return path }
        misuse("keyPath")
    }

    /// The name of the function of a function expression, as Apple spells it (`"sum:"`, `"now"`), or the
    /// selector name of a `FUNCTION(receiver, 'selector:', …)` expression.
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var function: String {
        switch storage {
        case .function(let name, _): return name
        case .method(_, let selector, _): return selector
        default: misuse("function")
        }
    }

    /// The name of the variable of a variable expression, or the iteration variable of a subquery
    /// expression, without the `$`.
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var variable: String {
        switch storage {
        case .variable(let name), .subquery(_, let name, _): return name
        default: misuse("variable")
        }
    }

    /// The expression a key path or a function applies to.
    ///
    /// For a key-path expression it is the evaluated object (or, inside a subquery, the iteration
    /// variable); for `FUNCTION(receiver, …)` it is the receiver; for a built-in function it is a constant
    /// expression with no value. Reading it from an expression of another kind is a programmer error and
    /// traps.
    public var operand: NSExpression {
        switch storage {
        case .keyPath(_, let operand): return operand
        case .method(let receiver, _, _): return receiver
        case .function: return NSExpression(forConstantValue: nil)
        default: misuse("operand")
        }
    }

    /// The argument expressions of a function or block expression.
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var arguments: [NSExpression]? {
        switch storage {
        case .function(_, let arguments), .method(_, _, let arguments): return arguments
        case .block(_, let arguments): return arguments
        default: misuse("arguments")
        }
    }

    /// The collection of a subquery expression (an expression), or the subexpressions of an aggregate
    /// expression (an array of expressions).
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var collection: Any {
        switch storage {
        case .subquery(let collection, _, _): return collection
        case .aggregate(let subexpressions): return subexpressions
        default: misuse("collection")
        }
    }

    /// The predicate of a subquery or conditional expression.
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var predicate: NSPredicate {
        switch storage {
        case .subquery(_, _, let predicate): return predicate
        case .conditional(let predicate, _, _): return predicate
        default: misuse("predicate")
        }
    }

    /// The left expression of a set expression (union, intersection, minus).
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var leftExpression: NSExpression {
        switch storage {
        case .unionSet(let left, _), .intersectSet(let left, _), .minusSet(let left, _): return left
        default: misuse("leftExpression")
        }
    }

    /// The right expression of a set expression (union, intersection, minus).
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var rightExpression: NSExpression {
        switch storage {
        case .unionSet(_, let right), .intersectSet(_, let right), .minusSet(_, let right): return right
        default: misuse("rightExpression")
        }
    }

    /// The expression a conditional expression returns when its predicate is true.
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var trueExpression: NSExpression {
        if case .conditional(_, let expression, _) = storage { return expression }
        misuse("trueExpression")
    }

    /// The expression a conditional expression returns when its predicate is false.
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var falseExpression: NSExpression {
        if case .conditional(_, _, let expression) = storage { return expression }
        misuse("falseExpression")
    }

    /// The block of a block expression.
    ///
    /// Reading it from an expression of another kind is a programmer error and traps.
    public var expressionBlock: (Any?, [Any], NSMutableDictionary?) -> Any {
        if case .block(let block, _) = storage { return block }
        misuse("expressionBlock")
    }

    /// Whether the expression is a `FUNCTION(receiver, 'selector:', …)` call rather than a built-in function.
    var isMethodCall: Bool {
        if case .method = storage { return true }
        return false
    }
}

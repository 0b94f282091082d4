import Foundation

/// An expression that evaluates to the result of executing a fetch request in a managed object context.
///
/// Its first argument is an expression that evaluates to an `NSFetchRequest`, its second one that
/// evaluates to an `NSManagedObjectContext`. When the expression is evaluated, the context performs
/// `fetch(_:)` with the request, or `count(for:)` when the expression is count-only. Its predicate format
/// is `FETCH(request, context, countOnly)`, and its ``NSExpression/expressionType`` is
/// ``NSFetchRequestExpressionType``.
open class NSFetchRequestExpression: NSExpression, @unchecked Sendable {
    // @unchecked Sendable: as NSExpression, it holds only its immutable storage.

    /// Returns an expression that evaluates to the result of executing a fetch request on a context.
    ///
    /// - Parameters:
    ///   - fetch: An expression that evaluates to an instance of `NSFetchRequest`.
    ///   - context: An expression that evaluates to an instance of `NSManagedObjectContext`.
    ///   - countFlag: If `true`, evaluating the expression performs `count(for:)` with the request;
    ///     if `false`, it performs `fetch(_:)`.
    open class func expression(
        forFetch fetch: NSExpression, context: NSExpression,
        countOnly countFlag: Bool
    ) -> NSExpression {
        NSFetchRequestExpression(
            storage: .function(
                FetchExpression.functionName,
                arguments: [
                    fetch, context, NSExpression(forConstantValue: countFlag),
                ]))
    }

    private var _fetchArguments: [NSExpression] {
        if case .function(_, let arguments) = storage, arguments.count == 3 { return arguments }
        return [NSExpression(forConstantValue: nil), NSExpression(forConstantValue: nil), NSExpression(forConstantValue: false)]
    }

    /// The expression that evaluates to the fetch request.
    open var requestExpression: NSExpression { _fetchArguments[0] }

    /// The expression that evaluates to the managed object context.
    open var contextExpression: NSExpression { _fetchArguments[1] }

    /// Whether the expression performs `count(for:)` rather than `fetch(_:)` when evaluated.
    open var isCountOnlyRequest: Bool {
        let flag = _fetchArguments[2]
        return flag.expressionType == .constantValue && FetchExpression.isCountOnly(flag.constantValue)
    }
}

/// The expression type of a fetch request expression (``NSFetchRequestExpression``).
public let NSFetchRequestExpressionType: NSExpression.ExpressionType = .fetchRequest

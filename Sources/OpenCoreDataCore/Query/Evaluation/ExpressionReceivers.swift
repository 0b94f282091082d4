/// Objects that answer `FUNCTION(object, "selector:", …)` and `FETCH(request, context, countOnly)`
/// themselves. Linux has no Objective-C runtime, so a selector name cannot be sent as a message: the
/// layers above the Query layer (migration managers and policies, managed object contexts) adopt these
/// protocols instead.

/// What a receiver did with a `FUNCTION` call.
enum ExpressionMethodOutcome {
    /// The receiver implements the selector; the call returned this value.
    case handled(Any?)
    /// The receiver does not implement the selector; the generic rules apply.
    case notHandled
}

/// An object that implements selectors called by `FUNCTION(object, "selector:", …)` expressions.
protocol ExpressionMethodReceiver: AnyObject {
    /// Calls the method named `selector` with evaluated `arguments`.
    func _expressionMethod(_ selector: String, arguments: [Any?]) -> ExpressionMethodOutcome
}

/// An object that executes the fetch request of a `FETCH(request, context, countOnly)` expression
/// (the context argument).
protocol ExpressionFetchPerformer: AnyObject {
    /// Executes `request` (a fetch request, or anything else, which gives `nil`) and returns the
    /// objects found, or their number when `countOnly` is true.
    func _expressionFetch(_ request: Any?, countOnly: Bool) -> Any?
}

/// Evaluation of `FETCH(request, context, countOnly)`.
enum FetchExpression {
    /// The function name `FETCH(…)` expressions are stored under.
    static let functionName = "FETCH"

    /// Executes the request in the context; `nil` when the context cannot fetch.
    static func evaluate(_ arguments: [Any?]) -> Any? {
        guard arguments.count == 3,
            let performer = EvaluationValues.flatten(arguments[1]) as? ExpressionFetchPerformer
        else { return nil }
        return performer._expressionFetch(
            EvaluationValues.flatten(arguments[0]),
            countOnly: isCountOnly(EvaluationValues.flatten(arguments[2])))
    }

    /// Whether a count-only flag's value (a Boolean or a number) asks for a count.
    static func isCountOnly(_ flag: Any?) -> Bool {
        (flag as? Bool) ?? (NumericValue(flag)?.int64Value.map { $0 != 0 } ?? false)
    }
}

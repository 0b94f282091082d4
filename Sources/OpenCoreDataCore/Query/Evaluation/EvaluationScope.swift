/// The variables visible while a predicate or expression is evaluated: substitution variables, the
/// iteration variables of enclosing subqueries, and the caller's context dictionary.
struct EvaluationScope {
    /// Substitution variables and subquery iteration variables, innermost last written.
    var variables: [String: Any]
    /// The context passed to `expressionValue(with:context:)`, also searched for variables.
    let context: NSMutableDictionary?

    /// Returns the value of the named variable, or `nil` when it is not bound.
    func value(ofVariable name: String) -> Any? {
        if let value = variables[name] { return EvaluationValues.flatten(value) }
        if let context, let value = context.object(forKey: name) { return EvaluationValues.flatten(value) }
        return nil
    }

    /// A scope in which `name` is bound to `value`.
    func binding(_ name: String, to value: Any?) -> EvaluationScope {
        var copy = self
        copy.variables[name] = value ?? NSNull()
        return copy
    }

    /// The variables handed to block predicates.
    var variablesForBlock: [String: Any]? {
        var all: [String: Any] = [:]
        if let context {
            for (key, value) in context {
                if let key = key as? String { all[key] = value }
            }
        }
        for (key, value) in variables { all[key] = value }
        return all.isEmpty ? nil : all
    }
}

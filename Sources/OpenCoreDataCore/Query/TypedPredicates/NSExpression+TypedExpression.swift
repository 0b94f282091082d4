import Foundation

extension NSExpression {
    /// Creates an expression equivalent to a type-safe `Expression` (`#Expression`), or returns `nil` when
    /// one of its parts has no counterpart or a key path names no persistent property.
    public convenience init?<Input: NSObject, Output>(_ expression: Foundation.Expression<Input, Output>) {
        let conversion = TypedPredicateConversion(input: expression.variable.key)
        guard let converted = try? conversion.expression(expression.expression) else { return nil }
        self.init(storage: converted.storage)
    }
}

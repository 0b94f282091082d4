/// The form in which a derived attribute keeps its derivation expression: a key path ending in
/// `@count` (`pages.@count`, `book.pages.@count`) becomes the function expression `count:(pages)`;
/// every other expression is kept as it is.
enum DerivationExpressionForm {
    /// The expression as a derived attribute records it.
    static func recorded(_ expression: NSExpression) -> NSExpression {
        guard case let .keyPath(path, operand) = expression.storage, case .evaluatedObject = operand.storage,
            path.hasSuffix(".@count")
        else { return expression }
        let collection = String(path.dropLast(".@count".count))
        guard !collection.isEmpty, !collection.contains("@") else { return expression }
        return NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: collection)])
    }
}

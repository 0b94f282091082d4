import Foundation

/// Reads the predicate and expression texts of a model file (fetch request templates, fetched
/// properties, derivation expressions) through the query layer's format parser.
enum ModelPredicateText {
    /// The predicate `text` denotes; `what` names the XML attribute for the error message.
    static func predicate(_ text: String, at location: ModelFileError.Location, what: String) throws -> NSPredicate {
        do {
            return try NSPredicate(validatingFormat: text, argumentArray: nil)
        } catch {
            throw ModelFileError.invalid("\(what) \"\(text)\" is not a valid predicate: \(error.localizedDescription)", at: location)
        }
    }

    /// The expression `text` denotes; `what` names the XML attribute for the error message.
    static func expression(_ text: String, at location: ModelFileError.Location, what: String) throws -> NSExpression {
        do {
            return try NSExpression(validatingFormat: text, argumentArray: nil)
        } catch {
            if let canonical = try canonicalCall(text) { return canonical }
            throw ModelFileError.invalid("\(what) \"\(text)\" is not a valid expression: \(error.localizedDescription)", at: location)
        }
    }

    /// Core Data's derived-attribute function `canonical:(x)`: the string `x` with case and diacritics
    /// folded away (Xcode offers it for search keys; SwiftGen's real model uses it).
    ///
    /// Used only when the query layer's parser does not know the function: the argument is parsed as an
    /// expression and wrapped in a block expression that folds its value, so the attribute evaluates as
    /// Core Data's does. Returns `nil` when `text` is not a single `canonical:(…)` call.
    static func canonicalCall(_ text: String) throws -> NSExpression? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let prefix = "canonical:("
        guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(")") else { return nil }
        let inner = String(trimmed.dropFirst(prefix.count).dropLast())
        guard !inner.isEmpty, let argument = try? NSExpression(validatingFormat: inner, argumentArray: nil) else { return nil }
        return NSExpression(block: { _, values, _ in
            guard let string = values.first as? String else { return values.first ?? NSNull() }
            return string.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }, arguments: [argument])
    }
}

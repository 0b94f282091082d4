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
            throw ModelFileError.invalid("\(what) \"\(text)\" is not a valid expression: \(error.localizedDescription)", at: location)
        }
    }
}

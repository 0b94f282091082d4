import Foundation

/// Parses Apple's predicate format language into predicate and expression objects.
enum PredicateFormatParser {
    static func parsePredicate(_ format: String, arguments: [Any?]) throws -> NSPredicate {
        throw NSError(domain: NSCocoaErrorDomain, code: NSFormattingError,
                      userInfo: [NSLocalizedDescriptionKey: "Unable to parse the format string \"\(format)\""])
    }

    static func parseExpression(_ format: String, arguments: [Any?]) throws -> NSExpression {
        throw NSError(domain: NSCocoaErrorDomain, code: NSFormattingError,
                      userInfo: [NSLocalizedDescriptionKey: "Unable to parse the format string \"\(format)\""])
    }
}

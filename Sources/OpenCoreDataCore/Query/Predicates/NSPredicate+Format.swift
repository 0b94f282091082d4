/// The format-string initializers of ``NSPredicate`` and its subclasses.
///
/// `NSPredicate` is a class cluster, as on Apple platforms: the initializers return an instance of the
/// subclass that the text describes (``NSComparisonPredicate`` for `a == 1`, ``NSCompoundPredicate`` for
/// `a == 1 AND b == 2`, `NSPredicate` for `TRUEPREDICATE`). Asking a subclass for text of another
/// kind — `NSComparisonPredicate(format: "a == 1 AND b == 2")` — is a programmer error and traps.
public protocol PredicateFormatInitializable {}

extension PredicateFormatInitializable where Self: NSPredicate {
    /// Creates a predicate by substituting the given arguments into a format string and parsing the result.
    ///
    /// On Linux, `String` is not `CVarArg`, so the arguments are `Any?` rather than `CVarArg`; any value
    /// (strings, numbers, dates, arrays, `nil`, objects) can be passed for `%@`, and a string for `%K`.
    /// Malformed text is a programmer error: the initializer traps with a message that quotes the text
    /// and the offset of the problem. Use ``init(validatingFormat:argumentArray:)`` for text that comes
    /// from users.
    public init(format predicateFormat: String, _ args: Any?...) {
        self = Self.parseOrTrap(predicateFormat, arguments: args)
    }

    /// Creates a predicate by substituting the values in an argument array into a format string and
    /// parsing the result.
    ///
    /// Malformed text is a programmer error: the initializer traps with a message that quotes the text and
    /// the offset of the problem. Use ``init(validatingFormat:argumentArray:)`` for text that comes from
    /// users.
    public init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        self = Self.parseOrTrap(predicateFormat, arguments: (arguments ?? []).map { Optional($0) })
    }

    /// Creates a predicate from a format string, throwing an error instead of trapping when the text is
    /// malformed.
    ///
    /// The error is an `NSError` in `NSCocoaErrorDomain` with code `NSFormattingError`; its message names
    /// what was expected and the character offset. This initializer is an OpenCoreData addition for text
    /// that comes from users or files (Apple platforms raise an Objective-C exception instead).
    public init(validatingFormat predicateFormat: String, argumentArray arguments: [Any]? = nil) throws {
        let parsed = try PredicateFormatParser.parsePredicate(
            predicateFormat,
            arguments: (arguments ?? []).map { Optional($0) })
        guard let result = parsed as? Self else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSFormattingError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The format string \"\(predicateFormat)\" describes \(type(of: parsed)), not \(Self.self)"
                ])
        }
        self = result
    }

    private static func parseOrTrap(_ format: String, arguments: [Any?]) -> Self {
        let parsed: NSPredicate
        do {
            parsed = try PredicateFormatParser.parsePredicate(format, arguments: arguments)
        } catch {
            let message = (error as NSError).localizedDescription
            preconditionFailure(
                message.contains(format)
                    ? message
                    : "Unable to parse the format string \"\(format)\": \(message)")
        }
        guard let result = parsed as? Self else {
            preconditionFailure("The format string \"\(format)\" describes a \(type(of: parsed)), not a \(Self.self)")
        }
        return result
    }
}

import Foundation

/// The key, in the `userInfo` of an error thrown for a malformed predicate format string, whose value is
/// the format string that could not be parsed.
public let NSPredicateFormatStringErrorKey: String = "NSPredicateFormatString"

/// The key, in the `userInfo` of an error thrown for a malformed predicate format string, whose value is
/// the character offset (an `Int`, counted from zero) at which parsing failed.
public let NSPredicateFormatOffsetErrorKey: String = "NSPredicateFormatOffset"

/// A parse failure inside the format parser: a message and the scalar offset where it happened.
struct PredicateFormatFailure: Error {
    let message: String
    let offset: Int

    /// The `NSError` users see: `NSCocoaErrorDomain`, `NSFormattingError`, with the format and the
    /// character offset in `userInfo`.
    func error(in scalars: [Unicode.Scalar], format: String) -> NSError {
        let clamped = max(0, min(offset, scalars.count))
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars[0..<clamped])
        let characterOffset = String(prefix).count
        // Very long texts are shortened in the message; userInfo keeps the whole text.
        let shown = format.count > 300 ? String(format.prefix(300)) + "…" : format
        let description = "Unable to parse the format string \"\(shown)\": \(message) at offset \(characterOffset)"
        return NSError(
            domain: NSCocoaErrorDomain, code: NSFormattingError,
            userInfo: [
                NSLocalizedDescriptionKey: description,
                NSLocalizedFailureReasonErrorKey: "\(message) at offset \(characterOffset)",
                NSPredicateFormatStringErrorKey: format,
                NSPredicateFormatOffsetErrorKey: characterOffset,
            ])
    }
}

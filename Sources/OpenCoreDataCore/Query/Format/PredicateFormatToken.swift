import Foundation

/// One lexical unit of a predicate format string.
struct PredicateFormatToken: Sendable {
    /// What kind of token this is, with its value.
    let kind: Kind
    /// The offset, in Unicode scalars, of the token's first character in the format string.
    let offset: Int
    /// The offset, in Unicode scalars, just past the token's last character.
    let end: Int

    enum Kind: Sendable, Equatable {
        /// A bare word: a key or a reserved word (reserved words are recognized by the parser).
        case identifier(String)
        /// A word written with a leading `#`, which is always a key, even when it is a reserved word.
        case escapedIdentifier(String)
        /// `$name`.
        case variable(String)
        /// `@name`, a key-path collection operator such as `@count`.
        case collectionOperator(String)
        /// An integer literal (decimal, `0x`, `0o` or `0b`).
        case integer(Int)
        /// A floating-point literal.
        case double(Double)
        /// A quoted string literal, escapes resolved.
        case string(String)
        /// A format specifier such as `%@`, `%K`, `%d` or `%1$@`.
        case argument(PredicateFormatSpecifier)
        case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket
        case comma, dot, colon
        case plus, minus, star, slash, power
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        case and, or, not
        case end
    }
}

/// A `%` conversion in a format string, naming how its argument is to be read.
struct PredicateFormatSpecifier: Sendable, Equatable {
    enum Conversion: Sendable, Equatable {
        /// `%@`: an object, inserted as a constant (or as itself when it is an expression).
        case object
        /// `%K`: a key path given as a string.
        case keyPath
        /// `%d`, `%i`, `%ld`, `%lld`, `%u`, `%lu`, `%hd`, `%x`, `%o`, …: an integer.
        case integer
        /// `%f`, `%lf`, `%e`, `%g`, …: a floating-point number.
        case floatingPoint
        /// `%s`: a C string, inserted as a string constant.
        case cString
        /// `%c`: a character, inserted as a one-character string constant.
        case character
    }

    let conversion: Conversion
    /// The 1-based argument position of a positional specifier (`%2$@`), or `nil`.
    let position: Int?
    /// The specifier as written, for messages.
    let text: String
}

import Foundation

/// Splits a predicate format string into tokens.
///
/// The lexer works on Unicode scalars and never looks further back than the current token, so it runs in
/// time linear in the length of the text.
struct PredicateFormatLexer {
    let scalars: [Unicode.Scalar]
    private var index = 0

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    /// Reads every token, ending with `.end`.
    static func tokenize(_ scalars: [Unicode.Scalar]) throws(PredicateFormatFailure) -> [PredicateFormatToken] {
        var lexer = PredicateFormatLexer(scalars: scalars)
        var tokens: [PredicateFormatToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let position = index + ahead
        return position < scalars.count ? scalars[position] : nil
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
        default: return false
        }
    }

    private static func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return scalar.value >= 0x30 && scalar.value <= 0x39
    }

    private mutating func next() throws(PredicateFormatFailure) -> PredicateFormatToken {
        while let scalar = peek(), scalar.properties.isWhitespace { index += 1 }
        let start = index
        guard let scalar = peek() else { return PredicateFormatToken(kind: .end, offset: start, end: start) }

        func token(_ kind: PredicateFormatToken.Kind, length: Int) -> PredicateFormatToken {
            index = start + length
            return PredicateFormatToken(kind: kind, offset: start, end: index)
        }

        switch scalar {
        case "(": return token(.leftParen, length: 1)
        case ")": return token(.rightParen, length: 1)
        case "{": return token(.leftBrace, length: 1)
        case "}": return token(.rightBrace, length: 1)
        case "[": return token(.leftBracket, length: 1)
        case "]": return token(.rightBracket, length: 1)
        case ",": return token(.comma, length: 1)
        case ":": return token(.colon, length: 1)
        case "+": return token(.plus, length: 1)
        case "-": return token(.minus, length: 1)
        case "/": return token(.slash, length: 1)
        case "*": return peek(1) == "*" ? token(.power, length: 2) : token(.star, length: 1)
        case ".":
            if Self.isDigit(peek(1)) { return try number() }
            return token(.dot, length: 1)
        case "=":
            switch peek(1) {
            case "=": return token(.equal, length: 2)
            case "<": return token(.lessOrEqual, length: 2)
            case ">": return token(.greaterOrEqual, length: 2)
            default: return token(.equal, length: 1)
            }
        case "!": return peek(1) == "=" ? token(.notEqual, length: 2) : token(.not, length: 1)
        case "<":
            switch peek(1) {
            case "=": return token(.lessOrEqual, length: 2)
            case ">": return token(.notEqual, length: 2)
            default: return token(.less, length: 1)
            }
        case ">": return peek(1) == "=" ? token(.greaterOrEqual, length: 2) : token(.greater, length: 1)
        case "&":
            guard peek(1) == "&" else { throw PredicateFormatFailure(message: "expected '&&'", offset: start) }
            return token(.and, length: 2)
        case "|":
            guard peek(1) == "|" else { throw PredicateFormatFailure(message: "expected '||'", offset: start) }
            return token(.or, length: 2)
        case "\"", "'": return try stringLiteral(quote: scalar)
        case "%": return try specifier()
        case "$":
            index += 1
            let name = identifierText()
            guard !name.isEmpty else {
                throw PredicateFormatFailure(message: "expected a variable name after '$'", offset: start)
            }
            return PredicateFormatToken(kind: .variable(name), offset: start, end: index)
        case "#":
            index += 1
            let name = identifierText()
            guard !name.isEmpty else {
                throw PredicateFormatFailure(message: "expected a key after '#'", offset: start)
            }
            return PredicateFormatToken(kind: .escapedIdentifier(name), offset: start, end: index)
        case "@":
            index += 1
            let name = identifierText()
            guard !name.isEmpty else {
                throw PredicateFormatFailure(message: "expected a collection operator name after '@'", offset: start)
            }
            return PredicateFormatToken(kind: .collectionOperator(name), offset: start, end: index)
        default:
            if Self.isDigit(scalar) { return try number() }
            if Self.isIdentifierStart(scalar) {
                let name = identifierText()
                return PredicateFormatToken(kind: .identifier(name), offset: start, end: index)
            }
            throw PredicateFormatFailure(message: "unexpected character '\(Self.display(scalar))'", offset: start)
        }
    }

    private static func display(_ scalar: Unicode.Scalar) -> String {
        if scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F {
            return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
        return String(Character(scalar))
    }

    private mutating func identifierText() -> String {
        guard let first = peek(), Self.isIdentifierStart(first) else { return "" }
        var text = String.UnicodeScalarView()
        while let scalar = peek(), Self.isIdentifierPart(scalar) {
            text.append(scalar)
            index += 1
        }
        return String(text)
    }

    // MARK: Numbers

    private mutating func number() throws(PredicateFormatFailure) -> PredicateFormatToken {
        let start = index
        if peek() == "0", let marker = peek(1), let radix = Self.radix(for: marker) {
            index += 2
            var digits = ""
            while let scalar = peek(), Self.isIdentifierPart(scalar) {
                digits.unicodeScalars.append(scalar)
                index += 1
            }
            guard !digits.isEmpty else {
                throw PredicateFormatFailure(message: "expected digits after '0\(marker)'", offset: start)
            }
            guard let value = Int(digits, radix: radix) else {
                throw PredicateFormatFailure(
                    message: "invalid or too large base-\(radix) integer literal '0\(marker)\(digits)'", offset: start)
            }
            return PredicateFormatToken(kind: .integer(value), offset: start, end: index)
        }
        var text = ""
        var isFloat = false
        while Self.isDigit(peek()) {
            text.unicodeScalars.append(scalars[index])
            index += 1
        }
        if peek() == ".", Self.isDigit(peek(1)) {
            isFloat = true
            text.append(".")
            index += 1
            while Self.isDigit(peek()) {
                text.unicodeScalars.append(scalars[index])
                index += 1
            }
        }
        if let e = peek(), e == "e" || e == "E" {
            var lookahead = 1
            if let sign = peek(1), sign == "+" || sign == "-" { lookahead = 2 }
            if Self.isDigit(peek(lookahead)) {
                isFloat = true
                text.append("e")
                if lookahead == 2, let sign = peek(1) { text.unicodeScalars.append(sign) }
                index += lookahead
                while Self.isDigit(peek()) {
                    text.unicodeScalars.append(scalars[index])
                    index += 1
                }
            }
        }
        if let scalar = peek(), Self.isIdentifierStart(scalar) {
            throw PredicateFormatFailure(message: "unexpected character '\(Self.display(scalar))' in a number", offset: index)
        }
        if text.hasPrefix(".") { text = "0" + text }
        if !isFloat, let value = Int(text) {
            return PredicateFormatToken(kind: .integer(value), offset: start, end: index)
        }
        guard let value = Double(text), value.isFinite else {
            throw PredicateFormatFailure(message: "number '\(text)' is out of range", offset: start)
        }
        return PredicateFormatToken(kind: .double(value), offset: start, end: index)
    }

    private static func radix(for marker: Unicode.Scalar) -> Int? {
        switch marker {
        case "x", "X": return 16
        case "o", "O": return 8
        case "b", "B": return 2
        default: return nil
        }
    }

    // MARK: Strings

    private mutating func stringLiteral(quote: Unicode.Scalar) throws(PredicateFormatFailure) -> PredicateFormatToken {
        let start = index
        index += 1
        var value = String.UnicodeScalarView()
        while true {
            guard let scalar = peek() else {
                throw PredicateFormatFailure(message: "unterminated string literal starting", offset: start)
            }
            index += 1
            if scalar == quote { break }
            if scalar == "%" {
                // `%%` inside a literal is a percent sign, as in a printf format.
                if peek() == "%" { index += 1 }
                value.append("%")
                continue
            }
            guard scalar == "\\" else {
                value.append(scalar)
                continue
            }
            let escapeStart = index - 1
            guard let escaped = peek() else {
                throw PredicateFormatFailure(message: "unterminated string literal starting", offset: start)
            }
            index += 1
            switch escaped {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "0": value.append("\0")
            case "a": value.append("\u{07}")
            case "b": value.append("\u{08}")
            case "f": value.append("\u{0C}")
            case "v": value.append("\u{0B}")
            case "\\", "'", "\"": value.append(escaped)
            case "u", "U":
                value.append(try unicodeEscape(escapeStart: escapeStart))
            default:
                // Any other escape keeps its backslash, so regular expressions such as '\d' pass through.
                value.append("\\")
                value.append(escaped)
            }
        }
        return PredicateFormatToken(kind: .string(String(value)), offset: start, end: index)
    }

    private mutating func unicodeEscape(escapeStart: Int) throws(PredicateFormatFailure) -> Unicode.Scalar {
        var digits = ""
        if peek() == "{" {
            index += 1
            while let scalar = peek(), scalar != "}", digits.unicodeScalars.count < 9 {
                digits.unicodeScalars.append(scalar)
                index += 1
            }
            guard peek() == "}" else {
                throw PredicateFormatFailure(message: "expected '}' to end the \\u{…} escape", offset: escapeStart)
            }
            index += 1
        } else {
            while digits.unicodeScalars.count < 4, let scalar = peek(), scalar.properties.isASCIIHexDigit {
                digits.unicodeScalars.append(scalar)
                index += 1
            }
            guard digits.unicodeScalars.count == 4 else {
                throw PredicateFormatFailure(message: "expected four hexadecimal digits after '\\u'", offset: escapeStart)
            }
        }
        guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
            throw PredicateFormatFailure(message: "invalid Unicode escape '\\u\(digits)'", offset: escapeStart)
        }
        return scalar
    }

    // MARK: Format specifiers

    private mutating func specifier() throws(PredicateFormatFailure) -> PredicateFormatToken {
        let start = index
        index += 1
        var position: Int?
        // Positional form: %1$@
        if Self.isDigit(peek()) {
            var digits = ""
            var probe = index
            while probe < scalars.count, Self.isDigit(scalars[probe]), digits.count < 6 {
                digits.unicodeScalars.append(scalars[probe])
                probe += 1
            }
            if probe < scalars.count, scalars[probe] == "$", let value = Int(digits), value > 0 {
                position = value
                index = probe + 1
            }
        }
        // Length modifiers.
        var modifiers = ""
        while let scalar = peek(), ["l", "h", "q", "L", "z", "t", "j"].contains(scalar), modifiers.count < 3 {
            modifiers.unicodeScalars.append(scalar)
            index += 1
        }
        guard let conversionScalar = peek() else {
            throw PredicateFormatFailure(message: "expected a format specifier after '%'", offset: start)
        }
        index += 1
        let conversion: PredicateFormatSpecifier.Conversion
        switch conversionScalar {
        case "@": conversion = .object
        case "K": conversion = .keyPath
        case "d", "i", "u", "x", "X", "o", "D", "U", "O": conversion = .integer
        case "f", "F", "e", "E", "g", "G", "a", "A": conversion = .floatingPoint
        case "s", "S": conversion = .cString
        case "c", "C": conversion = .character
        case "%" where position == nil && modifiers.isEmpty:
            throw PredicateFormatFailure(
                message: "'%%' is a percent sign only inside a string literal; expected an expression", offset: start)
        default:
            throw PredicateFormatFailure(
                message: "unknown format specifier '%\(modifiers)\(Self.display(conversionScalar))'", offset: start)
        }
        if conversion == .object || conversion == .keyPath, !modifiers.isEmpty {
            throw PredicateFormatFailure(message: "unknown format specifier '%\(modifiers)\(conversionScalar)'", offset: start)
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[start..<index])
        let spec = PredicateFormatSpecifier(conversion: conversion, position: position, text: String(text))
        return PredicateFormatToken(kind: .argument(spec), offset: start, end: index)
    }
}

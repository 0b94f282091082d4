import Foundation

/// Parses Apple's predicate format language into predicate and expression objects.
///
/// The grammar is the one of Apple's *Predicate Programming Guide* ("Predicate Format String Syntax"):
/// comparisons, `AND`/`OR`/`NOT` (`NOT` binds tighter than `AND`, which binds tighter than `OR`),
/// `ANY`/`SOME`/`ALL`/`NONE`, `SUBQUERY`, functions, arithmetic, key paths, `$VARIABLE`s, literals and
/// `%` argument specifiers. Malformed text throws an `NSError` in `NSCocoaErrorDomain` with code
/// `NSFormattingError` whose message names what was expected and the character offset; the offset and the
/// text are also in its `userInfo` under ``NSPredicateFormatOffsetErrorKey`` and
/// ``NSPredicateFormatStringErrorKey``.
enum PredicateFormatParser {
    /// Parses a whole predicate.
    static func parsePredicate(_ format: String, arguments: [Any?]) throws -> NSPredicate {
        let scalars = Array(format.unicodeScalars)
        do {
            var parser = try PredicateFormatSyntax(scalars: scalars, arguments: arguments)
            return try parser.parseWholePredicate()
        } catch let failure {
            throw failure.error(in: scalars, format: format)
        }
    }

    /// Parses a whole expression.
    static func parseExpression(_ format: String, arguments: [Any?]) throws -> NSExpression {
        let scalars = Array(format.unicodeScalars)
        do {
            var parser = try PredicateFormatSyntax(scalars: scalars, arguments: arguments)
            return try parser.parseWholeExpression()
        } catch let failure {
            throw failure.error(in: scalars, format: format)
        }
    }
}

/// The recursive-descent parser over the tokens of one format string.
///
/// Parentheses may hold either a predicate or an expression (`(a > 1 OR b > 2)`, `(a + 1) * 2`), so the
/// levels that can meet a parenthesis return a ``Node`` that is one or the other, and each level checks
/// that it got what it needs. Nesting is limited to ``maximumDepth`` levels so that hostile input cannot
/// exhaust the stack.
struct PredicateFormatSyntax {
    /// A parsed piece of text: a predicate or an expression.
    enum Node {
        case predicate(NSPredicate)
        case expression(NSExpression)
    }

    /// How deeply parentheses, braces, function calls, `NOT`s and unary minuses may nest.
    static let maximumDepth = 100

    let scalars: [Unicode.Scalar]
    let tokens: [PredicateFormatToken]
    var position = 0
    var arguments: PredicateFormatArguments
    private var depth = 0
    /// How many parentheses are open around the current position.
    var parenthesisDepth = 0

    init(scalars: [Unicode.Scalar], arguments: [Any?]) throws(PredicateFormatFailure) {
        self.scalars = scalars
        self.tokens = try PredicateFormatLexer.tokenize(scalars)
        self.arguments = PredicateFormatArguments(arguments)
    }

    // MARK: Token access

    var current: PredicateFormatToken { tokens[position] }

    var previous: PredicateFormatToken? { position > 0 ? tokens[position - 1] : nil }

    func peekKind(_ ahead: Int = 1) -> PredicateFormatToken.Kind {
        let index = min(position + ahead, tokens.count - 1)
        return tokens[index].kind
    }

    @discardableResult
    mutating func advance() -> PredicateFormatToken {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    /// The token as written, quoted for a message.
    func describe(_ token: PredicateFormatToken) -> String {
        switch token.kind {
        case .end: return "the end of the string"
        case .string: return "a string literal"
        default:
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[token.offset..<min(token.end, scalars.count)])
            let written = String(text)
            return written.count > 40 ? "'\(written.prefix(40))…'" : "'\(written)'"
        }
    }

    /// The uppercased word of an unescaped identifier token, for keyword matching.
    func keyword(_ token: PredicateFormatToken) -> String? {
        if case .identifier(let name) = token.kind { return name.uppercased() }
        return nil
    }

    func isKeyword(_ word: String) -> Bool { keyword(current) == word }

    mutating func expect(_ kind: PredicateFormatToken.Kind, _ what: String) throws(PredicateFormatFailure) {
        guard current.kind == kind else {
            throw PredicateFormatFailure(message: "expected \(what), found \(describe(current))", offset: current.offset)
        }
        advance()
    }

    /// Enters one level of nesting, failing when the text nests too deeply.
    mutating func enter() throws(PredicateFormatFailure) {
        depth += 1
        if depth > Self.maximumDepth {
            throw PredicateFormatFailure(
                message: "the format string nests more than \(Self.maximumDepth) levels deep", offset: current.offset)
        }
    }

    mutating func leave() { depth -= 1 }

    // MARK: Whole texts

    mutating func parseWholePredicate() throws(PredicateFormatFailure) -> NSPredicate {
        if current.kind == .end {
            throw PredicateFormatFailure(message: "expected a predicate, found an empty string", offset: 0)
        }
        let node = try parseOr()
        let predicate = try requirePredicate(node, at: current)
        guard current.kind == .end else {
            throw PredicateFormatFailure(
                message: "expected the end of the predicate, found \(describe(current))", offset: current.offset)
        }
        return predicate
    }

    mutating func parseWholeExpression() throws(PredicateFormatFailure) -> NSExpression {
        if current.kind == .end {
            throw PredicateFormatFailure(message: "expected an expression, found an empty string", offset: 0)
        }
        let expression = try parseExpression()
        guard current.kind == .end else {
            throw PredicateFormatFailure(
                message: "expected the end of the expression, found \(describe(current))", offset: current.offset)
        }
        return expression
    }

    func requirePredicate(_ node: Node, at token: PredicateFormatToken) throws(PredicateFormatFailure) -> NSPredicate {
        switch node {
        case .predicate(let predicate): return predicate
        case .expression:
            throw PredicateFormatFailure(
                message: "expected a comparison operator, found \(describe(token))", offset: token.offset)
        }
    }

    // MARK: Predicates

    /// `or := and (("OR" | "||") and)*`
    mutating func parseOr() throws(PredicateFormatFailure) -> Node {
        let first = try parseAnd()
        guard isOr(current) else { return first }
        var subpredicates = [try requirePredicate(first, at: current)]
        while isOr(current) {
            let operatorToken = advance()
            let next = try parseAnd(after: operatorToken)
            subpredicates.append(try requirePredicate(next, at: current))
        }
        return .predicate(NSCompoundPredicate(orPredicateWithSubpredicates: subpredicates))
    }

    /// `and := not (("AND" | "&&") not)*`
    mutating func parseAnd(after operatorToken: PredicateFormatToken? = nil) throws(PredicateFormatFailure) -> Node {
        let first = try parseNot(after: operatorToken)
        guard isAnd(current) else { return first }
        var subpredicates = [try requirePredicate(first, at: current)]
        while isAnd(current) {
            let operatorToken = advance()
            let next = try parseNot(after: operatorToken)
            subpredicates.append(try requirePredicate(next, at: current))
        }
        return .predicate(NSCompoundPredicate(andPredicateWithSubpredicates: subpredicates))
    }

    /// `not := ("NOT" | "!") not | comparison`
    mutating func parseNot(after operatorToken: PredicateFormatToken? = nil) throws(PredicateFormatFailure) -> Node {
        if let operatorToken, current.kind == .end {
            throw PredicateFormatFailure(
                message: "expected a predicate after \(describe(operatorToken))", offset: current.offset)
        }
        guard current.kind == .not || isKeyword("NOT") else { return try parseComparison() }
        let notToken = advance()
        try enter()
        defer { leave() }
        if current.kind == .end {
            throw PredicateFormatFailure(message: "expected a predicate after \(describe(notToken))", offset: current.offset)
        }
        let operand = try parseNot()
        let predicate = try requirePredicate(operand, at: current)
        return .predicate(NSCompoundPredicate(notPredicateWithSubpredicate: predicate))
    }

    private func isOr(_ token: PredicateFormatToken) -> Bool { token.kind == .or || keyword(token) == "OR" }

    private func isAnd(_ token: PredicateFormatToken) -> Bool { token.kind == .and || keyword(token) == "AND" }

    /// `comparison := TRUEPREDICATE | FALSEPREDICATE | [modifier] expression operator [options] expression`
    mutating func parseComparison() throws(PredicateFormatFailure) -> Node {
        switch keyword(current) {
        case "TRUEPREDICATE":
            advance()
            return .predicate(NSPredicate(value: true))
        case "FALSEPREDICATE":
            advance()
            return .predicate(NSPredicate(value: false))
        case "ANY", "SOME", "ALL", "NONE":
            let word = keyword(current)
            // NONE is NOT ANY: it counts as a level, as the NOT it prints as does.
            if word == "NONE" { try enter() }
            defer { if word == "NONE" { leave() } }
            let modifierToken = advance()
            let left = try parseExpression(after: modifierToken)
            guard let comparison = try parseOperator() else {
                throw PredicateFormatFailure(
                    message: "expected a comparison operator after \(describe(modifierToken)) and its expression, "
                        + "found \(describe(current))", offset: current.offset)
            }
            let modifier: NSComparisonPredicate.Modifier = word == "ALL" ? .all : .any
            let right = try parseExpression(after: comparison.token)
            let predicate = makeComparison(left, right, modifier: modifier, comparison)
            if word == "NONE" { return .predicate(NSCompoundPredicate(notPredicateWithSubpredicate: predicate)) }
            return .predicate(predicate)
        default:
            break
        }
        let node = try parseSetExpression()
        guard case .expression(let left) = node else { return node }
        guard let comparison = try parseOperator() else {
            if current.kind == .rightParen, parenthesisDepth > 0 { return node }
            throw PredicateFormatFailure(
                message: "expected a comparison operator, found \(describe(current))", offset: current.offset)
        }
        let right = try parseExpression(after: comparison.token)
        return .predicate(makeComparison(left, right, modifier: .direct, comparison))
    }

    /// A comparison operator with its options, as read from the text.
    struct Comparison {
        let type: NSComparisonPredicate.Operator
        let options: NSComparisonPredicate.Options
        /// The operator token (or its options' closing bracket), for messages.
        let token: PredicateFormatToken
    }

    private func makeComparison(
        _ left: NSExpression, _ right: NSExpression,
        modifier: NSComparisonPredicate.Modifier, _ comparison: Comparison
    ) -> NSComparisonPredicate {
        NSComparisonPredicate(
            leftExpression: left, rightExpression: right, modifier: modifier,
            type: comparison.type, options: comparison.options)
    }

    /// Reads a comparison operator and its `[cdn]` options, or returns `nil` when the current token is not
    /// one.
    mutating func parseOperator() throws(PredicateFormatFailure) -> Comparison? {
        let type: NSComparisonPredicate.Operator
        switch current.kind {
        case .equal: type = .equalTo
        case .notEqual: type = .notEqualTo
        case .less: type = .lessThan
        case .lessOrEqual: type = .lessThanOrEqualTo
        case .greater: type = .greaterThan
        case .greaterOrEqual: type = .greaterThanOrEqualTo
        case .identifier:
            switch keyword(current) {
            case "BETWEEN": type = .between
            case "IN": type = .in
            case "CONTAINS": type = .contains
            case "BEGINSWITH": type = .beginsWith
            case "ENDSWITH": type = .endsWith
            case "LIKE": type = .like
            case "MATCHES": type = .matches
            default: return nil
            }
        default:
            return nil
        }
        var token = advance()
        var options: NSComparisonPredicate.Options = []
        if current.kind == .leftBracket {
            advance()
            let optionToken = current
            guard case .identifier(let letters) = optionToken.kind else {
                throw PredicateFormatFailure(
                    message: "expected comparison options such as [c], [d], [cd] or [n] after \(describe(token)), "
                        + "found \(describe(optionToken))", offset: optionToken.offset)
            }
            for (index, letter) in letters.unicodeScalars.enumerated() {
                switch letter {
                case "c", "C": options.insert(.caseInsensitive)
                case "d", "D": options.insert(.diacriticInsensitive)
                case "n", "N": options.insert(.normalized)
                default:
                    throw PredicateFormatFailure(
                        message: "unknown comparison option '\(Character(letter))' (expected c, d or n)",
                        offset: optionToken.offset + index)
                }
            }
            advance()
            guard current.kind == .rightBracket else {
                throw PredicateFormatFailure(
                    message: "expected ']' to close the comparison options, found \(describe(current))",
                    offset: current.offset)
            }
            token = advance()
        }
        return Comparison(type: type, options: options, token: token)
    }
}

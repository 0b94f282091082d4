import Foundation

/// The expression levels of the format grammar, from the loosest binding to the tightest:
/// set operations (`UNION`, `INTERSECT`, `MINUS`), `+ -`, `* /`, unary `-`, `**` (right-associative),
/// then key-path and subscript suffixes on a primary expression.
extension PredicateFormatSyntax {
    /// Reads an expression where one is required.
    ///
    /// `token` is what came just before, so that a missing expression is reported as
    /// "expected an expression after '>'".
    mutating func parseExpression(after token: PredicateFormatToken? = nil) throws(PredicateFormatFailure) -> NSExpression {
        if current.kind == .end || current.kind == .rightParen || current.kind == .comma
            || current.kind == .rightBrace || current.kind == .rightBracket
        {
            throw missingExpression(after: token)
        }
        let start = current
        let node = try parseSetExpression()
        return try requireExpression(node, startingAt: start)
    }

    func missingExpression(after token: PredicateFormatToken?) -> PredicateFormatFailure {
        let found = current.kind == .end ? "" : ", found \(describe(current))"
        if let token {
            return PredicateFormatFailure(
                message: "expected an expression after \(describe(token))\(found)",
                offset: current.offset)
        }
        return PredicateFormatFailure(message: "expected an expression\(found)", offset: current.offset)
    }

    func requireExpression(_ node: Node, startingAt token: PredicateFormatToken) throws(PredicateFormatFailure) -> NSExpression {
        switch node {
        case .expression(let expression): return expression
        case .predicate:
            throw PredicateFormatFailure(message: "expected an expression, found a predicate", offset: token.offset)
        }
    }

    /// Reads the right operand of a binary operator.
    private mutating func operand(
        after token: PredicateFormatToken,
        _ level: (inout Self) throws(PredicateFormatFailure) -> Node
    )
        throws(PredicateFormatFailure) -> NSExpression
    {
        if current.kind == .end { throw missingExpression(after: token) }
        let start = current
        return try requireExpression(try level(&self), startingAt: start)
    }

    private func leftOperand(_ node: Node, before token: PredicateFormatToken) throws(PredicateFormatFailure) -> NSExpression {
        switch node {
        case .expression(let expression): return expression
        case .predicate:
            throw PredicateFormatFailure(
                message: "expected an expression before \(describe(token)), found a predicate",
                offset: token.offset)
        }
    }

    /// `set := additive (("UNION" | "INTERSECT" | "MINUS") additive)*`
    mutating func parseSetExpression() throws(PredicateFormatFailure) -> Node {
        var node = try parseAdditive()
        while let word = keyword(current), word == "UNION" || word == "INTERSECT" || word == "MINUS" {
            let operatorToken = current
            let left = try leftOperand(node, before: operatorToken)
            advance()
            let right = try operand(after: operatorToken) { (parser: inout Self) throws(PredicateFormatFailure) in
                try parser.parseAdditive()
            }
            switch word {
            case "UNION": node = .expression(NSExpression(forUnionSet: left, with: right))
            case "INTERSECT": node = .expression(NSExpression(forIntersectSet: left, with: right))
            default: node = .expression(NSExpression(forMinusSet: left, with: right))
            }
        }
        return node
    }

    /// `additive := multiplicative (("+" | "-") multiplicative)*`
    mutating func parseAdditive() throws(PredicateFormatFailure) -> Node {
        var node = try parseMultiplicative()
        while current.kind == .plus || current.kind == .minus {
            let operatorToken = current
            let left = try leftOperand(node, before: operatorToken)
            advance()
            let right = try operand(after: operatorToken) { (parser: inout Self) throws(PredicateFormatFailure) in
                try parser.parseMultiplicative()
            }
            let name = operatorToken.kind == .plus ? "add:to:" : "from:subtract:"
            node = .expression(NSExpression(forFunction: name, arguments: [left, right]))
        }
        return node
    }

    /// `multiplicative := unary (("*" | "/") unary)*`
    mutating func parseMultiplicative() throws(PredicateFormatFailure) -> Node {
        var node = try parseUnary()
        while current.kind == .star || current.kind == .slash {
            let operatorToken = current
            let left = try leftOperand(node, before: operatorToken)
            advance()
            let right = try operand(after: operatorToken) { (parser: inout Self) throws(PredicateFormatFailure) in
                try parser.parseUnary()
            }
            let name = operatorToken.kind == .star ? "multiply:by:" : "divide:by:"
            node = .expression(NSExpression(forFunction: name, arguments: [left, right]))
        }
        return node
    }

    /// `unary := "-" unary | power`
    ///
    /// A minus before a number literal gives a negative constant; before anything else, `0 - operand`.
    mutating func parseUnary() throws(PredicateFormatFailure) -> Node {
        guard current.kind == .minus else { return try parsePower() }
        let minusToken = advance()
        try enter()
        defer { leave() }
        let value = try operand(after: minusToken) { (parser: inout Self) throws(PredicateFormatFailure) in
            try parser.parseUnary()
        }
        if value.expressionType == .constantValue {
            switch value.constantValue {
            case let number as Int where number != Int.min:
                return .expression(NSExpression(forConstantValue: -number))
            case let number as Double:
                return .expression(NSExpression(forConstantValue: -number))
            default:
                break
            }
        }
        return .expression(
            NSExpression(
                forFunction: "from:subtract:",
                arguments: [NSExpression(forConstantValue: 0), value]))
    }

    /// `power := postfix ("**" unary)?` — right-associative, so `2 ** 3 ** 2` is `2 ** 9`.
    mutating func parsePower() throws(PredicateFormatFailure) -> Node {
        let node = try parsePostfix()
        guard current.kind == .power else { return node }
        let operatorToken = current
        let base = try leftOperand(node, before: operatorToken)
        advance()
        try enter()
        defer { leave() }
        let exponent = try operand(after: operatorToken) { (parser: inout Self) throws(PredicateFormatFailure) in
            try parser.parseUnary()
        }
        return .expression(NSExpression(forFunction: "raise:toPower:", arguments: [base, exponent]))
    }

    /// `postfix := primary ("." key | "[" index "]")*`
    mutating func parsePostfix() throws(PredicateFormatFailure) -> Node {
        var node = try parsePrimary()
        while current.kind == .dot || current.kind == .leftBracket {
            let suffixToken = current
            let base = try leftOperand(node, before: suffixToken)
            advance()
            if suffixToken.kind == .dot {
                let key = try parseKeyComponent(after: suffixToken)
                node = .expression(Self.appending(key, to: base))
            } else {
                node = .expression(try parseSubscript(of: base, opening: suffixToken))
            }
        }
        return node
    }

    /// Reads the key after a `.`: a word (reserved words are allowed here), a `#word`, an `@operator` or
    /// a `%K` argument.
    private mutating func parseKeyComponent(after dot: PredicateFormatToken) throws(PredicateFormatFailure) -> String {
        let token = current
        switch token.kind {
        case .identifier(let name), .escapedIdentifier(let name):
            advance()
            return name
        case .collectionOperator(let name):
            advance()
            return "@" + name
        case .argument(let spec) where spec.conversion == .keyPath:
            advance()
            return try arguments.keyPathString(for: spec, at: token.offset)
        default:
            throw PredicateFormatFailure(
                message: "expected a key after \(describe(dot)), found \(describe(token))",
                offset: token.offset)
        }
    }

    /// Extends a key path, or reads a key path from the value of another expression.
    static func appending(_ key: String, to base: NSExpression) -> NSExpression {
        switch base.expressionType {
        case .evaluatedObject:
            return NSExpression(forKeyPath: key)
        case .keyPath:
            return NSExpression(forKeyPath: base.keyPath + "." + key, operand: base.operand)
        default:
            return NSExpression(forKeyPath: key, operand: base)
        }
    }

    /// Reads `[index]` after a collection: a number or expression, `FIRST`, `LAST` or `SIZE`.
    private mutating func parseSubscript(of base: NSExpression, opening: PredicateFormatToken)
        throws(PredicateFormatFailure) -> NSExpression
    {
        try enter()
        defer { leave() }
        let result: NSExpression
        switch keyword(current) {
        case "FIRST", "LAST", "SIZE":
            let word = keyword(advance()) ?? ""
            result = PredicateFormatSubscripts.expression(base, symbol: word)
        default:
            let index = try parseExpression(after: opening)
            result = PredicateFormatSubscripts.expression(base, index: index)
        }
        guard current.kind == .rightBracket else {
            throw PredicateFormatFailure(
                message: "expected ']' to close the subscript, found \(describe(current))",
                offset: current.offset)
        }
        advance()
        return result
    }
}

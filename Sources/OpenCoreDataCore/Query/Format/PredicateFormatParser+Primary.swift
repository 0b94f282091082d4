import Foundation

/// Primary expressions: literals, arguments, variables, key paths, `SELF`, parenthesized text,
/// aggregates and the keyword forms (`SUBQUERY`, `FUNCTION`, `CAST`, `TERNARY`, function calls).
extension PredicateFormatSyntax {
    mutating func parsePrimary() throws(PredicateFormatFailure) -> Node {
        let token = current
        switch token.kind {
        case .leftParen:
            try enter()
            advance()
            parenthesisDepth += 1
            defer {
                leave()
                parenthesisDepth -= 1
            }
            if current.kind == .rightParen {
                throw PredicateFormatFailure(
                    message: "expected a predicate or an expression after '('",
                    offset: current.offset)
            }
            let node = try parseOr()
            guard current.kind == .rightParen else {
                throw PredicateFormatFailure(
                    message: "expected ')' to close the parenthesis, found \(describe(current))", offset: current.offset)
            }
            advance()
            return node
        case .integer(let value):
            advance()
            return .expression(NSExpression(forConstantValue: value))
        case .double(let value):
            advance()
            return .expression(NSExpression(forConstantValue: value))
        case .string(let value):
            advance()
            return .expression(NSExpression(forConstantValue: value))
        case .argument(let spec):
            advance()
            return .expression(try arguments.expression(for: spec, at: token.offset))
        case .variable(let name):
            advance()
            return .expression(NSExpression(forVariable: name))
        case .collectionOperator(let name):
            advance()
            return .expression(NSExpression(forKeyPath: "@" + name))
        case .escapedIdentifier(let name):
            advance()
            return .expression(NSExpression(forKeyPath: name))
        case .leftBrace:
            return .expression(try parseAggregate())
        case .identifier(let name):
            return .expression(try parseWord(name))
        default:
            throw missingExpression(after: previous)
        }
    }

    /// A word: a keyword literal, a keyword form, a function call, or the first key of a key path.
    private mutating func parseWord(_ name: String) throws(PredicateFormatFailure) -> NSExpression {
        let token = current
        let word = name.uppercased()
        let followedByParenthesis = peekKind() == .leftParen
        switch word {
        case "SELF":
            advance()
            return NSExpression.expressionForEvaluatedObject()
        case "NIL", "NULL":
            advance()
            return NSExpression(forConstantValue: nil)
        case "YES", "TRUE":
            advance()
            return NSExpression(forConstantValue: true)
        case "NO", "FALSE":
            advance()
            return NSExpression(forConstantValue: false)
        case "ANYKEY":
            advance()
            return NSExpression.expressionForAnyKey()
        case "SUBQUERY" where followedByParenthesis:
            return try parseSubquery()
        case "FUNCTION" where followedByParenthesis:
            return try parseMethodCall()
        case "CAST" where followedByParenthesis:
            return try parseCast()
        case "TERNARY" where followedByParenthesis:
            return try parseTernary()
        case "FETCH" where followedByParenthesis:
            return try parseFetch()
        default:
            break
        }
        if PredicateFormatReservedWords.isStructural(word) {
            let previousText = previous.map { " after \(describe($0))" } ?? ""
            throw PredicateFormatFailure(
                message: "expected an expression\(previousText), found the reserved word \(describe(token))"
                    + " (write #\(name) to use it as a key)", offset: token.offset)
        }
        if followedByParenthesis || peekKind() == .colon {
            return try parseFunctionCall()
        }
        advance()
        return NSExpression(forKeyPath: name)
    }

    // MARK: Aggregates

    /// `{a, b, …}`: an aggregate expression whose collection holds one expression per element, as on
    /// Apple platforms (a `%@` array argument, by contrast, is one constant expression).
    private mutating func parseAggregate() throws(PredicateFormatFailure) -> NSExpression {
        let open = advance()
        try enter()
        defer { leave() }
        var elements: [NSExpression] = []
        if current.kind != .rightBrace {
            elements.append(try parseExpression(after: open))
            while current.kind == .comma {
                let comma = advance()
                elements.append(try parseExpression(after: comma))
            }
        }
        guard current.kind == .rightBrace else {
            throw PredicateFormatFailure(
                message: "expected ',' or '}' in the aggregate, found \(describe(current))",
                offset: current.offset)
        }
        advance()
        return NSExpression(forAggregate: elements)
    }

    // MARK: Calls

    /// Reads `( arg, arg, … )` and returns the arguments.
    private mutating func parseArgumentList(of name: String) throws(PredicateFormatFailure) -> [NSExpression] {
        let open = current
        try expect(.leftParen, "'(' after \(name)")
        try enter()
        defer { leave() }
        var arguments: [NSExpression] = []
        if current.kind != .rightParen {
            arguments.append(try parseExpression(after: open))
            while current.kind == .comma {
                let comma = advance()
                arguments.append(try parseExpression(after: comma))
            }
        }
        try expect(.rightParen, "',' or ')' in the arguments of \(name)")
        return arguments
    }

    /// `name(args)` or `name:(args)` or `add:to:(a, b)`: one of the built-in functions.
    private mutating func parseFunctionCall() throws(PredicateFormatFailure) -> NSExpression {
        let start = current
        var name = ""
        while case .identifier(let part) = current.kind {
            name += part
            advance()
            guard current.kind == .colon else { break }
            name += ":"
            advance()
        }
        guard current.kind == .leftParen else {
            throw PredicateFormatFailure(
                message: "expected '(' after the function name '\(name)', found \(describe(current))",
                offset: current.offset)
        }
        let arguments = try parseArgumentList(of: "'\(name)'")
        guard let resolved = PredicateFormatFunctions.resolve(name, argumentCount: arguments.count) else {
            throw PredicateFormatFailure(
                message: PredicateFormatFunctions.problem(with: name, argumentCount: arguments.count),
                offset: start.offset)
        }
        return NSExpression(forFunction: resolved, arguments: arguments)
    }

    /// Reads a string where the grammar needs one: a string literal or a `%@` string argument.
    private mutating func parseStringOperand(_ what: String) throws(PredicateFormatFailure) -> String {
        let token = current
        switch token.kind {
        case .string(let value):
            advance()
            return value
        case .argument(let spec) where spec.conversion == .object || spec.conversion == .cString:
            advance()
            if let value = try arguments.string(for: spec, at: token.offset) { return value }
        default:
            break
        }
        throw PredicateFormatFailure(message: "expected \(what), found \(describe(token))", offset: token.offset)
    }

    /// `FUNCTION(receiver, 'selector:', args…)`
    private mutating func parseMethodCall() throws(PredicateFormatFailure) -> NSExpression {
        advance()
        let open = current
        try expect(.leftParen, "'(' after FUNCTION")
        try enter()
        defer { leave() }
        let receiver = try parseExpression(after: open)
        try expect(.comma, "',' after the receiver of FUNCTION")
        let selector = try parseStringOperand("a selector name string such as 'uppercase:'")
        var arguments: [NSExpression] = []
        while current.kind == .comma {
            let comma = advance()
            arguments.append(try parseExpression(after: comma))
        }
        try expect(.rightParen, "',' or ')' in the arguments of FUNCTION")
        if selector.isEmpty {
            throw PredicateFormatFailure(message: "the selector name of FUNCTION is empty", offset: open.offset)
        }
        return NSExpression(forFunction: receiver, selectorName: selector, arguments: arguments)
    }

    /// `FETCH(request, context, countOnly)`: the request is executed in the context when evaluated.
    private mutating func parseFetch() throws(PredicateFormatFailure) -> NSExpression {
        advance()
        let open = current
        try expect(.leftParen, "'(' after FETCH")
        try enter()
        defer { leave() }
        let request = try parseExpression(after: open)
        let firstComma = current
        try expect(.comma, "',' after the fetch request of FETCH")
        let context = try parseExpression(after: firstComma)
        let secondComma = current
        try expect(.comma, "',' after the context of FETCH")
        let countOnly = try parseExpression(after: secondComma)
        try expect(.rightParen, "')' to close FETCH")
        return NSFetchRequestExpression(storage: .function(FetchExpression.functionName, arguments: [request, context, countOnly]))
    }

    /// `CAST(value, 'type')`. Casts of literals to `NSDate`, `NSUUID`, `NSURL` and `NSData` are
    /// folded into constants, which is how such constants print.
    private mutating func parseCast() throws(PredicateFormatFailure) -> NSExpression {
        advance()
        let open = current
        try expect(.leftParen, "'(' after CAST")
        try enter()
        defer { leave() }
        let value = try parseExpression(after: open)
        try expect(.comma, "',' after the value of CAST")
        let typeToken = current
        let type = try parseStringOperand("a type name string such as \"NSDate\"")
        try expect(.rightParen, "')' to close CAST")
        if type.isEmpty {
            throw PredicateFormatFailure(message: "the type name of CAST is empty", offset: typeToken.offset)
        }
        if let folded = PredicateFormatConstants.foldCast(value, to: type) { return folded }
        return NSExpression(forFunction: "castObject:toType:", arguments: [value, NSExpression(forConstantValue: type)])
    }

    /// `TERNARY(predicate, trueExpression, falseExpression)`
    private mutating func parseTernary() throws(PredicateFormatFailure) -> NSExpression {
        advance()
        try expect(.leftParen, "'(' after TERNARY")
        try enter()
        parenthesisDepth += 1
        defer {
            leave()
            parenthesisDepth -= 1
        }
        let conditionStart = current
        let condition = try parsePredicateArgument(of: "TERNARY", at: conditionStart)
        let firstComma = current
        try expect(.comma, "',' after the predicate of TERNARY")
        let whenTrue = try parseExpression(after: firstComma)
        let secondComma = current
        try expect(.comma, "',' after the second argument of TERNARY")
        let whenFalse = try parseExpression(after: secondComma)
        try expect(.rightParen, "')' to close TERNARY")
        return NSExpression(forConditional: condition, trueExpression: whenTrue, falseExpression: whenFalse)
    }

    /// `SUBQUERY(collection, $variable, predicate)`
    private mutating func parseSubquery() throws(PredicateFormatFailure) -> NSExpression {
        advance()
        let open = current
        try expect(.leftParen, "'(' after SUBQUERY")
        try enter()
        parenthesisDepth += 1
        defer {
            leave()
            parenthesisDepth -= 1
        }
        let collection = try parseExpression(after: open)
        try expect(.comma, "',' after the collection of SUBQUERY")
        let variableToken = current
        guard case .variable(let variable) = variableToken.kind else {
            throw PredicateFormatFailure(
                message: "expected a variable such as $x as the second argument of SUBQUERY, found "
                    + describe(variableToken), offset: variableToken.offset)
        }
        advance()
        try expect(.comma, "',' after the variable of SUBQUERY")
        let predicate = try parsePredicateArgument(of: "SUBQUERY", at: current)
        try expect(.rightParen, "')' to close SUBQUERY")
        return NSExpression(forSubquery: collection, usingIteratorVariable: variable, predicate: predicate)
    }

    /// Reads a predicate inside a call, where it ends at `,` or `)`.
    private mutating func parsePredicateArgument(of name: String, at start: PredicateFormatToken)
        throws(PredicateFormatFailure) -> NSPredicate
    {
        if current.kind == .end || current.kind == .comma || current.kind == .rightParen {
            throw PredicateFormatFailure(
                message: "expected a predicate in \(name), found \(describe(current))",
                offset: current.offset)
        }
        let node = try parseOr()
        switch node {
        case .predicate(let predicate): return predicate
        case .expression:
            throw PredicateFormatFailure(
                message: "expected a predicate in \(name), found an expression", offset: start.offset)
        }
    }
}

/// The built-in functions of `NSExpression(forFunction:arguments:)`, as Apple names them.
enum ExpressionFunctions {
    /// Argument counts; `-1` means one or more (statistics take a collection or a list of values).
    private static let arities: [String: Int] = [
        "sum:": -1, "count:": -1, "min:": -1, "max:": -1, "average:": -1, "median:": -1, "mode:": -1,
        "stddev:": -1, "add:to:": 2, "from:subtract:": 2, "multiply:by:": 2, "divide:by:": 2,
        "modulus:by:": 2, "sqrt:": 1, "log:": 1, "ln:": 1, "raise:toPower:": 2, "exp:": 1, "ceiling:": 1,
        "abs:": 1, "trunc:": 1, "floor:": 1, "uppercase:": 1, "lowercase:": 1, "random": 0, "randomn:": 1,
        "now": 0, "bitwiseAnd:with:": 2, "bitwiseOr:with:": 2, "bitwiseXor:with:": 2, "leftshift:by:": 2,
        "rightshift:by:": 2, "onesComplement:": 1, "noindex:": 1, "distinct:": 1, "castObject:toType:": 2,
        "objectFrom:withIndex:": 2, "canonical:": 1,
    ]

    /// The names of every built-in function.
    static var names: Set<String> { Set(arities.keys) }

    /// The number of arguments the function takes (`-1`: one or more), or `nil` for an unknown name.
    static func arity(of name: String) -> Int? { arities[name] }

    /// Applies a function to argument values. Arguments of the wrong type give `nil`, never a crash.
    static func evaluate(_ name: String, _ arguments: [Any?]) -> Any? {
        let args = arguments.map { EvaluationValues.flatten($0) }
        switch name {
        case "sum:": return Aggregates.sum(listed(args))
        case "count:": return listed(args).count
        case "min:": return Aggregates.extreme(listed(args), wantMax: false)
        case "max:": return Aggregates.extreme(listed(args), wantMax: true)
        case "average:": return Aggregates.average(listed(args))
        case "median:": return Aggregates.median(listed(args))
        case "mode:": return Aggregates.mode(listed(args))
        case "stddev:": return Aggregates.standardDeviation(listed(args))
        case "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:":
            return Arithmetic.apply(name, args[0], args[1])
        case "raise:toPower:": return double(args[0], args[1]).map { pow($0, $1) }
        case "sqrt:": return double(args[0]).map { $0.squareRoot() }
        case "log:": return double(args[0]).map { log10($0) }
        case "ln:": return double(args[0]).map { Foundation.log($0) }
        case "exp:": return double(args[0]).map { Foundation.exp($0) }
        case "ceiling:": return double(args[0]).map { $0.rounded(.up) }
        case "floor:": return double(args[0]).map { $0.rounded(.down) }
        case "trunc:": return double(args[0]).map { $0.rounded(.towardZero) }
        case "abs:": return Arithmetic.absolute(args[0])
        case "uppercase:": return args[0].flatMap(ValueComparison.string)?.uppercased()
        case "lowercase:": return args[0].flatMap(ValueComparison.string)?.lowercased()
        case "canonical:":
            return args[0].flatMap(ValueComparison.string)
                .map { StringFolding.fold($0, options: [.caseInsensitive, .diacriticInsensitive]) }
        case "random": return Double.random(in: 0..<1)
        case "randomn:":
            guard let bound = NumericValue(args[0])?.int64Value, bound > 0 else { return nil }
            return Int(Int64.random(in: 0..<bound))
        case "now": return Date()
        case "bitwiseAnd:with:": return integers(args[0], args[1]).map { Int($0 & $1) }
        case "bitwiseOr:with:": return integers(args[0], args[1]).map { Int($0 | $1) }
        case "bitwiseXor:with:": return integers(args[0], args[1]).map { Int($0 ^ $1) }
        case "leftshift:by:": return integers(args[0], args[1]).map { Int($0 << $1) }
        case "rightshift:by:": return integers(args[0], args[1]).map { Int($0 >> $1) }
        case "onesComplement:": return NumericValue(args[0])?.int64Value.map { Int(~$0) }
        case "noindex:": return args[0]
        case "distinct:": return EvaluationValues.distinct(listed(args))
        case "castObject:toType:": return Cast.cast(args[0], to: args[1].flatMap(ValueComparison.string) ?? "")
        case "objectFrom:withIndex:": return subscripted(args[0], args[1])
        default: return nil
        }
    }

    /// `collection[index]`: an element of an ordered collection (a negative index counts from the end;
    /// out of range gives `nil`), or a dictionary's value for a key.
    private static func subscripted(_ container: Any?, _ index: Any?) -> Any? {
        guard let container else { return nil }
        if let key = index.flatMap(ValueComparison.string),
            container is any AnyKeyedLookup || type(of: container) is NSDictionary.Type || container is KeyValueCoding
        {
            return KeyValueAccess.value(of: container, forKey: key)
        }
        guard let elements = EvaluationValues.elements(of: container), !EvaluationValues.isUnordered(container),
            let position = NumericValue(index)?.int64Value
        else { return nil }
        let count = Int64(elements.count)
        let resolved = position < 0 ? count + position : position
        guard resolved >= 0, resolved < count else { return nil }
        return EvaluationValues.flatten(elements[Int(resolved)])
    }

    /// The values a statistics function works on: the elements of a single collection argument, or the
    /// arguments themselves; `nil`s are skipped.
    private static func listed(_ args: [Any?]) -> [Any] {
        if args.count == 1, let elements = EvaluationValues.elements(of: args[0]) {
            return elements.compactMap { EvaluationValues.flatten($0) }
        }
        return args.compactMap { $0 }
    }

    private static func double(_ value: Any?) -> Double? { NumericValue(value)?.doubleValue }

    private static func double(_ a: Any?, _ b: Any?) -> (Double, Double)? {
        guard let x = double(a), let y = double(b) else { return nil }
        return (x, y)
    }

    private static func integers(_ a: Any?, _ b: Any?) -> (Int64, Int64)? {
        guard let x = NumericValue(a)?.int64Value, let y = NumericValue(b)?.int64Value else { return nil }
        return (x, y)
    }
}

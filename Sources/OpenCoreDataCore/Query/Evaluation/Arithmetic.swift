/// Arithmetic on numbers and dates, as expressions compute `+ - * / %`: integer results stay integers
/// while they fit and become `Double`s instead of overflowing; division gives a `Double`.
enum Arithmetic {
    /// Applies `add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:` or `modulus:by:`.
    static func apply(_ function: String, _ lhs: Any?, _ rhs: Any?) -> Any? {
        if let date = lhs as? Date {
            if let seconds = NumericValue(rhs)?.doubleValue {
                switch function {
                case "add:to:": return date.addingTimeInterval(seconds)
                case "from:subtract:": return date.addingTimeInterval(-seconds)
                default: return nil
                }
            }
            if let other = rhs as? Date, function == "from:subtract:" {
                return date.timeIntervalSince(other)
            }
            return nil
        }
        if let date = rhs as? Date, function == "add:to:", let seconds = NumericValue(lhs)?.doubleValue {
            return date.addingTimeInterval(seconds)
        }
        guard let a = NumericValue(lhs), let b = NumericValue(rhs) else { return nil }
        if case .decimal = a { return decimal(function, a.decimalValue, b.decimalValue) }
        if case .decimal = b { return decimal(function, a.decimalValue, b.decimalValue) }
        if case .integer(let x) = a, case .integer(let y) = b, function != "divide:by:" {
            let result: (partialValue: Int64, overflow: Bool)
            switch function {
            case "add:to:": result = x.addingReportingOverflow(y)
            case "from:subtract:": result = x.subtractingReportingOverflow(y)
            case "multiply:by:": result = x.multipliedReportingOverflow(by: y)
            default:
                guard y != 0 else { return nil }
                result = x.remainderReportingOverflow(dividingBy: y)
            }
            if !result.overflow { return Int(result.partialValue) }
        }
        let x = a.doubleValue, y = b.doubleValue
        switch function {
        case "add:to:": return x + y
        case "from:subtract:": return x - y
        case "multiply:by:": return x * y
        case "divide:by:": return x / y
        default: return y == 0 ? nil : fmod(x, y)
        }
    }

    /// The absolute value, keeping integers integral (`Int64.min` becomes a `Double`).
    static func absolute(_ value: Any?) -> Any? {
        guard let number = NumericValue(value) else { return nil }
        switch number {
        case .integer(let v): return v == .min ? -Double(v) : Int(Swift.abs(v))
        case .unsigned(let v): return v
        case .double(let v): return Swift.abs(v)
        case .decimal(let v): return Swift.abs(v)
        }
    }

    private static func decimal(_ function: String, _ x: Decimal, _ y: Decimal) -> Any? {
        switch function {
        case "add:to:": return x + y
        case "from:subtract:": return x - y
        case "multiply:by:": return x * y
        case "divide:by:": return y == 0 ? nil : x / y
        default:
            let a = NSDecimalNumber(decimal: x).doubleValue, b = NSDecimalNumber(decimal: y).doubleValue
            return b == 0 ? nil : fmod(a, b)
        }
    }
}

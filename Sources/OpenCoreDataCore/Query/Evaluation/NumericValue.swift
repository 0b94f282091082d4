/// A number met during evaluation, whatever its Swift or Foundation type, so that numbers of different
/// kinds (Int, Int64, UInt, Double, Float, Bool, NSNumber, Decimal) compare and combine by value.
package enum NumericValue {
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case decimal(Decimal)

    /// Reads a number from a value; `nil` when the value is not a number.
    init?(_ value: Any?) {
        guard let value = EvaluationValues.flatten(value) else { return nil }
        self.init(flattened: value)
    }

    /// Reads a number from a value already flattened. The type is tested by identity first, so that
    /// the common non-numeric values (strings) are rejected without trying bridging casts.
    init?(flattened value: Any) {
        let kind = type(of: value)
        if kind == String.self { return nil }
        switch ObjectIdentifier(kind) {
        case ObjectIdentifier(Int.self):
            if let v = value as? Int {
                self = .integer(Int64(v))
                return
            }
        case ObjectIdentifier(Double.self):
            if let v = value as? Double {
                self = .double(v)
                return
            }
        case ObjectIdentifier(Bool.self):
            if let v = value as? Bool {
                self = .integer(v ? 1 : 0)
                return
            }
        case ObjectIdentifier(Int64.self):
            if let v = value as? Int64 {
                self = .integer(v)
                return
            }
        case ObjectIdentifier(Int32.self):
            if let v = value as? Int32 {
                self = .integer(Int64(v))
                return
            }
        case ObjectIdentifier(Int16.self):
            if let v = value as? Int16 {
                self = .integer(Int64(v))
                return
            }
        case ObjectIdentifier(Int8.self):
            if let v = value as? Int8 {
                self = .integer(Int64(v))
                return
            }
        case ObjectIdentifier(UInt.self):
            if let v = value as? UInt {
                self = v <= UInt(Int64.max) ? .integer(Int64(v)) : .unsigned(UInt64(v))
                return
            }
        case ObjectIdentifier(UInt64.self):
            if let v = value as? UInt64 {
                self = v <= UInt64(Int64.max) ? .integer(Int64(v)) : .unsigned(v)
                return
            }
        case ObjectIdentifier(UInt32.self):
            if let v = value as? UInt32 {
                self = .integer(Int64(v))
                return
            }
        case ObjectIdentifier(UInt16.self):
            if let v = value as? UInt16 {
                self = .integer(Int64(v))
                return
            }
        case ObjectIdentifier(UInt8.self):
            if let v = value as? UInt8 {
                self = .integer(Int64(v))
                return
            }
        case ObjectIdentifier(Float.self):
            if let v = value as? Float {
                self = .double(Double(v))
                return
            }
        case ObjectIdentifier(Decimal.self):
            if let v = value as? Decimal {
                self = .decimal(v)
                return
            }
        default: break
        }
        guard kind is NSNumber.Type else { return nil }
        // A metatype check first: a failing class cast costs far more than it.
        if kind is NSDecimalNumber.Type, let v = value as? NSDecimalNumber {
            self = .decimal(v.decimalValue)
            return
        }
        guard let v = value as? NSNumber else { return nil }
        // The type encoding is one character ("q", "d", …); read in place rather than as a new String.
        let encoding = v.objCType
        let single = encoding[0] != 0 && encoding[1] == 0 ? UInt8(bitPattern: encoding[0]) : 0
        switch single {
        case UInt8(ascii: "d"), UInt8(ascii: "f"): self = .double(v.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"):
            self = v.uint64Value <= UInt64(Int64.max) ? .integer(v.int64Value) : .unsigned(v.uint64Value)
        default: self = .integer(v.int64Value)
        }
    }

    /// The value as a `Double` (exact for integers up to 2⁵³).
    var doubleValue: Double {
        switch self {
        case .integer(let v): return Double(v)
        case .unsigned(let v): return Double(v)
        case .double(let v): return v
        case .decimal(let v): return NSDecimalNumber(decimal: v).doubleValue
        }
    }

    /// The value as a `Decimal`.
    var decimalValue: Decimal {
        switch self {
        case .integer(let v): return Decimal(v)
        case .unsigned(let v): return Decimal(v)
        case .double(let v): return v.isFinite ? Decimal(v) : .nan
        case .decimal(let v): return v
        }
    }

    /// The value as an `Int64` when it is integral and in range.
    var int64Value: Int64? {
        switch self {
        case .integer(let v): return v
        case .unsigned: return nil
        case .double(let v): return v.rounded(.towardZero) == v && abs(v) < 9.2e18 ? Int64(v) : nil
        case .decimal(let v):
            let d = NSDecimalNumber(decimal: v).doubleValue
            return d.rounded(.towardZero) == d && abs(d) < 9.2e18 ? Int64(d) : nil
        }
    }

    /// Whether this value holds an integer type (not a floating-point or decimal one).
    var isInteger: Bool {
        switch self {
        case .integer, .unsigned: return true
        case .double, .decimal: return false
        }
    }

    /// The value as the most natural Swift type: `Int` for integers that fit, otherwise `UInt64`,
    /// `Double` or `Decimal`.
    var anyValue: Any {
        switch self {
        case .integer(let v): return Int(v)
        case .unsigned(let v): return v
        case .double(let v): return v
        case .decimal(let v): return v
        }
    }

    /// A hashable key equal for numbers equal by value.
    var hashKey: DistinctKey {
        if let i = int64Value { return .integer(i) }
        let d = doubleValue
        return .double(d == 0 ? 0 : d)
    }

    /// Whether the value is not a number (a `Double` or `Decimal` NaN).
    var isNaN: Bool {
        switch self {
        case .double(let v): return v.isNaN
        case .decimal(let v): return v.isNaN
        case .integer, .unsigned: return false
        }
    }

    /// Orders two numbers by value, exactly across integer and floating-point kinds; `nil` when either
    /// is NaN, which is ordered with nothing and equal to nothing.
    static func compare(_ lhs: NumericValue, _ rhs: NumericValue) -> ComparisonResult? {
        if lhs.isNaN || rhs.isNaN { return nil }
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): return order(a, b)
        case let (.unsigned(a), .unsigned(b)): return order(a, b)
        case (.integer, .unsigned): return .orderedAscending
        case (.unsigned, .integer): return .orderedDescending
        case let (.decimal(a), .decimal(b)): return order(a, b)
        case (.decimal, .double(let d)), (.double(let d), .decimal):
            // Decimals have no infinities: compare those through doubles.
            return d.isFinite ? order(lhs.decimalValue, rhs.decimalValue) : order(lhs.doubleValue, rhs.doubleValue)
        case (.decimal, _), (_, .decimal): return order(lhs.decimalValue, rhs.decimalValue)
        case let (.integer(a), .double(b)): return compare(integer: a, double: b)
        case let (.double(a), .integer(b)): return compare(integer: b, double: a).reversed
        case let (.unsigned(a), .double(b)): return order(Double(a), b)
        case let (.double(a), .unsigned(b)): return order(a, Double(b))
        case let (.double(a), .double(b)): return order(a, b)
        }
    }

    /// Orders numbers for sorting, where every value needs a place: NaN sorts before all other numbers.
    static func sortOrder(_ lhs: NumericValue, _ rhs: NumericValue) -> ComparisonResult {
        if let order = compare(lhs, rhs) { return order }
        switch (lhs.isNaN, rhs.isNaN) {
        case (true, true): return .orderedSame
        case (true, false): return .orderedAscending
        default: return .orderedDescending
        }
    }

    /// Compares an integer with a finite or infinite (never NaN) double exactly.
    private static func compare(integer: Int64, double: Double) -> ComparisonResult {
        // 2⁶³ is exactly representable as a Double; every double in [-2⁶³, 2⁶³) floors to an Int64.
        if double >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if double < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let truncated = double.rounded(.down)
        let whole = Int64(truncated)
        if integer < whole { return .orderedAscending }
        if integer > whole { return .orderedDescending }
        return truncated == double ? .orderedSame : .orderedAscending
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }
}

extension ComparisonResult {
    /// The opposite order.
    var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }
}

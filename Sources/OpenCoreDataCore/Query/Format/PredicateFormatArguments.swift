import Foundation

/// The arguments of a format string, consumed by its `%` specifiers in order or by position.
struct PredicateFormatArguments {
    private let values: [Any?]
    private var nextSequential = 0

    init(_ values: [Any?]) {
        self.values = values
    }

    /// Returns the raw argument a specifier refers to, or throws when there is none.
    private mutating func take(_ spec: PredicateFormatSpecifier, at offset: Int) throws(PredicateFormatFailure) -> Any? {
        let index: Int
        if let position = spec.position {
            index = position - 1
        } else {
            index = nextSequential
            nextSequential += 1
        }
        guard index < values.count else {
            let ordinal = index + 1
            throw PredicateFormatFailure(
                message: "missing argument \(ordinal) for '\(spec.text)' (\(values.count) given)", offset: offset)
        }
        return Self.flatten(values[index])
    }

    /// Unwraps nested optionals (`Optional<Optional<String>>`) so that `nil` of any optional type is `nil`.
    static func flatten(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        guard let child = mirror.children.first else { return nil }
        return flatten(child.value)
    }

    /// Returns the expression a specifier stands for.
    mutating func expression(for spec: PredicateFormatSpecifier, at offset: Int) throws(PredicateFormatFailure) -> NSExpression {
        let value = try take(spec, at: offset)
        switch spec.conversion {
        case .object:
            if let expression = value as? NSExpression { return expression }
            if value is NSNull { return NSExpression(forConstantValue: nil) }
            return NSExpression(forConstantValue: value)
        case .keyPath:
            guard let path = Self.string(value), !path.isEmpty else {
                throw PredicateFormatFailure(
                    message: "expected a key path string for '\(spec.text)', got \(Self.describeType(value))",
                    offset: offset)
            }
            return NSExpression(forKeyPath: path)
        case .integer:
            guard let number = Self.integer(value) else {
                throw PredicateFormatFailure(
                    message: "expected an integer for '\(spec.text)', got \(Self.describeType(value))", offset: offset)
            }
            return NSExpression(forConstantValue: number)
        case .floatingPoint:
            guard let number = Self.double(value) else {
                throw PredicateFormatFailure(
                    message: "expected a number for '\(spec.text)', got \(Self.describeType(value))", offset: offset)
            }
            return NSExpression(forConstantValue: number)
        case .cString:
            guard let string = Self.string(value) else {
                throw PredicateFormatFailure(
                    message: "expected a string for '\(spec.text)', got \(Self.describeType(value))", offset: offset)
            }
            return NSExpression(forConstantValue: string)
        case .character:
            if let string = Self.string(value), string.count == 1 { return NSExpression(forConstantValue: string) }
            if let code = Self.integer(value), code >= 0, code <= Int(UInt32.max),
                let scalar = Unicode.Scalar(UInt32(code))
            {
                return NSExpression(forConstantValue: String(Character(scalar)))
            }
            throw PredicateFormatFailure(
                message: "expected a character for '\(spec.text)', got \(Self.describeType(value))", offset: offset)
        }
    }

    /// Returns the key-path string a `%K` inside a key path stands for.
    mutating func keyPathString(for spec: PredicateFormatSpecifier, at offset: Int) throws(PredicateFormatFailure) -> String {
        let value = try take(spec, at: offset)
        guard let path = Self.string(value), !path.isEmpty else {
            throw PredicateFormatFailure(
                message: "expected a key path string for '\(spec.text)', got \(Self.describeType(value))",
                offset: offset)
        }
        return path
    }

    /// Returns the string a `%@` stands for where a string is required (a `FUNCTION` selector, a `CAST`
    /// type, a `SUBQUERY` variable name), or `nil` when the argument is not a string.
    mutating func string(for spec: PredicateFormatSpecifier, at offset: Int) throws(PredicateFormatFailure) -> String? {
        Self.string(try take(spec, at: offset))
    }

    private static func string(_ value: Any?) -> String? {
        switch value {
        case let string as String: return string
        case let string as Substring: return String(string)
        case let string as NSString: return string as String
        default: return nil
        }
    }

    private static func integer(_ value: Any?) -> Int? {
        switch value {
        case let value as Int: return value
        case let value as Int8: return Int(value)
        case let value as Int16: return Int(value)
        case let value as Int32: return Int(value)
        case let value as Int64: return Int(exactly: value)
        case let value as UInt: return Int(exactly: value)
        case let value as UInt8: return Int(value)
        case let value as UInt16: return Int(value)
        case let value as UInt32: return Int(value)
        case let value as UInt64: return Int(exactly: value)
        case let value as Bool: return value ? 1 : 0
        case let value as Double: return value.isFinite ? Int(exactly: value.rounded(.towardZero)) : nil
        case let value as Float: return value.isFinite ? Int(exactly: Double(value).rounded(.towardZero)) : nil
        case let value as NSNumber: return value.intValue
        default: return nil
        }
    }

    private static func double(_ value: Any?) -> Double? {
        switch value {
        case let value as Double: return value
        case let value as Float: return Double(value)
        case let value as Int: return Double(value)
        case let value as Int32: return Double(value)
        case let value as Int64: return Double(value)
        case let value as UInt: return Double(value)
        case let value as Decimal: return NSDecimalNumber(decimal: value).doubleValue
        case let value as NSNumber: return value.doubleValue
        default: return nil
        }
    }

    private static func describeType(_ value: Any?) -> String {
        guard let value else { return "nil" }
        return "a value of type \(type(of: value))"
    }
}

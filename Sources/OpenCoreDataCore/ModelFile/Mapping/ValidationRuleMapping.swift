import Foundation

/// Turns an attribute's validation settings (`minValueString`, `maxValueString`, the date intervals and
/// `regularExpressionString`) into validation predicates and warnings, as Xcode's model compiler does.
///
/// | type | setting | predicate | warning |
/// |---|---|---|---|
/// | integer, decimal, double, float | minimum | `SELF >= min` | `NSValidationNumberTooSmallError` (1620) |
/// | integer, decimal, double, float | maximum | `SELF <= max` | `NSValidationNumberTooLargeError` (1610) |
/// | date | minimum | `SELF >= CAST(min, "NSDate")` | `NSValidationDateTooSoonError` (1640) |
/// | date | maximum | `SELF <= CAST(max, "NSDate")` | `NSValidationDateTooLateError` (1630) |
/// | string | minimum length | `length >= min` | `NSValidationStringTooShortError` (1670) |
/// | string | maximum length | `length <= max` | `NSValidationStringTooLongError` (1660) |
/// | string | regular expression | `SELF MATCHES "pattern"` | `NSValidationStringPatternMatchingError` (1680) |
///
/// The warnings are the error codes as `NSNumber`s, in the same order as the predicates (minimum,
/// maximum, pattern). Other attribute types take no validation settings; any there are ignored.
struct ValidationRuleMapping {
    static let numberTooLarge = 1610
    static let numberTooSmall = 1620
    static let dateTooLate = 1630
    static let dateTooSoon = 1640
    static let stringTooLong = 1660
    static let stringTooShort = 1670
    static let stringPatternMatching = 1680

    let location: ModelFileError.Location

    /// Sets the attribute's validation predicates and warnings from `element`.
    func apply(_ element: ModelXMLElement, to attribute: NSAttributeDescription, type: NSAttributeType) throws {
        var rules: [(NSPredicate, Int)] = []
        let min = element["minValueString"], max = element["maxValueString"]
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
            .decimalAttributeType, .doubleAttributeType, .floatAttributeType:
            if let min {
                rules.append(
                    (
                        compare(.evaluatedObject, .greaterThanOrEqualTo, try number(min, type: type, "minValueString")),
                        Self.numberTooSmall
                    ))
            }
            if let max {
                rules.append(
                    (
                        compare(.evaluatedObject, .lessThanOrEqualTo, try number(max, type: type, "maxValueString")),
                        Self.numberTooLarge
                    ))
            }
        case .dateAttributeType:
            let minInterval = element["minDateTimeInterval"], maxInterval = element["maxDateTimeInterval"]
            if min != nil || minInterval != nil {
                rules.append(
                    (
                        compare(.evaluatedObject, .greaterThanOrEqualTo, try date(min, interval: minInterval, "minValueString")),
                        Self.dateTooSoon
                    ))
            }
            if max != nil || maxInterval != nil {
                rules.append(
                    (
                        compare(.evaluatedObject, .lessThanOrEqualTo, try date(max, interval: maxInterval, "maxValueString")),
                        Self.dateTooLate
                    ))
            }
        case .stringAttributeType:
            if let min {
                rules.append((compare(.length, .greaterThanOrEqualTo, try length(min, "minValueString")), Self.stringTooShort))
            }
            if let max {
                rules.append((compare(.length, .lessThanOrEqualTo, try length(max, "maxValueString")), Self.stringTooLong))
            }
            if let pattern = element["regularExpressionString"], !pattern.isEmpty {
                do {
                    _ = try NSRegularExpression(pattern: pattern)
                } catch {
                    throw ModelFileError.invalid("regularExpressionString: '\(pattern)' is not a valid regular expression", at: location)
                }
                rules.append((compare(.evaluatedObject, .matches, pattern), Self.stringPatternMatching))
            }
        default:
            break
        }
        guard !rules.isEmpty else { return }
        attribute._setValidationPredicates(rules.map(\.0), warnings: rules.map { NSNumber(value: $0.1) })
    }

    private enum Subject { case evaluatedObject, length }

    private func compare(_ subject: Subject, _ type: NSComparisonPredicate.Operator, _ value: Any) -> NSPredicate {
        let left: NSExpression
        switch subject {
        case .evaluatedObject: left = NSExpression.expressionForEvaluatedObject()
        case .length: left = NSExpression(forKeyPath: "length")
        }
        return NSComparisonPredicate(
            leftExpression: left, rightExpression: NSExpression(forConstantValue: value),
            modifier: .direct, type: type, options: [])
    }

    private func number(_ text: String, type: NSAttributeType, _ key: String) throws -> NSNumber {
        do {
            switch type {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
                return NSNumber(value: try ModelValueParsing.integer(text, in: Int64.min...Int64.max, bits: 64).int64)
            case .decimalAttributeType:
                return try ModelValueParsing.decimal(text)
            default:
                return NSNumber(value: try ModelValueParsing.double(text))
            }
        } catch let failure as ModelValueParsing.Failure {
            throw ModelFileError.invalid("\(key): \(failure.reason)", at: location)
        }
    }

    private func date(_ text: String?, interval: String?, _ key: String) throws -> Date {
        do {
            return try ModelValueParsing.date(text ?? "", interval: interval)
        } catch let failure as ModelValueParsing.Failure {
            throw ModelFileError.invalid("\(key): \(failure.reason)", at: location)
        }
    }

    private func length(_ text: String, _ key: String) throws -> NSNumber {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw ModelFileError.invalid("\(key): '\(text)' is not a string length", at: location)
        }
        return NSNumber(value: value)
    }
}

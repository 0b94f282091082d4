import Foundation

/// Values a SQLite column cannot keep as they are: SQLite turns a NaN into NULL and reads text only up
/// to its first NUL character. A save holding one fails with an error naming the attribute, rather than
/// losing the value; infinities, every other character and blobs of any size are stored exactly.
extension RowWriter {
    func rejectUnstorable(_ value: Any?, attribute: NSAttributeDescription, path: String) throws {
        guard let value, !EvaluationValues.isNull(value) else { return }
        // Built only for an error: this check runs for every value a save writes.
        var name: String { "\(attribute._entity?.name ?? "")\(attribute._entity == nil ? "" : ".")\(path)" }
        switch attribute.attributeType {
        case .doubleAttributeType, .floatAttributeType, .decimalAttributeType:
            if Self.isNaN(value) {
                throw saveError("The value of \(name) is NaN (not a number), which SQLite cannot store; it would read back as nil.")
            }
        case .stringAttributeType:
            if let string = value as? String, string.utf8.contains(0) {
                throw saveError(
                    "The string value of \(name) contains a NUL character (U+0000), which SQLite text cannot keep; it would be cut short there.")
            }
        default:
            break
        }
    }

    private static func isNaN(_ value: Any) -> Bool {
        switch value {
        case let number as NSDecimalNumber: return number.decimalValue.isNaN
        case let decimal as Decimal: return decimal.isNaN
        case let number as NSNumber: return number.doubleValue.isNaN
        case let double as Double: return double.isNaN
        case let float as Float: return float.isNaN
        default: return false
        }
    }
}

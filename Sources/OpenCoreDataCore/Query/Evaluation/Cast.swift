/// `CAST(value, "Type")` — `castObject:toType:`.
enum Cast {
    /// Converts a value to the named Foundation class: `"NSDate"` turns seconds since 1 January 2001 into
    /// a date, `"NSNumber"` reads a number (from a string, a date's seconds since 2001, or a Boolean),
    /// `"NSString"` gives the value's text, `"NSDecimalNumber"` a decimal. Any other class name returns the
    /// value unchanged. A value that cannot be converted gives `nil`.
    static func cast(_ value: Any?, to type: String) -> Any? {
        guard let value = EvaluationValues.flatten(value) else { return nil }
        switch type {
        case "NSDate", "Date":
            if let date = value as? Date { return date }
            if let seconds = NumericValue(value)?.doubleValue { return Date(timeIntervalSinceReferenceDate: seconds) }
            if let text = ValueComparison.string(value), let seconds = Double(text) {
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
            return nil
        case "NSNumber":
            if let number = NumericValue(value) { return number.anyValue }
            if let date = value as? Date { return date.timeIntervalSinceReferenceDate }
            if let text = ValueComparison.string(value) {
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if let integer = Int(trimmed) { return integer }
                return Double(trimmed)
            }
            return nil
        case "NSDecimalNumber":
            if let number = NumericValue(value) { return number.decimalValue }
            if let text = ValueComparison.string(value) { return Decimal(string: text) }
            return nil
        case "NSString", "String":
            if let text = ValueComparison.string(value) { return text }
            if let number = NumericValue(value) { return "\(number.anyValue)" }
            if let date = value as? Date { return date.description }
            if let uuid = value as? UUID { return uuid.uuidString }
            if let url = value as? URL { return url.absoluteString }
            return String(describing: value)
        default:
            return value
        }
    }
}

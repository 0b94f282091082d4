/// Statistics over lists of values, shared by collection operators (`@sum`, `@avg`, `@min`, `@max`) and
/// the statistics functions of expressions (`sum:`, `average:`, `median:`, `mode:`, `stddev:`, …).
enum Aggregates {
    /// The sum of the numbers (non-numbers are ignored); `0` for none. Integers stay integers until the
    /// sum overflows, then the sum is a `Double`.
    static func sum(_ values: [Any]) -> Any {
        let numbers = values.compactMap { NumericValue($0) }
        if numbers.contains(where: { if case .decimal = $0 { return true } else { return false } }) {
            return numbers.reduce(Decimal(0)) { $0 + $1.decimalValue }
        }
        if numbers.allSatisfy({ if case .integer = $0 { return true } else { return false } }) {
            var total: Int64 = 0
            for case .integer(let value) in numbers {
                let (next, overflow) = total.addingReportingOverflow(value)
                if overflow { return numbers.reduce(0.0) { $0 + $1.doubleValue } }
                total = next
            }
            return Int(total)
        }
        return numbers.reduce(0.0) { $0 + $1.doubleValue }
    }

    /// The arithmetic mean of the numbers, or `nil` when there are none.
    static func average(_ values: [Any]) -> Double? {
        let numbers = values.compactMap { NumericValue($0)?.doubleValue }
        guard !numbers.isEmpty else { return nil }
        return numbers.reduce(0, +) / Double(numbers.count)
    }

    /// The smallest or largest of the values that can be ordered among themselves, or `nil` for none.
    static func extreme(_ values: [Any], wantMax: Bool) -> Any? {
        var best: Any?
        for value in values {
            guard let current = best else {
                best = value
                continue
            }
            guard let order = ValueComparison.compare(value, current, options: []) else { continue }
            if wantMax ? order == .orderedDescending : order == .orderedAscending { best = value }
        }
        return best
    }

    /// The median of the numbers (the mean of the two middle numbers for an even count), or `nil` for none.
    static func median(_ values: [Any]) -> Any? {
        let numbers = values.compactMap { NumericValue($0) }.sorted { NumericValue.sortOrder($0, $1) == .orderedAscending }
        guard !numbers.isEmpty else { return nil }
        if numbers.count % 2 == 1 { return numbers[numbers.count / 2].anyValue }
        return (numbers[numbers.count / 2 - 1].doubleValue + numbers[numbers.count / 2].doubleValue) / 2
    }

    /// The most frequent values, in order of first appearance (an array, as Apple's `mode:` returns).
    static func mode(_ values: [Any]) -> [Any] {
        var groups: [(value: Any, count: Int)] = []
        for value in values {
            if let index = groups.firstIndex(where: { ValueComparison.isEqual($0.value, value, options: []) }) {
                groups[index].count += 1
            } else {
                groups.append((value, 1))
            }
        }
        let top = groups.map(\.count).max() ?? 0
        return groups.filter { $0.count == top }.map(\.value)
    }

    /// The population standard deviation of the numbers, or `nil` for none.
    static func standardDeviation(_ values: [Any]) -> Double? {
        let numbers = values.compactMap { NumericValue($0)?.doubleValue }
        guard !numbers.isEmpty else { return nil }
        let mean = numbers.reduce(0, +) / Double(numbers.count)
        let variance = numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(numbers.count)
        return variance.squareRoot()
    }
}

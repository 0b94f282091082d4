/// Reads keys and key paths from the values predicates meet: objects adopting ``KeyValueCoding``,
/// dictionaries, collections, strings and, as a fallback, the stored properties of any Swift value.
package enum KeyValueAccess {
    /// The collection operators of key paths.
    enum CollectionOperator: String {
        case count = "@count", sum = "@sum", avg = "@avg", min = "@min", max = "@max"
        case distinctUnionOfObjects = "@distinctUnionOfObjects", unionOfObjects = "@unionOfObjects"
        case distinctUnionOfArrays = "@distinctUnionOfArrays", unionOfArrays = "@unionOfArrays"
        case distinctUnionOfSets = "@distinctUnionOfSets", unionOfSets = "@unionOfSets"
    }

    /// Returns the value for a single key. A key applied to a collection is applied to each element.
    static func value(of object: Any?, forKey key: String) -> Any? {
        guard let object = EvaluationValues.flatten(object) else { return nil }
        if key == "self" || key == "SELF" { return object }
        if let coding = object as? KeyValueCoding { return EvaluationValues.flatten(coding.value(forKey: key)) }
        if let dictionary = object as? any AnyKeyedLookup { return EvaluationValues.flatten(dictionary.anyValue(forKey: key)) }
        if type(of: object) is NSDictionary.Type, let dictionary = object as? NSDictionary {
            return EvaluationValues.flatten(dictionary.object(forKey: key))
        }
        if let elements = EvaluationValues.elements(of: object) {
            let mapped = elements.map { value(of: $0, forKey: key) ?? NSNull() }
            return EvaluationValues.isUnordered(object) ? EvaluationValues.distinct(mapped) : mapped
        }
        if let string = ValueComparison.string(object) { return stringValue(string, forKey: key) }
        return reflectedValue(of: object, forKey: key)
    }

    /// Returns the value at the end of a dot-separated key path, applying collection operators.
    package static func value(of object: Any?, forKeyPath keyPath: String) -> Any? {
        value(of: object, components: keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    /// Follows already-split key path components. The first component goes through the object's own
    /// `value(forKey:)`, so types adopting ``KeyValueCoding`` may answer whole key paths themselves.
    static func value(of object: Any?, components: [String]) -> Any? {
        guard let first = components.first else { return EvaluationValues.flatten(object) }
        let rest = Array(components.dropFirst())
        if first.hasPrefix("@") {
            guard let op = CollectionOperator(rawValue: first) else { return nil }
            return apply(op, to: object, rest: rest)
        }
        let next = value(of: object, forKey: first)
        if rest.isEmpty { return next }
        if let coding = EvaluationValues.flatten(next) as? KeyValueCoding, !(rest.first?.hasPrefix("@") ?? false) {
            return EvaluationValues.flatten(coding.value(forKeyPath: rest.joined(separator: ".")))
        }
        return value(of: next, components: rest)
    }

    private static func apply(_ op: CollectionOperator, to object: Any?, rest: [String]) -> Any? {
        guard let elements = EvaluationValues.elements(of: object) else {
            // A dictionary answers `@count` with its number of entries, as NSDictionary does.
            guard op == .count, let object = EvaluationValues.flatten(object) else { return nil }
            if let dictionary = object as? any AnyKeyedLookup { return dictionary.anyValues.count }
            if type(of: object) is NSDictionary.Type, let dictionary = object as? NSDictionary { return dictionary.count }
            return nil
        }
        let values: [Any?] = rest.isEmpty ? elements : elements.map { value(of: $0, components: rest) }
        let present = values.compactMap { EvaluationValues.flatten($0) }
        switch op {
        case .count: return elements.count
        case .sum: return Aggregates.sum(present)
        case .avg: return Aggregates.average(present) ?? 0
        case .min: return Aggregates.extreme(present, wantMax: false)
        case .max: return Aggregates.extreme(present, wantMax: true)
        case .unionOfObjects: return present
        case .distinctUnionOfObjects: return EvaluationValues.distinct(present)
        case .unionOfArrays, .unionOfSets:
            return present.flatMap { EvaluationValues.elements(of: $0) ?? [$0] }
        case .distinctUnionOfArrays, .distinctUnionOfSets:
            return EvaluationValues.distinct(present.flatMap { EvaluationValues.elements(of: $0) ?? [$0] })
        }
    }

    private static func stringValue(_ string: String, forKey key: String) -> Any? {
        switch key {
        case "length": return string.utf16.count
        case "uppercaseString": return string.uppercased()
        case "lowercaseString": return string.lowercased()
        case "intValue", "integerValue": return Int(string.trimmingCharacters(in: .whitespaces)) ?? 0
        case "doubleValue": return Double(string.trimmingCharacters(in: .whitespaces)) ?? 0
        case "boolValue": return ["y", "t", "1"].contains(string.lowercased().first.map(String.init) ?? "")
        default: return nil
        }
    }

    /// Reads a stored property by name through reflection, walking superclasses.
    private static func reflectedValue(of object: Any, forKey key: String) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children where child.label == key {
                return EvaluationValues.flatten(child.value)
            }
            mirror = current.superclassMirror
        }
        return nil
    }
}

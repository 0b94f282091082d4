import Foundation

/// A composite attribute's value — a dictionary from element name to element value, nested for composite
/// elements — split into the element columns the schema lays out (keyed by dotted path, `location.latitude`)
/// and put back together.
enum SQLiteCompositeValues {
    /// The stored elements of a composite attribute, recursively, with their dotted paths.
    static func leaves(of composite: NSCompositeAttributeDescription, path: String) -> [(String, NSAttributeDescription)] {
        composite.elements.flatMap { element -> [(String, NSAttributeDescription)] in
            let elementPath = path + "." + element.name
            if let nested = element as? NSCompositeAttributeDescription { return leaves(of: nested, path: elementPath) }
            return [(elementPath, element)]
        }
    }

    /// The value of each stored element of a composite value, by dotted path.
    /// - Throws: A message naming the attribute when the value is not a dictionary of its elements.
    static func elementValues(
        of value: Any?, composite: NSCompositeAttributeDescription,
        path: String
    ) throws -> [String: Any?] {
        guard let value, !(value is NSNull) else {
            return Dictionary(uniqueKeysWithValues: leaves(of: composite, path: path).map { ($0.0, nil) })
        }
        guard let dictionary = value as? [String: Any] else {
            throw TransformableStorage.Failure(
                message: "The composite attribute \(path) holds a \(type(of: value)), "
                    + "not a dictionary of its elements.")
        }
        let names = Set(composite.elements.map(\.name))
        if let unknown = dictionary.keys.sorted().first(where: { !names.contains($0) }) {
            throw TransformableStorage.Failure(message: "The composite attribute \(path) has no element named \(unknown).")
        }
        var result: [String: Any?] = [:]
        for element in composite.elements {
            let elementPath = path + "." + element.name
            if let nested = element as? NSCompositeAttributeDescription {
                result.merge(try elementValues(of: dictionary[element.name], composite: nested, path: elementPath)) { $1 }
            } else {
                result[elementPath] = dictionary[element.name]
            }
        }
        return result
    }

    /// The stored element at a dotted path below a composite attribute, or `nil` when the path names none.
    static func element(at components: ArraySlice<Substring>, in composite: NSCompositeAttributeDescription) -> NSAttributeDescription? {
        guard let first = components.first,
            let element = composite.elements.first(where: { $0.name == first })
        else { return nil }
        if components.count == 1 { return element is NSCompositeAttributeDescription ? nil : element }
        guard let nested = element as? NSCompositeAttributeDescription else { return nil }
        return self.element(at: components.dropFirst(), in: nested)
    }

    /// Puts an element value read from its column into the composite dictionary at the element's path.
    static func insert(_ value: Any, at components: ArraySlice<Substring>, into dictionary: inout [String: Any]) {
        guard let first = components.first else { return }
        let key = String(first)
        if components.count == 1 {
            dictionary[key] = value
            return
        }
        var nested = dictionary[key] as? [String: Any] ?? [:]
        insert(value, at: components.dropFirst(), into: &nested)
        dictionary[key] = nested
    }
}

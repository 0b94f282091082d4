import Foundation

/// A composite attribute's value declared as a Swift type: a `Codable` structure whose stored properties
/// are the composite's elements (`struct Location: Codable { var latitude: Double; var longitude: Double }`
/// for a `location` composite of `latitude` and `longitude`).
///
/// `@Managed var location: Location?` reads the composite's dictionary as a `Location` and stores a
/// `Location` as the dictionary of its elements, so the store keeps it element by element and predicates
/// read `location.latitude` as for any composite. The conversion goes through a property list, which keeps
/// numbers, strings, Booleans, dates and data as they are; UUID and URI elements are given back their types.
enum CompositeValueCoding {
    /// The dictionary of elements of a value of a Swift type, or `nil` when it cannot be encoded.
    static func dictionary(of value: any Encodable, composite: NSCompositeAttributeDescription) -> [String: Any]? {
        guard let data = try? encoded(value),
            let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
            let dictionary = plist as? [String: Any]
        else { return nil }
        return typed(dictionary, composite: composite)
    }

    /// A value of `type` made from a composite's dictionary of elements, or `nil` when it does not decode.
    static func value(of dictionary: [String: Any], as type: any Decodable.Type) -> Any? {
        guard let data = try? PropertyListSerialization.data(fromPropertyList: propertyList(dictionary), format: .binary, options: 0)
        else { return nil }
        return try? decoded(type, from: data)
    }

    private static func encoded<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try encoder.encode(value)
    }

    private static func decoded<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try PropertyListDecoder().decode(type, from: data)
    }

    /// The encoded elements with the types their attributes hold: UUIDs from their strings, URLs from
    /// their strings or their `relative` form.
    private static func typed(_ dictionary: [String: Any], composite: NSCompositeAttributeDescription) -> [String: Any] {
        var result = dictionary
        for element in composite.elements {
            guard let value = dictionary[element.name] else { continue }
            if let nested = element as? NSCompositeAttributeDescription, let inner = value as? [String: Any] {
                result[element.name] = typed(inner, composite: nested)
                continue
            }
            switch element.attributeType {
            case .UUIDAttributeType:
                if let text = value as? String, let uuid = UUID(uuidString: text) { result[element.name] = uuid }
            case .URIAttributeType:
                let text = (value as? String) ?? ((value as? [String: Any])?["relative"] as? String)
                if let text, let url = URL(string: text) { result[element.name] = url }
            default:
                break
            }
        }
        return result
    }

    /// The dictionary as a property list the decoder reads: UUIDs as strings, URLs in their `relative`
    /// form, absent values left out.
    private static func propertyList(_ dictionary: [String: Any]) -> [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in dictionary {
            switch value {
            case is NSNull: continue
            case let uuid as UUID: result[key] = uuid.uuidString
            case let url as URL: result[key] = ["relative": url.absoluteString]
            case let nested as [String: Any]: result[key] = propertyList(nested)
            default: result[key] = value
            }
        }
        return result
    }
}

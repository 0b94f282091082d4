import Foundation

/// The default storage of a transformable attribute's `Codable` value (a Swift type that is not an
/// `NSCoding` object): JSON in an envelope naming the value's type, decoded only as a `Decodable` type
/// — and, when the attribute names a value class (`attributeValueClassName`), only as that type — so that
/// stored data never instantiates arbitrary classes.
enum CodableArchiving {
    /// The bytes every envelope starts with.
    static let prefix = Data("OCDCodable1\n".utf8)

    private struct Header: Codable {
        /// The mangled type name, for looking the type up.
        let type: String
        /// The type's readable name, `Module.Type`.
        let name: String
    }

    private struct Envelope<Value: Codable>: Codable {
        let header: Header
        let value: Value
    }

    private struct HeaderOnly: Decodable {
        let header: Header
    }

    /// Why a value could not be archived or restored.
    struct Failure: Error {
        let message: String
    }

    /// `value` archived, or `nil` when it is not `Codable`.
    static func archive(_ value: Any) throws -> Data? {
        guard let codable = value as? any Codable else { return nil }
        return try encode(codable)
    }

    private static func encode<Value: Codable>(_ value: Value) throws -> Data {
        guard let mangled = _mangledTypeName(Value.self) else {
            throw Failure(message: "the type \(Value.self) has no runtime name and cannot be restored")
        }
        let header = Header(type: mangled, name: _typeName(Value.self, qualified: true))
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return prefix + (try encoder.encode(Envelope(header: header, value: value)))
    }

    /// Whether `data` is an envelope written by ``archive(_:)``.
    static func isArchive(_ data: Data) -> Bool {
        data.starts(with: prefix)
    }

    /// The value restored from an envelope. `expectedName` is the attribute's value class name, if any:
    /// the stored type must have that name (with or without its module).
    static func unarchive(_ data: Data, expectedName: String?) throws -> Any {
        let json = Data(data.dropFirst(prefix.count))
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        let header: Header
        do {
            header = try decoder.decode(HeaderOnly.self, from: json).header
        } catch {
            throw Failure(message: "the stored Codable value is not a readable envelope (\(error))")
        }
        if let expectedName, !expectedName.isEmpty, !expectedName.hasPrefix("NS"),
            header.name != expectedName, !header.name.hasSuffix("." + expectedName)
        {
            throw Failure(message: "the stored value is a \(header.name), not the attribute's value class \(expectedName)")
        }
        guard let type = TypeNameLookup.type(named: header.type) as? any Codable.Type else {
            throw Failure(message: "the stored value's type \(header.name) is not a Codable type of this program")
        }
        return try decode(type, json, decoder, name: header.name)
    }

    private static func decode<Value: Codable>(_ type: Value.Type, _ json: Data, _ decoder: JSONDecoder, name: String) throws -> Any {
        do {
            return try decoder.decode(Envelope<Value>.self, from: json).value
        } catch {
            throw Failure(message: "the stored \(name) cannot be decoded (\(error))")
        }
    }
}

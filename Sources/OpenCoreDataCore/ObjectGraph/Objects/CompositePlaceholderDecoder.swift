import Foundation

/// Makes a value of any `Decodable` type with every stored property at its zero value (0, `false`, an
/// empty string, empty data, the reference date, the nil UUID; optionals `nil`): what a non-optional
/// `@Managed` composite property reads when no value is stored, and the placeholder that names its key
/// paths (`\Place.location.latitude`). `nil` for a type that refuses zero values.
enum CompositePlaceholder {
    static func value(of type: any Decodable.Type) -> Any? {
        try? type.init(from: ZeroDecoder())
    }
}

/// A decoder answering every request with a zero value.
private struct ZeroDecoder: Decoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ZeroKeyedContainer<Key>(codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ZeroUnkeyedContainer(codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ZeroSingleValueContainer(codingPath: codingPath)
    }

    /// The zero of a type: a known value, or one decoded from another zero decoder.
    static func zero<T: Decodable>(_ type: T.Type, codingPath: [any CodingKey]) throws -> T {
        if let known = knownZero(type) { return known }
        return try T(from: ZeroDecoder(codingPath: codingPath))
    }

    private static func knownZero<T>(_ type: T.Type) -> T? {
        let value: Any?
        switch type {
        case is String.Type: value = ""
        case is Bool.Type: value = false
        case is Int.Type: value = 0 as Int
        case is Int8.Type: value = 0 as Int8
        case is Int16.Type: value = 0 as Int16
        case is Int32.Type: value = 0 as Int32
        case is Int64.Type: value = 0 as Int64
        case is UInt.Type: value = 0 as UInt
        case is UInt8.Type: value = 0 as UInt8
        case is UInt16.Type: value = 0 as UInt16
        case is UInt32.Type: value = 0 as UInt32
        case is UInt64.Type: value = 0 as UInt64
        case is Double.Type: value = 0.0 as Double
        case is Float.Type: value = 0.0 as Float
        case is Decimal.Type: value = Decimal(0)
        case is Date.Type: value = Date(timeIntervalSinceReferenceDate: 0)
        case is Data.Type: value = Data()
        case is UUID.Type: value = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case is URL.Type: value = URL(string: "about:blank")
        default: value = nil
        }
        return value as? T
    }
}

private struct ZeroKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    var codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ZeroDecoder.zero(type, codingPath: codingPath + [key])
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(ZeroKeyedContainer<NestedKey>(codingPath: codingPath + [key]))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        ZeroUnkeyedContainer(codingPath: codingPath + [key])
    }
    func superDecoder() throws -> any Decoder { ZeroDecoder(codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ZeroDecoder(codingPath: codingPath + [key]) }
}

/// An empty list.
private struct ZeroUnkeyedContainer: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey]
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    private func end() -> DecodingError {
        DecodingError.valueNotFound(Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "an empty placeholder list"))
    }
    mutating func decodeNil() throws -> Bool { throw end() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw end() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw end()
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw end() }
    mutating func superDecoder() throws -> any Decoder { throw end() }
}

private struct ZeroSingleValueContainer: SingleValueDecodingContainer {
    var codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ZeroDecoder.zero(type, codingPath: codingPath)
    }
}

import Foundation

/// Writes keyed archives as `NSKeyedArchiver` does — a binary property list with `$archiver`,
/// `$version` 100000, `$top` and `$objects` — for objects the program describes field by field: the
/// compiled model and model cache formats archive Core Data's own classes, which Foundation's archiver
/// cannot write here.
///
/// Object 0 is `$null`; strings and class descriptions are written once and shared, as Apple's archiver
/// shares them.
final class KeyedArchiveWriter {
    /// A value in an archived object's fields, or an object of `$objects` itself.
    indirect enum ArchiveValue {
        case null
        case boolean(Bool)
        case integer(Int64)
        case real(Double)
        /// Seconds since 2001-01-01.
        case date(Double)
        case data(Data)
        case string(String)
        /// A reference to an object of `$objects`.
        case uid(Int)
        case array([ArchiveValue])
        /// String keys, in the order written.
        case dictionary([(String, ArchiveValue)])
    }

    private var objects: [ArchiveValue?] = [.string("$null")]
    private var stringObjects: [String: Int] = [:]
    private var classObjects: [[String]: Int] = [:]

    /// The reference to `$null`.
    static let null = ArchiveValue.uid(0)

    /// A new, empty place in `$objects` to ``fill(_:with:)`` later: objects that refer to each other
    /// reserve their places first.
    func reserve() -> Int {
        objects.append(nil)
        return objects.count - 1
    }

    /// Sets the object at a reserved place.
    func fill(_ uid: Int, with value: ArchiveValue) {
        objects[uid] = value
    }

    /// Sets the object at a reserved place to an instance of the class `classes.first` (its superclasses
    /// following, as `$classes` lists them) with `fields`.
    func fill(_ uid: Int, classes: [String], fields: [(String, ArchiveValue)]) {
        fill(uid, with: .dictionary([("$class", .uid(classReference(classes)))] + fields))
    }

    /// A new instance (see ``fill(_:classes:fields:)``); returns its reference.
    func instance(classes: [String], fields: [(String, ArchiveValue)]) -> ArchiveValue {
        let uid = reserve()
        fill(uid, classes: classes, fields: fields)
        return .uid(uid)
    }

    /// The reference to the string `text`, written once however often it is referred to.
    func string(_ text: String) -> ArchiveValue {
        if let uid = stringObjects[text] { return .uid(uid) }
        let uid = reserve()
        fill(uid, with: .string(text))
        stringObjects[text] = uid
        return .uid(uid)
    }

    /// The reference to `text`, or to `$null` when it is `nil`.
    func string(_ text: String?) -> ArchiveValue {
        text.map { string($0) } ?? Self.null
    }

    /// An object that is a plain property list value (a number, data), written as its own object.
    func plain(_ value: ArchiveValue) -> ArchiveValue {
        let uid = reserve()
        fill(uid, with: value)
        return .uid(uid)
    }

    /// The reference to the class description `{$classname, $classes}` for `classes`.
    func classReference(_ classes: [String]) -> Int {
        if let uid = classObjects[classes] { return uid }
        let uid = reserve()
        fill(
            uid,
            with: .dictionary([
                ("$classname", .string(classes.first ?? "NSObject")),
                ("$classes", .array(classes.map { .string($0) })),
            ]))
        classObjects[classes] = uid
        return uid
    }

    /// The archive whose root object is `root`.
    func archive(root: Int) -> Data {
        let container = ArchiveValue.dictionary([
            ("$version", .integer(100_000)),
            ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary([("root", .uid(root))])),
            ("$objects", .array(objects.map { $0 ?? .string("$null") })),
        ])
        return BinaryPropertyListWriter.data(container)
    }
}

/// Writes a binary property list (`bplist00`) of ``KeyedArchiveWriter/ArchiveValue``s; equal strings, numbers and
/// references are written once.
enum BinaryPropertyListWriter {
    static func data(_ top: KeyedArchiveWriter.ArchiveValue) -> Data {
        var table = Table()
        let topIndex = table.add(top)
        return table.serialize(top: topIndex)
    }

    /// A top-level value of a plain property list (`VersionInfo.plist`): dictionaries with string keys,
    /// arrays, strings, numbers, Booleans, data and dates.
    static func data(plist: Any) -> Data? {
        func convert(_ value: Any) -> KeyedArchiveWriter.ArchiveValue? {
            switch value {
            case let text as String: return .string(text)
            case let bytes as Data: return .data(bytes)
            case let date as Date: return .date(date.timeIntervalSinceReferenceDate)
            case let flag as Bool: return .boolean(flag)
            case let number as Int: return .integer(Int64(number))
            case let number as Double: return .real(number)
            case let array as [Any]:
                var elements: [KeyedArchiveWriter.ArchiveValue] = []
                for element in array {
                    guard let converted = convert(element) else { return nil }
                    elements.append(converted)
                }
                return .array(elements)
            case let dictionary as [String: Any]:
                var fields: [(String, KeyedArchiveWriter.ArchiveValue)] = []
                for key in dictionary.keys.sorted() {
                    guard let converted = convert(dictionary[key]!) else { return nil }
                    fields.append((key, converted))
                }
                return .dictionary(fields)
            default: return nil
            }
        }
        return convert(plist).map { data($0) }
    }

    private enum Key: Hashable {
        case string(String), integer(Int64), uid(Int), boolean(Bool)
    }

    private struct Table {
        /// Each object's encoding without its references, and the references to patch in.
        var objects: [(head: [UInt8], references: [Int], tail: [UInt8])] = []
        var shared: [Key: Int] = [:]

        mutating func add(_ value: KeyedArchiveWriter.ArchiveValue) -> Int {
            let key: Key?
            switch value {
            case let .string(text): key = .string(text)
            case let .integer(number): key = .integer(number)
            case let .uid(uid): key = .uid(uid)
            case let .boolean(flag): key = .boolean(flag)
            default: key = nil
            }
            if let key, let index = shared[key] { return index }
            let index: Int
            switch value {
            case .null: index = append([0x00])
            case let .boolean(flag): index = append([flag ? 0x09 : 0x08])
            case let .integer(number): index = append(Self.integer(number))
            case let .real(number): index = append([0x23] + Self.bigEndian(number.bitPattern, size: 8))
            case let .date(seconds): index = append([0x33] + Self.bigEndian(seconds.bitPattern, size: 8))
            case let .data(bytes): index = append(Self.marker(0x4, count: bytes.count) + Array(bytes))
            case let .string(text):
                if text.utf8.allSatisfy({ $0 < 0x80 }) {
                    index = append(Self.marker(0x5, count: text.utf8.count) + Array(text.utf8))
                } else {
                    let units = Array(text.utf16)
                    index = append(Self.marker(0x6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
                }
            case let .uid(uid):
                let size = uid < 0x100 ? 1 : uid < 0x10000 ? 2 : uid < 0x1_0000_0000 ? 4 : 8
                index = append([0x80 | UInt8(size - 1)] + Self.bigEndian(UInt64(uid), size: size))
            case let .array(elements):
                let references = elements.map { add($0) }
                objects.append((Self.marker(0xA, count: references.count), references, []))
                index = objects.count - 1
            case let .dictionary(fields):
                let keys = fields.map { add(.string($0.0)) }
                let values = fields.map { add($0.1) }
                objects.append((Self.marker(0xD, count: fields.count), keys + values, []))
                index = objects.count - 1
            }
            if let key { shared[key] = index }
            return index
        }

        private mutating func append(_ bytes: [UInt8]) -> Int {
            objects.append((bytes, [], []))
            return objects.count - 1
        }

        func serialize(top: Int) -> Data {
            let referenceSize = Self.size(for: UInt64(objects.count))
            var output: [UInt8] = Array("bplist00".utf8)
            var offsets: [Int] = []
            offsets.reserveCapacity(objects.count)
            for object in objects {
                offsets.append(output.count)
                output += object.head
                for reference in object.references {
                    output += Self.bigEndian(UInt64(reference), size: referenceSize)
                }
                output += object.tail
            }
            let tableOffset = output.count
            let offsetSize = Self.size(for: UInt64(tableOffset))
            for offset in offsets {
                output += Self.bigEndian(UInt64(offset), size: offsetSize)
            }
            output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            output += Self.bigEndian(UInt64(objects.count), size: 8)
            output += Self.bigEndian(UInt64(top), size: 8)
            output += Self.bigEndian(UInt64(tableOffset), size: 8)
            return Data(output)
        }

        static func size(for maximum: UInt64) -> Int {
            maximum < 0x100 ? 1 : maximum < 0x10000 ? 2 : maximum < 0x1_0000_0000 ? 4 : 8
        }

        static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
            (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }

        /// An integer object: 1, 2 or 4 bytes for non-negative values that fit, 8 bytes (signed) otherwise.
        static func integer(_ number: Int64) -> [UInt8] {
            if number >= 0 && number < 0x100 { return [0x10] + bigEndian(UInt64(number), size: 1) }
            if number >= 0 && number < 0x10000 { return [0x11] + bigEndian(UInt64(number), size: 2) }
            if number >= 0 && number < 0x1_0000_0000 { return [0x12] + bigEndian(UInt64(number), size: 4) }
            return [0x13] + bigEndian(UInt64(bitPattern: number), size: 8)
        }

        /// A marker byte with a count in its low nibble, or 0xF and the count as an integer object.
        static func marker(_ kind: UInt8, count: Int) -> [UInt8] {
            count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0xF] + integer(Int64(count))
        }
    }
}

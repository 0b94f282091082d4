import Foundation

/// Foundation values in a keyed archive — the values a model holds in user info, default values and
/// constant expressions — decoded by the reader itself: strings, numbers, data, dates, decimal numbers,
/// UUIDs, URLs, `NSNull` and the collections of them. An instance of any other class (a transformable
/// attribute's default value of an app's class) is cut out of the archive with everything it refers to
/// and given to Foundation's unarchiver when the program has the class and the archive passes the checks
/// transformable values pass (``KeyedArchiving/unarchive(_:)``); otherwise it decodes as `nil`.
struct KeyedArchiveValueDecoder {
    let reader: KeyedArchiveReader
    /// The objects being decoded, from the outermost in: an object that holds one of them is a cycle.
    private var inProgress = Set<Int>()

    init(reader: KeyedArchiveReader) {
        self.reader = reader
    }

    /// The value of the archived object `uid`; `nil` for `$null` or an object of a class this program
    /// cannot decode.
    mutating func value(ofObject uid: Int, depth: Int = 0) throws(KeyedArchiveReader.Failure) -> Any? {
        guard depth < KeyedArchiveReader.maximumDepth else { throw .init("the archive nests values too deeply") }
        guard let node = try reader.node(ofObject: uid) else { return nil }
        switch node {
        case let .string(text): return text
        case let .integer(value): return NSNumber(value: value)
        case let .real(value): return NSNumber(value: value)
        case let .boolean(value): return NSNumber(value: value)
        case let .data(bytes): return bytes
        case let .date(seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .null, .uid, .array:
            throw .init("the archive's object \(uid) is not a value an archive holds")
        case .dictionary:
            break
        }
        guard let object = try reader.instance(uid) else { return nil }
        guard !inProgress.contains(uid) else { throw .init("the archive's object \(uid) contains itself") }
        inProgress.insert(uid)
        defer { inProgress.remove(uid) }
        let what = "the archived \(object.className) (object \(uid))"
        switch object.className {
        case "NSString", "NSMutableString":
            return try reader.string(ofObject: uid, what)
        case "NSArray", "NSMutableArray":
            return try reader.elements(of: object, what).map { element throws(KeyedArchiveReader.Failure) -> Any in
                try value(ofObject: element, depth: depth + 1) ?? NSNull()
            }
        case "NSSet", "NSMutableSet", "NSCountedSet":
            var set: [AnyHashable] = []
            for element in try reader.elements(of: object, what) {
                guard let hashable = try value(ofObject: element, depth: depth + 1) as? AnyHashable else { continue }
                set.append(hashable)
            }
            return Set(set)
        case "NSOrderedSet", "NSMutableOrderedSet":
            var elements: [Any] = []
            for element in try reader.elements(of: object, what) {
                elements.append(try value(ofObject: element, depth: depth + 1) ?? NSNull())
            }
            return NSOrderedSet(array: elements)
        case "NSDictionary", "NSMutableDictionary":
            var dictionary: [AnyHashable: Any] = [:]
            for (key, entry) in try reader.entries(of: object, what) {
                guard let hashable = try value(ofObject: key, depth: depth + 1) as? AnyHashable else {
                    throw .init("\(what) has a key that is not a value")
                }
                dictionary[hashable] = try value(ofObject: entry, depth: depth + 1) ?? NSNull()
            }
            return dictionary
        case "NSData", "NSMutableData":
            guard case let .data(bytes)? = try fieldValueNode("NS.data", of: object) else { throw .init("\(what) has no bytes") }
            return bytes
        case "NSDate":
            guard let node = reader.field("NS.time", of: object) else { throw .init("\(what) has no time") }
            switch node {
            case let .real(seconds), let .date(seconds): return Date(timeIntervalSinceReferenceDate: seconds)
            case let .integer(seconds): return Date(timeIntervalSinceReferenceDate: Double(seconds))
            default: throw .init("\(what) has a time that is not a number")
            }
        case "NSUUID":
            guard case let .data(bytes)? = try fieldValueNode("NS.uuidbytes", of: object), bytes.count == 16 else {
                throw .init("\(what) does not hold 16 bytes")
            }
            let b = Array(bytes)
            return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        case "NSURL":
            guard let relative = try reader.string("NS.relative", of: object) else { throw .init("\(what) has no string") }
            var base: URL?
            if let baseUID = try reader.reference("NS.base", of: object) {
                guard let found = try value(ofObject: baseUID, depth: depth + 1) as? URL else { throw .init("\(what) has a base that is not a URL") }
                base = found
            }
            guard let url = URL(string: relative, relativeTo: base) else { throw .init("\(what) is not a URL") }
            return url
        case "NSNull":
            return NSNull()
        case "NSDecimalNumber":
            return try decimal(object, what)
        default:
            return foreignInstance(uid)
        }
    }

    /// A field holding a value inline or by reference.
    private func fieldValueNode(_ key: String, of object: KeyedArchiveReader.Instance) throws(KeyedArchiveReader.Failure) -> KeyedArchiveReader.Node?
    {
        guard let node = reader.field(key, of: object) else { return nil }
        if case let .uid(uid) = node { return try reader.node(ofObject: uid) }
        return node
    }

    /// An `NSDecimalNumber`: `NS.mantissa` (up to 16 bytes, little-endian 16-bit words when
    /// `NS.mantissa.bo` is 1), `NS.exponent`, `NS.length` (words used), `NS.negative`.
    private func decimal(_ object: KeyedArchiveReader.Instance, _ what: String) throws(KeyedArchiveReader.Failure) -> NSDecimalNumber {
        guard case let .data(bytes)? = try fieldValueNode("NS.mantissa", of: object),
            let exponent = try reader.integer("NS.exponent", of: object, in: -128...127),
            let length = try reader.integer("NS.length", of: object, in: 0...8)
        else {
            throw .init("\(what) has damaged digits")
        }
        let negative = try reader.flag("NS.negative", of: object)
        let bigEndian = (try reader.integer("NS.mantissa.bo", of: object) ?? 1) == 0
        let b = Array(bytes)
        var words: [UInt16] = []
        for index in 0..<length {
            let low = 2 * index, high = low + 1
            guard high < b.count else { throw .init("\(what) has fewer digits than its length") }
            words.append(bigEndian ? UInt16(b[low]) << 8 | UInt16(b[high]) : UInt16(b[high]) << 8 | UInt16(b[low]))
        }
        // The mantissa as a decimal integer string, then scaled: exact for every 128-bit mantissa.
        var digits = "0"
        for word in words.reversed() {
            digits = Self.multiply(digits, by: 65536, adding: Int(word))
        }
        var text = (negative ? "-" : "") + digits
        if exponent != 0 { text += "e\(exponent)" }
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw .init("\(what) has damaged digits")
        }
        return NSDecimalNumber(decimal: decimal)
    }

    /// `digits × factor + addend`, in decimal digits.
    private static func multiply(_ digits: String, by factor: Int, adding addend: Int) -> String {
        var carry = addend
        var result: [Character] = []
        for character in digits.reversed() {
            let product = Int(String(character))! * factor + carry
            result.append(Character(String(product % 10)))
            carry = product / 10
        }
        while carry > 0 {
            result.append(Character(String(carry % 10)))
            carry /= 10
        }
        let text = String(result.reversed()).drop { $0 == "0" }
        return text.isEmpty ? "0" : String(text)
    }

    /// An instance of a class the reader does not know: decoded by Foundation's unarchiver from an archive
    /// of it alone, when the program has the class; `nil` otherwise.
    private func foreignInstance(_ uid: Int) -> Any? {
        guard let object = try? reader.instance(uid),
            NSKeyedUnarchiver.class(forClassName: object.className) ?? NSClassFromString(object.className) != nil,
            let data = try? KeyedArchiveExtraction.archive(of: uid, in: reader)
        else { return nil }
        return KeyedArchiving.unarchive(data)
    }
}

/// Cuts an object, and everything it refers to, out of a keyed archive into an archive of its own.
enum KeyedArchiveExtraction {
    /// A keyed archive whose root is the object `uid` of `reader`'s archive.
    static func archive(of uid: Int, in reader: KeyedArchiveReader) throws(KeyedArchiveReader.Failure) -> Data {
        let writer = KeyedArchiveWriter()
        var mapped: [Int: Int] = [0: 0]
        func copy(_ old: Int) throws(KeyedArchiveReader.Failure) -> Int {
            if let new = mapped[old] { return new }
            guard old > 0, old < reader.objects.count else { throw .init("the archive refers to object \(old), which it does not hold") }
            let new = writer.reserve()
            mapped[old] = new
            let converted = try convert(reader.nodes[reader.objects[old]], depth: 0)
            writer.fill(new, with: converted)
            return new
        }
        func convert(_ node: KeyedArchiveReader.Node, depth: Int) throws(KeyedArchiveReader.Failure) -> KeyedArchiveWriter.ArchiveValue {
            guard depth < KeyedArchiveReader.maximumDepth else { throw .init("the archive nests values too deeply") }
            switch node {
            case .null: return .null
            case let .boolean(value): return .boolean(value)
            case let .integer(value): return .integer(value)
            case let .real(value): return .real(value)
            case let .date(value): return .date(value)
            case let .data(value): return .data(value)
            case let .string(value): return .string(value)
            case let .uid(old): return .uid(try copy(old))
            case let .array(elements):
                return .array(try elements.map { element throws(KeyedArchiveReader.Failure) in try convert(reader.nodes[element], depth: depth + 1) })
            case let .dictionary(fields):
                var result: [(String, KeyedArchiveWriter.ArchiveValue)] = []
                for key in fields.keys.sorted() {
                    result.append((key, try convert(reader.nodes[fields[key]!], depth: depth + 1)))
                }
                return .dictionary(result)
            }
        }
        let root = try copy(uid)
        return writer.archive(root: root)
    }
}

/// Writes Foundation values into a keyed archive as `NSKeyedArchiver` writes them: strings, numbers and
/// data as plain objects, dates, UUIDs, URLs, decimal numbers, `NSNull` and collections as instances of
/// their Foundation classes. Any other `NSCoding` object is archived by Foundation's archiver and its
/// objects copied in; a value that cannot be archived is written as `$null`.
struct KeyedArchiveValueEncoder {
    let writer: KeyedArchiveWriter

    /// Whether `number` is a Boolean (`NSNumber(value: true)` is of a class of its own).
    static func isBoolean(_ number: NSNumber) -> Bool {
        type(of: number) == type(of: NSNumber(value: true))
    }

    /// The reference to `value` archived.
    func value(_ value: Any?) -> KeyedArchiveWriter.ArchiveValue {
        guard let value else { return KeyedArchiveWriter.null }
        switch value {
        case let text as String:
            return writer.string(text)
        case let decimal as NSDecimalNumber:
            return self.decimal(decimal.decimalValue)
        case let decimal as Decimal:
            return self.decimal(decimal)
        case let number as NSNumber:
            return writer.plain(Self.plainValue(number))
        case let bytes as Data:
            return writer.plain(.data(bytes))
        case let date as Date:
            return writer.instance(classes: ["NSDate", "NSObject"], fields: [("NS.time", .real(date.timeIntervalSinceReferenceDate))])
        case let uuid as UUID:
            let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
            return writer.instance(classes: ["NSUUID", "NSObject"], fields: [("NS.uuidbytes", .data(bytes))])
        case let url as URL:
            return writer.instance(
                classes: ["NSURL", "NSObject"],
                fields: [
                    ("NS.base", url.baseURL.map { self.value($0) } ?? KeyedArchiveWriter.null),
                    ("NS.relative", writer.string(url.relativeString)),
                ])
        case is NSNull:
            return writer.instance(classes: ["NSNull", "NSObject"], fields: [])
        case let array as [Any]:
            return writer.instance(classes: ["NSArray", "NSObject"], fields: [("NS.objects", .array(array.map { self.value($0) }))])
        case let dictionary as [AnyHashable: Any]:
            let keys = dictionary.keys.sorted { "\($0)" < "\($1)" }
            return writer.instance(
                classes: ["NSDictionary", "NSObject"],
                fields: [
                    ("NS.keys", .array(keys.map { self.value($0.base) })),
                    ("NS.objects", .array(keys.map { self.value(dictionary[$0]) })),
                ])
        case let set as Set<AnyHashable>:
            let elements = set.sorted { "\($0)" < "\($1)" }
            return writer.instance(classes: ["NSSet", "NSObject"], fields: [("NS.objects", .array(elements.map { self.value($0.base) }))])
        case let orderedSet as NSOrderedSet:
            return writer.instance(classes: ["NSOrderedSet", "NSObject"], fields: [("NS.objects", .array(orderedSet.array.map { self.value($0) }))])
        default:
            return foreign(value)
        }
    }

    /// A number as the plain value it is archived as.
    static func plainValue(_ number: NSNumber) -> KeyedArchiveWriter.ArchiveValue {
        if isBoolean(number) { return .boolean(number.boolValue) }
        switch String(cString: number.objCType) {
        case "f", "d": return .real(number.doubleValue)
        case "Q": return .integer(Int64(bitPattern: number.uint64Value))
        default: return .integer(number.int64Value)
        }
    }

    /// An `NSDecimalNumber`: its significand as up to eight little-endian 16-bit words.
    private func decimal(_ value: Decimal) -> KeyedArchiveWriter.ArchiveValue {
        var words: [UInt16] = []
        var negative = false
        var exponent = 0
        if value.isFinite, !value.isZero {
            negative = value.sign == .minus
            exponent = value.exponent
            var digits = Array("\(value.significand.magnitude)").compactMap { $0.wholeNumberValue }
            while !digits.isEmpty, words.count < 8 {
                // Divide the decimal digits by 65536, keeping the remainder as the next word.
                var quotient: [Int] = []
                var remainder = 0
                for digit in digits {
                    let current = remainder * 10 + digit
                    quotient.append(current / 65536)
                    remainder = current % 65536
                }
                words.append(UInt16(remainder))
                digits = Array(quotient.drop { $0 == 0 })
            }
        }
        var mantissa = Data(count: 16)
        for (index, word) in words.enumerated() {
            mantissa[2 * index] = UInt8(word & 0xFF)
            mantissa[2 * index + 1] = UInt8(word >> 8)
        }
        return writer.instance(
            classes: ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"],
            fields: [
                ("NS.exponent", .integer(Int64(exponent))), ("NS.length", .integer(Int64(words.count))),
                ("NS.negative", .boolean(negative)), ("NS.compact", .boolean(true)), ("NS.mantissa.bo", .integer(1)),
                ("NS.mantissa", .data(mantissa)),
            ])
    }

    /// An object of another class, archived by Foundation and copied in; `$null` when it cannot be.
    private func foreign(_ value: Any) -> KeyedArchiveWriter.ArchiveValue {
        guard let data = KeyedArchiving.archive(value, secure: false),
            let reader = try? KeyedArchiveReader(data)
        else { return KeyedArchiveWriter.null }
        var mapped: [Int: Int] = [0: 0]
        func copy(_ old: Int) -> Int {
            if let new = mapped[old] { return new }
            guard old > 0, old < reader.objects.count else { return 0 }
            let new = writer.reserve()
            mapped[old] = new
            writer.fill(new, with: convert(reader.nodes[reader.objects[old]]))
            return new
        }
        func convert(_ node: KeyedArchiveReader.Node) -> KeyedArchiveWriter.ArchiveValue {
            switch node {
            case .null: return .null
            case let .boolean(value): return .boolean(value)
            case let .integer(value): return .integer(value)
            case let .real(value): return .real(value)
            case let .date(value): return .date(value)
            case let .data(value): return .data(value)
            case let .string(value): return .string(value)
            case let .uid(old): return .uid(copy(old))
            case let .array(elements): return .array(elements.map { convert(reader.nodes[$0]) })
            case let .dictionary(fields): return .dictionary(fields.keys.sorted().map { ($0, convert(reader.nodes[fields[$0]!])) })
            }
        }
        return .uid(copy(reader.root))
    }
}

/// A binary property list (`bplist00`) read in place, every bound checked: its objects as they are laid
/// out, before Foundation turns them into values.
///
/// Used to look at bytes from files and stores that Foundation's reader or keyed unarchiver would stop
/// the program on (see ``PropertyListReading`` and `KeyedArchiveCheck`). Valid only inside the
/// `withUnsafeBytes` call that gives it its bytes.
struct BinaryPropertyList {
    /// One object, as far as the checks need to know it.
    enum Object {
        case null, boolean, integer, real, date, data
        case string(String)
        /// A keyed archive's reference to an object of its `$objects` array.
        case uid(Int)
        /// The positions of the elements in the object table.
        case array([Int])
        case set([Int])
        /// The positions of the keys and of the values in the object table, pair by pair.
        case dictionary(keys: [Int], values: [Int])
    }

    private let bytes: UnsafeRawBufferPointer
    private let offsetSize: Int
    private let referenceSize: Int
    private let offsetTable: Int
    /// The number of objects in the object table.
    let objectCount: Int
    /// The position of the top object in the object table.
    let topObject: Int

    /// The marker every binary property list starts with, and the size of its trailer.
    private static let magic = Array("bplist00".utf8)
    private static let trailerSize = 32

    /// The property list in `bytes`, or `nil` when they are not a binary property list with a readable
    /// trailer and offset table (Foundation then refuses them with an error of its own).
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.magic.count + Self.trailerSize,
            bytes.prefix(Self.magic.count).elementsEqual(Self.magic)
        else { return nil }
        let trailer = bytes.count - Self.trailerSize
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let objectCount = Self.integer(in: bytes, at: trailer + 8, size: 8),
            let topObject = Self.integer(in: bytes, at: trailer + 16, size: 8),
            let offsetTable = Self.integer(in: bytes, at: trailer + 24, size: 8),
            offsetTable >= Self.magic.count, offsetTable <= trailer,
            objectCount <= (trailer - offsetTable) / offsetSize
        else { return nil }
        self.bytes = bytes
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.offsetTable = offsetTable
        self.objectCount = objectCount
        self.topObject = topObject
    }

    /// The byte offset of the first object in the offset table that is a set, if any. Every object a
    /// reader can reach is in the table: references between objects are positions in it.
    func firstSetObjectOffset() -> Int? {
        for index in 0..<objectCount {
            guard let offset = offset(of: index) else { continue }
            if bytes[offset] & 0xF0 == 0xC0 { return offset }
        }
        return nil
    }

    /// The object at `index` in the object table, or `nil` when it cannot be read.
    func object(at index: Int) -> Object? {
        guard let offset = offset(of: index) else { return nil }
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08, 0x09: return .boolean
            default: return nil
            }
        case 0x1: return .integer
        case 0x2: return .real
        case 0x3: return marker == 0x33 ? .date : nil
        case 0x4: return length(low, at: offset).map { _ in .data }
        case 0x5:
            guard let (count, start) = length(low, at: offset), start <= bytes.count - count else { return nil }
            return .string(String(decoding: bytes[start..<(start + count)], as: UTF8.self))
        case 0x6:
            guard let (count, start) = length(low, at: offset), count <= (bytes.count - start) / 2 else { return nil }
            let units = (0..<count).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            return Self.integer(in: bytes, at: offset + 1, size: low + 1).map { .uid($0) }
        case 0xA, 0xC:
            guard let (count, start) = length(low, at: offset), let elements = references(count, at: start) else { return nil }
            return marker >> 4 == 0xA ? .array(elements) : .set(elements)
        case 0xD:
            guard let (count, start) = length(low, at: offset), count <= Int.max / 2,
                let both = references(2 * count, at: start)
            else { return nil }
            return .dictionary(keys: Array(both.prefix(count)), values: Array(both.suffix(count)))
        default:
            return nil
        }
    }

    /// The value of the dictionary `object` for the string key `key`, as an object table position.
    func value(forKey key: String, in object: Object) -> Int? {
        guard case let .dictionary(keys, values) = object else { return nil }
        for (keyIndex, valueIndex) in zip(keys, values) {
            if case .string(key)? = self.object(at: keyIndex) { return valueIndex }
        }
        return nil
    }

    /// The value of the integer object at `index`: 1-, 2- and 4-byte integers are unsigned, 8-byte ones
    /// signed, as Foundation writes them; a 16-byte integer gives its low 8 bytes when its high 8 are
    /// zero. `nil` for another object or one that cannot be read.
    func integerValue(at index: Int) -> Int64? {
        guard let offset = offset(of: index), bytes[offset] >> 4 == 0x1 else { return nil }
        let size = 1 << Int(bytes[offset] & 0x0F)
        guard size <= 16, offset + 1 <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for position in (offset + 1 + max(0, size - 8))..<(offset + 1 + size) {
            value = value << 8 | UInt64(bytes[position])
        }
        if size == 16, bytes[(offset + 1)..<(offset + 9)].contains(where: { $0 != 0 }) { return nil }
        return Int64(bitPattern: value)
    }

    /// The value of the real or date object at `index` (a date as seconds since 2001-01-01), or `nil`.
    func realValue(at index: Int) -> Double? {
        guard let offset = offset(of: index), bytes[offset] >> 4 == 0x2 || bytes[offset] == 0x33 else { return nil }
        let size = 1 << Int(bytes[offset] & 0x0F)
        guard size == 4 || size == 8, offset + 1 <= bytes.count - size else { return nil }
        var bits: UInt64 = 0
        for byte in bytes[(offset + 1)..<(offset + 1 + size)] {
            bits = bits << 8 | UInt64(byte)
        }
        return size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
    }

    /// The value of the boolean object at `index`, or `nil`.
    func booleanValue(at index: Int) -> Bool? {
        guard let offset = offset(of: index) else { return nil }
        switch bytes[offset] {
        case 0x08: return false
        case 0x09: return true
        default: return nil
        }
    }

    /// The bytes of the data object at `index`, or `nil`.
    func dataValue(at index: Int) -> Data? {
        guard let offset = offset(of: index), bytes[offset] >> 4 == 0x4,
            let (count, start) = length(Int(bytes[offset] & 0x0F), at: offset), start <= bytes.count - count
        else { return nil }
        return Data(bytes[start..<(start + count)])
    }

    /// The byte offset of the object at `index`, when it lies inside the bytes.
    private func offset(of index: Int) -> Int? {
        guard index >= 0, index < objectCount,
            let offset = Self.integer(in: bytes, at: offsetTable + index * offsetSize, size: offsetSize),
            offset < bytes.count
        else { return nil }
        return offset
    }

    /// The element count of the object at `offset` whose marker's low nibble is `low`, and where its
    /// contents start: counts of 15 or more follow the marker as an integer object.
    private func length(_ low: Int, at offset: Int) -> (count: Int, start: Int)? {
        if low < 0xF { return (low, offset + 1) }
        guard offset + 1 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else { return nil }
        let size = 1 << Int(bytes[offset + 1] & 0x0F)
        guard size <= 8, let count = Self.integer(in: bytes, at: offset + 2, size: size) else { return nil }
        return (count, offset + 2 + size)
    }

    /// `count` object references starting at `start`.
    private func references(_ count: Int, at start: Int) -> [Int]? {
        guard count <= (bytes.count - start) / referenceSize else { return nil }
        var references: [Int] = []
        references.reserveCapacity(count)
        for index in 0..<count {
            guard let reference = Self.integer(in: bytes, at: start + index * referenceSize, size: referenceSize) else { return nil }
            references.append(reference)
        }
        return references
    }

    /// The big-endian unsigned integer of `size` bytes at `position`, or `nil` when it does not fit in
    /// the bytes or in an `Int`.
    private static func integer(in bytes: UnsafeRawBufferPointer, at position: Int, size: Int) -> Int? {
        guard size <= 8, position >= 0, position <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for byte in bytes[position..<(position + size)] {
            value = value << 8 | UInt64(byte)
        }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}

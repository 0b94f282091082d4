import Foundation

/// Reads property lists from files and stores without the ones that stop the program inside Foundation.
///
/// On Linux, Foundation's `PropertyListSerialization` (and so `NSKeyedUnarchiver`, which reads an archive
/// with it) crashes on a binary property list holding a set object (marker `0xC_`), where it throws for
/// every other kind of damage. Neither Core Data's metadata, model bundles, strings files nor keyed
/// archives ever hold one, so such bytes come only from damaged or hostile files: they are refused here
/// with an error, before Foundation sees them.
enum PropertyListReading {
    /// The property list in `data`, as `PropertyListSerialization.propertyList(from:options:format:)`
    /// reads it; throws Foundation's error for damaged data, and a Cocoa error 3840
    /// (`NSPropertyListReadCorruptError`) naming the object for a binary property list with a set.
    static func propertyList(from data: Data) throws -> Any {
        if let refusal = refusal(of: data) {
            throw NSError(domain: NSCocoaErrorDomain, code: NSPropertyListReadCorruptError,
                          userInfo: [NSLocalizedDescriptionKey: refusal, refusalKey: refusal])
        }
        return try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }

    /// What an error of ``propertyList(from:)`` adds to a message that the data is not a property list:
    /// the reason, in parentheses, when it refused the data itself; nothing for Foundation's errors.
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain, error.code == NSPropertyListReadCorruptError,
              let reason = error.userInfo[refusalKey] as? String else { return "" }
        return " (\(reason))"
    }

    /// The user-info key of the reason ``propertyList(from:)`` gives when it refuses data itself.
    private static let refusalKey = "OCDPropertyListRefusal"

    /// Why Foundation cannot be given `data`, or `nil` when it can: data that is not a binary property
    /// list, or one whose layout Foundation refuses with an error of its own, is left to Foundation.
    static func refusal(of data: Data) -> String? {
        data.withUnsafeBytes { bytes -> String? in
            guard let offset = BinaryPropertyListLayout(bytes)?.firstSetObjectOffset() else { return nil }
            return "the binary property list holds a set (the object at byte \(offset)), which no Core Data "
                + "file holds and Foundation cannot read on this platform"
        }
    }
}

/// The layout of a binary property list (`bplist00`): its trailer and offset table, read with every
/// bound checked.
private struct BinaryPropertyListLayout {
    private let bytes: UnsafeRawBufferPointer
    private let offsetSize: Int
    private let objectCount: Int
    private let offsetTable: Int

    /// The marker every binary property list starts with, and the size of its trailer.
    private static let magic = Array("bplist00".utf8)
    private static let trailerSize = 32

    /// The layout of `bytes`, or `nil` when they are not a binary property list with a readable offset
    /// table (Foundation then refuses them with an error of its own).
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.magic.count + Self.trailerSize,
              bytes.prefix(Self.magic.count).elementsEqual(Self.magic) else { return nil }
        let trailer = bytes.count - Self.trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        guard (1...8).contains(offsetSize),
              let objectCount = Self.integer(in: bytes, at: trailer + 8, size: 8),
              let offsetTable = Self.integer(in: bytes, at: trailer + 24, size: 8),
              offsetTable >= Self.magic.count, offsetTable <= trailer,
              objectCount <= (trailer - offsetTable) / offsetSize else { return nil }
        self.bytes = bytes
        self.offsetSize = offsetSize
        self.objectCount = objectCount
        self.offsetTable = offsetTable
    }

    /// The byte offset of the first object in the offset table that is a set, if any. Every object a
    /// reader can reach is in the table: references between objects are positions in it.
    func firstSetObjectOffset() -> Int? {
        for index in 0..<objectCount {
            guard let offset = Self.integer(in: bytes, at: offsetTable + index * offsetSize, size: offsetSize),
                  offset < bytes.count else { continue }
            if bytes[offset] & 0xF0 == 0xC0 { return offset }
        }
        return nil
    }

    /// The big-endian unsigned integer of `size` bytes at `position`, or `nil` when it does not fit in
    /// the bytes or in an `Int`.
    private static func integer(in bytes: UnsafeRawBufferPointer, at position: Int, size: Int) -> Int? {
        guard position >= 0, position <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for byte in bytes[position..<(position + size)] {
            value = value << 8 | UInt64(byte)
        }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}

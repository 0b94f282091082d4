/// The bits a `String` value is made of, compared and hashed without reading its characters.
///
/// Equal representations are always equal strings: the bits hold either the characters of a small
/// string, or a reference to the storage of a larger one together with its count and flags. Equal
/// strings usually have equal representations when they are small (up to 15 bytes of UTF-8 on 64-bit
/// platforms, where a string keeps them in its own bits in one canonical form), and not otherwise. It
/// serves as a fast first lookup in front of one by contents, never as the only one.
struct StringRepresentation: Equatable {
    private let low: UInt64
    private let high: UInt64

    /// Whether strings are 16 bytes, the size this type reads, and the technique is on
    /// (``RuntimeTechniques/stringRepresentation``). Otherwise there are no representations to compare,
    /// and lookups go by contents.
    static var isAvailable: Bool { MemoryLayout<String>.size == 16 && RuntimeTechniques.stringRepresentation }

    /// The representation of `string` (all zeros where ``isAvailable`` is false).
    @inline(__always)
    init(_ string: String) {
        guard Self.isAvailable else {
            (low, high) = (0, 0)
            return
        }
        // A bit cast keeps the words in registers (reading the string's bytes would store it first).
        (low, high) = unsafeBitCast(string, to: (UInt64, UInt64).self)
    }

    /// No string's representation: a string's bits are never all zeros (the empty string has flags).
    static let none = StringRepresentation(low: 0, high: 0)

    private init(low: UInt64, high: UInt64) {
        (self.low, self.high) = (low, high)
    }

    /// A hash of the bits: a multiply-and-fold, enough for the handful of names of one entity.
    @inline(__always)
    var hash: Int {
        let mixed = (low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
    }
}

import Foundation
import Synchronization

/// The unique part of a temporary object ID: the bits of a version 4–shaped UUID, kept as two words
/// (a `UUID` is made only for the ID's URI).
struct TemporaryObjectIdentifier: Equatable {
    /// The UUID's first eight bytes, most significant first.
    let high: UInt64
    /// The UUID's last eight bytes, most significant first.
    let low: UInt64

    /// The identifier as a UUID.
    var uuid: UUID {
        UUID(uuid: unsafeBitCast((high.bigEndian, low.bigEndian), to: uuid_t.self))
    }
}

/// Makes temporary identifiers from random bits drawn once per process and a counter, so that every
/// inserted or instantiated object costs no read of the system's random source (a `UUID()` each) while
/// no two identifiers of the process are ever equal.
enum TemporaryObjectIdentifiers {
    /// The number of identifiers made so far; each takes the next value.
    private static let counter = Atomic<UInt64>(0)

    /// The random high and low halves every identifier starts from.
    private static let base: (high: UInt64, low: UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()

    /// A new identifier, different from every other one this process made.
    static func next() -> TemporaryObjectIdentifier {
        let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let base = base
        // The counter fills the low 62 bits (the two top bits are the RFC 4122 variant); the random
        // base is mixed in so identifiers of different processes differ. The version nibble is 4.
        return TemporaryObjectIdentifier(
            high: (base.high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000,
            low: ((base.low ^ count) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000)
    }
}

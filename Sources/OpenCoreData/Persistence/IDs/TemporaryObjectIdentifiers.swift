import Foundation

/// The unique parts of temporary object IDs: version 4–shaped UUIDs made from random bits drawn once
/// per process and a counter, so that every inserted or instantiated object costs no read of the
/// system's random source (a `UUID()` each) while no two IDs of the process are ever equal.
// @unchecked Sendable: `counter` is only read and changed with `lock` held; `base` is immutable.
final class TemporaryObjectIdentifiers: @unchecked Sendable {
    private static let shared = TemporaryObjectIdentifiers()
    private let lock = NSLock()
    private var counter: UInt64 = 0
    /// The random high and low halves every identifier starts from.
    private let base: (high: UInt64, low: UInt64)

    private init() {
        var generator = SystemRandomNumberGenerator()
        base = (generator.next(), generator.next())
    }

    /// A new identifier, different from every other one this process made.
    static func next() -> UUID {
        let shared = shared
        let count = shared.lock.withLock {
            shared.counter &+= 1
            return shared.counter
        }
        // The counter fills the low 62 bits (the two top bits are the RFC 4122 variant); the random
        // base is mixed in so identifiers of different processes differ.
        let low = ((shared.base.low ^ count) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let high = (shared.base.high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        return withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { bytes in
            UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        }
    }
}

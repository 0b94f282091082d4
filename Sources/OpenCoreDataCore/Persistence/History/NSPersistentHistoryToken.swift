/// A place in the persistent history of one or more stores: for each store, the number of the last
/// transaction the token has seen.
///
/// Get one from ``NSPersistentStoreCoordinator/currentPersistentHistoryToken(fromStores:)``, from a
/// transaction's ``NSPersistentHistoryTransaction/token`` or from a remote change notification's
/// `userInfo` (``NSPersistentHistoryTokenKey``), and ask for what came after it with
/// ``NSPersistentHistoryChangeRequest/fetchHistory(after:)-(NSPersistentHistoryToken?)``. Tokens are
/// tied to their stores by the stores' identifiers (``NSStoreUUIDKey``), so a token archived with
/// `NSKeyedArchiver` (it adopts `NSSecureCoding`) and read back in a later launch, or in another process,
/// names the same place and compares equal to the token it was made from.
///
/// Apple documents no members. Internally a token holds what SwiftData's `DefaultHistoryToken` shows of
/// Apple's: store identifier → transaction number (`ATRANSACTION.Z_PK`).
// @unchecked Sendable: immutable once made.
open class NSPersistentHistoryToken: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// The last transaction number seen, by store identifier.
    let _transactionNumbers: [String: Int64]

    init(transactionNumbers: [String: Int64]) {
        _transactionNumbers = transactionNumbers
        super.init()
    }

    /// Creates a token that names no store.
    public override convenience init() {
        self.init(transactionNumbers: [:])
    }

    /// The archive key of the store identifiers (an array of strings).
    private static let storesKey = "NSPersistentHistoryTokenStores"
    /// The archive key of the transaction numbers (an array of numbers, in the order of the stores).
    private static let numbersKey = "NSPersistentHistoryTokenNumbers"

    /// Tokens decode with secure coding.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the store identifiers and their transaction numbers.
    open func encode(with coder: NSCoder) {
        let stores = _transactionNumbers.keys.sorted()
        coder.encode(stores.map { NSString(string: $0) } as NSArray, forKey: Self.storesKey)
        coder.encode(stores.map { NSNumber(value: _transactionNumbers[$0] ?? 0) } as NSArray, forKey: Self.numbersKey)
    }

    /// Reads a token archived by ``encode(with:)``; `nil` (with the coder's error set when it has one)
    /// when the archive holds something else.
    public required init?(coder: NSCoder) {
        let stores = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: Self.storesKey) as? NSArray
        let numbers = coder.decodeObject(of: [NSArray.self, NSNumber.self], forKey: Self.numbersKey) as? NSArray
        guard let stores, let numbers, stores.count == numbers.count else { return nil }
        var decoded: [String: Int64] = [:]
        for (store, number) in zip(stores, numbers) {
            guard let identifier = (store as? NSString).map(String.init) ?? (store as? String),
                let value = (number as? NSNumber)?.int64Value ?? (number as? Int64)
            else { return nil }
            decoded[identifier] = value
        }
        _transactionNumbers = decoded
        super.init()
    }

    /// Returns the token itself: tokens are immutable.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// Whether two tokens name the same transaction of the same stores.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPersistentHistoryToken else { return false }
        return other._transactionNumbers == _transactionNumbers
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        for key in _transactionNumbers.keys.sorted() {
            hasher.combine(key)
            hasher.combine(_transactionNumbers[key])
        }
        return hasher.finalize()
    }

    /// The stores and transaction numbers, as Apple prints a token.
    open override var description: String {
        let entries = _transactionNumbers.keys.sorted().map { "    \"\($0)\" = \(_transactionNumbers[$0] ?? 0);" }
        return "<NSPersistentHistoryToken - {\n\(entries.joined(separator: "\n"))\n}>"
    }

    /// The last transaction number the token has seen of the store with this identifier, `nil` when the
    /// token does not name the store.
    func transactionNumber(ofStore identifier: String) -> Int64? {
        _transactionNumbers[identifier]
    }
}

import Foundation
import OpenCoreData

extension PostgreSQLStore {
    /// The option that sets the most connections the store opens to the server at once, an integer of 1 to
    /// 100 (an `NSNumber`, an `Int` or its text), ``defaultConnectionPoolSize`` when absent.
    ///
    /// Contexts that fetch or fault at the same time each take a free connection, and wait for one when
    /// all are busy; a save holds one connection for its transaction. Set it on the store's description or
    /// in the options when you add the store:
    ///
    /// ```swift
    /// description.setOption(8 as NSNumber, forKey: PostgreSQLStore.connectionPoolSizeKey)
    /// ```
    public static let connectionPoolSizeKey = "PostgreSQLConnectionPoolSize"

    /// The number of connections a store opens at most when its options do not say: 2.
    public static let defaultConnectionPoolSize = 2

    /// The pool size the store's options ask for; throws `NSPersistentStoreInvalidTypeError` when the
    /// option is not a whole number from 1 to 100.
    func connectionPoolSize() throws -> Int {
        guard let value = options?[Self.connectionPoolSizeKey] else { return Self.defaultConnectionPoolSize }
        let size: Int?
        switch value {
        case let number as NSNumber where number.doubleValue == number.doubleValue.rounded(): size = number.intValue
        case let number as Int: size = number
        case let text as String: size = Int(text.trimmingCharacters(in: .whitespaces))
        default: size = nil
        }
        guard let size, (1...100).contains(size) else {
            throw PostgreSQLErrors.badLocation("its option \(Self.connectionPoolSizeKey) must be a whole number from 1 to 100, not \(value)")
        }
        return size
    }
}

/// The kinds of result a fetch request returns.
public struct NSFetchRequestResultType: OptionSet, Hashable, Sendable {
    /// The raw value of the result type.
    public let rawValue: UInt

    /// Creates a result type from its raw value.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The fetch returns managed objects.
    public static let managedObjectResultType = NSFetchRequestResultType([])
    /// The fetch returns managed object IDs.
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    /// The fetch returns dictionaries of property values.
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    /// The fetch returns the number of matching objects.
    public static let countResultType = NSFetchRequestResultType(rawValue: 4)
}

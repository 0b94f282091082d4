import Foundation

extension NSSortDescriptor {
    /// Creates a sort descriptor equivalent to a type-safe `SortDescriptor`: its key is the property the
    /// key path names, it is ascending when the order is forward, and it compares with `compare:`.
    public convenience init<Compared: NSObject>(_ sortDescriptor: SortDescriptor<Compared>) {
        self.init(key: sortDescriptor.keyPath.flatMap { KeyPathNames.string(for: $0) },
                  ascending: sortDescriptor.order == .forward, selector: "compare:")
    }
}

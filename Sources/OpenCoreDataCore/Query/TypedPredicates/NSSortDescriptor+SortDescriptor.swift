import Foundation

extension NSSortDescriptor {
    /// Creates a sort descriptor equivalent to a type-safe `SortDescriptor`: its key is the property the
    /// key path names, it is ascending when the order is forward, and it compares with `compare:`.
    ///
    /// A `SortDescriptor` made from a sort descriptor object (``SortDescriptor/init(_:comparing:)``) gives
    /// back that object's key and comparison method. On Linux `String.StandardComparator` has only
    /// `.lexical`, so every other string sort descriptor compares with `compare:`.
    public convenience init<Compared: NSObject>(_ sortDescriptor: SortDescriptor<Compared>) {
        let ascending = sortDescriptor.order == .forward
        if let keyPath = sortDescriptor.keyPath, let reference = SortKeyReference.reference(for: keyPath) {
            self.init(key: reference.key, ascending: ascending, selector: reference.selector)
            return
        }
        self.init(
            key: sortDescriptor.keyPath.flatMap { KeyPathNames.string(for: $0) },
            ascending: ascending, selector: "compare:")
    }
}

extension Array {
    /// Returns the elements for which the predicate is true, in order.
    public func filtered(using predicate: NSPredicate) -> [Element] {
        filter { predicate.evaluate(with: $0) }
    }

    /// Returns the elements ordered by the given sort descriptors (the first descriptor that tells two
    /// elements apart decides; equal elements keep their order).
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) -> [Element] {
        SortComparison.sorted(self, by: sortDescriptors)
    }

    /// Removes the elements for which the predicate is false.
    public mutating func filter(using predicate: NSPredicate) {
        self = filtered(using: predicate)
    }

    /// Orders the elements by the given sort descriptors; equal elements keep their order.
    public mutating func sort(using sortDescriptors: [NSSortDescriptor]) {
        self = sortedArray(using: sortDescriptors)
    }
}

extension NSArray {
    /// Returns the elements for which the predicate is true, in order.
    public func filtered(using predicate: NSPredicate) -> [Any] {
        map { $0 }.filtered(using: predicate)
    }

    /// Returns the elements ordered by the given sort descriptors; equal elements keep their order.
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) -> [Any] {
        map { $0 }.sortedArray(using: sortDescriptors)
    }
}

extension NSMutableArray {
    /// Removes the elements for which the predicate is false.
    public func filter(using predicate: NSPredicate) {
        let kept = filtered(using: predicate)
        removeAllObjects()
        addObjects(from: kept)
    }

    /// Orders the elements by the given sort descriptors; equal elements keep their order.
    public func sort(using sortDescriptors: [NSSortDescriptor]) {
        let sorted = sortedArray(using: sortDescriptors)
        removeAllObjects()
        addObjects(from: sorted)
    }
}

extension Set {
    /// Returns the elements for which the predicate is true.
    public func filtered(using predicate: NSPredicate) -> Set<Element> {
        filter { predicate.evaluate(with: $0) }
    }
}

extension NSSet {
    /// Returns the elements for which the predicate is true.
    public func filtered(using predicate: NSPredicate) -> Set<AnyHashable> {
        Set(allObjects.filter { predicate.evaluate(with: $0) }.compactMap { $0 as? AnyHashable })
    }

    /// Returns the elements ordered by the given sort descriptors.
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) -> [Any] {
        allObjects.sortedArray(using: sortDescriptors)
    }
}

extension NSOrderedSet {
    /// Returns the elements for which the predicate is true, in order.
    public func filtered(using predicate: NSPredicate) -> NSOrderedSet {
        NSOrderedSet(array: array.filtered(using: predicate))
    }

    /// Returns the elements ordered by the given sort descriptors; equal elements keep their order.
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) -> [Any] {
        array.sortedArray(using: sortDescriptors)
    }
}

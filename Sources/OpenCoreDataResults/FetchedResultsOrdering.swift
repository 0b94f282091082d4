import OpenCoreDataCore

/// What placed one fetched object: its sort values, its section name, and a tie-breaker.
struct FetchedObjectKeys {
    /// The values of the request's sort descriptors, read once.
    var sortValues: [NSSortDescriptor.PreparedValue]
    /// The name of the object's section ("" without a section key path or for a missing value).
    var sectionName: String
    /// Orders objects whose sort values are equal as the store does: by primary key, objects not yet
    /// saved last.
    var rank: Int64
}

/// How a fetched results controller orders and sections its objects: the request's sort descriptors
/// and the controller's section key path.
struct FetchedResultsOrdering {
    let descriptors: [NSSortDescriptor]
    let sectionNameKeyPath: String?

    /// Reads the keys of an object.
    func keys(of object: AnyObject) -> FetchedObjectKeys {
        FetchedObjectKeys(
            sortValues: descriptors.map { $0.preparedValue(of: object) },
            sectionName: sectionName(of: object),
            rank: Self.rank(of: object))
    }

    /// The section name of an object: the string form of its value for the section key path.
    func sectionName(of object: AnyObject) -> String {
        guard let keyPath = sectionNameKeyPath else { return "" }
        let value: Any?
        if let managed = object as? NSManagedObject {
            value = managed.value(forKeyPath: keyPath)
        } else {
            value = KeyValueAccess.value(of: object, forKeyPath: keyPath)
        }
        return Self.sectionName(for: value)
    }

    /// The section name for a value, written as Core Data writes it: strings as they are, numbers as
    /// `NSNumber` prints them (Booleans as 1 and 0), a missing value as the empty (unnamed) section.
    static func sectionName(for value: Any?) -> String {
        guard let value = EvaluationValues.flatten(value) else { return "" }
        switch value {
        case let string as String: return string
        case let flag as Bool: return flag ? "1" : "0"
        case let number as NSNumber: return number.stringValue
        case let double as Double: return NSNumber(value: double).stringValue
        case let float as Float: return NSNumber(value: float).stringValue
        default: return String(describing: value)
        }
    }

    /// The store order of an object among equal ones.
    static func rank(of object: AnyObject) -> Int64 {
        guard let managed = object as? NSManagedObject else { return .max }
        return managed.objectID.primaryKey ?? .max
    }

    /// Orders two objects' keys by the sort descriptors, then by store order.
    func compare(_ lhs: FetchedObjectKeys, _ rhs: FetchedObjectKeys) -> ComparisonResult {
        let order = compareSortValues(lhs, rhs)
        if order != .orderedSame { return order }
        return lhs.rank < rhs.rank ? .orderedAscending : (lhs.rank > rhs.rank ? .orderedDescending : .orderedSame)
    }

    /// Orders two objects' keys by the sort descriptors alone.
    func compareSortValues(_ lhs: FetchedObjectKeys, _ rhs: FetchedObjectKeys) -> ComparisonResult {
        for (index, descriptor) in descriptors.enumerated() {
            let order = descriptor.comparePrepared(lhs.sortValues[index], rhs.sortValues[index])
            if order != .orderedSame { return order }
        }
        return .orderedSame
    }

    /// Whether an object whose keys changed from `old` to `new` keeps its place: same section, and the
    /// sort descriptors see no difference.
    func placesEqually(_ old: FetchedObjectKeys, _ new: FetchedObjectKeys) -> Bool {
        old.sectionName == new.sectionName && compareSortValues(old, new) == .orderedSame
    }

    /// Objects sorted by their keys; equal objects keep their order.
    func sorted<Object: AnyObject>(_ objects: [Object], keys: (AnyObject) -> FetchedObjectKeys) -> [Object] {
        let objectKeys = objects.map { keys($0) }
        let order = objects.indices.sorted { i, j in
            let result = compare(objectKeys[i], objectKeys[j])
            return result == .orderedSame ? i < j : result == .orderedAscending
        }
        return order.map { objects[$0] }
    }

    /// The index at which an object with the given keys goes in a sorted list: after every object that
    /// does not sort after it.
    func insertionIndex(of target: FetchedObjectKeys, in list: [AnyObject], keys: (AnyObject) -> FetchedObjectKeys) -> Int {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if compare(keys(list[middle]), target) == .orderedDescending {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }
}

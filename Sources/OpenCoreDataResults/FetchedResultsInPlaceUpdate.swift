import OpenCoreDataCore

/// The objects of one change event that concern a controller's results.
struct FetchedResultsClassifiedChanges {
    /// Members that leave the results.
    var removed: [AnyObject] = []
    /// Members that changed but keep their place.
    var inPlace: [AnyObject] = []
    /// Objects to place by their keys: members whose keys changed, and new members.
    var movers: [NSManagedObject] = []
    /// For each mover, whether it was already a member.
    var moverWasMember: [Bool] = []
    /// Members whose values changed.
    var updated = Set<ObjectIdentifier>()
    /// The keys members leaving or placed anew had before the change, when known.
    var oldKeys: [ObjectIdentifier: FetchedObjectKeys] = [:]

    var changedCount: Int { removed.count + inPlace.count + movers.count }
}

/// A few changes applied to the sections where they happen, without going over the whole results;
/// for results whose sections follow the first sort descriptor.
struct FetchedResultsInPlaceUpdate {
    private(set) var result: (sections: [FetchedSection], diff: FetchedResultsDiff)?

    private struct Location: Comparable {
        let section: Int
        let row: Int
        static func < (lhs: Location, rhs: Location) -> Bool {
            (lhs.section, lhs.row) < (rhs.section, rhs.row)
        }
        var indexPath: IndexPath { IndexPath(item: row, section: section) }
    }

    init(
        old: [FetchedSection], _ changes: FetchedResultsClassifiedChanges, ordering: FetchedResultsOrdering,
        sectioned: Bool, keys: (AnyObject) -> FetchedObjectKeys
    ) {
        let memberMovers = changes.movers.indices.filter { changes.moverWasMember[$0] }.map { changes.movers[$0] as AnyObject }
        var oldLocations: [ObjectIdentifier: Location] = [:]
        for object in changes.removed + changes.inPlace + memberMovers {
            let id = ObjectIdentifier(object)
            let known = changes.oldKeys[id] ?? (changes.inPlace.contains { $0 === object } ? keys(object) : nil)
            // In the old list, objects placed anew sit where their old keys put them.
            guard
                let location = Self.locate(
                    object, keys: known, in: old, ordering: ordering,
                    keysOf: { changes.oldKeys[ObjectIdentifier($0)] ?? keys($0) })
            else { return }
            oldLocations[ObjectIdentifier(object)] = location
        }

        // Take out the leaving objects, then put each object to place into its section.
        var sections = old
        for location in (changes.removed + memberMovers).compactMap({ oldLocations[ObjectIdentifier($0)] }).sorted(by: >) {
            sections[location.section].objects.remove(at: location.row)
        }
        // Objects whose section is there (perhaps emptied) go into it; then empty sections go, so that
        // each remaining section's first object tells where a new section belongs.
        var needSection: [NSManagedObject] = []
        for mover in ordering.sorted(changes.movers, keys: keys) {
            let moverKeys = keys(mover)
            if let index = sections.firstIndex(where: { $0.name == moverKeys.sectionName }) {
                let row = ordering.insertionIndex(of: moverKeys, in: sections[index].objects, keys: keys)
                sections[index].objects.insert(mover, at: row)
            } else {
                needSection.append(mover)
            }
        }
        if sectioned { sections.removeAll { $0.objects.isEmpty } }
        for mover in needSection {
            let moverKeys = keys(mover)
            if let index = sections.firstIndex(where: { $0.name == moverKeys.sectionName }) {
                let row = ordering.insertionIndex(of: moverKeys, in: sections[index].objects, keys: keys)
                sections[index].objects.insert(mover, at: row)
            } else {
                let index =
                    sections.firstIndex { section in
                        guard let first = section.objects.first else { return false }
                        return ordering.compare(keys(first), moverKeys) == .orderedDescending
                    } ?? sections.count
                sections.insert(FetchedSection(name: moverKeys.sectionName, objects: [mover]), at: index)
            }
        }

        // Sections that appeared or disappeared.
        let oldNames = Set(old.map(\.name)), newNames = Set(sections.map(\.name))
        var sectionChanges: [FetchedResultsDiff.SectionChange] = []
        for (index, section) in old.enumerated().reversed() where !newNames.contains(section.name) {
            sectionChanges.append(.init(section: section, index: index, type: .delete))
        }
        for (index, section) in sections.enumerated() where !oldNames.contains(section.name) {
            sectionChanges.append(.init(section: section, index: index, type: .insert))
        }

        var newLocations: [ObjectIdentifier: Location] = [:]
        for object in changes.inPlace + changes.movers.map({ $0 as AnyObject }) {
            guard let location = Self.locate(object, keys: keys(object), in: sections, ordering: ordering, keysOf: keys) else { return }
            newLocations[ObjectIdentifier(object)] = location
        }
        let moved = Self.moved(
            memberMovers, old: old, new: sections, oldLocations: oldLocations,
            newLocations: newLocations, leavingOld: changes.removed + memberMovers,
            placedNew: changes.movers.map { $0 as AnyObject })

        var deletes: [FetchedResultsDiff.ObjectChange] = []
        var others: [(Location, FetchedResultsDiff.ObjectChange)] = []
        for object in changes.removed {
            guard let from = oldLocations[ObjectIdentifier(object)] else { return }
            deletes.append(.init(object: object, indexPath: from.indexPath, type: .delete, newIndexPath: nil))
        }
        for (index, mover) in changes.movers.enumerated() {
            let id = ObjectIdentifier(mover)
            guard let to = newLocations[id] else { return }
            guard changes.moverWasMember[index], let from = oldLocations[id] else {
                others.append((to, .init(object: mover, indexPath: nil, type: .insert, newIndexPath: to.indexPath)))
                continue
            }
            if moved.contains(id) {
                others.append((to, .init(object: mover, indexPath: from.indexPath, type: .move, newIndexPath: to.indexPath)))
            } else {
                others.append((to, .init(object: mover, indexPath: from.indexPath, type: .update, newIndexPath: to.indexPath)))
            }
        }
        for object in changes.inPlace {
            let id = ObjectIdentifier(object)
            guard let from = oldLocations[id], let to = newLocations[id] else { return }
            others.append((to, .init(object: object, indexPath: from.indexPath, type: .update, newIndexPath: to.indexPath)))
        }
        deletes.sort { ($0.indexPath ?? IndexPath()) > ($1.indexPath ?? IndexPath()) }
        let rank: [NSFetchedResultsChangeType: Int] = [.insert: 0, .move: 1, .update: 2]
        others.sort { (rank[$0.1.type] ?? 3, $0.0) < (rank[$1.1.type] ?? 3, $1.0) }
        let objectChanges = deletes + others.map(\.1)
        let difference = Self.difference(objectChanges, old: old, new: sections)
        result = (sections, FetchedResultsDiff(sectionChanges: sectionChanges, objectChanges: objectChanges, difference: difference))
    }

    /// The location of an object: looked up by its keys when they are known, else found by identity.
    private static func locate(
        _ object: AnyObject, keys target: FetchedObjectKeys?, in sections: [FetchedSection],
        ordering: FetchedResultsOrdering, keysOf keys: (AnyObject) -> FetchedObjectKeys
    ) -> Location? {
        if let target, let index = sections.firstIndex(where: { $0.name == target.sectionName }) {
            let objects = sections[index].objects
            // The object itself counts as placed by `target` (its current keys may already be new).
            func order(at row: Int) -> ComparisonResult {
                objects[row] === object ? .orderedSame : ordering.compare(keys(objects[row]), target)
            }
            var low = 0, high = objects.count
            while low < high {
                let middle = (low + high) / 2
                if order(at: middle) == .orderedAscending { low = middle + 1 } else { high = middle }
            }
            var row = low
            while row < objects.count, order(at: row) == .orderedSame {
                if objects[row] === object { return Location(section: index, row: row) }
                row += 1
            }
        }
        for (index, section) in sections.enumerated() {
            if let row = section.objects.firstIndex(where: { $0 === object }) { return Location(section: index, row: row) }
        }
        return nil
    }

    /// The members placed anew that must be reported as moves: those that changed section, those now
    /// between other unchanged neighbors, and those whose order among others in the same gap changed.
    private static func moved(
        _ memberMovers: [AnyObject], old: [FetchedSection], new: [FetchedSection],
        oldLocations: [ObjectIdentifier: Location], newLocations: [ObjectIdentifier: Location],
        leavingOld: [AnyObject], placedNew: [AnyObject]
    ) -> Set<ObjectIdentifier> {
        var moved = Set<ObjectIdentifier>()
        // The gap of an object: the number of unchanged objects before it in its section.
        let leavingRows = Dictionary(grouping: leavingOld.compactMap { oldLocations[ObjectIdentifier($0)] }, by: \.section)
        let placedRows = Dictionary(grouping: placedNew.compactMap { newLocations[ObjectIdentifier($0)] }, by: \.section)
        var sameGap: [String: [(oldRow: Int, newRow: Int, id: ObjectIdentifier)]] = [:]
        for object in memberMovers {
            let id = ObjectIdentifier(object)
            guard let from = oldLocations[id], let to = newLocations[id], old[from.section].name == new[to.section].name else {
                moved.insert(id)
                continue
            }
            let oldGap = from.row - (leavingRows[from.section] ?? []).filter { $0.row < from.row }.count
            let newGap = to.row - (placedRows[to.section] ?? []).filter { $0.row < to.row }.count
            guard oldGap == newGap else {
                moved.insert(id)
                continue
            }
            sameGap["\(new[to.section].name)\u{0}\(newGap)", default: []].append((from.row, to.row, id))
        }
        for (_, group) in sameGap where group.count > 1 {
            let inOldOrder = group.sorted { $0.oldRow < $1.oldRow }
            let kept = Set(LongestIncreasingSubsequence.indices(of: inOldOrder.map(\.newRow)))
            for (index, entry) in inOldOrder.enumerated() where !kept.contains(index) { moved.insert(entry.id) }
        }
        return moved
    }

    /// The changes as a difference of the flat lists of object IDs.
    private static func difference(
        _ changes: [FetchedResultsDiff.ObjectChange], old: [FetchedSection],
        new: [FetchedSection]
    ) -> CollectionDifference<NSManagedObjectID>? {
        func offsets(_ sections: [FetchedSection]) -> [Int] {
            var result: [Int] = [], total = 0
            for section in sections {
                result.append(total)
                total += section.objects.count
            }
            return result
        }
        let oldStarts = offsets(old), newStarts = offsets(new)
        var steps: [CollectionDifference<NSManagedObjectID>.Change] = []
        for change in changes where change.type != .update {
            guard let object = change.object as? NSManagedObject else { return nil }
            let from = change.indexPath.map { oldStarts[$0.section] + $0.row }
            let to = change.newIndexPath.map { newStarts[$0.section] + $0.row }
            if let from {
                steps.append(.remove(offset: from, element: object.objectID, associatedWith: change.type == .move ? to : nil))
            }
            if let to {
                steps.append(.insert(offset: to, element: object.objectID, associatedWith: change.type == .move ? from : nil))
            }
        }
        return CollectionDifference(steps)
    }
}

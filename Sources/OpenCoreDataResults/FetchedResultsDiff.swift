import OpenCoreDataCore

/// The changes that turn one sectioned list of fetched objects into another, in the terms a table view
/// applies batch updates in: deletions at old index paths, insertions at new ones, moves from old to new,
/// updates of objects that keep their place.
struct FetchedResultsDiff {
    /// A section inserted (at its new index) or deleted (at its old index).
    struct SectionChange {
        let section: FetchedSection
        let index: Int
        let type: NSFetchedResultsChangeType
    }

    /// An object inserted, deleted, moved or updated.
    struct ObjectChange {
        let object: AnyObject
        let indexPath: IndexPath?
        let type: NSFetchedResultsChangeType
        let newIndexPath: IndexPath?
    }

    private(set) var sectionChanges: [SectionChange] = []
    private(set) var objectChanges: [ObjectChange] = []
    /// The same change as a difference of the flat lists of object IDs (managed objects only).
    private(set) var difference: CollectionDifference<NSManagedObjectID>?

    var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }

    private struct Location {
        let section: Int
        let row: Int
        let flat: Int
    }

    /// Changes computed elsewhere.
    init(sectionChanges: [SectionChange], objectChanges: [ObjectChange], difference: CollectionDifference<NSManagedObjectID>?) {
        self.sectionChanges = sectionChanges
        self.objectChanges = objectChanges
        self.difference = difference
    }

    /// Computes the changes from `old` to `new`. Objects in `pinned` are known to have kept their place
    /// and are preferred as the objects that do not move; objects in `updated` changed their values.
    init(old: [FetchedSection], new: [FetchedSection], pinned: Set<ObjectIdentifier>, updated: Set<ObjectIdentifier>) {
        let oldLocations = Self.locations(of: old)
        let newLocations = Self.locations(of: new)

        // Sections: those in both lists whose relative order holds are kept; the others are deleted
        // and inserted.
        var newSectionIndex: [String: Int] = [:]
        for (index, section) in new.enumerated() { newSectionIndex[section.name] = index }
        let common: [(old: Int, new: Int)] = old.indices.compactMap { index in
            newSectionIndex[old[index].name].map { (index, $0) }
        }
        let keptPairs = LongestIncreasingSubsequence.indices(of: common.map(\.new)).map { common[$0] }
        let keptOld = Set(keptPairs.map(\.old)), keptNew = Set(keptPairs.map(\.new))
        for index in old.indices.reversed() where !keptOld.contains(index) {
            sectionChanges.append(SectionChange(section: old[index], index: index, type: .delete))
        }
        for index in new.indices where !keptNew.contains(index) {
            sectionChanges.append(SectionChange(section: new[index], index: index, type: .insert))
        }

        // Objects in a kept section on both sides that keep their order among each other do not move.
        var stays = Set<ObjectIdentifier>()
        for pair in keptPairs {
            var sequence: [(id: ObjectIdentifier, newRow: Int, pinned: Bool)] = []
            for object in old[pair.old].objects {
                let id = ObjectIdentifier(object)
                guard let location = newLocations[id], location.section == pair.new else { continue }
                sequence.append((id, location.row, pinned.contains(id)))
            }
            stays.formUnion(Self.unmoved(sequence))
        }

        for (sectionIndex, section) in old.enumerated().reversed() {
            for (row, object) in section.objects.enumerated().reversed() where newLocations[ObjectIdentifier(object)] == nil {
                objectChanges.append(
                    ObjectChange(
                        object: object, indexPath: IndexPath(item: row, section: sectionIndex),
                        type: .delete, newIndexPath: nil))
            }
        }
        var moves: [ObjectChange] = [], updates: [ObjectChange] = []
        for (sectionIndex, section) in new.enumerated() {
            for (row, object) in section.objects.enumerated() {
                let id = ObjectIdentifier(object)
                let newPath = IndexPath(item: row, section: sectionIndex)
                guard let oldLocation = oldLocations[id] else {
                    objectChanges.append(ObjectChange(object: object, indexPath: nil, type: .insert, newIndexPath: newPath))
                    continue
                }
                let oldPath = IndexPath(item: oldLocation.row, section: oldLocation.section)
                if !stays.contains(id) {
                    moves.append(ObjectChange(object: object, indexPath: oldPath, type: .move, newIndexPath: newPath))
                } else if updated.contains(id) {
                    updates.append(ObjectChange(object: object, indexPath: oldPath, type: .update, newIndexPath: newPath))
                }
            }
        }
        objectChanges += moves + updates
        difference = Self.difference(objectChanges, oldLocations: oldLocations, newLocations: newLocations)
    }

    /// Index paths and flat offsets of every object.
    private static func locations(of sections: [FetchedSection]) -> [ObjectIdentifier: Location] {
        var locations: [ObjectIdentifier: Location] = [:]
        var flat = 0
        for (sectionIndex, section) in sections.enumerated() {
            for (row, object) in section.objects.enumerated() {
                locations[ObjectIdentifier(object)] = Location(section: sectionIndex, row: row, flat: flat)
                flat += 1
            }
        }
        return locations
    }

    /// The objects of one section (in old order, with their new rows) that need not move: pinned
    /// objects in increasing order anchor the list, and between two anchors the largest set of other
    /// objects that stay between them in order.
    private static func unmoved(_ sequence: [(id: ObjectIdentifier, newRow: Int, pinned: Bool)]) -> Set<ObjectIdentifier> {
        let pinnedPositions = sequence.indices.filter { sequence[$0].pinned }
        let anchors = Set(
            LongestIncreasingSubsequence.indices(of: pinnedPositions.map { sequence[$0].newRow })
                .map { pinnedPositions[$0] })
        var result = Set(anchors.map { sequence[$0].id })
        var segment: [Int] = []
        var lower = -1
        func resolve(upper: Int) {
            let eligible = segment.filter { sequence[$0].newRow > lower && sequence[$0].newRow < upper }
            for index in LongestIncreasingSubsequence.indices(of: eligible.map { sequence[$0].newRow }) {
                result.insert(sequence[eligible[index]].id)
            }
            segment = []
        }
        for position in sequence.indices {
            if anchors.contains(position) {
                resolve(upper: sequence[position].newRow)
                lower = sequence[position].newRow
            } else {
                segment.append(position)
            }
        }
        resolve(upper: .max)
        return result
    }

    /// The changes as a difference of object IDs: removals at old offsets, insertions at new offsets,
    /// a move as a removal and an insertion associated with each other.
    private static func difference(
        _ changes: [ObjectChange], oldLocations: [ObjectIdentifier: Location],
        newLocations: [ObjectIdentifier: Location]
    ) -> CollectionDifference<NSManagedObjectID>? {
        var steps: [CollectionDifference<NSManagedObjectID>.Change] = []
        for change in changes where change.type != .update {
            guard let object = change.object as? NSManagedObject else { return nil }
            let id = ObjectIdentifier(object)
            let oldOffset = oldLocations[id]?.flat, newOffset = newLocations[id]?.flat
            if let oldOffset {
                steps.append(
                    .remove(
                        offset: oldOffset, element: object.objectID,
                        associatedWith: change.type == .move ? newOffset : nil))
            }
            if let newOffset {
                steps.append(
                    .insert(
                        offset: newOffset, element: object.objectID,
                        associatedWith: change.type == .move ? oldOffset : nil))
            }
        }
        return CollectionDifference(steps)
    }
}

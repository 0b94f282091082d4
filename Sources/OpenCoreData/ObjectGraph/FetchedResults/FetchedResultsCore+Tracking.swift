/// Turning a context's change notification into the changes of the controller's results.
extension FetchedResultsCore {
    /// Updates the results for the objects a context reported changed, and tells the delegate.
    func contextDidChange(_ changes: FetchedResultsContextChanges) {
        guard let request, let ordering, let old = sections, delegate != nil else { return }
        let update: (sections: [FetchedSection], pinned: Set<ObjectIdentifier>, updated: Set<ObjectIdentifier>)?
        if changes.invalidatedAll || request.isWindowed {
            update = refetched(old: old, changes: changes, ordering: ordering)
        } else {
            update = placed(old: old, changes: changes, request: request, ordering: ordering)
        }
        guard let update else { return }
        let diff = FetchedResultsDiff(old: old, new: update.sections, pinned: update.pinned, updated: update.updated)
        replaceSections(update.sections)
        guard !diff.isEmpty else { return }
        report(diff)
    }

    /// The new results computed from the old ones: objects that left are removed, objects whose keys
    /// changed and new members are placed by the sort descriptors among the objects that stay.
    private func placed(old: [FetchedSection], changes: FetchedResultsContextChanges, request: FetchedResultsRequest,
                        ordering: FetchedResultsOrdering)
        -> (sections: [FetchedSection], pinned: Set<ObjectIdentifier>, updated: Set<ObjectIdentifier>)? {
        var members = Set<ObjectIdentifier>()
        for section in old { for object in section.objects { members.insert(ObjectIdentifier(object)) } }

        var removed = Set<ObjectIdentifier>()
        var updated = Set<ObjectIdentifier>()
        var movers: [NSManagedObject] = []
        var moverIDs = Set<ObjectIdentifier>()
        let deleted = Set(changes.deleted.filter(request.covers).map(ObjectIdentifier.init))
        for id in deleted where members.contains(id) { removed.insert(id) }

        var seen = deleted
        let candidates = changes.inserted + changes.updated + changes.refreshed + changes.invalidated
        for object in candidates where request.covers(object) && seen.insert(ObjectIdentifier(object)).inserted {
            let id = ObjectIdentifier(object)
            let belongs = object.managedObjectContext === context && !object.isDeleted
                && (request.predicate?.evaluate(with: object) ?? true)
            let wasMember = members.contains(id)
            switch (wasMember, belongs) {
            case (true, false):
                removed.insert(id)
            case (true, true):
                updated.insert(id)
                let newKeys = ordering.keys(of: object)
                let oldKeys = keys[id]
                keys[id] = newKeys
                if let oldKeys, ordering.placesEqually(oldKeys, newKeys) { continue }
                movers.append(object)
                moverIDs.insert(id)
            case (false, true):
                keys[id] = ordering.keys(of: object)
                movers.append(object)
                moverIDs.insert(id)
            case (false, false):
                continue
            }
        }
        if removed.isEmpty && updated.isEmpty && movers.isEmpty { return nil }
        for id in removed { keys[id] = nil }

        var list: [AnyObject] = []
        list.reserveCapacity(old.reduce(0) { $0 + $1.objects.count } + movers.count)
        for section in old {
            for object in section.objects {
                let id = ObjectIdentifier(object)
                if !removed.contains(id) && !moverIDs.contains(id) { list.append(object) }
            }
        }
        let pinned = Set(list.map(ObjectIdentifier.init))
        let moverKeys = movers.map { keys(of: $0, ordering) }
        let order = movers.indices.sorted { i, j in
            let result = ordering.compare(moverKeys[i], moverKeys[j])
            return result == .orderedSame ? i < j : result == .orderedAscending
        }
        for index in order {
            let target = moverKeys[index]
            var low = 0, high = list.count
            while low < high {
                let middle = (low + high) / 2
                if ordering.compare(keys(of: list[middle], ordering), target) == .orderedDescending {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            list.insert(movers[index], at: low)
        }
        return (group(list, ordering: ordering), pinned, updated)
    }

    /// The new results fetched again (for windowed requests, whose members depend on objects outside
    /// the window, and after the context forgot every object).
    private func refetched(old: [FetchedSection], changes: FetchedResultsContextChanges, ordering: FetchedResultsOrdering)
        -> (sections: [FetchedSection], pinned: Set<ObjectIdentifier>, updated: Set<ObjectIdentifier>)? {
        guard let objects = try? fetch() else { return nil }
        var updated = Set<ObjectIdentifier>()
        for object in changes.updated + changes.refreshed + changes.invalidated {
            let id = ObjectIdentifier(object)
            updated.insert(id)
            keys[id] = nil
        }
        for object in changes.inserted + changes.deleted { keys[ObjectIdentifier(object)] = nil }
        if changes.invalidatedAll { keys = [:] }
        let objectKeys = objects.map { keys(of: $0, ordering) }
        let order = objects.indices.sorted { i, j in
            let result = ordering.compare(objectKeys[i], objectKeys[j])
            return result == .orderedSame ? i < j : result == .orderedAscending
        }
        let sorted = order.map { objects[$0] }
        let present = Set(sorted.map(ObjectIdentifier.init))
        keys = keys.filter { present.contains($0.key) }
        return (group(sorted, ordering: ordering), [], updated)
    }

    /// Tells the delegate about a change: through the difference-based callback when the delegate
    /// implements it and the results have no sections, otherwise section by section and object by object.
    private func report(_ diff: FetchedResultsDiff) {
        guard let delegate, let controller = erased else { return }
        syncErasedRequest()
        if sectionNameKeyPath == nil, let difference = diff.difference {
            differenceCallbackIsDefault = false
            delegate.controller(controller, didChangeContentWith: difference)
            if !differenceCallbackIsDefault { return }
        }
        delegate.controllerWillChangeContent(controller)
        for change in diff.sectionChanges {
            delegate.controller(controller, didChange: info(for: change.section), atSectionIndex: change.index, for: change.type)
        }
        for change in diff.objectChanges {
            delegate.controller(controller, didChange: change.object, at: change.indexPath, for: change.type,
                                newIndexPath: change.newIndexPath)
        }
        delegate.controllerDidChangeContent(controller)
    }
}

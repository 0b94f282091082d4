import OpenCoreDataCore

/// Turning a context's change notification into the changes of the controller's results.
extension FetchedResultsCore {
    /// Updates the results for the objects a context reported changed, and tells the delegate.
    func contextDidChange(_ changes: FetchedResultsContextChanges) {
        guard let request, let ordering, let old = sections, delegate != nil else { return }
        let result: (sections: [FetchedSection], diff: FetchedResultsDiff)?
        if changes.invalidatedAll || request.isWindowed {
            result = refetched(old: old, changes: changes, ordering: ordering).map { update in
                (update.sections, FetchedResultsDiff(old: old, new: update.sections, pinned: update.pinned, updated: update.updated))
            }
        } else if let classified = classify(changes, request: request, ordering: ordering) {
            let inPlace = sectionNameKeyPath == nil || sectionNameKeyPath == request.sortDescriptors.first?.key
            if inPlace, classified.changedCount <= 64 {
                result =
                    FetchedResultsInPlaceUpdate(
                        old: old, classified, ordering: ordering, sectioned: sectionNameKeyPath != nil,
                        keys: { self.keys(of: $0, ordering) }
                    ).result
            } else {
                let update = placed(old: old, classified, ordering: ordering)
                result = (
                    update.sections,
                    FetchedResultsDiff(
                        old: old, new: update.sections, pinned: update.pinned,
                        updated: classified.updated)
                )
            }
        } else {
            result = nil
        }
        guard let result else { return }
        replaceSections(result.sections)
        guard !result.diff.isEmpty else { return }
        report(result.diff)
    }

    /// Takes in the objects a merge updated that the context had never registered and that now belong
    /// to the results (one fetch of those among them that match the request).
    func contextDidMerge(unregisteredUpdates ids: Set<NSManagedObjectID>) {
        guard let request, sections != nil, delegate != nil else { return }
        let candidates = ids.filter { id in
            request.includesSubentities ? id.entity.isKindOf(entity: request.entity) : id.entity === request.entity
        }
        guard !candidates.isEmpty else { return }
        if request.isWindowed {
            contextDidChange(FetchedResultsContextChanges(updated: []))
            return
        }
        let lookup = NSFetchRequest<NSManagedObject>()
        lookup.entity = request.entity
        lookup.includesSubentities = request.includesSubentities
        let members = NSPredicate(format: "SELF IN %@", argumentArray: [Array(candidates)])
        lookup.predicate = request.predicate.map { NSCompoundPredicate(andPredicateWithSubpredicates: [members, $0]) } ?? members
        guard let found = try? context.fetch(lookup), !found.isEmpty else { return }
        contextDidChange(FetchedResultsContextChanges(updated: found))
    }

    /// Sorts the reported objects of the request's entity into those that leave the results, those
    /// that keep their place and those to place anew; `nil` when none concerns the results.
    private func classify(
        _ changes: FetchedResultsContextChanges, request: FetchedResultsRequest,
        ordering: FetchedResultsOrdering
    ) -> FetchedResultsClassifiedChanges? {
        var classified = FetchedResultsClassifiedChanges()
        var seen = Set<ObjectIdentifier>()
        for object in changes.deleted where request.covers(object) {
            let id = ObjectIdentifier(object)
            seen.insert(id)
            if members.contains(id) {
                classified.removed.append(object)
                classified.oldKeys[id] = keys[id]
            }
        }
        let candidates = changes.inserted + changes.updated + changes.refreshed + changes.invalidated
        for object in candidates where request.covers(object) && seen.insert(ObjectIdentifier(object)).inserted {
            let id = ObjectIdentifier(object)
            let belongs =
                object.managedObjectContext === context && !object.isDeleted
                && (request.predicate?.evaluate(with: object) ?? true)
            switch (members.contains(id), belongs) {
            case (true, false):
                classified.removed.append(object)
                classified.oldKeys[id] = keys[id]
            case (true, true):
                classified.updated.insert(id)
                let newKeys = ordering.keys(of: object)
                let oldKeys = keys[id]
                keys[id] = newKeys
                if let oldKeys, ordering.placesEqually(oldKeys, newKeys) {
                    classified.inPlace.append(object)
                } else {
                    classified.movers.append(object)
                    classified.moverWasMember.append(true)
                    classified.oldKeys[id] = oldKeys
                }
            case (false, true):
                keys[id] = ordering.keys(of: object)
                classified.movers.append(object)
                classified.moverWasMember.append(false)
            case (false, false):
                continue
            }
        }
        if classified.changedCount == 0 { return nil }
        for object in classified.removed {
            let id = ObjectIdentifier(object)
            keys[id] = nil
            members.remove(id)
        }
        for object in classified.movers { members.insert(ObjectIdentifier(object)) }
        return classified
    }

    /// The new results computed from the whole list: objects that left are removed, the objects to
    /// place are placed by the sort descriptors among the others, and the list is grouped again.
    private func placed(old: [FetchedSection], _ classified: FetchedResultsClassifiedChanges, ordering: FetchedResultsOrdering)
        -> (sections: [FetchedSection], pinned: Set<ObjectIdentifier>)
    {
        let leaving = Set((classified.removed + classified.movers.map { $0 as AnyObject }).map(ObjectIdentifier.init))
        var list: [AnyObject] = []
        list.reserveCapacity(old.reduce(0) { $0 + $1.objects.count } + classified.movers.count)
        for section in old {
            for object in section.objects where !leaving.contains(ObjectIdentifier(object)) { list.append(object) }
        }
        let pinned = Set(list.map(ObjectIdentifier.init))
        for mover in ordering.sorted(classified.movers, keys: { keys(of: $0, ordering) }) {
            let index = ordering.insertionIndex(of: keys(of: mover, ordering), in: list) { keys(of: $0, ordering) }
            list.insert(mover, at: index)
        }
        return (group(list, ordering: ordering), pinned)
    }

    /// The new results fetched again (for windowed requests, whose members depend on objects outside
    /// the window, and after the context forgot every object).
    private func refetched(old: [FetchedSection], changes: FetchedResultsContextChanges, ordering: FetchedResultsOrdering)
        -> (sections: [FetchedSection], pinned: Set<ObjectIdentifier>, updated: Set<ObjectIdentifier>)?
    {
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
        members = present
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
            delegate.controller(
                controller, didChange: change.object, at: change.indexPath, for: change.type,
                newIndexPath: change.newIndexPath)
        }
        delegate.controllerDidChangeContent(controller)
    }
}

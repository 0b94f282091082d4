/// What a context remembers between two `processPendingChanges()` calls to tell observers what changed.
///
/// Used only on the context's queue; each access to its sets is one lookup or update that calls no code
/// able to reach the same set, so they skip the runtime's dynamic exclusivity check.
final class ContextChangeEvents {
    /// The inserted objects at the last event, so that the next event reports only new inserts.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    var insertedAtLastEvent = ObjectsInChangeOrder()
    /// The inserted objects the last event reported, when they were every object in
    /// `insertedAtLastEvent` (no earlier event since the last save reported any): the did-save
    /// notification's inserted objects, when nothing was inserted or removed since.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    var reportedEveryInserted: Set<NSManagedObject>?
    /// The deleted objects at the last event.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    var deletedAtLastEvent = ObjectsInChangeOrder()
    /// Objects refreshed since the last event (by `refresh(_:mergeChanges:)` or a merge).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    var refreshed = ObjectsInChangeOrder()
    /// Objects invalidated since the last event (removed because another context deleted them).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    var invalidated = ObjectsInChangeOrder()
    /// Objects a merge registered because another context inserted them.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    var mergedInserted = ObjectsInChangeOrder()
    /// Objects a merge removed because another context deleted them.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    var mergedDeleted = ObjectsInChangeOrder()
    /// Objects whose `valuesAtLastEvent` filled since the last event: an event visits them instead of
    /// every registered object.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    var changed = ObjectsInChangeOrder()
}

/// The `userInfo` of one `NSManagedObjectContextObjectsDidChange` notification, collected before the
/// context clears its per-event state and posted after.
struct ObjectsDidChangePayload {
    var inserted: Set<NSManagedObject> = []
    var updated: Set<NSManagedObject> = []
    var deleted: Set<NSManagedObject> = []
    var refreshed: Set<NSManagedObject> = []
    var invalidated: Set<NSManagedObject> = []

    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && invalidated.isEmpty
    }

    var userInfo: [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [:]
        if !inserted.isEmpty { info[NSInsertedObjectsKey] = inserted }
        if !updated.isEmpty { info[NSUpdatedObjectsKey] = updated }
        if !deleted.isEmpty { info[NSDeletedObjectsKey] = deleted }
        if !refreshed.isEmpty { info[NSRefreshedObjectsKey] = refreshed }
        if !invalidated.isEmpty { info[NSInvalidatedObjectsKey] = invalidated }
        return info
    }
}

extension NSManagedObjectContext {
    /// Collects what changed since the last event; called by `processPendingChanges()` before it clears
    /// each object's per-event values.
    func _collectObjectsDidChange() -> ObjectsDidChangePayload {
        let events = _changeEvents
        var payload = ObjectsDidChangePayload()
        // Inserted and deleted objects unchanged since the last event (a save's second event, after
        // `willSave()`) hold nothing new: the passes that would find nothing are skipped.
        let insertedUnchanged = _inserted.isUnchanged(since: events.insertedAtLastEvent)
        if !insertedUnchanged {
            // Room for the new objects at once, instead of growing (and rehashing) the set step by step.
            payload.inserted.reserveCapacity(max(0, _inserted.count - events.insertedAtLastEvent.count))
            // The first pass over a large insert's objects since they were made, most of them out of the
            // caches by now: asked for ahead.
            let reportedBefore = events.insertedAtLastEvent
            _inserted.forEachAhead { object in
                guard reportedBefore.isEmpty || reportedBefore[ObjectIdentifier(object)] == nil else { return }
                // `update(with:)`, not `insert(_:)`: a new member is the same, but nothing comes back to
                // release (`insert` returns the member it inserted).
                payload.inserted.update(with: object)
                object._insertedInCurrentEvent = false
            }
            // An object inserted in an earlier event and deleted in this one left the context: report it
            // deleted.
            for (key, object) in events.insertedAtLastEvent where _inserted[key] == nil && object._isDeleted {
                payload.deleted.insert(object)
            }
        }
        if !_deleted.isUnchanged(since: events.deletedAtLastEvent) {
            for (key, object) in _deleted where events.deletedAtLastEvent[key] == nil && !object.isNewlyInserted {
                payload.deleted.insert(object)
            }
        }
        for (key, object) in events.changed where !object.valuesAtLastEvent.isEmpty && registry[object._objectID] === object {
            // New in this event: reported inserted. Inserted in an earlier event and changed now: updated.
            if (_inserted[key] != nil && events.insertedAtLastEvent[key] == nil) || _deleted[key] != nil { continue }
            payload.updated.insert(object)
        }
        payload.inserted.formUnion(events.mergedInserted.values)
        payload.deleted.formUnion(events.mergedDeleted.values)
        payload.refreshed.formUnion(events.refreshed.values)
        payload.invalidated.formUnion(events.invalidated.values)
        payload.updated.subtract(payload.refreshed)
        if events.insertedAtLastEvent.isEmpty && events.mergedInserted.isEmpty {
            // The event reports every inserted object: the did-save notification may reuse the set.
            events.reportedEveryInserted = payload.inserted
        } else if !insertedUnchanged {
            events.reportedEveryInserted = nil
        }
        events.insertedAtLastEvent = _inserted
        events.deletedAtLastEvent = _deleted
        events.refreshed = [:]
        events.invalidated = [:]
        events.mergedInserted = [:]
        events.mergedDeleted = [:]
        return payload
    }

    /// Posts `NSManagedObjectContextObjectsDidChange` when the payload has anything in it.
    func _postObjectsDidChange(_ payload: ObjectsDidChangePayload) {
        guard !payload.isEmpty else { return }
        NotificationCenter.default.post(
            name: .NSManagedObjectContextObjectsDidChange, object: self,
            userInfo: payload.userInfo)
    }

    /// Records that an object's `valuesAtLastEvent` went from empty to holding a value.
    func _noteChangedForEvent(_ object: NSManagedObject) {
        _changeEvents.changed[ObjectIdentifier(object)] = object
    }

    /// Records that an object was refreshed, for the next `NSManagedObjectContextObjectsDidChange`.
    func _noteRefreshed(_ object: NSManagedObject) {
        _changeEvents.refreshed[ObjectIdentifier(object)] = object
    }

    /// Every inserted object as a set, when the last event reported them all and none was inserted or
    /// removed since; `nil` otherwise.
    func _reportedInsertedSet() -> Set<NSManagedObject>? {
        guard let set = _changeEvents.reportedEveryInserted,
            _inserted.isUnchanged(since: _changeEvents.insertedAtLastEvent)
        else { return nil }
        return set
    }

    /// Posts `NSManagedObjectContextWillSave`.
    func _postWillSave() {
        NotificationCenter.default.post(name: .NSManagedObjectContextWillSave, object: self, userInfo: nil)
    }

    /// Posts `NSManagedObjectContextDidSave` and `NSManagedObjectContextDidSaveObjectIDs` for the objects
    /// a save wrote (inserted objects already carry the IDs the save gave them: permanent ones, or their
    /// temporary ones after a save into a parent context). Every set is present, empty or not; DidSave
    /// also names the saving context under `NotificationKey.sourceContext`.
    ///
    /// `insertedSet`, when given, is `inserted` as a set (see ``_reportedInsertedSet()``); `insertedIDs`
    /// is the set of the IDs the save gave them.
    func _postDidSave(
        inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject],
        insertedSet: Set<NSManagedObject>?, insertedIDs: Set<NSManagedObjectID>
    ) {
        _changeEvents.insertedAtLastEvent = [:]
        _changeEvents.reportedEveryInserted = nil
        _changeEvents.deletedAtLastEvent = [:]
        let deleted = deleted.filter { !$0.isNewlyInserted }
        let insertedSet = insertedSet ?? Set(inserted), updatedSet = Set(updated), deletedSet = Set(deleted)
        let updatedIDs = Self._objectIDs(of: updated)
        let deletedIDs = Self._objectIDs(of: deleted)
        var objects: [AnyHashable: Any] = [
            NSInsertedObjectsKey: insertedSet, NSUpdatedObjectsKey: updatedSet, NSDeletedObjectsKey: deletedSet,
            NSManagedObjectContext.NotificationKey.sourceContext.rawValue: self,
        ]
        var ids: [AnyHashable: Any] = [
            NSInsertedObjectIDsKey: insertedIDs, NSUpdatedObjectIDsKey: updatedIDs, NSDeletedObjectIDsKey: deletedIDs,
            NSInvalidatedObjectIDsKey: Set<NSManagedObjectID>(),
        ]
        // A pinned context moves to the generation its own save made.
        _advanceQueryGeneration()
        if let token = _links.queryGeneration {
            objects[NSManagedObjectContextQueryGenerationKey] = token
            ids[NSManagedObjectContextQueryGenerationKey] = token
        }
        NotificationCenter.default.post(name: .NSManagedObjectContextDidSave, object: self, userInfo: objects)
        NotificationCenter.default.post(name: .NSManagedObjectContextDidSaveObjectIDs, object: self, userInfo: ids)
    }

    /// The IDs of `objects` as a set, sized for them at once: without an array of them first.
    private static func _objectIDs(of objects: [NSManagedObject]) -> Set<NSManagedObjectID> {
        var ids = Set<NSManagedObjectID>(minimumCapacity: objects.count)
        // `update(with:)`, as in `_collectObjectsDidChange()`.
        ObjectPassPrefetch.forEach(in: objects, parts: .objectID) { _, object in ids.update(with: object.objectID) }
        return ids
    }
}

/// The IDs of the objects one save wrote; safe to hand to other contexts' queues.
struct SavedObjectIDs: Sendable {
    let inserted: Set<NSManagedObjectID>
    let updated: Set<NSManagedObjectID>
    let deleted: Set<NSManagedObjectID>

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

extension NSManagedObjectContext {
    /// Posts `NSManagedObjectContextObjectsDidChange` with `NSInvalidatedAllObjectsKey` after `reset()`:
    /// its value is the array of the IDs of the objects the context held.
    func _postInvalidatedAll(_ objects: Set<NSManagedObject>) {
        let events = _changeEvents
        events.changed = [:]
        events.insertedAtLastEvent = [:]
        events.reportedEveryInserted = nil
        events.deletedAtLastEvent = [:]
        events.refreshed = [:]
        events.invalidated = [:]
        events.mergedInserted = [:]
        events.mergedDeleted = [:]
        NotificationCenter.default.post(
            name: .NSManagedObjectContextObjectsDidChange, object: self,
            userInfo: [NSInvalidatedAllObjectsKey: objects.map(\.objectID)])
    }
}

extension NSManagedObjectContext {
    /// Loads, before a save applies delete rules, every row those rules will read: the deleted objects
    /// that are still faults, and the related objects and relationships of each deleted object whose
    /// rules are still pending — following cascades, whose destinations are deleted in turn.
    ///
    /// The rules fire those faults and relationship faults where no error can be reported; a row the
    /// store fails to read (a damaged row, a missing external data file) would stop the process there.
    /// Loading them first lets `save()` throw the store's error instead, with nothing written and the
    /// context's changes kept. An object whose rules were skipped because something they read could not
    /// be loaded (see ``_loadDeletedObject(_:)``) gets them applied once everything loads.
    func _loadDeletedFaults() throws {
        var work = _deleted.values.filter { $0._isFault || !$0.preparedForDeletion }
        var seen: Set<ObjectIdentifier> = []
        while let object = work.popLast() {
            guard seen.insert(ObjectIdentifier(object)).inserted else { continue }
            if object._isFault {
                guard let row = try _coordinatorRow(for: object._objectID, fresh: stalenessInterval >= 0) else {
                    // A row that is gone: the fault's own rules (an inaccessible fault reads as deleted).
                    if !shouldDeleteInaccessibleFaults, !object._objectID.isTemporaryID || _links.parent != nil {
                        throw Self._missingObjectError(object._objectID, nil, nil)
                    }
                    continue
                }
                fulfill(object, from: row)
                object.preparedForDeletion = false
            }
            guard !object.preparedForDeletion else { continue }
            work += try _loadDeleteRuleDestinations(of: object).filter { !seen.contains(ObjectIdentifier($0)) }
        }
    }

    /// Fires a deleted object's fault and loads what its delete rules read; `false` when the store
    /// cannot read one of those rows. The object's rules then wait: a save first calls
    /// ``_loadDeletedFaults()``, which throws the store's error (processing pending changes, as
    /// `rollback()` and `processPendingChanges()` do, cannot report one).
    func _loadDeletedObject(_ object: NSManagedObject) -> Bool {
        do {
            if object._isFault {
                if let row = try _coordinatorRow(for: object._objectID, fresh: stalenessInterval >= 0) {
                    fulfill(object, from: row)
                } else if shouldDeleteInaccessibleFaults || (object._objectID.isTemporaryID && _links.parent == nil) {
                    // A row that is gone: the object reads as deleted, with no values.
                    object.willAccessValue(forKey: nil)
                } else {
                    return false
                }
            }
            _ = try _loadDeleteRuleDestinations(of: object)
            return true
        } catch {
            return false
        }
    }
}
